/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check.c -- docs/format.md's two measures of an answer x:
 *
 *     constraint error   max |(I - S)(x - z)|
 *     relative residual  |S (b - A x)|_2 / |S (b - A (I - S) z)|_2
 *
 * (the residual norm itself when the denominator is zero). S comes from the
 * U blocks (S_i = U_i U_i^T), so the measures see the same filter as the
 * solvers, but they apply A and S to the full vectors directly: nothing of
 * the reduced system is involved. */
#include "check.h"
#include "kernels.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* |v|_2 scaled by the largest entry, so that huge or tiny residuals
 * neither overflow nor underflow. NaN anywhere gives NaN (fmax would drop
 * it and could report 0 for a garbage vector). */
static double norm2(const double *v, size_t n)
{
    double scale = 0;
    for (size_t k = 0; k < n; k++) {
        if (isnan(v[k]))
            return NAN;
        scale = fmax(scale, fabs(v[k]));
    }
    if (scale == 0 || !isfinite(scale))
        return scale;
    double sum = 0;
    for (size_t k = 0; k < n; k++) {
        double t = v[k] / scale;
        sum += t * t;
    }
    return scale * sqrt(sum);
}

/* y = |A| |w|, entry by entry, from the columns of nodes whose w is not
 * zero (the constrained ones): the size of what is summed in A w, which
 * its round-off is relative to even where the sum cancels. */
static void abs_product(const cpg_bmat *A, const double *w, double *y)
{
    memset(y, 0, 3 * (size_t)A->nb * sizeof(double));
    for (int J = 0; J < A->nb; J++) {
        const double *wj = w + 3L * J;
        if (wj[0] == 0 && wj[1] == 0 && wj[2] == 0)
            continue;
        for (int k = A->p[J]; k < A->p[J + 1]; k++) {
            const double *B = A->x + 9L * k;
            double *yi = y + 3L * A->i[k];
            for (int a = 0; a < 3; a++)
                for (int c = 0; c < 3; c++)
                    yi[a] += fabs(B[3 * c + a]) * fabs(wj[c]);
        }
    }
}

/* The measures with caller-provided work vectors w and Aw (n each). */
void cpg_check_measures(const cpg_bmat *A, const cpg_ublocks *u,
                        const double *b, const double *z, const double *x,
                        double *w, double *Aw, double *constraint_error,
                        double *rel_residual, double *prescribed_ratio)
{
    size_t n = 3 * (size_t)A->nb;

    /* (I - S)(x - z) */
    for (size_t k = 0; k < n; k++)
        Aw[k] = z ? x[k] - z[k] : x[k];
    cpg_prescribed(u, Aw, w);
    double cerr = 0;
    for (size_t k = 0; k < n && !isnan(cerr); k++)
        cerr = isnan(w[k]) ? NAN : fmax(cerr, fabs(w[k]));

    /* numerator: S (b - A x) */
    cpg_bmat_mult(A, x, Aw);
    for (size_t k = 0; k < n; k++)
        Aw[k] = b[k] - Aw[k];
    cpg_filter(u, Aw);
    double num = norm2(Aw, n);

    /* denominator: b^ = S (b - A (I - S) z) */
    cpg_prescribed(u, z, w);
    double prescribed = 0;
    if (prescribed_ratio) {
        abs_product(A, w, Aw);
        cpg_filter(u, Aw);
        prescribed = norm2(Aw, n);
    }
    cpg_bmat_mult_prescribed(A, w, Aw);
    for (size_t k = 0; k < n; k++)
        Aw[k] = b[k] - Aw[k];
    cpg_filter(u, Aw);
    double den = norm2(Aw, n);

    *constraint_error = cerr;
    *rel_residual = den > 0 ? num / den : num;
    if (prescribed_ratio)
        *prescribed_ratio = den > 0 ? prescribed / den : INFINITY;
}

/* The first entry of v that is NaN or Inf, or -1. */
static long first_non_finite(const double *v, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!isfinite(v[k]))
            return (long)k;
    return -1;
}

/* corepcg_check's arguments, for check_answer. */
typedef struct check_args {
    const corepcg_system *sys;
    const double *b, *x;
    double *constraint_error, *rel_residual;
} check_args;

static int check_answer(const check_args *c, char *msg)
{
    const corepcg_system *sys = c->sys;
    const double *b = c->b, *x = c->x;
    double *constraint_error = c->constraint_error;
    double *rel_residual = c->rel_residual;
    /* The system as setup takes it (same checks, codes and messages),
     * then the two vectors only check has. */
    cpg_sys sys_in;
    int rc = cpg_sys_import(sys, NULL, &sys_in, msg);
    size_t n = rc == COREPCG_OK ? 3 * (size_t)sys->num_nodes : 0;
    const struct { const double *v; const char *name; } vectors[] = {
        {b, "b"}, {x, "x"}};
    for (size_t k = 0; rc == COREPCG_OK && k < 2; k++) {
        long bad = first_non_finite(vectors[k].v, n);
        if (bad >= 0)
            rc = cpg_fail(msg, COREPCG_ERR_NOT_FINITE,
                          "%s[%ld] = %g is not finite", vectors[k].name, bad,
                          vectors[k].v[bad]);
    }
    double *work = rc == COREPCG_OK ? malloc(2 * n * sizeof(double)) : NULL;
    if (rc == COREPCG_OK && !work)
        rc = cpg_fail(msg, COREPCG_ERR_NO_MEMORY,
                      "corepcg_check: out of memory");
    if (rc == COREPCG_OK) {
        cpg_check_measures(&sys_in.A, &sys_in.u, b, sys_in.z, x, work,
                           work + n, constraint_error, rel_residual, NULL);
        /* finite inputs, yet A x overflowed: no measure can be trusted */
        if (!isfinite(*constraint_error) || !isfinite(*rel_residual))
            rc = cpg_fail(msg, COREPCG_ERR_NAN,
                          "corepcg_check: the residual is not finite (A x "
                          "overflows): constraint error %g, relative "
                          "residual %g", *constraint_error, *rel_residual);
    }
    free(work);
    cpg_sys_free(&sys_in);
    return rc;
}

int corepcg_check(const corepcg_system *sys, const double *b,
                  const double *x, double *constraint_error,
                  double *rel_residual, char *msg)
{
    if (msg)
        msg[0] = '\0';
    if (!sys || !b || !x || !constraint_error || !rel_residual)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "corepcg_check: sys, b, x and both outputs are "
                        "required");
    check_args c = {sys, b, x, constraint_error, rel_residual};
    return check_answer(&c, msg);
}


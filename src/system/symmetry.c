/* SPDX-License-Identifier: GPL-2.0-or-later */
/* symmetry.c -- the one rule for a matrix given with both triangles: it is
 * symmetric when |a_ij - a_ji| <= 1e-12 max|A| for every pair, and a
 * refusal names the pair that breaks the rule most. */
#include "cholmod_quiet.h"
#include "system.h"

#include <math.h>

#define SYMMETRY_TOL 1e-12

/* Entry (i, j) with duplicates summed; 0 when not stored. */
static double entry_at(const cholmod_sparse *A, int i, int j)
{
    const int *Ap = A->p, *Ai = A->i, *Anz = A->nz;
    const double *Ax = A->x;
    int end = A->packed ? Ap[j + 1] : Ap[j] + Anz[j];
    double v = 0;
    for (int k = Ap[j]; k < end; k++)
        if (Ai[k] == i)
            v += Ax[k];
    return v;
}

static double max_abs(const cholmod_sparse *A)
{
    const int *Ap = A->p, *Anz = A->nz;
    const double *Ax = A->x;
    double m = 0;
    for (size_t j = 0; j < A->ncol; j++) {
        int end = A->packed ? Ap[j + 1] : Ap[j] + Anz[j];
        for (int k = Ap[j]; k < end; k++)
            m = fmax(m, fabs(Ax[k]));
    }
    return m;
}

int cpg_symmetry_check(cholmod_sparse *A, const char *what, int base,
                       cholmod_common *cm, cholmod_sparse **transpose,
                       char *msg)
{
    if (transpose)
        *transpose = NULL;
    cholmod_sparse *At = cholmod_transpose(A, 1, cm);
    cholmod_sparse *D = At ? cholmod_add(A, At, (double[2]){1, 0},
                                         (double[2]){-1, 0}, 1, 0, cm)
                           : NULL;
    int rc = COREPCG_OK;
    if (!D || cm->status < CHOLMOD_OK) {
        rc = cpg_cholmod_code(cm);
        rc = cpg_fail(msg, rc != COREPCG_OK ? rc : COREPCG_ERR_CHOLMOD,
                      "%s: cannot transpose A to check its symmetry "
                      "(CHOLMOD status %d)", what, cm->status);
    } else {
        const int *Dp = D->p, *Di = D->i;
        const double *Dx = D->x;
        double dmax = 0;
        int wi = 0, wj = 0;
        for (size_t j = 0; j < D->ncol; j++)
            for (int k = Dp[j]; k < Dp[j + 1]; k++)
                if (fabs(Dx[k]) > dmax) {
                    dmax = fabs(Dx[k]);
                    wi = Di[k];
                    wj = (int)j;
                }
        double amax = max_abs(A);
        if (dmax > SYMMETRY_TOL * amax)
            rc = cpg_fail(msg, COREPCG_ERR_NOT_SYMMETRIC,
                          "%s is not symmetric: A(%d,%d) = %.17g, A(%d,%d) "
                          "= %.17g (|difference| %.3g > %g max|A| = %.3g)",
                          what, wi + base, wj + base, entry_at(A, wi, wj),
                          wj + base, wi + base, entry_at(A, wj, wi), dmax,
                          SYMMETRY_TOL, SYMMETRY_TOL * amax);
    }
    cholmod_free_sparse(&D, cm);
    if (transpose && rc == COREPCG_OK)
        *transpose = At;
    else
        cholmod_free_sparse(&At, cm);
    return rc;
}

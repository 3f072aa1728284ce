/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ublocks.c -- the constraints as explicit bases U_i (3 x ndof_i) with
 * U_i^T U_i = I and U_i U_i^T = S_i (Ye, Webber & Wang sec. 3), and the
 * products with U and S that the reducer, MPCG and the checks share. */
#include "system.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* docs/format.md: q counts as orthogonal to p when |p.q| <= 1e-6 (unit vectors). */
#define ORTHOGONALITY_TOL 1e-6

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Scaled so that squaring neither overflows nor underflows (p may come
 * un-normalised from a user with any magnitude). */
static double norm3(const double a[3])
{
    double m = fmax(fabs(a[0]), fmax(fabs(a[1]), fabs(a[2])));
    if (m == 0 || !isfinite(m))
        return m;
    double b[3] = {a[0] / m, a[1] / m, a[2] / m};
    return m * sqrt(dot3(b, b));
}

static int finite3(const double a[3])
{
    return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]);
}

static void cross3(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static void unit3(const double a[3], double u[3])
{
    double m = fmax(fabs(a[0]), fmax(fabs(a[1]), fabs(a[2])));
    double b[3] = {a[0] / m, a[1] / m, a[2] / m};
    double s = sqrt(dot3(b, b));
    u[0] = b[0] / s;
    u[1] = b[1] / s;
    u[2] = b[2] / s;
}

int cpg_constraint_check(const corepcg_constraint *c, int N, char *why)
{
    if (c->node < 0 || c->node >= N)
        return cpg_fail(why, COREPCG_ERR_CONSTRAINT,
                        "node %d is out of range [0, %d)", c->node, N);
    if (c->ndof < 0 || c->ndof > 3)
        return cpg_fail(why, COREPCG_ERR_CONSTRAINT,
                        "ndof %d is not 0, 1, 2 or 3", c->ndof);
    /* ndof 3: a free node, as if unlisted (a simulator's per-particle
     * array of records); fixed nodes have no directions either */
    if (c->ndof == 0 || c->ndof == 3)
        return COREPCG_OK;
    /* NaN or Inf is ERR_NOT_FINITE, as in A, b, z and constraints.txt */
    if (!finite3(c->p))
        return cpg_fail(why, COREPCG_ERR_NOT_FINITE, "p is not finite");
    if (norm3(c->p) == 0)
        return cpg_fail(why, COREPCG_ERR_CONSTRAINT, "p is zero");
    if (c->ndof == 2)
        return COREPCG_OK;
    if (!finite3(c->q))
        return cpg_fail(why, COREPCG_ERR_NOT_FINITE, "q is not finite");
    if (norm3(c->q) == 0)
        return cpg_fail(why, COREPCG_ERR_CONSTRAINT, "q is zero");
    double p[3], q[3];
    unit3(c->p, p);
    unit3(c->q, q);
    double pq = fabs(dot3(p, q)), pxq[3];
    cross3(p, q, pxq);
    if (pq > ORTHOGONALITY_TOL && norm3(pxq) <= ORTHOGONALITY_TOL)
        return cpg_fail(why, COREPCG_ERR_CONSTRAINT,
                        "q is parallel to p (|p x q| = %.3g after "
                        "normalising): p x q is degenerate, no line is "
                        "left free", norm3(pxq));
    if (pq > ORTHOGONALITY_TOL)
        return cpg_fail(why, COREPCG_ERR_CONSTRAINT,
                        "q is not orthogonal to p (|p.q| = %.3g after "
                        "normalising)", pq);
    return COREPCG_OK;
}

/*
 * The plane with unit normal p: Ye et al.'s eq. 13, written so that it is
 * exact in every case. With s = sqrt(1 - p1^2) computed as hypot(p2, p3)
 * (no cancellation when |p1| is near 1) and (c2, c3) = (p2, p3) / s,
 *
 *     u1 = (s, -p1 c2, -p1 c3),     u2 = sigma (0, c3, -c2),
 *
 * which is eq. 13's pair of nonzero columns: u1 = (e1 - p1 p) / s and
 * u2 = sigma p x u1, sigma = sign(p3) (and the paper's (0,0,1) for p3 = 0).
 * |u1|^2 = s^2 + p1^2 = 1 whatever s is, so the basis stays orthonormal as
 * s -> 0. When s is exactly 0 (p = +-e1, where the printed formula divides
 * by zero for p1 = -1) the plane is spanned by e2, e3: the paper's choice
 * for p1 = 1, used for p1 = -1 too.
 */
void cpg_ublock_plane(const double p[3], double U[9])
{
    double s = hypot(p[1], p[2]);
    memset(U, 0, 9 * sizeof(double));
    if (s == 0) {
        U[1] = 1; /* u1 = e2 */
        U[5] = 1; /* u2 = e3 */
        return;
    }
    double c2 = p[1] / s, c3 = p[2] / s;
    double sigma = p[2] < 0 || (p[2] == 0 && c2 > 0) ? -1.0 : 1.0;
    U[0] = s;
    U[1] = -p[0] * c2;
    U[2] = -p[0] * c3;
    U[3] = 0;
    U[4] = sigma * c3;
    U[5] = -sigma * c2;
}

/* The line orthogonal to unit p and q: u = (p x q) / |p x q|. */
int cpg_ublock_line(const double p[3], const double q[3], double U[9])
{
    double u[3];
    cross3(p, q, u);
    double s = norm3(u);
    memset(U, 0, 9 * sizeof(double));
    if (!(s > 0.5)) /* unit p, q orthogonal to 1e-6 give s >= 1 - 1e-12 */
        return COREPCG_ERR_CONSTRAINT;
    U[0] = u[0] / s;
    U[1] = u[1] / s;
    U[2] = u[2] / s;
    return COREPCG_OK;
}

void cpg_ublocks_free(cpg_ublocks *u)
{
    if (!u)
        return;
    free(u->ndof);
    free(u->off);
    free(u->U);
    memset(u, 0, sizeof *u);
}

int cpg_ublocks_build(int N, const corepcg_constraint *c, int count,
                      cpg_ublocks *out, char *msg)
{
    memset(out, 0, sizeof *out);
    if (count < 0 || (count > 0 && !c))
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "constraints: count %d with %s records", count,
                        c ? "some" : "NULL");
    out->N = N;
    out->ndof = malloc(sizeof(int) * (size_t)N);
    out->off = malloc(sizeof(int) * ((size_t)N + 1));
    out->U = calloc(9 * (size_t)N, sizeof(double));
    if (!out->ndof || !out->off || !out->U) {
        cpg_ublocks_free(out);
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "constraints: out of memory");
    }
    /* -1: not listed yet, so that a node listed twice is found whatever
     * ndof its records give (3 included) */
    for (int i = 0; i < N; i++) {
        out->ndof[i] = -1;
        out->U[9L * i] = out->U[9L * i + 4] = out->U[9L * i + 8] = 1;
    }
    char why[COREPCG_MSG_SIZE];
    for (int k = 0; k < count; k++) {
        int rc = cpg_constraint_check(&c[k], N, why);
        if (rc == COREPCG_OK && out->ndof[c[k].node] != -1)
            rc = cpg_fail(why, COREPCG_ERR_CONSTRAINT,
                          "node %d is listed twice", c[k].node);
        double *U = out->U + 9L * (rc ? 0 : c[k].node), p[3], q[3];
        if (rc == COREPCG_OK) {
            out->ndof[c[k].node] = c[k].ndof;
            if (c[k].ndof == 3) {
                /* U stays I */
            } else if (c[k].ndof == 0) {
                memset(U, 0, 9 * sizeof(double));
            } else if (c[k].ndof == 2) {
                unit3(c[k].p, p);
                cpg_ublock_plane(p, U);
            } else {
                /* q is made exactly orthogonal to p, so S_i is a projection */
                unit3(c[k].p, p);
                unit3(c[k].q, q);
                double pq = dot3(p, q);
                for (int a = 0; a < 3; a++)
                    q[a] -= pq * p[a];
                unit3(q, q);
                if (cpg_ublock_line(p, q, U) != COREPCG_OK)
                    rc = cpg_fail(why, COREPCG_ERR_CONSTRAINT,
                                  "p x q is degenerate");
            }
        }
        if (rc) {
            cpg_ublocks_free(out);
            return cpg_fail(msg, rc, "constraint %d: %s", k, why);
        }
    }
    out->off[0] = 0;
    for (int i = 0; i < N; i++) {
        if (out->ndof[i] == -1)
            out->ndof[i] = 3;
        out->off[i + 1] = out->off[i] + out->ndof[i];
    }
    out->r = out->off[N];
    return COREPCG_OK;
}

/* Columns of U_i are at U[3c .. 3c+2]. */
void cpg_filter(const cpg_ublocks *u, double *v)
{
    for (int i = 0; i < u->N; i++) {
        int d = u->ndof[i];
        if (d == 3)
            continue;
        double *vi = v + 3L * i, w[3] = {0, 0, 0};
        const double *U = u->U + 9L * i;
        for (int c = 0; c < d; c++) {
            double t = U[3 * c] * vi[0] + U[3 * c + 1] * vi[1] + U[3 * c + 2] * vi[2];
            w[0] += t * U[3 * c];
            w[1] += t * U[3 * c + 1];
            w[2] += t * U[3 * c + 2];
        }
        vi[0] = w[0];
        vi[1] = w[1];
        vi[2] = w[2];
    }
}

void cpg_prescribed(const cpg_ublocks *u, const double *z, double *out)
{
    size_t n = 3 * (size_t)u->N;
    if (!z) {
        memset(out, 0, n * sizeof(double));
        return;
    }
    memcpy(out, z, n * sizeof(double));
    cpg_filter(u, out);
    for (size_t k = 0; k < n; k++)
        out[k] = z[k] - out[k];
}

void cpg_restrict(const cpg_ublocks *u, const double *x, double *xt)
{
    for (int i = 0; i < u->N; i++) {
        const double *xi = x + 3L * i, *U = u->U + 9L * i;
        double *t = xt + u->off[i];
        for (int c = 0; c < u->ndof[i]; c++)
            t[c] = U[3 * c] * xi[0] + U[3 * c + 1] * xi[1] + U[3 * c + 2] * xi[2];
    }
}

void cpg_prolong(const cpg_ublocks *u, const double *xt, const double *w,
                 double *x)
{
    for (int i = 0; i < u->N; i++) {
        double *xi = x + 3L * i;
        const double *U = u->U + 9L * i, *t = xt + u->off[i];
        for (int a = 0; a < 3; a++) {
            double v = w ? w[3L * i + a] : 0;
            for (int c = 0; c < u->ndof[i]; c++)
                v += U[3 * c + a] * t[c];
            xi[a] = v;
        }
    }
}

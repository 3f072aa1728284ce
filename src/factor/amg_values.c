/* SPDX-License-Identifier: GPL-2.0-or-later */
/* amg_values.c -- the multigrid hierarchy's values for one step (amg.h):
 * the projected matrix from A and U, and on each level the inverses of
 * the diagonal blocks, the smoothed prolongator
 * P = (I - omega D^-1 A) T with omega = 4 / (3 rho(D^-1 A)), R = P^T and
 * the Galerkin operator R A P of the next level; on the last the dense
 * Cholesky factor. */
#include "amg.h"
#include "kernels.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Work on a level's rows that is row by row: two halves of the rows on
 * two threads from CPG_PARALLEL_COLUMNS rows on, each with its own row
 * markers; every row's sums are the same either way. */
typedef void rows_fn(void *ctx, int from, int to, int *mark);

typedef struct rows_job {
    rows_fn *rows;
    void *ctx;
    int n;
    int *const *mark;
} rows_job;

static void rows_part(void *arg, int which)
{
    const rows_job *j = arg;
    int half = j->n / 2;
    j->rows(j->ctx, which ? half : 0, which ? j->n : half, j->mark[which]);
}

static void by_rows(const cpg_amg *amg, rows_fn *rows, void *ctx, int n)
{
    rows_job j = {rows, ctx, n, amg->mark};
    cpg_two_parts(rows_part, &j, cpg_two_threads(n));
}

typedef struct product_job {
    const cpg_bsr *X, *Y;
    cpg_bsr *C;
} product_job;

static void product_rows(void *ctx, int from, int to, int *mark)
{
    product_job *p = ctx;
    cpg_bsr_product_rows(p->X, p->Y, p->C, mark, from, to);
}

/* C = X Y on C's pattern. */
static void sparse_product(const cpg_amg *amg, const cpg_bsr *X, const cpg_bsr *Y,
                           cpg_bsr *C)
{
    product_job p = {X, Y, C};
    by_rows(amg, product_rows, &p, C->n);
}

typedef struct mult_job {
    const cpg_bsr *A;
    const double *x;
    double *y;
} mult_job;

static void mult_rows(void *ctx, int from, int to, int *mark)
{
    mult_job *m = ctx;
    (void)mark;
    cpg_bsr_mult_rows(m->A, m->x, m->y, from, to);
}

/* y = A x. */
static void mult(const cpg_amg *amg, const cpg_bsr *A, const double *x, double *y)
{
    mult_job m = {A, x, y};
    by_rows(amg, mult_rows, &m, A->n);
}

/* c = a b, 3x3 row-major (c distinct from a and b). */
static void product(const double *a, const double *b, double *c)
{
    for (int r = 0; r < 3; r++)
        for (int s = 0; s < 3; s++)
            c[3 * r + s] = a[3 * r] * b[s] + a[3 * r + 1] * b[3 + s] +
                           a[3 * r + 2] * b[6 + s];
}

/* S_i = U_i U_i^T (symmetric) of every node into S (9 N), by the finest
 * level's numbering: S + 9k holds node order[k]'s. */
static void filters(const cpg_ublocks *u, const int *order, double *S)
{
    for (int k = 0; k < u->N; k++) {
        int i = order[k];
        const double *U = u->U + 9 * (size_t)i;
        double *s = S + 9 * (size_t)k;
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++) {
                double v = 0;
                for (int e = 0; e < u->ndof[i]; e++)
                    v += U[3 * e + a] * U[3 * e + c];
                s[3 * a + c] = v;
            }
    }
}

/* Level 0: Ap = S A S + D (I - S) by the finest level's numbering. A's
 * block column i holds A_ji column-major, which read row-major is A_ij
 * (A is symmetric). */
typedef struct projected_job {
    const cpg_amg *amg;
    const cpg_bmat *A;
    const cpg_ublocks *u;
} projected_job;

static void projected_rows(void *ctx, int from, int to, int *mark)
{
    const projected_job *job = ctx;
    const cpg_amg *amg = job->amg;
    const cpg_bmat *A = job->A;
    const cpg_ublocks *u = job->u;
    const cpg_bsr *A0 = &amg->lev[0].A;
    const double *S = amg->filters;
    double t[9];
    (void)mark;
    for (int k = from; k < to; k++) {
        int i = amg->order[k];
        for (int q = A0->p[k]; q < A0->p[k + 1]; q++) {
            int c = A0->j[q], j = amg->order[c];
            const double *a = A->x + 9 * (size_t)amg->src[q];
            double *out = A0->x + 9 * (size_t)q;
            if (u->ndof[i] == 3 && u->ndof[j] == 3) {
                memcpy(out, a, 9 * sizeof(double));
                continue;
            }
            product(S + 9 * (size_t)k, a, t);
            product(t, S + 9 * (size_t)c, out);
        }
        if (u->ndof[i] < 3) {
            double *out = A0->x + 9 * (size_t)A0->diag[k];
            const double *a = A->x + 9 * (size_t)amg->src[A0->diag[k]];
            const double *s = S + 9 * (size_t)k;
            double d = (a[0] + a[4] + a[8]) / 3;
            /* a fixed node's block may be zero (only the free part of a
             * block must be positive definite, and it has none): its
             * directions, coupled to nothing, take any positive scale */
            if (!(d > 0))
                d = 1;
            for (int e = 0; e < 9; e++)
                out[e] += d * ((e % 4 == 0) - s[e]);
        }
    }
}

/* inv = a^-1 for a symmetric 3x3 block by its Cholesky factor (a's lower
 * triangle); 0 when a is not positive definite. */
static int invert(const double *a, double *inv)
{
    double l00 = a[0];
    if (!(l00 > 0))
        return 0;
    l00 = sqrt(l00);
    double l10 = a[3] / l00, l20 = a[6] / l00;
    double d1 = a[4] - l10 * l10;
    if (!(d1 > 0))
        return 0;
    double l11 = sqrt(d1);
    double l21 = (a[7] - l20 * l10) / l11;
    double d2 = a[8] - l20 * l20 - l21 * l21;
    if (!(d2 > 0) || !isfinite(d2))
        return 0;
    double l22 = sqrt(d2);
    /* M = L^-1, lower */
    double m00 = 1 / l00, m11 = 1 / l11, m22 = 1 / l22;
    double m10 = -l10 * m00 / l11;
    double m21 = -l21 * m11 / l22;
    double m20 = -(l20 * m00 + l21 * m10) / l22;
    /* inv = M^T M */
    inv[0] = m00 * m00 + m10 * m10 + m20 * m20;
    inv[1] = inv[3] = m10 * m11 + m20 * m21;
    inv[2] = inv[6] = m20 * m22;
    inv[4] = m11 * m11 + m21 * m21;
    inv[5] = inv[7] = m21 * m22;
    inv[8] = m22 * m22;
    return 1;
}

/* The node whose diagonal block is not positive definite, or -1. */
static int invert_diagonal(cpg_amg_level *v)
{
    for (int i = 0; i < v->A.n; i++)
        if (!invert(v->A.x + 9 * (size_t)v->A.diag[i], v->dinv + 9 * (size_t)i))
            return i;
    return -1;
}

static void block_times(const double *m, const double *x, double *y)
{
    y[0] = m[0] * x[0] + m[1] * x[1] + m[2] * x[2];
    y[1] = m[3] * x[0] + m[4] * x[1] + m[5] * x[2];
    y[2] = m[6] * x[0] + m[7] * x[1] + m[8] * x[2];
}

/* An estimate of rho(D^-1 A) from above: ten steps of the power method
 * from a fixed start (the same on every step, so that a kept handle
 * computes what a fresh one does), the Rayleigh quotient
 * x^T A x / x^T D x, times 1.1. x, y: 3 n each. */
static double spectral_radius(const cpg_amg *amg, const cpg_amg_level *v, double *x,
                              double *y)
{
    int n3 = 3 * v->A.n;
    for (int k = 0; k < n3; k++)
        x[k] = (double)((unsigned)(k + 1) * 2654435761u % 1000u) / 1000 - 0.5;
    for (int it = 0; it < 10; it++) {
        mult(amg, &v->A, x, y);
        double norm = 0;
        for (int i = 0; i < v->A.n; i++) {
            block_times(v->dinv + 9 * (size_t)i, y + 3 * i, x + 3 * i);
            for (int c = 0; c < 3; c++)
                norm += x[3 * i + c] * x[3 * i + c];
        }
        norm = sqrt(norm);
        if (!(norm > 0))
            return 1;
        for (int k = 0; k < n3; k++)
            x[k] /= norm;
    }
    mult(amg, &v->A, x, y);
    double xAx = 0, xDx = 0, d[3];
    for (int i = 0; i < v->A.n; i++) {
        block_times(v->A.x + 9 * (size_t)v->A.diag[i], x + 3 * i, d);
        for (int c = 0; c < 3; c++) {
            xAx += x[3 * i + c] * y[3 * i + c];
            xDx += x[3 * i + c] * d[c];
        }
    }
    return xDx > 0 && xAx > 0 ? 1.1 * xAx / xDx : 1;
}

/* Node i's block of the tentative prolongator over its aggregate's
 * scale: on the finest level the translations on the free directions,
 * S_i + FIXED_SHARE (I - S_i), so that a coarse node does not carry the
 * stiffness D of the directions the filter removes (one iteration fewer
 * on the FEM T-shirts than I, or none), while the share keeps an
 * aggregate of fixed nodes' coarse block positive definite. I on the
 * coarse levels (S NULL). */
#define CPG_AMG_FIXED_SHARE 0.1
static void tentative(const double *S, int i, double *t)
{
    for (int e = 0; e < 9; e++)
        t[e] = S ? (1 - CPG_AMG_FIXED_SHARE) * S[9 * (size_t)i + e] +
                       CPG_AMG_FIXED_SHARE * (e % 4 == 0)
                 : (e % 4 == 0);
}

/* P = T - omega D^-1 A T: row i's block in column agg(j) gathers
 * -omega D_i^-1 A_ij T_j over i's row, and T_i itself; T_j the
 * tentative block times scale(agg(j)). */
typedef struct prolongator_job {
    cpg_amg_level *v;
    double omega;
    const double *S;
} prolongator_job;

static void prolongator_rows(void *ctx, int from, int to, int *mark)
{
    const prolongator_job *job = ctx;
    const cpg_amg_level *v = job->v;
    const double *S = job->S;
    const cpg_bsr *A = &v->A, *P = &v->P;
    double t[9], tj[9], u[9];
    for (int i = from; i < to; i++) {
        for (int k = P->p[i]; k < P->p[i + 1]; k++) {
            mark[P->j[k]] = k;
            memset(P->x + 9 * (size_t)k, 0, 9 * sizeof(double));
        }
        const double *dinv = v->dinv + 9 * (size_t)i;
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            int j = A->j[k], a = v->agg[j];
            product(dinv, A->x + 9 * (size_t)k, t);
            tentative(S, j, tj);
            product(t, tj, u);
            double f = -job->omega * v->scale[a];
            double *out = P->x + 9 * (size_t)mark[a];
            for (int e = 0; e < 9; e++)
                out[e] += f * u[e];
        }
        tentative(S, i, tj);
        double *own = P->x + 9 * (size_t)mark[v->agg[i]];
        for (int e = 0; e < 9; e++)
            own[e] += v->scale[v->agg[i]] * tj[e];
    }
}

static void prolongator(const cpg_amg *amg, cpg_amg_level *v, double omega,
                        const double *S)
{
    prolongator_job job = {v, omega, S};
    by_rows(amg, prolongator_rows, &job, v->A.n);
    const cpg_bsr *P = &v->P, *R = &v->R;
    for (int k = 0; k < R->p[R->n]; k++) {
        const double *from = P->x + 9 * (size_t)v->r_src[k];
        double *to = R->x + 9 * (size_t)k;
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++)
                to[3 * a + c] = from[3 * c + a];
    }
}

/* The last level's dense Cholesky factor (column-major, lower). */
static int coarse_factor(cpg_amg *amg)
{
    const cpg_bsr *A = &amg->lev[amg->levels - 1].A;
    int nd = 3 * A->n;
    memset(amg->chol, 0, (size_t)nd * (size_t)nd * sizeof(double));
    for (int i = 0; i < A->n; i++)
        for (int k = A->p[i]; k < A->p[i + 1]; k++)
            for (int a = 0; a < 3; a++)
                for (int c = 0; c < 3; c++)
                    amg->chol[(size_t)(3 * A->j[k] + c) * nd + 3 * i + a] =
                        A->x[9 * (size_t)k + 3 * a + c];
    return LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', nd, amg->chol, nd) == 0;
}

int cpg_amg_values(cpg_amg *amg, const cpg_bmat *A, const cpg_ublocks *u,
                   char *msg)
{
    double *S = amg->filters;
    filters(u, amg->order, S);
    projected_job job = {amg, A, u};
    by_rows(amg, projected_rows, &job, amg->lev[0].A.n);
    for (int l = 0; l < amg->levels; l++) {
        cpg_amg_level *v = &amg->lev[l];
        int bad = invert_diagonal(v);
        if (bad >= 0 && l == 0)
            return cpg_fail(msg, COREPCG_ERR_NOT_SPD,
                            "node %d's diagonal block on its free directions "
                            "is not positive definite, so A~ (A on the free "
                            "directions) is not", amg->order[bad]);
        if (bad >= 0)
            return cpg_fail(msg, COREPCG_ERR_NOT_SPD,
                            "the multigrid's level %d operator is not positive "
                            "definite (its node %d), so A~ (A on the free "
                            "directions) is not to working precision", l, bad);
        if (l + 1 == amg->levels)
            break;
        double rho = spectral_radius(amg, v, amg->power, amg->power + 3 * v->A.n);
        prolongator(amg, v, 4 / (3 * rho), l == 0 ? S : NULL);
        sparse_product(amg, &v->A, &v->P, &v->AP);
        sparse_product(amg, &v->R, &v->AP, &amg->lev[l + 1].A);
    }
    for (int l = 0; l < amg->levels; l++) {
        cpg_amg_level *v = &amg->lev[l];
        int rc = cpg_bsr_round(&v->A);
        if (rc == COREPCG_OK && l + 1 < amg->levels)
            rc = cpg_bsr_round(&v->P);
        if (rc == COREPCG_OK && l + 1 < amg->levels)
            rc = cpg_bsr_round(&v->R);
        if (rc != COREPCG_OK)
            return cpg_fail(msg, rc, "out of memory");
    }
    if (amg->dense && !coarse_factor(amg))
        return cpg_fail(msg, COREPCG_ERR_NOT_SPD,
                        "the multigrid's coarsest operator is not positive "
                        "definite, so A~ (A on the free directions) is not to "
                        "working precision");
    return COREPCG_OK;
}

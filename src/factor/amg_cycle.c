/* SPDX-License-Identifier: GPL-2.0-or-later */
/* amg_cycle.c -- one V(1,1) cycle of the multigrid (amg.h): on each level
 * a node-block Gauss-Seidel sweep forward from zero, the coarse
 * correction of the restricted residual, a sweep backward; the last
 * level solved by its dense factor (or, where it is not dense, by a
 * symmetric sweep). Forward before and backward after make the cycle a
 * symmetric operator, positive definite where A is, as CG needs. The
 * blocks are read in single precision (cpg_bsr.f), the sums made in
 * double: the sweeps' residual operator is then the rounded A, still
 * symmetric, and the cycle is that of the rounded hierarchy. */
#include "amg.h"
#include "kernels.h"

#include <cblas.h>

#include "blocks_avx2.h"

/* s -= sum of A's blocks k in [from, to) of row i times x, from A's
 * single-precision copy by columns (the cycle reads that alone: half the
 * memory traffic). */
static void subtract_portable(const cpg_bsr *A, int from, int to,
                              const double *x, double *s)
{
    for (int k = from; k < to; k++) {
        const float *a = A->f + 9 * (size_t)k;
        const double *v = x + 3 * (size_t)A->j[k];
        s[0] -= a[0] * v[0] + a[3] * v[1] + a[6] * v[2];
        s[1] -= a[1] * v[0] + a[4] * v[1] + a[7] * v[2];
        s[2] -= a[2] * v[0] + a[5] * v[1] + a[8] * v[2];
    }
}

#ifdef CPG_AVX2_KERNELS
/* The same 4 wide with FMA: a block's columns as registers (lane 3, the
 * next column's first entry, or the float past the last block, is never
 * read back). */
AVX2 static void subtract_avx2(const cpg_bsr *A, int from, int to,
                               const double *x, double *s)
{
    __m256d acc = _mm256_setzero_pd();
    for (int k = from; k < to; k++) {
        const float *a = A->f + 9 * (size_t)k;
        const double *v = x + 3 * (size_t)A->j[k];
        acc = _mm256_fmadd_pd(float_column(a, 0), _mm256_broadcast_sd(v), acc);
        acc = _mm256_fmadd_pd(float_column(a, 1), _mm256_broadcast_sd(v + 1), acc);
        acc = _mm256_fmadd_pd(float_column(a, 2), _mm256_broadcast_sd(v + 2), acc);
    }
    double t[4];
    _mm256_storeu_pd(t, acc);
    s[0] -= t[0];
    s[1] -= t[1];
    s[2] -= t[2];
}
#endif

static void subtract_blocks(const cpg_bsr *A, int from, int to,
                            const double *x, double *s, int avx2)
{
#ifdef CPG_AVX2_KERNELS
    if (avx2) {
        subtract_avx2(A, from, to, x, s);
        return;
    }
#endif
    (void)avx2;
    subtract_portable(A, from, to, x, s);
}

static void solve_node(const double *dinv, const double *s, double *x)
{
    x[0] = dinv[0] * s[0] + dinv[1] * s[1] + dinv[2] * s[2];
    x[1] = dinv[3] * s[0] + dinv[4] * s[1] + dinv[5] * s[2];
    x[2] = dinv[6] * s[0] + dinv[7] * s[1] + dinv[8] * s[2];
}

/* A level's rows in three parts: [0, part[0]) and [part[0], part[1])
 * share no block, [part[1], n) is what separates them (amg_pattern.c:
 * on the finest level from CPG_PARALLEL_COLUMNS nodes on; elsewhere the
 * first part is every row). Gauss-Seidel in row order sweeps the first
 * two at once, on two threads, and the separator after them (before
 * them backward): the same sweep, whatever the threads. The residual and
 * the prolongation, row by row, run in two halves of the rows. */
typedef struct level_work {
    const cpg_amg_level *v;
    const double *b;
    double *x;
    const double *xc;  /* prolong: the coarse correction */
    int avx2;
} level_work;

static void forward_rows(const level_work *w, int from, int to)
{
    const cpg_bsr *A = &w->v->A;
    for (int i = from; i < to; i++) {
        double s[3] = {w->b[3 * i], w->b[3 * i + 1], w->b[3 * i + 2]};
        subtract_blocks(A, A->p[i], A->diag[i], w->x, s, w->avx2);
        solve_node(w->v->dinv + 9 * (size_t)i, s, w->x + 3 * i);
    }
}

static void backward_rows(const level_work *w, int from, int to)
{
    const cpg_bsr *A = &w->v->A;
    for (int i = to - 1; i >= from; i--) {
        double s[3] = {w->b[3 * i], w->b[3 * i + 1], w->b[3 * i + 2]};
        subtract_blocks(A, A->p[i], A->diag[i], w->x, s, w->avx2);
        subtract_blocks(A, A->diag[i] + 1, A->p[i + 1], w->x, s, w->avx2);
        solve_node(w->v->dinv + 9 * (size_t)i, s, w->x + 3 * i);
    }
}

/* The forward sweep from zero over one of the two parts (blocks below
 * the diagonal only: the rest of x is zero). */
static void forward_part(void *arg, int which)
{
    const level_work *w = arg;
    forward_rows(w, which ? w->v->part[0] : 0, w->v->part[which]);
}

static void backward_part(void *arg, int which)
{
    const level_work *w = arg;
    backward_rows(w, which ? w->v->part[0] : 0, w->v->part[which]);
}

static void half_of(const cpg_amg_level *v, int which, int *from, int *to)
{
    *from = which ? v->A.n / 2 : 0;
    *to = which ? v->A.n : v->A.n / 2;
}

/* r = b - A x after the forward sweep: the sweep made each row's
 * residual of the blocks up to the diagonal zero, so only those above
 * it remain. */
static void residual_part(void *arg, int which)
{
    const level_work *w = arg;
    const cpg_bsr *A = &w->v->A;
    double *r = w->v->r;
    int from, to;
    half_of(w->v, which, &from, &to);
    for (int i = from; i < to; i++) {
        double s[3] = {0, 0, 0};
        subtract_blocks(A, A->diag[i] + 1, A->p[i + 1], w->x, s, w->avx2);
        r[3 * i] = s[0];
        r[3 * i + 1] = s[1];
        r[3 * i + 2] = s[2];
    }
}

/* x += P xc on one half. */
static void prolong_part(void *arg, int which)
{
    const level_work *w = arg;
    const cpg_bsr *P = &w->v->P;
    int from, to;
    half_of(w->v, which, &from, &to);
    for (int i = from; i < to; i++) {
        double s[3] = {0, 0, 0};
        subtract_blocks(P, P->p[i], P->p[i + 1], w->xc, s, w->avx2);
        for (int c = 0; c < 3; c++)
            w->x[3 * i + c] -= s[c];
    }
}

/* b = R r, by coarse rows. */
static void restrict_residual(const cpg_bsr *R, const double *r, double *b,
                              int avx2)
{
    for (int a = 0; a < R->n; a++) {
        double s[3] = {0, 0, 0};
        subtract_blocks(R, R->p[a], R->p[a + 1], r, s, avx2);
        b[3 * a] = -s[0];
        b[3 * a + 1] = -s[1];
        b[3 * a + 2] = -s[2];
    }
}

static void cycle(const cpg_amg *amg, int l, const double *b, double *x)
{
    const cpg_amg_level *v = &amg->lev[l];
    int n3 = 3 * v->A.n;
    if (l + 1 == amg->levels && amg->dense) {
        /* L L^T x = b by two triangular solves with one right-hand side:
         * LAPACKE_dpotrs would check the whole factor for NaN and pack it
         * for a BLAS-3 solve on every cycle, more work than the solves
         * (docs/benchmark.md, "amgpcg: the multigrid in C") */
        for (int k = 0; k < n3; k++)
            x[k] = b[k];
        cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, n3,
                    amg->chol, n3, x, 1);
        cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, n3,
                    amg->chol, n3, x, 1);
        return;
    }
    int two = cpg_two_threads(v->A.n);
    level_work w = {v, b, x, NULL, amg->avx2};
    cpg_two_parts(forward_part, &w, two && v->part[0] < v->part[1]);
    forward_rows(&w, v->part[1], v->A.n);
    if (l + 1 < amg->levels) {
        const cpg_amg_level *c = &amg->lev[l + 1];
        cpg_two_parts(residual_part, &w, two);
        restrict_residual(&v->R, v->r, c->b, amg->avx2);
        cycle(amg, l + 1, c->b, c->x);
        w.xc = c->x;
        cpg_two_parts(prolong_part, &w, two);
    }
    backward_rows(&w, v->part[1], v->A.n);
    cpg_two_parts(backward_part, &w, two && v->part[0] < v->part[1]);
}

/* The finest level numbers the nodes its own way (amg->order): in and
 * out are gathered and scattered around the cycle. */
int cpg_amg_cycle(void *ctx, const double *in, double *out)
{
    const cpg_amg *amg = ctx;
    const cpg_amg_level *v = &amg->lev[0];
    for (int k = 0; k < v->A.n; k++) {
        const double *from = in + 3 * (size_t)amg->order[k];
        v->b[3 * k] = from[0];
        v->b[3 * k + 1] = from[1];
        v->b[3 * k + 2] = from[2];
    }
    cycle(amg, 0, v->b, v->x);
    for (int k = 0; k < v->A.n; k++) {
        double *to = out + 3 * (size_t)amg->order[k];
        to[0] = v->x[3 * k];
        to[1] = v->x[3 * k + 1];
        to[2] = v->x[3 * k + 2];
    }
    return COREPCG_OK;
}

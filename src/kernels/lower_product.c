/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lower_product.c -- y = A~ x from A~'s lower triangle kept by 3x3-padded
 * blocks in a node order (kernels.h): each block read once, half of what
 * the whole-matrix product reads. The incomplete factor fills the values
 * at its factorisation (factor/ichol_numeric.c). */
#include "kernels.h"
#include "blocks_avx2.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int cpg_lower_alloc(cpg_lower *m, int G, const int *p, const int *i,
                    const int *off, const unsigned char *dim)
{
    memset(m, 0, sizeof *m);
    size_t g = G > 0 ? (size_t)G : 1, nb = p[G] > 0 ? (size_t)p[G] : 1;
    m->G = G;
    m->p = p;
    m->i = i;
    m->off = off;
    m->dim = dim;
    /* halves of equal blocks; in a bandwidth-reducing order the first
     * half reaches only a band of rows past it */
    int half = 0;
    while (half < G && p[half] < p[G] / 2)
        half++;
    int last = half - 1;
    for (long t = 0; t < p[half]; t++)
        if (i[t] > last)
            last = i[t];
    m->half = half;
    m->spill_rows = last - half + 1;
    /* one double more each, zero: the AVX2 kernel reads a block's third
     * column 4 wide (columns_avx2) */
    size_t spill = 3 * (size_t)(m->spill_rows > 0 ? m->spill_rows : 1);
    m->x = cpg_malloc_huge(9 * nb + 1, sizeof(double));
    m->d = malloc((9 * g + 1) * sizeof(double));
    m->spill = calloc(spill + 1, sizeof(double));
    if (!m->x || !m->d || !m->spill) {
        cpg_lower_free(m);
        return COREPCG_ERR_NO_MEMORY;
    }
    m->x[9 * nb] = 0;
    m->d[9 * g] = 0;
    m->avx2 = cpg_have_avx2();
    return COREPCG_OK;
}

void cpg_lower_free(cpg_lower *m)
{
    free(m->x);
    free(m->d);
    free(m->spill);
    memset(m, 0, sizeof *m);
}

/* Block columns [k0, k1) of y = A~ x in the padded order: each lower
 * block B (row I, column k) gives y_I += B x_k and y_k += B^T x_I; rows
 * from `from` on add into spill (row from + r at 3 r) instead of y.
 * Where the CPU has AVX2 and FMA, columns_avx2 runs instead. */
static void mult_columns(const cpg_lower *m, int k0, int k1, int from,
                         const double *x, double *y, double *spill)
{
    const int *mp = m->p, *mi = m->i;
    const double *mx = m->x, *md = m->d;
    for (int k = k0; k < k1; k++) {
        const double *xk = x + 3L * k, *D = md + 9L * k;
        const double x0 = xk[0], x1 = xk[1], x2 = xk[2];
        double y0 = D[0] * x0 + D[3] * x1 + D[6] * x2;
        double y1 = D[1] * x0 + D[4] * x1 + D[7] * x2;
        double y2 = D[2] * x0 + D[5] * x1 + D[8] * x2;
        for (int t = mp[k]; t < mp[k + 1]; t++) {
            const double *B = mx + 9L * t;
            const int I = mi[t];
            const double *xi = x + 3L * I;
            double *yi = I < from ? y + 3L * I : spill + 3L * (I - from);
            yi[0] += B[0] * x0 + B[3] * x1 + B[6] * x2;
            yi[1] += B[1] * x0 + B[4] * x1 + B[7] * x2;
            yi[2] += B[2] * x0 + B[5] * x1 + B[8] * x2;
            y0 += B[0] * xi[0] + B[1] * xi[1] + B[2] * xi[2];
            y1 += B[3] * xi[0] + B[4] * xi[1] + B[5] * xi[2];
            y2 += B[6] * xi[0] + B[7] * xi[1] + B[8] * xi[2];
        }
        double *yk = y + 3L * k;
        yk[0] += y0;
        yk[1] += y1;
        yk[2] += y2;
    }
}

#ifdef CPG_AVX2_KERNELS
/* mult_columns 4 wide with FMA (blocks_avx2.h): other groupings of the
 * sums, so other round-off. m->x and m->d, and spill past its 3
 * spill_rows, are read one double past their end. */
AVX2 static void columns_avx2(const cpg_lower *m, int k0, int k1, int from,
                              const double *x, double *y, double *spill)
{
    const int *mp = m->p, *mi = m->i;
    const int G = m->G;
    for (int k = k0; k < k1; k++) {
        const double *xk = x + 3L * k;
        const __m256d x0 = _mm256_broadcast_sd(xk),
                      x1 = _mm256_broadcast_sd(xk + 1),
                      x2 = _mm256_broadcast_sd(xk + 2);
        __m256d a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0;
        for (int t = mp[k]; t < mp[k + 1]; t++) {
            const double *B = m->x + 9L * t;
            const int I = mi[t];
            double *yi = I < from ? y + 3L * I : spill + 3L * (I - from);
            add_row(yi, block_times(B, x0, x1, x2), I == from - 1);
            const __m256d xi = load_row(x + 3L * I, I == G - 1);
            a0 = _mm256_fmadd_pd(double_column(B, 0), xi, a0);
            a1 = _mm256_fmadd_pd(double_column(B, 1), xi, a1);
            a2 = _mm256_fmadd_pd(double_column(B, 2), xi, a2);
        }
        /* a_c's lane 3: column c's fourth lane times xi's zero */
        __m256d yk = _mm256_add_pd(block_times(m->d + 9L * k, x0, x1, x2),
                                   lane_sums(a0, a1, a2));
        double *out = y + 3L * k;
        store_row(out, _mm256_add_pd(_mm256_maskload_pd(out, three()), yk));
    }
}
#endif

typedef struct halves_job {
    const cpg_lower *m;
    const double *x;
    double *y;
} halves_job;

/* Half `which` of y = A~ x (cpg_lower): its rows of y zeroed, its
 * columns multiplied. */
static void mult_half(void *arg, int which)
{
    const halves_job *j = arg;
    const cpg_lower *m = j->m;
    const int G = m->G, half = m->half;
    void (*columns)(const cpg_lower *, int, int, int, const double *,
                    double *, double *) = mult_columns;
#ifdef CPG_AVX2_KERNELS
    if (m->avx2)
        columns = columns_avx2;
#endif
    if (which == 0) {
        memset(j->y, 0, 3 * sizeof(double) * (size_t)half);
        memset(m->spill, 0, 3 * sizeof(double) * (size_t)m->spill_rows);
        columns(m, 0, half, half, j->x, j->y, m->spill);
    } else {
        memset(j->y + 3L * half, 0, 3 * sizeof(double) * (size_t)(G - half));
        columns(m, half, G, G, j->x, j->y, NULL);
    }
}

/* y = A~ x in the padded order, by halves (cpg_lower). */
static void padded_mult(const cpg_lower *m, const double *x, double *y)
{
    halves_job job = {m, x, y};
    cpg_two_parts(mult_half, &job, cpg_two_threads(m->G));
    double *ys = y + 3L * m->half;
    for (long r = 0; r < 3L * m->spill_rows; r++)
        ys[r] += m->spill[r];
}

/* What PCG reads while nothing is loaded: NaN, which it refuses
 * (ERR_NAN), not a stale or empty product. */
static void not_loaded(long len, double *out)
{
    for (long q = 0; q < len; q++)
        out[q] = NAN;
}

void cpg_lower_apply_padded(void *ctx, const double *in, double *out)
{
    cpg_lower *m = ctx;
    if (!m->loaded)
        not_loaded(3L * m->G, out);
    else
        padded_mult(m, in, out);
}

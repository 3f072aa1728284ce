/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ichol_sweeps.c -- the incomplete factor's triangular sweeps, which
 * apply M^-1 inside icpcg's PCG (factor/ichol_numeric.c keeps the
 * factor): every form of the kernel, portable (SSE2 where the compiler
 * targets it, plain C otherwise) and AVX2 with FMA, chosen per call. */
#include "kernels.h"
#include "blocks_avx2.h"

#ifdef __SSE2__
#include <emmintrin.h>

/* Rows 0 and 1 of column c of a float block F, as two doubles (an 8-byte
 * load: the blocks are 4-aligned) */
static inline __m128d column_top(const float *F, int c)
{
    return _mm_cvtps_pd(
        _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(F + 3 * c))));
}

/* Columns 0 and 1 of row a of F, as two doubles */
static inline __m128d row_left(const float *F, int a)
{
    return _mm_cvtps_pd(
        _mm_unpacklo_ps(_mm_load_ss(F + a), _mm_load_ss(F + 3 + a)));
}
#endif

/* The two sweeps with F in float: w <- D^-1 (I + F)^-1 w (forward, F's
 * columns scattered in increasing order), then w <- (I + F)^-T w (backward,
 * the same columns gathered in decreasing order): F is read in its storage
 * order both times. With SSE2 (every x86-64) the first two rows (forward)
 * or columns (backward) of each block go as one pair of doubles: the same
 * products and sums in the same order as the plain code, so the same bits
 * (its gain: docs/benchmark.md, "icpcg's step on two threads"). */
static void sweeps_portable(int G, const int *lp, const int *li,
                            const float *lx, const double *dinv, double *w)
{
    for (int k = 0; k < G; k++) {
        double *wk = w + 3L * k;
        const double y0 = wk[0], y1 = wk[1], y2 = wk[2];
#ifdef __SSE2__
        const __m128d Y0 = _mm_set1_pd(y0), Y1 = _mm_set1_pd(y1),
                      Y2 = _mm_set1_pd(y2);
#endif
        for (int q = lp[k]; q < lp[k + 1]; q++) {
            const float *F = lx + 9L * q;
            double *wi = w + 3L * li[q];
#ifdef __SSE2__
            __m128d t = _mm_add_pd(_mm_mul_pd(column_top(F, 0), Y0),
                                   _mm_mul_pd(column_top(F, 1), Y1));
            t = _mm_add_pd(t, _mm_mul_pd(column_top(F, 2), Y2));
            _mm_storeu_pd(wi, _mm_sub_pd(_mm_loadu_pd(wi), t));
#else
            wi[0] -= F[0] * y0 + F[3] * y1 + F[6] * y2;
            wi[1] -= F[1] * y0 + F[4] * y1 + F[7] * y2;
#endif
            wi[2] -= F[2] * y0 + F[5] * y1 + F[8] * y2;
        }
        const double *S = dinv + 9L * k;
        wk[0] = S[0] * y0 + S[3] * y1 + S[6] * y2;
        wk[1] = S[1] * y0 + S[4] * y1 + S[7] * y2;
        wk[2] = S[2] * y0 + S[5] * y1 + S[8] * y2;
    }
    for (int k = G - 1; k >= 0; k--) {
        double *wk = w + 3L * k;
        double x2 = wk[2];
#ifdef __SSE2__
        __m128d x01 = _mm_loadu_pd(wk);
        for (int q = lp[k]; q < lp[k + 1]; q++) {
            const float *F = lx + 9L * q;
            const double *wi = w + 3L * li[q];
            const __m128d W0 = _mm_set1_pd(wi[0]), W1 = _mm_set1_pd(wi[1]),
                          W2 = _mm_set1_pd(wi[2]);
            __m128d t = _mm_add_pd(_mm_mul_pd(row_left(F, 0), W0),
                                   _mm_mul_pd(row_left(F, 1), W1));
            t = _mm_add_pd(t, _mm_mul_pd(row_left(F, 2), W2));
            x01 = _mm_sub_pd(x01, t);
            x2 -= F[6] * wi[0] + F[7] * wi[1] + F[8] * wi[2];
        }
        _mm_storeu_pd(wk, x01);
        wk[2] = x2;
#else
        double x0 = wk[0], x1 = wk[1];
        for (int q = lp[k]; q < lp[k + 1]; q++) {
            const float *F = lx + 9L * q;
            const double *wi = w + 3L * li[q];
            x0 -= F[0] * wi[0] + F[1] * wi[1] + F[2] * wi[2];
            x1 -= F[3] * wi[0] + F[4] * wi[1] + F[5] * wi[2];
            x2 -= F[6] * wi[0] + F[7] * wi[1] + F[8] * wi[2];
        }
        wk[0] = x0;
        wk[1] = x1;
        wk[2] = x2;
#endif
    }
}

#ifdef CPG_AVX2_KERNELS
/* The same sweeps 4 wide with FMA (blocks_avx2.h): other groupings of
 * the sums, so other round-off than sweeps_portable's. */
AVX2 static void sweeps_avx2(int G, const int *lp, const int *li,
                             const float *lx, const double *dinv, double *w)
{
    for (int k = 0; k < G; k++) {
        double *wk = w + 3L * k;
        const __m256d y0 = _mm256_broadcast_sd(wk),
                      y1 = _mm256_broadcast_sd(wk + 1),
                      y2 = _mm256_broadcast_sd(wk + 2);
        for (int q = lp[k]; q < lp[k + 1]; q++) {
            const float *F = lx + 9L * q;
            __m256d t = _mm256_mul_pd(float_column(F, 0), y0);
            t = _mm256_fmadd_pd(float_column(F, 1), y1, t);
            t = lane3_zero(_mm256_fmadd_pd(float_column(F, 2), y2, t));
            add_row(w + 3L * li[q], _mm256_sub_pd(_mm256_setzero_pd(), t),
                    li[q] == G - 1);
        }
        store_row(wk, block_times(dinv + 9L * k, y0, y1, y2));
    }
    for (int k = G - 1; k >= 0; k--) {
        double *wk = w + 3L * k;
        __m256d a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0;
        for (int q = lp[k]; q < lp[k + 1]; q++) {
            const float *F = lx + 9L * q;
            const __m256d wi = load_row(w + 3L * li[q], li[q] == G - 1);
            a0 = _mm256_fmadd_pd(float_column(F, 0), wi, a0);
            a1 = _mm256_fmadd_pd(float_column(F, 1), wi, a1);
            a2 = _mm256_fmadd_pd(float_column(F, 2), wi, a2);
        }
        __m256d s = lane_sums(a0, a1, a2);
        store_row(wk, _mm256_sub_pd(_mm256_maskload_pd(wk, three()), s));
    }
}
#endif

void cpg_ichol_sweeps(int G, const int *lp, const int *li, const float *lx,
                      const double *dinv, double *w, int avx2)
{
#ifdef CPG_AVX2_KERNELS
    if (avx2) {
        sweeps_avx2(G, lp, li, lx, dinv, w);
        return;
    }
#else
    (void)avx2;
#endif
    sweeps_portable(G, lp, li, lx, dinv, w);
}

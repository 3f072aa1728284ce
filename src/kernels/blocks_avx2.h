/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blocks_avx2.h -- the 3x3-block helpers of icpcg's AVX2 and FMA kernels,
 * the lower product (lower_product.c) and the incomplete factor's sweeps
 * (ichol_sweeps.c): a 3x3 block's column as one 4-wide register, its
 * fourth lane the next column's first entry, made zero before it can
 * reach a result. The kernels are chosen at run time (cpg_have_avx2), so
 * that the library still runs on any x86-64 (their gain:
 * docs/benchmark.md, "icpcg with AVX2, its two attempts side by side").
 *
 * A node's row of a vector is read and written 4 wide, the fourth lane
 * (the next node's first entry) written back as it was read: everywhere
 * but the last row of the vector, and in the product the last row
 * before `from`, where the next row may belong to the other thread;
 * those go through masked loads and stores. Internal. */
#ifndef COREPCG_BLOCKS_AVX2_H
#define COREPCG_BLOCKS_AVX2_H

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

/* where defined, the AVX2 kernels are compiled (and cpg_have_avx2 may
 * choose them) */
#define CPG_AVX2_KERNELS 1

#include <immintrin.h>

#define AVX2 __attribute__((target("avx2,fma")))

/* lanes 0-2 */
AVX2 static inline __m256i three(void)
{
    return _mm256_set_epi64x(0, -1, -1, -1);
}

AVX2 static inline __m256d lane3_zero(__m256d v)
{
    return _mm256_blend_pd(v, _mm256_setzero_pd(), 8);
}

/* Rows 0-2 of a float block's column c as doubles (lane 3: the next
 * column's first entry, or the padding past the last block). */
AVX2 static inline __m256d float_column(const float *F, int c)
{
    return _mm256_cvtps_pd(_mm_loadu_ps(F + 3 * c));
}

AVX2 static inline __m256d double_column(const double *B, int c)
{
    return _mm256_loadu_pd(B + 3 * c);
}

/* B v for a 3x3 block, lane 3 zero. */
AVX2 static inline __m256d block_times(const double *B, __m256d v0,
                                       __m256d v1, __m256d v2)
{
    __m256d t = _mm256_mul_pd(double_column(B, 0), v0);
    t = _mm256_fmadd_pd(double_column(B, 1), v1, t);
    return lane3_zero(_mm256_fmadd_pd(double_column(B, 2), v2, t));
}

/* Row v of a vector, lane 3 zero; `edge`: without touching the next row. */
AVX2 static inline __m256d load_row(const double *v, int edge)
{
    return edge ? _mm256_maskload_pd(v, three())
                : lane3_zero(_mm256_loadu_pd(v));
}

/* v[0..2] += t[0..2]; v[3] written back as read (its bits: a -0 stays). */
AVX2 static inline void add_row(double *v, __m256d t, int edge)
{
    if (edge) {
        _mm256_maskstore_pd(v, three(),
                            _mm256_add_pd(_mm256_maskload_pd(v, three()), t));
    } else {
        const __m256d old = _mm256_loadu_pd(v);
        _mm256_storeu_pd(v, _mm256_blend_pd(_mm256_add_pd(old, t), old, 8));
    }
}

/* v[0..2] = t[0..2], v[3] untouched. */
AVX2 static inline void store_row(double *v, __m256d t)
{
    _mm_storeu_pd(v, _mm256_castpd256_pd128(t));
    _mm_store_sd(v + 2, _mm256_extractf128_pd(t, 1));
}

/* (sum of a0's lanes 0-2, of a1's, of a2's, 0): lane 3, a column's
 * fourth entry times zero, is left out (an Inf there would give NaN). */
AVX2 static inline __m256d lane_sums(__m256d a0, __m256d a1, __m256d a2)
{
    a0 = lane3_zero(a0);
    a1 = lane3_zero(a1);
    a2 = lane3_zero(a2);
    __m256d h01 = _mm256_hadd_pd(a0, a1); /* a0 01, a1 01, a0 23, a1 23 */
    __m256d h2 = _mm256_hadd_pd(a2, _mm256_setzero_pd());
    __m256d lo = _mm256_permute2f128_pd(h01, h2, 0x20);
    __m256d hi = _mm256_permute2f128_pd(h01, h2, 0x31);
    return _mm256_add_pd(lo, hi);
}

#endif /* x86-64 with GCC or Clang */

#endif /* COREPCG_BLOCKS_AVX2_H */

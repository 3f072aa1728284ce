/* SPDX-License-Identifier: GPL-2.0-or-later */
/* decimal.c -- decimal text to double, exactly as strtod rounds it, at a
 * few nanoseconds a number: the bundle files hold millions of them.
 *
 * Two exact fast methods, and a refusal (the caller then asks strtod)
 * when neither can decide:
 *   - Clinger: a mantissa w <= 2^53 and |q| <= 22 are both exact doubles,
 *     so w * 10^q (or w / 10^-q) is one correctly rounded operation;
 *   - Eisel-Lemire: w * 5^q from a 128-bit table (pow5_table.c), which
 *     gives the correctly rounded double unless the product is too close
 *     to a halfway point to tell, which it detects (Lemire, "Number
 *     parsing at a gigabyte per second", 2021; the variant of Go's
 *     strconv, with rounded-down table entries).
 * Refused: more than 19 significant digits, results that are subnormal
 * or overflow, and any text other than [+-]digits[.digits][(e|E)[+-]digits]
 * (hexadecimal, inf, nan: strtod decides those, as before). */
#include "bundle_io.h"
#include "decimal.h"

#include <float.h>
#include <string.h>

/* 10^0 .. 10^22: every one an exact double. */
static const double exact_pow10[23] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* The high and low 64 bits of a * b. */
static inline void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi,
                             uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 u128;
    u128 p = (u128)a * b;
    *hi = (uint64_t)(p >> 64);
    *lo = (uint64_t)p;
#else
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    *lo = (mid << 32) | (uint32_t)p00;
#endif
}

static inline int leading_zeros(uint64_t x)
{
    int n = 0;
    while (!(x >> 63)) {
        x <<= 1;
        n++;
    }
    return n;
}

/* floor(q log2(10)) for |q| <= 400 (217706 / 2^16 ~ log2(10)). */
static inline int64_t floor_log2_pow10(int q)
{
    int64_t t = (int64_t)q * 217706;
    return t >= 0 ? t >> 16 : -((-t + 65535) >> 16);
}

/* w * 10^q (w != 0, q in the table's range) correctly rounded into *out,
 * or 0 when the 128-bit product cannot decide the rounding or the result
 * is not a normal double. */
static int eisel_lemire(uint64_t w, int q, int negative, double *out)
{
    int lz = leading_zeros(w);
    w <<= lz;
    /* unsigned: a result below the normal range wraps and is refused at
     * the end */
    uint64_t exp2 = (uint64_t)(floor_log2_pow10(q) + 64 + 1023) - (uint64_t)lz;
    const uint64_t *t = cpg_pow5_128[q - CPG_POW5_MIN];
    uint64_t hi, lo;
    mul_64x64(w, t[0], &hi, &lo);
    /* The 9 bits below the 55 kept are all ones: the truncated low part
     * of the table entry may carry into them, so take it in too. */
    if ((hi & 0x1FF) == 0x1FF && lo + w < w) {
        uint64_t hi2, lo2;
        mul_64x64(w, t[1], &hi2, &lo2);
        uint64_t merged_hi = hi, merged_lo = lo + hi2;
        if (merged_lo < lo)
            merged_hi++;
        if ((merged_hi & 0x1FF) == 0x1FF && merged_lo + 1 == 0 &&
            lo2 + w < w)
            return 0;
        hi = merged_hi;
        lo = merged_lo;
    }
    uint64_t top = hi >> 63;
    uint64_t mantissa = hi >> (top + 9);
    exp2 -= 1 ^ top;
    /* exactly halfway between two doubles, as far as 128 bits tell */
    if (lo == 0 && (hi & 0x1FF) == 0 && (mantissa & 3) == 1)
        return 0;
    mantissa += mantissa & 1; /* round to 53 bits */
    mantissa >>= 1;
    if (mantissa >> 53) {
        mantissa >>= 1;
        exp2++;
    }
    if (exp2 - 1 >= 0x7FF - 1) /* subnormal, zero or infinite */
        return 0;
    uint64_t bits = exp2 << 52 | (mantissa & ((UINT64_C(1) << 52) - 1));
    if (negative)
        bits |= UINT64_C(1) << 63;
    memcpy(out, &bits, sizeof bits);
    return 1;
}

int cpg_decimal_round(uint64_t w, long q, int negative, double *out)
{
#if FLT_EVAL_METHOD == 0
    if (w <= (UINT64_C(1) << 53) && q >= -22 && q <= 22) {
        double v = (double)w;
        v = q < 0 ? v / exact_pow10[-q] : v * exact_pow10[q];
        *out = negative ? -v : v;
        return 1;
    }
#endif
    if (q < CPG_POW5_MIN || q > CPG_POW5_MAX)
        return 0;
    return eisel_lemire(w, (int)q, negative, out);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decimal.h -- decimal text to numbers for the readers' inner loops:
 * inline here the scanning of digits (a few nanoseconds a number, called
 * millions of times per file), in decimal.c the rounding to a double.
 * Private to the library, like bundle_io.h.
 */
#ifndef COREPCG_DECIMAL_H
#define COREPCG_DECIMAL_H

#include <stdint.h>
#include <string.h>

/* w * 10^q correctly rounded (w != 0, sign applied) into *out; 0 when
 * the fast methods cannot decide (subnormal or out-of-range results, a
 * product too close to a halfway point): then strtod must. decimal.c. */
int cpg_decimal_round(uint64_t w, long q, int negative, double *out);

static inline int cpg_is_digit(char c)
{
    return (unsigned char)(c - '0') < 10;
}

/* The 8 characters at p when all are digits: their value in *out. */
static inline int cpg_eight_digits(const char *p, uint32_t *out)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t v;
    memcpy(&v, p, sizeof v);
    /* every byte in '0'..'9': neither v - '0' nor v + ('~' - '9') reaches
     * a byte's top bit */
    if (((v + 0x4646464646464646u) | (v - 0x3030303030303030u)) &
        0x8080808080808080u)
        return 0;
    v -= 0x3030303030303030u;
    v = v * 10 + (v >> 8); /* pairs of digits */
    v = ((v & 0x000000FF000000FFu) * 0x000F424000000064u +
         ((v >> 16) & 0x000000FF000000FFu) * 0x0000271000000001u) >> 32;
    *out = (uint32_t)v;
    return 1;
#else
    (void)p;
    (void)out;
    return 0;
#endif
}

/* 1 to 18 decimal digits at p: their value and the end; NULL otherwise
 * (no sign: a signed or longer index is left to strtoll). */
static inline const char *cpg_parse_digits(const char *p, const char *end,
                                           long long *out)
{
    const char *start = p;
    long long v = 0;
    /* at most 19 digits accumulate (10^19 > LLONG_MAX would overflow:
     * the fuzzer found a 20-digit index); more are only counted */
    for (; p < end && cpg_is_digit(*p); p++)
        if (p - start < 18)
            v = 10 * v + (*p - '0');
    if (p == start || p - start > 18)
        return NULL;
    *out = v;
    return p;
}

/* The decimal number that starts at p (text up to end; no terminator
 * needed): [+-]digits[.digits][(e|E)[+-]digits]. Returns the end of it
 * and *out as strtod rounds it (bit for bit), or NULL when it is not of
 * that form or is one of the rare numbers left to strtod (more than 19
 * significant digits, subnormal or out of range, undecidable). */
static inline const char *cpg_parse_decimal(const char *p, const char *end,
                                            double *out)
{
    int negative = 0;
    if (p < end && (*p == '-' || *p == '+'))
        negative = *p++ == '-';
    const char *first = p;
    uint64_t w = 0; /* wraps past 19 digits: then refused below */
    for (; p < end && cpg_is_digit(*p); p++)
        w = 10 * w + (uint64_t)(*p - '0');
    long digits = p - first, q = 0;
    if (digits == 1 && *first == '0' && p < end && (*p | 0x20) == 'x')
        return NULL; /* hexadecimal: strtod's */
    if (p < end && *p == '.') {
        const char *frac = ++p;
        uint32_t eight;
        while (end - p >= 8 && cpg_eight_digits(p, &eight)) {
            w = w * 100000000u + eight;
            p += 8;
        }
        for (; p < end && cpg_is_digit(*p); p++)
            w = 10 * w + (uint64_t)(*p - '0');
        q = -(long)(p - frac);
        digits += p - frac;
    }
    if (digits == 0)
        return NULL;
    if (p < end && (*p | 0x20) == 'e') {
        p++;
        int eneg = 0;
        if (p < end && (*p == '-' || *p == '+'))
            eneg = *p++ == '-';
        if (p == end || !cpg_is_digit(*p))
            return NULL; /* strtod would stop before the 'e' */
        long e = 0;
        for (; p < end && cpg_is_digit(*p); p++)
            if (e < 100000) /* far past any double; no overflow */
                e = 10 * e + (*p - '0');
        q += eneg ? -e : e;
    }
    if (digits > 19) { /* leading zeros do not count */
        for (const char *z = first; z < p && (*z == '0' || *z == '.'); z++)
            digits -= *z == '0';
        if (digits > 19)
            return NULL;
    }
    if (w == 0) {
        *out = negative ? -0.0 : 0.0;
        return p;
    }
    return cpg_decimal_round(w, q, negative, out) ? p : NULL;
}

#endif /* COREPCG_DECIMAL_H */

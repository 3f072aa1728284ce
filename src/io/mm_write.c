/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mm_write.c -- Matrix Market files as CHOLMOD's writer makes them, byte
 * for byte, without its cost: CHOLMOD prints each value with the fewest
 * significant digits, from 6 up, that read back to the same double,
 * trying "%.*g" then sscanf at each width (a dozen conversions for a
 * typical value), then shortens the exponent ("e+05" -> "e5", "e-05" ->
 * "e-5") and drops the leading zero of "0.x". Here a value's 17 correctly
 * rounded digits come from one exact integer product (x times a power of
 * ten from pow5_table.c), each narrower width is rounded from them
 * (exactly: whether the value lies above, on or below the 17 digits is
 * kept), and the read-back test is decimal.c's. Values outside
 * [1e-39, 1e17), where the table's powers are not exact, take CHOLMOD's
 * own loop. Output goes through one buffer, not a printf per field. */
#include "bundle_io.h"
#include "cholmod_quiet.h"
#include "decimal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 10^0 .. 10^17 */
static const uint64_t pow10_u64[18] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
    10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
    100000000000ull, 1000000000000ull, 10000000000000ull,
    100000000000000ull, 1000000000000000ull, 10000000000000000ull,
    100000000000000000ull};

/* The text of a w-digit decimal d (10^(w-1) <= d < 10^w) times
 * 10^(e - w + 1), as "%.*g" with precision w prints it, into out; returns
 * its length. */
static int print_g(char *out, int negative, uint64_t d, int w, int e)
{
    char digits[24];
    for (int k = w - 1; k >= 0; k--, d /= 10)
        digits[k] = (char)('0' + d % 10);
    int last = w; /* %g drops trailing zeros of the fraction */
    while (last > 1 && digits[last - 1] == '0')
        last--;
    char *o = out;
    if (negative)
        *o++ = '-';
    if (e < -4 || e >= w) { /* d.ddde+XX */
        *o++ = digits[0];
        if (last > 1) {
            *o++ = '.';
            memcpy(o, digits + 1, (size_t)last - 1);
            o += last - 1;
        }
        int a = e < 0 ? -e : e;
        *o++ = 'e';
        *o++ = e < 0 ? '-' : '+';
        if (a >= 100)
            *o++ = (char)('0' + a / 100);
        *o++ = (char)('0' + a / 10 % 10);
        *o++ = (char)('0' + a % 10);
    } else if (e >= 0) { /* ddd.ddd */
        memcpy(o, digits, (size_t)e + 1);
        o += e + 1;
        if (last > e + 1) {
            *o++ = '.';
            memcpy(o, digits + e + 1, (size_t)(last - e - 1));
            o += last - e - 1;
        }
    } else { /* 0.000ddd */
        *o++ = '0';
        *o++ = '.';
        for (int k = -1; k > e; k--)
            *o++ = '0';
        memcpy(o, digits, (size_t)last);
        o += last;
    }
    *o = '\0';
    return (int)(o - out);
}

/* CHOLMOD's shortening of a printed value (print_value in
 * cholmod_write.c): "e+0" -> "e", "e+" -> "e", "e-0" -> "e-"; "0.x" ->
 * ".x", "-0.x" -> "-.x". Works in place; returns the new start. */
static char *shorten(char *s)
{
    char *e = strchr(s, 'e');
    if (e) {
        char *dest = NULL, *src = NULL;
        if (e[1] == '+') {
            dest = e + 1;
            src = e[2] == '0' ? e + 3 : e + 2;
        } else if (e[1] == '-' && e[2] == '0') {
            dest = e + 2;
            src = e + 3;
        }
        if (dest)
            memmove(dest, src, strlen(src) + 1);
    }
    size_t len = strlen(s);
    if (len > 2 && s[0] == '0' && s[1] == '.')
        return s + 1;
    if (len > 3 && s[0] == '-' && s[1] == '0' && s[2] == '.') {
        s[1] = '-';
        return s + 1;
    }
    return s;
}

/* CHOLMOD's own search: the first width from 6 that reads back. */
static char *cholmod_value(char *buf, double x)
{
    for (int width = 6; width < 20; width++) {
        snprintf(buf, 40, "%.*g", width, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    return shorten(buf);
}

/* |x| in [1e-39, 1e17): its 17 significant digits d (10^16 <= d < 10^17)
 * correctly rounded, its decimal exponent e, and where x lies from d
 * (*side: +1 above, 0 on it, -1 below); 0 when x is out of that range. */
static int seventeen_digits(double x, uint64_t *d, int *e, int *side)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    int be = (int)((bits >> 52) & 0x7FF);
    if (be == 0 || be == 0x7FF)
        return 0; /* zero, subnormal, not finite */
    uint64_t m = (bits & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
    int e2 = be - 1075; /* x = m 2^e2 */
    /* floor(log10(2^(e2+52))) give or take one (78913 / 2^18 ~ log10 2):
     * x's decimal exponent is this or the next; the loop corrects it */
    long t10 = (long)(e2 + 52) * 78913;
    int est = (int)(t10 >= 0 ? t10 >> 18 : -((-t10 + 262143) >> 18));
    for (int tries = 0; tries < 4; tries++) {
        int k = 16 - est; /* N = x 10^k in [10^16, 10^17) when est is right */
        if (k < 0 || k > 55)
            return 0; /* 5^k is exact in the table only for k in 0..55 */
        /* T = 5^k 2^s exactly (5^k is odd: s is T's trailing zeros) */
        const uint64_t *t = cpg_pow5_128[k - CPG_POW5_MIN];
        int s = t[1] ? __builtin_ctzll(t[1]) : 64 + __builtin_ctzll(t[0]);
        /* P = m T as three words p2:p1:p0; N = P / 2^sh */
        __extension__ typedef unsigned __int128 u128;
        u128 a = (u128)m * t[1], b = (u128)m * t[0];
        uint64_t h0 = (uint64_t)(a >> 64), l1 = (uint64_t)b;
        uint64_t p0 = (uint64_t)a, p1 = h0 + l1;
        uint64_t p2 = (uint64_t)(b >> 64) + (p1 < h0);
        int sh = s - e2 - k;
        if (sh > 127) { /* N < 2^53 < 10^16: est was too large */
            est--;
            continue;
        }
        if (sh < 65) {
            est++;
            continue;
        }
        int r = sh - 64;
        uint64_t n = (p2 << (64 - r)) | (p1 >> r);
        if ((p2 >> r) != 0 || n >= pow10_u64[17]) {
            est++;
            continue;
        }
        if (n < pow10_u64[16]) {
            est--;
            continue;
        }
        uint64_t rem = p1 & ((UINT64_C(1) << r) - 1), half = UINT64_C(1) << (r - 1);
        int cmp = rem > half ? 1 : rem < half ? -1 : p0 > 0 ? 1 : 0;
        int zero = rem == 0 && p0 == 0;
        if (cmp > 0 || (cmp == 0 && (n & 1))) {
            n++;
            *side = -1;
        } else {
            *side = zero ? 0 : 1;
        }
        if (n == pow10_u64[17]) {
            n = pow10_u64[16];
            est++;
        }
        *d = n;
        *e = est;
        return 1;
    }
    return 0;
}

/* The narrowest width from 6 that reads back, for a value with the
 * 17-digit decimal d (exponent e, side as seventeen_digits says): the
 * decimal rounded to w digits in *q, its exponent in *eq. */
static int narrowest(double x, uint64_t d, int e, int side, uint64_t *q,
                     int *eq)
{
    /* In units of d's last digit an ulp of x is under 23: a w-digit
     * decimal more than 12 units from d (beyond the half ulp and d's own
     * rounding) cannot read back as x, so only the w whose dropped
     * digits are 0..012 or 988..999 are tried. */
    uint64_t head = d / 100;
    int last2 = (int)(d % 100), negative = x < 0;
    for (int w = 6; w < 17; w++) {
        if (w < 16) {
            uint64_t unit = pow10_u64[15 - w];
            int near_down = last2 <= 12 && head % unit == 0;
            int near_up = last2 >= 88 && (head + 1) % unit == 0;
            if (!near_down && !near_up)
                continue;
        }
        uint64_t div = pow10_u64[17 - w], qw = d / div, r = d % div;
        uint64_t half = div / 2;
        qw += r > half || (r == half && (side > 0 || (side == 0 && (qw & 1))));
        int ew = e;
        if (qw == pow10_u64[w]) {
            qw = pow10_u64[w - 1];
            ew++;
        }
        double y;
        if (!cpg_decimal_round(qw, (long)ew - w + 1, negative, &y)) {
            char tmp[48];
            print_g(tmp, negative, qw, w, ew);
            y = strtod(tmp, NULL);
        }
        if (y == x) {
            *q = qw;
            *eq = ew;
            return w;
        }
    }
    *q = d; /* 17 digits always read back */
    *eq = e;
    return 17;
}

int cpg_mm_format_value(double x, char *buf)
{
    uint64_t d, q;
    int e, side, eq;
    char tmp[48];
    char *s = tmp;
    if (x == 0) { /* "%.6g" reads back: "0" or "-0" */
        strcpy(tmp, signbit(x) ? "-0" : "0");
    } else if (seventeen_digits(x, &d, &e, &side)) {
        int w = narrowest(x, d, e, side, &q, &eq);
        print_g(tmp, x < 0, q, w, eq);
        s = shorten(tmp);
    } else {
        s = cholmod_value(tmp, x);
    }
    size_t len = strlen(s);
    memcpy(buf, s, len + 1);
    return (int)len;
}

/* ============================================================ files */

/* Output through one buffer; a failed write shows in f's error flag. */
typedef struct mm_out {
    FILE *f;
    size_t len;
    char buf[1 << 16];
} mm_out;

static void out_flush(mm_out *o)
{
    if (o->len > 0)
        (void)fwrite(o->buf, 1, o->len, o->f); /* errors: f's flag */
    o->len = 0;
}

/* Room for one more line (at most 80 bytes). */
static char *out_room(mm_out *o)
{
    if (sizeof o->buf - o->len < 80)
        out_flush(o);
    return o->buf + o->len;
}

static int put_int(char *p, long long v)
{
    char tmp[24];
    int n = 0, neg = v < 0;
    unsigned long long u = neg ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do
        tmp[n++] = (char)('0' + u % 10);
    while (u /= 10);
    char *o = p;
    if (neg)
        *o++ = '-';
    while (n > 0)
        *o++ = tmp[--n];
    return (int)(o - p);
}

/* A buffer over f, with the header line(s) in it; NULL when out of
 * memory. */
static mm_out *out_open(FILE *f, const char *header)
{
    mm_out *o = malloc(sizeof *o);
    if (o) {
        o->f = f;
        o->len = strlen(header);
        memcpy(o->buf, header, o->len);
    }
    return o;
}

/* Flushes and frees o: OK, or ERR_IO when a write failed. */
static int out_close(mm_out *o, const char *path, char *msg)
{
    out_flush(o);
    int failed = ferror(o->f);
    free(o);
    return failed ? cpg_fail(msg, COREPCG_ERR_IO, "%s: write error", path)
                  : COREPCG_OK;
}

int cpg_mm_write_dense(FILE *f, const char *path, const double *x, int n,
                       char *msg)
{
    char header[96];
    snprintf(header, sizeof header,
             "%%%%MatrixMarket matrix array real general\n%d 1\n", n);
    mm_out *o = out_open(f, header);
    if (!o)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "%s: out of memory", path);
    for (int k = 0; k < n; k++) {
        char *p = out_room(o);
        int len = cpg_mm_format_value(x[k], p);
        p[len] = '\n';
        o->len += (size_t)len + 1;
    }
    return out_close(o, path, msg);
}

int cpg_mm_write_lower(FILE *f, const char *path, const cholmod_sparse *L,
                       char *msg)
{
    const int *Lp = L->p, *Li = L->i;
    const double *Lx = L->x;
    int n = (int)L->ncol, nnz = Lp[n];
    /* CHOLMOD's choice of field: pattern when every value is 1 (or
     * there are none), integer when every one is an int, else real */
    int binary = 1, integer = 1;
    for (int k = 0; Lx && (binary || integer) && k < nnz; k++) {
        binary &= Lx[k] == 1;
        integer &= Lx[k] >= INT_MIN && Lx[k] <= INT_MAX &&
                   (double)(int)Lx[k] == Lx[k];
    }
    char header[160];
    snprintf(header, sizeof header,
             "%%%%MatrixMarket matrix coordinate %s symmetric\n%d %d %d\n",
             binary ? "pattern" : integer ? "integer" : "real", (int)L->nrow,
             n, nnz);
    mm_out *o = out_open(f, header);
    if (!o)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "%s: out of memory", path);
    for (int j = 0; j < n; j++)
        for (int k = Lp[j]; k < Lp[j + 1]; k++) {
            char *p = out_room(o), *q = p;
            q += put_int(q, Li[k] + 1);
            *q++ = ' ';
            q += put_int(q, j + 1);
            if (!binary) {
                *q++ = ' ';
                q += integer ? put_int(q, (int)Lx[k])
                             : cpg_mm_format_value(Lx[k], q);
            }
            *q++ = '\n';
            o->len += (size_t)(q - p);
        }
    return out_close(o, path, msg);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_parse_number.c -- the bundle reader's number parser (decimal.c)
 * against strtod, bit for bit: millions of random doubles printed in
 * many forms, random digit strings, the edge cases (subnormals, the
 * limits of the exponent, 17+ digit mantissas, halfway cases, signs);
 * the 5^q table against exact integer arithmetic; the shortest-decimal
 * writer against CHOLMOD's own printing; and the chunked, threaded reader
 * of Matrix Market files (mm_chunks.c) against its sequential self: every
 * split of a file gives the same numbers, and an error is reported with
 * its line wherever the chunks begin. */
#include "bundle_io.h"
#include "cholmod_quiet.h"
#include "decimal.h"
#include "fixture.h"
#include "test.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

/* ------------------------------------------------------------- random */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double bits_double(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static uint64_t double_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* Sanitizers slow each conversion several times over: fewer there. */
static long scaled(long count)
{
#if defined(__SANITIZE_ADDRESS__)
    return count / 8;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return count / 8;
#else
    return count;
#endif
#else
    return count;
#endif
}

/* ------------------------------------------------ parser against strtod */

static long compared, fast_taken, mismatches;

/* One text: where the fast parser answers, the same double and the same
 * end as strtod. */
static void compare_text(const char *text)
{
    char *end_ref;
    errno = 0;
    double ref = strtod(text, &end_ref);
    double got = 0;
    const char *end = cpg_parse_decimal(text, text + strlen(text), &got);
    compared++;
    if (!end)
        return;
    fast_taken++;
    if (end != end_ref || double_bits(got) != double_bits(ref)) {
        if (mismatches++ < 10)
            CHECK(0, "'%s': fast %a (end +%ld), strtod %a (end +%ld)", text,
                  got, (long)(end - text), ref, (long)(end_ref - text));
    }
}

static void test_random_doubles(void)
{
    /* %.Pg for these P, and %.16e */
    static const int precisions[] = {17, 16, 15, 9, 6, 3, 1, 20, 25, -16};
    const int nforms = (int)(sizeof precisions / sizeof precisions[0]);
    long count = scaled(150000);
    long before = compared, fast_before = fast_taken;
    char text[64];
    for (long k = 0; k < count; k++) {
        double v = bits_double(rng());
        if (!isfinite(v))
            continue;
        for (int f = 0; f < nforms; f++) {
            int prec = precisions[f];
            if (prec > 0)
                snprintf(text, sizeof text, "%.*g", prec, v);
            else
                snprintf(text, sizeof text, "%.*e", -prec, v);
            compare_text(text);
        }
    }
    long n = compared - before, fast = fast_taken - fast_before;
    printf("random bit patterns: %ld texts, %ld (%.2f%%) by the fast path\n",
           n, fast, 100.0 * (double)fast / (double)n);
    /* The fast path must carry the load: all but subnormals, > 19 digits
     * (%.20g, %.25g) and the rare undecidable products. */
    CHECK(fast > n / 2, "fast path took only %ld of %ld", fast, n);
}

/* Values a bundle holds: magnitudes 1e-12 .. 1e6 with the shortest
 * decimal that reads back (as CHOLMOD writes) and 17 digits. */
static void test_random_moderate(void)
{
    long count = scaled(300000);
    long before = compared, fast_before = fast_taken;
    char text[64];
    for (long k = 0; k < count; k++) {
        double mag = pow(10.0, -12.0 + 18.0 * (double)(rng() >> 11) * 0x1p-53);
        double v = mag * ((double)(rng() >> 11) * 0x1p-53) * (rng() & 1 ? 1 : -1);
        snprintf(text, sizeof text, "%.17g", v);
        compare_text(text);
        for (int prec = 6; prec <= 17; prec++) {
            snprintf(text, sizeof text, "%.*g", prec, v);
            if (strtod(text, NULL) == v)
                break;
        }
        compare_text(text);
    }
    long n = compared - before, fast = fast_taken - fast_before;
    printf("bundle-like values: %ld texts, %ld (%.3f%%) by the fast path\n", n,
           fast, 100.0 * (double)fast / (double)n);
    CHECK(fast >= n - n / 100, "fast path took only %ld of %ld", fast, n);
}

/* Random digit strings: 1..25 digits, a point anywhere or none, leading
 * zeros, signs (+ too), exponents over the whole range and beyond. */
static void test_random_strings(void)
{
    long count = scaled(800000);
    char text[96];
    for (long k = 0; k < count; k++) {
        char *o = text;
        uint64_t r = rng();
        if (r & 1)
            *o++ = (r & 2) ? '-' : '+';
        int zeros = (int)((r >> 2) % 4) == 0 ? (int)((r >> 4) % 4) : 0;
        for (int z = 0; z < zeros; z++)
            *o++ = '0';
        int ndig = 1 + (int)((r >> 8) % 25);
        int point = (int)((r >> 16) % (uint64_t)(ndig + 2)) - 1; /* -1: none */
        for (int d = 0; d < ndig; d++) {
            if (d == point)
                *o++ = '.';
            *o++ = (char)('0' + rng() % 10);
        }
        if (point == ndig)
            *o++ = '.';
        if ((r >> 24) % 3 != 0) {
            *o++ = (r >> 26) & 1 ? 'e' : 'E';
            int e = (int)((r >> 27) % 720) - 360;
            o += sprintf(o, (r >> 40) & 1 ? "%+d" : "%d", e);
        }
        *o = '\0';
        compare_text(text);
    }
}

/* The halfway cases: decimals exactly between two doubles (the mantissa
 * of v with one more bit set below it), and one digit either side. */
static void test_halfway(void)
{
    long count = scaled(30000);
    char text[800];
    for (long k = 0; k < count; k++) {
        double v = bits_double(rng() & ~(UINT64_C(1) << 63));
        if (!isfinite(v) || v == 0 || !isfinite(nextafter(v, INFINITY)))
            continue;
        /* the exact decimal of the midpoint m = (v + next)/2: %.*e with
         * enough digits is exact for a dyadic rational */
        long double mid = ((long double)v + (long double)nextafter(v, INFINITY)) / 2;
        snprintf(text, sizeof text, "%.760Le", mid);
        /* strip trailing zeros of the mantissa to keep it short */
        char *e = strchr(text, 'e'), *z = e;
        while (z > text && z[-1] == '0')
            z--;
        memmove(z, e, strlen(e) + 1);
        compare_text(text);
        if ((k & 7) == 0) {
            snprintf(text, sizeof text, "%.19Le", mid); /* 20 digits */
            compare_text(text);
            snprintf(text, sizeof text, "%.18Le", mid);
            compare_text(text);
        }
    }
}

static void test_edge_cases(void)
{
    static const char *const texts[] = {
        "0", "-0", "+0", "0.0", "-0.0", "00000", ".0", "0.", "-.0e5",
        "0e999999999", "-0e-999999999", "1", "-1", "+1", "1.", ".5", "-.8",
        "2.", "1e0", "1E+0", "1e-0", "12345678901234567890",
        "1234567890123456789", "9007199254740992", "9007199254740993",
        "9007199254740993.0000000001", "18446744073709551615",
        "18446744073709551616", "1e22", "1e23", "9.999999999999999e22",
        "8.988465674311579e307", "1e308", "9.99e307", "1.7976931348623157e308",
        "1.7976931348623158e308", "1.7976931348623159e308", "2e308", "1e309",
        "1e400", "-1e400", "2.2250738585072014e-308", "2.2250738585072011e-308",
        "2.2250738585072012e-308", "2.225073858507201e-308",
        "4.9406564584124654e-324", "5e-324", "2.4703282292062328e-324",
        "2.4703282292062327e-324", "1e-324", "1e-400", "-1e-400",
        "4.9e-324", "1e-320", "1e-310", "1e-308", "1e-307",
        "0.000000000000000000000000000000000000000000001",
        "0.1", "0.2", "0.3", "0.7", "3.141592653589793", "2.718281828459045",
        "1.0000000000000002", "0.9999999999999999", "0.99999999999999994",
        "0.99999999999999995", "0.999999999999999944488848768742172978818416595458984375",
        "0.999999999999999944488848768742172978818416595458984376",
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126",
        "9007199254740993e-22", "7.2057594037927933e16", "123456789012345678e-300",
        "1e-342", "1e-343", "1e-341", "1e308", "1e-22", "1e-23", "4503599627370497.5",
        "-.08931830349667486", "-2.169909941652223e-9", "2.87565522238793e-5",
        "1e", "1e+", "1e-", "e5", ".", "-", "+", "+.", "1.5e", "1x", "0x1p3",
        "inf", "-inf", "nan", "Infinity", "1,5", " 1", "1 ", "--1", "+-1",
    };
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++)
        compare_text(texts[k]);
    /* the values themselves, where the fast path answers */
    double v;
    const char *e;
    const char *t = "-0";
    e = cpg_parse_decimal(t, t + 2, &v);
    CHECK(e && double_bits(v) == double_bits(-0.0), "-0 keeps its sign");
    t = "1e308";
    e = cpg_parse_decimal(t, t + 5, &v);
    CHECK(e && v == 1e308, "1e308 is finite (the reader refuses it later)");
    t = "1e309";
    CHECK(cpg_parse_decimal(t, t + 5, &v) == NULL, "1e309 left to strtod (inf)");
    t = "5e-324";
    CHECK(cpg_parse_decimal(t, t + 6, &v) == NULL, "subnormals left to strtod");
    t = "123456789";
    e = cpg_parse_decimal(t, t + 4, &v); /* the end bounds the text */
    CHECK(e == t + 4 && v == 1234, "bounded by end: %g", v);
    t = "inf";
    CHECK(cpg_parse_decimal(t, t + 3, &v) == NULL, "inf left to strtod");
    /* every power of ten and of two in range, and their neighbours */
    char text[64];
    for (int q = -330; q <= 310; q++) {
        snprintf(text, sizeof text, "1e%d", q);
        compare_text(text);
        snprintf(text, sizeof text, "9.999999999999999e%d", q);
        compare_text(text);
        snprintf(text, sizeof text, "123456789012345678e%d", q);
        compare_text(text);
    }
    for (int b = -1074; b <= 1023; b++) {
        double p2 = ldexp(1.0, b);
        for (int d = -1; d <= 1; d++) {
            double x = d < 0 ? nextafter(p2, 0) : d > 0 ? nextafter(p2, INFINITY) : p2;
            snprintf(text, sizeof text, "%.17g", x);
            compare_text(text);
            snprintf(text, sizeof text, "%.16g", x);
            compare_text(text);
        }
    }
    /* integers: digits only, 18 at most */
    long long i;
    t = "077";
    e = cpg_parse_digits(t, t + 3, &i);
    CHECK(e == t + 3 && i == 77, "077 -> %lld", i);
    t = "999999999999999999";
    e = cpg_parse_digits(t, t + 18, &i);
    CHECK(e == t + 18 && i == 999999999999999999LL, "18 nines");
    t = "1000000000000000000";
    CHECK(cpg_parse_digits(t, t + 19, &i) == NULL, "19 digits left to strtoll");
    t = "+3";
    CHECK(cpg_parse_digits(t, t + 2, &i) == NULL, "a sign left to strtoll");
    t = "x";
    CHECK(cpg_parse_digits(t, t + 1, &i) == NULL, "no digits");
}

/* ---------------------------------------------- the table, exactly */

/* Little-endian 32-bit limbs. */
typedef struct bignum {
    int n;
    uint32_t d[64];
} bignum;

static void big_mul_small(bignum *a, uint32_t m)
{
    uint64_t carry = 0;
    for (int k = 0; k < a->n; k++) {
        uint64_t t = (uint64_t)a->d[k] * m + carry;
        a->d[k] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry)
        a->d[a->n++] = (uint32_t)carry;
}

static int big_bits(const bignum *a)
{
    int top = 31;
    while (!(a->d[a->n - 1] >> top))
        top--;
    return 32 * (a->n - 1) + top + 1;
}

static int big_bit(const bignum *a, int b)
{
    return b >= 0 && b / 32 < a->n ? (int)(a->d[b / 32] >> (b % 32)) & 1 : 0;
}

/* c = a * m (m a 128-bit number as 4 limbs) */
static void big_mul_128(const bignum *a, const uint32_t m[4], bignum *c)
{
    memset(c, 0, sizeof *c);
    c->n = a->n + 4;
    for (int i = 0; i < a->n; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 4; j++) {
            uint64_t t = (uint64_t)a->d[i] * m[j] + c->d[i + j] + carry;
            c->d[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
        for (int k = i + 4; carry; k++) {
            uint64_t t = (uint64_t)c->d[k] + carry;
            c->d[k] = (uint32_t)t;
            carry = t >> 32;
        }
    }
    while (c->n > 1 && c->d[c->n - 1] == 0)
        c->n--;
}

/* Compares a with 2^e: -1, 0, 1. */
static int big_cmp_pow2(const bignum *a, int e)
{
    int bits = big_bits(a);
    if (bits != e + 1)
        return bits < e + 1 ? -1 : 1;
    for (int b = 0; b < e; b++)
        if (big_bit(a, b))
            return 1;
    return 0;
}

static void test_table(void)
{
    int bad = 0;
    for (int q = CPG_POW5_MIN; q <= CPG_POW5_MAX; q++) {
        const uint64_t *t = cpg_pow5_128[q - CPG_POW5_MIN];
        uint32_t m[4] = {(uint32_t)t[1], (uint32_t)(t[1] >> 32),
                         (uint32_t)t[0], (uint32_t)(t[0] >> 32)};
        bignum p = {1, {1}};
        for (int k = 0; k < abs(q); k++)
            big_mul_small(&p, 5);
        int L = big_bits(&p), ok;
        if (q >= 0) {
            /* m = the top 128 bits of 5^q (zeros below when shorter) */
            ok = 1;
            for (int b = 0; b < 128; b++) {
                int want = big_bit(&p, L - 128 + b);
                ok &= ((m[b / 32] >> (b % 32)) & 1) == (uint32_t)want;
            }
        } else {
            /* m = floor(2^(L+127) / 5^-q): m 5^-q <= 2^(L+127) < (m+1) 5^-q */
            bignum lo, hi;
            big_mul_128(&p, m, &lo);
            uint32_t m1[4];
            memcpy(m1, m, sizeof m1);
            for (int k = 0; k < 4 && ++m1[k] == 0; k++)
                ;
            big_mul_128(&p, m1, &hi);
            ok = big_cmp_pow2(&lo, L + 127) <= 0 && big_cmp_pow2(&hi, L + 127) > 0;
        }
        ok &= (t[0] >> 63) == 1;
        if (!ok && bad++ < 5)
            CHECK(0, "table entry 5^%d is wrong", q);
    }
    CHECK(bad == 0, "%d table entries wrong", bad);
}

/* --------------------------------------- the writer against CHOLMOD's */

/* The file cholmod_write_dense makes of x and the one cpg_mm_write_dense
 * makes: the same bytes. Returns 1 when they are. */
static int dense_as_cholmod(const char *tag, const double *x, int n,
                            cholmod_common *cm)
{
    char *ref = NULL, *got = NULL;
    size_t ref_len = 0, got_len = 0;
    FILE *f = open_memstream(&ref, &ref_len);
    cholmod_dense X;
    memset(&X, 0, sizeof X);
    X.nrow = X.nzmax = X.d = (size_t)n;
    X.ncol = 1;
    X.x = (void *)x;
    X.xtype = CHOLMOD_REAL;
    X.dtype = CHOLMOD_DOUBLE;
    cholmod_write_dense(f, &X, NULL, cm);
    fclose(f);
    char msg[COREPCG_MSG_SIZE];
    f = open_memstream(&got, &got_len);
    int rc = cpg_mm_write_dense(f, "mem", x, n, msg);
    fclose(f);
    int same = rc == COREPCG_OK && ref_len == got_len &&
               memcmp(ref, got, ref_len) == 0;
    if (!same) { /* name the first line that differs */
        const char *r = ref, *g = got;
        for (int line = 1; *r && *g; line++) {
            size_t lr = strcspn(r, "\n"), lg = strcspn(g, "\n");
            if (lr != lg || memcmp(r, g, lr) != 0) {
                CHECK(0, "%s: line %d is '%.*s', CHOLMOD writes '%.*s'", tag,
                      line, (int)lg, g, (int)lr, r);
                break;
            }
            r += lr + (r[lr] != 0);
            g += lg + (g[lg] != 0);
        }
        CHECK(0, "%s: %zu bytes, CHOLMOD %zu", tag, got_len, ref_len);
    }
    free(ref);
    free(got);
    return same;
}

static void test_writer(void)
{
    cholmod_common cm;
    cholmod_start(&cm);
    cm.print = 0;
    int n = (int)scaled(60000);
    double *x = malloc(sizeof(double) * (size_t)n);
    /* values as a bundle holds them, and their integers and short
     * decimals (ties at some width: 2.5, 0.125, 1.5e-5) */
    for (int k = 0; k < n; k++) {
        double mag = pow(10.0, -15.0 + 25.0 * (double)(rng() >> 11) * 0x1p-53);
        double v = mag * ((double)(rng() >> 11) * 0x1p-53) * (rng() & 1 ? 1 : -1);
        switch (k % 5) {
        case 1: v = (double)(int64_t)(rng() % 2000001 - 1000000) / pow(10.0, (double)(rng() % 12)); break;
        case 2: v = (double)(int64_t)(rng() % 20001 - 10000) * ldexp(1.0, (int)(rng() % 40) - 30); break;
        case 3: v = nextafter(v, rng() & 1 ? INFINITY : -INFINITY); break;
        default: break;
        }
        x[k] = v;
    }
    dense_as_cholmod("bundle-like values", x, n, &cm);
    /* any double below 1e308: random bit patterns (slow: CHOLMOD's own
     * loop for those outside [1e-39, 1e17)) */
    int m = n / 20;
    for (int k = 0; k < m; k++) {
        double v;
        do
            v = bits_double(rng());
        while (!cpg_mm_storable(v));
        x[k] = v;
    }
    dense_as_cholmod("random bit patterns", x, m, &cm);
    /* edges: zeros, powers of two and ten and their neighbours, the ends
     * of the fast range, subnormals, values just below 1e308 */
    int e = 0;
    x[e++] = 0.0;
    x[e++] = -0.0;
    for (int b = -140; b <= 60; b++) {
        double p2 = ldexp(1.0, b);
        x[e++] = p2;
        x[e++] = -nextafter(p2, 0);
        x[e++] = nextafter(p2, INFINITY);
    }
    for (int q = -45; q <= 20; q++) {
        double p10 = pow(10.0, q);
        x[e++] = p10;
        x[e++] = nextafter(p10, 0);
        x[e++] = -nextafter(p10, INFINITY);
        x[e++] = 9.999999999999999 * p10;
        x[e++] = 5 * p10;
        x[e++] = 0.5 * p10;
    }
    x[e++] = 5e-324;
    x[e++] = -2.2250738585072014e-308;
    x[e++] = 9.9999999999999e307;
    x[e++] = nextafter(1e308, 0);
    x[e++] = 0.1;
    x[e++] = 1.0 / 3;
    x[e++] = 2.5;
    x[e++] = 123456.5;
    x[e++] = 1e17 - 16;
    x[e++] = 99999999999999999.0;
    dense_as_cholmod("edges", x, e, &cm);
    /* and what it writes reads back bit for bit */
    char buf[48];
    int bad = 0;
    for (int k = 0; k < e; k++) {
        cpg_mm_format_value(x[k], buf);
        bad += double_bits(strtod(buf, NULL)) != double_bits(x[k]) &&
               !(x[k] == 0 && strtod(buf, NULL) == 0);
    }
    CHECK(bad == 0, "%d edge values do not read back", bad);
    cpg_mm_format_value(-0.03125, buf);
    CHECK(strcmp(buf, "-.03125") == 0, "-0.03125 written '%s'", buf);
    cpg_mm_format_value(7.673834999999997e-6, buf);
    CHECK(strcmp(buf, "7.673834999999997e-6") == 0, "written '%s'", buf);
    cpg_mm_format_value(2.5e17, buf);
    CHECK(strcmp(buf, "2.5e17") == 0, "2.5e17 written '%s'", buf);

    /* a lower triangle: real, integer-valued, all ones, and a pattern */
    int N = 60, nnz = 0;
    int *Lp = malloc(sizeof(int) * (size_t)(N + 1)), *Li = malloc(sizeof(int) * (size_t)(N * 4));
    double *Lx = malloc(sizeof(double) * (size_t)(N * 4));
    for (int j = 0; j < N; j++) {
        Lp[j] = nnz;
        for (int i = j; i < N && i < j + 4; i++) {
            Li[nnz] = i;
            Lx[nnz++] = x[(size_t)(i * 7 + j) % (size_t)n];
        }
    }
    Lp[N] = nnz;
    cholmod_sparse L;
    memset(&L, 0, sizeof L);
    L.nrow = L.ncol = (size_t)N;
    L.nzmax = (size_t)nnz;
    L.p = Lp;
    L.i = Li;
    L.x = Lx;
    L.stype = -1;
    L.itype = CHOLMOD_INT;
    L.xtype = CHOLMOD_REAL;
    L.dtype = CHOLMOD_DOUBLE;
    L.sorted = L.packed = 1;
    for (int kind = 0; kind < 4; kind++) {
        if (kind == 1)
            for (int k = 0; k < nnz; k++)
                Lx[k] = (double)(int)(Lx[k] * 1e3);
        if (kind == 2)
            for (int k = 0; k < nnz; k++)
                Lx[k] = 1;
        if (kind == 3) {
            L.x = NULL;
            L.xtype = CHOLMOD_PATTERN;
        }
        char *ref = NULL, *got = NULL, msg[COREPCG_MSG_SIZE];
        size_t ref_len = 0, got_len = 0;
        FILE *f = open_memstream(&ref, &ref_len);
        cholmod_write_sparse(f, &L, NULL, NULL, &cm);
        fclose(f);
        f = open_memstream(&got, &got_len);
        int rc = cpg_mm_write_lower(f, "mem", &L, msg);
        fclose(f);
        CHECK(rc == COREPCG_OK && got_len == ref_len && memcmp(ref, got, ref_len) == 0,
              "lower triangle kind %d: %zu bytes, CHOLMOD %zu; first lines\n%.200s\n"
              "CHOLMOD:\n%.200s", kind, got_len, ref_len, got ? got : "", ref ? ref : "");
        free(ref);
        free(got);
    }
    free(Lp);
    free(Li);
    free(Lx);
    free(x);
    cholmod_finish(&cm);
}

/* ------------------------------------------- the chunked file reader */

static char tmpdir[FIXTURE_PATH];

/* The len bytes of text (NUL bytes too) as a file read by
 * cpg_mm_read_file in `chunks` pieces. */
static int read_bytes(const char *text, size_t len, cpg_mm_kind kind,
                      long long expect, int chunks, cpg_mm_scan *s,
                      char *msg)
{
    static const char *const labels[] = {"A", "b", "stretch"};
    static char path[FIXTURE_PATH];
    fixture_join(path, tmpdir, "f.mtx");
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(text, 1, len, f) == len;
    if (!f || fclose(f) != 0 || !ok) {
        fprintf(stderr, "cannot write in %s\n", tmpdir);
        exit(1);
    }
    memset(s, 0, sizeof *s);
    s->path = path;
    s->label = labels[kind];
    s->kind = kind;
    s->expect = expect;
    s->chunks = chunks;
    msg[0] = '\0';
    return cpg_mm_read_file(s, msg);
}

static int read_text(const char *text, cpg_mm_kind kind, long long expect,
                     int chunks, cpg_mm_scan *s, char *msg)
{
    return read_bytes(text, strlen(text), kind, expect, chunks, s, msg);
}

/* The same code, message and entries (bit for bit) in 3 and in 16 pieces
 * (or in `chunks` alone) as in one, for the len bytes of text; returns 1
 * when they agree. */
static int same_bytes_in_chunks(const char *tag, const char *text,
                                size_t len, cpg_mm_kind kind,
                                long long expect, int chunks)
{
    cpg_mm_scan one, many;
    char msg1[COREPCG_MSG_SIZE], msg2[COREPCG_MSG_SIZE];
    int rc1 = read_bytes(text, len, kind, expect, 1, &one, msg1), ok = 1;
    /* (16 threads a read costs much under the sanitizers: 3 there) */
    int counts[2] = {chunks ? chunks : 3,
                     chunks || scaled(8) < 8 ? 0 : CPG_MM_MAX_CHUNKS};
    for (int c = 0; c < 2 && counts[c]; c++) {
        int rc2 = read_bytes(text, len, kind, expect, counts[c], &many, msg2);
        int same = rc1 == rc2 && strcmp(msg1, msg2) == 0;
        if (same && rc1 == COREPCG_OK) {
            size_t n = (size_t)one.entries;
            same = one.entries == many.entries &&
                   (!one.val || memcmp(one.val, many.val, n * sizeof(double)) == 0) &&
                   (!one.row || (memcmp(one.row, many.row, n * sizeof(int)) == 0 &&
                                 memcmp(one.col, many.col, n * sizeof(int)) == 0));
        }
        if (!same)
            CHECK(0, "%s, %d chunks: code %d '%s', in one piece %d '%s'", tag,
                  counts[c], rc2, msg2, rc1, msg1);
        ok &= same;
        cpg_mm_free(&many);
    }
    cpg_mm_free(&one);
    return ok;
}

static int same_in_chunks(const char *tag, const char *text, cpg_mm_kind kind,
                          long long expect, int chunks)
{
    return same_bytes_in_chunks(tag, text, strlen(text), kind, expect, chunks);
}

/* A symmetric n x n coordinate file: the diagonal and a band below it,
 * column by column, with random values. */
static char *band_matrix(int n, int band, int *entries)
{
    size_t cap = (size_t)n * (size_t)(band + 1) * 40 + 200;
    char *text = malloc(cap), *o = text;
    int count = 0;
    for (int j = 1; j <= n; j++)
        for (int i = j; i <= n && i <= j + band; i++)
            count++;
    o += sprintf(o, "%%%%MatrixMarket matrix coordinate real symmetric\n"
                    "%% made by test_parse_number\n%d %d %d\n", n, n, count);
    for (int j = 1; j <= n; j++)
        for (int i = j; i <= n && i <= j + band; i++) {
            double v = (double)(int64_t)(rng() % 2000001 - 1000000) *
                       pow(10.0, (double)(rng() % 20) - 12.0);
            o += sprintf(o, "%d %d %.17g\n", i, j, v);
        }
    *entries = count;
    return text;
}

/* text with line `line` (1-based) replaced by `with` (NULL: deleted). */
static char *replace_line(const char *text, int line, const char *with)
{
    return fixture_edit_lines(text, line, with, 0);
}

static void test_chunk_boundaries(void)
{
    fixture_temp_dir(tmpdir, "parse");
    char msg[COREPCG_MSG_SIZE];
    cpg_mm_scan s;

    /* A vector of 2000 values in 4 pieces: each value as strtod reads
     * its line, whatever piece it falls in. */
    int n = 2000;
    char *vec = malloc((size_t)n * 32 + 100), *o = vec;
    o += sprintf(o, "%%%%MatrixMarket matrix array real general\n%d 1\n", n);
    for (int k = 0; k < n; k++)
        o += sprintf(o, "%.17g\n", bits_double(rng() & ~(UINT64_C(0x7FF) << 52)) * 1e300);
    int rc = read_text(vec, CPG_MM_VECTOR, n, 4, &s, msg);
    CHECK_INT(rc, COREPCG_OK);
    int bad = 0;
    const char *line = strchr(strchr(vec, '\n') + 1, '\n') + 1;
    for (int k = 0; rc == COREPCG_OK && k < n; k++, line = strchr(line, '\n') + 1)
        bad += double_bits(strtod(line, NULL)) != double_bits(s.val[k]);
    CHECK(bad == 0, "%d of %d values differ from strtod", bad, n);
    cpg_mm_free(&s);

    /* Where the pieces begin: at line starts, the split of the middle
     * moved on to the next line when it falls inside one. */
    const char *body = strchr(strchr(vec, '\n') + 1, '\n') + 1;
    size_t len = strlen(body), starts[CPG_MM_MAX_CHUNKS];
    size_t made = cpg_mm_chunk_starts(body, len, 2, starts);
    CHECK_INT(made, 2);
    CHECK(starts[0] == 0 && starts[1] >= len / 2 && body[starts[1] - 1] == '\n' &&
          (starts[1] == len / 2 || body[len / 2 - 1] != '\n'),
          "pieces start at 0 and %zu (middle %zu)", starts[1], len / 2);
    for (int count = 1; count <= CPG_MM_MAX_CHUNKS; count++) {
        made = cpg_mm_chunk_starts(body, len, count, starts);
        int ok = made >= 1 && made <= (size_t)count && starts[0] == 0;
        for (size_t k = 1; k < made; k++)
            ok &= starts[k] > starts[k - 1] && starts[k] < len &&
                  body[starts[k] - 1] == '\n';
        CHECK(ok, "%d pieces: bad starts", count);
    }
    /* a file with fewer lines than pieces asked for */
    made = cpg_mm_chunk_starts("1\n2\n", 4, 16, starts);
    CHECK(made == 2 && starts[1] == 2, "2 lines in %zu pieces", made);

    /* An error on the first line of the second piece: its own line
     * number, found although that piece does not know where it starts. */
    made = cpg_mm_chunk_starts(body, len, 2, starts);
    int first_of_second = 3; /* banner, size line, then the body */
    for (size_t k = 0; k < starts[1]; k++)
        first_of_second += body[k] == '\n';
    char *broken = replace_line(vec, first_of_second, "nan");
    rc = read_text(broken, CPG_MM_VECTOR, n, 2, &s, msg);
    char want[128];
    snprintf(want, sizeof want, ":%d: value nan is not finite", first_of_second);
    CHECK_INT(rc, COREPCG_ERR_NOT_FINITE);
    CHECK_STR_CONTAINS(msg, want);
    free(broken);
    /* and an error in the first piece comes first, in file order */
    broken = replace_line(vec, first_of_second, "x");
    char *two = replace_line(broken, 10, "1 2");
    rc = read_text(two, CPG_MM_VECTOR, n, 2, &s, msg);
    CHECK_INT(rc, COREPCG_ERR_FORMAT);
    CHECK_STR_CONTAINS(msg, ":10: expected 1 value, found 2 fields");
    free(broken);
    free(two);

    /* A NUL byte, a CR that does not end its line, a vertical tab or a
     * form feed inside a value: refused with its line in any number of
     * pieces, in the first line of the second piece and inside the first
     * (a NUL used to cut the line short silently, "1.5\025" read as 1.5;
     * the others passed for blanks). */
    static const struct {
        char c;
        const char *name;
    } strays[] = {{'\0', "a NUL byte"},
                  {'\r', "a carriage return (CR) that does not end it"},
                  {'\v', "a vertical tab"},
                  {'\f', "a form feed"}};
    for (size_t k = 0; k < sizeof strays / sizeof strays[0]; k++)
        for (int at = 0; at < 2; at++) {
            int l = at ? first_of_second : 10;
            broken = replace_line(vec, l, "1.5@25");
            size_t blen = strlen(broken);
            *strchr(broken, '@') = strays[k].c;
            snprintf(want, sizeof want, ":%d: the line holds %s (column 4)", l,
                     strays[k].name);
            for (int chunks = 1; chunks <= CPG_MM_MAX_CHUNKS; chunks *= 2) {
                rc = read_bytes(broken, blen, CPG_MM_VECTOR, n, chunks, &s, msg);
                CHECK(rc == COREPCG_ERR_FORMAT && strstr(msg, want),
                      "%s at line %d in %d pieces: code %d '%s'",
                      strays[k].name, l, chunks, rc, msg);
                cpg_mm_free(&s);
            }
            free(broken);
        }

    /* CRLF line ends read as LF ones, in any number of pieces. */
    char *crlf = malloc(2 * strlen(vec) + 1);
    o = crlf;
    for (const char *c = vec; *c; c++) {
        if (*c == '\n')
            *o++ = '\r';
        *o++ = *c;
    }
    *o = '\0';
    cpg_mm_scan lf;
    read_text(vec, CPG_MM_VECTOR, n, 1, &lf, msg);
    rc = read_text(crlf, CPG_MM_VECTOR, n, 3, &s, msg);
    CHECK_INT(rc, COREPCG_OK);
    CHECK(rc == COREPCG_OK && memcmp(s.val, lf.val, sizeof(double) * (size_t)n) == 0,
          "CRLF reads as LF");
    cpg_mm_free(&s);
    cpg_mm_free(&lf);
    same_in_chunks("crlf", crlf, CPG_MM_VECTOR, n, 7);
    /* the last line's CR without its LF ends it too */
    crlf[strlen(crlf) - 1] = '\0';
    read_text(vec, CPG_MM_VECTOR, n, 1, &lf, msg);
    rc = read_text(crlf, CPG_MM_VECTOR, n, 3, &s, msg);
    CHECK(rc == COREPCG_OK && memcmp(s.val, lf.val, sizeof(double) * (size_t)n) == 0,
          "a last line ending in CR alone: %d %s", rc, msg);
    cpg_mm_free(&s);
    cpg_mm_free(&lf);
    same_in_chunks("crlf, no last LF", crlf, CPG_MM_VECTOR, n, 7);
    free(crlf);

    /* A file smaller than any piece (auto: one thread) and one asked for
     * more pieces than it has lines. */
    const char *small = "%%MatrixMarket matrix array real general\n2 1\n1.5\n-2\n";
    rc = read_text(small, CPG_MM_VECTOR, 2, 0, &s, msg);
    CHECK(rc == COREPCG_OK && s.val[0] == 1.5 && s.val[1] == -2, "small file: %s", msg);
    cpg_mm_free(&s);
    same_in_chunks("small", small, CPG_MM_VECTOR, 2, 16);
    free(vec);

    /* A matrix: every line spoiled in turn (and comments, blank lines
     * and stray entries put in), read in 2..16 pieces, gives what the
     * one-piece reading gives: the same entries or the same first
     * defect with the same file:line. */
    int entries;
    char *A = band_matrix(24, 2, &entries); /* 3 header lines, then entries */
    static const char *const spoil[] = {
        "% a comment", "", "   \t", "1 1 nan", "2 1 1e999", "3 4 1", "31 1 1",
        "1 1", "1 1 1 1", "x", "1 1 0x10", "+2 1 5", "2 1 1e-400", "1 1 1e308",
        "1\0331 1", "2 1 .5e", "2 1 1@5", "2 1 1@ 7 8", "2@1 1", "@",
        "% a NUL @ in a comment", "2 1\r1", "2 1 1\r ", "2\v1 1", "2 1 1\f",
        "\f", NULL};
    const int nspoil = (int)(sizeof spoil / sizeof spoil[0]);
    int lines = entries + 3, agreed = 0, tried = 0;
    for (int l = 2; l <= lines + 1; l++)
        for (int v = 0; v < nspoil; v++) {
            if (l == 3 && v > 2) /* the size line: one of each is enough */
                continue;
            char *t = l <= lines ? replace_line(A, l, spoil[v]) : NULL;
            if (!t) { /* past the end: an extra line */
                t = malloc(strlen(A) + 64);
                sprintf(t, "%s%s\n", A, spoil[v] ? spoil[v] : "");
            }
            /* '@' stands for a NUL */
            size_t tlen = strlen(t);
            for (char *z = t; (z = strchr(z, '@')) != NULL; z++)
                *z = '\0';
            agreed += same_bytes_in_chunks("spoilt matrix", t, tlen,
                                           CPG_MM_MATRIX_A, 0, 0);
            tried++;
            free(t);
        }
    CHECK_INT(agreed, tried);
    /* comments and blank lines between entries: gaps closed */
    char *gaps = replace_line(A, 20, "% gap");
    char *gaps2 = malloc(strlen(gaps) + 64);
    sprintf(gaps2, "%s\n%% trailing comment\n", gaps);
    char *gaps3 = replace_line(gaps2, 40, "");
    char *gaps4 = fixture_edit_lines(gaps3, 60, "   ", 0);
    /* the lines replaced were entries: say so in the size line */
    char size[64];
    snprintf(size, sizeof size, "24 24 %d", entries - 3);
    char *gaps5 = replace_line(gaps4, 3, size);
    for (int chunks = 2; chunks <= CPG_MM_MAX_CHUNKS; chunks++)
        same_in_chunks("gaps", gaps5, CPG_MM_MATRIX_A, 0, chunks);
    rc = read_text(gaps5, CPG_MM_MATRIX_A, 0, 5, &s, msg);
    CHECK(rc == COREPCG_OK && s.entries == entries - 3, "gaps: %s", msg);
    cpg_mm_free(&s);
    free(gaps), free(gaps2), free(gaps3), free(gaps4), free(gaps5);
    /* truncated: the message counts the entries of every piece */
    char *cut = fixture_edit_lines(A, 0, NULL, lines - 4);
    rc = read_text(cut, CPG_MM_MATRIX_A, 0, 4, &s, msg);
    snprintf(want, sizeof want, ":%d: file ends after %d of the %d entries",
             lines - 3, entries - 4, entries);
    CHECK_INT(rc, COREPCG_ERR_FORMAT);
    CHECK_STR_CONTAINS(msg, want);
    free(cut);
    free(A);
    fixture_remove_tree(tmpdir);
}

/* ------------------------------------------------------------- main */

int main(void)
{
    const char *seed = getenv("COREPCG_TEST_SEED");
    if (seed)
        rng_state = strtoull(seed, NULL, 0);
    test_table();
    test_edge_cases();
    test_random_doubles();
    test_random_moderate();
    test_random_strings();
    test_halfway();
    test_chunk_boundaries();
    test_writer();
    printf("%ld texts compared with strtod, %ld by the fast path, %ld "
           "mismatches\n", compared, fast_taken, mismatches);
    CHECK(mismatches == 0, "%ld texts read differently from strtod", mismatches);
    return test_summary("test_parse_number");
}

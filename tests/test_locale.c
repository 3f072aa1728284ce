/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bundle's files are the same whatever the caller's locale (an
 * outside review: a simulator under de_DE that called setlocale(LC_ALL,
 * "") got b.mtx with "1,5e20" from corepcg_bundle_write, returned OK,
 * and its reader refused data/tiny's "0.6"). Run by locale_io.sh under a
 * comma-decimal locale it generated: the shipped bundle reads as under
 * C; values that take printf's and strtod's paths (large and tiny
 * exponents, 17 digits, more digits than the fast paths take) are
 * written with '.' and read back bit for bit; the caller's locale is its
 * own again after each call. (The parallel reader's threads, which start
 * in the process's locale, are given the C one too; had they failed, the
 * sequential pass after them would have read the file: slower, not
 * wrong, so no output here can show it.) Public API, shared library. */
#include "corepcg.h"
#include "fixture.h"
#include "test.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char tmp_dir[512];

static int caller_locale_kept(void)
{
    return strcmp(localeconv()->decimal_point, ",") == 0;
}

/* No ',' outside the comment lines of a Matrix Market file. */
static int commas_in_numbers(const char *text)
{
    int commas = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (line[0] != '%' && memchr(line, ',', len))
            commas++;
        line = end ? end + 1 : NULL;
    }
    return commas;
}

/* data/tiny read under the caller's locale, then written with b and z of
 * printf's and strtod's ranges, and read back. */
static void bundle_round_trip(void)
{
    const char *data = getenv("COREPCG_DATA_DIR");
    char path[1024], msg[COREPCG_MSG_SIZE];
    snprintf(path, sizeof path, "%s/tiny", data ? data : "data");
    corepcg_bundle *bd = NULL;
    int rc = corepcg_bundle_read(path, &bd, msg);
    CHECK(rc == COREPCG_OK, "reading %s: %d %s", path, rc, msg);
    CHECK(caller_locale_kept(), "the caller's locale is lost after reading");
    if (rc != COREPCG_OK)
        return;
    int n = 3 * bd->system.num_nodes;
    double *b = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++)
        b[i] = (i % 3 == 0 ? 1.5e20 : i % 3 == 1 ? 0.1 + 1e-17 : -2.5e-300) * (i + 1);
    snprintf(path, sizeof path, "%s/written", tmp_dir);
    rc = corepcg_bundle_write(path, &bd->system, b, bd->x0, msg);
    CHECK(rc == COREPCG_OK, "writing %s: %d %s", path, rc, msg);
    CHECK(caller_locale_kept(), "the caller's locale is lost after writing");
    char file[1200];
    snprintf(file, sizeof file, "%s/b.mtx", path);
    char *text = fixture_read(file);
    CHECK(text && commas_in_numbers(text) == 0, "%s holds a comma:\n%s", file,
          text ? text : "(unreadable)");
    free(text);
    corepcg_bundle *back = NULL;
    rc = corepcg_bundle_read(path, &back, msg);
    CHECK(rc == COREPCG_OK, "reading back %s: %d %s", path, rc, msg);
    if (rc == COREPCG_OK) {
        CHECK(memcmp(back->b, b, sizeof(double) * (size_t)n) == 0,
              "b differs after the round trip");
        CHECK(back->system.num_constraints == bd->system.num_constraints,
              "constraints: %d, wrote %d", back->system.num_constraints,
              bd->system.num_constraints);
    }
    corepcg_bundle_free(&back);
    corepcg_bundle_free(&bd);
    free(b);
}

/* A vector long enough for the parallel reader (over 1 MB of text) of
 * 17-digit values, which strtod reads. */
static void long_vector(void)
{
    const int n = 60000;
    double *x = malloc(sizeof(double) * (size_t)n), *y = NULL;
    for (int i = 0; i < n; i++)
        x[i] = (i % 2 ? 1.2345678901234567e21 : 9.8765432109876543e-25) * (1 + i);
    char path[1024], msg[COREPCG_MSG_SIZE];
    snprintf(path, sizeof path, "%s/x.mtx", tmp_dir);
    int rc = corepcg_vector_write(path, n, x, msg);
    CHECK(rc == COREPCG_OK, "writing %s: %d %s", path, rc, msg);
    char *text = fixture_read(path);
    CHECK(text && strlen(text) > 1000000, "%s is short", path);
    CHECK(text && commas_in_numbers(text) == 0, "%s holds a comma", path);
    free(text);
    rc = corepcg_vector_read(path, n, &y, msg);
    CHECK(rc == COREPCG_OK, "reading %s: %d %s", path, rc, msg);
    CHECK(y && memcmp(x, y, sizeof(double) * (size_t)n) == 0,
          "the vector differs after the round trip");
    CHECK(caller_locale_kept(), "the caller's locale is lost after the vector");
    free(x);
    free(y);
}

/* More digits than the fast paths take (decimal.c): strtod reads them,
 * on the parallel reader's threads for a file this long. */
static void long_digits(void)
{
    const int n = 60000;
    const char *text = "1.23456789012345678901234e+21";
    const double want = 1.23456789012345678901234e+21; /* the compiler's */
    char path[1024], msg[COREPCG_MSG_SIZE];
    snprintf(path, sizeof path, "%s/digits.mtx", tmp_dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f)
        return;
    fprintf(f, "%%%%MatrixMarket matrix array real general\n%d 1\n", n);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s\n", text);
    fclose(f);
    double *y = NULL;
    int rc = corepcg_vector_read(path, n, &y, msg);
    CHECK(rc == COREPCG_OK, "reading %s: %d %s", path, rc, msg);
    int wrong = 0;
    for (int i = 0; y && i < n; i++)
        wrong += y[i] != want;
    CHECK(y && wrong == 0, "%d of %d values of %s read wrong", wrong, n, path);
    free(y);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_locale TMP_DIR (run by locale_io.sh)\n");
        return 2;
    }
    snprintf(tmp_dir, sizeof tmp_dir, "%s", argv[1]);
    /* what a simulator with a user interface does */
    setlocale(LC_ALL, "");
    CHECK(caller_locale_kept(), "the locale (LC_ALL=%s) does not write '1,5': "
          "the test would prove nothing", getenv("LC_ALL"));
    bundle_round_trip();
    long_vector();
    long_digits();
    return test_summary("test_locale");
}

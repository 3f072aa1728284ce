/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mm_scan.c -- a light pre-scan of every Matrix Market file of a bundle.
 *
 * CHOLMOD's reader says only "invalid" and accepts a lot (NaN, rectangular
 * matrices, 0-based files, values it turns into Inf), and it allocates
 * for whatever the size line claims. So each file is first read here,
 * line by line and without allocating for its content, to name file:line
 * for each defect and to refuse absurd sizes; CHOLMOD then does the actual
 * reading (bundle_read.c). */
#include "bundle_io.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MM_MAX_LINE 1024            /* Matrix Market's line limit; CHOLMOD
                                       splits longer lines */
#define MM_MAX_ENTRIES (INT_MAX / 2) /* A + A^T must still fit an int */

/* The next line that is neither blank nor a comment ('%' in column 1),
 * with its number in *lineno. Returns 1, 0 at end of file, or an error
 * code (msg set). */
static int next_data_line(FILE *f, const cpg_mm_scan *s, char **line,
                          size_t *cap, long *lineno, char *msg)
{
    ssize_t len;
    while ((len = getline(line, cap, f)) != -1) {
        ++*lineno;
        if ((size_t)len > MM_MAX_LINE + 1)
            return cpg_fail(msg, COREPCG_ERR_FORMAT,
                            "%s:%ld: line longer than the %d characters "
                            "Matrix Market allows", s->path, *lineno,
                            MM_MAX_LINE);
        if ((*line)[0] == '%')
            continue;
        if (strspn(*line, " \t\r\n\v\f") == (size_t)len)
            continue;
        return 1;
    }
    if (ferror(f))
        return cpg_fail(msg, COREPCG_ERR_IO, "%s:%ld: read error", s->path,
                        *lineno + 1);
    return 0;
}

/* Case-insensitive equality: Matrix Market keywords may be in any case. */
static int lower_equal(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if ((*a | 0x20) != (*b | 0x20))
            return 0;
    return *a == *b;
}

/* Line 1: `%%MatrixMarket matrix FORMAT FIELD STORAGE`, checked against
 * what this kind of file must be. */
static int scan_banner(FILE *f, cpg_mm_scan *s, char **line, size_t *cap,
                       char *msg)
{
    static const char *const wanted[] = {
        [CPG_MM_MATRIX_A] = "coordinate real symmetric (or general)",
        [CPG_MM_VECTOR] = "array real general",
        [CPG_MM_STRETCH] = "coordinate pattern symmetric"};
    ssize_t len = getline(line, cap, f);
    if (len == -1)
        return cpg_fail(msg, ferror(f) ? COREPCG_ERR_IO : COREPCG_ERR_FORMAT,
                        "%s:1: %s; expected the %%%%MatrixMarket banner",
                        s->path, ferror(f) ? "read error" : "empty file");
    if ((size_t)len > MM_MAX_LINE + 1)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:1: line longer than the %d characters Matrix "
                        "Market allows", s->path, MM_MAX_LINE);
    char *fld[6];
    int nf = cpg_split_fields(*line, fld, 6);
    if (nf < 1 || strcmp(fld[0], "%%MatrixMarket") != 0)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:1: not a Matrix Market file (the first line must "
                        "start with %%%%MatrixMarket)", s->path);
    if (nf != 5 || !lower_equal(fld[1], "matrix"))
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:1: malformed banner: expected `%%%%MatrixMarket "
                        "matrix %s`", s->path, wanted[s->kind]);
    int coordinate = lower_equal(fld[2], "coordinate");
    int array = lower_equal(fld[2], "array");
    int real = lower_equal(fld[3], "real");
    s->integer = lower_equal(fld[3], "integer");
    s->pattern = lower_equal(fld[3], "pattern");
    s->general = lower_equal(fld[4], "general");
    int symmetric = lower_equal(fld[4], "symmetric");
    int ok;
    switch (s->kind) {
    case CPG_MM_MATRIX_A:
        /* CHOLMOD writes an integer-valued matrix as `integer` and one
         * whose entries are all 1 as `pattern`: both read as real. */
        ok = coordinate && (real || s->integer || s->pattern) &&
             (symmetric || s->general);
        break;
    case CPG_MM_VECTOR:
        ok = array && (real || s->integer) && s->general;
        break;
    default:
        ok = coordinate && s->pattern && symmetric;
        break;
    }
    if (!ok)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:1: %s must be `%s`, the banner says `%s %s %s`",
                        s->path, s->label, wanted[s->kind], fld[2], fld[3],
                        fld[4]);
    return COREPCG_OK;
}

/* The size line: checks it against the kind and what the bundle expects,
 * before anything is allocated. */
static int scan_size(FILE *f, cpg_mm_scan *s, char **line, size_t *cap,
                     long *lineno, char *msg)
{
    int rc = next_data_line(f, s, line, cap, lineno, msg);
    if (rc == 0)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: file ends before the size line", s->path,
                        *lineno + 1);
    if (rc != 1)
        return rc;
    int want = s->kind == CPG_MM_VECTOR ? 2 : 3;
    char *fld[4];
    int nf = cpg_split_fields(*line, fld, 4);
    long long v[3] = {0, 0, 0};
    int ok = nf == want;
    for (int k = 0; ok && k < want; k++)
        ok = cpg_parse_whole(fld[k], &v[k]) && v[k] >= 0;
    if (!ok)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: malformed size line: expected %s", s->path,
                        *lineno, want == 2 ? "`rows columns`"
                                           : "`rows columns entries`");
    s->rows = v[0];
    s->cols = v[1];
    s->entries = v[2];

    if (s->kind == CPG_MM_VECTOR) {
        if (s->rows != s->expect || s->cols != 1)
            return cpg_fail(msg, COREPCG_ERR_DIMENSION,
                            "%s:%ld: %s is %lld x %lld, expected %lld x 1 "
                            "(n = 3N from A.mtx)", s->path, *lineno,
                            s->label, s->rows, s->cols, s->expect);
        s->entries = s->rows; /* one value a line */
        return COREPCG_OK;
    }
    if (s->kind == CPG_MM_STRETCH &&
        (s->rows != s->expect || s->cols != s->expect))
        return cpg_fail(msg, COREPCG_ERR_DIMENSION,
                        "%s:%ld: %s is %lld x %lld, the bundle has N = %lld "
                        "nodes (needs N x N)", s->path, *lineno, s->label,
                        s->rows, s->cols, s->expect);
    if (s->kind == CPG_MM_MATRIX_A) {
        if (s->rows != s->cols)
            return cpg_fail(msg, COREPCG_ERR_DIMENSION,
                            "%s:%ld: A is %lld x %lld; it must be square",
                            s->path, *lineno, s->rows, s->cols);
        if (s->rows == 0 || s->rows % 3 != 0)
            return cpg_fail(msg, COREPCG_ERR_DIMENSION,
                            "%s:%ld: n = %lld is not a positive multiple "
                            "of 3 (3 unknowns per node)", s->path, *lineno,
                            s->rows);
        if (s->rows > INT_MAX - 1)
            return cpg_fail(msg, COREPCG_ERR_TOO_LARGE,
                            "%s:%ld: n = %lld is more than corepcg's int "
                            "indices hold", s->path, *lineno, s->rows);
    }
    if (s->entries > MM_MAX_ENTRIES)
        return cpg_fail(msg, COREPCG_ERR_TOO_LARGE,
                        "%s:%ld: %lld entries is more than corepcg handles "
                        "(at most %d)", s->path, *lineno, s->entries,
                        MM_MAX_ENTRIES);
    /* rows < 2^31 here, so these products fit a long long. */
    long long most = s->kind == CPG_MM_STRETCH ? s->rows * (s->rows - 1) / 2
                     : s->general          ? s->rows * s->rows
                                           : s->rows * (s->rows + 1) / 2;
    if (s->entries > most)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: %lld entries is more than a %s %lld x %lld "
                        "matrix holds (%lld)", s->path, *lineno, s->entries,
                        s->general ? "general" : "symmetric", s->rows,
                        s->cols, most);
    if (s->kind == CPG_MM_MATRIX_A && s->entries < s->rows)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: %lld entries cannot hold the %lld diagonal "
                        "entries of a positive definite A", s->path, *lineno,
                        s->entries, s->rows);
    return COREPCG_OK;
}

static int scan_index(const cpg_mm_scan *s, long lineno, const char *what,
                      const char *text, long long hi, long long *out,
                      char *msg)
{
    if (!cpg_parse_whole(text, out))
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: %s index is not a whole number ('%s')",
                        s->path, lineno, what, text);
    if (*out < 1 || *out > hi) /* the library's rule for any index */
        return cpg_fail(msg, COREPCG_ERR_DIMENSION,
                        "%s:%ld: %s index %s is out of range 1..%lld",
                        s->path, lineno, what, text, hi);
    return COREPCG_OK;
}

static int scan_value(const cpg_mm_scan *s, long lineno, const char *text,
                      char *msg)
{
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0')
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: value is not a number ('%s')", s->path,
                        lineno, text);
    if (!isfinite(v) || !cpg_mm_storable(v))
        return cpg_fail(msg, COREPCG_ERR_NOT_FINITE,
                        "%s:%ld: value %s is not finite%s", s->path, lineno,
                        text, isfinite(v) ? CPG_MM_HUGE_NOTE : "");
    if (s->integer && v != floor(v))
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: value %s is not an integer, but the banner "
                        "says `integer`", s->path, lineno, text);
    return COREPCG_OK;
}

/* One entry line of a coordinate file. */
static int scan_coordinate_entry(const cpg_mm_scan *s, char *line,
                                 long lineno, char *msg)
{
    int want = s->pattern ? 2 : 3;
    char *fld[4];
    int nf = cpg_split_fields(line, fld, 4);
    if (nf != want)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: expected %d fields (%s), found %d", s->path,
                        lineno, want,
                        want == 2 ? "row column" : "row column value", nf);
    long long i, j;
    int rc = scan_index(s, lineno, "row", fld[0], s->rows, &i, msg);
    if (rc == COREPCG_OK)
        rc = scan_index(s, lineno, "column", fld[1], s->cols, &j, msg);
    if (rc != COREPCG_OK)
        return rc;
    if (s->kind == CPG_MM_STRETCH && i == j)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: node %lld is paired with itself", s->path,
                        lineno, i - 1);
    if (!s->general && i < j)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: entry (%lld, %lld) is above the diagonal; a "
                        "symmetric file stores the lower triangle", s->path,
                        lineno, i, j);
    return want == 3 ? scan_value(s, lineno, fld[2], msg) : COREPCG_OK;
}

int cpg_mm_scan_file(cpg_mm_scan *s, char *msg)
{
    FILE *f = fopen(s->path, "r");
    if (!f)
        return cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot open: %s", s->path,
                        strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    long lineno = 1, size_line;
    int rc = scan_banner(f, s, &line, &cap, msg);
    if (rc == COREPCG_OK)
        rc = scan_size(f, s, &line, &cap, &lineno, msg);
    size_line = lineno;
    for (long long k = 0; rc == COREPCG_OK && k < s->entries; k++) {
        int got = next_data_line(f, s, &line, &cap, &lineno, msg);
        if (got == 0)
            rc = cpg_fail(msg, COREPCG_ERR_FORMAT,
                          "%s:%ld: file ends after %lld of the %lld entries "
                          "the size line (line %ld) announces", s->path,
                          lineno + 1, k, s->entries, size_line);
        else if (got != 1)
            rc = got;
        else if (s->kind == CPG_MM_VECTOR) {
            char *fld[2];
            int nf = cpg_split_fields(line, fld, 2);
            rc = nf != 1 ? cpg_fail(msg, COREPCG_ERR_FORMAT,
                                    "%s:%ld: expected 1 value, found %d "
                                    "fields", s->path, lineno, nf)
                         : scan_value(s, lineno, fld[0], msg);
        } else
            rc = scan_coordinate_entry(s, line, lineno, msg);
    }
    if (rc == COREPCG_OK) {
        int more = next_data_line(f, s, &line, &cap, &lineno, msg);
        if (more == 1)
            rc = cpg_fail(msg, COREPCG_ERR_FORMAT,
                          "%s:%ld: more entries than the %lld the size line "
                          "(line %ld) announces", s->path, lineno,
                          s->entries, size_line);
        else if (more != 0)
            rc = more;
    }
    free(line);
    fclose(f);
    return rc;
}

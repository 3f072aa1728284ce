/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mm_header.c -- a Matrix Market file's banner and size line, checked by
 * docs/format.md section 3 against the kind of file and what the bundle
 * expects, before anything is allocated for its entries. */
#include "mm_lines.h"
#include "decimal.h"

/* Case-insensitive equality: Matrix Market keywords may be in any case. */
static int lower_equal(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if ((*a | 0x20) != (*b | 0x20))
            return 0;
    return *a == *b;
}

/* The next line that is neither blank nor a comment. Returns 1, 0 at
 * the end of the file, or an error code (msg set). */
static int next_data_line(mm_cursor *c, const cpg_mm_scan *s, mm_line *l,
                          char *msg)
{
    while (next_line(c, l)) {
        if (too_long(l))
            return mm_fail_long(s, c->lineno, msg);
        if (!skipped(l))
            return 1;
    }
    return 0;
}

/* Line 1: `%%MatrixMarket matrix FORMAT FIELD STORAGE`, checked against
 * what this kind of file must be. */
static int scan_banner(mm_cursor *c, cpg_mm_scan *s, char *msg)
{
    static const char *const wanted[] = {
        [CPG_MM_MATRIX_A] = "coordinate real symmetric (or general)",
        [CPG_MM_VECTOR] = "array real general",
        [CPG_MM_STRETCH] = "coordinate pattern symmetric"};
    mm_line l;
    if (!next_line(c, &l))
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:1: empty file; expected the %%%%MatrixMarket "
                        "banner", s->path);
    if (too_long(&l))
        return mm_fail_long(s, 1, msg);
    char buf[MM_MAX_LINE + 2], *fld[6];
    int nf = cpg_split_fields(line_text(&l, buf), fld, 6);
    if (nf < 1 || strcmp(fld[0], "%%MatrixMarket") != 0)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:1: not a Matrix Market file (the first line must "
                        "start with %%%%MatrixMarket)", s->path);
    /* (after that test: a binary file is "not a Matrix Market file") */
    int rc = mm_check_bytes(s, 1, &l, msg);
    if (rc != COREPCG_OK)
        return rc;
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
static int scan_size(mm_cursor *c, cpg_mm_scan *s, char *msg)
{
    mm_line l;
    int rc = next_data_line(c, s, &l, msg);
    if (rc == 0)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: file ends before the size line", s->path,
                        c->lineno + 1);
    if (rc != 1)
        return rc;
    long lineno = c->lineno;
    s->size_line = lineno;
    rc = mm_check_bytes(s, lineno, &l, msg);
    if (rc != COREPCG_OK)
        return rc;
    int want = s->kind == CPG_MM_VECTOR ? 2 : 3;
    char buf[MM_MAX_LINE + 2], *fld[4];
    int nf = cpg_split_fields(line_text(&l, buf), fld, 4);
    long long v[3] = {0, 0, 0};
    int ok = nf == want;
    for (int k = 0; ok && k < want; k++)
        ok = cpg_parse_whole(fld[k], &v[k]) && v[k] >= 0;
    if (!ok)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: malformed size line: expected %s", s->path,
                        lineno, want == 2 ? "`rows columns`"
                                          : "`rows columns entries`");
    s->rows = v[0];
    s->cols = v[1];
    s->entries = v[2];

    if (s->kind == CPG_MM_VECTOR) {
        if (s->rows != s->expect || s->cols != 1)
            return cpg_fail(msg, COREPCG_ERR_DIMENSION,
                            "%s:%ld: %s is %lld x %lld, expected %lld x 1 "
                            "(n = 3N from A.mtx)", s->path, lineno,
                            s->label, s->rows, s->cols, s->expect);
        s->entries = s->rows; /* one value a line */
        return COREPCG_OK;
    }
    if (s->kind == CPG_MM_STRETCH &&
        (s->rows != s->expect || s->cols != s->expect))
        return cpg_fail(msg, COREPCG_ERR_DIMENSION,
                        "%s:%ld: %s is %lld x %lld, the bundle has N = %lld "
                        "nodes (needs N x N)", s->path, lineno, s->label,
                        s->rows, s->cols, s->expect);
    if (s->kind == CPG_MM_MATRIX_A) {
        if (s->rows != s->cols)
            return cpg_fail(msg, COREPCG_ERR_DIMENSION,
                            "%s:%ld: A is %lld x %lld; it must be square",
                            s->path, lineno, s->rows, s->cols);
        if (s->rows == 0 || s->rows % 3 != 0)
            return cpg_fail(msg, COREPCG_ERR_DIMENSION,
                            "%s:%ld: n = %lld is not a positive multiple "
                            "of 3 (3 unknowns per node)", s->path, lineno,
                            s->rows);
        if (s->rows > INT_MAX - 1)
            return cpg_fail(msg, COREPCG_ERR_TOO_LARGE,
                            "%s:%ld: n = %lld is more than corepcg's int "
                            "indices hold", s->path, lineno, s->rows);
    }
    if (s->entries > MM_MAX_ENTRIES)
        return cpg_fail(msg, COREPCG_ERR_TOO_LARGE,
                        "%s:%ld: %lld entries is more than corepcg handles "
                        "(at most %d)", s->path, lineno, s->entries,
                        MM_MAX_ENTRIES);
    /* rows < 2^31 here, so these products fit a long long. */
    long long most = s->kind == CPG_MM_STRETCH ? s->rows * (s->rows - 1) / 2
                     : s->general          ? s->rows * s->rows
                                           : s->rows * (s->rows + 1) / 2;
    if (s->entries > most)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: %lld entries is more than a %s %lld x %lld "
                        "matrix holds (%lld)", s->path, lineno, s->entries,
                        s->general ? "general" : "symmetric", s->rows,
                        s->cols, most);
    if (s->kind == CPG_MM_MATRIX_A && s->entries < s->rows)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: %lld entries cannot hold the %lld diagonal "
                        "entries of a positive definite A", s->path, lineno,
                        s->entries, s->rows);
    return COREPCG_OK;
}

int cpg_mm_scan_header(mm_cursor *c, cpg_mm_scan *s, char *msg)
{
    int rc = scan_banner(c, s, msg);
    return rc == COREPCG_OK ? scan_size(c, s, msg) : rc;
}

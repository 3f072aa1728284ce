/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mm_entries.c -- a Matrix Market file's entry lines. The rules
 * (docs/format.md section 3) have one implementation: check_line, which
 * every line the fast path does not take goes through. The fast path
 * (fast_line) takes only lines that are plainly valid -- `row col value`
 * with blanks between, decimal digits, a plain decimal value in range --
 * and reads them exactly as check_line would (decimal.c is bit for bit
 * strtod). A byte the format does not allow (a NUL, a CR inside a line)
 * stops the fast path where it stands, so check_line, not an extra pass,
 * finds it. */
#include "mm_lines.h"
#include "decimal.h"

#include <math.h>
#include <stdlib.h>

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
                      double *out, char *msg)
{
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0')
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: value is not a number ('%s')", s->path,
                        lineno, text);
    if (cpg_hexadecimal(text))
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: value %s is a hexadecimal float; write "
                        "it in decimal", s->path, lineno, text);
    if (!isfinite(v) || !cpg_mm_storable(v))
        return cpg_fail(msg, COREPCG_ERR_NOT_FINITE,
                        "%s:%ld: value %s is not finite%s", s->path, lineno,
                        text, isfinite(v) ? CPG_MM_HUGE_NOTE : "");
    if (s->integer && v != floor(v))
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: value %s is not an integer, but the banner "
                        "says `integer`", s->path, lineno, text);
    *out = v;
    return COREPCG_OK;
}

/* One entry line of a coordinate file. */
static int scan_coordinate_entry(const cpg_mm_scan *s, char *line,
                                 long lineno, mm_entry *e, char *msg)
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
    e->row = (int)(i - 1);
    e->col = (int)(j - 1);
    e->value = 1;
    return want == 3 ? scan_value(s, lineno, fld[2], &e->value, msg)
                     : COREPCG_OK;
}

/* Any line after the size line, by the rules: returns 1 for an entry
 * (in *e), 0 for a comment or blank line, or an error code. count
 * entries came before it, and at most `limit` are allowed. */
static int check_line(const cpg_mm_scan *s, const mm_line *l, long lineno,
                      long long count, long long limit, mm_entry *e,
                      char *msg)
{
    if (too_long(l))
        return mm_fail_long(s, lineno, msg);
    if (skipped(l))
        return 0;
    int rc = mm_check_bytes(s, lineno, l, msg);
    if (rc != COREPCG_OK)
        return rc;
    if (count == limit)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: more entries than the %lld the size line "
                        "(line %ld) announces", s->path, lineno, s->entries,
                        s->size_line);
    char buf[MM_MAX_LINE + 2];
    char *line = line_text(l, buf);
    if (s->kind == CPG_MM_VECTOR) {
        char *fld[2];
        int nf = cpg_split_fields(line, fld, 2);
        rc = nf != 1 ? cpg_fail(msg, COREPCG_ERR_FORMAT,
                                "%s:%ld: expected 1 value, found %d fields",
                                s->path, lineno, nf)
                     : scan_value(s, lineno, fld[0], &e->value, msg);
    } else {
        rc = scan_coordinate_entry(s, line, lineno, e, msg);
    }
    return rc == COREPCG_OK ? 1 : rc;
}

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && is_blank(*p))
        p++;
    return p;
}

/* An index field followed by a blank (or, last, by the end of the line):
 * its value if it is plainly 1..hi, else NULL. */
static const char *fast_index(const char *p, const char *end, long long hi,
                              int last, int *out)
{
    long long v;
    p = cpg_parse_digits(p, end, &v);
    if (!p || v < 1 || v > hi)
        return NULL;
    if (!last && (p == end || !is_blank(*p)))
        return NULL;
    *out = (int)(v - 1);
    return p;
}

/* The common line, read without copying: `[blanks] row col value
 * [blanks]` (or `row col`, or `value`), every field plainly valid.
 * Returns the start of the next line with *e set, or NULL: then
 * check_line decides. */
static const char *fast_line(const cpg_mm_scan *s, const char *p,
                             const char *end, mm_entry *e)
{
    const char *start = p;
    p = skip_blanks(p, end);
    if (s->kind != CPG_MM_VECTOR) {
        if (!(p = fast_index(p, end, s->rows, 0, &e->row)))
            return NULL;
        p = skip_blanks(p, end);
        if (!(p = fast_index(p, end, s->cols, s->pattern, &e->col)))
            return NULL;
        if (s->general ? 0 : s->kind == CPG_MM_STRETCH ? e->row <= e->col
                                                       : e->row < e->col)
            return NULL;
        e->value = 1;
        if (!s->pattern) {
            if (p == end || !is_blank(*p))
                return NULL;
            p = skip_blanks(p, end);
        }
    }
    if (s->kind == CPG_MM_VECTOR || !s->pattern) {
        double v;
        if (!(p = cpg_parse_decimal(p, end, &v)) || !cpg_mm_storable(v) ||
            (s->integer && v != floor(v)))
            return NULL;
        e->value = v;
    }
    p = skip_blanks(p, end);
    if (p < end && *p == '\r') /* CRLF; a CR before anything else is
                                  check_line's to refuse */
        p++;
    int newline = p < end && *p == '\n';
    if (p < end && !newline)
        return NULL;
    if ((size_t)(p - start) + (size_t)newline > MM_MAX_LINE + 1)
        return NULL;
    return p + newline;
}

void cpg_mm_parse_chunk(mm_chunk *c)
{
    const cpg_mm_scan *s = c->s;
    const char *p = c->begin, *end = c->end;
    long lineno = c->lineno;
    long long count = 0;
    c->rc = COREPCG_OK;
    while (p < end) {
        mm_entry e;
        lineno++;
        const char *next = count < c->limit ? fast_line(s, p, end, &e) : NULL;
        if (!next) {
            mm_cursor cur = {p, end, lineno - 1};
            mm_line l;
            next_line(&cur, &l);
            next = cur.p;
            int got = check_line(s, &l, lineno, count, c->limit, &e, c->msg);
            if (got < 0) {
                c->rc = got;
                break;
            }
            if (got == 0) {
                p = next;
                continue;
            }
        }
        if (count == c->cap) { /* more entries than lines: cannot be */
            c->rc = COREPCG_ERR_FORMAT;
            break;
        }
        if (c->row) {
            c->row[count] = e.row;
            c->col[count] = e.col;
        }
        if (c->val)
            c->val[count] = e.value;
        count++;
        p = next;
    }
    c->count = count;
    c->lineno = lineno;
}

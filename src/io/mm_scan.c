/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mm_scan.c -- reading the Matrix Market files of a bundle: one read of
 * the whole file, the header checked line by line, then the entries
 * parsed on all cores.
 *
 * The rules (docs/format.md section 3) have one implementation:
 * check_line below, which every line the fast path does not take goes
 * through. The fast path (fast_line) takes only lines that
 * are plainly valid -- `row col value` with blanks between, decimal
 * digits, a plain decimal value in range -- and reads them exactly as
 * check_line would (decimal.c is bit for bit strtod).
 *
 * The entries are split at line boundaries into up to CPG_MM_MAX_CHUNKS
 * pieces, one thread each (pthreads, started and joined inside the call),
 * each writing its part of the arrays. A piece does not know the number
 * of its first line; so when any piece meets a line it cannot accept, or
 * the count differs from the size line's, the whole body is read again in
 * one piece in file order, which stops at the first defect with its
 * file:line, as the sequential scan always did. Nothing is allocated for
 * the content before the size line has been checked, and then no more
 * than the file can hold. */
#define _GNU_SOURCE /* sched_getaffinity: the cores this process may use */
#include "bundle_io.h"
#include "decimal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MM_MAX_LINE 1024            /* Matrix Market's line limit; CHOLMOD
                                       splits longer lines */
#define MM_MAX_ENTRIES (INT_MAX / 2) /* A + A^T must still fit an int */
#define MM_CHUNK_BYTES (256 * 1024)  /* a thread is worth this much text */

/* ============================================================== lines */

/* One line in the buffer: [p, p + len), its newline not included. */
typedef struct mm_line {
    const char *p;
    size_t len;
    int newline;  /* 1 when a '\n' ends it (the last line may lack one) */
} mm_line;

typedef struct mm_cursor {
    const char *p, *end;
    long lineno;  /* of the line last taken */
} mm_cursor;

static int next_line(mm_cursor *c, mm_line *l)
{
    if (c->p >= c->end)
        return 0;
    const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
    l->p = c->p;
    l->len = (size_t)((nl ? nl : c->end) - c->p);
    l->newline = nl != NULL;
    c->p = nl ? nl + 1 : c->end;
    c->lineno++;
    return 1;
}

/* getline's length (newline included) above Matrix Market's limit. */
static int too_long(const mm_line *l)
{
    return l->len + (size_t)l->newline > MM_MAX_LINE + 1;
}

static inline int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* A comment ('%' in column 1) or a blank line; a NUL makes a line
 * neither, as it did for strspn on getline's buffer. */
static int skipped(const mm_line *l)
{
    if (l->len > 0 && l->p[0] == '%')
        return 1;
    for (size_t k = 0; k < l->len; k++)
        if (!is_blank(l->p[k]))
            return 0;
    return 1;
}

/* The line as a C string (as getline gave it: the text up to a NUL
 * counts); buf holds MM_MAX_LINE + 2 bytes and the line is not too long. */
static char *line_text(const mm_line *l, char *buf)
{
    memcpy(buf, l->p, l->len);
    buf[l->len] = '\0';
    return buf;
}

/* ============================================================ header */

/* Case-insensitive equality: Matrix Market keywords may be in any case. */
static int lower_equal(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if ((*a | 0x20) != (*b | 0x20))
            return 0;
    return *a == *b;
}

static int fail_long(const cpg_mm_scan *s, long lineno, char *msg)
{
    return cpg_fail(msg, COREPCG_ERR_FORMAT,
                    "%s:%ld: line longer than the %d characters Matrix "
                    "Market allows", s->path, lineno, MM_MAX_LINE);
}

/* The next line that is neither blank nor a comment. Returns 1, 0 at
 * the end of the file, or an error code (msg set). */
static int next_data_line(mm_cursor *c, const cpg_mm_scan *s, mm_line *l,
                          char *msg)
{
    while (next_line(c, l)) {
        if (too_long(l))
            return fail_long(s, c->lineno, msg);
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
        return fail_long(s, 1, msg);
    char buf[MM_MAX_LINE + 2], *fld[6];
    int nf = cpg_split_fields(line_text(&l, buf), fld, 6);
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

/* =========================================================== entries */

/* One entry as read: 0-based indices (coordinate files) and the value
 * (1 for a pattern: CHOLMOD reads a `pattern` A so, prefer_binary). */
typedef struct mm_entry {
    int row, col;
    double value;
} mm_entry;

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
        return fail_long(s, lineno, msg);
    if (skipped(l))
        return 0;
    if (count == limit)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: more entries than the %lld the size line "
                        "(line %ld) announces", s->path, lineno, s->entries,
                        s->size_line);
    char buf[MM_MAX_LINE + 2];
    char *line = line_text(l, buf);
    int rc;
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
    int newline = p < end && *p == '\n';
    if (p < end && !newline)
        return NULL;
    if ((size_t)(p - start) + (size_t)newline > MM_MAX_LINE + 1)
        return NULL;
    return p + newline;
}

/* A piece of the body, read by one thread into its part of the arrays. */
typedef struct mm_chunk {
    const cpg_mm_scan *s;
    struct mm_team *team;
    const char *begin, *end;  /* whole lines */
    long lineno;              /* the line before begin (0: unknown) */
    long long limit;          /* entries allowed at most */
    long long at, cap;        /* where it writes in s's arrays, and room */
    int *row, *col;
    double *val;
    long long count;          /* entries read */
    long long lines;          /* lines in the piece */
    int rc;
    char msg[COREPCG_MSG_SIZE];
} mm_chunk;

/* Fewest bytes an entry line takes ("1 1 1\n", "1 1\n", "1\n"): room is
 * bounded by the text, whatever the size line says. */
static long long most_entries(const cpg_mm_scan *s, size_t bytes)
{
    int least = s->kind == CPG_MM_VECTOR ? 2 : s->pattern ? 4 : 6;
    long long most = (long long)(bytes / (size_t)least) + 1;
    return most < s->entries ? most : s->entries;
}

/* Room for count entries in s's arrays (those the kind has). */
static int entries_alloc(cpg_mm_scan *s, long long count)
{
    size_t k = (size_t)count;
    if (s->kind == CPG_MM_VECTOR || !s->pattern)
        s->val = cpg_malloc_huge(k, sizeof(double));
    if (s->kind != CPG_MM_VECTOR) {
        s->row = cpg_malloc_huge(k, sizeof(int));
        s->col = cpg_malloc_huge(k, sizeof(int));
    }
    int ok = (s->kind == CPG_MM_VECTOR || (s->row && s->col)) &&
             (s->val || (s->kind != CPG_MM_VECTOR && s->pattern));
    if (!ok)
        cpg_mm_free(s);
    return ok ? COREPCG_OK : COREPCG_ERR_NO_MEMORY;
}

/* Chunk c writes at entry `at` of s's arrays. */
static void chunk_place(mm_chunk *c, const cpg_mm_scan *s, long long at)
{
    c->row = s->row ? s->row + at : NULL;
    c->col = s->col ? s->col + at : NULL;
    c->val = s->val ? s->val + at : NULL;
}

/* Reads the chunk's lines into its arrays; stops at the first line it
 * cannot accept (c->rc, c->msg). */
static void *parse_chunk(void *arg)
{
    mm_chunk *c = arg;
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
    return NULL;
}

/* Lines in the chunk: its newlines, and a last line without one. */
static void *count_lines(void *arg)
{
    mm_chunk *c = arg;
    const char *p = c->begin, *end = c->end;
    long long n = 0;
    /* Eight bytes a word: a byte of x is 0 where the text has '\n', and
     * each byte of acc counts those of its lane, for up to 255 words. */
    while (end - p >= 8) {
        uint64_t acc = 0;
        for (int w = 0; w < 255 && end - p >= 8; w++, p += 8) {
            uint64_t x;
            memcpy(&x, p, sizeof x);
            x ^= 0x0A0A0A0A0A0A0A0Au;
            uint64_t t = ((x & 0x7F7F7F7F7F7F7F7Fu) + 0x7F7F7F7F7F7F7F7Fu) | x;
            acc += (~t & 0x8080808080808080u) >> 7;
        }
        acc = (acc & 0x00FF00FF00FF00FFu) + ((acc >> 8) & 0x00FF00FF00FF00FFu);
        n += (long long)((acc * 0x0001000100010001u) >> 48);
    }
    for (; p < end; p++)
        n += *p == '\n';
    c->lines = n + (c->end > c->begin && c->end[-1] != '\n');
    return NULL;
}

/* Cores this process may run on. */
static int cores(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

size_t cpg_mm_chunk_starts(const char *body, size_t len, int count,
                           size_t *starts)
{
    size_t made = 0, at = 0;
    for (int k = 0; k < count; k++) {
        size_t want = (size_t)((unsigned long long)len * (unsigned)k /
                               (unsigned)count);
        if (want < at)
            want = at;
        /* the first line that starts at or after want */
        while (want > 0 && want < len && body[want - 1] != '\n')
            want++;
        if (k > 0 && want >= len)
            break;
        if (made > 0 && want == starts[made - 1])
            continue;
        starts[made++] = want;
        at = want;
    }
    return made;
}

/* The threads of one file: each counts the lines of its chunk, waits
 * until every chunk is counted and the arrays are placed, then parses. */
typedef struct mm_team {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int counted;  /* chunks counted */
    int go;       /* 0: wait; 1: parse; -1: stop */
} mm_team;

static void team_counted(mm_team *t, int chunks)
{
    pthread_mutex_lock(&t->lock);
    t->counted += chunks;
    pthread_cond_broadcast(&t->cond);
    pthread_mutex_unlock(&t->lock);
}

static void *chunk_thread(void *arg)
{
    mm_chunk *c = arg;
    mm_team *t = c->team;
    count_lines(c);
    team_counted(t, 1);
    pthread_mutex_lock(&t->lock);
    while (t->go == 0)
        pthread_cond_wait(&t->cond, &t->lock);
    int go = t->go;
    pthread_mutex_unlock(&t->lock);
    if (go > 0)
        parse_chunk(c);
    return NULL;
}

/* Room for each chunk's entries, in order, in s's arrays: at most its
 * lines, and what its bytes can hold. */
static int place_chunks(cpg_mm_scan *s, mm_chunk *c, int count)
{
    long long room = 0;
    for (int k = 0; k < count; k++) {
        c[k].cap = most_entries(s, (size_t)(c[k].end - c[k].begin));
        if (c[k].cap > c[k].lines)
            c[k].cap = c[k].lines;
        c[k].at = room;
        room += c[k].cap;
    }
    int rc = entries_alloc(s, room);
    for (int k = 0; rc == COREPCG_OK && k < count; k++)
        chunk_place(&c[k], s, c[k].at);
    return rc;
}

/* The pieces one after the other in s's arrays, the gaps that comment
 * or blank lines left closed: OK when every chunk read all its lines and
 * they make the count. */
static int join_chunks(cpg_mm_scan *s, const mm_chunk *c, int count)
{
    long long total = 0;
    for (int k = 0; k < count; k++) {
        if (c[k].rc != COREPCG_OK)
            return c[k].rc;
        size_t n = (size_t)c[k].count;
        if (c[k].at != total && n > 0) {
            if (s->row) {
                memmove(s->row + total, c[k].row, sizeof(int) * n);
                memmove(s->col + total, c[k].col, sizeof(int) * n);
            }
            if (s->val)
                memmove(s->val + total, c[k].val, sizeof(double) * n);
        }
        total += c[k].count;
    }
    return total == s->entries ? COREPCG_OK : COREPCG_ERR_FORMAT;
}

/* The body in pieces on threads, each writing where its entries go: the
 * lines before it are counted first. Every line of a file as corepcg or
 * CHOLMOD writes it is an entry, so the places are exact; comment or
 * blank lines leave gaps, closed afterwards. OK only when every line was
 * accepted and the count is right. A thread that cannot start leaves its
 * chunk to this one. */
static int parse_parallel(cpg_mm_scan *s, const char *body, size_t len,
                          int want)
{
    size_t starts[CPG_MM_MAX_CHUNKS];
    int count = (int)cpg_mm_chunk_starts(body, len, want, starts);
    mm_chunk *c = calloc((size_t)count, sizeof *c);
    mm_team team = {.counted = 0, .go = 0};
    if (!c)
        return COREPCG_ERR_NO_MEMORY;
    if (pthread_mutex_init(&team.lock, NULL) != 0) {
        free(c);
        return COREPCG_ERR_FORMAT; /* then one piece, no threads */
    }
    if (pthread_cond_init(&team.cond, NULL) != 0) {
        pthread_mutex_destroy(&team.lock);
        free(c);
        return COREPCG_ERR_FORMAT;
    }
    for (int k = 0; k < count; k++) {
        c[k].s = s;
        c[k].team = &team;
        c[k].begin = body + starts[k];
        c[k].end = body + (k + 1 < count ? starts[k + 1] : len);
        c[k].limit = s->entries;
    }
    /* small stacks: a chunk needs a line and a message */
    pthread_attr_t attr;
    int attr_ok = pthread_attr_init(&attr) == 0 &&
                  pthread_attr_setstacksize(&attr, 256 * 1024) == 0;
    pthread_t tid[CPG_MM_MAX_CHUNKS];
    int started[CPG_MM_MAX_CHUNKS] = {0}, here = 1;
    for (int k = 1; k < count; k++) {
        started[k] = pthread_create(&tid[k], attr_ok ? &attr : NULL,
                                    chunk_thread, &c[k]) == 0;
        here += !started[k];
    }
    for (int k = 0; k < count; k++)
        if (!started[k])
            count_lines(&c[k]);
    team_counted(&team, here);
    pthread_mutex_lock(&team.lock);
    while (team.counted < count)
        pthread_cond_wait(&team.cond, &team.lock);
    pthread_mutex_unlock(&team.lock);

    int rc = place_chunks(s, c, count);
    pthread_mutex_lock(&team.lock);
    team.go = rc == COREPCG_OK ? 1 : -1;
    pthread_cond_broadcast(&team.cond);
    pthread_mutex_unlock(&team.lock);
    for (int k = 0; rc == COREPCG_OK && k < count; k++)
        if (!started[k])
            parse_chunk(&c[k]);
    for (int k = 1; k < count; k++)
        if (started[k])
            pthread_join(tid[k], NULL);
    if (attr_ok)
        pthread_attr_destroy(&attr);
    pthread_cond_destroy(&team.cond);
    pthread_mutex_destroy(&team.lock);

    if (rc == COREPCG_OK)
        rc = join_chunks(s, c, count);
    if (rc != COREPCG_OK)
        cpg_mm_free(s);
    free(c);
    return rc;
}

/* The body in one piece, in file order: the reference, with file:line
 * for the first defect. */
static int parse_sequential(cpg_mm_scan *s, const char *body, size_t len,
                            char *msg)
{
    mm_chunk c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.begin = body;
    c.end = body + len;
    c.lineno = s->size_line; /* the body starts after it */
    c.limit = s->entries;
    c.cap = most_entries(s, len);
    if (entries_alloc(s, c.cap) != COREPCG_OK)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "%s: out of memory",
                        s->path);
    chunk_place(&c, s, 0);
    parse_chunk(&c);
    int rc = c.rc;
    if (rc != COREPCG_OK)
        rc = cpg_fail(msg, rc, "%s", c.msg);
    else if (c.count < s->entries)
        rc = cpg_fail(msg, COREPCG_ERR_FORMAT,
                      "%s:%ld: file ends after %lld of the %lld entries "
                      "the size line (line %ld) announces", s->path,
                      c.lineno + 1, c.count, s->entries, s->size_line);
    if (rc != COREPCG_OK)
        cpg_mm_free(s);
    return rc;
}

/* ============================================================= files */

/* A file's text in memory: [p, p + len), mapped or read into the heap. */
typedef struct mm_text {
    const char *p;
    size_t len;
    void *map;    /* the mapping, or NULL */
    char *heap;   /* the copy, or NULL */
} mm_text;

static void text_free(mm_text *t)
{
    if (t->map)
        munmap(t->map, t->len);
    free(t->heap);
    memset(t, 0, sizeof *t);
}

/* The whole file: a regular file is mapped (no copy of its pages); any
 * other, or one that cannot be mapped, is read into the heap. (A mapped
 * file truncated by another program while it is read faults; corepcg's
 * writer never truncates, it renames a complete file into place.) */
static int read_whole(const cpg_mm_scan *s, mm_text *t, char *msg)
{
    memset(t, 0, sizeof *t);
    int fd = open(s->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot open: %s", s->path,
                        strerror(errno));
    struct stat st;
    int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    if (regular && st.st_size > 0 && (uintmax_t)st.st_size < SIZE_MAX) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ,
                       MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (m != MAP_FAILED) {
            close(fd);
            t->map = m;
            t->p = m;
            t->len = (size_t)st.st_size;
            return COREPCG_OK;
        }
    }
    size_t cap = regular && st.st_size > 0 ? (size_t)st.st_size + 1 : 65536;
    char *b = malloc(cap);
    size_t got = 0;
    int rc = b ? COREPCG_OK : cpg_fail(msg, COREPCG_ERR_NO_MEMORY,
                                       "%s: out of memory", s->path);
    while (rc == COREPCG_OK) {
        if (got == cap) { /* a file that grew, or not a regular one */
            char *more = realloc(b, 2 * cap);
            if (!more) {
                rc = cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "%s: out of memory",
                              s->path);
                break;
            }
            b = more;
            cap *= 2;
        }
        ssize_t n = read(fd, b + got, cap - got);
        if (n == 0)
            break;
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) /* a directory, or the disk: as getline's failure */
            rc = cpg_fail(msg, COREPCG_ERR_IO,
                          "%s:1: read error; expected the %%%%MatrixMarket "
                          "banner", s->path);
        else
            got += (size_t)n;
    }
    close(fd);
    if (rc != COREPCG_OK) {
        free(b);
        return rc;
    }
    t->heap = b;
    t->p = b;
    t->len = got;
    return COREPCG_OK;
}

void cpg_mm_free(cpg_mm_scan *s)
{
    free(s->row);
    free(s->col);
    free(s->val);
    s->row = s->col = NULL;
    s->val = NULL;
}

int cpg_mm_read_file(cpg_mm_scan *s, char *msg)
{
    s->row = s->col = NULL;
    s->val = NULL;
    mm_text t;
    int rc = read_whole(s, &t, msg);
    if (rc != COREPCG_OK)
        return rc;
    mm_cursor c = {t.p, t.p + t.len, 0};
    rc = scan_banner(&c, s, msg);
    if (rc == COREPCG_OK)
        rc = scan_size(&c, s, msg);
    if (rc == COREPCG_OK) {
        const char *body = c.p;
        size_t bytes = (size_t)(t.p + t.len - body);
        int want = s->chunks > 0 ? s->chunks : cores();
        if (s->chunks <= 0 && (size_t)want > bytes / MM_CHUNK_BYTES)
            want = (int)(bytes / MM_CHUNK_BYTES);
        if (want > CPG_MM_MAX_CHUNKS)
            want = CPG_MM_MAX_CHUNKS;
        rc = want > 1 ? parse_parallel(s, body, bytes, want)
                      : COREPCG_ERR_FORMAT;
        if (rc == COREPCG_ERR_NO_MEMORY)
            rc = cpg_fail(msg, rc, "%s: out of memory", s->path);
        else if (rc != COREPCG_OK) /* or a defect: find it in order */
            rc = parse_sequential(s, body, bytes, msg);
    }
    text_free(&t);
    return rc;
}

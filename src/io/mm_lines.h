/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mm_lines.h -- what the files of the Matrix Market reader share
 * (mm_scan.c reads the file, mm_header.c checks its banner and size line,
 * mm_entries.c its entry lines, mm_chunks.c splits the body among
 * threads): a line of the text in memory, the limits, and a piece of the
 * body as one thread reads it. Internal to io/. */
#ifndef COREPCG_MM_LINES_H
#define COREPCG_MM_LINES_H

#include "bundle_io.h"

#include <limits.h>
#include <string.h>

#define MM_MAX_LINE 1024            /* Matrix Market's line limit; CHOLMOD
                                       splits longer lines */
#define MM_MAX_ENTRIES (INT_MAX / 2) /* A + A^T must still fit an int */

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

static inline int next_line(mm_cursor *c, mm_line *l)
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
static inline int too_long(const mm_line *l)
{
    return l->len + (size_t)l->newline > MM_MAX_LINE + 1;
}

/* What separates fields (docs/format.md section 3.1): a CR, vertical tab
 * or form feed is refused (cpg_stray_byte), not taken for a blank. */
static inline int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* The line's length without its line end: a CR that ends it is CRLF's
 * (or, on a last line without LF, ends the file). */
static inline size_t text_len(const mm_line *l)
{
    return l->len - (l->len > 0 && l->p[l->len - 1] == '\r');
}

/* A comment ('%' in column 1, free text) or a blank line; a NUL or
 * another control character makes a line neither. */
static inline int skipped(const mm_line *l)
{
    if (l->len > 0 && l->p[0] == '%')
        return 1;
    size_t len = text_len(l);
    for (size_t k = 0; k < len; k++)
        if (!is_blank(l->p[k]))
            return 0;
    return 1;
}

/* A line that is not skipped holds no control character but tabs
 * (cpg_stray_byte). Only lines the fast path of mm_entries.c refuses come
 * here, which stops at such a byte anyway: no cost per line in the
 * common case. */
static inline int mm_check_bytes(const cpg_mm_scan *s, long lineno,
                                 const mm_line *l, char *msg)
{
    size_t at = cpg_stray_byte(l->p, l->len);
    return at == l->len ? COREPCG_OK
                        : cpg_fail_stray(msg, s->path, lineno, l->p, at);
}

/* The line's text, its line end taken off, as a C string; buf holds
 * MM_MAX_LINE + 2 bytes and the line is not too long. A NUL would end
 * the string early: the line's bytes are checked (mm_check_bytes) before
 * its fields are read. */
static inline char *line_text(const mm_line *l, char *buf)
{
    size_t len = text_len(l);
    memcpy(buf, l->p, len);
    buf[len] = '\0';
    return buf;
}

static inline int mm_fail_long(const cpg_mm_scan *s, long lineno, char *msg)
{
    return cpg_fail(msg, COREPCG_ERR_FORMAT,
                    "%s:%ld: line longer than the %d characters Matrix "
                    "Market allows", s->path, lineno, MM_MAX_LINE);
}

/* One entry as read: 0-based indices (coordinate files) and the value
 * (1 for a pattern: CHOLMOD reads a `pattern` A so, prefer_binary). */
typedef struct mm_entry {
    int row, col;
    double value;
} mm_entry;

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

/* The banner (line 1), checked against what s's kind of file must be,
 * then the size line, checked against the kind and what the bundle
 * expects, before anything is allocated (mm_header.c). c is left after
 * the size line. */
int cpg_mm_scan_header(mm_cursor *c, cpg_mm_scan *s, char *msg);

/* Reads the chunk's lines into its arrays by the rules of docs/format.md
 * section 3 (mm_entries.c); stops at the first line it cannot accept
 * (c->rc, c->msg). */
void cpg_mm_parse_chunk(mm_chunk *c);

/* The body after the size line on up to `want` threads (mm_chunks.c): OK
 * only when every line was accepted and the count is right; anything
 * else (s's arrays freed) sends the caller to
 * cpg_mm_parse_sequential. */
int cpg_mm_parse_parallel(cpg_mm_scan *s, const char *body, size_t len,
                          int want);
/* The body in one piece, in file order: the reference, with file:line
 * for the first defect (mm_chunks.c). */
int cpg_mm_parse_sequential(cpg_mm_scan *s, const char *body, size_t len,
                            char *msg);

#endif /* COREPCG_MM_LINES_H */

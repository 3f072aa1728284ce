/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bundle_io.h -- what the files that read and write bundles (docs/format.md)
 * share: line fields, the Matrix Market pre-scan, the constraints.txt
 * reader, and the rules A obeys in a bundle. Private to the library.
 */
#ifndef COREPCG_BUNDLE_IO_H
#define COREPCG_BUNDLE_IO_H

#include "base.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

/* CHOLMOD's common and sparse matrix, opaque here: only the files that
 * call CHOLMOD (bundle_A.c, bundle_read.c, bundle_write.c, mm_write.c)
 * include it (cholmod_quiet.h). */
struct cholmod_common_struct;
struct cholmod_sparse_struct;

/* CHOLMOD writes |v| >= 1e308 as 1e308 and reads that back as Inf, so a
 * bundle holds only values below it. */
#define CPG_MM_HUGE 1e308
#define CPG_MM_HUGE_NOTE \
    " (CHOLMOD's Matrix Market I/O turns |v| >= 1e308 into Inf)"

/* 1 when v survives a Matrix Market round trip (NaN and Inf do not). */
static inline int cpg_mm_storable(double v)
{
    return fabs(v) < CPG_MM_HUGE;
}

/* ---------------------------------------------------- text_fields.c */

/* Where the first byte a line's text may not hold is in text[0, len), or
 * len when there is none: a control character other than a tab (a NUL,
 * which would end the C string early and drop the rest of the line
 * silently; a vertical tab or form feed, which strtok would take for a
 * blank; a CR, unless it ends the text as CRLF's). Callers check a line
 * with it before they split it. */
size_t cpg_stray_byte(const char *text, size_t len);

/* ERR_FORMAT, "path:line: the line holds a NUL byte (column 3); ...",
 * for the byte cpg_stray_byte found at text[at]. */
int cpg_fail_stray(char *msg, const char *path, long line, const char *text,
                   size_t at);

/* Splits line in place into fields separated by spaces or tabs (its line
 * end taken off, and checked with cpg_stray_byte); returns how many there
 * are (all counted, at most max stored). */
int cpg_split_fields(char *line, char **fields, int max);

/* 1 when text, a number strtod read, is a hexadecimal float ("0x1p3"):
 * C reads it, the formats take decimals only (docs/format.md). */
int cpg_hexadecimal(const char *text);

/* A whole number (the whole text), clamped to long long; 0 when text is
 * not one. */
int cpg_parse_whole(const char *text, long long *out);

/* --------------------------------------------- decimal.c, pow5_table.c */

/* pow5_table.c, written at build time by pow5_table.py: 5^q for q in
 * [CPG_POW5_MIN, CPG_POW5_MAX] as {high, low}
 * 64-bit halves of a 128-bit mantissa, rounded down. */
#define CPG_POW5_MIN (-342)
#define CPG_POW5_MAX 308
extern const uint64_t cpg_pow5_128[CPG_POW5_MAX - CPG_POW5_MIN + 1][2];

/* -------------------------------------------------------- mm_scan.c */

typedef enum cpg_mm_kind {
    CPG_MM_MATRIX_A,   /* coordinate real/integer/pattern, symmetric or
                          general, n x n with n = 3N                   */
    CPG_MM_VECTOR,     /* array real general, expect x 1              */
    CPG_MM_STRETCH     /* coordinate pattern symmetric, expect x expect */
} cpg_mm_kind;

/* Most threads a file is parsed with (tests may ask for as many). */
#define CPG_MM_MAX_CHUNKS 16

/* What one read expects and what it found. */
typedef struct cpg_mm_scan {
    const char *path;
    const char *label;     /* "A", "b", "stretch", ... for messages */
    cpg_mm_kind kind;
    long long expect;      /* vector: n rows; stretch: N; A: unused */
    int chunks;            /* pieces to parse in (threads); 0: one per
                              core, by the file's size              */
    /* found: */
    int general, pattern, integer;
    long long rows, cols, entries;
    long size_line;        /* its line number */
    /* the entries, in file order: */
    int *row, *col;        /* 0-based (coordinate files; NULL for vectors) */
    double *val;           /* the values (NULL for a pattern)              */
} cpg_mm_scan;

/* Reads the whole file and checks it as docs/format.md section 3 says,
 * refusing what CHOLMOD's reader would accept silently or only after
 * allocating for an absurd header: a wrong banner or size, indices out of
 * range, an entry above the diagonal of a symmetric file, a self pair,
 * NaN, Inf or |v| >= 1e308, a truncated or overlong file, a NUL or
 * another control byte but a tab outside comments. Messages name
 * path:line of the first defect in file order. On success the
 * s->entries entries are in s->row, s->col, s->val (malloc'd; free with
 * cpg_mm_free or take them); on failure nothing is kept. Values read
 * exactly as strtod reads them. */
int cpg_mm_read_file(cpg_mm_scan *s, char *msg);
void cpg_mm_free(cpg_mm_scan *s);


/* Where the pieces of a body of len bytes begin: at most count offsets,
 * each the start of a line, ascending; returns how many. */
size_t cpg_mm_chunk_starts(const char *body, size_t len, int count,
                           size_t *starts);

/* ------------------------------------------------------- mm_write.c */

/* x as CHOLMOD's Matrix Market writer prints a value, byte for byte: the
 * fewest significant digits from 6 up that read back exactly, exponent
 * shortened ("1e-5", "2.5e17"), no leading zero (".5", "-.25"). buf
 * holds 32 bytes; returns the length (no newline). x is finite. */
int cpg_mm_format_value(double x, char *buf);

/* An n x 1 `array real general` file, as cholmod_write_dense writes it. */
int cpg_mm_write_dense(FILE *f, const char *path, const double *x, int n,
                       char *msg);

/* A sorted, packed lower triangle (values, or a pattern when L->x is
 * NULL) as a `symmetric` coordinate file, as cholmod_write_sparse writes
 * it: `pattern` when every value is 1, `integer` when every one is an
 * int. Write errors show as ERR_IO (and in f's error flag). */
int cpg_mm_write_lower(FILE *f, const char *path,
                       const struct cholmod_sparse_struct *L, char *msg);

/* ------------------------------------------------ constraints_read.c */

/* Parses constraints.txt (docs/format.md). *out is malloc'd (NULL when the file
 * lists none). Messages name path:line. Records are validated as by
 * cpg_ublocks_build. */
int cpg_constraints_read(const char *path, int N, corepcg_constraint **out,
                         int *count, char *msg);

/* ------------------------------------------------------- bundle_A.c */

/* A failed CHOLMOD call on `what`, as a corepcg code and message. */
int cpg_cholmod_failure(const char *what, struct cholmod_common_struct *cm,
                        char *msg);

/* A as a bundle stores it, shared by the reader and the writer: values
 * that survive a Matrix Market round trip (cpg_mm_storable), symmetric to
 * round-off when both triangles are stored (stype 0; bmat.c's rule, with
 * a message naming the worst pair), every diagonal entry present and
 * positive (as in any SPD matrix). out is the sorted, packed lower
 * triangle (stype -1) of A. base 1 prints Matrix Market indices, 0 the
 * library's. */
int cpg_bundle_A_lower(struct cholmod_sparse_struct *A, const char *name,
                       int base, struct cholmod_common_struct *cm,
                       struct cholmod_sparse_struct **out, char *msg);

/* The reader's A from a `symmetric` A.mtx, already the sorted, packed
 * lower triangle with duplicates summed (stype -1): the checks
 * cpg_bundle_A_lower makes, with the messages it gave when CHOLMOD's
 * reader returned the upper triangle (1-based indices). */
int cpg_bundle_A_check_read(struct cholmod_sparse_struct *L,
                            const char *name,
                            struct cholmod_common_struct *cm, char *msg);

#endif /* COREPCG_BUNDLE_IO_H */

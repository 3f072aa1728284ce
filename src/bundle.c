/* bundle.c -- the system bundle on disk (FORMAT.md): Matrix Market files
 * read and written by CHOLMOD, plus constraints.txt (constraints.c).
 *
 * CHOLMOD's reader says only "invalid" and accepts a lot (NaN, rectangular
 * matrices, 0-based files, values it turns into Inf), so every file first
 * goes through a light scan of our own that names file:line for each
 * defect and refuses absurd sizes before anything is allocated; CHOLMOD
 * then does the actual reading, and what it returns is checked again
 * (finiteness, symmetry of a `general` A, a positive diagonal).
 *
 * Writing: every file goes to a temporary name in the target directory and
 * is renamed only when all of them are complete, so a failed write leaves
 * no file behind and never replaces an existing one. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MM_MAX_LINE 1024            /* Matrix Market's line limit; CHOLMOD
                                       splits longer lines */
#define MM_MAX_ENTRIES (INT_MAX / 2) /* A + A^T must still fit an int */
#define MM_HUGE 1e308               /* CHOLMOD reads |v| >= 1e308 as Inf */
#define SYMMETRY_TOL 1e-12          /* |a_ij - a_ji| <= tol * max |A| */

/* CHOLMOD writes |v| >= 1e308 as 1e308 and reads that back as Inf. */
static const char too_large_note[] =
    " (CHOLMOD's Matrix Market I/O turns |v| >= 1e308 into Inf)";

/* ============================================================ scanning */

enum mm_kind { MM_MATRIX_A, MM_VECTOR, MM_STRETCH };

/* What one scan expects and what it found. */
typedef struct mm_scan {
    const char *path;
    const char *label;     /* "A", "b", "stretch", ... for messages */
    enum mm_kind kind;
    long long expect;      /* vector: n rows; stretch: N; A: unused */
    /* found: */
    int general, pattern, integer;
    long long rows, cols, entries;
} mm_scan;

/* The next line that is neither blank nor a comment ('%' in column 1),
 * with its number in *lineno. Returns 1, 0 at end of file, or an error
 * code (msg set). */
static int next_data_line(FILE *f, const mm_scan *s, char **line,
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

/* Splits line in place into blank-separated fields; returns how many there
 * are (all counted, at most max stored). */
static int split(char *line, char **fields, int max)
{
    int count = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line, " \t\r\n\v\f", &save); tok;
         tok = strtok_r(NULL, " \t\r\n\v\f", &save)) {
        if (count < max)
            fields[count] = tok;
        count++;
    }
    return count;
}

static int parse_whole(const char *text, long long *out)
{
    char *end = NULL;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end != '\0')
        return 0;
    *out = errno == ERANGE ? LLONG_MAX : v;
    return 1;
}

static int lower_equal(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if ((*a | 0x20) != (*b | 0x20))
            return 0;
    return *a == *b;
}

/* Line 1: `%%MatrixMarket matrix FORMAT FIELD STORAGE`, checked against
 * what this kind of file must be. */
static int scan_banner(FILE *f, mm_scan *s, char **line, size_t *cap,
                       char *msg)
{
    static const char *const wanted[] = {
        [MM_MATRIX_A] = "coordinate real symmetric (or general)",
        [MM_VECTOR] = "array real general",
        [MM_STRETCH] = "coordinate pattern symmetric"};
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
    int nf = split(*line, fld, 6);
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
    case MM_MATRIX_A:
        /* CHOLMOD writes an integer-valued matrix as `integer` and one
         * whose entries are all 1 as `pattern`: both read as real. */
        ok = coordinate && (real || s->integer || s->pattern) &&
             (symmetric || s->general);
        break;
    case MM_VECTOR:
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
static int scan_size(FILE *f, mm_scan *s, char **line, size_t *cap,
                     long *lineno, char *msg)
{
    int rc = next_data_line(f, s, line, cap, lineno, msg);
    if (rc == 0)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: file ends before the size line", s->path,
                        *lineno + 1);
    if (rc != 1)
        return rc;
    int want = s->kind == MM_VECTOR ? 2 : 3;
    char *fld[4];
    int nf = split(*line, fld, 4);
    long long v[3] = {0, 0, 0};
    int ok = nf == want;
    for (int k = 0; ok && k < want; k++)
        ok = parse_whole(fld[k], &v[k]) && v[k] >= 0;
    if (!ok)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: malformed size line: expected %s", s->path,
                        *lineno, want == 2 ? "`rows columns`"
                                           : "`rows columns entries`");
    s->rows = v[0];
    s->cols = v[1];
    s->entries = v[2];

    if (s->kind == MM_VECTOR) {
        if (s->rows != s->expect || s->cols != 1)
            return cpg_fail(msg, COREPCG_ERR_DIMENSION,
                            "%s:%ld: %s is %lld x %lld, expected %lld x 1 "
                            "(n = 3N from A.mtx)", s->path, *lineno,
                            s->label, s->rows, s->cols, s->expect);
        s->entries = s->rows; /* one value a line */
        return COREPCG_OK;
    }
    if (s->kind == MM_STRETCH &&
        (s->rows != s->expect || s->cols != s->expect))
        return cpg_fail(msg, COREPCG_ERR_DIMENSION,
                        "%s:%ld: %s is %lld x %lld, the bundle has N = %lld "
                        "nodes (needs N x N)", s->path, *lineno, s->label,
                        s->rows, s->cols, s->expect);
    if (s->kind == MM_MATRIX_A) {
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
    long long most = s->kind == MM_STRETCH ? s->rows * (s->rows - 1) / 2
                     : s->general          ? s->rows * s->rows
                                           : s->rows * (s->rows + 1) / 2;
    if (s->entries > most)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: %lld entries is more than a %s %lld x %lld "
                        "matrix holds (%lld)", s->path, *lineno, s->entries,
                        s->general ? "general" : "symmetric", s->rows,
                        s->cols, most);
    if (s->kind == MM_MATRIX_A && s->entries < s->rows)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: %lld entries cannot hold the %lld diagonal "
                        "entries of a positive definite A", s->path, *lineno,
                        s->entries, s->rows);
    return COREPCG_OK;
}

static int scan_index(const mm_scan *s, long lineno, const char *what,
                      const char *text, long long hi, long long *out,
                      char *msg)
{
    if (!parse_whole(text, out))
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: %s index is not a whole number ('%s')",
                        s->path, lineno, what, text);
    if (*out < 1 || *out > hi)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: %s index %s is out of range 1..%lld",
                        s->path, lineno, what, text, hi);
    return COREPCG_OK;
}

static int scan_value(const mm_scan *s, long lineno, const char *text,
                      char *msg)
{
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0')
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: value is not a number ('%s')", s->path,
                        lineno, text);
    if (!isfinite(v) || fabs(v) >= MM_HUGE)
        return cpg_fail(msg, COREPCG_ERR_NOT_FINITE,
                        "%s:%ld: value %s is not finite%s", s->path, lineno,
                        text, isfinite(v) ? too_large_note : "");
    if (s->integer && v != floor(v))
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: value %s is not an integer, but the banner "
                        "says `integer`", s->path, lineno, text);
    return COREPCG_OK;
}

/* One entry line of a coordinate file. */
static int scan_coordinate_entry(const mm_scan *s, char *line, long lineno,
                                 char *msg)
{
    int want = s->pattern ? 2 : 3;
    char *fld[4];
    int nf = split(line, fld, 4);
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
    if (s->kind == MM_STRETCH && i == j)
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

/* Scans the whole file without allocating for its content. */
static int mm_scan_file(mm_scan *s, char *msg)
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
        else if (s->kind == MM_VECTOR) {
            char *fld[2];
            int nf = split(line, fld, 2);
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

/* ================================================= CHOLMOD's reading */

static int cholmod_failure(const char *what, cholmod_common *cm, char *msg)
{
    int code = cpg_cholmod_code(cm);
    if (code == COREPCG_OK)
        code = COREPCG_ERR_CHOLMOD;
    return cpg_fail(msg, code, "%s: CHOLMOD failed (status %d)", what,
                    cm->status);
}

/* Reads a scanned file with CHOLMOD: a sparse matrix (dense == 0) or a
 * dense one. */
static int cholmod_read_file(const char *path, int dense, void **out,
                             cholmod_common *cm, char *msg)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot open: %s", path,
                        strerror(errno));
    *out = dense ? (void *)cholmod_read_dense(f, cm)
                 : (void *)cholmod_read_sparse(f, cm);
    fclose(f);
    if (!*out || cm->status < CHOLMOD_OK) {
        if (*out) {
            if (dense)
                cholmod_free_dense((cholmod_dense **)out, cm);
            else
                cholmod_free_sparse((cholmod_sparse **)out, cm);
        }
        return cholmod_failure(path, cm, msg);
    }
    return COREPCG_OK;
}

/* ========================================= A: validate, lower triangle */

/* Entry (i, j) of a CHOLMOD matrix with one value per stored entry
 * (duplicates summed); 0 when not stored. */
static double entry_at(const cholmod_sparse *A, int i, int j)
{
    const int *Ap = A->p, *Ai = A->i, *Anz = A->nz;
    const double *Ax = A->x;
    int end = A->packed ? Ap[j + 1] : Ap[j] + Anz[j];
    double v = 0;
    for (int k = Ap[j]; k < end; k++)
        if (Ai[k] == i)
            v += Ax[k];
    return v;
}

/* For a matrix with both triangles stored (stype 0): symmetric to
 * round-off? base = 1 prints indices as a Matrix Market file does. */
static int check_symmetric(cholmod_sparse *A, const char *name, int base,
                           cholmod_common *cm, char *msg)
{
    cholmod_sparse *At = cholmod_transpose(A, 1, cm);
    cholmod_sparse *D = At ? cholmod_add(A, At, (double[2]){1, 0},
                                         (double[2]){-1, 0}, 1, 0, cm)
                           : NULL;
    if (!D || cm->status < CHOLMOD_OK) {
        cholmod_free_sparse(&At, cm);
        cholmod_free_sparse(&D, cm);
        return cholmod_failure(name, cm, msg);
    }
    const int *Ap = A->p, *Anz = A->nz, *Dp = D->p, *Di = D->i;
    const double *Ax = A->x, *Dx = D->x;
    double amax = 0, dmax = 0;
    int wi = 0, wj = 0;
    for (size_t j = 0; j < A->ncol; j++) {
        int end = A->packed ? Ap[j + 1] : Ap[j] + Anz[j];
        for (int k = Ap[j]; k < end; k++)
            amax = fmax(amax, fabs(Ax[k]));
    }
    for (size_t j = 0; j < D->ncol; j++)
        for (int k = Dp[j]; k < Dp[j + 1]; k++)
            if (fabs(Dx[k]) > dmax) {
                dmax = fabs(Dx[k]);
                wi = Di[k];
                wj = (int)j;
            }
    int rc = COREPCG_OK;
    if (dmax > SYMMETRY_TOL * amax)
        rc = cpg_fail(msg, COREPCG_ERR_NOT_SYMMETRIC,
                      "%s: A is stored `general` but is not symmetric: "
                      "A(%d,%d) = %.17g, A(%d,%d) = %.17g (|difference| "
                      "%.3g > %g max|A| = %.3g)", name, wi + base, wj + base,
                      entry_at(A, wi, wj), wj + base, wi + base,
                      entry_at(A, wj, wi), dmax, SYMMETRY_TOL,
                      SYMMETRY_TOL * amax);
    cholmod_free_sparse(&D, cm);
    cholmod_free_sparse(&At, cm);
    return rc;
}

/* Any stype in, sorted packed lower triangle (stype -1) out, after
 * checking that A is finite, symmetric (when both triangles are stored)
 * and has a positive diagonal (which every SPD matrix has). */
static int to_lower(cholmod_sparse *A, const char *name, int base,
                    cholmod_common *cm, cholmod_sparse **out, char *msg)
{
    *out = NULL;
    if (A->xtype != CHOLMOD_REAL || A->nrow != A->ncol)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s: A must be a real square matrix", name);
    const int *Ap = A->p, *Ai = A->i, *Anz = A->nz;
    const double *Ax = A->x;
    for (size_t j = 0; j < A->ncol; j++) {
        int end = A->packed ? Ap[j + 1] : Ap[j] + Anz[j];
        for (int k = Ap[j]; k < end; k++)
            if (!(fabs(Ax[k]) < MM_HUGE))
                return cpg_fail(msg, COREPCG_ERR_NOT_FINITE,
                                "%s: A(%d,%d) = %g is not finite%s", name,
                                Ai[k] + base, (int)j + base, Ax[k],
                                isfinite(Ax[k]) ? too_large_note : "");
    }
    if (A->stype == 0) {
        int rc = check_symmetric(A, name, base, cm, msg);
        if (rc != COREPCG_OK)
            return rc;
    }
    /* Whichever triangle CHOLMOD holds, copy to the lower one. */
    cholmod_sparse *L = cholmod_copy(A, -1, 1, cm);
    if (!L || cm->status < CHOLMOD_OK || !cholmod_sort(L, cm)) {
        cholmod_free_sparse(&L, cm);
        return cholmod_failure(name, cm, msg);
    }
    const int *Lp = L->p, *Li = L->i;
    const double *Lx = L->x;
    for (size_t j = 0; j < L->ncol; j++) {
        int k = Lp[j];
        if (k == Lp[j + 1] || Li[k] != (int)j) {
            cholmod_free_sparse(&L, cm);
            return cpg_fail(msg, COREPCG_ERR_NOT_SPD,
                            "%s: diagonal entry A(%d,%d) is missing: A is "
                            "not positive definite", name, (int)j + base,
                            (int)j + base);
        }
        if (!(Lx[k] > 0)) {
            double d = Lx[k];
            cholmod_free_sparse(&L, cm);
            return cpg_fail(msg, COREPCG_ERR_NOT_SPD,
                            "%s: diagonal entry A(%d,%d) = %.17g is not "
                            "positive: A is not positive definite", name,
                            (int)j + base, (int)j + base, d);
        }
    }
    *out = L;
    return COREPCG_OK;
}

/* ======================================================= paths, files */

static char *join_path(const char *dir, const char *name)
{
    size_t ld = strlen(dir), ln = strlen(name);
    int slash = ld > 0 && dir[ld - 1] != '/';
    char *p = malloc(ld + (size_t)slash + ln + 1);
    if (!p)
        return NULL;
    memcpy(p, dir, ld);
    if (slash)
        p[ld] = '/';
    memcpy(p + ld + slash, name, ln + 1);
    return p;
}

/* 1 when path exists, 0 when it does not, an error code otherwise. */
static int file_exists(const char *path, char *msg)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return 1;
    if (errno == ENOENT)
        return 0;
    return cpg_fail(msg, COREPCG_ERR_IO, "%s: %s", path, strerror(errno));
}

/* ==================================================== bundle reading */

/* The bundle and the arrays it owns; the public part comes first so that
 * corepcg_bundle_free can find the rest. */
typedef struct bundle_store {
    corepcg_bundle pub;
    int *colptr, *rowidx;
    double *values, *b, *z, *x0;
    corepcg_constraint *constraints;
    int *pairs;
} bundle_store;

static int read_vector_scanned(const char *path, const char *label, int n,
                               cholmod_common *cm, double **out, char *msg)
{
    *out = NULL;
    mm_scan s = {.path = path, .label = label, .kind = MM_VECTOR,
                 .expect = n};
    int rc = mm_scan_file(&s, msg);
    cholmod_dense *X = NULL;
    if (rc == COREPCG_OK)
        rc = cholmod_read_file(path, 1, (void **)&X, cm, msg);
    if (rc != COREPCG_OK)
        return rc;
    if (X->nrow != (size_t)n || X->ncol != 1 || X->xtype != CHOLMOD_REAL) {
        cholmod_free_dense(&X, cm);
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s: CHOLMOD read something other than a real %d x "
                        "1 vector", path, n);
    }
    double *v = malloc(sizeof(double) * (size_t)n);
    if (!v) {
        cholmod_free_dense(&X, cm);
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "%s: out of memory",
                        path);
    }
    memcpy(v, X->x, sizeof(double) * (size_t)n);
    cholmod_free_dense(&X, cm);
    for (int k = 0; k < n; k++)
        if (!isfinite(v[k])) {
            free(v);
            return cpg_fail(msg, COREPCG_ERR_NOT_FINITE,
                            "%s: entry %d is not finite", path, k + 1);
        }
    *out = v;
    return COREPCG_OK;
}

/* A.mtx into the bundle: CSC lower, 0-based. Sets N. */
static int read_A(bundle_store *st, const char *path, cholmod_common *cm,
                  char *msg)
{
    mm_scan s = {.path = path, .label = "A", .kind = MM_MATRIX_A};
    int rc = mm_scan_file(&s, msg);
    cholmod_sparse *A = NULL, *L = NULL;
    if (rc == COREPCG_OK)
        rc = cholmod_read_file(path, 0, (void **)&A, cm, msg);
    if (rc == COREPCG_OK)
        rc = to_lower(A, path, 1, cm, &L, msg);
    cholmod_free_sparse(&A, cm);
    if (rc != COREPCG_OK)
        return rc;
    int n = (int)L->ncol, nnz = ((int *)L->p)[n];
    st->colptr = malloc(sizeof(int) * ((size_t)n + 1));
    st->rowidx = malloc(sizeof(int) * ((size_t)nnz + 1));
    st->values = malloc(sizeof(double) * ((size_t)nnz + 1));
    if (!st->colptr || !st->rowidx || !st->values) {
        cholmod_free_sparse(&L, cm);
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "%s: out of memory",
                        path);
    }
    memcpy(st->colptr, L->p, sizeof(int) * ((size_t)n + 1));
    memcpy(st->rowidx, L->i, sizeof(int) * (size_t)nnz);
    memcpy(st->values, L->x, sizeof(double) * (size_t)nnz);
    cholmod_free_sparse(&L, cm);

    corepcg_system *sys = &st->pub.system;
    sys->num_nodes = n / 3;
    sys->A_format = COREPCG_CSC;
    sys->A_triangle = COREPCG_LOWER;
    sys->A_colptr = st->colptr;
    sys->A_rowidx = st->rowidx;
    sys->A_values = st->values;
    sys->A_nnz = nnz;
    st->pub.A_general = s.general;
    st->pub.A_file_entries = (long)s.entries;
    return COREPCG_OK;
}

/* stretch.mtx into pairs (i < j), ordered by i then j. */
static int read_stretch(bundle_store *st, const char *path,
                        cholmod_common *cm, char *msg)
{
    int N = st->pub.system.num_nodes;
    mm_scan s = {.path = path, .label = "stretch", .kind = MM_STRETCH,
                 .expect = N};
    int rc = mm_scan_file(&s, msg);
    cholmod_sparse *S = NULL, *L = NULL;
    if (rc == COREPCG_OK)
        rc = cholmod_read_file(path, 0, (void **)&S, cm, msg);
    if (rc != COREPCG_OK)
        return rc;
    /* Pattern of the lower triangle, whichever one CHOLMOD returned. */
    L = cholmod_copy(S, -1, 0, cm);
    cholmod_free_sparse(&S, cm);
    if (!L || cm->status < CHOLMOD_OK || !cholmod_sort(L, cm)) {
        cholmod_free_sparse(&L, cm);
        return cholmod_failure(path, cm, msg);
    }
    const int *Lp = L->p, *Li = L->i;
    int count = 0;
    for (int j = 0; j < N; j++)
        for (int k = Lp[j]; k < Lp[j + 1]; k++)
            count += Li[k] > j;
    st->pairs = malloc(sizeof(int) * (2 * (size_t)count + 1));
    if (!st->pairs) {
        cholmod_free_sparse(&L, cm);
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "%s: out of memory",
                        path);
    }
    int m = 0;
    for (int j = 0; j < N; j++)
        for (int k = Lp[j]; k < Lp[j + 1]; k++)
            if (Li[k] > j) {
                st->pairs[2 * m] = j;
                st->pairs[2 * m + 1] = Li[k];
                m++;
            }
    cholmod_free_sparse(&L, cm);
    st->pub.system.num_stretch = count;
    st->pub.system.stretch_pairs = st->pairs;
    st->pub.has_stretch = 1;
    return COREPCG_OK;
}

/* An optional vector file: absent leaves *out NULL. */
static int read_optional_vector(const char *dir, const char *name,
                                const char *label, int n, cholmod_common *cm,
                                double **out, int *present, char *msg)
{
    *out = NULL;
    *present = 0;
    char *path = join_path(dir, name);
    if (!path)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    int rc = file_exists(path, msg);
    if (rc == 1) {
        *present = 1;
        rc = read_vector_scanned(path, label, n, cm, out, msg);
    }
    free(path);
    return rc;
}

static int read_bundle(bundle_store *st, const char *dir, cholmod_common *cm,
                       char *msg)
{
    char *path = join_path(dir, "A.mtx");
    if (!path)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    int rc = read_A(st, path, cm, msg);
    free(path);
    if (rc != COREPCG_OK)
        return rc;
    corepcg_system *sys = &st->pub.system;
    int N = sys->num_nodes, n = 3 * N, present;

    path = join_path(dir, "b.mtx");
    if (!path)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    rc = read_vector_scanned(path, "b", n, cm, &st->b, msg);
    free(path);
    if (rc != COREPCG_OK)
        return rc;
    st->pub.b = st->b;

    rc = read_optional_vector(dir, "z.mtx", "z", n, cm, &st->z, &present,
                              msg);
    if (rc != COREPCG_OK)
        return rc;
    sys->z = st->z;
    st->pub.has_z = present;

    path = join_path(dir, "constraints.txt");
    if (!path)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    rc = file_exists(path, msg);
    if (rc == 1) {
        st->pub.has_constraints = 1;
        rc = cpg_constraints_read(path, N, &st->constraints,
                                  &sys->num_constraints, msg);
        sys->constraints = st->constraints;
    }
    if (rc == COREPCG_OK) {
        free(path);
        path = join_path(dir, "stretch.mtx");
        rc = !path ? cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory")
                   : file_exists(path, msg);
        if (rc == 1)
            rc = read_stretch(st, path, cm, msg);
    }
    free(path);
    if (rc != COREPCG_OK)
        return rc;

    rc = read_optional_vector(dir, "x0.mtx", "x0", n, cm, &st->x0, &present,
                              msg);
    st->pub.x0 = st->x0;
    return rc;
}

int corepcg_bundle_read(const char *dir, corepcg_bundle **out, char *msg)
{
    if (msg)
        msg[0] = '\0';
    if (!out)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "corepcg_bundle_read: out is NULL");
    *out = NULL;
    if (!dir || !dir[0])
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "corepcg_bundle_read: no directory given");
    bundle_store *st = calloc(1, sizeof *st);
    if (!st)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    cholmod_common cm;
    int rc = cpg_cholmod_start(&cm);
    if (rc != COREPCG_OK) {
        free(st);
        return cpg_fail(msg, rc, "cannot start CHOLMOD");
    }
    /* A `pattern` A.mtx means all ones (CHOLMOD writes such an A so). */
    cm.prefer_binary = 1;
    rc = read_bundle(st, dir, &cm, msg);
    cholmod_finish(&cm);
    if (rc != COREPCG_OK) {
        corepcg_bundle *b = &st->pub;
        corepcg_bundle_free(&b);
        return rc;
    }
    *out = &st->pub;
    return COREPCG_OK;
}

void corepcg_bundle_free(corepcg_bundle **bundle)
{
    if (!bundle || !*bundle)
        return;
    bundle_store *st = (bundle_store *)*bundle;
    free(st->colptr);
    free(st->rowidx);
    free(st->values);
    free(st->b);
    free(st->z);
    free(st->x0);
    free(st->constraints);
    free(st->pairs);
    free(st);
    *bundle = NULL;
}

int corepcg_vector_read(const char *path, int n, double **out, char *msg)
{
    if (msg)
        msg[0] = '\0';
    if (!out)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "corepcg_vector_read: out is NULL");
    *out = NULL;
    if (!path || n < 1)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "corepcg_vector_read: need a path and n >= 1");
    cholmod_common cm;
    int rc = cpg_cholmod_start(&cm);
    if (rc != COREPCG_OK)
        return cpg_fail(msg, rc, "cannot start CHOLMOD");
    rc = read_vector_scanned(path, "the vector", n, &cm, out, msg);
    cholmod_finish(&cm);
    return rc;
}

/* ====================================================== atomic writes */

/* A file being written under a temporary name next to its final one. */
typedef struct pending_file {
    char *final;
    char *tmp;
    FILE *f;
} pending_file;

/* Opens a fresh temporary file in final's directory: ".NAME.tmp-PID-K".
 * O_EXCL makes the name ours even with concurrent writers; the mode
 * follows the umask like any new file. */
static int pending_open(pending_file *pf, const char *final, char *msg)
{
    memset(pf, 0, sizeof *pf);
    const char *slash = strrchr(final, '/');
    size_t dirlen = slash ? (size_t)(slash - final) + 1 : 0;
    const char *base = final + dirlen;
    size_t size = strlen(final) + 48;
    pf->final = strdup(final);
    pf->tmp = malloc(size);
    if (!pf->final || !pf->tmp) {
        free(pf->final);
        free(pf->tmp);
        pf->final = pf->tmp = NULL;
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    }
    for (int k = 0; k < 1000; k++) {
        snprintf(pf->tmp, size, "%.*s.%s.tmp-%ld-%d", (int)dirlen, final,
                 base, (long)getpid(), k);
        int fd = open(pf->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno == EEXIST)
            continue;
        if (fd < 0)
            break;
        pf->f = fdopen(fd, "w");
        if (pf->f)
            return COREPCG_OK;
        close(fd);
        unlink(pf->tmp);
        break;
    }
    int err = errno;
    free(pf->final);
    free(pf->tmp);
    pf->final = pf->tmp = NULL;
    return cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot create a temporary "
                    "file next to it: %s", final, strerror(err));
}

/* Closes the temporary file; ok = 0 (or a failed close) discards it. */
static int pending_close(pending_file *pf, int ok, char *msg)
{
    if (!pf->f)
        return COREPCG_OK;
    int err = 0;
    if (fflush(pf->f) != 0 || ferror(pf->f))
        err = errno ? errno : EIO;
    if (fclose(pf->f) != 0 && !err)
        err = errno ? errno : EIO;
    pf->f = NULL;
    if (ok && !err)
        return COREPCG_OK;
    unlink(pf->tmp);
    free(pf->tmp);
    pf->tmp = NULL;
    if (!ok)
        return COREPCG_OK; /* the caller already has its error */
    return cpg_fail(msg, COREPCG_ERR_IO, "%s: write failed: %s", pf->final,
                    strerror(err));
}

/* Discards a pending file whatever its state. */
static void pending_discard(pending_file *pf)
{
    if (pf->f) {
        fclose(pf->f);
        pf->f = NULL;
    }
    if (pf->tmp) {
        unlink(pf->tmp);
        free(pf->tmp);
        pf->tmp = NULL;
    }
    free(pf->final);
    pf->final = NULL;
}

static int pending_commit(pending_file *pf, char *msg)
{
    int rc = COREPCG_OK;
    if (rename(pf->tmp, pf->final) != 0) {
        rc = cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot rename %s into "
                      "place: %s", pf->final, pf->tmp, strerror(errno));
        unlink(pf->tmp);
    }
    free(pf->tmp);
    pf->tmp = NULL;
    free(pf->final);
    pf->final = NULL;
    return rc;
}

/* A CHOLMOD view of caller-owned x (n x 1); CHOLMOD only reads it. */
static cholmod_dense dense_view(const double *x, int n)
{
    cholmod_dense X;
    memset(&X, 0, sizeof X);
    X.nrow = (size_t)n;
    X.ncol = 1;
    X.nzmax = (size_t)n;
    X.d = (size_t)n;
    X.x = (void *)x;
    X.xtype = CHOLMOD_REAL;
    X.dtype = CHOLMOD_DOUBLE;
    return X;
}

/* Finite and below CHOLMOD's Inf threshold, so that it reads back. */
static int check_finite_vector(const double *v, int n, const char *name,
                               char *msg)
{
    for (int k = 0; k < n; k++)
        if (!(fabs(v[k]) < MM_HUGE))
            return cpg_fail(msg, COREPCG_ERR_NOT_FINITE,
                            "%s[%d] = %g is not finite%s", name, k, v[k],
                            isfinite(v[k]) ? too_large_note : "");
    return COREPCG_OK;
}

static int write_dense_to(pending_file *pf, const double *x, int n,
                          cholmod_common *cm, char *msg)
{
    cholmod_dense X = dense_view(x, n);
    int ok = cholmod_write_dense(pf->f, &X, NULL, cm) >= 0 &&
             cm->status >= CHOLMOD_OK;
    int rc = pending_close(pf, ok, msg);
    if (!ok)
        return cpg_fail(msg, COREPCG_ERR_IO, "%s: CHOLMOD could not write "
                        "it (status %d)", pf->final, cm->status);
    return rc;
}

int corepcg_vector_write(const char *path, int n, const double *x, char *msg)
{
    if (msg)
        msg[0] = '\0';
    if (!path || !x || n < 1)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "corepcg_vector_write: need a path, x and n >= 1");
    char why[COREPCG_MSG_SIZE];
    int rc = check_finite_vector(x, n, "x", why);
    if (rc != COREPCG_OK)
        return cpg_fail(msg, rc, "%s: not written: %s", path, why);
    cholmod_common cm;
    rc = cpg_cholmod_start(&cm);
    if (rc != COREPCG_OK)
        return cpg_fail(msg, rc, "cannot start CHOLMOD");
    pending_file pf;
    rc = pending_open(&pf, path, msg);
    if (rc == COREPCG_OK)
        rc = write_dense_to(&pf, x, n, &cm, msg);
    if (rc == COREPCG_OK)
        rc = pending_commit(&pf, msg);
    else
        pending_discard(&pf);
    cholmod_finish(&cm);
    return rc;
}

/* ===================================================== bundle writing */

/* sys->A as a sorted lower-triangle CHOLMOD matrix, validated as the
 * reader validates A.mtx (messages use the library's 0-based indices). */
static int system_A_lower(const corepcg_system *sys, cholmod_common *cm,
                          cholmod_sparse **out, char *msg)
{
    *out = NULL;
    int n = 3 * sys->num_nodes;
    long nnz;
    if (sys->A_format == COREPCG_CSC) {
        if (!sys->A_colptr)
            return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "A: A_colptr is NULL");
        if (sys->A_colptr[0] != 0)
            return cpg_fail(msg, COREPCG_ERR_FORMAT,
                            "A: A_colptr[0] = %d, must be 0",
                            sys->A_colptr[0]);
        for (int j = 0; j < n; j++)
            if (sys->A_colptr[j + 1] < sys->A_colptr[j])
                return cpg_fail(msg, COREPCG_ERR_FORMAT,
                                "A: A_colptr decreases at column %d", j);
        nnz = sys->A_colptr[n];
    } else if (sys->A_format == COREPCG_TRIPLET) {
        if (sys->A_nnz < 0 || (sys->A_nnz > 0 && !sys->A_colidx))
            return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                            "A: A_nnz < 0 or A_colidx is NULL");
        nnz = sys->A_nnz;
    } else
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "A: unknown A_format %d",
                        (int)sys->A_format);
    if (nnz > 0 && (!sys->A_rowidx || !sys->A_values))
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "A: A_rowidx or A_values is NULL");
    if (nnz > MM_MAX_ENTRIES)
        return cpg_fail(msg, COREPCG_ERR_TOO_LARGE,
                        "A: %ld entries is more than corepcg handles", nnz);
    if ((int)sys->A_triangle < 0 || (int)sys->A_triangle > (int)COREPCG_BOTH)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "A: unknown A_triangle %d", (int)sys->A_triangle);

    /* Triplets, all moved to the lower triangle unless BOTH is given. */
    int both = sys->A_triangle == COREPCG_BOTH;
    cholmod_triplet *T = cholmod_allocate_triplet(
        (size_t)n, (size_t)n, (size_t)nnz, both ? 0 : -1, CHOLMOD_REAL, cm);
    if (!T)
        return cholmod_failure("A", cm, msg);
    int *Ti = T->i, *Tj = T->j;
    double *Tx = T->x;
    int col = 0;
    for (long k = 0; k < nnz; k++) {
        int i = sys->A_rowidx[k], j;
        if (sys->A_format == COREPCG_CSC) {
            while (sys->A_colptr[col + 1] <= k)
                col++;
            j = col;
        } else
            j = sys->A_colidx[k];
        if (i < 0 || i >= n || j < 0 || j >= n) {
            cholmod_free_triplet(&T, cm);
            return cpg_fail(msg, COREPCG_ERR_FORMAT,
                            "A: entry %ld at (%d, %d) is outside 0..%d", k, i,
                            j, n - 1);
        }
        if ((sys->A_triangle == COREPCG_LOWER && i < j) ||
            (sys->A_triangle == COREPCG_UPPER && i > j)) {
            cholmod_free_triplet(&T, cm);
            return cpg_fail(msg, COREPCG_ERR_FORMAT,
                            "A: entry %ld at (%d, %d) is in the wrong "
                            "triangle for A_triangle = %s", k, i, j,
                            sys->A_triangle == COREPCG_LOWER ? "LOWER"
                                                             : "UPPER");
        }
        int swap = sys->A_triangle == COREPCG_UPPER;
        Ti[k] = swap ? j : i;
        Tj[k] = swap ? i : j;
        Tx[k] = sys->A_values[k];
    }
    T->nnz = (size_t)nnz;
    cholmod_sparse *A = cholmod_triplet_to_sparse(T, (size_t)nnz, cm);
    cholmod_free_triplet(&T, cm);
    if (!A || cm->status < CHOLMOD_OK) {
        cholmod_free_sparse(&A, cm);
        return cholmod_failure("A", cm, msg);
    }
    int rc = to_lower(A, "A", 0, cm, out, msg);
    cholmod_free_sparse(&A, cm);
    return rc;
}

/* Records valid (cpg_constraint_check) and no node twice. */
static int check_records(const corepcg_system *sys, char *msg)
{
    int N = sys->num_nodes, count = sys->num_constraints;
    if (count < 0 || (count > 0 && !sys->constraints))
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "constraints: num_constraints = %d with %s records",
                        count, sys->constraints ? "some" : "NULL");
    if (count == 0)
        return COREPCG_OK;
    int *first = malloc(sizeof(int) * (size_t)N);
    if (!first)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    for (int i = 0; i < N; i++)
        first[i] = -1;
    char why[COREPCG_MSG_SIZE];
    int rc = COREPCG_OK;
    for (int k = 0; k < count && rc == COREPCG_OK; k++) {
        const corepcg_constraint *c = &sys->constraints[k];
        why[0] = '\0';
        rc = cpg_constraint_check(c, N, why);
        if (rc != COREPCG_OK)
            rc = cpg_fail(msg, rc, "constraint record %d: %s", k, why);
        else if (first[c->node] >= 0)
            rc = cpg_fail(msg, COREPCG_ERR_CONSTRAINT,
                          "constraint record %d: node %d is listed twice "
                          "(first in record %d)", k, c->node,
                          first[c->node]);
        else
            first[c->node] = k;
    }
    free(first);
    return rc;
}

/* The stretch pairs as an N x N pattern matrix, lower triangle. */
static int stretch_pattern(const corepcg_system *sys, cholmod_common *cm,
                           cholmod_sparse **out, char *msg)
{
    *out = NULL;
    int N = sys->num_nodes, m = sys->num_stretch;
    if (m < 0 || (m > 0 && !sys->stretch_pairs))
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "stretch: num_stretch = %d with %s pairs", m,
                        sys->stretch_pairs ? "some" : "NULL");
    cholmod_triplet *T = cholmod_allocate_triplet(
        (size_t)N, (size_t)N, (size_t)m, -1, CHOLMOD_PATTERN, cm);
    if (!T)
        return cholmod_failure("stretch", cm, msg);
    int *Ti = T->i, *Tj = T->j;
    for (int k = 0; k < m; k++) {
        int a = sys->stretch_pairs[2 * k], b = sys->stretch_pairs[2 * k + 1];
        if (a < 0 || a >= N || b < 0 || b >= N || a == b) {
            cholmod_free_triplet(&T, cm);
            return cpg_fail(msg, COREPCG_ERR_FORMAT,
                            "stretch pair %d (%d, %d): %s", k, a, b,
                            a == b ? "a node paired with itself"
                                   : "node out of range");
        }
        Ti[k] = a > b ? a : b;
        Tj[k] = a > b ? b : a;
    }
    T->nnz = (size_t)m;
    *out = cholmod_triplet_to_sparse(T, (size_t)m, cm);
    cholmod_free_triplet(&T, cm);
    if (!*out || cm->status < CHOLMOD_OK) {
        cholmod_free_sparse(out, cm);
        return cholmod_failure("stretch", cm, msg);
    }
    return COREPCG_OK;
}

/* The shortest decimal that reads back as exactly v. */
static void exact_decimal(char *buf, size_t size, double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

static int write_constraints_to(pending_file *pf, const corepcg_system *sys,
                                char *msg)
{
    FILE *f = pf->f;
    int ok = fprintf(f, "# node ndof  p_x p_y p_z  [q_x q_y q_z]\n") > 0;
    for (int k = 0; ok && k < sys->num_constraints; k++) {
        const corepcg_constraint *c = &sys->constraints[k];
        ok = fprintf(f, "%d %d", c->node, c->ndof) > 0;
        int dirs = c->ndof == 0 ? 0 : c->ndof == 2 ? 1 : 2;
        for (int d = 0; ok && d < dirs; d++)
            for (int a = 0; ok && a < 3; a++) {
                char num[40];
                exact_decimal(num, sizeof num, d == 0 ? c->p[a] : c->q[a]);
                ok = fprintf(f, " %s", num) > 0;
            }
        ok = ok && fputc('\n', f) != EOF;
    }
    int rc = pending_close(pf, ok, msg);
    if (!ok)
        return cpg_fail(msg, COREPCG_ERR_IO, "%s: write failed", pf->final);
    return rc;
}

static int write_sparse_to(pending_file *pf, cholmod_sparse *M,
                           cholmod_common *cm, char *msg)
{
    int ok = cholmod_write_sparse(pf->f, M, NULL, NULL, cm) >= 0 &&
             cm->status >= CHOLMOD_OK;
    int rc = pending_close(pf, ok, msg);
    if (!ok)
        return cpg_fail(msg, COREPCG_ERR_IO, "%s: CHOLMOD could not write "
                        "it (status %d)", pf->final, cm->status);
    return rc;
}

/* mkdir -p for dir. */
static int make_dirs(const char *dir, char *msg)
{
    char *p = strdup(dir);
    if (!p)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            int rc = cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot create: %s",
                              p, strerror(errno));
            free(p);
            return rc;
        }
        *s = '/';
    }
    free(p);
    struct stat st;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot create: %s", dir,
                        strerror(errno));
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return cpg_fail(msg, COREPCG_ERR_IO, "%s: not a directory", dir);
    return COREPCG_OK;
}

enum { F_A, F_B, F_Z, F_CONSTRAINTS, F_STRETCH, F_X0, F_COUNT };
static const char *const bundle_files[F_COUNT] = {
    "A.mtx", "b.mtx", "z.mtx", "constraints.txt", "stretch.mtx", "x0.mtx"};

/* Validated content, then every file to a temporary name, then renames. */
static int write_bundle(const char *dir, const corepcg_system *sys,
                        const double *b, const double *x0,
                        cholmod_common *cm, char *msg)
{
    int n = 3 * sys->num_nodes;
    cholmod_sparse *L = NULL, *P = NULL;
    int rc = system_A_lower(sys, cm, &L, msg);
    if (rc == COREPCG_OK)
        rc = check_finite_vector(b, n, "b", msg);
    if (rc == COREPCG_OK && sys->z)
        rc = check_finite_vector(sys->z, n, "z", msg);
    if (rc == COREPCG_OK && x0)
        rc = check_finite_vector(x0, n, "x0", msg);
    if (rc == COREPCG_OK)
        rc = check_records(sys, msg);
    if (rc == COREPCG_OK && sys->num_stretch != 0)
        rc = stretch_pattern(sys, cm, &P, msg);
    if (rc == COREPCG_OK)
        rc = make_dirs(dir, msg);

    int wanted[F_COUNT] = {1, 1, sys->z != NULL, sys->num_constraints > 0,
                           P != NULL, x0 != NULL};
    pending_file pf[F_COUNT];
    memset(pf, 0, sizeof pf);
    for (int k = 0; k < F_COUNT && rc == COREPCG_OK; k++) {
        if (!wanted[k])
            continue;
        char *path = join_path(dir, bundle_files[k]);
        rc = path ? pending_open(&pf[k], path, msg)
                  : cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
        free(path);
        if (rc != COREPCG_OK)
            break;
        switch (k) {
        case F_A: rc = write_sparse_to(&pf[k], L, cm, msg); break;
        case F_B: rc = write_dense_to(&pf[k], b, n, cm, msg); break;
        case F_Z: rc = write_dense_to(&pf[k], sys->z, n, cm, msg); break;
        case F_CONSTRAINTS: rc = write_constraints_to(&pf[k], sys, msg); break;
        case F_STRETCH: rc = write_sparse_to(&pf[k], P, cm, msg); break;
        default: rc = write_dense_to(&pf[k], x0, n, cm, msg); break;
        }
    }
    cholmod_free_sparse(&L, cm);
    cholmod_free_sparse(&P, cm);
    if (rc != COREPCG_OK) {
        for (int k = 0; k < F_COUNT; k++)
            pending_discard(&pf[k]);
        return rc;
    }
    for (int k = 0; k < F_COUNT; k++) {
        if (wanted[k]) {
            int crc = pending_commit(&pf[k], msg);
            if (rc == COREPCG_OK)
                rc = crc;
            continue;
        }
        /* An optional file this system lacks must not linger from an
         * older bundle in the same directory. */
        char *path = join_path(dir, bundle_files[k]);
        if (path && unlink(path) != 0 && errno != ENOENT && rc == COREPCG_OK)
            rc = cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot remove the old "
                          "file: %s", path, strerror(errno));
        free(path);
    }
    return rc;
}

int corepcg_bundle_write(const char *dir, const corepcg_system *sys,
                         const double *b, const double *x0, char *msg)
{
    if (msg)
        msg[0] = '\0';
    if (!dir || !dir[0] || !sys || !b)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "corepcg_bundle_write: need a directory, a system "
                        "and b");
    if (sys->num_nodes < 1 || sys->num_nodes > (INT_MAX - 1) / 3)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "corepcg_bundle_write: num_nodes = %d is out of "
                        "range", sys->num_nodes);
    cholmod_common cm;
    int rc = cpg_cholmod_start(&cm);
    if (rc != COREPCG_OK)
        return cpg_fail(msg, rc, "cannot start CHOLMOD");
    rc = write_bundle(dir, sys, b, x0, &cm, msg);
    cholmod_finish(&cm);
    return rc;
}

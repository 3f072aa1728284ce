/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bundle_read.c -- reading a bundle (docs/format.md) and single vectors.
 * Each Matrix Market file is read and checked by mm_scan.c (file:line
 * messages, sizes refused before anything is allocated, entries parsed on
 * all cores); here its entries become the bundle's arrays, as CHOLMOD's
 * reader built them before: duplicates summed in file order, rows sorted
 * in each column. What A must be on top -- finite sums, symmetric when
 * stored `general`, a positive diagonal -- is bundle_A.c's.
 * constraints.txt is read by constraints_read.c. */
#include "bundle_io.h"
#include "c_locale.h"
#include "cholmod_quiet.h"

#include "atomic_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int out_of_memory(const char *path, char *msg)
{
    return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "%s: out of memory", path);
}

static int read_vector_scanned(const char *path, const char *label, int n,
                               double **out, char *msg)
{
    *out = NULL;
    cpg_mm_scan s = {.path = path, .label = label, .kind = CPG_MM_VECTOR,
                     .expect = n};
    int rc = cpg_mm_read_file(&s, msg);
    if (rc != COREPCG_OK)
        return rc;
    *out = s.val; /* the vector, in order */
    s.val = NULL;
    cpg_mm_free(&s);
    return COREPCG_OK;
}

/* A coordinate file's entries in compressed columns: rows sorted within
 * each column, duplicates summed in file order (CHOLMOD's
 * triplet_to_sparse does the same). */
typedef struct csc {
    int n, nnz;
    int *p, *i;
    double *x;   /* NULL when only the pattern is wanted */
} csc;

static void csc_free(csc *m)
{
    free(m->p);
    free(m->i);
    free(m->x);
    memset(m, 0, sizeof *m);
}

/* Entries in file order are already sorted by column, then strictly by
 * row: what corepcg and CHOLMOD write. */
static int in_csc_order(const cpg_mm_scan *s)
{
    for (long long t = 1; t < s->entries; t++)
        if (s->col[t] < s->col[t - 1] ||
            (s->col[t] == s->col[t - 1] && s->row[t] <= s->row[t - 1]))
            return 0;
    return 1;
}

/* Stable counting sort of nnz entries (key, other, x) by key in 0..n-1
 * into (key_out, other_out, x_out); count is n + 1 ints of workspace. */
static void sort_by(int n, long long nnz, const int *key, const int *other,
                    const double *x, int *count, int *key_out,
                    int *other_out, double *x_out)
{
    memset(count, 0, sizeof(int) * ((size_t)n + 1));
    for (long long t = 0; t < nnz; t++)
        count[key[t] + 1]++;
    for (int k = 0; k < n; k++)
        count[k + 1] += count[k];
    for (long long t = 0; t < nnz; t++) {
        int at = count[key[t]]++;
        key_out[at] = key[t];
        other_out[at] = other[t];
        if (x_out)
            x_out[at] = x[t];
    }
}

/* Entries in any order: sorted by row, then stably by column (so rows
 * ascend, duplicates stay in file order), then duplicates summed left to
 * right into m. */
static int gather_csc(const cpg_mm_scan *s, double *x, csc *m)
{
    long long nnz = s->entries;
    size_t room = (size_t)nnz + 1;
    /* whole huge pages: six arrays of nnz, each touched once */
    int *ri = cpg_malloc_huge(room, sizeof(int));
    int *rj = cpg_malloc_huge(room, sizeof(int));
    int *ti = cpg_malloc_huge(room, sizeof(int));
    int *tj = cpg_malloc_huge(room, sizeof(int));
    int *count = malloc(sizeof(int) * ((size_t)m->n + 1));
    double *rx = x ? cpg_malloc_huge(room, sizeof(double)) : NULL;
    double *tx = x ? cpg_malloc_huge(room, sizeof(double)) : NULL;
    int rc = COREPCG_ERR_NO_MEMORY;
    if (ri && rj && ti && tj && count && (!x || (rx && tx))) {
        sort_by(m->n, nnz, s->row, s->col, x, count, ri, rj, rx);
        sort_by(m->n, nnz, rj, ri, rx, count, tj, ti, tx);
        int w = 0;
        for (long long t = 0; t < nnz; t++) {
            if (t > 0 && tj[t] == tj[t - 1] && ti[t] == ti[t - 1]) {
                if (tx)
                    m->x[w - 1] += tx[t];
                continue;
            }
            m->i[w] = ti[t];
            if (tx)
                m->x[w] = tx[t];
            m->p[tj[t] + 1]++;
            w++;
        }
        m->nnz = w;
        rc = COREPCG_OK;
    }
    free(ri), free(rj), free(ti), free(tj), free(count), free(rx), free(tx);
    return rc;
}

/* The triplets of a coordinate file (taken from s) as compressed
 * columns. */
static int triplets_to_csc(cpg_mm_scan *s, int n, int want_values, csc *m,
                           char *msg)
{
    memset(m, 0, sizeof *m);
    long long nnz = s->entries;
    m->n = n;
    m->p = calloc((size_t)n + 1, sizeof(int));
    double *x = want_values ? s->val : NULL;
    if (want_values && !x) { /* a pattern A: all ones */
        x = cpg_malloc_huge((size_t)nnz, sizeof(double));
        for (long long t = 0; x && t < nnz; t++)
            x[t] = 1;
        s->val = x;
    }
    int rc = m->p && (!want_values || x) ? COREPCG_OK : COREPCG_ERR_NO_MEMORY;
    if (rc == COREPCG_OK && in_csc_order(s)) {
        /* the common case: the file order is the matrix's own */
        for (long long t = 0; t < nnz; t++)
            m->p[s->col[t] + 1]++;
        m->i = s->row;
        m->x = x;
        s->row = NULL;
        s->val = NULL;
        m->nnz = (int)nnz;
    } else if (rc == COREPCG_OK) {
        m->i = cpg_malloc_huge((size_t)nnz + 1, sizeof(int));
        m->x = want_values ? cpg_malloc_huge((size_t)nnz + 1, sizeof(double))
                           : NULL;
        rc = m->i && (!want_values || m->x) ? gather_csc(s, x, m)
                                            : COREPCG_ERR_NO_MEMORY;
    }
    if (rc != COREPCG_OK) {
        csc_free(m);
        return out_of_memory(s->path, msg);
    }
    for (int j = 0; j < n; j++)
        m->p[j + 1] += m->p[j];
    return COREPCG_OK;
}

/* A CHOLMOD header over m's arrays (CHOLMOD only reads them). */
static cholmod_sparse csc_view(const csc *m, int stype)
{
    cholmod_sparse A;
    memset(&A, 0, sizeof A);
    A.nrow = A.ncol = (size_t)m->n;
    A.nzmax = (size_t)m->nnz;
    A.p = m->p;
    A.i = m->i;
    A.x = m->x;
    A.stype = stype;
    A.itype = CHOLMOD_INT;
    A.xtype = CHOLMOD_REAL;
    A.dtype = CHOLMOD_DOUBLE;
    A.sorted = 1;
    A.packed = 1;
    return A;
}

/* A.mtx into the bundle: CSC lower, 0-based. Sets N. */
static int read_A(bundle_store *st, const char *path, cholmod_common *cm,
                  char *msg)
{
    cpg_mm_scan s = {.path = path, .label = "A", .kind = CPG_MM_MATRIX_A};
    int rc = cpg_mm_read_file(&s, msg);
    if (rc != COREPCG_OK)
        return rc;
    int n = (int)s.rows;
    csc m;
    rc = triplets_to_csc(&s, n, 1, &m, msg);
    cpg_mm_free(&s);
    if (rc != COREPCG_OK)
        return rc;
    cholmod_sparse A = csc_view(&m, s.general ? 0 : -1);
    if (!s.general) {
        /* m is already the sorted lower triangle the bundle keeps */
        rc = cpg_bundle_A_check_read(&A, path, cm, msg);
        if (rc != COREPCG_OK) {
            csc_free(&m);
            return rc;
        }
        st->colptr = m.p;
        st->rowidx = m.i;
        st->values = m.x;
    } else {
        cholmod_sparse *L = NULL;
        rc = cpg_bundle_A_lower(&A, path, 1, cm, &L, msg);
        csc_free(&m);
        if (rc != COREPCG_OK)
            return rc;
        int nnz = ((int *)L->p)[n];
        st->colptr = malloc(sizeof(int) * ((size_t)n + 1));
        st->rowidx = malloc(sizeof(int) * ((size_t)nnz + 1));
        st->values = malloc(sizeof(double) * ((size_t)nnz + 1));
        if (!st->colptr || !st->rowidx || !st->values) {
            cholmod_free_sparse(&L, cm);
            return out_of_memory(path, msg);
        }
        memcpy(st->colptr, L->p, sizeof(int) * ((size_t)n + 1));
        memcpy(st->rowidx, L->i, sizeof(int) * (size_t)nnz);
        memcpy(st->values, L->x, sizeof(double) * (size_t)nnz);
        cholmod_free_sparse(&L, cm);
    }

    corepcg_system *sys = &st->pub.system;
    sys->num_nodes = n / 3;
    sys->A_format = COREPCG_CSC;
    sys->A_triangle = COREPCG_LOWER;
    sys->A_colptr = st->colptr;
    sys->A_rowidx = st->rowidx;
    sys->A_values = st->values;
    sys->A_nnz = st->colptr[n];
    st->pub.A_general = s.general;
    st->pub.A_file_entries = (long)s.entries;
    return COREPCG_OK;
}

/* stretch.mtx into pairs (i < j), ordered by i then j, each once. */
static int read_stretch(bundle_store *st, const char *path, char *msg)
{
    int N = st->pub.system.num_nodes;
    cpg_mm_scan s = {.path = path, .label = "stretch", .kind = CPG_MM_STRETCH,
                     .expect = N};
    int rc = cpg_mm_read_file(&s, msg);
    if (rc != COREPCG_OK)
        return rc;
    csc m; /* the lower triangle: row > column in every entry */
    rc = triplets_to_csc(&s, N, 0, &m, msg);
    cpg_mm_free(&s);
    if (rc != COREPCG_OK)
        return rc;
    st->pairs = malloc(sizeof(int) * (2 * (size_t)m.nnz + 1));
    if (!st->pairs) {
        csc_free(&m);
        return out_of_memory(path, msg);
    }
    for (int j = 0; j < N; j++)
        for (int k = m.p[j]; k < m.p[j + 1]; k++) {
            st->pairs[2 * k] = j;
            st->pairs[2 * k + 1] = m.i[k];
        }
    st->pub.system.num_stretch = m.nnz;
    st->pub.system.stretch_pairs = st->pairs;
    st->pub.has_stretch = 1;
    csc_free(&m);
    return COREPCG_OK;
}

/* An optional vector file: absent leaves *out NULL. */
static int read_optional_vector(const char *dir, const char *name,
                                const char *label, int n, double **out,
                                int *present, char *msg)
{
    *out = NULL;
    *present = 0;
    char *path = cpg_path_join(dir, name);
    if (!path)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    int rc = cpg_path_exists(path, msg);
    if (rc == 1) {
        *present = 1;
        rc = read_vector_scanned(path, label, n, out, msg);
    }
    free(path);
    return rc;
}

/* corepcg_bundle_read's store and directory, for read_bundle. */
typedef struct read_args {
    bundle_store *st;
    const char *dir;
} read_args;

static int read_bundle(cholmod_common *cm, void *arg, char *msg)
{
    const read_args *r = arg;
    bundle_store *st = r->st;
    const char *dir = r->dir;
    char *path = cpg_path_join(dir, "A.mtx");
    if (!path)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    int rc = read_A(st, path, cm, msg);
    free(path);
    if (rc != COREPCG_OK)
        return rc;
    corepcg_system *sys = &st->pub.system;
    int N = sys->num_nodes, n = 3 * N, present;

    path = cpg_path_join(dir, "b.mtx");
    if (!path)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    rc = read_vector_scanned(path, "b", n, &st->b, msg);
    free(path);
    if (rc != COREPCG_OK)
        return rc;
    st->pub.b = st->b;

    rc = read_optional_vector(dir, "z.mtx", "z", n, &st->z, &present, msg);
    if (rc != COREPCG_OK)
        return rc;
    sys->z = st->z;
    st->pub.has_z = present;

    path = cpg_path_join(dir, "constraints.txt");
    if (!path)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    rc = cpg_path_exists(path, msg);
    if (rc == 1) {
        st->pub.has_constraints = 1;
        rc = cpg_constraints_read(path, N, &st->constraints,
                                  &sys->num_constraints, msg);
        sys->constraints = st->constraints;
    }
    if (rc == COREPCG_OK) {
        free(path);
        path = cpg_path_join(dir, "stretch.mtx");
        rc = !path ? cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory")
                   : cpg_path_exists(path, msg);
        if (rc == 1)
            rc = read_stretch(st, path, msg);
    }
    free(path);
    if (rc != COREPCG_OK)
        return rc;

    rc = read_optional_vector(dir, "x0.mtx", "x0", n, &st->x0, &present,
                              msg);
    st->pub.x0 = st->x0;
    return rc;
}

static int bundle_read(const char *dir, corepcg_bundle **out, char *msg)
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
    read_args r = {st, dir};
    int rc = cpg_cholmod_call(read_bundle, &r, "", msg);
    if (rc != COREPCG_OK) { /* nothing read yet, or a part */
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

static int vector_read(const char *path, int n, double **out, char *msg)
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
    return read_vector_scanned(path, "the vector", n, out, msg);
}

/* The public calls: the files' numbers in the C locale (c_locale.h). */
int corepcg_bundle_read(const char *dir, corepcg_bundle **out, char *msg)
{
    cpg_c_locale l;
    if (out)
        *out = NULL;
    int rc = cpg_c_locale_enter(&l, msg);
    if (rc != COREPCG_OK)
        return rc;
    rc = bundle_read(dir, out, msg);
    cpg_c_locale_leave(&l);
    return rc;
}

int corepcg_vector_read(const char *path, int n, double **out, char *msg)
{
    cpg_c_locale l;
    if (out)
        *out = NULL;
    int rc = cpg_c_locale_enter(&l, msg);
    if (rc != COREPCG_OK)
        return rc;
    rc = vector_read(path, n, out, msg);
    cpg_c_locale_leave(&l);
    return rc;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bundle_read.c -- reading a bundle (docs/format.md) and single vectors. Each
 * Matrix Market file is pre-scanned (mm_scan.c: file:line messages, sizes
 * refused before anything is allocated), then read by CHOLMOD, and what
 * CHOLMOD returns is checked again: finite, symmetric when stored
 * `general`, a positive diagonal (bundle_A.c). constraints.txt is read by
 * constraints.c. */
#include "bundle_io.h"

#include "atomic_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ================================================= CHOLMOD's reading */

static FILE *open_scanned(const char *path, char *msg)
{
    FILE *f = fopen(path, "r");
    if (!f)
        cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot open: %s", path,
                 strerror(errno));
    return f;
}

/* A scanned file read by CHOLMOD as a sparse matrix. */
static int read_sparse_file(const char *path, cholmod_common *cm,
                            cholmod_sparse **out, char *msg)
{
    FILE *f = open_scanned(path, msg);
    if (!f)
        return COREPCG_ERR_IO;
    *out = cholmod_read_sparse(f, cm);
    fclose(f);
    if (!*out || cm->status < CHOLMOD_OK) {
        cholmod_free_sparse(out, cm);
        return cpg_cholmod_failure(path, cm, msg);
    }
    return COREPCG_OK;
}

/* A scanned file read by CHOLMOD as a dense matrix. */
static int read_dense_file(const char *path, cholmod_common *cm,
                           cholmod_dense **out, char *msg)
{
    FILE *f = open_scanned(path, msg);
    if (!f)
        return COREPCG_ERR_IO;
    *out = cholmod_read_dense(f, cm);
    fclose(f);
    if (!*out || cm->status < CHOLMOD_OK) {
        cholmod_free_dense(out, cm);
        return cpg_cholmod_failure(path, cm, msg);
    }
    return COREPCG_OK;
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
    cpg_mm_scan s = {.path = path, .label = label, .kind = CPG_MM_VECTOR,
                     .expect = n};
    int rc = cpg_mm_scan_file(&s, msg);
    cholmod_dense *X = NULL;
    if (rc == COREPCG_OK)
        rc = read_dense_file(path, cm, &X, msg);
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
    cpg_mm_scan s = {.path = path, .label = "A", .kind = CPG_MM_MATRIX_A};
    int rc = cpg_mm_scan_file(&s, msg);
    cholmod_sparse *A = NULL, *L = NULL;
    if (rc == COREPCG_OK)
        rc = read_sparse_file(path, cm, &A, msg);
    if (rc == COREPCG_OK)
        rc = cpg_bundle_A_lower(A, path, 1, cm, &L, msg);
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
    cpg_mm_scan s = {.path = path, .label = "stretch", .kind = CPG_MM_STRETCH,
                 .expect = N};
    int rc = cpg_mm_scan_file(&s, msg);
    cholmod_sparse *S = NULL, *L = NULL;
    if (rc == COREPCG_OK)
        rc = read_sparse_file(path, cm, &S, msg);
    if (rc != COREPCG_OK)
        return rc;
    /* Pattern of the lower triangle, whichever one CHOLMOD returned. */
    L = cholmod_copy(S, -1, 0, cm);
    cholmod_free_sparse(&S, cm);
    if (!L || cm->status < CHOLMOD_OK || !cholmod_sort(L, cm)) {
        cholmod_free_sparse(&L, cm);
        return cpg_cholmod_failure(path, cm, msg);
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
    char *path = cpg_path_join(dir, name);
    if (!path)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    int rc = cpg_path_exists(path, msg);
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

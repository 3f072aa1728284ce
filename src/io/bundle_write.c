/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bundle_write.c -- writing a bundle (docs/format.md) and single vectors.
 *
 * A system is refused for what corepcg_setup refuses, with setup's code:
 * it goes through the library's one import (cpg_sys_import). On top, a file
 * needs values a Matrix Market round trip keeps (|v| < 1e308) and, to be
 * read back, a positive diagonal (bundle_A.c).
 *
 * Every file goes to a temporary name in the target directory; only when
 * all are complete do they replace the old ones, all or nothing
 * (atomic_file.c). */
#include "bundle_io.h"
#include "c_locale.h"
#include "cholmod_quiet.h"
#include "system.h" /* cpg_sys_import */

#include "atomic_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ============================================================ vectors */

/* Finite and below CHOLMOD's Inf threshold, so that it reads back. */
static int check_storable_vector(const double *v, int n, const char *name,
                                 char *msg)
{
    for (int k = 0; k < n; k++)
        if (!cpg_mm_storable(v[k]))
            return cpg_fail(msg, COREPCG_ERR_NOT_FINITE,
                            "%s[%d] = %g is not finite%s", name, k, v[k],
                            isfinite(v[k]) ? CPG_MM_HUGE_NOTE : "");
    return COREPCG_OK;
}

/* The files as CHOLMOD's writers made them (mm_write.c); on failure the
 * caller discards the temporary. */
static int write_dense_to(cpg_atomic_file *af, const double *x, int n,
                          char *msg)
{
    return cpg_mm_write_dense(af->f, af->path, x, n, msg);
}

static int write_sparse_to(cpg_atomic_file *af, const cholmod_sparse *M,
                           char *msg)
{
    return cpg_mm_write_lower(af->f, af->path, M, msg);
}

static int vector_write(const char *path, int n, const double *x, char *msg)
{
    if (msg)
        msg[0] = '\0';
    if (!path || !x || n < 1)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "corepcg_vector_write: need a path, x and n >= 1");
    char why[COREPCG_MSG_SIZE];
    int rc = check_storable_vector(x, n, "x", why);
    if (rc != COREPCG_OK)
        return cpg_fail(msg, rc, "%s: not written: %s", path, why);
    cpg_atomic_file af;
    rc = cpg_atomic_open(&af, path, msg);
    if (rc == COREPCG_OK)
        rc = write_dense_to(&af, x, n, msg);
    if (rc == COREPCG_OK)
        rc = cpg_atomic_commit(&af, msg);
    cpg_atomic_discard(&af);
    return rc;
}

/* ========================================================= validation */

/* What corepcg_setup refuses in sys, by the same import, plus what a
 * file cannot carry. */
static int check_system(const corepcg_system *sys, cholmod_common *cm,
                        char *msg)
{
    cpg_sys imported;
    int rc = cpg_sys_import(sys, cm, &imported, msg);
    cpg_sys_free(&imported); /* only its verdict is needed */
    if (rc == COREPCG_OK && sys->z)
        rc = check_storable_vector(sys->z, 3 * sys->num_nodes, "z", msg);
    return rc;
}

/* ======================================================= A, stretch */

/* The (validated) sys->A as the sorted lower triangle a bundle stores:
 * entries of the upper triangle are mirrored (UPPER) or, when both
 * triangles are given, left out; duplicates are summed. */
static int lower_A(const corepcg_system *sys, cholmod_common *cm,
                   cholmod_sparse **out, char *msg)
{
    *out = NULL;
    int n = 3 * sys->num_nodes, csc = sys->A_format == COREPCG_CSC;
    long nnz = csc ? sys->A_colptr[n] : sys->A_nnz;
    cholmod_triplet *T = cholmod_allocate_triplet(
        (size_t)n, (size_t)n, (size_t)nnz, -1, CHOLMOD_REAL, cm);
    if (!T)
        return cpg_cholmod_failure("A", cm, msg);
    int *Ti = T->i, *Tj = T->j;
    double *Tx = T->x;
    long t = 0;
    int col = 0;
    for (long k = 0; k < nnz; k++) {
        int i = sys->A_rowidx[k], j;
        if (csc) {
            while (sys->A_colptr[col + 1] <= k)
                col++;
            j = col;
        } else {
            j = sys->A_colidx[k];
        }
        if (i < j && sys->A_triangle == COREPCG_BOTH)
            continue;
        Ti[t] = i > j ? i : j;
        Tj[t] = i > j ? j : i;
        Tx[t++] = sys->A_values[k];
    }
    T->nnz = (size_t)t;
    cholmod_sparse *A = cholmod_triplet_to_sparse(T, (size_t)t, cm);
    cholmod_free_triplet(&T, cm);
    if (!A || cm->status < CHOLMOD_OK) {
        cholmod_free_sparse(&A, cm);
        return cpg_cholmod_failure("A", cm, msg);
    }
    int rc = cpg_bundle_A_lower(A, "A", 0, cm, out, msg);
    cholmod_free_sparse(&A, cm);
    return rc;
}

/* The (validated) stretch pairs as an N x N pattern, lower triangle. */
static int stretch_pattern(const corepcg_system *sys, cholmod_common *cm,
                           cholmod_sparse **out, char *msg)
{
    *out = NULL;
    int N = sys->num_nodes, m = sys->num_stretch;
    cholmod_triplet *T = cholmod_allocate_triplet(
        (size_t)N, (size_t)N, (size_t)m, -1, CHOLMOD_PATTERN, cm);
    if (!T)
        return cpg_cholmod_failure("stretch", cm, msg);
    int *Ti = T->i, *Tj = T->j;
    for (int k = 0; k < m; k++) {
        int a = sys->stretch_pairs[2 * k], b = sys->stretch_pairs[2 * k + 1];
        Ti[k] = a > b ? a : b;
        Tj[k] = a > b ? b : a;
    }
    T->nnz = (size_t)m;
    *out = cholmod_triplet_to_sparse(T, (size_t)m, cm);
    cholmod_free_triplet(&T, cm);
    if (!*out || cm->status < CHOLMOD_OK) {
        cholmod_free_sparse(out, cm);
        return cpg_cholmod_failure("stretch", cm, msg);
    }
    return COREPCG_OK;
}

/* ===================================================== constraints */

/* The shortest decimal that reads back as exactly v. */
static void exact_decimal(char *buf, size_t size, double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

/* Write errors show in af->f's error flag, which the commit checks. */
static void write_constraints_to(cpg_atomic_file *af,
                                 const corepcg_system *sys)
{
    FILE *f = af->f;
    fprintf(f, "# node ndof  p_x p_y p_z  [q_x q_y q_z]\n");
    for (int k = 0; k < sys->num_constraints; k++) {
        const corepcg_constraint *c = &sys->constraints[k];
        if (c->ndof == 3) /* a free node: the file does not list it */
            continue;
        fprintf(f, "%d %d", c->node, c->ndof);
        int dirs = c->ndof == 0 ? 0 : c->ndof == 2 ? 1 : 2;
        for (int d = 0; d < dirs; d++)
            for (int a = 0; a < 3; a++) {
                char num[40];
                exact_decimal(num, sizeof num, d == 0 ? c->p[a] : c->q[a]);
                fprintf(f, " %s", num);
            }
        fputc('\n', f);
    }
}

/* =========================================================== bundle */

enum { F_A, F_B, F_Z, F_CONSTRAINTS, F_STRETCH, F_X0, F_COUNT };
static const char *const bundle_files[F_COUNT] = {
    "A.mtx", "b.mtx", "z.mtx", "constraints.txt", "stretch.mtx", "x0.mtx"};

/* The files of a validated system: A and the stretch pattern in CHOLMOD
 * form, and which of the six files the system has. */
typedef struct bundle_content {
    const corepcg_system *sys;
    const double *b, *x0;
    cholmod_sparse *L, *P;
    int wanted[F_COUNT];
} bundle_content;

static int write_file(cpg_atomic_file *af, int which,
                      const bundle_content *bc, char *msg)
{
    int n = 3 * bc->sys->num_nodes;
    switch (which) {
    case F_A: return write_sparse_to(af, bc->L, msg);
    case F_B: return write_dense_to(af, bc->b, n, msg);
    case F_Z: return write_dense_to(af, bc->sys->z, n, msg);
    case F_STRETCH: return write_sparse_to(af, bc->P, msg);
    case F_X0: return write_dense_to(af, bc->x0, n, msg);
    default: write_constraints_to(af, bc->sys); return COREPCG_OK;
    }
}

/* Every wanted file to a temporary, then one commit that also removes
 * the optional files the system lacks: a stale z.mtx from an older bundle
 * in the same directory would change its meaning. */
static int write_files(const char *dir, const bundle_content *bc,
                       char *msg)
{
    cpg_atomic_file af[F_COUNT];
    char *path[F_COUNT];
    const char *stale[F_COUNT];
    int count = 0, nstale = 0, rc = COREPCG_OK;
    memset(af, 0, sizeof af);
    for (int k = 0; k < F_COUNT; k++) {
        path[k] = cpg_path_join(dir, bundle_files[k]);
        if (!path[k])
            rc = cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    }
    for (int k = 0; k < F_COUNT && rc == COREPCG_OK; k++) {
        if (!bc->wanted[k]) {
            stale[nstale++] = path[k];
            continue;
        }
        rc = cpg_atomic_open(&af[count], path[k], msg);
        if (rc == COREPCG_OK)
            rc = write_file(&af[count], k, bc, msg);
        count++;
    }
    if (rc == COREPCG_OK)
        rc = cpg_atomic_commit_all(af, count, stale, nstale, msg);
    for (int k = 0; k < F_COUNT; k++) {
        cpg_atomic_discard(&af[k]);
        free(path[k]);
    }
    return rc;
}

/* corepcg_bundle_write's arguments, for write_bundle. */
typedef struct write_args {
    const char *dir;
    const corepcg_system *sys;
    const double *b, *x0;
} write_args;

static int write_bundle(cholmod_common *cm, void *arg, char *msg)
{
    const write_args *w = arg;
    const char *dir = w->dir;
    const corepcg_system *sys = w->sys;
    const double *b = w->b, *x0 = w->x0;
    bundle_content bc = {.sys = sys, .b = b, .x0 = x0};
    int rc = check_system(sys, cm, msg);
    int n = rc == COREPCG_OK ? 3 * sys->num_nodes : 0;
    if (rc == COREPCG_OK)
        rc = check_storable_vector(b, n, "b", msg);
    if (rc == COREPCG_OK && x0)
        rc = check_storable_vector(x0, n, "x0", msg);
    if (rc == COREPCG_OK)
        rc = lower_A(sys, cm, &bc.L, msg);
    if (rc == COREPCG_OK && sys->num_stretch > 0)
        rc = stretch_pattern(sys, cm, &bc.P, msg);
    if (rc == COREPCG_OK)
        rc = cpg_make_dirs(dir, msg);
    if (rc == COREPCG_OK) {
        int constrained = 0;
        for (int k = 0; k < sys->num_constraints; k++)
            constrained += sys->constraints[k].ndof != 3;
        int wanted[F_COUNT] = {1, 1, sys->z != NULL, constrained > 0,
                               bc.P != NULL, x0 != NULL};
        memcpy(bc.wanted, wanted, sizeof wanted);
        rc = write_files(dir, &bc, msg);
    }
    cholmod_free_sparse(&bc.L, cm);
    cholmod_free_sparse(&bc.P, cm);
    return rc;
}

static int bundle_write(const char *dir, const corepcg_system *sys,
                        const double *b, const double *x0, char *msg)
{
    if (msg)
        msg[0] = '\0';
    if (!dir || !dir[0] || !sys || !b)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "corepcg_bundle_write: need a directory, a system "
                        "and b");
    write_args w = {dir, sys, b, x0};
    return cpg_cholmod_call(write_bundle, &w, "", msg);
}

/* The public calls: the files' numbers in the C locale (c_locale.h). */
int corepcg_vector_write(const char *path, int n, const double *x, char *msg)
{
    cpg_c_locale l;
    int rc = cpg_c_locale_enter(&l, msg);
    if (rc != COREPCG_OK)
        return rc;
    rc = vector_write(path, n, x, msg);
    cpg_c_locale_leave(&l);
    return rc;
}

int corepcg_bundle_write(const char *dir, const corepcg_system *sys,
                         const double *b, const double *x0, char *msg)
{
    cpg_c_locale l;
    int rc = cpg_c_locale_enter(&l, msg);
    if (rc != COREPCG_OK)
        return rc;
    rc = bundle_write(dir, sys, b, x0, msg);
    cpg_c_locale_leave(&l);
    return rc;
}

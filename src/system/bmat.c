/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bmat.c -- the system matrix as 3x3 node blocks: import from the caller's
 * arrays (CSC or triplets, one triangle or both), block products and
 * pattern comparison. */
#include "cholmod_quiet.h"
#include "system.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cpg_bmat_free(cpg_bmat *m)
{
    if (!m)
        return;
    free(m->p);
    free(m->i);
    free(m->x);
    memset(m, 0, sizeof *m);
}

/* 1 when (row, col) lies in the triangle the caller said it gives. */
static int in_triangle(corepcg_triangle t, int row, int col)
{
    return t == COREPCG_BOTH || (t == COREPCG_LOWER ? row >= col : row <= col);
}

static const char *triangle_name(corepcg_triangle t)
{
    return t == COREPCG_LOWER ? "lower" : "upper";
}

static int stype_of(corepcg_triangle t)
{
    return t == COREPCG_LOWER ? -1 : t == COREPCG_UPPER ? 1 : 0;
}

static int check_entry(const corepcg_system *sys, int n, long k, int row,
                       int col, double v, char *msg)
{
    if (row < 0 || row >= n || col < 0 || col >= n)
        return cpg_fail(msg, COREPCG_ERR_DIMENSION,
                        "A entry %ld at (%d, %d) is outside the %d x %d matrix",
                        k, row, col, n, n);
    if (!in_triangle(sys->A_triangle, row, col))
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "A entry %ld at (%d, %d) is outside the %s triangle "
                        "the system declares", k, row, col,
                        triangle_name(sys->A_triangle));
    if (!isfinite(v))
        return cpg_fail(msg, COREPCG_ERR_NOT_FINITE,
                        "A entry %ld at (%d, %d) is not finite", k, row, col);
    return COREPCG_OK;
}

/* Pointers, monotone column pointers, and every entry (check_entry). */
static int validate_csc(const corepcg_system *sys, int n, char *msg)
{
    if (!sys->A_colptr || !sys->A_rowidx || !sys->A_values)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "A: CSC arrays must not be NULL");
    if (sys->A_colptr[0] != 0)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "A: colptr[0] is %d, must be 0", sys->A_colptr[0]);
    for (int j = 0; j < n; j++)
        if (sys->A_colptr[j + 1] < sys->A_colptr[j])
            return cpg_fail(msg, COREPCG_ERR_FORMAT,
                            "A: colptr decreases at column %d", j);
    for (int j = 0; j < n; j++)
        for (int k = sys->A_colptr[j]; k < sys->A_colptr[j + 1]; k++) {
            int rc = check_entry(sys, n, k, sys->A_rowidx[k], j,
                                 sys->A_values[k], msg);
            if (rc)
                return rc;
        }
    return COREPCG_OK;
}

/* Every diagonal entry a_kk among the given entries (an explicit zero
 * counts: its value is the factorisations' to judge). One left out is a
 * mistake in the caller's assembly, named as such rather than found later
 * as a matrix that is not positive definite. */
static int check_diagonal_given(const corepcg_system *sys, int n, char *msg)
{
    int missing = -1;
    if (sys->A_format == COREPCG_CSC) {
        for (int j = 0; j < n && missing < 0; j++) {
            int k = sys->A_colptr[j];
            while (k < sys->A_colptr[j + 1] && sys->A_rowidx[k] != j)
                k++;
            if (k == sys->A_colptr[j + 1])
                missing = j;
        }
    } else {
        unsigned char *given = calloc((size_t)n, 1);
        if (!given)
            return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "A: out of memory");
        for (long k = 0; k < sys->A_nnz; k++)
            if (sys->A_rowidx[k] == sys->A_colidx[k])
                given[sys->A_rowidx[k]] = 1;
        for (int j = 0; j < n && missing < 0; j++)
            if (!given[j])
                missing = j;
        free(given);
    }
    if (missing < 0)
        return COREPCG_OK;
    return cpg_fail(msg, COREPCG_ERR_FORMAT,
                    "A has no diagonal entry at row %d (node %d, coordinate "
                    "%c): every a_kk must be given, even for a fixed node",
                    missing, missing / 3, "xyz"[missing % 3]);
}

/* The caller's A (any format but lower CSC) as a CHOLMOD matrix with the
 * triangle's stype, through triplets: CHOLMOD's conversion sums duplicate
 * entries and sorts, whichever form they came in. */
static int scalar_from_system(const corepcg_system *sys, int n,
                              cholmod_common *cm, cholmod_sparse **out,
                              char *msg)
{
    *out = NULL;
    long nnz;
    if (sys->A_format == COREPCG_CSC) {
        int rc = validate_csc(sys, n, msg);
        if (rc)
            return rc;
        nnz = sys->A_colptr[n];
    } else if (sys->A_format == COREPCG_TRIPLET) {
        if (sys->A_nnz < 0 || (sys->A_nnz > 0 && (!sys->A_rowidx ||
                               !sys->A_colidx || !sys->A_values)))
            return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                            "A: triplet arrays must not be NULL and A_nnz >= 0");
        for (long k = 0; k < sys->A_nnz; k++) {
            int rc = check_entry(sys, n, k, sys->A_rowidx[k], sys->A_colidx[k],
                                 sys->A_values[k], msg);
            if (rc)
                return rc;
        }
        nnz = sys->A_nnz;
    } else {
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "A: unknown format %d",
                        (int)sys->A_format);
    }
    cholmod_triplet *T = cholmod_allocate_triplet(n, n, (size_t)nnz,
                                                  stype_of(sys->A_triangle),
                                                  CHOLMOD_REAL, cm);
    if (!T)
        return cpg_fail(msg, cpg_cholmod_code(cm), "A: cannot allocate %ld entries", nnz);
    int *Ti = T->i, *Tj = T->j;
    memcpy(Ti, sys->A_rowidx, sizeof(int) * (size_t)nnz);
    memcpy(T->x, sys->A_values, sizeof(double) * (size_t)nnz);
    if (sys->A_format == COREPCG_CSC) {
        for (int j = 0; j < n; j++)
            for (int k = sys->A_colptr[j]; k < sys->A_colptr[j + 1]; k++)
                Tj[k] = j;
    } else {
        memcpy(Tj, sys->A_colidx, sizeof(int) * (size_t)nnz);
    }
    T->nnz = (size_t)nnz;
    *out = cholmod_triplet_to_sparse(T, (size_t)nnz, cm);
    cholmod_free_triplet(&T, cm);
    if (!*out)
        return cpg_fail(msg, cpg_cholmod_code(cm), "A: cannot convert triplets");
    return COREPCG_OK;
}

/* Both triangles of A: mirrored from one, or symmetrised after checking
 * that a given full matrix is symmetric to round-off. */
static int full_storage(cholmod_sparse *A, cholmod_common *cm,
                        cholmod_sparse **out, char *msg)
{
    *out = NULL;
    if (A->stype != 0) {
        *out = cholmod_copy(A, 0, 1, cm);
        return *out ? COREPCG_OK
                    : cpg_fail(msg, cpg_cholmod_code(cm), "A: cannot copy");
    }
    cholmod_sparse *At = NULL;
    int rc = cpg_symmetry_check(A, "A", 0, cm, &At, msg);
    if (rc != COREPCG_OK)
        return rc;
    *out = At ? cholmod_add(A, At, (double[2]){0.5, 0}, (double[2]){0.5, 0},
                            1, 1, cm)
              : NULL;
    cholmod_free_sparse(&At, cm);
    return *out ? COREPCG_OK
                : cpg_fail(msg, cpg_cholmod_code(cm), "A: cannot symmetrise");
}

/* The distinct node rows of the scalar columns 3J..3J+2 of a CSC matrix,
 * sorted, into rows; returns their count. mark[I] == J flags a row seen
 * (mark must not hold J for any row on entry). */
static int gather_block_rows(const int *Cp, const int *Ci, int J, int *mark,
                             int *rows)
{
    int count = 0;
    for (int col = 3 * J; col < 3 * J + 3; col++)
        for (int k = Cp[col]; k < Cp[col + 1]; k++) {
            int I = Ci[k] / 3;
            if (mark[I] == J)
                continue;
            mark[I] = J;
            /* insertion keeps the (short) block column sorted */
            int t = count++;
            while (t > 0 && rows[t - 1] > I) {
                rows[t] = rows[t - 1];
                t--;
            }
            rows[t] = I;
        }
    return count;
}

/* Groups a sorted full-storage scalar matrix into 3x3 node blocks. */
static int compress_blocks(const cholmod_sparse *F, int N, cpg_bmat *out,
                           char *msg)
{
    const int *Fp = F->p, *Fi = F->i;
    const double *Fx = F->x;
    int *mark = malloc(sizeof(int) * (size_t)N);
    int *pos = malloc(sizeof(int) * (size_t)N);
    out->nb = N;
    out->p = calloc((size_t)N + 1, sizeof(int));
    if (!mark || !pos || !out->p)
        goto no_memory;
    for (int I = 0; I < N; I++)
        mark[I] = -1;
    long nblocks = 0;
    for (int J = 0; J < N; J++) {
        for (int col = 3 * J; col < 3 * J + 3; col++)
            for (int k = Fp[col]; k < Fp[col + 1]; k++) {
                int I = Fi[k] / 3;
                if (mark[I] != J) {
                    mark[I] = J;
                    nblocks++;
                }
            }
        if (nblocks > INT_MAX / 9)
            goto too_large;
        out->p[J + 1] = (int)nblocks;
    }
    out->i = malloc(sizeof(int) * (size_t)(nblocks ? nblocks : 1));
    out->x = cpg_zeroed_huge(9 * (size_t)nblocks, sizeof(double));
    if (!out->i || !out->x)
        goto no_memory;
    for (int I = 0; I < N; I++)
        mark[I] = -1;
    for (int J = 0; J < N; J++) {
        int *rows = out->i + out->p[J];
        int count = gather_block_rows(Fp, Fi, J, mark, rows);
        int has_diagonal = 0;
        for (int t = 0; t < count; t++) {
            pos[rows[t]] = out->p[J] + t;
            has_diagonal |= rows[t] == J;
        }
        if (!has_diagonal) {
            free(mark);
            free(pos);
            cpg_bmat_free(out);
            return cpg_fail(msg, COREPCG_ERR_NOT_SPD,
                            "A has no diagonal entries for node %d, so it "
                            "is not positive definite", J);
        }
        for (int c = 0; c < 3; c++)
            for (int k = Fp[3 * J + c]; k < Fp[3 * J + c + 1]; k++)
                out->x[9L * pos[Fi[k] / 3] + 3 * c + Fi[k] % 3] += Fx[k];
    }
    free(mark);
    free(pos);
    return COREPCG_OK;
too_large:
    free(mark);
    free(pos);
    cpg_bmat_free(out);
    return cpg_fail(msg, COREPCG_ERR_TOO_LARGE, "A has too many node blocks");
no_memory:
    free(mark);
    free(pos);
    cpg_bmat_free(out);
    return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "A: out of memory");
}

/* The counting pass over a lower-triangle CSC: lower[J] the blocks in
 * column J's lower triangle (the diagonal one included), upper[I] the
 * mirrors of them above I's diagonal (mark: N of scratch). Returns the
 * blocks of the full storage. */
static long count_lower_blocks(const int *Ap, const int *Ai, int N,
                               int *mark, int *lower, int *upper)
{
    for (int I = 0; I < N; I++) {
        mark[I] = -1;
        lower[I] = upper[I] = 0;
    }
    long total = 0;
    for (int J = 0; J < N; J++)
        for (int col = 3 * J; col < 3 * J + 3; col++)
            for (int k = Ap[col]; k < Ap[col + 1]; k++) {
                int I = Ai[k] / 3;
                if (mark[I] == J)
                    continue;
                mark[I] = J;
                lower[J]++;
                total += I == J ? 1 : 2;
                if (I != J)
                    upper[I]++;
            }
    return total;
}

/* Adds column J's entries (I a, J c) to block (I, J), at slot pos[I], and
 * their mirrors (J c, I a) to block (J, I), at slot mirror[I] (the
 * diagonal block's, to its other triangle). */
static void add_column_values(const corepcg_system *sys, int J,
                              const int *pos, const int *mirror, double *x)
{
    const int *Ap = sys->A_colptr, *Ai = sys->A_rowidx;
    const double *Ax = sys->A_values;
    for (int c = 0; c < 3; c++)
        for (int k = Ap[3 * J + c]; k < Ap[3 * J + c + 1]; k++) {
            int I = Ai[k] / 3, a = Ai[k] % 3;
            double v = Ax[k];
            x[9L * pos[I] + 3 * c + a] += v;
            if (I != J)
                x[9L * mirror[I] + 3 * a + c] += v;
            else if (a != c)
                x[9L * pos[I] + 3 * a + c] += v;
        }
}

/*
 * Lower-triangle CSC straight to full block storage, in one pass over the
 * entries (the common case: what simulators and bundles give). Column J's
 * blocks above the diagonal are the mirrors of the lower blocks (J, I') of
 * earlier columns I' < J, appended while those columns are processed, so
 * they arrive in increasing row order; its own lower blocks follow them.
 */
static int blocks_from_lower_csc(const corepcg_system *sys, int N,
                                 cpg_bmat *out, char *msg)
{
    const int *Ap = sys->A_colptr, *Ai = sys->A_rowidx;
    int *mark = malloc(sizeof(int) * (size_t)N);
    int *lower = malloc(sizeof(int) * (size_t)N);  /* lower blocks per column */
    int *next = malloc(sizeof(int) * (size_t)N);   /* next upper slot */
    int *pos = malloc(sizeof(int) * (size_t)N);    /* slot of block (I, J) */
    int *mirror = malloc(sizeof(int) * (size_t)N); /* slot of block (J, I) */
    out->nb = N;
    out->p = calloc((size_t)N + 1, sizeof(int));
    int rc = COREPCG_ERR_NO_MEMORY;
    if (!mark || !lower || !next || !pos || !mirror || !out->p)
        goto done;
    long total = count_lower_blocks(Ap, Ai, N, mark, lower, next);
    rc = COREPCG_ERR_TOO_LARGE;
    if (total > INT_MAX / 9)
        goto done;
    for (int J = 0; J < N; J++)
        out->p[J + 1] = out->p[J] + next[J] + lower[J];
    rc = COREPCG_ERR_NO_MEMORY;
    out->i = malloc(sizeof(int) * (size_t)(total ? total : 1));
    out->x = cpg_zeroed_huge(9 * (size_t)total, sizeof(double));
    if (!out->i || !out->x)
        goto done;
    for (int I = 0; I < N; I++) {
        mark[I] = -1;
        next[I] = out->p[I];
    }
    for (int J = 0; J < N; J++) {
        /* the lower blocks of column J, sorted, after its upper ones */
        int first = out->p[J + 1] - lower[J];
        int *rows = out->i + first;
        int count = gather_block_rows(Ap, Ai, J, mark, rows);
        if (count == 0 || rows[0] != J) {
            rc = cpg_fail(msg, COREPCG_ERR_NOT_SPD,
                          "A has no diagonal entries for node %d, so it is "
                          "not positive definite", J);
            goto done;
        }
        for (int t = 0; t < count; t++) {
            int I = rows[t];
            pos[I] = first + t;
            if (I != J) {
                mirror[I] = next[I]++;
                out->i[mirror[I]] = J;
            }
        }
        add_column_values(sys, J, pos, mirror, out->x);
    }
    rc = COREPCG_OK;
done:
    free(mark);
    free(lower);
    free(next);
    free(pos);
    free(mirror);
    if (rc == COREPCG_ERR_NO_MEMORY)
        cpg_fail(msg, rc, "A: out of memory");
    else if (rc == COREPCG_ERR_TOO_LARGE)
        cpg_fail(msg, rc, "A has too many node blocks");
    if (rc != COREPCG_OK)
        cpg_bmat_free(out);
    return rc;
}

/* cpg_bmat_from_system's arguments, for a call on a common of its own. */
typedef struct from_system_args {
    const corepcg_system *sys;
    cpg_bmat *out;
} from_system_args;

static int from_system_on(cholmod_common *cm, void *arg, char *msg)
{
    const from_system_args *a = arg;
    return cpg_bmat_from_system(a->sys, cm, a->out, msg);
}

int cpg_bmat_from_system(const corepcg_system *sys, cholmod_common *cm,
                         cpg_bmat *out, char *msg)
{
    memset(out, 0, sizeof *out);
    if (!sys)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "system is NULL");
    if (sys->num_nodes < 1 || sys->num_nodes > INT_MAX / 3 - 1)
        return cpg_fail(msg, sys->num_nodes < 1 ? COREPCG_ERR_ARGUMENT
                                                : COREPCG_ERR_TOO_LARGE,
                        "num_nodes is %d", sys->num_nodes);
    if ((unsigned)sys->A_triangle > COREPCG_BOTH)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "A: unknown triangle %d",
                        (int)sys->A_triangle);
    int n = 3 * sys->num_nodes;
    if (sys->A_format == COREPCG_CSC && sys->A_triangle == COREPCG_LOWER) {
        int rc = validate_csc(sys, n, msg);
        if (rc == COREPCG_OK)
            rc = check_diagonal_given(sys, n, msg);
        return rc ? rc : blocks_from_lower_csc(sys, sys->num_nodes, out, msg);
    }
    if (!cm) { /* without the caller's common, one for this import alone */
        from_system_args a = {sys, out};
        return cpg_cholmod_call(from_system_on, &a, "A: ", msg);
    }
    cholmod_sparse *A = NULL, *F = NULL;
    int rc = scalar_from_system(sys, n, cm, &A, msg);
    if (rc == COREPCG_OK)
        rc = check_diagonal_given(sys, n, msg);
    if (rc == COREPCG_OK)
        rc = full_storage(A, cm, &F, msg);
    cholmod_free_sparse(&A, cm);
    if (rc == COREPCG_OK && !cholmod_sort(F, cm))
        rc = cpg_fail(msg, cpg_cholmod_code(cm), "A: cannot sort");
    if (rc == COREPCG_OK)
        rc = compress_blocks(F, sys->num_nodes, out, msg);
    cholmod_free_sparse(&F, cm);
    return rc;
}

long cpg_bmat_diagonal(const cpg_bmat *A, int J)
{
    for (long k = A->p[J]; k < A->p[J + 1]; k++)
        if (A->i[k] == J)
            return k;
    return -1;
}

int cpg_bmat_same_pattern(const cpg_bmat *a, const cpg_bmat *b)
{
    return a->nb == b->nb &&
           memcmp(a->p, b->p, sizeof(int) * ((size_t)a->nb + 1)) == 0 &&
           memcmp(a->i, b->i, sizeof(int) * (size_t)a->p[a->nb]) == 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* import_map.c -- the next step's system without a new import of A.
 *
 * A simulator hands the library the same sparsity pattern every step with
 * new values. The first import validates the pattern and converts it to
 * 3x3 node blocks (bmat.c), which costs about as much as a factorisation
 * of the incomplete Cholesky preconditioner (docs/benchmark.md, "The
 * cold path"). This map
 * remembers the caller's pattern and where each entry lands among the
 * blocks, so that a later import with the very same pattern arrays only
 * checks the values and scatters them. Anything else -- another pattern,
 * a value that is not finite, both triangles given (whose symmetry must
 * be checked entry by entry) -- takes the full import, which reports
 * errors exactly as always. */
#include "system.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cpg_import_map {
    corepcg_format format;
    corepcg_triangle triangle;
    int N;
    long nnz;
    int *colptr;       /* CSC: n + 1                                  */
    int *rowidx;       /* nnz                                         */
    int *colidx;       /* TRIPLET: nnz                                */
    int *pos;          /* 2 nnz: entry k's place in A.x, and its
                          mirror's (-1 on the diagonal); A has at
                          most INT_MAX / 9 blocks, so an int holds it */
};

void cpg_import_map_free(cpg_import_map **mp)
{
    if (!mp || !*mp)
        return;
    cpg_import_map *m = *mp;
    free(m->colptr);
    free(m->rowidx);
    free(m->colidx);
    free(m->pos);
    free(m);
    *mp = NULL;
}

static long input_nnz(const corepcg_system *in)
{
    return in->A_format == COREPCG_CSC ? in->A_colptr[3 * in->num_nodes]
                                       : in->A_nnz;
}

/* Where (row, col) of the scalar matrix lies in A's blocks: block (I, J)
 * found by bisection in column J, entry (a, c) at 9 k + 3 c + a. */
static int place(const cpg_bmat *A, int row, int col)
{
    int I = row / 3, J = col / 3, lo = A->p[J], hi = A->p[J + 1] - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (A->i[mid] < I)
            lo = mid + 1;
        else if (A->i[mid] > I)
            hi = mid - 1;
        else
            return 9 * mid + 3 * (col % 3) + row % 3;
    }
    return -1; /* cannot happen: A was built from these entries */
}

/* Huge pages: the first update copies (and the second compares) arrays
 * of nnz entries, whose fresh 4 KiB pages would each cost a fault. */
static int *copy_ints(const int *src, long count)
{
    int *dst = cpg_malloc_huge((size_t)(count > 0 ? count : 1), sizeof(int));
    if (dst && count > 0)
        memcpy(dst, src, sizeof(int) * (size_t)count);
    return dst;
}

int cpg_import_map_build(const corepcg_system *in, const cpg_bmat *A,
                         cpg_import_map **out)
{
    *out = NULL;
    if (in->A_triangle == COREPCG_BOTH)
        return COREPCG_OK; /* symmetry is checked per import: no map */
    int n = 3 * in->num_nodes;
    long nnz = input_nnz(in);
    cpg_import_map *m = calloc(1, sizeof *m);
    if (!m)
        return COREPCG_ERR_NO_MEMORY;
    m->format = in->A_format;
    m->triangle = in->A_triangle;
    m->N = in->num_nodes;
    m->nnz = nnz;
    int csc = in->A_format == COREPCG_CSC;
    m->colptr = csc ? copy_ints(in->A_colptr, n + 1) : NULL;
    m->rowidx = copy_ints(in->A_rowidx, nnz);
    m->colidx = csc ? NULL : copy_ints(in->A_colidx, nnz);
    m->pos = cpg_malloc_huge(2 * (size_t)(nnz > 0 ? nnz : 1), sizeof(int));
    if ((csc && !m->colptr) || !m->rowidx || (!csc && !m->colidx) || !m->pos) {
        cpg_import_map_free(&m);
        return COREPCG_ERR_NO_MEMORY;
    }
    int j = 0;
    for (long k = 0; k < nnz; k++) {
        int row = in->A_rowidx[k], col;
        if (csc) {
            while (in->A_colptr[j + 1] <= k) /* the column of entry k */
                j++;
            col = j;
        } else {
            col = in->A_colidx[k];
        }
        m->pos[2 * k] = place(A, row, col);
        m->pos[2 * k + 1] = row == col ? -1 : place(A, col, row);
    }
    *out = m;
    return COREPCG_OK;
}

/* 1 when in has exactly m's pattern (sizes, format, triangle, arrays). */
static int same_input_pattern(const cpg_import_map *m,
                              const corepcg_system *in)
{
    if (!m || in->num_nodes != m->N || in->A_format != m->format ||
        in->A_triangle != m->triangle || !in->A_rowidx || !in->A_values)
        return 0;
    int n = 3 * m->N;
    if (in->A_format == COREPCG_CSC)
        return in->A_colptr &&
               memcmp(in->A_colptr, m->colptr, sizeof(int) * ((size_t)n + 1)) == 0 &&
               memcmp(in->A_rowidx, m->rowidx, sizeof(int) * (size_t)m->nnz) == 0;
    return in->A_nnz == m->nnz && in->A_colidx &&
           memcmp(in->A_rowidx, m->rowidx, sizeof(int) * (size_t)m->nnz) == 0 &&
           memcmp(in->A_colidx, m->colidx, sizeof(int) * (size_t)m->nnz) == 0;
}

int cpg_import_map_values(const cpg_import_map *m, const corepcg_system *in,
                          const cpg_bmat *prev, cpg_bmat *spare, cpg_bmat *out)
{
    memset(out, 0, sizeof *out);
    if (!same_input_pattern(m, in) || prev->nb != m->N)
        return 0;
    const double *v = in->A_values;
    for (long k = 0; k < m->nnz; k++)
        if (!isfinite(v[k]))
            return 0; /* the full import names the entry */
    long blocks = prev->p[prev->nb];
    if (spare && spare->p && spare->nb == prev->nb &&
        spare->p[spare->nb] == blocks) {
        /* an earlier step's arrays of this size: no fresh memory, which
         * costs page faults on every step for a large A. Their pattern may
         * be another with as many blocks (a contact spring that moved):
         * the map's positions are prev's, so prev's pattern is copied in,
         * or the values would land in the wrong blocks */
        *out = *spare;
        memset(spare, 0, sizeof *spare);
        memcpy(out->p, prev->p, sizeof(int) * ((size_t)prev->nb + 1));
        memcpy(out->i, prev->i, sizeof(int) * (size_t)blocks);
        memset(out->x, 0, 9 * sizeof(double) * (size_t)blocks);
    } else {
        out->nb = prev->nb;
        out->p = copy_ints(prev->p, prev->nb + 1L);
        out->i = copy_ints(prev->i, blocks);
        out->x = cpg_zeroed_huge(9 * (size_t)blocks, sizeof(double));
        if (!out->p || !out->i || !out->x) {
            cpg_bmat_free(out);
            return 0; /* the full import reports the memory */
        }
    }
    /* duplicates (triplets) add up, as in the full import */
    for (long k = 0; k < m->nnz; k++) {
        out->x[m->pos[2 * k]] += v[k];
        if (m->pos[2 * k + 1] >= 0)
            out->x[m->pos[2 * k + 1]] += v[k];
    }
    return 1;
}

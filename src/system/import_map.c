/* SPDX-License-Identifier: GPL-2.0-or-later */
/* import_map.c -- the next step's system without a new import of A.
 *
 * A simulator hands the library the same sparsity pattern every step with
 * new values. The first import validates the pattern and converts it to
 * 3x3 node blocks (bmat.c), which costs about as much as a factorisation
 * of the incomplete Cholesky preconditioner (docs/benchmark.md, "The
 * cold path"). A later import only checks and scatters the values:
 *
 * - a lower CSC input with sorted rows (what simulators, SciPy and
 *   bundles give) is walked column by column beside A's blocks, which
 *   checks that it has exactly A's block pattern; the map holds only
 *   where each block's mirror lies, is built from A at setup, and so
 *   serves the very first update too;
 * - any other one-triangle input is compared with a copy of the pattern
 *   it had, and its entries land where the map says (built at the first
 *   update).
 *
 * Anything else -- another pattern, a value that is not finite, both
 * triangles given (whose symmetry must be checked entry by entry) --
 * takes the full import, which reports errors exactly as always. */
#include "system.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct cpg_import_map {
    corepcg_format format;
    corepcg_triangle triangle;
    int N;
    long nnz;
    /* a walked lower CSC input: */
    int walk;
    int *diag_slot;      /* N: the slot of block (J, J) in column J     */
    int *mirror;         /* blocks: for a block (I, J) with I > J, the
                            slot of (J, I) in column I                 */
    unsigned char *hit;  /* blocks: scratch, all 0 between imports (for
                            a node column no scalar column fills)      */
    /* any other input: */
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
    free(m->diag_slot);
    free(m->mirror);
    free(m->hit);
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

/* Where A's diagonal blocks and the mirrors of its lower blocks lie.
 * A's pattern is symmetric with sorted columns, so the blocks (J, I) of
 * column I above its diagonal come in the order of J. 0 if A is not so
 * (it always is: both imports build it that way). */
static int block_slots(const cpg_bmat *A, int *diag_slot, int *mirror)
{
    int *next = malloc(sizeof(int) * (size_t)(A->nb > 0 ? A->nb : 1));
    if (!next)
        return 0;
    for (int I = 0; I < A->nb; I++)
        next[I] = A->p[I];
    int ok = 1;
    for (int J = 0; J < A->nb && ok; J++) {
        diag_slot[J] = -1;
        for (int t = A->p[J]; t < A->p[J + 1] && ok; t++) {
            int I = A->i[t];
            if (I == J)
                diag_slot[J] = t;
            else if (I > J) {
                ok = next[I] < A->p[I + 1] && A->i[next[I]] == J;
                mirror[t] = next[I]++;
            }
        }
        ok = ok && diag_slot[J] >= 0;
    }
    free(next);
    return ok;
}

/* Whether the three scalar columns of node column J together give every
 * lower block of column J an entry (their rows already found in A's). */
static int every_block_given(const cpg_import_map *m, const corepcg_system *in,
                             const cpg_bmat *A, int J)
{
    const int first = m->diag_slot[J], end = A->p[J + 1];
    for (int c = 0; c < 3; c++) {
        int t = first;
        for (int k = in->A_colptr[3 * J + c]; k < in->A_colptr[3 * J + c + 1];
             k++) {
            while (A->i[t] < in->A_rowidx[k] / 3)
                t++;
            m->hit[t] = 1;
        }
    }
    int ok = 1;
    for (int t = first; t < end; t++) {
        ok = ok && m->hit[t];
        m->hit[t] = 0;
    }
    return ok;
}

/* Scalar column j = 3 J + c of in beside A's blocks of node column J,
 * its entries written into x unless x is NULL. Returns how many of the
 * column's blocks it gave an entry, or -1 where a full import would give
 * another pattern or an error: rows not strictly increasing from the
 * diagonal, or one outside A's blocks. A run of rows in one block shares
 * the block's place and its mirror's. */
static int walk_column(const cpg_import_map *m, const corepcg_system *in,
                       const cpg_bmat *A, int J, int c, double *x)
{
    const int *Ai = in->A_rowidx;
    const double *Ax = in->A_values;
    const int j = 3 * J + c, end = A->p[J + 1];
    int k = in->A_colptr[j];
    const int kend = in->A_colptr[j + 1];
    /* colptr unchecked yet: walked in order, k >= 0 from the column
     * before, and nothing past colptr[n] read (an outside review: a
     * colptr[j + 1] past it read beyond the caller's arrays) */
    if (!(k < kend && kend <= in->A_colptr[3 * m->N] && Ai[k] == j))
        return -1; /* its diagonal, first */
    int t = m->diag_slot[J], last = j - 1, blocks = 0;
    while (k < kend) {
        const int I = Ai[k] / 3, lim = 3 * I + 3;
        while (t < end && A->i[t] < I)
            t++;
        if (t == end || A->i[t] != I)
            return -1;
        blocks++;
        double *xb = x ? x + 9L * t + 3 * c : NULL;
        double *xm = x && I != J ? x + 9L * m->mirror[t] + c : NULL;
        for (; k < kend && Ai[k] < lim; k++) {
            const int row = Ai[k], a = row - 3 * I;
            if (row <= last)
                return -1;
            last = row;
            if (!xb)
                continue;
            /* each slot gets one entry, so a store (+ 0 makes -0 the
             * full import's 0 + -0 = +0) */
            const double v = Ax[k] + 0.0;
            xb[a] = v;
            if (xm)
                xm[3 * a] = v;
            else if (a != c) /* the diagonal block's upper half */
                x[9L * t + 3 * a + c] = v;
        }
    }
    return blocks;
}

/* Whether v[0..count) are all finite: an exponent of all ones marks Inf
 * and NaN. Without an early exit the loop vectorises, which matters when
 * the finite check is most of what an import reads. */
static int all_finite(const double *v, long count)
{
    uint64_t bad = 0;
    for (long k = 0; k < count; k++) {
        uint64_t bits;
        memcpy(&bits, v + k, sizeof bits);
        bad |= (~bits & 0x7ff0000000000000u) == 0;
    }
    return !bad;
}

/* Walks in's entries (a lower CSC input) beside A's blocks and, when x is
 * not NULL, writes them into x (A's pattern, zeroed). 1 when in has A's
 * block pattern and a full import would take it unchanged: colptr[0] 0,
 * every value finite, in every column rows strictly increasing from the
 * diagonal, each entry in a block of A, every lower block of A given an
 * entry. Each slot of x gets at most one entry, so the values are those
 * of the full import, bit for bit. */
static int walk_values(const cpg_import_map *m, const corepcg_system *in,
                       const cpg_bmat *A, double *x)
{
    const int *Ap = in->A_colptr;
    const int n = 3 * m->N;
    if (!Ap || !in->A_rowidx || !in->A_values || Ap[0] != 0 ||
        Ap[n] < Ap[0])
        return 0;
    if (!all_finite(in->A_values, Ap[n]))
        return 0;
    for (int J = 0; J < m->N; J++) {
        const int lower_blocks = A->p[J + 1] - m->diag_slot[J];
        int all_given = 0; /* one scalar column reached every block */
        for (int c = 0; c < 3; c++) {
            int blocks = walk_column(m, in, A, J, c, x);
            if (blocks < 0)
                return 0;
            all_given |= blocks == lower_blocks;
        }
        if (!all_given && !every_block_given(m, in, A, J))
            return 0;
    }
    return 1;
}

/* The walked kind, when in can be walked (m->walk). */
static int build_walk(const corepcg_system *in, const cpg_bmat *A,
                      cpg_import_map *m)
{
    if (in->A_format != COREPCG_CSC || in->A_triangle != COREPCG_LOWER)
        return COREPCG_OK;
    size_t blocks = (size_t)A->p[A->nb];
    m->diag_slot = malloc(sizeof(int) * (size_t)A->nb);
    m->mirror = malloc(sizeof(int) * (blocks ? blocks : 1));
    m->hit = calloc(blocks ? blocks : 1, 1);
    if (!m->diag_slot || !m->mirror || !m->hit)
        return COREPCG_ERR_NO_MEMORY;
    m->walk = block_slots(A, m->diag_slot, m->mirror) &&
              walk_values(m, in, A, NULL);
    return COREPCG_OK;
}

/* The copied kind: in's pattern and where each entry lands. */
static int build_copy(const corepcg_system *in, const cpg_bmat *A,
                      cpg_import_map *m)
{
    int n = 3 * in->num_nodes;
    long nnz = m->nnz;
    int csc = in->A_format == COREPCG_CSC;
    m->colptr = csc ? copy_ints(in->A_colptr, n + 1) : NULL;
    m->rowidx = copy_ints(in->A_rowidx, nnz);
    m->colidx = csc ? NULL : copy_ints(in->A_colidx, nnz);
    m->pos = cpg_malloc_huge(2 * (size_t)(nnz > 0 ? nnz : 1), sizeof(int));
    if ((csc && !m->colptr) || !m->rowidx || (!csc && !m->colidx) || !m->pos)
        return COREPCG_ERR_NO_MEMORY;
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
    return COREPCG_OK;
}

int cpg_import_map_build(const corepcg_system *in, const cpg_bmat *A,
                         int walk_only, cpg_import_map **out)
{
    *out = NULL;
    if (in->A_triangle == COREPCG_BOTH)
        return COREPCG_OK; /* symmetry is checked per import: no map */
    cpg_import_map *m = calloc(1, sizeof *m);
    if (!m)
        return COREPCG_ERR_NO_MEMORY;
    m->format = in->A_format;
    m->triangle = in->A_triangle;
    m->N = in->num_nodes;
    m->nnz = input_nnz(in);
    int rc = build_walk(in, A, m);
    if (rc == COREPCG_OK && !m->walk) {
        free(m->diag_slot);
        free(m->mirror);
        free(m->hit);
        m->diag_slot = m->mirror = NULL;
        m->hit = NULL;
        if (walk_only) {
            free(m);
            return COREPCG_OK;
        }
        rc = build_copy(in, A, m);
    }
    if (rc != COREPCG_OK)
        cpg_import_map_free(&m);
    *out = m;
    return rc;
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

/* out with prev's block pattern and zeroed values: spare's arrays when
 * it has as many blocks (then spare is emptied), else fresh ones. 0 out
 * of memory. */
static int take_arrays(const cpg_bmat *prev, cpg_bmat *spare, cpg_bmat *out)
{
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
        return 1;
    }
    out->nb = prev->nb;
    out->p = copy_ints(prev->p, prev->nb + 1L);
    out->i = copy_ints(prev->i, blocks);
    out->x = cpg_zeroed_huge(9 * (size_t)blocks, sizeof(double));
    if (!out->p || !out->i || !out->x) {
        cpg_bmat_free(out);
        return 0; /* the full import reports the memory */
    }
    return 1;
}

int cpg_import_map_values(const cpg_import_map *m, const corepcg_system *in,
                          const cpg_bmat *prev, cpg_bmat *spare, cpg_bmat *out)
{
    memset(out, 0, sizeof *out);
    if (!m || prev->nb != m->N || in->num_nodes != m->N)
        return 0;
    if (m->walk) {
        if (in->A_format != COREPCG_CSC || in->A_triangle != COREPCG_LOWER ||
            !take_arrays(prev, spare, out))
            return 0;
        if (walk_values(m, in, out, out->x))
            return 1;
        if (spare && !spare->p)
            *spare = *out; /* the arrays wait for the next step */
        else
            cpg_bmat_free(out);
        memset(out, 0, sizeof *out);
        return 0; /* the full import names what is wrong */
    }
    if (!same_input_pattern(m, in))
        return 0;
    const double *v = in->A_values;
    for (long k = 0; k < m->nnz; k++)
        if (!isfinite(v[k]))
            return 0; /* the full import names the entry */
    if (!take_arrays(prev, spare, out))
        return 0;
    /* duplicates (triplets) add up, as in the full import */
    for (long k = 0; k < m->nnz; k++) {
        out->x[m->pos[2 * k]] += v[k];
        if (m->pos[2 * k + 1] >= 0)
            out->x[m->pos[2 * k + 1]] += v[k];
    }
    return 1;
}

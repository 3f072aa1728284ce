/* SPDX-License-Identifier: GPL-2.0-or-later */
/* projected.c -- S B S + D (I - S) on the fixed 3N pattern of a selection
 * of A's blocks, kept in its factor's order (see projected.h). */
#include "projected.h"
#include "order.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cpg_proj_free(cpg_proj *p, cholmod_common *cm)
{
    if (!p)
        return;
    free(p->bp);
    free(p->src);
    free(p->row);
    free(p->map);
    free(p->S);
    if (cm) {
        cholmod_free_sparse(&p->M, cm);
        cpg_factor_free(&p->fac, cm);
    }
    memset(p, 0, sizeof *p);
}

long cpg_proj_nnz(const cpg_proj *p)
{
    return p->M ? (long)((const int *)p->M->p)[p->M->ncol] : 0;
}

static int selected(const cpg_bmat *A, const unsigned char *keep, int J,
                    int k)
{
    return A->i[k] >= J && (!keep || keep[k]);
}

/* bp and src for the selected lower blocks; A's rows are sorted, so each
 * column's diagonal block comes first. *nnz: the scalar entries they
 * give the lower triangle. */
static int select_blocks(cpg_proj *p, const cpg_bmat *A,
                         const unsigned char *keep, long *nnz, char *msg)
{
    int N = A->nb;
    long count = 0, entries = 0;
    for (int J = 0; J < N; J++)
        for (int k = A->p[J]; k < A->p[J + 1]; k++)
            if (selected(A, keep, J, k)) {
                count++;
                entries += A->i[k] == J ? 6 : 9;
            }
    if (9 * count > INT_MAX || entries > INT_MAX)
        return cpg_fail(msg, COREPCG_ERR_TOO_LARGE,
                        "%ld node blocks are too many to factorise", count);
    size_t len = (size_t)(count ? count : 1);
    p->bp = malloc(sizeof(int) * ((size_t)N + 1));
    p->src = malloc(sizeof(int) * len);
    p->row = malloc(sizeof(int) * len);
    p->map = malloc(sizeof(int) * 9 * len);
    p->S = malloc(sizeof(double) * 9 * (size_t)N);
    if (!p->bp || !p->src || !p->row || !p->map || !p->S)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    int b = 0;
    for (int J = 0; J < N; J++) {
        p->bp[J] = b;
        for (int k = A->p[J]; k < A->p[J + 1]; k++)
            if (selected(A, keep, J, k)) {
                p->row[b] = A->i[k];
                p->src[b++] = k;
            }
        if (b == p->bp[J] || A->i[p->src[p->bp[J]]] != J)
            return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                            "node %d's diagonal block is not selected", J);
    }
    p->bp[N] = b;
    *nnz = entries;
    return COREPCG_OK;
}

/* The node graph of the selection: its lower triangle (A's rows are
 * sorted, so are these), real ones as values, as cpg_factor_analyze_nodes
 * takes a matrix. */
static cholmod_sparse *node_graph(const cpg_proj *p, cholmod_common *cm)
{
    int N = p->N, nblk = p->bp[N];
    cholmod_sparse *G = cholmod_allocate_sparse((size_t)N, (size_t)N,
                                                (size_t)nblk, 1, 1, -1,
                                                CHOLMOD_REAL, cm);
    if (!G)
        return NULL;
    cpg_node_graph(p->bp, p->row, NULL, N, NULL, 0, G->p, G->i);
    double *Gx = G->x;
    for (int b = 0; b < nblk; b++)
        Gx[b] = 1;
    return G;
}

/* A fill-reducing order of the node graph with its elimination tree's
 * postorder: Pnode[q] is the node at position q. Every selected block is
 * a full 3x3 block, so the scalar matrix's elimination tree is the node
 * graph's with each node a chain of its 3 unknowns: this order, each node
 * expanded to its 3 unknowns, has the scalar matrix's fill, at a ninth
 * of the cost of analysing the scalar matrix. Only L->Perm is kept, so a
 * simplicial analysis is enough, in a common of its own. */
static int node_order(const cpg_proj *p, corepcg_ordering ord, int *Pnode,
                      corepcg_ordering *used, char *msg)
{
    cholmod_common cm;
    int rc = cpg_factor_start_nodes(&cm, COREPCG_FACTOR_LDL, msg);
    if (rc != COREPCG_OK)
        return rc;
    int N = p->N;
    int *off = malloc(sizeof(int) * ((size_t)N + 1));
    cholmod_sparse *G = node_graph(p, &cm);
    cpg_factor f0;
    memset(&f0, 0, sizeof f0);
    if (!off || !G) {
        rc = cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    } else {
        for (int i = 0; i <= N; i++)
            off[i] = i;
        rc = cpg_factor_analyze_nodes(&f0, G, off, N, ord, &cm, msg);
    }
    if (rc == COREPCG_OK) {
        memcpy(Pnode, f0.L->Perm, sizeof(int) * (size_t)N);
        *used = f0.ordering_used;
    }
    free(off);
    cholmod_free_sparse(&G, &cm);
    cpg_factor_free(&f0, &cm);
    cholmod_finish(&cm);
    return rc;
}

/* The failure of a CHOLMOD call that made no projected matrix. */
static int matrix_failed(const cholmod_common *cm, char *msg)
{
    int rc = cpg_cholmod_code(cm);
    rc = rc != COREPCG_OK ? rc : COREPCG_ERR_NO_MEMORY;
    return cpg_fail(msg, rc, "the projected matrix: %s", corepcg_strerror(rc));
}

/* The selection in the order Pnode, by node position: each position's
 * off-diagonal blocks go to the earlier of their two positions, listed
 * there by the later one's position. */
typedef struct later_blocks {
    int *pos;     /* N: each node's position (Pnode inverted) */
    int *start;   /* N + 1: position q's list is start[q] .. start[q+1]-1 */
    int *nb_pos;  /* the later position of each listed block */
    int *nb_blk;  /* the block (of the selection) */
    int *rank;    /* each off-diagonal block's place in the lists */
} later_blocks;

static void later_blocks_free(later_blocks *l)
{
    free(l->pos);
    free(l->start);
    free(l->nb_pos);
    free(l->nb_blk);
    free(l->rank);
}

static int later_blocks_make(later_blocks *l, const cpg_proj *p,
                             const cpg_bmat *A, const int *Pnode)
{
    int N = p->N, nblk = p->bp[N];
    l->pos = malloc(sizeof(int) * (size_t)N);
    l->start = calloc((size_t)N + 1, sizeof(int));
    l->nb_pos = malloc(sizeof(int) * (size_t)(nblk ? nblk : 1));
    l->nb_blk = malloc(sizeof(int) * (size_t)(nblk ? nblk : 1));
    l->rank = malloc(sizeof(int) * (size_t)(nblk ? nblk : 1));
    if (!l->pos || !l->start || !l->nb_pos || !l->nb_blk || !l->rank)
        return COREPCG_ERR_NO_MEMORY;
    int *pos = l->pos, *start = l->start, *nb_pos = l->nb_pos;
    int *nb_blk = l->nb_blk;
    for (int q = 0; q < N; q++)
        pos[Pnode[q]] = q;
    for (int J = 0; J < N; J++)
        for (int b = p->bp[J] + 1; b < p->bp[J + 1]; b++) {
            int qi = pos[A->i[p->src[b]]], qj = pos[J];
            start[(qi < qj ? qi : qj) + 1]++;
        }
    for (int q = 0; q < N; q++)
        start[q + 1] += start[q];
    for (int J = 0; J < N; J++)
        for (int b = p->bp[J] + 1; b < p->bp[J + 1]; b++) {
            int qi = pos[A->i[p->src[b]]], qj = pos[J];
            int q = qi < qj ? qi : qj, t = start[q]++;
            nb_pos[t] = qi < qj ? qj : qi;
            nb_blk[t] = b;
        }
    for (int q = N; q > 0; q--) /* the fill moved each start to the next */
        start[q] = start[q - 1];
    start[0] = 0;
    for (int q = 0; q < N; q++) /* short lists: insertion sort */
        for (int t = start[q] + 1; t < start[q + 1]; t++) {
            int v = nb_pos[t], w = nb_blk[t], u = t;
            for (; u > start[q] && nb_pos[u - 1] > v; u--) {
                nb_pos[u] = nb_pos[u - 1];
                nb_blk[u] = nb_blk[u - 1];
            }
            nb_pos[u] = v;
            nb_blk[u] = w;
        }
    for (int t = 0; t < start[N]; t++)
        l->rank[nb_blk[t]] = t;
    return COREPCG_OK;
}

/* M's pattern: node position q's column c holds the diagonal block's rows
 * 3q + c .. 3q + 2, then 3 rows for each block in q's list. */
static void permuted_pattern(cholmod_sparse *M, int N, const later_blocks *l)
{
    int *Mp = M->p, *Mi = M->i, t = 0;
    for (int q = 0; q < N; q++)
        for (int c = 0; c < 3; c++) {
            Mp[3 * q + c] = t;
            for (int a = c; a < 3; a++)
                Mi[t++] = 3 * q + a;
            for (int k = l->start[q]; k < l->start[q + 1]; k++)
                for (int a = 0; a < 3; a++)
                    Mi[t++] = 3 * l->nb_pos[k] + a;
        }
    Mp[3 * N] = t;
}

/* p->map: where each entry of each selected block went in p->M. */
static void permuted_map(cpg_proj *p, const cpg_bmat *A,
                         const later_blocks *l)
{
    const int *Mp = p->M->p, *pos = l->pos;
    for (int J = 0; J < p->N; J++) {
        int qj = pos[J];
        int *m = p->map + 9L * p->bp[J]; /* the diagonal block */
        for (int c = 0; c < 3; c++)
            for (int a = 0; a < 3; a++)
                m[3 * c + a] = a >= c ? Mp[3 * qj + c] + a - c : -1;
        for (int b = p->bp[J] + 1; b < p->bp[J + 1]; b++) {
            int qi = pos[A->i[p->src[b]]];
            int first = qi < qj ? qi : qj, r = l->rank[b] - l->start[first];
            m = p->map + 9L * b;
            for (int c = 0; c < 3; c++)
                for (int a = 0; a < 3; a++)
                    /* entry (I a, J c): in column J c below, or as its
                     * mirror (J c, I a) in column I a */
                    m[3 * c + a] = qi > qj ? Mp[3 * qj + c] + 3 - c + 3 * r + a
                                           : Mp[3 * qi + a] + 3 - a + 3 * r + c;
        }
    }
}

/* The selection's lower triangle in the order Pnode (node positions
 * expanded to their 3 unknowns), built in one pass, and where each block
 * entry went (map). */
static int store_permuted(cpg_proj *p, const cpg_bmat *A, const int *Pnode,
                          long nnz, cholmod_common *cm, char *msg)
{
    later_blocks l;
    memset(&l, 0, sizeof l);
    int rc = later_blocks_make(&l, p, A, Pnode);
    if (rc != COREPCG_OK) {
        later_blocks_free(&l);
        return cpg_fail(msg, rc, "out of memory");
    }
    p->M = cholmod_allocate_sparse(3 * (size_t)p->N, 3 * (size_t)p->N,
                                   (size_t)nnz, 1, 1, -1, CHOLMOD_REAL, cm);
    if (!p->M) {
        later_blocks_free(&l);
        return matrix_failed(cm, msg);
    }
    cpg_huge_pages(p->M->i, (size_t)nnz * sizeof(int));
    cpg_huge_pages(p->M->x, (size_t)nnz * sizeof(double));
    permuted_pattern(p->M, p->N, &l);
    memset(p->M->x, 0, (size_t)nnz * sizeof(double));
    permuted_map(p, A, &l);
    later_blocks_free(&l);
    return COREPCG_OK;
}

/* A simplicial factorisation reads the upper triangle: stored lower, the
 * matrix would be transposed on every call (a copy of it per step). The
 * supernodal one reads the lower triangle as it is. */
static int store_upper(cpg_proj *p, cholmod_common *cm, char *msg)
{
    double *Mx = p->M->x;
    long nnz = cpg_proj_nnz(p);
    for (long t = 0; t < nnz; t++)
        Mx[t] = (double)t; /* each entry named by its position */
    cholmod_sparse *U = cholmod_transpose(p->M, 1, cm);
    int *moved = malloc(sizeof(int) * (nnz > 0 ? (size_t)nnz : 1));
    if (!U || !moved) {
        cholmod_free_sparse(&U, cm);
        free(moved);
        return matrix_failed(cm, msg);
    }
    const double *Ux = U->x;
    for (long t = 0; t < nnz; t++)
        moved[(long)Ux[t]] = (int)t;
    long entries = 9L * p->bp[p->N];
    for (long e = 0; e < entries; e++)
        if (p->map[e] >= 0)
            p->map[e] = moved[p->map[e]];
    free(moved);
    cholmod_free_sparse(&p->M, cm);
    p->M = U;
    return COREPCG_OK;
}

int cpg_proj_analyse(cpg_proj *p, const cpg_bmat *A, const unsigned char *keep,
                     corepcg_ordering ord, cholmod_common *cm, char *msg)
{
    memset(p, 0, sizeof *p);
    p->N = A->nb;
    long nnz = 0;
    int rc = select_blocks(p, A, keep, &nnz, msg);
    int *Pnode = NULL, *perm = NULL;
    corepcg_ordering used = ord;
    if (rc != COREPCG_OK)
        goto done;
    Pnode = malloc(sizeof(int) * (size_t)p->N);
    perm = malloc(sizeof(int) * 3 * (size_t)p->N);
    if (!Pnode || !perm) {
        rc = cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
        goto done;
    }
    rc = node_order(p, ord, Pnode, &used, msg);
    if (rc == COREPCG_OK)
        rc = store_permuted(p, A, Pnode, nnz, cm, msg);
    if (rc != COREPCG_OK)
        goto done;
    for (int q = 0; q < p->N; q++)
        for (int c = 0; c < 3; c++)
            perm[3 * q + c] = 3 * Pnode[q] + c;
    rc = cpg_factor_analyze_natural(&p->fac, p->M, perm, used, cm, msg);
    if (rc == COREPCG_OK && !p->fac.L->is_super)
        rc = store_upper(p, cm, msg);
done:
    free(Pnode);
    free(perm);
    if (rc != COREPCG_OK)
        cpg_proj_free(p, cm);
    return rc;
}

/* Where block (I, J) is among A's blocks (column J's rows are sorted), or
 * -1. */
static int find_block(const cpg_bmat *A, int I, int J)
{
    int lo = A->p[J], hi = A->p[J + 1] - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (A->i[mid] < I)
            lo = mid + 1;
        else if (A->i[mid] > I)
            hi = mid - 1;
        else
            return mid;
    }
    return -1;
}

int cpg_proj_selects(const cpg_proj *p, const cpg_bmat *A,
                     const unsigned char *keep, long count)
{
    if (A->nb != p->N || count != p->bp[p->N])
        return 0;
    for (int J = 0; J < p->N; J++)
        for (int b = p->bp[J]; b < p->bp[J + 1]; b++) {
            int k = find_block(A, p->row[b], J);
            if (k < 0 || !keep[k])
                return 0;
        }
    return 1;
}

void cpg_proj_repoint(cpg_proj *p, const cpg_bmat *A)
{
    for (int J = 0; J < p->N; J++)
        for (int b = p->bp[J]; b < p->bp[J + 1]; b++)
            p->src[b] = find_block(A, p->row[b], J);
}

/* S_i = U_i U_i^T per node; exactly I and 0 for ndof 3 and 0. */
static void node_projectors(const cpg_ublocks *u, double *S)
{
    for (int i = 0; i < u->N; i++) {
        double *Si = S + 9L * i;
        const double *U = u->U + 9L * i;
        int d = u->ndof[i];
        for (int c = 0; c < 3; c++)
            for (int a = 0; a < 3; a++) {
                double s = d == 3 && a == c ? 1 : 0;
                for (int e = 0; d < 3 && e < d; e++)
                    s += U[3 * e + a] * U[3 * e + c];
                Si[3 * c + a] = s;
            }
    }
}

/* C = X Y, 3x3 column-major. */
static void mul3(const double *X, const double *Y, double *C)
{
    for (int c = 0; c < 3; c++)
        for (int a = 0; a < 3; a++)
            C[3 * c + a] = X[a] * Y[3 * c] + X[3 + a] * Y[3 * c + 1] +
                           X[6 + a] * Y[3 * c + 2];
}

/* V = S_I B S_J, plus d (I - S_J) on the diagonal. */
static void project_block(const double *B, int I, int J,
                          const cpg_ublocks *u, const double *S, double *V)
{
    int nI = u->ndof[I], nJ = u->ndof[J];
    if (nI == 3 && nJ == 3) {
        memcpy(V, B, 9 * sizeof(double));
        return;
    }
    if (nI == 0 || nJ == 0) {
        memset(V, 0, 9 * sizeof(double));
    } else {
        double T[9];
        mul3(B, S + 9L * J, T);
        mul3(S + 9L * I, T, V);
    }
    if (I == J) {
        /* any d > 0 gives the same inverse on range(S); the diagonal's
         * mean keeps the pivots of the constrained directions in scale */
        double d = (B[0] + B[4] + B[8]) / 3;
        if (!(d > 0) || !isfinite(d))
            d = 1;
        const double *Sj = S + 9L * J;
        for (int e = 0; e < 9; e++)
            V[e] += d * ((e % 4 == 0 ? 1.0 : 0.0) - Sj[e]);
    }
}

/* X = S_I X S_I for a partly constrained node: the square roots of
 * projected blocks lie in range(S_I) but for round-off, which would couple
 * range(S) and range(I - S) in Bp. */
static void keep_in_range(double *X, int I, const cpg_ublocks *u,
                          const double *S)
{
    if (u->ndof[I] == 3)
        return;
    double T[9];
    mul3(X, S + 9L * I, T);
    mul3(S + 9L * I, T, X);
}

/* Adds the 3x3 symmetric X to the stored triangle of diagonal block b. */
static void add_to_diagonal(cpg_proj *p, int b, const double *X)
{
    double *Mx = p->M->x;
    const int *m = p->map + 9L * b;
    for (int c = 0; c < 3; c++)
        for (int a = c; a < 3; a++)
            Mx[m[3 * c + a]] += X[3 * c + a];
}

/* Called with each lower block B = A_IJ (I > J) that the selection
 * leaves out, between nodes that both keep a free direction; a non-zero
 * return ends the walk. */
typedef int (*left_out_visit)(cpg_proj *p, const cpg_ublocks *u, int I,
                              int J, const double *B);

/* Visits the blocks the selection leaves out; 1 when a visit ended it. A
 * column's selected rows and A's rows are both sorted: one merge per
 * column. */
static int walk_left_out(cpg_proj *p, const cpg_bmat *A, const cpg_ublocks *u,
                         left_out_visit visit)
{
    for (int J = 0; J < p->N; J++) {
        if (u->ndof[J] == 0)
            continue;
        int b = p->bp[J] + 1, end = p->bp[J + 1];
        for (int k = A->p[J]; k < A->p[J + 1]; k++) {
            int I = A->i[k];
            if (I <= J)
                continue;
            while (b < end && p->row[b] < I)
                b++;
            if ((b < end && p->row[b] == I) || u->ndof[I] == 0)
                continue;
            if (visit(p, u, I, J, A->x + 9L * k))
                return 1;
        }
    }
    return 0;
}

/* B, projected, moved onto its two diagonal blocks (projected.h). */
static int compensate(cpg_proj *p, const cpg_ublocks *u, int I, int J,
                      const double *B)
{
    double G[9], P[9], Q[9];
    project_block(B, I, J, u, p->S, G);
    cpg_block_modulus(G, P, Q);
    keep_in_range(P, I, u, p->S);
    keep_in_range(Q, J, u, p->S);
    add_to_diagonal(p, p->bp[I], P);
    add_to_diagonal(p, p->bp[J], Q);
    return 0;
}

/* 1 when B is not symmetric beyond round-off (1e-12 of its largest entry). */
static int asymmetric(cpg_proj *p, const cpg_ublocks *u, int I, int J,
                      const double *B)
{
    (void)p, (void)u, (void)I, (void)J;
    double big = 0.0, skew = 0.0;
    for (int e = 0; e < 9; e++)
        big = fmax(big, fabs(B[e]));
    skew = fmax(fabs(B[1] - B[3]), fmax(fabs(B[2] - B[6]), fabs(B[5] - B[7])));
    return skew > 1e-12 * big;
}

int cpg_proj_leaves_out_asymmetric(cpg_proj *p, const cpg_bmat *A,
                                   const cpg_ublocks *u)
{
    return walk_left_out(p, A, u, asymmetric);
}

void cpg_proj_values(cpg_proj *p, const cpg_bmat *A, const cpg_ublocks *u,
                     int compensated)
{
    node_projectors(u, p->S);
    double *Mx = p->M->x;
    for (int J = 0; J < p->N; J++)
        for (int b = p->bp[J]; b < p->bp[J + 1]; b++) {
            int k = p->src[b], I = A->i[k];
            double V[9];
            project_block(A->x + 9L * k, I, J, u, p->S, V);
            const int *m = p->map + 9L * b;
            for (int c = 0; c < 3; c++)
                for (int a = I == J ? c : 0; a < 3; a++)
                    Mx[m[3 * c + a]] = V[3 * c + a];
        }
    if (compensated)
        walk_left_out(p, A, u, compensate);
}

/* msg naming the node of the failed column, then where the factor failed
 * (the factor's numbers, as cpg_factor_numeric words them). */
static int not_spd_at_node(const cpg_proj *p, const cpg_ublocks *u,
                           const char *what, int code, char *msg)
{
    int col = p->fac.bad_column;
    if (col < 0 || col >= 3 * u->N || !msg)
        return code;
    int node = col / 3, ndof = u->ndof[node];
    char where[64];
    if (ndof == 3 || ndof == 1) /* a free node's U is I; one direction */
        snprintf(where, sizeof where, "free direction %d of %d",
                 ndof == 3 ? col % 3 + 1 : 1, ndof);
    else
        snprintf(where, sizeof where, "in its %d free directions", ndof);
    char detail[COREPCG_MSG_SIZE];
    cpg_factor_not_spd_text(&p->fac, detail, sizeof detail);
    return cpg_fail(msg, code, "%s is not positive definite at node %d (%s): "
                    "%s", what, node, where, detail);
}

int cpg_proj_factorise(cpg_proj *p, const cpg_ublocks *u, const char *what,
                       int not_spd_code, cholmod_common *cm, char *msg)
{
    int rc = cpg_factor_numeric(&p->fac, p->M, not_spd_code, cm, msg);
    if (rc == not_spd_code)
        rc = not_spd_at_node(p, u, what, not_spd_code, msg);
    return rc;
}

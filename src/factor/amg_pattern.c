/* SPDX-License-Identifier: GPL-2.0-or-later */
/* amg_pattern.c -- the multigrid hierarchy's pattern (amg.h), made once
 * per mesh: the finest level's node order (reverse Cuthill-McKee, in
 * parts for two threads) and pattern, each level's aggregates (of the
 * graphs of amg_graph.c), and the patterns of the prolongator, its
 * transpose and the Galerkin product. */
#include "amg.h"
#include "kernels.h"
#include "order.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int *int_array(size_t n)
{
    return malloc((n > 0 ? n : 1) * sizeof(int));
}

static double *real_array(size_t n)
{
    return calloc(n > 0 ? n : 1, sizeof(double));
}

void cpg_amg_free(cpg_amg *amg)
{
    for (int l = 0; l < CPG_AMG_MAX_LEVELS; l++) {
        cpg_amg_level *v = &amg->lev[l];
        cpg_bsr_free(&v->A);
        cpg_bsr_free(&v->P);
        cpg_bsr_free(&v->R);
        cpg_bsr_free(&v->AP);
        free(v->dinv);
        free(v->agg);
        free(v->scale);
        free(v->r_src);
        free(v->x);
        free(v->b);
        free(v->r);
    }
    free(amg->chol);
    free(amg->power);
    free(amg->mark[0]);
    free(amg->mark[1]);
    free(amg->filters);
    free(amg->order);
    free(amg->rank);
    free(amg->src);
    free(amg->graph_p);
    free(amg->graph_j);
    memset(amg, 0, sizeof *amg);
}

/* P's pattern: row i holds the aggregates of i and its neighbours (those
 * of (I - omega D^-1 A) T); R's, its transpose, with r_src. */
static int prolongator_pattern(cpg_amg_level *v, int nc, int *mark)
{
    const cpg_bsr *A = &v->A;
    cpg_bsr *P = &v->P, *R = &v->R;
    P->n = A->n;
    P->m = nc;
    P->p = int_array((size_t)A->n + 1);
    P->j = int_array((size_t)A->p[A->n] + (size_t)A->n);
    if (!P->p || !P->j)
        return COREPCG_ERR_NO_MEMORY;
    for (int a = 0; a < nc; a++)
        mark[a] = -1;
    int at = 0;
    for (int i = 0; i < A->n; i++) {
        P->p[i] = at;
        mark[v->agg[i]] = i;
        P->j[at++] = v->agg[i];
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            int a = v->agg[A->j[k]];
            if (mark[a] != i) {
                mark[a] = i;
                P->j[at++] = a;
            }
        }
    }
    P->p[A->n] = at;
    P->x = real_array(9 * (size_t)at);
    R->n = nc;
    R->m = A->n;
    R->p = calloc((size_t)nc + 1, sizeof(int));
    R->j = int_array((size_t)at);
    R->x = real_array(9 * (size_t)at);
    v->r_src = int_array((size_t)at);
    if (!P->x || !R->p || !R->j || !R->x || !v->r_src)
        return COREPCG_ERR_NO_MEMORY;
    for (int k = 0; k < at; k++)
        R->p[P->j[k] + 1]++;
    for (int a = 0; a < nc; a++)
        R->p[a + 1] += R->p[a];
    for (int a = 0; a < nc; a++)
        mark[a] = R->p[a];
    for (int i = 0; i < A->n; i++)
        for (int k = P->p[i]; k < P->p[i + 1]; k++) {
            int to = mark[P->j[k]]++;
            R->j[to] = i;
            v->r_src[to] = k;
        }
    return COREPCG_OK;
}

/* Level l's aggregates and transfer patterns, and level l + 1's operator
 * pattern. */
static int coarsen(cpg_amg *amg, int l, int nc)
{
    cpg_amg_level *v = &amg->lev[l];
    int rc = prolongator_pattern(v, nc, amg->mark[0]);
    if (rc == COREPCG_OK)
        rc = cpg_bsr_product_pattern(&v->A, &v->P, &v->AP, amg->mark[0]);
    if (rc == COREPCG_OK)
        rc = cpg_bsr_product_pattern(&v->R, &v->AP, &amg->lev[l + 1].A,
                                     amg->mark[0]);
    v->scale = real_array((size_t)nc);
    if (rc == COREPCG_OK && !v->scale)
        rc = COREPCG_ERR_NO_MEMORY;
    if (rc != COREPCG_OK)
        return rc;
    for (int i = 0; i < v->A.n; i++)
        v->scale[v->agg[i]] += 1;
    for (int a = 0; a < nc; a++)
        v->scale[a] = 1 / sqrt(v->scale[a]);
    return COREPCG_OK;
}

/* The finest level's pattern: A's blocks with the nodes in amg->order
 * (row k is node order[k]; columns renumbered by rank and sorted), and
 * where each block comes from in A (amg->src). A is symmetric with both
 * triangles by block columns: column i's block rows are row i's block
 * columns. */
static int level_zero(cpg_amg *amg, const cpg_bmat *A)
{
    cpg_bsr *A0 = &amg->lev[0].A;
    int n = A->nb, nnz = A->p[n];
    A0->n = A0->m = n;
    A0->p = int_array((size_t)n + 1);
    A0->j = int_array((size_t)nnz);
    A0->diag = int_array((size_t)n);
    A0->x = real_array(9 * (size_t)nnz);
    amg->src = int_array((size_t)nnz);
    if (!A0->p || !A0->j || !A0->diag || !A0->x || !amg->src)
        return COREPCG_ERR_NO_MEMORY;
    A0->p[0] = 0;
    for (int k = 0; k < n; k++) {
        int i = amg->order[k], q = A0->p[k];
        for (int t = A->p[i]; t < A->p[i + 1]; t++, q++) {
            int c = amg->rank[A->i[t]], at = q;
            for (; at > A0->p[k] && A0->j[at - 1] > c; at--) {
                A0->j[at] = A0->j[at - 1];
                amg->src[at] = amg->src[at - 1];
            }
            A0->j[at] = c;
            amg->src[at] = t;
        }
        A0->p[k + 1] = q;
        A0->diag[k] = -1;
        for (int t = A0->p[k]; t < q; t++)
            if (A0->j[t] == k)
                A0->diag[k] = t;
        if (A0->diag[k] < 0)
            return COREPCG_ERR_ARGUMENT; /* the multigrid needs A_kk */
    }
    return COREPCG_OK;
}

/* From CPG_PARALLEL_COLUMNS nodes on, the RCM order (gp, gi its graph)
 * cut in two at n/2 and the nodes of the second half next to the first
 * moved to the end: the finest level's three parts (amg_cycle.c), each
 * still in RCM order. mark: n ints of scratch. */
static void split_order(cpg_amg *amg, const int *gp, const int *gi, int n, int *mark)
{
    cpg_amg_level *v = &amg->lev[0];
    v->part[0] = v->part[1] = n;
    if (n < CPG_PARALLEL_COLUMNS)
        return;
    int half = n / 2;
    for (int k = 0; k < n; k++)
        amg->rank[amg->order[k]] = k;
    int inner = half, sep = n;
    for (int k = n - 1; k >= half; k--) { /* separators counted */
        int i = amg->order[k], touches = 0;
        for (int e = gp[i]; e < gp[i + 1] && !touches; e++)
            touches = amg->rank[gi[e]] < half;
        mark[k] = touches;
        sep -= touches;
    }
    v->part[0] = half;
    v->part[1] = sep;
    int *moved = amg->rank; /* rebuilt by the caller */
    for (int k = half; k < n; k++)
        moved[mark[k] ? sep++ : inner++] = amg->order[k];
    memcpy(amg->order + half, moved + half, (size_t)(n - half) * sizeof(int));
}

/* amg->order: reverse Cuthill-McKee of A's node graph, so that Gauss-
 * Seidel sweeps rows whose neighbours are near in memory, split in
 * three parts on large meshes; rank its inverse. */
static int node_order(cpg_amg *amg, const cpg_bmat *A)
{
    int n = A->nb;
    amg->order = int_array((size_t)n);
    amg->rank = int_array((size_t)n);
    long edges = cpg_node_graph(A->p, A->i, NULL, n, NULL, 1, NULL, NULL);
    int *gp = int_array((size_t)n + 1), *gi = int_array((size_t)edges);
    int rc = COREPCG_ERR_NO_MEMORY;
    if (amg->order && amg->rank && gp && gi) {
        cpg_node_graph(A->p, A->i, NULL, n, NULL, 1, gp, gi);
        long visits = 0;
        rc = cpg_order_rcm(gp, gi, n, amg->order, &visits);
    }
    if (rc == COREPCG_OK)
        split_order(amg, gp, gi, n, amg->mark[0]);
    free(gp);
    free(gi);
    if (rc == COREPCG_OK)
        for (int k = 0; k < n; k++)
            amg->rank[amg->order[k]] = k;
    return rc;
}

/* The stretch pairs with their nodes renumbered by rank (2 num_stretch
 * ints, NULL when out of memory). */
static int *ranked_pairs(const int *rank, int num_stretch, const int *stretch)
{
    int *pairs = int_array(2 * (size_t)num_stretch);
    if (pairs)
        for (size_t e = 0; e < 2 * (size_t)num_stretch; e++)
            pairs[e] = rank[stretch[e]];
    return pairs;
}

/* The cycle's vectors; the sweeps' parts all one (the finest level's
 * are set by node_order). */
static int vectors(cpg_amg_level *v)
{
    size_t n = (size_t)v->A.n;
    v->x = real_array(3 * n);
    v->b = real_array(3 * n);
    v->r = real_array(3 * n);
    v->dinv = real_array(9 * n);
    if (!v->x || !v->b || !v->r || !v->dinv)
        return COREPCG_ERR_NO_MEMORY;
    if (v->part[1] == 0)
        v->part[0] = v->part[1] = v->A.n;
    return COREPCG_OK;
}

/* The levels below the finest, made from the graph (gp, gj) of the
 * finest's nodes, each aggregated on the graph of the aggregates above
 * it. Frees the graphs it makes and the one it is given. */
static int levels(cpg_amg *amg, int *gp, int *gj, int coarse_nodes)
{
    int rc = COREPCG_OK;
    for (int l = 0; rc == COREPCG_OK; l++) {
        cpg_amg_level *v = &amg->lev[l];
        amg->levels = l + 1;
        rc = vectors(v);
        if (rc != COREPCG_OK ||
            v->A.n <= coarse_nodes || l + 1 == CPG_AMG_MAX_LEVELS)
            break;
        v->agg = int_array((size_t)v->A.n);
        if (!v->agg) {
            rc = COREPCG_ERR_NO_MEMORY;
            break;
        }
        cpg_amg_graph g = {v->A.n, gp, gj};
        /* the finest level visited in A's node order, which aggregates
         * better than the sweeps' (measured: docs/benchmark.md) */
        int nc = cpg_amg_aggregate(&g, l == 0 ? amg->rank : NULL, v->agg, amg->mark[0]);
        if ((long)nc * 10 > (long)v->A.n * 9) { /* it does not coarsen */
            free(v->agg);
            v->agg = NULL;
            break;
        }
        rc = coarsen(amg, l, nc);
        int *first = int_array((size_t)nc + 1);
        int *members = int_array((size_t)v->A.n);
        int *qp = int_array((size_t)nc + 1);
        int *qj = int_array((size_t)gp[v->A.n]);
        if (rc == COREPCG_OK && (!first || !members || !qp || !qj))
            rc = COREPCG_ERR_NO_MEMORY;
        if (rc == COREPCG_OK)
            cpg_amg_aggregate_graph(&g, v->agg, nc, qp, qj, amg->mark[0], first, members);
        free(first);
        free(members);
        free(gp);
        free(gj);
        gp = qp;
        gj = qj;
    }
    free(gp);
    free(gj);
    if (rc != COREPCG_OK)
        return rc;
    int last = amg->lev[amg->levels - 1].A.n;
    amg->dense = last <= CPG_AMG_DENSE_NODES;
    if (amg->dense) {
        amg->chol = real_array(9 * (size_t)last * (size_t)last);
        if (!amg->chol)
            return COREPCG_ERR_NO_MEMORY;
    }
    return COREPCG_OK;
}

static int analyse(cpg_amg *amg, const cpg_bmat *A, int num_stretch,
                   const int *stretch, int coarse_nodes)
{
    int n = A->nb;
    size_t edges = (size_t)A->p[n];
    if (edges < 2 * (size_t)num_stretch)
        edges = 2 * (size_t)num_stretch;
    amg->mark[0] = int_array((size_t)n);
    amg->mark[1] = int_array((size_t)n);
    amg->power = real_array(6 * (size_t)n);
    amg->filters = real_array(9 * (size_t)n);
    if (!amg->mark[0] || !amg->mark[1] || !amg->power || !amg->filters)
        return COREPCG_ERR_NO_MEMORY;
    int rc = node_order(amg, A);
    if (rc == COREPCG_OK)
        rc = level_zero(amg, A);
    if (rc != COREPCG_OK)
        return rc;
    int *gp = int_array((size_t)n + 1);
    int *gj = int_array(edges);
    int *pairs = num_stretch > 0 ? ranked_pairs(amg->rank, num_stretch, stretch) : NULL;
    if (!gp || !gj || (num_stretch > 0 && !pairs)) {
        free(gp);
        free(gj);
        free(pairs);
        return COREPCG_ERR_NO_MEMORY;
    }
    if (num_stretch > 0) {
        cpg_amg_stretch_graph(n, num_stretch, pairs, gp, gj, amg->mark[0]);
        free(pairs);
        /* kept: the pairs may come again in another order */
        amg->graph_p = int_array((size_t)n + 1);
        amg->graph_j = int_array((size_t)gp[n]);
        if (!amg->graph_p || !amg->graph_j) {
            free(gp);
            free(gj);
            return COREPCG_ERR_NO_MEMORY;
        }
        memcpy(amg->graph_p, gp, ((size_t)n + 1) * sizeof(int));
        memcpy(amg->graph_j, gj, (size_t)gp[n] * sizeof(int));
    } else {
        cpg_amg_matrix_graph(&amg->lev[0].A, gp, gj);
    }
    return levels(amg, gp, gj, coarse_nodes);
}

int cpg_amg_analyse(cpg_amg *amg, const cpg_bmat *A, int num_stretch,
                    const int *stretch, int coarse_nodes, char *msg)
{
    memset(amg, 0, sizeof *amg);
    int rc = analyse(amg, A, num_stretch, stretch, coarse_nodes);
    amg->avx2 = cpg_have_avx2();
    if (rc == COREPCG_OK)
        return rc;
    cpg_amg_free(amg);
    if (rc == COREPCG_ERR_ARGUMENT)
        return cpg_fail(msg, rc, "the multigrid needs every diagonal block of A");
    if (rc == COREPCG_ERR_TOO_LARGE)
        return cpg_fail(msg, rc, "the multigrid's coarse operator is too large");
    return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
}

int cpg_amg_same_graph(const cpg_amg *amg, int num_stretch, const int *stretch)
{
    if (amg->levels == 0 || (num_stretch > 0) != (amg->graph_p != NULL))
        return 0;
    if (num_stretch == 0)
        return 1;
    int n = amg->lev[0].A.n;
    int *p = int_array((size_t)n + 1), *j = int_array(2 * (size_t)num_stretch);
    int *pairs = ranked_pairs(amg->rank, num_stretch, stretch);
    int same = 0;
    if (p && j && pairs) {
        cpg_amg_stretch_graph(n, num_stretch, pairs, p, j, amg->mark[0]);
        same = memcmp(p, amg->graph_p, ((size_t)n + 1) * sizeof(int)) == 0 &&
               memcmp(j, amg->graph_j, (size_t)p[n] * sizeof(int)) == 0;
    }
    free(p);
    free(j);
    free(pairs);
    return same;
}

double cpg_amg_complexity(const cpg_amg *amg)
{
    double sum = 0;
    for (int l = 0; l < amg->levels; l++)
        sum += amg->lev[l].A.p[amg->lev[l].A.n];
    return amg->levels ? sum / amg->lev[0].A.p[amg->lev[0].A.n] : 0;
}

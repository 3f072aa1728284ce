/* SPDX-License-Identifier: GPL-2.0-or-later */
/* amg_graph.c -- the node graphs the multigrid's levels are aggregated
 * on (amg.h): the stretch pairs' or A's on the finest level, each
 * level's aggregates' below it; and the aggregation itself. */
#include "amg.h"

#include <string.h>

/* Standard aggregation (Vanek, Mandel & Brezina) of graph g, visiting
 * its nodes in the order visit gives (NULL: 0, 1, ...): (1) a node whose
 * neighbours are all free forms an aggregate with them; (2) a node left
 * over joins the aggregate of its first neighbour aggregated in (1); (3)
 * what is still left forms an aggregate with its free neighbours (a lone
 * node, alone). The aggregates are then numbered in the order of their
 * first nodes, so that the coarse level keeps the fine one's locality.
 * Returns the number of aggregates; agg[i] each node's; scratch: n ints. */
int cpg_amg_aggregate(const cpg_amg_graph *g, const int *visit, int *agg, int *scratch)
{
    int n = g->n, count = 0;
    for (int i = 0; i < n; i++)
        agg[i] = -1;
    for (int t = 0; t < n; t++) {
        int i = visit ? visit[t] : t;
        int free_all = agg[i] < 0;
        for (int k = g->p[i]; k < g->p[i + 1] && free_all; k++)
            free_all = agg[g->j[k]] < 0;
        if (!free_all)
            continue;
        for (int k = g->p[i]; k < g->p[i + 1]; k++)
            agg[g->j[k]] = count;
        agg[i] = count++;
    }
    int first = count; /* aggregates below this come from step (1) */
    for (int t = 0; t < n; t++) {
        int i = visit ? visit[t] : t;
        if (agg[i] >= 0)
            continue;
        for (int k = g->p[i]; k < g->p[i + 1]; k++) {
            int a = agg[g->j[k]];
            if (a >= 0 && a < first) {
                agg[i] = a;
                break;
            }
        }
    }
    for (int t = 0; t < n; t++) {
        int i = visit ? visit[t] : t;
        if (agg[i] >= 0)
            continue;
        for (int k = g->p[i]; k < g->p[i + 1]; k++)
            if (agg[g->j[k]] < 0)
                agg[g->j[k]] = count;
        agg[i] = count++;
    }
    for (int a = 0; a < count; a++)
        scratch[a] = -1;
    int next = 0;
    for (int i = 0; i < n; i++) {
        if (scratch[agg[i]] < 0)
            scratch[agg[i]] = next++;
        agg[i] = scratch[agg[i]];
    }
    return count;
}

/* The graph of A0's off-diagonal blocks into p (n + 1) and j (nnz). */
void cpg_amg_matrix_graph(const cpg_bsr *A0, int *p, int *j)
{
    int at = 0;
    for (int i = 0; i < A0->n; i++) {
        p[i] = at;
        for (int k = A0->p[i]; k < A0->p[i + 1]; k++)
            if (A0->j[k] != i)
                j[at++] = A0->j[k];
    }
    p[A0->n] = at;
}

/* The graph of the stretch pairs (each pair once per node, however
 * often it is given; a node paired with itself has no edge) into p
 * (n + 1) and j (2 num_stretch); mark: n ints of scratch. */
void cpg_amg_stretch_graph(int n, int num_stretch, const int *pairs, int *p,
                          int *j, int *mark)
{
    memset(p, 0, ((size_t)n + 1) * sizeof(int));
    for (int e = 0; e < num_stretch; e++)
        if (pairs[2 * e] != pairs[2 * e + 1]) {
            p[pairs[2 * e] + 1]++;
            p[pairs[2 * e + 1] + 1]++;
        }
    for (int i = 0; i < n; i++) {
        p[i + 1] += p[i];
        mark[i] = p[i];
    }
    for (int e = 0; e < num_stretch; e++) {
        int a = pairs[2 * e], b = pairs[2 * e + 1];
        if (a != b) {
            j[mark[a]++] = b;
            j[mark[b]++] = a;
        }
    }
    for (int i = 0; i < n; i++)
        mark[i] = -1;
    int at = 0;
    for (int i = 0; i < n; i++) {
        int from = p[i];
        p[i] = at;
        for (int k = from; k < p[i + 1]; k++)
            if (mark[j[k]] != i) {
                mark[j[k]] = i;
                j[at++] = j[k];
            }
        /* ascending (a row holds a handful): the aggregates then do not
         * depend on the order the pairs came in */
        for (int k = p[i] + 1; k < at; k++)
            for (int q = k; q > p[i] && j[q - 1] > j[q]; q--) {
                int t = j[q];
                j[q] = j[q - 1];
                j[q - 1] = t;
            }
    }
    p[n] = at;
}

/* The graph of the aggregates: a and b adjacent when some node of a is
 * adjacent to some node of b in g. Into q (p: nc + 1, j: at most g's
 * edges); mark: nc ints, first: nc + 1, next: n of scratch. */
void cpg_amg_aggregate_graph(const cpg_amg_graph *g, const int *agg, int nc,
                            int *qp, int *qj, int *mark, int *first,
                            int *members)
{
    memset(first, 0, ((size_t)nc + 1) * sizeof(int));
    for (int i = 0; i < g->n; i++)
        first[agg[i] + 1]++;
    for (int a = 0; a < nc; a++) {
        first[a + 1] += first[a];
        mark[a] = first[a];
    }
    for (int i = 0; i < g->n; i++)
        members[mark[agg[i]]++] = i;
    for (int a = 0; a < nc; a++)
        mark[a] = -1;
    int at = 0;
    for (int a = 0; a < nc; a++) {
        qp[a] = at;
        mark[a] = a;
        for (int m = first[a]; m < first[a + 1]; m++) {
            int i = members[m];
            for (int k = g->p[i]; k < g->p[i + 1]; k++) {
                int b = agg[g->j[k]];
                if (mark[b] != a) {
                    mark[b] = a;
                    qj[at++] = b;
                }
            }
        }
    }
    qp[nc] = at;
}

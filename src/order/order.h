/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * order.h -- orderings of node graphs (order/): the node graph of a
 * pattern (node_graph.c), reverse Cuthill-McKee (rcm.c) for the
 * incomplete factor. Not installed.
 */
#ifndef COREPCG_ORDER_H
#define COREPCG_ORDER_H

#include "base.h"

/* The node graph of a pattern whose unknowns come in node groups, as the
 * orderings take it: vertex g (0 <= g < G) stands for pattern column
 * col[g] (col NULL: column g), whose rows are i[p[c]] .. i[p[c + 1] - 1];
 * its neighbours are vertex[r] for those rows r (vertex NULL: r itself),
 * in the rows' order, rows with vertex -1 left out, self loops too when
 * no_self. The rows of one vertex must be adjacent (sorted rows of node
 * groups are): each is listed once. With gp (G + 1) and gi the graph is
 * written; with gi NULL (and gp NULL) only counted. Returns its number of
 * entries, gp[G]. */
long cpg_node_graph(const int *p, const int *i, const int *col, int G,
                    const int *vertex, int no_self, int *gp, int *gi);

/* Reverse Cuthill-McKee of the graph gp (G + 1), gi (no self loops): per
 * connected component from a pseudo-peripheral vertex, neighbours by
 * increasing degree; order[k] = the vertex placed k-th. O(G + edges)
 * however many components: *visits counts the vertex and edge visits, so
 * that tests can check it. Returns OK or ERR_NO_MEMORY. */
int cpg_order_rcm(const int *gp, const int *gi, int G, int *order,
                  long *visits);

#endif /* COREPCG_ORDER_H */

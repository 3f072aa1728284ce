/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * order.h -- orderings of node graphs (order/): reverse Cuthill-McKee
 * (rcm.c) for the incomplete factor. Not installed.
 */
#ifndef COREPCG_ORDER_H
#define COREPCG_ORDER_H

#include "base.h"

/* Reverse Cuthill-McKee of the graph gp (G + 1), gi (no self loops): per
 * connected component from a pseudo-peripheral vertex, neighbours by
 * increasing degree; order[k] = the vertex placed k-th. O(G + edges)
 * however many components: *visits counts the vertex and edge visits, so
 * that tests can check it. Returns OK or ERR_NO_MEMORY. */
int cpg_order_rcm(const int *gp, const int *gi, int G, int *order,
                  long *visits);

#endif /* COREPCG_ORDER_H */

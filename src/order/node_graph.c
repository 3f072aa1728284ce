/* SPDX-License-Identifier: GPL-2.0-or-later */
/* node_graph.c -- the node graph an ordering works on (order.h), from a
 * pattern whose rows and columns come in node groups: the one builder of
 * the CHOLMOD node orderings (factor_analyse.c, projected.c) and of icpcg's RCM
 * (ichol_symbolic.c). */
#include "order.h"

long cpg_node_graph(const int *p, const int *i, const int *col, int G,
                    const int *vertex, int no_self, int *gp, int *gi)
{
    long t = 0;
    for (int g = 0; g < G; g++) {
        int c = col ? col[g] : g, last = -1;
        if (gp)
            gp[g] = (int)t;
        for (int k = p[c]; k < p[c + 1]; k++) {
            int h = vertex ? vertex[i[k]] : i[k];
            /* a vertex's rows are adjacent: listed once */
            if (h >= 0 && h != last && !(no_self && h == g)) {
                if (gi)
                    gi[t] = h;
                t++;
            }
            last = h;
        }
    }
    if (gp)
        gp[G] = (int)t;
    return t;
}

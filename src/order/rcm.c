/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rcm.c -- reverse Cuthill-McKee of a node graph (order.h): per connected
 * component from a pseudo-peripheral vertex (George & Liu), neighbours by
 * increasing degree, in O(vertices + edges). icpcg's fill-1 ordering. */
#include "order.h"

#include <limits.h>
#include <stdlib.h>

static void *xmalloc(size_t count, size_t size)
{
    return malloc((count ? count : 1) * size);
}

/* Breadth-first levels from root over the vertices not yet placed
 * (done[v] == 0) and not yet visited by this search (mark[v] != stamp);
 * fills queue, returns its length; *depth = number of levels. Touches
 * only root's component: O(its vertices + edges). */
static int bfs(const int *gp, const int *gi, const char *done, int root,
               int *mark, int stamp, int *queue, int *level, int *depth,
               long *visits)
{
    int head = 0, tail = 0;
    queue[tail++] = root;
    mark[root] = stamp;
    level[root] = 0;
    int maxl = 0;
    while (head < tail) {
        int v = queue[head++];
        *visits += 1 + gp[v + 1] - gp[v];
        for (int k = gp[v]; k < gp[v + 1]; k++) {
            int h = gi[k];
            if (mark[h] != stamp && !done[h]) {
                mark[h] = stamp;
                level[h] = level[v] + 1;
                if (level[h] > maxl)
                    maxl = level[h];
                queue[tail++] = h;
            }
        }
    }
    *depth = maxl + 1;
    return tail;
}

static int by_key(const void *a, const void *b)
{
    long u = *(const long *)a, v = *(const long *)b;
    return (u > v) - (u < v);
}

/* order[first..last) by increasing degree, ties in their current order.
 * keys: scratch of last - first. */
static void sort_by_degree(const int *gp, int *order, int first, int last,
                           long *keys)
{
    int len = last - first;
    if (len > 16) { /* a hub: O(d log d), not O(d^2) */
        for (int a = 0; a < len; a++) { /* degree, then vertex: stable */
            int v = order[first + a];
            keys[a] = (long)(gp[v + 1] - gp[v]) << 32 | (unsigned)v;
        }
        qsort(keys, (size_t)len, sizeof(long), by_key);
        for (int a = 0; a < len; a++)
            order[first + a] = (int)(keys[a] & 0xffffffffL);
        return;
    }
    for (int a = first + 1; a < last; a++) {
        int v = order[a], dv = gp[v + 1] - gp[v], b = a;
        while (b > first && gp[order[b - 1] + 1] - gp[order[b - 1]] > dv) {
            order[b] = order[b - 1];
            b--;
        }
        order[b] = v;
    }
}

int cpg_order_rcm(const int *gp, const int *gi, int G, int *order,
                  long *visits)
{
    int *mark = calloc((size_t)G + 1, sizeof(int));
    char *done = calloc((size_t)G + 1, 1);
    int *queue = xmalloc((size_t)G, sizeof(int));
    int *level = xmalloc((size_t)G, sizeof(int));
    long *keys = xmalloc((size_t)G, sizeof(long));
    if (!mark || !done || !queue || !level || !keys) {
        free(mark);
        free(done);
        free(queue);
        free(level);
        free(keys);
        return COREPCG_ERR_NO_MEMORY;
    }
    int stamp = 0, count = 0;
    *visits = 0;
    for (int s = 0; s < G; s++) {
        if (done[s])
            continue;
        /* pseudo-peripheral root (George & Liu): restart from the
         * thinnest vertex of the last level while the eccentricity grows,
         * at most 8 searches of this component */
        int root = s, depth = 0;
        for (int iter = 0; iter < 8; iter++) {
            int d;
            int len = bfs(gp, gi, done, root, mark, ++stamp, queue, level,
                          &d, visits);
            if (iter > 0 && d <= depth)
                break;
            depth = d;
            int best = root, bestdeg = INT_MAX;
            for (int q = len - 1; q >= 0 && level[queue[q]] == d - 1; q--) {
                int v = queue[q], deg = gp[v + 1] - gp[v];
                if (deg < bestdeg) {
                    bestdeg = deg;
                    best = v;
                }
            }
            if (best == root)
                break;
            root = best;
        }
        /* Cuthill-McKee from root: neighbours by increasing degree */
        int head = count;
        order[count++] = root;
        done[root] = 1;
        while (head < count) {
            int v = order[head++], first = count;
            *visits += 1 + gp[v + 1] - gp[v];
            for (int k = gp[v]; k < gp[v + 1]; k++) {
                int h = gi[k];
                if (!done[h]) {
                    done[h] = 1;
                    order[count++] = h;
                }
            }
            sort_by_degree(gp, order, first, count, keys);
        }
    }
    for (int a = 0, b = G - 1; a < b; a++, b--) {
        int t = order[a];
        order[a] = order[b];
        order[b] = t;
    }
    free(mark);
    free(done);
    free(queue);
    free(level);
    free(keys);
    return COREPCG_OK;
}

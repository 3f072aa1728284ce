/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ichol.c -- block incomplete Cholesky of A~ (ichol.h): node orderings,
 * the pattern of F (A~'s blocks, optionally with level-1 block fill), the
 * numeric factorisation with Manteuffel shifts on breakdown, and the
 * triangular solves by unrolled 3x3 blocks. */
#include "ichol.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cpg_ichol_default_opts(cpg_ichol_opts *o)
{
    o->fill = 0;
    o->ordering = CPG_ICHOL_RCM;
    o->single = 1;
    o->keep_matrix = 1;
    o->pivot_tol = 1e-8;
    o->shift_first = 1e-3;
    o->shift_growth = 4;
    o->max_retries = 6;
}

const char *cpg_ichol_ordering_name(cpg_ichol_ordering o)
{
    switch (o) {
    case CPG_ICHOL_NATURAL: return "natural";
    case CPG_ICHOL_RCM: return "rcm";
    default: return "unknown";
    }
}

void cpg_ichol_free(cpg_ichol *ic)
{
    if (!ic)
        return;
    free(ic->ap);
    free(ic->ai);
    free(ic->perm);
    free(ic->pos);
    free(ic->off);
    free(ic->dim);
    free(ic->dsrc);
    free(ic->lp);
    free(ic->li);
    free(ic->lx);
    free(ic->lxf);
    free(ic->dinv);
    free(ic->diag);
    free(ic->colbuf);
    free(ic->w);
    free(ic->mp);
    free(ic->mi);
    free(ic->mq);
    free(ic->ms);
    free(ic->mx);
    free(ic->md);
    free(ic->w2);
    memset(ic, 0, sizeof *ic);
}

static void *xmalloc(size_t count, size_t size)
{
    return malloc((count ? count : 1) * size);
}

/* ------------------------------------------------------------ orderings */

/* The node graph over positions 0..G-1 of the free nodes (natural order),
 * without self loops: gp (G + 1), gi. */
static int node_graph(const cpg_ichol *ic, const int *nat_of_node,
                      const int *node_of_nat, int **gp_out, int **gi_out)
{
    int G = ic->G;
    int *gp = xmalloc((size_t)G + 1, sizeof(int));
    long len = 0;
    for (int g = 0; g < G; g++) {
        int J = node_of_nat[g];
        len += ic->ap[J + 1] - ic->ap[J];
    }
    int *gi = xmalloc((size_t)len, sizeof(int));
    if (!gp || !gi) {
        free(gp);
        free(gi);
        return COREPCG_ERR_NO_MEMORY;
    }
    int t = 0;
    for (int g = 0; g < G; g++) {
        int J = node_of_nat[g];
        gp[g] = t;
        for (int k = ic->ap[J]; k < ic->ap[J + 1]; k++) {
            int h = nat_of_node[ic->ai[k]];
            if (h >= 0 && h != g)
                gi[t++] = h;
        }
    }
    gp[G] = t;
    *gp_out = gp;
    *gi_out = gi;
    return COREPCG_OK;
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

/* perm (G) and pos (N) for the requested ordering. */
static int make_ordering(cpg_ichol *ic)
{
    int N = ic->N, G = ic->G, rc = COREPCG_OK;
    int *nat_of_node = xmalloc((size_t)N, sizeof(int));
    int *node_of_nat = xmalloc((size_t)G, sizeof(int));
    int *order = xmalloc((size_t)G, sizeof(int));
    int *gp = NULL, *gi = NULL;
    if (!nat_of_node || !node_of_nat || !order) {
        rc = COREPCG_ERR_NO_MEMORY;
        goto done;
    }
    int g = 0;
    for (int J = 0; J < N; J++) {
        nat_of_node[J] = ic->ap[J + 1] > ic->ap[J] ? g : -1;
        if (nat_of_node[J] >= 0)
            node_of_nat[g++] = J;
    }
    if (ic->opts.ordering == CPG_ICHOL_NATURAL || G == 0) {
        for (int k = 0; k < G; k++)
            order[k] = k;
    } else {
        rc = node_graph(ic, nat_of_node, node_of_nat, &gp, &gi);
        if (rc == COREPCG_OK)
        {
            long visits;
            rc = cpg_order_rcm(gp, gi, G, order, &visits);
        }
        if (rc != COREPCG_OK)
            goto done;
    }
    for (int J = 0; J < N; J++)
        ic->pos[J] = -1;
    for (int k = 0; k < G; k++) {
        ic->perm[k] = node_of_nat[order[k]];
        ic->pos[ic->perm[k]] = k;
    }
done:
    free(nat_of_node);
    free(node_of_nat);
    free(order);
    free(gp);
    free(gi);
    return rc;
}

/* -------------------------------------------------------- F's pattern */

/* Sorts rows[0..n) ascending, carrying src when not NULL (columns are
 * short: insertion sort). */
static void sort_column(int *rows, int *src, int n)
{
    for (int a = 1; a < n; a++) {
        int r = rows[a], s = src ? src[a] : 0, b = a;
        while (b > 0 && rows[b - 1] > r) {
            rows[b] = rows[b - 1];
            if (src)
                src[b] = src[b - 1];
            b--;
        }
        rows[b] = r;
        if (src)
            src[b] = s;
    }
}

/* The strictly lower blocks of A~ in position order: op, oi, os (src).
 * Also dsrc, the diagonal block of each position. */
static int lower_pattern(cpg_ichol *ic, int **op_out, int **oi_out,
                         int **os_out)
{
    int G = ic->G;
    int *op = calloc((size_t)G + 1, sizeof(int));
    if (!op)
        return COREPCG_ERR_NO_MEMORY;
    long total = 0;
    for (int J = 0; J < G; J++) {
        int node = ic->perm[J], cnt = 0;
        ic->dsrc[J] = -1;
        for (int t = ic->ap[node]; t < ic->ap[node + 1]; t++) {
            int I = ic->pos[ic->ai[t]];
            if (I > J)
                cnt++;
            else if (I == J)
                ic->dsrc[J] = t;
        }
        total += cnt;
        op[J + 1] = (int)total;
        if (total > INT_MAX / 9) {
            free(op);
            return COREPCG_ERR_TOO_LARGE;
        }
    }
    int *oi = xmalloc((size_t)total, sizeof(int));
    int *os = xmalloc((size_t)total, sizeof(int));
    if (!oi || !os) {
        free(op);
        free(oi);
        free(os);
        return COREPCG_ERR_NO_MEMORY;
    }
    for (int J = 0; J < G; J++) {
        int node = ic->perm[J], q = op[J];
        for (int t = ic->ap[node]; t < ic->ap[node + 1]; t++) {
            int I = ic->pos[ic->ai[t]];
            if (I > J) {
                oi[q] = I;
                os[q++] = t;
            }
        }
        sort_column(oi + op[J], os + op[J], op[J + 1] - op[J]);
    }
    *op_out = op;
    *oi_out = oi;
    *os_out = os;
    return COREPCG_OK;
}

/* F's pattern: the lower pattern (fill 0) or with its level-1 fill: block
 * (I, J), I > J, whenever some K < J has (I, K) and (J, K) in A~. */
static int factor_pattern(cpg_ichol *ic, const int *op, const int *oi)
{
    int G = ic->G, rc = COREPCG_ERR_NO_MEMORY;
    int *rp = NULL, *ri = NULL, *mark = NULL, *cnt = NULL;
    ic->lp = calloc((size_t)G + 1, sizeof(int));
    if (!ic->lp)
        return COREPCG_ERR_NO_MEMORY;
    if (ic->opts.fill == 0) {
        memcpy(ic->lp, op, sizeof(int) * ((size_t)G + 1));
        ic->li = xmalloc((size_t)op[G], sizeof(int));
        if (!ic->li)
            return COREPCG_ERR_NO_MEMORY;
        memcpy(ic->li, oi, sizeof(int) * (size_t)op[G]);
        return COREPCG_OK;
    }
    /* rows of the lower pattern: row J lists the K < J with (J, K) */
    rp = calloc((size_t)G + 1, sizeof(int));
    ri = xmalloc((size_t)op[G], sizeof(int));
    mark = xmalloc((size_t)G, sizeof(int));
    cnt = xmalloc((size_t)G, sizeof(int));
    if (!rp || !ri || !mark || !cnt)
        goto done;
    for (int q = 0; q < op[G]; q++)
        rp[oi[q] + 1]++;
    for (int J = 0; J < G; J++)
        rp[J + 1] += rp[J];
    memcpy(cnt, rp, sizeof(int) * (size_t)G);
    for (int K = 0; K < G; K++)
        for (int q = op[K]; q < op[K + 1]; q++)
            ri[cnt[oi[q]]++] = K;
    for (int J = 0; J < G; J++)
        mark[J] = -1;
    /* two passes: count, then fill */
    for (int pass = 0; pass < 2; pass++) {
        long total = 0;
        for (int J = 0; J < G; J++) {
            int start = (int)total;
            if (pass)
                start = ic->lp[J];
            int n = 0;
            for (int q = op[J]; q < op[J + 1]; q++) {
                mark[oi[q]] = J;
                if (pass)
                    ic->li[start + n] = oi[q];
                n++;
            }
            for (int a = rp[J]; a < rp[J + 1]; a++) {
                int K = ri[a];
                for (int q = op[K]; q < op[K + 1]; q++) {
                    int I = oi[q];
                    if (I > J && mark[I] != J) {
                        mark[I] = J;
                        if (pass)
                            ic->li[start + n] = I;
                        n++;
                    }
                }
            }
            if (pass) {
                sort_column(ic->li + start, NULL, n);
            } else {
                total += n;
                ic->lp[J + 1] = (int)total;
                if (total > INT_MAX / 9) {
                    rc = COREPCG_ERR_TOO_LARGE;
                    goto done;
                }
            }
        }
        if (!pass) {
            ic->li = xmalloc((size_t)total, sizeof(int));
            if (!ic->li)
                goto done;
            for (int J = 0; J < G; J++)
                mark[J] = -1;
        }
    }
    rc = COREPCG_OK;
done:
    free(rp);
    free(ri);
    free(mark);
    free(cnt);
    return rc;
}

/* ------------------------------------------------------------- analyse */

int cpg_ichol_analyse(cpg_ichol *ic, const cpg_rmat *At,
                      const cpg_ichol_opts *opts, char *msg)
{
    if (!ic || !At || !At->A || !At->u || !At->p || !opts)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "incomplete Cholesky analyse: NULL argument");
    memset(ic, 0, sizeof *ic);
    if (opts->fill < 0 || opts->fill > 1)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "incomplete Cholesky: fill level %d (0 or 1)",
                        opts->fill);
    if ((int)opts->ordering < 0 || opts->ordering >= CPG_ICHOL_ORDERING_COUNT)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "incomplete Cholesky: unknown ordering %d",
                        (int)opts->ordering);
    if (!(opts->pivot_tol >= 0 && opts->pivot_tol < 1) ||
        !(opts->shift_first > 0) || !(opts->shift_growth > 1) ||
        !isfinite(opts->shift_first) || !isfinite(opts->shift_growth) ||
        opts->max_retries < 0 || opts->max_retries > 100)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "incomplete Cholesky: shift settings out of range "
                        "(pivot_tol in [0, 1), shift_first > 0, "
                        "shift_growth > 1, max_retries in [0, 100])");
    double t0 = cpg_now();
    ic->opts = *opts;
    const int N = At->A->nb, B = At->p[N];
    ic->N = N;
    int rc = COREPCG_ERR_NO_MEMORY;
    int *op = NULL, *oi = NULL, *os = NULL;
    ic->ap = xmalloc((size_t)N + 1, sizeof(int));
    ic->ai = xmalloc((size_t)B, sizeof(int));
    ic->pos = xmalloc((size_t)N, sizeof(int));
    if (!ic->ap || !ic->ai || !ic->pos)
        goto fail;
    memcpy(ic->ap, At->p, sizeof(int) * ((size_t)N + 1));
    for (int t = 0; t < B; t++)
        ic->ai[t] = At->A->i[At->src[t]];
    int G = 0;
    for (int J = 0; J < N; J++)
        G += At->p[J + 1] > At->p[J];
    ic->G = G;
    ic->perm = xmalloc((size_t)G, sizeof(int));
    ic->off = xmalloc((size_t)G, sizeof(int));
    ic->dim = xmalloc((size_t)G, 1);
    ic->dsrc = xmalloc((size_t)G, sizeof(int));
    ic->dinv = xmalloc(9 * (size_t)G, sizeof(double));
    ic->diag = xmalloc(3 * (size_t)G, sizeof(double));
    ic->w = xmalloc(3 * (size_t)G, sizeof(double));
    if (!ic->perm || !ic->off || !ic->dim || !ic->dsrc || !ic->dinv ||
        !ic->diag || !ic->w)
        goto fail;
    rc = make_ordering(ic);
    if (rc != COREPCG_OK)
        goto fail;
    rc = lower_pattern(ic, &op, &oi, &os);
    if (rc != COREPCG_OK)
        goto fail;
    for (int k = 0; k < G; k++)
        if (ic->dsrc[k] < 0) {
            rc = cpg_fail(msg, COREPCG_ERR_ARGUMENT, "incomplete Cholesky: "
                          "node %d has no diagonal block", ic->perm[k]);
            goto fail_msg;
        }
    rc = factor_pattern(ic, op, oi);
    if (rc != COREPCG_OK)
        goto fail;
    long nb = ic->lp[G], longest = 0;
    for (int k = 0; k < G; k++)
        if (ic->lp[k + 1] - ic->lp[k] > longest)
            longest = ic->lp[k + 1] - ic->lp[k];
    rc = COREPCG_ERR_NO_MEMORY;
    ic->lx = xmalloc(9 * (size_t)nb, sizeof(double));
    ic->colbuf = xmalloc(9 * (size_t)longest, sizeof(double));
    if (!ic->lx || !ic->colbuf)
        goto fail;
    if (opts->single) {
        ic->lxf = xmalloc(9 * (size_t)nb, sizeof(float));
        if (!ic->lxf)
            goto fail;
    }
    /* A~'s lower blocks: where each sits in F (rows sorted in both) */
    ic->mp = op;
    ic->mi = oi;
    ic->ms = os;
    op = oi = os = NULL;
    ic->mq = xmalloc((size_t)ic->mp[G], sizeof(int));
    if (!ic->mq)
        goto fail;
    for (int k = 0; k < G; k++) {
        int q = ic->lp[k];
        for (int t = ic->mp[k]; t < ic->mp[k + 1]; t++) {
            while (ic->li[q] != ic->mi[t])
                q++;
            ic->mq[t] = q++;
        }
    }
    if (opts->keep_matrix) {
        ic->mx = xmalloc(9 * (size_t)ic->mp[G], sizeof(double));
        ic->md = xmalloc(9 * (size_t)G, sizeof(double));
        ic->w2 = xmalloc(3 * (size_t)G, sizeof(double));
        if (!ic->mx || !ic->md || !ic->w2)
            goto fail;
    }
    ic->info.fill = opts->fill;
    ic->info.ordering = opts->ordering;
    ic->info.single = opts->single;
    ic->info.nodes = G;
    ic->info.blocks = nb;
    ic->info.fill_blocks = nb - ic->mp[G];
    ic->info.breakdown_node = -1;
    ic->info.time_analyse_s = cpg_now() - t0;
    return COREPCG_OK;
fail:
    cpg_fail(msg, rc, "incomplete Cholesky analyse failed: %s",
             corepcg_strerror(rc));
fail_msg:
    free(op);
    free(oi);
    free(os);
    cpg_ichol_free(ic);
    return rc;
}

int cpg_ichol_keeps(const cpg_ichol *ic, const cpg_rmat *At)
{
    if (!ic || !ic->ap || !At || !At->A || At->A->nb != ic->N)
        return 0;
    const int N = ic->N;
    if (memcmp(ic->ap, At->p, sizeof(int) * ((size_t)N + 1)) != 0)
        return 0;
    for (int t = 0; t < At->p[N]; t++)
        if (ic->ai[t] != At->A->i[At->src[t]])
            return 0;
    return 1;
}

/* ------------------------------------------------------------- numeric */

/* A~'s block (dI x dJ, leading dimension dI) padded into 3x3. */
static void load_block(const double *x, int dI, int dJ, double *P)
{
    if (dI == 3 && dJ == 3) {
        memcpy(P, x, 9 * sizeof(double));
        return;
    }
    memset(P, 0, 9 * sizeof(double));
    for (int c = 0; c < dJ; c++)
        for (int a = 0; a < dI; a++)
            P[3 * c + a] = x[dI * c + a];
}

/* D (3x3, lower triangle read) -> D^-1 (all 9) by Cholesky. The scalar
 * pivots divided by diag (the unshifted A~ diagonal) must exceed tol for
 * the first d of them. Returns 0, 1 (breakdown) or 2 (not finite); *ratio
 * gets the smallest pivot ratio. */
static int pivot_inverse(double *D, const double *diag, int d, double tol,
                         double *ratio)
{
    double p0 = D[0];
    double r = p0 / diag[0];
    *ratio = r;
    if (!isfinite(p0))
        return 2;
    if (!(r > tol))
        return *ratio = r, 1;
    double l00 = sqrt(p0), l10 = D[1] / l00, l20 = D[2] / l00;
    double p1 = D[4] - l10 * l10;
    double r1 = d > 1 ? p1 / diag[1] : 1;
    if (!isfinite(p1))
        return 2;
    if (r1 < r)
        r = r1;
    if (!(r1 > tol))
        return *ratio = r1, 1;
    double l11 = sqrt(p1), l21 = (D[5] - l20 * l10) / l11;
    double p2 = D[8] - l20 * l20 - l21 * l21;
    double r2 = d > 2 ? p2 / diag[2] : 1;
    if (!isfinite(p2))
        return 2;
    if (r2 < r)
        r = r2;
    if (!(r2 > tol))
        return *ratio = r2, 1;
    double l22 = sqrt(p2);
    double y00 = 1 / l00, y11 = 1 / l11, y22 = 1 / l22;
    double y10 = -l10 * y00 * y11;
    double y21 = -l21 * y11 * y22;
    double y20 = -(l20 * y00 + l21 * y10) * y22;
    /* D^-1 = Y^T Y, Y = L^-1 lower */
    double i00 = y00 * y00 + y10 * y10 + y20 * y20;
    double i10 = y11 * y10 + y21 * y20;
    double i20 = y22 * y20;
    double i11 = y11 * y11 + y21 * y21;
    double i21 = y22 * y21;
    double i22 = y22 * y22;
    D[0] = i00; D[1] = i10; D[2] = i20;
    D[3] = i10; D[4] = i11; D[5] = i21;
    D[6] = i20; D[7] = i21; D[8] = i22;
    *ratio = r;
    return 0;
}

/* F = W S, S symmetric (all 9 stored). Column-major 3x3. */
static inline void mul_ws(const double *W, const double *S, double *F)
{
    for (int c = 0; c < 3; c++) {
        const double s0 = S[3 * c], s1 = S[3 * c + 1], s2 = S[3 * c + 2];
        F[3 * c] = W[0] * s0 + W[3] * s1 + W[6] * s2;
        F[3 * c + 1] = W[1] * s0 + W[4] * s1 + W[7] * s2;
        F[3 * c + 2] = W[2] * s0 + W[5] * s1 + W[8] * s2;
    }
}

/* T -= F W^T. */
static inline void sub_fwt(double *T, const double *F, const double *W)
{
    for (int c = 0; c < 3; c++) {
        const double w0 = W[c], w1 = W[3 + c], w2 = W[6 + c];
        T[3 * c] -= F[0] * w0 + F[3] * w1 + F[6] * w2;
        T[3 * c + 1] -= F[1] * w0 + F[4] * w1 + F[7] * w2;
        T[3 * c + 2] -= F[2] * w0 + F[5] * w1 + F[8] * w2;
    }
}

/* The lower triangle of T -= F W^T (a diagonal block). */
static inline void sub_fwt_lower(double *T, const double *F, const double *W)
{
    T[0] -= F[0] * W[0] + F[3] * W[3] + F[6] * W[6];
    T[1] -= F[1] * W[0] + F[4] * W[3] + F[7] * W[6];
    T[2] -= F[2] * W[0] + F[5] * W[3] + F[8] * W[6];
    T[4] -= F[1] * W[1] + F[4] * W[4] + F[7] * W[7];
    T[5] -= F[2] * W[1] + F[5] * W[4] + F[8] * W[7];
    T[8] -= F[2] * W[2] + F[5] * W[5] + F[8] * W[8];
}

/* One attempt with shift alpha. Returns 0, 1 (breakdown at *bad), 2 (not
 * finite at *bad) or 3 (a diagonal entry of A~ itself <= 0 at *bad);
 * *minratio the smallest pivot ratio seen. */
static int numeric(cpg_ichol *ic, const cpg_rmat *At, double alpha,
                   int *bad, double *minratio)
{
    const int G = ic->G;
    const int *lp = ic->lp, *li = ic->li;
    const double *ax = At->x;
    ic->loaded = 0;
    double *lx = ic->lx;
    /* values: A~ (+ alpha diag) padded into D and F */
    for (int k = 0; k < G; k++) {
        double *D = ic->dinv + 9L * k;
        int d = ic->dim[k];
        load_block(ax + 9L * ic->dsrc[k], d, d, D);
        for (int a = 0; a < 3; a++) {
            if (a >= d)
                D[4 * a] = 1;
            ic->diag[3 * k + a] = a < d ? D[4 * a] : 1;
            /* an SPD A~ has a positive diagonal: no shift can help */
            if (!(D[4 * a] > 0)) {
                *bad = ic->perm[k];
                *minratio = -INFINITY;
                return isfinite(D[4 * a]) ? 3 : 2;
            }
        }
        if (ic->md)
            memcpy(ic->md + 9L * k, D, 9 * sizeof(double));
        for (int a = 0; a < 3; a++)
            D[4 * a] *= 1 + alpha;
    }
    if (ic->opts.fill)
        memset(lx, 0, 9 * sizeof(double) * (size_t)lp[G]);
    for (int k = 0; k < G; k++)
        for (int t = ic->mp[k]; t < ic->mp[k + 1]; t++) {
            double *F = lx + 9L * ic->mq[t];
            load_block(ax + 9L * ic->ms[t], ic->dim[ic->mi[t]], ic->dim[k], F);
            if (ic->mx)
                memcpy(ic->mx + 9L * t, F, 9 * sizeof(double));
        }
    ic->loaded = ic->mx != NULL;
    double rmin = INFINITY;
    for (int k = 0; k < G; k++) {
        double ratio;
        int st = pivot_inverse(ic->dinv + 9L * k, ic->diag + 3L * k,
                               ic->dim[k], ic->opts.pivot_tol, &ratio);
        if (ratio < rmin)
            rmin = ratio;
        if (st) {
            *bad = ic->perm[k];
            *minratio = rmin;
            return st;
        }
        const double *S = ic->dinv + 9L * k;
        const int q0 = lp[k], q1 = lp[k + 1];
        double *Fc = ic->colbuf;
        for (int q = q0; q < q1; q++)
            mul_ws(lx + 9L * q, S, Fc + 9L * (q - q0));
        /* Schur update of the trailing blocks (J, I) with J <= I both in
         * column k, dropped where outside F's pattern */
        for (int s = q0; s < q1; s++) {
            const int J = li[s];
            const double *Ws = lx + 9L * s;
            sub_fwt_lower(ic->dinv + 9L * J, Fc + 9L * (s - q0), Ws);
            int t2 = lp[J];
            const int e2 = lp[J + 1];
            for (int t = s + 1; t < q1 && t2 < e2; t++) {
                const int I = li[t];
                while (t2 < e2 && li[t2] < I)
                    t2++;
                if (t2 < e2 && li[t2] == I)
                    sub_fwt(lx + 9L * t2, Fc + 9L * (t - q0), Ws);
            }
        }
        memcpy(lx + 9L * q0, Fc, sizeof(double) * 9 * (size_t)(q1 - q0));
    }
    *minratio = rmin;
    return 0;
}

int cpg_ichol_factorise(cpg_ichol *ic, const cpg_rmat *At, char *msg)
{
    if (!ic || !At || !At->A || !At->u || !At->x)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "incomplete Cholesky factorise: NULL argument");
    if (!ic->ap)
        return cpg_fail(msg, COREPCG_ERR_STATE,
                        "incomplete Cholesky factorise before analyse");
    if (At->A->nb != ic->N || At->p[ic->N] != ic->ap[ic->N])
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "incomplete Cholesky "
                        "factorise: A~ is not the pattern analysed");
    double t0 = cpg_now();
    for (int k = 0; k < ic->G; k++) {
        int node = ic->perm[k];
        ic->off[k] = At->u->off[node];
        ic->dim[k] = (unsigned char)At->u->ndof[node];
        if (ic->dim[k] == 0 || ic->dim[k] > 3)
            return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "incomplete Cholesky "
                            "factorise: node %d has ndof %d, not the "
                            "pattern analysed", node, ic->dim[k]);
    }
    cpg_ichol_info *inf = &ic->info;
    inf->factorised = 0;
    inf->shift = 0;
    inf->retries = 0;
    inf->breakdown_node = -1;
    inf->breakdown_ratio = 0;
    inf->min_pivot_ratio = INFINITY;
    double alpha = 0;
    int bad = -1, st = 0;
    for (int attempt = 0; attempt <= ic->opts.max_retries; attempt++) {
        alpha = attempt == 0 ? 0
              : ic->opts.shift_first * pow(ic->opts.shift_growth, attempt - 1);
        double ratio;
        st = numeric(ic, At, alpha, &bad, &ratio);
        inf->min_pivot_ratio = ratio;
        if (st == 0)
            break;
        if (attempt == 0) {
            inf->breakdown_node = bad;
            inf->breakdown_ratio = ratio;
        }
        if (st >= 2 || attempt == ic->opts.max_retries)
            break;
        inf->retries++;
    }
    inf->time_factor_s = cpg_now() - t0;
    if (st == 2)
        return cpg_fail(msg, COREPCG_ERR_NOT_FINITE, "incomplete Cholesky: "
                        "NaN or Inf in the pivot of node %d", bad);
    if (st == 3)
        return cpg_fail(msg, COREPCG_ERR_NOT_SPD, "the reduced matrix A~ is "
                        "not positive definite: a diagonal entry of node %d "
                        "is <= 0", bad);
    if (st == 1)
        return cpg_fail(msg, COREPCG_ERR_IC_BREAKDOWN, "incomplete Cholesky broke "
                        "down at node %d (pivot ratio %.3g) and still at "
                        "node %d with shift %.3g after %d retries",
                        inf->breakdown_node, inf->breakdown_ratio, bad, alpha,
                        inf->retries);
    inf->shift = alpha;
    inf->factorised = 1;
    if (ic->lxf) {
        long n9 = 9L * ic->lp[ic->G];
        for (long q = 0; q < n9; q++)
            ic->lxf[q] = (float)ic->lx[q];
    }
    return COREPCG_OK;
}

/* --------------------------------------------------------------- apply */

/* The two sweeps for F of type T: w <- D^-1 (I + F)^-1 w (forward, F's
 * columns scattered in increasing order), then w <- (I + F)^-T w (backward,
 * the same columns gathered in decreasing order): F is read in its storage
 * order both times. */
#define DEFINE_SWEEPS(NAME, T)                                             \
    static void NAME(const cpg_ichol *ic, const T *lx, double *w)          \
    {                                                                      \
        const int G = ic->G;                                               \
        const int *lp = ic->lp, *li = ic->li;                              \
        const double *dinv = ic->dinv;                                     \
        for (int k = 0; k < G; k++) {                                      \
            double *wk = w + 3L * k;                                       \
            const double y0 = wk[0], y1 = wk[1], y2 = wk[2];               \
            for (int q = lp[k]; q < lp[k + 1]; q++) {                      \
                const T *F = lx + 9L * q;                                  \
                double *wi = w + 3L * li[q];                               \
                wi[0] -= F[0] * y0 + F[3] * y1 + F[6] * y2;                \
                wi[1] -= F[1] * y0 + F[4] * y1 + F[7] * y2;                \
                wi[2] -= F[2] * y0 + F[5] * y1 + F[8] * y2;                \
            }                                                              \
            const double *S = dinv + 9L * k;                               \
            wk[0] = S[0] * y0 + S[3] * y1 + S[6] * y2;                     \
            wk[1] = S[1] * y0 + S[4] * y1 + S[7] * y2;                     \
            wk[2] = S[2] * y0 + S[5] * y1 + S[8] * y2;                     \
        }                                                                  \
        for (int k = G - 1; k >= 0; k--) {                                 \
            double *wk = w + 3L * k;                                       \
            double x0 = wk[0], x1 = wk[1], x2 = wk[2];                     \
            for (int q = lp[k]; q < lp[k + 1]; q++) {                      \
                const T *F = lx + 9L * q;                                  \
                const double *wi = w + 3L * li[q];                         \
                x0 -= F[0] * wi[0] + F[1] * wi[1] + F[2] * wi[2];          \
                x1 -= F[3] * wi[0] + F[4] * wi[1] + F[5] * wi[2];          \
                x2 -= F[6] * wi[0] + F[7] * wi[1] + F[8] * wi[2];          \
            }                                                              \
            wk[0] = x0;                                                    \
            wk[1] = x1;                                                    \
            wk[2] = x2;                                                    \
        }                                                                  \
    }

DEFINE_SWEEPS(sweeps_double, double)
DEFINE_SWEEPS(sweeps_float, float)

int cpg_ichol_apply(void *ctx, const double *in, double *out)
{
    cpg_ichol *ic = ctx;
    if (!ic || !in || !out || !ic->info.factorised)
        return COREPCG_ERR_STATE;
    const int G = ic->G;
    const int *off = ic->off;
    const unsigned char *dim = ic->dim;
    double *w = ic->w;
    for (int k = 0; k < G; k++) {
        const double *v = in + off[k];
        double *wk = w + 3L * k;
        int d = dim[k];
        wk[0] = v[0];
        wk[1] = d > 1 ? v[1] : 0;
        wk[2] = d > 2 ? v[2] : 0;
    }
    if (ic->lxf)
        sweeps_float(ic, ic->lxf, w);
    else
        sweeps_double(ic, ic->lx, w);
    for (int k = 0; k < G; k++) {
        double *v = out + off[k];
        const double *wk = w + 3L * k;
        int d = dim[k];
        v[0] = wk[0];
        if (d > 1)
            v[1] = wk[1];
        if (d > 2)
            v[2] = wk[2];
    }
    return COREPCG_OK;
}

/* y = A~ x in the padded order: each lower block B (row I, column k)
 * gives y_I += B x_k and y_k += B^T x_I. */
void cpg_ichol_matvec(void *ctx, const double *in, double *out)
{
    cpg_ichol *ic = ctx;
    if (!ic || !in || !out || !ic->loaded)
        return;
    const int G = ic->G;
    const int *mp = ic->mp, *mi = ic->mi, *off = ic->off;
    const unsigned char *dim = ic->dim;
    const double *mx = ic->mx, *md = ic->md;
    double *x = ic->w2, *y = ic->w;
    for (int k = 0; k < G; k++) {
        const double *v = in + off[k];
        double *xk = x + 3L * k;
        int d = dim[k];
        xk[0] = v[0];
        xk[1] = d > 1 ? v[1] : 0;
        xk[2] = d > 2 ? v[2] : 0;
    }
    memset(y, 0, 3 * sizeof(double) * (size_t)G);
    for (int k = 0; k < G; k++) {
        const double *xk = x + 3L * k, *D = md + 9L * k;
        const double x0 = xk[0], x1 = xk[1], x2 = xk[2];
        double y0 = D[0] * x0 + D[3] * x1 + D[6] * x2;
        double y1 = D[1] * x0 + D[4] * x1 + D[7] * x2;
        double y2 = D[2] * x0 + D[5] * x1 + D[8] * x2;
        for (int t = mp[k]; t < mp[k + 1]; t++) {
            const double *B = mx + 9L * t;
            const double *xi = x + 3L * mi[t];
            double *yi = y + 3L * mi[t];
            yi[0] += B[0] * x0 + B[3] * x1 + B[6] * x2;
            yi[1] += B[1] * x0 + B[4] * x1 + B[7] * x2;
            yi[2] += B[2] * x0 + B[5] * x1 + B[8] * x2;
            y0 += B[0] * xi[0] + B[1] * xi[1] + B[2] * xi[2];
            y1 += B[3] * xi[0] + B[4] * xi[1] + B[5] * xi[2];
            y2 += B[6] * xi[0] + B[7] * xi[1] + B[8] * xi[2];
        }
        double *yk = y + 3L * k;
        yk[0] += y0;
        yk[1] += y1;
        yk[2] += y2;
    }
    for (int k = 0; k < G; k++) {
        double *v = out + off[k];
        const double *yk = y + 3L * k;
        int d = dim[k];
        v[0] = yk[0];
        if (d > 1)
            v[1] = yk[1];
        if (d > 2)
            v[2] = yk[2];
    }
}

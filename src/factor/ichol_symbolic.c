/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ichol_symbolic.c -- the analysis of the block incomplete Cholesky of A~
 * (ichol.h): the node ordering (reverse Cuthill-McKee from order/; the
 * nodes' own in a test build), the pattern of F (A~'s blocks, optionally
 * with level-1 block fill) and every buffer the factorisation and the
 * sweeps use. Depends only on A~'s block pattern and which nodes are
 * free. */
#include "ichol.h"
#include "order.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cpg_ichol_default_opts(cpg_ichol_opts *o)
{
    o->fill = 0;
    o->compensate = CPG_ICHOL_COMP_ON_BREAKDOWN;
    o->ordering = CPG_ICHOL_RCM;
    o->pivot_tol = 1e-8;
    o->shift_first = 1e-3;
    o->shift_growth = 4;
    o->max_retries = 6;
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
    cpg_ichol_numbers_free(&ic->num);
    cpg_ichol_numbers_free(&ic->spare);
    free(ic->lxf);
    free(ic->mp);
    free(ic->mi);
    free(ic->mq);
    free(ic->ms);
    cpg_lower_free(&ic->lower);
    memset(ic, 0, sizeof *ic);
}

static void *xmalloc(size_t count, size_t size)
{
    return malloc((count ? count : 1) * size);
}

/* ------------------------------------------------------------ ordering */

/* The node graph over positions 0..G-1 of the free nodes (natural order),
 * without self loops: gp (G + 1), gi. */
static int node_graph(const cpg_ichol *ic, const int *nat_of_node,
                      const int *node_of_nat, int **gp_out, int **gi_out)
{
    int G = ic->G;
    long len = cpg_node_graph(ic->ap, ic->ai, node_of_nat, G, nat_of_node, 1,
                              NULL, NULL);
    int *gp = xmalloc((size_t)G + 1, sizeof(int));
    int *gi = xmalloc((size_t)len, sizeof(int));
    if (!gp || !gi) {
        free(gp);
        free(gi);
        return COREPCG_ERR_NO_MEMORY;
    }
    cpg_node_graph(ic->ap, ic->ai, node_of_nat, G, nat_of_node, 1, gp, gi);
    *gp_out = gp;
    *gi_out = gi;
    return COREPCG_OK;
}

/* 1 when the nodes keep their own order: a test build's
 * CPG_ICHOL_NATURAL. */
static int keeps_node_order(const cpg_ichol_opts *o)
{
#ifdef COREPCG_TEST_BUILD
    return o->ordering == CPG_ICHOL_NATURAL;
#else
    (void)o;
    return 0;
#endif
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
    if (keeps_node_order(&ic->opts) || G == 0) {
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
/* Column J of the level-1 pattern: A~'s lower rows of J (op, oi) and the
 * rows I > J of every column K < J coupled to J (rows of the lower
 * pattern: rp, ri), each once (mark[I] == J after); written to out
 * unsorted when out is not NULL. Returns their count. */
static int level1_column(const int *op, const int *oi, const int *rp,
                         const int *ri, int J, int *mark, int *out)
{
    int n = 0;
    for (int q = op[J]; q < op[J + 1]; q++) {
        mark[oi[q]] = J;
        if (out)
            out[n] = oi[q];
        n++;
    }
    for (int a = rp[J]; a < rp[J + 1]; a++) {
        int K = ri[a];
        for (int q = op[K]; q < op[K + 1]; q++) {
            int I = oi[q];
            if (I > J && mark[I] != J) {
                mark[I] = J;
                if (out)
                    out[n] = I;
                n++;
            }
        }
    }
    return n;
}

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
    /* two passes: count, then fill */
    for (int J = 0; J < G; J++)
        mark[J] = -1;
    long total = 0;
    for (int J = 0; J < G; J++) {
        total += level1_column(op, oi, rp, ri, J, mark, NULL);
        ic->lp[J + 1] = (int)total;
        if (total > INT_MAX / 9) {
            rc = COREPCG_ERR_TOO_LARGE;
            goto done;
        }
    }
    ic->li = xmalloc((size_t)total, sizeof(int));
    if (!ic->li)
        goto done;
    for (int J = 0; J < G; J++)
        mark[J] = -1;
    for (int J = 0; J < G; J++) {
        int n = level1_column(op, oi, rp, ri, J, mark, ic->li + ic->lp[J]);
        sort_column(ic->li + ic->lp[J], NULL, n);
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

/* 1 for a compensation policy this build has (cpg_ichol_comp). */
static int compensation_known(int c)
{
#ifdef COREPCG_TEST_BUILD
    if (c == CPG_ICHOL_COMP_ALWAYS)
        return 1;
#endif
    return c == CPG_ICHOL_COMP_NEVER || c == CPG_ICHOL_COMP_ON_BREAKDOWN;
}

/* The options' ranges: OK, or ERR_ARGUMENT with msg. */
static int check_opts(const cpg_ichol_opts *opts, char *msg)
{
    if (opts->fill < 0 || opts->fill > 1)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "incomplete Cholesky: fill level %d (0 or 1)",
                        opts->fill);
    if (!compensation_known(opts->compensate))
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "incomplete Cholesky: unknown compensation %d",
                        opts->compensate);
    if (opts->ordering != CPG_ICHOL_RCM && !keeps_node_order(opts))
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
    return COREPCG_OK;
}

/* A~'s block pattern copied (ap, ai), the free nodes counted (G) and the
 * per-node arrays of the factorisation: OK or ERR_NO_MEMORY. */
static int alloc_nodes(cpg_ichol *ic, const cpg_rmat *At)
{
    const int N = At->A->nb, B = At->p[N];
    ic->N = N;
    ic->ap = xmalloc((size_t)N + 1, sizeof(int));
    ic->ai = xmalloc((size_t)B, sizeof(int));
    ic->pos = xmalloc((size_t)N, sizeof(int));
    if (!ic->ap || !ic->ai || !ic->pos)
        return COREPCG_ERR_NO_MEMORY;
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
    return ic->perm && ic->off && ic->dim && ic->dsrc
               ? COREPCG_OK
               : COREPCG_ERR_NO_MEMORY;
}

int cpg_ichol_numbers_alloc(const cpg_ichol *ic, cpg_ichol_numbers *v)
{
    const int G = ic->G;
    long nb = ic->lp[G], longest = 0;
    for (int k = 0; k < G; k++)
        if (ic->lp[k + 1] - ic->lp[k] > longest)
            longest = ic->lp[k + 1] - ic->lp[k];
    memset(v, 0, sizeof *v);
    v->lx = cpg_malloc_huge(9 * (size_t)nb, sizeof(double));
    /* dinv and (alloc_values) lxf one entry more, zero: the AVX2 sweeps
     * read a block's third column 4 wide (kernels/ichol_sweeps.c) */
    v->dinv = xmalloc(9 * (size_t)G + 1, sizeof(double));
    v->diag = xmalloc(3 * (size_t)G, sizeof(double));
    v->colbuf = xmalloc(9 * (size_t)longest, sizeof(double));
    if (v->lx && v->dinv && v->diag && v->colbuf) {
        v->dinv[9 * (size_t)G] = 0;
        return COREPCG_OK;
    }
    cpg_ichol_numbers_free(v);
    return COREPCG_ERR_NO_MEMORY;
}

void cpg_ichol_numbers_free(cpg_ichol_numbers *v)
{
    free(v->lx);
    free(v->dinv);
    free(v->diag);
    free(v->colbuf);
    memset(v, 0, sizeof *v);
}

/* The factor's numbers and F's float copy, for F's pattern (lp, li): OK
 * or ERR_NO_MEMORY. */
static int alloc_values(cpg_ichol *ic)
{
    size_t nb = (size_t)ic->lp[ic->G];
    ic->lxf = cpg_malloc_huge(9 * nb + 1, sizeof(float));
    if (!ic->lxf)
        return COREPCG_ERR_NO_MEMORY;
    ic->lxf[9 * nb] = 0;
    ic->avx2 = cpg_have_avx2();
    return cpg_ichol_numbers_alloc(ic, &ic->num);
}

/* Where each of A~'s lower blocks (mp, mi) sits in F (mq; rows sorted in
 * both), and A~'s lower triangle kept for icpcg's product
 * (cpg_lower_apply_padded): OK or ERR_NO_MEMORY. */
static int map_lower_blocks(cpg_ichol *ic)
{
    const int G = ic->G;
    ic->mq = xmalloc((size_t)ic->mp[G], sizeof(int));
    if (!ic->mq)
        return COREPCG_ERR_NO_MEMORY;
    for (int k = 0; k < G; k++) {
        int q = ic->lp[k];
        for (int t = ic->mp[k]; t < ic->mp[k + 1]; t++) {
            while (ic->li[q] != ic->mi[t])
                q++;
            ic->mq[t] = q++;
        }
    }
    return cpg_lower_alloc(&ic->lower, G, ic->mp, ic->mi, ic->off, ic->dim);
}

int cpg_ichol_analyse(cpg_ichol *ic, const cpg_rmat *At,
                      const cpg_ichol_opts *opts, char *msg)
{
    if (!ic || !At || !At->A || !At->u || !At->p || !opts)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "incomplete Cholesky analyse: NULL argument");
    memset(ic, 0, sizeof *ic);
    int rc = check_opts(opts, msg);
    if (rc != COREPCG_OK)
        return rc;
    double t0 = cpg_now();
    ic->opts = *opts;
    int *op = NULL, *oi = NULL, *os = NULL;
    rc = alloc_nodes(ic, At);
    if (rc == COREPCG_OK)
        rc = make_ordering(ic);
    if (rc != COREPCG_OK)
        goto fail;
    const int G = ic->G;
    /* offsets and sizes of At's system, refreshed by every factorise: the
     * kept product may fill its answer with NaN before one */
    for (int k = 0; k < G; k++) {
        ic->off[k] = At->u->off[ic->perm[k]];
        ic->dim[k] = (unsigned char)At->u->ndof[ic->perm[k]];
    }
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
    if (rc == COREPCG_OK)
        rc = alloc_values(ic);
    if (rc != COREPCG_OK)
        goto fail;
    ic->mp = op;
    ic->mi = oi;
    ic->ms = os;
    op = oi = os = NULL;
    rc = map_lower_blocks(ic);
    if (rc != COREPCG_OK)
        goto fail;
    ic->info.fill = opts->fill;
    ic->info.ordering = opts->ordering;
    ic->info.nodes = G;
    ic->info.blocks = ic->lp[G];
    ic->info.fill_blocks = ic->lp[G] - ic->mp[G];
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

long cpg_ichol_entries(const cpg_ichol *ic)
{
    long entries = 0;
    for (int k = 0; k < ic->G; k++) {
        entries += ic->dim[k] * (ic->dim[k] + 1) / 2;
        for (int p = ic->lp[k]; p < ic->lp[k + 1]; p++)
            entries += (long)ic->dim[ic->li[p]] * ic->dim[k];
    }
    return entries;
}

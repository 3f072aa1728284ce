/* SPDX-License-Identifier: GPL-2.0-or-later */
/* method_direct.c -- CHOLMOD's Cholesky factorisation: the direct baseline
 * (Ye et al. sec. 4). It factorises S A S + D (I - S) on A's own pattern
 * (projected.h), whose inverse on range(S) is that of A~ = U^T A U: the
 * analysis and the factor's storage are kept while contacts come and go,
 * as corePCG keeps its core's, so that the two compare fairly. The answer
 * is x = S (Ap^-1 b^) + (I - S) z. */
#include "method.h"
#include "projected.h"

#include <string.h>

typedef struct direct_state {
    cpg_proj full;       /* S A S + D (I - S), analysed once per mesh */
    cholmod_common cm;   /* full's: started at analyse with the settings'
                            factor kind, finished in clear */
    int cm_started;
    cpg_fwork work;
} direct_state;

static void direct_clear(void *state)
{
    direct_state *st = state;
    cpg_proj_free(&st->full, st->cm_started ? &st->cm : NULL);
    if (st->cm_started)
        cholmod_finish(&st->cm);
    cpg_fwork_free(&st->work);
    memset(st, 0, sizeof *st);
}

static int direct_analyse(void *state, const cpg_ctx *ctx)
{
    direct_state *st = state;
    const cpg_sys *s = ctx->sys;
    int rc = cpg_factor_start_natural(&st->cm, ctx->set->factor, ctx->msg);
    if (rc != COREPCG_OK)
        return rc;
    st->cm_started = 1;
    rc = cpg_fwork_alloc(&st->work, ctx, 3 * s->A.nb, 0);
    if (rc != COREPCG_OK)
        return rc;
    double t = cpg_now();
    rc = cpg_proj_analyse(&st->full, &s->A, NULL, ctx->set->ordering,
                          &st->cm, ctx->msg);
    ctx->rec->time_analyze_s = cpg_now() - t;
    return rc;
}

/* Only A's block pattern matters: not which nodes are constrained. */
static int direct_same_pattern(void *state, const cpg_ctx *ctx,
                               const cpg_sys *next)
{
    (void)state;
    return cpg_sys_same_blocks(ctx->sys, next);
}

static int direct_factorise(void *state, const cpg_ctx *ctx)
{
    /* A~'s size changes with the ndof even when the analysis holds */
    ctx->rec->nnz_reduced = cpg_reduced_nnz(ctx->sys);
    direct_state *st = state;
    const cpg_sys *s = ctx->sys;
    double t = cpg_now();
    cpg_proj_values(&st->full, &s->A, &s->u, 0);
    ctx->rec->time_reduce_s += cpg_now() - t;
    t = cpg_now();
    int rc = cpg_proj_factorise(&st->full, &s->u, "A on the free directions",
                                COREPCG_ERR_NOT_SPD, &st->cm, ctx->msg);
    ctx->rec->time_factor_s = cpg_now() - t;
    const cpg_factor *f = &st->full.fac;
    ctx->rec->nnz_factor = cpg_factor_nnz(f);
    ctx->rec->factor_flops = f->flops;
    ctx->rec->ordering = cpg_factor_ordering(f);
    ctx->rec->factor_supernodal = f->supernodal;
    return rc;
}

static int direct_solve(void *state, const cpg_ctx *ctx, const double *b,
                        const double *y, double *x, int *iterations)
{
    (void)y;
    direct_state *st = state;
    *iterations = 0;
    if (cpg_fwork_rhs(&st->work, ctx->sys, b, x))
        return COREPCG_OK;
    /* CHOLMOD's solve runs on the host: so do the CPU's vectors */
    cpg_fwork *w = &st->work;
    int rc = cpg_factor_solve(&st->full.fac, w->bd, w->x, &st->cm);
    if (rc != COREPCG_OK)
        return cpg_fail(ctx->msg, rc, "CHOLMOD solve failed: %s",
                        corepcg_strerror(rc));
    cpg_fwork_finish(ctx->sys, w->x);
    w->vec->from_device(3 * ctx->sys->A.nb, w->x, x);
    return COREPCG_OK;
}

static void direct_factor_size(const void *state, double *flops, double *nnz)
{
    const direct_state *st = state;
    *flops = st->full.fac.flops;
    *nnz = (double)cpg_factor_nnz(&st->full.fac);
}

/* What it reports: its factorisation (report.c). */
static const cpg_report_item report[] = {CPG_CHOLMOD_ITEMS};

const cpg_method_ops cpg_direct_ops = {
    .state_size = sizeof(direct_state),
    .report = report,
    .report_count = (int)(sizeof report / sizeof report[0]),
    .analyse = direct_analyse,
    .same_pattern = direct_same_pattern,
    .factorise = direct_factorise,
    .solve = direct_solve,
    .clear = direct_clear,
    .factor_size = direct_factor_size,
};

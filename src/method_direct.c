/* SPDX-License-Identifier: GPL-2.0-or-later */
/* method_direct.c -- CHOLMOD's Cholesky factorisation of the reduced
 * system A~: the direct baseline (Ye et al. sec. 4). */
#include "method.h"

#include <string.h>

typedef struct direct_state {
    cholmod_sparse *At;  /* A~ in CSC, lower triangle */
    int values_fresh;
    cpg_factor fac;
    cpg_rwork work;
} direct_state;

static void direct_clear(void *state, cholmod_common *cm)
{
    direct_state *st = state;
    cholmod_free_sparse(&st->At, cm);
    cpg_factor_free(&st->fac, cm);
    cpg_rwork_free(&st->work);
    memset(st, 0, sizeof *st);
}

static void describe_factor(const cpg_factor *f, const cpg_ctx *ctx)
{
    ctx->rec->nnz_factor = cpg_factor_nnz(f);
    ctx->rec->factor_flops = f->L ? f->flops : 0;
    ctx->rec->ordering = f->L ? cpg_factor_ordering(f) : ctx->set->ordering;
    ctx->rec->factor_supernodal = f->L ? f->supernodal : 0;
}

static int direct_analyse(void *state, const cpg_ctx *ctx)
{
    direct_state *st = state;
    const cpg_sys *s = ctx->sys;
    double t = cpg_now();
    st->At = cpg_reduce_pattern(&s->A, &s->u, ctx->cm);
    if (!st->At)
        return cpg_fail(ctx->msg, COREPCG_ERR_NO_MEMORY,
                        "cannot build the reduced matrix (out of memory or "
                        "too many entries)");
    st->values_fresh = 1;
    ctx->rec->time_reduce_s = cpg_now() - t;
    ctx->rec->nnz_reduced = cpg_reduced_nnz(s);
    if (s->u.r > 0) {
        t = cpg_now();
        int rc = cpg_factor_analyze_nodes(&st->fac, st->At, s->u.off, s->u.N,
                                          ctx->set->ordering, ctx->set->factor,
                                          ctx->cm, ctx->msg);
        if (rc != COREPCG_OK)
            return rc;
        ctx->rec->time_analyze_s = cpg_now() - t;
    }
    return cpg_rwork_alloc(&st->work, 3 * s->A.nb, s->u.r, 0, ctx->msg);
}

static int direct_factorise(void *state, const cpg_ctx *ctx)
{
    direct_state *st = state;
    const cpg_sys *s = ctx->sys;
    if (!st->values_fresh) {
        double t = cpg_now();
        cpg_reduce_values(&s->A, &s->u, st->At);
        ctx->rec->time_reduce_s = cpg_now() - t;
    }
    st->values_fresh = 0;
    int rc = COREPCG_OK;
    if (st->fac.L) { /* else r == 0: everything is prescribed */
        double t = cpg_now();
        rc = cpg_factor_numeric(&st->fac, st->At, COREPCG_ERR_NOT_SPD,
                                ctx->cm, ctx->msg);
        ctx->rec->time_factor_s = cpg_now() - t;
        if (rc == COREPCG_ERR_NOT_SPD)
            rc = cpg_not_spd_at_node(ctx, &st->fac, "the reduced matrix A~",
                                     rc);
    }
    describe_factor(&st->fac, ctx);
    return rc;
}

static int direct_solve(void *state, const cpg_ctx *ctx, const double *b,
                        const double *y, double *x, int *iterations)
{
    (void)y;
    direct_state *st = state;
    *iterations = 0;
    if (!cpg_rwork_rhs(&st->work, ctx->sys, b)) {
        int rc = cpg_factor_solve(&st->fac, st->work.bt, st->work.xt, ctx->cm);
        if (rc != COREPCG_OK)
            return cpg_fail(ctx->msg, rc, "CHOLMOD solve failed: %s",
                            corepcg_strerror(rc));
    }
    cpg_rwork_prolong(&st->work, ctx->sys, x);
    return COREPCG_OK;
}

const cpg_method_ops cpg_direct_ops = {
    .state_size = sizeof(direct_state),
    .analyse = direct_analyse,
    .same_pattern = cpg_same_reduced_pattern,
    .factorise = direct_factorise,
    .solve = direct_solve,
    .clear = direct_clear,
};

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* method_corepcg.c -- corePCG (Ye, Webber & Wang sec. 6): PCG on A~
 * preconditioned by the matrix core -- A's diagonal blocks and stretch
 * blocks, reduced with the same U -- factorised once per step by CHOLMOD,
 * so that each preconditioner application is a pair of triangular solves. */
#include "method.h"

#include <stdlib.h>
#include <string.h>

typedef struct core_state {
    cpg_rmat Ar;            /* A~ by node blocks: the PCG products */
    unsigned char *keep;    /* the blocks of A in the core */
    long core_blocks;
    cpg_bmat Acore;         /* those blocks */
    cholmod_sparse *Ct;     /* the reduced core, lower triangle */
    int values_fresh;       /* Ar and Ct hold ctx->sys's values */
    cpg_factor fac;
    cholmod_common *cm;     /* for factor_precond */
    cpg_precond pc;         /* the fallback when the core is not SPD */
    int fell_back;
    cpg_rwork work;
} core_state;

static void core_clear(void *state, cholmod_common *cm)
{
    core_state *st = state;
    cpg_rmat_free(&st->Ar);
    free(st->keep);
    cpg_bmat_free(&st->Acore);
    cholmod_free_sparse(&st->Ct, cm);
    cpg_factor_free(&st->fac, cm);
    cpg_precond_free(&st->pc);
    cpg_rwork_free(&st->work);
    memset(st, 0, sizeof *st);
}

static int factor_precond(void *state, const double *in, double *out)
{
    core_state *st = state;
    return cpg_factor_solve(&st->fac, in, out, st->cm);
}

static int mark_core(const cpg_ctx *ctx, const cpg_sys *s, unsigned char *keep,
                     long *kept, char *msg)
{
    return cpg_core_mark(&s->A, s->num_stretch, s->stretch, ctx->set->core,
                         ctx->set->core_threshold, keep, kept, msg);
}

static int core_analyse(void *state, const cpg_ctx *ctx)
{
    core_state *st = state;
    const cpg_sys *s = ctx->sys;
    st->cm = ctx->cm;
    double t = cpg_now();
    if (cpg_rmat_build(&st->Ar, &s->A, &s->u) != COREPCG_OK)
        return cpg_fail(ctx->msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    st->keep = malloc((size_t)s->A.p[s->A.nb] + 1);
    if (!st->keep)
        return cpg_fail(ctx->msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    int rc = mark_core(ctx, s, st->keep, &st->core_blocks, ctx->msg);
    if (rc != COREPCG_OK)
        return rc;
    if (cpg_bmat_select(&s->A, st->keep, &st->Acore) != COREPCG_OK)
        return cpg_fail(ctx->msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    st->Ct = cpg_reduce_pattern(&st->Acore, &s->u, ctx->cm);
    if (!st->Ct)
        return cpg_fail(ctx->msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    st->values_fresh = 1;
    ctx->rec->time_reduce_s = cpg_now() - t;
    ctx->rec->nnz_reduced = cpg_reduced_nnz(s);
    if (s->u.r > 0) {
        t = cpg_now();
        rc = cpg_factor_analyze_nodes(&st->fac, st->Ct, s->u.off, s->u.N,
                                      ctx->set->ordering, ctx->set->factor,
                                      ctx->cm, ctx->msg);
        if (rc != COREPCG_OK)
            return rc;
        ctx->rec->time_analyze_s = cpg_now() - t;
    }
    return cpg_rwork_alloc(&st->work, 3 * s->A.nb, s->u.r, 1, ctx->msg);
}

/* The core's blocks follow the stretch pairs (or, with core auto, the
 * values): the analysis holds only if they are the same blocks. */
static int core_same_pattern(void *state, const cpg_ctx *ctx,
                             const cpg_sys *next)
{
    core_state *st = state;
    if (!cpg_same_reduced_pattern(state, ctx, next))
        return 0;
    long nb = next->A.p[next->A.nb], kept = 0;
    unsigned char *keep = malloc((size_t)nb + 1);
    if (!keep)
        return 0;
    char why[COREPCG_MSG_SIZE];
    int same = mark_core(ctx, next, keep, &kept, why) == COREPCG_OK &&
               memcmp(keep, st->keep, (size_t)nb) == 0;
    free(keep);
    return same;
}

static int core_factorise(void *state, const cpg_ctx *ctx)
{
    core_state *st = state;
    const cpg_sys *s = ctx->sys;
    st->cm = ctx->cm;
    if (!st->values_fresh) {
        double t = cpg_now();
        cpg_rmat_values(&st->Ar);
        long t2 = 0; /* same blocks kept: copy their new values */
        for (long k = 0; k < s->A.p[s->A.nb]; k++)
            if (st->keep[k])
                memcpy(st->Acore.x + 9 * t2++, s->A.x + 9 * k,
                       9 * sizeof(double));
        cpg_reduce_values(&st->Acore, &s->u, st->Ct);
        ctx->rec->time_reduce_s = cpg_now() - t;
    }
    st->values_fresh = 0;
    cpg_precond_free(&st->pc);
    st->fell_back = 0;
    ctx->rec->nnz_core = (long)cholmod_nnz(st->Ct, ctx->cm);
    ctx->rec->core_blocks = st->core_blocks;
    if (!st->fac.L)
        return COREPCG_OK; /* r == 0: everything is prescribed */
    double t = cpg_now();
    int rc = cpg_factor_numeric(&st->fac, st->Ct, COREPCG_ERR_CORE_NOT_SPD,
                                ctx->cm, ctx->msg);
    ctx->rec->time_factor_s = cpg_now() - t;
    if (rc == COREPCG_ERR_CORE_NOT_SPD)
        rc = cpg_not_spd_at_node(ctx, &st->fac, "the matrix core", rc);
    ctx->rec->nnz_factor = cpg_factor_nnz(&st->fac);
    ctx->rec->factor_flops = st->fac.flops;
    ctx->rec->ordering = cpg_factor_ordering(&st->fac);
    ctx->rec->factor_supernodal = st->fac.supernodal;
    if (rc == COREPCG_ERR_CORE_NOT_SPD && ctx->set->fallback_upcg) {
        rc = cpg_precond_reduced(&st->pc, COREPCG_PRECOND_BLOCK, &st->Ar,
                                 ctx->msg);
        st->fell_back = rc == COREPCG_OK;
    }
    ctx->rec->fell_back = st->fell_back;
    return rc;
}

static int core_solve(void *state, const cpg_ctx *ctx, const double *b,
                      const double *y, double *x, int *iterations)
{
    core_state *st = state;
    int rc = COREPCG_OK;
    *iterations = 0;
    if (!cpg_rwork_rhs(&st->work, ctx->sys, b)) {
        if (st->fell_back)
            rc = cpg_rwork_pcg(&st->work, ctx, cpg_rmat_apply, &st->Ar,
                               cpg_precond_apply, &st->pc, y, iterations);
        else
            rc = cpg_rwork_pcg(&st->work, ctx, cpg_rmat_apply, &st->Ar,
                               factor_precond, st, y, iterations);
    }
    if (rc >= 0)
        cpg_rwork_prolong(&st->work, ctx->sys, x);
    if (rc == COREPCG_OK && st->fell_back)
        rc = COREPCG_FELL_BACK;
    return rc;
}

const cpg_method_ops cpg_corepcg_ops = {
    .state_size = sizeof(core_state),
    .analyse = core_analyse,
    .same_pattern = core_same_pattern,
    .factorise = core_factorise,
    .solve = core_solve,
    .clear = core_clear,
};

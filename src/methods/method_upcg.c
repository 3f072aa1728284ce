/* SPDX-License-Identifier: GPL-2.0-or-later */
/* method_upcg.c -- PCG on the reduced system A~ with a cheap
 * preconditioner (Ye, Webber & Wang's uPCG): Jacobi or node blocks of A~,
 * or the projected preconditioner that makes it MPCG's twin. */
#include "method.h"

#include <string.h>

typedef struct upcg_state {
    cpg_rmat Ar;        /* A~ by node blocks */
    int values_fresh;   /* Ar's values are those of ctx->sys */
    cpg_precond pc;
    cpg_rwork work;
} upcg_state;

static void upcg_clear(void *state)
{
    upcg_state *st = state;
    cpg_rmat_free(&st->Ar);
    cpg_precond_free(&st->pc);
    cpg_rwork_free(&st->work);
    memset(st, 0, sizeof *st);
}

static int upcg_analyse(void *state, const cpg_ctx *ctx)
{
    upcg_state *st = state;
    double t = cpg_now();
    if (cpg_rmat_build(&st->Ar, &ctx->sys->A, &ctx->sys->u) != COREPCG_OK)
        return cpg_fail(ctx->msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    st->values_fresh = 1;
    ctx->rec->time_reduce_s = cpg_now() - t;
    return cpg_rwork_alloc(&st->work, ctx, 3 * ctx->sys->A.nb, ctx->sys->u.r,
                           1, 0);
}

static int upcg_factorise(void *state, const cpg_ctx *ctx)
{
    /* A~'s size changes with the ndof even when the analysis holds */
    ctx->rec->nnz_reduced = cpg_reduced_nnz(ctx->sys);
    upcg_state *st = state;
    if (!st->values_fresh) {
        double t = cpg_now();
        cpg_rmat_values(&st->Ar);
        ctx->rec->time_reduce_s = cpg_now() - t;
    }
    st->values_fresh = 0;
    cpg_precond_free(&st->pc);
    return cpg_precond_reduced(&st->pc, ctx->set->precond, &st->Ar, ctx->msg);
}

static int upcg_solve(void *state, const cpg_ctx *ctx, const double *b,
                      const double *y, double *x, int *iterations)
{
    upcg_state *st = state;
    int rc = COREPCG_OK;
    *iterations = 0;
    if (!cpg_rwork_rhs(&st->work, ctx->sys, b))
        rc = cpg_rwork_pcg(&st->work, ctx, cpg_rmat_apply, &st->Ar,
                           cpg_precond_apply, &st->pc, y, iterations);
    if (rc >= 0)
        cpg_rwork_prolong(&st->work, ctx->sys, x);
    return rc;
}

const cpg_method_ops cpg_upcg_ops = {
    .state_size = sizeof(upcg_state),
    .analyse = upcg_analyse,
    .same_pattern = cpg_same_reduced_pattern,
    .factorise = upcg_factorise,
    .solve = upcg_solve,
    .clear = upcg_clear,
};

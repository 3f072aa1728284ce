/* SPDX-License-Identifier: GPL-2.0-or-later */
/* full_solve.c -- what the methods on the full system with the filter S
 * share at solve time (Ascher & Boxerman's corrected MPCG): b^ =
 * S (b - A (I - S) z), the loop from x0 = S y + (I - S) z, and the answer
 * put back on the constraints. */
#include "method.h"
#include "vec_cpu.h"

#include <stdlib.h>
#include <string.h>

int cpg_fwork_alloc(cpg_fwork *w, int n, int iterate, char *msg)
{
    memset(w, 0, sizeof *w);
    w->vec = &cpg_vec_cpu; /* the one back end so far */
    w->bd = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    int ok = w->bd != NULL;
    if (ok && iterate)
        ok = cpg_pcg_work_alloc(&w->pcg, n, w->vec) == COREPCG_OK;
    if (!ok) {
        cpg_fwork_free(w);
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    }
    return COREPCG_OK;
}

void cpg_fwork_free(cpg_fwork *w)
{
    free(w->bd);
    cpg_pcg_work_free(&w->pcg);
    memset(w, 0, sizeof *w);
}

int cpg_fwork_rhs(cpg_fwork *w, const cpg_sys *s, const double *b, double *x)
{
    int n = 3 * s->A.nb;
    double *bd = w->bd;
    cpg_bmat_mult_prescribed(&s->A, s->w, bd);
    w->vec->sub(n, b, bd, bd);
    cpg_filter(&s->u, bd);
    if (!cpg_all_zero(bd, n))
        return 0;
    w->vec->copy(n, s->w, x);
    return 1;
}

void cpg_fwork_finish(const cpg_sys *s, double *x)
{
    int n = 3 * s->A.nb;
    cpg_filter(&s->u, x);
    for (int k = 0; k < n; k++)
        x[k] += s->w[k];
}

static void apply_full(void *A, const double *in, double *out)
{
    cpg_bmat_mult(A, in, out);
}

static void apply_filter(void *u, double *v)
{
    cpg_filter(u, v);
}

static void apply_finish(void *s, double *x)
{
    cpg_fwork_finish(s, x);
}

int cpg_fwork_run(cpg_fwork *w, const cpg_ctx *ctx, cpg_precond_fn precond,
                  cpg_precond2_fn precond2, void *precond_ctx,
                  const double *b, const double *bdelta, double delta0,
                  double *x, int *iterations)
{
    const cpg_sys *s = ctx->sys;
    cpg_pcg_problem pb = {
        .n = 3 * s->A.nb, .matvec = apply_full, .matvec_ctx = (void *)&s->A,
        .precond = precond, .precond_ctx = precond_ctx, .precond2 = precond2,
        .filter = apply_filter, .filter_ctx = (void *)&s->u,
        .finish = apply_finish, .finish_ctx = (void *)s,
        .b = b, .bdelta = bdelta, .delta0 = delta0, .tol = ctx->set->tol,
        .stop_residual = ctx->set->stop == COREPCG_STOP_RESIDUAL,
        .max_iter = ctx->set->max_iter,
        .monitor = ctx->monitor, .monitor_user = ctx->monitor_user,
    };
    int rc = cpg_pcg(&pb, &w->pcg, x, iterations, ctx->msg);
    /* Each filtered update leaves round-off along the constrained
     * directions, relative to the size of that update (or of the guess),
     * not of the answer: a large x0 or large intermediate steps would show
     * in the constraint error. Projecting once more puts the answer back
     * on the constraints to round-off of its own size. */
    if (rc >= 0)
        cpg_fwork_finish(s, x);
    return rc;
}

int cpg_fwork_pcg(cpg_fwork *w, const cpg_ctx *ctx, cpg_precond_fn precond,
                  cpg_precond2_fn precond2, void *precond_ctx,
                  const double *b, const double *y, double *x,
                  int *iterations)
{
    const cpg_sys *s = ctx->sys;
    int n = 3 * s->A.nb;
    if (y)
        w->vec->copy(n, y, x);
    else
        w->vec->fill(n, 0, x);
    cpg_fwork_finish(s, x); /* x0 = S y + (I - S) z */
    return cpg_fwork_run(w, ctx, precond, precond2, precond_ctx, b, w->bd, 0,
                         x, iterations);
}

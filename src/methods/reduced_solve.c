/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reduced_solve.c -- what the methods on the reduced system share at solve
 * time (Ye, Webber & Wang eq. 9): b~ = U^T (b - A (I - S) z), PCG on A~
 * from x~0 = U^T y, and x = U x~ + (I - S) z. Every vector is the back
 * end's (w->vec): the caller's b and guess come in, and the answer goes
 * out, through its to_device and from_device, here and nowhere else. */
#include "method.h"

#include <string.h>

int cpg_rwork_alloc(cpg_rwork *w, const cpg_ctx *ctx, int n, int r,
                    int iterate, int G)
{
    size_t rl = (size_t)(r > 0 ? r : 1), nl = (size_t)(n > 0 ? n : 1);
    const cpg_vec_ops *vec = cpg_backend(ctx);
    memset(w, 0, sizeof *w);
    w->vec = vec;
    w->b = vec->alloc(nl);
    w->bt = vec->alloc(rl);
    w->xt = vec->alloc(rl);
    w->tmp = vec->alloc(nl);
    int ok = w->b && w->bt && w->xt && w->tmp;
    if (ok && G > 0) {
        w->pb = vec->alloc(3 * (size_t)G);
        w->px = vec->alloc(3 * (size_t)G);
        ok = w->pb && w->px;
    }
    if (ok && iterate)
        ok = cpg_pcg_work_alloc(&w->pcg, r, vec) == COREPCG_OK;
    if (!ok) {
        cpg_rwork_free(w);
        return cpg_fail(ctx->msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    }
    return COREPCG_OK;
}

void cpg_rwork_free(cpg_rwork *w)
{
    if (w->vec) { /* else never allocated */
        w->vec->free(w->b);
        w->vec->free(w->bt);
        w->vec->free(w->xt);
        w->vec->free(w->tmp);
        w->vec->free(w->pb);
        w->vec->free(w->px);
        cpg_pcg_work_free(&w->pcg);
    }
    memset(w, 0, sizeof *w);
}

int cpg_rwork_rhs(cpg_rwork *w, const cpg_sys *s, const double *b)
{
    int n = 3 * s->A.nb, r = s->u.r;
    w->vec->to_device(n, b, w->b);
    cpg_bmat_mult_prescribed(&s->A, s->w, w->tmp);
    w->vec->sub(n, w->b, w->tmp, w->tmp);
    cpg_restrict(&s->u, w->tmp, w->bt);
    if (r > 0 && !w->vec->all_zero(r, w->bt))
        return 0;
    /* nothing free, or b~ = 0: x~ = 0 exactly, x is the prescribed part */
    w->vec->fill(r > 0 ? r : 1, 0, w->xt);
    return 1;
}

/* PCG on n unknowns from x with ctx's settings: b is also the vector
 * the residual rule measures against. */
static int run_pcg(cpg_rwork *w, const cpg_ctx *ctx, int n, const double *b,
                   double *x, cpg_apply_fn matvec, void *matvec_ctx,
                   cpg_precond_fn precond, void *precond_ctx,
                   int *iterations)
{
    cpg_pcg_problem pb = {
        .n = n, .matvec = matvec, .matvec_ctx = matvec_ctx,
        .precond = precond, .precond_ctx = precond_ctx,
        .b = b, .bdelta = b, .tol = ctx->set->tol,
        .stop_residual = ctx->set->stop == COREPCG_STOP_RESIDUAL,
        .max_iter = ctx->set->max_iter,
        .monitor = ctx->monitor, .monitor_user = ctx->monitor_user,
        .stopped = ctx->stopped,
    };
    return cpg_pcg(&pb, &w->pcg, x, iterations, ctx->msg);
}

/* x~0 = U^T y (y, the caller's, NULL: zero) into w->xt; y comes in
 * through w->tmp. Then b~ and x~0 at unit scale (cpg_unit_scale), whose
 * factor is returned for unscale. */
static double start(cpg_rwork *w, const cpg_sys *s, const double *y)
{
    int r = s->u.r;
    if (y) {
        w->vec->to_device(3 * s->A.nb, y, w->tmp);
        cpg_restrict(&s->u, w->tmp, w->xt);
    } else {
        w->vec->fill(r, 0, w->xt);
    }
    double unit = cpg_unit_scale(w->vec, r, w->bt);
    w->vec->scale(r, unit, w->bt);
    w->vec->scale(r, unit, w->xt);
    return unit;
}

/* b~ and x~ back from unit scale (exact: a power of two). */
static void unscale(cpg_rwork *w, const cpg_sys *s, double unit)
{
    w->vec->scale(s->u.r, 1 / unit, w->bt);
    w->vec->scale(s->u.r, 1 / unit, w->xt);
}

int cpg_rwork_pcg(cpg_rwork *w, const cpg_ctx *ctx, cpg_apply_fn matvec,
                  void *matvec_ctx, cpg_precond_fn precond, void *precond_ctx,
                  const double *y, int *iterations)
{
    double unit = start(w, ctx->sys, y);
    int rc = run_pcg(w, ctx, ctx->sys->u.r, w->bt, w->xt, matvec, matvec_ctx,
                     precond, precond_ctx, iterations);
    unscale(w, ctx->sys, unit);
    return rc;
}

int cpg_rwork_pcg_padded(cpg_rwork *w, const cpg_ctx *ctx,
                         const cpg_padded *pad, cpg_apply_fn matvec,
                         void *matvec_ctx, cpg_precond_fn precond,
                         void *precond_ctx, const double *y, int *iterations)
{
    double unit = start(w, ctx->sys, y);
    cpg_pad(pad->G, pad->off, pad->dim, w->bt, w->pb);
    cpg_pad(pad->G, pad->off, pad->dim, w->xt, w->px);
    int rc = run_pcg(w, ctx, 3 * pad->G, w->pb, w->px, matvec, matvec_ctx,
                     precond, precond_ctx, iterations);
    cpg_unpad(pad->G, pad->off, pad->dim, w->px, w->xt);
    unscale(w, ctx->sys, unit);
    return rc;
}

/* U x~ + (I - S) z on the back end (tmp), then out. */
void cpg_rwork_prolong(const cpg_rwork *w, const cpg_sys *s, double *x)
{
    cpg_prolong(&s->u, w->xt, s->w, w->tmp);
    w->vec->from_device(3 * s->A.nb, w->tmp, x);
}

long cpg_reduced_nnz(const cpg_sys *s)
{
    const cpg_bmat *A = &s->A;
    long nnz = 0;
    for (int J = 0; J < A->nb; J++)
        for (int k = A->p[J]; k < A->p[J + 1]; k++)
            nnz += (long)s->u.ndof[A->i[k]] * s->u.ndof[J];
    return (nnz + s->u.r) / 2;
}

int cpg_same_reduced_pattern(void *state, const cpg_ctx *ctx,
                             const cpg_sys *next)
{
    (void)state;
    return cpg_sys_same_blocks(ctx->sys, next) &&
           cpg_sys_same_ndof(ctx->sys, next);
}

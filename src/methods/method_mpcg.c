/* SPDX-License-Identifier: GPL-2.0-or-later */
/* method_mpcg.c -- modified PCG on the full system with the filter S
 * (Ascher & Boxerman's corrected form, and Baraff & Witkin's original): the
 * baseline everything is measured against, as two methods with two ops
 * tables over one state. Diagonal or 3x3 block preconditioner of A. */
#include "method.h"

#include <string.h>

typedef struct mpcg_state {
    cpg_precond pc;
    cpg_fwork work;     /* n; bd is the vector that defines delta0 */
} mpcg_state;

static void mpcg_clear(void *state)
{
    mpcg_state *st = state;
    cpg_precond_free(&st->pc);
    cpg_fwork_free(&st->work);
    memset(st, 0, sizeof *st);
}

static int mpcg_analyse(void *state, const cpg_ctx *ctx)
{
    mpcg_state *st = state;
    return cpg_fwork_alloc(&st->work, ctx, 3 * ctx->sys->A.nb, 1);
}

/* What the analysis made -- vectors of n -- holds while N does: the
 * preconditioner is rebuilt from A's values by every factorise. */
static int mpcg_same_pattern(void *state, const cpg_ctx *ctx,
                             const cpg_sys *next)
{
    (void)state;
    return ctx->sys->A.nb == next->A.nb;
}

static int mpcg_factorise(void *state, const cpg_ctx *ctx)
{
    mpcg_state *st = state;
    cpg_precond_free(&st->pc);
    return cpg_precond_full(&st->pc, ctx->set->precond, &ctx->sys->A,
                            &ctx->sys->u, ctx->msg);
}

/* v^T P v with P itself, not its inverse: diag(A), or A's 3x3 diagonal
 * blocks with precond block. */
static double forward_dot(const cpg_bmat *A, corepcg_precond kind,
                          const double *v)
{
    double s = 0;
    for (int i = 0; i < A->nb; i++)
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            if (A->i[k] != i)
                continue;
            const double *B = A->x + 9L * k, *vi = v + 3L * i;
            for (int c = 0; c < 3; c++)
                for (int a = 0; a < 3; a++)
                    if (a == c || kind == COREPCG_PRECOND_BLOCK)
                        s += vi[a] * B[3 * c + a] * vi[c];
        }
    return s;
}

/* Baraff & Witkin's original starts from z with delta0 = (S b)^T P (S b)
 * (Ascher & Boxerman sec. 5): P, not P^-1, so its tolerance depends on the
 * units of A. z means its constrained part only (docs/format.md), so "z"
 * is (I - S) z. */
static int bw_solve(void *state, const cpg_ctx *ctx, const double *b,
                    const double *y, double *x, int *iterations)
{
    (void)y; /* the published form always starts from z */
    mpcg_state *st = state;
    cpg_fwork *w = &st->work;
    const cpg_sys *s = ctx->sys;
    int n = 3 * s->A.nb;
    double *sb = w->bd;
    *iterations = 0;
    w->vec->to_device(n, s->w, w->x);
    w->vec->to_device(n, b, w->b);
    w->vec->copy(n, w->b, sb);
    cpg_filter(&s->u, sb);
    cpg_fwork_prescribed(w, s, NULL);
    /* delta0 at the loop's scale: in A's units it is b's squared times
     * A's, and overflows long before the loop's own sums would */
    double unit = cpg_fwork_unit(w, n);
    w->vec->scale(n, unit, sb);
    double delta0 = forward_dot(&s->A, ctx->set->precond, sb);
    w->vec->scale(n, 1 / unit, sb);
    return cpg_fwork_run(w, ctx, cpg_precond_apply, NULL, &st->pc, NULL,
                         delta0, x, iterations);
}

/* The corrected form starts from x0 = S y + (I - S) z with delta0 =
 * b^T P^-1 b^, b^ = S(b - A(I - S)z). */
static int mpcg_solve(void *state, const cpg_ctx *ctx, const double *b,
                      const double *y, double *x, int *iterations)
{
    mpcg_state *st = state;
    *iterations = 0;
    if (cpg_fwork_rhs(&st->work, ctx->sys, b, x))
        return COREPCG_OK;
    return cpg_fwork_pcg(&st->work, ctx, cpg_precond_apply, NULL, &st->pc, y,
                         x, iterations);
}

/* Ascher & Boxerman's corrected MPCG. */
const cpg_method_ops cpg_mpcg_ops = {
    .state_size = sizeof(mpcg_state),
    .analyse = mpcg_analyse,
    .same_pattern = mpcg_same_pattern,
    .factorise = mpcg_factorise,
    .solve = mpcg_solve,
    .clear = mpcg_clear,
};

/* Baraff & Witkin's MPCG: the same state, preconditioner and loop; its
 * own start and stopping rule. */
const cpg_method_ops cpg_mpcg_bw_ops = {
    .state_size = sizeof(mpcg_state),
    .analyse = mpcg_analyse,
    .same_pattern = mpcg_same_pattern,
    .factorise = mpcg_factorise,
    .solve = bw_solve,
    .clear = mpcg_clear,
};

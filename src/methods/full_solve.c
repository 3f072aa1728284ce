/* SPDX-License-Identifier: GPL-2.0-or-later */
/* full_solve.c -- what the methods on the full system with the filter S
 * share at solve time (Ascher & Boxerman's corrected MPCG): b^ =
 * S (b - A (I - S) z), the loop on the free part from x0 = S y, and the
 * answer put back on the constraints. Every vector is the back end's (w->vec):
 * the caller's b and guess come in, and the answer goes out, through its
 * to_device and from_device (Baraff & Witkin's start, method_mpcg.c,
 * brings in its own b and z the same way). */
#include "method.h"

#include <math.h>
#include <string.h>

int cpg_fwork_alloc(cpg_fwork *w, const cpg_ctx *ctx, int n, int iterate)
{
    size_t len = (size_t)(n > 0 ? n : 1);
    const cpg_vec_ops *vec = cpg_backend(ctx);
    memset(w, 0, sizeof *w);
    w->vec = vec;
    w->b = vec->alloc(len);
    w->bd = vec->alloc(len);
    w->x = vec->alloc(len);
    int ok = w->b && w->bd && w->x;
    if (ok && iterate) {
        w->w = vec->alloc(len);
        ok = w->w && cpg_pcg_work_alloc(&w->pcg, n, vec) == COREPCG_OK;
    }
    if (!ok) {
        cpg_fwork_free(w);
        return cpg_fail(ctx->msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    }
    return COREPCG_OK;
}

void cpg_fwork_free(cpg_fwork *w)
{
    if (w->vec) { /* else never allocated */
        w->vec->free(w->b);
        w->vec->free(w->bd);
        w->vec->free(w->x);
        w->vec->free(w->w);
        cpg_pcg_work_free(&w->pcg);
    }
    memset(w, 0, sizeof *w);
}

/* |v|_2 without under- or overflow; v (n) is scratch. */
static double norm_of(const cpg_vec_ops *vec, int n, double *v)
{
    double largest = n > 0 ? vec->amax(n, v) : 0;
    if (!(largest > 0) || !isfinite(largest))
        return largest;
    vec->scale(n, 1 / largest, v);
    return largest * sqrt(vec->dot(n, v, v));
}

void cpg_fwork_prescribed(cpg_fwork *w, const cpg_sys *s, const double *Aw)
{
    int n = 3 * s->A.nb;
    if (Aw)
        w->vec->copy(n, Aw, w->w);
    else
        cpg_bmat_mult_prescribed(&s->A, s->w, w->w);
    cpg_filter(&s->u, w->w);
    w->prescribed = norm_of(w->vec, n, w->w);
}

/* 1 when |b^| is no more than the round-off of S A (I - S) z (w->w is
 * scratch; the norms scaled, as b^ of 1e-211 is no round-off). */
static int bd_at_round_off(cpg_fwork *w, int n)
{
    w->vec->copy(n, w->bd, w->w);
    return norm_of(w->vec, n, w->w) <= CPG_ROUND_OFF * w->prescribed;
}

int cpg_fwork_rhs(cpg_fwork *w, const cpg_sys *s, const double *b, double *x)
{
    int n = 3 * s->A.nb;
    double *bd = w->bd;
    w->vec->to_device(n, b, w->b);
    cpg_bmat_mult_prescribed(&s->A, s->w, bd);
    if (w->w) /* an iterative method's: b^ at the round-off of S A (I - S) z? */
        cpg_fwork_prescribed(w, s, bd);
    w->vec->sub(n, w->b, bd, bd);
    cpg_filter(&s->u, bd);
    /* b^ zero, or only the round-off of subtracting S A (I - S) z (b =
     * A (I - S) z): the loop on the free part would chase that round-off
     * for up to thousands of iterations (an outside review: MPCG 2238,
     * where the old floor stopped it at 1) */
    if (!w->vec->all_zero(n, bd) && !(w->w && bd_at_round_off(w, n)))
        return 0;
    /* the answer is z's constrained part, both the caller's memory */
    if (n > 0)
        memcpy(x, s->w, (size_t)n * sizeof(double));
    return 1;
}

/* x = S x + w: x put on constraints whose prescribed part is w (n). */
static void on_constraints(const cpg_ublocks *u, const double *w, int n,
                           double *x)
{
    cpg_filter(u, x);
    for (int k = 0; k < n; k++)
        x[k] += w[k];
}

void cpg_fwork_finish(const cpg_sys *s, double *x)
{
    on_constraints(&s->u, s->w, 3 * s->A.nb, x);
}

static void apply_full(void *A, const double *in, double *out)
{
    cpg_bmat_mult(A, in, out);
}

static void apply_filter(void *u, double *v)
{
    cpg_filter(u, v);
}

/* The loop's answer on its constraints: (I - S) z at the loop's scale. */
typedef struct scaled_finish {
    const cpg_sys *s;
    const double *w;
} scaled_finish;

static void apply_finish(void *ctx, double *x)
{
    const scaled_finish *f = ctx;
    on_constraints(&f->s->u, f->w, 3 * f->s->A.nb, x);
}

/* The loop's power of two from `largest` (the size of what its residual
 * is made of), kept small enough that b, whose constrained rows S drops
 * and which may be of any size, stays finite at that scale: b's own
 * largest entry counts once it is 2^900 times larger (an outside review:
 * 1e300 on a sliding node's constrained direction overflowed, and the
 * filter's 0 * Inf made NaN). Below that ratio nothing changes. */
static double loop_unit(const cpg_fwork *w, int n, double largest)
{
    double b_max = n > 0 ? w->vec->amax(n, w->b) : 0;
    return cpg_unit_scale_of(fmax(largest, ldexp(b_max, -900)));
}

double cpg_fwork_unit(const cpg_fwork *w, int n)
{
    /* S b and S A (I - S) z, what the start's residual is made of (b
     * alone: 1e300 at a fixed node made the loop "converge" at 1) */
    return loop_unit(w, n, fmax(n > 0 ? w->vec->amax(n, w->bd) : 0, w->prescribed));
}

/* b, b^ and x times factor. */
static void scale_all(cpg_fwork *w, int n, double factor)
{
    w->vec->scale(n, factor, w->b);
    w->vec->scale(n, factor, w->bd);
    w->vec->scale(n, factor, w->x);
}

/* The loop of cpg_fwork_run; free_part: on A x_f = b^ from x_f = S x
 * (cpg_fwork_pcg's), else on A x = b from x on its constraints (Baraff &
 * Witkin's). */
static int run_loop(cpg_fwork *w, const cpg_ctx *ctx, cpg_precond_fn precond,
                    cpg_precond2_fn precond2, void *precond_ctx,
                    const double *bdelta, double delta0, int free_part,
                    double *x, int *iterations)
{
    const cpg_sys *s = ctx->sys;
    int n = 3 * s->A.nb;
    /* the loop at unit scale (cpg_unit_scale): b, bdelta, x0 and the
     * prescribed part by one power of two (delta0 comes at that scale) */
    double unit = bdelta ? loop_unit(w, n, w->vec->amax(n, bdelta))
                         : cpg_fwork_unit(w, n);
    scale_all(w, n, unit);
    /* On A x = b, b - A x's round-off is relative to b^ and to what the
     * prescribed values contribute (b = 0: b^ = -S A (I - S) z; b = A (I
     * - S) z: b^ at its round-off), not to b, whose constrained rows S
     * drops. On the free part it is b^'s alone (0: pb.b's), as on the
     * reduced system: the prescribed part was subtracted once, in b^, so
     * its round-off stays out of every residual (with it in, a residual
     * 1e11 times b^'s stopped at 2e-5 where a direct solve reached 8e-6) */
    double floor_size = free_part ? 0
                                  : hypot(sqrt(w->vec->dot(n, w->bd, w->bd)),
                                          w->prescribed * unit);
    if (!free_part) { /* x's prescribed part, at the loop's scale */
        w->vec->to_device(n, s->w, w->w);
        w->vec->scale(n, unit, w->w);
    }
    scaled_finish finish = {s, w->w};
    cpg_pcg_problem pb = {
        .n = n, .matvec = apply_full, .matvec_ctx = (void *)&s->A,
        .precond = precond, .precond_ctx = precond_ctx, .precond2 = precond2,
        .filter = apply_filter, .filter_ctx = (void *)&s->u,
        .finish = free_part ? apply_filter : apply_finish,
        .finish_ctx = free_part ? (void *)&s->u : (void *)&finish,
        .b = free_part ? w->bd : w->b, .bdelta = bdelta, .delta0 = delta0,
        .floor_size = floor_size,
        .tol = ctx->set->tol,
        .stop_residual = ctx->set->stop == COREPCG_STOP_RESIDUAL,
        .max_iter = ctx->set->max_iter,
        .monitor = ctx->monitor, .monitor_user = ctx->monitor_user,
        .stopped = ctx->stopped,
    };
    int rc = cpg_pcg(&pb, &w->pcg, w->x, iterations, ctx->msg);
    scale_all(w, n, 1 / unit);
    /* Each filtered update leaves round-off along the constrained
     * directions, relative to the size of that update (or of the guess),
     * not of the answer: a large x0 or large intermediate steps would show
     * in the constraint error. Projecting once more puts the answer back
     * on the constraints to round-off of its own size. */
    if (rc >= 0) {
        cpg_fwork_finish(s, w->x);
        w->vec->from_device(pb.n, w->x, x);
    }
    return rc;
}

int cpg_fwork_run(cpg_fwork *w, const cpg_ctx *ctx, cpg_precond_fn precond,
                  cpg_precond2_fn precond2, void *precond_ctx,
                  const double *bdelta, double delta0, double *x,
                  int *iterations)
{
    return run_loop(w, ctx, precond, precond2, precond_ctx, bdelta, delta0, 0,
                    x, iterations);
}

int cpg_fwork_pcg(cpg_fwork *w, const cpg_ctx *ctx, cpg_precond_fn precond,
                  cpg_precond2_fn precond2, void *precond_ctx,
                  const double *y, double *x, int *iterations)
{
    const cpg_sys *s = ctx->sys;
    int n = 3 * s->A.nb;
    if (y)
        w->vec->to_device(n, y, w->x);
    else
        w->vec->fill(n, 0, w->x);
    cpg_filter(&s->u, w->x); /* x_f's start S y; the answer x_f + (I - S) z */
    return run_loop(w, ctx, precond, precond2, precond_ctx, w->bd, 0, 1, x,
                    iterations);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcg.c -- the one preconditioned conjugate gradient loop every iterative
 * method runs: Ye et al.'s uPCG, and with a filter S Ascher & Boxerman's
 * MPCG (whose iterates stay in range(S)). Two stopping rules:
 *  - the residual (default): |r| <= tol |bd|, r the filtered residual of
 *    the recurrence, confirmed at the end against b - A x computed afresh
 *    (the recurrence drifts); |r| is summed in the pass that sums r^T M^-1
 *    r, no product with A. On A~, |U^T v| = |S v| (U orthonormal), so every
 *    method measures |S(b - A x)| / |S(b - A(I - S)z)|, what info reports;
 *  - the papers': delta = r^T M^-1 r <= tol^2 delta0, delta0 = bd^T M^-1
 *    bd (or, when that is zero, the initial delta); Baraff & Witkin's
 *    original MPCG hands in its own delta0.
 * A monitor, when given, is shown after each iteration the value the rule
 * compares with tol (|r| / |bd| or sqrt(delta / delta0)) and may stop the
 * loop there (STOPPED); without one the loop pays a NULL test.
 * Every vector operation and reduction is the back end's (w->vec,
 * vec.h); x, b and bdelta are vectors of that back end too. */
#include "kernels.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* The four vectors in one block (on the CPU large enough for huge pages
 * from about 22k nodes on). */
int cpg_pcg_work_alloc(cpg_pcg_work *w, int n, const cpg_vec_ops *vec)
{
    size_t len = (size_t)(n > 0 ? n : 1);
    w->vec = vec;
    w->r = vec->alloc(4 * len);
    if (!w->r)
        return COREPCG_ERR_NO_MEMORY;
    w->c = w->r + len;
    w->q = w->c + len;
    w->s = w->q + len;
    return COREPCG_OK;
}

void cpg_pcg_work_free(cpg_pcg_work *w)
{
    if (w->r)
        w->vec->free(w->r);
    w->r = w->c = w->q = w->s = NULL;
}

double cpg_unit_scale(const cpg_vec_ops *vec, int n, const double *v)
{
    return cpg_unit_scale_of(n > 0 ? vec->amax(n, v) : 0);
}

double cpg_unit_scale_of(double largest)
{
    if (!(largest > 0) || !isfinite(largest))
        return 1;
    int e;
    frexp(largest, &e); /* largest = f 2^e, f in [0.5, 1) */
    /* within the range whose reciprocals are finite powers of two too */
    e = e < -1000 ? -1000 : e > 1000 ? 1000 : e;
    return ldexp(1.0, -e);
}

/* How often the true residual may send the loop on after the recurrence's
 * residual met the target: each time the loop restarts from the true
 * residual, so a second check rarely fails. */
#define TRUE_RESIDUAL_CHECKS 3

/* No answer's residual in double precision gets much below the round-off
 * of b - A x: |S(b - A x)| <= ROUND_OFF |b| (or pb->floor_size) is as far
 * as iterating goes. A tol
 * below that (--tol 1e-18) is met only by chance; past it the recurrence
 * went on shrinking alone until its direction underflowed and p^T A p = 0
 * read as a breakdown. */
#define ROUND_OFF CPG_ROUND_OFF

/* NOT_CONVERGED, and why into pb->stopped (cpg_pcg clears it first). */
static int not_converged(const cpg_pcg_problem *pb, cpg_pcg_stop why)
{
    if (pb->stopped)
        *pb->stopped = why;
    return COREPCG_NOT_CONVERGED;
}

/* 1 when an answer at round-off is the answer: b^ is itself at the
 * round-off of b (b = A (I - S) z: the free part of the answer is zero to
 * round-off), so no answer does better and any at round-off is right. */
static int b_at_round_off(double reference, double round_off)
{
    return reference <= round_off;
}

/* The end of a loop whose measure (the true |r|^2 or delta) is at
 * round-off, above tol: OK where b^ is itself round-off and tol asked for
 * no more than double precision gives; otherwise NOT_CONVERGED, said so,
 * x the answer as far as it goes. */
static int at_round_off(const cpg_pcg_problem *pb, char *msg, int it, double measure,
                        double reference, double round_off)
{
    if (pb->tol >= ROUND_OFF && b_at_round_off(reference, round_off))
        return COREPCG_OK;
    cpg_fail(msg, COREPCG_NOT_CONVERGED, "the residual reached round-off "
             "(%.2e) after %d iterations, above tol %.2e: double precision "
             "gets no closer on this system", sqrt(measure / reference), it,
             pb->tol);
    return not_converged(pb, CPG_PCG_AT_ROUND_OFF);
}

/* ERR_NAN before the first iteration (what overflowed in `what`), with
 * the guess's size where that is the cause: at unit scale b's largest
 * entry is about 1, and a guess 1e154 times it overflows |r|^2. */
static int not_finite_at_start(const cpg_pcg_problem *pb, const cpg_vec_ops *vec,
                               const double *x, const char *what, char *msg)
{
    double guess = vec->amax(pb->n, x), size = vec->amax(pb->n, pb->b);
    guess /= size > 0 ? size : 1.0;
    if (guess > 1e100)
        return cpg_fail(msg, COREPCG_ERR_NAN, "NaN or Inf before the first "
                        "iteration%s: the guess's largest entry is %.1e times "
                        "the right-hand side's, and its residual overflows (a "
                        "guess this far off is worse than none: pass none)",
                        what, guess);
    return cpg_fail(msg, COREPCG_ERR_NAN, "NaN or Inf before the first iteration%s",
                    what);
}

/* r = S(b - A x) afresh for x as it will be handed out (q is scratch);
 * returns r^T r. */
static double true_residual(const cpg_pcg_problem *pb,
                            const cpg_vec_ops *vec, double *x, double *r,
                            double *q)
{
    if (pb->finish)
        pb->finish(pb->finish_ctx, x);
    pb->matvec(pb->matvec_ctx, x, q);
    vec->sub(pb->n, pb->b, q, r);
    if (pb->filter)
        pb->filter(pb->filter_ctx, r);
    return vec->dot(pb->n, r, r);
}

/* c = M^-1 r filtered (s scratch); returns delta = r^T c, or a failure's
 * code through *rc. */
static double precondition(const cpg_pcg_problem *pb,
                           const cpg_vec_ops *vec, const double *r,
                           double *c, int *rc)
{
    *rc = pb->precond(pb->precond_ctx, r, c);
    if (pb->filter)
        pb->filter(pb->filter_ctx, c);
    return vec->dot(pb->n, r, c);
}

/* The start from x: r = S(b - A x), c = M^-1 r filtered and
 * *delta = r^T c; under the papers' rule *delta0 = bd^T M^-1 bd (s is
 * free scratch here), or the one given. The residual rule measures
 * against |bd| and needs no M^-1 bd: corePCG saves a triangular solve
 * pair a step, icpcg a pair of sweeps. OK or a failure, with msg. */
static int pcg_start(const cpg_pcg_problem *pb, cpg_pcg_work *w,
                     const double *x, double *delta0, double *delta,
                     char *msg)
{
    const int n = pb->n;
    const cpg_vec_ops *vec = w->vec;
    double *r = w->r, *c = w->c, *q = w->q, *s = w->s;
    pb->matvec(pb->matvec_ctx, x, q);
    vec->sub(n, pb->b, q, r);
    if (pb->filter)
        pb->filter(pb->filter_ctx, r);
    int rc = COREPCG_OK;
    *delta0 = pb->delta0;
    const double *bd = pb->stop_residual ? NULL : pb->bdelta;
    if (bd && pb->precond2) {
        rc = pb->precond2(pb->precond_ctx, bd, r, s, c);
    } else {
        if (bd)
            rc = pb->precond(pb->precond_ctx, bd, s);
        if (rc == COREPCG_OK)
            rc = pb->precond(pb->precond_ctx, r, c);
    }
    if (rc != COREPCG_OK)
        return cpg_fail(msg, rc, "the preconditioner failed: %s",
                        corepcg_strerror(rc));
    if (bd)
        *delta0 = vec->dot(n, bd, s);
    if (pb->filter)
        pb->filter(pb->filter_ctx, c);
    *delta = vec->dot(n, r, c);
    if (!isfinite(*delta0) || !isfinite(*delta))
        return not_finite_at_start(pb, vec, x, "", msg);
    if (*delta0 < 0 || *delta < 0)
        return cpg_fail(msg, COREPCG_ERR_BREAKDOWN,
                        "preconditioner is not positive definite "
                        "(r^T M^-1 r = %.3g)", *delta < 0 ? *delta : *delta0);
    return COREPCG_OK;
}

/* What the stopping rule compares with: tol^2 |bd|^2 (residual; rr =
 * |r|^2 at the start) or tol^2 delta0 (the papers'), and into *reference
 * the same without tol^2 (the monitor's scale). A zero reference would ask
 * for an exactly zero residual, reached only by underflow: measure against
 * the initial residual instead (the solver answers a zero reduced
 * right-hand side exactly before getting here). */
static int pcg_target(const cpg_pcg_problem *pb, const cpg_vec_ops *vec,
                      const double *x, double rr, double delta0, double delta,
                      double *target, double *reference, char *msg)
{
    if (pb->stop_residual) {
        double ref = pb->bdelta ? vec->dot(pb->n, pb->bdelta, pb->bdelta)
                                : rr;
        if (!isfinite(rr) || !isfinite(ref))
            return not_finite_at_start(pb, vec, x, " (|r|^2 overflows)", msg);
        *reference = ref > 0 ? ref : rr;
    } else {
        *reference = delta0 > 0 ? delta0 : delta;
    }
    *target = pb->tol * pb->tol * *reference;
    return COREPCG_OK;
}

/* One iteration along c: x += alpha c, r -= alpha A c (then filtered),
 * s = M^-1 r, *delta = r^T s (on entry the last one) and *rr = r^T r;
 * *it counts it. OK or a failure, with msg. */
static int pcg_step(const cpg_pcg_problem *pb, cpg_pcg_work *w, double *x,
                    double *delta, double *rr, int *it, char *msg)
{
    const int n = pb->n;
    const cpg_vec_ops *vec = w->vec;
    double *r = w->r, *c = w->c, *q = w->q, *s = w->s;
    /* c is in range(S), so c^T A c = c^T S A c: q need not be filtered
     * for alpha. r is filtered after its update instead, so that the
     * round-off an early, large step leaves along the constrained
     * directions is dropped at once rather than carried in r^T M^-1 r,
     * where it would outweigh the true residual later and make the
     * iteration diverge (seen with a guess 1e8 times the answer). */
    pb->matvec(pb->matvec_ctx, c, q);
    double cq = vec->dot(n, c, q);
    if (!isfinite(cq))
        return cpg_fail(msg, COREPCG_ERR_NAN,
                        "NaN or Inf in p^T A p at iteration %d", *it + 1);
    if (cq <= 0)
        return cpg_fail(msg, COREPCG_ERR_BREAKDOWN,
                        "p^T A p = %.3g <= 0 at iteration %d: the "
                        "matrix is not positive definite", cq, *it + 1);
    double alpha = *delta / cq;
    vec->cg_update(n, alpha, c, q, x, r);
    if (pb->filter)
        pb->filter(pb->filter_ctx, r);
    int rc = pb->precond(pb->precond_ctx, r, s);
    if (rc != COREPCG_OK)
        return cpg_fail(msg, rc, "the preconditioner failed at iteration "
                        "%d: %s", *it + 1, corepcg_strerror(rc));
    *delta = vec->dot_norm(n, r, s, rr);
    (*it)++;
    if (!isfinite(*delta))
        return cpg_fail(msg, COREPCG_ERR_NAN,
                        "NaN or Inf in the residual at iteration %d", *it);
    if (*delta < 0)
        return cpg_fail(msg, COREPCG_ERR_BREAKDOWN,
                        "r^T M^-1 r = %.3g < 0 at iteration %d: the "
                        "preconditioner is not positive definite", *delta,
                        *it);
    return COREPCG_OK;
}

/* After the loop: OK, or NOT_CONVERGED when the checks ran out with the
 * recurrence's residual below the target and the true one above it: at
 * round-off (round_off: the true |r|^2 no answer gets below) or not,
 * said which, never OK. */
static int pcg_end(const cpg_pcg_problem *pb, cpg_pcg_work *w, double *x,
                   int verified, double target, double reference,
                   double round_off, int it, char *msg)
{
    double rr;
    if (!pb->stop_residual || verified ||
        (rr = true_residual(pb, w->vec, x, w->r, w->q)) <= target)
        return COREPCG_OK;
    if (rr <= round_off)
        return at_round_off(pb, msg, it, rr, reference, round_off);
    cpg_fail(msg, COREPCG_NOT_CONVERGED, "the true residual (%.2e) stays "
             "above tol %.2e after %d iterations: the recurrence drifted "
             "from it (round-off in b - A x on an ill-conditioned system, "
             "or a guess far from the answer)", sqrt(rr / reference), pb->tol,
             it);
    return not_converged(pb, CPG_PCG_DRIFTED);
}

/* 1 when the monitor, shown iteration it and the stopping rule's measure
 * (|r|^2 or delta) as the value compared with tol, asks to stop a solve
 * that would go on (at an iteration that meets tol the solve ends as it
 * would have); msg then says so. */
static int monitor_stops(const cpg_pcg_problem *pb, int it, double measure,
                         double reference, double target, char *msg)
{
    double residual = sqrt(measure / reference);
    if (!pb->monitor(it, residual, pb->monitor_user) || measure <= target)
        return 0;
    cpg_fail(msg, COREPCG_STOPPED, "stopped by the monitor at iteration %d "
             "(residual %.3e, tol %.3e)", it, residual, pb->tol);
    return 1;
}

int cpg_pcg(const cpg_pcg_problem *pb, cpg_pcg_work *w, double *x,
            int *iterations, char *msg)
{
    const int n = pb->n;
    const cpg_vec_ops *vec = w->vec;
    double *r = w->r, *c = w->c, *q = w->q, *s = w->s;
    *iterations = 0;
    if (pb->stopped)
        *pb->stopped = CPG_PCG_NOT_STOPPED;
    double delta0 = 0, delta = 0, target = 0, reference = 0;
    int rc = pcg_start(pb, w, x, &delta0, &delta, msg);
    if (rc != COREPCG_OK)
        return rc;
    double rr = vec->dot(n, r, r);
    rc = pcg_target(pb, vec, x, rr, delta0, delta, &target, &reference, msg);
    if (rc != COREPCG_OK)
        return rc;
    int checks = 0, verified = 1; /* rr is the true residual's */
    /* round-off of the measure: the true |r|^2 (residual rule) or delta
     * (the papers') that no answer gets below */
    double size2 = pb->floor_size > 0 ? pb->floor_size * pb->floor_size
                                      : vec->dot(n, pb->b, pb->b);
    double round_off = ROUND_OFF * ROUND_OFF *
                       (pb->stop_residual ? size2 : reference);
    /* Stopping at that floor is final only where b^ is itself round-off
     * or tol asks for more than double precision gives; otherwise the
     * floor is an estimate (64 eps of the prescribed part was 100 times
     * what a direct solve reached where that part outweighs b^ by 1e11),
     * so the loop goes on from the true residual, and says round-off once
     * the checks ran out. */
    int floor_final = pb->tol < ROUND_OFF || b_at_round_off(reference, round_off);

    int it = 0;
    while ((pb->stop_residual ? rr : delta) > target) {
        if (it >= pb->max_iter) {
            *iterations = it;
            cpg_fail(msg, COREPCG_NOT_CONVERGED, "max_iter reached (%d): the "
                     "stopping rule's measure is %.2e, above tol %.2e", it,
                     sqrt((pb->stop_residual ? rr : delta) / reference), pb->tol);
            return not_converged(pb, CPG_PCG_AT_MAX_ITER);
        }
        if (!pb->stop_residual && delta <= round_off) {
            *iterations = it;
            return at_round_off(pb, msg, it, delta, reference, round_off);
        }
        double delta_old = delta;
        rc = pcg_step(pb, w, x, &delta, &rr, &it, msg);
        if (rc != COREPCG_OK) {
            *iterations = it;
            return rc;
        }
        verified = 0;
        int restart = 0;
        /* checked once the recurrence meets tol, or round-off, whichever
         * comes first (below round-off it would only shrink alone) */
        if (pb->stop_residual && rr <= fmax(target, round_off) &&
            checks < TRUE_RESIDUAL_CHECKS) {
            checks++;
            rr = true_residual(pb, vec, x, r, q);
            if (rr > target && rr <= round_off && floor_final) {
                *iterations = it;
                if (pb->monitor) /* shown its last iteration, as every stop */
                    pb->monitor(it, sqrt(rr / reference), pb->monitor_user);
                return at_round_off(pb, msg, it, rr, reference, round_off);
            }
            if (rr > target) { /* drifted: go on from the true residual */
                delta = precondition(pb, vec, r, c, &rc);
                if (rc != COREPCG_OK) {
                    *iterations = it;
                    return cpg_fail(msg, rc, "the preconditioner failed at "
                                    "iteration %d: %s", it,
                                    corepcg_strerror(rc));
                }
                restart = 1;
            } else {
                verified = 1;
            }
        }
        if (pb->monitor && monitor_stops(pb, it, pb->stop_residual ? rr : delta,
                                         reference, target, msg)) {
            *iterations = it;
            return COREPCG_STOPPED;
        }
        if (verified)
            break;
        /* the checks spent (a drifting recurrence) and the recurrence's
         * residual below round-off: iterating on would only shrink it
         * alone towards underflow (a direction whose p^T A p underflows
         * to 0 reads as a breakdown); pcg_end measures the true one */
        if (pb->stop_residual && checks == TRUE_RESIDUAL_CHECKS &&
            rr <= round_off)
            break;
        if (restart)
            continue;
        double beta = delta / delta_old;
        vec->xpay(n, s, beta, c);
        if (pb->filter)
            pb->filter(pb->filter_ctx, c);
    }
    *iterations = it;
    return pcg_end(pb, w, x, verified, target, reference, round_off, it, msg);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* method_auto.c -- the auto method: per step, the fastest of its
 * candidates (icpcg, corepcg, corrected mpcg), judged from the times this
 * handle measured on earlier steps (auto_model.c decides). Each candidate
 * keeps its own state, set up lazily the first time it runs and kept for
 * as long as its pattern holds, so a re-check costs one step of that
 * method, not a new setup of everything. A candidate that fails (a core
 * that is not positive definite, a breakdown) is set aside until the
 * pattern changes, and the next one runs in its place (FALLBACK). icpcg
 * runs first; on a triangle mesh whose IC(0) breaks down corePCG is
 * probed on the next step, or at a tight tol runs in icpcg's place at
 * once (BREAKDOWN). */
#include "auto_model.h"
#include "method.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The candidates come from the table of methods (registry.c), in the order
 * tried when nothing is measured yet. One of them is the fallback,
 * prepared beside any other choice as the one a solve can switch to:
 * corrected MPCG, whose factorisation is the diagonal of A (O(n)), whose
 * analysis is the PCG vectors, and which runs on any SPD system. */
enum { NCAND = CPG_AUTO_MAX };

typedef struct auto_state {
    int count;                    /* candidates                           */
    corepcg_method cand[NCAND];   /* their methods                        */
    int fallback;                 /* the fallback's index in cand         */
    cpg_auto_model model;
    corepcg_settings set[NCAND];  /* the caller's, with method set        */
    corepcg_settings trial[NCAND]; /* the same, max_iter capped at
                                     CPG_AUTO_TROUBLE_ITERATIONS: for the
                                     first choice, before anything is
                                     timed                               */
    void *sub[NCAND];             /* each candidate's state, or NULL      */
    int analysed[NCAND];          /* sub[k] is analysed for this pattern  */
    int ready[NCAND];             /* sub[k] is factorised for this step   */
    int chosen;                   /* this step's candidate                */
    corepcg_auto_reason why;
    /* each candidate's CHOLMOD factorisation, and its last timed step,
     * from which another's step is expected (expect_complete_factors) */
    struct {
        double flops, nnz;      /* of its factorisation (of one analysed
                                   only, when it has not run yet)        */
        double factor_s;        /* its last factorisation's time         */
        double analyse_s;       /* its analysis's time, once analysed    */
        double solve_s, step_s; /* its last timed step's solve and whole */
    } seen[NCAND];
    double step_s;                /* this step's update time so far       */
    double analyse_s;             /* ... and its candidate's analysis's   */
    double fallback_s;            /* the fallback's factorisation time    */
    double fallback_analyse_s;    /* ... and its analysis's, this step    */
    int timing;                   /* the next solve completes the step    */
} auto_state;

static const cpg_method_ops *ops_of(const auto_state *st, int k)
{
    return cpg_method_ops_of(st->cand[k]);
}

static cpg_ctx sub_ctx(auto_state *st, const cpg_ctx *ctx, int k)
{
    cpg_ctx c = *ctx;
    c.set = &st->set[k];
    return c;
}

/* Before any candidate is timed (a single cold solve) nothing else would
 * catch a first choice that suits this system badly, so while the
 * fallback is prepared it solves within a budget of iterations (none on a
 * triangle mesh: auto_analyse), after which the fallback takes over. A
 * probe, once another candidate has been timed, runs to the caller's
 * max_iter: it costs one step, where handing it to the fallback (MPCG,
 * hundreds of iterations on stiff cloth) would cost more. The fallback
 * itself has the caller's max_iter. */
static cpg_ctx solve_ctx(auto_state *st, const cpg_ctx *ctx, int k)
{
    cpg_ctx c = sub_ctx(st, ctx, k);
    if (cpg_auto_nothing_measured(&st->model) && k != st->fallback &&
        st->ready[st->fallback])
        c.set = &st->trial[k];
    return c;
}

static void drop(auto_state *st, int k)
{
    if (st->sub[k]) {
        ops_of(st, k)->clear(st->sub[k]);
        free(st->sub[k]);
        st->sub[k] = NULL;
    }
    st->analysed[k] = st->ready[k] = 0;
}

static void auto_clear(void *state)
{
    auto_state *st = state;
    for (int k = 0; k < st->count; k++)
        drop(st, k);
    memset(st, 0, sizeof *st);
}

/* 0 when candidate k cannot run on s at all (its ops say so). */
static int possible(const auto_state *st, const cpg_ctx *ctx, int k,
                    const cpg_sys *s)
{
    const cpg_method_ops *ops = ops_of(st, k);
    cpg_ctx c = *ctx;
    c.set = &st->set[k];
    return !ops->possible || ops->possible(&c, s);
}

/* A sign, read from the stretch graph alone, that the system is a triangle
 * mesh: about 3 stretch pairs a node (every edge of the triangles), where
 * a quad grid with springs to its 4 neighbours has 2. */
static int triangulated(const cpg_sys *s)
{
    return s->A.nb > 0 && s->num_stretch >= 2.5 * s->A.nb;
}

#ifdef COREPCG_TEST_BUILD
const cpg_auto_model *cpg_auto_state_model(const void *state, corepcg_method *cand)
{
    const auto_state *st = state;
    for (int k = 0; k < st->count; k++)
        cand[k] = st->cand[k];
    return &st->model;
}
#endif

int cpg_auto_model_from_table(cpg_auto_model *m, corepcg_method *cand, int max)
{
    int fallback;
    int count = cpg_auto_candidates(cand, max, &fallback);
    cpg_auto_model_init(m, count);
    m->fallback = fallback;
    for (int k = 0; k < m->count; k++) {
        const cpg_method_ops *ops = cpg_method_ops_of(cand[k]);
        m->c[k].by_expectation = ops->factor_size != NULL;
        if (ops->trouble_iterations > 0)
            m->c[k].urgent_iterations = ops->trouble_iterations;
    }
    return m->count;
}

/* Auto's own analysis is only the bookkeeping: each candidate analyses
 * the first time it runs on this pattern. */
static int auto_analyse(void *state, const cpg_ctx *ctx)
{
    auto_state *st = state;
    for (int k = 0; k < st->count; k++)
        drop(st, k);
    st->count = cpg_auto_model_from_table(&st->model, st->cand, NCAND);
    st->fallback = st->model.fallback;
    memset(st->seen, 0, sizeof st->seen);
    for (int k = 0; k < st->count; k++) {
        st->set[k] = *ctx->set;
        st->set[k].method = st->cand[k];
        st->trial[k] = st->set[k];
        /* no budget on a triangle mesh: there the fallback, MPCG, takes
         * many times icpcg's iterations (2,802 against 368 on the 224k
         * spring T-shirt at tol 1e-5, 779-1,668 against 150-300 on the
         * stiff T-shirts: docs/benchmark.md, "auto: choosing per step") */
        if (st->trial[k].max_iter > CPG_AUTO_TROUBLE_ITERATIONS &&
            !triangulated(ctx->sys))
            st->trial[k].max_iter = CPG_AUTO_TROUBLE_ITERATIONS;
        if (!possible(st, ctx, k, ctx->sys))
            cpg_auto_impossible(&st->model, k);
    }
    return COREPCG_OK;
}

/* Candidates whose analysis does not hold for next are dropped; auto
 * itself keeps its measurements for as long as the size holds and the
 * same candidates are possible. */
static int auto_same_pattern(void *state, const cpg_ctx *ctx,
                             const cpg_sys *next)
{
    auto_state *st = state;
    if (ctx->sys->A.nb != next->A.nb)
        return 0;
    for (int k = 0; k < st->count; k++)
        if (possible(st, ctx, k, ctx->sys) != possible(st, ctx, k, next))
            return 0;
    int changed = 0;
    for (int k = 0; k < st->count; k++) {
        if (!st->analysed[k])
            continue;
        cpg_ctx c = sub_ctx(st, ctx, k);
        if (!ops_of(st, k)->same_pattern(st->sub[k], &c, next)) {
            drop(st, k);
            changed = 1;
        }
    }
    if (changed)
        cpg_auto_usable_again(&st->model);
    return 1;
}

/* The candidate that takes the step when candidate k's factorisation
 * breaks down (the registry's breakdown rules), or -1. */
static int successor(const auto_state *st, int k)
{
    int m = cpg_breakdown_successor(st->cand[k]);
    for (int j = 0; m >= 0 && j < st->count; j++)
        if ((int)st->cand[j] == m)
            return j;
    return -1;
}

/* On the sign (stiff_triangles), which of the two runs first: corePCG
 * below this tol. Its step is a factorisation whatever the tol, icpcg's
 * iterations grow as tol tightens; on cold single solves of stiff
 * garments the two tied at this tol (docs/benchmark.md, "auto: choosing
 * per step", "The first choice on garments"). The other one is probed
 * on the next step either way, and from then on measured times decide. */
#define CPG_AUTO_CORE_FIRST_TOL 1e-5

/* 1 when candidate k (icpcg) runs first on a triangle mesh at a tol where
 * the sign hands the step to its successor (corePCG): its factorisation
 * then stops at the first breakdown, since the compensated attempt would
 * be thrown away. */
static int successor_on_breakdown(const auto_state *st, const cpg_ctx *ctx,
                                  int k)
{
    int next = successor(st, k);
    return next >= 0 && cpg_auto_nothing_measured(&st->model) &&
           triangulated(ctx->sys) && ctx->set->tol < CPG_AUTO_CORE_FIRST_TOL &&
           st->model.c[next].usable;
}

/* Candidate k's analysis for ctx->sys, if this pattern has none yet;
 * *analyse_s gets its time. */
static int analyse(auto_state *st, const cpg_ctx *ctx, int k, double *analyse_s)
{
    const cpg_method_ops *ops = ops_of(st, k);
    cpg_ctx c = sub_ctx(st, ctx, k);
    double t = cpg_now();
    *analyse_s = 0;
    if (st->analysed[k])
        return COREPCG_OK;
    if (!st->sub[k] && !(st->sub[k] = calloc(1, ops->state_size)))
        return cpg_fail(ctx->msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    int rc = ops->analyse(st->sub[k], &c);
    if (rc < 0) {
        drop(st, k);
        return rc;
    }
    st->analysed[k] = 1;
    ctx->rec->analysis_reused = 0;
    *analyse_s = st->seen[k].analyse_s = cpg_now() - t;
    return COREPCG_OK;
}

/* Analysis (if this pattern has none yet) and factorisation of candidate
 * k for ctx->sys. *analyse_s gets the analysis time: a one-off that the
 * cost of a step leaves out, so that candidates compare by what they cost
 * step after step. */
static int prepare(auto_state *st, const cpg_ctx *ctx, int k,
                   double *analyse_s)
{
    const cpg_method_ops *ops = ops_of(st, k);
    cpg_ctx c = sub_ctx(st, ctx, k);
    int (*factorise)(void *, const cpg_ctx *) =
        successor_on_breakdown(st, ctx, k) ? ops->factorise_until_breakdown
                                           : ops->factorise;
    int rc = analyse(st, ctx, k, analyse_s);
    if (rc < 0)
        return rc;
    rc = factorise(st->sub[k], &c);
    if (rc < 0) {
        drop(st, k); /* what it holds is of no further use */
        return rc;
    }
    if (rc != CPG_FACTOR_STOPPED)
        st->ready[k] = 1;
    if (corepcg_method_reports(st->cand[k]) & COREPCG_REPORT_CHOLMOD) {
        st->seen[k].flops = ctx->rec->factor_flops;
        st->seen[k].nnz = (double)ctx->rec->nnz_factor;
        st->seen[k].factor_s = ctx->rec->time_factor_s;
    }
    return rc;
}

/* A candidate that is one complete factorisation (direct), never run, is
 * expected to cost what a measured CHOLMOD factorisation of another
 * candidate (corePCG's core) says: its analysis tells its flops, the
 * measured factorisation's rate their time. So where the complete
 * factorisation may be the faster, it is probed at once instead of after
 * the prior's hundreds of steps, and from then on the
 * times measured decide; the expectation follows the other's newest
 * measurement until then. Its analysis is kept when it is to run now,
 * else freed (its factor's storage comes with it). */
static void expect_complete_factors(auto_state *st, const cpg_ctx *ctx)
{
    int best = cpg_auto_best(&st->model), from = -1;
    for (int k = 0; k < st->count; k++)
        if (st->model.c[k].measured && st->model.c[k].usable &&
            st->seen[k].flops > 0 &&
            (from < 0 || st->model.c[k].cost_s < st->model.c[from].cost_s))
            from = k;
    if (best < 0 || from < 0)
        return;
    for (int k = 0; k < st->count; k++) {
        const cpg_auto_candidate *c = &st->model.c[k];
        const cpg_method_ops *ops = ops_of(st, k);
        if (c->measured || !c->usable || !ops->factor_size)
            continue;
        /* a complete factor has at least the core's flops: its analysis
         * is made when even those at the measured rate come within reach
         * of the best, as a probe would be (cpg_auto_analysis_due) */
        double least = fmax(st->seen[from].step_s - st->seen[from].solve_s, 0);
        if (!(st->seen[k].flops > 0) &&
            !cpg_auto_analysis_due(&st->model, k, least, st->seen[from].analyse_s))
            continue;
        if (!(st->seen[k].flops > 0)) {
            corepcg_info kept = *ctx->rec;
            double analyse_s;
            int rc = analyse(st, ctx, k, &analyse_s);
            *ctx->rec = kept; /* the step's record is the one that runs */
            if (rc < 0) {
                ctx->msg[0] = '\0';
                cpg_auto_unusable(&st->model, k);
                continue;
            }
            ops->factor_size(st->sub[k], &st->seen[k].flops, &st->seen[k].nnz);
            cpg_auto_spent(&st->model, k, analyse_s);
        }
        double expected = cpg_auto_expect_factored(
            st->seen[from].step_s, st->seen[from].factor_s, st->seen[from].flops,
            st->seen[from].nnz, st->seen[from].solve_s, st->model.c[from].iterations,
            st->seen[k].flops, st->seen[k].nnz);
        cpg_auto_expect(&st->model, k, expected);
        if (!(expected > 0 &&
              expected <= CPG_AUTO_EXPECT_PROBE * st->model.c[best].cost_s))
            drop(st, k);
    }
}

/* Appends "name: why" of a failed candidate to the list in `why`. */
static void note_failure(char *why, corepcg_method m, const char *msg)
{
    size_t len = strlen(why);
    snprintf(why + len, COREPCG_MSG_SIZE - len, "%s%s: %s", len ? "; " : "",
             corepcg_method_name(m), msg);
}

/* Chooses and prepares a candidate, its record starting from base; one
 * that fails is set aside and the next choice runs (FALLBACK). When none
 * works: the first failure's code, every failure's message, and the
 * record base. */
static int choose_and_prepare(auto_state *st, const cpg_ctx *ctx,
                              const corepcg_info *base, double *analyse_s)
{
    int first_rc = COREPCG_OK, fallback = 0;
    char why_failed[COREPCG_MSG_SIZE] = "";
    for (int tries = 0; tries < st->count; tries++) {
        corepcg_auto_reason why;
        int k = cpg_auto_choose(&st->model, &why);
        if (k < 0)
            break;
        *ctx->rec = *base;
        ctx->msg[0] = '\0';
        int rc = prepare(st, ctx, k, analyse_s);
        if (rc >= 0) {
            st->chosen = k;
            st->why = fallback ? COREPCG_AUTO_FALLBACK : why;
            ctx->rec->method_used = st->cand[k];
            ctx->rec->auto_reason = st->why;
            return rc;
        }
        note_failure(why_failed, st->cand[k], ctx->msg);
        if (first_rc == COREPCG_OK)
            first_rc = rc;
        cpg_auto_unusable(&st->model, k);
        fallback = 1;
    }
    *ctx->rec = *base;
    if (first_rc == COREPCG_OK) /* nothing could even be tried */
        return cpg_fail(ctx->msg, COREPCG_ERR_STATE,
                        "auto: no candidate method can run on this system");
    return cpg_fail(ctx->msg, first_rc, "auto: no candidate could run: %s",
                    why_failed);
}

/* The fallback prepared beside this step's choice (not when it is the
 * choice). A fallback that cannot be prepared is left out: the update
 * itself succeeded. */
static void prepare_fallback(auto_state *st, const cpg_ctx *ctx)
{
    st->fallback_s = st->fallback_analyse_s = 0;
    if (st->chosen == st->fallback || !st->model.c[st->fallback].usable)
        return;
    double t = cpg_now(), analyse_s;
    corepcg_info kept = *ctx->rec; /* the choice's record */
    if (prepare(st, ctx, st->fallback, &analyse_s) < 0) {
        ctx->msg[0] = '\0';
    } else {
        st->fallback_s = cpg_now() - t - analyse_s;
        st->fallback_analyse_s = analyse_s;
    }
    int reused = ctx->rec->analysis_reused;
    *ctx->rec = kept;
    ctx->rec->analysis_reused = reused;
}

/* The sign that stiff cloth is meshed with triangles: icpcg, the first
 * choice before anything was timed, met a breakdown on a triangle mesh.
 * Zero fill drops the stiff in-plane couplings that close each triangle
 * (docs/benchmark.md, "IC(0) on triangle meshes"); the core holds exactly
 * them, so corePCG then needs a few iterations where icpcg needs many; on
 * soft cloth, where IC(0) holds, icpcg is the faster (docs/benchmark.md,
 * "auto: choosing per step", "The first choice on garments"). */
static int stiff_triangles(const auto_state *st, const cpg_ctx *ctx)
{
    int k = st->chosen;
    return successor(st, k) >= 0 && cpg_auto_nothing_measured(&st->model) &&
           ops_of(st, k)->broke_down(st->sub[k]) && triangulated(ctx->sys);
}

/* corePCG is prepared and runs this step in icpcg's place, whose
 * factorisation stopped at the breakdown. Returns 1 when it took over; 0
 * (icpcg's record kept, corePCG set aside) when it cannot. */
static int switch_to_successor(auto_state *st, const cpg_ctx *ctx,
                               const corepcg_info *base, double *analyse_s)
{
    int ic = st->chosen, core = successor(st, ic);
    if (core < 0 || !st->model.c[core].usable)
        return 0;
    corepcg_info icpcg_rec = *ctx->rec;
    double icpcg_analyse_s = *analyse_s;
    *ctx->rec = *base;
    if (prepare(st, ctx, core, analyse_s) < 0) {
        /* e.g. a core that is not positive definite: icpcg's factor stands */
        cpg_auto_unusable(&st->model, core);
        *ctx->rec = icpcg_rec;
        *analyse_s = icpcg_analyse_s;
        ctx->msg[0] = '\0';
        return 0;
    }
    /* icpcg's analysis this step counts as much as corePCG's */
    ctx->rec->analysis_reused =
        icpcg_rec.analysis_reused && ctx->rec->analysis_reused;
    st->chosen = core;
    st->why = COREPCG_AUTO_BREAKDOWN;
    ctx->rec->method_used = st->cand[core];
    ctx->rec->auto_reason = st->why;
    cpg_auto_probe_next(&st->model, ic);
    return 1;
}

/* At a looser tol (or when corePCG could not be prepared) icpcg runs this
 * step, compensated (on a triangle mesh, with no budget before the
 * fallback: auto_analyse), and corePCG is probed on the next. */
static void keep_icpcg(auto_state *st)
{
    int core = successor(st, st->chosen);
    if (core >= 0 && st->model.c[core].usable) /* not one that just failed */
        cpg_auto_probe_next(&st->model, core);
}

static int auto_factorise(void *state, const cpg_ctx *ctx)
{
    auto_state *st = state;
    cpg_auto_skip_none(&st->model);
    expect_complete_factors(st, ctx);
    corepcg_info base = *ctx->rec; /* what the handle recorded */
    for (int k = 0; k < st->count; k++)
        st->ready[k] = 0;
    /* every candidate failed on this pattern earlier: try them afresh */
    corepcg_auto_reason why;
    if (cpg_auto_choose(&st->model, &why) < 0)
        cpg_auto_usable_again(&st->model);
    double t = cpg_now(), analyse_s;
    int rc = choose_and_prepare(st, ctx, &base, &analyse_s);
    if (rc == CPG_FACTOR_STOPPED) {
        /* icpcg broke down at a tight tol (successor_on_breakdown) */
        double t_switch = cpg_now();
        if (switch_to_successor(st, ctx, &base, &analyse_s)) {
            t = t_switch; /* corePCG's cost is its own, not icpcg's too */
            rc = COREPCG_OK;
        } else {
            /* corePCG is set aside now, so icpcg factorises in full; its
             * step's time includes the stopped attempt (a first time,
             * provisional: auto_model.c) */
            double icpcg_analyse_s = analyse_s;
            t += cpg_now() - t_switch; /* nor a failed switch icpcg's */
            rc = prepare(st, ctx, st->chosen, &analyse_s);
            analyse_s = icpcg_analyse_s;
            if (rc < 0) {
                /* icpcg failed too: the next candidate, at its own cost */
                cpg_auto_unusable(&st->model, st->chosen);
                t = cpg_now();
                rc = choose_and_prepare(st, ctx, &base, &analyse_s);
                if (rc >= 0)
                    ctx->rec->auto_reason = st->why = COREPCG_AUTO_FALLBACK;
            } else {
                keep_icpcg(st);
            }
        }
    } else if (rc >= 0 && stiff_triangles(st, ctx)) {
        keep_icpcg(st);
    }
    st->step_s = cpg_now() - t - analyse_s;
    st->analyse_s = analyse_s;
    st->timing = rc >= 0;
    if (rc >= 0)
        prepare_fallback(st, ctx);
    return rc;
}

/* Solves with this step's candidate. One that fails is set aside until
 * the pattern changes; one that stops at max_iter (or, before anything
 * was timed, at CPG_AUTO_TROUBLE_ITERATIONS) is charged the time it took (so
 * the model avoids it while that lasts) and skipped for this step. Either
 * way the fallback prepared at the update solves from the same guess (x
 * is the handle's scratch until it accepts an answer), and ctx->rec -- the
 * solve's own record -- names it. Allocates nothing. */
static int auto_solve(void *state, const cpg_ctx *ctx, const double *b,
                      const double *y, double *x, int *iterations)
{
    auto_state *st = state;
    char why_failed[COREPCG_MSG_SIZE] = "";
    for (;;) {
        int k = st->chosen;
        cpg_ctx c = solve_ctx(st, ctx, k);
        cpg_pcg_stop stopped = CPG_PCG_NOT_STOPPED;
        c.stopped = &stopped;
        ctx->msg[0] = '\0'; /* this attempt's own (note_failure reads it) */
        double t = cpg_now();
        int rc = ops_of(st, k)->solve(st->sub[k], &c, b, y, x, iterations);
        double solve_s = cpg_now() - t;
        ctx->rec->method_used = st->cand[k];
        ctx->rec->auto_reason = st->why;
        /* cut short by the caller: no measure of the step, which the next
         * solve that runs to its end gives */
        if (rc == COREPCG_STOPPED)
            return rc;
        if (rc >= 0 && st->timing) { /* the first solve after an update */
            cpg_auto_measured(&st->model, k, st->step_s + solve_s,
                              *iterations);
            cpg_auto_first_step(&st->model, k, st->analyse_s + st->step_s);
            st->seen[k].solve_s = solve_s;
            st->seen[k].step_s = st->step_s + solve_s;
        }
        st->timing = 0;
        if (rc >= 0 && rc != COREPCG_NOT_CONVERGED) {
            if (why_failed[0])
                cpg_fail(ctx->msg, rc, "auto: %s; %s ran in its place",
                         why_failed, corepcg_method_name(st->cand[k]));
            return rc;
        }
        /* at round-off no method gets closer: the answer stands (a
         * fallback ran hundreds of iterations to a worse one) */
        if (rc == COREPCG_NOT_CONVERGED && stopped == CPG_PCG_AT_ROUND_OFF) {
            note_failure(why_failed, st->cand[k], ctx->msg);
            cpg_fail(ctx->msg, rc, "auto: %s", why_failed);
            return rc;
        }
        /* at auto's own budget (a trial's), said as such; at the caller's
         * max_iter, the loop's message */
        note_failure(why_failed, st->cand[k],
                     rc == COREPCG_NOT_CONVERGED && c.set == &st->trial[k] &&
                             stopped == CPG_PCG_AT_MAX_ITER
                         ? "no convergence within its iteration budget"
                         : ctx->msg);
        if (rc == COREPCG_NOT_CONVERGED)
            cpg_auto_skip(&st->model, k);
        else
            cpg_auto_unusable(&st->model, k);
        if (k == st->fallback || !st->ready[st->fallback]) {
            cpg_fail(ctx->msg, rc, "auto: %s", why_failed);
            return rc; /* nothing else is prepared: this attempt's result */
        }
        /* the fallback runs now and for the rest of this step; its cost is
         * its factorisation and this solve */
        st->chosen = st->fallback;
        st->why = COREPCG_AUTO_FALLBACK;
        st->step_s = st->fallback_s;
        st->analyse_s = st->fallback_analyse_s;
        st->timing = 1;
    }
}

/* The state of the candidate of method m (its report items read it). */
static const void *auto_ran_state(const void *state, corepcg_method m)
{
    const auto_state *st = state;
    for (int k = 0; k < st->count; k++)
        if (st->cand[k] == m)
            return st->sub[k];
    return NULL;
}

const cpg_method_ops cpg_auto_ops = {
    .ran_state = auto_ran_state,
    .state_size = sizeof(auto_state),
    .analyse = auto_analyse,
    .same_pattern = auto_same_pattern,
    .factorise = auto_factorise,
    .solve = auto_solve,
    .clear = auto_clear,
};

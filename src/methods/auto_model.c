/* SPDX-License-Identifier: GPL-2.0-or-later */
/* auto_model.c -- how the auto method chooses, per step, among its
 * candidate methods: from the times the handle measured on earlier steps.
 *
 * Each candidate has an estimated cost of a step (update + solve, seconds)
 * and a re-check credit. The measured cheapest runs, except that every
 * step sets aside a fraction of its own time as credit for each other
 * candidate; once a candidate's credit covers what running it would cost
 * (for one measured, its excess over the best's step; for one never
 * measured, a prior multiple of the best's step, or of the best's cold
 * setup when that was the larger: a probe is a cold step), it runs instead (a
 * probe if it was never measured, a re-check otherwise) and its estimate
 * is refreshed. So re-checking costs at most that fraction of the run per
 * other candidate, a close contender is re-checked often and a far one
 * rarely, and a method that becomes the fastest (the scene changed) is
 * found within about (cost ratio - 1) / fraction steps. A candidate timed
 * on one step only, within CPG_AUTO_FIRST_STEP_EXCESS of the best, is
 * re-checked once within about 10 steps (its first step is rarely a
 * typical one), at the next step when it is within
 * CPG_AUTO_FIRST_STEP_CLOSE or the best has itself been timed on only
 * CPG_AUTO_EARLY_STEPS steps (then the run's first choice, whatever its
 * first step took).
 * Pure arithmetic, no clock: tests feed it fixed measurements. */
#include "auto_model.h"

#include <math.h>
#include <string.h>

void cpg_auto_model_init(cpg_auto_model *m, int count)
{
    memset(m, 0, sizeof *m);
    m->count = count < CPG_AUTO_MAX ? count : CPG_AUTO_MAX;
    m->fallback = -1;
    m->explore = CPG_AUTO_EXPLORE;
    for (int k = 0; k < m->count; k++) {
        m->c[k].possible = m->c[k].usable = 1;
        m->c[k].prior = CPG_AUTO_PRIOR_RATIO;
        m->c[k].urgent_iterations = CPG_AUTO_URGENT_ITERATIONS;
    }
}

static int available(const cpg_auto_model *m, int k)
{
    return m->c[k].usable && !m->c[k].skipped;
}

/* The measured available candidate of least cost, or -1. */
int cpg_auto_best(const cpg_auto_model *m)
{
    int best = -1;
    for (int k = 0; k < m->count; k++)
        if (available(m, k) && m->c[k].measured &&
            (best < 0 || m->c[k].cost_s < m->c[best].cost_s))
            best = k;
    return best;
}

void cpg_auto_probe_next(cpg_auto_model *m, int k)
{
    /* expected at half of what one step's credit is: covered after one */
    if (k >= 0 && k < m->count) {
        m->c[k].prior = 0.5 * m->explore;
        m->c[k].signalled = 1;
    }
}

void cpg_auto_expect(cpg_auto_model *m, int k, double seconds)
{
    if (k >= 0 && k < m->count && !m->c[k].measured && seconds > 0)
        m->c[k].expected_s = seconds;
}

int cpg_auto_analysis_due(const cpg_auto_model *m, int k, double least_s,
                          double analyse_s)
{
    int best = cpg_auto_best(m);
    if (best < 0 || k < 0 || k >= m->count || !m->c[k].usable)
        return 0;
    double best_s = m->c[best].cost_s;
    if (least_s > CPG_AUTO_EXPECT_PROBE * best_s)
        return 0;
    return least_s <= CPG_AUTO_EXPECT_AT_ONCE * best_s || m->c[k].credit_s >= analyse_s;
}

void cpg_auto_spent(cpg_auto_model *m, int k, double seconds)
{
    if (k >= 0 && k < m->count && seconds > 0)
        m->c[k].credit_s = fmax(m->c[k].credit_s - seconds, 0);
}

double cpg_auto_expect_factored(double step_s, double factor_s, double flops,
                                double nnz, double solve_s, int iterations,
                                double flops_new, double nnz_new)
{
    if (!(factor_s > 0 && flops > 0 && nnz > 0 && step_s > 0))
        return 0;
    /* the rest of the update (values, reduction) is common to both */
    double rest = fmax(step_s - factor_s - solve_s, 0);
    /* an iteration is about two triangular solves with the factor */
    double one_solve = solve_s / (iterations + 1) * (nnz_new / nnz);
    return rest + flops_new * (factor_s / flops) + one_solve;
}

int cpg_auto_nothing_measured(const cpg_auto_model *m)
{
    for (int k = 0; k < m->count; k++)
        if (m->c[k].measured)
            return 0;
    return 1;
}

int cpg_auto_choose(const cpg_auto_model *m, corepcg_auto_reason *why)
{
    int best = cpg_auto_best(m);
    if (best < 0) {
        /* nothing measured yet: the first usable in the prior order */
        for (int k = 0; k < m->count; k++)
            if (available(m, k)) {
                *why = COREPCG_AUTO_FIRST;
                return k;
            }
        *why = COREPCG_AUTO_NONE;
        return -1;
    }
    /* the best in trouble (many iterations on a step after its first,
     * which in a simulation is often a start from rest: icpcg 166-298
     * iterations, then 1-10): the others never timed are probed soon, one
     * a step, in the prior order -- but not while another has been timed
     * on one step only, whose re-check (below) may end the trouble: a
     * first step's time may be its cold start alone (corePCG's on the
     * 3.5k FEM T-shirt: 36 ms, then 23 against icpcg's 22 at 72
     * iterations). Once every other has been timed, the times compare them.
     * Once another has been timed, neither the fallback nor a candidate
     * probed by expectation (direct) is probed for the trouble; the
     * fallback's time does not count: it is timed when it rescues a
     * first choice stopped at its budget (CPG_AUTO_TROUBLE_ITERATIONS, or
     * max_iter), which says nothing of the others (the 224k spring
     * T-shirt, before triangle meshes lost the budget: MPCG's 2,802
     * iterations ended the urgency, and corePCG waited ~300 steps).
     * The trouble is a guess that another preconditioner suits the system
     * better: once every other timed one lost by more than
     * CPG_AUTO_URGENT_CLOSE, it did not hold, and the rest wait as usual */
    double best_s = m->c[best].cost_s;
    int others = 0, unsettled = 0, close_ones = 0;
    for (int k = 0; k < m->count; k++)
        if (k != best && k != m->fallback && m->c[k].usable && m->c[k].measured > 0) {
            others++;
            unsettled += m->c[k].measured == 1;
            close_ones += m->c[k].cost_s <= CPG_AUTO_URGENT_CLOSE * best_s;
        }
    int trouble = m->c[best].iterations > m->c[best].urgent_iterations &&
                  m->c[best].measured >= 2 && unsettled == 0;
    /* the candidate whose credit covers what running it would cost by the
     * widest margin */
    int pick = -1;
    double margin = 1.0;
    for (int k = 0; k < m->count; k++) {
        const cpg_auto_candidate *c = &m->c[k];
        if (k == best || !available(m, k))
            continue;
        double need;
        if (!c->measured) {
            /* a probe: expected to cost a multiple of the best's step, a
             * fraction of it when the best is in trouble; or, when its
             * cost was expected from another's measurement, at the next
             * step if it may be the faster (CPG_AUTO_EXPECT_PROBE), else
             * once its credit covers what it would take beyond the best */
            int urgent = trouble && (others == 0 || (k != m->fallback &&
                                                     !c->by_expectation && close_ones));
            double prior = urgent ? CPG_AUTO_URGENT_PROBE : CPG_AUTO_PRIOR_RATIO;
            need = (c->prior < prior ? c->prior : prior) * best_s;
            /* by the prior alone (no sign for it): a cold step, against
             * the best's own */
            if (!urgent && !c->signalled && k != m->fallback)
                need = fmax(need, CPG_AUTO_PRIOR_RATIO * m->c[best].first_s);
            if (c->expected_s > 0)
                need = fmin(need, c->expected_s <= CPG_AUTO_EXPECT_PROBE * best_s
                                      ? 0.5 * m->explore * best_s
                                      : c->expected_s - best_s);
        } else {
            /* a re-check costs what it takes beyond the best's step: a
             * close contender is re-checked often, a far one rarely, each
             * at most `explore` of the run; at most every few steps */
            need = fmax(c->cost_s - best_s, CPG_AUTO_CLOSEST_RECHECK * best_s);
            /* one step measured is provisional (below): re-checked once
             * soon, unless even a first step's excess could not explain
             * the gap */
            int early = m->c[best].measured <= CPG_AUTO_EARLY_STEPS;
            if (c->measured == 1 &&
                ((early && c->opened && k != m->fallback) ||
                 c->cost_s <= (early ? CPG_AUTO_FIRST_STEP_EXCESS : CPG_AUTO_FIRST_STEP_CLOSE) *
                                  best_s))
                need = fmin(need, 0.5 * m->explore * best_s);
            else if (c->measured == 1 && c->cost_s <= CPG_AUTO_FIRST_STEP_EXCESS * best_s)
                need = fmin(need, CPG_AUTO_URGENT_RATIO * best_s);
        }
        double ratio = need > 0 ? c->credit_s / need : 0;
        if (ratio >= 1.0 && (pick < 0 || ratio > margin)) {
            margin = ratio;
            pick = k;
        }
    }
    if (pick >= 0) {
        *why = m->c[pick].measured ? COREPCG_AUTO_RECHECK : COREPCG_AUTO_PROBE;
        return pick;
    }
    *why = COREPCG_AUTO_FASTEST;
    return best;
}

void cpg_auto_measured(cpg_auto_model *m, int k, double seconds,
                       int iterations)
{
    if (k < 0 || k >= m->count || !(seconds >= 0))
        return;
    cpg_auto_candidate *c = &m->c[k];
    /* A candidate's first timed step is its first on this handle: memory
     * touched for the first time, and in a simulation often a start from
     * rest (docs/benchmark.md, "auto: choosing per step"). So that step's
     * time is provisional: the second replaces it.
     * From then on, halfway to the new time: a changing scene is followed
     * within a few steps, one noisy step moves the estimate by half its
     * noise. */
    c->opened = c->measured == 0 ? cpg_auto_nothing_measured(m) : c->opened;
    c->cost_s = c->measured >= 2 ? 0.5 * (c->cost_s + seconds) : seconds;
    c->measured++;
    c->iterations = iterations;
    c->credit_s = 0;
    for (int j = 0; j < m->count; j++)
        if (j != k && m->c[j].usable)
            m->c[j].credit_s += m->explore * seconds;
}

void cpg_auto_first_step(cpg_auto_model *m, int k, double seconds)
{
    if (k >= 0 && k < m->count && m->c[k].first_s == 0 && seconds > 0)
        m->c[k].first_s = seconds;
}

void cpg_auto_unusable(cpg_auto_model *m, int k)
{
    if (k >= 0 && k < m->count) {
        m->c[k].usable = 0;
        m->c[k].credit_s = 0;
        /* a sign that made it urgent did not hold: back to the prior */
        m->c[k].prior = CPG_AUTO_PRIOR_RATIO;
        m->c[k].signalled = 0;
    }
}

void cpg_auto_skip(cpg_auto_model *m, int k)
{
    if (k >= 0 && k < m->count)
        m->c[k].skipped = 1;
}

void cpg_auto_skip_none(cpg_auto_model *m)
{
    for (int k = 0; k < m->count; k++)
        m->c[k].skipped = 0;
}

void cpg_auto_impossible(cpg_auto_model *m, int k)
{
    if (k >= 0 && k < m->count) {
        m->c[k].possible = 0;
        cpg_auto_unusable(m, k);
    }
}

void cpg_auto_usable_again(cpg_auto_model *m)
{
    for (int k = 0; k < m->count; k++)
        m->c[k].usable = m->c[k].possible;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* auto_model.h -- the auto method's choice among its candidates from
 * measured step times (auto_model.c). Not installed. */
#ifndef COREPCG_AUTO_MODEL_H
#define COREPCG_AUTO_MODEL_H

#include "corepcg.h"

#define CPG_AUTO_MAX 5
/* Share of each step's time set aside to re-check every other candidate:
 * re-checking costs at most this much per other candidate. A re-check is
 * paid by its excess over the best's step, so a candidate r times the
 * best is re-checked every (r - 1) / EXPLORE steps: 1.3x every 12 steps,
 * 2x every 40, 8x every 280. */
#define CPG_AUTO_EXPLORE 0.025
/* ... but not more often than every CLOSEST_RECHECK / EXPLORE steps (4),
 * whatever the gap: two candidates of nearly equal cost do not alternate
 * step by step. */
#define CPG_AUTO_CLOSEST_RECHECK 0.1
/* A candidate never measured is expected to cost this many times the
 * measured best's step: tried after PRIOR_RATIO / EXPLORE (320) steps.
 * corePCG and MPCG cost several times icpcg's step, and a first corePCG
 * step (its analysis included) more, on every system benchmarked
 * (docs/benchmark.md, "auto: choosing per step"): probing them early
 * would only cost time.
 * Its probe is its first step on this handle, a cold one, so it waits
 * too until its credit covers PRIOR_RATIO times the best's own cold
 * setup (its first update, analysis included; the process's first calls
 * too, when it ran first): on cheap steps a cold one is many warm ones
 * (drape 81x81, k 60: icpcg's about 20 ms against its 1-4 ms steps, the
 * probes 32-196 ms; docs/benchmark.md, "A probe is a cold step"). The
 * fallback is exempt: prepared beside every step, its probe is warm. */
#define CPG_AUTO_PRIOR_RATIO 8.0
/* ... unless the best needs more iterations than this (or than its
 * method's own line, trouble_iterations in method.h) on a step after
 * its first, a sign that its preconditioner suits this system badly (a
 * first step may start from rest), and no other has been timed
 * yet (the fallback aside: its time from a step it rescued says nothing
 * of the others): then the others are expected at URGENT_PROBE of its
 * step, which one step's credit covers, so they are probed from the next
 * step on, one a step. Waiting longer only ran the slow method: on the
 * 224k spring T-shirt at tol 1e-5 icpcg (368 iterations, 6.2 s a step)
 * ran 10 steps where corePCG takes 3.4 s. ITERATIONS lies between
 * icpcg's counts on the grids and on stiff garments at the default tol
 * (docs/benchmark.md, "auto: choosing per step"). */
#define CPG_AUTO_URGENT_ITERATIONS 40
#define CPG_AUTO_URGENT_PROBE (0.5 * CPG_AUTO_EXPLORE)
/* ... and once others have been timed (the fallback aside), only while
 * one of them came within this many times the best's step: the trouble
 * is a guess that another preconditioner suits the system better, and
 * every timed one far behind says it did not hold. corePCG took 0.95-1.4x
 * icpcg's step where the urgency found amgpcg the faster (FEM T-shirts at
 * 56k and 224k), 2-2.1x warm on the drape at k 6000 and 3-6x over whole
 * runs of the dressed top at k 60, where amgpcg's urgent probes only lost
 * (docs/benchmark.md, "The trouble's urgency, once refuted"). The line
 * sits between 1.4 and 2.1, about as far from either; ending the urgency
 * wrongly costs more (amgpcg missed for hundreds of steps) than keeping
 * it wrongly (one cold probe). */
#define CPG_AUTO_URGENT_CLOSE 1.7
/* A candidate timed once, within FIRST_STEP_EXCESS of the best, is
 * re-checked once its credit covers this share of the best's step
 * (within about 10 steps). */
#define CPG_AUTO_URGENT_RATIO 0.25
/* A candidate's first timed step can take several times a later one (a
 * start from rest, a probe in fresh memory: docs/benchmark.md, "auto:
 * choosing per step", "One step is not a measurement"): one timed within
 * this many times the best's step is re-checked soon, since its time may
 * be that excess alone; one slower still is left to the usual credit. */
#define CPG_AUTO_FIRST_STEP_EXCESS 4.0
/* ... at the next step, too, while the best itself has been timed on at
 * most this many steps: early in a run both times may be first steps (a
 * simulation's start from rest, with a zero guess, took icpcg 298
 * iterations and its next steps 1-10: docs/benchmark.md, "auto over whole
 * simulations"), and waiting ~10 steps ran the slower method for them.
 * The candidate timed on the run's first step is re-checked then however
 * slow it was: from rest its step is any multiple of a later one (the
 * 224k FEM T-shirt: icpcg 1,038 iterations and 16.8-22.8 s, then 12-50
 * and 0.8-1.4 s, against corePCG's 3.0-3.4 s steps), and the first
 * choice is the prior's cheapest, so the re-check costs about one of its
 * steps. */
#define CPG_AUTO_EARLY_STEPS 2
/* ... and one timed within this many times the best's step is re-checked
 * at the next step: the re-check costs at most one step's worth of excess
 * once, and a process that times a handful of steps (`solve --repeat`)
 * then measures the faster method's own steps (docs/benchmark.md, "auto
 * and direct"). */
#define CPG_AUTO_FIRST_STEP_CLOSE 2.0
/* A candidate whose step was expected from another's measurement
 * (cpg_auto_expect) is probed at the next step when it is expected within
 * this many times the best's step: the expectation takes the measured
 * factorisation's flop rate, and a larger factor runs at a higher rate
 * (1.4x at 56k vertices: docs/benchmark.md, "auto and direct"), so it
 * errs on the slow side, and one probe costs at most one step's excess. */
#define CPG_AUTO_EXPECT_PROBE 1.5
/* A complete factorisation's expected step needs its analysis, a one-off
 * (direct's: 38-47 ms at 3.5k, four icpcg steps, for an expectation that
 * never made direct run on the T-shirts; docs/benchmark.md, "auto and
 * direct"). It is made at once when the core's update is within AT_ONCE
 * of the best's step, so that direct could save half of each step;
 * otherwise once direct's credit covers the core's measured analysis (a
 * stand-in for direct's own, about half of it), and what it took is
 * spent from that credit: like a probe, about `explore` of the run. */
#define CPG_AUTO_EXPECT_AT_ONCE 0.5
/* Before any candidate is timed, the first choice solves within this many
 * iterations while a fallback is ready (a cold single solve has nothing
 * else to catch a preconditioner that suits the system badly). */
#define CPG_AUTO_TROUBLE_ITERATIONS 150

typedef struct cpg_auto_candidate {
    int possible;      /* the system allows it at all (e.g. stretch pairs) */
    int usable;        /* possible, and it has not failed on this pattern */
    int skipped;       /* not to be chosen again for this step          */
    int measured;      /* steps timed */
    int opened;        /* timed on the run's first step: a cold start,
                          in a simulation often from rest with a zero
                          guess (any multiple of its later steps) */
    double cost_s;     /* estimated seconds of a step: update + solve */
    int iterations;    /* of its last timed step */
    double credit_s;   /* time set aside for re-checking it */
    double first_s;    /* its cold setup: its first timed update, with
                          the analysis made for it (cpg_auto_first_step),
                          or 0 */
    double prior;      /* never measured: expected to cost this many times
                          the best's step (CPG_AUTO_PRIOR_RATIO, or less) */
    int signalled;     /* a sign set it aside to be probed next
                          (cpg_auto_probe_next): not the prior's wait */
    double expected_s; /* never measured: seconds of a step expected from
                          another candidate's measured step, or 0 */
    int urgent_iterations; /* its step is in trouble beyond this many
                          (CPG_AUTO_URGENT_ITERATIONS, or its method's) */
    int by_expectation; /* its probe waits for an expectation of its step
                          (cpg_auto_expect), not for the best's trouble:
                          a complete factorisation, whose step another's
                          measured factorisation tells */
} cpg_auto_candidate;

typedef struct cpg_auto_model {
    int count;         /* candidates, in the prior order */
    int fallback;      /* the one that solves when another is in trouble
                          (-1: none; method_auto.c sets it) */
    double explore;
    cpg_auto_candidate c[CPG_AUTO_MAX];
} cpg_auto_model;

/* count candidates, all possible and usable, none measured, no
 * fallback. */
void cpg_auto_model_init(cpg_auto_model *m, int count);

/* k, never measured, was set aside for this step on a sign that another
 * suits the system better; since the sign is a guess, k is probed at the
 * next step, once the step that ran has earned it any credit. */
void cpg_auto_probe_next(cpg_auto_model *m, int k);

/* k, never measured, is expected to cost seconds a step (from what
 * another candidate measured): probed at the next step when that is
 * within CPG_AUTO_EXPECT_PROBE of the best's step, else as soon as its
 * credit covers what it is expected to cost beyond the best's step --
 * instead of after the prior's wait. */
void cpg_auto_expect(cpg_auto_model *m, int k, double seconds);

/* 1 when k, a complete factorisation never run, is due the analysis
 * that its expected step needs: least_s is the least its step can take
 * (another's CHOLMOD update, whose factor it contains), analyse_s what
 * the analysis is expected to cost (that other one's). Never when least_s
 * is beyond CPG_AUTO_EXPECT_PROBE of the best's step; at once when within
 * CPG_AUTO_EXPECT_AT_ONCE of it; else once k's credit covers analyse_s. */
int cpg_auto_analysis_due(const cpg_auto_model *m, int k, double least_s,
                          double analyse_s);

/* k's credit pays for seconds of work done on its behalf (its analysis
 * for an expectation), so that the same credit does not also pay for its
 * probe. */
void cpg_auto_spent(cpg_auto_model *m, int k, double seconds);

/* The measured usable candidate of least cost, or -1. */
int cpg_auto_best(const cpg_auto_model *m);

/* Seconds of a step of a method that factorises completely (no
 * iterations), expected from a measured step of one that factorises a
 * preconditioner with CHOLMOD and iterates: the measured step less its
 * factorisation and solve, the factorisation's flops at the measured
 * factorisation's rate, and one solve at the cost of one measured
 * iteration scaled by the two factors' sizes. Returns 0 when the measured
 * numbers cannot say (no factorisation timed). */
double cpg_auto_expect_factored(double step_s, double factor_s, double flops,
                                double nnz, double solve_s, int iterations,
                                double flops_new, double nnz_new);

/* 1 when no candidate has been timed yet. */
int cpg_auto_nothing_measured(const cpg_auto_model *m);

/* The candidate to run this step and why (FIRST, FASTEST, PROBE, RECHECK),
 * among the usable ones not skipped; -1 (reason NONE) when there is none. */
int cpg_auto_choose(const cpg_auto_model *m, corepcg_auto_reason *why);

/* Candidate k took seconds (and iterations) for a step: its estimate
 * becomes that time on its first two steps (the first is provisional),
 * then moves halfway there; its credit is spent, every other usable
 * candidate earns explore x seconds of credit. */
void cpg_auto_measured(cpg_auto_model *m, int k, double seconds,
                       int iterations);

/* Candidate k's first timed update took seconds, the analysis made for
 * it included (cpg_auto_measured has the update without it, and the
 * solve): its cold setup, from which a probe's is expected
 * (CPG_AUTO_PRIOR_RATIO). Not the solve: a first one may start from rest.
 * Kept from the first call. */
void cpg_auto_first_step(cpg_auto_model *m, int k, double seconds);

/* k stopped short on this step (max_iter): chosen again from the next
 * step on, as its cost says; cpg_auto_skip_none clears every skip. */
void cpg_auto_skip(cpg_auto_model *m, int k);
void cpg_auto_skip_none(cpg_auto_model *m);

/* k failed on this system (e.g. its preconditioner broke down): not
 * chosen again until cpg_auto_usable_again. */
void cpg_auto_unusable(cpg_auto_model *m, int k);
/* k can never run on this system (its input is missing). */
void cpg_auto_impossible(cpg_auto_model *m, int k);
/* A new pattern: every possible candidate may run again. */
void cpg_auto_usable_again(cpg_auto_model *m);

#endif /* COREPCG_AUTO_MODEL_H */

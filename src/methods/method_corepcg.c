/* SPDX-License-Identifier: GPL-2.0-or-later */
/* method_corepcg.c -- corePCG (Ye, Webber & Wang sec. 6): conjugate
 * gradients preconditioned by the matrix core -- A's diagonal blocks and
 * stretch blocks -- factorised by CHOLMOD every step, so that each
 * preconditioner application is a pair of triangular solves.
 *
 * The core is factorised in its projected form S C S + D (I - S) on the
 * fixed 3N pattern (projected.h), whose inverse on range(S) is the reduced
 * core's: the analysis and the factor's storage are kept for as long as
 * the core's blocks are the same, while contacts come and go -- sliding
 * nodes, and contact or self-contact springs, which change A's pattern
 * outside the core. The loop is the one of
 * corrected MPCG, on A with the filter S, preconditioned by S Cp^-1 S:
 * on range(S) that is PCG on A~ = U^T A U preconditioned by the reduced
 * core, the same iterates (the iteration counts were identical on every
 * bundle and scene measured), without building A~ at all. */
#include "method.h"
#include "projected.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* corePCG's own settings (cpg_own_option). */
enum { OWN_CORE, OWN_CORE_THRESHOLD, OWN_FALLBACK_UPCG, OWN_COUNT };
static const cpg_own_option own[OWN_COUNT] = {
    [OWN_CORE] = {{"core", "--core", COREPCG_VALUE_CHOICE, 0, COREPCG_CORE_COUNT - 1,
                   COREPCG_CORE_STRETCH, NULL, NULL, 0,
                   "the matrix core: the stretch-pair blocks or those that pass "
                   "core_threshold"},
                  corepcg_core_name},
    [OWN_CORE_THRESHOLD] = {{"core_threshold", "--core-threshold", COREPCG_VALUE_REAL, 0,
                             1e300, COREPCG_DEFAULT_CORE_THRESHOLD, "core", "core",
                             COREPCG_CORE_AUTO,
                             "core auto: keep blocks with |A_ij| >= threshold "
                             "sqrt(|A_ii||A_jj|)"},
                            NULL},
    [OWN_FALLBACK_UPCG] = {{"fallback_upcg", "--fallback", COREPCG_VALUE_SWITCH, 0, 1, 0,
                            NULL, NULL, 0,
                            "if the core is not SPD, solve with block-preconditioned "
                            "upcg"},
                           NULL},
};

static corepcg_core core(const corepcg_settings *set)
{
    return (corepcg_core)cpg_own_value(set, &own[OWN_CORE]);
}

typedef struct core_state {
    long core_blocks;
    int repoint;            /* A's pattern changed outside the core: the
                               next factorise points the core at it */
    cpg_proj core;          /* S C S + D (I - S), analysed once per mesh */
    cholmod_common cm;      /* the core's: started at analyse with the
                               settings' factor kind, finished in clear */
    int cm_started;
    cpg_precond pc;         /* the fallback when the core is not SPD */
    int fell_back;
    cpg_fwork work;
} core_state;

static void core_clear(void *state)
{
    core_state *st = state;
    cpg_proj_free(&st->core, st->cm_started ? &st->cm : NULL);
    if (st->cm_started)
        cholmod_finish(&st->cm);
    cpg_precond_free(&st->pc);
    cpg_fwork_free(&st->work);
    memset(st, 0, sizeof *st);
}

static int core_precond(void *state, const double *in, double *out)
{
    core_state *st = state;
    return cpg_factor_solve(&st->core.fac, in, out, &st->cm);
}

static int core_precond2(void *state, const double *in1, const double *in2,
                         double *out1, double *out2)
{
    core_state *st = state;
    return cpg_factor_solve2(&st->core.fac, in1, in2, out1, out2, &st->cm);
}

static int mark_core(const cpg_ctx *ctx, const cpg_sys *s, unsigned char *keep,
                     long *kept, char *msg)
{
    return cpg_core_mark(&s->A, s->num_stretch, s->stretch, core(ctx->set),
                         cpg_own_value(ctx->set, &own[OWN_CORE_THRESHOLD]), keep, kept, msg);
}

static int core_analyse(void *state, const cpg_ctx *ctx)
{
    core_state *st = state;
    const cpg_sys *s = ctx->sys;
    int rc = cpg_factor_start_natural(&st->cm, ctx->set->factor, ctx->msg);
    if (rc != COREPCG_OK)
        return rc;
    st->cm_started = 1;
    double t = cpg_now();
    unsigned char *keep = malloc((size_t)s->A.p[s->A.nb] + 1);
    if (!keep)
        return cpg_fail(ctx->msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    rc = mark_core(ctx, s, keep, &st->core_blocks, ctx->msg);
    if (rc == COREPCG_OK)
        rc = cpg_fwork_alloc(&st->work, ctx, 3 * s->A.nb, 1);
    ctx->rec->time_reduce_s = cpg_now() - t;
    t = cpg_now();
    if (rc == COREPCG_OK)
        rc = cpg_proj_analyse(&st->core, &s->A, keep, ctx->set->ordering,
                              &st->cm, ctx->msg);
    ctx->rec->time_analyze_s = cpg_now() - t;
    free(keep);
    return rc;
}

/* The analysis holds while the core's blocks do: with core stretch the
 * diagonal and the stretch pairs' blocks (compared first as the arrays a
 * simulator hands over unchanged), with core auto the blocks its values
 * select. A's other blocks -- contact and self-contact springs -- may come
 * and go; which nodes are constrained does not matter. */
static int core_same_pattern(void *state, const cpg_ctx *ctx,
                             const cpg_sys *next)
{
    core_state *st = state;
    int same_blocks = cpg_sys_same_blocks(ctx->sys, next);
    if (same_blocks && core(ctx->set) == COREPCG_CORE_STRETCH &&
        cpg_sys_same_stretch(ctx->sys, next))
        return 1;
    if (ctx->sys->A.nb != next->A.nb || !st->core.row)
        return 0;
    unsigned char *marks = malloc((size_t)next->A.p[next->A.nb] + 1);
    if (!marks)
        return 0; /* the full setup reports the memory */
    long kept = 0;
    char why[COREPCG_MSG_SIZE];
    int same = mark_core(ctx, next, marks, &kept, why) == COREPCG_OK &&
               cpg_proj_selects(&st->core, &next->A, marks,
                                next->A.nb + kept);
    free(marks);
    if (same && !same_blocks)
        st->repoint = 1;
    return same;
}

/* The core is A~ plus a positive semidefinite compensation (projected.h),
 * so its failure says that A~ itself is not positive definite. */
static void say_A_is_not_spd(char *msg)
{
    if (!msg)
        return;
    char what[COREPCG_MSG_SIZE];
    snprintf(what, sizeof what, "%s", msg);
    cpg_fail(msg, COREPCG_ERR_CORE_NOT_SPD,
             "%s; the compensated core bounds A~ (A on the free "
             "directions) from above, so A~ is indefinite or singular too",
             what);
}

/* The core's values (compensated or plain) and their factorisation. */
static int values_and_factor(core_state *st, const cpg_ctx *ctx,
                             int compensate)
{
    const cpg_sys *s = ctx->sys;
    double t = cpg_now();
    cpg_proj_values(&st->core, &s->A, &s->u, compensate);
    ctx->rec->time_reduce_s += cpg_now() - t;
    t = cpg_now();
    int rc = cpg_proj_factorise(&st->core, &s->u, "the matrix core",
                                COREPCG_ERR_CORE_NOT_SPD, &st->cm, ctx->msg);
    ctx->rec->time_factor_s += cpg_now() - t;
    return rc;
}

/* The papers' plain core where it can hold, the compensated core (SPD
 * whenever A~ is, projected.h) where it cannot or does not. A block the
 * core leaves out that is not symmetric comes from an element over three
 * or more nodes (a dihedral hinge), whose deletion leaves no guarantee:
 * then the compensated core at once, without a plain attempt that would
 * fail; else (springs) the plain core, and the compensated one only if
 * the plain one is not positive definite. Each step decides from its own
 * A, so a kept handle factorises what a fresh one does. */
static int core_factorise(void *state, const cpg_ctx *ctx)
{
    /* A~'s size changes with the ndof even when the analysis holds */
    ctx->rec->nnz_reduced = cpg_reduced_nnz(ctx->sys);
    core_state *st = state;
    const cpg_sys *s = ctx->sys;
    if (st->repoint)
        cpg_proj_repoint(&st->core, &s->A);
    st->repoint = 0;
    cpg_precond_free(&st->pc);
    st->fell_back = 0;
    ctx->rec->nnz_core = cpg_proj_nnz(&st->core);
    ctx->rec->core_blocks = st->core_blocks;
    ctx->rec->time_factor_s = 0;
    int compensated = cpg_proj_leaves_out_asymmetric(&st->core, &s->A, &s->u);
    int rc = values_and_factor(st, ctx, compensated);
    if (rc == COREPCG_ERR_CORE_NOT_SPD && !compensated) {
        compensated = 1;
        rc = values_and_factor(st, ctx, 1);
        if (rc == COREPCG_OK && ctx->msg)
            ctx->msg[0] = '\0'; /* the plain attempt's failure is no error */
    }
    ctx->rec->core_compensated = compensated;
    if (rc == COREPCG_ERR_CORE_NOT_SPD)
        say_A_is_not_spd(ctx->msg);
    ctx->rec->nnz_factor = cpg_factor_nnz(&st->core.fac);
    ctx->rec->factor_flops = st->core.fac.flops;
    ctx->rec->ordering = cpg_factor_ordering(&st->core.fac);
    ctx->rec->factor_supernodal = st->core.fac.supernodal;
    if (rc == COREPCG_ERR_CORE_NOT_SPD && cpg_own_value(ctx->set, &own[OWN_FALLBACK_UPCG])) {
        /* upcg's block preconditioner, in the loop with the filter */
        rc = cpg_precond_projected_blocks(&st->pc, &s->A, &s->u, ctx->msg);
        st->fell_back = rc == COREPCG_OK;
    }
    ctx->rec->fell_back = st->fell_back;
    return rc;
}

static int core_solve(void *state, const cpg_ctx *ctx, const double *b,
                      const double *y, double *x, int *iterations)
{
    core_state *st = state;
    *iterations = 0;
    if (cpg_fwork_rhs(&st->work, ctx->sys, b, x))
        return st->fell_back ? COREPCG_FELL_BACK : COREPCG_OK;
    if (st->fell_back) {
        int rc = cpg_fwork_pcg(&st->work, ctx, cpg_precond_apply, NULL,
                               &st->pc, y, x, iterations);
        return rc == COREPCG_OK ? COREPCG_FELL_BACK : rc;
    }
    return cpg_fwork_pcg(&st->work, ctx, core_precond, core_precond2, st, y,
                         x, iterations);
}

/* The core STRETCH needs the stretch pairs (AUTO picks its blocks by
 * value). */
static int core_possible(const cpg_ctx *ctx, const cpg_sys *s)
{
    return s->num_stretch > 0 || core(ctx->set) != COREPCG_CORE_STRETCH;
}

/* What it reports beside its factorisation's numbers (report.c): the
 * core's, and whether it fell back; read from the solve's record. */
static double report_nnz_core(const void *state, const corepcg_info *rec)
{
    (void)state;
    return (double)rec->nnz_core;
}

static double report_core_blocks(const void *state, const corepcg_info *rec)
{
    (void)state;
    return (double)rec->core_blocks;
}

static double report_core_compensated(const void *state, const corepcg_info *rec)
{
    (void)state;
    return rec->core_compensated;
}

static double report_fell_back(const void *state, const corepcg_info *rec)
{
    (void)state;
    return rec->fell_back;
}

static const cpg_report_item report[] = {
    CPG_CHOLMOD_ITEMS,
    {{"nnz_core", COREPCG_VALUE_INT, "",
      "stored entries of the projected core S C S + D (I - S) (lower triangle)"},
     report_nnz_core, NULL},
    {{"core_blocks", COREPCG_VALUE_INT, "", "off-diagonal node blocks kept in the core"},
     report_core_blocks, NULL},
    {{"core_compensated", COREPCG_VALUE_SWITCH, "",
      "1: the plain core was not SPD and the compensated one was factorised"},
     report_core_compensated, NULL},
    {{"fell_back", COREPCG_VALUE_SWITCH, "",
      "1: the core was not SPD and upcg's block preconditioner solved"},
     report_fell_back, NULL},
};

const cpg_method_ops cpg_corepcg_ops = {
    .state_size = sizeof(core_state),
    .own = own,
    .own_count = OWN_COUNT,
    .report = report,
    .report_count = (int)(sizeof report / sizeof report[0]),
    .analyse = core_analyse,
    .same_pattern = core_same_pattern,
    .factorise = core_factorise,
    .solve = core_solve,
    .clear = core_clear,
    .possible = core_possible,
    /* its counts where it was the fastest or within 1.1x of it, on every
     * garment measured (springs to 224k, FEM to 14k): 2-7; 12-24 on FEM
     * from 56k, where amgpcg took 0.6x its step (docs/benchmark.md, "The
     * FEM limit", "With amgpcg, on a quiet machine") */
    .trouble_iterations = 8,
};

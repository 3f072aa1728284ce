/* SPDX-License-Identifier: GPL-2.0-or-later */
/* method_amgpcg.c -- conjugate gradients preconditioned by one V(1,1)
 * cycle of smoothed-aggregation multigrid with node-block Gauss-Seidel
 * (amg.h), in the loop with the filter on A (full_solve.c) as corePCG's:
 * S M^-1 S with M^-1 the cycle on S A S + D (I - S). The hierarchy's
 * pattern is made once per mesh, its values every step. The FEM garments
 * for which it was written, where corePCG's iterations grow with every
 * refinement, are in docs/benchmark.md ("amgpcg: the multigrid in C"). */
#include "method.h"
#include "amg.h"

#include <string.h>

typedef struct amg_state {
    cpg_amg amg;
    cpg_fwork work;
} amg_state;

static void amg_clear(void *state)
{
    amg_state *st = state;
    cpg_amg_free(&st->amg);
    cpg_fwork_free(&st->work);
    memset(st, 0, sizeof *st);
}

/* amgpcg's own settings (cpg_own_option). */
enum { OWN_COARSE_NODES, OWN_COUNT };
static const cpg_own_option own[OWN_COUNT] = {
    [OWN_COARSE_NODES] = {{"amg_coarse_nodes", "--amg-coarse-nodes", COREPCG_VALUE_INT, 1,
                           CPG_AMG_DENSE_NODES, CPG_AMG_COARSE_NODES, NULL, NULL, 0,
                           "coarsening stops at this many nodes, whose level a dense "
                           "Cholesky factor solves"},
                          NULL},
};

static int amg_analyse(void *state, const cpg_ctx *ctx)
{
    amg_state *st = state;
    const cpg_sys *s = ctx->sys;
    int rc = cpg_fwork_alloc(&st->work, ctx, 3 * s->A.nb, 1);
    if (rc != COREPCG_OK)
        return rc;
    double t = cpg_now();
    int coarse = (int)cpg_own_value(ctx->set, &own[OWN_COARSE_NODES]);
    rc = cpg_amg_analyse(&st->amg, &s->A, s->num_stretch, s->stretch, coarse,
                         ctx->msg);
    ctx->rec->time_analyze_s = cpg_now() - t;
    return rc;
}

/* The hierarchy is made from A's block pattern and the graph of the
 * stretch pairs (in any order, either way round): not from which nodes
 * are constrained. */
static int amg_same_pattern(void *state, const cpg_ctx *ctx,
                            const cpg_sys *next)
{
    amg_state *st = state;
    return cpg_sys_same_blocks(ctx->sys, next) &&
           (cpg_sys_same_stretch(ctx->sys, next) ||
            cpg_amg_same_graph(&st->amg, next->num_stretch, next->stretch));
}

static int amg_factorise(void *state, const cpg_ctx *ctx)
{
    ctx->rec->nnz_reduced = cpg_reduced_nnz(ctx->sys);
    amg_state *st = state;
    double t = cpg_now();
    int rc = cpg_amg_values(&st->amg, &ctx->sys->A, &ctx->sys->u, ctx->msg);
    ctx->rec->time_factor_s = cpg_now() - t;
    return rc;
}

static int amg_solve(void *state, const cpg_ctx *ctx, const double *b,
                     const double *y, double *x, int *iterations)
{
    amg_state *st = state;
    *iterations = 0;
    if (cpg_fwork_rhs(&st->work, ctx->sys, b, x))
        return COREPCG_OK;
    return cpg_fwork_pcg(&st->work, ctx, cpg_amg_cycle, NULL, &st->amg, y, x,
                         iterations);
}

/* What it reports: the hierarchy's shape, from the state. */
static double report_levels(const void *state, const corepcg_info *rec)
{
    (void)rec;
    return ((const amg_state *)state)->amg.levels;
}

static double report_coarsest(const void *state, const corepcg_info *rec)
{
    (void)rec;
    const cpg_amg *amg = &((const amg_state *)state)->amg;
    return amg->levels ? amg->lev[amg->levels - 1].A.n : 0;
}

static double report_complexity(const void *state, const corepcg_info *rec)
{
    (void)rec;
    return cpg_amg_complexity(&((const amg_state *)state)->amg);
}

static const cpg_report_item report[] = {
    {{"amg_levels", COREPCG_VALUE_INT, "", "levels of the multigrid hierarchy"},
     report_levels, NULL},
    {{"amg_coarsest_nodes", COREPCG_VALUE_INT, "nodes",
      "nodes of the coarsest level (a dense Cholesky factor solves it when "
      "it has at most 1000)"},
     report_coarsest, NULL},
    {{"amg_complexity", COREPCG_VALUE_REAL, "",
      "stored blocks of all levels over the finest level's"},
     report_complexity, NULL},
};

const cpg_method_ops cpg_amgpcg_ops = {
    .state_size = sizeof(amg_state),
    .own = own,
    .own_count = OWN_COUNT,
    .report = report,
    .report_count = (int)(sizeof report / sizeof report[0]),
    .analyse = amg_analyse,
    .same_pattern = amg_same_pattern,
    .factorise = amg_factorise,
    .solve = amg_solve,
    .clear = amg_clear,
};

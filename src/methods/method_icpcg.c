/* SPDX-License-Identifier: GPL-2.0-or-later */
/* method_icpcg.c -- PCG on the reduced system A~ (Ye et al.'s uPCG loop)
 * preconditioned by a block incomplete Cholesky factor of A~ (factor/ichol_*.c):
 * zero fill by default, or one level of fill (its own setting ic_fill), in
 * reverse Cuthill-McKee order of the free nodes, whatever order the
 * caller's nodes come in. A factorisation that
 * meets a pivot <= 0 is retried once with the fill it drops compensated on
 * the pivots (ichol_numeric.c: it cannot break down on an SPD A~; info's
 * ic_compensation says how much), and only if that breaks down too on
 * A~ + alpha diag(A~) with growing alpha (Manteuffel's shift; info says
 * which alpha); when even the largest shift breaks down the method fails
 * with ERR_IC_BREAKDOWN, never with a silent wrong answer (auto then runs
 * another method). Auto may ask it to stop at the first breakdown instead
 * (factorise_until_breakdown).
 *
 * The analysis (node order, the factor's pattern, every buffer) depends
 * only on A's block pattern and which nodes are free: a contact that
 * turns a node's 3 free directions into 2 keeps it. */
#include "ichol.h"
#include "method.h"

#include <string.h>

typedef struct icpcg_state {
    cpg_rmat Ar;         /* A~ by node blocks */
    int values_fresh;    /* Ar holds ctx->sys's values */
    cpg_ichol ic;
    cpg_rwork work;      /* sized for r = 3N, the most any ndof gives,
                            and b~ and x~ in the factor's padded order:
                            PCG runs there (cpg_rwork_pcg_padded) */
} icpcg_state;

static void icpcg_clear(void *state)
{
    icpcg_state *st = state;
    cpg_rmat_free(&st->Ar);
    cpg_ichol_free(&st->ic);
    cpg_rwork_free(&st->work);
    memset(st, 0, sizeof *st);
}

/* icpcg's own settings (cpg_own_option). */
enum { OWN_IC_FILL, OWN_COUNT };
static const cpg_own_option own[OWN_COUNT] = {
    /* one level of fill: fewer, dearer iterations, which pays on large
     * systems at tight tolerances (docs/benchmark.md, "icpcg: which incomplete
     * Cholesky") */
    [OWN_IC_FILL] = {{"ic_fill", "--ic-fill", COREPCG_VALUE_INT, 0, 1, 0, NULL, NULL, 0,
                      "the incomplete factor: 0 = IC(0), 1 = one level of block "
                      "fill"},
                     NULL},
};

static void ichol_options(const corepcg_settings *set, cpg_ichol_opts *o)
{
    cpg_ichol_default_opts(o);
    o->fill = (int)cpg_own_value(set, &own[OWN_IC_FILL]);
    /* RCM, not the caller's order: IC(0) in the nodes' own order is only
     * as good as the file's numbering (docs/benchmark.md, "Grids and
     * garments": node order) */
    o->ordering = CPG_ICHOL_RCM;
}

static int icpcg_analyse(void *state, const cpg_ctx *ctx)
{
    icpcg_state *st = state;
    const cpg_sys *s = ctx->sys;
    double t = cpg_now();
    if (cpg_rmat_build(&st->Ar, &s->A, &s->u) != COREPCG_OK)
        return cpg_fail(ctx->msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    st->values_fresh = 1;
    ctx->rec->time_reduce_s = cpg_now() - t;
    cpg_ichol_opts o;
    ichol_options(ctx->set, &o);
    t = cpg_now();
    int rc = cpg_ichol_analyse(&st->ic, &st->Ar, &o, ctx->msg);
    if (rc != COREPCG_OK)
        return rc;
    ctx->rec->time_analyze_s = cpg_now() - t;
    /* solve buffers for the largest r this pattern can have, so that an
     * ndof change needs no new ones, and b~ and x~ in the factor's padded
     * order (G holds while the analysis does) */
    return cpg_rwork_alloc(&st->work, ctx, 3 * s->A.nb, 3 * s->A.nb, 1,
                           st->ic.G > 0 ? st->ic.G : 1);
}

/* The analysis holds while A's block pattern and the set of free nodes
 * do: ndof changes among free nodes only renumber A~. */
static int icpcg_same_pattern(void *state, const cpg_ctx *ctx,
                              const cpg_sys *next)
{
    icpcg_state *st = state;
    return cpg_sys_same_blocks(ctx->sys, next) &&
           cpg_rmat_same_free(&st->Ar, &next->u);
}

/* stop_at_breakdown: the plain attempt alone, CPG_FACTOR_STOPPED where it
 * breaks down. */
static int factorise(icpcg_state *st, const cpg_ctx *ctx, int stop_at_breakdown)
{
    /* A~'s size changes with the ndof even when the analysis holds */
    ctx->rec->nnz_reduced = cpg_reduced_nnz(ctx->sys);
    if (!st->values_fresh) {
        double t = cpg_now();
        cpg_rmat_renumber(&st->Ar); /* this step's ndof and values */
        ctx->rec->time_reduce_s = cpg_now() - t;
    }
    st->values_fresh = 0;
    cpg_ichol_opts kept = st->ic.opts;
    if (stop_at_breakdown) {
        st->ic.opts.compensate = CPG_ICHOL_COMP_NEVER;
        st->ic.opts.max_retries = 0;
    }
    int rc = cpg_ichol_factorise(&st->ic, &st->Ar, ctx->msg);
    st->ic.opts = kept;
    if (stop_at_breakdown && rc == COREPCG_ERR_IC_BREAKDOWN) {
        ctx->msg[0] = '\0';
        rc = CPG_FACTOR_STOPPED;
    }
    const cpg_ichol_info *in = &st->ic.info;
    ctx->rec->time_factor_s = in->time_factor_s;
    ctx->rec->ic_fill = in->fill;
    ctx->rec->ic_shift = in->shift;
    ctx->rec->ic_retries = in->retries;
    ctx->rec->ic_compensation = in->compensation;
    /* the factor's entries as a scalar L holds them (its padded storage
     * holds 9 per block and 6 per pivot) */
    ctx->rec->nnz_factor = cpg_ichol_entries(&st->ic);
    return rc;
}

static int icpcg_factorise(void *state, const cpg_ctx *ctx)
{
    return factorise(state, ctx, 0);
}

static int icpcg_factorise_until_breakdown(void *state, const cpg_ctx *ctx)
{
    return factorise(state, ctx, 1);
}

static int icpcg_broke_down(const void *state)
{
    const icpcg_state *st = state;
    return st->ic.info.retries > 0;
}

static int icpcg_solve(void *state, const cpg_ctx *ctx, const double *b,
                       const double *y, double *x, int *iterations)
{
    icpcg_state *st = state;
    int rc = COREPCG_OK;
    *iterations = 0;
    if (!cpg_rwork_rhs(&st->work, ctx->sys, b)) {
        /* in the factor's order, which the product and sweeps use */
        cpg_padded pad = {st->ic.G, st->ic.off, st->ic.dim};
        rc = cpg_rwork_pcg_padded(&st->work, ctx, &pad,
                                  cpg_lower_apply_padded, &st->ic.lower,
                                  cpg_ichol_apply_padded, &st->ic, y,
                                  iterations);
    }
    if (rc >= 0)
        cpg_rwork_prolong(&st->work, ctx->sys, x);
    return rc;
}

/* What it reports: its incomplete factor, read from the solve's record. */
static double report_ic_fill(const void *state, const corepcg_info *rec)
{
    (void)state;
    return rec->ic_fill;
}

static double report_ic_shift(const void *state, const corepcg_info *rec)
{
    (void)state;
    return rec->ic_shift;
}

static double report_ic_retries(const void *state, const corepcg_info *rec)
{
    (void)state;
    return rec->ic_retries;
}

static double report_ic_compensation(const void *state, const corepcg_info *rec)
{
    (void)state;
    return rec->ic_compensation;
}

static const cpg_report_item report[] = {
    CPG_NNZ_FACTOR_ITEM("entries of the incomplete factor L (not its padded storage)"),
    {{"ic_fill", COREPCG_VALUE_INT, "", "the fill level of its factor"},
     report_ic_fill, NULL},
    {{"ic_shift", COREPCG_VALUE_REAL, "",
      "alpha of the Manteuffel shift A~ + alpha diag(A~) it needed (0: none)"},
     report_ic_shift, NULL},
    {{"ic_retries", COREPCG_VALUE_INT, "",
      "factorisations that broke down before the one kept"},
     report_ic_retries, NULL},
    {{"ic_compensation", COREPCG_VALUE_REAL, "",
      "tr R / tr A~ of the dropped fill R moved onto its pivots (0: none)"},
     report_ic_compensation, NULL},
};

const cpg_method_ops cpg_icpcg_ops = {
    .state_size = sizeof(icpcg_state),
    .own = own,
    .own_count = OWN_COUNT,
    .report = report,
    .report_count = (int)(sizeof report / sizeof report[0]),
    .analyse = icpcg_analyse,
    .same_pattern = icpcg_same_pattern,
    .factorise = icpcg_factorise,
    .solve = icpcg_solve,
    .clear = icpcg_clear,
    .factorise_until_breakdown = icpcg_factorise_until_breakdown,
    .broke_down = icpcg_broke_down,
};

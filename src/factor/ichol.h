/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ichol.h -- block incomplete Cholesky of the reduced matrix A~ (cpg_rmat),
 * the preconditioner of icpcg. Internal, like internal.h.
 *
 * The factor is M = (I + F) D (I + F)^T over the free nodes (ndof > 0) in
 * a node ordering, with D block diagonal (one ndof x ndof pivot per node)
 * and F strictly block lower on A~'s block pattern (fill 0) or on that
 * pattern plus its level-1 block fill (fill 1). Every block is held as
 * 3x3, an ndof-d node padded with an identity: that is A~ (+) I, the
 * "projected" matrix S A S + (I - S) in the basis [U_i V_i], so the padding
 * changes nothing in exact arithmetic and every kernel is an unrolled 3x3.
 * On a pattern of whole node blocks scalar IC(0) and block IC(0) are the
 * same factorisation, so there is only the block one.
 *
 * Life cycle: analyse (ichol_symbolic.c: ordering, pattern, the
 * buffers; depends only on A~'s block pattern and which nodes are free),
 * then factorise (ichol_numeric.c) as often as the values change
 * (allocating only the second attempt's numbers, spare, when first
 * wanted), apply
 * inside PCG (allocates nothing), free. An analysis still fits a new A~
 * when the block pattern and the free nodes are the same (ndof 3 <-> 2
 * or 1 changes no block pattern; a node becoming fixed does).
 *
 * COREPCG_TEST_BUILD (the tests' static copy of the library, never the
 * shipped one) adds two modes the tests use to get a factor they can
 * predict: the nodes' own order and compensation from the first attempt.
 */
#ifndef COREPCG_ICHOL_H
#define COREPCG_ICHOL_H

#include "kernels.h"
#include "order.h"

typedef enum cpg_ichol_ordering {
#ifdef COREPCG_TEST_BUILD
    CPG_ICHOL_NATURAL = 0,  /* node order as given */
#endif
    CPG_ICHOL_RCM = 1,      /* reverse Cuthill-McKee on the node graph */
#ifdef COREPCG_TEST_BUILD
    CPG_ICHOL_ORDERING_COUNT
#endif
} cpg_ichol_ordering;

/* When the fill F's pattern drops is compensated on the pivots instead
 * (ichol_compensate.c: the factor of A~ + R, R PSD, which an SPD
 * A~ cannot break down). */
typedef enum cpg_ichol_comp {
    CPG_ICHOL_COMP_NEVER = 0,        /* plain IC, Manteuffel shifts only */
    CPG_ICHOL_COMP_ON_BREAKDOWN = 1, /* plain IC; on breakdown compensated */
#ifdef COREPCG_TEST_BUILD
    CPG_ICHOL_COMP_ALWAYS = 2,       /* compensated from the first attempt */
    CPG_ICHOL_COMP_COUNT
#endif
} cpg_ichol_comp;

typedef struct cpg_ichol_opts {
    int fill;                     /* block level of fill: 0 or 1 */
    int compensate;               /* cpg_ichol_comp */
    cpg_ichol_ordering ordering;
    /* Breakdown: a scalar pivot <= pivot_tol times its diagonal entry of
     * A~. Then (compensate ON_BREAKDOWN) the factorisation is retried
     * once with the dropped fill compensated, and if that breaks down too
     * (round-off; an A~ that is not SPD) on A~ + alpha diag(A~)
     * (Manteuffel), alpha = shift_first, * shift_growth, ..., at most
     * max_retries shifted attempts; after that factorise fails. */
    double pivot_tol;
    double shift_first;
    double shift_growth;
    int max_retries;
} cpg_ichol_opts;

/* The defaults (docs/benchmark.md, "icpcg: which incomplete Cholesky"
 * and "IC(0) on triangle meshes"): fill 0, RCM order, F in float,
 * compensation on breakdown, pivot_tol 1e-8, shifts 1e-3 * 4^k for at
 * most 6 retries (alpha <= 1.024; beyond that PCG needs more than ~150
 * iterations and corePCG is the better fallback). */
void cpg_ichol_default_opts(cpg_ichol_opts *o);

typedef struct cpg_ichol_info {
    int fill;
    cpg_ichol_ordering ordering;
    int nodes;                /* free nodes in the factor */
    long blocks;              /* blocks of F (strictly lower) */
    long fill_blocks;         /* of which not in A~'s pattern */
    int factorised;           /* 1 after a successful factorise */
    double shift;             /* alpha of the factor kept (0: none) */
    int compensated;          /* 1: the factor kept compensates its drops */
    double compensation;      /* then tr R / tr A~ (0 if not) */
    int retries;              /* attempts that broke down before it */
    int breakdown_node;       /* node of the first failed pivot, or -1 */
    double breakdown_ratio;   /* its pivot / A~'s diagonal entry (0 if none) */
    double min_pivot_ratio;   /* min scalar pivot / A~'s diagonal entry */
    double time_analyse_s;
    double time_factor_s;     /* the last factorise, retries included */
} cpg_ichol_info;

/* One factorisation attempt's numbers. */
typedef struct cpg_ichol_numbers {
    double *lx;               /* 9 per block of F */
    double *dinv;             /* 9 per position: D^-1 (symmetric) */
    double *diag;             /* 3 per position: A~'s diagonal entries */
    double *colbuf;           /* 9 * longest column: F of the column */
    double comp_added;        /* the compensation added (trace) */
} cpg_ichol_numbers;

typedef struct cpg_ichol {
    cpg_ichol_opts opts;
    cpg_ichol_info info;
    /* the block pattern analysed (to recognise it again) */
    int N;                    /* nodes of A */
    int *ap, *ai;             /* A~'s block columns: N + 1, row nodes */
    /* ordering: position k holds node perm[k] */
    int G;
    int *perm, *pos;          /* G, N (pos -1: fixed node) */
    int *off;                 /* G: reduced offset, refreshed at factorise */
    unsigned char *dim;       /* G: ndof, refreshed at factorise */
    int *dsrc;                /* G: A~'s block index of the diagonal */
    /* F by block columns of positions, rows sorted */
    int *lp, *li;
    cpg_ichol_numbers num;    /* the factor (after a successful
                                 factorise) */
    float *lxf;               /* num.lx in float, which the sweeps read
                                 (half the memory; the same iteration
                                 counts: docs/benchmark.md) */
    /* The compensated attempt run beside the plain one on the second
     * thread (ichol_numeric.c, attempts): allocated at the first
     * factorise on this analysis after a plain attempt broke down (as
     * much again as num), all NULL until then. plain_broke: the last
     * factorise's plain attempt broke down. Both decide only where and
     * when the attempts run, never which factor results. */
    cpg_ichol_numbers spare;
    int plain_broke;
    int avx2;                 /* 1: the AVX2 sweeps (cpg_have_avx2) */
    /* A~'s strictly lower blocks in position order (a subset of F's
     * pattern): mq is each one's block in F, ms its block in A~ */
    int *mp, *mi, *mq, *ms;
    cpg_lower lower;          /* A~ as of the last factorise
                                 (unshifted), for icpcg's product
                                 (cpg_lower_apply_padded): each
                                 block read once, half of what the
                                 whole-matrix product reads */
} cpg_ichol;

/* Orders the free nodes of At, builds F's pattern and allocates all the
 * factor's storage. Returns OK, ERR_ARGUMENT, ERR_NO_MEMORY or
 * ERR_TOO_LARGE; on failure ic is left empty. Whatever ic held is
 * overwritten, not freed: pass it zeroed or freed. */
int cpg_ichol_analyse(cpg_ichol *ic, const cpg_rmat *At,
                      const cpg_ichol_opts *opts, char *msg);

/* The factor's entries as a scalar L = (I + F) D^1/2 would hold them:
 * each block of F its nodes' ndof product, each pivot its lower
 * triangle (the padding of nodes with ndof < 3 not counted), as of the
 * last analyse or factorise. */
long cpg_ichol_entries(const cpg_ichol *ic);

/* Storage for one attempt's numbers on ic's analysed pattern: OK or
 * ERR_NO_MEMORY (v left empty). */
int cpg_ichol_numbers_alloc(const cpg_ichol *ic, cpg_ichol_numbers *v);
void cpg_ichol_numbers_free(cpg_ichol_numbers *v);

/* Numeric factorisation of At's values with the analysis (the pattern
 * must be the analysed one, with the same free nodes). Retries with
 * growing shifts on breakdown (opts). Returns OK; ERR_IC_BREAKDOWN when
 * every attempt broke down (ic->info says where; apply then refuses);
 * ERR_NOT_FINITE for a NaN or Inf reaching a pivot (no retry); ERR_STATE
 * before an analysis; ERR_ARGUMENT (NULL, or block counts that are not
 * the analysed ones).
 * Allocates nothing but ic->spare, when first wanted (while that fails
 * the attempts run in turn: the same factor). */
int cpg_ichol_factorise(cpg_ichol *ic, const cpg_rmat *At, char *msg);

/* The update -F W^T of block (I, J), I > J positions, that F's pattern
 * drops, added instead as a PSD term to the partial pivots of I and J in
 * num (ichol_compensate.c); its trace goes to num->comp_added. */
void cpg_ichol_compensate(const cpg_ichol *ic, cpg_ichol_numbers *num, int I,
                          int J, const double *F, const double *W);

/* out = M^-1 in, a cpg_precond_fn, with in and out (3 G) in the factor's
 * padded node order (cpg_pad with ic's off and dim): no gather or
 * scatter. The padding of out is zero when in's is. ERR_STATE (nothing
 * written) unless the last factorise succeeded. */
int cpg_ichol_apply_padded(void *ic, const double *in, double *out);

void cpg_ichol_free(cpg_ichol *ic);

#endif /* COREPCG_ICHOL_H */

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* method.h -- how a solution method plugs into the handle (solver.c), as
 * OSQP's linear-system back ends plug into its workspace: each method owns
 * its state (an opaque block of state_size bytes, zeroed by the handle)
 * and is driven through one table of operations. A method sees the
 * imported system and the settings through a cpg_ctx; it never sees the
 * handle. Not installed. */
#ifndef COREPCG_METHOD_H
#define COREPCG_METHOD_H

#include "kernels.h"

/* What every operation is handed. */
typedef struct cpg_ctx {
    const cpg_sys *sys;          /* the system being set up or solved      */
    const corepcg_settings *set;
    char *msg;                   /* COREPCG_MSG_SIZE: why a call failed    */
    corepcg_info *rec;           /* what setup/update measured: a method
                                    fills its sizes and phase times here  */
    corepcg_monitor monitor;     /* solve: the handle's monitor (or NULL),
                                    read here, never from set: auto's
                                    candidates' settings are copies made
                                    at analysis, and corepcg_set_monitor
                                    changes it between solves            */
    void *monitor_user;
    const cpg_vec_ops *vec;      /* NULL, or the back end the methods'
                                    solve-time vectors go on instead of
                                    the CPU (cpg_backend) */
    cpg_pcg_stop *stopped;       /* NULL, or where a solve's PCG says why
                                    it ended NOT_CONVERGED (auto's) */
} cpg_ctx;

/* The back end of the methods' solve-time vectors for ctx (backend.c):
 * the one place that chooses it; cpg_fwork_alloc and cpg_rwork_alloc ask
 * it, and the PCG work and the loops around it follow. */
const cpg_vec_ops *cpg_backend(const cpg_ctx *ctx);

/* A setting one method alone reads (corepcg_settings.method_options),
 * described in the method's file beside its ops: the CLI, Python and the
 * docs' tables offer it from there (corepcg_option_describe). The method
 * reads it with cpg_own_value. */
typedef struct cpg_own_option {
    corepcg_option_info info;
    const char *(*value_name)(int value); /* CHOICE: corepcg_*_name */
} cpg_own_option;

/* What a method reports (corepcg_info_describe), described in its file
 * beside its ops, and where the value comes from: value reads the record
 * of the solve (rec) or the method's state, which holds what the last
 * setup/update made for that solve. */
typedef struct cpg_report_item {
    corepcg_info_item info;
    double (*value)(const void *state, const corepcg_info *rec);
    const char *(*value_name)(int value); /* CHOICE: corepcg_*_name */
} cpg_report_item;

/* The items of a CHOLMOD factorisation (report.c), which direct and
 * corepcg both report: CPG_CHOLMOD_ITEMS in their item lists. An item
 * names no method: the row whose ops declare it is its method. */
double cpg_report_nnz_factor(const void *state, const corepcg_info *rec);
double cpg_report_ordering(const void *state, const corepcg_info *rec);
double cpg_report_supernodal(const void *state, const corepcg_info *rec);
double cpg_report_factor_flops(const void *state, const corepcg_info *rec);
#define CPG_NNZ_FACTOR_ITEM(what) \
    {{"nnz_factor", COREPCG_VALUE_INT, "", what}, \
     cpg_report_nnz_factor, NULL}
#define CPG_CHOLMOD_ITEMS                                                     \
    CPG_NNZ_FACTOR_ITEM("stored entries of the factor L"),                    \
    {{"ordering", COREPCG_VALUE_CHOICE, "", "the ordering CHOLMOD used"},     \
     cpg_report_ordering, corepcg_ordering_name},                             \
    {{"factor_supernodal", COREPCG_VALUE_SWITCH, "",                          \
      "1: a supernodal LL^T, 0: a simplicial LDL^T"},                          \
     cpg_report_supernodal, NULL},                                            \
    {{"factor_flops", COREPCG_VALUE_REAL, "flop",                             \
      "CHOLMOD's flop count of the numeric factorisation"},                   \
     cpg_report_factor_flops, NULL}

typedef struct cpg_method_ops {
    size_t state_size;
    const cpg_own_option *own;   /* its own settings, own_count of them */
    int own_count;
    const cpg_report_item *report; /* what it reports, report_count items */
    int report_count;
    /* Pattern-dependent work for ctx->sys: structures, symbolic analysis,
     * buffers. Sets rec->time_reduce_s and rec->time_analyze_s. May leave
     * values computed, in which case factorise need not redo them. */
    int (*analyse)(void *state, const cpg_ctx *ctx);
    /* 1 when the analysis made for ctx->sys still holds for next (same
     * sizes and patterns as far as this method is concerned). */
    int (*same_pattern)(void *state, const cpg_ctx *ctx, const cpg_sys *next);
    /* Value-dependent work for ctx->sys with the analysis kept: values,
     * numeric factorisation, preconditioner. Sets rec->time_factor_s (and
     * time_reduce_s for the values it refreshes). */
    int (*factorise)(void *state, const cpg_ctx *ctx);
    /* The answer x (n) for right-hand side b and guess y (n, or NULL for
     * zero); *iterations set. Allocates nothing; ctx->rec is this solve's
     * own record (a copy of the setup's), where a method may say what ran. */
    int (*solve)(void *state, const cpg_ctx *ctx, const double *b,
                 const double *y, double *x, int *iterations);
    /* Frees what the state holds and zeroes it (state may be all zero).
     * A method that uses CHOLMOD owns its common (started at analyse with
     * its own settings) and finishes it here. */
    void (*clear)(void *state);
    /* Optional (NULL: always 1): 0 when the method cannot run on s with
     * ctx's settings at all (its input is missing), so that auto never
     * chooses it. */
    int (*possible)(const cpg_ctx *ctx, const cpg_sys *s);
    /* Optional, for a method whose factorisation may break down and then
     * recover (a breakdown rule in the registry names it): factorise's
     * first attempt alone. Where that breaks down nothing is factorised,
     * the analysis is kept for the next factorise, and the status is
     * CPG_FACTOR_STOPPED; otherwise as factorise. */
    int (*factorise_until_breakdown)(void *state, const cpg_ctx *ctx);
    /* Optional (with the above): 1 when the last factorise met a
     * breakdown before it succeeded. */
    int (*broke_down)(const void *state);
    /* Optional, for a method whose step is one complete factorisation:
     * after analyse, CHOLMOD's flop count and nnz(L) of a factorisation
     * with this analysis, from which auto expects its step's cost before
     * it ever runs (method_auto.c). */
    void (*factor_size)(const void *state, double *flops, double *nnz);
    /* Optional (0: auto's CPG_AUTO_URGENT_ITERATIONS, auto_model.h): the
     * iterations beyond which a step of this method tells auto that its
     * preconditioner suits the system badly, so that auto probes the
     * others soon. */
    int trouble_iterations;
    /* Optional, for a method that runs others (auto): the state of the
     * one of method m it ran, whose report items are read from it. */
    const void *(*ran_state)(const void *state, corepcg_method m);
} cpg_method_ops;

/* factorise_until_breakdown's status when it stopped at the breakdown. */
#define CPG_FACTOR_STOPPED 2

/* ------------------------------------------------------ the registry */

/* One row of the table of methods (registry.c): everything the rest of
 * the library, the CLI and the benchmark learn from it about a method. A new
 * method is a row in registry.c (valued after the header's constants), its
 * ops in its own methods/method_*.c, its meson line and its test
 * (docs/design.md, "Adding a method"). */
typedef struct cpg_method_entry {
    corepcg_method method;
    const char *name;             /* as the CLI spells it               */
    const cpg_method_ops *ops;
    unsigned options;             /* CPG_TAKES(...) of every setting read */
    int auto_rank;                /* auto's candidates: 1, 2, ... in the
                                     order tried first; 0: not one      */
    int auto_fallback;            /* 1: the candidate auto prepares
                                     beside every choice (one of them)  */
    unsigned reports;             /* corepcg_report flags: what its info
                                     holds beside the iterations        */
} cpg_method_entry;

#define CPG_TAKES(option) (1u << (option))

/* The rows, cpg_method_rows() of them, in the table's order: one per
 * corepcg_method constant, then the methods added since. */
extern const cpg_method_entry cpg_methods[];
int cpg_method_rows(void);

/* The row of method m, or NULL for a value that is not a method. */
const cpg_method_entry *cpg_method_entry_of(corepcg_method m);
const cpg_method_ops *cpg_method_ops_of(corepcg_method method);

/* Auto's candidates in the order tried first (at most max) and the index
 * of its fallback among them; returns how many. */
int cpg_auto_candidates(corepcg_method *out, int max, int *fallback);

/* Auto's model (auto_model.h) for its candidates: cand and the fallback
 * from cpg_auto_candidates, each one's trouble line its ops' own
 * (trouble_iterations) or the default, expected before it runs when its
 * ops can tell its factorisation's size. Returns the candidates' count
 * (method_auto.c). */
struct cpg_auto_model;
int cpg_auto_model_from_table(struct cpg_auto_model *m, corepcg_method *cand,
                              int max);
#ifdef COREPCG_TEST_BUILD
/* The tests' hook: auto's model inside its method state, and its
 * candidates' methods into cand (CPG_AUTO_MAX). */
const struct cpg_auto_model *cpg_auto_state_model(const void *state,
                                                  corepcg_method *cand);
#endif

/* Auto's answer to a breakdown (registry.c's policy table): the method
 * that takes the step when m's factorisation breaks down on a system it
 * suits badly, or -1 when m has none. m's ops then have
 * factorise_until_breakdown and broke_down. */
int cpg_breakdown_successor(corepcg_method m);

/* The methods' own settings, numbered 0 .. cpg_own_option_total() - 1
 * over the rows in the table's order (option COREPCG_OPTION_COUNT + k):
 * how many the ops declare, how many of them settings have room for (the
 * first COREPCG_METHOD_OPTION_SLOTS: test_options fails when the two
 * differ), the k-th with the method it belongs to (NULL past the last),
 * and the number of o (-1 for one no row lists). */
int cpg_own_option_declared(void);
int cpg_own_option_total(void);
const cpg_own_option *cpg_own_option_at(int k, corepcg_method *owner);
int cpg_own_option_number(const cpg_own_option *o);

/* The report items, numbered 0 .. cpg_report_total() - 1 over the rows
 * in the table's order (corepcg_info_describe): the k-th with the method
 * whose row declares it (owner may be NULL), NULL past the last
 * (report.c). */
int cpg_report_total(void);
const cpg_report_item *cpg_report_item_at(int k, corepcg_method *owner);

/* What s holds for a method's own setting o. */
double cpg_own_value(const corepcg_settings *s, const cpg_own_option *o);

/* OK, or ERR_ARGUMENT naming the first setting of s out of its range
 * (options.c, from each option's description). */
int cpg_options_check(const corepcg_settings *s, char *msg);
/* Every option's default into s. */
void cpg_options_default(corepcg_settings *s);
/* OK, or ERR_ARGUMENT: the method, every option's range, and the
 * settings that differ from their defaults go with the method
 * (corepcg_settings_refusal; settings.c). */
int cpg_settings_check(const corepcg_settings *s, char *msg);

/* Generic same_pattern for methods on A~ by blocks: A's block pattern and
 * every node's ndof unchanged. */
int cpg_same_reduced_pattern(void *state, const cpg_ctx *ctx,
                             const cpg_sys *next);

/* --------------------------------------- solving on A with the filter */

/* What a method that solves the full system with the filter S needs at
 * solve time (Ascher & Boxerman's corrected MPCG, and the methods whose
 * preconditioner is S Bp^-1 S, projected.h): b, b^ and the iterate, and
 * the PCG work on n unknowns, all vectors of one back end (vec). The
 * caller's b comes in at cpg_fwork_rhs, a guess at cpg_fwork_pcg, and
 * the answer goes out at the end of cpg_fwork_run (direct's after its
 * factor's solve, Baraff & Witkin's start in its own file), each through
 * the back end's to_device or from_device. */
typedef struct cpg_fwork {
    double *b;         /* n: the caller's b, copied in */
    double *bd;        /* n: b^ = S (b - A (I - S) z) */
    double *x;         /* n: the answer as it is computed (PCG's
                          iterate), then copied out */
    double *w;         /* n: (I - S) z at the loop's scale
                          (cpg_unit_scale), with iterate = 1 */
    double prescribed; /* |S A (I - S) z| of this solve: with |b^| the
                          size of Baraff & Witkin's b - A x round-off
                          (pcg.c's floor), and its loop's scale */
    cpg_pcg_work pcg;  /* n, when allocated with iterate = 1 */
    const cpg_vec_ops *vec; /* the back end of the vector work (vec.h) */
} cpg_fwork;

/* On cpg_backend(ctx), failures in ctx->msg. */
int cpg_fwork_alloc(cpg_fwork *w, const cpg_ctx *ctx, int n, int iterate);
void cpg_fwork_free(cpg_fwork *w);

/* w->b = b (the caller's, copied in) and w->bd = b^. Returns 1 when
 * b^ = 0, or (an iterative method's, allocated with iterate = 1) no more
 * than the round-off of S A (I - S) z, having set x (the caller's) =
 * (I - S) z: the free part of the answer is zero to round-off (PCG would
 * chase it to underflow). */
int cpg_fwork_rhs(cpg_fwork *w, const cpg_sys *s, const double *b, double *x);

/* After cpg_fwork_rhs returned 0: the PCG loop with the filter on the
 * free part, A x_f = b^ from x_f = S y (y, the caller's, NULL: zero), so
 * that the prescribed part's round-off stays out of its residuals;
 * ctx's stopping rule, tol and max_iter (the papers' rule with delta0 =
 * b^T M^-1 b^), and the given preconditioner (precond2, if not NULL,
 * makes the papers' rule's first two applications one); then x = S x_f +
 * (I - S) z, so that the answer meets the constraints to its own
 * round-off, copied out into x (the caller's) unless the loop failed. */
int cpg_fwork_pcg(cpg_fwork *w, const cpg_ctx *ctx, cpg_precond_fn precond,
                  cpg_precond2_fn precond2, void *precond_ctx,
                  const double *y, double *x, int *iterations);

/* The PCG loop with the filter on w->b from the start w->x holds; under
 * the papers' rule delta0 from bdelta (w->bd, the only vector it may be)
 * or, when bdelta is NULL, the delta0 given, at the loop's scale
 * (cpg_fwork_unit); then x = S x + (I - S) z, copied out into x (the
 * caller's) unless the loop failed. cpg_fwork_pcg's loop, and Baraff &
 * Witkin's with its own start and delta0. */
int cpg_fwork_run(cpg_fwork *w, const cpg_ctx *ctx, cpg_precond_fn precond,
                  cpg_precond2_fn precond2, void *precond_ctx,
                  const double *bdelta, double delta0, double *x,
                  int *iterations);

/* The power of two cpg_fwork_run brings the loop to when bdelta is NULL
 * (cpg_unit_scale_of): from w->bd (S b there) and w->prescribed (|S A (I
 * - S) z|), the start's residual's parts. A delta0 given is computed from
 * vectors at that scale, so that it neither under- nor overflows where
 * they do not. */
double cpg_fwork_unit(const cpg_fwork *w, int n);

/* w->prescribed = |S A (I - S) z|, from Aw = A (I - S) z, or NULL to
 * compute it (Baraff & Witkin's start: its loop's scale and round-off
 * floor); with iterate = 1 only (w->w is its scratch). */
void cpg_fwork_prescribed(cpg_fwork *w, const cpg_sys *s, const double *Aw);

/* x = S x + (I - S) z. */
void cpg_fwork_finish(const cpg_sys *s, double *x);

/* ------------------------------------------------ solving on A~ */

/* What a method that solves the reduced system needs at solve time: b,
 * the reduced right-hand side and answer, a full-length scratch vector,
 * (for the iterative methods) the PCG work on r unknowns, and b~ and x~
 * in a factor's padded node order when PCG runs there; all vectors of
 * one back end (vec). The caller's b comes in at cpg_rwork_rhs, a guess
 * at the start of PCG, and the answer goes out at cpg_rwork_prolong. */
typedef struct cpg_rwork {
    double *b;         /* n: the caller's b, copied in */
    double *bt, *xt;   /* r */
    double *tmp;       /* n */
    double *pb, *px;   /* 3 G each when allocated with G > 0, else NULL */
    cpg_pcg_work pcg;  /* r, when allocated with iterate = 1 */
    const cpg_vec_ops *vec; /* the back end of the vector work (vec.h) */
} cpg_rwork;

/* For systems of n unknowns of which at most r are free, on
 * cpg_backend(ctx), failures in ctx->msg; G > 0: PCG in a padded order of
 * G positions as well (cpg_rwork_pcg_padded, 3 G <= r). */
int cpg_rwork_alloc(cpg_rwork *w, const cpg_ctx *ctx, int n, int r,
                    int iterate, int G);
void cpg_rwork_free(cpg_rwork *w);

/* w->b = b (the caller's, copied in) and w->bt = U^T (b - A (I - S) z).
 * Returns 1 when the reduced answer is trivially zero (no free unknowns,
 * or b~ = 0), having set w->xt = 0. */
int cpg_rwork_rhs(cpg_rwork *w, const cpg_sys *s, const double *b);

/* PCG on A~ (Ye et al.'s uPCG) from x~0 = U^T y (y, the caller's, NULL:
 * zero) into w->xt, with the given product (out = A~ in: cpg_rmat_apply,
 * or a kept copy of A~) and preconditioner, and ctx's tol and max_iter. */
int cpg_rwork_pcg(cpg_rwork *w, const cpg_ctx *ctx, cpg_apply_fn matvec,
                  void *matvec_ctx, cpg_precond_fn precond, void *precond_ctx,
                  const double *y, int *iterations);

/* A factor's padded node order (cpg_pad: G positions, position k the
 * free node at reduced offset off[k] with dim[k] directions). */
typedef struct cpg_padded {
    int G;
    const int *off;
    const unsigned char *dim;
} cpg_padded;

/* cpg_rwork_pcg with PCG in pad's order: b~ and x~0 go there (w->pb,
 * w->px, allocated for pad->G), the product and preconditioner work there
 * (no gather or scatter in each iteration), and x~ comes back into w->xt.
 * The pcg work must hold 3 G. */
int cpg_rwork_pcg_padded(cpg_rwork *w, const cpg_ctx *ctx,
                         const cpg_padded *pad, cpg_apply_fn matvec,
                         void *matvec_ctx, cpg_precond_fn precond,
                         void *precond_ctx, const double *y, int *iterations);

/* x (the caller's) = U w->xt + (I - S) z, copied out. */
void cpg_rwork_prolong(const cpg_rwork *w, const cpg_sys *s, double *x);

/* Stored entries of A~'s lower triangle (U keeps A's block pattern). */
long cpg_reduced_nnz(const cpg_sys *s);

#endif /* COREPCG_METHOD_H */

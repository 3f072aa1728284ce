/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernels.h -- the block kernels the iterations run (kernels/): the
 * products with A and A~ (products.c), the one PCG loop (pcg.c) and the
 * cheap preconditioners (precond.c). Not installed.
 */
#ifndef COREPCG_KERNELS_H
#define COREPCG_KERNELS_H

#include "system.h"
#include "vec.h"

#include <float.h>

/* ------------------------------------------------------------ products */

/* The products run their block columns in two halves (two_parts.c), on
 * two threads from this many columns on (fewer: starting a thread, some
 * microseconds, costs more than it saves). Each output is summed in one
 * fixed order either way, so no answer depends on the threads. */
#define CPG_PARALLEL_COLUMNS 8192
/* 1 when a product over this many block columns takes a second thread. */
int cpg_two_threads(int columns);
/* part(arg, 0) on the calling thread and part(arg, 1) on a second thread
 * when two_threads (or after it, on this one, when not or when no thread
 * can be started); returns once both are done. */
void cpg_two_parts(void (*part)(void *arg, int which), void *arg,
                   int two_threads);

/* y = A x over n = 3 nb unknowns. */
void cpg_bmat_mult(const cpg_bmat *A, const double *x, double *y);
/* The same for the prescribed part w = (I - S) z of a right-hand side:
 * zero without a product when w is (a step whose obstacles are at rest;
 * A's entries are finite, so A 0 is exactly 0). */
void cpg_bmat_mult_prescribed(const cpg_bmat *A, const double *w, double *y);

/* yt (r) = A~ xt (r) for rm a cpg_rmat, a cpg_apply_fn. */
void cpg_rmat_apply(void *rm, const double *xt, double *yt);

/* 1 when every entry of v (n) is zero: a right-hand side whose answer is
 * zero, which PCG would otherwise chase to underflow. */
int cpg_all_zero(const double *v, int n);

/* A~'s lower triangle kept by blocks in a node order, for a product that
 * reads each block once (lower_product.c). Position k (0 .. G-1) is the
 * free node with reduced offset off[k] and ndof dim[k]; block column k
 * holds the strictly lower blocks p[k] .. p[k+1]-1 with row positions i[],
 * each padded to 3x3 (x, 9 per block), and the diagonal block in d (9 per
 * position). The pattern (p, i, off, dim) is borrowed from its owner (the
 * incomplete factor); the values and the spill rows are its own. */
typedef struct cpg_lower {
    int G;
    const int *p, *i, *off;
    const unsigned char *dim;
    double *x, *d;            /* the values, filled by the owner          */
    int loaded;               /* 1 when x and d hold A~'s values          */
    /* The product in two halves of the block columns, [0, half) and
     * [half, G), one thread each when two are free: the first half's
     * blocks in rows >= half add into spill (3 spill_rows), summed into
     * the result after both. The same sums in the same order on one
     * thread, so the answer does not depend on the threads. */
    int half, spill_rows;
    double *spill;
    int avx2;                 /* 1: the AVX2 kernel (cpg_have_avx2) */
} cpg_lower;

/* Allocates the values and the spill rows (ERR_NO_MEMORY, m empty, on
 * failure); not loaded. */
int cpg_lower_alloc(cpg_lower *m, int G, const int *p, const int *i,
                    const int *off, const unsigned char *dim);
void cpg_lower_free(cpg_lower *m);
/* out = A~ in, a cpg_apply_fn, with in and out (3 G) in m's padded node
 * order (cpg_pad): no gather or scatter. The padding of out is zero when
 * in's is. NaN in out while nothing is loaded, so that PCG stops with
 * ERR_NAN instead of going on with a stale or empty product. */
void cpg_lower_apply_padded(void *m, const double *in, double *out);

/* 1 when this CPU runs the AVX2 and FMA kernels (blocks_avx2.h; x86-64
 * only) of the lower product and the sweeps. Their sums are grouped
 * otherwise than the portable kernels', so the answers of CPUs with and
 * without AVX2 differ at round-off; one CPU always gives the same bits. */
int cpg_have_avx2(void);
/* The incomplete factor's sweeps w <- (I + F)^-T D^-1 (I + F)^-1 w
 * (ichol_sweeps.c; the factor is factor/ichol_numeric.c's): F by block
 * columns (lp, li) in float (lx), dinv 9 per position; lx and dinv
 * readable one entry past their end. avx2: the AVX2 form (only where
 * cpg_have_avx2). */
void cpg_ichol_sweeps(int G, const int *lp, const int *li, const float *lx,
                      const double *dinv, double *w, int avx2);

/* A reduced vector (r) into the padded node order of G positions (3 per
 * position, position k the node at off[k] with dim[k] free directions,
 * the padding zero), and back (padded.c). */
void cpg_pad(int G, const int *off, const unsigned char *dim,
             const double *in, double *out);
void cpg_unpad(int G, const int *off, const unsigned char *dim,
               const double *in, double *out);

/* --------------------------------------------------------- PCG kernel */

typedef void (*cpg_apply_fn)(void *ctx, const double *in, double *out);
/* out = M^-1 in; returns OK or the code of a failure (a factor solve can
 * run out of memory), which stops the iteration. */
typedef int (*cpg_precond_fn)(void *ctx, const double *in, double *out);
typedef void (*cpg_filter_fn)(void *ctx, double *v); /* in place */
/* out1 = M^-1 in1 and out2 = M^-1 in2 at once (a factor's two-column
 * solve), or a failure's code. */
typedef int (*cpg_precond2_fn)(void *ctx, const double *in1,
                               const double *in2, double *out1,
                               double *out2);

/* How far below its parts' size a residual b - A x gets in double
 * precision at most (pcg.c's floor; the solver's check of b^ at round-off):
 * 64 eps, generous, so that only a floor is taken for one. */
#define CPG_ROUND_OFF (64 * DBL_EPSILON)

/* One PCG run (Ye et al.'s uPCG; with a filter, Ascher & Boxerman's MPCG).
 * Stops by the residual rule or the papers' (pcg.c says how). */
/* Why a loop ended NOT_CONVERGED (auto tells them apart: at round-off
 * no method gets closer; max_iter may be its own trial budget). */
typedef enum {
    CPG_PCG_NOT_STOPPED = 0, /* converged, or another code               */
    CPG_PCG_AT_MAX_ITER,
    CPG_PCG_AT_ROUND_OFF,    /* above a tol below round-off              */
    CPG_PCG_DRIFTED          /* the true residual stayed above tol       */
} cpg_pcg_stop;

typedef struct cpg_pcg_problem {
    int n;
    cpg_apply_fn matvec;  void *matvec_ctx;    /* out = A in            */
    cpg_precond_fn precond; void *precond_ctx; /* out = M^-1 in         */
    cpg_precond2_fn precond2; /* or NULL: with bdelta under the papers'
                                 rule, the first two applications
                                 (delta0's and the initial residual's)
                                 as one; same precond_ctx              */
    cpg_filter_fn filter; void *filter_ctx;    /* v = S v; NULL if none */
    cpg_filter_fn finish; void *finish_ctx; /* or NULL: puts x back on its
                             constraints, as the answer will be, before the
                             true residual is measured */
    const double *b;       /* right-hand side                            */
    const double *bdelta;  /* vector defining delta0 (b or b^), or NULL  */
    double delta0;         /* used when bdelta is NULL                   */
    double floor_size;     /* what b - A x's round-off is relative to (a
                              norm; 0: |b|): Baraff & Witkin's x holds the
                              prescribed values, whose product with A b^
                              does not show when it cancels b          */
    int stop_residual;     /* COREPCG_STOP_RESIDUAL: stop on |r| <= tol
                              |bdelta| (|r0| when bdelta is NULL) instead */
    double tol;
    int max_iter;
    corepcg_monitor monitor; /* or NULL: after each iteration, the value
                                compared with tol; non-zero stops the loop
                                (STOPPED)                               */
    void *monitor_user;
    cpg_pcg_stop *stopped; /* or NULL: set by every loop, why it ended   */
} cpg_pcg_problem;

/* The loop's vectors, and the back end that holds them and runs every
 * vector operation and reduction of the loop (vec.h): the loop itself
 * touches no entry. */
typedef struct cpg_pcg_work {
    double *r, *c, *q, *s;   /* 4 vectors of length n, one block at r */
    const cpg_vec_ops *vec;
} cpg_pcg_work;

int cpg_pcg_work_alloc(cpg_pcg_work *w, int n, const cpg_vec_ops *vec);
void cpg_pcg_work_free(cpg_pcg_work *w);

/* The power of two that brings v's largest entry (n of them, finite) into
 * [0.5, 1), within 2^-1000 .. 2^1000; 1 when v is zero. PCG runs on a
 * right-hand side (and guess) brought to it and scales its answer back:
 * its sums of squares then neither underflow nor overflow whatever A's
 * units (|b| below about 1e-154 made |r|^2 zero and "converged" at once),
 * and a power of two scales every operation's result exactly, so where
 * nothing under- or overflows the answer is the same bits. */
double cpg_unit_scale(const cpg_vec_ops *vec, int n, const double *v);
/* The same for a largest magnitude given (one or several vectors'). */
double cpg_unit_scale_of(double largest);

/* x holds the initial guess on entry and the answer on exit. Returns OK,
 * NOT_CONVERGED, STOPPED (the monitor asked), ERR_BREAKDOWN or ERR_NAN;
 * *iterations is always set. */
int cpg_pcg(const cpg_pcg_problem *pb, cpg_pcg_work *w, double *x,
            int *iterations, char *msg);

/* ------------------------------------------------------ preconditioners */

/* Cheap preconditioners of the reduced system (upcg) and of A (mpcg). */
typedef struct cpg_precond {
    int n;
    int kind;            /* corepcg_precond */
    const cpg_ublocks *u;
    double *inv;         /* DIAG: n inverses; BLOCK/PROJECTED: per node a
                            dense ndof x ndof (3x3 for mpcg) inverse, 9 each */
} cpg_precond;

int cpg_precond_reduced(cpg_precond *pc, corepcg_precond kind,
                        const cpg_rmat *At, char *msg);
/* MPCG's: A's diagonal (DIAG) or 3x3 diagonal blocks (BLOCK), inverted;
 * a fixed node's (u->ndof 0) is the identity, as the filter drops what
 * it gives, so its block of A may be anything (even zero). */
int cpg_precond_full(cpg_precond *pc, corepcg_precond kind, const cpg_bmat *A,
                     const cpg_ublocks *u, char *msg);
/* Per node U_i (U_i^T A_ii U_i)^-1 U_i^T, applied in the full space: on
 * range(S) the node-block preconditioner of A~ (upcg's block), for the
 * loop with the filter. */
int cpg_precond_projected_blocks(cpg_precond *pc, const cpg_bmat *A,
                                 const cpg_ublocks *u, char *msg);
int cpg_precond_apply(void *pc, const double *in, double *out);
void cpg_precond_free(cpg_precond *pc);

#endif /* COREPCG_KERNELS_H */

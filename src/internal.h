/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h -- types and functions shared inside the library; not
 * installed. Naming: cpg_ prefix, hidden visibility (the library is built
 * with gnu_symbol_visibility=hidden, so only COREPCG_EXPORT escapes).
 */
#ifndef COREPCG_INTERNAL_H
#define COREPCG_INTERNAL_H

#include "corepcg.h"

#include <stdarg.h>
#include <stddef.h>
#include <suitesparse/cholmod.h>

/* ------------------------------------------------------------ messages */

/* printf into msg (COREPCG_MSG_SIZE bytes, may be NULL); returns code so
 * that callers can write `return cpg_fail(msg, CODE, "...", ...)`. */
int cpg_fail(char *msg, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* OK, or ERR_ARGUMENT naming the first setting out of range. */
int cpg_settings_check(const corepcg_settings *s, char *msg);

/* Monotonic seconds. */
double cpg_now(void);

/* A CHOLMOD common that never prints; the caller owns it. */
int cpg_cholmod_start(cholmod_common *cm);

/* Maps a CHOLMOD status after a call to a corepcg code (OK when fine). */
int cpg_cholmod_code(const cholmod_common *cm);

/* Asks for transparent huge pages on the 2 MiB-aligned interior of a
 * buffer that nothing has touched yet (a fresh allocation): its first
 * touch then costs one fault per 2 MiB instead of one per 4 KiB. A hint
 * on this mapping only (madvise), ignored where unsupported. */
void cpg_huge_pages(void *p, size_t bytes);
/* calloc(count, size) for a large array, with cpg_huge_pages before the
 * zeros are written (calloc's fresh pages would fault one per 4 KiB). */
void *cpg_zeroed_huge(size_t count, size_t size);

/* ------------------------------------------------------ block matrices */

/* A symmetric matrix of 3x3 blocks stored with BOTH triangles, by block
 * columns (block CSC), block rows sorted within each column. Block k is
 * x[9k .. 9k+8], column-major: entry (a, c) at x[9k + 3c + a]. */
typedef struct cpg_bmat {
    int nb;        /* number of nodes (block rows = block columns) */
    int *p;        /* nb + 1 */
    int *i;        /* p[nb] block row indices */
    double *x;     /* 9 p[nb] values */
} cpg_bmat;

void cpg_bmat_free(cpg_bmat *m);

/* Validates sys->A (sizes, indices, triangle, finiteness, symmetry for
 * BOTH) and converts it to a block matrix with both triangles. */
int cpg_bmat_from_system(const corepcg_system *sys, cholmod_common *cm,
                         cpg_bmat *out, char *msg);

/* y = A x over n = 3 nb unknowns. */
void cpg_bmat_mult(const cpg_bmat *A, const double *x, double *y);

/* 1 when the two matrices have the same block pattern. */
int cpg_bmat_same_pattern(const cpg_bmat *a, const cpg_bmat *b);

/* ------------------------------------------------- constraints, U blocks */

/* U_i (3 x ndof_i, orthonormal columns, U_i U_i^T = S_i) for every node. */
typedef struct cpg_ublocks {
    int N;
    int r;          /* sum of ndof */
    int *ndof;      /* N */
    int *off;       /* N + 1: reduced offset of node i */
    double *U;      /* 9 N, column-major 3 x 3, first ndof columns used */
} cpg_ublocks;

void cpg_ublocks_free(cpg_ublocks *u);

/* Checks one record against docs/format.md's rules except duplicates: node in
 * [0, N), ndof in {0, 1, 2}, p (ndof 1, 2) and q (ndof 1) nonzero and
 * finite, |p.q| <= 1e-6 after normalising. Returns OK or ERR_CONSTRAINT
 * with a short reason ("q is not orthogonal to p (|p.q| = 0.1)") in why
 * (COREPCG_MSG_SIZE bytes). */
int cpg_constraint_check(const corepcg_constraint *c, int N, char *why);

/* Validates the records (as cpg_constraint_check, plus duplicates) and
 * builds U. */
int cpg_ublocks_build(int N, const corepcg_constraint *c, int count,
                      cpg_ublocks *out, char *msg);

/* One node's U block from the normalised directions. Exposed for tests. */
void cpg_ublock_plane(const double p[3], double U[9]);
int cpg_ublock_line(const double p[3], const double q[3], double U[9]);

/* Parses constraints.txt (docs/format.md). *out is malloc'd (NULL when the file
 * lists none). Messages name path:line. Records are validated as by
 * cpg_ublocks_build. */
int cpg_constraints_read(const char *path, int N, corepcg_constraint **out,
                         int *count, char *msg);

/* v <- S v (per node U U^T v). */
void cpg_filter(const cpg_ublocks *u, double *v);
/* out = (I - S) z: the prescribed part. */
void cpg_prescribed(const cpg_ublocks *u, const double *z, double *out);
/* xt (r) = U^T x (n). */
void cpg_restrict(const cpg_ublocks *u, const double *x, double *xt);
/* x (n) = U xt (r) + w (n); w may be NULL. */
void cpg_prolong(const cpg_ublocks *u, const double *xt, const double *w,
                 double *x);

/* ------------------------------------------------------------ a system */

/* A system as the library keeps it. cpg_sys_import is the one path by
 * which a caller's corepcg_system enters: setup, update, check and the
 * bundle writer all validate through it, so they refuse the same inputs
 * with the same codes. Everything is copied: the caller's arrays may go. */
typedef struct cpg_import_map cpg_import_map; /* import_map.c */

typedef struct cpg_sys {
    cpg_bmat A;
    cpg_ublocks u;
    double *z;          /* n: prescribed values (zeros when none)  */
    double *w;          /* n: (I - S) z                            */
    int num_stretch;
    int *stretch;       /* 2 num_stretch node indices, as given    */
    cpg_import_map *map; /* how the caller's A maps onto A's blocks, for
                            the next import (NULL unless asked for) */
} cpg_sys;

/* Validates and copies in: A (cpg_bmat_from_system), the constraint
 * records (cpg_ublocks_build), the stretch pairs (cpg_stretch_check), z
 * (finite). On failure *out is empty. */
int cpg_sys_import(const corepcg_system *in, cholmod_common *cm, cpg_sys *out,
                   char *msg);
void cpg_sys_free(cpg_sys *s);

/* The import of a simulator's next step: as cpg_sys_import, and out gets
 * a map of the caller's pattern; when prev has one and in has the very
 * same pattern arrays with finite values, A's values are only scattered
 * (the rest is imported as always) and prev's map moves to out. spare
 * (may be NULL) holds an earlier A of the same pattern whose arrays are
 * then reused (and spare emptied). */
int cpg_sys_import_next(const corepcg_system *in, cpg_sys *prev,
                        cpg_bmat *spare, cholmod_common *cm, cpg_sys *out,
                        char *msg);

/* import_map.c: the map (none for BOTH, whose symmetry each import must
 * check), and A's values through it into out (0 when the pattern or the
 * values do not allow it: then nothing is allocated). */
int cpg_import_map_build(const corepcg_system *in, const cpg_bmat *A,
                         cpg_import_map **out);
int cpg_import_map_values(const cpg_import_map *m, const corepcg_system *in,
                          const cpg_bmat *prev, cpg_bmat *spare, cpg_bmat *out);
void cpg_import_map_free(cpg_import_map **m);

/* ERR_ARGUMENT for a negative count or NULL pairs, ERR_DIMENSION for a
 * node outside [0, N), ERR_FORMAT for a node joined to itself. */
int cpg_stretch_check(int num_stretch, const int *pairs, int N, char *msg);

/* 1 when a and b have the same block pattern of A / the same ndof for
 * every node / the same stretch pairs. */
int cpg_sys_same_blocks(const cpg_sys *a, const cpg_sys *b);
int cpg_sys_same_ndof(const cpg_sys *a, const cpg_sys *b);
int cpg_sys_same_stretch(const cpg_sys *a, const cpg_sys *b);

/* 1 when every entry of v (n) is zero: a right-hand side whose answer is
 * zero, which PCG would otherwise chase to underflow. */
int cpg_all_zero(const double *v, int n);

/* ------------------------------------------------------------ reducer */

/* A~ = U^T A U by node blocks: A's block pattern without the blocks of
 * fixed nodes. For free node J, blocks p[J] .. p[J+1]-1; block k couples
 * row node I (reduced offset i[k], d[k] = ndof_I) and holds U_I^T A_IJ U_J
 * (d[k] x ndof_J, column-major) in x[9k ..]; src[k] is its block in A.
 * The PCG loop multiplies with this form (by blocks it is faster than by
 * scalar columns). A and u are borrowed: they must outlive it. */
typedef struct cpg_rmat {
    const cpg_bmat *A;
    const cpg_ublocks *u;
    int *p, *i, *src;
    unsigned char *d;
    unsigned char *all3;   /* per node: ndof 3 and every row node ndof 3 */
    double *x;
} cpg_rmat;

/* Allocates and fills (ERR_NO_MEMORY on failure). */
int cpg_rmat_build(cpg_rmat *rm, const cpg_bmat *A, const cpg_ublocks *u);
/* Recomputes the values after A's values (or U) changed, same pattern. */
void cpg_rmat_values(cpg_rmat *rm);
/* 1 when u frees the same nodes as rm was built for (ndof 2 <-> 3 and the
 * like keep rm's blocks; a node becoming fixed or free does not). */
int cpg_rmat_same_free(const cpg_rmat *rm, const cpg_ublocks *u);
/* After such an ndof change (same free nodes): offsets, block sizes and
 * values from rm->u again, in place. */
void cpg_rmat_renumber(cpg_rmat *rm);
void cpg_rmat_free(cpg_rmat *rm);
/* yt (r) = A~ xt (r); cpg_rmat_apply is the same as a cpg_apply_fn. */
void cpg_rmat_mult(const cpg_rmat *rm, const double *xt, double *yt);
void cpg_rmat_apply(void *rm, const double *xt, double *yt);
/* V (dI x dJ, column-major with leading dimension dI) = U_I^T B U_J for
 * one 3x3 block B (column-major) of A. */
void cpg_reduce_block(const double *B, const double *UI, int dI,
                      const double *UJ, int dJ, double *V);

/* ------------------------------------------------------------ the core */

/* Marks the blocks of A that the core keeps: diagonal blocks plus the
 * blocks of the stretch pairs (core STRETCH: num_stretch pairs of node
 * indices; none is ERR_NO_CORE) or of blocks passing the
 * threshold (core AUTO). keep has A->p[nb] entries; *kept counts the
 * off-diagonal blocks kept (both triangles counted once). */
int cpg_core_mark(const cpg_bmat *A, int num_stretch, const int *pairs,
                  corepcg_core mode, double threshold, unsigned char *keep,
                  long *kept, char *msg);

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

/* One PCG run (Ye et al.'s uPCG; with a filter, Ascher & Boxerman's MPCG).
 * Stops when delta <= tol^2 delta0 with delta0 = bd^T M^-1 bd, or the
 * delta0 given when bdelta is NULL (Baraff & Witkin's (S b)^T P (S b)). */
typedef struct cpg_pcg_problem {
    int n;
    cpg_apply_fn matvec;  void *matvec_ctx;    /* out = A in            */
    cpg_precond_fn precond; void *precond_ctx; /* out = M^-1 in         */
    cpg_precond2_fn precond2; /* or NULL: with bdelta, the first two
                                 applications (delta0's and the initial
                                 residual's) as one; same precond_ctx   */
    cpg_filter_fn filter; void *filter_ctx;    /* v = S v; NULL if none */
    const double *b;       /* right-hand side                            */
    const double *bdelta;  /* vector defining delta0 (b or b^), or NULL  */
    double delta0;         /* used when bdelta is NULL                   */
    int stop_residual;     /* COREPCG_STOP_RESIDUAL: stop on |r| <= tol
                              |bdelta| (|r0| when bdelta is NULL) instead */
    double tol;
    int max_iter;
} cpg_pcg_problem;

typedef struct cpg_pcg_work {
    double *r, *c, *q, *s;   /* 4 vectors of length n */
} cpg_pcg_work;

int cpg_pcg_work_alloc(cpg_pcg_work *w, int n);
void cpg_pcg_work_free(cpg_pcg_work *w);

/* x holds the initial guess on entry and the answer on exit. Returns OK,
 * NOT_CONVERGED, ERR_BREAKDOWN or ERR_NAN; *iterations is always set. */
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
int cpg_precond_full(cpg_precond *pc, corepcg_precond kind, const cpg_bmat *A,
                     char *msg);
/* Per node U_i (U_i^T A_ii U_i)^-1 U_i^T, applied in the full space: on
 * range(S) the node-block preconditioner of A~ (upcg's block), for the
 * loop with the filter. */
int cpg_precond_projected_blocks(cpg_precond *pc, const cpg_bmat *A,
                                 const cpg_ublocks *u, char *msg);
int cpg_precond_apply(void *pc, const double *in, double *out);
void cpg_precond_free(cpg_precond *pc);

/* ------------------------------------------------ CHOLMOD factorisation */

typedef struct cpg_factor {
    cholmod_factor *L;
    cholmod_dense *B, *X, *Y, *E;  /* solve2 workspace, kept across calls */
    cholmod_dense *B2, *X2, *Y2, *E2; /* the same for two columns */
    int *perm;                     /* n, or NULL: the matrix factorised is
                                      stored in this order (row k is
                                      unknown perm[k]) and L is its natural
                                      factor; solves gather and scatter */
    int supernodal;
    int node_ordering;             /* 1: ordered by nodes (ordering_used) */
    corepcg_ordering ordering_used;
    double flops;                  /* CHOLMOD's flop count of a numeric
                                      factorisation with this analysis */
    int bad_column;                /* after a not-SPD failure: the column
                                      (original order) that failed, or -1 */
} cpg_factor;

/* Analyse (pattern only). */
int cpg_factor_analyze(cpg_factor *f, cholmod_sparse *M, corepcg_ordering ord,
                       corepcg_factor kind, cholmod_common *cm, char *msg);
/* Analyse a matrix whose unknowns come in node groups (node i owns
 * columns off[i] .. off[i+1]-1, possibly none): the fill-reducing ordering
 * is computed on the node graph, N nodes instead of up to 3N unknowns, and
 * expanded so that each node's unknowns stay together. BEST tries AMD and,
 * when its fill is high (CHOLMOD's own rule), METIS, keeping the sparser. */
int cpg_factor_analyze_nodes(cpg_factor *f, cholmod_sparse *M, const int *off,
                             int N, corepcg_ordering ord, corepcg_factor kind,
                             cholmod_common *cm, char *msg);
/* Analyse a matrix M that is already stored in its factor's order
 * (perm[k] = the unknown of row k, as an earlier analysis chose it, its
 * postorder included) with CHOLMOD's natural order: cholmod_factorize then
 * uses M as it is, without the two permuted transposes (and their fresh
 * memory) that it makes of a lower matrix on every call otherwise. perm
 * is copied; ordering_used records the order perm came from. A
 * supernodal L's storage is allocated now, with a transparent-huge-page
 * hint, so that the first factorisation does not fault on every 4 KiB
 * page (a simplicial one, for small systems, at the first
 * factorisation); so is every workspace of the solves. */
int cpg_factor_analyze_natural(cpg_factor *f, cholmod_sparse *M,
                               const int *perm, corepcg_ordering ordering_used,
                               corepcg_factor kind, cholmod_common *cm,
                               char *msg);
/* Numeric factorisation with the kept analysis; not_spd_code is returned
 * when M is not positive definite (CHOLMOD's status or a D <= 0), with
 * f->bad_column set and msg naming the column. */
int cpg_factor_numeric(cpg_factor *f, cholmod_sparse *M, int not_spd_code,
                       cholmod_common *cm, char *msg);
/* out = M^-1 in, without allocating after the first call (in and out in
 * the unknowns' order, also with f->perm). */
int cpg_factor_solve(cpg_factor *f, const double *in, double *out,
                     cholmod_common *cm);
/* out1 = M^-1 in1 and out2 = M^-1 in2 as one two-column solve: each
 * triangular solve then streams L once for both (measured 1.6x one
 * column's time). Allocates nothing after its first call. */
int cpg_factor_solve2(cpg_factor *f, const double *in1, const double *in2,
                      double *out1, double *out2, cholmod_common *cm);
long cpg_factor_nnz(const cpg_factor *f);
corepcg_ordering cpg_factor_ordering(const cpg_factor *f);
void cpg_factor_free(cpg_factor *f, cholmod_common *cm);

/* -------------------------------------------------------------- check */

/* docs/format.md's measures, on the internal representation, with two work
 * vectors of n doubles (no allocation). A NaN anywhere gives NaN. */
void cpg_check_measures(const cpg_bmat *A, const cpg_ublocks *u,
                        const double *b, const double *z, const double *x,
                        double *w, double *Aw, double *constraint_error,
                        double *rel_residual);

#endif /* COREPCG_INTERNAL_H */

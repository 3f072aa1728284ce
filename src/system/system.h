/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * system.h -- the system as the library keeps it (system/): A by 3x3 node
 * blocks (bmat.c), the constraints as per-node bases U (ublocks.c; the
 * file constraints.txt is io/constraints_read.c's), the import that
 * validates and copies a caller's system (system.c, import_map.c) and the
 * reduced matrix A~ = U^T A U by node blocks (reduce.c). Not installed.
 */
#ifndef COREPCG_SYSTEM_H
#define COREPCG_SYSTEM_H

#include "base.h"

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

/* CHOLMOD's common and sparse matrix, opaque here: A in any format but
 * lower CSC is converted with CHOLMOD's sparse utilities (bmat.c,
 * symmetry.c), and only the files that call CHOLMOD include it
 * (cholmod_quiet.h). */
struct cholmod_common_struct;
struct cholmod_sparse_struct;

/* Validates sys->A (sizes, indices, triangle, finiteness, symmetry for
 * BOTH) and converts it to a block matrix with both triangles. cm: a
 * started common, or NULL: a format that needs CHOLMOD starts one for
 * the call (lower CSC needs none). */
int cpg_bmat_from_system(const corepcg_system *sys,
                         struct cholmod_common_struct *cm, cpg_bmat *out,
                         char *msg);

/* COREPCG_OK when A (stored with both triangles) is symmetric to
 * round-off, |a_ij - a_ji| <= 1e-12 max|A|; else ERR_NOT_SYMMETRIC with
 * msg "<what> is not symmetric: A(i,j) = .., A(j,i) = .." naming the worst
 * pair (indices + base). O(nnz): one transpose and one difference; when
 * A is symmetric and transpose is not NULL, *transpose is that A^T (the
 * caller frees it), so a caller who needs it does not transpose again. */
int cpg_symmetry_check(struct cholmod_sparse_struct *A, const char *what,
                       int base, struct cholmod_common_struct *cm,
                       struct cholmod_sparse_struct **transpose, char *msg);

/* 1 when the two matrices have the same block pattern. */
int cpg_bmat_same_pattern(const cpg_bmat *a, const cpg_bmat *b);

/* Where node J's diagonal block lies (cpg_bmat_from_system guarantees
 * that it exists). */
long cpg_bmat_diagonal(const cpg_bmat *A, int J);

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
 * [0, N), ndof in {0, 1, 2, 3} (3: free, as if unlisted; the file refuses
 * it), p (ndof 1, 2) and q (ndof 1) nonzero and
 * finite, |p.q| <= 1e-6 after normalising. Returns OK, ERR_NOT_FINITE (a
 * NaN or Inf in p or q) or ERR_CONSTRAINT with a short reason ("q is not orthogonal to p (|p.q| = 0.1)") in why
 * (COREPCG_MSG_SIZE bytes). */
int cpg_constraint_check(const corepcg_constraint *c, int N, char *why);

/* Validates the records (as cpg_constraint_check, plus duplicates) and
 * builds U. */
int cpg_ublocks_build(int N, const corepcg_constraint *c, int count,
                      cpg_ublocks *out, char *msg);

/* One node's U block from the normalised directions. Exposed for tests. */
void cpg_ublock_plane(const double p[3], double U[9]);
int cpg_ublock_line(const double p[3], const double q[3], double U[9]);

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
                            the next import (or NULL) */
} cpg_sys;

/* Validates and copies in: A (cpg_bmat_from_system, cm as there), the
 * constraint records (cpg_ublocks_build), the stretch pairs
 * (cpg_stretch_check), z (finite). On failure *out is empty. */
int cpg_sys_import(const corepcg_system *in, struct cholmod_common_struct *cm,
                   cpg_sys *out, char *msg);
void cpg_sys_free(cpg_sys *s);

/* The import of a simulator's next step: as cpg_sys_import, and out
 * gets a map of the caller's pattern (import_map.c). When prev has one
 * that takes in (the same pattern, finite values), A's values are only
 * scattered (the rest is imported as always) and prev's map moves to out.
 * A setup (prev NULL) makes only the walked kind of map, for a lower CSC
 * A, which costs little beside the import; the copied kind, for other
 * inputs, costs about as much as the import, so a one-shot solve never
 * builds it and the first update does. spare (may be NULL) holds an
 * earlier A of the same pattern whose arrays are then reused (and spare
 * emptied). A full import that needs CHOLMOD starts a common for the
 * call (cpg_bmat_from_system with cm NULL). */
int cpg_sys_import_next(const corepcg_system *in, cpg_sys *prev,
                        cpg_bmat *spare, cpg_sys *out, char *msg);

/* free_blocks.c: OK when every node's diagonal block of A on its free
 * directions (U^T A_JJ U) is positive definite (a Cholesky whose pivots
 * are all above zero), else ERR_NOT_SPD naming the first node that is not. */
int cpg_free_blocks_check(const cpg_bmat *A, const cpg_ublocks *u, char *msg);

/* import_map.c: the map (none for BOTH, whose symmetry each import must
 * check; with walk_only, none unless in can be walked), and A's values
 * through it into out (0, out empty, when the pattern or the values do
 * not allow it). */
int cpg_import_map_build(const corepcg_system *in, const cpg_bmat *A,
                         int walk_only, cpg_import_map **out);
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
/* V (dI x dJ, column-major with leading dimension dI) = U_I^T B U_J for
 * one 3x3 block B (column-major) of A. */
void cpg_reduce_block(const double *B, const double *UI, int dI,
                      const double *UJ, int dJ, double *V);

#endif /* COREPCG_SYSTEM_H */

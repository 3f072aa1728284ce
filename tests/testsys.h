/* SPDX-License-Identifier: GPL-2.0-or-later */
/* testsys.h -- small random constrained SPD systems for the tests, built
 * without the library (so that the tests check it against something that
 * does not share its code), plus dense reference computations.
 *
 * A system is a "cloth-like" g x g grid of nodes: per node a random SPD
 * 3x3 mass block, per spring (stretch to the 4 neighbours, optionally
 * shear to the 4 diagonals and bend to nodes two apart) a random SPD 3x3
 * stiffness K added as [K -K; -K K], so A is SPD by construction and the
 * stretch-only core (all diagonal blocks kept) is SPD too. Random
 * constraints of every ndof kind with random non-axis p, q; random z, b,
 * x0; stretch pairs = the stretch springs. */
#ifndef COREPCG_TESTSYS_H
#define COREPCG_TESTSYS_H

#include "corepcg.h"

/* A deterministic generator; each user holds its own state. */
typedef struct testsys_rng {
    unsigned long state;
} testsys_rng;

void testsys_rng_seed(testsys_rng *r, unsigned long seed);
double testsys_uniform(testsys_rng *r);            /* in (0, 1) */
double testsys_sym(testsys_rng *r);                /* in (-1, 1) */
void testsys_unit(testsys_rng *r, double v[3]);    /* random unit vector */
/* A random unit vector orthogonal to unit p (to round-off). */
void testsys_orthogonal_unit(testsys_rng *r, const double p[3], double q[3]);
/* A record's unit p and, for ndof 1, its q normalised and made orthogonal
 * to p as docs/format.md says (q = 0 otherwise); computed without library code. */
void testsys_record_directions(const corepcg_constraint *c, double p[3],
                               double q[3]);

/* A random SPD spring stiffness of size about k: k (0.5..1.5) times
 * (d d^T + eps I), d a random unit vector, eps in (0.05, 0.15). */
void testsys_spring_K(testsys_rng *r, double k, double K[9]);

typedef struct testsys_opts {
    int g;                  /* g x g nodes, N = g^2, n = 3 g^2 */
    double mass;            /* scale of the diagonal mass blocks */
    double k_stretch, k_shear, k_bend;  /* 0 drops that family */
    double frac_constrained; /* share of nodes given a constraint; the
                                kinds ndof 2, 1, 0 are cycled */
    int ndof_only;          /* -1 (default): cycle; 0, 1 or 2: every
                               record has this ndof */
    unsigned long seed;
} testsys_opts;

/* mass 1, k_stretch 50, k_shear 2, k_bend 0.5, 25% constrained, ndof
 * cycled. */
void testsys_default_opts(testsys_opts *o, int g, unsigned long seed);

typedef struct testsys {
    int g, N, n;
    /* A by 3x3 blocks, both triangles, block rows sorted per column;
     * block k is bx[9k..9k+8] column-major. */
    int *bp, *bi;
    double *bx;
    int ncons;
    corepcg_constraint *cons;
    int *ndof;              /* N, 3 where unconstrained */
    double *S;              /* 9 N: S_i per node, column-major */
    int r;                  /* sum of ndof */
    double *z, *b, *x0;     /* n each */
    int nstretch;
    int *pairs;             /* 2 nstretch */
    /* the scalar arrays behind sys (rebuilt by testsys_set_form) */
    int *colptr, *rowidx, *colidx;
    double *values;
    int nnz;
    corepcg_system sys;
} testsys;

/* Builds a system; sys is CSC LOWER. Returns 0, or -1 out of memory. */
int testsys_make(testsys *t, const testsys_opts *o);
void testsys_free(testsys *t);

/* Rebuilds sys's A arrays in another form. TRIPLET splits every entry
 * into two duplicates (summing to the value) and shuffles the order, so
 * that the reader must sum duplicates. Returns 0 or -1. */
int testsys_set_form(testsys *t, corepcg_format format,
                     corepcg_triangle triangle);

/* Replaces the constraint records (copied; valid ones expected) and
 * recomputes ndof, r, S and sys. Returns 0 or -1. */
int testsys_set_constraints(testsys *t, const corepcg_constraint *c,
                            int count);

/* Joins nodes a != b with one more spring K (SPD, column-major): adds
 * [K -K; -K K], putting the blocks (a, b) and (b, a) into the pattern
 * when they are not in it (a "contact" between nodes no spring joins).
 * A stays SPD. sys is stale until testsys_set_form. Returns 0 or -1. */
int testsys_add_coupling(testsys *t, int a, int b, const double K[9]);

/* A random PSD element Hessian over m nodes (m <= TESTSYS_MAX_ELEMENT):
 * k times the sum of `rank` outer products h h^T, each h (3m) with its
 * nodes' 3-vectors summing to zero, so that the translations are in its
 * null space as an element's are. H is 3m x 3m column-major. An
 * off-diagonal block k h_a h_b^T is generically not symmetric. */
#define TESTSYS_MAX_ELEMENT 4
void testsys_element_H(testsys_rng *r, int m, int rank, double k, double *H);

/* Adds the element Hessian H (3m x 3m, column-major, symmetric) over the
 * distinct nodes[0..m-1], putting the blocks between them into the
 * pattern where they are not in it (a hinge's coupling of the two
 * vertices opposite its edge). A stays SPD when H is PSD. sys is stale
 * until testsys_set_form. Returns 0 or -1. */
int testsys_add_element(testsys *t, int m, const int *nodes, const double *H);

/* Negates node i's diagonal block (A becomes indefinite) and rebuilds
 * the arrays in CSC LOWER. */
void testsys_negate_diagonal_block(testsys *t, int node);

/* Scales all of A's values by s (same pattern) and rebuilds CSC LOWER. */
void testsys_scale(testsys *t, double s);

/* The 3x3 block (I, J) of A, or NULL when it is not in the pattern. */
const double *testsys_block(const testsys *t, int I, int J);

/* y = A x with the block matrix (n). */
void testsys_mult(const testsys *t, const double *x, double *y);

/* Dense n x n column-major A and S (malloc'd; caller frees). S is built
 * from the records as docs/format.md defines it: I - p p^T (ndof 2),
 * I - p p^T - q q^T with q made orthogonal to p (ndof 1), 0 (ndof 0). */
double *testsys_dense_A(const testsys *t);
double *testsys_dense_S(const testsys *t);

/* The reference answer: [S A + (I - S)] x = S b + (I - S) z solved
 * densely with LAPACKE_dgesv (no U involved). Returns 0 or the LAPACK
 * info. */
int testsys_dense_solve(const testsys *t, const double *b, double *x);

/* docs/format.md's measures computed here, independently of the library:
 * max |(I - S)(x - z)| and |S(b - A x)|_2 / |S(b - A(I - S)z)|_2. */
void testsys_measures(const testsys *t, const double *b, const double *x,
                      double *constraint_error, double *rel_residual);

/* The same two, from the caller's arrays of any corepcg_system (CSC or
 * triplets, any triangle; dense, so for small systems). */
int testsys_system_dense_solve(const corepcg_system *sys, const double *b,
                               double *x);
void testsys_system_measures(const corepcg_system *sys, const double *b,
                             const double *x, double *constraint_error,
                             double *rel_residual);

/* max_k |a_k - b_k| and max_k |a_k| over n entries. */
double testsys_max_diff(int n, const double *a, const double *b);
double testsys_max_abs(int n, const double *a);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* amg.h -- smoothed-aggregation algebraic multigrid (Vanek, Mandel &
 * Brezina 1996) on the projected matrix
 *
 *     Ap = S A S + D (I - S),   D = blockdiag(d_i I), d_i = trace(A_ii)/3,
 *
 * by 3x3 node blocks on every level: one V(1,1) cycle, node-block
 * Gauss-Seidel forward before the coarse correction and backward after
 * it, is a symmetric positive definite preconditioner of Ap, and S M^-1 S
 * one of A on range(S) (the loop with the filter, full_solve.c).
 *
 * The hierarchy's pattern depends on A's block pattern and the stretch
 * pairs' graph alone (no strength threshold, which would make it depend
 * on values), so that it is made once per mesh (amg_pattern.c): the
 * finest level's node order, the aggregates (amg_graph.c), the patterns
 * of P = (I - omega D^-1 A) T, R = P^T, A P and the Galerkin R A P. Each
 * step recomputes the values (amg_values.c: T the translations on each
 * node's free directions) and the coarsest level's dense Cholesky
 * factor; the cycle (amg_cycle.c) allocates nothing. Blocks are 3x3,
 * row-major, by block rows. The measurements behind the method are in
 * docs/benchmark.md ("amgpcg: the multigrid in C"). Not installed. */
#ifndef COREPCG_AMG_H
#define COREPCG_AMG_H

#include "system.h"

/* A matrix of 3x3 blocks by block rows: n block rows, m block columns,
 * row i's blocks p[i] .. p[i+1]-1 in ascending columns j[], entry (a, c)
 * of block k at x[9k + 3a + c]; diag[i] the position of block (i, i) for
 * a square one (else NULL). */
typedef struct cpg_bsr {
    int n, m;
    int *p, *j, *diag;
    double *x;
    float *f;           /* x rounded and each block stored by columns,
                           for the cycle (amg_cycle.c): the levels'
                           operators, P and R only; one float more */
} cpg_bsr;

/* Coarsening stops at this many nodes by default (amgpcg's
 * amg_coarse_nodes), or at CPG_AMG_MAX_LEVELS, or where the graph no
 * longer coarsens; the last level is solved by a dense Cholesky factor
 * when it has at most CPG_AMG_DENSE_NODES nodes, else by a symmetric
 * Gauss-Seidel sweep. */
#define CPG_AMG_COARSE_NODES 200
#define CPG_AMG_DENSE_NODES 1000
#define CPG_AMG_MAX_LEVELS 12

typedef struct cpg_amg_level {
    cpg_bsr A;          /* this level's operator */
    double *dinv;       /* 9 n: inverses of A's diagonal blocks */
    int *agg;           /* n: each node's aggregate (a coarse node) */
    double *scale;      /* nc: 1 / sqrt(the aggregate's size) */
    cpg_bsr P, R, AP;   /* n x nc, nc x n, n x nc (not on the last) */
    int *r_src;         /* R's blocks: each one's position in P */
    double *x, *b, *r;  /* 3 n each: the cycle's vectors */
    int part[2];        /* the sweeps' parts of rows (amg_cycle.c):
                           [0, part[0]) and [part[0], part[1]) share no
                           block, [part[1], n) separates them */
} cpg_amg_level;

typedef struct cpg_amg {
    int levels;
    cpg_amg_level lev[CPG_AMG_MAX_LEVELS];
    int dense;          /* 1: the last level by a dense Cholesky factor */
    double *chol;       /* (3 n_last)^2 when dense */
    double *power;      /* 6 n_0: the spectral estimate's vectors */
    int avx2;           /* 1: the cycle's 4-wide kernel (cpg_have_avx2) */
    int *mark[2];       /* n_0 each: the products' row markers, one per
                           half of the rows (amg_values.c) */
    double *filters;    /* 9 n_0: S_i = U_i U_i^T of the last values,
                           by the finest level's numbering */
    int *order, *rank;  /* n_0: the finest level's row k is A's node
                           order[k]; node i is its row rank[i] */
    int *src;           /* the finest level's blocks: each one's in A */
    int *graph_p, *graph_j; /* the stretch pairs' graph (n_0 + 1, its
                           edges), or NULL: aggregated on A's */
} cpg_amg;

/* The hierarchy's pattern for A's block pattern (values left unset),
 * the finest level aggregated on the graph of the stretch pairs when
 * there are any (the mesh's edges: the strong couplings), else on A's;
 * coarsening stops at coarse_nodes nodes (at most CPG_AMG_DENSE_NODES).
 * OK, ERR_ARGUMENT (a diagonal block missing) or ERR_NO_MEMORY (amg
 * empty). */
int cpg_amg_analyse(cpg_amg *amg, const cpg_bmat *A, int num_stretch,
                    const int *stretch, int coarse_nodes, char *msg);
void cpg_amg_free(cpg_amg *amg);
/* 1 when these stretch pairs make the graph the finest level was
 * aggregated on (the same pairs in any order, either way round, or none
 * again); 0 when not or out of memory. */
int cpg_amg_same_graph(const cpg_amg *amg, int num_stretch, const int *stretch);

/* Every level's values from A and U: Ap, the smoothed prolongators, the
 * Galerkin operators and the coarse factor. OK, or ERR_NOT_SPD naming
 * the node (or the coarse level) whose block is not positive definite:
 * Ap is positive definite whenever A~ is, so A~ is not. */
int cpg_amg_values(cpg_amg *amg, const cpg_bmat *A, const cpg_ublocks *u,
                   char *msg);

/* out = M^-1 in (3 n_0 each) by one V(1,1) cycle: a cpg_precond_fn
 * (always OK). */
int cpg_amg_cycle(void *amg, const double *in, double *out);

/* The sum of the levels' stored blocks over the finest's (the operator
 * complexity) and the nodes of level l. */
double cpg_amg_complexity(const cpg_amg *amg);

/* ---------------------------------------------------- shared kernels */

/* y = A x on A's block rows [from, to). */
void cpg_bsr_mult_rows(const cpg_bsr *A, const double *x, double *y, int from,
                       int to);
/* The pattern of C = X Y (C's arrays allocated; values not): OK or
 * ERR_NO_MEMORY. mark: Y->m ints of scratch. */
int cpg_bsr_product_pattern(const cpg_bsr *X, const cpg_bsr *Y, cpg_bsr *C,
                            int *mark);
/* C's values = X Y on the pattern above, on C's block rows [from, to).
 * mark: Y->m ints. */
void cpg_bsr_product_rows(const cpg_bsr *X, const cpg_bsr *Y, cpg_bsr *C,
                          int *mark, int from, int to);
void cpg_bsr_free(cpg_bsr *A);
/* A->f = A->x rounded to single precision, blocks by columns (allocated
 * on first use): OK or ERR_NO_MEMORY. */
int cpg_bsr_round(cpg_bsr *A);

/* ------------------------------------------- node graphs (amg_graph.c) */

/* A node graph by rows (CSR, no values): A's off-diagonal blocks, or the
 * stretch pairs on the finest level. */
typedef struct cpg_amg_graph {
    int n;
    const int *p, *j;
} cpg_amg_graph;

/* Standard aggregation of g visiting its nodes in visit's order (NULL:
 * 0, 1, ...), the aggregates numbered by their first nodes: returns
 * their number, agg[i] each node's; scratch: n ints. */
int cpg_amg_aggregate(const cpg_amg_graph *g, const int *visit, int *agg,
                      int *scratch);
/* The graph of A0's off-diagonal blocks into p (n + 1) and j (nnz). */
void cpg_amg_matrix_graph(const cpg_bsr *A0, int *p, int *j);
/* The graph of the stretch pairs (each once, rows ascending, a node
 * paired with itself left out) into p (n + 1) and j (2 num_stretch);
 * mark: n ints of scratch. */
void cpg_amg_stretch_graph(int n, int num_stretch, const int *pairs, int *p,
                           int *j, int *mark);
/* The graph of the aggregates of g into qp (nc + 1) and qj (at most g's
 * edges); mark: nc ints, first: nc + 1, members: n of scratch. */
void cpg_amg_aggregate_graph(const cpg_amg_graph *g, const int *agg, int nc,
                             int *qp, int *qj, int *mark, int *first,
                             int *members);

#endif /* COREPCG_AMG_H */

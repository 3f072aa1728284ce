/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * factor.h -- factorisations (factor/): the CHOLMOD wrapper (factor.c,
 * factor_analyse.c, factor_numeric.c) and the blocks the matrix core
 * keeps (core_blocks.c). The projected matrix and its factor are in
 * projected.h, the incomplete factor of A~ in ichol.h. Not installed.
 */
#ifndef COREPCG_FACTOR_H
#define COREPCG_FACTOR_H

#include "cholmod_quiet.h" /* the factorisations' back end */
#include "system.h"

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
    /* After a not-SPD failure: where the factorisation failed, as numbers
     * (cpg_factor_not_spd_text words them). */
    int bad_column;                /* the column (original order), or -1 */
    size_t bad_step;               /* its place in L: pivot bad_step + 1 */
    int bad_has_pivot;             /* 1: bad_pivot is its pivot (D or L's
                                      diagonal, <= 0 or not finite); 0:
                                      CHOLMOD stopped there itself */
    double bad_pivot;
} cpg_factor;

/* Each analysis takes a common started for it, once, with the factor
 * kind (LDL: simplicial LDL^T; LL: supernodal LL^T; AUTO: CHOLMOD's
 * choice); the factorisations and solves of its factor use the same
 * common, and nothing rewrites its settings afterwards. A common started
 * for the other analysis is refused (ERR_ARGUMENT). Both starters return
 * OK or a code, with msg; the common is freed by cholmod_finish. */
int cpg_factor_start_nodes(cholmod_common *cm, corepcg_factor kind, char *msg);
int cpg_factor_start_natural(cholmod_common *cm, corepcg_factor kind,
                             char *msg);

/* Analyse a matrix whose unknowns come in node groups (node i owns
 * columns off[i] .. off[i+1]-1, possibly none): the fill-reducing ordering
 * is computed on the node graph, N nodes instead of up to 3N unknowns, and
 * expanded so that each node's unknowns stay together. BEST tries AMD and
 * METIS, keeping the sparser. cm: started by cpg_factor_start_nodes. */
int cpg_factor_analyze_nodes(cpg_factor *f, cholmod_sparse *M, const int *off,
                             int N, corepcg_ordering ord, cholmod_common *cm,
                             char *msg);
/* Analyse a matrix M that is already stored in its factor's order
 * (perm[k] = the unknown of row k, as an earlier analysis chose it, its
 * postorder included) with CHOLMOD's natural order: cholmod_factorize then
 * uses M as it is, without the two permuted transposes (and their fresh
 * memory) that it makes of a lower matrix on every call otherwise. perm
 * is copied; ordering_used records the order perm came from. A
 * supernodal L's storage is allocated now, with a transparent-huge-page
 * hint, so that the first factorisation does not fault on every 4 KiB
 * page (a simplicial one, for small systems, at the first
 * factorisation); so is every workspace of the solves. cm: started by
 * cpg_factor_start_natural. */
int cpg_factor_analyze_natural(cpg_factor *f, cholmod_sparse *M,
                               const int *perm, corepcg_ordering ordering_used,
                               cholmod_common *cm, char *msg);
/* Numeric factorisation with the kept analysis; not_spd_code is returned
 * when M is not positive definite (CHOLMOD's status or a D <= 0), with
 * f->bad_column, bad_step and the pivot set and msg "not positive
 * definite: " followed by cpg_factor_not_spd_text. */
int cpg_factor_numeric(cpg_factor *f, cholmod_sparse *M, int not_spd_code,
                       cholmod_common *cm, char *msg);
/* Where the last cpg_factor_numeric failed, from f's numbers: "pivot
 * -4.5 at column 102 (pivot 4 of 108)", or "the factorisation failed at
 * column 102 (pivot 4 of 108)" when CHOLMOD stopped without a pivot to
 * show. f->bad_column must be >= 0. */
void cpg_factor_not_spd_text(const cpg_factor *f, char *buf, size_t size);
/* out = M^-1 in, without allocating after the first call (in and out in
 * the unknowns' order, also with f->perm). */
int cpg_factor_solve(cpg_factor *f, const double *in, double *out,
                     cholmod_common *cm);
/* out1 = M^-1 in1 and out2 = M^-1 in2 as one two-column solve: each
 * triangular solve then streams L once for both, cheaper than two
 * (docs/benchmark.md, "Triangular solves"). Allocates nothing after its
 * first call. */
int cpg_factor_solve2(cpg_factor *f, const double *in1, const double *in2,
                      double *out1, double *out2, cholmod_common *cm);
long cpg_factor_nnz(const cpg_factor *f);
corepcg_ordering cpg_factor_ordering(const cpg_factor *f);
void cpg_factor_free(cpg_factor *f, cholmod_common *cm);

/* ------------------------------------------------------ the matrix core */

/* P = (B B^T)^(1/2) and Q = (B^T B)^(1/2) of a 3x3 block B (column-major),
 * from its singular value decomposition: deleting B and B^T from an SPD matrix
 * and adding P and Q to the two diagonal blocks leaves it SPD
 * (block_modulus.c). */
void cpg_block_modulus(const double *B, double *P, double *Q);

/* Marks the blocks of A that the core keeps: diagonal blocks plus the
 * blocks of the stretch pairs (core STRETCH: num_stretch pairs of node
 * indices; none is ERR_NO_CORE) or of blocks passing the
 * threshold (core AUTO). keep has A->p[nb] entries; *kept counts the
 * off-diagonal blocks kept (both triangles counted once). */
int cpg_core_mark(const cpg_bmat *A, int num_stretch, const int *pairs,
                  corepcg_core mode, double threshold, unsigned char *keep,
                  long *kept, char *msg);

#endif /* COREPCG_FACTOR_H */

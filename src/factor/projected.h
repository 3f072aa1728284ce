/* SPDX-License-Identifier: GPL-2.0-or-later */
/* projected.h -- a selection B of A's node blocks (the matrix core, or all
 * of A) projected on the free directions,
 *
 *     Bp = S B S + D (I - S),   D = blockdiag(d_i I), d_i = trace(B_ii)/3,
 *
 * on the fixed pattern of those blocks over all 3N unknowns, and its
 * CHOLMOD factor. Bp's pattern, hence the symbolic analysis and the
 * factor's storage, depends only on the mesh: contacts that come and go
 * (ndof changes, nodes fixed or freed) change values only, refreshed in
 * place. Bp maps range(S) and range(I - S) onto themselves, so on range(S)
 * its inverse is U (U^T B U)^-1 U^T, the reduced matrix's (Ye, Webber &
 * Wang's), whatever D is; d_i only gives the constrained pivots the size
 * of the free ones.
 *
 * When B leaves blocks of A out, the values may be compensated: each block
 * left out, G = S_I A_IJ S_J, moved onto the diagonal as (G G^T)^(1/2)
 * added to block (I, I) and (G^T G)^(1/2) to (J, J) (cpg_block_modulus).
 * Then S B S >= S A S, so Bp is positive definite whenever the reduced A~
 * is, whatever force model assembled A. Not installed. */
#ifndef COREPCG_PROJECTED_H
#define COREPCG_PROJECTED_H

#include "factor.h"

typedef struct cpg_proj {
    int N;
    int *bp;              /* N + 1: lower blocks of block column J are
                             bp[J] .. bp[J+1]-1, the diagonal one first */
    int *src;             /* bp[N]: each one's index in A's blocks */
    int *row;             /* bp[N]: each one's block row (node I) */
    int *map;             /* 9 bp[N]: entry (a, c) of lower block b is
                             M->x[map[9b + 3c + a]] (a >= c on the
                             diagonal) */
    double *S;            /* 9 N: S_i = U_i U_i^T of the last refresh */
    cholmod_sparse *M;    /* Bp in its factor's order (fac.perm): its
                             lower triangle for a supernodal factor, its
                             upper one for a simplicial one */
    cpg_factor fac;       /* analysed once, refactorised in place */
} cpg_proj;

/* Pattern work, once per mesh: the blocks of A that keep marks (NULL: all
 * of them; the diagonal blocks must be among them), a fill-reducing order
 * of their node graph (ord, computed by cpg_factor_analyze_nodes in a
 * common of its own), the matrix stored in that order and its natural
 * analysis (cpg_factor_analyze_natural) in cm, the caller's, started by
 * cpg_factor_start_natural with the factor kind; every later call on p
 * takes the same cm. Leaves p empty on failure. */
int cpg_proj_analyse(cpg_proj *p, const cpg_bmat *A, const unsigned char *keep,
                     corepcg_ordering ord, cholmod_common *cm, char *msg);

/* 1 when the blocks of A that keep marks (count of them in A's lower
 * triangle, the diagonal included) are exactly the ones analysed, in
 * whatever block pattern A has now: the analysis then holds for A (a
 * contact spring outside the selection came or went), once repointed. */
int cpg_proj_selects(const cpg_proj *p, const cpg_bmat *A,
                     const unsigned char *keep, long count);

/* Points the selection at the same blocks in A's present pattern (which
 * cpg_proj_selects accepted). */
void cpg_proj_repoint(cpg_proj *p, const cpg_bmat *A);

/* Bp's values for A's values and the constraints u (A's block pattern as
 * at the analysis, or repointed), written in place; compensated: 1 moves
 * each block the selection leaves out onto the diagonal (see above). */
void cpg_proj_values(cpg_proj *p, const cpg_bmat *A, const cpg_ublocks *u,
                     int compensated);

/* 1 when a block the selection leaves out (between nodes with a free
 * direction) is not symmetric: a sign of an element over three or more
 * nodes, whose deletion may leave the plain selection indefinite (a
 * spring's blocks are symmetric). */
int cpg_proj_leaves_out_asymmetric(cpg_proj *p, const cpg_bmat *A,
                                   const cpg_ublocks *u);

/* Numeric factorisation of the values in place. When Bp is not positive
 * definite, returns not_spd_code with msg naming the node, e.g. "the
 * matrix core is not positive definite at node 7 (free direction 2 of 3):
 * ..." (what = "the matrix core"). */
int cpg_proj_factorise(cpg_proj *p, const cpg_ublocks *u, const char *what,
                       int not_spd_code, cholmod_common *cm, char *msg);

/* Stored entries of Bp (its lower triangle). */
long cpg_proj_nnz(const cpg_proj *p);

void cpg_proj_free(cpg_proj *p, cholmod_common *cm);

#endif /* COREPCG_PROJECTED_H */

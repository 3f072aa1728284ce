/* SPDX-License-Identifier: GPL-2.0-or-later */
/* free_blocks.c -- each node's diagonal block of A on its free
 * directions, U^T A_JJ U, positive definite: what A~ needs of every node
 * before any method runs. A massless node whose only stiffness lies
 * along one direction of its sliding plane made A~ singular: corePCG and
 * MPCG then iterated to max_iter with residuals of 1e13 and no word why
 * (an outside review), while direct and amgpcg named the node. */
#include "system.h"

#include <float.h>
#include <math.h>

/* M = U^T B U / max|B| (d x d, column-major) for B 3 x 3 and U's first d
 * columns: scaled, so that blocks near the largest double do not
 * overflow and subnormal ones do not underflow (there by a power of two,
 * entry by entry: 1 / max|B| itself overflows below 5.6e-309; an
 * outside review). Positive definiteness does not depend on the scale. */
static void on_free_directions(const double *B, const double *U, int d, double *M)
{
    double largest = 0, Bs[9]; /* A is finite (the import checked) */
    for (int e = 0; e < 9; e++)
        if (fabs(B[e]) > largest)
            largest = fabs(B[e]);
    if (largest >= DBL_MIN) { /* 1 / largest finite: one multiply each */
        double unit = 1 / largest;
        for (int e = 0; e < 9; e++)
            Bs[e] = unit * B[e];
    } else {
        int exponent = 0;
        (void)frexp(largest, &exponent);
        for (int e = 0; e < 9; e++)
            Bs[e] = ldexp(B[e], -exponent);
    }
    cpg_reduce_block(Bs, U, d, U, d, M);
}

/* Cholesky of M (d x d, in place); the first pivot that is not positive
 * into *pivot, its index returned, or -1 when M is positive definite.
 * Written out for at most 3x3 (the test reads only the pivots' signs;
 * precond.c's invert_spd calls LAPACK, whose rounding its inverse
 * keeps). Not "to working precision": a block of condition 1e308 is
 * positive definite and its system solvable (test_reliability), so only
 * a pivot that round-off left at zero or below counts. */
static int first_bad_pivot(double *M, int d, double *pivot)
{
    for (int c = 0; c < d; c++) {
        double p = M[d * c + c];
        for (int k = 0; k < c; k++)
            p -= M[d * k + c] * M[d * k + c];
        if (!(p > 0)) {
            *pivot = p;
            return c;
        }
        double l = sqrt(p);
        M[d * c + c] = l;
        for (int a = c + 1; a < d; a++) {
            double s = M[d * c + a];
            for (int k = 0; k < c; k++)
                s -= M[d * k + a] * M[d * k + c];
            M[d * c + a] = s / l;
        }
    }
    return -1;
}

int cpg_free_blocks_check(const cpg_bmat *A, const cpg_ublocks *u, char *msg)
{
    for (int J = 0; J < u->N; J++) {
        int d = u->ndof[J];
        long k = d > 0 ? cpg_bmat_diagonal(A, J) : -1;
        if (k < 0)
            continue; /* fixed, or no block: the import said so */
        double M[9], pivot = 0;
        on_free_directions(A->x + 9 * k, u->U + 9L * J, d, M);
        int bad = first_bad_pivot(M, d, &pivot);
        if (bad >= 0)
            return cpg_fail(msg, COREPCG_ERR_NOT_SPD,
                            "node %d's diagonal block on its %d free "
                            "direction%s is not positive definite (Cholesky "
                            "pivot %d of %d: %.3g, the block scaled to a "
                            "largest entry of about 1), so A~ (A on the free "
                            "directions) is not", J, d, d > 1 ? "s" : "",
                            bad + 1, d, pivot);
    }
    return COREPCG_OK;
}

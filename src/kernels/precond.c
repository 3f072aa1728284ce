/* SPDX-License-Identifier: GPL-2.0-or-later */
/* precond.c -- the cheap preconditioners: Jacobi and node-block inverses of
 * A~ (upcg) or of A (mpcg), and the "projected" one, U_i^T P_i^-1 U_i with
 * P = diag(A), which is what MPCG's P^-1 amounts to on range(S) (Ascher &
 * Boxerman sec. 4), so that upcg with it and mpcg are the same algorithm. */
#include "kernels.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cpg_precond_free(cpg_precond *pc)
{
    if (!pc)
        return;
    free(pc->inv);
    memset(pc, 0, sizeof *pc);
}

/* Node i's unknowns: in the full space every node has 3 (u == NULL). */
static int node_dim(const cpg_precond *pc, int i)
{
    return pc->u ? pc->u->ndof[i] : 3;
}

static long node_offset(const cpg_precond *pc, int i)
{
    return pc->u ? pc->u->off[i] : 3L * i;
}

static int node_count(const cpg_precond *pc)
{
    return pc->u ? pc->u->N : pc->n / 3;
}

/* Inverts the d x d SPD block M (column-major, leading dimension d) in
 * place through LAPACK's Cholesky; fails if it is not positive definite. */
/* Not ichol's pivot_inverse: LAPACK rounds otherwise, so its bits differ. */
static int invert_spd(double *M, int d)
{
    if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', d, M, d) != 0)
        return -1;
    if (LAPACKE_dpotri(LAPACK_COL_MAJOR, 'L', d, M, d) != 0)
        return -1;
    for (int c = 0; c < d; c++) /* dpotri fills one triangle */
        for (int a = 0; a < c; a++)
            M[d * c + a] = M[d * a + c];
    return 0;
}

static int alloc_inv(cpg_precond *pc, size_t count)
{
    pc->inv = calloc(count ? count : 1, sizeof(double));
    return pc->inv ? COREPCG_OK : COREPCG_ERR_NO_MEMORY;
}

static int not_spd(char *msg, int node)
{
    return cpg_fail(msg, COREPCG_ERR_NOT_SPD,
                    "the diagonal block of node %d is not positive definite",
                    node);
}

int cpg_precond_reduced(cpg_precond *pc, corepcg_precond kind,
                        const cpg_rmat *At, char *msg)
{
    const cpg_ublocks *u = At->u;
    memset(pc, 0, sizeof *pc);
    pc->n = u->r;
    pc->kind = kind;
    pc->u = u;
    if (alloc_inv(pc, kind == COREPCG_PRECOND_DIAG ? (size_t)u->r : 9 * (size_t)u->N))
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    for (int i = 0; i < u->N; i++) {
        int d = u->ndof[i];
        if (d == 0)
            continue;
        long t = At->p[i];
        while (At->i[t] != u->off[i]) /* the diagonal block of column i */
            t++;
        long k = At->src[t];
        const double *V = At->x + 9 * t; /* U_i^T A_ii U_i, d x d */
        double *M = pc->inv + (kind == COREPCG_PRECOND_DIAG ? u->off[i] : 9L * i);
        if (kind == COREPCG_PRECOND_DIAG) {
            for (int c = 0; c < d; c++) {
                if (!(V[d * c + c] > 0)) {
                    cpg_precond_free(pc);
                    return not_spd(msg, i);
                }
                M[c] = 1 / V[d * c + c];
            }
        } else if (kind == COREPCG_PRECOND_BLOCK) {
            memcpy(M, V, sizeof(double) * (size_t)(d * d));
            if (invert_spd(M, d)) {
                cpg_precond_free(pc);
                return not_spd(msg, i);
            }
        } else {
            /* U_i^T P_i^-1 U_i, P = diag(A): already the inverse of the
             * preconditioner */
            const double *B = At->A->x + 9 * k, *U = u->U + 9L * i;
            for (int m = 0; m < 3; m++)
                if (!(B[4 * m] > 0)) {
                    cpg_precond_free(pc);
                    return not_spd(msg, i);
                }
            for (int c = 0; c < d; c++)
                for (int a = 0; a < d; a++) {
                    double s = 0;
                    for (int m = 0; m < 3; m++)
                        s += U[3 * a + m] * U[3 * c + m] / B[4 * m];
                    M[d * c + a] = s;
                }
        }
    }
    return COREPCG_OK;
}

int cpg_precond_full(cpg_precond *pc, corepcg_precond kind, const cpg_bmat *A,
                     const cpg_ublocks *u, char *msg)
{
    memset(pc, 0, sizeof *pc);
    pc->n = 3 * A->nb;
    pc->kind = kind;
    if (kind == COREPCG_PRECOND_PROJECTED)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "precond projected is for upcg; mpcg applies it in "
                        "effect with precond diag");
    size_t count = kind == COREPCG_PRECOND_DIAG ? (size_t)pc->n : 9 * (size_t)A->nb;
    if (alloc_inv(pc, count))
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    for (int i = 0; i < A->nb; i++) {
        const double *B = A->x + 9 * cpg_bmat_diagonal(A, i);
        if (u->ndof[i] == 0) { /* the filter drops it: the identity */
            if (kind == COREPCG_PRECOND_DIAG)
                for (int m = 0; m < 3; m++)
                    pc->inv[3L * i + m] = 1;
            else
                for (int m = 0; m < 9; m++)
                    pc->inv[9L * i + m] = m % 4 == 0;
        } else if (kind == COREPCG_PRECOND_DIAG) {
            for (int m = 0; m < 3; m++) {
                if (!(B[4 * m] > 0)) {
                    cpg_precond_free(pc);
                    return not_spd(msg, i);
                }
                pc->inv[3L * i + m] = 1 / B[4 * m];
            }
        } else {
            memcpy(pc->inv + 9L * i, B, 9 * sizeof(double));
            if (invert_spd(pc->inv + 9L * i, 3)) {
                cpg_precond_free(pc);
                return not_spd(msg, i);
            }
        }
    }
    return COREPCG_OK;
}

int cpg_precond_projected_blocks(cpg_precond *pc, const cpg_bmat *A,
                                 const cpg_ublocks *u, char *msg)
{
    memset(pc, 0, sizeof *pc);
    pc->n = 3 * A->nb;
    pc->kind = COREPCG_PRECOND_BLOCK;
    if (alloc_inv(pc, 9 * (size_t)A->nb))
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    for (int i = 0; i < A->nb; i++) {
        int d = u->ndof[i];
        const double *B = A->x + 9 * cpg_bmat_diagonal(A, i), *U = u->U + 9L * i;
        double V[9]; /* U^T B U, d x d */
        cpg_reduce_block(B, U, d, U, d, V);
        if (d > 0 && invert_spd(V, d)) {
            cpg_precond_free(pc);
            return not_spd(msg, i);
        }
        double *M = pc->inv + 9L * i; /* U V^-1 U^T; zero for a fixed node */
        for (int c = 0; c < 3; c++)
            for (int a = 0; a < 3; a++) {
                double sum = 0;
                for (int e = 0; e < d; e++)
                    for (int f = 0; f < d; f++)
                        sum += U[3 * e + a] * V[d * f + e] * U[3 * f + c];
                M[3 * c + a] = sum;
            }
    }
    return COREPCG_OK;
}

int cpg_precond_apply(void *ctx, const double *in, double *out)
{
    const cpg_precond *pc = ctx;
    if (pc->kind == COREPCG_PRECOND_DIAG) {
        for (int k = 0; k < pc->n; k++)
            out[k] = pc->inv[k] * in[k];
        return COREPCG_OK;
    }
    int nodes = node_count(pc);
    for (int i = 0; i < nodes; i++) {
        int d = node_dim(pc, i);
        long o = node_offset(pc, i);
        const double *M = pc->inv + 9L * i;
        for (int a = 0; a < d; a++) {
            double s = 0;
            for (int c = 0; c < d; c++)
                s += M[d * c + a] * in[o + c];
            out[o + a] = s;
        }
    }
    return COREPCG_OK;
}

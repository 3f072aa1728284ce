/* precond.c -- the cheap preconditioners: Jacobi and node-block inverses of
 * A~ (upcg) or of A (mpcg), and the "projected" one, U_i^T P_i^-1 U_i with
 * P = diag(A), which is what MPCG's P^-1 amounts to on range(S) (Ascher &
 * Boxerman sec. 4), so that upcg with it and mpcg are the same algorithm. */
#include "internal.h"

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

/* The diagonal 3x3 block of node J in A. */
static const double *diagonal_block(const cpg_bmat *A, int J)
{
    for (int k = A->p[J]; k < A->p[J + 1]; k++)
        if (A->i[k] == J)
            return A->x + 9L * k;
    return NULL; /* cpg_bmat_from_system guarantees it exists */
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
                        const cholmod_sparse *At, const cpg_bmat *A,
                        const cpg_ublocks *u, char *msg)
{
    memset(pc, 0, sizeof *pc);
    pc->n = u->r;
    pc->kind = kind;
    pc->u = u;
    if (kind == COREPCG_PRECOND_DIAG) {
        if (alloc_inv(pc, (size_t)u->r))
            return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
        const int *Ap = At->p, *Ai = At->i;
        const double *Ax = At->x;
        for (int j = 0; j < u->r; j++) {
            double d = 0;
            for (int k = Ap[j]; k < Ap[j + 1]; k++)
                if (Ai[k] == j)
                    d = Ax[k];
            if (!(d > 0)) {
                cpg_precond_free(pc);
                return cpg_fail(msg, COREPCG_ERR_NOT_SPD,
                                "A~ has diagonal entry %.3g <= 0 at %d", d, j);
            }
            pc->inv[j] = 1 / d;
        }
        return COREPCG_OK;
    }
    if (alloc_inv(pc, 9 * (size_t)u->N))
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    for (int i = 0; i < u->N; i++) {
        int d = u->ndof[i];
        if (d == 0)
            continue;
        const double *B = diagonal_block(A, i), *U = u->U + 9L * i;
        double *M = pc->inv + 9L * i;
        if (kind == COREPCG_PRECOND_BLOCK) {
            /* U_i^T A_ii U_i, inverted */
            for (int c = 0; c < d; c++)
                for (int a = 0; a < d; a++) {
                    double s = 0;
                    for (int l = 0; l < 3; l++)
                        for (int m = 0; m < 3; m++)
                            s += U[3 * a + m] * B[3 * l + m] * U[3 * c + l];
                    M[d * c + a] = s;
                }
            if (invert_spd(M, d)) {
                cpg_precond_free(pc);
                return not_spd(msg, i);
            }
        } else {
            /* U_i^T P_i^-1 U_i: already the inverse of the preconditioner */
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
                     char *msg)
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
        const double *B = diagonal_block(A, i);
        if (kind == COREPCG_PRECOND_DIAG) {
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

void cpg_precond_apply(void *ctx, const double *in, double *out)
{
    const cpg_precond *pc = ctx;
    if (pc->kind == COREPCG_PRECOND_DIAG) {
        for (int k = 0; k < pc->n; k++)
            out[k] = pc->inv[k] * in[k];
        return;
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
}

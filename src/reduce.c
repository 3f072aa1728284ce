/* reduce.c -- the reduced system A~ = U^T A U built block by block straight
 * into compressed columns (Ye, Webber & Wang eq. 9a). U adds no nonzero
 * blocks: A~ has A's block pattern without the fixed nodes, each block
 * (I, J) becoming ndof_I x ndof_J. Cost is linear in the blocks of A. */
#include "internal.h"

#include <limits.h>
#include <string.h>

cholmod_sparse *cpg_reduce_pattern(const cpg_bmat *A, const cpg_ublocks *u,
                                   cholmod_common *cm)
{
    const int *ndof = u->ndof, *off = u->off;
    long nnz = 0;
    for (int J = 0; J < A->nb; J++) {
        long rows = 0;
        for (int k = A->p[J]; k < A->p[J + 1]; k++)
            rows += ndof[A->i[k]];
        nnz += rows * ndof[J];
    }
    if (nnz > INT_MAX)
        return NULL;
    cholmod_sparse *At = cholmod_allocate_sparse(u->r, u->r, (size_t)nnz, 1, 1,
                                                 -1, CHOLMOD_REAL, cm);
    if (!At)
        return NULL;
    int *Ap = At->p, *Ai = At->i, t = 0;
    for (int J = 0; J < A->nb; J++)
        for (int c = 0; c < ndof[J]; c++) {
            Ap[off[J] + c] = t;
            for (int k = A->p[J]; k < A->p[J + 1]; k++) {
                int I = A->i[k];
                for (int a = 0; a < ndof[I]; a++)
                    Ai[t++] = off[I] + a;
            }
        }
    Ap[u->r] = t;
    cpg_reduce_values(A, u, At);
    return At;
}

/* V (dI x dJ, column-major with leading dimension dI) = U_I^T B U_J. */
static void reduce_block(const double *B, const double *UI, int dI,
                         const double *UJ, int dJ, double *V)
{
    double T[9]; /* T = B U_J, 3 x dJ */
    for (int c = 0; c < dJ; c++)
        for (int a = 0; a < 3; a++)
            T[3 * c + a] = B[a] * UJ[3 * c] + B[3 + a] * UJ[3 * c + 1] +
                           B[6 + a] * UJ[3 * c + 2];
    for (int c = 0; c < dJ; c++)
        for (int a = 0; a < dI; a++)
            V[dI * c + a] = UI[3 * a] * T[3 * c] + UI[3 * a + 1] * T[3 * c + 1] +
                            UI[3 * a + 2] * T[3 * c + 2];
}

void cpg_reduce_values(const cpg_bmat *A, const cpg_ublocks *u,
                       cholmod_sparse *At)
{
    const int *ndof = u->ndof, *off = u->off, *Ap = At->p;
    double *Ax = At->x;
    for (int J = 0; J < A->nb; J++) {
        int dJ = ndof[J];
        if (dJ == 0)
            continue;
        const double *UJ = u->U + 9L * J;
        int row = 0; /* position of block (I, J) within each column of J */
        for (int k = A->p[J]; k < A->p[J + 1]; k++) {
            int I = A->i[k], dI = ndof[I];
            if (dI == 0)
                continue;
            const double *B = A->x + 9L * k;
            double V[9];
            if (dI == 3 && dJ == 3)
                memcpy(V, B, sizeof V); /* U = I: the common case */
            else
                reduce_block(B, u->U + 9L * I, dI, UJ, dJ, V);
            for (int c = 0; c < dJ; c++)
                memcpy(Ax + Ap[off[J] + c] + row, V + dI * c,
                       sizeof(double) * (size_t)dI);
            row += dI;
        }
    }
}

void cpg_csc_mult(const cholmod_sparse *At, const double *x, double *y)
{
    /* Both triangles are stored, so column j is row j: a gather per entry
     * of y, written once. */
    const int *Ap = At->p, *Ai = At->i;
    const double *Ax = At->x;
    int n = (int)At->ncol;
    for (int j = 0; j < n; j++) {
        double s = 0;
        for (int k = Ap[j]; k < Ap[j + 1]; k++)
            s += Ax[k] * x[Ai[k]];
        y[j] = s;
    }
}

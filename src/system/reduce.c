/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reduce.c -- the reduced system A~ = U^T A U by node blocks (Ye, Webber &
 * Wang eq. 9a), the product upcg and icpcg iterate with. U adds no nonzero
 * blocks: A~ has A's block pattern without the fixed nodes, each block
 * (I, J) becoming ndof_I x ndof_J. Cost is linear in the blocks of A. */
#include "system.h"

#include <stdlib.h>
#include <string.h>

void cpg_reduce_block(const double *B, const double *UI, int dI,
                         const double *UJ, int dJ, double *V)
{
    if (dI == 3 && dJ == 3) {
        memcpy(V, B, 9 * sizeof(double)); /* U = I: the common case */
        return;
    }
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

/* i, d and all3 from u's ndof (the blocks themselves -- p, src -- depend
 * only on which nodes are free). */
static void number_blocks(cpg_rmat *rm)
{
    const cpg_bmat *A = rm->A;
    const int *ndof = rm->u->ndof;
    for (int J = 0; J < A->nb; J++) {
        int all3 = ndof[J] == 3;
        for (int t = rm->p[J]; t < rm->p[J + 1]; t++) {
            int I = A->i[rm->src[t]];
            all3 &= ndof[I] == 3;
            rm->i[t] = rm->u->off[I];
            rm->d[t] = (unsigned char)ndof[I];
        }
        rm->all3[J] = (unsigned char)all3;
    }
}

int cpg_rmat_build(cpg_rmat *rm, const cpg_bmat *A, const cpg_ublocks *u)
{
    memset(rm, 0, sizeof *rm);
    rm->A = A;
    rm->u = u;
    const int *ndof = u->ndof;
    size_t nb = (size_t)A->nb, blocks = 0;
    for (int J = 0; J < A->nb; J++)
        if (ndof[J] > 0)
            for (int k = A->p[J]; k < A->p[J + 1]; k++)
                blocks += ndof[A->i[k]] > 0;
    size_t len = blocks ? blocks : 1;
    rm->p = malloc(sizeof(int) * (nb + 1));
    rm->all3 = malloc(nb ? nb : 1);
    rm->i = malloc(sizeof(int) * len);
    rm->src = malloc(sizeof(int) * len);
    rm->d = malloc(len);
    rm->x = cpg_malloc_huge(9 * len, sizeof(double));
    if (!rm->p || !rm->all3 || !rm->i || !rm->src || !rm->d || !rm->x) {
        cpg_rmat_free(rm);
        return COREPCG_ERR_NO_MEMORY;
    }
    int t = 0;
    rm->p[0] = 0;
    for (int J = 0; J < A->nb; J++) {
        if (ndof[J] > 0)
            for (int k = A->p[J]; k < A->p[J + 1]; k++)
                if (ndof[A->i[k]] > 0)
                    rm->src[t++] = k;
        rm->p[J + 1] = t;
    }
    number_blocks(rm);
    cpg_rmat_values(rm);
    return COREPCG_OK;
}

int cpg_rmat_same_free(const cpg_rmat *rm, const cpg_ublocks *u)
{
    for (int J = 0; J < rm->A->nb; J++) {
        int free_now = u->ndof[J] > 0;
        int had_blocks = rm->p[J + 1] > rm->p[J];
        /* a free node has at least its diagonal block */
        if (free_now != had_blocks)
            return 0;
    }
    return 1;
}

void cpg_rmat_renumber(cpg_rmat *rm)
{
    number_blocks(rm);
    cpg_rmat_values(rm);
}

void cpg_rmat_values(cpg_rmat *rm)
{
    const cpg_bmat *A = rm->A;
    const int *ndof = rm->u->ndof;
    for (int J = 0; J < A->nb; J++)
        for (int t = rm->p[J]; t < rm->p[J + 1]; t++) {
            int k = rm->src[t], I = A->i[k];
            cpg_reduce_block(A->x + 9L * k, rm->u->U + 9L * I, ndof[I],
                         rm->u->U + 9L * J, ndof[J], rm->x + 9L * t);
        }
}

void cpg_rmat_free(cpg_rmat *rm)
{
    free(rm->p);
    free(rm->i);
    free(rm->src);
    free(rm->d);
    free(rm->all3);
    free(rm->x);
    memset(rm, 0, sizeof *rm);
}


/* SPDX-License-Identifier: GPL-2.0-or-later */
/* products.c -- the products the PCG loop runs: A x by 3x3 node blocks and
 * A~ x~ by reduced node blocks, both in gather form over the whole stored
 * matrix, so that a large one runs in two halves of its columns on two
 * threads (A w of the prescribed part skipped when w is zero); and the
 * zero test of a right-hand side. */
#include "kernels.h"

#include <string.h>

/* Columns [J0, J1) of a gather product y = M x. */
typedef void (*columns_fn)(const void *M, const double *x, double *y,
                           int J0, int J1);

/* A product split at column half between two_parts' parts. */
typedef struct product_job {
    columns_fn columns;
    const void *matrix;
    const double *x;
    double *y;
    int half, count;
} product_job;

static void product_part(void *arg, int which)
{
    const product_job *j = arg;
    j->columns(j->matrix, j->x, j->y, which ? j->half : 0,
               which ? j->count : j->half);
}

static void split_product(columns_fn columns, const void *M, int count,
                          const double *x, double *y)
{
    product_job job = {columns, M, x, y, count / 2, count};
    cpg_two_parts(product_part, &job, cpg_two_threads(count));
}

static void bmat_columns(const void *M, const double *x, double *y, int J0,
                         int J1)
{
    const cpg_bmat *A = M;
    /* Gather form: A is stored whole, and block (J, I) = block (I, J)^T, so
     * y_J = sum over column J of A_IJ^T x_I writes y once per node. */
    for (int J = J0; J < J1; J++) {
        double y0 = 0, y1 = 0, y2 = 0;
        for (int k = A->p[J]; k < A->p[J + 1]; k++) {
            const double *B = A->x + 9L * k, *xi = x + 3L * A->i[k];
            y0 += B[0] * xi[0] + B[1] * xi[1] + B[2] * xi[2];
            y1 += B[3] * xi[0] + B[4] * xi[1] + B[5] * xi[2];
            y2 += B[6] * xi[0] + B[7] * xi[1] + B[8] * xi[2];
        }
        y[3L * J] = y0;
        y[3L * J + 1] = y1;
        y[3L * J + 2] = y2;
    }
}

void cpg_bmat_mult(const cpg_bmat *A, const double *x, double *y)
{
    split_product(bmat_columns, A, A->nb, x, y);
}

void cpg_bmat_mult_prescribed(const cpg_bmat *A, const double *w, double *y)
{
    size_t n = 3 * (size_t)A->nb;
    if (cpg_all_zero(w, (int)n))
        memset(y, 0, n * sizeof(double));
    else
        cpg_bmat_mult(A, w, y);
}

static void rmat_columns(const void *M, const double *xt, double *yt,
                         int J0, int J1)
{
    const cpg_rmat *rm = M;
    /* Gather form, as bmat_columns: y_J = sum over column J of
     * A~_IJ^T x_I, since A~ is symmetric and stored whole. Columns whose
     * nodes all keep 3 dof (nearly all) take the unrolled 3x3 path. */
    const int *ndof = rm->u->ndof, *off = rm->u->off;
    for (int J = J0; J < J1; J++) {
        double y0 = 0, y1 = 0, y2 = 0;
        if (rm->all3[J]) {
            for (int t = rm->p[J]; t < rm->p[J + 1]; t++) {
                const double *V = rm->x + 9L * t, *xi = xt + rm->i[t];
                y0 += V[0] * xi[0] + V[1] * xi[1] + V[2] * xi[2];
                y1 += V[3] * xi[0] + V[4] * xi[1] + V[5] * xi[2];
                y2 += V[6] * xi[0] + V[7] * xi[1] + V[8] * xi[2];
            }
            double *yj = yt + off[J];
            yj[0] = y0;
            yj[1] = y1;
            yj[2] = y2;
            continue;
        }
        int dJ = ndof[J];
        double y[3] = {0, 0, 0};
        for (int t = rm->p[J]; t < rm->p[J + 1]; t++) {
            const double *V = rm->x + 9L * t, *xi = xt + rm->i[t];
            int dI = rm->d[t];
            for (int c = 0; c < dJ; c++)
                for (int a = 0; a < dI; a++)
                    y[c] += V[dI * c + a] * xi[a];
        }
        for (int c = 0; c < dJ; c++)
            yt[off[J] + c] = y[c];
    }
}

void cpg_rmat_apply(void *rm, const double *xt, double *yt)
{
    const cpg_rmat *m = rm;
    split_product(rmat_columns, m, m->A->nb, xt, yt);
}

int cpg_all_zero(const double *v, int n)
{
    for (int k = 0; k < n; k++)
        if (v[k] != 0)
            return 0;
    return 1;
}

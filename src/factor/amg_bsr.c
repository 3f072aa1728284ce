/* SPDX-License-Identifier: GPL-2.0-or-later */
/* amg_bsr.c -- the multigrid's matrices of 3x3 blocks by block rows
 * (amg.h): the product with a vector and the sparse product of two,
 * pattern once (Gustavson's row-by-row merge with a marker; each row's
 * columns sorted, so that a square one's blocks below and above the
 * diagonal are the two sides of diag) and values every step on that
 * pattern. */
#include "amg.h"

#include <stdlib.h>
#include <string.h>

void cpg_bsr_free(cpg_bsr *A)
{
    free(A->p);
    free(A->j);
    free(A->diag);
    free(A->x);
    free(A->f);
    memset(A, 0, sizeof *A);
}

int cpg_bsr_round(cpg_bsr *A)
{
    size_t count = (size_t)A->p[A->n];
    if (!A->f)
        A->f = malloc((9 * count + 1) * sizeof(float));
    if (!A->f)
        return COREPCG_ERR_NO_MEMORY;
    for (size_t k = 0; k < count; k++)
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++)
                A->f[9 * k + 3 * c + a] = (float)A->x[9 * k + 3 * a + c];
    A->f[9 * count] = 0; /* read (times 0) by the 4-wide kernel */
    return COREPCG_OK;
}

void cpg_bsr_mult_rows(const cpg_bsr *A, const double *x, double *y, int from,
                       int to)
{
    for (int i = from; i < to; i++) {
        double y0 = 0, y1 = 0, y2 = 0;
        for (int k = A->p[i]; k < A->p[i + 1]; k++) {
            const double *b = A->x + 9 * (size_t)k;
            const double *v = x + 3 * (size_t)A->j[k];
            y0 += b[0] * v[0] + b[1] * v[1] + b[2] * v[2];
            y1 += b[3] * v[0] + b[4] * v[1] + b[5] * v[2];
            y2 += b[6] * v[0] + b[7] * v[1] + b[8] * v[2];
        }
        y[3 * i] = y0;
        y[3 * i + 1] = y1;
        y[3 * i + 2] = y2;
    }
}

static int ascending(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int cpg_bsr_product_pattern(const cpg_bsr *X, const cpg_bsr *Y, cpg_bsr *C,
                            int *mark)
{
    memset(C, 0, sizeof *C);
    C->n = X->n;
    C->m = Y->m;
    C->p = malloc(((size_t)X->n + 1) * sizeof(int));
    if (!C->p)
        return COREPCG_ERR_NO_MEMORY;
    for (int c = 0; c < Y->m; c++)
        mark[c] = -1;
    /* first the counts, then the columns */
    long count = 0;
    C->p[0] = 0;
    for (int i = 0; i < X->n; i++) {
        for (int k = X->p[i]; k < X->p[i + 1]; k++)
            for (int l = Y->p[X->j[k]]; l < Y->p[X->j[k] + 1]; l++)
                if (mark[Y->j[l]] != i) {
                    mark[Y->j[l]] = i;
                    count++;
                }
        if (count > 0x7fffffff)
            return COREPCG_ERR_TOO_LARGE;
        C->p[i + 1] = (int)count;
    }
    C->j = malloc((size_t)(count > 0 ? count : 1) * sizeof(int));
    C->x = malloc((size_t)(count > 0 ? count : 1) * 9 * sizeof(double));
    if (!C->j || !C->x)
        return COREPCG_ERR_NO_MEMORY;
    for (int c = 0; c < Y->m; c++)
        mark[c] = -1;
    for (int i = 0; i < X->n; i++) {
        int at = C->p[i];
        for (int k = X->p[i]; k < X->p[i + 1]; k++)
            for (int l = Y->p[X->j[k]]; l < Y->p[X->j[k] + 1]; l++)
                if (mark[Y->j[l]] != i) {
                    mark[Y->j[l]] = i;
                    C->j[at++] = Y->j[l];
                }
    }
    for (int i = 0; i < C->n; i++)
        qsort(C->j + C->p[i], (size_t)(C->p[i + 1] - C->p[i]), sizeof(int),
              ascending);
    if (X->n == Y->m) {
        C->diag = malloc(((size_t)C->n > 0 ? (size_t)C->n : 1) * sizeof(int));
        if (!C->diag)
            return COREPCG_ERR_NO_MEMORY;
        for (int i = 0; i < C->n; i++) {
            C->diag[i] = -1;
            for (int k = C->p[i]; k < C->p[i + 1]; k++)
                if (C->j[k] == i)
                    C->diag[i] = k;
        }
    }
    return COREPCG_OK;
}

/* c += a b, 3x3 row-major. */
static void add_product(const double *a, const double *b, double *c)
{
    for (int r = 0; r < 3; r++)
        for (int s = 0; s < 3; s++)
            c[3 * r + s] += a[3 * r] * b[s] + a[3 * r + 1] * b[3 + s] +
                            a[3 * r + 2] * b[6 + s];
}

void cpg_bsr_product_rows(const cpg_bsr *X, const cpg_bsr *Y, cpg_bsr *C,
                          int *mark, int from, int to)
{
    for (int i = from; i < to; i++) {
        for (int k = C->p[i]; k < C->p[i + 1]; k++) {
            mark[C->j[k]] = k;
            memset(C->x + 9 * (size_t)k, 0, 9 * sizeof(double));
        }
        for (int k = X->p[i]; k < X->p[i + 1]; k++) {
            const double *a = X->x + 9 * (size_t)k;
            for (int l = Y->p[X->j[k]]; l < Y->p[X->j[k] + 1]; l++)
                add_product(a, Y->x + 9 * (size_t)l,
                            C->x + 9 * (size_t)mark[Y->j[l]]);
        }
    }
}

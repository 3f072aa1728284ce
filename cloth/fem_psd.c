/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fem_psd.c -- an element's Hessian projected onto the positive
 * semidefinite matrices (LAPACK's symmetric eigensolver): a compressed
 * StVK triangle's Hessian is indefinite, and one such block assembled
 * into A can make it indefinite too. */
#include "cloth.h"

#include <lapacke.h>
#include <math.h>
#include <string.h>

#define PSD_MAX 12
/* LAPACK asks for at least 3n - 1; more lets dsyev block */
#define PSD_WORK (66 * PSD_MAX)

int cloth_psd_project(double *H, int n)
{
    double Q[PSD_MAX * PSD_MAX], lambda[PSD_MAX], work[PSD_WORK];
    memcpy(Q, H, (size_t)n * (size_t)n * sizeof *Q);
    lapack_int info = LAPACKE_dsyev_work(LAPACK_COL_MAJOR, 'V', 'L', n, Q, n, lambda,
                                         work, PSD_WORK);
    if (info != 0) {
        memset(H, 0, (size_t)n * (size_t)n * sizeof *H);
        return -1;
    }
    /* ascending: lambda[0] the smallest */
    double largest = fmax(fabs(lambda[0]), fabs(lambda[n - 1]));
    if (!(lambda[0] < -1e-12 * largest))
        return 0;
    memset(H, 0, (size_t)n * (size_t)n * sizeof *H);
    for (int k = 0; k < n; k++) {
        if (!(lambda[k] > 0.0))
            continue;
        const double *q = &Q[n * k];
        for (int col = 0; col < n; col++)
            for (int row = 0; row < n; row++)
                H[row + n * col] += lambda[k] * q[row] * q[col];
    }
    return 1;
}

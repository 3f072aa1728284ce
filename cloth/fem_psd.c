/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fem_psd.c -- an element's Hessian projected onto the positive
 * semidefinite matrices: a compressed StVK triangle's Hessian is
 * indefinite, and such blocks assembled into A can make it indefinite.
 *
 * The eigendecomposition is cyclic Jacobi rotations, here rather than
 * LAPACK's dsyev: for a 9x9 or 12x12 matrix dsyev's work is a few
 * thousand flops, but it runs through the BLAS, whose threads (OpenBLAS's,
 * busy in CHOLMOD's factorisations too) are woken for every call and cost
 * far more than the arithmetic, once per compressed triangle per step.
 * Jacobi is as accurate (test_fem checks it against LAPACK). */
#include "cloth_model.h"

#include <math.h>
#include <string.h>

#define PSD_MAX 12
#define JACOBI_SWEEPS 60 /* a sweep squares the off-diagonal part: ample */

/* Rotates rows and columns p, q of A (n x n, symmetric) and columns p, q
 * of Q by the angle that zeroes A[p][q]: A <- J^T A J, Q <- Q J, in one
 * pass over the two rows (and their mirrors). */
static void rotate(double *A, double *Q, int n, int p, int q)
{
    double apq = A[p + n * q];
    double theta = (A[q + n * q] - A[p + n * p]) / (2.0 * apq);
    double t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
    double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
    for (int k = 0; k < n; k++) {
        if (k != p && k != q) {
            double akp = A[k + n * p], akq = A[k + n * q];
            A[k + n * p] = A[p + n * k] = c * akp - s * akq;
            A[k + n * q] = A[q + n * k] = s * akp + c * akq;
        }
        double qkp = Q[k + n * p], qkq = Q[k + n * q];
        Q[k + n * p] = c * qkp - s * qkq;
        Q[k + n * q] = s * qkp + c * qkq;
    }
    /* the 2x2 block: its off-diagonal is zero by the choice of t */
    A[p + n * p] -= t * apq;
    A[q + n * q] += t * apq;
    A[p + n * q] = A[q + n * p] = 0.0;
}

/* The eigenvalues of the symmetric A (n x n, destroyed) into lambda and
 * its eigenvectors into Q's columns. 0, or -1 when the rotations do not
 * converge (a NaN or an infinity in A). */
static int jacobi_eigen(double *A, int n, double *lambda, double *Q)
{
    double size = 0.0;
    for (int k = 0; k < n * n; k++)
        size += A[k] * A[k];
    memset(Q, 0, (size_t)n * (size_t)n * sizeof *Q);
    for (int k = 0; k < n; k++)
        Q[k + n * k] = 1.0;
    int converged = 0;
    for (int sweep = 0; sweep < JACOBI_SWEEPS && !converged; sweep++) {
        double off = 0.0;
        for (int q = 1; q < n; q++)
            for (int p = 0; p < q; p++)
                off += A[p + n * q] * A[p + n * q];
        /* the off-diagonal part near rounding level (each entry of it
         * stays about eps |A| after a rotation): the diagonal is the
         * spectrum to 1e-14 |A| */
        converged = off <= 1e-28 * size;
        for (int q = 1; q < n && !converged; q++)
            for (int p = 0; p < q; p++)
                if (A[p + n * q] != 0.0)
                    rotate(A, Q, n, p, q);
    }
    for (int k = 0; k < n; k++)
        lambda[k] = A[k + n * k];
    return converged && isfinite(size) ? 0 : -1;
}

int cloth_psd_project(double *H, int n)
{
    double A[PSD_MAX * PSD_MAX], Q[PSD_MAX * PSD_MAX], lambda[PSD_MAX];
    memcpy(A, H, (size_t)n * (size_t)n * sizeof *A);
    if (jacobi_eigen(A, n, lambda, Q) != 0) {
        memset(H, 0, (size_t)n * (size_t)n * sizeof *H);
        return -1;
    }
    double least = INFINITY, largest = 0.0;
    for (int k = 0; k < n; k++) {
        least = fmin(least, lambda[k]);
        largest = fmax(largest, fabs(lambda[k]));
    }
    if (!(least < -1e-12 * largest))
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

/* The Helmert basis of the vectors of `count` entries that sum to zero:
 * column k (0 .. count - 2) is (1, ..., 1, -(k + 1), 0, ...) over
 * sqrt((k + 1) (k + 2)), k + 1 ones. helmert[v + count k]. */
static void helmert_basis(int count, double *helmert)
{
    for (int k = 0; k + 1 < count; k++) {
        double scale = 1.0 / sqrt((double)(k + 1) * (double)(k + 2));
        for (int v = 0; v < count; v++)
            helmert[v + count * k] = v <= k ? scale : v == k + 1 ? -(k + 1) * scale : 0.0;
    }
}

int cloth_psd_project_element(double *H, int count)
{
    const int n = 3 * count, m = 3 * (count - 1);
    double basis[4 * 3], R[PSD_MAX * PSD_MAX];
    helmert_basis(count, basis);
    /* R = U^T H U with U = basis (x) I3: the Hessian on the motions that
     * are not translations */
    for (int a = 0; a + 1 < count; a++)
        for (int b = 0; b + 1 < count; b++)
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    double sum = 0.0;
                    for (int v = 0; v < count; v++)
                        for (int w = 0; w < count; w++)
                            sum += basis[v + count * a] * basis[w + count * b] *
                                   H[(3 * v + i) + n * (3 * w + j)];
                    R[(3 * a + i) + m * (3 * b + j)] = sum;
                }
    int rc = cloth_psd_project(R, m);
    if (rc == 0)
        return 0;
    /* H = U R U^T: translations stay in its null space */
    for (int v = 0; v < count; v++)
        for (int w = 0; w < count; w++)
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    double sum = 0.0;
                    for (int a = 0; a + 1 < count; a++)
                        for (int b = 0; b + 1 < count; b++)
                            sum += basis[v + count * a] * basis[w + count * b] *
                                   R[(3 * a + i) + m * (3 * b + j)];
                    H[(3 * v + i) + n * (3 * w + j)] = sum;
                }
    return rc;
}

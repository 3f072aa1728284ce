/* SPDX-License-Identifier: GPL-2.0-or-later */
/* block_modulus.c -- the two 3x3 blocks that move a deleted off-diagonal
 * block B of an SPD matrix onto the diagonal without losing definiteness:
 * P = (B B^T)^(1/2) and Q = (B^T B)^(1/2). With B = U s V^T,
 * [P -B; -B^T Q] = [U; -V] s [U; -V]^T is positive semidefinite, so a
 * matrix from which B was deleted and P, Q added is at least the matrix
 * it came from (docs/design.md, "The matrix core"). */
#include "factor.h"

#include <math.h>
#include <string.h>

/* One-sided Jacobi (Hestenes): plane rotations V make B's columns
 * orthogonal, B V = [b_0 b_1 b_2] with |b_e| = s_e. It keeps small
 * singular values to high relative accuracy, where the square root of
 * B B^T's eigenvalues would lose half the digits; a handful of sweeps
 * reach round-off for a 3x3. */
static void orthogonalise_columns(double *b, double *V)
{
    for (int e = 0; e < 9; e++)
        V[e] = e % 4 == 0;
    for (int sweep = 0; sweep < 16; sweep++) {
        int rotated = 0;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                double *bp = b + 3 * p, *bq = b + 3 * q;
                double alpha = 0, beta = 0, gamma = 0;
                for (int r = 0; r < 3; r++) {
                    alpha += bp[r] * bp[r];
                    beta += bq[r] * bq[r];
                    gamma += bp[r] * bq[r];
                }
                if (!(fabs(gamma) > 1e-15 * sqrt(alpha) * sqrt(beta)))
                    continue;
                rotated = 1;
                double zeta = (beta - alpha) / (2 * gamma);
                double t = (zeta >= 0 ? 1.0 : -1.0) /
                           (fabs(zeta) + sqrt(1 + zeta * zeta));
                double c = 1 / sqrt(1 + t * t), sn = c * t;
                double *vp = V + 3 * p, *vq = V + 3 * q;
                for (int r = 0; r < 3; r++) {
                    double x = bp[r], y = bq[r];
                    bp[r] = c * x - sn * y;
                    bq[r] = sn * x + c * y;
                    x = vp[r];
                    y = vq[r];
                    vp[r] = c * x - sn * y;
                    vq[r] = sn * x + c * y;
                }
            }
        if (!rotated)
            break;
    }
}

void cpg_block_modulus(const double *B, double *P, double *Q)
{
    /* With B V = [b_e] and s_e = |b_e|: B = sum_e b_e v_e^T, so
     * P = sum_e b_e b_e^T / s_e and Q = sum_e s_e v_e v_e^T. */
    /* Scaled to max |B| = 1 so that no square or dot product overflows or
     * underflows; P and Q scale as B does. */
    double scale = 0.0;
    for (int e = 0; e < 9; e++)
        scale = fmax(scale, fabs(B[e]));
    if (!(scale > 0.0) || !isfinite(scale)) {
        for (int e = 0; e < 9; e++)
            P[e] = Q[e] = scale > 0.0 ? NAN : 0.0;
        return;
    }
    double b[9], V[9], sv[3];
    for (int e = 0; e < 9; e++)
        b[e] = B[e] / scale;
    orthogonalise_columns(b, V);
    for (int e = 0; e < 3; e++)
        sv[e] = sqrt(b[3 * e] * b[3 * e] + b[3 * e + 1] * b[3 * e + 1] +
                     b[3 * e + 2] * b[3 * e + 2]);
    for (int c = 0; c < 3; c++)
        for (int r = c; r < 3; r++) { /* one triangle, mirrored */
            double p = 0, q = 0;
            for (int e = 0; e < 3; e++) {
                if (sv[e] > 0)
                    p += b[3 * e + r] * (b[3 * e + c] / sv[e]);
                q += sv[e] * V[3 * e + r] * V[3 * e + c];
            }
            P[3 * c + r] = P[3 * r + c] = scale * p;
            Q[3 * c + r] = Q[3 * r + c] = scale * q;
        }
}

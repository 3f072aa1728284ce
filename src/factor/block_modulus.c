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

/* P = (|v| / |u|) u u^T and Q = (|u| / |v|) v v^T when B = u v^T: 1 when
 * B (scaled, max |b| = 1) is of rank one to round-off -- every 2x2 minor,
 * a product of two singular values, below 1e-15 |B|_F^2, so that the
 * second singular value is at round-off of the first -- as a hinge's
 * coupling g_2 g_3^T of two opposite vertices is. Then u is B's longest
 * column and v = B^T u / |u|^2. */
static int rank_one(const double *b, double scale, double *P, double *Q)
{
    double fro2 = 0.0, minor = 0.0;
    for (int e = 0; e < 9; e++)
        fro2 += b[e] * b[e];
    for (int c = 0; c < 3; c++)
        for (int d = c + 1; d < 3; d++)
            for (int r = 0; r < 3; r++)
                for (int t = r + 1; t < 3; t++)
                    minor = fmax(minor, fabs(b[3 * c + r] * b[3 * d + t] -
                                             b[3 * c + t] * b[3 * d + r]));
    if (!(minor <= 1e-15 * fro2))
        return 0;
    int j = 0;
    double uu = 0.0;
    for (int c = 0; c < 3; c++) {
        const double *col = b + 3 * c;
        double n2 = col[0] * col[0] + col[1] * col[1] + col[2] * col[2];
        if (n2 > uu) {
            uu = n2;
            j = c;
        }
    }
    const double *u = b + 3 * j;
    double v[3], vv = 0.0;
    for (int c = 0; c < 3; c++) {
        v[c] = (u[0] * b[3 * c] + u[1] * b[3 * c + 1] + u[2] * b[3 * c + 2]) /
               uu;
        vv += v[c] * v[c];
    }
    double p = scale * sqrt(vv / uu), q = scale * sqrt(uu / vv);
    for (int c = 0; c < 3; c++)
        for (int r = c; r < 3; r++) {
            P[3 * c + r] = P[3 * r + c] = p * (u[r] * u[c]);
            Q[3 * c + r] = Q[3 * r + c] = q * (v[r] * v[c]);
        }
    return 1;
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
    if (rank_one(b, scale, P, Q))
        return;
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

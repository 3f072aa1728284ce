/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ichol_compensate.c -- the fill an incomplete factorisation drops,
 * compensated on the pivots instead (robust IC by 3x3 blocks), so that
 * the factorisation of an SPD A~ cannot break down (ichol_numeric.c
 * calls it for each dropped block of a compensated attempt). */
#include "ichol.h"

#include <math.h>

/* The eigenvectors of a symmetric 3x3 S (all 9, column-major) by cyclic
 * Jacobi: V orthonormal (rotations), V^T S V diagonal to 1e-6 of its
 * diagonal. compensate's R is PSD for any orthonormal V; nearer
 * eigenvectors only make it tighter, and converging to round-off
 * instead gained no iterations for a slower factorisation
 * (docs/benchmark.md, "icpcg's step on two threads", "Two smaller
 * savings"). */
static void eig3(const double *S, double *V)
{
    double a[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            a[i][j] = S[3 * j + i];
            V[3 * j + i] = i == j;
        }
    for (int sweep = 0; sweep < 8; sweep++) {
        double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
        double on = fabs(a[0][0]) + fabs(a[1][1]) + fabs(a[2][2]);
        if (!(off > 1e-6 * on))
            break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                if (a[p][q] == 0)
                    continue;
                double th = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                double t = (th >= 0 ? 1 : -1) /
                           (fabs(th) + sqrt(th * th + 1));
                double c = 1 / sqrt(t * t + 1), sn = t * c;
                for (int k = 0; k < 3; k++) {
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - sn * akq;
                    a[k][q] = sn * akp + c * akq;
                }
                for (int k = 0; k < 3; k++) {
                    double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - sn * aqk;
                    a[q][k] = sn * apk + c * aqk;
                }
                for (int k = 0; k < 3; k++) {
                    double vkp = V[3 * p + k], vkq = V[3 * q + k];
                    V[3 * p + k] = c * vkp - sn * vkq;
                    V[3 * q + k] = sn * vkp + c * vkq;
                }
            }
    }
}

/* The update -E = -F W^T of block (I, J), I > J, falls outside F's
 * pattern: instead of dropping it, compensate it on the partial pivots
 * of I and J (lower-stored, not yet factorised). For any orthonormal v_1..3
 * with a_i = E v_i, c_i = |a_i|, E = sum a_i v_i^T and
 *   R = sum_i [s^1/2 a_i / c_i; s^-1/2 v_i] c_i [...]^T
 *     = [s sum a_i a_i^T / c_i, E; E^T, sum c_i v_i v_i^T / s]
 * is PSD. The factor is then the exact one of A~ + (the R's): every
 * trailing Schur complement of an SPD A~ stays SPD, so it cannot break
 * down (Ajiz and Jennings' robust IC, here by 3x3 blocks). With v_i the
 * right singular vectors of E (E = U Sigma V^T) the blocks are s U Sigma
 * U^T and V Sigma V^T / s: R adds only in the directions E couples (a
 * stiff spring's), which took fewer iterations than the entrywise rule
 * (|e| on all three diagonals) or the unit vectors for v_i
 * (docs/benchmark.md, "IC(0) on triangle meshes"). s = sqrt(m_I / m_J),
 * the ratio of the nodes' mean diagonal entries over their free
 * directions, balances the two nodes.
 * Adds tr R to num->comp_added. */
void cpg_ichol_compensate(const cpg_ichol *ic, cpg_ichol_numbers *num, int I,
                          int J, const double *F, const double *W)
{
    double E[9], S[9], V[9];
    for (int c = 0; c < 3; c++)
        for (int a = 0; a < 3; a++)
            E[3 * c + a] = F[a] * W[c] + F[3 + a] * W[3 + c] +
                           F[6 + a] * W[6 + c];
    double *DI = num->dinv + 9L * I, *DJ = num->dinv + 9L * J;
    /* the mean diagonal entry of each node over its free directions
     * only (the padding's 1s would make the factor depend on A's units) */
    const double *dI = num->diag + 3L * I, *dJ = num->diag + 3L * J;
    double mI = 0, mJ = 0;
    for (int a = 0; a < ic->dim[I]; a++)
        mI += dI[a] / ic->dim[I];
    for (int a = 0; a < ic->dim[J]; a++)
        mJ += dJ[a] / ic->dim[J];
    const double s = sqrt(mI / mJ);
    double e2 = 0;
    for (int q = 0; q < 9; q++)
        e2 += E[q] * E[q];
    if (e2 < 1e-8 * mI * mJ) {
        /* |E| below 1e-4 of the pivots' mean (the soft couplings, most
         * of the drops on a garment): the entrywise rule, each entry e
         * a 2x2 block [s|e|, e; e, |e|/s] on the two diagonals -- PSD as
         * well, a fifth of the work */
        for (int c = 0; c < 3; c++)
            for (int a = 0; a < 3; a++) {
                double e = fabs(E[3 * c + a]);
                DI[4 * a] += e * s;
                DJ[4 * c] += e / s;
                num->comp_added += e * (s + 1 / s);
            }
        return;
    }
    for (int c = 0; c < 3; c++) /* S = E^T E */
        for (int d = 0; d < 3; d++)
            S[3 * d + c] = E[3 * c] * E[3 * d] + E[3 * c + 1] * E[3 * d + 1] +
                           E[3 * c + 2] * E[3 * d + 2];
    eig3(S, V);
    for (int i = 0; i < 3; i++) {
        const double *v = V + 3 * i;
        double u[3]; /* E v = c u, |u| = 1 */
        for (int a = 0; a < 3; a++)
            u[a] = E[a] * v[0] + E[3 + a] * v[1] + E[6 + a] * v[2];
        double c = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        if (!(c > 0))
            continue;
        for (int a = 0; a < 3; a++)
            u[a] /= c;
        for (int d = 0; d < 3; d++)
            for (int a = d; a < 3; a++) {
                DI[3 * d + a] += c * s * u[a] * u[d];
                DJ[3 * d + a] += c / s * v[a] * v[d];
            }
        num->comp_added += c * (s + 1 / s);
    }
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fem_membrane.c -- one constant-strain triangle of the FEM cloth: its
 * rest shape in its own plane, and its StVK energy on the Green strain
 * with the gradient and the exact Hessian (docs/design.md, "The FEM
 * cloth"). Hessian with respect to F (i, j space, a, b material):
 *
 *   d2W/dF_ia dF_jb = A0 [delta_ij S_ab + mu (F_ib F_ja + (F F^T)_ij delta_ab)
 *                         + lambda F_ia F_jb],
 *
 * chained to vertices v, w through F = sum_v x_v d_v^T: with f_v = F d_v,
 *
 *   K_vw = A0 [(d_v^T S d_w) I + mu f_w f_v^T + mu (d_v . d_w) F F^T
 *              + lambda f_v f_w^T].                                      */
#include "cloth_model.h"

#include <math.h>

void cloth_fem_lame(double k, double nu, double *mu, double *lambda)
{
    *mu = k / (2.0 * (1.0 + nu));
    *lambda = k * nu / (1.0 - nu * nu);
}

int cloth_membrane_rest(const double X[9], cloth_membrane *t)
{
    double e1[3], e2[3];
    for (int c = 0; c < 3; c++) {
        e1[c] = X[3 + c] - X[c];
        e2[c] = X[6 + c] - X[c];
    }
    double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                   e1[0] * e2[1] - e1[1] * e2[0]};
    double twice_area = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    double l1 = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    double longest2 = 0.0;
    for (int p = 0; p < 3; p++) {
        double side2 = 0.0;
        for (int c = 0; c < 3; c++) {
            double d = X[3 * ((p + 1) % 3) + c] - X[3 * p + c];
            side2 += d * d;
        }
        longest2 = fmax(longest2, side2);
    }
    /* no area relative to its size, as cloth_mesh_check measures a sliver:
     * Dm^-1 would be rounding noise */
    if (!(twice_area > 1e-12 * longest2) || !isfinite(twice_area))
        return -1;
    /* The plane's frame: t1 along the first side, t2 = n^ x t1. Then
     * Dm = [[l1, e2 . t1], [0, e2 . t2]] with e2 . t2 = |n| / l1. */
    double along = (e2[0] * e1[0] + e2[1] * e1[1] + e2[2] * e1[2]) / l1;
    double across = twice_area / l1;
    /* the rows of Dm^-1 */
    t->d[1][0] = 1.0 / l1;
    t->d[1][1] = -along / (l1 * across);
    t->d[2][0] = 0.0;
    t->d[2][1] = 1.0 / across;
    for (int a = 0; a < 2; a++)
        t->d[0][a] = -(t->d[1][a] + t->d[2][a]);
    t->area = 0.5 * twice_area;
    return 0;
}

/* F (3x2, F[i][a]) of the triangle at x. */
static void deformation_gradient(const cloth_membrane *t, const double x[9],
                                 double F[3][2])
{
    for (int i = 0; i < 3; i++)
        for (int a = 0; a < 2; a++)
            F[i][a] = x[i] * t->d[0][a] + x[3 + i] * t->d[1][a] + x[6 + i] * t->d[2][a];
}

/* The Green strain E = (F^T F - I) / 2 (2x2, symmetric). */
static void green_strain(double F[3][2], double E[2][2])
{
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            double c = F[0][a] * F[0][b] + F[1][a] * F[1][b] + F[2][a] * F[2][b];
            E[a][b] = 0.5 * (c - (a == b ? 1.0 : 0.0));
        }
}

int cloth_membrane_surely_psd(const cloth_membrane *t, double lambda, const double x[9])
{
    double F[3][2], E[2][2];
    deformation_gradient(t, x, F);
    green_strain(F, E);
    double half_gap = 0.5 * (E[0][0] - E[1][1]);
    double least = 0.5 * (E[0][0] + E[1][1]) - sqrt(half_gap * half_gap + E[0][1] * E[0][1]);
    /* a strain below zero by rounding (a triangle at rest) makes the
     * Hessian negative by about as much relative to its size: less than
     * cloth_psd_project would change */
    return lambda >= 0.0 && least >= -1e-13;
}

double cloth_membrane_eval(const cloth_membrane *t, double mu, double lambda,
                           const double x[9], double grad[9], double hess[81])
{
    double F[3][2], E[2][2];
    deformation_gradient(t, x, F);
    green_strain(F, E);
    double trace = E[0][0] + E[1][1];
    double S[2][2];
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            S[a][b] = 2.0 * mu * E[a][b] + (a == b ? lambda * trace : 0.0);
    const double A0 = t->area;
    double energy = A0 * (mu * (E[0][0] * E[0][0] + 2.0 * E[0][1] * E[0][1] +
                                E[1][1] * E[1][1]) +
                          0.5 * lambda * trace * trace);

    /* f_v = F d_v, and P d_v = F S d_v */
    double f[3][3], Sd[3][2];
    for (int v = 0; v < 3; v++) {
        for (int a = 0; a < 2; a++)
            Sd[v][a] = S[a][0] * t->d[v][0] + S[a][1] * t->d[v][1];
        for (int i = 0; i < 3; i++)
            f[v][i] = F[i][0] * t->d[v][0] + F[i][1] * t->d[v][1];
    }
    if (grad)
        for (int v = 0; v < 3; v++)
            for (int i = 0; i < 3; i++)
                grad[3 * v + i] = A0 * (F[i][0] * Sd[v][0] + F[i][1] * Sd[v][1]);
    if (!hess)
        return energy;
    double FFt[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            FFt[i][j] = F[i][0] * F[j][0] + F[i][1] * F[j][1];
    for (int v = 0; v < 3; v++)
        for (int w = 0; w < 3; w++) {
            double dSd = t->d[v][0] * Sd[w][0] + t->d[v][1] * Sd[w][1];
            double dd = t->d[v][0] * t->d[w][0] + t->d[v][1] * t->d[w][1];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    hess[(3 * v + i) + 9 * (3 * w + j)] =
                        A0 * ((i == j ? dSd : 0.0) + mu * f[w][i] * f[v][j] +
                              mu * dd * FFt[i][j] + lambda * f[v][i] * f[w][j]);
        }
    return energy;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spring.c -- one damped linear spring: force and Jacobian blocks. */
#include "cloth_model.h"

#include <math.h>

void cloth_spring_eval(const double xa[3], const double xb[3],
                       const double va[3], const double vb[3], double k,
                       double kd, double rest, double fa[3], double Kx[9],
                       double Kv[9])
{
    double e[3] = {xa[0] - xb[0], xa[1] - xb[1], xa[2] - xb[2]};
    double l = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    if (!(l > 1e-12 * rest)) {
        /* Coincident ends: no direction to push along. */
        for (int c = 0; c < 3; c++)
            fa[c] = 0.0;
        for (int c = 0; c < 9; c++) {
            if (Kx)
                Kx[c] = 0.0;
            if (Kv)
                Kv[c] = 0.0;
        }
        return;
    }
    double d[3] = {e[0] / l, e[1] / l, e[2] / l};
    double vrel = (va[0] - vb[0]) * d[0] + (va[1] - vb[1]) * d[1] +
                  (va[2] - vb[2]) * d[2];
    double magnitude = k * (l - rest) + kd * vrel;
    for (int c = 0; c < 3; c++)
        fa[c] = -magnitude * d[c];

    /* Kx = k [(1 - s) d d^T + s I] with s = max(0, 1 - L/l): a compressed
     * spring (l < L) keeps only its positive semidefinite d d^T part. */
    double s = l > rest ? 1.0 - rest / l : 0.0;
    for (int col = 0; col < 3; col++)
        for (int row = 0; row < 3; row++) {
            double dd = d[row] * d[col];
            if (Kx)
                Kx[3 * col + row] = k * ((1.0 - s) * dd + (row == col ? s : 0.0));
            if (Kv)
                Kv[3 * col + row] = kd * dd;
        }
}

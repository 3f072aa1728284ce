/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vec3.h -- the 3-vector products the cloth's geometry shares (hinges,
 * closest points, the self-intersection check). */
#ifndef COREPCG_VEC3_H
#define COREPCG_VEC3_H

static inline double cloth_dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void cloth_cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

#endif /* COREPCG_VEC3_H */

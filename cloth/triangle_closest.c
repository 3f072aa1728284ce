/* SPDX-License-Identifier: GPL-2.0-or-later */
/* triangle_closest.c -- the point of a triangle nearest to a point, and
 * which of its features (the face, an edge, a corner) holds it: a mesh
 * obstacle's normal there is that feature's (mesh_obstacle.c). Regions
 * are told apart by the signs of barycentric-like dot products, so a
 * point on an edge's line outside the triangle lands on a corner, never
 * past it. */
#include "cloth_scene.h"
#include "vec3.h"

static void sub3(const double a[3], const double b[3], double d[3])
{
    for (int k = 0; k < 3; k++)
        d[k] = a[k] - b[k];
}

/* q = a + s (b - a) */
static void along(const double a[3], const double b[3], double s, double q[3])
{
    for (int k = 0; k < 3; k++)
        q[k] = a[k] + s * (b[k] - a[k]);
}

int cloth_triangle_closest(const double a[3], const double b[3], const double c[3],
                           const double x[3], double q[3])
{
    double ab[3], ac[3], ax[3], bx[3], cx[3];
    sub3(b, a, ab);
    sub3(c, a, ac);
    sub3(x, a, ax);
    double d1 = cloth_dot3(ab, ax), d2 = cloth_dot3(ac, ax);
    if (d1 <= 0.0 && d2 <= 0.0) {
        for (int k = 0; k < 3; k++)
            q[k] = a[k];
        return CLOTH_FEATURE_CORNER;
    }
    sub3(x, b, bx);
    double d3 = cloth_dot3(ab, bx), d4 = cloth_dot3(ac, bx);
    if (d3 >= 0.0 && d4 <= d3) {
        for (int k = 0; k < 3; k++)
            q[k] = b[k];
        return CLOTH_FEATURE_CORNER + 1;
    }
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
        along(a, b, d1 / (d1 - d3), q);
        return CLOTH_FEATURE_SIDE;
    }
    sub3(x, c, cx);
    double d5 = cloth_dot3(ab, cx), d6 = cloth_dot3(ac, cx);
    if (d6 >= 0.0 && d5 <= d6) {
        for (int k = 0; k < 3; k++)
            q[k] = c[k];
        return CLOTH_FEATURE_CORNER + 2;
    }
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
        along(a, c, d2 / (d2 - d6), q);
        return CLOTH_FEATURE_SIDE + 2; /* side c-a */
    }
    double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) {
        along(b, c, (d4 - d3) / ((d4 - d3) + (d5 - d6)), q);
        return CLOTH_FEATURE_SIDE + 1;
    }
    double sum = va + vb + vc;
    double v = vb / sum, w = vc / sum;
    for (int k = 0; k < 3; k++)
        q[k] = a[k] + v * ab[k] + w * ac[k];
    return CLOTH_FEATURE_FACE;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fem_bending.c -- one discrete-shell hinge of the FEM cloth (Grinspun et
 * al. 2003): the dihedral angle across an interior edge, its gradient in
 * closed form, and the energy kb w (theta - theta0)^2 with its
 * Gauss-Newton Hessian (docs/design.md, "The FEM cloth").
 *
 * The angle's gradient: with e = x1 - x0 and h1, h2 the heights of x2, x3
 * over the edge's line, moving x2 along its triangle's unit normal by d
 * changes theta by -d / h1 (x3 likewise), and x0, x1 take the parts that
 * keep the four summing to zero and the moments vanishing: with s_k the
 * position of x_k's foot along the edge (0 at x0, 1 at x1),
 *
 *   g2 = -n1^ / h1,   g3 = -n2^ / h2,
 *   g0 = -(1 - s2) g2 - (1 - s3) g3,   g1 = -s2 g2 - s3 g3.              */
#include "cloth_model.h"
#include "vec3.h"

#include <math.h>
#include <string.h>

#define TWO_PI 6.283185307179586476925286766559

/* The edge e = x1 - x0 and the two triangles' normals (|n| = twice the
 * area). */
static void hinge_normals(const double x[12], double e[3], double n1[3], double n2[3])
{
    double to2[3], to3[3];
    for (int c = 0; c < 3; c++) {
        e[c] = x[3 + c] - x[c];
        to2[c] = x[6 + c] - x[c];
        to3[c] = x[9 + c] - x[c];
    }
    cloth_cross3(e, to2, n1);
    cloth_cross3(to3, e, n2);
}

double cloth_hinge_angle(const double x[12], double grad[12])
{
    double e[3], n1[3], n2[3], m[3];
    hinge_normals(x, e, n1, n2);
    double e2 = cloth_dot3(e, e), le = sqrt(e2);
    cloth_cross3(n1, n2, m);
    double theta = le > 0.0 ? atan2(cloth_dot3(m, e) / le, cloth_dot3(n1, n2)) : 0.0;
    if (!grad)
        return theta;
    double a1 = cloth_dot3(n1, n1), a2 = cloth_dot3(n2, n2);
    /* a collapsed triangle (relative to the edge, as cloth_mesh_check
     * measures a sliver) has no normal: no direction to bend along */
    if (!(a1 > 1e-24 * e2 * e2) || !(a2 > 1e-24 * e2 * e2)) {
        memset(grad, 0, 12 * sizeof *grad);
        return theta;
    }
    double s2 = 0.0, s3 = 0.0;
    for (int c = 0; c < 3; c++) {
        s2 += (x[6 + c] - x[c]) * e[c];
        s3 += (x[9 + c] - x[c]) * e[c];
    }
    s2 /= e2;
    s3 /= e2;
    for (int c = 0; c < 3; c++) {
        /* n^ / h = n le / |n|^2 */
        double g2 = -n1[c] * le / a1, g3 = -n2[c] * le / a2;
        grad[c] = -(1.0 - s2) * g2 - (1.0 - s3) * g3;
        grad[3 + c] = -s2 * g2 - s3 * g3;
        grad[6 + c] = g2;
        grad[9 + c] = g3;
    }
    return theta;
}

int cloth_hinge_rest(const double X[12], cloth_hinge *e)
{
    double edge[3], n1[3], n2[3];
    hinge_normals(X, edge, n1, n2);
    double twice_areas = sqrt(cloth_dot3(n1, n1)) + sqrt(cloth_dot3(n2, n2));
    if (!(sqrt(cloth_dot3(n1, n1)) > 0.0) || !(sqrt(cloth_dot3(n2, n2)) > 0.0) || !isfinite(twice_areas))
        return -1;
    e->rest_angle = cloth_hinge_angle(X, NULL);
    /* |e|^2 / (3 (A1 + A2)), the areas half the normals' lengths */
    e->weight = 2.0 * cloth_dot3(edge, edge) / (3.0 * twice_areas);
    return 0;
}

double cloth_hinge_eval(const cloth_hinge *e, double kb, const double x[12],
                        double grad[12], double gn_hess[144])
{
    double g[12];
    double theta = cloth_hinge_angle(x, g);
    /* a fold through pi is a change of just past pi, not of -2 pi */
    double change = remainder(theta - e->rest_angle, TWO_PI);
    double c = kb * e->weight;
    if (grad)
        for (int k = 0; k < 12; k++)
            grad[k] = 2.0 * c * change * g[k];
    if (gn_hess)
        for (int col = 0; col < 12; col++)
            for (int row = 0; row < 12; row++)
                gn_hess[row + 12 * col] = 2.0 * c * g[row] * g[col];
    return c * change * change;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_fem.c -- the FEM cloth's physics (cloth/fem_*.c): each element's
 * gradient and Hessian against central differences on random triangles
 * (stretched and compressed) and hinges (flat and folded, both signs of
 * the angle); zero force at rest; rigid motions that change no energy;
 * the PSD projection, which only changes indefinite Hessians and then to
 * the nearest PSD matrix; the assembled A (SPD, its stiffness the
 * energy's Hessian, its b the energy's gradient and the damping's K v);
 * energy that falls step by step without damping or outside forces; a
 * sheet at rest that stays there; bad parameters and meshes refused, a
 * sliver too thin for a well-conditioned element among them. */
#include "cloth_fixture.h"
#include "fixture.h"
#include "test.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------- helpers */

#define PI 3.14159265358979323846

static unsigned long long rng_state = 88172645463325252ULL;

/* uniform in [lo, hi) (xorshift64: the same numbers on every machine) */
static double uniform(double lo, double hi)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return lo + (hi - lo) * (double)(rng_state >> 11) / 9007199254740992.0;
}

/* A random rotation (from a random unit quaternion). */
static void random_rotation(double R[3][3])
{
    double q[4], norm = 0.0;
    for (int k = 0; k < 4; k++) {
        q[k] = uniform(-1, 1);
        norm += q[k] * q[k];
    }
    norm = sqrt(norm);
    double w = q[0] / norm, x = q[1] / norm, y = q[2] / norm, z = q[3] / norm;
    double M[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                      {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                      {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    memcpy(R, M, sizeof M);
}

/* out = L in + t for each of the `count` points. */
static void transform(double L[3][3], const double t[3], const double *in, int count,
                      double *out)
{
    for (int p = 0; p < count; p++)
        for (int i = 0; i < 3; i++)
            out[3 * p + i] = L[i][0] * in[3 * p] + L[i][1] * in[3 * p + 1] +
                             L[i][2] * in[3 * p + 2] + t[i];
}

/* max |a - b| / max |a| over n entries */
static double relative_error(const double *a, const double *b, int n)
{
    double diff = 0.0, size = 0.0;
    for (int k = 0; k < n; k++) {
        diff = fmax(diff, fabs(a[k] - b[k]));
        size = fmax(size, fabs(a[k]));
    }
    return size > 0.0 ? diff / size : diff;
}

/* An element as the checks see it: an energy with a gradient at x. */
typedef struct element {
    int n; /* 9 or 12 */
    const cloth_membrane *membrane;
    const cloth_hinge *hinge;
    double mu, lambda, kb;
} element;

static double element_eval(const element *el, const double *x, double *grad)
{
    if (el->membrane)
        return cloth_membrane_eval(el->membrane, el->mu, el->lambda, x, grad, NULL);
    return cloth_hinge_eval(el->hinge, el->kb, x, grad, NULL);
}

/* Central differences of the energy (grad) and of the gradient (hess),
 * step `step`. */
static void finite_differences(const element *el, const double *x, double step,
                               double *grad, double *hess)
{
    int n = el->n;
    double xp[12], xm[12], gp[12], gm[12];
    for (int k = 0; k < n; k++) {
        memcpy(xp, x, (size_t)n * sizeof *x);
        memcpy(xm, x, (size_t)n * sizeof *x);
        xp[k] += step;
        xm[k] -= step;
        double ep = element_eval(el, xp, gp), em = element_eval(el, xm, gm);
        grad[k] = (ep - em) / (2.0 * step);
        for (int r = 0; r < n; r++)
            hess[r + n * k] = (gp[r] - gm[r]) / (2.0 * step);
    }
}

/* The smallest eigenvalue of the symmetric n x n matrix H. */
static double smallest_eigenvalue(const double *H, int n)
{
    double *copy = malloc((size_t)n * (size_t)n * sizeof *copy);
    double *w = malloc((size_t)n * sizeof *w);
    memcpy(copy, H, (size_t)n * (size_t)n * sizeof *copy);
    int info = (int)LAPACKE_dsyev(LAPACK_COL_MAJOR, 'N', 'L', n, copy, n, w);
    CHECK_INT(info, 0);
    double least = w[0];
    free(copy);
    free(w);
    return least;
}

/* ---------------------------------------------------------- membrane */

/* A random triangle in space with a fair shape (no sliver). */
static void random_triangle(double X[9])
{
    for (;;) {
        for (int k = 0; k < 9; k++)
            X[k] = uniform(-0.05, 0.05);
        cloth_membrane t;
        double longest = 0.0;
        for (int p = 0; p < 3; p++) {
            double d2 = 0.0;
            for (int c = 0; c < 3; c++) {
                double d = X[3 * p + c] - X[3 * ((p + 1) % 3) + c];
                d2 += d * d;
            }
            longest = fmax(longest, d2);
        }
        if (cloth_membrane_rest(X, &t) == 0 && t.area > 0.2 * longest)
            return;
    }
}

/* The deformations the checks use: a rotation times s (plus a random
 * linear part of size `mix`), and a translation. */
static void deform(const double *X, int count, double s, double mix, double *x)
{
    double R[3][3], L[3][3], t[3];
    random_rotation(R);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            L[i][j] = s * R[i][j] + mix * uniform(-1, 1);
        t[i] = uniform(-1, 1);
    }
    transform(L, t, X, count, x);
}

static void test_membrane_derivatives(void)
{
    const double k = 600.0, nu = 0.3;
    element el = {.n = 9, .kb = 0.0};
    cloth_fem_lame(k, nu, &el.mu, &el.lambda);
    CHECK_NEAR(el.mu, 600.0 / 2.6, 1e-12);
    CHECK_NEAR(el.lambda, 600.0 * 0.3 / 0.91, 1e-12);
    /* uniformly stretched, uniformly compressed, and sheared at random
     * both ways */
    const double scales[4] = {1.3, 0.7, 1.1, 0.85}, mixes[4] = {0.0, 0.0, 0.3, 0.3};
    double worst_grad = 0.0, worst_hess = 0.0;
    int indefinite = 0;
    for (int trial = 0; trial < 40; trial++) {
        double X[9], x[9], g[9], H[81], fd_g[9], fd_H[81];
        cloth_membrane t;
        random_triangle(X);
        CHECK_INT(cloth_membrane_rest(X, &t), 0);
        deform(X, 3, scales[trial % 4], mixes[trial % 4], x);
        el.membrane = &t;
        cloth_membrane_eval(&t, el.mu, el.lambda, x, g, H);
        finite_differences(&el, x, 1e-6 * 0.05, fd_g, fd_H);
        worst_grad = fmax(worst_grad, relative_error(g, fd_g, 9));
        worst_hess = fmax(worst_hess, relative_error(H, fd_H, 81));
        double least = smallest_eigenvalue(H, 9);
        if (trial % 4 == 0) {
            /* stretched: E and S are PSD, and so is the Hessian */
            CHECK(cloth_membrane_surely_psd(&t, el.lambda, x), "trial %d", trial);
            CHECK(least > -1e-9 * k, "stretched trial %d: eigenvalue %g", trial, least);
        } else if (trial % 4 == 1) {
            /* compressed: S negative, an indefinite Hessian */
            CHECK(!cloth_membrane_surely_psd(&t, el.lambda, x), "trial %d", trial);
            CHECK(least < -1e-3 * k * t.area, "compressed trial %d: eigenvalue %g", trial,
                  least);
        }
        indefinite += least < -1e-9 * k;
    }
    printf("membrane, 40 triangles (%d indefinite): gradient error %.2g, Hessian error %.2g\n",
           indefinite, worst_grad, worst_hess);
    CHECK_LE(worst_grad, 1e-5);
    CHECK_LE(worst_hess, 1e-5);
}

static void test_membrane_rest_and_rigid(void)
{
    double mu, lambda;
    cloth_fem_lame(600.0, 0.3, &mu, &lambda);
    for (int trial = 0; trial < 20; trial++) {
        double X[9], x[9], y[9], g[9];
        cloth_membrane t;
        random_triangle(X);
        CHECK_INT(cloth_membrane_rest(X, &t), 0);
        /* at rest, and moved rigidly: no energy, no force */
        double W = cloth_membrane_eval(&t, mu, lambda, X, g, NULL);
        CHECK_LE(fabs(W), 1e-12 * mu * t.area);
        CHECK_LE(fabs(g[0]) + fabs(g[4]) + fabs(g[8]), 1e-10 * mu * sqrt(t.area));
        deform(X, 3, 1.0, 0.0, x);
        CHECK_LE(fabs(cloth_membrane_eval(&t, mu, lambda, x, NULL, NULL)), 1e-12 * mu * t.area);
        /* a deformed one moved rigidly keeps its energy */
        deform(X, 3, 1.2, 0.2, x);
        double before = cloth_membrane_eval(&t, mu, lambda, x, NULL, NULL);
        deform(x, 3, 1.0, 0.0, y);
        double after = cloth_membrane_eval(&t, mu, lambda, y, NULL, NULL);
        CHECK(before > 1e-3 * mu * t.area, "trial %d: energy %g", trial, before);
        CHECK_NEAR(after, before, 1e-12 * before);
    }
    /* a triangle with no area has no rest shape */
    const double flat[9] = {0, 0, 0, 1, 0, 0, 2, 0, 0};
    cloth_membrane t;
    CHECK_INT(cloth_membrane_rest(flat, &t), -1);
}

/* ---------------------------------------------------------- projection */

static void test_psd_projection(void)
{
    double mu, lambda;
    cloth_fem_lame(600.0, 0.3, &mu, &lambda);
    for (int trial = 0; trial < 20; trial++) {
        double X[9], x[9], H[81], P[81], Q[81], w[9];
        cloth_membrane t;
        random_triangle(X);
        cloth_membrane_rest(X, &t);
        int stretched = trial % 2 == 0;
        deform(X, 3, stretched ? 1.25 : 0.75, 0.0, x);
        cloth_membrane_eval(&t, mu, lambda, x, NULL, H);
        memcpy(P, H, sizeof H);
        int changed = cloth_psd_project(P, 9);
        /* on the motions that are not translations: the same */
        double E[81];
        memcpy(E, H, sizeof H);
        CHECK_INT(cloth_psd_project_element(E, 3), changed);
        if (stretched) {
            /* a PSD Hessian (with rounding in its null space) is kept bit
             * for bit */
            CHECK_INT(changed, 0);
            CHECK_INT(memcmp(P, H, sizeof H), 0);
            CHECK_INT(memcmp(E, H, sizeof H), 0);
            continue;
        }
        CHECK_INT(changed, 1);
        CHECK_LE(relative_error(P, E, 81), 1e-12);
        /* the nearest PSD matrix in the Frobenius norm: the difference is
         * exactly the negative eigenvalues' part */
        memcpy(Q, H, sizeof H);
        CHECK_INT((int)LAPACKE_dsyev(LAPACK_COL_MAJOR, 'N', 'L', 9, Q, 9, w), 0);
        double negative = 0.0, largest = fabs(w[8]), moved = 0.0;
        for (int k = 0; k < 9; k++)
            if (w[k] < 0.0)
                negative += w[k] * w[k];
        for (int k = 0; k < 81; k++)
            moved += (P[k] - H[k]) * (P[k] - H[k]);
        CHECK(negative > 0.0, "compressed trial %d: no negative eigenvalue", trial);
        CHECK_NEAR(sqrt(moved), sqrt(negative), 1e-10 * largest);
        CHECK(smallest_eigenvalue(P, 9) >= -1e-12 * largest, "trial %d: projection %g",
              trial, smallest_eigenvalue(P, 9));
        /* and it only added: P - H is PSD */
        for (int k = 0; k < 81; k++)
            Q[k] = P[k] - H[k];
        CHECK(smallest_eigenvalue(Q, 9) >= -1e-12 * largest, "trial %d", trial);
    }
}

/* A hinge on the edge (0,0,0)-(L,0,0), x2 on the +y side of the plane
 * z = 0, x3 on the -y side turned by phi about the edge, then moved
 * rigidly at random. */
static void folded_hinge(double phi, double x[12])
{
    double L = uniform(0.02, 0.05);
    double local[12] = {0, 0, 0, L, 0, 0, uniform(-0.3, 1.3) * L, uniform(0.4, 1.0) * L, 0,
                        0, 0, 0};
    double along = uniform(-0.3, 1.3) * L, out = uniform(0.4, 1.0) * L;
    local[9] = along;
    local[10] = -out * cos(phi);
    local[11] = out * sin(phi);
    double R[3][3], t[3];
    random_rotation(R);
    for (int i = 0; i < 3; i++)
        t[i] = uniform(-1, 1);
    transform(R, t, local, 4, x);
}

/* The projection against LAPACK's: random symmetric matrices of both
 * element sizes, indefinite and PSD, and one with a NaN. */
static void test_psd_against_lapack(void)
{
    double worst = 0.0;
    int projected = 0;
    for (int trial = 0; trial < 40; trial++) {
        int n = trial % 2 ? 12 : 9;
        double B[144], H[144], P[144], Q[144], w[12], want[144] = {0}, size = 0.0;
        /* PSD (B B^T of rank 6, a null space like an element's) or not */
        for (int k = 0; k < n * n; k++)
            B[k] = uniform(-1, 1);
        for (int c = 0; c < n; c++)
            for (int r = 0; r < n; r++) {
                double sum = 0.0;
                for (int k = 0; k < 6; k++)
                    sum += B[r + n * k] * B[c + n * k];
                H[r + n * c] = trial % 4 < 2 ? sum : B[r + n * c] + B[c + n * r];
                size = fmax(size, fabs(H[r + n * c]));
            }
        memcpy(P, H, sizeof H);
        memcpy(Q, H, sizeof H);
        CHECK_INT((int)LAPACKE_dsyev(LAPACK_COL_MAJOR, 'V', 'L', n, Q, n, w), 0);
        int indefinite = w[0] < -1e-12 * fmax(fabs(w[0]), fabs(w[n - 1]));
        for (int k = 0; k < n; k++)
            for (int c = 0; c < n && w[k] > 0.0; c++)
                for (int r = 0; r < n; r++)
                    want[r + n * c] += w[k] * Q[r + n * k] * Q[c + n * k];
        int changed = cloth_psd_project(P, n);
        CHECK_INT(changed, indefinite);
        if (!indefinite) {
            CHECK_INT(memcmp(P, H, (size_t)n * (size_t)n * sizeof *H), 0);
            continue;
        }
        projected++;
        for (int k = 0; k < n * n; k++)
            worst = fmax(worst, fabs(P[k] - want[k]) / size);
    }
    printf("PSD projection against LAPACK: %d indefinite of 40, largest difference %.2g\n",
           projected, worst);
    CHECK_INT(projected, 20);
    CHECK_LE(worst, 1e-12);
    /* an indefinite 12x12 blind to translations (two hinges' angle
     * gradients a, b: a a^T - b b^T), projected on 9 dimensions or 12 */
    double x[12], y[12], a[12], b[12], H[144], P[144];
    folded_hinge(0.7, x);
    folded_hinge(-1.9, y);
    cloth_hinge_angle(x, a);
    cloth_hinge_angle(y, b);
    for (int c = 0; c < 12; c++)
        for (int r = 0; r < 12; r++)
            H[r + 12 * c] = a[r] * a[c] - b[r] * b[c];
    memcpy(P, H, sizeof H);
    CHECK_INT(cloth_psd_project(P, 12), 1);
    CHECK_INT(cloth_psd_project_element(H, 4), 1);
    CHECK_LE(relative_error(P, H, 144), 1e-12);
    double bad[81] = {0};
    bad[40] = NAN;
    bad[0] = 1.0;
    CHECK_INT(cloth_psd_project(bad, 9), -1);
    CHECK_INT(bad[0] == 0.0 && bad[40] == 0.0, 1);
}

/* ---------------------------------------------------------- hinges */

static void test_hinge_derivatives(void)
{
    /* flat, folded either way, nearly closed either way */
    const double phis[5] = {0.0, 0.7, -0.7, 2.6, -2.6};
    const double kb = 1e-5;
    double worst_angle = 0.0, worst_grad = 0.0, worst_gn = 0.0, worst_theta = 0.0;
    for (int trial = 0; trial < 40; trial++) {
        double phi = phis[trial % 5], X[12], x[12], g[12], H[144], fd_g[12], fd_H[144];
        /* rest: a different fold of the same kind, so the energy is not 0 */
        folded_hinge(phi, x);
        cloth_hinge hg;
        folded_hinge(0.5 * phi + 0.3, X);
        CHECK_INT(cloth_hinge_rest(X, &hg), 0);
        /* the angle: its value, and its gradient by differences */
        double theta = cloth_hinge_angle(x, g);
        worst_theta = fmax(worst_theta, fabs(theta + phi));
        double step = 1e-6 * 0.02, fd_angle[12];
        for (int k = 0; k < 12; k++) {
            double xp[12], xm[12];
            memcpy(xp, x, sizeof xp);
            memcpy(xm, x, sizeof xm);
            xp[k] += step;
            xm[k] -= step;
            fd_angle[k] = (cloth_hinge_angle(xp, NULL) - cloth_hinge_angle(xm, NULL)) / (2 * step);
        }
        worst_angle = fmax(worst_angle, relative_error(g, fd_angle, 12));
        /* the energy's gradient */
        element el = {.n = 12, .hinge = &hg, .kb = kb};
        cloth_hinge_eval(&hg, kb, x, g, H);
        finite_differences(&el, x, step, fd_g, fd_H);
        worst_grad = fmax(worst_grad, relative_error(g, fd_g, 12));
        /* at its rest angle the exact Hessian is the Gauss-Newton one */
        hg.rest_angle = theta;
        cloth_hinge_eval(&hg, kb, x, g, H);
        CHECK_LE(fabs(g[0]) + fabs(g[11]), 0.0);
        finite_differences(&el, x, step, fd_g, fd_H);
        worst_gn = fmax(worst_gn, relative_error(H, fd_H, 144));
        double trace = 0.0;
        for (int k = 0; k < 12; k++)
            trace += H[k + 12 * k];
        CHECK(smallest_eigenvalue(H, 12) >= -1e-12 * trace, "trial %d", trial);
    }
    printf("hinges, 40 (flat, +-0.7, +-2.6 rad): angle error %.2g rad, angle gradient %.2g, "
           "energy gradient %.2g, Gauss-Newton Hessian at rest %.2g\n",
           worst_theta, worst_angle, worst_grad, worst_gn);
    /* theta = -phi: folding x3 towards +z (x2's triangle's normal side)
     * is a negative angle */
    CHECK_LE(worst_theta, 1e-12);
    CHECK_LE(worst_angle, 1e-5);
    CHECK_LE(worst_grad, 1e-5);
    CHECK_LE(worst_gn, 1e-5);
}

static void test_hinge_rest_and_rigid(void)
{
    for (int trial = 0; trial < 20; trial++) {
        double X[12], x[12], g[12];
        cloth_hinge hg;
        folded_hinge(uniform(-3, 3), X);
        CHECK_INT(cloth_hinge_rest(X, &hg), 0);
        CHECK(hg.weight > 0.0, "weight %g", hg.weight);
        CHECK_INT(cloth_hinge_eval(&hg, 1e-5, X, g, NULL) == 0.0, 1);
        double largest = 0.0;
        for (int k = 0; k < 12; k++)
            largest = fmax(largest, fabs(g[k]));
        CHECK_LE(largest, 0.0);
        /* moved rigidly: the same energy */
        double R[3][3], t[3] = {0.3, -0.2, 0.1};
        random_rotation(R);
        folded_hinge(uniform(-3, 3), x);
        double before = cloth_hinge_eval(&hg, 1e-5, x, NULL, NULL), y[12];
        transform(R, t, x, 4, y);
        CHECK_NEAR(cloth_hinge_eval(&hg, 1e-5, y, NULL, NULL), before, 1e-11 * before);
    }
    /* the weight |e|^2 / (3 (A1 + A2)) on a square folded flat: A = 1/2 */
    const double square[12] = {0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0};
    cloth_hinge hg;
    CHECK_INT(cloth_hinge_rest(square, &hg), 0);
    CHECK_NEAR(hg.weight, 2.0 / 3.0, 1e-15);
    CHECK_NEAR(hg.rest_angle, 0.0, 1e-15);
    /* a fold through pi counts from the rest angle the short way */
    const double closed[12] = {0, 0, 0, 1, 0, 0, 0.5, 1, 0, 0.5, 1, 1e-3};
    CHECK_INT(cloth_hinge_rest(closed, &hg), 0);
    double theta = cloth_hinge_angle(closed, NULL);
    CHECK(fabs(fabs(theta) - PI) < 2e-3, "nearly closed: theta %g", theta);
    hg.rest_angle = -theta;
    CHECK_NEAR(cloth_hinge_eval(&hg, 1.0, closed, NULL, NULL) / hg.weight,
               pow(2 * PI - 2 * fabs(theta), 2), 1e-9);
}

/* ---------------------------------------------------------- the model */

/* A gently curved square sheet of m x m vertices, side 0.2 m, in memory:
 * its hinges are not flat at rest. */
static cloth_mesh curved_sheet(int m)
{
    cloth_mesh mesh = {.num_vertices = m * m, .num_triangles = 2 * (m - 1) * (m - 1)};
    mesh.x = malloc(3 * (size_t)mesh.num_vertices * sizeof *mesh.x);
    mesh.triangles = malloc(3 * (size_t)mesh.num_triangles * sizeof *mesh.triangles);
    for (int r = 0; r < m; r++)
        for (int c = 0; c < m; c++) {
            double u = 0.2 * c / (m - 1), v = 0.2 * r / (m - 1);
            double *p = &mesh.x[3 * (r * m + c)];
            p[0] = u;
            p[1] = v;
            p[2] = 0.05 * sin(8.0 * u) * cos(5.0 * v);
        }
    int t = 0;
    for (int r = 0; r + 1 < m; r++)
        for (int c = 0; c + 1 < m; c++) {
            int a = r * m + c, b = a + 1, d = a + m, e = d + 1;
            const int tri[6] = {a, b, e, a, e, d};
            memcpy(&mesh.triangles[3 * t], tri, sizeof tri);
            t += 2;
        }
    return mesh;
}

/* The FEM cloth on mesh in the free scene: no gravity, no damping unless
 * given. */
static cloth_sim *fem_sim(const cloth_mesh *mesh, double k, double damping, double alpha)
{
    cloth_params p;
    cloth_params_default_mesh(&p, CLOTH_SCENE_FREE, mesh);
    p.model = CLOTH_MODEL_FEM;
    p.k_stretch = k;
    p.gravity = 0.0;
    p.damping = damping;
    p.mass_damping = alpha;
    return fixture_sim(&p, "fem");
}

/* A (both triangles) as a dense column-major n x n matrix. */
static double *dense_A(const cloth_sim *s)
{
    int n = s->model.n;
    double *D = calloc((size_t)n * (size_t)n, sizeof *D);
    for (int col = 0; col < n; col++)
        for (int p = s->model.colptr[col]; p < s->model.colptr[col + 1]; p++) {
            int row = s->model.rowidx[p];
            D[row + (size_t)n * col] = D[col + (size_t)n * row] = s->values[p];
        }
    return D;
}

/* The assembled stiffness: (A - (1 + h alpha) M) / (h beta + h^2), times u. */
static void stiffness_times(const cloth_sim *s, const double *D, const double *u, double *out)
{
    int n = s->model.n;
    double h = s->h, scale = h * s->par.damping + h * h;
    for (int r = 0; r < n; r++) {
        double sum = 0.0;
        for (int c = 0; c < n; c++)
            sum += D[r + (size_t)n * c] * u[c];
        double mass = (1.0 + h * s->par.mass_damping) * s->model.mass[r / 3];
        out[r] = (sum - mass * u[r]) / scale;
    }
}

/* The energy's gradient from b at zero velocity (b = -h grad). */
static void gradient_from_b(cloth_sim *s, double *grad)
{
    char msg[COREPCG_MSG_SIZE] = "";
    memset(s->v, 0, (size_t)s->model.n * sizeof *s->v);
    CHECK_INT(cloth_assemble(s, msg), COREPCG_OK);
    for (int k = 0; k < s->model.n; k++)
        grad[k] = -s->b[k] / s->h;
}

/* A as it would be with the elements' exact Hessians (no projection):
 * dense, (1 + h alpha) M + (h beta + h^2) sum of the elements' blocks. */
static double *dense_A_unprojected(const cloth_sim *s)
{
    int n = s->model.n;
    double h = s->h, scale = h * s->par.damping + h * h, mu, lambda;
    cloth_fem_lame(s->par.k_stretch, s->par.poisson, &mu, &lambda);
    const cloth_fem *fem = cloth_sim_fem(s);
    double *D = calloc((size_t)n * (size_t)n, sizeof *D);
    for (int r = 0; r < n; r++)
        D[r + (size_t)n * r] = (1.0 + h * s->par.mass_damping) * s->model.mass[r / 3];
    for (int e = 0; e < fem->num_membranes + fem->num_hinges; e++) {
        int hinge = e >= fem->num_membranes, count = hinge ? 4 : 3, m = 3 * count;
        const int *v = hinge ? fem->hinges[e - fem->num_membranes].v
                             : fem->membranes[e].v;
        double x[12], K[144];
        cloth_fem_gather(s->x, v, count, x);
        if (hinge)
            cloth_hinge_eval(&fem->hinges[e - fem->num_membranes], s->par.bending, x,
                             NULL, K);
        else
            cloth_membrane_eval(&fem->membranes[e], mu, lambda, x, NULL, K);
        for (int c = 0; c < m; c++)
            for (int r = 0; r < m; r++)
                D[(3 * v[r / 3] + r % 3) + (size_t)n * (3 * v[c / 3] + c % 3)] +=
                    scale * K[r + m * c];
    }
    return D;
}

static void test_assembled_system(void)
{
    cloth_mesh mesh = curved_sheet(6);
    cloth_sim *s = fem_sim(&mesh, 6000.0, 1e-3, 0.5);
    if (!s) {
        cloth_mesh_free(&mesh);
        return;
    }
    int n = s->model.n;
    CHECK(cloth_sim_fem(s) != NULL, "a fem simulation has its elements");
    CHECK_INT(cloth_sim_fem(s)->num_membranes, 50);
    CHECK_INT(cloth_sim_fem(s)->num_hinges, 65); /* 85 edges, 20 on the boundary */
    double *u = malloc((size_t)n * sizeof *u), *Ku = malloc((size_t)n * sizeof *Ku);
    double *gp = malloc((size_t)n * sizeof *gp), *gm = malloc((size_t)n * sizeof *gm);
    double *x0 = malloc((size_t)n * sizeof *x0);
    char msg[COREPCG_MSG_SIZE] = "";

    /* Stretched uniformly: every membrane PSD, every hinge at its rest
     * angle, so the assembled K is the energy's Hessian: K u against the
     * gradient's central difference along u (which also checks where each
     * element's blocks landed). */
    for (int k = 0; k < n; k++)
        x0[k] = s->x[k] = 1.15 * s->x_rest[k];
    for (int k = 0; k < n; k++)
        u[k] = uniform(-1, 1);
    const double step = 1e-7;
    gradient_from_b(s, gp); /* A at x0 */
    double *D = dense_A(s);
    stiffness_times(s, D, u, Ku);
    for (int k = 0; k < n; k++)
        s->x[k] = x0[k] + step * u[k];
    gradient_from_b(s, gp);
    for (int k = 0; k < n; k++)
        s->x[k] = x0[k] - step * u[k];
    gradient_from_b(s, gm);
    for (int k = 0; k < n; k++)
        gp[k] = (gp[k] - gm[k]) / (2.0 * step);
    double err = relative_error(Ku, gp, n);
    printf("assembled K u against the gradient's difference (stretched sheet): %.2g\n", err);
    CHECK_LE(err, 1e-5);
    free(D);

    /* b's velocity terms: b(v) - b(0) = -(h alpha M + (h beta + h^2) K) v
     * = -(A - M) v, for any v */
    for (int k = 0; k < n; k++)
        s->x[k] = x0[k] * (1.0 + 0.1 * uniform(-1, 1));
    gradient_from_b(s, gm);
    for (int k = 0; k < n; k++)
        s->v[k] = u[k];
    CHECK_INT(cloth_assemble(s, msg), COREPCG_OK);
    D = dense_A(s);
    double worst = 0.0, size = 0.0;
    for (int r = 0; r < n; r++) {
        double Av = 0.0;
        for (int c = 0; c < n; c++)
            Av += D[r + (size_t)n * c] * u[c];
        double want = -(Av - s->model.mass[r / 3] * u[r]);
        double got = s->b[r] + s->h * gm[r];
        worst = fmax(worst, fabs(got - want));
        size = fmax(size, fabs(want));
    }
    CHECK_LE(worst, 1e-10 * size);

    /* Crumpled at random (membranes compressed, hinges folded): A is SPD
     * all the same -- its Cholesky factorisation exists */
    for (int k = 0; k < n; k++)
        s->x[k] = 0.6 * s->x_rest[k] + 0.01 * uniform(-1, 1);
    CHECK_INT(cloth_assemble(s, msg), COREPCG_OK);
    free(D);
    D = dense_A(s);
    double least = smallest_eigenvalue(D, n), lightest = s->model.mass[0];
    for (int i = 0; i < s->model.N; i++)
        lightest = fmin(lightest, s->model.mass[i]);
    printf("crumpled sheet: A's smallest eigenvalue %.3g (smallest mass %.3g)\n", least,
           lightest);
    CHECK(least >= 0.99 * lightest * (1.0 + s->h * 0.5),
          "smallest eigenvalue %g under the smallest (damped) mass", least);
    CHECK_INT((int)LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, D, n), 0);
    /* which the projection made so: with the exact Hessians it is not */
    free(D);
    D = dense_A_unprojected(s);
    double unprojected = smallest_eigenvalue(D, n);
    printf("crumpled sheet without the projection: smallest eigenvalue %.3g\n", unprojected);
    CHECK(unprojected < 0.0, "A without the projection is SPD too (%g): the check is void",
          unprojected);

    free(D);
    free(u);
    free(Ku);
    free(gp);
    free(gm);
    free(x0);
    cloth_sim_free(&s);
    cloth_mesh_free(&mesh);
}

static double total_energy(const cloth_sim *s)
{
    return cloth_kinetic_energy(s) + cloth_force_energy(s);
}

static int direct_step(cloth_sim *s)
{
    corepcg_settings set;
    corepcg_settings_default(&set);
    set.method = COREPCG_METHOD_DIRECT;
    char msg[COREPCG_MSG_SIZE] = "";
    int rc = cloth_step(s, &set, msg);
    CHECK(rc == COREPCG_OK, "step %d: %s", s->step + 1, msg);
    return rc == COREPCG_OK;
}

static void test_energy_decreases(void)
{
    cloth_mesh mesh = curved_sheet(8);
    cloth_sim *s = fem_sim(&mesh, 600.0, 0.0, 0.0);
    if (!s) {
        cloth_mesh_free(&mesh);
        return;
    }
    /* pulled out of shape and let go: it swings back, and backward
     * Euler's numerical damping is the only loss */
    for (int k = 0; k < s->model.n; k++)
        s->x[k] = s->x_rest[k] * (1.0 + 0.05 * (k % 3 == 0)) + 0.002 * uniform(-1, 1);
    double start = total_energy(s), last = start;
    int rises = 0;
    for (int step = 0; step < 40 && direct_step(s); step++) {
        double now = total_energy(s);
        rises += now > last * (1.0 + 1e-12);
        last = now;
    }
    printf("free sheet without damping: energy %.4g J -> %.4g J over 40 steps, %d rises\n",
           start, last, rises);
    CHECK_INT(rises, 0);
    CHECK(last < 0.9 * start && last > 0.0, "energy %g from %g", last, start);
    cloth_sim_free(&s);
    cloth_mesh_free(&mesh);
}

static void test_rest_stays(void)
{
    /* the curved sheet and the coarse T-shirt (folded, with sleeves) */
    cloth_mesh meshes[2] = {curved_sheet(8)};
    char dir[FIXTURE_PATH], path[FIXTURE_PATH], msg[COREPCG_MSG_SIZE] = "";
    fixture_join(dir, fixture_data_dir(), "meshes");
    fixture_join(path, dir, "tshirt_coarse.obj");
    CHECK_INT(cloth_mesh_read_obj(path, &meshes[1], msg), COREPCG_OK);
    for (int m = 0; m < 2; m++) {
        cloth_sim *s = fem_sim(&meshes[m], 6000.0, 1e-3, 0.0);
        if (!s)
            continue;
        s->par.bending = 1e-4;
        for (int step = 0; step < 5 && direct_step(s); step++)
            ;
        double moved = 0.0, speed = 0.0, size = 0.0;
        for (int k = 0; k < s->model.n; k++) {
            moved = fmax(moved, fabs(s->x[k] - s->x_rest[k]));
            speed = fmax(speed, fabs(s->v[k]));
            size = fmax(size, fabs(s->x_rest[k]));
        }
        printf("%s at rest, 5 steps: moved %.2g m, speed %.2g m/s\n",
               m ? "coarse T-shirt" : "curved sheet", moved, speed);
        CHECK_LE(moved, 1e-12 * size);
        CHECK_LE(speed, 1e-10 * size);
        cloth_sim_free(&s);
        cloth_mesh_free(&meshes[m]);
    }
}

/* ---------------------------------------------------------- bad input */

static void test_refusals(void)
{
    cloth_mesh mesh = curved_sheet(4);
    cloth_params p;
    char msg[COREPCG_MSG_SIZE] = "";
    cloth_params_default_mesh(&p, CLOTH_SCENE_FREE, &mesh);
    p.model = CLOTH_MODEL_FEM;
    CHECK_INT(cloth_params_check(&p, msg), COREPCG_OK);
    const double bad_nu[4] = {0.5, -1.0, 0.7, NAN};
    for (int k = 0; k < 4; k++) {
        p.poisson = bad_nu[k];
        msg[0] = '\0';
        CHECK_INT(cloth_params_check(&p, msg), COREPCG_ERR_ARGUMENT);
        CHECK_STR_CONTAINS(msg, "--poisson needs a number in (-1, 0.5), both ends excluded, "
                                "got '");
    }
    /* the library says it as the CLI does: one check, one message */
    p.poisson = 0.7;
    cloth_params_check(&p, msg);
    CHECK_STR_CONTAINS(msg, "--poisson needs a number in (-1, 0.5), both ends excluded, "
                            "got '0.7'");
    p.poisson = 0.3;
    p.bending = -1e-5;
    CHECK_INT(cloth_params_check(&p, msg), COREPCG_ERR_ARGUMENT);
    CHECK_STR_CONTAINS(msg, "--bending needs a number in [0, 1e+12], got '-1e-05'");
    p.bending = 1e-5;
    p.mass_damping = -1.0;
    CHECK_INT(cloth_params_check(&p, msg), COREPCG_ERR_ARGUMENT);
    CHECK_STR_CONTAINS(msg, "--mass-damping needs a number in [0, 1e+12], got '-1'");
    p.mass_damping = 0.0;
    p.k_stretch = -600;
    CHECK_INT(cloth_params_check(&p, msg), COREPCG_ERR_ARGUMENT);
    CHECK_STR_CONTAINS(msg, "--k-stretch needs a number in [0, 1e+12], got '-600'");
    p.model = 7;
    p.k_stretch = 600;
    CHECK_INT(cloth_params_check(&p, msg), COREPCG_ERR_ARGUMENT);
    CHECK_STR_CONTAINS(msg, "model");
    cloth_params_default(&p, CLOTH_SCENE_PINNED, 11);
    p.model = CLOTH_MODEL_FEM;
    CHECK_INT(cloth_params_check(&p, msg), COREPCG_ERR_ARGUMENT);
    CHECK_STR_CONTAINS(msg, "mesh");
    CHECK_INT(cloth_force_model_from_name("fem"), CLOTH_MODEL_FEM);
    CHECK_INT(cloth_force_model_from_name("springs"), CLOTH_MODEL_SPRINGS);
    CHECK_INT(cloth_force_model_from_name("FEM"), CLOTH_MODEL_FEM); /* any case */
    CHECK_INT(cloth_force_model_from_name("shells"), -1);

    /* a triangle without rest area: named, never a NaN in A. The mesh
     * check refuses it first; the elements refuse it too. */
    cloth_model g;
    CHECK_INT(cloth_mesh_build(&mesh, 0.15, &g, msg), COREPCG_OK);
    int *t = &mesh.triangles[3 * 4];
    for (int c = 0; c < 3; c++) /* its third corner on its first side's midpoint */
        mesh.x[3 * t[2] + c] = 0.5 * (mesh.x[3 * t[0] + c] + mesh.x[3 * t[1] + c]);
    cloth_fem fem;
    msg[0] = '\0';
    CHECK_INT(cloth_fem_build(&mesh, &g, &fem, msg), COREPCG_ERR_FORMAT);
    CHECK(strstr(msg, "triangle 5") || strstr(msg, "triangle 4"), "message: %s", msg);
    CHECK_STR_CONTAINS(msg, "no rest area");
    CHECK(fem.membranes == NULL && fem.hinges == NULL, "elements left after a failure");
    cloth_model_free(&g);
    cloth_params_default_mesh(&p, CLOTH_SCENE_FREE, &mesh);
    p.model = CLOTH_MODEL_FEM;
    cloth_sim *s = NULL;
    CHECK_INT(cloth_sim_create(&p, &s, msg), COREPCG_ERR_FORMAT);
    CHECK_STR_CONTAINS(msg, "degenerate");
    cloth_mesh_free(&mesh);

    /* the CLI: refused before any work, the option named; a degenerate
     * triangle named by its file and line */
    char out[8192], args[4096], dir[FIXTURE_PATH], tshirt[FIXTURE_PATH];
    fixture_join(dir, fixture_data_dir(), "meshes");
    fixture_join(tshirt, dir, "tshirt_coarse.obj");
    const struct {
        const char *options, *said;
        int status;
    } cases[] = {
        /* one range, said one way, past an end or on it (issue 36), by
         * the library's one check (issue 35) */
        {"--model fem --poisson 0.5", "corepcg: --poisson needs a number in (-1, 0.5), "
                                      "both ends excluded, got '0.5'\n", 2},
        {"--model fem --poisson -1", "corepcg: --poisson needs a number in (-1, 0.5), "
                                     "both ends excluded, got '-1'\n", 2},
        {"--model fem --poisson 0.7", "corepcg: --poisson needs a number in (-1, 0.5), "
                                      "both ends excluded, got '0.7'\n", 2},
        {"--model fem --poisson nan", "corepcg: --poisson needs a number in (-1, 0.5), "
                                      "both ends excluded, got 'nan'\n", 2},
        {"--model fem --bending -1e-5",
         "corepcg: --bending needs a number in [0, 1e+12], got '-1e-5'\n", 2},
        {"--model fem --k-stretch -600",
         "corepcg: --k-stretch needs a number in [0, 1e+12], got '-600'\n", 2},
        {"--model fem --mass-damping -1",
         "corepcg: --mass-damping needs a number in [0, 1e+12], got '-1'\n", 2},
        {"--model shells", "--model takes one of springs, fem", 2},
        {"--bending 1e-5", "--bending applies to --model fem only", 2},
        {"--poisson 0.2 --model springs", "--poisson applies to --model fem only", 2},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        snprintf(args, sizeof args, "simulate hang --mesh '%s' --steps 1 %s", tshirt,
                 cases[k].options);
        CHECK_INT(fixture_run_cli(args, out, sizeof out), cases[k].status);
        CHECK_STR_CONTAINS(out, cases[k].said);
    }
    /* --help says the range as the refusals do */
    for (int k = 0; k < 2; k++) {
        CHECK_INT(fixture_run_cli(k ? "gen --help" : "simulate --help", out, sizeof out), 0);
        CHECK_STR_CONTAINS(out, "--poisson NU     fem: Poisson ratio, in (-1, 0.5), both ends "
                                "excluded\n");
    }
    CHECK_INT(fixture_run_cli("gen pinned --size 5 --model fem --out /nonexistent/x", out,
                              sizeof out), 2);
    CHECK_STR_CONTAINS(out, "--model fem runs on a triangle mesh");
    char tmp[FIXTURE_PATH];
    fixture_temp_dir(tmp, "fem");
    CHECK_INT(fixture_write(tmp, "sliver.obj",
                            "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 2 0 0\nf 1 2 3\nf 1 4 2\n"), 0);
    char sliver[FIXTURE_PATH];
    fixture_join(sliver, tmp, "sliver.obj");
    snprintf(args, sizeof args, "simulate free --mesh '%s' --model fem --steps 1", sliver);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    CHECK_STR_CONTAINS(out, "sliver.obj:6");
    /* and a run that works says which model ran */
    snprintf(args, sizeof args, "simulate hang --mesh '%s' --model fem --steps 3 --bending 2e-5",
             tshirt);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    CHECK_STR_CONTAINS(out, "fem (nu 0.3, bending 2e-05 N m)");
    /* -0 is echoed as 0 (issue 36) */
    snprintf(args, sizeof args, "simulate hang --mesh '%s' --model fem --steps 1 --bending -0 "
             "--poisson -0", tshirt);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    CHECK_STR_CONTAINS(out, "fem (nu 0, bending 0 N m)");
    /* gen writes an FEM garment's system, which every solver takes */
    char bundle[FIXTURE_PATH];
    fixture_join(bundle, tmp, "fem-bundle");
    snprintf(args, sizeof args, "gen garment --mesh '%s' --model fem --out '%s'", tshirt, bundle);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    CHECK_STR_CONTAINS(out, "fem (nu 0.3, bending 1e-05 N m)");
    snprintf(args, sizeof args, "solve '%s' --method auto", bundle);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    /* corePCG on it compensates its core (the hinges' couplings) and says so */
    snprintf(args, sizeof args, "solve '%s' --method corepcg", bundle);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    CHECK_STR_CONTAINS(out, "note              core compensated");
    /* bench: the model of the mesh scenes, refused for a run of grids */
    CHECK_INT(fixture_run_cli("bench --quick --model fem", out, sizeof out), 2);
    CHECK_STR_CONTAINS(out, "--model fem applies to the mesh scenes");
    CHECK_INT(fixture_run_cli("bench --quick --model shells", out, sizeof out), 2);
    CHECK_STR_CONTAINS(out, "--model takes one of springs, fem");
    /* --scaling runs its models in a row (test_bench), one scene at a time */
    CHECK_INT(fixture_run_cli("bench --scaling --scene garment,hang", out, sizeof out), 2);
    CHECK_STR_CONTAINS(out, "--scaling takes one scene and one tol (its models in a row)");
    /* both models: a table each, the FEM rows labelled */
    char csv[FIXTURE_PATH];
    fixture_join(csv, tmp, "models.csv");
    snprintf(args, sizeof args, "bench --scene garment --mesh '%s' --model springs,fem --k 600 "
             "--steps 1 --tol 1e-5 --methods direct,corepcg --csv '%s'", tshirt, csv);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    CHECK_STR_CONTAINS(out, "== garment, tol 1e-05");
    CHECK_STR_CONTAINS(out, "== garment (fem), tol 1e-05");
    char *text = fixture_read(csv), *save = NULL;
    int rows = 0, fem_rows = 0;
    for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line;
         line = strtok_r(NULL, "\n", &save)) {
        rows++;
        fem_rows += strstr(line, "(fem)") != NULL;
    }
    CHECK_INT(rows, 5); /* the header and a row per model and method */
    CHECK_INT(fem_rows, 2);
    free(text);
    snprintf(args, sizeof args, "rm -rf '%s'", tmp);
    CHECK_INT(system(args), 0);
}

/* ------------------------------------------------------------ slivers */

/* A 5 x 5 quad sheet, 0.5 m a side, hanging in the x-z plane, and on its
 * top edge's first side (vertices 1 and 2, 0.125 m apart) the flap
 * triangle 1 26 2 (line 43) whose height is `ratio` of that side. */
static void write_flap(const char *dir, const char *name, double ratio)
{
    char text[4096];
    int used = 0;
    for (int r = 0; r < 5; r++)
        for (int c = 0; c < 5; c++)
            used += snprintf(text + used, sizeof text - (size_t)used, "v %.17g 0 %.17g\n",
                             0.125 * c, 1.0 - 0.125 * r);
    used += snprintf(text + used, sizeof text - (size_t)used, "v 0.0625 0 %.17g\n",
                     1.0 + 0.125 * ratio);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            int a = 5 * r + c + 1;
            used += snprintf(text + used, sizeof text - (size_t)used, "f %d %d %d %d\n", a,
                             a + 5, a + 6, a + 1);
        }
    snprintf(text + used, sizeof text - (size_t)used, "f 1 26 2\n");
    CHECK_INT(fixture_write(dir, name, text), 0);
}

/* A near-degenerate triangle (an outside review: heights of 1e-10 to
 * 3e-12 of the longest edge passed the rest-area test, and A was not
 * positive definite: a sliver's stiffness, ~1/height, left rounding of
 * that size in its projected Hessian) is refused when the model is
 * built, naming its file and line; just above CLOTH_FEM_MIN_HEIGHT A is
 * SPD (direct factorises it). The springs take every one. The shipped
 * meshes, refined or not, are far from the bound. */
static void test_slivers(void)
{
    char tmp[FIXTURE_PATH], path[FIXTURE_PATH], args[4096], out[8192], want[2 * FIXTURE_PATH];
    fixture_temp_dir(tmp, "fem-sliver");
    fixture_join(path, tmp, "flap.obj");
    const double refused[] = {1e-6, 1e-7, 1e-9, 1e-11, 3e-12};
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        write_flap(tmp, "flap.obj", refused[k]);
        snprintf(args, sizeof args, "simulate drape --mesh '%s' --model fem --steps 2 "
                 "--method direct", path);
        CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
        snprintf(want, sizeof want, "corepcg: simulate: %s:43: triangle 1 26 2 is a sliver "
                 "(height %.2g of its longest edge); an FEM element needs at least %g: "
                 "remesh it, or use --model springs\n", path, refused[k], CLOTH_FEM_MIN_HEIGHT);
        CHECK_STR_CONTAINS(out, want);
        snprintf(args, sizeof args, "simulate drape --mesh '%s' --model springs --steps 2 "
                 "--method direct", path);
        CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    }
    /* subdivided, the face's line (its vertices are no longer the file's) */
    write_flap(tmp, "flap.obj", 1e-6);
    snprintf(args, sizeof args, "gen drape --mesh '%s' --subdivide 1 --model fem --steps 2 "
             "--out '%s/bundle'", path, tmp);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    snprintf(want, sizeof want, "%s:43: a triangle of the face (subdivided) is a sliver "
             "(height 1e-06", path);
    CHECK_STR_CONTAINS(out, want);
    CHECK(!fixture_exists(tmp, "bundle"), "a refused gen made its bundle");
    const double kept[] = {1e-5, 1e-4};
    for (size_t k = 0; k < sizeof kept / sizeof kept[0]; k++) {
        write_flap(tmp, "flap.obj", kept[k]);
        snprintf(args, sizeof args, "simulate drape --mesh '%s' --model fem --steps 2 "
                 "--method direct", path);
        CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
        CHECK_STR_CONTAINS(out, "drape on flap.obj (26 vertices), fem");
    }

    /* a rest area past a double's range: the file and line too */
    CHECK_INT(fixture_write(tmp, "far.obj", "v 0 0 1e150\nv 1e150 0 1e150\nv 0 0 0\n"
                                            "v 1e150 0 0\nf 1 3 4 2\n"), 0);
    fixture_join(path, tmp, "far.obj");
    snprintf(args, sizeof args, "simulate free --mesh '%s' --model fem --steps 1", path);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    snprintf(want, sizeof want, "%s:5: triangle 1 3 4: its rest area overflows a double "
             "(a side of 1.41e+150 m; positions are in metres)", path);
    CHECK_STR_CONTAINS(out, want);

    /* the shipped meshes: their thinnest triangle, and after a round of
     * subdivision (which keeps the shapes), 1000 times the bound or more */
    const char *const shipped[] = {"tshirt_coarse.obj", "tshirt.obj", "dress.obj",
                                   "sheet.obj", "top.obj", "body.obj"};
    char dir[FIXTURE_PATH], msg[COREPCG_MSG_SIZE];
    fixture_join(dir, fixture_data_dir(), "meshes");
    for (size_t k = 0; k < sizeof shipped / sizeof shipped[0]; k++) {
        cloth_mesh mesh, fine;
        fixture_join(path, dir, shipped[k]);
        CHECK_INT(cloth_mesh_read_obj(path, &mesh, msg), COREPCG_OK);
        CHECK_INT(cloth_mesh_subdivide(&mesh, 1, &fine, msg), COREPCG_OK);
        for (int level = 0; level < 2; level++) {
            const cloth_mesh *m = level ? &fine : &mesh;
            double least = INFINITY;
            for (int t = 0; t < m->num_triangles; t++) {
                double longest2, area = cloth_mesh_triangle_area(m, t, &longest2);
                least = fmin(least, 2.0 * area / longest2);
            }
            CHECK(least >= 1000 * CLOTH_FEM_MIN_HEIGHT, "%s subdivided %d times: a triangle "
                  "of height %.3g", shipped[k], level, least);
        }
        cloth_mesh_free(&fine);
        cloth_mesh_free(&mesh);
    }
    snprintf(args, sizeof args, "rm -rf '%s'", tmp);
    CHECK_INT(system(args), 0);
}

int main(void)
{
    test_membrane_derivatives();
    test_membrane_rest_and_rigid();
    test_psd_projection();
    test_psd_against_lapack();
    test_hinge_derivatives();
    test_hinge_rest_and_rigid();
    test_assembled_system();
    test_energy_decreases();
    test_rest_stays();
    test_refusals();
    test_slivers();
    return test_summary("test_fem");
}

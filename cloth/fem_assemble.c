/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fem_assemble.c -- the FEM elements' part of a step's A and b. Each
 * element with energy gradient g and PSD stiffness K (a membrane's exact
 * Hessian projected, a hinge's Gauss-Newton one) at positions x_e and
 * velocities v_e adds, with Rayleigh's C = alpha M + beta K,
 *
 *     A += (h beta + h^2) K,     b += -h g - h (beta + h) K v_e,
 *
 * (the b = h (f - h K v) of backward Euler with f = -g - beta K v_e),
 * after the masses scaled by alpha, -h alpha M v and gravity, and this
 * step's contact springs (assemble.c's shared loop). */
#include "cloth_model.h"
#include "cloth_sim.h"

/* Where an element's blocks land and how they are scaled. */
typedef struct element_sink {
    const cloth_model *g;
    double *values, *b;
    double stiffness;  /* h beta + h^2: K's weight in A    */
    double force;      /* h: g's weight in b                */
    double velocity;   /* h (beta + h): K v_e's weight in b */
} element_sink;

/* Adds the element on `count` vertices v (pairs p < q in order in pair[])
 * with gradient grad, stiffness K (3 count square, column-major) and
 * velocities vel to A's lower triangle and b. */
static void add_element(const element_sink *to, int count, const int *v, const int *pair,
                        const double *grad, const double *K, const double *vel)
{
    const cloth_model *g = to->g;
    const int n = 3 * count;
    for (int r = 0; r < n; r++) {
        double Kv = 0.0;
        for (int c = 0; c < n; c++)
            Kv += K[r + n * c] * vel[c];
        to->b[3 * v[r / 3] + r % 3] -= to->force * grad[r] + to->velocity * Kv;
    }
    for (int p = 0; p < count; p++)
        for (int col = 0; col < 3; col++) {
            double *column = &to->values[g->colptr[3 * v[p] + col]];
            for (int row = col; row < 3; row++)
                column[row - col] += to->stiffness * K[(3 * p + row) + n * (3 * p + col)];
        }
    /* a pair's block in A's lower triangle: rows of the later vertex,
     * columns of the earlier one, at its spring's place */
    int k = 0;
    for (int p = 0; p < count; p++)
        for (int q = p + 1; q < count; q++) {
            const cloth_spring *sp = &g->springs[pair[k++]];
            int early = v[p] < v[q] ? p : q, late = v[p] < v[q] ? q : p;
            for (int col = 0; col < 3; col++)
                for (int row = 0; row < 3; row++)
                    to->values[sp->pos[col] + row] +=
                        to->stiffness * K[(3 * late + row) + n * (3 * early + col)];
        }
}

/* (1 + h alpha) M on A's diagonal; b = -h alpha M v plus gravity: the
 * masses with Rayleigh's alpha term folded in. */
static void add_rayleigh_inertia(cloth_sim *sim)
{
    const cloth_model *g = &sim->model;
    const double h = sim->h, alpha = sim->par.mass_damping;
    for (int i = 0; i < g->N; i++) {
        for (int c = 0; c < 3; c++) {
            sim->values[g->colptr[3 * i + c]] = (1.0 + h * alpha) * g->mass[i];
            sim->b[3 * i + c] = -h * alpha * g->mass[i] * sim->v[3 * i + c];
        }
        double fall = -h * g->mass[i] * sim->par.gravity;
        sim->b[3 * i + 2] = sim->b[3 * i + 2] + fall;
    }
}

/* The membranes' and hinges' blocks. */
static void add_elements(cloth_sim *sim)
{
    const cloth_fem *fem = sim->force;
    const double h = sim->h, beta = sim->par.damping;
    const element_sink to = {&sim->model, sim->values, sim->b, h * beta + h * h, h,
                             h * (beta + h)};
    double mu, lambda;
    cloth_fem_lame(sim->par.k_stretch, sim->par.poisson, &mu, &lambda);
    for (int t = 0; t < fem->num_membranes; t++) {
        const cloth_membrane *m = &fem->membranes[t];
        double x[9], v[9], grad[9], K[81];
        cloth_fem_gather(sim->x, m->v, 3, x);
        cloth_fem_gather(sim->v, m->v, 3, v);
        cloth_membrane_eval(m, mu, lambda, x, grad, K);
        /* the eigensolver only where the Hessian can be indefinite */
        if (!cloth_membrane_surely_psd(m, lambda, x))
            cloth_psd_project_element(K, 3);
        add_element(&to, 3, m->v, m->pair, grad, K, v);
    }
    for (int e = 0; e < fem->num_hinges; e++) {
        const cloth_hinge *hg = &fem->hinges[e];
        double x[12], v[12], grad[12], K[144];
        cloth_fem_gather(sim->x, hg->v, 4, x);
        cloth_fem_gather(sim->v, hg->v, 4, v);
        cloth_hinge_eval(hg, sim->par.bending, x, grad, K);
        add_element(&to, 4, hg->v, hg->pair, grad, K, v);
    }
}

void cloth_fem_assemble(cloth_sim *sim)
{
    add_rayleigh_inertia(sim);
    /* the fixed springs only lay out the pattern: the elements are the
     * forces; this step's contact springs push as in the spring model */
    cloth_add_springs(sim, sim->model.num_fixed);
    add_elements(sim);
}

double cloth_fem_energy(const cloth_sim *sim)
{
    const cloth_fem *fem = sim->force;
    double mu, lambda, sum = 0.0;
    cloth_fem_lame(sim->par.k_stretch, sim->par.poisson, &mu, &lambda);
    for (int t = 0; t < fem->num_membranes; t++) {
        double x[9];
        cloth_fem_gather(sim->x, fem->membranes[t].v, 3, x);
        sum += cloth_membrane_eval(&fem->membranes[t], mu, lambda, x, NULL, NULL);
    }
    for (int e = 0; e < fem->num_hinges; e++) {
        double x[12];
        cloth_fem_gather(sim->x, fem->hinges[e].v, 4, x);
        sum += cloth_hinge_eval(&fem->hinges[e], sim->par.bending, x, NULL, NULL);
    }
    return sum;
}

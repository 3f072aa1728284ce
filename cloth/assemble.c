/* SPDX-License-Identifier: GPL-2.0-or-later */
/* assemble.c -- one step's A (values of the lower-triangle CSC pattern,
 * fixed unless self-contact springs change it) and b, in time linear in
 * the number of entries:
 *
 *     A = M - h dF/dv - h^2 dF/dx,   b = h (f + h dF/dx v).
 *
 * Each spring a-b adds B = h Kv + h^2 Kx to the diagonal blocks of a and
 * b and -B to the off-diagonal block, and h (f_a - h Kx (v_a - v_b)) to
 * b_a (the opposite to b_b).
 *
 * What a step's system holds is the force model's (its row's
 * add_system): the spring model (spring_model.c) adds the masses, gravity
 * and every spring through the two shared parts here; the FEM model
 * (fem_assemble.c) its Rayleigh-scaled masses, this step's contact
 * springs only, and its elements.
 *
 * cloth_system lends what is assembled to the solver, so solve.c needs
 * nothing from sim.c. */
#include "cloth_model.h"
#include "cloth_sim.h"
#include "monotonic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Adds the lower triangle of the symmetric 3x3 block B (column-major) to
 * node i's diagonal block. */
static void add_diagonal(const cloth_model *g, double *values, int i,
                         const double B[9])
{
    for (int col = 0; col < 3; col++) {
        double *column = &values[g->colptr[3 * i + col]];
        for (int row = col; row < 3; row++)
            column[row - col] += B[3 * col + row];
    }
}

void cloth_add_inertia(cloth_sim *sim)
{
    const cloth_model *g = &sim->model;
    const double h = sim->h;
    for (int i = 0; i < g->N; i++) {
        for (int c = 0; c < 3; c++) {
            sim->values[g->colptr[3 * i + c]] = g->mass[i];
            sim->b[3 * i + c] = 0.0;
        }
        sim->b[3 * i + 2] = -h * g->mass[i] * sim->par.gravity;
    }
}

void cloth_add_springs(cloth_sim *sim, int first)
{
    const cloth_model *g = &sim->model;
    const double h = sim->h;
    const double k_of[CLOTH_SPRING_KINDS] = {sim->par.k_stretch, sim->par.k_shear,
                                             sim->par.k_bend, sim->par.k_contact};
    double *values = sim->values, *b = sim->b;
    for (int s = first; s < g->num_springs; s++) {
        const cloth_spring *sp = &g->springs[s];
        const double k = k_of[sp->kind], kd = sim->par.damping * k;
        const double *xa = &sim->x[3 * sp->a], *xb = &sim->x[3 * sp->b];
        const double *va = &sim->v[3 * sp->a], *vb = &sim->v[3 * sp->b];
        double fa[3], Kx[9], Kv[9], B[9];
        cloth_spring_eval(xa, xb, va, vb, k, kd, sp->rest, fa, Kx, Kv);
        for (int e = 0; e < 9; e++)
            B[e] = h * Kv[e] + h * h * Kx[e];
        add_diagonal(g, values, sp->a, B);
        add_diagonal(g, values, sp->b, B);
        for (int col = 0; col < 3; col++)
            for (int row = 0; row < 3; row++)
                values[sp->pos[col] + row] -= B[3 * col + row];

        double vab[3] = {va[0] - vb[0], va[1] - vb[1], va[2] - vb[2]};
        for (int row = 0; row < 3; row++) {
            double Kxv = Kx[row] * vab[0] + Kx[3 + row] * vab[1] + Kx[6 + row] * vab[2];
            double impulse = h * (fa[row] - h * Kxv);
            b[3 * sp->a + row] += impulse;
            b[3 * sp->b + row] -= impulse;
        }
    }
}

/* The force model's row fills A's values and b (its order of sums is its
 * own: a model that reorders them changes the answers' last bits). */
static void assemble_matrix(cloth_sim *sim)
{
    memset(sim->values, 0, (size_t)sim->model.nnz * sizeof *sim->values);
    cloth_force_model_describe(sim->par.model)->add_system(sim);
}

double cloth_force_energy(const cloth_sim *sim)
{
    return cloth_force_model_describe(sim->par.model)->energy(sim);
}

int cloth_assemble(cloth_sim *sim, char *msg)
{
    double start = cpg_now();
    cloth_constrain(sim);
    int rc = cloth_self_contact(sim, msg);
    if (rc == COREPCG_OK && sim->values_capacity < sim->model.nnz_capacity) {
        /* self-contact springs grew the pattern */
        double *grown = realloc(sim->values, (size_t)sim->model.nnz_capacity * sizeof *grown);
        if (grown) {
            sim->values = grown;
            sim->values_capacity = sim->model.nnz_capacity;
        } else {
            rc = COREPCG_ERR_NO_MEMORY;
            if (msg)
                snprintf(msg, COREPCG_MSG_SIZE, "cloth: out of memory for A's values");
        }
    }
    if (rc == COREPCG_OK)
        assemble_matrix(sim);
    sim->time_assemble_s = cpg_now() - start;
    return rc;
}

void cloth_system(const cloth_sim *sim, corepcg_system *sys)
{
    memset(sys, 0, sizeof *sys);
    sys->num_nodes = sim->model.N;
    sys->A_format = COREPCG_CSC;
    sys->A_triangle = COREPCG_LOWER;
    sys->A_colptr = sim->model.colptr;
    sys->A_rowidx = sim->model.rowidx;
    sys->A_values = sim->values;
    sys->A_nnz = sim->model.nnz;
    sys->num_constraints = sim->num_cons;
    sys->constraints = sim->num_cons ? sim->cons : NULL;
    sys->z = sim->z;
    sys->num_stretch = sim->model.num_stretch;
    sys->stretch_pairs = sim->model.stretch_pairs;
}

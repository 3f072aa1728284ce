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
 * The FEM model evaluates only this step's contact springs here (its
 * fixed springs lay out the pattern; fem_assemble.c adds the elements),
 * and its Rayleigh alpha scales the masses: (1 + h alpha) M in A, and
 * -h alpha M v in b.
 *
 * cloth_system lends what is assembled to the solver, so solve.c needs
 * nothing from sim.c. */
#include "cloth.h"
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

static void assemble_matrix(cloth_sim *sim)
{
    const cloth_model *g = &sim->model;
    const double h = sim->h;
    const double k_of[CLOTH_SPRING_KINDS] = {sim->par.k_stretch, sim->par.k_shear,
                                             sim->par.k_bend, sim->par.k_contact};
    double *values = sim->values, *b = sim->b;
    const int fem = sim->par.model == CLOTH_MODEL_FEM;
    const double alpha = sim->par.mass_damping;

    memset(values, 0, (size_t)g->nnz * sizeof *values);
    for (int i = 0; i < g->N; i++) {
        for (int c = 0; c < 3; c++) {
            values[g->colptr[3 * i + c]] = fem ? (1.0 + h * alpha) * g->mass[i] : g->mass[i];
            b[3 * i + c] = fem ? -h * alpha * g->mass[i] * sim->v[3 * i + c] : 0.0;
        }
        double fall = -h * g->mass[i] * sim->par.gravity;
        b[3 * i + 2] = fem ? b[3 * i + 2] + fall : fall;
    }

    for (int s = fem ? g->num_fixed : 0; s < g->num_springs; s++) {
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
    if (fem)
        cloth_fem_assemble(sim);
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

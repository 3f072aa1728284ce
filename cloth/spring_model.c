/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spring_model.c -- the mass-spring force model's row: the model's
 * springs (stretch, shear and bend on a grid; stretch and bend on a mesh)
 * are its forces, with kd = damping k. It needs no state of its own. */
#include "cloth_model.h"
#include "cloth_sim.h"

#include <math.h>
#include <stdio.h>

static void springs_add_system(cloth_sim *sim)
{
    cloth_add_inertia(sim);
    cloth_add_springs(sim, 0);
}

/* sum of k (l - L)^2 / 2 over the fixed springs */
static double springs_energy(const cloth_sim *sim)
{
    const cloth_model *g = &sim->model;
    const double k_of[CLOTH_SPRING_KINDS] = {sim->par.k_stretch, sim->par.k_shear,
                                             sim->par.k_bend, sim->par.k_contact};
    double sum = 0.0;
    for (int s = 0; s < g->num_fixed; s++) {
        const cloth_spring *sp = &g->springs[s];
        const double *xa = &sim->x[3 * sp->a], *xb = &sim->x[3 * sp->b];
        double e[3] = {xa[0] - xb[0], xa[1] - xb[1], xa[2] - xb[2]};
        double stretch = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]) - sp->rest;
        sum += 0.5 * k_of[sp->kind] * stretch * stretch;
    }
    return sum;
}

static void springs_summary(const cloth_params *par, char *buf, size_t len)
{
    (void)par;
    snprintf(buf, len, "%s", "");
}

const cloth_force_model_ops cloth_springs_ops = {
    .name = "springs",
    .description = "stretch springs on the edges, bending springs across them",
    .needs_mesh = 0,
    .params = CLOTH_PARAM_BIT(CLOTH_PARAM_K_STRETCH) | CLOTH_PARAM_BIT(CLOTH_PARAM_K_SHEAR) |
              CLOTH_PARAM_BIT(CLOTH_PARAM_K_BEND) | CLOTH_PARAM_BIT(CLOTH_PARAM_DAMPING),
    .build = NULL,
    .add_system = springs_add_system,
    .energy = springs_energy,
    .free = NULL,
    .summary = springs_summary,
};

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fem_row.c -- the FEM force model's row: its elements (fem_model.c)
 * built into sim->force, its system and energy (fem_assemble.c), its
 * parameters (poisson, bending, mass_damping; k_stretch the membranes'
 * 2D Young's modulus, damping Rayleigh's beta). */
#include "cloth_mesh.h"
#include "cloth_model.h"
#include "cloth_sim.h"
#include "message.h"

#include <stdio.h>
#include <stdlib.h>

/* The row's build: the elements of the mesh, in sim->force. */
static int fem_build(cloth_sim *sim, const cloth_mesh *mesh, char *msg)
{
    cloth_fem *fem = calloc(1, sizeof *fem);
    if (!fem)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "cloth fem: out of memory");
    int rc = cloth_fem_build(mesh, &sim->model, fem, msg);
    if (rc != COREPCG_OK) {
        free(fem);
        return rc;
    }
    sim->force = fem;
    return COREPCG_OK;
}

static void fem_free(cloth_sim *sim)
{
    cloth_fem_free(sim->force);
    free(sim->force);
    sim->force = NULL;
}

static void fem_summary(const cloth_params *par, char *buf, size_t len)
{
    snprintf(buf, len, ", fem (nu %g, bending %g N m)", par->poisson, par->bending);
}

const cloth_force_model_ops cloth_fem_ops = {
    .name = "fem",
    .description = "StVK membranes on the triangles, --k-stretch their 2D Young's modulus "
                   "in N/m; discrete-shell hinges on the interior edges; Rayleigh damping",
    .needs_mesh = 1,
    .params = CLOTH_PARAM_BIT(CLOTH_PARAM_K_STRETCH) | CLOTH_PARAM_BIT(CLOTH_PARAM_POISSON) |
              CLOTH_PARAM_BIT(CLOTH_PARAM_BENDING) | CLOTH_PARAM_BIT(CLOTH_PARAM_MASS_DAMPING) |
              CLOTH_PARAM_BIT(CLOTH_PARAM_DAMPING),
    .build = fem_build,
    .add_system = cloth_fem_assemble,
    .energy = cloth_fem_energy,
    .free = fem_free,
    .summary = fem_summary,
};

const cloth_fem *cloth_sim_fem(const cloth_sim *sim)
{
    return sim && cloth_force_model_describe(sim->par.model) == &cloth_fem_ops ? sim->force
                                                                                : NULL;
}

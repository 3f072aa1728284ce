/* SPDX-License-Identifier: GPL-2.0-or-later */
/* suggest_up.c -- the advice beside a refused mesh scene: the up axis
 * under which it would start. It tries each axis by creating the
 * simulator, so it sits above sim.c, which refuses through
 * scene_check.c. */
#include "cloth_mesh.h"
#include "cloth_model.h"
#include "cloth_sim.h"

#include <stdlib.h>

int cloth_scene_suggest_up(const cloth_params *par, cloth_up current)
{
    static const cloth_up order[CLOTH_UP_COUNT] = {
        CLOTH_UP_Y, CLOTH_UP_Z, CLOTH_UP_X, CLOTH_UP_MINUS_Y, CLOTH_UP_MINUS_Z,
        CLOTH_UP_MINUS_X};
    if (!par || !par->mesh)
        return -1;
    /* the garment and the --obstacle meshes turned together, as --up turns
     * them (the garment alone gave advice that --up then took back) */
    int count = 1 + par->num_obstacle_meshes;
    cloth_mesh *turned = calloc((size_t)count, sizeof *turned);
    int copied = 0;
    while (turned && copied < count &&
           cloth_mesh_copy(copied ? &par->obstacle_meshes[copied - 1] : par->mesh,
                           &turned[copied], NULL) == COREPCG_OK)
        copied++;
    cloth_params p = *par;
    p.mesh = turned;
    p.obstacle_meshes = turned + 1;
    cloth_up was = current;
    int found = -1;
    for (int k = 0; k < CLOTH_UP_COUNT && found < 0 && copied == count; k++) {
        if (order[k] == current)
            continue;
        for (int m = 0; m < count; m++)
            cloth_mesh_orient(&turned[m], was, order[k]);
        was = order[k];
        cloth_sim *sim = NULL;
        if (cloth_sim_create(&p, &sim, NULL) == COREPCG_OK)
            found = order[k];
        cloth_sim_free(&sim);
    }
    for (int m = 0; m < copied; m++)
        cloth_mesh_free(&turned[m]);
    free(turned);
    return found;
}

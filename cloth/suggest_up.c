/* SPDX-License-Identifier: GPL-2.0-or-later */
/* suggest_up.c -- the advice beside a refused mesh scene: the up axis
 * under which it would start. It tries each axis by creating the
 * simulator, so it sits above sim.c, which refuses through
 * scene_check.c. */
#include "cloth_mesh.h"
#include "cloth_model.h"
#include "cloth_sim.h"

int cloth_scene_suggest_up(const cloth_params *par, cloth_up current)
{
    static const cloth_up order[CLOTH_UP_COUNT] = {
        CLOTH_UP_Y, CLOTH_UP_Z, CLOTH_UP_X, CLOTH_UP_MINUS_Y, CLOTH_UP_MINUS_Z,
        CLOTH_UP_MINUS_X};
    if (!par || !par->mesh)
        return -1;
    cloth_mesh turned;
    if (cloth_mesh_copy(par->mesh, &turned, NULL) != COREPCG_OK)
        return -1;
    cloth_params p = *par;
    p.mesh = &turned;
    cloth_up was = current;
    int found = -1;
    for (int k = 0; k < CLOTH_UP_COUNT && found < 0; k++) {
        if (order[k] == current)
            continue;
        cloth_mesh_orient(&turned, was, order[k]);
        was = order[k];
        cloth_sim *sim = NULL;
        if (cloth_sim_create(&p, &sim, NULL) == COREPCG_OK)
            found = order[k];
        cloth_sim_free(&sim);
    }
    cloth_mesh_free(&turned);
    return found;
}

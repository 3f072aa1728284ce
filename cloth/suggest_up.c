/* SPDX-License-Identifier: GPL-2.0-or-later */
/* suggest_up.c -- the advice beside a refused mesh scene: the up axis
 * under which it would start. It tries each axis by creating the
 * simulator, so it sits above sim.c, which refuses through
 * scene_check.c. */
#include "cloth_mesh.h"
#include "cloth_model.h"
#include "cloth_sim.h"

#include <stdlib.h>

/* m turned from up `was` to `now` about the point c. */
static void orient_about(cloth_mesh *m, cloth_up was, cloth_up now, const double c[3])
{
    for (int i = 0; c && i < m->num_vertices; i++)
        for (int k = 0; k < 3; k++)
            m->x[3 * i + k] -= c[k];
    cloth_mesh_orient(m, was, now);
    for (int i = 0; c && i < m->num_vertices; i++)
        for (int k = 0; k < 3; k++)
            m->x[3 * i + k] += c[k];
}

int cloth_scene_suggest_up(const cloth_params *par, cloth_up current, const double moved[3])
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
            orient_about(&turned[m], was, order[k], m == 0 ? moved : NULL);
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

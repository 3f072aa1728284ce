/* SPDX-License-Identifier: GPL-2.0-or-later */
/* scene_table.c -- the scenes, a row each: name, where it runs, what holds
 * it, its obstacle, its self-contact default. scene.c, scene_check.c and
 * params.c read the rows instead of naming scenes, so that a scene added
 * to cloth_scene is described here once. */
#include "cloth_scene.h"

#include "name_is.h"

#include <stdio.h>

/* What a row leaves out is zero: no grid or mesh, flat, nothing held, no
 * obstacle, no self-contact. */
static const cloth_scene_row scene_table[] = {
    [CLOTH_SCENE_PINNED] = {.name = "pinned", .on_grid = 1,
                            .hold = CLOTH_HOLD_CORNERS},
    [CLOTH_SCENE_DRAPE] = {.name = "drape", .on_grid = 1, .on_mesh = 1,
                           .obstacle = CLOTH_OBSTACLE_SPHERE_BELOW},
    [CLOTH_SCENE_BALLHIT] = {.name = "ballhit", .on_grid = 1, .on_mesh = 1,
                             .upright = 1, .hold = CLOTH_HOLD_TOP,
                             .obstacle = CLOTH_OBSTACLE_FLYING_BALL},
    [CLOTH_SCENE_RAIL] = {.name = "rail", .on_grid = 1, .hold = CLOTH_HOLD_RAIL},
    [CLOTH_SCENE_FREE] = {.name = "free", .on_grid = 1, .on_mesh = 1},
    [CLOTH_SCENE_HANG] = {.name = "hang", .on_mesh = 1, .hold = CLOTH_HOLD_TOP},
    [CLOTH_SCENE_GARMENT] = {.name = "garment", .on_mesh = 1,
                             .obstacle = CLOTH_OBSTACLE_BODY, .self_contact = 1},
    /* garment's row: the scene differs by the meshes bench gives it */
    [CLOTH_SCENE_DRESSED] = {.name = "dressed", .on_mesh = 1,
                             .obstacle = CLOTH_OBSTACLE_BODY, .self_contact = 1},
};

/* A scene appended to cloth_scene without a row fails the build here; a
 * row left out in the middle is caught by test_cloth (every row named). */
_Static_assert(sizeof scene_table / sizeof scene_table[0] == CLOTH_SCENE_COUNT,
               "every cloth_scene has a row in scene_table");

const cloth_scene_row *cloth_scene_describe(int scene)
{
    return scene >= 0 && scene < CLOTH_SCENE_COUNT ? &scene_table[scene] : NULL;
}

const char *cloth_scene_name(int scene)
{
    const cloth_scene_row *row = cloth_scene_describe(scene);
    return row && row->name ? row->name : "unknown";
}

int cloth_scene_from_name(const char *name)
{
    for (int k = 0; name && k < CLOTH_SCENE_COUNT; k++)
        if (scene_table[k].name && cpg_name_is(name, scene_table[k].name))
            return k;
    return -1;
}

int cloth_scene_on_grid(int scene)
{
    const cloth_scene_row *row = cloth_scene_describe(scene);
    return row && row->on_grid;
}

int cloth_scene_on_mesh(int scene)
{
    const cloth_scene_row *row = cloth_scene_describe(scene);
    return row && row->on_mesh;
}

const char *cloth_scene_list(int where, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < CLOTH_SCENE_COUNT && used < len; k++) {
        const cloth_scene_row *row = &scene_table[k];
        int runs = (row->on_grid ? CLOTH_ON_GRID : 0) | (row->on_mesh ? CLOTH_ON_MESH : 0);
        if (row->name && (runs & where))
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
                                     row->name);
    }
    return buf;
}

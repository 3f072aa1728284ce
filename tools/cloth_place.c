/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cloth_place.c -- --obstacle, --translate and --scale: the mesh
 * obstacles a run reads, and the move that puts a garment on its body. */
#include "cloth_place.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --translate's three values: the value and the two arguments after it
 * (found in argv by the value's address: cli_parse_args hands one). */
static int parse_translate(struct cloth_place *pl, const char *opt, const char *value)
{
    int at = -1;
    for (int k = 1; value && k < pl->argc && at < 0; k++)
        if (pl->argv[k] == value)
            at = k;
    if (at < 0 || at + 2 >= pl->argc) {
        cli_error("%s needs three numbers X Y Z (metres)", opt);
        return CLI_ARG_ERROR;
    }
    for (int c = 0; c < 3; c++)
        if (cli_parse_double(opt, pl->argv[at + c], -1e6, 1e6, &pl->translate[c]))
            return CLI_ARG_ERROR;
    pl->have_translate = 1;
    return 3;
}

int cloth_place_option(struct cloth_place *pl, const char *a, const char *v)
{
    if (strcmp(a, "--obstacle") == 0) {
        if (cli_path_value(a, v, "an OBJ file"))
            return CLI_ARG_ERROR;
        const char **paths = realloc(pl->obstacle_paths,
                                     (size_t)(pl->num_obstacles + 1) * sizeof *paths);
        if (!paths) {
            cli_error("--obstacle: out of memory");
            return CLI_ARG_ERROR;
        }
        pl->obstacle_paths = paths;
        paths[pl->num_obstacles++] = v;
        return CLI_ARG_WITH_VALUE;
    }
    if (strcmp(a, "--translate") == 0)
        return parse_translate(pl, a, v);
    if (strcmp(a, "--scale") == 0) {
        pl->have_scale = 1;
        return cli_parse_double(a, v, 1e-6, 1e6, &pl->scale) ? CLI_ARG_ERROR
                                                               : CLI_ARG_WITH_VALUE;
    }
    return CLI_ARG_UNKNOWN;
}

int cloth_place_load(const char *command, struct cloth_place *pl, int up)
{
    if (!pl->num_obstacles)
        return 0;
    pl->obstacles = calloc((size_t)pl->num_obstacles, sizeof *pl->obstacles);
    if (!pl->obstacles) {
        cli_error("%s: out of memory", command);
        return -1;
    }
    for (int k = 0; k < pl->num_obstacles; k++) {
        char msg[COREPCG_MSG_SIZE], note[512];
        cloth_obj_skipped skipped;
        int rc = cloth_mesh_read_obj_bounded(pl->obstacle_paths[k], CLOTH_OBSTACLE_MAX_ITEMS,
                                             &pl->obstacles[k], &skipped, msg);
        cloth_obj_skipped_describe(&skipped, note, sizeof note);
        if (note[0])
            fprintf(stderr, "corepcg: %s: %s: %s\n", command, pl->obstacle_paths[k], note);
        if (rc != COREPCG_OK) {
            cli_error("%s: --obstacle %s", command, msg);
            return -1;
        }
        cloth_mesh_orient(&pl->obstacles[k], CLOTH_UP_Z, (cloth_up)up);
    }
    return 0;
}

void cloth_place_mesh(const struct cloth_place *pl, cloth_mesh *mesh)
{
    double s = pl->have_scale ? pl->scale : 1.0;
    for (int i = 0; i < mesh->num_vertices; i++)
        for (int c = 0; c < 3; c++)
            mesh->x[3 * i + c] = s * mesh->x[3 * i + c] +
                                 (pl->have_translate ? pl->translate[c] : 0.0);
}

void cloth_place_params(const struct cloth_place *pl, cloth_params *par)
{
    par->num_obstacle_meshes = pl->num_obstacles;
    par->obstacle_meshes = pl->obstacles;
}

const char *cloth_place_hint(const char *msg, int on_mesh)
{
    if (!msg || !strstr(msg, CLOTH_START_INSIDE))
        return "";
    return on_mesh ? "; move the mesh with --translate X Y Z and --scale S (applied "
                     "after --up), or give the body it was made for with --obstacle "
                     "FILE.obj"
                   : "; the grid starts in the z = 0 plane: move the obstacle";
}

void cloth_place_free(struct cloth_place *pl)
{
    for (int k = 0; pl->obstacles && k < pl->num_obstacles; k++)
        cloth_mesh_free(&pl->obstacles[k]);
    free(pl->obstacles);
    free(pl->obstacle_paths);
    memset(pl, 0, sizeof *pl);
}

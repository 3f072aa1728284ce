/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cloth_place.h -- the options that place things for gen, simulate and
 * bench: mesh obstacles (--obstacle FILE.obj, any number) and the
 * garment's move onto its body (--translate X Y Z, --scale S). */
#ifndef COREPCG_CLOTH_PLACE_H
#define COREPCG_CLOTH_PLACE_H

#include "cloth.h"

#include <stddef.h>

#define CLOTH_PLACE_USAGE                                                           \
    "  --obstacle FILE.obj  a static triangle-mesh obstacle (any number; --up\n"    \
    "                   turns it too), beside the scene's own: touching nodes\n"   \
    "                   slide on it; closed or open (outside is where its\n"       \
    "                   faces' normals point)\n"                                   \
    "  --translate X Y Z, --scale S  move the mesh (after --up): x -> S x + T,\n"  \
    "                   e.g. onto the body it was made for\n"

struct cloth_place {
    int argc;                 /* the command line, for --translate's values */
    char **argv;
    int num_obstacles;
    const char **obstacle_paths;
    cloth_mesh *obstacles;    /* read by cloth_place_load, z-up             */
    int have_translate, have_scale;
    double translate[3], scale;
};

/* Takes --obstacle, --translate and --scale (a cli_option_fn's result:
 * the values taken, CLI_ARG_ERROR after saying why, or CLI_ARG_UNKNOWN
 * for any other argument). */
int cloth_place_option(struct cloth_place *pl, const char *arg, const char *value);

/* Reads the obstacle files (each checked as a mesh is, at most
 * CLOTH_OBSTACLE_MAX_ITEMS vertices and triangles) and turns them z-up
 * from `up`. 0, or -1 after printing the error. */
int cloth_place_load(const char *command, struct cloth_place *pl, int up);

/* Moves a mesh as --scale and --translate say. */
void cloth_place_mesh(const struct cloth_place *pl, cloth_mesh *mesh);

/* The obstacles into par (borrowed from pl). */
void cloth_place_params(const struct cloth_place *pl, cloth_params *par);

/* "; move the mesh with ..." for a start refused with CLOTH_START_INSIDE
 * in msg, else "". */
const char *cloth_place_hint(const char *msg, int on_mesh);

void cloth_place_free(struct cloth_place *pl);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mesh_orient.c -- a mesh whose file takes another axis as up, turned
 * into the simulator's frame (z up) on read, so that every scene, the
 * gravity and the obstacles stay as they are. */
#include "cloth_mesh.h"

#include "name_is.h"

static const char *const up_names[CLOTH_UP_COUNT] = {"x", "y", "z", "-x", "-y", "-z"};

/* The simulator's coordinate k of a point is sign[k] times the file's
 * coordinate axis[k]: the file's up becomes +z. Each is a rotation: an
 * odd permutation comes with one sign flipped, an even one with two or
 * none. */
static const struct {
    int axis[3];
    double sign[3];
} turn[CLOTH_UP_COUNT] = {
    [CLOTH_UP_X] = {{2, 1, 0}, {-1, 1, 1}},       /* 90 degrees about y  */
    [CLOTH_UP_Y] = {{0, 2, 1}, {1, -1, 1}},       /* 90 degrees about x  */
    [CLOTH_UP_Z] = {{0, 1, 2}, {1, 1, 1}},
    [CLOTH_UP_MINUS_X] = {{2, 1, 0}, {1, 1, -1}}, /* -90 degrees about y */
    [CLOTH_UP_MINUS_Y] = {{0, 2, 1}, {1, 1, -1}}, /* -90 degrees about x */
    [CLOTH_UP_MINUS_Z] = {{0, 1, 2}, {1, -1, -1}}, /* 180 degrees about x */
};

const char *cloth_up_name(int up)
{
    return up >= 0 && up < CLOTH_UP_COUNT ? up_names[up] : "unknown";
}

int cloth_up_from_name(const char *name)
{
    return cpg_name_index(name, up_names, CLOTH_UP_COUNT);
}

void cloth_mesh_orient(cloth_mesh *mesh, cloth_up from, cloth_up to)
{
    if (from == to)
        return;
    for (int i = 0; i < mesh->num_vertices; i++) {
        double *x = &mesh->x[3 * i], file[3];
        for (int k = 0; k < 3; k++) /* back to the file's frame */
            file[turn[from].axis[k]] = turn[from].sign[k] * x[k];
        for (int k = 0; k < 3; k++)
            x[k] = turn[to].sign[k] * file[turn[to].axis[k]];
    }
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mesh_obstacle.c -- a static triangle mesh as an obstacle: its trees
 * (Embree, a maintained BVH library with a C API, in Debian) and the
 * closest point on its surface (obstacle_query.c). A mesh of two or more
 * closed parts is their union (obstacle_union.c): a point whose nearest
 * surface says outside may be inside another part, and a point inside
 * leaves through the surface not buried in another part. */
#include "mesh_obstacle_parts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cloth_mesh_obstacle_free(cloth_mesh_obstacle **obp)
{
    if (!obp || !*obp)
        return;
    cloth_mesh_obstacle *ob = *obp;
    obstacle_union_free(ob);
    if (ob->scene)
        rtcReleaseScene(ob->scene);
    if (ob->device)
        rtcReleaseDevice(ob->device);
    cloth_pseudo_normals_free(&ob->normals);
    cloth_mesh_free(&ob->mesh);
    free(ob);
    *obp = NULL;
}

const cloth_mesh *cloth_mesh_obstacle_mesh(const cloth_mesh_obstacle *ob)
{
    return &ob->mesh;
}

/* Embree's tree of the mesh, in single precision, built on the calling
 * thread: while the device lives TBB starts no worker, so a process can
 * fork with the obstacle built (bench does; its release starts one, so
 * bench frees it after the last fork). A body's tree is built once. */
static int build_tree(cloth_mesh_obstacle *ob, char *msg)
{
    const cloth_mesh *m = &ob->mesh;
    ob->device = rtcNewDevice("threads=1");
    if (!ob->device) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "obstacle: Embree device: error %d",
                     (int)rtcGetDeviceError(NULL));
        return COREPCG_ERR_NO_MEMORY;
    }
    ob->scene = cloth_embree_scene(ob->device, m, NULL);
    if (ob->scene && obstacle_union_build(ob) == COREPCG_OK)
        return COREPCG_OK;
    if (msg)
        snprintf(msg, COREPCG_MSG_SIZE, "obstacle of %d triangles: Embree could not "
                 "build its tree (out of memory)", m->num_triangles);
    return COREPCG_ERR_NO_MEMORY;
}

int cloth_mesh_obstacle_create(const cloth_mesh *mesh, cloth_mesh_obstacle **out, char *msg)
{
    *out = NULL;
    cloth_mesh_obstacle *ob = calloc(1, sizeof *ob);
    if (!ob) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "obstacle: out of memory");
        return COREPCG_ERR_NO_MEMORY;
    }
    /* the normals on the mesh as given, so that a refusal names its line */
    int rc = cloth_pseudo_normals_build(mesh, &ob->normals, msg);
    if (rc == COREPCG_OK)
        rc = cloth_mesh_copy(mesh, &ob->mesh, msg);
    if (rc == COREPCG_OK && mesh->source) {
        ob->mesh.source = strdup(mesh->source);
        rc = ob->mesh.source ? COREPCG_OK : COREPCG_ERR_NO_MEMORY;
    }
    if (rc == COREPCG_OK) {
        double lo[3], hi[3], extent = 0.0;
        cloth_mesh_bounds(mesh, lo, hi);
        for (int k = 0; k < 3; k++)
            extent = fmax(extent, fmax(fabs(lo[k]), fabs(hi[k])));
        ob->slack = 1e-6 * (1.0 + extent);
        rc = build_tree(ob, msg);
    }
    if (rc != COREPCG_OK) {
        cloth_mesh_obstacle_free(&ob);
        return rc;
    }
    *out = ob;
    return COREPCG_OK;
}

/* x is inside the union, and p, its closest point on a part, is buried
 * in another: p becomes x's nearest point on the union's surface (the
 * triangles not buried, and the parts of MIXED ones their corners say
 * are not). A MIXED triangle's point is checked against the parts, and
 * passed over when inside one: then the way out may lie up to a
 * triangle farther than the nearest. */
static void exit_point(const cloth_mesh_obstacle *ob, const double x[3],
                       cloth_surface_point *p)
{
    obstacle_query qs = {.exposed_only = 1};
    for (;;) {
        if (!obstacle_nearest(ob, ob->scene, NULL, x, INFINITY, &qs))
            return; /* every triangle buried: keep p */
        if (qs.num_passed == OBSTACLE_MAX_PASSED ||
            !obstacle_point_buried(ob, qs.q, qs.triangle))
            break;
        qs.passed[qs.num_passed++] = qs.triangle;
    }
    obstacle_surface_point(ob, &qs, x, p);
    p->distance = -fabs(p->distance);
}

int cloth_mesh_obstacle_closest(const cloth_mesh_obstacle *ob, const double x[3],
                                double radius, cloth_surface_point *p)
{
    if (!(radius >= 0.0))
        return 0;
    obstacle_query qs = {0};
    if (!obstacle_nearest(ob, ob->scene, NULL, x, radius, &qs))
        return 0;
    obstacle_surface_point(ob, &qs, x, p);
    if (ob->num_part_trees == 0)
        return 1;
    int triangle = qs.triangle;
    if (p->distance >= 0.0 &&
        !obstacle_inside_another_part(ob, x, ob->normals.triangle_part[triangle], radius, p,
                                      &triangle))
        return 1;
    if (obstacle_point_buried(ob, p->q, triangle))
        exit_point(ob, x, p);
    return 1;
}

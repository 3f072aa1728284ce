/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mesh_obstacle.c -- a static triangle mesh as an obstacle: Embree (a
 * maintained BVH library with a C API, in Debian) finds the triangles
 * near a point, and the closest point on each is computed here in
 * double precision (triangle_closest.c); its normal is the feature's
 * pseudo-normal (obstacle_normals.c). Embree's tree is in single
 * precision, so each query reaches a little further than asked and the
 * exact distances decide. */
#include "cloth_scene.h"
#include "embree_mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cloth_mesh_obstacle {
    cloth_mesh mesh;
    cloth_pseudo_normals normals;
    double slack;          /* m: single precision's rounding, and some   */
    RTCDevice device;
    RTCScene scene;
};

/* One query's state, shared with Embree's callback. */
typedef struct query {
    const cloth_mesh_obstacle *ob;
    double x[3];
    double best2;          /* squared distance to beat                   */
    int triangle, feature; /* the nearest so far; triangle -1 for none   */
    double q[3];
} query;

void cloth_mesh_obstacle_free(cloth_mesh_obstacle **obp)
{
    if (!obp || !*obp)
        return;
    cloth_mesh_obstacle *ob = *obp;
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
    if (ob->scene)
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

/* Embree calls this for each triangle whose box the query's sphere
 * reaches: the exact closest point, and a smaller sphere when nearer. */
static bool nearer(struct RTCPointQueryFunctionArguments *args)
{
    query *qs = args->userPtr;
    const cloth_mesh *m = &qs->ob->mesh;
    int t = (int)args->primID;
    const int *tri = &m->triangles[3 * t];
    double q[3];
    int feature = cloth_triangle_closest(&m->x[3 * tri[0]], &m->x[3 * tri[1]],
                                         &m->x[3 * tri[2]], qs->x, q);
    double d2 = 0.0;
    for (int k = 0; k < 3; k++)
        d2 += (qs->x[k] - q[k]) * (qs->x[k] - q[k]);
    if (!(d2 < qs->best2 || (qs->triangle < 0 && d2 == qs->best2)))
        return false;
    qs->best2 = d2;
    qs->triangle = t;
    qs->feature = feature;
    memcpy(qs->q, q, sizeof q);
    float r = (float)(sqrt(d2) + qs->ob->slack);
    if (!(r < args->query->radius))
        return false;
    args->query->radius = r;
    return true;
}

/* The pseudo-normal of the feature holding the closest point, and
 * whether that feature is on an open mesh's border. */
static const double *feature_normal(const cloth_mesh_obstacle *ob, int t, int feature,
                                    int *border)
{
    const cloth_pseudo_normals *pn = &ob->normals;
    *border = 0;
    if (feature >= CLOTH_FEATURE_SIDE) {
        int e = pn->side_edge[3 * t + feature - CLOTH_FEATURE_SIDE];
        *border = pn->edge_border[e];
        return &pn->edge[3 * (size_t)e];
    }
    if (feature >= CLOTH_FEATURE_CORNER) {
        int v = ob->mesh.triangles[3 * t + feature - CLOTH_FEATURE_CORNER];
        *border = pn->vertex_border[v];
        return &pn->corner[3 * (size_t)v];
    }
    return &pn->face[3 * (size_t)t];
}

int cloth_mesh_obstacle_closest(const cloth_mesh_obstacle *ob, const double x[3],
                                double radius, cloth_surface_point *p)
{
    if (!(radius >= 0.0))
        return 0;
    query qs = {.ob = ob, .best2 = radius * radius, .triangle = -1};
    memcpy(qs.x, x, sizeof qs.x);
    struct RTCPointQuery pq;
    pq.x = (float)x[0];
    pq.y = (float)x[1];
    pq.z = (float)x[2];
    pq.radius = isinf(radius) ? INFINITY : (float)(radius + ob->slack);
    pq.time = 0.0f;
    struct RTCPointQueryContext context;
    rtcInitPointQueryContext(&context);
    rtcPointQuery(ob->scene, &pq, &context, nearer, &qs);
    if (qs.triangle < 0)
        return 0;
    int border;
    const double *n = feature_normal(ob, qs.triangle, qs.feature, &border);
    double along = 0.0;
    for (int k = 0; k < 3; k++) {
        p->q[k] = qs.q[k];
        p->normal[k] = n[k];
        along += (x[k] - qs.q[k]) * n[k];
    }
    double dist = sqrt(qs.best2);
    p->distance = along < 0.0 && !border ? -dist : dist;
    return 1;
}

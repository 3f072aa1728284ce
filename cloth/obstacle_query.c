/* SPDX-License-Identifier: GPL-2.0-or-later */
/* obstacle_query.c -- one closest-point query on a mesh obstacle's tree
 * (the whole mesh's, or a closed part's): Embree finds the triangles
 * near the point, the exact closest point on each is computed here in
 * double precision (triangle_closest.c), and its normal is the feature's
 * pseudo-normal (obstacle_normals.c). Embree's tree is in single
 * precision, so each query reaches a little further than asked and the
 * exact distances decide. A query may keep to the union's surface: the
 * parts of triangles not buried in another closed part (their marks:
 * obstacle_union.c). */
#include "mesh_obstacle_parts.h"

#include <math.h>
#include <string.h>

/* A guess at the closest point q to x on the part of MIXED triangle t
 * outside the other closed parts: on the part where its corners' seam
 * distances, interpolated, are not negative (a triangle or a
 * quadrilateral, clipped), or, where none is (its corners inside
 * different parts), on the whole triangle. Interpolated distances are
 * exact only against a flat surface, so the caller checks q. */
static void exposed_closest(const cloth_mesh_obstacle *ob, int t, const double x[3],
                            double q[3])
{
    const cloth_mesh *m = &ob->mesh;
    const int *tri = &m->triangles[3 * t];
    double poly[4][3];
    int count = 0;
    for (int j = 0; j < 3; j++) {
        int a = tri[j], b = tri[(j + 1) % 3];
        double sa = ob->seam_distance[a], sb = ob->seam_distance[b];
        if (sa >= 0.0)
            memcpy(poly[count++], &m->x[3 * a], sizeof poly[0]);
        if ((sa < 0.0 && sb > 0.0) || (sa > 0.0 && sb < 0.0)) { /* no repeated corner */
            double w = sa / (sa - sb);
            for (int c = 0; c < 3; c++)
                poly[count][c] = m->x[3 * a + c] + w * (m->x[3 * b + c] - m->x[3 * a + c]);
            count++;
        }
    }
    double best2 = INFINITY;
    for (int k = 1; k + 1 < count; k++) {
        double r[3], d2 = 0.0;
        cloth_triangle_closest(poly[0], poly[k], poly[k + 1], x, r);
        for (int c = 0; c < 3; c++)
            d2 += (x[c] - r[c]) * (x[c] - r[c]);
        if (d2 < best2) {
            best2 = d2;
            memcpy(q, r, sizeof r);
        }
    }
    if (best2 == INFINITY)
        cloth_triangle_closest(&m->x[3 * tri[0]], &m->x[3 * tri[1]], &m->x[3 * tri[2]], x, q);
}

/* 1 when an exit search has passed over MIXED triangle t already. */
static int passed_over(const obstacle_query *qs, int t)
{
    for (int k = 0; k < qs->num_passed; k++)
        if (qs->passed[k] == t)
            return 1;
    return 0;
}

/* Embree calls this for each triangle whose box the query's sphere
 * reaches: the exact closest point, and a smaller sphere when nearer. */
static bool nearer(struct RTCPointQueryFunctionArguments *args)
{
    obstacle_query *qs = args->userPtr;
    const cloth_mesh *m = &qs->ob->mesh;
    int t = qs->map ? qs->map[args->primID] : (int)args->primID;
    int burial = qs->exposed_only ? qs->ob->burial[t] : CLEAR;
    if (burial == BURIED || (burial == MIXED && passed_over(qs, t)))
        return false;
    const int *tri = &m->triangles[3 * t];
    double q[3];
    int feature = CLOTH_FEATURE_FACE;
    if (burial == CLEAR)
        feature = cloth_triangle_closest(&m->x[3 * tri[0]], &m->x[3 * tri[1]],
                                         &m->x[3 * tri[2]], qs->x, q);
    else
        exposed_closest(qs->ob, t, qs->x, q);
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

int obstacle_nearest(const cloth_mesh_obstacle *ob, RTCScene scene, const int *map,
                     const double x[3], double radius, obstacle_query *qs)
{
    qs->ob = ob;
    qs->map = map;
    qs->best2 = radius * radius;
    qs->triangle = -1;
    memcpy(qs->x, x, sizeof qs->x);
    struct RTCPointQuery pq;
    pq.x = (float)x[0];
    pq.y = (float)x[1];
    pq.z = (float)x[2];
    pq.radius = isinf(radius) ? INFINITY : (float)(radius + ob->slack);
    pq.time = 0.0f;
    struct RTCPointQueryContext context;
    rtcInitPointQueryContext(&context);
    rtcPointQuery(scene, &pq, &context, nearer, qs);
    return qs->triangle >= 0;
}

void obstacle_surface_point(const cloth_mesh_obstacle *ob, const obstacle_query *qs,
                            const double x[3], cloth_surface_point *p)
{
    int border;
    const double *n = feature_normal(ob, qs->triangle, qs->feature, &border);
    double along = 0.0;
    for (int k = 0; k < 3; k++) {
        p->q[k] = qs->q[k];
        p->normal[k] = n[k];
        along += (x[k] - qs->q[k]) * n[k];
    }
    double dist = sqrt(qs->best2);
    p->distance = along < 0.0 && !border ? -dist : dist;
}


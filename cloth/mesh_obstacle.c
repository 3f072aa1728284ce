/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mesh_obstacle.c -- a static triangle mesh as an obstacle: Embree (a
 * maintained BVH library with a C API, in Debian) finds the triangles
 * near a point, and the closest point on each is computed here in
 * double precision (triangle_closest.c); its normal is the feature's
 * pseudo-normal (obstacle_normals.c). Embree's tree is in single
 * precision, so each query reaches a little further than asked and the
 * exact distances decide. A mesh of two or more closed parts is their
 * union: each has a tree of its own too, asked when the nearest surface
 * says outside (it may be a part's surface buried in another). */
#include "cloth_scene.h"
#include "embree_mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A closed part's own tree, and where it lies. */
typedef struct part_tree {
    RTCScene scene;
    int part;              /* its number (cloth_pseudo_normals)            */
    int *triangles;        /* the tree's triangle k is the mesh's triangles[k] */
    double lo[3], hi[3];   /* its box, widened by the slack                */
} part_tree;

struct cloth_mesh_obstacle {
    cloth_mesh mesh;
    cloth_pseudo_normals normals;
    double slack;          /* m: single precision's rounding, and some   */
    RTCDevice device;
    RTCScene scene;
    int num_part_trees;    /* the closed parts that meet another part      */
    part_tree *part_trees;
};

/* One query's state, shared with Embree's callback. */
typedef struct query {
    const cloth_mesh_obstacle *ob;
    const int *map;        /* a part's tree: its triangles' numbers; or NULL */
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
    for (int k = 0; k < ob->num_part_trees; k++) {
        if (ob->part_trees[k].scene)
            rtcReleaseScene(ob->part_trees[k].scene);
        free(ob->part_trees[k].triangles);
    }
    free(ob->part_trees);
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

/* Each part's box (lo, hi: 3 num_parts each), widened by the slack. */
static void part_boxes(const cloth_mesh_obstacle *ob, double *lo, double *hi)
{
    const cloth_mesh *m = &ob->mesh;
    const cloth_pseudo_normals *pn = &ob->normals;
    for (int k = 0; k < 3 * pn->num_parts; k++) {
        lo[k] = INFINITY;
        hi[k] = -INFINITY;
    }
    for (int t = 0; t < m->num_triangles; t++) {
        double *l = &lo[3 * pn->triangle_part[t]], *h = &hi[3 * pn->triangle_part[t]];
        for (int j = 0; j < 3; j++)
            for (int c = 0; c < 3; c++) {
                double x = m->x[3 * m->triangles[3 * t + j] + c];
                l[c] = fmin(l[c], x - ob->slack);
                h[c] = fmax(h[c], x + ob->slack);
            }
    }
}

/* A part by its box's lower x, for the sweep below. */
typedef struct by_lower_x {
    double x;
    int part;
} by_lower_x;

static int lower_x_first(const void *pa, const void *pb)
{
    const by_lower_x *a = pa, *b = pb;
    return (a->x > b->x) - (a->x < b->x);
}

/* need[k] = 1 for a closed part whose box meets another part's (closed or
 * open: a floor through a body buries the body's surface too); only such
 * a part can hold a point whose nearest surface is another's. Parts by
 * their boxes' lower x, each against those that start before it ends. */
static int parts_that_meet(const cloth_pseudo_normals *pn, const double *lo,
                           const double *hi, unsigned char *need)
{
    int P = pn->num_parts;
    by_lower_x *order = malloc(sizeof *order * (size_t)P);
    if (!order)
        return COREPCG_ERR_NO_MEMORY;
    for (int k = 0; k < P; k++)
        order[k] = (by_lower_x){lo[3 * k], k};
    qsort(order, (size_t)P, sizeof *order, lower_x_first);
    memset(need, 0, (size_t)P);
    for (int i = 0; i < P; i++)
        for (int j = i + 1; j < P && order[j].x <= hi[3 * order[i].part]; j++) {
            int a = order[i].part, b = order[j].part;
            if (lo[3 * a + 1] <= hi[3 * b + 1] && lo[3 * b + 1] <= hi[3 * a + 1] &&
                lo[3 * a + 2] <= hi[3 * b + 2] && lo[3 * b + 2] <= hi[3 * a + 2]) {
                need[a] |= pn->part_closed[a];
                need[b] |= pn->part_closed[b];
            }
        }
    free(order);
    return COREPCG_OK;
}

/* One part's tree over its own triangles and vertices (renumbered through
 * local, all -1 on entry and again on return). */
static int build_one_part_tree(cloth_mesh_obstacle *ob, part_tree *pt, const int *tris,
                               int count, int *local)
{
    const cloth_mesh *m = &ob->mesh;
    cloth_mesh sub;
    memset(&sub, 0, sizeof sub);
    sub.triangles = malloc(3 * sizeof(int) * (size_t)count);
    sub.x = malloc(9 * sizeof(double) * (size_t)count);
    pt->triangles = malloc(sizeof(int) * (size_t)count);
    int filled = sub.triangles && sub.x && pt->triangles;
    int rc = filled ? COREPCG_OK : COREPCG_ERR_NO_MEMORY;
    for (int k = 0; filled && k < count; k++) {
        pt->triangles[k] = tris[k];
        for (int j = 0; j < 3; j++) {
            int v = m->triangles[3 * tris[k] + j];
            if (local[v] < 0) {
                local[v] = sub.num_vertices++;
                memcpy(&sub.x[3 * local[v]], &m->x[3 * v], 3 * sizeof(double));
            }
            sub.triangles[3 * k + j] = local[v];
        }
    }
    sub.num_triangles = count;
    if (rc == COREPCG_OK) {
        pt->scene = cloth_embree_scene(ob->device, &sub, NULL);
        rc = pt->scene ? COREPCG_OK : COREPCG_ERR_NO_MEMORY;
    }
    for (int k = 0; filled && k < 3 * count; k++)
        local[m->triangles[3 * tris[k / 3] + k % 3]] = -1;
    free(sub.triangles);
    free(sub.x);
    return rc;
}

/* A tree for each closed part that meets another part (part_boxes,
 * parts_that_meet), over its own triangles and vertices: OK, or
 * ERR_NO_MEMORY. None when no closed part meets another. */
static int build_part_trees(cloth_mesh_obstacle *ob)
{
    const cloth_mesh *m = &ob->mesh;
    const cloth_pseudo_normals *pn = &ob->normals;
    int P = pn->num_parts, T = m->num_triangles;
    double *lo = malloc(3 * sizeof(double) * (size_t)P);
    double *hi = malloc(3 * sizeof(double) * (size_t)P);
    unsigned char *need = malloc((size_t)P);
    int *first = calloc((size_t)P + 1, sizeof(int)), *by_part = malloc(sizeof(int) * (size_t)T);
    int *local = malloc(sizeof(int) * (size_t)m->num_vertices);
    int rc = lo && hi && need && first && by_part && local ? COREPCG_OK : COREPCG_ERR_NO_MEMORY;
    if (rc == COREPCG_OK) {
        part_boxes(ob, lo, hi);
        rc = parts_that_meet(pn, lo, hi, need);
    }
    int trees = 0;
    for (int k = 0; rc == COREPCG_OK && k < P; k++)
        trees += need[k];
    if (rc == COREPCG_OK && trees > 0) {
        /* the triangles by part (counting sort) */
        for (int t = 0; t < T; t++)
            first[pn->triangle_part[t] + 1]++;
        for (int k = 0; k < P; k++)
            first[k + 1] += first[k];
        for (int t = 0; t < T; t++)
            by_part[first[pn->triangle_part[t]]++] = t;
        for (int k = P; k > 0; k--)
            first[k] = first[k - 1];
        first[0] = 0;
        for (int v = 0; v < m->num_vertices; v++)
            local[v] = -1;
        ob->part_trees = calloc((size_t)trees, sizeof *ob->part_trees);
        rc = ob->part_trees ? COREPCG_OK : COREPCG_ERR_NO_MEMORY;
    }
    for (int k = 0; rc == COREPCG_OK && trees > 0 && k < P; k++) {
        if (!need[k])
            continue;
        part_tree *pt = &ob->part_trees[ob->num_part_trees++];
        memcpy(pt->lo, &lo[3 * k], sizeof pt->lo);
        memcpy(pt->hi, &hi[3 * k], sizeof pt->hi);
        pt->part = k;
        rc = build_one_part_tree(ob, pt, &by_part[first[k]], first[k + 1] - first[k], local);
    }
    free(lo);
    free(hi);
    free(need);
    free(first);
    free(by_part);
    free(local);
    return rc;
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
    if (ob->scene && build_part_trees(ob) == COREPCG_OK)
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
    int t = qs->map ? qs->map[args->primID] : (int)args->primID;
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

/* The nearest triangle of a tree (the mesh's, or a part's with map)
 * within radius of x into *qs: 1, or 0 when none comes that near. */
static int nearest_in(const cloth_mesh_obstacle *ob, RTCScene scene, const int *map,
                      const double x[3], double radius, query *qs)
{
    *qs = (query){.ob = ob, .map = map, .best2 = radius * radius, .triangle = -1};
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

/* The query's closest point as x's surface point (signed distance). */
static void surface_point(const cloth_mesh_obstacle *ob, const query *qs, const double x[3],
                          cloth_surface_point *p)
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

/* x inside a closed part other than `own` (the one whose surface was the
 * nearest, and says outside), within radius of that part's surface: 1
 * and that part's closest point (of those x is inside, the one it leaves
 * soonest); 0 when it is inside none that near. A cloth gets deeper than
 * a step's travel into a part only by passing its open surface, where
 * the nearest surface is that part's own; at the start (radius INFINITY)
 * every depth is seen. */
static int inside_another_part(const cloth_mesh_obstacle *ob, const double x[3], int own,
                               double radius, cloth_surface_point *p)
{
    int found = 0;
    for (int k = 0; k < ob->num_part_trees; k++) {
        const part_tree *pt = &ob->part_trees[k];
        if (pt->part == own ||
            x[0] < pt->lo[0] || x[0] > pt->hi[0] || x[1] < pt->lo[1] ||
            x[1] > pt->hi[1] || x[2] < pt->lo[2] || x[2] > pt->hi[2])
            continue;
        query qs;
        cloth_surface_point sp;
        if (!nearest_in(ob, pt->scene, pt->triangles, x, radius, &qs))
            continue;
        surface_point(ob, &qs, x, &sp);
        if (sp.distance < 0.0 && (!found || sp.distance > p->distance)) {
            *p = sp;
            found = 1;
        }
    }
    return found;
}

int cloth_mesh_obstacle_closest(const cloth_mesh_obstacle *ob, const double x[3],
                                double radius, cloth_surface_point *p)
{
    if (!(radius >= 0.0))
        return 0;
    query qs;
    if (!nearest_in(ob, ob->scene, NULL, x, radius, &qs))
        return 0;
    surface_point(ob, &qs, x, p);
    if (p->distance < 0.0 || ob->num_part_trees == 0)
        return 1;
    cloth_surface_point in;
    if (inside_another_part(ob, x, ob->normals.triangle_part[qs.triangle], radius, &in))
        *p = in;
    return 1;
}

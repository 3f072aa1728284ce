/* SPDX-License-Identifier: GPL-2.0-or-later */
/* self_intersect.c -- where a garment passes through itself at the start.
 * Each edge is cast as a ray segment (tnear 0, tfar 1) through Embree's
 * tree of the mesh's own triangles; a filter drops the triangles that
 * share a vertex with the edge (the edge touches them where it starts or
 * ends) and records every other one, rejecting it so that the ray goes
 * on to the next. Embree works in single precision, so each hit is
 * confirmed in double on the triangle before it counts. */
#include "embree_mesh.h"
#include "vec3.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Stored pairs at most: a mesh crossing itself this much is counted as
 * "at least" (32 MB of keys at most). */
#define MAX_PAIRS (1L << 22)
#define RAY_HITS 32 /* one edge's hits remembered against repeats */

/* One edge's ray: Embree's context first, so that the filter finds the
 * rest from the context pointer it is given. */
typedef struct edge_ray {
    struct RTCIntersectContext context;
    const cloth_mesh *mesh;
    int a, b;              /* the edge's vertices                          */
    int hits[RAY_HITS], num_hits;
    int nearest;           /* the smallest crossed triangle, -1 for none   */
    double point[3];       /* where the edge passes through it             */
} edge_ray;

/* Segment p->q against triangle t, in double: 1 and the point when its
 * ends lie on either side of the triangle's plane, each farther from it
 * than rounding (a segment in the plane -- as a subdivided triangle's
 * pieces are to one another -- or touching it does not cross), and it
 * meets the plane inside the triangle (borders included). */
static int segment_crosses(const cloth_mesh *m, const double *p, const double *q, int t,
                           double point[3])
{
    const int *v = &m->triangles[3 * t];
    const double *c[3] = {&m->x[3 * v[0]], &m->x[3 * v[1]], &m->x[3 * v[2]]};
    double e1[3], e2[3], n[3], sp[3], sq[3], scale = 1.0;
    for (int i = 0; i < 3; i++) {
        e1[i] = c[1][i] - c[0][i];
        e2[i] = c[2][i] - c[0][i];
        sp[i] = p[i] - c[0][i];
        sq[i] = q[i] - c[0][i];
        scale = fmax(scale, fmax(fabs(p[i]), fabs(c[0][i])));
    }
    cloth_cross3(e1, e2, n);
    double norm = sqrt(cloth_dot3(n, n));
    if (!(norm > 0.0))
        return 0;
    double dp = cloth_dot3(n, sp) / norm, dq = cloth_dot3(n, sq) / norm, tol = 1e-12 * scale;
    if (!((dp < -tol && dq > tol) || (dp > tol && dq < -tol)))
        return 0;
    double s = dp / (dp - dq);
    for (int i = 0; i < 3; i++)
        point[i] = p[i] + s * (q[i] - p[i]);
    for (int k = 0; k < 3; k++) {
        const double *a = c[k], *b = c[(k + 1) % 3];
        double side[3], to[3], w[3];
        for (int i = 0; i < 3; i++) {
            side[i] = b[i] - a[i];
            to[i] = point[i] - a[i];
        }
        cloth_cross3(side, to, w);
        if (cloth_dot3(n, w) < 0.0)
            return 0;
    }
    return 1;
}

/* Embree's filter: records a crossed triangle and rejects every hit, so
 * that the ray finds them all. */
static void record_hit(const struct RTCFilterFunctionNArguments *args)
{
    edge_ray *r = (edge_ray *)args->context;
    args->valid[0] = 0;
    /* RTCHitN_primID is C++ only: primID is the sixth of the SOA arrays */
    int t = (int)((const unsigned *)args->hit)[5 * args->N];
    const int *v = &r->mesh->triangles[3 * t];
    for (int k = 0; k < 3; k++)
        if (v[k] == r->a || v[k] == r->b)
            return; /* the edge's own corner: touching, not crossing */
    for (int k = 0; k < r->num_hits; k++)
        if (r->hits[k] == t)
            return;
    double point[3];
    const double *x = r->mesh->x;
    if (!segment_crosses(r->mesh, &x[3 * r->a], &x[3 * r->b], t, point))
        return;
    if (r->num_hits < RAY_HITS)
        r->hits[r->num_hits++] = t;
    if (r->nearest < 0 || t < r->nearest) {
        r->nearest = t;
        memcpy(r->point, point, sizeof point);
    }
}

static int by_key(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

/* The crossing pairs' keys (lower triangle << 32 | higher), grown as
 * found. */
typedef struct pair_keys {
    uint64_t *key;
    long stored, capacity;
} pair_keys;

/* 0, or -1 out of memory; past MAX_PAIRS the pair is only counted as
 * capped. */
static int add_pair(pair_keys *pk, int t1, int t2, cloth_self_intersection *out)
{
    if (pk->stored == pk->capacity) {
        if (pk->capacity == MAX_PAIRS) {
            out->capped = 1;
            return 0;
        }
        long cap = pk->capacity ? 2 * pk->capacity : 1024;
        uint64_t *grown = realloc(pk->key, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        pk->key = grown;
        pk->capacity = cap;
    }
    int lo = t1 < t2 ? t1 : t2, hi = t1 < t2 ? t2 : t1;
    pk->key[pk->stored++] = (uint64_t)lo << 32 | (uint32_t)hi;
    return 0;
}

/* Casts every edge: the crossing pairs into pk, the first example into
 * out. 0, or -1 out of memory. */
static int cast_edges(RTCScene scene, const cloth_mesh *m, const cloth_edge *edges,
                      int num_edges, const int *edge_tri, pair_keys *pk,
                      cloth_self_intersection *out)
{
    for (int e = 0; e < num_edges; e++) {
        edge_ray r;
        rtcInitIntersectContext(&r.context);
        r.mesh = m;
        r.a = edges[e].a;
        r.b = edges[e].b;
        r.num_hits = 0;
        r.nearest = -1;
        const double *p = &m->x[3 * r.a], *q = &m->x[3 * r.b];
        struct RTCRayHit rh;
        rh.ray.org_x = (float)p[0];
        rh.ray.org_y = (float)p[1];
        rh.ray.org_z = (float)p[2];
        rh.ray.dir_x = (float)(q[0] - p[0]);
        rh.ray.dir_y = (float)(q[1] - p[1]);
        rh.ray.dir_z = (float)(q[2] - p[2]);
        rh.ray.tnear = 0.0f;
        rh.ray.tfar = 1.0f;
        rh.ray.time = 0.0f;
        rh.ray.mask = 0xFFFFFFFFu;
        rh.ray.id = 0;
        rh.ray.flags = 0;
        rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
        rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
        rtcIntersect1(scene, &r.context, &rh);
        if (r.nearest < 0)
            continue;
        out->crossings += r.num_hits;
        if (out->triangle[0] < 0) {
            out->triangle[0] = edge_tri[2 * e];
            out->triangle[1] = r.nearest;
            out->edge[0] = r.a;
            out->edge[1] = r.b;
            memcpy(out->point, r.point, sizeof r.point);
        }
        for (int h = 0; h < r.num_hits; h++)
            for (int s = 0; s < 2; s++) {
                int te = edge_tri[2 * e + s];
                if (te >= 0 && add_pair(pk, te, r.hits[h], out))
                    return -1;
            }
    }
    return 0;
}

int cloth_mesh_self_intersections(const cloth_mesh *m, cloth_self_intersection *out,
                                  char *msg)
{
    memset(out, 0, sizeof *out);
    out->triangle[0] = out->triangle[1] = -1;
    cloth_edge *edges = NULL;
    int num_edges = 0;
    int *side_edge = malloc(3 * (size_t)m->num_triangles * sizeof *side_edge);
    if (!side_edge) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "self-intersection check: out of memory");
        return COREPCG_ERR_NO_MEMORY;
    }
    int rc = cloth_mesh_edges(m, &edges, &num_edges, side_edge, msg);
    if (rc != COREPCG_OK) {
        free(side_edge);
        return rc;
    }
    /* each edge's one or two triangles, for the pairs it makes */
    int *edge_tri = malloc(2 * (size_t)num_edges * sizeof *edge_tri);
    RTCDevice device = edge_tri ? rtcNewDevice(NULL) : NULL;
    RTCScene scene = device ? cloth_embree_scene(device, m, record_hit) : NULL;
    if (!scene) {
        if (device)
            rtcReleaseDevice(device);
        free(edge_tri);
        free(edges);
        free(side_edge);
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "self-intersection check of %d triangles: "
                     "out of memory", m->num_triangles);
        return COREPCG_ERR_NO_MEMORY;
    }
    for (int e = 0; e < 2 * num_edges; e++)
        edge_tri[e] = -1;
    for (int t = 0; t < m->num_triangles; t++)
        for (int k = 0; k < 3; k++) {
            int e = side_edge[3 * t + k];
            edge_tri[2 * e + (edge_tri[2 * e] >= 0)] = t;
        }
    pair_keys pk = {0};
    rc = cast_edges(scene, m, edges, num_edges, edge_tri, &pk, out) ? COREPCG_ERR_NO_MEMORY
                                                                    : COREPCG_OK;
    rtcReleaseScene(scene);
    rtcReleaseDevice(device);
    /* a pair crossing along a segment is found from both of its ends */
    if (rc == COREPCG_OK && pk.stored > 0) /* none found: no array at all */
        qsort(pk.key, (size_t)pk.stored, sizeof *pk.key, by_key);
    for (long k = 0; rc == COREPCG_OK && k < pk.stored; k++)
        out->pairs += k == 0 || pk.key[k] != pk.key[k - 1];
    if (rc != COREPCG_OK && msg)
        snprintf(msg, COREPCG_MSG_SIZE, "self-intersection check of %d triangles: "
                 "out of memory", m->num_triangles);
    free(pk.key);
    free(edge_tri);
    free(edges);
    free(side_edge);
    return rc;
}

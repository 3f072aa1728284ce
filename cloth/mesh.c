/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mesh.c -- a triangle mesh: the checks a cloth needs (every triangle a
 * real one, every edge on at most two, every vertex on some), its unique
 * edges with the vertices opposite them, bounds, copy and free. Messages
 * number vertices from 1, as OBJ does, and name the file's line when the
 * mesh came from one. */
#include "cloth_mesh.h"
#include "message.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cloth_mesh_free(cloth_mesh *mesh)
{
    if (!mesh)
        return;
    free(mesh->x);
    free(mesh->triangles);
    free(mesh->source);
    free(mesh->vertex_line);
    free(mesh->triangle_line);
    memset(mesh, 0, sizeof *mesh);
}

int cloth_mesh_copy(const cloth_mesh *in, cloth_mesh *out, char *msg)
{
    memset(out, 0, sizeof *out);
    out->x = malloc((3 * (size_t)in->num_vertices + 1) * sizeof *out->x);
    out->triangles = malloc((3 * (size_t)in->num_triangles + 1) * sizeof *out->triangles);
    if (!out->x || !out->triangles) {
        cloth_mesh_free(out);
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "mesh: out of memory");
        return COREPCG_ERR_NO_MEMORY;
    }
    out->num_vertices = in->num_vertices;
    out->num_triangles = in->num_triangles;
    memcpy(out->x, in->x, 3 * (size_t)in->num_vertices * sizeof *out->x);
    memcpy(out->triangles, in->triangles,
           3 * (size_t)in->num_triangles * sizeof *out->triangles);
    return COREPCG_OK;
}

void cloth_mesh_bounds(const cloth_mesh *mesh, double lo[3], double hi[3])
{
    for (int c = 0; c < 3; c++) {
        lo[c] = mesh->num_vertices ? INFINITY : 0.0;
        hi[c] = mesh->num_vertices ? -INFINITY : 0.0;
    }
    for (int i = 0; i < mesh->num_vertices; i++)
        for (int c = 0; c < 3; c++) {
            lo[c] = fmin(lo[c], mesh->x[3 * i + c]);
            hi[c] = fmax(hi[c], mesh->x[3 * i + c]);
        }
}

/* "FILE:LINE" of triangle t, or "triangle t+1" for a mesh made in memory. */
static const char *triangle_place(const cloth_mesh *mesh, int t, char *buf, size_t len)
{
    if (mesh->source && mesh->triangle_line)
        snprintf(buf, len, "%s:%d", mesh->source, mesh->triangle_line[t]);
    else
        snprintf(buf, len, "triangle %d", t + 1);
    return buf;
}

const char *cloth_mesh_triangle_place(const cloth_mesh *mesh, int t, char *buf, size_t len)
{
    return triangle_place(mesh, t, buf, len);
}

/* The same in a message that already named the file: "line L". */
static const char *triangle_again(const cloth_mesh *mesh, int t, char *buf, size_t len)
{
    if (mesh->source && mesh->triangle_line)
        snprintf(buf, len, "line %d", mesh->triangle_line[t]);
    else
        snprintf(buf, len, "triangle %d", t + 1);
    return buf;
}

static const char *vertex_place(const cloth_mesh *mesh, int i, char *buf, size_t len)
{
    if (mesh->source && mesh->vertex_line)
        snprintf(buf, len, "%s:%d", mesh->source, mesh->vertex_line[i]);
    else
        snprintf(buf, len, "mesh");
    return buf;
}

/* One triangle's side: the edge a < b, the vertex opposite, and the slot
 * 3 t + k of side k (from corner k to corner k + 1) of triangle t. */
typedef struct half_edge {
    int a, b, opposite;
    long slot;
} half_edge;

static int by_edge(const void *p, const void *q)
{
    const half_edge *x = p, *y = q;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    if (x->b != y->b)
        return x->b < y->b ? -1 : 1;
    return x->slot < y->slot ? -1 : x->slot > y->slot;
}

int cloth_mesh_edges(const cloth_mesh *mesh, cloth_edge **edges,
                     int *num_edges, int *side_edge, char *msg)
{
    *edges = NULL;
    *num_edges = 0;
    size_t count = 3 * (size_t)mesh->num_triangles;
    half_edge *he = malloc((count + 1) * sizeof *he);
    cloth_edge *out = malloc((count + 1) * sizeof *out);
    if (!he || !out) {
        free(he);
        free(out);
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "mesh: out of memory");
        return COREPCG_ERR_NO_MEMORY;
    }
    for (int t = 0; t < mesh->num_triangles; t++)
        for (int k = 0; k < 3; k++) {
            int u = mesh->triangles[3 * t + k], w = mesh->triangles[3 * t + (k + 1) % 3];
            half_edge *e = &he[3 * (size_t)t + (size_t)k];
            e->a = u < w ? u : w;
            e->b = u < w ? w : u;
            e->opposite = mesh->triangles[3 * t + (k + 2) % 3];
            e->slot = 3L * t + k;
        }
    qsort(he, count, sizeof *he, by_edge);
    int n = 0, rc = COREPCG_OK;
    char p1[COREPCG_MSG_SIZE], p2[COREPCG_MSG_SIZE];
    for (size_t k = 0; k < count && rc == COREPCG_OK;) {
        size_t same = 1;
        while (k + same < count && he[k + same].a == he[k].a && he[k + same].b == he[k].b)
            same++;
        if (same > 2) {
            rc = cpg_fail(msg, COREPCG_ERR_FORMAT, "%s: edge %d-%d is on a third triangle (after %s); "
                          "a cloth surface has at most two on an edge",
                          triangle_place(mesh, (int)(he[k + 2].slot / 3), p1, sizeof p1),
                          he[k].a + 1, he[k].b + 1,
                          triangle_again(mesh, (int)(he[k + 1].slot / 3), p2, sizeof p2));
        } else if (same == 2 && he[k].opposite == he[k + 1].opposite) {
            rc = cpg_fail(msg, COREPCG_ERR_FORMAT, "%s: the same three vertices %d, %d, %d as %s",
                          triangle_place(mesh, (int)(he[k + 1].slot / 3), p1, sizeof p1),
                          he[k].a + 1, he[k].b + 1, he[k].opposite + 1,
                          triangle_again(mesh, (int)(he[k].slot / 3), p2, sizeof p2));
        } else {
            cloth_edge *e = &out[n++];
            e->a = he[k].a;
            e->b = he[k].b;
            e->opposite[0] = he[k].opposite;
            e->opposite[1] = same == 2 ? he[k + 1].opposite : -1;
            for (size_t j = 0; side_edge && j < same; j++)
                side_edge[he[k + j].slot] = n - 1;
        }
        k += same;
    }
    free(he);
    if (rc != COREPCG_OK) {
        free(out);
        return rc;
    }
    *edges = out;
    *num_edges = n;
    return COREPCG_OK;
}

double cloth_mesh_triangle_area(const cloth_mesh *mesh, int t, double *longest2)
{
    const int *v = &mesh->triangles[3 * t];
    const double *a = &mesh->x[3 * v[0]], *b = &mesh->x[3 * v[1]], *c = &mesh->x[3 * v[2]];
    double e1[3], e2[3], e3[3];
    for (int k = 0; k < 3; k++) {
        e1[k] = b[k] - a[k];
        e2[k] = c[k] - a[k];
        e3[k] = c[k] - b[k];
    }
    double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                   e1[0] * e2[1] - e1[1] * e2[0]};
    if (longest2) {
        double l1 = e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2];
        double l2 = e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2];
        double l3 = e3[0] * e3[0] + e3[1] * e3[1] + e3[2] * e3[2];
        *longest2 = fmax(l1, fmax(l2, l3));
    }
    return 0.5 * sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
}

int cloth_mesh_check(const cloth_mesh *mesh, char *msg)
{
    char where[COREPCG_MSG_SIZE];
    const char *name = mesh->source ? mesh->source : "mesh";
    if (mesh->num_vertices <= 0 || mesh->num_triangles <= 0 || !mesh->x || !mesh->triangles)
        return cpg_fail(msg, COREPCG_ERR_FORMAT, "%s: no %s", name, mesh->num_vertices <= 0 ? "vertices" : "faces");
    for (int i = 0; i < mesh->num_vertices; i++)
        for (int c = 0; c < 3; c++)
            if (!isfinite(mesh->x[3 * i + c]))
                return cpg_fail(msg, COREPCG_ERR_FORMAT, "%s: vertex %d has coordinate %g",
                                vertex_place(mesh, i, where, sizeof where), i + 1,
                                mesh->x[3 * i + c]);
    for (int t = 0; t < mesh->num_triangles; t++) {
        const int *v = &mesh->triangles[3 * t];
        for (int k = 0; k < 3; k++)
            if (v[k] < 0 || v[k] >= mesh->num_vertices)
                return cpg_fail(msg, COREPCG_ERR_FORMAT, "%s: vertex %d out of range (1..%d)",
                                triangle_place(mesh, t, where, sizeof where), v[k] + 1,
                                mesh->num_vertices);
        if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2])
            return cpg_fail(msg, COREPCG_ERR_FORMAT, "%s: triangle %d %d %d repeats a vertex",
                            triangle_place(mesh, t, where, sizeof where), v[0] + 1,
                            v[1] + 1, v[2] + 1);
        double longest2, area = cloth_mesh_triangle_area(mesh, t, &longest2);
        /* relative to its size: a sliver of zero area in floating point */
        if (!(2.0 * area > 1e-12 * longest2))
            return cpg_fail(msg, COREPCG_ERR_FORMAT, "%s: triangle %d %d %d is degenerate (no area)",
                            triangle_place(mesh, t, where, sizeof where), v[0] + 1,
                            v[1] + 1, v[2] + 1);
    }
    cloth_edge *edges = NULL;
    int num_edges = 0;
    int rc = cloth_mesh_edges(mesh, &edges, &num_edges, NULL, msg);
    free(edges);
    if (rc != COREPCG_OK)
        return rc;
    unsigned char *used = calloc((size_t)mesh->num_vertices, 1);
    if (!used) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "mesh: out of memory");
        return COREPCG_ERR_NO_MEMORY;
    }
    for (int k = 0; k < 3 * mesh->num_triangles; k++)
        used[mesh->triangles[k]] = 1;
    int unused = -1;
    for (int i = 0; i < mesh->num_vertices && unused < 0; i++)
        if (!used[i])
            unused = i;
    free(used);
    if (unused >= 0)
        return cpg_fail(msg, COREPCG_ERR_FORMAT, "%s: vertex %d is on no face: remove it "
                        "(a garment's vertex would have no mass, an obstacle's no surface)",
                        vertex_place(mesh, unused, where, sizeof where), unused + 1);
    return COREPCG_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* obstacle_normals.c -- a mesh obstacle's normals at its faces, edges
 * and corners: pseudo-normals, so that a node's contact normal does not
 * jump where its closest point crosses an edge, and the sign of
 * (x - q) . n says inside or outside wherever q lies. */
#include "cloth_mesh.h"
#include "cloth_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cloth_pseudo_normals_free(cloth_pseudo_normals *pn)
{
    if (!pn)
        return;
    free(pn->face);
    free(pn->edge);
    free(pn->corner);
    free(pn->side_edge);
    free(pn->edge_border);
    free(pn->vertex_border);
    free(pn->triangle_part);
    free(pn->part_closed);
    memset(pn, 0, sizeof *pn);
}

static void normalise(double *v, long count)
{
    for (long i = 0; i < count; i++, v += 3) {
        double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if (len > 0.0)
            for (int k = 0; k < 3; k++)
                v[k] /= len;
    }
}

/* The angle at corner a between the sides to b and c. */
static double corner_angle(const double *a, const double *b, const double *c)
{
    double u[3], w[3], dot = 0.0, cross[3];
    for (int k = 0; k < 3; k++) {
        u[k] = b[k] - a[k];
        w[k] = c[k] - a[k];
        dot += u[k] * w[k];
    }
    cross[0] = u[1] * w[2] - u[2] * w[1];
    cross[1] = u[2] * w[0] - u[0] * w[2];
    cross[2] = u[0] * w[1] - u[1] * w[0];
    return atan2(sqrt(cross[0] * cross[0] + cross[1] * cross[1] + cross[2] * cross[2]),
                 dot);
}

/* The root of v's part (path halving). */
static int part_root(int *parent, int v)
{
    while (parent[v] != v)
        v = parent[v] = parent[parent[v]];
    return v;
}

/* Each vertex's part, the connected pieces of the mesh (a body of
 * separate limbs, two spheres in one file), as its root vertex: parent
 * (num_vertices) is left with parent[v] the root of v. */
static void find_parts(const cloth_mesh *m, int *parent)
{
    for (int v = 0; v < m->num_vertices; v++)
        parent[v] = v;
    for (int t = 0; t < m->num_triangles; t++) {
        const int *tri = &m->triangles[3 * t];
        for (int k = 1; k < 3; k++) {
            int a = part_root(parent, tri[0]), b = part_root(parent, tri[k]);
            if (a != b)
                parent[a < b ? b : a] = a < b ? a : b;
        }
    }
    for (int v = 0; v < m->num_vertices; v++)
        parent[v] = part_root(parent, v);
}

/* Each triangle's unit normal (right-handed winding); into volume6[root]
 * 6 times the signed volume each part's triangles enclose (for a closed
 * part), volume6 zeroed first. */
static void face_normals(const cloth_mesh *m, const int *part, double *face, double *volume6)
{
    for (int v = 0; v < m->num_vertices; v++)
        volume6[v] = 0.0;
    for (int t = 0; t < m->num_triangles; t++) {
        const int *tri = &m->triangles[3 * t];
        const double *a = &m->x[3 * tri[0]], *b = &m->x[3 * tri[1]], *c = &m->x[3 * tri[2]];
        double u[3], w[3], *n = &face[3 * t];
        for (int k = 0; k < 3; k++) {
            u[k] = b[k] - a[k];
            w[k] = c[k] - a[k];
        }
        n[0] = u[1] * w[2] - u[2] * w[1];
        n[1] = u[2] * w[0] - u[0] * w[2];
        n[2] = u[0] * w[1] - u[1] * w[0];
        volume6[part[tri[0]]] += a[0] * (b[1] * c[2] - b[2] * c[1]) -
                                 a[1] * (b[0] * c[2] - b[2] * c[0]) +
                                 a[2] * (b[0] * c[1] - b[1] * c[0]);
    }
    normalise(face, m->num_triangles);
}

/* The triangle that runs an edge as an earlier one did, or -1: each edge
 * is run low-to-high by one triangle and high-to-low by the other. */
static int winding_clash(const cloth_mesh *m, const int *side_edge, int num_edges)
{
    unsigned char *seen = calloc((size_t)num_edges + 1, 1);
    if (!seen)
        return -2;
    int clash = -1;
    for (int t = 0; t < m->num_triangles && clash < 0; t++)
        for (int k = 0; k < 3; k++) {
            int a = m->triangles[3 * t + k], b = m->triangles[3 * t + (k + 1) % 3];
            unsigned char way = a < b ? 1 : 2;
            int e = side_edge[3 * t + k];
            if (seen[e] & way) {
                clash = t;
                break;
            }
            seen[e] |= way;
        }
    free(seen);
    return clash;
}

int cloth_pseudo_normals_build(const cloth_mesh *m, cloth_pseudo_normals *pn, char *msg)
{
    memset(pn, 0, sizeof *pn);
    size_t T = (size_t)m->num_triangles, V = (size_t)m->num_vertices;
    cloth_edge *edges = NULL;
    pn->side_edge = malloc(3 * T * sizeof *pn->side_edge);
    if (!pn->side_edge)
        goto no_memory;
    int rc = cloth_mesh_edges(m, &edges, &pn->num_edges, pn->side_edge, msg);
    if (rc != COREPCG_OK) {
        cloth_pseudo_normals_free(pn);
        return rc;
    }
    size_t E = (size_t)pn->num_edges;
    pn->face = malloc(3 * T * sizeof *pn->face);
    pn->edge = calloc(3 * E, sizeof *pn->edge);
    pn->corner = calloc(3 * V, sizeof *pn->corner);
    pn->edge_border = calloc(E + 1, 1);
    pn->vertex_border = calloc(V + 1, 1);
    if (!pn->face || !pn->edge || !pn->corner || !pn->edge_border || !pn->vertex_border)
        goto no_memory;
    int clash = winding_clash(m, pn->side_edge, pn->num_edges);
    if (clash == -2)
        goto no_memory;
    if (clash >= 0) {
        char place[COREPCG_MSG_SIZE];
        cloth_mesh_triangle_place(m, clash, place, sizeof place);
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "%.300s: the triangle runs an edge the same way "
                     "as its neighbour: their normals disagree, and an obstacle needs one "
                     "side outside (wind its faces alike)", place);
        free(edges);
        cloth_pseudo_normals_free(pn);
        return COREPCG_ERR_FORMAT;
    }
    /* a closed part wound inward has its normals point in: turned round,
     * part by part (one volume for the file missed a part wound the
     * other way from the rest; an outside review) */
    int *part = malloc((V + 1) * sizeof *part);
    double *volume6 = malloc((V + 1) * sizeof *volume6);
    unsigned char *open = calloc(V + 1, 1);
    if (!part || !volume6 || !open) {
        free(part);
        free(volume6);
        free(open);
        goto no_memory;
    }
    find_parts(m, part);
    face_normals(m, part, pn->face, volume6);
    pn->closed = 1;
    for (size_t e = 0; e < E; e++)
        if (edges[e].opposite[1] < 0) {
            pn->edge_border[e] = 1;
            pn->vertex_border[edges[e].a] = pn->vertex_border[edges[e].b] = 1;
            pn->closed = 0;
            open[part[edges[e].a]] = 1;
        }
    free(edges);
    edges = NULL;
    for (size_t t = 0; t < T; t++) {
        int root = part[m->triangles[3 * t]];
        if (!open[root] && volume6[root] < 0.0)
            for (int c = 0; c < 3; c++)
                pn->face[3 * t + c] = -pn->face[3 * t + c];
    }
    /* the parts numbered 0 .. num_parts - 1 (number: a root's) */
    int *number = malloc((V + 1) * sizeof *number);
    pn->triangle_part = malloc((T + 1) * sizeof *pn->triangle_part);
    pn->part_closed = malloc(V + 1);
    int numbered = number && pn->triangle_part && pn->part_closed;
    if (numbered) {
        for (size_t v = 0; v < V; v++)
            number[v] = -1;
        for (size_t t = 0; t < T; t++) {
            int root = part[m->triangles[3 * t]];
            if (number[root] < 0) {
                pn->part_closed[pn->num_parts] = !open[root];
                number[root] = pn->num_parts++;
            }
            pn->triangle_part[t] = number[root];
        }
    }
    free(number);
    free(part);
    free(volume6);
    free(open);
    if (!numbered)
        goto no_memory;
    for (size_t t = 0; t < T; t++) {
        const int *tri = &m->triangles[3 * t];
        const double *n = &pn->face[3 * t];
        for (int k = 0; k < 3; k++) {
            double *en = &pn->edge[3 * (size_t)pn->side_edge[3 * t + k]];
            double angle = corner_angle(&m->x[3 * tri[k]], &m->x[3 * tri[(k + 1) % 3]],
                                        &m->x[3 * tri[(k + 2) % 3]]);
            double *vn = &pn->corner[3 * (size_t)tri[k]];
            for (int c = 0; c < 3; c++) {
                en[c] += n[c];
                vn[c] += angle * n[c];
            }
        }
    }
    normalise(pn->edge, (long)E);
    normalise(pn->corner, (long)V);
    return COREPCG_OK;

no_memory:
    free(edges);
    cloth_pseudo_normals_free(pn);
    if (msg)
        snprintf(msg, COREPCG_MSG_SIZE, "obstacle mesh: out of memory");
    return COREPCG_ERR_NO_MEMORY;
}

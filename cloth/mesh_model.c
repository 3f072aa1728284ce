/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mesh_model.c -- a triangle mesh as a cloth model: stretch springs on
 * its edges, a bending spring across each interior edge, masses lumped
 * from the triangles' areas; pattern laid out by model.c. */
#include "cloth_mesh.h"
#include "cloth_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double distance(const double *x, int a, int b)
{
    double d[3] = {x[3 * a] - x[3 * b], x[3 * a + 1] - x[3 * b + 1], x[3 * a + 2] - x[3 * b + 2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* by a, then b, then kind: the order a grid's springs come in */
static int by_nodes(const void *p, const void *q)
{
    const cloth_spring *s = p, *t = q;
    if (s->a != t->a)
        return s->a < t->a ? -1 : 1;
    if (s->b != t->b)
        return s->b < t->b ? -1 : 1;
    return s->kind < t->kind ? -1 : s->kind > t->kind;
}

static void add_spring(cloth_spring *sp, int u, int w, int kind, const double *x)
{
    memset(sp, 0, sizeof *sp);
    sp->a = u < w ? u : w;
    sp->b = u < w ? w : u;
    sp->kind = kind;
    sp->rest = distance(x, u, w);
}

/* Each triangle gives a third of its area times density to each corner. */
static void lump_masses(const cloth_mesh *mesh, double density, double *mass)
{
    for (int t = 0; t < mesh->num_triangles; t++) {
        double area = cloth_mesh_triangle_area(mesh, t, NULL);
        for (int k = 0; k < 3; k++)
            mass[mesh->triangles[3 * t + k]] += density * area / 3.0;
    }
}

int cloth_mesh_build(const cloth_mesh *mesh, double density, cloth_model *g, char *msg)
{
    memset(g, 0, sizeof *g);
    if (!(density > 0.0) || !isfinite(density)) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "cloth mesh: density %g must be finite and > 0",
                     density);
        return COREPCG_ERR_ARGUMENT;
    }
    int rc = cloth_mesh_check(mesh, msg);
    if (rc != COREPCG_OK)
        return rc;
    cloth_edge *edges = NULL;
    int num_edges = 0;
    rc = cloth_mesh_edges(mesh, &edges, &num_edges, NULL, msg);
    if (rc != COREPCG_OK)
        return rc;
    long interior = 0;
    for (int e = 0; e < num_edges; e++)
        interior += edges[e].opposite[1] >= 0;
    rc = cloth_model_alloc(g, mesh->num_vertices, num_edges + interior, num_edges, 3,
                           mesh->num_triangles, msg);
    if (rc != COREPCG_OK) {
        free(edges);
        return rc;
    }
    int s = 0;
    double total = 0.0;
    for (int e = 0; e < num_edges; e++) {
        const cloth_edge *ed = &edges[e];
        add_spring(&g->springs[s++], ed->a, ed->b, CLOTH_STRETCH, mesh->x);
        total += g->springs[s - 1].rest;
        g->stretch_pairs[2 * e] = ed->a;
        g->stretch_pairs[2 * e + 1] = ed->b;
        if (ed->opposite[1] >= 0)
            add_spring(&g->springs[s++], ed->opposite[0], ed->opposite[1], CLOTH_BEND,
                       mesh->x);
    }
    free(edges);
    qsort(g->springs, (size_t)s, sizeof *g->springs, by_nodes);
    g->spacing = total / num_edges;
    lump_masses(mesh, density, g->mass);
    memcpy(g->faces, mesh->triangles, 3 * (size_t)mesh->num_triangles * sizeof *g->faces);
    rc = cloth_model_pattern(g, msg);
    if (rc != COREPCG_OK)
        cloth_model_free(g);
    return rc;
}

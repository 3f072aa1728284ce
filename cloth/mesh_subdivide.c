/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mesh_subdivide.c -- midpoint subdivision: every triangle into four, each
 * edge's midpoint a new vertex numbered after the old ones, once. */
#include "cloth_mesh.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One round from in to out (empty on entry). */
static int subdivide_once(const cloth_mesh *in, cloth_mesh *out, char *msg)
{
    long T = in->num_triangles, V = in->num_vertices;
    cloth_edge *edges = NULL;
    int num_edges = 0;
    int *side_edge = malloc((3 * (size_t)T + 1) * sizeof *side_edge);
    if (!side_edge)
        goto no_memory;
    int rc = cloth_mesh_edges(in, &edges, &num_edges, side_edge, msg);
    if (rc != COREPCG_OK) {
        free(side_edge);
        return rc;
    }
    if (V + num_edges > INT_MAX / 3 || 4 * T > INT_MAX / 3) {
        free(side_edge);
        free(edges);
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "mesh: %ld vertices and %ld triangles after "
                     "subdividing overflow int", V + num_edges, 4 * T);
        return COREPCG_ERR_TOO_LARGE;
    }
    /* each edge's midpoint numbered in the order the edges first appear */
    int *midpoint = malloc(((size_t)num_edges + 1) * sizeof *midpoint);
    out->num_vertices = (int)(V + num_edges);
    out->num_triangles = (int)(4 * T);
    out->x = malloc(3 * (size_t)out->num_vertices * sizeof *out->x);
    out->triangles = malloc(3 * (size_t)out->num_triangles * sizeof *out->triangles);
    if (!midpoint || !out->x || !out->triangles) {
        free(midpoint);
        free(side_edge);
        free(edges);
        goto no_memory;
    }
    memcpy(out->x, in->x, 3 * (size_t)V * sizeof *out->x);
    for (int e = 0; e < num_edges; e++)
        midpoint[e] = -1;
    int next = (int)V;
    for (long slot = 0; slot < 3 * T; slot++) {
        int e = side_edge[slot];
        if (midpoint[e] >= 0)
            continue;
        midpoint[e] = next;
        for (int c = 0; c < 3; c++)
            out->x[3 * next + c] = 0.5 * (in->x[3 * edges[e].a + c] + in->x[3 * edges[e].b + c]);
        next++;
    }
    for (long t = 0; t < T; t++) {
        const int *v = &in->triangles[3 * t];
        int ab = midpoint[side_edge[3 * t]], bc = midpoint[side_edge[3 * t + 1]],
            ca = midpoint[side_edge[3 * t + 2]];
        int four[12] = {v[0], ab, ca, ab, v[1], bc, ca, bc, v[2], ab, bc, ca};
        memcpy(&out->triangles[12 * t], four, sizeof four);
    }
    free(midpoint);
    free(side_edge);
    free(edges);
    return COREPCG_OK;

no_memory:
    cloth_mesh_free(out);
    if (msg)
        snprintf(msg, COREPCG_MSG_SIZE, "mesh: out of memory subdividing");
    return COREPCG_ERR_NO_MEMORY;
}

/* The file's name and each triangle's line, for the messages of the
 * models built on out (the FEM's sliver names its face): round by round
 * triangle t becomes 4 t .. 4 t + 3, so each keeps the line of triangle
 * t >> 2 levels of in. Vertices keep theirs only unsubdivided (a midpoint
 * has no line): then the numbers a message names are the file's. */
static int keep_places(const cloth_mesh *in, int levels, cloth_mesh *out, char *msg)
{
    if (!in->source || !in->triangle_line)
        return COREPCG_OK;
    out->source = strdup(in->source);
    out->triangle_line = malloc(((size_t)out->num_triangles + 1) * sizeof *out->triangle_line);
    if (levels == 0 && in->vertex_line)
        out->vertex_line = malloc(((size_t)out->num_vertices + 1) * sizeof *out->vertex_line);
    if (!out->source || !out->triangle_line || (levels == 0 && in->vertex_line &&
                                                 !out->vertex_line)) {
        cloth_mesh_free(out);
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "mesh: out of memory subdividing");
        return COREPCG_ERR_NO_MEMORY;
    }
    for (int t = 0; t < out->num_triangles; t++)
        out->triangle_line[t] = in->triangle_line[t >> (2 * levels)];
    if (out->vertex_line)
        memcpy(out->vertex_line, in->vertex_line,
               (size_t)out->num_vertices * sizeof *out->vertex_line);
    return COREPCG_OK;
}

int cloth_mesh_subdivide(const cloth_mesh *in, int levels, cloth_mesh *out, char *msg)
{
    memset(out, 0, sizeof *out);
    if (levels < 0 || levels > CLOTH_MAX_SUBDIVIDE) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "mesh: %d rounds of subdivision (0..%d)",
                     levels, CLOTH_MAX_SUBDIVIDE);
        return COREPCG_ERR_ARGUMENT;
    }
    int rc = cloth_mesh_copy(in, out, msg);
    for (int k = 0; k < levels && rc == COREPCG_OK; k++) {
        cloth_mesh finer = {0};
        rc = subdivide_once(out, &finer, msg);
        cloth_mesh_free(out);
        *out = finer;
    }
    if (rc == COREPCG_OK)
        rc = keep_places(in, levels, out, msg);
    return rc;
}

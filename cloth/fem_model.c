/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fem_model.c -- the FEM elements of a triangle mesh: a membrane per
 * triangle and a hinge per interior edge, each with its rest shape and
 * the fixed springs of the mesh model that hold its vertex pairs' places
 * in A (the pattern, which self-contact grows, stays the spring model's:
 * an element's blocks land where those springs' do). */
#include "cloth_mesh.h"
#include "cloth_model.h"
#include "message.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cloth_fem_free(cloth_fem *fem)
{
    if (!fem)
        return;
    free(fem->membranes);
    free(fem->hinges);
    memset(fem, 0, sizeof *fem);
}

/* The fixed spring joining a and b (springs sorted by a, then b), or -1. */
static int spring_of(const cloth_model *g, int u, int w)
{
    int a = u < w ? u : w, b = u < w ? w : u;
    int lo = 0, hi = g->num_fixed;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        const cloth_spring *sp = &g->springs[mid];
        if (sp->a < a || (sp->a == a && sp->b < b))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->num_fixed && g->springs[lo].a == a && g->springs[lo].b == b ? lo : -1;
}

/* pair[] of an element on `count` vertices: its pairs p < q in order. */
static int find_pairs(const cloth_model *g, const int *v, int count, int *pair)
{
    int k = 0;
    for (int p = 0; p < count; p++)
        for (int q = p + 1; q < count; q++)
            if ((pair[k++] = spring_of(g, v[p], v[q])) < 0)
                return -1;
    return 0;
}

void cloth_fem_gather(const double *x, const int *v, int count, double *out)
{
    for (int p = 0; p < count; p++)
        memcpy(&out[3 * p], &x[3 * v[p]], 3 * sizeof *out);
}

/* "FILE:LINE: triangle A B C" (or "triangle T: ..." made in memory) for a
 * message; a subdivided mesh's vertices are not the file's, so there
 * only the face's line. */
static const char *triangle_named(const cloth_mesh *mesh, int t, char *buf, size_t len)
{
    char where[COREPCG_MSG_SIZE / 2];
    const int *v = &mesh->triangles[3 * t];
    cloth_mesh_triangle_place(mesh, t, where, sizeof where);
    if (mesh->source && mesh->triangle_line && !mesh->vertex_line)
        snprintf(buf, len, "%s: a triangle of the face (subdivided)", where);
    else
        snprintf(buf, len, "%s: triangle %d %d %d", where, v[0] + 1, v[1] + 1, v[2] + 1);
    return buf;
}

static int no_rest_area(const cloth_mesh *mesh, int t, char *msg)
{
    char named[COREPCG_MSG_SIZE];
    return cpg_fail(msg, COREPCG_ERR_FORMAT, "%s has no rest area (an FEM element needs one)",
                    triangle_named(mesh, t, named, sizeof named));
}

/* A triangle whose rest shape makes no well-conditioned element: none
 * (as cloth_mesh_check measures it), too thin, or too large for a
 * double's area; COREPCG_OK when it is fit. */
static int unfit_rest(const cloth_mesh *mesh, int t, char *msg)
{
    char named[COREPCG_MSG_SIZE];
    double longest2, area = cloth_mesh_triangle_area(mesh, t, &longest2);
    if (!isfinite(area) || !isfinite(longest2))
        return cpg_fail(msg, COREPCG_ERR_FORMAT, "%s: its rest area overflows a double "
                        "(a side of %.3g m; positions are in metres)",
                        triangle_named(mesh, t, named, sizeof named), sqrt(longest2));
    if (!(2.0 * area > 1e-12 * longest2))
        return no_rest_area(mesh, t, msg);
    /* a sliver's membrane stiffness grows as 1/height, and the rounding
     * its Hessian's projection leaves with it, until that outweighs the
     * mass and A is no longer positive definite (docs/design.md) */
    if (2.0 * area < CLOTH_FEM_MIN_HEIGHT * longest2)
        return cpg_fail(msg, COREPCG_ERR_FORMAT, "%s is a sliver (height %.2g of its "
                        "longest edge); an FEM element needs at least %g: remesh it, or "
                        "use --model springs",
                        triangle_named(mesh, t, named, sizeof named),
                        2.0 * area / longest2, CLOTH_FEM_MIN_HEIGHT);
    return COREPCG_OK;
}

static int no_pair(char *msg)
{
    return cpg_fail(msg, COREPCG_ERR_STATE,
                    "cloth fem: an element's vertex pair has no spring in the model");
}

int cloth_fem_build(const cloth_mesh *mesh, const cloth_model *g, cloth_fem *fem,
                    char *msg)
{
    memset(fem, 0, sizeof *fem);
    cloth_edge *edges = NULL;
    int num_edges = 0;
    int rc = cloth_mesh_edges(mesh, &edges, &num_edges, NULL, msg);
    if (rc != COREPCG_OK)
        return rc;
    int interior = 0;
    for (int e = 0; e < num_edges; e++)
        interior += edges[e].opposite[1] >= 0;
    fem->membranes = calloc((size_t)mesh->num_triangles + 1, sizeof *fem->membranes);
    fem->hinges = calloc((size_t)interior + 1, sizeof *fem->hinges);
    if (!fem->membranes || !fem->hinges) {
        free(edges);
        cloth_fem_free(fem);
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "cloth fem: out of memory");
    }
    for (int t = 0; t < mesh->num_triangles && rc == COREPCG_OK; t++) {
        cloth_membrane *m = &fem->membranes[fem->num_membranes++];
        double X[9];
        memcpy(m->v, &mesh->triangles[3 * t], sizeof m->v);
        cloth_fem_gather(mesh->x, m->v, 3, X);
        rc = unfit_rest(mesh, t, msg);
        if (rc == COREPCG_OK && cloth_membrane_rest(X, m) != 0)
            rc = no_rest_area(mesh, t, msg);
        else if (rc == COREPCG_OK && find_pairs(g, m->v, 3, m->pair) != 0)
            rc = no_pair(msg);
    }
    for (int k = 0; k < num_edges && rc == COREPCG_OK; k++) {
        const cloth_edge *ed = &edges[k];
        if (ed->opposite[1] < 0)
            continue;
        cloth_hinge *h = &fem->hinges[fem->num_hinges++];
        const int v[4] = {ed->a, ed->b, ed->opposite[0], ed->opposite[1]};
        double X[12];
        memcpy(h->v, v, sizeof h->v);
        cloth_fem_gather(mesh->x, h->v, 4, X);
        if (cloth_hinge_rest(X, h) != 0) /* the membranes' check passed its triangles */
            rc = cpg_fail(msg, COREPCG_ERR_FORMAT, "cloth fem: edge %d-%d: a triangle "
                          "on it has no rest area", ed->a + 1, ed->b + 1);
        else if (find_pairs(g, h->v, 4, h->pair) != 0)
            rc = no_pair(msg);
    }
    free(edges);
    if (rc != COREPCG_OK)
        cloth_fem_free(fem);
    return rc;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* obstacle_union.c -- a mesh obstacle of overlapping closed parts (a body
 * of limbs) is their union. Each closed part that meets another has a
 * closest-point tree of its own, to tell a point inside it whose nearest
 * surface is another part's; and each triangle is marked by how much of
 * it is buried in another part, so that a point inside leaves through
 * the union's surface (mesh_obstacle.c). */
#include "mesh_obstacle_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* The pairs of parts whose boxes meet (closed or open: a floor through a
 * body buries the body's surface too), into *pairs (2 ints a pair,
 * malloc'd) and *num_pairs. Parts by their boxes' lower x, each against
 * those that start before it ends. */
static int parts_that_meet(const cloth_pseudo_normals *pn, const double *lo,
                           const double *hi, int **pairs, int *num_pairs)
{
    int P = pn->num_parts, cap = 16;
    by_lower_x *order = malloc(sizeof *order * (size_t)P);
    *num_pairs = 0;
    *pairs = malloc(2 * sizeof(int) * (size_t)cap);
    if (!order || !*pairs) {
        free(order);
        return COREPCG_ERR_NO_MEMORY;
    }
    for (int k = 0; k < P; k++)
        order[k] = (by_lower_x){lo[3 * k], k};
    qsort(order, (size_t)P, sizeof *order, lower_x_first);
    int rc = COREPCG_OK;
    for (int i = 0; rc == COREPCG_OK && i < P; i++)
        for (int j = i + 1; j < P && order[j].x <= hi[3 * order[i].part]; j++) {
            int a = order[i].part, b = order[j].part;
            if (!(lo[3 * a + 1] <= hi[3 * b + 1] && lo[3 * b + 1] <= hi[3 * a + 1] &&
                  lo[3 * a + 2] <= hi[3 * b + 2] && lo[3 * b + 2] <= hi[3 * a + 2]))
                continue;
            if (*num_pairs == cap) {
                int *grown = realloc(*pairs, 4 * sizeof(int) * (size_t)cap);
                if (!grown) {
                    rc = COREPCG_ERR_NO_MEMORY;
                    break;
                }
                *pairs = grown;
                cap *= 2;
            }
            (*pairs)[2 * *num_pairs] = a;
            (*pairs)[2 * *num_pairs + 1] = b;
            ++*num_pairs;
        }
    free(order);
    return rc;
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

/* The longest edge of triangle t. */
static double longest_edge(const cloth_mesh *m, int t)
{
    double longest2;
    cloth_mesh_triangle_area(m, t, &longest2);
    return sqrt(longest2);
}

/* A vertex against one other part, while its part's triangles are
 * marked: NEAR_ when that part's surface is within its reach (its
 * seam_distance then exact), else only the side it is on. */
enum { UNSEEN, PENDING, OUTSIDE, INSIDE, NEAR_OUTSIDE, NEAR_INSIDE };

/* The side a known vertex hands on to its neighbours. */
static unsigned char side_beyond(unsigned char side)
{
    return side == NEAR_INSIDE || side == INSIDE ? INSIDE : OUTSIDE;
}

/* The side of part pt's surface each corner of the triangles tris (one
 * part's) lies on, into side[] (UNSEEN on entry and on return), and
 * seam_distance lowered to the exact distance where that surface is
 * within the corner's reach (the longest edge of its triangles), to
 * -INFINITY where the corner is inside beyond it. Beyond its reach a
 * corner is on the side of a neighbour: the edge between them is no
 * longer than that reach, so the surface does not cross it; the sides
 * spread breadth-first from the corners measured. Only a run of corners
 * none of which comes within reach asks the tree without bound, once.
 * local: all -1 on entry and on return. OK or ERR_NO_MEMORY. */
static int sides_of_part(cloth_mesh_obstacle *ob, const part_tree *pt, const int *tris,
                         int count, const double *reach, unsigned char *side, int *local)
{
    const cloth_mesh *m = &ob->mesh;
    int *verts = malloc(sizeof(int) * 3 * (size_t)count);
    int *start = calloc(3 * (size_t)count + 1, sizeof(int));
    int *tri_of = malloc(sizeof(int) * 3 * (size_t)count);
    int *queue = malloc(sizeof(int) * 3 * (size_t)count);
    if (!verts || !start || !tri_of || !queue) {
        free(verts);
        free(start);
        free(tri_of);
        free(queue);
        return COREPCG_ERR_NO_MEMORY;
    }
    /* the part's vertices numbered locally, and each one's triangles */
    int nv = 0;
    for (int k = 0; k < 3 * count; k++) {
        int v = m->triangles[3 * tris[k / 3] + k % 3];
        if (local[v] < 0) {
            local[v] = nv;
            verts[nv++] = v;
        }
        start[local[v] + 1]++;
    }
    for (int i = 0; i < nv; i++)
        start[i + 1] += start[i];
    for (int k = 0; k < 3 * count; k++)
        tri_of[start[local[m->triangles[3 * tris[k / 3] + k % 3]]]++] = tris[k / 3];
    for (int i = nv; i > 0; i--)
        start[i] = start[i - 1];
    start[0] = 0;
    /* measured within reach; outside the part's box beyond it */
    int head = 0, tail = 0;
    for (int i = 0; i < nv; i++) {
        int v = verts[i];
        const double *x = &m->x[3 * v];
        int near_box = 1, in_box = 1;
        for (int c = 0; c < 3; c++) {
            near_box &= x[c] >= pt->lo[c] - reach[v] && x[c] <= pt->hi[c] + reach[v];
            in_box &= x[c] >= pt->lo[c] && x[c] <= pt->hi[c];
        }
        obstacle_query qs = {0};
        cloth_surface_point sp;
        side[v] = in_box ? PENDING : OUTSIDE;
        if (near_box && obstacle_nearest(ob, pt->scene, pt->triangles, x, reach[v], &qs)) {
            obstacle_surface_point(ob, &qs, x, &sp);
            ob->seam_distance[v] = fmin(ob->seam_distance[v], sp.distance);
            side[v] = sp.distance < 0.0 ? NEAR_INSIDE : NEAR_OUTSIDE;
        }
        if (side[v] != PENDING)
            queue[tail++] = i;
    }
    /* the rest from their neighbours */
    for (int next = 0;;) {
        while (head < tail) {
            int i = queue[head++];
            unsigned char known = side_beyond(side[verts[i]]);
            for (int p = start[i]; p < start[i + 1]; p++)
                for (int j = 0; j < 3; j++) {
                    int u = m->triangles[3 * tri_of[p] + j];
                    if (side[u] == PENDING) {
                        side[u] = known;
                        queue[tail++] = local[u];
                    }
                }
        }
        while (next < nv && side[verts[next]] != PENDING)
            next++;
        if (next == nv)
            break;
        int v = verts[next];
        obstacle_query qs = {0};
        cloth_surface_point sp;
        side[v] = OUTSIDE;
        if (obstacle_nearest(ob, pt->scene, pt->triangles, &m->x[3 * v], INFINITY, &qs)) {
            obstacle_surface_point(ob, &qs, &m->x[3 * v], &sp);
            side[v] = sp.distance < 0.0 ? INSIDE : OUTSIDE;
        }
        queue[tail++] = next;
    }
    for (int i = 0; i < nv; i++) {
        int v = verts[i];
        if (side[v] == INSIDE)
            ob->seam_distance[v] = -INFINITY;
        side[v] = UNSEEN;
        local[v] = -1;
    }
    free(verts);
    free(start);
    free(tri_of);
    free(queue);
    return COREPCG_OK;
}

/* seam_distance and burial, over the pairs of parts that meet: each
 * part's corners against the other's tree (a closed part that meets
 * another has one). A triangle lies within its longest edge of each
 * corner, and a signed distance changes by no more than the way
 * travelled, so a triangle is CLEAR when a corner is outside the other
 * parts by more than that edge, BURIED when a corner is that deep inside
 * one, and MIXED otherwise (its corners' distances then exact). */
static int mark_burial(cloth_mesh_obstacle *ob, const int *pairs, int num_pairs,
                       const int *first, const int *by_part, const int *tree_of)
{
    const cloth_mesh *m = &ob->mesh;
    int T = m->num_triangles, V = m->num_vertices;
    ob->burial = malloc((size_t)T);
    ob->seam_distance = malloc(sizeof(double) * (size_t)V);
    double *reach = calloc((size_t)V, sizeof(double));
    unsigned char *side = calloc((size_t)V, 1);
    int *local = malloc(sizeof(int) * (size_t)V);
    if (!ob->burial || !ob->seam_distance || !reach || !side || !local) {
        free(reach);
        free(side);
        free(local);
        return COREPCG_ERR_NO_MEMORY;
    }
    for (int v = 0; v < V; v++) {
        ob->seam_distance[v] = INFINITY;
        local[v] = -1;
    }
    for (int t = 0; t < T; t++) {
        double edge = longest_edge(m, t);
        for (int j = 0; j < 3; j++)
            reach[m->triangles[3 * t + j]] = fmax(reach[m->triangles[3 * t + j]], edge);
    }
    int rc = COREPCG_OK;
    for (int k = 0; rc == COREPCG_OK && k < 2 * num_pairs; k++) {
        int own = pairs[k], other = pairs[k ^ 1];
        if (tree_of[other] >= 0)
            rc = sides_of_part(ob, &ob->part_trees[tree_of[other]], &by_part[first[own]],
                               first[own + 1] - first[own], reach, side, local);
    }
    for (int t = 0; t < T; t++) {
        double edge = longest_edge(m, t);
        int clear = 0, buried = 0;
        for (int j = 0; j < 3; j++) {
            double sd = ob->seam_distance[m->triangles[3 * t + j]];
            clear |= sd > edge;
            buried |= sd < -edge;
        }
        ob->burial[t] = buried ? BURIED : clear ? CLEAR : MIXED;
    }
    free(reach);
    free(side);
    free(local);
    return rc;
}

int obstacle_union_build(cloth_mesh_obstacle *ob)
{
    const cloth_mesh *m = &ob->mesh;
    const cloth_pseudo_normals *pn = &ob->normals;
    int P = pn->num_parts, T = m->num_triangles, num_pairs = 0;
    int *pairs = NULL;
    double *lo = malloc(3 * sizeof(double) * (size_t)P);
    double *hi = malloc(3 * sizeof(double) * (size_t)P);
    int *tree_of = malloc(sizeof(int) * (size_t)P);
    int *first = calloc((size_t)P + 1, sizeof(int)), *by_part = malloc(sizeof(int) * (size_t)T);
    int *local = malloc(sizeof(int) * (size_t)m->num_vertices);
    int rc = lo && hi && tree_of && first && by_part && local ? COREPCG_OK
                                                              : COREPCG_ERR_NO_MEMORY;
    if (rc == COREPCG_OK) {
        part_boxes(ob, lo, hi);
        rc = parts_that_meet(pn, lo, hi, &pairs, &num_pairs);
    }
    /* a tree for each closed part in a pair: only such a part can hold a
     * point whose nearest surface is another's */
    int trees = 0;
    for (int k = 0; rc == COREPCG_OK && k < P; k++)
        tree_of[k] = -1;
    for (int k = 0; rc == COREPCG_OK && k < 2 * num_pairs; k++)
        if (pn->part_closed[pairs[k]] && tree_of[pairs[k]] < 0)
            tree_of[pairs[k]] = trees++;
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
        if (tree_of[k] < 0)
            continue;
        part_tree *pt = &ob->part_trees[tree_of[k]];
        ob->num_part_trees++;
        memcpy(pt->lo, &lo[3 * k], sizeof pt->lo);
        memcpy(pt->hi, &hi[3 * k], sizeof pt->hi);
        pt->part = k;
        rc = build_one_part_tree(ob, pt, &by_part[first[k]], first[k + 1] - first[k], local);
    }
    if (rc == COREPCG_OK && trees > 0)
        rc = mark_burial(ob, pairs, num_pairs, first, by_part, tree_of);
    free(pairs);
    free(lo);
    free(hi);
    free(tree_of);
    free(first);
    free(by_part);
    free(local);
    return rc;
}

void obstacle_union_free(cloth_mesh_obstacle *ob)
{
    for (int k = 0; k < ob->num_part_trees; k++) {
        if (ob->part_trees[k].scene)
            rtcReleaseScene(ob->part_trees[k].scene);
        free(ob->part_trees[k].triangles);
    }
    free(ob->part_trees);
    free(ob->burial);
    free(ob->seam_distance);
}

/* A cloth gets deeper than a step's travel into a part only by passing
 * its open surface, where the nearest surface is that part's own; at the
 * start (radius INFINITY) every depth is seen. */
int obstacle_inside_another_part(const cloth_mesh_obstacle *ob, const double x[3], int own,
                                 double radius, cloth_surface_point *p, int *triangle)
{
    int found = 0;
    for (int k = 0; k < ob->num_part_trees; k++) {
        const part_tree *pt = &ob->part_trees[k];
        if (pt->part == own ||
            x[0] < pt->lo[0] || x[0] > pt->hi[0] || x[1] < pt->lo[1] ||
            x[1] > pt->hi[1] || x[2] < pt->lo[2] || x[2] > pt->hi[2])
            continue;
        obstacle_query qs = {0};
        cloth_surface_point sp;
        if (!obstacle_nearest(ob, pt->scene, pt->triangles, x, radius, &qs))
            continue;
        obstacle_surface_point(ob, &qs, x, &sp);
        if (sp.distance < 0.0 && (!found || sp.distance > p->distance)) {
            *p = sp;
            *triangle = qs.triangle;
            found = 1;
        }
    }
    return found;
}

int obstacle_point_buried(const cloth_mesh_obstacle *ob, const double q[3], int t)
{
    if (ob->burial[t] != MIXED)
        return ob->burial[t] == BURIED;
    cloth_surface_point in;
    int triangle;
    return obstacle_inside_another_part(ob, q, ob->normals.triangle_part[t], INFINITY, &in,
                                        &triangle);
}

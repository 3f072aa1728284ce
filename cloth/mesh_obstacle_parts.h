/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mesh_obstacle_parts.h -- inside the mesh obstacle: its state, one
 * closest-point query (obstacle_query.c) and the union of its closed
 * parts (obstacle_union.c), which mesh_obstacle.c puts together. Only
 * those files include it. */
#ifndef COREPCG_MESH_OBSTACLE_PARTS_H
#define COREPCG_MESH_OBSTACLE_PARTS_H

#include "cloth_scene.h"
#include "embree_mesh.h"

/* A closed part's own tree, and where it lies. */
typedef struct part_tree {
    RTCScene scene;
    int part;              /* its number (cloth_pseudo_normals)            */
    int *triangles;        /* the tree's triangle k is the mesh's triangles[k] */
    double lo[3], hi[3];   /* its box, widened by the slack                */
} part_tree;

/* A triangle against the closed parts other than its own. */
enum { CLEAR, MIXED, BURIED };

struct cloth_mesh_obstacle {
    cloth_mesh mesh;
    cloth_pseudo_normals normals;
    double slack;          /* m: single precision's rounding, and some   */
    RTCDevice device;
    RTCScene scene;
    int num_part_trees;    /* the closed parts that meet another part      */
    part_tree *part_trees;
    /* With part trees: per vertex, its signed distance to the other closed
     * parts (the least; negative inside one; exact within its triangles'
     * longest edge, else +-INFINITY), and per triangle whether it is
     * CLEAR of them, BURIED in one, or MIXED. Over a MIXED triangle the
     * corners' values, interpolated, guess which of it is buried (exact
     * against a flat part; a point found there is checked). */
    double *seam_distance;
    unsigned char *burial;
};

/* An exit search passes over at most this many MIXED triangles whose
 * guessed point lies inside another part. */
#define OBSTACLE_MAX_PASSED 32

/* One query's state, shared with Embree's callback. */
typedef struct obstacle_query {
    const cloth_mesh_obstacle *ob;
    const int *map;        /* a part's tree: its triangles' numbers; or NULL */
    double x[3];
    double best2;          /* squared distance to beat                   */
    int triangle, feature; /* the nearest so far; triangle -1 for none   */
    double q[3];
    int exposed_only;      /* only triangles not buried, and of a MIXED one
                            * the part its corners say is not buried; not
                            * the MIXED ones passed over                  */
    int num_passed;
    int passed[OBSTACLE_MAX_PASSED];
} obstacle_query;

/* obstacle_query.c: the nearest triangle of a tree (the mesh's, or a
 * part's with map) within radius of x into *qs (its exposed_only as
 * set): 1, or 0 when none comes that near; and that point as x's surface
 * point (signed distance). */
int obstacle_nearest(const cloth_mesh_obstacle *ob, RTCScene scene, const int *map,
                     const double x[3], double radius, obstacle_query *qs);
void obstacle_surface_point(const cloth_mesh_obstacle *ob, const obstacle_query *qs,
                            const double x[3], cloth_surface_point *p);

/* obstacle_union.c: the part trees and the burial marks (none when no
 * closed part meets another): OK or ERR_NO_MEMORY; and their release. */
int obstacle_union_build(cloth_mesh_obstacle *ob);
void obstacle_union_free(cloth_mesh_obstacle *ob);

/* x inside a closed part other than `own`, within radius of that part's
 * surface: 1, that part's closest point in *p and its triangle in
 * *triangle (of the parts x is inside, the one it leaves soonest); 0
 * when it is inside none that near. */
int obstacle_inside_another_part(const cloth_mesh_obstacle *ob, const double x[3], int own,
                                 double radius, cloth_surface_point *p, int *triangle);

/* 1 when the point q of triangle t lies inside another closed part
 * (BURIED: always; MIXED: asked of the parts' trees). */
int obstacle_point_buried(const cloth_mesh_obstacle *ob, const double q[3], int t);

#endif /* COREPCG_MESH_OBSTACLE_PARTS_H */

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cloth_scene.h -- the scenes (one row each, scene_table.c), what holds
 * the cloth at the start, and the obstacles: spheres and capsules, the
 * body proxy, and static triangle meshes (closest points, pseudo-normals).
 *
 * Conventions: functions return a corepcg status (0 OK, negative error)
 * and write a one-line reason into msg (COREPCG_MSG_SIZE bytes, may be
 * NULL). The library never prints and keeps no global state (cloth.h).
 */
#ifndef COREPCG_CLOTH_SCENE_H
#define COREPCG_CLOTH_SCENE_H

#include "cloth_mesh.h"

/* ------------------------------------------------------------- scenes */

typedef enum cloth_scene {
    CLOTH_SCENE_PINNED = 0, /* grid: horizontal, four corners fixed (ndof 0) */
    CLOTH_SCENE_DRAPE,      /* falls on a static sphere; nodes touching it
                               stick (ndof 0)                              */
    CLOTH_SCENE_BALLHIT,    /* hangs (grid: from its two top corners; mesh:
                               as in hang); a ball flies into it along +y;
                               touching nodes slide on the ball (ndof 2)   */
    CLOTH_SCENE_RAIL,       /* grid: horizontal, its top edge slides along
                               a rail on the x axis (ndof 1); swings down  */
    CLOTH_SCENE_FREE,       /* no constraints (free fall)                  */
    CLOTH_SCENE_HANG,       /* mesh: the vertices within 1 cm of the
                               highest z fixed (ndof 0)                    */
    CLOTH_SCENE_GARMENT,    /* mesh: a garment on the body proxy (spheres
                               and capsules); touching nodes slide (ndof
                               2); self-contact on                         */
    CLOTH_SCENE_DRESSED,    /* mesh: garment's layout, for a garment that
                               fits its body: bench runs it on
                               data/meshes/top.obj with body.obj as its
                               mesh obstacle (most vertices in contact)    */
    CLOTH_SCENE_COUNT
} cloth_scene;

/* "pinned", "drape", "ballhit", "rail", "free", "hang", "garment",
 * "dressed"; from_name reads them in any case (cpg_name_is), -1 for an
 * unknown name. */
const char *cloth_scene_name(int scene);
int cloth_scene_from_name(const char *name);

/* 1 when the scene runs on a grid (pinned, drape, ballhit, rail, free) or
 * on a triangle mesh (hang, ballhit, drape, garment, free); else 0. */
int cloth_scene_on_grid(int scene);
int cloth_scene_on_mesh(int scene);

/* What holds the cloth at the start (scene.c places it). */
typedef enum cloth_hold {
    CLOTH_HOLD_NONE = 0,
    CLOTH_HOLD_CORNERS,     /* grid: the four corners fixed               */
    CLOTH_HOLD_TOP,         /* hung: a grid by its two top corners, a mesh
                               by its vertices within CLOTH_HANG_BAND of
                               the highest z; fixed                        */
    CLOTH_HOLD_RAIL         /* grid: row 0 slides along the x axis        */
} cloth_hold;

/* The obstacle a scene starts with (scene.c places it). */
typedef enum cloth_scene_obstacle {
    CLOTH_OBSTACLE_NONE = 0,
    CLOTH_OBSTACLE_SPHERE_BELOW, /* a static sphere under the cloth;
                                    touching nodes stick                   */
    CLOTH_OBSTACLE_FLYING_BALL,  /* a ball flying along +y into the hung
                                    cloth, stopping after 0.6 s; touching
                                    nodes slide                            */
    CLOTH_OBSTACLE_BODY          /* the body proxy (cloth_body_proxy);
                                    touching nodes slide                   */
} cloth_scene_obstacle;

/* A scene, as one row of scene_table.c: every place that behaves by scene
 * reads its row, so a new scene is a new row. */
typedef struct cloth_scene_row {
    const char *name;
    int on_grid, on_mesh;          /* where it runs                        */
    int upright;                   /* grid: in the x-z plane, top row at
                                      z = 0; else flat in the x-y plane    */
    cloth_hold hold;
    cloth_scene_obstacle obstacle;
    int self_contact;              /* a mesh's default (a grid has none)   */
} cloth_scene_row;

/* The scene's row, or NULL for a value out of range. */
const cloth_scene_row *cloth_scene_describe(int scene);

/* The names of the scenes that run on a grid (where CLOTH_ON_GRID), on a
 * mesh (CLOTH_ON_MESH) or anywhere (both), in the table's order, ", "
 * between them: "drape, ballhit, free, hang, garment". Returns buf. */
#define CLOTH_ON_GRID 1
#define CLOTH_ON_MESH 2
const char *cloth_scene_list(int where, char *buf, size_t len);


/* ---------------------------------------------------------- obstacles */

#define CLOTH_MAX_OBSTACLES 8

/* A sphere (both axis ends equal) or a capsule (the points within radius
 * of the segment between the axis ends), moving with constant velocity
 * until stop_time, then at rest. */
typedef struct cloth_obstacle {
    int sticky;            /* 1: touching nodes stick (ndof 0), 0: slide */
    double radius;
    double end0[2][3];     /* the axis' ends at t = 0                    */
    double velocity[3];
    double stop_time;      /* s                                          */
} cloth_obstacle;

/* The axis' first end (a sphere's centre) at time t, and both ends. */
void cloth_obstacle_center(const cloth_obstacle *ob, double t, double c[3]);
void cloth_obstacle_ends(const cloth_obstacle *ob, double t, double ends[2][3]);

/* With the axis at `ends`: the axis' nearest point q to x and the offset
 * e = x - q; returns |e|. */
double cloth_obstacle_offset(double ends[2][3], const double x[3], double q[3],
                             double e[3]);

/* The outward unit normal p at offset e (length dist); a point on the
 * axis is pushed back against the motion (or up at rest). */
void cloth_obstacle_normal(const cloth_obstacle *ob, const double e[3], double dist,
                           double p[3]);

/* The garment scene's body proxy (z up, the body centred on the z axis,
 * facing -y, arms out along x, feet at z = 0; sizes in m): head, torso,
 * two arms, hips and two legs. Returns the number written to out
 * (CLOTH_MAX_OBSTACLES at most). tools/make_garments.py places its
 * garments around the same numbers. */
int cloth_body_proxy(cloth_obstacle *out);

/* Signed distance from x to the obstacle's surface at time t (negative
 * inside) and the outward unit normal there (`normal` may be NULL). */
double cloth_obstacle_distance(const cloth_obstacle *ob, double t,
                               const double x[3], double normal[3]);

/* ----------------------------------------------------- mesh obstacles */

/* Where on a triangle a closest point lies: its face, corner k
 * (CLOTH_FEATURE_CORNER + k) or its side from corner k to k + 1
 * (CLOTH_FEATURE_SIDE + k). */
#define CLOTH_FEATURE_FACE 0
#define CLOTH_FEATURE_CORNER 1
#define CLOTH_FEATURE_SIDE 4

/* The point q of triangle a b c nearest to x; returns its feature. */
int cloth_triangle_closest(const double a[3], const double b[3], const double c[3],
                           const double x[3], double q[3]);

/* A mesh's outward normals at its features (obstacle_normals.c): each
 * face's; each edge's, the mean of its triangles' (an interior edge's
 * two triangles weigh the same, pi each); each corner's, the sum of its
 * triangles' weighted by their angles there (Baerentzen & Aanaes's
 * pseudo-normal: the sign of (x - q) . n at the closest point q then
 * tells a closed mesh's inside from its outside). Unit vectors. */
typedef struct cloth_pseudo_normals {
    double *face;              /* 3 num_triangles                          */
    double *edge;              /* 3 num_edges                              */
    double *corner;            /* 3 num_vertices                           */
    int *side_edge;            /* 3 num_triangles: each side's edge        */
    unsigned char *edge_border;   /* num_edges: 1 on one triangle only     */
    unsigned char *vertex_border; /* num_vertices: 1 on a border edge      */
    int num_edges;
    int closed;                /* no border edge                           */
    int num_parts;             /* connected pieces (a body's limbs)        */
    int *triangle_part;        /* num_triangles: its piece, 0 .. num_parts-1 */
    unsigned char *part_closed; /* num_parts: 1 when the piece has no border */
} cloth_pseudo_normals;

/* The normals of a checked mesh. ERR_FORMAT naming the triangle
 * (file:line) that runs an edge the same way as its neighbour: its
 * normal would point the other way, and no side would be outside. Each
 * closed part (a connected piece) of negative volume (wound inward) has
 * its normals turned round. */
int cloth_pseudo_normals_build(const cloth_mesh *mesh, cloth_pseudo_normals *pn,
                               char *msg);
void cloth_pseudo_normals_free(cloth_pseudo_normals *pn);

/* An obstacle file's largest size, in vertices and in triangles: its
 * closest-point tree and normals take about 250 bytes a triangle. */
#define CLOTH_OBSTACLE_MAX_ITEMS 2000000L

/* A static triangle mesh as an obstacle (mesh_obstacle.c): its closest
 * points come from an Embree BVH, its normals are the closest point's
 * face normal, or the angle-weighted pseudo-normal of the edge or corner
 * holding it, the same from both triangles of an edge. Outside is where
 * the normals point; each closed part wound inward is turned round. */
typedef struct cloth_mesh_obstacle cloth_mesh_obstacle;

/* Builds one from a checked mesh (copied); ERR_FORMAT naming the
 * triangle (file:line) whose winding disagrees with a neighbour's. */
int cloth_mesh_obstacle_create(const cloth_mesh *mesh, cloth_mesh_obstacle **out,
                               char *msg);
void cloth_mesh_obstacle_free(cloth_mesh_obstacle **ob);

/* Its mesh (z-up, as given). */
const cloth_mesh *cloth_mesh_obstacle_mesh(const cloth_mesh_obstacle *ob);

/* A closest point: q, the outward unit normal there, and the signed
 * distance from x (negative inside: behind the normal at q; a point of
 * an open mesh whose closest point is on its border is outside). */
typedef struct cloth_surface_point {
    double q[3];
    double normal[3];
    double distance;
} cloth_surface_point;

/* 1 and *p when the surface comes within radius of x (INFINITY: always),
 * else 0. The obstacle is the union of its closed parts (a body of
 * overlapping limbs): a point inside one of them is inside, even where
 * another part's surface, buried in the first, is nearer -- when that
 * part's surface is within radius too -- and gets a point on the union's
 * surface, where no part's surface is buried in another: the nearest, or
 * where parts cross (obstacle_union.c) up to about a triangle farther. */
int cloth_mesh_obstacle_closest(const cloth_mesh_obstacle *ob, const double x[3],
                                double radius, cloth_surface_point *p);

#endif /* COREPCG_CLOTH_SCENE_H */

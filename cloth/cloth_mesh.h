/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cloth_mesh.h -- triangle meshes (the cloth's, and mesh obstacles'
 * source): OBJ reading, turning (--up), checks, midpoint subdivision,
 * edges and self-intersections. The lowest of cloth/'s headers: it
 * includes none of the others.
 *
 * Conventions: functions return a corepcg status (0 OK, negative error)
 * and write a one-line reason into msg (COREPCG_MSG_SIZE bytes, may be
 * NULL). The library never prints and keeps no global state (cloth.h).
 */
#ifndef COREPCG_CLOTH_MESH_H
#define COREPCG_CLOTH_MESH_H

#include "corepcg.h"

/* ------------------------------------------------------- triangle mesh */

#define CLOTH_MAX_SUBDIVIDE 6   /* 4^6 = 4096 triangles per original one */

/* A triangle mesh: positions in m (z up) and 0-based triangles. Meshes
 * read from a file remember where each vertex and triangle came from, for
 * messages; the line arrays are NULL for a mesh made in memory (and
 * vertex_line for a subdivided one). */
typedef struct cloth_mesh {
    int num_vertices;
    int num_triangles;
    double *x;           /* 3 num_vertices                               */
    int *triangles;      /* 3 num_triangles                              */
    char *source;        /* the file's name, or NULL                     */
    int *vertex_line;    /* num_vertices: its `v` line, or NULL          */
    int *triangle_line;  /* num_triangles: its `f` line, or NULL         */
} cloth_mesh;

/* The statements an OBJ reading skipped that lose information (not `o`,
 * an object's name): each keyword's lines, in the
 * order the keywords first appear; the lines of keywords past the first
 * CLOTH_OBJ_SKIP_KINDS, or too long or unprintable to name, in
 * other_lines. */
#define CLOTH_OBJ_SKIP_KINDS 12
#define CLOTH_OBJ_KEYWORD_SIZE 16 /* a named keyword's longest, plus its NUL */
typedef struct cloth_obj_skipped {
    int kinds;
    char keyword[CLOTH_OBJ_SKIP_KINDS][CLOTH_OBJ_KEYWORD_SIZE];
    long lines[CLOTH_OBJ_SKIP_KINDS];
    long other_lines;
} cloth_obj_skipped;

/* Counts one skipped line of the statement `keyword` (an `o` line not). */
void cloth_obj_skipped_add(cloth_obj_skipped *skipped, const char *keyword);

/* Every skipped line. */
long cloth_obj_skipped_lines(const cloth_obj_skipped *skipped);

/* "skipped 3546 'vv', 6954 't' lines" (", 5 other" when some went
 * uncounted by name), or "" when nothing was skipped. */
void cloth_obj_skipped_describe(const cloth_obj_skipped *skipped, char *buf,
                                size_t len);

/* Reads a Wavefront OBJ file: `v x y z` (a w or r g b after them is
 * ignored) and `f` lines; a polygon is fanned into triangles from its
 * first vertex; a face corner is v, v/vt, v/vt/vn or v//vn, the texture
 * and normal indices not used; negative indices count back from the last
 * vertex read. Every other statement (vt, vn, vv, l, o, g, s, usemtl,
 * mtllib, t, ..., known or not) and comments are skipped; *skipped (may
 * be NULL) tallies them, also on failure. What cloth_mesh_check refuses,
 * and a malformed v or f line, is refused with a message "FILE:LINE: what
 * is wrong". Vertices keep the file's order; positions are the file's
 * (cloth_mesh_orient turns them). *mesh is empty on failure. The reader
 * prints nothing. */
int cloth_mesh_read_obj_skipping(const char *path, cloth_mesh *mesh,
                                 cloth_obj_skipped *skipped, char *msg);

/* The same, the tally dropped. */
int cloth_mesh_read_obj(const char *path, cloth_mesh *mesh, char *msg);

/* cloth_mesh_read_obj_skipping, keeping at most max_items vertices and
 * max_items triangles: a larger file is read to its end without storing
 * the rest, and refused (ERR_TOO_LARGE) with its counts, so that memory
 * stays bounded whatever the file holds. */
int cloth_mesh_read_obj_bounded(const char *path, long max_items, cloth_mesh *mesh,
                                cloth_obj_skipped *skipped, char *msg);

/* The six directions a file may take as up (--up), in the order of
 * their names "x", "y", "z", "-x", "-y", "-z". */
typedef enum cloth_up {
    CLOTH_UP_X = 0,
    CLOTH_UP_Y,
    CLOTH_UP_Z,
    CLOTH_UP_MINUS_X,
    CLOTH_UP_MINUS_Y,
    CLOTH_UP_MINUS_Z,
    CLOTH_UP_COUNT
} cloth_up;

#define CLOTH_UP_NAMES "x, y, z, -x, -y, -z"

/* "x" ... "-z"; from_name gives -1 for anything else. */
const char *cloth_up_name(int up);
int cloth_up_from_name(const char *name);

/* Turns a mesh whose up is `from` into the one whose up is `to`, in the
 * simulator's frame (z up): cloth_mesh_orient(mesh, CLOTH_UP_Z, up)
 * takes a mesh as read from a file whose up is `up`. The turn is a
 * rotation (a signed permutation of the axes, determinant +1: a
 * triangle's normal turns with it), by 90 degrees about a horizontal
 * axis, or 180 about x from -z. */
void cloth_mesh_orient(cloth_mesh *mesh, cloth_up from, cloth_up to);

/* OK, or ERR_FORMAT naming the first problem: no triangles, a vertex
 * index out of range, a triangle that repeats a vertex or has no area, a
 * coordinate that is not finite, an edge shared by more than two
 * triangles, two triangles on the same three vertices, a vertex on no
 * triangle (it would have no mass). */
int cloth_mesh_check(const cloth_mesh *mesh, char *msg);

/* levels rounds of midpoint subdivision (0..CLOTH_MAX_SUBDIVIDE): each
 * triangle a b c with edge midpoints ab, bc, ca becomes (a, ab, ca),
 * (ab, b, bc), (ca, bc, c), (ab, bc, ca). The old vertices keep their
 * numbers; each edge's midpoint is added once, after them, in the order
 * the edges first appear (triangle by triangle, edges ab, bc, ca). V
 * vertices and E edges give V + E vertices and 4 T triangles per round.
 * A mesh read from a file keeps its source and each triangle the line of
 * the face it came from (its vertex lines only when levels is 0: a
 * midpoint has none). *out (a new mesh; in is unchanged) is empty on
 * failure. */
int cloth_mesh_subdivide(const cloth_mesh *in, int levels, cloth_mesh *out,
                         char *msg);

/* A deep copy (positions and triangles; no line numbers). */
int cloth_mesh_copy(const cloth_mesh *in, cloth_mesh *out, char *msg);

void cloth_mesh_free(cloth_mesh *mesh);

/* The unique edges of a checked mesh, sorted by (a, b), a < b; opposite[]
 * holds the vertex opposite the edge in each of its triangles (-1 when it
 * has one: a boundary edge). */
typedef struct cloth_edge {
    int a, b;
    int opposite[2];
} cloth_edge;

/* *edges is malloc'ed (free it); on failure NULL. side_edge (may be
 * NULL; 3 num_triangles) receives the edge of each triangle's side k,
 * from corner k to corner k + 1. ERR_FORMAT as in cloth_mesh_check for
 * an edge of more than two triangles or two triangles on the same three
 * vertices. */
int cloth_mesh_edges(const cloth_mesh *mesh, cloth_edge **edges,
                     int *num_edges, int *side_edge, char *msg);

/* "FILE:LINE" of triangle t, or "triangle t+1" for a mesh made in
 * memory, into buf. */
const char *cloth_mesh_triangle_place(const cloth_mesh *mesh, int t, char *buf,
                                      size_t len);

/* Area of triangle t; longest2 (may be NULL) gets its longest side
 * squared. */
double cloth_mesh_triangle_area(const cloth_mesh *mesh, int t, double *longest2);

/* Bounding box of the vertices. */
void cloth_mesh_bounds(const cloth_mesh *mesh, double lo[3], double hi[3]);

/* Where a mesh passes through itself (self_intersect.c): an edge crossing
 * a triangle that shares no vertex with it (borders included; an edge in
 * the triangle's plane does not cross it). Found through Embree's tree of
 * the mesh, each hit confirmed in double. */
typedef struct cloth_self_intersection {
    long pairs;          /* distinct triangle pairs that cross (an edge's
                            triangle with the triangle it crosses)        */
    long crossings;      /* (edge, triangle) crossings                    */
    int capped;          /* 1: more pairs than were stored: at least pairs */
    int triangle[2];     /* an example (-1 for none): triangle[0] holds the
                            edge that crosses triangle[1]                 */
    int edge[2];         /* that edge's vertices                          */
    double point[3];     /* where it crosses                              */
} cloth_self_intersection;

/* OK (out->pairs 0 when the mesh does not cross itself), ERR_NO_MEMORY, or
 * ERR_FORMAT as cloth_mesh_edges; msg says which. */
int cloth_mesh_self_intersections(const cloth_mesh *mesh, cloth_self_intersection *out,
                                  char *msg);

#endif /* COREPCG_CLOTH_MESH_H */

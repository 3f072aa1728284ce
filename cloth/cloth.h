/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cloth.h -- the cloth simulator (mass-spring, or FEM on a mesh) that
 * feeds corepcg real systems (docs/design.md, "The simulator"; Ye,
 * Webber & Wang §5).
 *
 * The model
 *   A cloth is a set of nodes joined by springs, built from one of two
 *   sources:
 *
 *   - An m x m Provot grid, a flat square of side `side` (default 1 m),
 *     node i = r m + c at row r, column c. Springs join a node to its 4
 *     neighbours (stretch), 4 diagonals (shear) and the nodes two apart
 *     along rows and columns (bend). Every node has the mass `mass`.
 *   - A triangle mesh (cloth_mesh, e.g. read from an OBJ file), its
 *     vertices the nodes in the file's order. Stretch springs on the unique
 *     edges, a bending spring across each interior edge (between the two
 *     vertices opposite it), no shear springs (the triangles' edges
 *     resist shear). Each triangle gives a third of its area times
 *     `density` to each of its vertices. Rest lengths come from the
 *     file's positions, which are also the starting ones.
 *
 *   The stretch springs are the system's stretch pairs (stretch.mtx).
 *   With self-contact on, two vertices closer than the thickness that no
 *   fixed spring joins, and that were not that close at the start, push
 *   each other apart through a repulsion spring (rest length the
 *   thickness, stiffness k_contact) found afresh every step, so A's
 *   pattern changes with them (self_contact.c).
 *
 *   A spring a-b with rest length L, stiffness k and damping
 *   kd = damping * k pulls node a with
 *
 *       f_a = -(k (l - L) + kd (v_ab . d)) d,   d = (x_a - x_b) / l,
 *
 *   v_ab = v_a - v_b, and f_b = -f_a. Its stiffness Jacobian is
 *   dF_a/dx_a = -Kx with Kx = k [d d^T + max(0, 1 - L/l) (I - d d^T)]: the
 *   clamp drops the indefinite term of a compressed spring so that A stays
 *   SPD. Its damping Jacobian is dF_a/dv_a = -kd d d^T (the x-derivative of
 *   the damping force is dropped, as Baraff & Witkin do). Gravity pulls
 *   every node along -z (z is up).
 *
 *   Semi-implicit backward Euler in the symmetric mass-scaled form:
 *
 *       A = M - h dF/dv - h^2 dF/dx,   b = h (f + h dF/dx v),   A dv = b,
 *
 *   then v += dv, x += h v. Each spring adds B = h kd d d^T + h^2 Kx to the
 *   blocks (a,a) and (b,b) and -B to (a,b), (b,a), so A = M + sum of
 *   positive semidefinite terms is SPD.
 *
 *   The FEM model (--model fem, meshes only; docs/design.md, "The FEM
 *   cloth") replaces the mesh's fixed springs by constant-strain StVK
 *   membranes on the triangles and discrete-shell hinges on the interior
 *   edges (fem_membrane.c, fem_bending.c, fem_model.c), with Rayleigh
 *   damping C = alpha M + beta K and the same backward Euler step:
 *
 *       A = (1 + h alpha) M + (h beta + h^2) K,   b = h (f - h K v),
 *
 *   K the sum of the elements' PSD stiffness blocks. The springs of the
 *   mesh model stay in the model as its pattern (a hinge couples the
 *   edge's two vertices and the two opposite ones: exactly the stretch
 *   and bending springs' pairs) and for self-contact, which adds its
 *   repulsion springs as in the spring model.
 *
 * Conventions: functions return a corepcg status (0 OK, negative error)
 * and write a one-line reason into msg (COREPCG_MSG_SIZE bytes, may be
 * NULL). The library never prints and keeps no global state.
 */
#ifndef COREPCG_CLOTH_H
#define COREPCG_CLOTH_H

#include "corepcg.h"

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

/* ------------------------------------------------------- triangle mesh */

#define CLOTH_MAX_SUBDIVIDE 6   /* 4^6 = 4096 triangles per original one */

/* A triangle mesh: positions in m (z up) and 0-based triangles. Meshes
 * read from a file remember where each vertex and triangle came from, for
 * messages; the line arrays are NULL for a mesh made in memory. */
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
 * *out (a new mesh; in is unchanged) is empty on failure. */
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

/* --------------------------------------------------------- parameters */

#define CLOTH_MIN_SIZE 3
#define CLOTH_MAX_SIZE 2049
#define CLOTH_HANG_BAND 0.01 /* m: hang holds the vertices this close to the top */

/* Ye et al.'s settings, plus the documented choices where they are silent. */
#define CLOTH_DEFAULT_SIDE 1.0        /* m: the square's side               */
#define CLOTH_DEFAULT_MASS 9.5e-6     /* kg per node (Ye et al.)            */
#define CLOTH_DEFAULT_DENSITY 0.15    /* kg/m^2 on a mesh: a light cotton
                                         jersey (T-shirts are 0.12-0.2)     */
#define CLOTH_DEFAULT_K_STRETCH 600.0 /* N/m (Ye et al.: 60 / 600 / 6000)   */
#define CLOTH_DEFAULT_K_SHEAR 0.3     /* N/m (Ye et al.)                    */
#define CLOTH_DEFAULT_K_BEND 0.05     /* N/m (Ye et al.)                    */
#define CLOTH_DEFAULT_K_CONTACT 600.0 /* N/m: self-contact repulsion        */
#define CLOTH_DEFAULT_DAMPING 1e-3    /* s: every spring has kd = 1e-3 s * k */
#define CLOTH_DEFAULT_GRAVITY 9.81    /* m/s^2 along -z                     */
#define CLOTH_DEFAULT_MARGIN 0.1      /* contact margin, in spacings        */
#define CLOTH_DEFAULT_POISSON 0.3     /* FEM: a woven cotton's in-plane
                                         Poisson ratio                      */
#define CLOTH_DEFAULT_BENDING 1e-5    /* N m: FEM bending stiffness, a
                                         light cotton (cloth: 1e-6..1e-4)   */
#define CLOTH_DEFAULT_THICKNESS 1.0   /* self-contact distance, in spacings:
                                         vertex-vertex repulsion must stop
                                         layers whose vertices are offset by
                                         up to an edge from passing through */

typedef struct cloth_params {
    cloth_scene scene;
    const cloth_mesh *mesh; /* NULL: the grid; else the triangle mesh,
                               read during cloth_sim_create only           */
    int size;           /* grid: m, nodes per side, CLOTH_MIN_SIZE..MAX_SIZE;
                           mesh: unused                                    */
    double side;        /* grid: m; > 0                                    */
    double mass;        /* grid: kg per node; > 0                          */
    double density;     /* mesh: kg/m^2; > 0                               */
    int model;          /* cloth_force_model: the row of its forces        */
    double k_stretch, k_shear, k_bend; /* N/m; >= 0 (k_shear: grid only;
                           fem: k_stretch is the 2D Young's modulus, the
                           other two unused)                               */
    double poisson;     /* fem: Poisson ratio, in (-1, 0.5)                */
    double bending;     /* fem: discrete-shell bending stiffness, N m; >= 0 */
    double damping;     /* s; kd = damping * k for every spring; >= 0; fem:
                           Rayleigh beta (C = mass_damping M + damping K)  */
    double mass_damping; /* fem: Rayleigh alpha, 1/s; >= 0                  */
    double dt;          /* s; > 0                                          */
    double gravity;     /* m/s^2 along -z; >= 0                            */
    double margin;      /* contact when the distance to an obstacle's
                           surface is < margin * spacing; >= 0             */
    int self_contact;   /* 1: repulsion springs between close vertices     */
    double k_contact;   /* N/m; >= 0                                       */
    double thickness;   /* self-contact below thickness * spacing; > 0     */
    int num_obstacle_meshes; /* static triangle-mesh obstacles, z-up, beside
                           the scene's own; touching nodes slide        */
    const cloth_mesh *obstacle_meshes; /* checked meshes, borrowed during
                           cloth_sim_create only (as mesh)              */
} cloth_params;

/* The step for a grid size: Ye et al.'s 6.67 / 5.55 / 3.67 ms for 41 / 81
 * / 161, linear in m between those sizes, constant beyond them. A mesh of
 * N vertices takes the step of a grid of sqrt(N) a side. */
double cloth_default_dt(int size);

/* Fills every field with the defaults above for a grid of size m (dt from
 * cloth_default_dt(size), mesh NULL, self-contact off). */
void cloth_params_default(cloth_params *p, cloth_scene scene, int size);

/* The same for a mesh (borrowed; size 0, dt for its vertex count,
 * self-contact on in the garment scene only). */
void cloth_params_default_mesh(cloth_params *p, cloth_scene scene,
                               const cloth_mesh *mesh);

/* OK, or ERR_ARGUMENT naming the first field out of range (a scene that
 * does not run on the given source included). */
int cloth_params_check(const cloth_params *p, char *msg);

/* ---------------------------------------------- described parameters */

/* The force models' parameters, each described once (params.c): the
 * defaults, the one range check and its message, and gen's, simulate's
 * and bench's options and --help come from the descriptions. A force
 * model's row says which it reads (cloth_force_model_takes). */
typedef enum cloth_param {
    CLOTH_PARAM_POISSON = 0,  /* --help lists the options in this order */
    CLOTH_PARAM_BENDING,
    CLOTH_PARAM_MASS_DAMPING,
    CLOTH_PARAM_K_STRETCH,
    CLOTH_PARAM_K_SHEAR,
    CLOTH_PARAM_K_BEND,
    CLOTH_PARAM_DAMPING,
    CLOTH_PARAM_COUNT
} cloth_param;

/* The largest stiffness or damping an option takes. */
#define CLOTH_PARAM_MAX 1e12

typedef struct cloth_param_info {
    const char *name;      /* cloth_params' field ("poisson")                */
    const char *flag;      /* gen's and simulate's option ("--poisson"), or
                              NULL: set in cloth_params only               */
    const char *value;     /* the option's value in --help ("NU")            */
    double min, max;       /* the range; an infinite end is always open      */
    int min_open, max_open; /* 1: that end excluded                          */
    double default_value;
    const char *unit;      /* "N m"; "" for none                             */
    const char *help;      /* what it is ("Poisson ratio")                   */
    const char *note;      /* said after the default in --help, or NULL      */
} cloth_param_info;

/* The description, or NULL for a number out of range. */
const cloth_param_info *cloth_param_describe(int param);

/* The parameter's field in p. */
double cloth_param_get(const cloth_params *p, int param);
void cloth_param_set(cloth_params *p, int param, double value);

/* Its range as messages and --help say it: "[0, 1e+12]", "[0, inf)",
 * "(-1, 0.5), both ends excluded". Returns buf. */
const char *cloth_param_range(int param, char *buf, size_t len);

/* The one range check: OK, or ERR_ARGUMENT with msg "--poisson 0.7: must
 * be in (-1, 0.5), both ends excluded" (the flag, or the name when it has
 * none; text: the value as the user wrote it, or NULL to print value).
 * NaN and infinities are out of every range. */
int cloth_param_check(int param, double value, const char *text, char *msg);

/* -------------------------------------------------------- force models */

struct cloth_sim;

/* A force model is a row (force_model.c lists them; each row's ops sit in
 * the model's own files): what it is called, what it reads, and how it
 * adds its forces to a step's system. The generic code (sim.c,
 * assemble.c) calls through the row only. */
typedef struct cloth_force_model_ops {
    const char *name;        /* --model's value: "springs"                  */
    const char *description; /* one line for --help                         */
    int needs_mesh;          /* 1: runs on a triangle mesh, not the grid    */
    unsigned params;         /* CLOTH_PARAM_BIT of each parameter it reads   */
    /* After the model (nodes, masses, springs, pattern) is built from mesh
     * (NULL for the grid): the model's own state in sim->force. May be
     * NULL (no state). OK, or an error with msg. */
    int (*build)(struct cloth_sim *sim, const cloth_mesh *mesh, char *msg);
    /* A step's A (values zeroed before) and b: masses, gravity, its
     * forces and this step's contact springs (cloth_add_inertia and
     * cloth_add_springs are the shared parts). */
    void (*add_system)(struct cloth_sim *sim);
    /* Its potential energy at the current positions, J. */
    double (*energy)(const struct cloth_sim *sim);
    /* Frees sim->force. May be NULL (no state). */
    void (*free)(struct cloth_sim *sim);
    /* What gen and simulate add to their summary line: ", fem (nu 0.3,
     * bending 1e-05 N m)", or "" for nothing. */
    void (*summary)(const cloth_params *par, char *buf, size_t len);
} cloth_force_model_ops;

#define CLOTH_PARAM_BIT(param) (1u << (param))

/* The built-in rows' numbers; a row added to the table is numbered after
 * them (cloth_force_model_count). */
typedef enum cloth_force_model {
    CLOTH_MODEL_SPRINGS = 0,
    CLOTH_MODEL_FEM
} cloth_force_model;

/* The rows, numbered 0 .. count - 1; describe gives NULL for any other
 * number. name: "unknown" out of range; from_name reads any case, -1 for
 * an unknown name. */
int cloth_force_model_count(void);
const cloth_force_model_ops *cloth_force_model_describe(int model);
const char *cloth_force_model_name(int model);
int cloth_force_model_from_name(const char *name);

/* 1 when the model reads param, else 0. */
int cloth_force_model_takes(int model, int param);

/* The models' names, sep between them ("springs, fem"). Returns buf. */
const char *cloth_force_model_list(const char *sep, char *buf, size_t len);

/* ------------------------------------------------------------- springs */

typedef enum cloth_spring_kind {
    CLOTH_STRETCH = 0,
    CLOTH_SHEAR,
    CLOTH_BEND,
    CLOTH_CONTACT,      /* self-contact repulsion (this step only) */
    CLOTH_SPRING_KINDS
} cloth_spring_kind;

/* One spring a-b (a < b). pos[c] is the index in the lower-triangle CSC
 * values of entry (3b, 3a + c); rows 3b+1, 3b+2 follow it. */
typedef struct cloth_spring {
    int a, b;
    int kind;
    int pos[3];
    double rest;
} cloth_spring;

/* Force on node a (f_b = -f_a) and the two 3x3 Jacobian blocks, column-
 * major: Kx (dF_a/dx_a = -Kx, clamped as above) and Kv (dF_a/dv_a = -Kv).
 * A spring shorter than 1e-12 L exerts nothing (no direction). Kx, Kv may
 * be NULL. */
void cloth_spring_eval(const double xa[3], const double xb[3],
                       const double va[3], const double vb[3], double k,
                       double kd, double rest, double fa[3], double Kx[9],
                       double Kv[9]);

/* --------------------------------------------------------------- model */

/* The nodes, springs and matrix pattern of a cloth, from a grid or a
 * mesh. The fixed springs never change; self-contact springs follow them
 * in springs[] and change every step, and the pattern with them. */
typedef struct cloth_model {
    int N, n;              /* nodes, 3N unknowns                           */
    double spacing;        /* grid: side / (m - 1); mesh: the mean edge    */
    double *mass;          /* N: kg                                        */
    int face_size;         /* 4 (grid quads) or 3 (mesh triangles)         */
    int num_faces;
    int *faces;            /* face_size num_faces node indices (output)    */
    int num_fixed;         /* stretch, shear and bend springs: springs[0..) */
    int num_springs;       /* fixed + this step's contact springs          */
    int spring_capacity;
    cloth_spring *springs; /* fixed: by a, then b ascending                 */
    int num_stretch;
    int *stretch_pairs;    /* 2 num_stretch node indices                   */
    int *near_ptr, *near;  /* N + 1 and 2 num_fixed: each node's spring
                              neighbours, ascending (self-contact skips them) */
    int nnz;               /* stored entries of the lower triangle         */
    int nnz_capacity;
    int *colptr;           /* n + 1                                        */
    int *rowidx;           /* nnz, ascending within each column            */
} cloth_model;

/* The m x m grid of side `side`, mass per node. */
int cloth_grid_build(int m, double side, double mass, cloth_model *g,
                     char *msg);

/* A checked mesh (cloth_mesh_check), density in kg/m^2. */
int cloth_mesh_build(const cloth_mesh *mesh, double density, cloth_model *g,
                     char *msg);

/* Allocates (zeroed mass) the arrays of a model of N nodes with `springs`
 * fixed springs, `stretch` of them stretch, and `faces` faces of face_size
 * nodes; sets the counts. */
int cloth_model_alloc(cloth_model *g, int N, long springs, long stretch,
                      int face_size, long faces, char *msg);

/* Lays out colptr, rowidx and every spring's pos for springs[0 ..
 * num_springs) (nodes with the same pair share their entries), growing
 * the arrays when needed. */
int cloth_model_pattern(cloth_model *g, char *msg);

void cloth_model_free(cloth_model *g);

/* ----------------------------------------------------------------- FEM */

/* Plane-stress Lame parameters from a 2D Young's modulus k (N/m) and a
 * Poisson ratio nu: mu = k / (2 (1 + nu)), lambda = k nu / (1 - nu^2). */
void cloth_fem_lame(double k, double nu, double *mu, double *lambda);

/* A constant-strain triangle: F = sum_v x_v d_v^T (3x2) is its
 * deformation gradient, W = area (mu |E|^2 + lambda/2 tr(E)^2) its StVK
 * energy on the Green strain E = (F^T F - I) / 2. */
typedef struct cloth_membrane {
    int v[3];           /* its vertices                                    */
    int pair[3];        /* the fixed spring of each vertex pair (0 1, 0 2,
                           1 2): where the pair's block lands in A         */
    double d[3][2];     /* dF/dx_v; d_0 = -(d_1 + d_2)                     */
    double area;        /* at rest, m^2                                    */
} cloth_membrane;

/* The rest shape of a triangle from its vertices X (9 doubles, the three
 * positions), flattened into its plane; -1 (t unchanged) when it has no
 * area (as cloth_mesh_check measures a sliver). */
int cloth_membrane_rest(const double X[9], cloth_membrane *t);

/* The energy at positions x (9 doubles); its gradient (9) and its exact
 * Hessian (81, symmetric) when not NULL. */
double cloth_membrane_eval(const cloth_membrane *t, double mu, double lambda,
                           const double x[9], double grad[9], double hess[81]);

/* 1 when the triangle's Hessian at x is known to be positive semidefinite
 * (to the rounding cloth_psd_project leaves) without looking at it: the
 * Green strain is (its eigenvalues >= -1e-13), and lambda >= 0; then
 * every term of the Hessian is. */
int cloth_membrane_surely_psd(const cloth_membrane *t, double lambda,
                              const double x[9]);

/* A discrete-shell hinge across an interior edge x0-x1, x2 the vertex
 * opposite it in one triangle and x3 in the other:
 *   n1 = (x1 - x0) x (x2 - x0),  n2 = (x3 - x0) x (x1 - x0),
 *   theta = atan2((n1 x n2) . e^, n1 . n2)    (0 when flat),
 *   W = bending weight (theta - theta0)^2 with
 *   weight = |e|^2 / (3 (A1 + A2)) at rest. */
typedef struct cloth_hinge {
    int v[4];           /* x0, x1 (the edge), x2, x3 (opposite)            */
    int pair[6];        /* the fixed spring of each vertex pair (0 1, 0 2,
                           0 3, 1 2, 1 3, 2 3)                             */
    double rest_angle;  /* theta0, from the mesh                           */
    double weight;      /* |e|^2 / (3 (A1 + A2)) at rest (no unit)       */
} cloth_hinge;

/* theta0 and the weight from the rest positions X (12 doubles); -1 when a
 * triangle of the hinge has no area. */
int cloth_hinge_rest(const double X[12], cloth_hinge *e);

/* The dihedral angle at x (12 doubles) and its gradient (12, may be NULL;
 * zero when a triangle has collapsed and the angle has no direction). */
double cloth_hinge_angle(const double x[12], double grad[12]);

/* The energy at x; its gradient (12) and its Gauss-Newton Hessian
 * 2 kb weight g g^T (144; g the angle's gradient) when not NULL. The
 * angle's change from rest is taken in (-pi, pi]. */
double cloth_hinge_eval(const cloth_hinge *e, double kb, const double x[12],
                        double grad[12], double gn_hess[144]);

/* Projects the symmetric n x n matrix H (n <= 12) onto the positive
 * semidefinite cone: eigenvalues below zero become zero. H is left
 * untouched, and 0 returned, when its smallest eigenvalue is not below
 * -1e-12 times its largest magnitude (a PSD matrix with rounding in its
 * null space); 1 when projected; -1 when the eigensolver fails on a NaN
 * or an infinity (H is then zeroed: no stiffness rather than a wrong
 * one). */
int cloth_psd_project(double *H, int n);

/* The same for the Hessian H (3 count square, count <= 4) of an element
 * on `count` vertices whose energy a translation does not change: the
 * three translations are in its null space, so the eigenvalues are found
 * on the motions orthogonal to them (3 (count - 1) square, a smaller
 * eigenproblem); the result is cloth_psd_project's up to rounding. */
int cloth_psd_project_element(double *H, int count);

/* The FEM elements of a mesh model. */
typedef struct cloth_fem {
    int num_membranes;
    cloth_membrane *membranes;
    int num_hinges;
    cloth_hinge *hinges;
} cloth_fem;

/* The membranes (one per triangle) and hinges (one per interior edge) of
 * a checked mesh whose model g cloth_mesh_build made (its fixed springs
 * give each vertex pair's place in A). ERR_FORMAT naming the triangle
 * (file:line when read from one) that has no rest area. */
int cloth_fem_build(const cloth_mesh *mesh, const cloth_model *g, cloth_fem *fem,
                    char *msg);
void cloth_fem_free(cloth_fem *fem);

/* out = the positions (or velocities) x of the `count` vertices v, 3 each. */
void cloth_fem_gather(const double *x, const int *v, int count, double *out);

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
} cloth_pseudo_normals;

/* The normals of a checked mesh. ERR_FORMAT naming the triangle
 * (file:line) that runs an edge the same way as its neighbour: its
 * normal would point the other way, and no side would be outside. A
 * closed mesh of negative volume (wound inward) has its normals turned
 * round. */
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
 * the normals point; a closed mesh wound inward is turned round. */
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
 * else 0. */
int cloth_mesh_obstacle_closest(const cloth_mesh_obstacle *ob, const double x[3],
                                double radius, cloth_surface_point *p);

/* --------------------------------------------------------- simulation */

typedef struct cloth_sim {
    cloth_params par;      /* par.mesh is NULL after create (not kept)     */
    cloth_model model;
    void *force;           /* the force model's state (its row's build), or
                              NULL                                         */
    int num_obstacles;
    cloth_obstacle obstacles[CLOTH_MAX_OBSTACLES];
    int num_mesh_obstacles; /* par's obstacle meshes, built at create     */
    cloth_mesh_obstacle **mesh_obstacles;
    double h;              /* = par.dt                                     */
    double t;              /* time at the start of the next step           */
    int step;              /* steps completed                              */
    double *x, *v;         /* 3N positions and velocities                  */
    double *x_rest;        /* 3N starting positions (self-contact skips
                              pairs that were close there)                 */
    unsigned char *held;   /* N: ndof the scene leaves each node: 3 free,
                              0 pinned (z = -v), 1 on the rail            */

    /* The current step's system (cloth_assemble fills it). */
    double *values;        /* model.nnz values of A's lower triangle       */
    int values_capacity;
    double *b;             /* 3N                                           */
    double *z;             /* 3N                                           */
    corepcg_constraint *cons; /* by node; capacity N                       */
    int num_cons;
    int contacts;          /* nodes touching an obstacle                   */
    int self_contacts;     /* self-contact springs                         */
    int pattern_changed;   /* 1 when this step's self-contact springs are
                              not the last step's: A's pattern changed    */
    int ndof_count[3];     /* constrained nodes with ndof 0, 1, 2          */
    double obstacle_c[CLOTH_MAX_OBSTACLES][3]; /* first axis end at the
                                                  step's start            */
    double obstacle_v[CLOTH_MAX_OBSTACLES][3]; /* velocity over the step  */

    /* Self-contact's spatial hash (self_contact.c), kept between steps. */
    int *hash_head, *hash_next, hash_size;
    long *hash_cell;       /* 3N cell coordinates                          */

    /* The solver in the loop. */
    double *dv;            /* the last answer (zero before the first step) */
    double *dv_next;       /* scratch for the next answer                  */
    corepcg_solver *solver;
    int solver_ready;      /* 1 after a successful corepcg_setup           */
    corepcg_info info;     /* of the last solve                            */
    int analysis_reused;   /* 1 when the last update kept the analysis     */
    double time_assemble_s, time_solve_s; /* of the last step              */
} cloth_sim;

/* Builds the model, the initial state and the obstacles of par's scene. */
int cloth_sim_create(const cloth_params *par, cloth_sim **out, char *msg);
void cloth_sim_free(cloth_sim **sim);

/* The part of cloth_sim_create in scene.c: the nodes' starting positions
 * (and x_rest), what the scene holds, its obstacles. mesh: par's, or NULL
 * for the grid. */
void cloth_scene_start(cloth_sim *sim, const cloth_mesh *mesh);

/* OK, or ERR_ARGUMENT when the scene's start leaves nothing to simulate:
 * more than half the nodes fixed (held by the scene or stuck to an
 * obstacle), or none free (ndof 3). The message says how many and why
 * ("fixed 289 of 289 vertices: the mesh's highest 1 cm holds all of
 * it"). Refused first: a cloth of which any vertex starts strictly
 * inside an obstacle (the message holds CLOTH_START_INSIDE: "317 of
 * 3546 vertices start inside the scene's body proxy"), since the
 * obstacle would throw them out through the cloth. cloth_sim_create
 * refuses such a scene. Fills the state's constraints (cloth_constrain). */
#define CLOTH_START_INSIDE "start inside"
int cloth_scene_check(cloth_sim *sim, char *msg);

/* The first up axis (in the order y, z, x, -y, -z, -x), other than
 * `current`, under which par's scene on par->mesh -- a mesh read with up
 * `current` -- would start (cloth_scene_check), or -1 when none would or
 * par has no mesh. */
int cloth_scene_suggest_up(const cloth_params *par, cloth_up current);

/* Detects contacts (obstacles and, when on, self-contact) at the current
 * state and fills values, b, cons, z. OK, or ERR_NO_MEMORY when the
 * self-contact springs' arrays cannot grow. */
int cloth_assemble(cloth_sim *sim, char *msg);

/* The parts of cloth_assemble and cloth_advance that handle the scene's
 * constraints: records (by node) and z for the current state, and the
 * projection of nodes inside an obstacle onto its surface. */
void cloth_constrain(cloth_sim *sim);
void cloth_push_out(cloth_sim *sim);

/* Finds this step's self-contact springs (after the fixed ones) and lays
 * out the pattern when they changed. */
int cloth_self_contact(cloth_sim *sim, char *msg);

/* A view of the assembled system (arrays borrowed from sim). */
void cloth_system(const cloth_sim *sim, corepcg_system *sys);

/* Solves the assembled system through corepcg.h only: setup at the first
 * call, update afterwards, the previous answer as the guess. On success
 * the answer is in sim->dv_next and sim->info describes the solve.
 * settings may be NULL (defaults); they are read at the first call. */
int cloth_solve(cloth_sim *sim, const corepcg_settings *settings, char *msg);

/* v += dv_next, x += h v, pushes nodes out of the obstacles, t += h; the
 * answer becomes the next guess (swapped into dv). */
void cloth_advance(cloth_sim *sim);

/* assemble + solve + advance. Returns the solve's status (warnings pass
 * through: the step is taken). */
int cloth_step(cloth_sim *sim, const corepcg_settings *settings, char *msg);

/* 0.5 sum m_i |v_i|^2. */
double cloth_kinetic_energy(const cloth_sim *sim);

/* The force model's potential energy at the current positions (its
 * row's energy), J. */
double cloth_force_energy(const cloth_sim *sim);

/* The parts of a step's system the force models share (assemble.c): the
 * masses on A's diagonal and gravity in b (b's other entries zeroed), and
 * the springs springs[first .. num_springs) (the fixed ones from 0, this
 * step's contact springs from num_fixed). */
void cloth_add_inertia(cloth_sim *sim);
void cloth_add_springs(cloth_sim *sim, int first);

/* fem: the elements of a simulation built with --model fem, else NULL. */
const cloth_fem *cloth_sim_fem(const cloth_sim *sim);

/* fem: the elements' energy at the current positions. */
double cloth_fem_energy(const cloth_sim *sim);

/* fem: its row's add_system: (1 + h alpha) M and Rayleigh's -h alpha M v
 * with gravity, this step's contact springs, then the elements' stiffness
 * and forces. */
void cloth_fem_assemble(cloth_sim *sim);

/* ---------------------------------------------------------- output */

/* An OBJ of the cloth (object "cloth": the grid's quads or the mesh's
 * triangles, nodes in the model's order) and each obstacle at the current
 * time (objects "obstacle1", ...: UV spheres and capsules; "mesh1", ...:
 * the mesh obstacles). Written under
 * a temporary name and renamed when complete. */
int cloth_write_obj(const cloth_sim *sim, const char *path, char *msg);

#endif /* COREPCG_CLOTH_H */

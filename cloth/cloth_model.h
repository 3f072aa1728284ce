/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cloth_model.h -- the cloth's forces: the parameters (the force models'
 * described once), springs, the model (nodes, masses, springs, A's
 * pattern) from a grid or a mesh, the FEM elements, and the force models'
 * rows (docs/design.md, "The simulator", "Adding a force model"; Ye,
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
 * NULL). The library never prints and keeps no global state (cloth.h).
 */
#ifndef COREPCG_CLOTH_MODEL_H
#define COREPCG_CLOTH_MODEL_H

#include "cloth_mesh.h"
#include "cloth_scene.h"

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

/* The least height of a membrane's rest triangle, as a fraction of its
 * longest edge (2 area / longest^2). A sliver's stiffness grows as
 * 1/height, and the rounding its Hessian's PSD projection leaves
 * (~1e-14 of it) with it: on a 480-vertex tube with one sliver A was
 * no longer positive definite at 3e-10 (k_stretch 600 to 6e6; at 1e-9 it
 * was), and auto's solves slowed from 2e-6 down. The shipped meshes'
 * least is 8.5e-3 (body.obj; the garments 0.29), kept by subdivision. */
#define CLOTH_FEM_MIN_HEIGHT 3e-6

/* The membranes (one per triangle) and hinges (one per interior edge) of
 * a checked mesh whose model g cloth_mesh_build made (its fixed springs
 * give each vertex pair's place in A). ERR_FORMAT naming the triangle
 * (file:line when read from one; with subdivision the face's line) that
 * is thinner than CLOTH_FEM_MIN_HEIGHT, has no rest area, or one too
 * large for a double. */
int cloth_fem_build(const cloth_mesh *mesh, const cloth_model *g, cloth_fem *fem,
                    char *msg);
void cloth_fem_free(cloth_fem *fem);

/* out = the positions (or velocities) x of the `count` vertices v, 3 each. */
void cloth_fem_gather(const double *x, const int *v, int count, double *out);


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

#endif /* COREPCG_CLOTH_MODEL_H */

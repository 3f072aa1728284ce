/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cloth.h -- the mass-spring cloth simulator that feeds corepcg real
 * systems (docs/design.md, "The simulator"; Ye, Webber & Wang §5).
 *
 * The model
 *   An m x m Provot grid, a flat square of side `side` (default 1 m), node
 *   i = r m + c at row r, column c. Springs join a node to its 4 neighbours
 *   (stretch), 4 diagonals (shear) and the nodes two apart along rows and
 *   columns (bend). A spring a-b with rest length L, stiffness k and
 *   damping kd = damping * k pulls node a with
 *
 *       f_a = -(k (l - L) + kd (v_ab . d)) d,   d = (x_a - x_b) / l,
 *
 *   v_ab = v_a - v_b, and f_b = -f_a. Its stiffness Jacobian is
 *   dF_a/dx_a = -Kx with Kx = k [d d^T + max(0, 1 - L/l) (I - d d^T)]: the
 *   clamp drops the indefinite term of a compressed spring so that A stays
 *   SPD. Its damping Jacobian is dF_a/dv_a = -kd d d^T (the x-derivative of
 *   the damping force is dropped, as Baraff & Witkin do). Gravity pulls
 *   every node along -z.
 *
 *   Semi-implicit backward Euler in the symmetric mass-scaled form:
 *
 *       A = M - h dF/dv - h^2 dF/dx,   b = h (f + h dF/dx v),   A dv = b,
 *
 *   then v += dv, x += h v. Each spring adds B = h kd d d^T + h^2 Kx to the
 *   blocks (a,a) and (b,b) and -B to (a,b), (b,a), so A = M + sum of
 *   positive semidefinite terms is SPD.
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
    CLOTH_SCENE_PINNED = 0, /* horizontal, four corners fixed (ndof 0)     */
    CLOTH_SCENE_DRAPE,      /* horizontal, falls on a static sphere; nodes
                               touching it stick (ndof 0)                  */
    CLOTH_SCENE_BALLHIT,    /* vertical, hangs from its two top corners; a
                               ball flies into it; touching nodes slide on
                               the ball (ndof 2)                           */
    CLOTH_SCENE_RAIL,       /* horizontal, its top edge slides along a rail
                               on the x axis (ndof 1); swings down         */
    CLOTH_SCENE_FREE,       /* horizontal, no constraints (free fall)      */
    CLOTH_SCENE_COUNT
} cloth_scene;

/* "pinned", "drape", "ballhit", "rail", "free"; from_name gives -1 for an
 * unknown name. */
const char *cloth_scene_name(int scene);
int cloth_scene_from_name(const char *name);

/* --------------------------------------------------------- parameters */

#define CLOTH_MIN_SIZE 3
#define CLOTH_MAX_SIZE 2049

/* Ye et al.'s settings, plus the documented choices where they are silent. */
#define CLOTH_DEFAULT_SIDE 1.0        /* m: the square's side               */
#define CLOTH_DEFAULT_MASS 9.5e-6     /* kg per node (Ye et al.)            */
#define CLOTH_DEFAULT_K_STRETCH 600.0 /* N/m (Ye et al.: 60 / 600 / 6000)   */
#define CLOTH_DEFAULT_K_SHEAR 0.3     /* N/m (Ye et al.)                    */
#define CLOTH_DEFAULT_K_BEND 0.05     /* N/m (Ye et al.)                    */
#define CLOTH_DEFAULT_DAMPING 1e-3    /* s: every spring has kd = 1e-3 s * k */
#define CLOTH_DEFAULT_GRAVITY 9.81    /* m/s^2 along -z                     */
#define CLOTH_DEFAULT_MARGIN 0.1      /* contact margin, in grid spacings   */

typedef struct cloth_params {
    cloth_scene scene;
    int size;           /* m: nodes per side, CLOTH_MIN_SIZE..MAX_SIZE     */
    double side;        /* m; > 0                                          */
    double mass;        /* kg per node; > 0                                */
    double k_stretch, k_shear, k_bend; /* N/m; >= 0                        */
    double damping;     /* s; kd = damping * k for every spring; >= 0      */
    double dt;          /* s; > 0 (cloth_default_dt(size) by default)      */
    double gravity;     /* m/s^2 along -z; >= 0                            */
    double margin;      /* contact when the distance to the obstacle's
                           surface is < margin * spacing; >= 0             */
} cloth_params;

/* The step for a grid size: Ye et al.'s 6.67 / 5.55 / 3.67 ms for 41 / 81
 * / 161, linear in m between those sizes, constant beyond them. */
double cloth_default_dt(int size);

/* Fills every field with the defaults above (dt from cloth_default_dt). */
void cloth_params_default(cloth_params *p, cloth_scene scene, int size);

/* OK, or ERR_ARGUMENT naming the first field out of range. */
int cloth_params_check(const cloth_params *p, char *msg);

/* ------------------------------------------------------------- springs */

typedef enum cloth_spring_kind {
    CLOTH_STRETCH = 0,
    CLOTH_SHEAR,
    CLOTH_BEND
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

/* ---------------------------------------------------------------- grid */

/* The topology and the matrix pattern: computed once per grid. */
typedef struct cloth_grid {
    int m, N, n;           /* nodes per side, m^2 nodes, 3N unknowns       */
    double spacing;        /* side / (m - 1)                               */
    int num_springs;
    cloth_spring *springs; /* by a, then b ascending (the CSC order)        */
    int num_stretch;
    int *stretch_pairs;    /* 2 num_stretch node indices                   */
    int nnz;               /* stored entries of the lower triangle         */
    int *colptr;           /* n + 1                                        */
    int *rowidx;           /* nnz, ascending within each column            */
} cloth_grid;

int cloth_grid_build(int m, double side, cloth_grid *g, char *msg);
void cloth_grid_free(cloth_grid *g);

/* ----------------------------------------------------------- obstacle */

/* A sphere moving with constant velocity until stop_time, then at rest. */
typedef struct cloth_ball {
    int present;
    int sticky;            /* 1: touching nodes stick (ndof 0), 0: slide */
    double radius;
    double center0[3];     /* at t = 0                                   */
    double velocity[3];
    double stop_time;      /* s                                          */
} cloth_ball;

/* Centre at time t. */
void cloth_ball_center(const cloth_ball *ball, double t, double c[3]);

/* --------------------------------------------------------- simulation */

typedef struct cloth_sim {
    cloth_params par;
    cloth_grid grid;
    cloth_ball ball;
    double h;              /* = par.dt                                     */
    double t;              /* time at the start of the next step           */
    int step;              /* steps completed                              */
    double *x, *v;         /* 3N positions and velocities                  */
    unsigned char *held;   /* N: ndof the scene leaves each node: 3 free,
                              0 pinned (z = -v), 1 on the rail            */

    /* The current step's system (cloth_assemble fills it). */
    double *values;        /* grid.nnz values of A's lower triangle        */
    double *b;             /* 3N                                           */
    double *z;             /* 3N                                           */
    corepcg_constraint *cons; /* by node; capacity N                       */
    int num_cons;
    int contacts;          /* nodes touching the obstacle                  */
    int ndof_count[3];     /* constrained nodes with ndof 0, 1, 2          */
    double ball_c[3];      /* obstacle centre at the step's start          */
    double ball_v[3];      /* its velocity over the step                   */

    /* The solver in the loop. */
    double *dv;            /* the last answer (zero before the first step) */
    double *dv_next;       /* scratch for the next answer                  */
    corepcg_solver *solver;
    int solver_ready;      /* 1 after a successful corepcg_setup           */
    corepcg_info info;     /* of the last solve                            */
    int analysis_reused;   /* 1 when the last update kept the analysis     */
    double time_assemble_s, time_solve_s; /* of the last step              */
} cloth_sim;

/* Builds the grid, the initial state and the obstacle of par's scene. */
int cloth_sim_create(const cloth_params *par, cloth_sim **out, char *msg);
void cloth_sim_free(cloth_sim **sim);

/* Detects contacts at the current state and fills values, b, cons, z. */
void cloth_assemble(cloth_sim *sim);

/* The parts of cloth_assemble and cloth_advance that handle the scene's
 * constraints: records (by node) and z for the current state, and the
 * projection of nodes inside the obstacle onto its surface. */
void cloth_constrain(cloth_sim *sim);
void cloth_push_out(cloth_sim *sim);

/* A view of the assembled system (arrays borrowed from sim). */
void cloth_system(const cloth_sim *sim, corepcg_system *sys);

/* Solves the assembled system through corepcg.h only: setup at the first
 * call, update afterwards, the previous answer as the guess. On success
 * the answer is in sim->dv_next and sim->info describes the solve.
 * settings may be NULL (defaults); they are read at the first call. */
int cloth_solve(cloth_sim *sim, const corepcg_settings *settings, char *msg);

/* v += dv_next, x += h v, pushes nodes out of the obstacle, t += h; the
 * answer becomes the next guess (swapped into dv). */
void cloth_advance(cloth_sim *sim);

/* assemble + solve + advance. Returns the solve's status (warnings pass
 * through: the step is taken). */
int cloth_step(cloth_sim *sim, const corepcg_settings *settings, char *msg);

/* 0.5 sum m |v_i|^2. */
double cloth_kinetic_energy(const cloth_sim *sim);

/* Monotonic wall-clock seconds (for the step timings). */
double cloth_now(void);

/* ---------------------------------------------------------- output */

/* An OBJ of the cloth (object "cloth", quads) and, when the scene has
 * one, the obstacle at the current time (object "ball", a UV sphere).
 * Written under a temporary name and renamed when complete. */
int cloth_write_obj(const cloth_sim *sim, const char *path, char *msg);

#endif /* COREPCG_CLOTH_H */

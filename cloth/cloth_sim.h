/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cloth_sim.h -- a simulation: its state, the step (assemble, solve,
 * advance), the scene's start and checks on it, contacts, and the OBJ
 * output. The highest of cloth/'s headers: it includes the other three.
 *
 * Conventions: functions return a corepcg status (0 OK, negative error)
 * and write a one-line reason into msg (COREPCG_MSG_SIZE bytes, may be
 * NULL). The library never prints and keeps no global state (cloth.h).
 */
#ifndef COREPCG_CLOTH_SIM_H
#define COREPCG_CLOTH_SIM_H

#include "cloth_mesh.h"
#include "cloth_scene.h"
#include "cloth_model.h"

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

/* 1 when the scene has an obstacle, analytic or a mesh: something its
 * cloth can come to touch (gen and bench step until it does). */
int cloth_sim_has_obstacles(const cloth_sim *sim);

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
 * `current`, then moved by `moved` (--translate; NULL: not moved) -- would
 * start (cloth_scene_check), or -1 when none would or par has no mesh.
 * The mesh turns about `moved` (--up applies before --translate), the
 * obstacle meshes about the origin, as --up turns them. */
int cloth_scene_suggest_up(const cloth_params *par, cloth_up current, const double moved[3]);

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

#endif /* COREPCG_CLOTH_SIM_H */

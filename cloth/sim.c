/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim.c -- the simulation state: scenes' initial conditions, the step
 * loop (assemble, solve, advance) and what it reports.
 *
 * Scene geometry (lengths in units of the side S, default 1 m; node
 * (r, c) of the m x m grid, spacing s = S / (m - 1)):
 *   pinned   flat at z = 0, node at (c s, r s, 0); four corners pinned.
 *   drape    flat at z = 0; a static sphere of radius 0.3 S under the
 *            cloth's centre, its top 0.05 S below the cloth: the cloth
 *            falls for 0.1 s (about 15 steps at 41x41) before it touches;
 *            touching nodes stick.
 *   ballhit  vertical in the x-z plane, node at (c s, 0, -r s), hanging
 *            from its two top corners. A ball of radius 0.2 S starts
 *            0.05 S in front of the cloth (centre (0.5 S, -0.25 S,
 *            -0.6 S)), flies along +y at 1 S per second and stops after
 *            0.6 s (0.6 S of travel): first contact after 0.05 s (about 8
 *            steps at 41x41, 14 at 161x161); the cloth then wraps the ball
 *            and stays on it. Touching nodes slide on it.
 *   rail     flat at z = 0; row 0 (y = 0) slides along the x axis (ndof 1,
 *            p = y, q = z); the rest swings down like a curtain.
 *   free     flat at z = 0, nothing attached: free fall.
 */
#include "cloth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double cloth_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cloth_sim_free(cloth_sim **sim)
{
    if (!sim || !*sim)
        return;
    cloth_sim *s = *sim;
    cloth_grid_free(&s->grid);
    free(s->x);
    free(s->v);
    free(s->held);
    free(s->values);
    free(s->b);
    free(s->z);
    free(s->cons);
    free(s->dv);
    free(s->dv_next);
    corepcg_free(&s->solver);
    free(s);
    *sim = NULL;
}

static void place_nodes(cloth_sim *s)
{
    const cloth_grid *g = &s->grid;
    for (int r = 0; r < g->m; r++)
        for (int c = 0; c < g->m; c++) {
            double *xi = &s->x[3 * (r * g->m + c)];
            if (s->par.scene == CLOTH_SCENE_BALLHIT) {
                xi[0] = c * g->spacing;
                xi[1] = 0.0;
                xi[2] = -r * g->spacing;
            } else {
                xi[0] = c * g->spacing;
                xi[1] = r * g->spacing;
                xi[2] = 0.0;
            }
        }
}

static void hold_nodes(cloth_sim *s)
{
    int m = s->grid.m;
    memset(s->held, 3, (size_t)s->grid.N);
    switch (s->par.scene) {
    case CLOTH_SCENE_PINNED:
        s->held[0] = s->held[m - 1] = 0;
        s->held[(m - 1) * m] = s->held[m * m - 1] = 0;
        break;
    case CLOTH_SCENE_BALLHIT:
        s->held[0] = s->held[m - 1] = 0;
        break;
    case CLOTH_SCENE_RAIL:
        for (int c = 0; c < m; c++)
            s->held[c] = 1;
        break;
    default:
        break;
    }
}

static void place_obstacle(cloth_sim *s)
{
    double S = s->par.side;
    cloth_ball *ball = &s->ball;
    memset(ball, 0, sizeof *ball);
    if (s->par.scene == CLOTH_SCENE_DRAPE) {
        ball->present = 1;
        ball->sticky = 1;
        ball->radius = 0.3 * S;
        ball->center0[0] = 0.5 * S;
        ball->center0[1] = 0.5 * S;
        ball->center0[2] = -(0.3 + 0.05) * S;
    } else if (s->par.scene == CLOTH_SCENE_BALLHIT) {
        ball->present = 1;
        ball->sticky = 0;
        ball->radius = 0.2 * S;
        ball->center0[0] = 0.5 * S;
        ball->center0[1] = -(0.2 + 0.05) * S;
        ball->center0[2] = -0.6 * S;
        ball->velocity[1] = 1.0 * S;
        ball->stop_time = 0.6;
    }
}

int cloth_sim_create(const cloth_params *par, cloth_sim **out, char *msg)
{
    if (!out)
        return COREPCG_ERR_ARGUMENT;
    *out = NULL;
    int rc = cloth_params_check(par, msg);
    if (rc != COREPCG_OK)
        return rc;
    cloth_sim *s = calloc(1, sizeof *s);
    if (!s) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "cloth: out of memory");
        return COREPCG_ERR_NO_MEMORY;
    }
    s->par = *par;
    s->h = par->dt;
    rc = cloth_grid_build(par->size, par->side, &s->grid, msg);
    if (rc != COREPCG_OK) {
        free(s);
        return rc;
    }
    size_t n = (size_t)s->grid.n, N = (size_t)s->grid.N;
    s->x = calloc(n, sizeof *s->x);
    s->v = calloc(n, sizeof *s->v);
    s->held = calloc(N, 1);
    s->values = calloc((size_t)s->grid.nnz, sizeof *s->values);
    s->b = calloc(n, sizeof *s->b);
    s->z = calloc(n, sizeof *s->z);
    s->cons = calloc(N, sizeof *s->cons);
    s->dv = calloc(n, sizeof *s->dv);
    s->dv_next = calloc(n, sizeof *s->dv_next);
    if (!s->x || !s->v || !s->held || !s->values || !s->b || !s->z ||
        !s->cons || !s->dv || !s->dv_next) {
        cloth_sim_free(&s);
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "cloth %dx%d: out of memory",
                     par->size, par->size);
        return COREPCG_ERR_NO_MEMORY;
    }
    place_nodes(s);
    hold_nodes(s);
    place_obstacle(s);
    *out = s;
    return COREPCG_OK;
}

void cloth_system(const cloth_sim *sim, corepcg_system *sys)
{
    memset(sys, 0, sizeof *sys);
    sys->num_nodes = sim->grid.N;
    sys->A_format = COREPCG_CSC;
    sys->A_triangle = COREPCG_LOWER;
    sys->A_colptr = sim->grid.colptr;
    sys->A_rowidx = sim->grid.rowidx;
    sys->A_values = sim->values;
    sys->A_nnz = sim->grid.nnz;
    sys->num_constraints = sim->num_cons;
    sys->constraints = sim->num_cons ? sim->cons : NULL;
    sys->z = sim->z;
    sys->num_stretch = sim->grid.num_stretch;
    sys->stretch_pairs = sim->grid.stretch_pairs;
}

void cloth_advance(cloth_sim *sim)
{
    size_t n = (size_t)sim->grid.n;
    double h = sim->h;
    for (size_t k = 0; k < n; k++) {
        sim->v[k] += sim->dv_next[k];
        sim->x[k] += h * sim->v[k];
    }
    double *answer = sim->dv_next;
    sim->dv_next = sim->dv;
    sim->dv = answer;
    sim->t += h;
    sim->step++;
    cloth_push_out(sim);
}

int cloth_step(cloth_sim *sim, const corepcg_settings *settings, char *msg)
{
    cloth_assemble(sim);
    int rc = cloth_solve(sim, settings, msg);
    if (rc < 0)
        return rc;
    cloth_advance(sim);
    return rc;
}

double cloth_kinetic_energy(const cloth_sim *sim)
{
    double sum = 0.0;
    for (int k = 0; k < sim->grid.n; k++)
        sum += sim->v[k] * sim->v[k];
    return 0.5 * sim->par.mass * sum;
}

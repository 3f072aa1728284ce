/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sim.c -- the simulation state: its creation (model, arrays, the scene's
 * start from scene.c), the step loop (assemble, solve, advance) and what
 * it reports. */
#include "cloth_scene.h"
#include "cloth_model.h"
#include "cloth_sim.h"

#include <stdio.h>
#include <stdlib.h>

int cloth_sim_has_obstacles(const cloth_sim *sim)
{
    return sim->num_obstacles + sim->num_mesh_obstacles > 0;
}

void cloth_sim_free(cloth_sim **sim)
{
    if (!sim || !*sim)
        return;
    cloth_sim *s = *sim;
    const cloth_force_model_ops *row = cloth_force_model_describe(s->par.model);
    if (row && row->free && s->force)
        row->free(s);
    cloth_model_free(&s->model);
    free(s->x);
    free(s->v);
    free(s->x_rest);
    free(s->held);
    free(s->values);
    free(s->b);
    free(s->z);
    free(s->cons);
    free(s->dv);
    free(s->dv_next);
    free(s->hash_head);
    free(s->hash_next);
    free(s->hash_cell);
    for (int k = 0; k < s->num_mesh_obstacles; k++)
        cloth_mesh_obstacle_free(&s->mesh_obstacles[k]);
    free(s->mesh_obstacles);
    corepcg_free(&s->solver);
    free(s);
    *sim = NULL;
}

/* par's obstacle meshes, each with its closest-point tree. */
static int build_mesh_obstacles(cloth_sim *s, const cloth_params *par, char *msg)
{
    s->par.obstacle_meshes = NULL; /* borrowed for cloth_sim_create only */
    if (par->num_obstacle_meshes == 0)
        return COREPCG_OK;
    s->mesh_obstacles = calloc((size_t)par->num_obstacle_meshes, sizeof *s->mesh_obstacles);
    if (!s->mesh_obstacles) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "cloth: out of memory");
        return COREPCG_ERR_NO_MEMORY;
    }
    for (int k = 0; k < par->num_obstacle_meshes; k++) {
        int rc = cloth_mesh_obstacle_create(&par->obstacle_meshes[k],
                                            &s->mesh_obstacles[k], msg);
        if (rc != COREPCG_OK)
            return rc;
        s->num_mesh_obstacles++;
    }
    return COREPCG_OK;
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
    s->par.mesh = NULL; /* borrowed for this call only */
    s->h = par->dt;
    rc = par->mesh ? cloth_mesh_build(par->mesh, par->density, &s->model, msg)
                   : cloth_grid_build(par->size, par->side, par->mass, &s->model, msg);
    const cloth_force_model_ops *row = cloth_force_model_describe(par->model);
    if (rc == COREPCG_OK && row->build) {
        rc = row->build(s, par->mesh, msg);
        if (rc != COREPCG_OK)
            cloth_model_free(&s->model);
    }
    if (rc != COREPCG_OK) {
        free(s);
        return rc;
    }
    size_t n = (size_t)s->model.n, N = (size_t)s->model.N;
    s->x = calloc(n, sizeof *s->x);
    s->v = calloc(n, sizeof *s->v);
    s->x_rest = calloc(n, sizeof *s->x_rest);
    s->held = calloc(N, 1);
    s->values_capacity = s->model.nnz_capacity;
    s->values = calloc((size_t)s->values_capacity, sizeof *s->values);
    s->b = calloc(n, sizeof *s->b);
    s->z = calloc(n, sizeof *s->z);
    s->cons = calloc(N, sizeof *s->cons);
    s->dv = calloc(n, sizeof *s->dv);
    s->dv_next = calloc(n, sizeof *s->dv_next);
    if (!s->x || !s->v || !s->x_rest || !s->held || !s->values || !s->b || !s->z ||
        !s->cons || !s->dv || !s->dv_next) {
        cloth_sim_free(&s);
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "cloth of %zu nodes: out of memory", N);
        return COREPCG_ERR_NO_MEMORY;
    }
    rc = build_mesh_obstacles(s, par, msg);
    if (rc != COREPCG_OK) {
        cloth_sim_free(&s);
        return rc;
    }
    cloth_scene_start(s, par->mesh);
    rc = cloth_scene_check(s, msg);
    if (rc != COREPCG_OK) {
        cloth_sim_free(&s);
        return rc;
    }
    *out = s;
    return COREPCG_OK;
}

void cloth_advance(cloth_sim *sim)
{
    size_t n = (size_t)sim->model.n;
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
    int rc = cloth_assemble(sim, msg);
    if (rc < 0)
        return rc;
    rc = cloth_solve(sim, settings, msg);
    if (rc < 0)
        return rc;
    cloth_advance(sim);
    return rc;
}

double cloth_kinetic_energy(const cloth_sim *sim)
{
    double sum = 0.0;
    for (int i = 0; i < sim->model.N; i++) {
        const double *v = &sim->v[3 * i];
        sum += sim->model.mass[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    }
    return 0.5 * sum;
}

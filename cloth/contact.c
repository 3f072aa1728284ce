/* SPDX-License-Identifier: GPL-2.0-or-later */
/* contact.c -- the scene's constraints each step: pinned and rail nodes,
 * contacts with the obstacles (detected afresh every step), the values z
 * they prescribe, and keeping nodes out of the obstacles. */
#include "cloth.h"

#include <string.h>

static corepcg_constraint *add_record(cloth_sim *sim, int node, int ndof)
{
    corepcg_constraint *c = &sim->cons[sim->num_cons++];
    memset(c, 0, sizeof *c);
    c->node = node;
    c->ndof = ndof;
    sim->ndof_count[ndof]++;
    return c;
}

/* The obstacle nearest to x's surface among those within reach (the
 * radius plus the margin), or -1; its offset from the axis in e. */
static int touching(const cloth_sim *sim, double ends[][2][3], const double *x,
                    double e[3], double *dist)
{
    int nearest = -1;
    double gap = 0.0, margin = sim->par.margin * sim->model.spacing;
    for (int o = 0; o < sim->num_obstacles; o++) {
        double q[3], eo[3];
        double d = cloth_obstacle_offset(ends[o], x, q, eo);
        double reach = sim->obstacles[o].radius + margin;
        if (!(d < reach) || (nearest >= 0 && !(d - sim->obstacles[o].radius < gap)))
            continue;
        nearest = o;
        gap = d - sim->obstacles[o].radius;
        memcpy(e, eo, sizeof eo);
        *dist = d;
    }
    return nearest;
}

void cloth_constrain(cloth_sim *sim)
{
    int N = sim->model.N;
    double h = sim->h;
    memset(sim->z, 0, (size_t)sim->model.n * sizeof *sim->z);
    sim->num_cons = 0;
    sim->contacts = 0;
    memset(sim->ndof_count, 0, sizeof sim->ndof_count);

    double ends[CLOTH_MAX_OBSTACLES][2][3];
    for (int o = 0; o < sim->num_obstacles; o++) {
        const cloth_obstacle *ob = &sim->obstacles[o];
        double next[3];
        cloth_obstacle_ends(ob, sim->t, ends[o]);
        memcpy(sim->obstacle_c[o], ends[o][0], sizeof sim->obstacle_c[o]);
        cloth_obstacle_center(ob, sim->t + h, next);
        /* The velocity over this step, so that a node sliding on the
         * obstacle keeps its distance to it (to first order). */
        for (int k = 0; k < 3; k++)
            sim->obstacle_v[o][k] = (next[k] - sim->obstacle_c[o][k]) / h;
    }

    for (int i = 0; i < N; i++) {
        const double *xi = &sim->x[3 * i], *vi = &sim->v[3 * i];
        double *zi = &sim->z[3 * i];
        if (sim->held[i] == 0) {
            /* Pinned: the velocity becomes zero. */
            add_record(sim, i, 0);
            for (int k = 0; k < 3; k++)
                zi[k] = -vi[k];
            continue;
        }
        if (sim->held[i] == 1) {
            /* On the rail (the x axis): no motion along y or z. */
            corepcg_constraint *c = add_record(sim, i, 1);
            c->p[1] = 1.0;
            c->q[2] = 1.0;
            zi[1] = -vi[1];
            zi[2] = -vi[2];
            continue;
        }
        double e[3], dist = 0.0;
        int o = touching(sim, ends, xi, e, &dist);
        if (o < 0)
            continue;
        const cloth_obstacle *ob = &sim->obstacles[o];
        const double *ov = sim->obstacle_v[o];
        sim->contacts++;
        if (ob->sticky) {
            add_record(sim, i, 0);
            for (int k = 0; k < 3; k++)
                zi[k] = ov[k] - vi[k];
            continue;
        }
        /* Slides on the obstacle: the normal velocity after the step is
         * the obstacle's, the tangential motion is free. */
        corepcg_constraint *c = add_record(sim, i, 2);
        cloth_obstacle_normal(ob, e, dist, c->p);
        double rel = 0.0;
        for (int k = 0; k < 3; k++)
            rel += (ov[k] - vi[k]) * c->p[k];
        for (int k = 0; k < 3; k++)
            zi[k] = rel * c->p[k];
    }
}

void cloth_push_out(cloth_sim *sim)
{
    for (int o = 0; o < sim->num_obstacles; o++) {
        const cloth_obstacle *ob = &sim->obstacles[o];
        double ends[2][3];
        cloth_obstacle_ends(ob, sim->t, ends);
        for (int i = 0; i < sim->model.N; i++) {
            double *xi = &sim->x[3 * i], q[3], e[3], p[3];
            double dist = cloth_obstacle_offset(ends, xi, q, e);
            if (!(dist < ob->radius))
                continue;
            cloth_obstacle_normal(ob, e, dist, p);
            for (int k = 0; k < 3; k++)
                xi[k] = q[k] + ob->radius * p[k];
        }
    }
}

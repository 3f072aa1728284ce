/* SPDX-License-Identifier: GPL-2.0-or-later */
/* contact.c -- the scene's constraints each step: pinned and rail nodes,
 * contacts with the obstacle (detected afresh every step), the values z
 * they prescribe, and keeping nodes out of the obstacle. */
#include "cloth.h"

#include <math.h>
#include <string.h>

void cloth_ball_center(const cloth_ball *ball, double t, double c[3])
{
    double moving = t < ball->stop_time ? t : ball->stop_time;
    if (moving < 0.0)
        moving = 0.0;
    for (int k = 0; k < 3; k++)
        c[k] = ball->center0[k] + ball->velocity[k] * moving;
}

/* Outward unit normal of the ball at a node at offset e (length dist) from
 * its centre; a node at the very centre is pushed back against the ball's
 * motion (or up when it rests). */
static void outward_normal(const cloth_ball *ball, const double e[3],
                           double dist, double p[3])
{
    if (dist > 1e-12 * ball->radius) {
        for (int k = 0; k < 3; k++)
            p[k] = e[k] / dist;
        return;
    }
    double speed = sqrt(ball->velocity[0] * ball->velocity[0] +
                        ball->velocity[1] * ball->velocity[1] +
                        ball->velocity[2] * ball->velocity[2]);
    for (int k = 0; k < 3; k++)
        p[k] = speed > 0.0 ? -ball->velocity[k] / speed : (k == 2);
}

static corepcg_constraint *add_record(cloth_sim *sim, int node, int ndof)
{
    corepcg_constraint *c = &sim->cons[sim->num_cons++];
    memset(c, 0, sizeof *c);
    c->node = node;
    c->ndof = ndof;
    sim->ndof_count[ndof]++;
    return c;
}

void cloth_constrain(cloth_sim *sim)
{
    const cloth_ball *ball = &sim->ball;
    int N = sim->grid.N;
    double h = sim->h;
    memset(sim->z, 0, (size_t)sim->grid.n * sizeof *sim->z);
    sim->num_cons = 0;
    sim->contacts = 0;
    memset(sim->ndof_count, 0, sizeof sim->ndof_count);

    double reach = 0.0;
    memset(sim->ball_c, 0, sizeof sim->ball_c);
    memset(sim->ball_v, 0, sizeof sim->ball_v);
    if (ball->present) {
        double next[3];
        cloth_ball_center(ball, sim->t, sim->ball_c);
        cloth_ball_center(ball, sim->t + h, next);
        /* The velocity over this step, so that a node sliding on the ball
         * keeps its distance to the centre (to first order). */
        for (int k = 0; k < 3; k++)
            sim->ball_v[k] = (next[k] - sim->ball_c[k]) / h;
        reach = ball->radius + sim->par.margin * sim->grid.spacing;
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
        if (!ball->present)
            continue;
        double e[3] = {xi[0] - sim->ball_c[0], xi[1] - sim->ball_c[1],
                       xi[2] - sim->ball_c[2]};
        double dist = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
        if (!(dist < reach))
            continue;
        sim->contacts++;
        if (ball->sticky) {
            add_record(sim, i, 0);
            for (int k = 0; k < 3; k++)
                zi[k] = sim->ball_v[k] - vi[k];
            continue;
        }
        /* Slides on the ball: the normal velocity after the step is the
         * ball's, the tangential motion is free. */
        corepcg_constraint *c = add_record(sim, i, 2);
        outward_normal(ball, e, dist, c->p);
        double rel = 0.0;
        for (int k = 0; k < 3; k++)
            rel += (sim->ball_v[k] - vi[k]) * c->p[k];
        for (int k = 0; k < 3; k++)
            zi[k] = rel * c->p[k];
    }
}

void cloth_push_out(cloth_sim *sim)
{
    const cloth_ball *ball = &sim->ball;
    if (!ball->present)
        return;
    double center[3];
    cloth_ball_center(ball, sim->t, center);
    for (int i = 0; i < sim->grid.N; i++) {
        double *xi = &sim->x[3 * i];
        double e[3] = {xi[0] - center[0], xi[1] - center[1], xi[2] - center[2]};
        double dist = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
        if (!(dist < ball->radius))
            continue;
        double p[3];
        outward_normal(ball, e, dist, p);
        for (int k = 0; k < 3; k++)
            xi[k] = center[k] + ball->radius * p[k];
    }
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* contact.c -- the scene's constraints each step: pinned and rail nodes,
 * contacts with the obstacles (detected afresh every step), the values z
 * they prescribe, and keeping nodes out of the obstacles. */
#include "cloth_scene.h"
#include "cloth_model.h"
#include "cloth_sim.h"

#include <math.h>
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

/* A surface a node is within reach of: its gap (signed distance), its
 * outward normal, its velocity over the step, sticky or not. */
typedef struct touch {
    double gap;
    double normal[3];
    const double *velocity;
    int sticky;
} touch;

#define MAX_TOUCHES 4  /* the nearest surfaces kept: 3 fix a node */

static const double at_rest[3] = {0.0, 0.0, 0.0};

/* Keeps touches[] sorted by gap, the nearest MAX_TOUCHES. */
static void add_touch(touch *touches, int *count, const touch *t)
{
    int k;
    if (*count < MAX_TOUCHES)
        k = (*count)++;
    else if (t->gap < touches[MAX_TOUCHES - 1].gap)
        k = MAX_TOUCHES - 1;
    else
        return;
    while (k > 0 && t->gap < touches[k - 1].gap) {
        touches[k] = touches[k - 1];
        k--;
    }
    touches[k] = *t;
}

/* Every surface within the margin of x, nearest first: the analytic
 * obstacles (axes at `ends`) and the mesh obstacles. */
static int touching(const cloth_sim *sim, double ends[][2][3], const double *x,
                    touch *touches)
{
    int count = 0;
    double margin = sim->par.margin * sim->model.spacing;
    for (int o = 0; o < sim->num_obstacles; o++) {
        const cloth_obstacle *ob = &sim->obstacles[o];
        double q[3], e[3];
        double d = cloth_obstacle_offset(ends[o], x, q, e);
        if (!(d < ob->radius + margin))
            continue;
        touch t = {.gap = d - ob->radius, .velocity = sim->obstacle_v[o],
                   .sticky = ob->sticky};
        cloth_obstacle_normal(ob, e, d, t.normal);
        add_touch(touches, &count, &t);
    }
    for (int o = 0; o < sim->num_mesh_obstacles; o++) {
        cloth_surface_point sp;
        if (!cloth_mesh_obstacle_closest(sim->mesh_obstacles[o], x, margin, &sp) ||
            !(sp.distance < margin))
            continue;
        touch t = {.gap = sp.distance, .velocity = at_rest};
        memcpy(t.normal, sp.normal, sizeof t.normal);
        add_touch(touches, &count, &t);
    }
    return count;
}

/* A node sliding on the surfaces it touches: each one's normal velocity
 * after the step is the surface's, its tangential motion free. The
 * normals are made orthonormal nearest first (Gram-Schmidt); a normal
 * within CREASE of those before it adds nothing, so a node on two
 * surfaces that meet at an angle slides along the line where they meet
 * (ndof 1), on three it is held (ndof 0). */
#define CREASE 0.05 /* sine of the smallest angle between two normals, ~3 deg */
static void slide(cloth_sim *sim, int i, const touch *touches, int count)
{
    const double *vi = &sim->v[3 * i];
    double basis[3][3], value[3];
    int rank = 0;
    for (int j = 0; j < count && rank < 3; j++) {
        const double *n = touches[j].normal;
        double comp[3], along[3], rel = 0.0, len = 0.0;
        for (int k = 0; k < 3; k++)
            rel += (touches[j].velocity[k] - vi[k]) * n[k];
        memcpy(comp, n, sizeof comp);
        for (int b = 0; b < rank; b++) {
            along[b] = basis[b][0] * n[0] + basis[b][1] * n[1] + basis[b][2] * n[2];
            rel -= along[b] * value[b];
            for (int k = 0; k < 3; k++)
                comp[k] -= along[b] * basis[b][k];
        }
        len = sqrt(comp[0] * comp[0] + comp[1] * comp[1] + comp[2] * comp[2]);
        /* (a mesh's pseudo-normal is zero on a knife edge folded flat) */
        if (!(len > (rank > 0 ? CREASE : 0.5)))
            continue;
        for (int k = 0; k < 3; k++)
            basis[rank][k] = comp[k] / len;
        value[rank++] = rel / len;
    }
    if (rank == 0)
        return;
    corepcg_constraint *c = add_record(sim, i, 3 - rank);
    double *zi = &sim->z[3 * i];
    if (rank < 3)
        memcpy(c->p, basis[0], sizeof c->p);
    if (rank == 2)
        memcpy(c->q, basis[1], sizeof c->q);
    for (int b = 0; b < rank; b++)
        for (int k = 0; k < 3; k++)
            zi[k] += value[b] * basis[b][k];
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
        touch touches[MAX_TOUCHES];
        int count = touching(sim, ends, xi, touches);
        if (count == 0)
            continue;
        sim->contacts++;
        const touch *stuck = NULL;
        for (int j = 0; j < count && !stuck; j++)
            stuck = touches[j].sticky ? &touches[j] : NULL;
        if (stuck) {
            add_record(sim, i, 0);
            for (int k = 0; k < 3; k++)
                zi[k] = stuck->velocity[k] - vi[k];
            continue;
        }
        slide(sim, i, touches, count);
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
    /* A node inside a mesh crossed its surface during the step, so the
     * surface is within the step's travel of it: the search reaches no
     * further. */
    double margin = sim->par.margin * sim->model.spacing;
    for (int o = 0; o < sim->num_mesh_obstacles; o++)
        for (int i = 0; i < sim->model.N; i++) {
            double *xi = &sim->x[3 * i], *vi = &sim->v[3 * i];
            double travel = sim->h * sqrt(vi[0] * vi[0] + vi[1] * vi[1] + vi[2] * vi[2]);
            cloth_surface_point sp;
            if (cloth_mesh_obstacle_closest(sim->mesh_obstacles[o], xi, travel + margin, &sp) &&
                sp.distance < 0.0)
                memcpy(xi, sp.q, sizeof sp.q);
        }
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* scene_check.c -- a scene whose start leaves nothing to simulate is
 * refused rather than run: a mesh lying flat in its file's up plane is
 * held whole by hang's top band, and would step without moving; a cloth
 * starting inside an obstacle would be thrown out through itself. */
#include "cloth_scene.h"
#include "cloth_model.h"
#include "cloth_sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Why the fixed vertices are fixed: the scene's hold, sticky contacts. */
static void fixed_cause(const cloth_sim *s, int held, int stuck, char *buf, size_t len)
{
    int N = s->model.N;
    int band = cloth_scene_describe(s->par.scene)->hold == CLOTH_HOLD_TOP;
    if (held && band && s->model.face_size == 3 && 2 * held > N)
        snprintf(buf, len, "the mesh's highest %g cm holds %s", 100 * CLOTH_HANG_BAND,
                 held == N ? "all of it" : "more than half of it");
    else if (held)
        snprintf(buf, len, "the scene holds %d of them", held);
    else
        buf[0] = '\0';
    if (stuck) {
        size_t used = 0;
        while (buf[used])
            used++;
        snprintf(buf + used, len - used, "%s%d stick to an obstacle at the start",
                 used ? " and " : "", stuck);
    }
}

/* 1 when x is strictly inside obstacle o (a mesh obstacle after the
 * analytic ones; a closed mesh at any depth). */
static int inside_obstacle(const cloth_sim *s, int o, const double *x)
{
    if (o < s->num_obstacles)
        return cloth_obstacle_distance(&s->obstacles[o], s->t, x, NULL) < 0.0;
    cloth_surface_point sp;
    return cloth_mesh_obstacle_closest(s->mesh_obstacles[o - s->num_obstacles], x, INFINITY,
                                       &sp) && sp.distance < 0.0;
}

/* The vertices strictly inside an obstacle; the obstacle holding the
 * most of them named in `which`. */
static int count_inside(const cloth_sim *s, char *which, size_t len)
{
    int N = s->model.N, total = 0, most = 0, worst = -1;
    int obstacles = s->num_obstacles + s->num_mesh_obstacles;
    int held[CLOTH_MAX_OBSTACLES + 1] = {0}; /* per analytic obstacle; meshes share the last */
    int *per_mesh = calloc((size_t)s->num_mesh_obstacles + 1, sizeof *per_mesh);
    if (!per_mesh)
        return 0;
    for (int i = 0; i < N; i++) {
        int first = -1;
        for (int o = 0; o < obstacles; o++)
            if (inside_obstacle(s, o, &s->x[3 * i])) {
                first = first < 0 ? o : first;
                if (o < s->num_obstacles)
                    held[o]++;
                else
                    per_mesh[o - s->num_obstacles]++;
            }
        total += first >= 0;
    }
    for (int o = 0; o < obstacles; o++) {
        int count = o < s->num_obstacles ? held[o] : per_mesh[o - s->num_obstacles];
        if (count > most) {
            most = count;
            worst = o;
        }
    }
    free(per_mesh);
    if (worst >= s->num_obstacles) {
        const char *src = cloth_mesh_obstacle_mesh(s->mesh_obstacles[worst - s->num_obstacles])
                              ->source;
        const char *slash = src ? strrchr(src, '/') : NULL;
        snprintf(which, len, "%.200s", slash ? slash + 1 : src ? src : "an obstacle mesh");
    } else if (worst >= 0) {
        snprintf(which, len, "the scene's %s",
                 cloth_scene_describe(s->par.scene)->obstacle == CLOTH_OBSTACLE_BODY
                     ? "body proxy" : "sphere");
    }
    return total;
}

int cloth_scene_check(cloth_sim *s, char *msg)
{
    char which[256];
    int inside = count_inside(s, which, sizeof which);
    if (inside > 0) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "%d of %d vertices " CLOTH_START_INSIDE " %s",
                     inside, s->model.N, which);
        return COREPCG_ERR_ARGUMENT;
    }
    cloth_constrain(s);
    int N = s->model.N, fixed = s->ndof_count[0], free_nodes = N - s->num_cons;
    if (2 * fixed <= N && free_nodes > 0)
        return COREPCG_OK;
    int held = 0;
    for (int i = 0; i < N; i++)
        held += s->held[i] == 0;
    char cause[160];
    fixed_cause(s, held, fixed - held, cause, sizeof cause);
    if (msg && 2 * fixed > N)
        snprintf(msg, COREPCG_MSG_SIZE, "fixed %d of %d vertices: %s", fixed, N, cause);
    else if (msg)
        snprintf(msg, COREPCG_MSG_SIZE, "no vertex of %d is free: %d fixed, %d touching "
                 "an obstacle at the start", N, fixed, N - fixed);
    return COREPCG_ERR_ARGUMENT;
}

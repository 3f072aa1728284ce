/* SPDX-License-Identifier: GPL-2.0-or-later */
/* obj_write.c -- Wavefront OBJ snapshots of the cloth and its obstacles,
 * for looking at a simulation (any OBJ viewer, e.g. Blender or MeshLab).
 * Written atomically (atomic_file.h): a viewer never sees half a frame. */
#include "cloth_mesh.h"
#include "cloth_scene.h"
#include "cloth_model.h"
#include "cloth_sim.h"

#include "atomic_file.h"

#include <math.h>
#include <stdio.h>

#define BALL_RINGS 12    /* latitude bands of a sphere (even: an equator) */
#define BALL_SEGMENTS 24 /* longitude segments                            */

static void write_cloth(FILE *f, const cloth_sim *sim)
{
    const cloth_model *g = &sim->model;
    fprintf(f, "o cloth\n");
    for (int i = 0; i < g->N; i++)
        fprintf(f, "v %.9g %.9g %.9g\n", sim->x[3 * i], sim->x[3 * i + 1],
                sim->x[3 * i + 2]);
    for (int k = 0; k < g->num_faces; k++) {
        const int *face = &g->faces[g->face_size * k];
        fputc('f', f);
        for (int c = 0; c < g->face_size; c++)
            fprintf(f, " %d", face[c] + 1); /* OBJ indices are 1-based */
        fputc('\n', f);
    }
}

/* Unit vectors u, w completing the unit axis d to a right-handed frame;
 * z gives x and y, so that a sphere comes out as it always has. */
static void frame(const double d[3], double u[3], double w[3])
{
    double pick[3] = {1, 0, 0};
    if (fabs(d[0]) > 0.9)
        pick[0] = 0, pick[1] = 1;
    double dot = pick[0] * d[0] + pick[1] * d[1] + pick[2] * d[2];
    for (int k = 0; k < 3; k++)
        u[k] = pick[k] - dot * d[k];
    double len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int k = 0; k < 3; k++)
        u[k] /= len;
    w[0] = d[1] * u[2] - d[2] * u[1];
    w[1] = d[2] * u[0] - d[0] * u[2];
    w[2] = d[0] * u[1] - d[1] * u[0];
}

/* A UV sphere (a capsule: its two halves around the axis' two ends, the
 * equator ring twice): two poles and rings of BALL_SEGMENTS vertices,
 * numbered after `first - 1` vertices. Returns the vertices written. */
static int write_obstacle(FILE *f, const cloth_sim *sim, int o, int first)
{
    const double pi = acos(-1.0);
    const cloth_obstacle *ob = &sim->obstacles[o];
    double ends[2][3], d[3] = {0, 0, 1}, u[3] = {1, 0, 0}, w[3] = {0, 1, 0};
    cloth_obstacle_ends(ob, sim->t, ends);
    double axis[3] = {ends[1][0] - ends[0][0], ends[1][1] - ends[0][1],
                      ends[1][2] - ends[0][2]};
    double length = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    int capsule = length > 0.0;
    if (capsule) {
        for (int k = 0; k < 3; k++)
            d[k] = axis[k] / length;
        frame(d, u, w);
    }
    double R = ob->radius;
    /* the top half around the second end (the sphere's only one) */
    const double *top = ends[capsule], *bottom = ends[0];
    /* numbered when there are several */
    fprintf(f, "o %s", capsule ? "capsule" : "ball");
    if (sim->num_obstacles > 1)
        fprintf(f, "%d", o + 1);
    fputc('\n', f);
    fprintf(f, "v %.9g %.9g %.9g\n", top[0] + R * d[0], top[1] + R * d[1], top[2] + R * d[2]);
    int rings = 0;
    for (int ring = 1; ring < BALL_RINGS; ring++)
        for (int half = 0; half < 1 + (capsule && 2 * ring == BALL_RINGS); half++) {
            double theta = pi * ring / BALL_RINGS;
            /* rings above the equator round the top end, below it round
             * the bottom one; a capsule's equator ring is on both */
            const double *c = 2 * ring < BALL_RINGS ? top
                            : 2 * ring > BALL_RINGS || half ? bottom : top;
            for (int seg = 0; seg < BALL_SEGMENTS; seg++) {
                double phi = 2.0 * pi * seg / BALL_SEGMENTS;
                double a = R * sin(theta) * cos(phi), b = R * sin(theta) * sin(phi),
                       h = R * cos(theta);
                fprintf(f, "v %.9g %.9g %.9g\n", c[0] + a * u[0] + b * w[0] + h * d[0],
                        c[1] + a * u[1] + b * w[1] + h * d[1],
                        c[2] + a * u[2] + b * w[2] + h * d[2]);
            }
            rings++;
        }
    fprintf(f, "v %.9g %.9g %.9g\n", bottom[0] - R * d[0], bottom[1] - R * d[1],
            bottom[2] - R * d[2]);
    int pole = first, last_pole = first + 1 + rings * BALL_SEGMENTS;
    for (int seg = 0; seg < BALL_SEGMENTS; seg++) {
        int next = (seg + 1) % BALL_SEGMENTS;
        fprintf(f, "f %d %d %d\n", pole, pole + 1 + seg, pole + 1 + next);
        for (int ring = 1; ring < rings; ring++) {
            int up = first + 1 + (ring - 1) * BALL_SEGMENTS;
            int down = up + BALL_SEGMENTS;
            fprintf(f, "f %d %d %d %d\n", up + seg, down + seg, down + next, up + next);
        }
        int last = first + 1 + (rings - 1) * BALL_SEGMENTS;
        fprintf(f, "f %d %d %d\n", last + seg, last_pole, last + next);
    }
    return 2 + rings * BALL_SEGMENTS;
}

/* Mesh obstacle o as it is (static), numbered after `first - 1`
 * vertices. Returns the vertices written. */
static int write_mesh_obstacle(FILE *f, const cloth_sim *sim, int o, int first)
{
    const cloth_mesh *m = cloth_mesh_obstacle_mesh(sim->mesh_obstacles[o]);
    fprintf(f, "o mesh%d\n", o + 1);
    for (int i = 0; i < m->num_vertices; i++)
        fprintf(f, "v %.9g %.9g %.9g\n", m->x[3 * i], m->x[3 * i + 1], m->x[3 * i + 2]);
    for (int t = 0; t < m->num_triangles; t++)
        fprintf(f, "f %d %d %d\n", first + m->triangles[3 * t], first + m->triangles[3 * t + 1],
                first + m->triangles[3 * t + 2]);
    return m->num_vertices;
}

int cloth_write_obj(const cloth_sim *sim, const char *path, char *msg)
{
    cpg_atomic_file af;
    int rc = cpg_atomic_open(&af, path, msg);
    if (rc != COREPCG_OK)
        return rc;
    if (sim->par.size > 0)
        fprintf(af.f, "# corepcg cloth, scene %s, %dx%d, step %d, t = %.6g s\n",
                cloth_scene_name(sim->par.scene), sim->par.size, sim->par.size,
                sim->step, sim->t);
    else
        fprintf(af.f, "# corepcg cloth, scene %s, mesh of %d vertices, step %d, t = %.6g s\n",
                cloth_scene_name(sim->par.scene), sim->model.N, sim->step, sim->t);
    write_cloth(af.f, sim);
    int next = sim->model.N + 1;
    for (int o = 0; o < sim->num_obstacles; o++)
        next += write_obstacle(af.f, sim, o, next);
    for (int o = 0; o < sim->num_mesh_obstacles; o++)
        next += write_mesh_obstacle(af.f, sim, o, next);
    /* a write error shows in the stream's error flag, which commit reads */
    return cpg_atomic_commit(&af, msg);
}

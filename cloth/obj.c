/* SPDX-License-Identifier: GPL-2.0-or-later */
/* obj.c -- Wavefront OBJ snapshots of the cloth and its obstacle, for
 * looking at a simulation (any OBJ viewer, e.g. Blender or MeshLab).
 * Written atomically (atomic_file.h): a viewer never sees half a frame. */
#include "cloth.h"

#include "atomic_file.h"

#include <math.h>
#include <stdio.h>

#define BALL_RINGS 12    /* latitude bands of the ball's UV sphere */
#define BALL_SEGMENTS 24 /* longitude segments                     */

static void write_cloth(FILE *f, const cloth_sim *sim)
{
    int m = sim->grid.m;
    fprintf(f, "o cloth\n");
    for (int i = 0; i < sim->grid.N; i++)
        fprintf(f, "v %.9g %.9g %.9g\n", sim->x[3 * i], sim->x[3 * i + 1],
                sim->x[3 * i + 2]);
    for (int r = 0; r + 1 < m; r++)
        for (int c = 0; c + 1 < m; c++) {
            int a = r * m + c + 1; /* OBJ indices are 1-based */
            fprintf(f, "f %d %d %d %d\n", a, a + 1, a + m + 1, a + m);
        }
}

/* A UV sphere: two poles and BALL_RINGS - 1 rings of BALL_SEGMENTS
 * vertices, numbered after the cloth's `first - 1` vertices. */
static void write_ball(FILE *f, const cloth_sim *sim, int first)
{
    const double pi = acos(-1.0);
    double c[3];
    cloth_ball_center(&sim->ball, sim->t, c);
    double R = sim->ball.radius;
    fprintf(f, "o ball\n");
    fprintf(f, "v %.9g %.9g %.9g\n", c[0], c[1], c[2] + R);
    for (int ring = 1; ring < BALL_RINGS; ring++) {
        double theta = pi * ring / BALL_RINGS;
        for (int seg = 0; seg < BALL_SEGMENTS; seg++) {
            double phi = 2.0 * pi * seg / BALL_SEGMENTS;
            fprintf(f, "v %.9g %.9g %.9g\n", c[0] + R * sin(theta) * cos(phi),
                    c[1] + R * sin(theta) * sin(phi), c[2] + R * cos(theta));
        }
    }
    fprintf(f, "v %.9g %.9g %.9g\n", c[0], c[1], c[2] - R);
    int top = first, bottom = first + 1 + (BALL_RINGS - 1) * BALL_SEGMENTS;
    for (int seg = 0; seg < BALL_SEGMENTS; seg++) {
        int next = (seg + 1) % BALL_SEGMENTS;
        fprintf(f, "f %d %d %d\n", top, top + 1 + seg, top + 1 + next);
        for (int ring = 1; ring + 1 < BALL_RINGS; ring++) {
            int up = first + 1 + (ring - 1) * BALL_SEGMENTS;
            int down = up + BALL_SEGMENTS;
            fprintf(f, "f %d %d %d %d\n", up + seg, down + seg, down + next, up + next);
        }
        int last = first + 1 + (BALL_RINGS - 2) * BALL_SEGMENTS;
        fprintf(f, "f %d %d %d\n", last + seg, bottom, last + next);
    }
}

int cloth_write_obj(const cloth_sim *sim, const char *path, char *msg)
{
    cpg_atomic_file af;
    int rc = cpg_atomic_open(&af, path, msg);
    if (rc != COREPCG_OK)
        return rc;
    fprintf(af.f, "# corepcg cloth, scene %s, %dx%d, step %d, t = %.6g s\n",
            cloth_scene_name(sim->par.scene), sim->grid.m, sim->grid.m,
            sim->step, sim->t);
    write_cloth(af.f, sim);
    if (sim->ball.present)
        write_ball(af.f, sim, sim->grid.N + 1);
    /* a write error shows in the stream's error flag, which commit reads */
    return cpg_atomic_commit(&af, msg);
}

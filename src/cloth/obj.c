/* obj.c -- Wavefront OBJ snapshots of the cloth and its obstacle, for
 * looking at a simulation (any OBJ viewer, e.g. Blender or MeshLab). */
#include "cloth.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

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
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "%.400s...: path too long", path);
        return COREPCG_ERR_IO;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "%.400s: cannot write: %s", tmp, strerror(errno));
        return COREPCG_ERR_IO;
    }
    fprintf(f, "# corepcg cloth, scene %s, %dx%d, step %d, t = %.6g s\n",
            cloth_scene_name(sim->par.scene), sim->grid.m, sim->grid.m,
            sim->step, sim->t);
    write_cloth(f, sim);
    if (sim->ball.present)
        write_ball(f, sim, sim->grid.N + 1);
    int failed = ferror(f);
    if (fclose(f) != 0)
        failed = 1;
    if (failed || rename(tmp, path) != 0) {
        int err = errno;
        remove(tmp);
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "%.400s: cannot write: %s", path, strerror(err));
        return COREPCG_ERR_IO;
    }
    return COREPCG_OK;
}

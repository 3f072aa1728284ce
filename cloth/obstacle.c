/* SPDX-License-Identifier: GPL-2.0-or-later */
/* obstacle.c -- spheres and capsules: where they are at a time, the
 * distance from a point to their surface and the normal there, and the
 * garment scene's body proxy built from them. */
#include "cloth_scene.h"

#include <math.h>
#include <string.h>

void cloth_obstacle_center(const cloth_obstacle *ob, double t, double c[3])
{
    double moving = t < ob->stop_time ? t : ob->stop_time;
    if (moving < 0.0)
        moving = 0.0;
    for (int k = 0; k < 3; k++)
        c[k] = ob->end0[0][k] + ob->velocity[k] * moving;
}

void cloth_obstacle_ends(const cloth_obstacle *ob, double t, double ends[2][3])
{
    cloth_obstacle_center(ob, t, ends[0]);
    for (int k = 0; k < 3; k++)
        ends[1][k] = ends[0][k] + (ob->end0[1][k] - ob->end0[0][k]);
}

double cloth_obstacle_offset(double ends[2][3], const double x[3], double q[3],
                             double e[3])
{
    double d[3], along = 0.0, length2 = 0.0;
    for (int k = 0; k < 3; k++) {
        d[k] = ends[1][k] - ends[0][k];
        along += (x[k] - ends[0][k]) * d[k];
        length2 += d[k] * d[k];
    }
    /* a sphere's axis is a point: e = x - c exactly */
    double s = length2 > 0.0 ? fmin(1.0, fmax(0.0, along / length2)) : 0.0;
    for (int k = 0; k < 3; k++) {
        q[k] = s > 0.0 ? ends[0][k] + s * d[k] : ends[0][k];
        e[k] = x[k] - q[k];
    }
    return sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
}

void cloth_obstacle_normal(const cloth_obstacle *ob, const double e[3], double dist,
                           double p[3])
{
    if (dist > 1e-12 * ob->radius) {
        for (int k = 0; k < 3; k++)
            p[k] = e[k] / dist;
        return;
    }
    /* on the axis: pushed back against the motion, or up at rest */
    double speed = sqrt(ob->velocity[0] * ob->velocity[0] +
                        ob->velocity[1] * ob->velocity[1] +
                        ob->velocity[2] * ob->velocity[2]);
    for (int k = 0; k < 3; k++)
        p[k] = speed > 0.0 ? -ob->velocity[k] / speed : (k == 2);
}

double cloth_obstacle_distance(const cloth_obstacle *ob, double t, const double x[3],
                               double normal[3])
{
    double ends[2][3], q[3], e[3];
    cloth_obstacle_ends(ob, t, ends);
    double dist = cloth_obstacle_offset(ends, x, q, e);
    if (normal)
        cloth_obstacle_normal(ob, e, dist, normal);
    return dist - ob->radius;
}

/* A person about 1.75 m tall in a T-pose (arms out along x), feet at
 * z = 0, centred on the z axis: sizes of an adult of middling build,
 * rounded to the centimetre. */
static const struct {
    double radius;
    double end[2][3];
} body_parts[] = {
    {0.10, {{0, 0, 1.62}, {0, 0, 1.62}}},          /* head              */
    {0.15, {{0, 0, 1.05}, {0, 0, 1.30}}},          /* torso: z 0.90-1.45 */
    {0.05, {{0.12, 0, 1.36}, {0.70, 0, 1.36}}},    /* right arm         */
    {0.05, {{-0.12, 0, 1.36}, {-0.70, 0, 1.36}}},  /* left arm          */
    {0.17, {{0, 0, 0.92}, {0, 0, 0.92}}},          /* hips              */
    {0.07, {{0.09, 0, 0.08}, {0.09, 0, 0.80}}},    /* right leg         */
    {0.07, {{-0.09, 0, 0.08}, {-0.09, 0, 0.80}}},  /* left leg          */
};

int cloth_body_proxy(cloth_obstacle *out)
{
    int count = (int)(sizeof body_parts / sizeof body_parts[0]);
    for (int k = 0; k < count; k++) {
        memset(&out[k], 0, sizeof out[k]);
        out[k].radius = body_parts[k].radius;
        memcpy(out[k].end0, body_parts[k].end, sizeof out[k].end0);
    }
    return count;
}

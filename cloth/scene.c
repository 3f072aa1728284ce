/* SPDX-License-Identifier: GPL-2.0-or-later */
/* scene.c -- each scene's starting state: where the nodes are, which the
 * scene holds, and its obstacles.
 *
 * On a grid (lengths in units of the side S, default 1 m; node (r, c) of
 * the m x m grid, spacing s = S / (m - 1)):
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
 *
 * On a mesh (nodes where the file puts them; S is the mesh's largest
 * extent along x, y or z; its bounding box lo..hi):
 *   hang     the vertices within 1 cm of the highest z are fixed.
 *   ballhit  hanging as in hang; a ball of radius 0.2 S starts 0.05 S in
 *            front of the mesh (centre at the box's middle in x and z,
 *            y = lo_y - 0.25 S), flies along +y at 1 S per second and
 *            stops after 0.6 s; touching nodes slide on it.
 *   drape    a static sphere of radius 0.3 S under the box's centre, its
 *            top 0.05 S below the lowest vertex; touching nodes stick.
 *   garment  the body proxy (cloth_body_proxy), or the mesh obstacles
 *            when any is given (the body); touching nodes slide;
 *            nothing is held.
 *   free     nothing attached: free fall.
 *   dressed  as garment (bench gives it a fitted top and its body mesh).
 *
 * Which layout, hold and obstacle a scene has is its row in
 * scene_table.c; this file places them.
 */
#include "cloth_mesh.h"
#include "cloth_scene.h"
#include "cloth_model.h"
#include "cloth_sim.h"

#include <math.h>
#include <string.h>

static void place_grid(cloth_sim *s, const cloth_scene_row *row)
{
    int m = s->par.size;
    double spacing = s->model.spacing;
    for (int r = 0; r < m; r++)
        for (int c = 0; c < m; c++) {
            double *xi = &s->x[3 * (r * m + c)];
            if (row->upright) {
                xi[0] = c * spacing;
                xi[1] = 0.0;
                xi[2] = -r * spacing;
            } else {
                xi[0] = c * spacing;
                xi[1] = r * spacing;
                xi[2] = 0.0;
            }
        }
}

/* Row 0 is the top row of an upright grid. */
static void hold_grid(cloth_sim *s, cloth_hold hold)
{
    int m = s->par.size;
    switch (hold) {
    case CLOTH_HOLD_CORNERS:
        s->held[0] = s->held[m - 1] = 0;
        s->held[(m - 1) * m] = s->held[m * m - 1] = 0;
        break;
    case CLOTH_HOLD_TOP:
        s->held[0] = s->held[m - 1] = 0;
        break;
    case CLOTH_HOLD_RAIL:
        for (int c = 0; c < m; c++)
            s->held[c] = 1;
        break;
    case CLOTH_HOLD_NONE:
        break;
    }
}

static void hold_mesh(cloth_sim *s, const cloth_mesh *mesh, cloth_hold hold,
                      const double hi[3])
{
    if (hold == CLOTH_HOLD_TOP)
        for (int i = 0; i < mesh->num_vertices; i++)
            if (mesh->x[3 * i + 2] >= hi[2] - CLOTH_HANG_BAND)
                s->held[i] = 0;
}

/* A sphere of the given radius and centre, moving or not. */
static cloth_obstacle *add_sphere(cloth_sim *s, double radius, const double c[3])
{
    cloth_obstacle *ob = &s->obstacles[s->num_obstacles++];
    memset(ob, 0, sizeof *ob);
    ob->radius = radius;
    memcpy(ob->end0[0], c, sizeof ob->end0[0]);
    memcpy(ob->end0[1], c, sizeof ob->end0[1]);
    return ob;
}

/* The scene's obstacle for a cloth of size S; centre: where the grid or
 * the mesh puts the sphere or the ball. */
static void add_obstacle(cloth_sim *s, cloth_scene_obstacle kind, double S,
                         const double centre[3])
{
    switch (kind) {
    case CLOTH_OBSTACLE_SPHERE_BELOW:
        add_sphere(s, 0.3 * S, centre)->sticky = 1;
        break;
    case CLOTH_OBSTACLE_FLYING_BALL: {
        cloth_obstacle *ball = add_sphere(s, 0.2 * S, centre);
        ball->velocity[1] = 1.0 * S;
        ball->stop_time = 0.6;
        break;
    }
    case CLOTH_OBSTACLE_BODY:
        /* the proxy stands in for a body only when none is given */
        if (s->num_mesh_obstacles == 0)
            s->num_obstacles = cloth_body_proxy(s->obstacles);
        break;
    case CLOTH_OBSTACLE_NONE:
        break;
    }
}

/* The sphere under the flat grid's centre; the ball in front of the
 * upright grid, 0.6 S down. */
static void obstacle_centre_grid(cloth_scene_obstacle kind, double S, double c[3])
{
    if (kind == CLOTH_OBSTACLE_SPHERE_BELOW) {
        c[0] = 0.5 * S;
        c[1] = 0.5 * S;
        c[2] = -(0.3 + 0.05) * S;
    } else {
        c[0] = 0.5 * S;
        c[1] = -(0.2 + 0.05) * S;
        c[2] = -0.6 * S;
    }
}

/* The sphere under the box's centre; the ball in front of the box at its
 * middle height. */
static void obstacle_centre_mesh(cloth_scene_obstacle kind, double S, const double lo[3],
                                 const double hi[3], double c[3])
{
    if (kind == CLOTH_OBSTACLE_SPHERE_BELOW) {
        c[0] = 0.5 * (lo[0] + hi[0]);
        c[1] = 0.5 * (lo[1] + hi[1]);
        c[2] = lo[2] - (0.3 + 0.05) * S;
    } else {
        c[0] = 0.5 * (lo[0] + hi[0]);
        c[1] = lo[1] - (0.2 + 0.05) * S;
        c[2] = 0.5 * (lo[2] + hi[2]);
    }
}

static void setup_grid(cloth_sim *s, const cloth_scene_row *row)
{
    place_grid(s, row);
    hold_grid(s, row->hold);
    double centre[3];
    obstacle_centre_grid(row->obstacle, s->par.side, centre);
    add_obstacle(s, row->obstacle, s->par.side, centre);
}

static void setup_mesh(cloth_sim *s, const cloth_scene_row *row, const cloth_mesh *mesh)
{
    memcpy(s->x, mesh->x, 3 * (size_t)mesh->num_vertices * sizeof *s->x);
    double lo[3], hi[3];
    cloth_mesh_bounds(mesh, lo, hi);
    double S = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
    hold_mesh(s, mesh, row->hold, hi);
    double centre[3];
    obstacle_centre_mesh(row->obstacle, S, lo, hi, centre);
    add_obstacle(s, row->obstacle, S, centre);
}

void cloth_scene_start(cloth_sim *s, const cloth_mesh *mesh)
{
    const cloth_scene_row *row = cloth_scene_describe(s->par.scene);
    memset(s->held, 3, (size_t)s->model.N);
    s->num_obstacles = 0;
    if (mesh)
        setup_mesh(s, row, mesh);
    else
        setup_grid(s, row);
    memcpy(s->x_rest, s->x, (size_t)s->model.n * sizeof *s->x);
}

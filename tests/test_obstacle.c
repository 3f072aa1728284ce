/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_obstacle.c -- triangle-mesh obstacles (cloth/mesh_obstacle.c):
 * closest points and pseudo-normals, a triangulated sphere draping a
 * grid as the analytic sphere does, a node on two surfaces sliding along
 * their crease, a cloth starting inside an obstacle refused (and moved
 * out with --translate), and obstacle files refused as meshes are. */
#include "cloth_fixture.h"
#include "fixture.h"
#include "test.h"
#include "monotonic.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#define PI 3.14159265358979323846

/* ---------------------------------------------------------- meshes */

/* An icosphere: the icosahedron (its faces found as the vertex triples
 * two apart, wound outward), subdivided `levels` times by midpoints and
 * pushed onto the sphere of `radius` about `centre`. */
static int icosphere(int levels, double radius, const double centre[3], cloth_mesh *out)
{
    const double g = (1.0 + sqrt(5.0)) / 2.0;
    double v[12][3];
    int n = 0;
    for (int a = -1; a <= 1; a += 2)
        for (int b = -1; b <= 1; b += 2) {
            double p[3][3] = {{0, a, b * g}, {a, b * g, 0}, {b * g, 0, a}};
            for (int k = 0; k < 3; k++)
                memcpy(v[n++], p[k], sizeof p[k]);
        }
    cloth_mesh ico;
    memset(&ico, 0, sizeof ico);
    ico.x = malloc(36 * sizeof *ico.x);
    ico.triangles = malloc(60 * sizeof *ico.triangles);
    for (int i = 0; i < 12; i++)
        memcpy(&ico.x[3 * i], v[i], sizeof v[i]);
    ico.num_vertices = 12;
    for (int i = 0; i < 12; i++)
        for (int j = i + 1; j < 12; j++)
            for (int k = j + 1; k < 12; k++) {
                double dij = 0, djk = 0, dik = 0, u[3], w[3], c[3], out_dot = 0;
                for (int e = 0; e < 3; e++) {
                    dij += (v[i][e] - v[j][e]) * (v[i][e] - v[j][e]);
                    djk += (v[j][e] - v[k][e]) * (v[j][e] - v[k][e]);
                    dik += (v[i][e] - v[k][e]) * (v[i][e] - v[k][e]);
                    u[e] = v[j][e] - v[i][e];
                    w[e] = v[k][e] - v[i][e];
                }
                if (fabs(dij - 4) > 1e-9 || fabs(djk - 4) > 1e-9 || fabs(dik - 4) > 1e-9)
                    continue;
                c[0] = u[1] * w[2] - u[2] * w[1];
                c[1] = u[2] * w[0] - u[0] * w[2];
                c[2] = u[0] * w[1] - u[1] * w[0];
                for (int e = 0; e < 3; e++)
                    out_dot += c[e] * v[i][e];
                int *t = &ico.triangles[3 * ico.num_triangles++];
                t[0] = i;
                t[1] = out_dot > 0 ? j : k;
                t[2] = out_dot > 0 ? k : j;
            }
    char msg[COREPCG_MSG_SIZE];
    int rc = cloth_mesh_subdivide(&ico, levels, out, msg);
    CHECK(rc == COREPCG_OK && ico.num_triangles == 20, "icosphere: %d faces, %s",
          ico.num_triangles, msg);
    cloth_mesh_free(&ico);
    for (int i = 0; rc == COREPCG_OK && i < out->num_vertices; i++) {
        double *x = &out->x[3 * i];
        double len = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
        for (int e = 0; e < 3; e++)
            x[e] = centre[e] + radius * x[e] / len;
    }
    return rc;
}

/* A rectangle of two triangles: corner o, sides u and w (normal u x w). */
static void quad(const double o[3], const double u[3], const double w[3], cloth_mesh *m)
{
    memset(m, 0, sizeof *m);
    m->x = malloc(12 * sizeof *m->x);
    m->triangles = malloc(6 * sizeof *m->triangles);
    for (int e = 0; e < 3; e++) {
        m->x[e] = o[e];
        m->x[3 + e] = o[e] + u[e];
        m->x[6 + e] = o[e] + u[e] + w[e];
        m->x[9 + e] = o[e] + w[e];
    }
    const int t[6] = {0, 1, 2, 0, 2, 3};
    memcpy(m->triangles, t, sizeof t);
    m->num_vertices = 4;
    m->num_triangles = 2;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "%s opened", path);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* ---------------------------------------------- closest points, normals */

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* On an icosphere: the distance signed (inside negative, at any depth),
 * the normal a unit vector near the radial one, an edge's normal the same
 * seen from either triangle, nothing beyond the radius asked. */
static void test_closest(void)
{
    const double c[3] = {0.1, -0.2, 0.3}, R = 0.5;
    cloth_mesh sphere;
    if (icosphere(3, R, c, &sphere) != COREPCG_OK)
        return;
    cloth_mesh_obstacle *ob = NULL;
    char msg[COREPCG_MSG_SIZE] = "";
    CHECK_INT(cloth_mesh_obstacle_create(&sphere, &ob, msg), COREPCG_OK);
    if (!ob) {
        cloth_mesh_free(&sphere);
        return;
    }
    double worst_normal = 0.0, worst_dist = 0.0;
    int wrong_sign = 0;
    for (int k = 0; k < 200; k++) {
        /* points on rays from the centre, at 0.2 .. 1.8 R */
        double d[3] = {sin(1.3 * k), cos(0.7 * k), sin(0.29 * k + 1.0)};
        double len = sqrt(dot3(d, d)), r = R * (0.2 + 1.6 * (k % 17) / 16.0), x[3];
        for (int e = 0; e < 3; e++)
            x[e] = c[e] + r * d[e] / len;
        cloth_surface_point sp;
        if (!cloth_mesh_obstacle_closest(ob, x, INFINITY, &sp)) {
            CHECK(0, "no closest point at infinite radius");
            continue;
        }
        wrong_sign += (r < R * 0.99) != (sp.distance < 0.0);
        worst_dist = fmax(worst_dist, fabs(fabs(sp.distance) - fabs(r - R)));
        double radial[3];
        for (int e = 0; e < 3; e++)
            radial[e] = d[e] / len;
        worst_normal = fmax(worst_normal, 1.0 - dot3(sp.normal, radial));
        CHECK_NEAR(dot3(sp.normal, sp.normal), 1.0, 1e-12);
        /* a smaller radius than the distance finds nothing */
        if (fabs(sp.distance) > 1e-3)
            CHECK_INT(cloth_mesh_obstacle_closest(ob, x, 0.9 * fabs(sp.distance), &sp), 0);
    }
    CHECK_INT(wrong_sign, 0);
    CHECK_LE(worst_dist, 0.01 * R); /* level 3: the faces sag ~0.3% of R */
    CHECK_LE(worst_normal, 0.02);   /* within ~11 degrees of the radial one */
    /* a point just off an edge's midpoint: the edge's normal whichever
     * triangle Embree offers first, equal to the mean of the two faces' */
    const int *t = sphere.triangles;
    double mid[3], x[3];
    for (int e = 0; e < 3; e++) {
        mid[e] = 0.5 * (sphere.x[3 * t[0] + e] + sphere.x[3 * t[1] + e]);
        x[e] = mid[e] + 0.01 * (mid[e] - c[e]);
    }
    cloth_surface_point sp;
    CHECK_INT(cloth_mesh_obstacle_closest(ob, x, 1.0, &sp), 1);
    double far = 0.0;
    for (int e = 0; e < 3; e++)
        far = fmax(far, fabs(sp.q[e] - mid[e]));
    CHECK_LE(far, 1e-12);
    cloth_mesh_obstacle_free(&ob);
    /* wound inward, the same sphere: turned round, the same answers */
    for (int k = 0; k < sphere.num_triangles; k++) {
        int keep = sphere.triangles[3 * k + 1];
        sphere.triangles[3 * k + 1] = sphere.triangles[3 * k + 2];
        sphere.triangles[3 * k + 2] = keep;
    }
    CHECK_INT(cloth_mesh_obstacle_create(&sphere, &ob, msg), COREPCG_OK);
    const double inside[3] = {c[0], c[1] + 0.5 * R, c[2]}, outside[3] = {c[0], c[1],
                                                                         c[2] + 1.5 * R};
    CHECK(ob && cloth_mesh_obstacle_closest(ob, inside, INFINITY, &sp) && sp.distance < 0,
          "inside an inward-wound sphere");
    CHECK(ob && cloth_mesh_obstacle_closest(ob, outside, INFINITY, &sp) && sp.distance > 0 &&
              sp.normal[2] > 0.99, "outside it, the normal outward");
    cloth_mesh_obstacle_free(&ob);
    cloth_mesh_free(&sphere);
}

/* --------------------------------------------- draping, as the sphere */

/* The drape layout on a free grid: a sliding sphere of radius 0.3 under
 * the centre, its top 0.05 below the cloth; analytic, or the icosphere. */
static cloth_sim *sphere_drape(int m, const cloth_mesh *sphere)
{
    cloth_params p;
    cloth_params_default(&p, CLOTH_SCENE_FREE, m);
    if (sphere) {
        p.num_obstacle_meshes = 1;
        p.obstacle_meshes = sphere;
    }
    cloth_sim *s = fixture_sim(&p, sphere ? "mesh sphere" : "analytic sphere");
    if (s && !sphere) {
        cloth_obstacle *ob = &s->obstacles[s->num_obstacles++];
        memset(ob, 0, sizeof *ob);
        ob->radius = 0.3;
        const double c[3] = {0.5, 0.5, -0.35};
        memcpy(ob->end0[0], c, sizeof c);
        memcpy(ob->end0[1], c, sizeof c);
    }
    return s;
}

static void test_sphere_drape(void)
{
    /* 21x21: a 41x41 sheet buckles as it drapes, its folds going one
     * way or another on the smallest change: the analytic sphere made
     * 0.01 mm smaller moves its vertices by 4 mm, 0.1 mm by 35 mm (the
     * icosphere's faces sag up to 0.06 mm); at 21x21, 0.05 mm smaller
     * moves them by 0.17 mm */
    const int m = 21, steps = 120;
    const double c[3] = {0.5, 0.5, -0.35};
    cloth_mesh sphere;
    if (icosphere(5, 0.3, c, &sphere) != COREPCG_OK)
        return;
    cloth_sim *a = sphere_drape(m, NULL), *b = sphere_drape(m, &sphere);
    /* one method, not auto's choice by the clock (the same rounding
     * every run), solved tightly: at tol 1e-5 the solves' own error
     * moves the sheet by millimetres over 120 steps */
    corepcg_settings set;
    corepcg_settings_default(&set);
    set.method = COREPCG_METHOD_ICPCG;
    set.tol = 1e-10;
    int worst_contacts = 0, last_a = 0, last_b = 0, steps_ok = 1;
    char msg[COREPCG_MSG_SIZE] = "";
    for (int k = 0; a && b && k < steps && steps_ok; k++) {
        steps_ok = cloth_step(a, &set, msg) >= 0 && cloth_step(b, &set, msg) >= 0;
        last_a = a->contacts;
        last_b = b->contacts;
        /* from the first touch on, the counts agree within 10% */
        if (a->contacts > 20 && abs(a->contacts - b->contacts) * 10 > a->contacts)
            worst_contacts++;
    }
    CHECK(steps_ok, "a step failed: %s", msg);
    double far = 0.0;
    for (int i = 0; a && b && i < a->model.N; i++) {
        double d2 = 0.0;
        for (int e = 0; e < 3; e++)
            d2 += (a->x[3 * i + e] - b->x[3 * i + e]) * (a->x[3 * i + e] - b->x[3 * i + e]);
        far = fmax(far, sqrt(d2));
    }
    printf("sphere drape %dx%d, %d steps: contacts %d analytic, %d mesh (%d triangles); "
           "farthest vertex %.3g mm apart\n", m, m, steps, last_a, last_b,
           sphere.num_triangles, 1e3 * far);
    CHECK(last_a > 100, "the analytic sphere holds %d nodes", last_a);
    CHECK_INT(worst_contacts, 0);
    CHECK(abs(last_a - last_b) * 10 <= last_a, "contacts %d vs %d", last_a, last_b);
    CHECK_LE(far, 3e-3);
    cloth_sim_free(&a);
    cloth_sim_free(&b);
    cloth_mesh_free(&sphere);
}

/* ------------------------------------------------ two surfaces: a crease */

/* Two planes meeting at 60 degrees along the y axis: a floor (normal +z)
 * and a wall leaning over it; a node near both slides along their line
 * (ndof 1), its direction orthogonal to both normals; a node near one
 * slides on it (ndof 2). */
static void test_crease(void)
{
    cloth_mesh planes[2];
    /* away from the grid (in [0, 0.1]^2 at z = 0), which must not be
     * behind either: an open mesh's inside is behind its faces */
    const double o0[3] = {4, -1, -1}, u0[3] = {2, 0, 0}, w0[3] = {0, 2, 0};
    quad(o0, u0, w0, &planes[0]);
    const double a = PI / 3;
    /* the wall: from the y axis up and over +x, normal (-sin a, 0, cos a)
     * turned to face the floor's side: (sin a, 0, -cos a) x ... */
    const double o1[3] = {5, -1, -1}, u1[3] = {0, 2, 0}, w1[3] = {cos(a), 0, sin(a)};
    quad(o1, u1, w1, &planes[1]);
    cloth_params p;
    cloth_params_default(&p, CLOTH_SCENE_FREE, 3);
    p.num_obstacle_meshes = 2;
    p.obstacle_meshes = planes;
    p.side = 0.1; /* spacing 0.05, margin 5 mm */
    cloth_sim *s = fixture_sim(&p, "crease");
    if (!s) {
        cloth_mesh_free(&planes[0]);
        cloth_mesh_free(&planes[1]);
        return;
    }
    double n[2][3];
    /* 2 mm over the floor and 2 mm in front of the wall */
    double corner[3] = {5 + 0.002 / tan(a) + 0.002 / sin(a), 0.0, -1 + 0.002};
    for (int k = 0; k < 2; k++) {
        cloth_surface_point sp;
        CHECK_INT(cloth_mesh_obstacle_closest(s->mesh_obstacles[k], corner, 1.0, &sp), 1);
        CHECK_NEAR(sp.distance, 0.002, 1e-12);
        memcpy(n[k], sp.normal, sizeof n[k]);
    }
    CHECK_NEAR(dot3(n[0], n[1]), cos(PI - a), 1e-12);
    memcpy(&s->x[0], corner, sizeof corner);
    const double floor_only[3] = {4.5, 0.0, -1 + 0.002};
    memcpy(&s->x[3], floor_only, sizeof floor_only);
    for (int e = 0; e < 6; e++)
        s->v[e] = 0.1 * (e + 1); /* moving: z holds the velocity's change */
    cloth_constrain(s);
    CHECK_INT(s->contacts, 2);
    int seen = 0;
    for (int r = 0; r < s->num_cons; r++) {
        const corepcg_constraint *c = &s->cons[r];
        if (c->node == 0) {
            seen++;
            CHECK_INT(c->ndof, 1);
            double line[3] = {c->p[1] * c->q[2] - c->p[2] * c->q[1],
                              c->p[2] * c->q[0] - c->p[0] * c->q[2],
                              c->p[0] * c->q[1] - c->p[1] * c->q[0]};
            CHECK_NEAR(dot3(line, line), 1.0, 1e-12);
            CHECK_LE(fabs(dot3(line, n[0])), 1e-12);
            CHECK_LE(fabs(dot3(line, n[1])), 1e-12);
            /* after the step the node moves along the line only: the
             * prescribed change cancels the velocity along both normals */
            for (int k = 0; k < 2; k++) {
                double after = 0.0;
                for (int e = 0; e < 3; e++)
                    after += (s->v[e] + s->z[e]) * n[k][e];
                CHECK_NEAR(after, 0.0, 1e-12);
            }
        } else if (c->node == 1) {
            seen++;
            CHECK_INT(c->ndof, 2);
            CHECK_NEAR(dot3(c->p, n[0]), 1.0, 1e-12);
        }
    }
    CHECK_INT(seen, 2);
    cloth_sim_free(&s);
    cloth_mesh_free(&planes[0]);
    cloth_mesh_free(&planes[1]);
}

/* ------------------------------------------------- the CLI, refusals */

static char tmpdir[] = "/tmp/test_obstacle_XXXXXX";

/* A cloth inside the body is refused with the count and what to do; the
 * same garment moved out with --translate runs; so does the shipped
 * T-shirt, with --obstacle a body given as a mesh instead of the proxy. */
static void test_start_inside(void)
{
    char path[1024], args[4096], out[8192];
    cloth_mesh shirt;
    char msg[COREPCG_MSG_SIZE] = "";
    snprintf(path, sizeof path, "%s/tshirt.obj", COREPCG_DATA_DIR "/meshes");
    if (cloth_mesh_read_obj(path, &shirt, msg) != COREPCG_OK) {
        CHECK(0, "%s", msg);
        return;
    }
    for (int i = 0; i < shirt.num_vertices; i++)
        shirt.x[3 * i + 2] -= 0.3; /* down onto the hips */
    snprintf(path, sizeof path, "%s/low.obj", tmpdir);
    fixture_write_mesh(path, &shirt);
    cloth_mesh_free(&shirt);
    snprintf(args, sizeof args, "simulate garment --mesh %s --steps 2", path);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    CHECK_STR_CONTAINS(out, "168 of 3560 vertices start inside the scene's body proxy");
    CHECK_STR_CONTAINS(out, "--translate X Y Z");
    CHECK_STR_CONTAINS(out, "--scale S");
    CHECK_STR_CONTAINS(out, "--obstacle FILE.obj");
    snprintf(args, sizeof args, "simulate garment --mesh %s --steps 2 --translate 0 0 0.3",
             path);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    CHECK_STR_CONTAINS(out, "2 steps");
    /* a body given with --obstacle replaces the proxy: the low shirt
     * starts (over a floor, its body for the test) */
    char floor[1024];
    snprintf(floor, sizeof floor, "%s/low_floor.obj", tmpdir);
    write_text(floor, "v -5 -5 0\nv 5 -5 0\nv 5 5 0\nv -5 5 0\nf 1 2 3\nf 1 3 4\n");
    snprintf(args, sizeof args, "simulate garment --mesh %s --steps 2 --obstacle %s", path,
             floor);
    CHECK(fixture_run_cli(args, out, sizeof out) == 0, "%s: %s", args, out);
    snprintf(args, sizeof args, "gen garment --mesh %s --steps 1 --translate 0 0 0.3 "
             "--out %s/gen", path, tmpdir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    /* --scale about the origin: half the size puts the shirt on the hips */
    snprintf(args, sizeof args, "simulate garment --mesh %s/meshes/tshirt.obj --steps 1 "
             "--scale 0.5", COREPCG_DATA_DIR);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    CHECK_STR_CONTAINS(out, "vertices start inside the scene's body proxy");

    /* the shipped meshes in their scenes start */
    const char *shipped[][2] = {{"garment", "tshirt.obj"}, {"garment", "tshirt_coarse.obj"},
                                {"drape", "dress.obj"}, {"hang", "dress.obj"}};
    for (size_t k = 0; k < sizeof shipped / sizeof shipped[0]; k++) {
        snprintf(args, sizeof args, "simulate %s --mesh %s/meshes/%s --steps 2", shipped[k][0],
                 COREPCG_DATA_DIR, shipped[k][1]);
        CHECK(fixture_run_cli(args, out, sizeof out) == 0, "%s: %s", args, out);
    }

    /* a mesh obstacle, inside which a grid starts */
    const double c[3] = {0.5, 0.5, 0.0};
    cloth_mesh ball;
    if (icosphere(2, 0.25, c, &ball) == COREPCG_OK) { /* faces sag 3 mm at most */
        snprintf(path, sizeof path, "%s/ball.obj", tmpdir);
        fixture_write_mesh(path, &ball);
        cloth_mesh_free(&ball);
        snprintf(args, sizeof args, "simulate free --size 11 --steps 2 --obstacle %s", path);
        CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
        CHECK_STR_CONTAINS(out, "21 of 121 vertices start inside ball.obj");
    }
}

/* bench takes the obstacles into every scene it runs. */
static void test_bench(void)
{
    char path[1024], args[4096], out[16384];
    snprintf(path, sizeof path, "%s/floor.obj", tmpdir);
    write_text(path, "v -5 -5 -0.3\nv 5 -5 -0.3\nv 5 5 -0.3\nv -5 5 -0.3\nf 1 2 3\nf 1 3 4\n");
    snprintf(args, sizeof args, "bench --quick --scene drape --sizes 11 --methods icpcg "
             "--obstacle %s", path);
    CHECK(fixture_run_cli(args, out, sizeof out) == 0, "%s: %s", args, out);
    CHECK_STR_CONTAINS(out, "| 11x11 |");
    snprintf(args, sizeof args, "bench --quick --scene drape --sizes 11 --translate 0 0 1");
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 2);
    CHECK_STR_CONTAINS(out, "--translate and --scale move a mesh");
}

/* A flat 5 x 5 sheet of quads, 0.1 m apart, from (at, at, 0), as OBJ. */
static void write_sheet(const char *path, double at)
{
    char text[4096];
    int used = 0;
    for (int r = 0; r < 5; r++)
        for (int c = 0; c < 5; c++)
            used += snprintf(text + used, sizeof text - (size_t)used, "v %g %g 0\n",
                             at + 0.1 * c, at + 0.1 * r);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            int a = 5 * r + c + 1;
            used += snprintf(text + used, sizeof text - (size_t)used, "f %d %d %d %d\n",
                             a, a + 1, a + 6, a + 5);
        }
    write_text(path, text);
}

/* gen and bench step a scene until its cloth touches an obstacle, a mesh
 * obstacle too (an outside review: with --obstacle meshes alone gen wrote
 * step 10 with no contact and bench measured a step without one): a 5 x 5
 * sheet 0.3 m above a floor mesh. */
static void test_first_contact_with_meshes(void)
{
    char sheet[1024], floor_obj[1024], args[4096], out[16384];
    snprintf(sheet, sizeof sheet, "%s/sheet.obj", tmpdir);
    snprintf(floor_obj, sizeof floor_obj, "%s/floor.obj", tmpdir);
    write_sheet(sheet, 0.0);
    write_text(floor_obj, "v -5 -5 -0.3\nv 5 -5 -0.3\nv 5 5 -0.3\nv -5 5 -0.3\n"
                          "f 1 2 3\nf 1 3 4\n");
    snprintf(args, sizeof args, "gen garment --mesh %s --up z --obstacle %s --out %s/first",
             sheet, floor_obj, tmpdir);
    CHECK(fixture_run_cli(args, out, sizeof out) == 0, "%s: %s", args, out);
    int step = 0, contacts = 0;
    const char *at = strstr(out, ", step ");
    const char *c = strstr(out, " contacts");
    CHECK(at && sscanf(at, ", step %d", &step) == 1, "no step in: %s", out);
    while (c && c > out && c[-1] != ' ')
        c--;
    CHECK(c && sscanf(c - 1, " %d", &contacts) == 1, "no contacts in: %s", out);
    CHECK(step > 10 && contacts > 0, "gen wrote step %d with %d contacts: %s", step,
          contacts, out);
    snprintf(args, sizeof args, "bench --scene garment --mesh %s --up z --obstacle %s "
             "--methods direct --k 600 --steps 1 --markdown %s/first.md", sheet, floor_obj,
             tmpdir);
    CHECK(fixture_run_cli(args, out, sizeof out) == 0, "%s: %s", args, out);
    char md[1024];
    snprintf(md, sizeof md, "%s/first.md", tmpdir);
    char *m = fixture_read(md);
    CHECK(m && !strstr(m, "no contact"), "bench found no contact:\n%s", m ? m : "");
    free(m);
}

/* a and b in one mesh, b's triangles wound the other way when `inward`
 * (out's arrays NULL when out of memory). */
static void join_meshes(const cloth_mesh *a, const cloth_mesh *b, int inward, cloth_mesh *out)
{
    memset(out, 0, sizeof *out);
    out->num_vertices = a->num_vertices + b->num_vertices;
    out->num_triangles = a->num_triangles + b->num_triangles;
    out->x = malloc(3 * sizeof(double) * (size_t)out->num_vertices);
    out->triangles = malloc(3 * sizeof(int) * (size_t)out->num_triangles);
    if (!out->x || !out->triangles)
        return;
    memcpy(out->x, a->x, 3 * sizeof(double) * (size_t)a->num_vertices);
    memcpy(out->x + 3 * a->num_vertices, b->x, 3 * sizeof(double) * (size_t)b->num_vertices);
    memcpy(out->triangles, a->triangles, 3 * sizeof(int) * (size_t)a->num_triangles);
    for (int t = 0; t < b->num_triangles; t++) {
        int *tri = &out->triangles[3 * (a->num_triangles + t)];
        tri[0] = a->num_vertices + b->triangles[3 * t];
        tri[1] = a->num_vertices + b->triangles[3 * t + (inward ? 2 : 1)];
        tri[2] = a->num_vertices + b->triangles[3 * t + (inward ? 1 : 2)];
    }
}

/* Two icospheres (icosphere(levels, ...)) in one mesh, the
 * second wound inward when `inward`. OK, or a code (out then empty). */
static int two_spheres(int levels, const double c1[3], double r1, const double c2[3],
                       double r2, int inward, cloth_mesh *out)
{
    cloth_mesh a, b;
    memset(out, 0, sizeof *out);
    if (icosphere(levels, r1, c1, &a) != COREPCG_OK)
        return COREPCG_ERR_NO_MEMORY;
    if (icosphere(levels, r2, c2, &b) != COREPCG_OK) {
        cloth_mesh_free(&a);
        return COREPCG_ERR_NO_MEMORY;
    }
    join_meshes(&a, &b, inward, out);
    cloth_mesh_free(&a);
    cloth_mesh_free(&b);
    return out->x && out->triangles ? COREPCG_OK : COREPCG_ERR_NO_MEMORY;
}

/* The box [lo, hi] as 12 triangles wound outward, subdivided `levels`
 * times: OK, or a code (out then empty). Corner i has x from bit 0, y
 * from bit 1, z from bit 2 (hi where set). */
static int box_mesh(const double lo[3], const double hi[3], int levels, cloth_mesh *out)
{
    static const int faces[12][3] = {
        {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5},  /* -x, +x */
        {0, 1, 5}, {0, 5, 4}, {2, 6, 7}, {2, 7, 3},  /* -y, +y */
        {0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}}; /* -z, +z */
    double x[24];
    for (int i = 0; i < 8; i++)
        for (int c = 0; c < 3; c++)
            x[3 * i + c] = (i >> c) & 1 ? hi[c] : lo[c];
    cloth_mesh box = {.num_vertices = 8, .num_triangles = 12, .x = x,
                      .triangles = (int *)faces};
    char msg[COREPCG_MSG_SIZE];
    memset(out, 0, sizeof *out);
    return cloth_mesh_subdivide(&box, levels, out, msg);
}

/* Two spheres in one mesh, the second wound inward: each closed part is
 * turned round on its own (an outside review: one volume for the file
 * left the second's normals pointing in, and a cloth above it "started
 * inside"). Points outside either sphere are outside, inside are in. */
static void test_parts_wound_apart(void)
{
    const double c1[3] = {0, 0, 0}, c2[3] = {2, 0, 0};
    cloth_mesh both;
    if (two_spheres(2, c1, 0.8, c2, 0.3, 1, &both) != COREPCG_OK)
        return;
    cloth_mesh_obstacle *ob = NULL;
    char msg[COREPCG_MSG_SIZE] = "";
    CHECK_INT(cloth_mesh_obstacle_create(&both, &ob, msg), COREPCG_OK);
    const struct { double x[3]; int inside; } probes[] = {
        {{2, 0, 0.35}, 0}, {{2, 0, 0.1}, 1}, {{2.4, 0, 0}, 0},
        {{0, 0, 0.9}, 0}, {{0, 0, 0.5}, 1}};
    for (size_t k = 0; ob && k < sizeof probes / sizeof probes[0]; k++) {
        cloth_surface_point sp;
        CHECK(cloth_mesh_obstacle_closest(ob, probes[k].x, INFINITY, &sp), "probe %zu", k);
        CHECK((sp.distance < 0) == probes[k].inside, "probe %zu (%g %g %g): distance %g",
              k, probes[k].x[0], probes[k].x[1], probes[k].x[2], sp.distance);
    }
    cloth_mesh_obstacle_free(&ob);
    cloth_mesh_free(&both);
}

/* Two overlapping spheres in one mesh, as the shipped body's limbs
 * overlap: the obstacle is their union. A point inside the big one whose
 * nearest surface is the small one's cap buried in it is inside (an
 * outside review: it read as outside, and a garment started there), and
 * a point inside goes out through the union's surface, not through a
 * part's surface buried in the other (the same review: it was sent onto
 * the big sphere inside the small one). The spheres' surfaces cross on
 * the circle x = 0.9125, radius 0.4093 (cos 24.1 degrees on the big
 * one), so from (0.6, 0, 0), whose nearest surface point (1, 0, 0) is
 * buried, the way out is to that circle, 0.515 away; from (0.85, 0, 0),
 * inside both, 0.414; from (0.4, 0, 0), 0.656. The meshes' seam lies
 * inside the round one by up to a triangle's sag. */
static void test_overlapping_parts(void)
{
    const double c1[3] = {0, 0, 0}, c2[3] = {1.2, 0, 0};
    cloth_mesh both;
    if (two_spheres(3, c1, 1.0, c2, 0.5, 0, &both) != COREPCG_OK)
        return;
    cloth_mesh_obstacle *ob = NULL;
    char msg[COREPCG_MSG_SIZE] = "";
    CHECK_INT(cloth_mesh_obstacle_create(&both, &ob, msg), COREPCG_OK);
    /* x, inside?, and the depth when inside (to the big sphere's surface) */
    /* x, inside?, and the depth when inside (to the union's surface) */
    const struct { double x[3]; int inside; double depth; } probes[] = {
        {{0.6, 0, 0}, 1, 0.515}, {{0.6, 0.05, 0}, 1, 0.476}, {{0.85, 0, 0}, 1, 0.414},
        {{0.4, 0, 0}, 1, 0.656}, {{1.5, 0, 0}, 1, 0.2}, {{0, 0, 1.2}, 0, 0},
        {{1.8, 0, 0}, 0, 0}};
    for (size_t k = 0; ob && k < sizeof probes / sizeof probes[0]; k++) {
        cloth_surface_point sp;
        CHECK(cloth_mesh_obstacle_closest(ob, probes[k].x, INFINITY, &sp), "probe %zu", k);
        CHECK((sp.distance < 0) == probes[k].inside, "probe %zu (%g %g %g): distance %g",
              k, probes[k].x[0], probes[k].x[1], probes[k].x[2], sp.distance);
        if (!probes[k].inside)
            continue;
        CHECK_NEAR(-sp.distance, probes[k].depth, 0.03);
        /* the way out: q is x's distance away, in neither sphere, and
         * the normal there points out of the one it is on */
        double to_q = 0, from_c1 = 0, from_c2 = 0, along = 0;
        for (int c = 0; c < 3; c++) {
            to_q += (sp.q[c] - probes[k].x[c]) * (sp.q[c] - probes[k].x[c]);
            from_c1 += (sp.q[c] - c1[c]) * (sp.q[c] - c1[c]);
            from_c2 += (sp.q[c] - c2[c]) * (sp.q[c] - c2[c]);
        }
        CHECK_NEAR(sqrt(to_q), -sp.distance, 1e-12);
        CHECK(sqrt(from_c1) > 0.99 && sqrt(from_c2) > 0.49,
              "probe %zu: q (%g %g %g) inside a sphere", k, sp.q[0], sp.q[1], sp.q[2]);
        const double *c = fabs(sqrt(from_c1) - 1.0) < fabs(sqrt(from_c2) - 0.5) ? c1 : c2;
        for (int i = 0; i < 3; i++)
            along += (sp.q[i] - c[i]) * sp.normal[i];
        CHECK(along > 0, "probe %zu: the normal at q points in", k);
        /* within a radius that reaches no surface that holds it: nothing */
        if (probes[k].inside && probes[k].depth > 0.3)
            CHECK(!cloth_mesh_obstacle_closest(ob, probes[k].x, 0.05, &sp) ||
                      sp.distance > 0,
                  "probe %zu at radius 0.05", k);
    }
    cloth_mesh_obstacle_free(&ob);
    /* one closed part and an open one through it (a floor through a
     * body, in one file): the point above the floor inside the sphere is
     * inside (an independent review: with one closed part no part had a
     * tree of its own) */
    const double c0[3] = {0, 0, 0};
    cloth_mesh sphere;
    if (icosphere(3, 1.0, c0, &sphere) == COREPCG_OK) {
        int V = sphere.num_vertices, T = sphere.num_triangles;
        sphere.x = realloc(sphere.x, 3 * sizeof(double) * (size_t)(V + 4));
        sphere.triangles = realloc(sphere.triangles, 3 * sizeof(int) * (size_t)(T + 2));
        const double corner[4][3] = {{-2, -2, -0.05}, {2, -2, -0.05}, {2, 2, -0.05},
                                     {-2, 2, -0.05}};
        memcpy(&sphere.x[3 * V], corner, sizeof corner);
        const int quad[6] = {V, V + 1, V + 2, V, V + 2, V + 3};
        memcpy(&sphere.triangles[3 * T], quad, sizeof quad);
        sphere.num_vertices = V + 4;
        sphere.num_triangles = T + 2;
        CHECK_INT(cloth_mesh_obstacle_create(&sphere, &ob, msg), COREPCG_OK);
        const double x[3] = {0.1, 0, 0};
        cloth_surface_point sp;
        CHECK(ob && cloth_mesh_obstacle_closest(ob, x, INFINITY, &sp) && sp.distance < -0.8,
              "inside the sphere above its floor: distance %g", ob ? sp.distance : 0.0);
        cloth_mesh_obstacle_free(&ob);
        cloth_mesh_free(&sphere);
    }
    cloth_mesh_free(&both);
}

/* A beam through a box's face, in one mesh: flat faces, so the union's
 * surface is known exactly. From inside the box near the face x = 2,
 * where the beam's end is buried, the way out is the face beside the
 * beam's side y = 0.55, not the face inside the beam; and a point whose
 * nearest face point is beside the beam keeps it (an independent review:
 * every triangle with a corner in the beam counted as wholly buried, so
 * (1.95, 0.52, 1) was sent to y = 0.5, 0.054 away, not 0.05). */
static void test_beam_through_box(void)
{
    const double lo1[3] = {0, 0, 0}, hi1[3] = {2, 2, 2};
    const double lo2[3] = {1.1, 0.55, 0.55}, hi2[3] = {3.1, 1.45, 1.45};
    cloth_mesh a, b, both;
    if (box_mesh(lo1, hi1, 3, &a) != COREPCG_OK)
        return;
    if (box_mesh(lo2, hi2, 3, &b) != COREPCG_OK) {
        cloth_mesh_free(&a);
        return;
    }
    join_meshes(&a, &b, 0, &both);
    cloth_mesh_obstacle *ob = NULL;
    char msg[COREPCG_MSG_SIZE] = "";
    CHECK_INT(cloth_mesh_obstacle_create(&both, &ob, msg), COREPCG_OK);
    /* x, and its nearest point on the union's surface */
    const struct { double x[3], q[3]; } probes[] = {
        {{1.9, 0.8, 1.0}, {2, 0.55, 1.0}},
        {{1.95, 0.7, 0.9}, {2, 0.55, 0.9}},
        {{1.95, 0.52, 1.0}, {2, 0.52, 1.0}},
        {{1.9, 1.0, 0.62}, {2, 1.0, 0.55}},
        {{2.5, 1.0, 1.2}, {2.5, 1.0, 1.45}}};
    for (size_t k = 0; ob && k < sizeof probes / sizeof probes[0]; k++) {
        cloth_surface_point sp;
        double depth = 0;
        for (int c = 0; c < 3; c++)
            depth += (probes[k].q[c] - probes[k].x[c]) * (probes[k].q[c] - probes[k].x[c]);
        CHECK(cloth_mesh_obstacle_closest(ob, probes[k].x, INFINITY, &sp), "probe %zu", k);
        CHECK_NEAR(sp.distance, -sqrt(depth), 1e-9);
        for (int c = 0; c < 3; c++)
            CHECK_NEAR(sp.q[c], probes[k].q[c], 1e-9);
    }
    cloth_mesh_obstacle_free(&ob);
    cloth_mesh_free(&both);
    cloth_mesh_free(&a);
    cloth_mesh_free(&b);
}

/* A small sphere through one large triangle of a coarse box (2 triangles
 * a face): every corner of that triangle is outside the sphere, so the
 * corners' distances say none of it is buried, yet its middle is. The
 * way out from under it is on the sphere's rim at the box's top, 0.997
 * away, not the triangle's point inside the sphere, 0.05 away (a second
 * independent review). */
static void test_sphere_through_coarse_face(void)
{
    const double lo[3] = {0, 0, 0}, hi[3] = {10, 10, 10}, c[3] = {7, 3, 10};
    cloth_mesh box, ball, both;
    if (box_mesh(lo, hi, 0, &box) != COREPCG_OK)
        return;
    if (icosphere(3, 1.0, c, &ball) != COREPCG_OK) {
        cloth_mesh_free(&box);
        return;
    }
    join_meshes(&box, &ball, 0, &both);
    cloth_mesh_obstacle *ob = NULL;
    char msg[COREPCG_MSG_SIZE] = "";
    CHECK_INT(cloth_mesh_obstacle_create(&both, &ob, msg), COREPCG_OK);
    const double x[3] = {7, 3, 9.95};
    cloth_surface_point sp;
    if (ob && cloth_mesh_obstacle_closest(ob, x, INFINITY, &sp)) {
        double from_c = sqrt((sp.q[0] - c[0]) * (sp.q[0] - c[0]) +
                             (sp.q[1] - c[1]) * (sp.q[1] - c[1]) +
                             (sp.q[2] - c[2]) * (sp.q[2] - c[2]));
        CHECK_NEAR(sp.distance, -0.997, 0.02);
        CHECK(from_c > 0.98 && sp.q[2] >= 10 - 1e-9, "q (%g %g %g) inside the ball or the box",
              sp.q[0], sp.q[1], sp.q[2]);
    } else {
        CHECK(0, "no closest point");
    }
    cloth_mesh_obstacle_free(&ob);
    cloth_mesh_free(&both);
    cloth_mesh_free(&box);
    cloth_mesh_free(&ball);
}

/* A garment wholly within the contact margin of a mesh obstacle is
 * refused, with no --up advice: --up turns the obstacles with the
 * garment, and so does the search for the advice (an outside review: it
 * turned the garment alone and said "try --up y", and under --up y "try
 * --up z"). */
static void test_no_circular_up_advice(void)
{
    char sheet[1024], floor_obj[1024], args[4096], out[16384];
    snprintf(sheet, sizeof sheet, "%s/touching.obj", tmpdir);
    snprintf(floor_obj, sizeof floor_obj, "%s/floor.obj", tmpdir);
    write_text(sheet, "v 0 0 0.0005\nv 0.01 0 0.0005\nv 0 0.01 0.0005\nf 1 2 3\n");
    write_text(floor_obj, "v -5 -5 0\nv 5 -5 0\nv 5 5 0\nv -5 5 0\nf 1 2 3\nf 1 3 4\n");
    const char *ups[] = {"z", "y"};
    for (int k = 0; k < 2; k++) {
        snprintf(args, sizeof args, "simulate garment --mesh %s --obstacle %s --up %s "
                 "--steps 1", sheet, floor_obj, ups[k]);
        CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
        CHECK_STR_CONTAINS(out, "no vertex of 3 is free: 0 fixed, 3 touching");
        CHECK(!strstr(out, "try --up"), "--up %s: %s", ups[k], out);
    }
}

/* The --up advice with --translate: the advised axis starts (an
 * independent review: the advice turned the moved mesh about the origin,
 * where --up turns it before --translate; "try --up y" was then refused
 * as inside the obstacle). A flat 5 x 5 sheet lifted by 1 m, a ball at
 * (0, 1, 0). */
static void test_up_advice_with_translate(void)
{
    char sheet[1024], ball[1024], args[4096], out[16384];
    snprintf(sheet, sizeof sheet, "%s/flat.obj", tmpdir);
    snprintf(ball, sizeof ball, "%s/ball_y1.obj", tmpdir);
    write_sheet(sheet, -0.2);
    const double centre[3] = {0, 1, 0};
    cloth_mesh sphere;
    if (icosphere(2, 0.5, centre, &sphere) != COREPCG_OK)
        return;
    size_t cap = 64 * (size_t)(sphere.num_vertices + sphere.num_triangles) + 1;
    char *obj = malloc(cap);
    size_t len = 0;
    for (int i = 0; obj && i < sphere.num_vertices; i++)
        len += (size_t)snprintf(obj + len, cap - len, "v %.17g %.17g %.17g\n",
                                sphere.x[3 * i], sphere.x[3 * i + 1], sphere.x[3 * i + 2]);
    for (int t = 0; obj && t < sphere.num_triangles; t++)
        len += (size_t)snprintf(obj + len, cap - len, "f %d %d %d\n",
                                sphere.triangles[3 * t] + 1, sphere.triangles[3 * t + 1] + 1,
                                sphere.triangles[3 * t + 2] + 1);
    if (obj)
        write_text(ball, obj);
    free(obj);
    cloth_mesh_free(&sphere);
    snprintf(args, sizeof args, "simulate hang --mesh %s --obstacle %s --translate 0 0 1 "
             "--steps 1", sheet, ball);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    const char *try_up = strstr(out, "try --up ");
    char axis[8] = "";
    CHECK(try_up && sscanf(try_up, "try --up %7s", axis) == 1, "no advice: %s", out);
    if (!axis[0])
        return;
    snprintf(args, sizeof args, "simulate hang --mesh %s --obstacle %s --translate 0 0 1 "
             "--up %s --steps 1", sheet, ball, axis);
    CHECK(fixture_run_cli(args, out, sizeof out) == 0, "the advised --up %s: %s", axis, out);
}

/* The last row's contacts of a simulate --csv file, and those `back`
 * rows before it; -1 when unreadable. */
static int csv_contacts(const char *path, int back, int *earlier)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int rows[256], count = 0;
    while (f && fgets(line, sizeof line, f))
        if (line[0] >= '0' && line[0] <= '9' && count < 256)
            sscanf(line, "%*d,%d", &rows[count++]);
    if (f)
        fclose(f);
    *earlier = count > back ? rows[count - 1 - back] : -1;
    return count ? rows[count - 1] : -1;
}

/* The dressed scene: the shipped top settles on the shipped body with
 * more than 15% of its vertices in contact, with either model; bench
 * runs it. */
static void test_dressed(void)
{
    char args[4096], out[16384], csv[1024];
    const char *models[2] = {"springs", "fem"};
    for (int k = 0; k < 2; k++) {
        snprintf(csv, sizeof csv, "%s/dressed-%s.csv", tmpdir, models[k]);
        snprintf(args, sizeof args, "simulate dressed --mesh %s/meshes/top.obj --obstacle "
                 "%s/meshes/body.obj --model %s --steps 30 --csv %s", COREPCG_DATA_DIR,
                 COREPCG_DATA_DIR, models[k], csv);
        CHECK(fixture_run_cli(args, out, sizeof out) == 0, "%s: %s", args, out);
        CHECK_STR_CONTAINS(out, "2976 vertices");
        int earlier, last = csv_contacts(csv, 10, &earlier);
        printf("dressed, %s: %d of 2976 vertices in contact at step 30 (%.1f%%), %d at "
               "step 20\n", models[k], last, 100.0 * last / 2976, earlier);
        CHECK(last * 100 >= 15 * 2976, "%s: %d contacts", models[k], last);
        /* settled: the contacts hold */
        CHECK(abs(last - earlier) * 20 <= last, "%s: %d then %d", models[k], earlier, last);
    }
    snprintf(args, sizeof args, "bench --quick --scene dressed --model springs --k 600 "
             "--methods icpcg");
    CHECK(fixture_run_cli(args, out, sizeof out) == 0, "%s: %s", args, out);
    CHECK_STR_CONTAINS(out, "| top.obj on body.obj | 600 |");
}

/* Obstacle files get the mesh reader's checks, and a size limit read
 * without storing what is past it. */
static void test_bad_obstacles(void)
{
    char path[1024], args[4096], out[8192];
    struct {
        const char *name, *text, *message;
    } bad[] = {
        {"empty.obj", "# nothing\n", "empty.obj: no vertices"},
        {"points.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n", "points.obj: no faces"},
        {"nan.obj", "v 0 0 0\nv 1 0 0\nv nan 1 0\nf 1 2 3\n", "nan.obj:3: number 'nan'"},
        {"flat.obj", "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n", "flat.obj:4"},
        {"twisted.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 3 4\n",
         "twisted.obj:6: the triangle runs an edge the same way as its neighbour"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, bad[k].name);
        write_text(path, bad[k].text);
        snprintf(args, sizeof args, "simulate drape --size 5 --steps 1 --obstacle %s", path);
        CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
        CHECK_STR_CONTAINS(out, bad[k].message);
    }
    /* a NUL byte */
    snprintf(path, sizeof path, "%s/nul.obj", tmpdir);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite("v 0 0 0\nv 1 0\0 0\n", 1, 17, f);
        fclose(f);
    }
    snprintf(args, sizeof args, "gen drape --size 5 --out %s/nul --obstacle %s", tmpdir, path);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    CHECK_STR_CONTAINS(out, "nul.obj:2: NUL byte");
    snprintf(path, sizeof path, "%s/nul", tmpdir);
    CHECK(access(path, F_OK) != 0, "a refused gen writes nothing");

    /* the limit: a file of 1000 triangles read with a limit of 100 tells
     * its size, storing at most 100 */
    snprintf(path, sizeof path, "%s/fan.obj", tmpdir);
    f = fopen(path, "w");
    if (f) {
        fprintf(f, "v 0 0 0\n");
        for (int k = 0; k <= 1000; k++)
            fprintf(f, "v %g %g 0\n", cos(k * 0.006), sin(k * 0.006));
        for (int k = 0; k < 1000; k++)
            fprintf(f, "f 1 %d %d\n", k + 2, k + 3);
        fclose(f);
    }
    cloth_mesh m;
    char msg[COREPCG_MSG_SIZE] = "";
    CHECK_INT(cloth_mesh_read_obj_bounded(path, 100, &m, NULL, msg), COREPCG_ERR_TOO_LARGE);
    CHECK_STR_CONTAINS(msg, "1002 vertices and 1000 triangles: more than the 100");
    CHECK(m.x == NULL && m.num_vertices == 0, "nothing kept");
    CHECK_INT(cloth_mesh_read_obj_bounded(path, 2000, &m, NULL, msg), COREPCG_OK);
    CHECK_INT(m.num_triangles, 1000);
    cloth_mesh_free(&m);

    /* the CLI's limit, on a face of more corners than it keeps
     * triangles: counted as streamed, never stored */
    snprintf(path, sizeof path, "%s/huge.obj", tmpdir);
    f = fopen(path, "w");
    if (f) {
        fprintf(f, "v 0 0 0\nv 1 0 0\nv 0 1 0\n");
        /* one face line of many corners: a fan of that many triangles */
        fprintf(f, "f");
        for (long k = 0; k < CLOTH_OBSTACLE_MAX_ITEMS + 3; k++)
            fputs(k % 2 ? " 2" : " 3", f);
        fprintf(f, "\n");
        fclose(f);
    }
    snprintf(args, sizeof args, "simulate drape --size 5 --steps 1 --obstacle %s", path);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    char want[128];
    snprintf(want, sizeof want, "3 vertices and %ld triangles: more than the %ld",
             CLOTH_OBSTACLE_MAX_ITEMS + 1, CLOTH_OBSTACLE_MAX_ITEMS);
    CHECK_STR_CONTAINS(out, want);
}

static void timed(const char *name, void (*test)(void))
{
    double start = cpg_now();
    test();
    printf("%-24s %.2f s\n", name, cpg_now() - start);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        CHECK(0, "mkdtemp failed");
        return test_summary("test_obstacle");
    }
    timed("closest", test_closest);
    timed("parts_wound_apart", test_parts_wound_apart);
    timed("overlapping_parts", test_overlapping_parts);
    timed("beam_through_box", test_beam_through_box);
    timed("sphere_through_coarse_face", test_sphere_through_coarse_face);
    timed("crease", test_crease);
    timed("sphere_drape", test_sphere_drape);
    timed("start_inside", test_start_inside);
    timed("bad_obstacles", test_bad_obstacles);
    timed("bench", test_bench);
    timed("first_contact", test_first_contact_with_meshes);
    timed("no_circular_up_advice", test_no_circular_up_advice);
    timed("up_advice_with_translate", test_up_advice_with_translate);
    timed("dressed", test_dressed);
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        CHECK(0, "%s failed", cmd);
    return test_summary("test_obstacle");
}

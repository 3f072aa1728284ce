/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_amgpcg.c -- amgpcg, PCG preconditioned by a smoothed-aggregation
 * multigrid V-cycle (src/factor/amg.h), through the public API.
 *
 * Asserted:
 *  - on random cloth-like grids (144 and 900 nodes, a quarter of them
 *    constrained), with the default coarsest level and with one of 4
 *    nodes (3-4 levels): tol 1e-10 returns OK, |x - x_dense|_inf <= 1e-7
 *    |x_dense|_inf (LAPACK on [S A + (I - S)] x = S b + (I - S) z),
 *    constraint error <= 1e-12 and relative residual <= 1e-10 measured
 *    here, info's residual within 1e-14 of that one;
 *  - amg_coarse_nodes 1000 on the 900-node grid: one level, solved by
 *    the dense factor, so at most 2 iterations; 0 and 1001 refused at
 *    setup (ERR_ARGUMENT);
 *  - the stretch pairs shuffled and turned round give the same
 *    hierarchy: the same iterations and the same x bit for bit;
 *  - an A with a negative diagonal block: ERR_NOT_SPD naming the node;
 *  - a grid of 10,000 nodes (its finest level swept in parts on two
 *    threads): one thread gives x bit for bit, and a kept handle updated
 *    to new values (analysis reused) gives a fresh handle's x bit for bit;
 *  - FEM garments (the shipped coarse T-shirt subdivided 1, 2 and 3
 *    times: 1.6k to 26k vertices, bending 1e-4 N m, hanging by its
 *    shoulders), three steps each solved by amgpcg at tol 1e-6: every
 *    step converges, and the most iterations at 26k vertices are at most
 *    1.5 times those at 1.6k (corePCG's on the same steps are printed).
 */
#include "cloth_fixture.h"
#include "fixture.h"
#include "corepcg.h"
#include "test.h"
#include "testsys.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

static int amgpcg(void)
{
    return corepcg_method_from_name("amgpcg");
}

static void settings_for(corepcg_settings *s, double tol, int coarse)
{
    corepcg_settings_default(s);
    s->method = (corepcg_method)amgpcg();
    s->tol = tol;
    if (coarse >= 0)
        corepcg_option_set(s, corepcg_option_from_name("amg_coarse_nodes"), coarse);
}

/* A report item of the handle's last solve, by name (-1: none). */
static double item(const corepcg_solver *h, const char *name)
{
    for (int k = 0; k < corepcg_info_count(); k++) {
        double v;
        if (strcmp(corepcg_info_describe(k)->name, name) == 0 &&
            corepcg_info_get(h, k, &v) == COREPCG_OK)
            return v;
    }
    return -1;
}

/* Solves t with coarse (-1: the default) at tol 1e-10 and checks the
 * answer against LAPACK's; returns the levels (0 on failure). */
static int check_accuracy(testsys *t, int coarse, const char *what)
{
    double *x = malloc(sizeof(double) * (size_t)t->n);
    double *xd = malloc(sizeof(double) * (size_t)t->n);
    int levels = 0;
    corepcg_solver *h = NULL;
    corepcg_create(&h);
    corepcg_settings s;
    settings_for(&s, 1e-10, coarse);
    CHECK_INT(testsys_dense_solve(t, t->b, xd), 0);
    int rc = corepcg_setup(h, &t->sys, &s);
    CHECK(rc == COREPCG_OK, "%s: setup %d: %s", what, rc, corepcg_message(h));
    corepcg_info info;
    if (rc == COREPCG_OK) {
        rc = corepcg_solve(h, t->b, NULL, x, &info);
        CHECK(rc == COREPCG_OK, "%s: solve %d: %s", what, rc, corepcg_message(h));
    }
    if (rc == COREPCG_OK) {
        double cons, rres;
        testsys_measures(t, t->b, x, &cons, &rres);
        double err = testsys_max_diff(t->n, x, xd) / testsys_max_abs(t->n, xd);
        levels = (int)item(h, "amg_levels");
        printf("%s: %d iterations, %d levels, |x - x_dense| %.1e, residual %.1e, "
               "constraints %.1e\n", what, info.iterations, levels, err, rres, cons);
        CHECK(err <= 1e-7, "%s: |x - x_dense| %.3g", what, err);
        CHECK(cons <= 1e-12 && rres <= 1e-10, "%s: constraints %.3g residual %.3g", what,
              cons, rres);
        /* both relative to |b^|: they differ by the round-off of A x */
        CHECK(fabs(info.rel_residual - rres) <= 1e-14,
              "%s: info's residual %.17g, measured %.17g", what, info.rel_residual, rres);
    }
    corepcg_free(&h);
    free(x);
    free(xd);
    return levels;
}

static void test_accuracy(void)
{
    testsys_opts o;
    testsys t;
    testsys_default_opts(&o, 12, 31);
    CHECK_INT(testsys_make(&t, &o), 0);
    CHECK(check_accuracy(&t, -1, "12x12, default") == 1, "12x12: one level");
    CHECK(check_accuracy(&t, 4, "12x12, coarsest 4") >= 3, "12x12: 3 or more levels");
    testsys_free(&t);
    testsys_default_opts(&o, 30, 32);
    o.k_stretch = 6000;
    CHECK_INT(testsys_make(&t, &o), 0);
    CHECK(check_accuracy(&t, -1, "30x30, default") >= 2, "30x30: 2 or more levels");
    CHECK(check_accuracy(&t, 4, "30x30, coarsest 4") >= 4, "30x30: 4 or more levels");
    testsys_free(&t);
}

static void test_coarse_option(void)
{
    testsys_opts o;
    testsys t;
    testsys_default_opts(&o, 30, 33);
    CHECK_INT(testsys_make(&t, &o), 0);
    double *x = malloc(sizeof(double) * (size_t)t.n);
    corepcg_solver *h = NULL;
    corepcg_create(&h);
    corepcg_settings s;
    corepcg_info info;
    settings_for(&s, 1e-10, 1000);
    CHECK_INT(corepcg_setup(h, &t.sys, &s), COREPCG_OK);
    CHECK_INT(corepcg_solve(h, t.b, NULL, x, &info), COREPCG_OK);
    CHECK(item(h, "amg_levels") == 1 && info.iterations <= 2,
          "coarsest 1000 on 900 nodes: %g levels, %d iterations", item(h, "amg_levels"),
          info.iterations);
    const int bad[2] = {0, 1001};
    for (int k = 0; k < 2; k++) {
        settings_for(&s, 1e-10, bad[k]);
        CHECK_INT(corepcg_setup(h, &t.sys, &s), COREPCG_ERR_ARGUMENT);
        CHECK_STR_CONTAINS(corepcg_message(h), "amg_coarse_nodes");
    }
    corepcg_free(&h);
    free(x);
    testsys_free(&t);
}

/* The pairs in another order, each turned round: the graph the finest
 * level is aggregated on is the same, so is everything after it. */
static void test_pair_order(void)
{
    testsys_opts o;
    testsys t;
    testsys_default_opts(&o, 30, 34);
    CHECK_INT(testsys_make(&t, &o), 0);
    double *x[2] = {malloc(sizeof(double) * (size_t)t.n), malloc(sizeof(double) * (size_t)t.n)};
    int iterations[2] = {-1, -2};
    int *shuffled = malloc(sizeof(int) * 2 * (size_t)t.nstretch);
    testsys_rng rng;
    testsys_rng_seed(&rng, 35);
    int *order = malloc(sizeof(int) * (size_t)t.nstretch);
    for (int e = 0; e < t.nstretch; e++)
        order[e] = e;
    for (int e = t.nstretch - 1; e > 0; e--) {
        int f = (int)(testsys_uniform(&rng) * (e + 1));
        int tmp = order[e];
        order[e] = order[f < e ? f : e];
        order[f < e ? f : e] = tmp;
    }
    for (int e = 0; e < t.nstretch; e++) {
        shuffled[2 * e] = t.pairs[2 * order[e] + 1];
        shuffled[2 * e + 1] = t.pairs[2 * order[e]];
    }
    for (int k = 0; k < 2; k++) {
        corepcg_system sys = t.sys;
        if (k)
            sys.stretch_pairs = shuffled;
        corepcg_solver *h = NULL;
        corepcg_create(&h);
        corepcg_settings s;
        corepcg_info info;
        settings_for(&s, 1e-10, 4);
        CHECK_INT(corepcg_setup(h, &sys, &s), COREPCG_OK);
        CHECK_INT(corepcg_solve(h, t.b, NULL, x[k], &info), COREPCG_OK);
        iterations[k] = info.iterations;
        corepcg_free(&h);
    }
    CHECK(iterations[0] == iterations[1] &&
              memcmp(x[0], x[1], sizeof(double) * (size_t)t.n) == 0,
          "pairs reordered: %d vs %d iterations, |dx| %.3g", iterations[0], iterations[1],
          testsys_max_diff(t.n, x[0], x[1]));
    free(order);
    free(shuffled);
    free(x[0]);
    free(x[1]);
    testsys_free(&t);
}

static void test_not_spd(void)
{
    testsys_opts o;
    testsys t;
    testsys_default_opts(&o, 20, 36);
    o.frac_constrained = 0;
    CHECK_INT(testsys_make(&t, &o), 0);
    testsys_negate_diagonal_block(&t, 57);
    double *x = malloc(sizeof(double) * (size_t)t.n);
    corepcg_solver *h = NULL;
    corepcg_create(&h);
    corepcg_settings s;
    settings_for(&s, 1e-8, -1);
    int rc = corepcg_setup(h, &t.sys, &s);
    CHECK_INT(rc, COREPCG_ERR_NOT_SPD);
    CHECK_STR_CONTAINS(corepcg_message(h), "node 57's diagonal block");
    corepcg_free(&h);
    free(x);
    testsys_free(&t);
}

/* A grid of 10,000 nodes: its finest level is swept in parts on two
 * threads. One thread gives the same x bit for bit, and a kept handle
 * updated to new values what a fresh one gives. */
static void test_threads_and_kept(void)
{
    testsys_opts o;
    testsys t;
    testsys_default_opts(&o, 100, 37);
    o.k_stretch = 6000;
    CHECK_INT(testsys_make(&t, &o), 0);
    double *x[3];
    int iterations[3] = {-1, -2, -3};
    for (int k = 0; k < 3; k++)
        x[k] = malloc(sizeof(double) * (size_t)t.n);
    corepcg_settings s;
    corepcg_info info;
    settings_for(&s, 1e-8, -1);
    corepcg_solver *kept = NULL;
    corepcg_create(&kept);
    for (int k = 0; k < 2; k++) {
        omp_set_num_threads(k ? 1 : 2);
        corepcg_solver *h = NULL;
        corepcg_create(&h);
        CHECK_INT(corepcg_setup(h, &t.sys, &s), COREPCG_OK);
        CHECK_INT(corepcg_solve(h, t.b, NULL, x[k], &info), COREPCG_OK);
        iterations[k] = info.iterations;
        corepcg_free(&h);
    }
    omp_set_num_threads(2);
    CHECK(iterations[0] == iterations[1] &&
              memcmp(x[0], x[1], sizeof(double) * (size_t)t.n) == 0,
          "two threads %d iterations, one %d, |dx| %.3g", iterations[0], iterations[1],
          testsys_max_diff(t.n, x[0], x[1]));
    CHECK_INT(corepcg_setup(kept, &t.sys, &s), COREPCG_OK);
    CHECK_INT(corepcg_solve(kept, t.b, NULL, x[2], &info), COREPCG_OK);
    testsys_scale(&t, 3.0); /* new values, the same pattern */
    corepcg_info up;
    CHECK_INT(corepcg_update(kept, &t.sys, &up), COREPCG_OK);
    CHECK_INT(up.analysis_reused, 1);
    CHECK_INT(corepcg_solve(kept, t.b, NULL, x[2], &info), COREPCG_OK);
    corepcg_solver *fresh = NULL;
    corepcg_create(&fresh);
    corepcg_info finfo;
    CHECK_INT(corepcg_setup(fresh, &t.sys, &s), COREPCG_OK);
    CHECK_INT(corepcg_solve(fresh, t.b, NULL, x[0], &finfo), COREPCG_OK);
    CHECK(info.iterations == finfo.iterations &&
              memcmp(x[0], x[2], sizeof(double) * (size_t)t.n) == 0,
          "kept %d iterations, fresh %d, |dx| %.3g", info.iterations, finfo.iterations,
          testsys_max_diff(t.n, x[0], x[2]));
    printf("10,000 nodes: %d iterations on one thread and two, %d kept and fresh\n",
           iterations[0], info.iterations);
    corepcg_free(&fresh);
    corepcg_free(&kept);
    for (int k = 0; k < 3; k++)
        free(x[k]);
    testsys_free(&t);
}

/* The most iterations amgpcg (and corepcg, on the same systems) took over
 * three steps of the coarse T-shirt subdivided `levels` times, hanging. */
static void garment_steps(const cloth_mesh *coarse, int levels, int *amg, int *core,
                          int *vertices)
{
    char msg[COREPCG_MSG_SIZE] = "";
    cloth_mesh mesh;
    *amg = *core = -1;
    CHECK_INT(cloth_mesh_subdivide(coarse, levels, &mesh, msg), COREPCG_OK);
    cloth_params p;
    cloth_params_default_mesh(&p, CLOTH_SCENE_HANG, &mesh);
    p.model = CLOTH_MODEL_FEM;
    p.k_stretch = 6000;
    p.bending = 1e-4;
    cloth_sim *sim = fixture_sim(&p, "hanging T-shirt");
    *vertices = mesh.num_vertices;
    cloth_mesh_free(&mesh);
    if (!sim)
        return;
    corepcg_settings s, sc;
    settings_for(&s, 1e-6, -1);
    corepcg_settings_default(&sc);
    sc.method = COREPCG_METHOD_COREPCG;
    sc.tol = 1e-6;
    double *x = malloc(sizeof(double) * (size_t)sim->model.n);
    *amg = *core = 0;
    for (int step = 0; step < 3; step++) {
        cloth_assemble(sim, NULL);
        corepcg_system sys;
        cloth_system(sim, &sys);
        corepcg_info info;
        corepcg_solver *h = NULL;
        corepcg_create(&h);
        CHECK_INT(corepcg_setup(h, &sys, &sc), COREPCG_OK);
        CHECK_INT(corepcg_solve(h, sim->b, NULL, x, &info), COREPCG_OK);
        *core = info.iterations > *core ? info.iterations : *core;
        corepcg_free(&h);
        int rc = cloth_solve(sim, &s, msg);
        CHECK(rc == COREPCG_OK, "%d vertices, step %d: %s", *vertices, step, msg);
        CHECK(sim->info.converged && sim->info.rel_residual <= 1e-6,
              "%d vertices, step %d: converged %d, residual %.3g", *vertices, step,
              sim->info.converged, sim->info.rel_residual);
        *amg = sim->info.iterations > *amg ? sim->info.iterations : *amg;
        cloth_advance(sim);
    }
    free(x);
    cloth_sim_free(&sim);
}

static void test_garment_scaling(void)
{
    char dir[FIXTURE_PATH], path[FIXTURE_PATH], msg[COREPCG_MSG_SIZE] = "";
    fixture_join(dir, fixture_data_dir(), "meshes");
    fixture_join(path, dir, "tshirt_coarse.obj");
    cloth_mesh coarse;
    CHECK_INT(cloth_mesh_read_obj(path, &coarse, msg), COREPCG_OK);
    int amg[3], core[3], vertices[3];
    for (int k = 0; k < 3; k++) {
        garment_steps(&coarse, k + 1, &amg[k], &core[k], &vertices[k]);
        printf("FEM T-shirt, %d vertices, bending 1e-4: amgpcg %d iterations, "
               "corepcg %d\n", vertices[k], amg[k], core[k]);
    }
    cloth_mesh_free(&coarse);
    CHECK(amg[0] > 0 && amg[2] <= 1.5 * amg[0],
          "amgpcg's iterations from %d to %d vertices: %d -> %d", vertices[0], vertices[2],
          amg[0], amg[2]);
}

int main(void)
{
    CHECK(amgpcg() >= COREPCG_METHODS_NAMED, "amgpcg: %d", amgpcg());
    test_accuracy();
    test_coarse_option();
    test_pair_order();
    test_not_spd();
    test_threads_and_kept();
    test_garment_scaling();
    return test_summary("test_amgpcg");
}

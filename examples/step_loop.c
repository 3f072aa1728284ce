/* SPDX-License-Identifier: GPL-2.0-or-later */
/* step_loop.c -- how a simulator uses corepcg: set up once, then at every
 * step update with the new values and solve. A g x g sheet of nodes joined
 * by stiff springs to their 4 neighbours (the stretch pairs, the matrix
 * core) and weak ones to a diagonal neighbour, A = M + h^2 k L (x) I3, whose stiffness
 * changes every step (same pattern: the analysis is reused); from step 4
 * (the loop's step 3) a free node slides on a plane, which auto's icpcg
 * keeps its analysis through (no node became fixed; what each method
 * keeps is listed at corepcg_update).
 * A monitor counts the iterations as they run (settings.monitor).
 * Prints one line per step and exits non-zero if any step fails its own
 * check (relative residual <= 10 tol, constraint error <= 1e-12, analysis
 * reused exactly when the pattern was kept, one monitor call an
 * iteration). */
#include "corepcg.h"

#include <stdio.h>
#include <stdlib.h>

#define G 12          /* nodes per side */
#define N (G * G)
#define STEPS 6

static int node(int i, int j) { return i * G + j; }

/* The monitor: called after each iteration; 0 lets the solve go on. */
static int count_iterations(int iteration, double residual, void *user)
{
    (void)iteration;
    (void)residual;
    ++*(int *)user;
    return 0;
}

/* Lower triangle of A in triplets: mass on the diagonal, -c per spring
 * between neighbours (times I3), +c per spring on both ends' diagonals. */
static int assemble(double c, int *ri, int *ci, double *v)
{
    int t = 0;
    for (int k = 0; k < 3 * N; k++) {
        ri[t] = ci[t] = k;
        v[t++] = 1.0; /* mass */
    }
    for (int i = 0; i < G; i++)
        for (int j = 0; j < G; j++)
            for (int d = 0; d < 3; d++) {
                /* d = 0, 1: stretch to the next row / column; 2: shear */
                int a = node(i, j), b = -1;
                if (d == 0 && i + 1 < G) b = node(i + 1, j);
                if (d == 1 && j + 1 < G) b = node(i, j + 1);
                if (d == 2 && i + 1 < G && j + 1 < G) b = node(i + 1, j + 1);
                if (b < 0)
                    continue;
                double cs = d == 2 ? 0.05 * c : c;
                for (int x = 0; x < 3; x++) {
                    ri[t] = ci[t] = 3 * a + x; v[t++] = cs;
                    ri[t] = ci[t] = 3 * b + x; v[t++] = cs;
                    ri[t] = 3 * b + x; ci[t] = 3 * a + x; v[t++] = -cs;
                }
            }
    return t;
}

static int stretch_pairs(int *pairs)
{
    int t = 0;
    for (int i = 0; i < G; i++)
        for (int j = 0; j < G; j++) {
            if (j + 1 < G) { pairs[2 * t] = node(i, j); pairs[2 * t + 1] = node(i, j + 1); t++; }
            if (i + 1 < G) { pairs[2 * t] = node(i, j); pairs[2 * t + 1] = node(i + 1, j); t++; }
        }
    return t;
}

int main(void)
{
    enum { MAXNZ = 3 * N + 3 * 3 * 3 * N };
    static int ri[MAXNZ], ci[MAXNZ], pairs[4 * N];
    static double v[MAXNZ], b[3 * N], z[3 * N], x[3 * N], guess[3 * N];
    corepcg_constraint con[3] = {
        {node(0, 0), 0, {0, 0, 0}, {0, 0, 0}},
        {node(0, G - 1), 0, {0, 0, 0}, {0, 0, 0}},
        {node(G / 2, G / 2), 2, {0.0, 0.6, 0.8}, {0, 0, 0}}, /* from step 4 */
    };
    for (int k = 0; k < 3 * N; k++)
        b[k] = (k % 3 == 2) ? -9.81e-3 : 0; /* gravity's impulse */
    z[3 * node(G / 2, G / 2) + 1] = 0.06; /* prescribed normal motion */
    z[3 * node(G / 2, G / 2) + 2] = 0.08;

    corepcg_settings set;
    corepcg_settings_default(&set);
    set.tol = 1e-8;
    int calls = 0;
    set.monitor = count_iterations;
    set.monitor_user = &calls;
    corepcg_solver *h = NULL;
    int failures = 0;
    if (corepcg_create(&h) != COREPCG_OK)
        return 1;
    for (int step = 0; step < STEPS; step++) {
        corepcg_system sys = {0};
        sys.num_nodes = N;
        sys.A_format = COREPCG_TRIPLET;
        sys.A_triangle = COREPCG_LOWER;
        sys.A_nnz = assemble(100.0 * (1 + step), ri, ci, v);
        sys.A_rowidx = ri;
        sys.A_colidx = ci;
        sys.A_values = v;
        sys.num_constraints = step < 3 ? 2 : 3;
        sys.constraints = con;
        sys.z = z;
        sys.num_stretch = stretch_pairs(pairs);
        sys.stretch_pairs = pairs;

        corepcg_info info;
        calls = 0;
        int rc = step == 0 ? corepcg_setup(h, &sys, &set)
                           : corepcg_update(h, &sys, NULL);
        if (rc == COREPCG_OK)
            rc = corepcg_solve(h, b, guess, x, &info);
        if (rc != COREPCG_OK) {
            fprintf(stderr, "step %d: %s: %s\n", step, corepcg_strerror(rc),
                    corepcg_message(h));
            failures++;
            continue;
        }
        /* auto (the default) runs icpcg first and keeps it while it is
         * the fastest; icpcg keeps its analysis on every later step, step
         * 3's new constraint included (a free node starts to slide: ndof
         * 3 -> 2). When auto tries another method, that one sets itself
         * up the first time it runs. */
        int ok = info.rel_residual <= 10 * set.tol &&
                 info.constraint_error <= 1e-12 &&
                 calls == info.iterations &&
                 (info.method_used != COREPCG_METHOD_ICPCG ||
                  info.analysis_reused == (step != 0));
        failures += !ok;
        printf("step %d: %s, r = %d, analysis %s, %d iterations, residual "
               "%.2e, constraint error %.1e%s\n", step,
               corepcg_method_name(info.method_used), info.r,
               info.analysis_reused ? "reused" : "new", info.iterations,
               info.rel_residual, info.constraint_error, ok ? "" : "  FAILED");
        for (int k = 0; k < 3 * N; k++)
            guess[k] = x[k]; /* the previous step's answer */
    }
    corepcg_free(&h);
    printf("%d passed, %d failed\n", STEPS - failures, failures);
    return failures != 0;
}

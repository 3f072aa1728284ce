/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_api.c -- the public handle: create / setup / update / solve / free,
 * settings validation, argument and state errors, status texts, two
 * handles on two threads, the info fields, the matrix core's errors.
 *
 * Asserted:
 *  - setup with NULL settings uses the defaults (auto, running icpcg
 *    first; tol 1e-5 on the true relative residual, met) and
 *    solves; two solves with different b on one handle (tol 1e-12) both
 *    match the dense answer to 1e-8 relative; x0 and x may be one buffer;
 *  - update with the same pattern and new values (new A, b, z, p, q):
 *    analysis_reused 1 and x equal to a fresh setup's to 1e-12 relative
 *    (for corepcg, direct, upcg, mpcg); update with one more constraint,
 *    a changed ndof, a node fixed: analysis_reused 1 for corepcg and
 *    direct (their patterns are the mesh's), 0 for the methods on A~
 *    (icpcg: 1 while the same nodes are free); a new block pattern or new
 *    stretch pairs (corepcg): analysis_reused 0; always the dense answer
 *    to 1e-8;
 *  - a failed update (NaN in A) leaves the previous system usable; one
 *    whose A is read but not positive definite (direct, corepcg) leaves
 *    the handle empty (solve ERR_STATE) and the next update sets up
 *    afresh: x equal to a fresh handle's bit for bit; so does an update
 *    after a setup that failed so; update on a handle never set up, or
 *    whose last setup refused a setting, ERR_STATE;
 *  - tol 0, 1, -1, NaN, max_iter 0, method 99, precond 7, ordering 9,
 *    factor 5, core 3, core_threshold -1, fallback_upcg 2, precond
 *    projected with mpcg / mpcg-bw: each ERR_ARGUMENT, a message naming
 *    the setting, solve afterwards ERR_STATE, and a good setup then works;
 *  - solve / update before setup ERR_STATE; NULL handle, system, b or x
 *    ERR_ARGUMENT; NaN in b ERR_NOT_FINITE with x untouched;
 *    corepcg_free(&h) twice is safe and leaves h NULL;
 *  - corepcg_strerror: non-NULL, pairwise distinct texts for every code
 *    and for 12345 / -12345;
 *  - two handles on two pthreads give bit-identical x to the same solves
 *    run one after the other;
 *  - info: n, r = sum ndof, iterations >= 1 (iterative) / 0 (direct),
 *    nnz_reduced (A~) and nnz_core (the core on all 3N unknowns) as
 *    predicted from the block pattern,
 *    core_blocks = stretch pairs, nnz_factor > 0 (direct, corepcg),
 *    ordering and supernodal as requested, times >= 0 and consistent;
 *  - no stretch pairs with core stretch: ERR_NO_CORE; with core auto it
 *    solves and info.core_blocks > 0;
 *  - a plain core that is not positive definite (A is): corepcg
 *    factorises the compensated core (core_compensated 1), with every
 *    factor kind and with or without fallback_upcg, and solves; a left-out
 *    block that is not symmetric: compensated at once; auto, when
 *    IC(0) broke down on a "triangle mesh" at a tight tol, runs corePCG on
 *    its compensated core (test_reliability: A itself not SPD). */
#include "setup_for.h"
#include "corepcg.h"
#include "test.h"
#include "testsys.h"

#include <lapacke.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#undef I /* <complex.h>, pulled in by lapacke.h: I and J name nodes here */

static double rel_err(int n, const double *x, const double *ref)
{
    double s = testsys_max_abs(n, ref);
    return testsys_max_diff(n, x, ref) / (s > 0 ? s : 1);
}

static int make(testsys *t, int g, unsigned long seed)
{
    testsys_opts o;
    testsys_default_opts(&o, g, seed);
    int rc = testsys_make(t, &o);
    CHECK(rc == 0, "testsys_make(%d, %lu) failed", g, seed);
    return rc;
}

static void settings_for(corepcg_settings *s, corepcg_method m, double tol)
{
    corepcg_settings_default(s);
    s->method = m;
    s->tol = tol;
}

/* ---------------------------------------------------------- lifecycle */

static void test_defaults_and_two_rhs(void)
{
    testsys t;
    if (make(&t, 7, 1))
        return;
    int n = t.n;
    double *x = malloc(sizeof(double) * (size_t)n), *xd = malloc(sizeof(double) * (size_t)n);
    double *b2 = malloc(sizeof(double) * (size_t)n);
    testsys_dense_solve(&t, t.b, xd);
    corepcg_solver *h = NULL;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);
    CHECK(h != NULL, "create gave no handle");
    CHECK(corepcg_message(h) && corepcg_message(h)[0] == '\0',
          "a new handle has a message: \"%s\"", corepcg_message(h));
    CHECK_INT(setup_for(h, &t.sys, NULL), COREPCG_OK);
    corepcg_info info;
    int rc = corepcg_solve(h, t.b, NULL, x, &info);
    CHECK_INT(rc, COREPCG_OK);
    /* the default is auto; with nothing measured yet it runs icpcg first */
    CHECK_INT(info.method, COREPCG_METHOD_AUTO);
    CHECK_INT(info.method_used, COREPCG_METHOD_ICPCG);
    CHECK_INT(info.auto_reason, COREPCG_AUTO_FIRST);
    CHECK_INT(info.converged, 1);
    double cerr, rres;
    testsys_measures(&t, t.b, x, &cerr, &rres);
    /* the default rule: the true relative residual at most tol (round-off
     * apart: this one is computed here, independently) */
    CHECK_LE(rres, COREPCG_DEFAULT_TOL * (1 + 1e-9));
    CHECK_NEAR(rres, info.rel_residual, 1e-12);
    CHECK_LE(cerr, 1e-12);
    printf("defaults: auto (icpcg) %d iterations, relative residual %.3g, "
           "|x - x_dense| / |x| = %.3g\n", info.iterations, rres,
           rel_err(n, x, xd));

    /* tol 1e-12: two right-hand sides on one handle */
    corepcg_settings s;
    settings_for(&s, COREPCG_METHOD_COREPCG, 1e-12);
    CHECK_INT(setup_for(h, &t.sys, &s), COREPCG_OK);
    testsys_rng rng;
    testsys_rng_seed(&rng, 3);
    for (int k = 0; k < n; k++)
        b2[k] = 10 * testsys_sym(&rng);
    for (int rep = 0; rep < 2; rep++) {
        const double *b = rep ? b2 : t.b;
        testsys_dense_solve(&t, b, xd);
        CHECK_INT(corepcg_solve(h, b, NULL, x, &info), COREPCG_OK);
        CHECK_LE(rel_err(n, x, xd), 1e-8);
    }
    /* and the first again, after the second */
    testsys_dense_solve(&t, t.b, xd);
    CHECK_INT(corepcg_solve(h, t.b, t.x0, x, &info), COREPCG_OK);
    CHECK_LE(rel_err(n, x, xd), 1e-8);
    /* the previous answer as the guess, in the same buffer (x0 == x), for
     * every method: the same x as with separate buffers, bit for bit */
    for (int m = 0; m < COREPCG_METHODS_NAMED; m++) {
        settings_for(&s, (corepcg_method)m, 1e-6);
        double *y = malloc(sizeof(double) * (size_t)n);
        double *xs = malloc(sizeof(double) * (size_t)n);
        CHECK_INT(setup_for(h, &t.sys, &s), COREPCG_OK);
        for (int k = 0; k < n; k++)
            y[k] = x[k] = t.x0[k];
        CHECK_INT(corepcg_solve(h, b2, y, xs, NULL), COREPCG_OK);
        CHECK_INT(corepcg_solve(h, b2, x, x, NULL), COREPCG_OK);
        CHECK(memcmp(x, xs, sizeof(double) * (size_t)n) == 0,
              "%s: x0 == x gives another answer (|dx| = %.3g)",
              corepcg_method_name(m), testsys_max_diff(n, x, xs));
        free(y);
        free(xs);
    }
    corepcg_free(&h);
    CHECK(h == NULL, "free did not clear the handle");
    corepcg_free(&h);
    corepcg_free(NULL);
    free(x);
    free(xd);
    free(b2);
    testsys_free(&t);
}

/* t2: other values, same block pattern, same nodes with the same ndof as
 * t1 (other p, q, z, b). */
static int make_same_pattern(const testsys *t1, testsys *t2, unsigned long seed)
{
    if (make(t2, t1->g, seed))
        return -1;
    /* testsys cycles ndof 2, 1, 0 by record index: move t2's records onto
     * t1's nodes and the ndof match */
    corepcg_constraint *c = malloc(sizeof *c * (size_t)t2->ncons);
    memcpy(c, t2->cons, sizeof *c * (size_t)t2->ncons);
    for (int k = 0; k < t2->ncons; k++) {
        c[k].node = t1->cons[k].node;
        CHECK_INT(c[k].ndof, t1->cons[k].ndof);
    }
    testsys_set_constraints(t2, c, t2->ncons);
    free(c);
    /* and t1's stretch pairs (same set, for the core) */
    memcpy(t2->pairs, t1->pairs, sizeof(int) * 2 * (size_t)t1->nstretch);
    return 0;
}

static void test_update(void)
{
    const corepcg_method methods[] = {COREPCG_METHOD_COREPCG,
                                      COREPCG_METHOD_DIRECT,
                                      COREPCG_METHOD_UPCG, COREPCG_METHOD_MPCG,
                                      COREPCG_METHOD_ICPCG};
    testsys t1, t2;
    if (make(&t1, 8, 11))
        return;
    if (make_same_pattern(&t1, &t2, 12)) {
        testsys_free(&t1);
        return;
    }
    int n = t1.n;
    double *x = malloc(sizeof(double) * (size_t)n), *xf = malloc(sizeof(double) * (size_t)n);
    double *xd = malloc(sizeof(double) * (size_t)n);
    for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
        const char *name = corepcg_method_name(methods[m]);
        corepcg_settings s;
        settings_for(&s, methods[m], 1e-12);
        corepcg_solver *h = NULL, *fresh = NULL;
        corepcg_create(&h);
        corepcg_create(&fresh);
        corepcg_info info, finfo;
        CHECK_INT(setup_for(h, &t1.sys, &s), COREPCG_OK);
        CHECK_INT(corepcg_solve(h, t1.b, NULL, x, &info), COREPCG_OK);
        CHECK_INT(info.analysis_reused, 0);

        /* same pattern: reused, same x as a fresh setup */
        memset(&info, 0xff, sizeof info);
        int rc = corepcg_update(h, &t2.sys, &info);
        CHECK(rc == COREPCG_OK, "%s update: rc %d (%s)", name, rc,
              corepcg_message(h));
        CHECK(info.analysis_reused == 1 && info.status == COREPCG_OK &&
              info.time_setup_s >= 0 && info.time_analyze_s == 0,
              "%s update: reused %d status %d setup %.3g analyse %.3g s",
              name, info.analysis_reused, info.status, info.time_setup_s,
              info.time_analyze_s);
        CHECK_INT(corepcg_solve(h, t2.b, t2.x0, x, &info), COREPCG_OK);
        CHECK_INT(info.analysis_reused, 1);
        CHECK_INT(setup_for(fresh, &t2.sys, &s), COREPCG_OK);
        CHECK_INT(corepcg_solve(fresh, t2.b, t2.x0, xf, &finfo), COREPCG_OK);
        double d = rel_err(n, x, xf);
        CHECK(d <= 1e-12, "%s: update vs fresh setup differ by %.3g", name, d);
        CHECK_INT(info.iterations, finfo.iterations);
        testsys_dense_solve(&t2, t2.b, xd);
        CHECK_LE(rel_err(n, x, xd), 1e-8);

        /* a failed update keeps the current system */
        double keep = t1.values[0];
        t1.values[0] = NAN;
        rc = corepcg_update(h, &t1.sys, NULL);
        CHECK_INT(rc, COREPCG_ERR_NOT_FINITE);
        t1.values[0] = keep;
        rc = corepcg_solve(h, t2.b, t2.x0, x, NULL);
        CHECK(rc == COREPCG_OK && rel_err(n, x, xf) <= 1e-12,
              "%s: after a failed update rc %d, |x - x_fresh| = %.3g", name,
              rc, rel_err(n, x, xf));

        /* one more constraint: a new pattern */
        testsys t3;
        make_same_pattern(&t1, &t3, 12);
        corepcg_constraint *c = malloc(sizeof *c * (size_t)(t3.ncons + 1));
        memcpy(c, t3.cons, sizeof *c * (size_t)t3.ncons);
        int free_node = 0;
        while (t3.ndof[free_node] != 3)
            free_node++;
        c[t3.ncons] = (corepcg_constraint){.node = free_node, .ndof = 2,
                                           .p = {0.3, -0.4, 0.5}};
        testsys_set_constraints(&t3, c, t3.ncons + 1);
        /* corepcg's and direct's analyses depend only on the mesh (they
         * factorise on all 3N unknowns): any change of constraints keeps
         * them. icpcg's depends on which nodes are free: a free node that
         * starts sliding (ndof 3 -> 2, or 2 -> 1 below) keeps it; upcg
         * re-analyses on any ndof change; mpcg's analysis (its vectors)
         * holds while N does */
        int size_only = methods[m] == COREPCG_METHOD_MPCG;
        int mesh_only = size_only || methods[m] == COREPCG_METHOD_COREPCG ||
                        methods[m] == COREPCG_METHOD_DIRECT;
        int free_set_only = mesh_only || methods[m] == COREPCG_METHOD_ICPCG;
        rc = corepcg_update(h, &t3.sys, &info);
        CHECK(rc == COREPCG_OK && info.analysis_reused == free_set_only &&
                  info.r == t3.r,
              "%s update, one more constraint: rc %d reused %d r %d (want %d)",
              name, rc, info.analysis_reused, info.r, t3.r);
        CHECK_INT(corepcg_solve(h, t3.b, NULL, x, &info), COREPCG_OK);
        testsys_dense_solve(&t3, t3.b, xd);
        CHECK_LE(rel_err(n, x, xd), 1e-8);

        /* the same nodes, one ndof changed (2 -> 1) */
        c[t3.ncons - 1].ndof = 1;
        c[t3.ncons - 1].q[0] = 0.4;
        c[t3.ncons - 1].q[1] = 0.3;
        c[t3.ncons - 1].q[2] = 0;
        testsys_set_constraints(&t3, c, t3.ncons);
        rc = corepcg_update(h, &t3.sys, &info);
        CHECK(rc == COREPCG_OK && info.analysis_reused == free_set_only &&
                  info.r == t3.r,
              "%s update, ndof 2 -> 1: rc %d reused %d r %d (want %d)", name,
              rc, info.analysis_reused, info.r, t3.r);
        CHECK_INT(corepcg_solve(h, t3.b, NULL, x, &info), COREPCG_OK);
        testsys_dense_solve(&t3, t3.b, xd);
        CHECK_LE(rel_err(n, x, xd), 1e-8);

        /* the node fixed (ndof 0): a new pattern for the methods on A~ */
        c[t3.ncons - 1].ndof = 0;
        testsys_set_constraints(&t3, c, t3.ncons);
        rc = corepcg_update(h, &t3.sys, &info);
        CHECK(rc == COREPCG_OK && info.analysis_reused == mesh_only &&
                  info.r == t3.r,
              "%s update, node fixed: rc %d reused %d r %d (want %d)", name,
              rc, info.analysis_reused, info.r, t3.r);
        CHECK_INT(corepcg_solve(h, t3.b, NULL, x, &info), COREPCG_OK);
        testsys_dense_solve(&t3, t3.b, xd);
        CHECK_LE(rel_err(n, x, xd), 1e-8);
        free(c);
        testsys_free(&t3);

        /* another block pattern: no bend springs */
        testsys_opts o;
        testsys_default_opts(&o, t1.g, 13);
        o.k_bend = 0;
        testsys t4;
        testsys_make(&t4, &o);
        rc = corepcg_update(h, &t4.sys, &info);
        /* (corepcg's core -- the diagonal and stretch blocks -- is the
         * same: it keeps its analysis too) */
        CHECK(rc == COREPCG_OK &&
                  info.analysis_reused ==
                      (size_only || methods[m] == COREPCG_METHOD_COREPCG),
              "%s update, new block pattern: rc %d reused %d", name, rc,
              info.analysis_reused);
        CHECK_INT(corepcg_solve(h, t4.b, NULL, x, &info), COREPCG_OK);
        testsys_dense_solve(&t4, t4.b, xd);
        CHECK_LE(rel_err(n, x, xd), 1e-8);

        /* same A pattern, fewer stretch pairs: the core changes (corepcg
         * only; the other methods do not look at them) */
        testsys t5;
        testsys_make(&t5, &o);
        t5.sys.num_stretch = t5.nstretch / 2;
        CHECK_INT(corepcg_update(h, &t4.sys, NULL), COREPCG_OK);
        rc = corepcg_update(h, &t5.sys, &info);
        CHECK(rc == COREPCG_OK &&
              info.analysis_reused == (methods[m] != COREPCG_METHOD_COREPCG),
              "%s update, half the stretch pairs: rc %d reused %d", name, rc,
              info.analysis_reused);
        CHECK_INT(corepcg_solve(h, t5.b, NULL, x, &info), COREPCG_OK);
        testsys_dense_solve(&t5, t5.b, xd);
        CHECK_LE(rel_err(n, x, xd), 1e-8);
        testsys_free(&t4);
        testsys_free(&t5);
        corepcg_free(&h);
        corepcg_free(&fresh);
    }
    free(x);
    free(xf);
    free(xd);
    testsys_free(&t1);
    testsys_free(&t2);
}

/* ------------------------------------------- a contact spring that moves */

/* t's A as lower-triangle triplets with one coupling moved: block (a, b)
 * left out and a spring [K -K; -K K] (K = k I) added between c and d, as
 * extra triplets that the import sums. A keeps its count of blocks (when
 * a-b is coupled and c-d is not) and stays SPD. Returns the entry count. */
static int moved_coupling(const testsys *t, int a, int b, int c, int d,
                          double k, int *rows, int *cols, double *vals)
{
    int e = 0;
    for (int J = 0; J < t->N; J++)
        for (int q = t->bp[J]; q < t->bp[J + 1]; q++) {
            int I = t->bi[q];
            if ((I == a && J == b) || (I == b && J == a))
                continue;
            for (int col = 0; col < 3; col++)
                for (int row = 0; row < 3; row++)
                    if (3 * I + row >= 3 * J + col) {
                        rows[e] = 3 * I + row;
                        cols[e] = 3 * J + col;
                        vals[e++] = t->bx[9 * q + 3 * col + row];
                    }
        }
    int lo = c < d ? c : d, hi = c < d ? d : c;
    for (int m = 0; m < 3; m++) {
        rows[e] = 3 * c + m, cols[e] = 3 * c + m, vals[e++] = k;
        rows[e] = 3 * d + m, cols[e] = 3 * d + m, vals[e++] = k;
        rows[e] = 3 * hi + m, cols[e] = 3 * lo + m, vals[e++] = -k;
    }
    return e;
}

/* Contacts that move between steps with A's count of blocks unchanged:
 * setup(P1), update(P2), update(P2), update(P3), update(P1). Every step's
 * answer is the fresh handle's, and the residual the handle reports is the
 * true one of the caller's system (a reuse of the arrays of a pattern two
 * steps old once gave 1e-16 reported, 0.03 true). */
static void test_moved_coupling(void)
{
    testsys t;
    if (make(&t, 6, 31))
        return;
    int cap = 9 * t.bp[t.N] + 9;
    int *rows = malloc(sizeof(int) * (size_t)cap);
    int *cols = malloc(sizeof(int) * (size_t)cap);
    double *vals = malloc(sizeof(double) * (size_t)cap);
    double *x = malloc(sizeof(double) * (size_t)t.n);
    double *xf = malloc(sizeof(double) * (size_t)t.n);
    /* nodes 0-1 are stretch neighbours; 7-35, 13-29 and 2-20 are not */
    const int moves[][4] = {{0, 1, 7, 35}, {0, 1, 13, 29}, {0, 1, 13, 29},
                            {0, 1, 2, 20}, {0, 1, 7, 35}};
    const corepcg_method methods[] = {COREPCG_METHOD_AUTO,
                                      COREPCG_METHOD_ICPCG,
                                      COREPCG_METHOD_COREPCG,
                                      COREPCG_METHOD_DIRECT,
                                      COREPCG_METHOD_MPCG};
    for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
        corepcg_settings s;
        settings_for(&s, methods[m], 1e-10);
        corepcg_solver *h = NULL, *fresh = NULL;
        corepcg_create(&h);
        corepcg_create(&fresh);
        corepcg_system sys = t.sys;
        sys.A_format = COREPCG_TRIPLET;
        sys.A_triangle = COREPCG_LOWER;
        sys.A_colptr = NULL;
        sys.A_rowidx = rows;
        sys.A_colidx = cols;
        sys.A_values = vals;
        for (int step = 0; step < 5; step++) {
            const int *mv = moves[step];
            /* the values change every step, as a simulator's do */
            sys.A_nnz = moved_coupling(&t, mv[0], mv[1], mv[2], mv[3],
                                       10.0 + step, rows, cols, vals);
            corepcg_info info, finfo;
            int rc = step == 0 ? setup_for(h, &sys, &s)
                               : corepcg_update(h, &sys, &info);
            CHECK(rc == COREPCG_OK, "%s step %d: update rc %d (%s)",
                  corepcg_method_name(methods[m]), step, rc,
                  corepcg_message(h));
            rc = corepcg_solve(h, t.b, NULL, x, &info);
            CHECK_INT(rc, COREPCG_OK);
            CHECK_INT(setup_for(fresh, &sys, &s), COREPCG_OK);
            CHECK_INT(corepcg_solve(fresh, t.b, NULL, xf, &finfo), COREPCG_OK);
            double cerr, rres;
            CHECK_INT(corepcg_check(&sys, t.b, x, &cerr, &rres, NULL),
                      COREPCG_OK);
            CHECK(rres <= 1e-8 && fabs(rres - info.rel_residual) <= 1e-12,
                  "%s step %d: true residual %.3g, reported %.3g",
                  corepcg_method_name(methods[m]), step, rres,
                  info.rel_residual);
            CHECK(rel_err(t.n, x, xf) <= 1e-7, "%s step %d: |x - fresh| %.3g",
                  corepcg_method_name(methods[m]), step,
                  rel_err(t.n, x, xf));
        }
        corepcg_free(&h);
        corepcg_free(&fresh);
    }
    free(rows);
    free(cols);
    free(vals);
    free(x);
    free(xf);
    testsys_free(&t);
}

/* ---------------------------------------------------------- settings */

static void test_settings_validation(void)
{
    testsys t;
    if (make(&t, 5, 21))
        return;
    double *x = malloc(sizeof(double) * (size_t)t.n);
    struct {
        const char *label, *part;
        corepcg_settings s;
    } bad[24];
    int nbad = 0;
#define BAD(lbl, prt, field, value)                                          \
    do {                                                                     \
        bad[nbad].label = lbl;                                               \
        bad[nbad].part = prt;                                                \
        corepcg_settings_default(&bad[nbad].s);                              \
        bad[nbad].s.field = value;                                           \
        nbad++;                                                              \
    } while (0)
    /* a method's own setting, written into its slot as a caller may
     * (corepcg_option_set refuses a fraction or NaN itself) */
#define BAD_OWN(lbl, prt, name, value)                                       \
    do {                                                                     \
        bad[nbad].label = lbl;                                               \
        bad[nbad].part = prt;                                                \
        corepcg_settings_default(&bad[nbad].s);                              \
        bad[nbad].s.method_options[corepcg_option_from_name(name) -          \
                                   COREPCG_OPTION_COUNT] = value;            \
        nbad++;                                                              \
    } while (0)
    BAD("tol 0", "tol", tol, 0);
    BAD("tol 1", "tol", tol, 1);
    BAD("tol -1", "tol", tol, -1);
    BAD("tol NaN", "tol", tol, NAN);
    BAD("max_iter 0", "max_iter", max_iter, 0);
    BAD("max_iter -5", "max_iter", max_iter, -5);
    BAD("method 99", "method", method, (corepcg_method)99);
    BAD("method -1", "method", method, (corepcg_method)-1);
    BAD("precond 7", "precond", precond, (corepcg_precond)7);
    BAD("ordering 9", "ordering", ordering, (corepcg_ordering)9);
    BAD("factor 5", "factor", factor, (corepcg_factor)5);
    BAD("stop 2", "stop", stop, (corepcg_stop)2);
    BAD_OWN("core 3", "core", "core", 3);
    BAD_OWN("core_threshold -1", "core_threshold", "core_threshold", -1);
    BAD_OWN("core_threshold inf", "core_threshold", "core_threshold", INFINITY);
    BAD_OWN("fallback_upcg 2", "fallback", "fallback_upcg", 2);
    BAD_OWN("ic_fill 2", "ic_fill", "ic_fill", 2);
    BAD_OWN("ic_fill NaN", "ic_fill", "ic_fill", NAN);
    BAD("projected with mpcg", "projected", precond, COREPCG_PRECOND_PROJECTED);
    bad[nbad - 1].s.method = COREPCG_METHOD_MPCG;
    BAD("projected with mpcg-bw", "projected", precond, COREPCG_PRECOND_PROJECTED);
    bad[nbad - 1].s.method = COREPCG_METHOD_MPCG_BW;
#undef BAD
#undef BAD_OWN
    corepcg_solver *h = NULL;
    corepcg_create(&h);
    for (int k = 0; k < nbad; k++) {
        /* a good system first, so that a failure must empty the handle */
        CHECK_INT(setup_for(h, &t.sys, NULL), COREPCG_OK);
        int rc = corepcg_setup(h, &t.sys, &bad[k].s); /* the settings as they are */
        CHECK(rc == COREPCG_ERR_ARGUMENT, "%s: rc %d", bad[k].label, rc);
        CHECK_STR_CONTAINS(corepcg_message(h), bad[k].part);
        rc = corepcg_solve(h, t.b, NULL, x, NULL);
        CHECK(rc == COREPCG_ERR_STATE, "%s: solve after the failed setup: rc %d",
              bad[k].label, rc);
        corepcg_settings good;
        corepcg_settings_default(&good);
        good.method = COREPCG_METHOD_UPCG;
        rc = setup_for(h, &t.sys, &good);
        int rc2 = rc ? rc : corepcg_solve(h, t.b, NULL, x, NULL);
        CHECK(rc == COREPCG_OK && rc2 == COREPCG_OK,
              "%s: good setup afterwards: %d, solve %d", bad[k].label, rc, rc2);
    }
    /* projected is fine with upcg */
    corepcg_settings s;
    settings_for(&s, COREPCG_METHOD_UPCG, 1e-6);
    s.precond = COREPCG_PRECOND_PROJECTED;
    CHECK_INT(setup_for(h, &t.sys, &s), COREPCG_OK);
    /* a setting the method would ignore is refused, naming it and the
     * methods that take it; the same value as the default is not */
    corepcg_settings_default(&s);
    s.method = COREPCG_METHOD_DIRECT;
    s.tol = COREPCG_DEFAULT_TOL;
    CHECK_INT(corepcg_setup(h, &t.sys, &s), COREPCG_OK);
    s.tol = 1e-3;
    CHECK_INT(corepcg_setup(h, &t.sys, &s), COREPCG_ERR_ARGUMENT);
    CHECK_STR_CONTAINS(corepcg_message(h), "method 'direct' does not take tol (it is for mpcg-bw");
    corepcg_settings_for_method(&s); /* what a caller keeping one set does */
    CHECK(s.tol == COREPCG_DEFAULT_TOL && corepcg_setup(h, &t.sys, &s) == COREPCG_OK,
          "direct after corepcg_settings_for_method: tol %g", s.tol);
    corepcg_free(&h);
    free(x);
    testsys_free(&t);
}

/* ---------------------------------------------------- state, arguments */

static void test_state_and_arguments(void)
{
    testsys t;
    if (make(&t, 4, 31))
        return;
    int n = t.n;
    double *x = malloc(sizeof(double) * (size_t)n);
    corepcg_solver *h = NULL;
    corepcg_info info;
    CHECK_INT(corepcg_create(NULL), COREPCG_ERR_ARGUMENT);
    CHECK_INT(corepcg_create(&h), COREPCG_OK);
    CHECK_INT(corepcg_solve(h, t.b, NULL, x, &info), COREPCG_ERR_STATE);
    CHECK_INT(info.status, COREPCG_ERR_STATE);
    CHECK_STR_CONTAINS(corepcg_message(h), "setup");
    CHECK_INT(corepcg_update(h, &t.sys, NULL), COREPCG_ERR_STATE);
    CHECK_INT(setup_for(NULL, &t.sys, NULL), COREPCG_ERR_ARGUMENT);
    CHECK_INT(setup_for(h, NULL, NULL), COREPCG_ERR_ARGUMENT);
    CHECK_INT(corepcg_solve(NULL, t.b, NULL, x, NULL), COREPCG_ERR_ARGUMENT);
    CHECK_INT(corepcg_update(NULL, &t.sys, NULL), COREPCG_ERR_ARGUMENT);
    CHECK(corepcg_message(NULL) != NULL, "message(NULL) is NULL");
    CHECK_INT(setup_for(h, &t.sys, NULL), COREPCG_OK);
    CHECK_INT(corepcg_solve(h, NULL, NULL, x, NULL), COREPCG_ERR_ARGUMENT);
    CHECK_INT(corepcg_solve(h, t.b, NULL, NULL, NULL), COREPCG_ERR_ARGUMENT);
    CHECK_INT(corepcg_update(h, NULL, NULL), COREPCG_ERR_ARGUMENT);
    /* NaN in b or x0: refused, x untouched */
    double *b = malloc(sizeof(double) * (size_t)n);
    memcpy(b, t.b, sizeof(double) * (size_t)n);
    b[n / 2] = NAN;
    for (int k = 0; k < n; k++)
        x[k] = 7;
    CHECK_INT(corepcg_solve(h, b, NULL, x, NULL), COREPCG_ERR_NOT_FINITE);
    CHECK_INT(corepcg_solve(h, t.b, b, x, NULL), COREPCG_ERR_NOT_FINITE);
    CHECK(x[0] == 7 && x[n - 1] == 7, "x written on an error");
    /* NaN in z */
    t.z[4] = INFINITY;
    CHECK_INT(setup_for(h, &t.sys, NULL), COREPCG_ERR_NOT_FINITE);
    t.z[4] = 0;
    /* the handle still works */
    CHECK_INT(setup_for(h, &t.sys, NULL), COREPCG_OK);
    CHECK_INT(corepcg_solve(h, t.b, NULL, x, NULL), COREPCG_OK);
    /* a bad constraint surfaces with its code */
    corepcg_constraint c = {.node = t.N, .ndof = 0};
    corepcg_system s = t.sys;
    s.constraints = &c;
    s.num_constraints = 1;
    CHECK_INT(setup_for(h, &s, NULL), COREPCG_ERR_CONSTRAINT);
    CHECK_STR_CONTAINS(corepcg_message(h), "range");
    /* records count without records; a negative count; sizes beyond int */
    s = t.sys;
    s.constraints = NULL;
    s.num_constraints = 2;
    CHECK_INT(setup_for(h, &s, NULL), COREPCG_ERR_ARGUMENT);
    s = t.sys;
    s.num_constraints = -1;
    CHECK_INT(setup_for(h, &s, NULL), COREPCG_ERR_ARGUMENT);
    s = t.sys;
    s.num_nodes = 0x7fffffff;
    CHECK_INT(setup_for(h, &s, NULL), COREPCG_ERR_TOO_LARGE);
    corepcg_free(&h);
    corepcg_free(&h);
    CHECK(h == NULL, "handle not NULL after free");
    free(b);
    free(x);
    testsys_free(&t);
}

static void test_strerror(void)
{
    int codes[40], count = 0;
    for (int c = -16; c <= 2; c++)
        codes[count++] = c;
    codes[count++] = 12345;
    codes[count++] = -12345;
    int distinct = 1, nonnull = 1;
    for (int a = 0; a < count; a++) {
        const char *ta = corepcg_strerror(codes[a]);
        nonnull &= ta != NULL && ta[0] != '\0';
        for (int b = 0; b < a && ta; b++) {
            const char *tb = corepcg_strerror(codes[b]);
            if (tb && strcmp(ta, tb) == 0) {
                distinct = 0;
                fprintf(stderr, "codes %d and %d share \"%s\"\n", codes[a],
                        codes[b], ta);
            }
        }
    }
    CHECK(nonnull, "a NULL or empty status text");
    CHECK(distinct, "status texts are not distinct");
    CHECK_STR_CONTAINS(corepcg_strerror(COREPCG_ERR_NOT_SPD), "positive definite");
    CHECK_STR_CONTAINS(corepcg_strerror(COREPCG_NOT_CONVERGED), "converge");
}

/* ------------------------------------------------------------ threads */

struct job {
    const testsys *t;
    corepcg_method method;
    double *x;
    int rc, iterations;
};

static void *run_job(void *arg)
{
    struct job *j = arg;
    corepcg_settings s;
    settings_for(&s, j->method, 1e-10);
    corepcg_solver *h = NULL;
    corepcg_info info;
    j->rc = corepcg_create(&h);
    if (j->rc == COREPCG_OK)
        j->rc = setup_for(h, &j->t->sys, &s);
    for (int rep = 0; rep < 3 && j->rc == COREPCG_OK; rep++)
        j->rc = corepcg_solve(h, j->t->b, j->t->x0, j->x, &info);
    j->iterations = info.iterations;
    corepcg_free(&h);
    return NULL;
}

static void test_threads(void)
{
    testsys t1, t2;
    if (make(&t1, 40, 41))
        return;
    if (make(&t2, 36, 42)) {
        testsys_free(&t1);
        return;
    }
    const corepcg_method methods[] = {COREPCG_METHOD_COREPCG,
                                      COREPCG_METHOD_MPCG,
                                      COREPCG_METHOD_DIRECT};
    for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
        struct job seq[2] = {{&t1, methods[m], NULL, 0, 0},
                             {&t2, methods[m], NULL, 0, 0}};
        struct job par[2] = {{&t1, methods[m], NULL, 0, 0},
                             {&t2, methods[m], NULL, 0, 0}};
        for (int k = 0; k < 2; k++) {
            size_t bytes = sizeof(double) * (size_t)seq[k].t->n;
            seq[k].x = malloc(bytes);
            par[k].x = malloc(bytes);
            run_job(&seq[k]);
        }
        pthread_t th[2];
        for (int k = 0; k < 2; k++)
            pthread_create(&th[k], NULL, run_job, &par[k]);
        for (int k = 0; k < 2; k++)
            pthread_join(th[k], NULL);
        for (int k = 0; k < 2; k++) {
            size_t bytes = sizeof(double) * (size_t)seq[k].t->n;
            CHECK(seq[k].rc == COREPCG_OK && par[k].rc == COREPCG_OK,
                  "%s system %d: rc %d one after the other, %d on threads",
                  corepcg_method_name(methods[m]), k, seq[k].rc, par[k].rc);
            CHECK(memcmp(seq[k].x, par[k].x, bytes) == 0 &&
                  seq[k].iterations == par[k].iterations,
                  "%s system %d: threads differ from sequential (|dx| = "
                  "%.3g, iterations %d vs %d)", corepcg_method_name(methods[m]),
                  k, testsys_max_diff(seq[k].t->n, seq[k].x, par[k].x),
                  seq[k].iterations, par[k].iterations);
            free(seq[k].x);
            free(par[k].x);
        }
    }
    testsys_free(&t1);
    testsys_free(&t2);
}

/* --------------------------------------------------------------- info */

/* Stored lower-triangle entries of U^T M U when M keeps the blocks for
 * which keep(I, J) is true. */
/* Stored entries of the lower triangle of A~ (core 0) or of the reduced
 * core (core 1) from the block pattern; with all3, of the same blocks on
 * every node's 3 unknowns (the projected forms corepcg and direct
 * factorise). */
static long predicted_lower(const testsys *t, int core, int all3)
{
    long both = 0;
    for (int J = 0; J < t->N; J++)
        for (int k = t->bp[J]; k < t->bp[J + 1]; k++) {
            int I = t->bi[k], kept = !core || I == J;
            for (int s = 0; core && s < t->nstretch; s++)
                kept |= (t->pairs[2 * s] == I && t->pairs[2 * s + 1] == J) ||
                        (t->pairs[2 * s] == J && t->pairs[2 * s + 1] == I);
            if (kept)
                both += all3 ? 9 : (long)t->ndof[I] * t->ndof[J];
        }
    return (both + (all3 ? t->n : t->r)) / 2;
}

static void test_info(void)
{
    testsys t;
    if (make(&t, 9, 51))
        return;
    int n = t.n;
    double *x = malloc(sizeof(double) * (size_t)n);
    const struct {
        corepcg_method m;
        corepcg_ordering o;
        corepcg_factor f;
    } cases[] = {
        {COREPCG_METHOD_COREPCG, COREPCG_ORDERING_AMD, COREPCG_FACTOR_LDL},
        {COREPCG_METHOD_COREPCG, COREPCG_ORDERING_METIS, COREPCG_FACTOR_LL},
        {COREPCG_METHOD_DIRECT, COREPCG_ORDERING_AMD, COREPCG_FACTOR_LL},
        {COREPCG_METHOD_DIRECT, COREPCG_ORDERING_METIS, COREPCG_FACTOR_LDL},
        {COREPCG_METHOD_UPCG, 0, 0},
        {COREPCG_METHOD_MPCG, 0, 0},
        {COREPCG_METHOD_MPCG_BW, 0, 0},
    };
    long want_reduced = predicted_lower(&t, 0, 0);
    long want_core = predicted_lower(&t, 1, 1), want_full = predicted_lower(&t, 0, 1);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *name = corepcg_method_name(cases[k].m);
        corepcg_settings s;
        settings_for(&s, cases[k].m, 1e-8);
        s.ordering = cases[k].o;
        s.factor = cases[k].f;
        corepcg_solver *h = NULL;
        corepcg_create(&h);
        corepcg_info info;
        int rc = setup_for(h, &t.sys, &s);
        if (rc == COREPCG_OK)
            rc = corepcg_solve(h, t.b, NULL, x, &info);
        CHECK(rc == COREPCG_OK, "%s: rc %d (%s)", name, rc, corepcg_message(h));
        corepcg_free(&h);
        if (rc)
            continue;
        int factored = cases[k].m == COREPCG_METHOD_COREPCG ||
                       cases[k].m == COREPCG_METHOD_DIRECT;
        int reduced = factored || cases[k].m == COREPCG_METHOD_UPCG;
        CHECK(info.status == 0 && info.method == cases[k].m && info.n == n &&
              info.r == t.r && info.converged == 1 && info.fell_back == 0,
              "%s: status %d method %d n %d r %d (want %d) converged %d",
              name, info.status, (int)info.method, info.n, info.r, t.r,
              info.converged);
        if (cases[k].m == COREPCG_METHOD_DIRECT)
            CHECK_INT(info.iterations, 0);
        else
            CHECK(info.iterations >= 1, "%s: %d iterations", name, info.iterations);
        if (reduced)
            CHECK(info.nnz_reduced == want_reduced, "%s: nnz_reduced %ld, "
                  "predicted %ld", name, info.nnz_reduced, want_reduced);
        if (cases[k].m == COREPCG_METHOD_COREPCG) {
            CHECK(info.nnz_core == want_core, "corepcg: nnz_core %ld, "
                  "predicted %ld", info.nnz_core, want_core);
            CHECK(info.core_blocks == t.nstretch, "corepcg: core_blocks %ld, "
                  "stretch pairs %d", info.core_blocks, t.nstretch);
        }
        if (factored) {
            CHECK(info.nnz_factor > 0 && info.ordering == cases[k].o &&
                  info.factor_supernodal == (cases[k].f == COREPCG_FACTOR_LL),
                  "%s: nnz_factor %ld ordering %d (asked %d) supernodal %d",
                  name, info.nnz_factor, (int)info.ordering, (int)cases[k].o,
                  info.factor_supernodal);
            /* L has at least the lower triangle of what it factors */
            long base = cases[k].m == COREPCG_METHOD_DIRECT ? want_full : want_core;
            CHECK(info.nnz_factor >= base, "%s: nnz_factor %ld < %ld", name,
                  info.nnz_factor, base);
        }
        double times[] = {info.time_reduce_s, info.time_analyze_s,
                          info.time_factor_s, info.time_setup_s,
                          info.time_iterate_s, info.time_solve_s,
                          info.time_total_s};
        int ok = 1;
        for (int e = 0; e < 7; e++)
            ok &= times[e] >= 0 && isfinite(times[e]);
        CHECK(ok, "%s: a negative or non-finite time", name);
        CHECK(info.time_total_s >= info.time_solve_s &&
              info.time_solve_s >= info.time_iterate_s &&
              info.time_setup_s >= info.time_factor_s,
              "%s: times inconsistent (total %.3g solve %.3g iterate %.3g "
              "setup %.3g factor %.3g)", name, info.time_total_s,
              info.time_solve_s, info.time_iterate_s, info.time_setup_s,
              info.time_factor_s);
        if (cases[k].m == COREPCG_METHOD_COREPCG)
            printf("info corepcg %s %s: %d iterations, nnz reduced %ld core %ld "
                   "factor %ld, core blocks %ld\n",
                   corepcg_ordering_name(cases[k].o),
                   corepcg_factor_name(cases[k].f), info.iterations,
                   info.nnz_reduced, info.nnz_core, info.nnz_factor,
                   info.core_blocks);
    }
    free(x);
    testsys_free(&t);
}

/* ---------------------------------------------------------- the core */

static void test_no_core(void)
{
    testsys t;
    if (make(&t, 6, 61))
        return;
    int n = t.n;
    double *x = malloc(sizeof(double) * (size_t)n), *xd = malloc(sizeof(double) * (size_t)n);
    t.sys.num_stretch = 0;
    t.sys.stretch_pairs = NULL;
    corepcg_solver *h = NULL;
    corepcg_create(&h);
    corepcg_settings s;
    settings_for(&s, COREPCG_METHOD_COREPCG, 1e-10);
    CHECK_INT(setup_for(h, &t.sys, &s), COREPCG_ERR_NO_CORE);
    CHECK_STR_CONTAINS(corepcg_message(h), "stretch");
    CHECK_INT(corepcg_solve(h, t.b, NULL, x, NULL), COREPCG_ERR_STATE);
    corepcg_option_set(&s, corepcg_option_from_name("core"), COREPCG_CORE_AUTO);
    corepcg_info info;
    int rc = setup_for(h, &t.sys, &s);
    CHECK_INT(rc, COREPCG_OK);
    if (rc == COREPCG_OK) {
        CHECK_INT(corepcg_solve(h, t.b, NULL, x, &info), COREPCG_OK);
        CHECK(info.core_blocks > 0, "core auto kept %ld blocks", info.core_blocks);
        testsys_dense_solve(&t, t.b, xd);
        CHECK_LE(rel_err(n, x, xd), 1e-7);
        printf("core auto: %ld blocks kept (of %d stretch + shear + bend "
               "springs), %d iterations\n", info.core_blocks,
               (t.bp[t.N] - t.N) / 2, info.iterations);
    }
    /* the other methods need no core */
    s.method = COREPCG_METHOD_DIRECT;
    corepcg_option_set(&s, corepcg_option_from_name("core"), COREPCG_CORE_STRETCH);
    CHECK_INT(setup_for(h, &t.sys, &s), COREPCG_OK);
    corepcg_free(&h);
    free(x);
    free(xd);
    testsys_free(&t);
}

/* The system A = T (x) I3 for a dense symmetric N x N T (row-major), its
 * lower triangle in CSC without T's zeros (colptr 3 N + 1; rowidx and
 * values room for 3 N (N + 1) / 2), with these stretch pairs. */
static corepcg_system kron_i3_system(int N, const double *T, int num_stretch,
                                     const int *pairs, int *colptr,
                                     int *rowidx, double *values)
{
    int nnz = 0;
    colptr[0] = 0;
    for (int col = 0; col < 3 * N; col++) {
        for (int row = col; row < 3 * N; row++)
            if (row % 3 == col % 3 && T[N * (row / 3) + col / 3] != 0) {
                rowidx[nnz] = row;
                values[nnz++] = T[N * (row / 3) + col / 3];
            }
        colptr[col + 1] = nnz;
    }
    corepcg_system sys = {.num_nodes = N, .A_format = COREPCG_CSC,
                          .A_triangle = COREPCG_LOWER, .A_colptr = colptr,
                          .A_rowidx = rowidx, .A_values = values,
                          .num_stretch = num_stretch, .stretch_pairs = pairs};
    return sys;
}

/* Three nodes in a chain of stretch springs 0-1-2 with a non-stretch
 * coupling 0-2: A = T (x) I3 with T = [1 a b; a 1 a; b a 1] is SPD while
 * the plain core T_core = [1 a 0; a 1 a; 0 a 1] (eigenvalue 1 - a sqrt 2)
 * is not for a = 0.75, b = 0.5: corePCG factorises the compensated core
 * instead (|b| moved onto nodes 0 and 2), with every factor kind, says so
 * in info, and never falls back. With a = 0.5, b = 0 the plain core is A
 * itself: not compensated, one iteration. */
static void test_core_compensated(void)
{
    for (int plain = 0; plain < 2; plain++) {
        const double a = plain ? 0.5 : 0.75, bb = plain ? 0.0 : 0.5;
        const double T[9] = {1, a, bb, a, 1, a, bb, a, 1};
        int colptr[10], rowidx[27];
        double values[27];
        double M[9], C[9];
        memcpy(M, T, sizeof M);
        memcpy(C, T, sizeof C);
        C[2] = C[6] = 0;
        CHECK_INT(LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', 3, M, 3), 0);
        CHECK(plain || LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', 3, C, 3) > 0,
              "premise: the plain core should not be positive definite");
        int pairs[4] = {0, 1, 2, 1};
        double b[9] = {1, -2, 3, 0.5, 0.25, -1, 2, 0, 1}, x[9], xd[9];
        corepcg_system sys = kron_i3_system(3, T, 2, pairs, colptr, rowidx,
                                            values);
        testsys_system_dense_solve(&sys, b, xd);
        corepcg_solver *h = NULL;
        corepcg_create(&h);
        corepcg_settings s;
        settings_for(&s, COREPCG_METHOD_COREPCG, 1e-12);
        for (int f = 0; f < 2 * COREPCG_FACTOR_COUNT; f++) {
            s.factor = (corepcg_factor)(f / 2);
            corepcg_option_set(&s, corepcg_option_from_name("fallback_upcg"), f % 2);
            int rc = setup_for(h, &sys, &s);
            corepcg_info info;
            if (rc == COREPCG_OK)
                rc = corepcg_solve(h, b, NULL, x, &info);
            CHECK(rc == COREPCG_OK, "b %g, factor %s: rc %d (%s)", bb,
                  corepcg_factor_name(s.factor), rc, corepcg_message(h));
            if (rc != COREPCG_OK)
                continue;
            CHECK(info.core_compensated == !plain && info.fell_back == 0 &&
                      info.converged == 1 && strlen(corepcg_message(h)) == 0,
                  "b %g, factor %s: compensated %d, fell back %d, converged "
                  "%d, message '%s'", bb, corepcg_factor_name(s.factor),
                  info.core_compensated, info.fell_back, info.converged,
                  corepcg_message(h));
            CHECK(plain ? info.iterations == 1 : info.iterations <= 3,
                  "b %g: %d iterations", bb, info.iterations);
            CHECK_LE(rel_err(9, x, xd), 1e-10);
        }
        corepcg_free(&h);
    }
}

/* A step whose A is read but is not positive definite leaves the handle
 * empty; the next step's update sets its system up afresh with the
 * settings in force (review finding: the handle stayed empty for good,
 * every update ERR_STATE "update before setup"). A = T (x) I3 on a chain
 * of three nodes, every coupling a stretch pair (the core is A): T = [1
 * a 0; a 1 a; 0 a 1] is SPD for a = 0.5, indefinite for a = 0.75 (its
 * eigenvalue 1 - a sqrt 2). The answer after recovering is a fresh
 * handle's bit for bit. A handle never set up, or whose last setup
 * refused a setting, still gets ERR_STATE. */
static void test_update_recovers_after_failed_factorisation(void)
{
    const double Tg[9] = {1, 0.5, 0, 0.5, 1, 0.5, 0, 0.5, 1};
    const double Tb[9] = {1, 0.75, 0, 0.75, 1, 0.75, 0, 0.75, 1};
    int pairs[4] = {0, 1, 1, 2};
    int colptr_g[10], rowidx_g[27], colptr_b[10], rowidx_b[27];
    double values_g[27], values_b[27];
    corepcg_system good = kron_i3_system(3, Tg, 2, pairs, colptr_g, rowidx_g,
                                         values_g);
    corepcg_system bad = kron_i3_system(3, Tb, 2, pairs, colptr_b, rowidx_b,
                                        values_b);
    double b[9] = {1, -2, 3, 0.5, 0.25, -1, 2, 0, 1}, x[9], xf[9];
    const corepcg_method methods[] = {COREPCG_METHOD_DIRECT,
                                      COREPCG_METHOD_COREPCG};
    const int not_spd[] = {COREPCG_ERR_NOT_SPD, COREPCG_ERR_CORE_NOT_SPD};
    for (int m = 0; m < 2; m++) {
        const char *name = corepcg_method_name(methods[m]);
        corepcg_settings s;
        settings_for(&s, methods[m], 1e-12);
        corepcg_solver *h = NULL, *fresh = NULL;
        corepcg_info info;
        CHECK_INT(corepcg_ready(NULL), 0);
        corepcg_create(&h);
        corepcg_create(&fresh);
        CHECK_INT(corepcg_ready(h), 0);
        CHECK_INT(corepcg_solve(h, b, NULL, x, NULL), COREPCG_ERR_STATE);
        CHECK_STR_CONTAINS(corepcg_message(h), "solve before setup");
        CHECK_INT(setup_for(fresh, &good, &s), COREPCG_OK);
        CHECK_INT(corepcg_solve(fresh, b, NULL, xf, NULL), COREPCG_OK);

        CHECK_INT(setup_for(h, &good, &s), COREPCG_OK);
        CHECK_INT(corepcg_solve(h, b, NULL, x, NULL), COREPCG_OK);
        int rc = corepcg_update(h, &bad, &info);
        CHECK(rc == not_spd[m] && info.status == rc,
              "%s update, indefinite A: rc %d status %d (%s)", name, rc,
              info.status, corepcg_message(h));
        CHECK_INT(corepcg_ready(h), 0);
        CHECK_INT(corepcg_solve(h, b, NULL, x, NULL), COREPCG_ERR_STATE);
        CHECK_STR_CONTAINS(corepcg_message(h), "no system is set up: the last "
                           "setup or update failed");
        /* an update that cannot be read keeps what was set up: ready */
        CHECK_INT(corepcg_update(h, &good, NULL), COREPCG_OK);
        CHECK_INT(corepcg_ready(h), 1);
        corepcg_system unread = good;
        unread.A_colptr = NULL;
        CHECK_INT(corepcg_update(h, &unread, NULL), COREPCG_ERR_ARGUMENT);
        CHECK_INT(corepcg_ready(h), 1);
        CHECK_INT(corepcg_update(h, &bad, NULL), not_spd[m]);
        memset(&info, 0x55, sizeof info);
        rc = corepcg_update(h, &good, &info);
        CHECK(rc == COREPCG_OK && info.status == COREPCG_OK &&
                  info.analysis_reused == 0,
              "%s update after a failed one: rc %d (%s) reused %d", name, rc,
              corepcg_message(h), info.analysis_reused);
        for (int k = 0; k < 9; k++)
            x[k] = NAN;
        CHECK_INT(corepcg_solve(h, b, NULL, x, NULL), COREPCG_OK);
        CHECK(memcmp(x, xf, sizeof x) == 0,
              "%s: after recovering x differs from a fresh handle's", name);
        /* and on the same pattern from there on */
        CHECK_INT(corepcg_update(h, &good, &info), COREPCG_OK);
        CHECK_INT(info.analysis_reused, 1);

        /* a first step whose setup fails: the next update recovers */
        CHECK_INT(setup_for(h, &bad, &s), not_spd[m]);
        CHECK_INT(corepcg_update(h, &good, NULL), COREPCG_OK);
        CHECK_INT(corepcg_solve(h, b, NULL, x, NULL), COREPCG_OK);
        CHECK(memcmp(x, xf, sizeof x) == 0,
              "%s: after a failed setup x differs from a fresh handle's",
              name);

        /* a setup that refused a setting leaves none to set up with */
        corepcg_settings refused = s;
        refused.tol = -1;
        CHECK_INT(corepcg_setup(h, &good, &refused), COREPCG_ERR_ARGUMENT);
        CHECK_INT(corepcg_update(h, &good, NULL), COREPCG_ERR_STATE);
        CHECK_STR_CONTAINS(corepcg_message(h), "corepcg_setup");
        corepcg_free(&h);
        corepcg_free(&fresh);
    }
    /* never set up */
    corepcg_solver *h = NULL;
    corepcg_create(&h);
    CHECK_INT(corepcg_update(h, &good, NULL), COREPCG_ERR_STATE);
    CHECK_STR_CONTAINS(corepcg_message(h), "corepcg_setup");
    corepcg_free(&h);
}

/* A block the core leaves out that is not symmetric (an element over
 * three or more nodes, as a dihedral hinge gives): corepcg compensates at
 * once, although the plain core would hold here. A = T (x) I3, T = [1 .5
 * 0; .5 1 .5; 0 .5 1], plus e at (6, 1) and (1, 6): block (2, 0) is
 * [0 e 0; 0 0 0; 0 0 0]; stretch pairs 0-1, 1-2. */
static void test_core_asymmetric_block_compensated(void)
{
    const double e = 0.05;
    double D[81] = {0};
    for (int i = 0; i < 9; i++) {
        D[9 * i + i] = 1;
        if (i + 3 < 9)
            D[9 * i + i + 3] = D[9 * (i + 3) + i] = 0.5;
    }
    D[9 * 6 + 1] = D[9 * 1 + 6] = e;
    int colptr[10], rowidx[45], nnz = 0;
    double values[45];
    colptr[0] = 0;
    for (int col = 0; col < 9; col++) {
        for (int row = col; row < 9; row++)
            if (D[9 * row + col] != 0) {
                rowidx[nnz] = row;
                values[nnz++] = D[9 * row + col];
            }
        colptr[col + 1] = nnz;
    }
    int pairs[4] = {0, 1, 1, 2};
    corepcg_system sys = {.num_nodes = 3, .A_format = COREPCG_CSC,
                          .A_triangle = COREPCG_LOWER, .A_colptr = colptr,
                          .A_rowidx = rowidx, .A_values = values,
                          .num_stretch = 2, .stretch_pairs = pairs};
    double b[9] = {1, -2, 3, 0.5, 0.25, -1, 2, 0, 1}, x[9], xd[9];
    testsys_system_dense_solve(&sys, b, xd);
    corepcg_solver *h = NULL;
    corepcg_settings s;
    corepcg_info info;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);
    settings_for(&s, COREPCG_METHOD_COREPCG, 1e-12);
    int rc = setup_for(h, &sys, &s);
    if (rc == COREPCG_OK)
        rc = corepcg_solve(h, b, NULL, x, &info);
    CHECK(rc == COREPCG_OK && info.core_compensated == 1 && info.converged,
          "asymmetric left-out block: rc %d (%s), compensated %d", rc,
          corepcg_message(h), rc == COREPCG_OK ? info.core_compensated : -1);
    CHECK_LE(rel_err(9, x, xd), 1e-10);
    corepcg_free(&h);
}

/* m I + k L (x) I3 on a g x g grid cut into triangles (L: the graph
 * Laplacian of its edges right, up and one diagonal a square; k = 1), lower
 * CSC into the arrays given (n + 1, and 4 n room each); an M-matrix,
 * so IC(0) cannot break down on it. *pairs gets every edge as a stretch
 * pair, or with diagonals 0 only those of the quad grid; returns their
 * count. */
static int triangle_grid(int g, double m, int diagonals, int *colptr, int *rowidx,
                         double *values, int *pairs)
{
    int N = g * g, p = 0, np = 0;
    for (int a = 0; a < N; a++) {
        int i = a / g, j = a % g;
        /* the neighbours above a, ascending: right, up, up-right */
        int up[3], nu = 0, degree = 0;
        if (j + 1 < g)
            up[nu++] = a + 1;
        if (i + 1 < g)
            up[nu++] = a + g;
        if (i + 1 < g && j + 1 < g)
            up[nu++] = a + g + 1;
        degree = nu + (j > 0) + (i > 0) + (i > 0 && j > 0);
        for (int d = 0; d < 3; d++) {
            colptr[3 * a + d] = p;
            rowidx[p] = 3 * a + d;
            values[p++] = m + degree;
            for (int t = 0; t < nu; t++) {
                rowidx[p] = 3 * up[t] + d;
                values[p++] = -1.0;
            }
        }
        for (int t = 0; t < nu; t++)
            if (diagonals || up[t] != a + g + 1) {
                pairs[2 * np] = a;
                pairs[2 * np + 1] = up[t];
                np++;
            }
    }
    colptr[3 * N] = p;
    return np;
}

/* On a triangle mesh auto's first choice has no iteration budget (the
 * fallback, MPCG, takes many times icpcg's iterations there); on a quad
 * grid it has 150 (CPG_AUTO_TROUBLE_ITERATIONS). The same matrix, 120 x
 * 120 nodes at tol 1e-11, where icpcg needs 184 iterations: with the
 * triangles' three edges a node as stretch pairs auto's icpcg runs to the
 * answer; with a quad grid's two it stops at the budget and MPCG solves. */
static void test_auto_budget_on_triangles(void)
{
    const int g = 120, N = g * g, n = 3 * N;
    int *colptr = malloc(sizeof(int) * (size_t)(n + 1));
    int *rowidx = malloc(sizeof(int) * (size_t)(4 * n));
    double *values = malloc(sizeof(double) * (size_t)(4 * n));
    int *pairs = malloc(sizeof(int) * (size_t)(6 * N));
    double *b = malloc(sizeof(double) * (size_t)n), *x = calloc((size_t)n, sizeof(double));
    if (!colptr || !rowidx || !values || !pairs || !b || !x) {
        CHECK(0, "out of memory");
        goto out;
    }
    for (int k = 0; k < n; k++)
        b[k] = (k % 7) - 3 + 0.5 * (k % 3);
    for (int diagonals = 1; diagonals >= 0; diagonals--) {
        corepcg_system sys = {0};
        sys.num_nodes = N;
        sys.A_colptr = colptr;
        sys.A_rowidx = rowidx;
        sys.A_values = values;
        sys.num_stretch = triangle_grid(g, 1e-4, diagonals, colptr, rowidx, values, pairs);
        sys.stretch_pairs = pairs;
        corepcg_settings s;
        settings_for(&s, COREPCG_METHOD_AUTO, 1e-11);
        corepcg_solver *h = NULL;
        corepcg_info info;
        memset(&info, 0, sizeof info);
        int rc = corepcg_create(&h);
        if (rc == COREPCG_OK)
            rc = setup_for(h, &sys, &s);
        if (rc == COREPCG_OK)
            rc = corepcg_solve(h, b, NULL, x, &info);
        double cerr = 1, res = 1;
        char msg[COREPCG_MSG_SIZE] = "";
        CHECK_INT(corepcg_check(&sys, b, x, &cerr, &res, msg), COREPCG_OK);
        CHECK(rc == COREPCG_OK && res <= 1e-11, "%s: rc %d, residual %g: %s",
              diagonals ? "triangles" : "quads", rc, res, h ? corepcg_message(h) : "");
        CHECK_INT(info.ic_retries, 0);
        if (diagonals)
            CHECK(info.method_used == COREPCG_METHOD_ICPCG &&
                      info.auto_reason == COREPCG_AUTO_FIRST && info.iterations > 150,
                  "triangles: auto ran %s (%s), %d iterations",
                  corepcg_method_name(info.method_used),
                  corepcg_auto_reason_name(info.auto_reason), info.iterations);
        else
            CHECK(info.method_used == COREPCG_METHOD_MPCG &&
                      info.auto_reason == COREPCG_AUTO_FALLBACK,
                  "quads: auto ran %s (%s), %d iterations",
                  corepcg_method_name(info.method_used),
                  corepcg_auto_reason_name(info.auto_reason), info.iterations);
        corepcg_free(&h);
    }
out:
    free(colptr);
    free(rowidx);
    free(values);
    free(pairs);
    free(b);
    free(x);
}

/* auto on a "triangle mesh" whose plain core cannot be factorised:
 * Kershaw's 4-cycle K (x) I3 (SPD; IC(0) breaks down on it) with stretch
 * pairs on three of its edges, whose plain core [3 -2; -2 3 -2; ...] has
 * the eigenvalue 3 - 4 cos(pi/5) < 0, and pairs without blocks to make 10
 * (2.5 a node). corePCG alone factorises the compensated core. At a tight
 * tol icpcg's factorisation stops at the breakdown and corePCG runs in its
 * place, and holds; on the next step auto runs the faster method it
 * measured, and every answer is A's. */
static void test_auto_core_compensated_after_breakdown(void)
{
    static const double K[16] = {3, -2, 0, 2, -2, 3, -2, 0,
                                 0, -2, 3, -2, 2, 0, -2, 3};
    int colptr[13], rowidx[30];
    double values[30];
    int pairs[20] = {0, 1, 1, 2, 2, 3};
    for (int q = 3; q < 10; q++) {
        pairs[2 * q] = q % 2;     /* (0, 2) and (1, 3): no block in A */
        pairs[2 * q + 1] = q % 2 + 2;
    }
    double b[12], x[12], xd[12];
    for (int k = 0; k < 12; k++)
        b[k] = 1 + 0.25 * k * (k % 2 ? -1 : 1);
    corepcg_system sys = kron_i3_system(4, K, 10, pairs, colptr, rowidx, values);
    testsys_system_dense_solve(&sys, b, xd);
    corepcg_solver *h = NULL;
    corepcg_settings s;
    corepcg_info info;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);
    settings_for(&s, COREPCG_METHOD_COREPCG, 1e-10);
    CHECK_INT(setup_for(h, &sys, &s), COREPCG_OK);
    CHECK_INT(corepcg_solve(h, b, NULL, x, &info), COREPCG_OK);
    CHECK_INT(info.core_compensated, 1);
    CHECK_LE(rel_err(12, x, xd), 1e-8);
    settings_for(&s, COREPCG_METHOD_AUTO, 1e-10);
    int rc = setup_for(h, &sys, &s);
    if (rc == COREPCG_OK)
        rc = corepcg_solve(h, b, NULL, x, &info);
    CHECK(rc == COREPCG_OK, "auto: rc %d (%s)", rc, corepcg_message(h));
    if (rc == COREPCG_OK) {
        CHECK(info.method_used == COREPCG_METHOD_COREPCG &&
                  info.auto_reason == COREPCG_AUTO_BREAKDOWN &&
                  info.core_compensated == 1,
              "auto ran %s (%s), compensated %d",
              corepcg_method_name(info.method_used),
              corepcg_auto_reason_name(info.auto_reason),
              info.core_compensated);
        CHECK_LE(rel_err(12, x, xd), 1e-8);
        rc = corepcg_update(h, &sys, NULL);
        if (rc == COREPCG_OK)
            rc = corepcg_solve(h, b, x, x, &info);
        CHECK(rc == COREPCG_OK && info.converged, "auto, step 2: rc %d (%s)",
              rc, corepcg_message(h));
        CHECK_LE(rel_err(12, x, xd), 1e-8);
    }
    corepcg_free(&h);
}

/* info->status is the code the call returned, on every path (review
 * finding: solve(NULL) and early update returns left it 0 or untouched). */
static void test_info_status_on_failure(void)
{
    testsys t;
    if (make(&t, 3, 77))
        return;
    double *x = malloc(sizeof(double) * (size_t)t.n);
    corepcg_info info;
    memset(&info, 0x55, sizeof info);
    CHECK_INT(corepcg_solve(NULL, t.b, NULL, x, &info), COREPCG_ERR_ARGUMENT);
    CHECK_INT(info.status, COREPCG_ERR_ARGUMENT);
    memset(&info, 0x55, sizeof info);
    CHECK_INT(corepcg_update(NULL, &t.sys, &info), COREPCG_ERR_ARGUMENT);
    CHECK_INT(info.status, COREPCG_ERR_ARGUMENT);
    corepcg_solver *h = NULL;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);
    memset(&info, 0x55, sizeof info);
    CHECK_INT(corepcg_update(h, &t.sys, &info), COREPCG_ERR_STATE);
    CHECK_INT(info.status, COREPCG_ERR_STATE);
    CHECK_INT(info.iterations, 0);
    CHECK_INT(setup_for(h, &t.sys, NULL), COREPCG_OK);
    /* a failed import: the current system stays, info says why */
    double saved = t.z[1];
    t.z[1] = NAN;
    memset(&info, 0x55, sizeof info);
    CHECK_INT(corepcg_update(h, &t.sys, &info), COREPCG_ERR_NOT_FINITE);
    CHECK_INT(info.status, COREPCG_ERR_NOT_FINITE);
    t.z[1] = saved;
    CHECK_INT(corepcg_solve(h, t.b, NULL, x, &info), COREPCG_OK);
    CHECK_INT(info.status, COREPCG_OK);
    corepcg_free(&h);
    free(x);
    testsys_free(&t);
}

/* docs/format.md: only (I - S) z is used. Junk in z's free components must not
 * change any method's answer or iterations (review finding: mpcg-bw
 * started from the whole z). */
static void test_free_part_of_z_ignored(void)
{
    testsys t;
    if (make(&t, 4, 91))
        return;
    int n = t.n;
    double *x1 = malloc(sizeof(double) * (size_t)n);
    double *x2 = malloc(sizeof(double) * (size_t)n);
    double *z2 = malloc(sizeof(double) * (size_t)n);
    /* z2 = z + S v for a random-ish v: the same (I - S) z */
    for (int i = 0; i < t.N; i++)
        for (int a = 0; a < 3; a++)
            z2[3 * i + a] = t.z[3 * i + a] +
                            (t.ndof[i] == 3 ? 0.37 * (a + 1) * (i % 5 + 1) : 0);
    for (int m = 0; m < COREPCG_METHODS_NAMED; m++) {
        corepcg_settings s;
        settings_for(&s, (corepcg_method)m, 1e-8);
        corepcg_info i1, i2;
        corepcg_solver *h = NULL;
        corepcg_create(&h);
        corepcg_system sys = t.sys;
        int rc1 = setup_for(h, &sys, &s);
        if (rc1 == COREPCG_OK)
            rc1 = corepcg_solve(h, t.b, NULL, x1, &i1);
        sys.z = z2;
        int rc2 = setup_for(h, &sys, &s);
        if (rc2 == COREPCG_OK)
            rc2 = corepcg_solve(h, t.b, NULL, x2, &i2);
        CHECK(rc1 == COREPCG_OK && rc2 == COREPCG_OK, "%s: rc %d, %d",
              corepcg_method_name(m), rc1, rc2);
        if (rc1 == COREPCG_OK && rc2 == COREPCG_OK) {
            CHECK_INT(i2.iterations, i1.iterations);
            CHECK(rel_err(n, x2, x1) <= 1e-12, "%s: x moved by %.3g with "
                  "junk in z's free part", corepcg_method_name(m),
                  rel_err(n, x2, x1));
        }
        corepcg_free(&h);
    }
    free(x1);
    free(x2);
    free(z2);
    testsys_free(&t);
}

/* Kershaw's SPD matrix, whose incomplete Cholesky with zero fill meets a
 * negative pivot, as the reduced system of 4 nodes each sliding along x
 * (ndof 1): A's x-x entries are Kershaw's, y and z are 10 I, and the
 * blocks (0,2), (1,3) are absent, so IC(0) may not fill them. Every pair
 * of coupled nodes is a stretch pair: corePCG's core is all of A. */
typedef struct kershaw_sys {
    corepcg_system sys;
    int ri[32], ci[32];
    double v[32], b[12];
    corepcg_constraint cons[4];
    int pairs[8];
} kershaw_sys;

static void make_kershaw(kershaw_sys *k)
{
    static const double K[4][4] = {
        {3, -2, 0, 2}, {-2, 3, -2, 0}, {0, -2, 3, -2}, {2, 0, -2, 3}};
    int nnz = 0;
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j <= i; j++)
            if (K[i][j] != 0) {
                k->ri[nnz] = 3 * i;
                k->ci[nnz] = 3 * j;
                k->v[nnz++] = K[i][j];
            }
        for (int c = 1; c < 3; c++) {
            k->ri[nnz] = k->ci[nnz] = 3 * i + c;
            k->v[nnz++] = 10;
        }
        k->cons[i] = (corepcg_constraint){.node = i, .ndof = 1,
                                          .p = {0, 1, 0}, .q = {0, 0, 1}};
    }
    static const int pairs[8] = {0, 1, 1, 2, 2, 3, 0, 3};
    memcpy(k->pairs, pairs, sizeof pairs);
    for (int e = 0; e < 12; e++)
        k->b[e] = e % 3 == 0 ? 1 + e / 3 : 0;
    memset(&k->sys, 0, sizeof k->sys);
    k->sys.num_nodes = 4;
    k->sys.A_format = COREPCG_TRIPLET;
    k->sys.A_triangle = COREPCG_LOWER;
    k->sys.A_rowidx = k->ri;
    k->sys.A_colidx = k->ci;
    k->sys.A_values = k->v;
    k->sys.A_nnz = nnz;
    k->sys.num_constraints = 4;
    k->sys.constraints = k->cons;
    k->sys.num_stretch = 4;
    k->sys.stretch_pairs = k->pairs;
}

/* icpcg on Kershaw's system: IC(0) breaks down once, the factor kept
 * compensates its one dropped fill, 2 (-2) / 3, with 4/3 on each of two
 * pivots (A~ is the scalar 4x4, trace 12: tr R / tr A~ = 2/9), unshifted,
 * and info says so; the answer meets the tolerance. Then auto with one
 * iteration allowed: icpcg stops short, corePCG (whose core is A here)
 * solves it in one iteration, and info says it fell back. */
static void test_ic_breakdown_and_fallback(void)
{
    kershaw_sys k;
    make_kershaw(&k);
    corepcg_solver *h = NULL;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);
    corepcg_settings s;
    settings_for(&s, COREPCG_METHOD_ICPCG, 1e-10);
    double x[12], cerr, rres;
    corepcg_info info;
    CHECK_INT(setup_for(h, &k.sys, &s), COREPCG_OK);
    CHECK_INT(corepcg_solve(h, k.b, NULL, x, &info), COREPCG_OK);
    CHECK(info.ic_shift == 0 && info.ic_retries == 1 && info.ic_fill == 0,
          "icpcg on Kershaw: shift %g after %d retries (fill %d)",
          info.ic_shift, info.ic_retries, info.ic_fill);
    CHECK_NEAR(info.ic_compensation, 2.0 / 9, 1e-14);
    CHECK_INT(corepcg_check(&k.sys, k.b, x, &cerr, &rres, NULL), COREPCG_OK);
    CHECK_LE(rres, 1e-8);
    CHECK_LE(cerr, 1e-15);
    /* one level of fill is the whole fill of this 4-cycle: exact (to the
     * float precision the factor is stored in), no breakdown, one
     * iteration at a tolerance above that precision */
    corepcg_option_set(&s, corepcg_option_from_name("ic_fill"), 1);
    s.tol = 1e-5;
    CHECK_INT(setup_for(h, &k.sys, &s), COREPCG_OK);
    CHECK_INT(corepcg_solve(h, k.b, NULL, x, &info), COREPCG_OK);
    CHECK(info.ic_shift == 0 && info.ic_retries == 0 && info.iterations == 1,
          "IC(1) on Kershaw: shift %g, %d retries, %d iterations",
          info.ic_shift, info.ic_retries, info.iterations);
    CHECK(info.ic_compensation == 0, "IC(1): compensation %g",
          info.ic_compensation);

    /* auto with one iteration allowed: icpcg stops short, the fallback
     * prepared at setup (corrected MPCG) runs within the same budget and
     * stops short too; the status says so and the message names both;
     * the setup's record still names the choice */
    settings_for(&s, COREPCG_METHOD_AUTO, 1e-10);
    s.max_iter = 1;
    corepcg_info setup_info;
    CHECK_INT(setup_for(h, &k.sys, &s), COREPCG_OK);
    CHECK_INT(corepcg_update(h, &k.sys, &setup_info), COREPCG_OK);
    CHECK_INT(setup_info.method_used, COREPCG_METHOD_ICPCG);
    int rc = corepcg_solve(h, k.b, NULL, x, &info);
    CHECK(rc == COREPCG_NOT_CONVERGED &&
              info.method_used == COREPCG_METHOD_MPCG &&
              info.auto_reason == COREPCG_AUTO_FALLBACK && info.iterations == 1,
          "auto, max_iter 1: rc %d, ran %s (%s) in %d iterations", rc,
          corepcg_method_name(info.method_used),
          corepcg_auto_reason_name(info.auto_reason), info.iterations);
    CHECK_STR_CONTAINS(corepcg_message(h), "icpcg: no convergence");
    /* the fallback ran under the caller's max_iter: the loop's message */
    CHECK_STR_CONTAINS(corepcg_message(h), "mpcg: max_iter reached (1): ");
    /* the fallback stays for the rest of the step: a second solve runs it
     * at once */
    rc = corepcg_solve(h, k.b, NULL, x, &info);
    CHECK(rc == COREPCG_NOT_CONVERGED &&
              info.method_used == COREPCG_METHOD_MPCG &&
              info.auto_reason == COREPCG_AUTO_FALLBACK,
          "auto, second solve: rc %d, ran %s (%s)", rc,
          corepcg_method_name(info.method_used),
          corepcg_auto_reason_name(info.auto_reason));
    corepcg_free(&h);
}

/* A fixed node whose block of A is zero (its diagonal given as explicit
 * zeros) beside a free node with 4 I: A~ = 4 I. Every method that works
 * on A~ solves it (an outside review: amgpcg filled the fixed node's
 * directions with trace/3 = 0 and called A~ not positive definite), and
 * so does MPCG, whose preconditioner, A's own diagonal or diagonal
 * blocks, is the identity on a fixed node (it refused the zero block). */
static void test_zero_block_of_a_fixed_node(void)
{
    int colptr[7] = {0, 1, 2, 3, 4, 5, 6}, rowidx[6] = {0, 1, 2, 3, 4, 5};
    double values[6] = {0, 0, 0, 4, 4, 4};
    corepcg_constraint con[1] = {{.node = 0, .ndof = 0}};
    double z[6] = {1, 2, 3, 0, 0, 0}, b[6] = {1, 1, 1, 1, 1, 1}, x[6];
    const double want[6] = {1, 2, 3, 0.25, 0.25, 0.25};
    int pairs[2] = {0, 1};
    corepcg_system sys = {.num_nodes = 2, .A_format = COREPCG_CSC,
        .A_triangle = COREPCG_LOWER, .A_colptr = colptr, .A_rowidx = rowidx,
        .A_values = values, .num_constraints = 1, .constraints = con, .z = z,
        .num_stretch = 1, .stretch_pairs = pairs};
    for (int k = 0; corepcg_method_at(k) >= 0; k++) {
        corepcg_method m = (corepcg_method)corepcg_method_at(k);
        int mpcg = m == COREPCG_METHOD_MPCG || m == COREPCG_METHOD_MPCG_BW;
        for (int block = 0; block <= mpcg; block++) { /* MPCG's both kinds */
            corepcg_settings set;
            corepcg_settings_default(&set);
            set.method = m;
            if (block)
                set.precond = COREPCG_PRECOND_BLOCK;
            corepcg_solver *h = NULL;
            corepcg_create(&h);
            int rc = corepcg_setup(h, &sys, &set);
            if (rc >= 0)
                rc = corepcg_solve(h, b, NULL, x, NULL);
            CHECK(rc == COREPCG_OK, "%s, precond %s: %d (%s)",
                  corepcg_method_name(m), block ? "block" : "default", rc,
                  corepcg_message(h));
            for (int i = 0; rc == COREPCG_OK && i < 6; i++)
                CHECK_NEAR(x[i], want[i], 1e-15);
            corepcg_free(&h);
        }
    }
}

/* One version everywhere: the headers' string and numbers and the
 * library's corepcg_version() (all from meson's project()). */
static void test_version(void)
{
    CHECK(strcmp(corepcg_version(), COREPCG_VERSION) == 0,
          "corepcg_version() = %s, headers say %s", corepcg_version(),
          COREPCG_VERSION);
    char text[64];
    snprintf(text, sizeof text, "%d.%d.%d", COREPCG_VERSION_MAJOR,
             COREPCG_VERSION_MINOR, COREPCG_VERSION_PATCH);
    CHECK(strcmp(text, COREPCG_VERSION) == 0, "numbers %s, string %s", text,
          COREPCG_VERSION);
    CHECK_INT(COREPCG_VERSION_NUMBER, COREPCG_VERSION_MAJOR * 10000 +
                                          COREPCG_VERSION_MINOR * 100 +
                                          COREPCG_VERSION_PATCH);
}

int main(void)
{
    test_version();
    test_zero_block_of_a_fixed_node();
    test_defaults_and_two_rhs();
    test_ic_breakdown_and_fallback();
    test_update();
    test_moved_coupling();
    test_settings_validation();
    test_state_and_arguments();
    test_strerror();
    test_threads();
    test_info();
    test_no_core();
    test_core_compensated();
    test_core_asymmetric_block_compensated();
    test_update_recovers_after_failed_factorisation();
    test_auto_core_compensated_after_breakdown();
    test_auto_budget_on_triangles();
    test_info_status_on_failure();
    test_free_part_of_z_ignored();
    return test_summary("test_api");
}

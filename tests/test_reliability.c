/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_reliability.c -- numerical failure, hostile files and misuse,
 * through the public API and the CLI: every failure has its own status and
 * message, an error leaves x untouched, a warning leaves a usable x, and a
 * failed command writes nothing and clobbers nothing.
 *
 * The systems are tiny and built here from node-block matrices whose
 * blocks are multiples of the 3x3 identity, so that each property (A
 * indefinite, core indefinite while A is SPD, ...) is exact by
 * construction and can be checked by hand. */
#include "test.h"
#include "corepcg.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <float.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef COREPCG_DATA_DIR
#define COREPCG_DATA_DIR "data"
#endif
#ifndef COREPCG_CLI
#define COREPCG_CLI "corepcg"
#endif

#define PATH_SIZE 1024
#define SENTINEL -12345.0 /* what x holds before a solve that must fail */

static const char *data_dir(void)
{
    const char *e = getenv("COREPCG_DATA_DIR");
    return e && e[0] ? e : COREPCG_DATA_DIR;
}

static const char *cli_path(void)
{
    const char *e = getenv("COREPCG_CLI");
    return e && e[0] ? e : COREPCG_CLI;
}

/* ------------------------------------------------------ system builder */

/* A system of N nodes whose A is given node block by node block: block
 * (i, j) = a[i N + j] * I_3 (a symmetric), or a full dense n x n matrix. */
typedef struct sysbuf {
    corepcg_system sys;
    int colptr[3 * 16 + 1];
    int rowidx[(3 * 16) * (3 * 16)];
    double values[(3 * 16) * (3 * 16)];
    corepcg_constraint cons[16];
    int pairs[2 * 64];
} sysbuf;

/* From a dense symmetric n x n matrix (column-major), lower triangle CSC. */
static void sys_from_dense(sysbuf *s, int N, const double *dense)
{
    memset(s, 0, sizeof *s);
    int n = 3 * N, nnz = 0;
    for (int j = 0; j < n; j++) {
        s->colptr[j] = nnz;
        for (int i = j; i < n; i++)
            if (dense[i + (size_t)n * j] != 0 || i == j) {
                s->rowidx[nnz] = i;
                s->values[nnz++] = dense[i + (size_t)n * j];
            }
    }
    s->colptr[n] = nnz;
    s->sys.num_nodes = N;
    s->sys.A_format = COREPCG_CSC;
    s->sys.A_triangle = COREPCG_LOWER;
    s->sys.A_colptr = s->colptr;
    s->sys.A_rowidx = s->rowidx;
    s->sys.A_values = s->values;
    s->sys.constraints = s->cons;
    s->sys.stretch_pairs = s->pairs;
}

/* Node blocks a[i N + j] * I_3. */
static void sys_from_blocks(sysbuf *s, int N, const double *a)
{
    int n = 3 * N;
    double *dense = calloc((size_t)n * n, sizeof(double));
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int c = 0; c < 3; c++)
                dense[(3 * i + c) + (size_t)n * (3 * j + c)] = a[i * N + j];
    sys_from_dense(s, N, dense);
    free(dense);
}

static void add_pair(sysbuf *s, int a, int b)
{
    s->pairs[2 * s->sys.num_stretch] = a;
    s->pairs[2 * s->sys.num_stretch + 1] = b;
    s->sys.num_stretch++;
}

/* y = A x with the lower CSC of s. */
static void sys_mult(const sysbuf *s, const double *x, double *y)
{
    int n = 3 * s->sys.num_nodes;
    for (int k = 0; k < n; k++)
        y[k] = 0;
    for (int j = 0; j < n; j++)
        for (int k = s->colptr[j]; k < s->colptr[j + 1]; k++) {
            int i = s->rowidx[k];
            y[i] += s->values[k] * x[j];
            if (i != j)
                y[j] += s->values[k] * x[i];
        }
}

static corepcg_settings settings_for(corepcg_method m)
{
    corepcg_settings set;
    corepcg_settings_default(&set);
    set.method = m;
    return set;
}

static void fill(double *x, int n, double v)
{
    for (int k = 0; k < n; k++)
        x[k] = v;
}

static int all_equal(const double *x, int n, double v)
{
    for (int k = 0; k < n; k++)
        if (x[k] != v)
            return 0;
    return 1;
}

static double max_diff(const double *a, const double *b, int n)
{
    double d = 0;
    for (int k = 0; k < n; k++)
        d = fmax(d, fabs(a[k] - b[k]));
    return d;
}

static const corepcg_method cg_methods[] = {
    COREPCG_METHOD_COREPCG, COREPCG_METHOD_UPCG, COREPCG_METHOD_MPCG,
    COREPCG_METHOD_MPCG_BW};

/* ------------------------------------------------ A not positive definite */

/* Blocks [[1, 2, 0], [2, 1, 0.1], [0, 0.1, 1]]: the leading 2x2 has
 * eigenvalues 3 and -1 (A is indefinite with a positive diagonal); the
 * stretch pair (1, 2) gives corepcg an SPD core (eigenvalues 1 +- 0.1) so
 * that the failure must come from the CG loop. b = (e, -e, 0) lies mostly
 * along the negative direction: b^T A b = -2 |e|^2, so the very first
 * p^T A p (p = b, every preconditioner here is the identity on it, up to
 * the 0.1 coupling of the core) is negative. */
static void make_indefinite(sysbuf *s, double *b)
{
    const double a[9] = {1, 2, 0, 2, 1, 0.1, 0, 0.1, 1};
    sys_from_blocks(s, 3, a);
    add_pair(s, 1, 2);
    fill(b, 9, 0);
    b[0] = b[1] = b[2] = 1;
    b[3] = b[4] = b[5] = -1;
}

/* Node 0 massless, its block k e1 e1^T (a spring along x alone), node 1
 * the identity; node 0 slides in the plane z = 0 (which holds e1), or is
 * free: A~ is singular on node 0's free directions. Every method refuses
 * it at setup, naming the node, and a kept handle's update likewise,
 * keeping its system (an outside review: corePCG, MPCG and upcg iterated
 * to max_iter, residuals of 1e13, with no word why). */
static void test_singular_free_block(void)
{
    double dense[36] = {0};
    dense[0] = 1e3;
    for (int k = 3; k < 6; k++)
        dense[6 * k + k] = 1;
    sysbuf bad, good;
    sys_from_dense(&bad, 2, dense);
    dense[6 * 1 + 1] = dense[6 * 2 + 2] = 1; /* node 0 given mass */
    sys_from_dense(&good, 2, dense);
    double b[6] = {1, 0, 0, 1, 1, 1}, x[6];
    for (int sliding = 0; sliding < 2; sliding++) {
        bad.cons[0] = (corepcg_constraint){.node = 0, .ndof = 2, .p = {0, 0, 1}};
        bad.sys.num_constraints = sliding;
        for (int k = 0; corepcg_method_at(k) >= 0; k++) {
            corepcg_method m = (corepcg_method)corepcg_method_at(k);
            corepcg_settings set = settings_for(m);
            int core = corepcg_option_from_name("core"); /* no stretch pairs */
            if (corepcg_method_takes(m, core))
                corepcg_option_set(&set, core, COREPCG_CORE_AUTO);
            const char *name = corepcg_method_name(m);
            corepcg_solver *h = NULL;
            CHECK_INT(corepcg_create(&h), COREPCG_OK);
            int rc = corepcg_setup(h, &bad.sys, &set);
            CHECK(rc == COREPCG_ERR_NOT_SPD, "%s, node 0 %s: setup %d (%s)",
                  name, sliding ? "sliding" : "free", rc, corepcg_message(h));
            CHECK_STR_CONTAINS(corepcg_message(h), "node 0's diagonal block");
            CHECK_INT(corepcg_setup(h, &good.sys, &set), COREPCG_OK);
            CHECK_INT(corepcg_update(h, &bad.sys, NULL), COREPCG_ERR_NOT_SPD);
            CHECK_STR_CONTAINS(corepcg_message(h), "node 0's diagonal block");
            CHECK(corepcg_ready(h), "%s: the update dropped the system", name);
            CHECK_INT(corepcg_solve(h, b, NULL, x, NULL), COREPCG_OK);
            /* the next good update (through the import map the refused
             * one handed back) answers as a fresh handle does */
            double fresh[6];
            CHECK_INT(corepcg_update(h, &good.sys, NULL), COREPCG_OK);
            CHECK_INT(corepcg_solve(h, b, NULL, x, NULL), COREPCG_OK);
            corepcg_solver *f = NULL;
            CHECK_INT(corepcg_create(&f), COREPCG_OK);
            CHECK_INT(corepcg_setup(f, &good.sys, &set), COREPCG_OK);
            CHECK_INT(corepcg_solve(f, b, NULL, fresh, NULL), COREPCG_OK);
            /* (auto's choice may follow the clock: its method, not its bits) */
            CHECK(m == COREPCG_METHOD_AUTO || memcmp(x, fresh, sizeof fresh) == 0,
                  "%s: kept after a refused update differs from fresh", name);
            corepcg_free(&f);
            corepcg_free(&h);
        }
    }
    /* and blocks of subnormal size, [2 -1; -1 2] 1e-310, are positive
     * definite (an outside review: 1 / max|B| overflowed there, and the
     * check refused them with a NaN pivot) */
    const double tiny_blocks[4] = {2e-310, -1e-310, -1e-310, 2e-310};
    sysbuf sub;
    sys_from_blocks(&sub, 2, tiny_blocks);
    corepcg_settings set = settings_for(COREPCG_METHOD_DIRECT);
    corepcg_solver *h = NULL;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);
    CHECK(corepcg_setup(h, &sub.sys, &set) == COREPCG_OK, "subnormal blocks "
          "refused: %s", corepcg_message(h));
    corepcg_free(&h);
}

/* Two nodes, blocks a I: a = [1e59 1e19; 1e19 1e-20], SPD (determinant
 * 9e38) of condition 1e79: the factorisation succeeds and its answer's
 * residual is 1e23. direct ends NOT_CONVERGED, said why, x written (an
 * outside review: it said OK). */
static void test_direct_lost_to_round_off(void)
{
    const double a[4] = {1e59, 1e19, 1e19, 1e-20};
    sysbuf s;
    sys_from_blocks(&s, 2, a);
    double b[6] = {1, 1, 1, 1, 1, 1}, x[6];
    corepcg_settings set = settings_for(COREPCG_METHOD_DIRECT);
    corepcg_solver *h = NULL;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);
    CHECK_INT(corepcg_setup(h, &s.sys, &set), COREPCG_OK);
    fill(x, 6, SENTINEL);
    corepcg_info info;
    int rc = corepcg_solve(h, b, NULL, x, &info);
    CHECK(rc == COREPCG_NOT_CONVERGED, "direct, cond 1e79: solve %d (%s), "
          "residual %.3g", rc, corepcg_message(h), info.rel_residual);
    CHECK_STR_CONTAINS(corepcg_message(h), "lost A~ to round-off");
    CHECK(info.rel_residual > 1 && !info.converged, "residual %.3g, converged %d",
          info.rel_residual, info.converged);
    CHECK(!all_equal(x, 6, SENTINEL), "x not written");
    corepcg_free(&h);
}

/* The same matrix with its nodes swapped, a = [1e-20 1e19; 1e19 1e59]:
 * icpcg's factor has entries beyond float's range, in which it keeps the
 * factor: ERR_IC_BREAKDOWN at setup, said why (it was ERR_NAN at the
 * solve, "NaN or Inf before the first iteration", an outside review). */
static void test_icpcg_factor_beyond_float(void)
{
    const double a[4] = {1e-20, 1e19, 1e19, 1e59};
    sysbuf s;
    sys_from_blocks(&s, 2, a);
    corepcg_settings set = settings_for(COREPCG_METHOD_ICPCG);
    corepcg_solver *h = NULL;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);
    int rc = corepcg_setup(h, &s.sys, &set);
    CHECK(rc == COREPCG_ERR_IC_BREAKDOWN, "icpcg, factor beyond float: setup "
          "%d (%s)", rc, corepcg_message(h));
    CHECK_STR_CONTAINS(corepcg_message(h), "beyond float's range");
    corepcg_free(&h);
}

static void test_not_spd(void)
{
    sysbuf s;
    double b[9], x[9];
    make_indefinite(&s, b);
    corepcg_solver *h = NULL;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);

    /* direct: the factorisation refuses it at setup */
    corepcg_settings set = settings_for(COREPCG_METHOD_DIRECT);
    for (int f = 0; f < COREPCG_FACTOR_COUNT; f++) {
        set.factor = (corepcg_factor)f;
        int rc = corepcg_setup(h, &s.sys, &set);
        CHECK(rc == COREPCG_ERR_NOT_SPD, "direct, factor %s: setup %d (%s), "
              "expected ERR_NOT_SPD", corepcg_factor_name(f), rc,
              corepcg_message(h));
        CHECK_STR_CONTAINS(corepcg_message(h), "not positive definite");
        fill(x, 9, SENTINEL);
        CHECK_INT(corepcg_solve(h, b, NULL, x, NULL), COREPCG_ERR_STATE);
        CHECK(all_equal(x, 9, SENTINEL), "x written after a failed setup");
    }

    /* the CG methods meet p^T A p < 0 */
    for (size_t m = 0; m < sizeof cg_methods / sizeof cg_methods[0]; m++) {
        set = settings_for(cg_methods[m]);
        set.tol = 1e-12;
        const char *name = corepcg_method_name(cg_methods[m]);
        int rc = corepcg_setup(h, &s.sys, &set);
        CHECK(rc == COREPCG_OK, "%s: setup %d (%s)", name, rc,
              corepcg_message(h));
        corepcg_info info;
        fill(x, 9, SENTINEL);
        rc = corepcg_solve(h, b, NULL, x, &info);
        CHECK(rc == COREPCG_ERR_BREAKDOWN || rc == COREPCG_ERR_NOT_SPD,
              "%s on an indefinite A: solve %d (%s), expected ERR_BREAKDOWN "
              "or ERR_NOT_SPD", name, rc, corepcg_message(h));
        CHECK_INT(info.status, rc);
        CHECK_INT(info.converged, 0);
        CHECK_INT(info.iterations, 0); /* before the first step completes */
        CHECK_STR_CONTAINS(corepcg_message(h), "p^T A p");
        CHECK_STR_CONTAINS(corepcg_message(h), "not positive definite");
        CHECK(all_equal(x, 9, SENTINEL), "%s: x written after an error", name);
    }
    corepcg_free(&h);
}

/* A CG breakdown later than the first step: blocks [[1, 2], [2, 1]] with
 * b = (e, 0): p0 = b gives p^T A p = 1 > 0, and the second direction
 * (the whole 2-dimensional Krylov space, which holds the negative
 * eigenvector) must have p^T A p < 0 (Sylvester: the A-conjugate
 * directions carry A's inertia). */
static void test_breakdown_second_step(void)
{
    sysbuf s;
    const double a[4] = {1, 2, 2, 1};
    sys_from_blocks(&s, 2, a);
    double b[6] = {1, 0, 0, 0, 0, 0}, x[6];
    corepcg_solver *h = NULL;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);
    const corepcg_method ms[] = {COREPCG_METHOD_UPCG, COREPCG_METHOD_MPCG,
                                 COREPCG_METHOD_MPCG_BW};
    for (int m = 0; m < 3; m++) {
        corepcg_settings set = settings_for(ms[m]);
        set.tol = 1e-12;
        CHECK_INT(corepcg_setup(h, &s.sys, &set), COREPCG_OK);
        corepcg_info info;
        fill(x, 6, SENTINEL);
        int rc = corepcg_solve(h, b, NULL, x, &info);
        CHECK(rc == COREPCG_ERR_BREAKDOWN, "%s: solve %d (%s), expected "
              "ERR_BREAKDOWN", corepcg_method_name(ms[m]), rc,
              corepcg_message(h));
        CHECK_INT(info.iterations, 1);
        CHECK_STR_CONTAINS(corepcg_message(h), "at iteration 2");
        CHECK(all_equal(x, 6, SENTINEL), "x written after a breakdown");
    }
    corepcg_free(&h);
}

/* ------------------------------------------- core not positive definite */

/* Three nodes in a row, blocks [[1, s, h], [s, 1, s], [h, s, 1]] with
 * stretch springs 0-1 and 1-2 (s = -0.9) and a shear spring 0-2
 * (h = 0.2). A is not SPD: its eigenvalues are 1 - h = 0.8 (on (1, 0, -1))
 * and those of [[1 + h, s sqrt 2], [s sqrt 2, 1]], whose determinant
 * 1.2 - 1.62 is < 0. The plain core [[1, s, 0], [s, 1, s], [0, s, 1]]
 * (eigenvalue 1 - 0.9 sqrt 2 < 0) fails, and so does the compensated one,
 * |h| added to nodes 0 and 2 (the same determinant): the core bounds A
 * from above, and an indefinite A makes it fail. On (1, 0, -1) (x) w A is
 * 0.8 I and its diagonal blocks I: the fallback's block-preconditioned CG
 * solves b = A x there in one step. */
static void make_core_indefinite(sysbuf *s)
{
    const double sv = -0.9, hv = 0.2;
    const double a[9] = {1, sv, hv, sv, 1, sv, hv, sv, 1};
    sys_from_blocks(s, 3, a);
    add_pair(s, 0, 1);
    add_pair(s, 1, 2);
}

/* x = (1, 0, -1) (x) (1, -0.5, 2): A x = 0.8 x (make_core_indefinite). */
static void eigen_direction(double *x)
{
    const double v[3] = {1, 0, -1}, w[3] = {1, -0.5, 2};
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 3; c++)
            x[3 * i + c] = v[i] * w[c];
}

static void test_core_not_spd(void)
{
    sysbuf s;
    make_core_indefinite(&s);
    double xt[9], b[9], x[9];
    eigen_direction(xt);
    sys_mult(&s, xt, b);
    corepcg_solver *h = NULL;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);

    /* A is not SPD: direct says so */
    corepcg_settings set = settings_for(COREPCG_METHOD_DIRECT);
    CHECK_INT(corepcg_setup(h, &s.sys, &set), COREPCG_ERR_NOT_SPD);

    /* corepcg without fallback: refused at setup, whatever the factor */
    for (int f = 0; f < COREPCG_FACTOR_COUNT; f++) {
        set = settings_for(COREPCG_METHOD_COREPCG);
        set.factor = (corepcg_factor)f;
        int rc = corepcg_setup(h, &s.sys, &set);
        CHECK(rc == COREPCG_ERR_CORE_NOT_SPD, "factor %s: setup %d (%s), "
              "expected ERR_CORE_NOT_SPD", corepcg_factor_name(f), rc,
              corepcg_message(h));
        CHECK_STR_CONTAINS(corepcg_message(h), "not positive definite");
        CHECK_STR_CONTAINS(corepcg_message(h), "A~ is indefinite or singular");
        CHECK_STR_CONTAINS(corepcg_strerror(rc), "core");
        fill(x, 9, SENTINEL);
        CHECK_INT(corepcg_solve(h, b, NULL, x, NULL), COREPCG_ERR_STATE);
        CHECK(all_equal(x, 9, SENTINEL), "x written after a failed setup");
    }

    /* with the fallback: block-preconditioned upcg, flagged */
    for (int f = 0; f < COREPCG_FACTOR_COUNT; f++) {
        set = settings_for(COREPCG_METHOD_COREPCG);
        set.factor = (corepcg_factor)f;
        corepcg_option_set(&set, corepcg_option_from_name("fallback_upcg"), 1);
        set.tol = 1e-12;
        int rc = corepcg_setup(h, &s.sys, &set);
        CHECK(rc == COREPCG_OK, "fallback, factor %s: setup %d (%s)",
              corepcg_factor_name(f), rc, corepcg_message(h));
        corepcg_info info;
        fill(x, 9, SENTINEL);
        rc = corepcg_solve(h, b, NULL, x, &info);
        CHECK(rc == COREPCG_FELL_BACK, "fallback: solve %d (%s), expected "
              "COREPCG_FELL_BACK", rc, corepcg_message(h));
        CHECK_INT(info.status, COREPCG_FELL_BACK);
        CHECK_INT(info.fell_back, 1);
        CHECK_INT(info.converged, 1);
        CHECK_LE(max_diff(x, xt, 9), 1e-9);
        CHECK_LE(info.rel_residual, 1e-10);
    }

    /* the CLI's --fallback on the same system as a bundle */
    corepcg_free(&h);
}

/* A guess 1e200 times b on A = 2 I: its residual's square overflows. The
 * solve says so, blaming the guess with its size (it said only "NaN or
 * Inf before the first iteration"), for every iterative method. */
static void test_guess_far_off(void)
{
    double dense[9] = {2, 0, 0, 0, 2, 0, 0, 0, 2};
    sysbuf s;
    sys_from_dense(&s, 1, dense);
    double b[3] = {1, 1, 1}, x0[3] = {1e200, -1e200, 1e200}, x[3];
    corepcg_solver *h = NULL;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);
    const corepcg_method ms[] = {COREPCG_METHOD_UPCG, COREPCG_METHOD_MPCG,
                                 COREPCG_METHOD_ICPCG};
    for (int m = 0; m < 3; m++) {
        corepcg_settings set = settings_for(ms[m]);
        CHECK_INT(corepcg_setup(h, &s.sys, &set), COREPCG_OK);
        fill(x, 3, SENTINEL);
        int rc = corepcg_solve(h, b, x0, x, NULL);
        CHECK(rc == COREPCG_ERR_NAN, "%s: solve %d (%s)", corepcg_method_name(ms[m]), rc,
              corepcg_message(h));
        CHECK_STR_CONTAINS(corepcg_message(h), "the guess's largest entry is 1.0e+200 times");
        CHECK_STR_CONTAINS(corepcg_message(h), "pass none");
        CHECK(all_equal(x, 3, SENTINEL), "x written after ERR_NAN");
    }
    corepcg_free(&h);
}

/* ------------------------------------------------ NaN / Inf in the loop */

/* One node, A = [[d, -c, 0], [-c, d, 0], [0, 0, 1]] with d = 1.7e308 and
 * c = 1.6e308: SPD (eigenvalues d - c, d + c, 1), every entry finite, and
 * b = t d (1, -1, 0) with t = 0.6 (1.02e308). |b|^2 overflows, and so
 * did the first p^T A p (A p = t (d + c) (1, -1, 0) = 1.98e308): upcg and
 * mpcg failed with ERR_NAN on a system they can solve. The loop now runs
 * at unit scale (cpg_unit_scale: b and the guess times a power of two, the
 * answer back), so both solve it under either stopping rule. mpcg-bw's
 * delta0 = b^T D b is the published method's own, in b's units squared
 * times A's: at unit scale b is below 2^24 (b's scale stops at 2^-1000),
 * but D's 1.7e308 still overflows it before the loop: reported, x
 * untouched.
 * (The loop's own checks for Inf inside it: test_pcg.) */
static void test_nan_during_iteration(void)
{
    const double d = 1.7e308, c = 1.6e308;
    double dense[9] = {d, -c, 0, -c, d, 0, 0, 0, 1};
    sysbuf s;
    sys_from_dense(&s, 1, dense);
    double b[3] = {0.6 * d, -0.6 * d, 0}, x[3];
    /* A x = b: x = t d / (d + c) (1, -1, 0) */
    const double xt = 0.6 / (1 + c / d);
    corepcg_solver *h = NULL;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);
    const corepcg_method ms[] = {COREPCG_METHOD_UPCG, COREPCG_METHOD_MPCG,
                                 COREPCG_METHOD_MPCG_BW};
    for (int m = 0; m < 6; m++) {
        corepcg_method method = ms[m % 3];
        corepcg_settings set = settings_for(method);
        set.stop = m < 3 ? COREPCG_STOP_PRECONDITIONED : COREPCG_STOP_RESIDUAL;
        CHECK_INT(corepcg_setup(h, &s.sys, &set), COREPCG_OK);
        fill(x, 3, SENTINEL);
        corepcg_info info;
        int rc = corepcg_solve(h, b, NULL, x, &info);
        if (method == COREPCG_METHOD_MPCG_BW) {
            CHECK(rc == COREPCG_ERR_NAN, "mpcg-bw: solve %d (%s), expected "
                  "ERR_NAN", rc, corepcg_message(h));
            CHECK_STR_CONTAINS(corepcg_message(h),
                               "NaN or Inf before the first iteration");
            CHECK_INT(info.converged, 0);
            CHECK_INT(info.iterations, 0);
            CHECK(all_equal(x, 3, SENTINEL), "x written after ERR_NAN");
            continue;
        }
        CHECK(rc == COREPCG_OK, "%s: solve %d (%s)", corepcg_method_name(method),
              rc, corepcg_message(h));
        CHECK_INT(info.converged, 1);
        CHECK_LE(info.rel_residual, set.tol);
        CHECK_NEAR(x[0], xt, 1e-12 * xt);
        CHECK_NEAR(x[1], -xt, 1e-12 * xt);
        CHECK(x[2] == 0, "%s: x[2] = %g", corepcg_method_name(method), x[2]);
    }

    /* an initial guess whose product overflows: caught before step 1 */
    corepcg_settings set = settings_for(COREPCG_METHOD_UPCG);
    CHECK_INT(corepcg_setup(h, &s.sys, &set), COREPCG_OK);
    double x0[3] = {1e300, -1e300, 0};
    fill(x, 3, SENTINEL);
    int rc = corepcg_solve(h, b, x0, x, NULL);
    CHECK(rc == COREPCG_ERR_NAN, "x0 overflow: solve %d (%s)", rc,
          corepcg_message(h));
    CHECK_STR_CONTAINS(corepcg_message(h), "before the first iteration");
    CHECK(all_equal(x, 3, SENTINEL), "x written after ERR_NAN");
    /* (here A's 1.7e308 overflows, not the guess, 1e-1 of b at unit
     * scale: the message does not blame the guess) */
    CHECK(!strstr(corepcg_message(h), "the guess's"), "%s", corepcg_message(h));

    /* NaN or Inf in the caller's vectors is refused, not iterated on */
    double bad[3] = {1, NAN, 0};
    rc = corepcg_solve(h, bad, NULL, x, NULL);
    CHECK_INT(rc, COREPCG_ERR_NOT_FINITE);
    CHECK_STR_CONTAINS(corepcg_message(h), "b[1]");
    bad[1] = INFINITY;
    rc = corepcg_solve(h, b, bad, x, NULL);
    CHECK_INT(rc, COREPCG_ERR_NOT_FINITE);
    CHECK_STR_CONTAINS(corepcg_message(h), "x0[1]");
    CHECK(all_equal(x, 3, SENTINEL), "x written after ERR_NOT_FINITE");

    /* and so is a non-finite entry of A or z at setup */
    dense[1] = dense[3] = NAN;
    sys_from_dense(&s, 1, dense);
    rc = corepcg_setup(h, &s.sys, &set);
    CHECK_INT(rc, COREPCG_ERR_NOT_FINITE);
    corepcg_free(&h);
}

/* --------------------------------------------------------- no convergence */

/* A chain of 12 nodes, blocks 2.5 on the diagonal, -1 between neighbours:
 * SPD with condition number about 40, far from solvable in 2 steps. */
static void make_chain(sysbuf *s, int N)
{
    double a[16 * 16] = {0};
    for (int i = 0; i < N; i++) {
        a[i * N + i] = 2.5;
        if (i + 1 < N)
            a[i * N + i + 1] = a[(i + 1) * N + i] = -1;
    }
    sys_from_blocks(s, N, a);
    for (int i = 0; i + 1 < N; i++)
        add_pair(s, i, i + 1);
}

static void test_not_converged(void)
{
    enum { N = 12, n = 3 * N };
    sysbuf s;
    make_chain(&s, N);
    /* node 0 fixed at z, node 5 in a plane: the constraints must hold even
     * in an unconverged answer */
    s.cons[0] = (corepcg_constraint){.node = 0, .ndof = 0};
    s.cons[1] = (corepcg_constraint){.node = 5, .ndof = 2, .p = {0, 0.6, 0.8}};
    s.sys.num_constraints = 2;
    double z[n], b[n], x[n];
    for (int k = 0; k < n; k++) {
        z[k] = 0.1 * k;
        b[k] = sin(1.0 + k);
    }
    s.sys.z = z;
    /* corepcg's core is the whole chain here: give it only half of the
     * stretch pairs so that it needs iterations too */
    s.sys.num_stretch = 5;
    corepcg_solver *h = NULL;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);
    for (size_t m = 0; m < sizeof cg_methods / sizeof cg_methods[0]; m++) {
        corepcg_settings set = settings_for(cg_methods[m]);
        set.tol = 1e-12;
        set.max_iter = 2;
        const char *name = corepcg_method_name(cg_methods[m]);
        CHECK_INT(corepcg_setup(h, &s.sys, &set), COREPCG_OK);
        corepcg_info info;
        fill(x, n, SENTINEL);
        int rc = corepcg_solve(h, b, NULL, x, &info);
        CHECK(rc == COREPCG_NOT_CONVERGED, "%s: solve %d (%s), expected "
              "NOT_CONVERGED", name, rc, corepcg_message(h));
        CHECK(rc > 0, "NOT_CONVERGED must be a warning (> 0)");
        CHECK_INT(info.converged, 0);
        CHECK_INT(info.iterations, 2);
        CHECK(info.rel_residual > 1e-6, "%s: rel_residual %g after 2 steps",
              name, info.rel_residual);
        CHECK(!all_equal(x, n, SENTINEL), "%s: x not written", name);
        int finite = 1;
        for (int k = 0; k < n; k++)
            finite &= isfinite(x[k]);
        CHECK(finite, "%s: x not finite", name);
        /* x is usable: the constraints hold exactly */
        CHECK_LE(info.constraint_error, 1e-14);
        CHECK_LE(fabs(x[0] - z[0]) + fabs(x[1] - z[1]) + fabs(x[2] - z[2]), 1e-15);
        double pn = 0.6 * (x[16] - z[16]) + 0.8 * (x[17] - z[17]);
        CHECK_LE(fabs(pn), 1e-14);

        /* and the same with enough iterations converges */
        set.max_iter = 1000;
        CHECK_INT(corepcg_setup(h, &s.sys, &set), COREPCG_OK);
        CHECK_INT(corepcg_solve(h, b, NULL, x, &info), COREPCG_OK);
        CHECK_INT(info.converged, 1);
    }
    corepcg_free(&h);
}

/* ---------------------------------------------- degenerate constraints */

static void test_degenerate_directions(void)
{
    sysbuf s;
    make_chain(&s, 3);
    double b[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    corepcg_solver *h = NULL;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);
    corepcg_settings set = settings_for(COREPCG_METHOD_DIRECT);

    /* q within 1e-9 of p: p x q has length 1e-9 */
    s.cons[0] = (corepcg_constraint){.node = 1, .ndof = 1, .p = {1, 0, 0},
                                     .q = {1, 1e-9, 0}};
    s.sys.num_constraints = 1;
    int rc = corepcg_setup(h, &s.sys, &set);
    CHECK_INT(rc, COREPCG_ERR_CONSTRAINT);
    CHECK_STR_CONTAINS(corepcg_message(h), "p x q");
    CHECK_STR_CONTAINS(corepcg_message(h), "parallel");

    /* q = -p exactly */
    s.cons[0].q[0] = -1;
    s.cons[0].q[1] = 0;
    rc = corepcg_setup(h, &s.sys, &set);
    CHECK_INT(rc, COREPCG_ERR_CONSTRAINT);
    CHECK_STR_CONTAINS(corepcg_message(h), "p x q");

    /* just past the orthogonality tolerance (|p.q| = 2e-6): refused, but
     * the message must not call it parallel */
    s.cons[0].q[0] = 2e-6;
    s.cons[0].q[1] = 1;
    rc = corepcg_setup(h, &s.sys, &set);
    CHECK_INT(rc, COREPCG_ERR_CONSTRAINT);
    CHECK_STR_CONTAINS(corepcg_message(h), "not orthogonal");

    /* within it (|p.q| = 5e-7): accepted, q made orthogonal, and the
     * answer holds both constraints */
    s.cons[0].q[0] = 5e-7;
    rc = corepcg_setup(h, &s.sys, &set);
    CHECK_INT(rc, COREPCG_OK);
    double x[9];
    CHECK_INT(corepcg_solve(h, b, NULL, x, NULL), COREPCG_OK);
    CHECK_LE(fabs(x[3]) + fabs(x[4]), 1e-15);

    /* directions of extreme magnitude are directions like any other */
    const double scales[] = {1e-300, 1e300};
    for (int k = 0; k < 2; k++) {
        double t = scales[k];
        s.cons[0] = (corepcg_constraint){.node = 1, .ndof = 1,
                                         .p = {t, t, 0}, .q = {0, 0, t}};
        s.cons[1] = (corepcg_constraint){.node = 2, .ndof = 2,
                                         .p = {0, t, t}};
        s.sys.num_constraints = 2;
        rc = corepcg_setup(h, &s.sys, &set);
        CHECK(rc == COREPCG_OK, "scale %g: setup %d (%s)", t, rc,
              corepcg_message(h));
        fill(x, 9, SENTINEL);
        CHECK_INT(corepcg_solve(h, b, NULL, x, NULL), COREPCG_OK);
        /* node 1 moves along (1, -1, 0) only, node 2 in the plane y + z = 0 */
        CHECK_LE(fabs(x[3] + x[4]) + fabs(x[5]), 1e-14);
        CHECK_LE(fabs(x[7] + x[8]), 1e-14);
    }
    corepcg_free(&h);
}

/* ------------------------------------------------------------- misuse */

/* What tests/test_api.c does not cover already (it checks the handle
 * functions with NULL, ERR_STATE before setup, free twice, update with a
 * new pattern): NULL to every other public function, NULL arrays inside a
 * system, a system of no nodes. */
static void test_misuse(void)
{
    sysbuf s;
    make_chain(&s, 3);
    double b[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, x[9] = {0};
    char msg[COREPCG_MSG_SIZE];
    double ce = 0, rr = 0;

    corepcg_settings_default(NULL);
    CHECK_INT(corepcg_check(NULL, b, x, &ce, &rr, msg), COREPCG_ERR_ARGUMENT);
    CHECK_INT(corepcg_check(&s.sys, NULL, x, &ce, &rr, msg), COREPCG_ERR_ARGUMENT);
    CHECK_INT(corepcg_check(&s.sys, b, NULL, &ce, &rr, msg), COREPCG_ERR_ARGUMENT);
    CHECK_INT(corepcg_check(&s.sys, b, x, NULL, NULL, NULL), COREPCG_ERR_ARGUMENT);
    CHECK_INT(corepcg_check(&s.sys, b, x, &ce, &rr, NULL), COREPCG_OK);
    CHECK_INT(corepcg_bundle_read(NULL, NULL, msg), COREPCG_ERR_ARGUMENT);
    corepcg_bundle *bd = (corepcg_bundle *)(uintptr_t)1;
    CHECK_INT(corepcg_bundle_read(NULL, &bd, msg), COREPCG_ERR_ARGUMENT);
    CHECK(bd == NULL, "bundle_read with no directory left *out set");
    CHECK_INT(corepcg_bundle_read("", &bd, NULL), COREPCG_ERR_ARGUMENT);
    corepcg_bundle_free(NULL);
    corepcg_bundle_free(&bd);
    CHECK_INT(corepcg_bundle_write(NULL, &s.sys, b, NULL, msg), COREPCG_ERR_ARGUMENT);
    CHECK_INT(corepcg_bundle_write("/nonexistent/b", NULL, b, NULL, msg),
              COREPCG_ERR_ARGUMENT);
    CHECK_INT(corepcg_bundle_write("/nonexistent/b", &s.sys, NULL, NULL, msg),
              COREPCG_ERR_ARGUMENT);
    double *v = (double *)(uintptr_t)1;
    CHECK_INT(corepcg_vector_read(NULL, 3, &v, msg), COREPCG_ERR_ARGUMENT);
    CHECK_INT(corepcg_vector_read("/nonexistent", 3, NULL, msg), COREPCG_ERR_ARGUMENT);
    CHECK_INT(corepcg_vector_write(NULL, 3, b, msg), COREPCG_ERR_ARGUMENT);
    CHECK_INT(corepcg_vector_write("/nonexistent/x.mtx", 3, NULL, msg),
              COREPCG_ERR_ARGUMENT);
    CHECK_INT(corepcg_vector_write("/nonexistent/x.mtx", 0, b, msg),
              COREPCG_ERR_ARGUMENT);
    const char *(*names[])(int) = {corepcg_method_name, corepcg_precond_name,
                                   corepcg_ordering_name, corepcg_factor_name,
                                   corepcg_core_name};
    int (*from[])(const char *) = {corepcg_method_from_name,
                                   corepcg_precond_from_name,
                                   corepcg_ordering_from_name,
                                   corepcg_factor_from_name,
                                   corepcg_core_from_name};
    for (int k = 0; k < 5; k++) {
        CHECK(names[k](-1) != NULL && names[k](99) != NULL,
              "name table %d: NULL for an unknown value", k);
        CHECK_INT(from[k](NULL), -1);
        CHECK_INT(from[k]("no-such-name"), -1);
        /* any case, as Python reads them; nothing else near a name */
        for (int value = 0; strcmp(names[k](value), "unknown") != 0; value++) {
            char upper[32], padded[34];
            snprintf(upper, sizeof upper, "%s", names[k](value));
            for (char *c = upper; *c; c++)
                *c = (char)toupper((unsigned char)*c);
            CHECK(from[k](upper) == value, "%s read as %d, expected %d", upper,
                  from[k](upper), value);
            snprintf(padded, sizeof padded, "%s ", names[k](value));
            CHECK_INT(from[k](padded), -1);
        }
    }
    CHECK_INT(corepcg_method_from_name("MPCG-BW"), COREPCG_METHOD_MPCG_BW);
    CHECK_INT(corepcg_method_from_name("IcPcG"), COREPCG_METHOD_ICPCG);
    CHECK_INT(corepcg_stop_from_name("Preconditioned"), COREPCG_STOP_PRECONDITIONED);

    /* NULL arrays inside a system: refused with ERR_ARGUMENT, and the
     * handle is empty afterwards, then usable again */
    corepcg_solver *h = NULL;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);
    struct {
        const char *what;
        corepcg_system sys;
    } bad[6];
    for (int k = 0; k < 6; k++)
        bad[k].sys = s.sys;
    bad[0].what = "A_colptr NULL";
    bad[0].sys.A_colptr = NULL;
    bad[1].what = "A_rowidx NULL";
    bad[1].sys.A_rowidx = NULL;
    bad[2].what = "A_values NULL";
    bad[2].sys.A_values = NULL;
    bad[3].what = "2 constraints, records NULL";
    bad[3].sys.num_constraints = 2;
    bad[3].sys.constraints = NULL;
    bad[4].what = "0 nodes";
    bad[4].sys.num_nodes = 0;
    bad[5].what = "-3 nodes";
    bad[5].sys.num_nodes = -3;
    for (int k = 0; k < 6; k++) {
        int rc = corepcg_setup(h, &bad[k].sys, NULL);
        CHECK(rc == COREPCG_ERR_ARGUMENT, "%s: setup %d (%s), expected "
              "ERR_ARGUMENT", bad[k].what, rc, corepcg_message(h));
        CHECK(corepcg_message(h)[0] != '\0', "%s: no message", bad[k].what);
        fill(x, 9, SENTINEL);
        CHECK_INT(corepcg_solve(h, b, NULL, x, NULL), COREPCG_ERR_STATE);
        CHECK(all_equal(x, 9, SENTINEL), "%s: x written", bad[k].what);
    }
    /* stretch pairs announced but NULL: corepcg cannot build its core */
    corepcg_system nopairs = s.sys;
    nopairs.stretch_pairs = NULL;
    int rc = corepcg_setup(h, &nopairs, NULL);
    /* the header: NULL arrays are ERR_ARGUMENT, for every method */
    CHECK(rc == COREPCG_ERR_ARGUMENT,
          "num_stretch 2 with NULL pairs: setup %d (%s)", rc, corepcg_message(h));
    CHECK_INT(corepcg_setup(h, &s.sys, NULL), COREPCG_OK);
    CHECK_INT(corepcg_solve(h, b, NULL, x, NULL), COREPCG_OK);
    corepcg_free(&h);
}

/* ------------------------------------------- absurd Matrix Market sizes */

/* out = dir/name, or stop: no test can go on with a cut path. */
static void join(char *out, const char *dir, const char *name)
{
    int len = snprintf(out, PATH_SIZE, "%s/%s", dir, name);
    if (len < 0 || len >= PATH_SIZE) {
        fprintf(stderr, "path too long: %s/%s\n", dir, name);
        exit(1);
    }
}

static void make_dir(char *out, const char *tag)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(out, PATH_SIZE, "%s/corepcg-rel-%s-XXXXXX",
             tmp && tmp[0] ? tmp : "/tmp", tag);
    if (!mkdtemp(out)) {
        perror("mkdtemp");
        exit(1);
    }
}

static void write_text(const char *dir, const char *name, const char *text)
{
    char path[PATH_SIZE];
    join(path, dir, name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    if (!in || !out) {
        perror(from);
        exit(1);
    }
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, got, out);
    fclose(in);
    fclose(out);
}

/* A copy of data/tiny (A, b, constraints, stretch) in a fresh directory. */
static void copy_tiny(char *dir, const char *tag)
{
    make_dir(dir, tag);
    const char *names[] = {"A.mtx", "b.mtx", "constraints.txt", "stretch.mtx"};
    for (int k = 0; k < 4; k++) {
        char tiny[PATH_SIZE], from[PATH_SIZE], to[PATH_SIZE];
        join(tiny, data_dir(), "tiny");
        join(from, tiny, names[k]);
        join(to, dir, names[k]);
        copy_file(from, to);
    }
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[PATH_SIZE];
        join(path, dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

/* Reads dir in a child and reports the code, the message and the child's
 * peak resident set (kB), so that an attempted huge allocation shows. */
static int read_in_child(const char *dir, char *msg, long *peak_kb)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -100;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        corepcg_bundle *bd = NULL;
        char m[COREPCG_MSG_SIZE] = "";
        int rc = corepcg_bundle_read(dir, &bd, m);
        corepcg_bundle_free(&bd);
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        long kb = ru.ru_maxrss;
        if (write(fd[1], &rc, sizeof rc) != sizeof rc ||
            write(fd[1], &kb, sizeof kb) != sizeof kb ||
            write(fd[1], m, sizeof m) != sizeof m)
            _exit(2);
        _exit(0);
    }
    close(fd[1]);
    int rc = -100;
    *peak_kb = -1;
    msg[0] = '\0';
    if (read(fd[0], &rc, sizeof rc) != sizeof rc ||
        read(fd[0], peak_kb, sizeof *peak_kb) != sizeof *peak_kb ||
        read(fd[0], msg, COREPCG_MSG_SIZE) != COREPCG_MSG_SIZE)
        rc = -100;
    close(fd[0]);
    int status;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        rc = -101; /* the child crashed */
    return rc;
}

static void test_absurd_sizes(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    long base_kb = ru.ru_maxrss;
    struct {
        const char *file, *text, *code_text, *part;
        int code;
    } cases[] = {
        {"A.mtx", "%%MatrixMarket matrix coordinate real symmetric\n"
                  "999999999 999999999 1000000000000\n1 1 1\n",
         "10^12 entries", "1000000000000 entries is more than corepcg handles",
         COREPCG_ERR_TOO_LARGE},
        {"A.mtx", "%%MatrixMarket matrix coordinate real general\n"
                  "999999999 999999999 999999999\n1 1 1\n",
         "10^9 x 10^9, 10^9 entries", "file ends after 1 of the 999999999 entries",
         COREPCG_ERR_FORMAT},
        {"A.mtx", "%%MatrixMarket matrix coordinate real symmetric\n"
                  "3000000000 3000000000 3000000000\n1 1 1\n",
         "n > INT_MAX", "more than corepcg's int indices hold",
         COREPCG_ERR_TOO_LARGE},
        {"A.mtx", "%%MatrixMarket matrix coordinate real symmetric\n"
                  "9000000000000000000 9000000000000000000 3\n1 1 1\n",
         "n = 9e18", "more than corepcg's int indices hold",
         COREPCG_ERR_TOO_LARGE},
        /* past a long long: read as "too big" one way or another */
        {"A.mtx", "%%MatrixMarket matrix coordinate real symmetric\n"
                  "99999999999999999999999 99999999999999999999999 3\n1 1 1\n",
         "n overflowing a long long", "A.mtx:2: n = ", 0},
        {"b.mtx", "%%MatrixMarket matrix array real general\n"
                  "1000000000000 1\n1\n",
         "b of 10^12 rows", "expected 12 x 1", COREPCG_ERR_DIMENSION},
        {"stretch.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n"
                        "4 4 1000000000000\n2 1\n",
         "stretch with 10^12 entries", "more than corepcg handles",
         COREPCG_ERR_TOO_LARGE},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char dir[PATH_SIZE], msg[COREPCG_MSG_SIZE];
        copy_tiny(dir, "absurd");
        write_text(dir, cases[k].file, cases[k].text);
        long peak_kb;
        int rc = read_in_child(dir, msg, &peak_kb);
        CHECK(cases[k].code ? rc == cases[k].code : rc < 0 && rc > -100,
              "%s: code %d (%s), expected %d", cases[k].code_text, rc, msg,
              cases[k].code);
        CHECK_STR_CONTAINS(msg, cases[k].part);
        CHECK_STR_CONTAINS(msg, cases[k].file);
        /* the child starts as a copy of this process: it may grow by a
         * few MB (stdio, CHOLMOD), never by what the header claims */
        CHECK(peak_kb >= 0 && peak_kb - base_kb < 64 * 1024,
              "%s: peak RSS %ld kB (parent %ld kB)", cases[k].code_text,
              peak_kb, base_kb);
        remove_dir(dir);
    }
}

/* ------------------------------------------------ the CLI: exit statuses */

/* Runs `corepcg ARGS` with stdout and stderr to files in dir; returns the
 * exit status (-1 if it did not exit normally). */
static int run_cli(const char *dir, const char *args, char *err, size_t size)
{
    char cmd[4 * PATH_SIZE], errpath[PATH_SIZE];
    snprintf(errpath, sizeof errpath, "%s/../stderr-%d.txt", dir, (int)getpid());
    snprintf(cmd, sizeof cmd, "'%s' %s >/dev/null 2>'%s'", cli_path(), args,
             errpath);
    int st = system(cmd);
    err[0] = '\0';
    FILE *f = fopen(errpath, "r");
    if (f) {
        size_t got = fread(err, 1, size - 1, f);
        err[got] = '\0';
        fclose(f);
        unlink(errpath);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int read_all(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t got = fread(buf, 1, size - 1, f);
    buf[got] = '\0';
    fclose(f);
    return (int)got;
}

/* The names in dir other than those listed (NULL-terminated); returns the
 * count and puts the first stranger in first. */
static int strangers(const char *dir, const char *const *known, char *first)
{
    DIR *d = opendir(dir);
    int count = 0;
    first[0] = '\0';
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        int ok = 0;
        for (int k = 0; known[k]; k++)
            ok |= strcmp(e->d_name, known[k]) == 0;
        if (!ok && count++ == 0)
            snprintf(first, 256, "%s", e->d_name);
    }
    if (d)
        closedir(d);
    return count;
}

static void test_cli_failures(void)
{
    char dir[PATH_SIZE], out[PATH_SIZE], args[4 * PATH_SIZE], err[4096];
    char after[256], stranger[256];
    copy_tiny(dir, "cli");
    join(out, dir, "x.mtx");
    const char *known[] = {"A.mtx", "b.mtx", "constraints.txt", "stretch.mtx",
                           "x.mtx", NULL};
    const char *old = "precious: not to be clobbered\n";
    write_text(dir, "x.mtx", old);

    /* 1: a numerical failure (direct on an indefinite A): nothing written */
    write_text(dir, "A.mtx",
               "%%MatrixMarket matrix coordinate real symmetric\n"
               "12 12 15\n1 1 1\n2 2 1\n3 3 1\n4 4 1\n5 5 1\n6 6 1\n"
               "7 7 1\n8 8 1\n9 9 1\n10 10 1\n11 11 1\n12 12 1\n"
               "10 7 2\n11 8 2\n12 9 2\n");
    snprintf(args, sizeof args, "solve '%s' --method direct --out '%s'", dir, out);
    int st = run_cli(dir, args, err, sizeof err);
    CHECK_INT(st, 1);
    CHECK_STR_CONTAINS(err, "not positive definite");
    read_all(out, after, sizeof after);
    CHECK(strcmp(after, old) == 0, "x.mtx clobbered: \"%s\"", after);
    CHECK(strangers(dir, known, stranger) == 0, "left behind: %s", stranger);

    /* 1: the same with a CG method (breakdown), and the core not SPD */
    snprintf(args, sizeof args, "solve '%s' --method upcg --tol 1e-12 --out '%s'",
             dir, out);
    st = run_cli(dir, args, err, sizeof err);
    CHECK_INT(st, 1); /* p^T A p = -2.5e3 at iteration 2 */
    CHECK_STR_CONTAINS(err, "p^T A p = ");
    CHECK_STR_CONTAINS(err, "not positive definite");
    read_all(out, after, sizeof after);
    CHECK(strcmp(after, old) == 0, "x.mtx clobbered after exit 1");
    write_text(dir, "x.mtx", old);

    /* 1: a bundle that does not read */
    write_text(dir, "A.mtx", "%%MatrixMarket matrix coordinate real symmetric\n"
                             "12 12 1000000000000\n");
    snprintf(args, sizeof args, "solve '%s' --out '%s'", dir, out);
    st = run_cli(dir, args, err, sizeof err);
    CHECK_INT(st, 1);
    CHECK_STR_CONTAINS(err, "A.mtx:2");
    read_all(out, after, sizeof after);
    CHECK(strcmp(after, old) == 0, "x.mtx clobbered: \"%s\"", after);
    CHECK(strangers(dir, known, stranger) == 0, "left behind: %s", stranger);

    /* 1: --out under a regular file (its "directory" cannot exist):
     * refused before solving, no partial file */
    char tinydir[PATH_SIZE];
    join(tinydir, data_dir(), "tiny");
    snprintf(args, sizeof args, "solve '%s' --out '%s/x.mtx/sub/x.mtx'",
             tinydir, dir);
    st = run_cli(dir, args, err, sizeof err);
    CHECK_INT(st, 1);
    CHECK_STR_CONTAINS(err, "x.mtx/sub");
    CHECK(strangers(dir, known, stranger) == 0, "left behind: %s", stranger);
    read_all(out, after, sizeof after);
    CHECK(strcmp(after, old) == 0, "x.mtx clobbered: \"%s\"", after);

    /* 3: not converged, the answer written (and flagged) */
    snprintf(args, sizeof args,
             "solve '%s' --method upcg --tol 1e-12 --max-iter 1 --out '%s'",
             tinydir, out);
    st = run_cli(dir, args, err, sizeof err);
    CHECK_INT(st, 3);
    CHECK_STR_CONTAINS(err, "not converged");
    double *x = NULL;
    char msg[COREPCG_MSG_SIZE];
    CHECK_INT(corepcg_vector_read(out, 12, &x, msg), COREPCG_OK);
    free(x);
    CHECK(strangers(dir, known, stranger) == 0, "left behind: %s", stranger);

    /* 0 with the core fallback, 1 without, on a bundle whose core is not
     * SPD (test_core_not_spd's system) */
    sysbuf s;
    make_core_indefinite(&s);
    double b[9];
    eigen_direction(b);
    char bundle[PATH_SIZE];
    join(bundle, dir, "core");
    CHECK_INT(corepcg_bundle_write(bundle, &s.sys, b, NULL, msg), COREPCG_OK);
    snprintf(args, sizeof args, "solve '%s' --method corepcg --out '%s'", bundle,
             out);
    write_text(dir, "x.mtx", old);
    st = run_cli(dir, args, err, sizeof err);
    CHECK_INT(st, 1);
    CHECK_STR_CONTAINS(err, "core");
    read_all(out, after, sizeof after);
    CHECK(strcmp(after, old) == 0, "x.mtx clobbered after a core failure");
    snprintf(args, sizeof args, "solve '%s' --method corepcg --fallback upcg "
             "--tol 1e-10 --out '%s'", bundle, out);
    st = run_cli(dir, args, err, sizeof err);
    CHECK_INT(st, 0);
    CHECK_INT(corepcg_vector_read(out, 9, &x, msg), COREPCG_OK);
    if (x) {
        double Ax[9];
        sys_mult(&s, x, Ax);
        CHECK_LE(max_diff(Ax, b, 9), 1e-8);
        free(x);
    }
    remove_dir(bundle);
    remove_dir(dir);
}

/* The answer check must not hide an overflow: A x = Inf - Inf = NaN used to
 * give a residual of 0 (fmax drops NaN). One node, A = [1e300 .9e300 0;
 * .9e300 1e300 0; 0 0 1] (SPD), b = 0, x = (1e300, -1e300, 0). */
static void test_check_overflow(void)
{
    int colptr[4] = {0, 2, 3, 4}, rowidx[4] = {0, 1, 1, 2};
    double values[4] = {1e300, 0.9e300, 1e300, 1};
    corepcg_system sys = {0};
    sys.num_nodes = 1;
    sys.A_format = COREPCG_CSC;
    sys.A_triangle = COREPCG_LOWER;
    sys.A_colptr = colptr;
    sys.A_rowidx = rowidx;
    sys.A_values = values;
    double b[3] = {0, 0, 0}, x[3] = {1e300, -1e300, 0};
    double cerr = -1, rres = -1;
    char msg[COREPCG_MSG_SIZE] = "";
    CHECK_INT(corepcg_check(&sys, b, x, &cerr, &rres, msg), COREPCG_ERR_NAN);
    CHECK(isnan(rres), "relative residual %g, expected NaN", rres);
    CHECK_STR_CONTAINS(msg, "not finite");
    x[2] = 1; /* one finite residual entry beside the NaN ones */
    CHECK_INT(corepcg_check(&sys, b, x, &cerr, &rres, msg), COREPCG_ERR_NAN);
    CHECK(isnan(rres), "relative residual %g, expected NaN", rres);

    /* A solve whose own answer cannot be checked: A = 1e300 [1 .99; .99 1],
     * b = 2e306 (1, -1) has x = 1e8 (1, -1), which direct finds, but each
     * product A_ij x_j = 1e308-ish overflows in the residual. The solve
     * must say so and leave x alone. */
    values[0] = values[2] = 1e300;
    values[1] = 0.99e300;
    double b2[3] = {2e306, -2e306, 0}, y[3] = {-7, -7, -7};
    corepcg_solver *h = NULL;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);
    corepcg_settings set = settings_for(COREPCG_METHOD_DIRECT);
    CHECK_INT(corepcg_setup(h, &sys, &set), COREPCG_OK);
    corepcg_info info;
    CHECK_INT(corepcg_solve(h, b2, NULL, y, &info), COREPCG_ERR_NAN);
    CHECK_STR_CONTAINS(corepcg_message(h), "residual is not finite");
    CHECK(all_equal(y, 3, -7), "x written after ERR_NAN");
    CHECK_INT(info.converged, 0);
    corepcg_free(&h);
}

int main(void)
{
    test_not_spd();
    test_singular_free_block();
    test_direct_lost_to_round_off();
    test_icpcg_factor_beyond_float();
    test_breakdown_second_step();
    test_core_not_spd();
    test_guess_far_off();
    test_nan_during_iteration();
    test_not_converged();
    test_degenerate_directions();
    test_misuse();
    test_absurd_sizes();
    test_cli_failures();
    test_check_overflow();
    return test_summary("test_reliability");
}

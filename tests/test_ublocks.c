/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_ublocks.c -- the U blocks of the constraints (Ye, Webber & Wang
 * sec. 3, eq. 13) and the products with U and S built on them.
 *
 * Asserted, all to 1e-14 unless stated: U_i^T U_i = I, U_i U_i^T = S_i
 * (S_i = I - p p^T for ndof 2, I - p p^T - q q^T for ndof 1), U_i^T p = 0
 * (and U_i^T q = 0), for 1000 random p (and p, q) and for the axes, their
 * negatives, (0.6, 0.8, 0) and p within 1e-13 of an axis; for p1 != +-1
 * the columns are eq. 13's nonzero columns (to 1e-13 where |p1| < 0.9,
 * where eq. 13's sqrt(1 - p1^2) itself is accurate); p scaled by 1e+-160
 * gives the same U; bad records give exactly COREPCG_ERR_CONSTRAINT with
 * a message naming the fault; filter / prescribed / restrict / prolong on
 * a random system agree with dense S built independently. */
#include "internal.h"
#include "test.h"
#include "testsys.h"

#include <math.h>
#include <string.h>

#define TOL 1e-14

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void normalise3(double v[3])
{
    double s = sqrt(dot3(v, v));
    for (int a = 0; a < 3; a++)
        v[a] /= s;
}

/* max |U^T U - I|, max |U U^T - S|, max |U^T p|, max |U^T q| for a d-column
 * block U (column c at U[3c..3c+2]); S from unit p (and q when d == 1). */
struct block_errors {
    double orth, proj, perp_p, perp_q;
};

static struct block_errors block_errors(const double U[9], int d,
                                        const double p[3], const double q[3])
{
    struct block_errors e = {0, 0, 0, 0};
    for (int a = 0; a < d; a++)
        for (int c = 0; c < d; c++)
            e.orth = fmax(e.orth, fabs(dot3(U + 3 * a, U + 3 * c) - (a == c)));
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            double S = (a == b) - (d < 3 ? p[a] * p[b] : 0) -
                       (d == 1 ? q[a] * q[b] : 0);
            double UUt = 0;
            for (int c = 0; c < d; c++)
                UUt += U[3 * c + a] * U[3 * c + b];
            e.proj = fmax(e.proj, fabs(UUt - S));
        }
    for (int c = 0; c < d; c++) {
        e.perp_p = fmax(e.perp_p, fabs(dot3(U + 3 * c, p)));
        if (d == 1)
            e.perp_q = fmax(e.perp_q, fabs(dot3(U + 3 * c, q)));
    }
    return e;
}

/* U of one constrained node built the way the library builds every node
 * (cpg_ublocks_build: checks, normalising, orthogonalising q). */
static int build_one(int ndof, const double p[3], const double q[3],
                     double U[9], char *msg)
{
    corepcg_constraint c;
    memset(&c, 0, sizeof c);
    c.node = 1;
    c.ndof = ndof;
    if (p)
        memcpy(c.p, p, sizeof c.p);
    if (q)
        memcpy(c.q, q, sizeof c.q);
    cpg_ublocks u;
    int rc = cpg_ublocks_build(3, &c, 1, &u, msg);
    if (rc == COREPCG_OK) {
        memcpy(U, u.U + 9, 9 * sizeof(double));
        if (u.ndof[1] != ndof || u.r != 6 + ndof || u.off[2] != 3 + ndof)
            rc = 99;
        cpg_ublocks_free(&u);
    }
    return rc;
}

/* The nonzero columns of Ye et al.'s eq. 13 as printed, for p1 != +-1. */
static void eq13(const double p[3], double u1[3], double u2[3])
{
    double s = sqrt(1 - p[0] * p[0]);
    u1[0] = s;
    u1[1] = -p[0] * p[1] / s;
    u1[2] = -p[0] * p[2] / s;
    if (p[2] == 0) {
        u2[0] = 0;
        u2[1] = 0;
        u2[2] = 1;
    } else {
        u2[0] = 0;
        u2[1] = fabs(p[2]) / s;
        u2[2] = -p[1] * p[2] / (fabs(p[2]) * s);
    }
}

static double max_diff3(const double a[3], const double b[3])
{
    return fmax(fabs(a[0] - b[0]), fmax(fabs(a[1] - b[1]), fabs(a[2] - b[2])));
}

static void check_plane(const double p_in[3], const char *label)
{
    double p[3] = {p_in[0], p_in[1], p_in[2]}, U[9];
    char msg[COREPCG_MSG_SIZE] = "";
    normalise3(p);
    int rc = build_one(2, p_in, NULL, U, msg);
    CHECK(rc == COREPCG_OK, "%s: build failed (%d): %s", label, rc, msg);
    if (rc)
        return;
    struct block_errors e = block_errors(U, 2, p, NULL);
    CHECK(e.orth <= TOL, "%s: |U^T U - I| = %.3g", label, e.orth);
    CHECK(e.proj <= TOL, "%s: |U U^T - S| = %.3g", label, e.proj);
    CHECK(e.perp_p <= TOL, "%s: |U^T p| = %.3g", label, e.perp_p);
    /* the same from the exposed kernel on the unit normal */
    double V[9];
    cpg_ublock_plane(p, V);
    /* to round-off: the library normalises p with scaling (any magnitude) */
    double dv = 0;
    for (int k = 0; k < 9; k++)
        dv = fmax(dv, fabs(U[k] - V[k]));
    CHECK(dv <= TOL, "%s: cpg_ublock_plane differs from cpg_ublocks_build by %.3g",
          label, dv);
}

static void check_line(const double p_in[3], const double q_in[3],
                       const char *label)
{
    double p[3] = {p_in[0], p_in[1], p_in[2]}, q[3] = {q_in[0], q_in[1], q_in[2]};
    double U[9];
    char msg[COREPCG_MSG_SIZE] = "";
    normalise3(p);
    normalise3(q);
    double pq = dot3(p, q); /* the library makes q exactly orthogonal */
    for (int a = 0; a < 3; a++)
        q[a] -= pq * p[a];
    normalise3(q);
    int rc = build_one(1, p_in, q_in, U, msg);
    CHECK(rc == COREPCG_OK, "%s: build failed (%d): %s", label, rc, msg);
    if (rc)
        return;
    struct block_errors e = block_errors(U, 1, p, q);
    CHECK(e.orth <= TOL, "%s: |U^T U - 1| = %.3g", label, e.orth);
    CHECK(e.proj <= TOL, "%s: |U U^T - S| = %.3g", label, e.proj);
    CHECK(e.perp_p <= TOL, "%s: |U^T p| = %.3g", label, e.perp_p);
    CHECK(e.perp_q <= TOL, "%s: |U^T q| = %.3g", label, e.perp_q);
}

static void test_random_planes(void)
{
    testsys_rng rng;
    testsys_rng_seed(&rng, 1);
    double worst_orth = 0, worst_proj = 0, worst_perp = 0, worst_eq13 = 0;
    int eq13_cases = 0, failures = 0;
    for (int t = 0; t < 1000; t++) {
        double p[3], praw[3], U[9];
        testsys_unit(&rng, p);
        double scale = 0.1 + 10 * testsys_uniform(&rng);
        for (int a = 0; a < 3; a++)
            praw[a] = scale * p[a];
        if (build_one(2, praw, NULL, U, NULL) != COREPCG_OK) {
            failures++;
            continue;
        }
        normalise3(praw);
        struct block_errors e = block_errors(U, 2, praw, NULL);
        worst_orth = fmax(worst_orth, e.orth);
        worst_proj = fmax(worst_proj, e.proj);
        worst_perp = fmax(worst_perp, e.perp_p);
        if (fabs(praw[0]) < 0.9) {
            double u1[3], u2[3];
            eq13(praw, u1, u2);
            worst_eq13 = fmax(worst_eq13, fmax(max_diff3(U, u1),
                                               max_diff3(U + 3, u2)));
            eq13_cases++;
        }
    }
    CHECK_INT(failures, 0);
    CHECK_LE(worst_orth, TOL);
    CHECK_LE(worst_proj, TOL);
    CHECK_LE(worst_perp, TOL);
    CHECK_LE(worst_eq13, 1e-13);
    CHECK(eq13_cases > 500, "only %d eq. 13 comparisons", eq13_cases);
    printf("random planes: |U^T U - I| %.2g, |U U^T - S| %.2g, |U^T p| %.2g, "
           "eq. 13 columns %.2g (%d cases)\n", worst_orth, worst_proj,
           worst_perp, worst_eq13, eq13_cases);
}

static void test_random_lines(void)
{
    testsys_rng rng;
    testsys_rng_seed(&rng, 2);
    double worst = 0;
    int failures = 0;
    for (int t = 0; t < 1000; t++) {
        double p[3], q[3], U[9];
        testsys_unit(&rng, p);
        testsys_orthogonal_unit(&rng, p, q);
        /* a q off by up to 5e-7 (docs/format.md accepts |p.q| <= 1e-6) */
        double tilt = 5e-7 * testsys_sym(&rng);
        for (int a = 0; a < 3; a++)
            q[a] = 3 * (q[a] + tilt * p[a]);
        if (build_one(1, p, q, U, NULL) != COREPCG_OK) {
            failures++;
            continue;
        }
        normalise3(q);
        double pq = dot3(p, q);
        for (int a = 0; a < 3; a++)
            q[a] -= pq * p[a];
        normalise3(q);
        struct block_errors e = block_errors(U, 1, p, q);
        worst = fmax(worst, fmax(fmax(e.orth, e.proj), fmax(e.perp_p, e.perp_q)));
        /* eq. for ndof 1: the unit (p x q) up to sign */
        double c[3] = {p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2],
                       p[0] * q[1] - p[1] * q[0]};
        normalise3(c);
        worst = fmax(worst, fmin(max_diff3(U, c),
                                 max_diff3(U, (double[3]){-c[0], -c[1], -c[2]})));
    }
    CHECK_INT(failures, 0);
    CHECK_LE(worst, TOL);
    printf("random lines: worst of |U^T U - 1|, |U U^T - S|, |U^T p|, |U^T q|, "
           "|U - p x q| = %.2g\n", worst);
}

static void test_special_planes(void)
{
    struct {
        double p[3];
        const char *label;
    } cases[] = {
        {{1, 0, 0}, "(1,0,0)"},
        {{-1, 0, 0}, "(-1,0,0)"},
        {{0, 1, 0}, "(0,1,0)"},
        {{0, -1, 0}, "(0,-1,0)"},
        {{0, 0, 1}, "(0,0,1)"},
        {{0, 0, -1}, "(0,0,-1)"},
        {{0.6, 0.8, 0}, "(0.6,0.8,0)"},
        {{-0.6, 0.8, 0}, "(-0.6,0.8,0)"},
        {{0.6, 0, -0.8}, "(0.6,0,-0.8)"},
        {{1, 1e-14, 0}, "(1,1e-14,0)"},
        {{-1, 0, 3e-14}, "(-1,0,3e-14)"},
        {{1, 1e-13, -1e-13}, "(1,1e-13,-1e-13)"},
        {{-1, -5e-14, 5e-14}, "(-1,-5e-14,5e-14)"},
        {{1, 1e-300, 0}, "(1,1e-300,0)"},
        {{-1, 0, -1e-200}, "(-1,0,-1e-200)"},
        {{1e-14, 1, 0}, "(1e-14,1,0)"},
        {{3e-14, 0, -1}, "(3e-14,0,-1)"},
        {{1e-13, -1, 1e-13}, "(1e-13,-1,1e-13)"},
        {{2, 0, 0}, "(2,0,0) not unit"},
        {{-7, 0, 0}, "(-7,0,0) not unit"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        check_plane(cases[k].p, cases[k].label);

    /* the exact columns where eq. 13 (and the documented choice) fix them */
    double U[9];
    CHECK_INT(build_one(2, (double[3]){1, 0, 0}, NULL, U, NULL), COREPCG_OK);
    CHECK(memcmp(U, (double[6]){0, 1, 0, 0, 0, 1}, 6 * sizeof(double)) == 0,
          "p = e1: U = (e2, e3) as eq. 13, got (%g %g %g | %g %g %g)",
          U[0], U[1], U[2], U[3], U[4], U[5]);
    CHECK_INT(build_one(2, (double[3]){-1, 0, 0}, NULL, U, NULL), COREPCG_OK);
    CHECK(memcmp(U, (double[6]){0, 1, 0, 0, 0, 1}, 6 * sizeof(double)) == 0,
          "p = -e1: U = (e2, e3) as documented, got (%g %g %g | %g %g %g)",
          U[0], U[1], U[2], U[3], U[4], U[5]);
    double u1[3], u2[3];
    CHECK_INT(build_one(2, (double[3]){0.6, 0.8, 0}, NULL, U, NULL), COREPCG_OK);
    eq13((double[3]){0.6, 0.8, 0}, u1, u2);
    CHECK_LE(max_diff3(U, u1), 1e-15);
    CHECK_LE(max_diff3(U + 3, u2), 0);
    CHECK_NEAR(U[0], 0.8, 1e-15);
    CHECK_NEAR(U[1], -0.6, 1e-15);
    /* eq. 13's second case (p3 = 0) for each sign pattern of p1, p2 */
    const double p3zero[][3] = {{0.6, -0.8, 0}, {-0.6, -0.8, 0}, {-0.6, 0.8, 0},
                                {0, 1, 0}, {0, -1, 0}, {0.28, 0.96, 0}};
    for (size_t k = 0; k < sizeof p3zero / sizeof p3zero[0]; k++) {
        CHECK_INT(build_one(2, p3zero[k], NULL, U, NULL), COREPCG_OK);
        eq13(p3zero[k], u1, u2);
        CHECK(max_diff3(U, u1) <= 1e-15 && max_diff3(U + 3, u2) == 0,
              "p = (%g, %g, 0): U = (%g %g %g | %g %g %g), eq. 13 (%g %g %g "
              "| %g %g %g)", p3zero[k][0], p3zero[k][1], U[0], U[1], U[2],
              U[3], U[4], U[5], u1[0], u1[1], u1[2], u2[0], u2[1], u2[2]);
    }
    CHECK_INT(build_one(2, (double[3]){0, 0, -1}, NULL, U, NULL), COREPCG_OK);
    eq13((double[3]){0, 0, -1}, u1, u2);
    CHECK_LE(max_diff3(U, u1), 0);
    CHECK_LE(max_diff3(U + 3, u2), 0);
    CHECK_INT(build_one(2, (double[3]){0, 0.6, -0.8}, NULL, U, NULL), COREPCG_OK);
    eq13((double[3]){0, 0.6, -0.8}, u1, u2);
    CHECK_LE(max_diff3(U, u1), 1e-15);
    CHECK_LE(max_diff3(U + 3, u2), 1e-15);
}

static void test_special_lines(void)
{
    check_line((double[3]){1, 0, 0}, (double[3]){0, 1, 0}, "line e1 e2");
    check_line((double[3]){0, 0, -1}, (double[3]){-1, 0, 0}, "line -e3 -e1");
    check_line((double[3]){1, 1e-14, 0}, (double[3]){0, 0, 1}, "line ~e1 e3");
    check_line((double[3]){0.6, 0.8, 0}, (double[3]){-0.8, 0.6, 0},
               "line (0.6,0.8,0)");
    /* the data/tiny record: q = 2 (0.8, -0.6, 0) */
    check_line((double[3]){0.36, 0.48, 0.8}, (double[3]){1.6, -1.2, 0},
               "line tiny node 2");
}

/* Scaling p (and q) must not change U: the library normalises them. */
static void test_scaled_directions(void)
{
    const double scales[] = {1e-300, 1e-200, 1e-160, 1e-100, 1e100, 1e160,
                             1e300};
    const double p0[3] = {0.36, 0.48, 0.8}, q0[3] = {0.8, -0.6, 0};
    double Uref[9], Lref[9];
    CHECK_INT(build_one(2, p0, NULL, Uref, NULL), COREPCG_OK);
    CHECK_INT(build_one(1, p0, q0, Lref, NULL), COREPCG_OK);
    for (size_t k = 0; k < sizeof scales / sizeof scales[0]; k++) {
        double p[3], q[3], U[9];
        char msg[COREPCG_MSG_SIZE] = "";
        for (int a = 0; a < 3; a++) {
            p[a] = scales[k] * p0[a];
            q[a] = scales[k] * q0[a];
        }
        int rc = build_one(2, p, NULL, U, msg);
        CHECK(rc == COREPCG_OK, "p scaled by %g: rc %d (%s)", scales[k], rc, msg);
        double d = 0;
        for (int e = 0; e < 6; e++)
            d = fmax(d, fabs(U[e] - Uref[e]));
        CHECK(rc != COREPCG_OK || d <= TOL,
              "ndof 2, p scaled by %g: U differs from unit p's by %.3g",
              scales[k], d);
        rc = build_one(1, p, q, U, msg);
        CHECK(rc == COREPCG_OK, "p, q scaled by %g: rc %d (%s)", scales[k], rc,
              msg);
        d = 0;
        for (int e = 0; e < 3; e++)
            d = fmax(d, fabs(U[e] - Lref[e]));
        CHECK(rc != COREPCG_OK || d <= TOL,
              "ndof 1, p, q scaled by %g: U differs by %.3g", scales[k], d);
    }
}

/* NaN or Inf in p or q is ERR_NOT_FINITE (as in A, b, z and
 * constraints.txt; an outside review: it was ERR_CONSTRAINT through the
 * API only); every other refusal ERR_CONSTRAINT. */
static void expect_reject(const corepcg_constraint *recs, int count,
                          const char *part, const char *label)
{
    cpg_ublocks u;
    char msg[COREPCG_MSG_SIZE] = "";
    int code = strcmp(part, "not finite") == 0 ? COREPCG_ERR_NOT_FINITE
                                               : COREPCG_ERR_CONSTRAINT;
    int rc = cpg_ublocks_build(10, recs, count, &u, msg);
    CHECK(rc == code, "%s: rc %d, expected %d (%s)", label, rc, code, msg);
    CHECK_STR_CONTAINS(msg, part);
    CHECK(u.ndof == NULL && u.U == NULL, "%s: U left allocated", label);
    if (rc == COREPCG_OK)
        cpg_ublocks_free(&u);
    /* the single-record check agrees on the last record (except twice) */
    if (count == 1) {
        char why[COREPCG_MSG_SIZE] = "";
        CHECK_INT(cpg_constraint_check(&recs[0], 10, why), code);
        CHECK_STR_CONTAINS(why, part);
    }
}

static void test_rejects(void)
{
    corepcg_constraint c[2];
    memset(c, 0, sizeof c);
    c[0] = (corepcg_constraint){.node = 10, .ndof = 0};
    expect_reject(c, 1, "out of range", "node 10 of 10");
    c[0] = (corepcg_constraint){.node = -1, .ndof = 0};
    expect_reject(c, 1, "out of range", "node -1");
    c[0] = (corepcg_constraint){.node = 3, .ndof = 4, .p = {0, 0, 1}};
    expect_reject(c, 1, "ndof 4 is not 0, 1, 2 or 3", "ndof 4");
    c[0] = (corepcg_constraint){.node = 3, .ndof = -1, .p = {0, 0, 1}};
    expect_reject(c, 1, "ndof -1", "ndof -1");
    c[0] = (corepcg_constraint){.node = 3, .ndof = 2, .p = {0, 0, 0}};
    expect_reject(c, 1, "p is zero", "zero p, ndof 2");
    c[0] = (corepcg_constraint){.node = 3, .ndof = 1, .p = {0, 0, 0},
                                .q = {1, 0, 0}};
    expect_reject(c, 1, "p is zero", "zero p, ndof 1");
    c[0] = (corepcg_constraint){.node = 3, .ndof = 1, .p = {0, 0, 1},
                                .q = {0, 0, 0}};
    expect_reject(c, 1, "q is zero", "zero q");
    c[0] = (corepcg_constraint){.node = 3, .ndof = 2, .p = {NAN, 0, 1}};
    expect_reject(c, 1, "not finite", "NaN p");
    c[0] = (corepcg_constraint){.node = 3, .ndof = 1, .p = {0, 0, 1},
                                .q = {INFINITY, 0, 0}};
    expect_reject(c, 1, "not finite", "Inf q");
    /* |p.q| = 1e-3 after normalising */
    double t = 1e-3;
    c[0] = (corepcg_constraint){.node = 3, .ndof = 1, .p = {0, 0, 2},
                                .q = {sqrt(1 - t * t), 0, t}};
    expect_reject(c, 1, "orthogonal", "|p.q| = 1e-3");
    /* |p.q| = 2e-6: just over docs/format.md's 1e-6 */
    t = 2e-6;
    c[0] = (corepcg_constraint){.node = 3, .ndof = 1, .p = {0, 0, 1},
                                .q = {sqrt(1 - t * t), 0, t}};
    expect_reject(c, 1, "orthogonal", "|p.q| = 2e-6");
    c[0] = (corepcg_constraint){.node = 4, .ndof = 0};
    c[1] = (corepcg_constraint){.node = 4, .ndof = 2, .p = {0, 0, 1}};
    expect_reject(c, 2, "twice", "node 4 listed twice");
    c[1] = (corepcg_constraint){.node = 4, .ndof = 0};
    expect_reject(c, 2, "twice", "node 4 fixed twice");
    c[0] = (corepcg_constraint){.node = 4, .ndof = 3};
    expect_reject(c, 2, "twice", "node 4 free, then fixed");

    /* accepted: ndof 0 ignores p, q; |p.q| = 5e-7 is within 1e-6 */
    cpg_ublocks u;
    c[0] = (corepcg_constraint){.node = 9, .ndof = 0, .p = {NAN, 0, 0}};
    CHECK_INT(cpg_ublocks_build(10, c, 1, &u, NULL), COREPCG_OK);
    CHECK_INT(u.r, 27);
    cpg_ublocks_free(&u);
    t = 5e-7;
    c[0] = (corepcg_constraint){.node = 0, .ndof = 1, .p = {0, 0, 1},
                                .q = {sqrt(1 - t * t), 0, t}};
    CHECK_INT(cpg_ublocks_build(10, c, 1, &u, NULL), COREPCG_OK);
    CHECK_INT(u.r, 28);
    cpg_ublocks_free(&u);
    /* ndof 3: a free node, p and q ignored; U_i = I as for an unlisted one */
    c[0] = (corepcg_constraint){.node = 2, .ndof = 3, .p = {NAN, 0, 0}};
    c[1] = (corepcg_constraint){.node = 5, .ndof = 0};
    CHECK_INT(cpg_ublocks_build(10, c, 2, &u, NULL), COREPCG_OK);
    CHECK_INT(u.r, 27);
    CHECK_INT(u.ndof[2], 3);
    CHECK_INT(u.off[3] - u.off[2], 3);
    CHECK(u.U[18] == 1 && u.U[22] == 1 && u.U[26] == 1 && u.U[19] == 0,
          "ndof 3: U_2 is not I");
    cpg_ublocks_free(&u);
    /* bad counts */
    CHECK_INT(cpg_ublocks_build(10, c, -1, &u, NULL), COREPCG_ERR_ARGUMENT);
    CHECK_INT(cpg_ublocks_build(10, NULL, 1, &u, NULL), COREPCG_ERR_ARGUMENT);
    CHECK_INT(cpg_ublocks_build(10, NULL, 0, &u, NULL), COREPCG_OK);
    CHECK_INT(u.r, 30);
    cpg_ublocks_free(&u);
}

/* filter, prescribed, restrict, prolong on a random system against dense
 * S built from the records by testsys (no library code). */
static void test_products(void)
{
    testsys_opts o;
    testsys_default_opts(&o, 7, 11);
    o.frac_constrained = 0.6;
    testsys t;
    if (testsys_make(&t, &o)) {
        CHECK(0, "testsys_make failed");
        return;
    }
    cpg_ublocks u;
    char msg[COREPCG_MSG_SIZE] = "";
    int rc = cpg_ublocks_build(t.N, t.cons, t.ncons, &u, msg);
    CHECK(rc == COREPCG_OK, "build: %s", msg);
    if (rc) {
        testsys_free(&t);
        return;
    }
    int n = t.n;
    CHECK_INT(u.r, t.r);
    int kinds[4] = {0, 0, 0, 0};
    for (int i = 0; i < t.N; i++) {
        CHECK_INT(u.ndof[i], t.ndof[i]);
        CHECK_INT(u.off[i + 1] - u.off[i], t.ndof[i]);
        kinds[t.ndof[i]]++;
    }
    CHECK(kinds[0] > 0 && kinds[1] > 0 && kinds[2] > 0 && kinds[3] > 0,
          "every ndof kind present (%d %d %d %d)", kinds[0], kinds[1],
          kinds[2], kinds[3]);

    double v[147], Sv[147], w[147], xt[147], back[147], xt2[147];
    testsys_rng rng;
    testsys_rng_seed(&rng, 5);
    for (int k = 0; k < n; k++)
        v[k] = testsys_sym(&rng);
    /* dense S v */
    for (int i = 0; i < t.N; i++)
        for (int a = 0; a < 3; a++) {
            double s = 0;
            for (int c = 0; c < 3; c++)
                s += t.S[9 * i + 3 * c + a] * v[3 * i + c];
            Sv[3 * i + a] = s;
        }
    memcpy(w, v, sizeof w);
    cpg_filter(&u, w);
    CHECK_LE(testsys_max_diff(n, w, Sv), TOL);
    /* S S v = S v (a projection) */
    cpg_filter(&u, w);
    CHECK_LE(testsys_max_diff(n, w, Sv), TOL);
    /* prescribed: (I - S) z */
    cpg_prescribed(&u, v, w);
    double ims[147];
    for (int k = 0; k < n; k++)
        ims[k] = v[k] - Sv[k];
    CHECK_LE(testsys_max_diff(n, w, ims), TOL);
    cpg_prescribed(&u, NULL, w);
    CHECK_LE(testsys_max_abs(n, w), 0);
    /* U U^T v = S v; U^T U xt = xt; prolong adds w */
    cpg_restrict(&u, v, xt);
    cpg_prolong(&u, xt, NULL, back);
    CHECK_LE(testsys_max_diff(n, back, Sv), TOL);
    cpg_restrict(&u, back, xt2);
    CHECK_LE(testsys_max_diff(u.r, xt2, xt), TOL);
    cpg_prolong(&u, xt, ims, back);
    CHECK_LE(testsys_max_diff(n, back, v), 4 * TOL);
    /* every block also passes the per-block identities */
    double worst = 0;
    for (int k = 0; k < t.ncons; k++) {
        const corepcg_constraint *c = &t.cons[k];
        if (c->ndof == 0)
            continue;
        double p[3], q[3];
        testsys_record_directions(c, p, q);
        struct block_errors e = block_errors(u.U + 9 * c->node, c->ndof, p, q);
        worst = fmax(worst, fmax(fmax(e.orth, e.proj), fmax(e.perp_p, e.perp_q)));
    }
    CHECK_LE(worst, TOL);
    cpg_ublocks_free(&u);
    testsys_free(&t);
}

int main(void)
{
    test_random_planes();
    test_random_lines();
    test_special_planes();
    test_special_lines();
    test_scaled_directions();
    test_rejects();
    test_products();
    return test_summary("test_ublocks");
}

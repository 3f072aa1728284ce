/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_check.c -- docs/format.md's measures of an answer: data/tiny's exact
 * answer gives round-off values; deliberately perturbed answers give the
 * residual worked out by hand (data/README.md) and the constraint error of
 * the perturbation. A dense computation with S built straight from the
 * records (S_i = I - p p^T - q q^T) cross-checks every case. */
#include "internal.h"
#include "check.h"
#include "fixture.h"
#include "test.h"

enum { N = 4, n = 12 };

static corepcg_bundle *tiny;
static double *tiny_x;

/* ----------------------------------------------- independent reference */

static void dense_A(const corepcg_system *s, double A[n][n])
{
    memset(A, 0, sizeof(double) * n * n);
    for (int j = 0; j < n; j++)
        for (int k = s->A_colptr[j]; k < s->A_colptr[j + 1]; k++)
            A[s->A_rowidx[k]][j] = A[j][s->A_rowidx[k]] = s->A_values[k];
}

static void dense_S(const corepcg_system *s, double S[n][n])
{
    memset(S, 0, sizeof(double) * n * n);
    for (int k = 0; k < n; k++)
        S[k][k] = 1;
    for (int r = 0; r < s->num_constraints; r++) {
        const corepcg_constraint *c = &s->constraints[r];
        double p[3], q[3], lp = 0, lq = 0;
        for (int a = 0; a < 3; a++) {
            lp += c->p[a] * c->p[a];
            lq += c->q[a] * c->q[a];
        }
        for (int a = 0; a < 3; a++) {
            p[a] = c->ndof > 0 ? c->p[a] / sqrt(lp) : 0;
            q[a] = c->ndof == 1 ? c->q[a] / sqrt(lq) : 0;
        }
        int o = 3 * c->node;
        for (int a = 0; a < 3; a++)
            for (int d = 0; d < 3; d++)
                S[o + a][o + d] = c->ndof == 0 ? 0
                                  : (a == d) - p[a] * p[d] - q[a] * q[d];
    }
}

static void mat_vec(double M[n][n], const double *v, double *out)
{
    for (int i = 0; i < n; i++) {
        out[i] = 0;
        for (int j = 0; j < n; j++)
            out[i] += M[i][j] * v[j];
    }
}

static double norm(const double *v)
{
    double s = 0;
    for (int k = 0; k < n; k++)
        s += v[k] * v[k];
    return sqrt(s);
}

/* docs/format.md's two formulas, written out densely. */
static void reference(const corepcg_system *s, const double *b,
                      const double *x, double *cerr, double *rres,
                      double *numerator)
{
    double A[n][n], S[n][n], d[n], t[n], u[n];
    dense_A(s, A);
    dense_S(s, S);
    for (int k = 0; k < n; k++)
        d[k] = x[k] - (s->z ? s->z[k] : 0);
    mat_vec(S, d, t);
    *cerr = 0;
    for (int k = 0; k < n; k++)
        *cerr = fmax(*cerr, fabs(d[k] - t[k]));
    mat_vec(A, x, t);
    for (int k = 0; k < n; k++)
        t[k] = b[k] - t[k];
    mat_vec(S, t, u);
    double num = norm(u);
    for (int k = 0; k < n; k++)
        d[k] = s->z ? s->z[k] : 0;
    mat_vec(S, d, t);
    for (int k = 0; k < n; k++)
        d[k] -= t[k]; /* (I - S) z */
    mat_vec(A, d, t);
    for (int k = 0; k < n; k++)
        t[k] = b[k] - t[k];
    mat_vec(S, t, u);
    double den = norm(u);
    *rres = den > 0 ? num / den : num;
    *numerator = num;
}

/* ------------------------------------------------------------- cases */

/* x = tiny's answer + delta * e (e on nodes' coordinates); the measures
 * must match the reference to 1e-12 relative (or 1e-15 absolute). */
static void check_perturbed(const char *what, int index0, const double *e,
                            int len, double delta, double want_cerr,
                            double want_rres)
{
    double x[n], cerr, rres, ref_cerr, ref_rres, num;
    char msg[COREPCG_MSG_SIZE];
    memcpy(x, tiny_x, sizeof x);
    for (int k = 0; k < len; k++)
        x[index0 + k] += delta * e[k];
    int rc = corepcg_check(&tiny->system, tiny->b, x, &cerr, &rres, msg);
    CHECK(rc == COREPCG_OK, "%s: %d %s", what, rc, msg);
    reference(&tiny->system, tiny->b, x, &ref_cerr, &ref_rres, &num);
    printf("%-34s constraint error %.17g  rel residual %.17g\n", what, cerr,
           rres);
    CHECK_NEAR(cerr, ref_cerr, 1e-15);
    CHECK_NEAR(rres, ref_rres, 1e-12 * ref_rres + 1e-15);
    if (want_cerr >= 0)
        CHECK_NEAR(cerr, want_cerr, 1e-15);
    if (want_rres >= 0)
        CHECK_NEAR(rres, want_rres, 1e-12 * want_rres);
}

static void test_exact_answer(void)
{
    double cerr = -1, rres = -1;
    char msg[COREPCG_MSG_SIZE];
    int rc = corepcg_check(&tiny->system, tiny->b, tiny_x, &cerr, &rres, msg);
    CHECK(rc == COREPCG_OK, "check of x.mtx: %d %s", rc, msg);
    printf("data/tiny/x.mtx: constraint error %.3g, relative residual %.3g\n",
           cerr, rres);
    CHECK_LE(cerr, 1e-15);
    CHECK_LE(rres, 1e-14);
    CHECK(cerr >= 0 && rres >= 0, "measures are non-negative");
}

static void test_perturbations(void)
{
    /* A free coordinate of the free node 3: x[9] += 1/2. By hand
     * (data/README.md): S A e_9 = (0,0,0, 0,0,0, -0.4992,-0.6656,0.624,
     * 7,0,1), |S A e_9|^2 = 31926/625, |b^|^2 = 107483557507/156250000,
     * so the relative residual is 0.5 * 0.272502971769611238748... */
    const double e1[1] = {1};
    check_perturbed("free node 3, x += 0.5 e_9", 9, e1, 1, 0.5, 0,
                    0.13625148588480561937);

    /* Along the normal p = (0.6, 0.8, 0) of node 1's plane: the
     * constraint error is |0.25 p|_inf = 0.2. */
    const double p1[3] = {0.6, 0.8, 0};
    check_perturbed("plane node 1, x += 0.25 p", 3, p1, 3, 0.25, 0.2, -1);
    /* Within the plane (e_z is orthogonal to p): constraint still holds. */
    const double ez[3] = {0, 0, 1};
    check_perturbed("plane node 1, x += 0.25 e_z", 3, ez, 3, 0.25, 0, -1);

    /* Fixed node 0 moved by -1/8 in y (the error is a magnitude). */
    const double ey[3] = {0, 1, 0};
    check_perturbed("fixed node 0, x -= 0.125 e_y", 0, ey, 3, -0.125, 0.125, -1);

    /* Line node 2 moved along its unit q = (0.8, -0.6, 0) by 1/2: 0.4;
     * and along its line t = p x q = (0.48, 0.64, -0.6): no error. */
    const double q2[3] = {0.8, -0.6, 0}, t2[3] = {0.48, 0.64, -0.6};
    check_perturbed("line node 2, x += 0.5 q", 6, q2, 3, 0.5, 0.4, -1);
    check_perturbed("line node 2, x += 0.5 t", 6, t2, 3, 0.5, 0, -1);
}

/* Without z, and with a zero denominator (b = 0, z = 0: b^ = 0, so the
 * residual norm itself is reported). */
static void test_special_cases(void)
{
    corepcg_system sys = tiny->system;
    sys.z = NULL;
    double cerr, rres, ref_cerr, ref_rres, num;
    char msg[COREPCG_MSG_SIZE];
    int rc = corepcg_check(&sys, tiny->b, tiny_x, &cerr, &rres, msg);
    CHECK(rc == COREPCG_OK, "no z: %d %s", rc, msg);
    reference(&sys, tiny->b, tiny_x, &ref_cerr, &ref_rres, &num);
    CHECK_NEAR(cerr, ref_cerr, 1e-15);
    /* S (b - A x) does not involve z: still round-off. */
    CHECK_LE(rres, 1e-14);
    CHECK_NEAR(rres, ref_rres, 1e-12 * ref_rres + 1e-15);
    /* x's constrained parts equal z's, so without z they are the error:
     * the largest is node 0's z_3 = 2. */
    CHECK_NEAR(cerr, 2, 1e-15);

    double zero[n];
    memset(zero, 0, sizeof zero);
    rc = corepcg_check(&sys, zero, tiny_x, &cerr, &rres, msg);
    CHECK(rc == COREPCG_OK, "zero b^: %d %s", rc, msg);
    reference(&sys, zero, tiny_x, &ref_cerr, &ref_rres, &num);
    CHECK(num > 1, "the numerator is not trivially zero (%g)", num);
    CHECK_NEAR(rres, num, 1e-12 * num);
}

/* The solver's entry point cpg_check_measures gives the same numbers. */
static void test_internal_entry(void)
{
    cholmod_common cm;
    cpg_bmat A;
    cpg_ublocks u;
    char msg[COREPCG_MSG_SIZE];
    memset(&A, 0, sizeof A);
    memset(&u, 0, sizeof u);
    CHECK_INT(cpg_cholmod_start(&cm), COREPCG_OK);
    int rc = cpg_bmat_from_system(&tiny->system, &cm, &A, msg);
    if (rc == COREPCG_OK)
        rc = cpg_ublocks_build(N, tiny->system.constraints,
                               tiny->system.num_constraints, &u, msg);
    CHECK(rc == COREPCG_OK, "internal set-up: %d %s", rc, msg);
    if (rc == COREPCG_OK) {
        double x[n], w1[n], w2[n], c1, r1, c2, r2;
        memcpy(x, tiny_x, sizeof x);
        x[4] -= 0.75;
        cpg_check_measures(&A, &u, tiny->b, tiny->system.z, x, w1, w2, &c1, &r1,
                           NULL);
        CHECK_INT(corepcg_check(&tiny->system, tiny->b, x, &c2, &r2, msg),
                  COREPCG_OK);
        CHECK_NEAR(c1, c2, 0);
        CHECK_NEAR(r1, r2, 0);
        CHECK(r1 > 0.01, "the perturbation shows (%g)", r1);
    }
    cpg_ublocks_free(&u);
    cpg_bmat_free(&A);
    cholmod_finish(&cm);
}

static void test_refusals(void)
{
    double cerr = 0, rres = 0, x[n];
    char msg[COREPCG_MSG_SIZE];
    memcpy(x, tiny_x, sizeof x);
    x[4] = NAN;
    CHECK_INT(corepcg_check(&tiny->system, tiny->b, x, &cerr, &rres, msg),
              COREPCG_ERR_NOT_FINITE);
    CHECK_STR_CONTAINS(msg, "x[4]");
    CHECK_INT(corepcg_check(NULL, tiny->b, tiny_x, &cerr, &rres, msg),
              COREPCG_ERR_ARGUMENT);
    CHECK_INT(corepcg_check(&tiny->system, tiny->b, tiny_x, NULL, &rres, msg),
              COREPCG_ERR_ARGUMENT);

    corepcg_system sys = tiny->system;
    corepcg_constraint c[3];
    memcpy(c, sys.constraints, sizeof c);
    c[1].p[0] = c[1].p[1] = 0; /* zero normal */
    sys.constraints = c;
    CHECK_INT(corepcg_check(&sys, tiny->b, tiny_x, &cerr, &rres, msg),
              COREPCG_ERR_CONSTRAINT);
    sys = tiny->system;
    double z[n];
    memcpy(z, sys.z, sizeof z);
    z[0] = INFINITY;
    sys.z = z;
    CHECK_INT(corepcg_check(&sys, tiny->b, tiny_x, &cerr, &rres, msg),
              COREPCG_ERR_NOT_FINITE);
    CHECK_STR_CONTAINS(msg, "z[0]");
}

int main(void)
{
    char dir[FIXTURE_PATH], path[FIXTURE_PATH], msg[COREPCG_MSG_SIZE];
    fixture_join(dir, fixture_data_dir(), "tiny");
    fixture_join(path, dir, "x.mtx");
    int rc = corepcg_bundle_read(dir, &tiny, msg);
    if (rc == COREPCG_OK)
        rc = corepcg_vector_read(path, n, &tiny_x, msg);
    CHECK(rc == COREPCG_OK, "reading data/tiny and its x.mtx: %d %s", rc, msg);
    if (rc == COREPCG_OK && tiny->system.num_nodes == N) {
        test_exact_answer();
        test_perturbations();
        test_special_cases();
        test_internal_entry();
        test_refusals();
    }
    free(tiny_x);
    corepcg_bundle_free(&tiny);
    return test_summary("test_check");
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_pcg.c -- the shared PCG kernel on 2 x 2 systems small enough to
 * follow by hand: it converges to the exact answer in at most 2 iterations,
 * stops at max_iter with NOT_CONVERGED, keeps a filtered iterate in range(S),
 * and reports a preconditioner that is not positive definite -- before the
 * first iteration (delta0 < 0) and inside the loop (r^T M^-1 r < 0) -- as a
 * breakdown with its message, and an Inf inside the loop (p^T A p) as
 * ERR_NAN. A tol below round-off (1e-18, 1e-300) ends NOT_CONVERGED at
 * round-off under either rule. Setup refuses such preconditioners, so only
 * this test reaches those checks. The optional two-at-once preconditioner
 * (delta0's and the initial residual's application as one call) gives the
 * same iterates as two calls, is called once, and its failure stops the
 * loop before the first iteration. The residual rule, which measures
 * against |b|, applies M^-1 to b not at all: one application fewer, the
 * same iterates. The CPU's vector operations (backend/cpu/vec_cpu.c) sum
 * from the first entry to the last, one term at a time: the order the
 * answers' bits depend on (docs/design.md, "Back ends"). */
#include "internal.h"
#include "test.h"

#include <string.h>

/* A = [4 1; 1 3] */
static void matvec(void *ctx, const double *in, double *out)
{
    (void)ctx;
    out[0] = 4 * in[0] + in[1];
    out[1] = in[0] + 3 * in[1];
}

/* M^-1 = diag(m[0], m[1]) */
static int precond(void *ctx, const double *in, double *out)
{
    const double *m = ctx;
    out[0] = m[0] * in[0];
    out[1] = m[1] * in[1];
    return COREPCG_OK;
}

/* S = diag(1, 0): the second unknown is prescribed */
static void filter(void *ctx, double *v)
{
    (void)ctx;
    v[1] = 0;
}

/* Both at once, counted; a non-positive m[0] says "fail". */
static int precond_calls, precond2_calls;

static int counted_precond(void *ctx, const double *in, double *out)
{
    precond_calls++;
    return precond(ctx, in, out);
}

static int precond2(void *ctx, const double *in1, const double *in2,
                    double *out1, double *out2)
{
    precond2_calls++;
    const double *m = ctx;
    if (!(m[0] > 0))
        return COREPCG_ERR_CHOLMOD;
    precond(ctx, in1, out1);
    return precond(ctx, in2, out2);
}

static int run2(const double *m, const double *b, int two, int residual,
                int max_iter, double *x, int *iterations, char *msg)
{
    cpg_pcg_work w;
    CHECK_INT(cpg_pcg_work_alloc(&w, 2, &cpg_vec_cpu), COREPCG_OK);
    cpg_pcg_problem pb = {
        .n = 2, .matvec = matvec, .precond = counted_precond,
        .precond_ctx = (void *)m, .precond2 = two ? precond2 : NULL,
        .b = b, .bdelta = b, .stop_residual = residual, .tol = 1e-12,
        .max_iter = max_iter,
    };
    precond_calls = precond2_calls = 0;
    msg[0] = '\0';
    int rc = cpg_pcg(&pb, &w, x, iterations, msg);
    cpg_pcg_work_free(&w);
    return rc;
}

static int run(const double *m, const double *b, int use_filter, int max_iter,
               double *x, int *iterations, char *msg)
{
    cpg_pcg_work w;
    CHECK_INT(cpg_pcg_work_alloc(&w, 2, &cpg_vec_cpu), COREPCG_OK);
    cpg_pcg_problem pb = {
        .n = 2, .matvec = matvec, .precond = precond, .precond_ctx = (void *)m,
        .filter = use_filter ? filter : NULL, .b = b, .bdelta = b,
        .tol = 1e-12, .max_iter = max_iter,
    };
    msg[0] = '\0';
    int rc = cpg_pcg(&pb, &w, x, iterations, msg);
    cpg_pcg_work_free(&w);
    return rc;
}

/* A x = b with Jacobi at the given tol and rule (residual: 1, the
 * papers': 0), from zero. */
static int run_tol(double tol, int residual, double *x, int *iterations,
                   char *msg)
{
    static const double jacobi[2] = {0.25, 1.0 / 3}, b[2] = {0.1, 0.7};
    cpg_pcg_work w;
    CHECK_INT(cpg_pcg_work_alloc(&w, 2, &cpg_vec_cpu), COREPCG_OK);
    cpg_pcg_problem pb = {
        .n = 2, .matvec = matvec, .precond = precond,
        .precond_ctx = (void *)jacobi, .b = b, .bdelta = b, .tol = tol,
        .stop_residual = residual, .max_iter = 1000,
    };
    x[0] = x[1] = 0;
    msg[0] = '\0';
    int rc = cpg_pcg(&pb, &w, x, iterations, msg);
    cpg_pcg_work_free(&w);
    return rc;
}

/* A tol below what double precision reaches (1e-18, 1e-300) under either
 * rule: NOT_CONVERGED at round-off, said so, with the answer as far as it
 * goes -- not OK above tol, and not the false breakdown (p^T A p = 0) the
 * recurrence's residual met once it had shrunk alone to underflow. */
static void check_tol_below_round_off(void)
{
    char msg[COREPCG_MSG_SIZE];
    for (int residual = 0; residual <= 1; residual++)
        for (int k = 0; k < 2; k++) {
            double tol = k ? 1e-300 : 1e-18, x[2];
            int it = -1;
            int rc = run_tol(tol, residual, x, &it, msg);
            CHECK(rc == COREPCG_NOT_CONVERGED, "tol %g, %s rule: %d (%s)", tol,
                  residual ? "residual" : "papers'", rc, msg);
            CHECK_STR_CONTAINS(msg, "reached round-off");
            CHECK(it >= 1 && it <= 10, "tol %g: %d iterations", tol, it);
            /* A^-1 = [3 -1; -1 4] / 11 */
            CHECK_NEAR(x[0], (0.3 - 0.7) / 11, 1e-15);
            CHECK_NEAR(x[1], (2.8 - 0.1) / 11, 1e-15);
        }
}

/* 1 + 1e16 - 1e16 + 1 is 1 summed in order; pairwise, or in two lanes of
 * a vector register, 0. */
static void check_cpu_vec_order(void)
{
    const cpg_vec_ops *v = &cpg_vec_cpu;
    const double a[4] = {1, 1e16, -1e16, 1}, ones[4] = {1, 1, 1, 1};
    CHECK(v->dot(4, a, ones) == 1, "dot sums in another order: %g",
          v->dot(4, a, ones));
    double rr = 0, rs = v->dot_norm(4, a, ones, &rr);
    CHECK(rs == v->dot(4, a, ones) && rr == v->dot(4, a, a),
          "dot_norm differs from two dots: %g %g", rs, rr);
    /* cg_update and xpay: x += 2 p, r -= 2 q; y = x + 3 y */
    double x[2] = {1, 2}, r[2] = {5, 6};
    const double p[2] = {1, -1}, q[2] = {0.5, 1};
    v->cg_update(2, 2, p, q, x, r);
    CHECK(x[0] == 3 && x[1] == 0 && r[0] == 4 && r[1] == 4,
          "cg_update: x (%g, %g) r (%g, %g)", x[0], x[1], r[0], r[1]);
    v->xpay(2, p, 3, x);
    CHECK(x[0] == 10 && x[1] == -1, "xpay: (%g, %g)", x[0], x[1]);
}

int main(void)
{
    check_cpu_vec_order();
    check_tol_below_round_off();
    char msg[COREPCG_MSG_SIZE];
    int it = -1;
    const double identity[2] = {1, 1}, b[2] = {1, 2};

    /* A x = b: x = (1, 7) / 11, in 2 iterations (exact arithmetic) */
    double x[2] = {0, 0};
    CHECK_INT(run(identity, b, 0, 10, x, &it, msg), COREPCG_OK);
    CHECK_LE(it, 2);
    CHECK_NEAR(x[0], 1.0 / 11, 1e-14);
    CHECK_NEAR(x[1], 7.0 / 11, 1e-14);

    /* one iteration allowed: NOT_CONVERGED after exactly 1 */
    x[0] = x[1] = 0;
    CHECK_INT(run(identity, b, 0, 1, x, &it, msg), COREPCG_NOT_CONVERGED);
    CHECK_INT(it, 1);

    /* filtered (x2 prescribed as 0, S b = (1, 0)): x = (1/4, 0), 1 iteration */
    const double bs[2] = {1, 0};
    x[0] = x[1] = 0;
    CHECK_INT(run(identity, bs, 1, 10, x, &it, msg), COREPCG_OK);
    CHECK_INT(it, 1);
    CHECK_NEAR(x[0], 0.25, 1e-15);
    CHECK(x[1] == 0, "the prescribed unknown moved: %g", x[1]);

    /* M^-1 = diag(1, -1), b = (0, 1): delta0 = -1 before any iteration */
    const double indefinite[2] = {1, -1}, e2[2] = {0, 1}, e1[2] = {1, 0};
    x[0] = x[1] = 0;
    CHECK_INT(run(indefinite, e2, 0, 10, x, &it, msg), COREPCG_ERR_BREAKDOWN);
    CHECK_INT(it, 0);
    CHECK_STR_CONTAINS(msg, "preconditioner is not positive definite");

    /* b = (1, 0): delta0 = 1, but after one step r = (0, -1/4) and
     * r^T M^-1 r = -1/16 < 0 */
    x[0] = x[1] = 0;
    CHECK_INT(run(indefinite, e1, 0, 10, x, &it, msg), COREPCG_ERR_BREAKDOWN);
    CHECK_INT(it, 1);
    CHECK_STR_CONTAINS(msg, "< 0 at iteration 1");
    /* M^-1 = diag(1, 1e300), b = (1, 0): the first step is finite
     * (r = (0, -1/4)), the second direction is about (6e298, -2.5e299),
     * and its p^T A p overflows: Inf inside the loop, reported as such
     * (the methods run the loop at unit scale, where this takes a
     * preconditioner as wild as this one) */
    const double wild[2] = {1, 1e300};
    x[0] = x[1] = 0;
    CHECK_INT(run(wild, e1, 0, 10, x, &it, msg), COREPCG_ERR_NAN);
    CHECK_INT(it, 1);
    CHECK_STR_CONTAINS(msg, "NaN or Inf in p^T A p at iteration 2");
    /* two at once: the same iterates from a nonzero guess, one call for
     * the first two applications */
    const double jacobi[2] = {0.25, 1.0 / 3};
    double x1[2] = {0.3, -0.2}, x2[2] = {0.3, -0.2};
    int it1 = -1, it2 = -1;
    CHECK_INT(run2(jacobi, b, 0, 0, 1, x1, &it1, msg), COREPCG_NOT_CONVERGED);
    CHECK_INT(precond_calls, 3);
    CHECK_INT(run2(jacobi, b, 1, 0, 1, x2, &it2, msg), COREPCG_NOT_CONVERGED);
    CHECK(precond2_calls == 1 && precond_calls == 1,
          "precond2 %d calls, precond %d", precond2_calls, precond_calls);
    CHECK(it1 == it2 && x1[0] == x2[0] && x1[1] == x2[1],
          "one or two calls: x (%g, %g) vs (%g, %g)", x1[0], x1[1], x2[0],
          x2[1]);
    /* the residual rule: no M^-1 b (neither call for it), the same iterate */
    double x3[2] = {0.3, -0.2};
    int it3 = -1;
    CHECK_INT(run2(jacobi, b, 1, 1, 1, x3, &it3, msg), COREPCG_NOT_CONVERGED);
    CHECK(precond2_calls == 0 && precond_calls == 2,
          "residual rule: precond2 %d calls, precond %d", precond2_calls,
          precond_calls);
    CHECK(it3 == it1 && x3[0] == x1[0] && x3[1] == x1[1],
          "residual rule: x (%g, %g) vs (%g, %g)", x3[0], x3[1], x1[0], x1[1]);
    /* the same with one application at a time (icpcg's way) */
    double x4[2] = {0.3, -0.2};
    int it4 = -1;
    CHECK_INT(run2(jacobi, b, 0, 1, 1, x4, &it4, msg), COREPCG_NOT_CONVERGED);
    CHECK_INT(precond_calls, 2);
    CHECK(it4 == it1 && x4[0] == x1[0] && x4[1] == x1[1],
          "residual rule, one at a time: x (%g, %g) vs (%g, %g)", x4[0],
          x4[1], x1[0], x1[1]);
    /* its failure stops before the first iteration */
    const double failing[2] = {-1, 1};
    x[0] = x[1] = 0;
    CHECK_INT(run2(failing, b, 1, 0, 10, x, &it, msg), COREPCG_ERR_CHOLMOD);
    CHECK_INT(it, 0);
    CHECK_STR_CONTAINS(msg, "the preconditioner failed");
    return test_summary("test_pcg");
}

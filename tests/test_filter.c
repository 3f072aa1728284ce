/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_filter.c -- corepcg_filter (S v for a simulator's own filter()) and
 * records of ndof 3 (a free node, as if unlisted). Public API only (links
 * the shared library): S is a projector, symmetric, orthogonal to the
 * blocked directions, I on free nodes and 0 on fixed ones; it is the S
 * the solvers hold answers to; bad input is refused with the library's
 * codes. An ndof-3 record changes no answer, and the bundle writer leaves
 * it out of constraints.txt. */
#include "corepcg.h"
#include "fixture.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 40 };

static unsigned long long rng = 88172645463325252ULL;

static double uniform(void) /* in [-1, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;
}

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Records for nodes 0 .. N-2 cycling through ndof 0, 1, 2, 3 with random
 * directions of random lengths (q orthogonal to p, not unit); node N-1 is
 * not listed. */
static int make_records(corepcg_constraint *c)
{
    int count = 0;
    for (int i = 0; i < N - 1; i++) {
        corepcg_constraint r = {.node = i, .ndof = i % 4};
        double scale = 0.1 + 10 * fabs(uniform());
        for (int a = 0; a < 3; a++)
            r.p[a] = scale * uniform();
        double w[3] = {uniform(), uniform(), uniform()};
        double pw = dot3(r.p, w) / dot3(r.p, r.p);
        for (int a = 0; a < 3; a++)
            r.q[a] = 3 * (w[a] - pw * r.p[a]);
        c[count++] = r;
    }
    return count;
}

static void test_projector(void)
{
    corepcg_constraint c[N];
    int count = make_records(c);
    double v[3 * N], u[3 * N], sv[3 * N], su[3 * N], ssv[3 * N];
    for (int k = 0; k < 3 * N; k++) {
        v[k] = uniform();
        u[k] = uniform();
    }
    char msg[COREPCG_MSG_SIZE];
    CHECK_INT(corepcg_filter(N, count, c, v, sv, msg), COREPCG_OK);
    CHECK_INT(corepcg_filter(N, count, c, u, su, NULL), COREPCG_OK);
    CHECK_INT(corepcg_filter(N, count, c, sv, ssv, msg), COREPCG_OK);
    double vsu = 0, usv = 0;
    for (int k = 0; k < 3 * N; k++) {
        CHECK_NEAR(ssv[k], sv[k], 1e-15); /* S S v = S v (|v| < 2) */
        vsu += v[k] * su[k];
        usv += u[k] * sv[k];
    }
    CHECK_NEAR(vsu, usv, 1e-14); /* S^T = S */
    for (int i = 0; i < N; i++) {
        const double *s = sv + 3 * i, *vi = v + 3 * i;
        int ndof = i < count ? c[i].ndof : 3; /* node N-1 is not listed */
        double pn = i < count ? sqrt(dot3(c[i].p, c[i].p)) : 1;
        switch (ndof) {
        case 0: /* fixed: nothing passes */
            CHECK(s[0] == 0 && s[1] == 0 && s[2] == 0, "node %d fixed: S v = "
                  "(%g, %g, %g)", i, s[0], s[1], s[2]);
            break;
        case 1:   /* the line orthogonal to p and q */
        case 2: { /* the plane with normal p: v minus its p part */
            if (ndof == 1)
                CHECK_LE(fabs(dot3(s, c[i].q)) / sqrt(dot3(c[i].q, c[i].q)),
                         1e-14);
            CHECK_LE(fabs(dot3(s, c[i].p)) / pn, 1e-14);
            if (ndof == 2) {
                double t = dot3(vi, c[i].p) / (pn * pn);
                for (int a = 0; a < 3; a++)
                    CHECK_NEAR(s[a], vi[a] - t * c[i].p[a], 1e-14);
            }
            break;
        }
        default: /* ndof 3 record, or not listed: v itself, exactly */
            CHECK(s[0] == vi[0] && s[1] == vi[1] && s[2] == vi[2],
                  "node %d free: S v != v", i);
        }
    }
    /* in place, and the ndof-3 records change nothing (bit for bit) */
    double w[3 * N];
    memcpy(w, v, sizeof v);
    CHECK_INT(corepcg_filter(N, count, c, w, w, msg), COREPCG_OK);
    CHECK(memcmp(w, sv, sizeof w) == 0, "in place differs");
    corepcg_constraint kept[N];
    int nkept = 0;
    for (int k = 0; k < count; k++)
        if (c[k].ndof != 3)
            kept[nkept++] = c[k];
    CHECK_INT(corepcg_filter(N, nkept, kept, v, w, msg), COREPCG_OK);
    CHECK(memcmp(w, sv, sizeof w) == 0, "ndof-3 records changed S v");
    /* no records: S = I */
    CHECK_INT(corepcg_filter(N, 0, NULL, v, w, msg), COREPCG_OK);
    CHECK(memcmp(w, v, sizeof w) == 0, "S v != v without constraints");
}

static void test_refusals(void)
{
    corepcg_constraint c[N];
    int count = make_records(c);
    double v[3 * N], out[3 * N];
    for (int k = 0; k < 3 * N; k++)
        v[k] = uniform();
    char msg[COREPCG_MSG_SIZE];
    /* each refusal: its code, its message, out untouched */
#define CASE(WHAT, CALL, CODE, SAYS)                                          \
    do {                                                                     \
        for (int k_ = 0; k_ < 3 * N; k_++)                                   \
            out[k_] = 7;                                                     \
        int rc_ = CALL;                                                      \
        CHECK(rc_ == CODE, "%s: returned %d, expected %d", WHAT, rc_, CODE); \
        CHECK_STR_CONTAINS(msg, SAYS);                                       \
        CHECK(out[0] == 7 && out[3 * N - 1] == 7, "%s: out written", WHAT);  \
    } while (0)
    CASE("NULL v", corepcg_filter(N, count, c, NULL, out, msg),
         COREPCG_ERR_ARGUMENT, "v and out");
    CASE("no nodes", corepcg_filter(0, 0, NULL, v, out, msg),
         COREPCG_ERR_ARGUMENT, "num_nodes is 0");
    CASE("3 N overflows", corepcg_filter(1 << 30, 0, NULL, v, out, msg),
         COREPCG_ERR_TOO_LARGE, "num_nodes");
    CASE("negative count", corepcg_filter(N, -1, c, v, out, msg),
         COREPCG_ERR_ARGUMENT, "count -1");
    CASE("NULL records", corepcg_filter(N, 2, NULL, v, out, msg),
         COREPCG_ERR_ARGUMENT, "NULL");
    v[5] = NAN;
    CASE("NaN in v", corepcg_filter(N, count, c, v, out, msg),
         COREPCG_ERR_NOT_FINITE, "v[5]");
    v[5] = 0.5;
    c[6].ndof = 4;
    CASE("ndof 4", corepcg_filter(N, count, c, v, out, msg),
         COREPCG_ERR_CONSTRAINT, "ndof 4 is not 0, 1, 2 or 3");
    c[6].ndof = 3;
    c[7].node = 6; /* node 6 free (ndof 3) and listed again */
    CASE("node listed twice", corepcg_filter(N, count, c, v, out, msg),
         COREPCG_ERR_CONSTRAINT, "node 6 is listed twice");
#undef CASE
    CHECK_INT(corepcg_filter(N, 0, NULL, v, NULL, NULL), COREPCG_ERR_ARGUMENT);
}

/* data/tiny solved with an extra ndof-3 record for its free node 3: the
 * same answer bit for bit, and that answer holds (I - S)(x - z) = 0 for
 * corepcg_filter's S; the bundle writer leaves the record out. */
static void test_free_record_in_a_system(void)
{
    char dir[FIXTURE_PATH], msg[COREPCG_MSG_SIZE];
    fixture_join(dir, fixture_data_dir(), "tiny");
    corepcg_bundle *b = NULL;
    CHECK_INT(corepcg_bundle_read(dir, &b, msg), COREPCG_OK);
    if (!b)
        return;
    corepcg_system sys = b->system;
    int n = 3 * sys.num_nodes, nc = sys.num_constraints;
    corepcg_constraint cons[16];
    CHECK(nc < 15 && n <= 48, "data/tiny grew");
    memcpy(cons, sys.constraints, sizeof cons[0] * (size_t)nc);
    cons[nc] = (corepcg_constraint){.node = 3, .ndof = 3,
                                    .p = {NAN, 0, 0}}; /* p is ignored */
    double x[48], x3[48], sx[48], sz[48];
    corepcg_settings set;
    corepcg_settings_default(&set);
    set.method = COREPCG_METHOD_DIRECT;
    corepcg_solver *h = NULL;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);
    CHECK_INT(corepcg_setup(h, &sys, &set), COREPCG_OK);
    CHECK_INT(corepcg_solve(h, b->b, NULL, x, NULL), COREPCG_OK);
    sys.constraints = cons;
    sys.num_constraints = nc + 1;
    CHECK_INT(corepcg_setup(h, &sys, &set), COREPCG_OK);
    CHECK_INT(corepcg_solve(h, b->b, NULL, x3, NULL), COREPCG_OK);
    CHECK(memcmp(x, x3, sizeof(double) * (size_t)n) == 0,
          "an ndof-3 record changed the answer");
    corepcg_free(&h);

    CHECK_INT(corepcg_filter(sys.num_nodes, nc + 1, cons, x, sx, msg),
              COREPCG_OK);
    CHECK_INT(corepcg_filter(sys.num_nodes, nc + 1, cons, sys.z, sz, msg),
              COREPCG_OK);
    int moved = 0;
    for (int k = 0; k < n; k++) {
        CHECK_NEAR(x[k] - sx[k], sys.z[k] - sz[k], 1e-14);
        moved += x[k] != sys.z[k];
    }
    CHECK(moved > 0, "the answer is z itself: nothing measured");

    char out[FIXTURE_PATH];
    fixture_temp_dir(out, "filter");
    CHECK_INT(corepcg_bundle_write(out, &sys, b->b, NULL, msg), COREPCG_OK);
    corepcg_bundle *back = NULL;
    CHECK_INT(corepcg_bundle_read(out, &back, msg), COREPCG_OK);
    if (back)
        CHECK_INT(back->system.num_constraints, nc);
    corepcg_bundle_free(&back);
    /* only ndof-3 records: no constraints.txt, as for none */
    sys.constraints = cons + nc;
    sys.num_constraints = 1;
    CHECK_INT(corepcg_bundle_write(out, &sys, b->b, NULL, msg), COREPCG_OK);
    CHECK(!fixture_exists(out, "constraints.txt"),
          "constraints.txt written for free nodes only");
    fixture_remove_tree(out);
    corepcg_bundle_free(&b);
}

int main(void)
{
    test_projector();
    test_refusals();
    test_free_record_in_a_system();
    return test_summary("test_filter");
}

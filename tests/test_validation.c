/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_validation.c -- one import path: corepcg_setup, corepcg_update,
 * corepcg_check and corepcg_bundle_write refuse the same bad systems with
 * the same code and the same message. Public API only (links the shared
 * library). Each case starts from data/tiny and breaks one thing. */
#include "corepcg.h"
#include "fixture.h"
#include "test.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAXN = 64 };

/* A mutable copy of data/tiny's system. */
typedef struct tiny_copy {
    corepcg_system sys;
    int colptr[3 * MAXN + 1], rowidx[512];
    double values[512], z[3 * MAXN], b[3 * MAXN];
    corepcg_constraint cons[8];
    int pairs[16];
} tiny_copy;

static const corepcg_bundle *tiny;

static void copy_tiny(tiny_copy *t)
{
    const corepcg_system *s = &tiny->system;
    int n = 3 * s->num_nodes, nnz = s->A_colptr[n];
    memset(t, 0, sizeof *t);
    t->sys = *s;
    memcpy(t->colptr, s->A_colptr, sizeof(int) * (size_t)(n + 1));
    memcpy(t->rowidx, s->A_rowidx, sizeof(int) * (size_t)nnz);
    memcpy(t->values, s->A_values, sizeof(double) * (size_t)nnz);
    memcpy(t->z, s->z, sizeof(double) * (size_t)n);
    memcpy(t->b, tiny->b, sizeof(double) * (size_t)n);
    memcpy(t->cons, s->constraints,
           sizeof(corepcg_constraint) * (size_t)s->num_constraints);
    memcpy(t->pairs, s->stretch_pairs, sizeof(int) * 2 * (size_t)s->num_stretch);
    t->sys.A_colptr = t->colptr;
    t->sys.A_rowidx = t->rowidx;
    t->sys.A_values = t->values;
    t->sys.z = t->z;
    t->sys.constraints = t->cons;
    t->sys.stretch_pairs = t->pairs;
}

typedef struct bad_case {
    const char *what;
    int code;               /* what every entry point must return */
    void (*breakit)(tiny_copy *t);
} bad_case;

static void self_pair(tiny_copy *t) { t->pairs[2] = t->pairs[3] = 0; }
static void pair_out_of_range(tiny_copy *t) { t->pairs[1] = 4; }
static void negative_pairs(tiny_copy *t) { t->sys.num_stretch = -1; }
static void null_pairs(tiny_copy *t) { t->sys.stretch_pairs = NULL; }
/* refused by its count, before a pair is read (2^30 + 1 overflowed 2 s) */
static void too_many_pairs(tiny_copy *t) { t->sys.num_stretch = INT_MAX / 18 + 1; }
static void node_twice(tiny_copy *t) { t->cons[1].node = t->cons[0].node; }
static void ndof_four(tiny_copy *t) { t->cons[1].ndof = 4; }
/* ndof 3 (a free node) is a record too: listing its node again is not */
static void free_node_twice(tiny_copy *t)
{
    t->cons[t->sys.num_constraints] = (corepcg_constraint){
        .node = t->cons[0].node, .ndof = 3};
    t->sys.num_constraints++;
}
static void q_not_orthogonal(tiny_copy *t)
{
    t->cons[2].q[0] = t->cons[2].p[0];
    t->cons[2].q[1] = t->cons[2].p[1] + 1;
    t->cons[2].q[2] = t->cons[2].p[2];
}
static void z_nan(tiny_copy *t) { t->z[4] = NAN; }
static void a_nan(tiny_copy *t) { t->values[3] = NAN; }
static void colptr_start(tiny_copy *t) { t->colptr[0] = 1; }
static void upper_entry(tiny_copy *t) { t->rowidx[t->colptr[1]] = 0; }
static void row_out_of_range(tiny_copy *t) { t->rowidx[2] = 12; }
static void no_nodes(tiny_copy *t) { t->sys.num_nodes = 0; }
static void unknown_triangle(tiny_copy *t) { t->sys.A_triangle = 7; }

static const bad_case cases[] = {
    {"a stretch pair joining a node to itself", COREPCG_ERR_FORMAT, self_pair},
    {"a stretch pair's node out of range", COREPCG_ERR_DIMENSION, pair_out_of_range},
    {"a negative stretch count", COREPCG_ERR_ARGUMENT, negative_pairs},
    {"stretch pairs missing", COREPCG_ERR_ARGUMENT, null_pairs},
    {"more stretch pairs than the core indexes", COREPCG_ERR_TOO_LARGE,
     too_many_pairs},
    {"a node constrained twice", COREPCG_ERR_CONSTRAINT, node_twice},
    {"ndof 4 in a record", COREPCG_ERR_CONSTRAINT, ndof_four},
    {"a node listed again as free", COREPCG_ERR_CONSTRAINT, free_node_twice},
    {"q not orthogonal to p", COREPCG_ERR_CONSTRAINT, q_not_orthogonal},
    {"NaN in z", COREPCG_ERR_NOT_FINITE, z_nan},
    {"NaN in A", COREPCG_ERR_NOT_FINITE, a_nan},
    {"colptr[0] != 0", COREPCG_ERR_FORMAT, colptr_start},
    {"an entry above the diagonal of LOWER", COREPCG_ERR_FORMAT, upper_entry},
    {"a row index out of range", COREPCG_ERR_DIMENSION, row_out_of_range},
    {"no nodes", COREPCG_ERR_ARGUMENT, no_nodes},
    {"an unknown triangle", COREPCG_ERR_ARGUMENT, unknown_triangle},
};

/* Every entry point on one broken system: the same code and message. */
static void refused_alike(const bad_case *c)
{
    tiny_copy t;
    copy_tiny(&t);
    c->breakit(&t);
    int n = 3 * tiny->system.num_nodes;
    double x[3 * MAXN];
    memset(x, 0, sizeof x);

    corepcg_solver *h = NULL;
    CHECK_INT(corepcg_create(&h), COREPCG_OK);
    int setup_rc = corepcg_setup(h, &t.sys, NULL);
    char setup_msg[COREPCG_MSG_SIZE];
    snprintf(setup_msg, sizeof setup_msg, "%s", corepcg_message(h));

    /* update: from a good system set up, the bad one is refused alike */
    tiny_copy good;
    copy_tiny(&good);
    corepcg_settings set;
    corepcg_settings_default(&set);
    set.method = COREPCG_METHOD_DIRECT;
    CHECK_INT(corepcg_setup(h, &good.sys, &set), COREPCG_OK);
    /* a first update builds the import map, so that the bad system --
     * most have the good one's pattern -- meets the map's shortcut */
    CHECK_INT(corepcg_update(h, &good.sys, NULL), COREPCG_OK);
    int update_rc = corepcg_update(h, &t.sys, NULL);
    CHECK(strcmp(corepcg_message(h), setup_msg) == 0,
          "%s: update says \"%s\", setup said \"%s\"", c->what,
          corepcg_message(h), setup_msg);
    /* the previous system stays usable */
    CHECK_INT(corepcg_solve(h, good.b, NULL, x, NULL), COREPCG_OK);
    corepcg_free(&h);

    char check_msg[COREPCG_MSG_SIZE] = "", write_msg[COREPCG_MSG_SIZE] = "";
    double cerr, rres;
    int check_rc = corepcg_check(&t.sys, t.b, x, &cerr, &rres, check_msg);
    char dir[FIXTURE_PATH];
    fixture_temp_dir(dir, "validation");
    int write_rc = corepcg_bundle_write(dir, &t.sys, t.b, NULL, write_msg);

    CHECK(setup_rc == c->code, "%s: setup returned %d, expected %d",
          c->what, setup_rc, c->code);
    CHECK(update_rc == c->code, "%s: update returned %d, expected %d",
          c->what, update_rc, c->code);
    CHECK(check_rc == c->code, "%s: check returned %d, expected %d",
          c->what, check_rc, c->code);
    CHECK(write_rc == c->code, "%s: bundle_write returned %d, expected %d",
          c->what, write_rc, c->code);
    CHECK(strcmp(check_msg, setup_msg) == 0,
          "%s: check says \"%s\", setup said \"%s\"", c->what, check_msg,
          setup_msg);
    CHECK(strcmp(write_msg, setup_msg) == 0,
          "%s: bundle_write says \"%s\", setup said \"%s\"", c->what,
          write_msg, setup_msg);
    CHECK(fixture_count_files(dir) <= 0,
          "%s: bundle_write left %d files", c->what, fixture_count_files(dir));
    fixture_remove_tree(dir);

    /* corepcg_filter reads the records alone: it refuses a bad one as
     * setup does and takes the rest */
    char filter_msg[COREPCG_MSG_SIZE] = "";
    double sx[3 * MAXN];
    int filter_rc = corepcg_filter(t.sys.num_nodes, t.sys.num_constraints,
                                   t.sys.constraints, t.b, sx, filter_msg);
    int records = c->code == COREPCG_ERR_CONSTRAINT;
    int expect = records ? c->code : t.sys.num_nodes < 1 ? COREPCG_ERR_ARGUMENT
                                                         : COREPCG_OK;
    CHECK(filter_rc == expect, "%s: filter returned %d, expected %d",
          c->what, filter_rc, expect);
    CHECK(!records || strcmp(filter_msg, setup_msg) == 0,
          "%s: filter says \"%s\", setup said \"%s\"", c->what, filter_msg,
          setup_msg);
    (void)n;
}

int main(void)
{
    char dir[FIXTURE_PATH], msg[COREPCG_MSG_SIZE];
    fixture_join(dir, fixture_data_dir(), "tiny");
    corepcg_bundle *b = NULL;
    CHECK_INT(corepcg_bundle_read(dir, &b, msg), COREPCG_OK);
    if (!b)
        return test_summary("test_validation");
    tiny = b;
    CHECK(tiny->system.num_nodes <= MAXN && tiny->system.num_constraints >= 3 &&
          tiny->system.num_stretch >= 2, "data/tiny is not what this test "
          "expects");
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        refused_alike(&cases[k]);
    corepcg_bundle_free(&b);
    return test_summary("test_validation");
}

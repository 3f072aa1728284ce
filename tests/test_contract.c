/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_contract.c -- what corepcg.h promises about the arrays a caller
 * hands over, through the public API (shared library), on testsys grids.
 *
 * Asserted:
 *  - a CSC column's rows in any order, and an entry split into two halves
 *    (a duplicate), give x bit for bit equal to the sorted, duplicate-free
 *    system's, for LOWER, UPPER and BOTH, at setup and at later updates
 *    with the same arrays (the import map's path);
 *  - stretch pairs given twice, reversed, and with a pair of nodes A does
 *    not couple: setup OK, the same core_blocks and nnz_core and x bit for
 *    bit as the plain pairs; an update that only reorders them keeps
 *    corePCG's analysis (analysis_reused 1);
 *  - update compares patterns by content: copies of the arrays at new
 *    addresses keep direct's analysis (analysis_reused 1, the same x bit
 *    for bit), the same buffers rewritten with another pattern do not
 *    (analysis_reused 0, x equal to a fresh handle's);
 *  - a diagonal entry left out (free node, fixed node; CSC and triplets;
 *    setup and update): ERR_FORMAT naming the row, node and coordinate;
 *    a refused update leaves the previous system solving. */
#include "setup_for.h"
#include "corepcg.h"
#include "test.h"
#include "testsys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define G 6 /* a 6 x 6 grid: 36 nodes, 108 unknowns */

static int make(testsys *t, unsigned long seed)
{
    testsys_opts o;
    testsys_default_opts(&o, G, seed);
    int rc = testsys_make(t, &o);
    CHECK(rc == 0, "testsys_make(%d, %lu) failed", G, seed);
    return rc;
}

/* setup + solve on a fresh handle; returns the code, x and info filled. */
static int solve_fresh(const corepcg_system *sys, corepcg_method m,
                       const double *b, double *x, corepcg_info *info,
                       char *msg)
{
    corepcg_settings set;
    corepcg_settings_default(&set);
    set.method = m;
    set.tol = 1e-10;
    corepcg_solver *h = NULL;
    int rc = corepcg_create(&h);
    if (rc == COREPCG_OK)
        rc = setup_for(h, sys, &set);
    if (rc == COREPCG_OK)
        rc = corepcg_solve(h, b, NULL, x, info);
    snprintf(msg, COREPCG_MSG_SIZE, "%s", corepcg_message(h));
    corepcg_free(&h);
    return rc;
}

static int bit_equal(int n, const double *a, const double *b)
{
    return memcmp(a, b, sizeof(double) * (size_t)n) == 0;
}

/* CSC arrays of t's current form with every column's rows reversed and,
 * when split, its first entry given as two halves. */
typedef struct csc_copy {
    int *colptr, *rowidx;
    double *values;
} csc_copy;

static void csc_rewrite(const testsys *t, int split, csc_copy *c)
{
    int n = t->n, m = 0;
    c->colptr = malloc(sizeof(int) * (size_t)(n + 1));
    c->rowidx = malloc(sizeof(int) * (size_t)(t->nnz + n));
    c->values = malloc(sizeof(double) * (size_t)(t->nnz + n));
    c->colptr[0] = 0;
    for (int j = 0; j < n; j++) {
        int first = t->colptr[j], last = t->colptr[j + 1] - 1;
        for (int k = last; k >= first; k--) {
            int halve = split && k == last;
            c->rowidx[m] = t->rowidx[k];
            c->values[m++] = halve ? 0.5 * t->values[k] : t->values[k];
            if (halve) {
                c->rowidx[m] = t->rowidx[k];
                c->values[m++] = 0.5 * t->values[k];
            }
        }
        c->colptr[j + 1] = m;
    }
}

static void csc_copy_free(csc_copy *c)
{
    free(c->colptr);
    free(c->rowidx);
    free(c->values);
}

/* ------------------------------------------------- order and duplicates */

static void test_order_and_duplicates(void)
{
    testsys t;
    if (make(&t, 11))
        return;
    const char *tri_name[] = {"LOWER", "UPPER", "BOTH"};
    double *ref = malloc(sizeof(double) * (size_t)t.n);
    double *x = malloc(sizeof(double) * (size_t)t.n);
    for (int tri = COREPCG_LOWER; tri <= COREPCG_BOTH; tri++) {
        testsys_set_form(&t, COREPCG_CSC, (corepcg_triangle)tri);
        corepcg_info info;
        char msg[COREPCG_MSG_SIZE];
        int rc = solve_fresh(&t.sys, COREPCG_METHOD_DIRECT, t.b, ref, &info, msg);
        CHECK(rc == COREPCG_OK, "%s sorted: rc %d (%s)", tri_name[tri], rc, msg);
        for (int split = 0; split < 2; split++) {
            csc_copy c;
            csc_rewrite(&t, split, &c);
            corepcg_system s = t.sys;
            s.A_colptr = c.colptr;
            s.A_rowidx = c.rowidx;
            s.A_values = c.values;
            const char *what = split ? "reversed rows + a duplicate" : "reversed rows";
            rc = solve_fresh(&s, COREPCG_METHOD_DIRECT, t.b, x, &info, msg);
            CHECK(rc == COREPCG_OK, "%s %s: rc %d (%s)", tri_name[tri], what, rc, msg);
            CHECK(bit_equal(t.n, x, ref), "%s %s: x differs from the sorted "
                  "system's by %.3g", tri_name[tri], what,
                  testsys_max_diff(t.n, x, ref));
            /* the second and third updates with these arrays take the
             * import map (one triangle) and must sum alike */
            corepcg_settings set;
            corepcg_settings_default(&set);
            set.method = COREPCG_METHOD_DIRECT;
            corepcg_solver *h = NULL;
            corepcg_create(&h);
            rc = setup_for(h, &s, &set);
            for (int step = 0; step < 3 && rc == COREPCG_OK; step++)
                rc = corepcg_update(h, &s, &info);
            if (rc == COREPCG_OK)
                rc = corepcg_solve(h, t.b, NULL, x, &info);
            CHECK(rc == COREPCG_OK, "%s %s, updates: rc %d (%s)", tri_name[tri],
                  what, rc, corepcg_message(h));
            CHECK_INT(info.analysis_reused, 1);
            CHECK(bit_equal(t.n, x, ref), "%s %s, updates: x differs by %.3g",
                  tri_name[tri], what, testsys_max_diff(t.n, x, ref));
            corepcg_free(&h);
            csc_copy_free(&c);
        }
    }
    free(ref);
    free(x);
    testsys_free(&t);
}

/* -------------------------------------------------------- stretch pairs */

static void test_stretch_pairs_are_a_set(void)
{
    testsys t;
    if (make(&t, 12))
        return;
    int far = t.N - 1; /* node 0 and the opposite corner: not coupled */
    CHECK(testsys_block(&t, far, 0) == NULL, "nodes 0 and %d are coupled", far);
    int ns = 2 * t.nstretch + 1;
    int *pairs = malloc(sizeof(int) * 2 * (size_t)ns);
    for (int s = 0; s < t.nstretch; s++) {
        pairs[2 * s] = t.pairs[2 * s];                         /* as given */
        pairs[2 * s + 1] = t.pairs[2 * s + 1];
        pairs[2 * (t.nstretch + s)] = t.pairs[2 * s + 1];      /* reversed */
        pairs[2 * (t.nstretch + s) + 1] = t.pairs[2 * s];
    }
    pairs[2 * ns - 2] = 0; /* uncoupled */
    pairs[2 * ns - 1] = far;
    double *ref = malloc(sizeof(double) * (size_t)t.n);
    double *x = malloc(sizeof(double) * (size_t)t.n);
    corepcg_info plain, odd;
    char msg[COREPCG_MSG_SIZE];
    int rc = solve_fresh(&t.sys, COREPCG_METHOD_COREPCG, t.b, ref, &plain, msg);
    CHECK(rc == COREPCG_OK, "plain pairs: rc %d (%s)", rc, msg);
    corepcg_system s = t.sys;
    s.num_stretch = ns;
    s.stretch_pairs = pairs;
    rc = solve_fresh(&s, COREPCG_METHOD_COREPCG, t.b, x, &odd, msg);
    CHECK(rc == COREPCG_OK, "repeated, reversed, uncoupled pairs: rc %d (%s)", rc, msg);
    CHECK_INT(odd.core_blocks, plain.core_blocks);
    CHECK_INT(odd.core_blocks, t.nstretch);
    CHECK_INT(odd.nnz_core, plain.nnz_core);
    CHECK_INT(odd.iterations, plain.iterations);
    CHECK(bit_equal(t.n, x, ref), "x differs by %.3g", testsys_max_diff(t.n, x, ref));

    /* the pairs in another order: corePCG's analysis holds */
    corepcg_settings set;
    corepcg_settings_default(&set);
    set.method = COREPCG_METHOD_COREPCG;
    corepcg_solver *h = NULL;
    corepcg_create(&h);
    rc = setup_for(h, &t.sys, &set);
    corepcg_info info;
    if (rc == COREPCG_OK)
        rc = corepcg_update(h, &s, &info);
    CHECK(rc == COREPCG_OK, "update with reordered pairs: rc %d (%s)", rc,
          corepcg_message(h));
    CHECK_INT(info.analysis_reused, 1);
    corepcg_free(&h);
    free(pairs);
    free(ref);
    free(x);
    testsys_free(&t);
}

/* ------------------------------------------------- patterns by content */

static void test_update_compares_content(void)
{
    testsys t, t2;
    if (make(&t, 13))
        return;
    if (make(&t2, 13)) {
        testsys_free(&t);
        return;
    }
    /* one more coupling in each, between other nodes: two block patterns
     * of as many entries, which only their contents tell apart */
    double K[9] = {2, 0, 0, 0, 2, 0, 0, 0, 2};
    testsys_add_coupling(&t, 0, t.N - 1, K);
    testsys_set_form(&t, COREPCG_CSC, COREPCG_LOWER);
    testsys_add_coupling(&t2, 1, t2.N - 2, K);
    testsys_set_form(&t2, COREPCG_CSC, COREPCG_LOWER);
    CHECK_INT(t2.nnz, t.nnz);
    int n = t.n, nnz = t2.nnz > t.nnz ? t2.nnz : t.nnz;
    int *cp = malloc(sizeof(int) * (size_t)(n + 1));
    int *ri = malloc(sizeof(int) * (size_t)nnz);
    double *v = malloc(sizeof(double) * (size_t)nnz);
    double *ref = malloc(sizeof(double) * (size_t)n);
    double *x = malloc(sizeof(double) * (size_t)n);
    corepcg_system s = t.sys;
    s.A_colptr = cp;
    s.A_rowidx = ri;
    s.A_values = v;
    memcpy(cp, t.colptr, sizeof(int) * (size_t)(n + 1));
    memcpy(ri, t.rowidx, sizeof(int) * (size_t)t.nnz);
    memcpy(v, t.values, sizeof(double) * (size_t)t.nnz);

    corepcg_settings set;
    corepcg_settings_default(&set);
    set.method = COREPCG_METHOD_DIRECT;
    corepcg_solver *h = NULL;
    corepcg_create(&h);
    corepcg_info info;
    int rc = setup_for(h, &t.sys, &set);
    CHECK(rc == COREPCG_OK, "setup: rc %d (%s)", rc, corepcg_message(h));
    if (rc == COREPCG_OK)
        rc = corepcg_solve(h, t.b, NULL, ref, &info);
    /* the same pattern at other addresses, twice (the map's path too) */
    for (int step = 0; step < 2 && rc == COREPCG_OK; step++) {
        rc = corepcg_update(h, &s, &info);
        CHECK(rc == COREPCG_OK, "update %d with copies: rc %d (%s)", step, rc,
              corepcg_message(h));
        CHECK_INT(info.analysis_reused, 1);
        if (rc == COREPCG_OK)
            rc = corepcg_solve(h, t.b, NULL, x, &info);
        CHECK(bit_equal(n, x, ref), "copies, update %d: x differs by %.3g",
              step, testsys_max_diff(n, x, ref));
    }
    /* the same buffers rewritten with t2's pattern */
    memcpy(cp, t2.colptr, sizeof(int) * (size_t)(n + 1));
    memcpy(ri, t2.rowidx, sizeof(int) * (size_t)t2.nnz);
    memcpy(v, t2.values, sizeof(double) * (size_t)t2.nnz);
    if (rc == COREPCG_OK)
        rc = corepcg_update(h, &s, &info);
    CHECK(rc == COREPCG_OK, "update rewritten in place: rc %d (%s)", rc,
          corepcg_message(h));
    CHECK_INT(info.analysis_reused, 0);
    if (rc == COREPCG_OK)
        rc = corepcg_solve(h, t2.b, NULL, x, &info);
    char msg[COREPCG_MSG_SIZE];
    int rc2 = solve_fresh(&t2.sys, COREPCG_METHOD_DIRECT, t2.b, ref, &info, msg);
    CHECK(rc == COREPCG_OK && rc2 == COREPCG_OK, "rc %d, fresh %d (%s)", rc, rc2, msg);
    CHECK_LE(testsys_max_diff(n, x, ref), 1e-12 * testsys_max_abs(n, ref));
    corepcg_free(&h);
    free(cp);
    free(ri);
    free(v);
    free(ref);
    free(x);
    testsys_free(&t);
    testsys_free(&t2);
}

/* ----------------------------------------------- a diagonal left out */

/* t's CSC LOWER arrays without entry (row, row); expects setup to refuse
 * them with ERR_FORMAT and `want` in the message. */
static void expect_missing_diagonal(const testsys *t, int row, corepcg_format f,
                                    const char *want)
{
    int *cp = malloc(sizeof(int) * (size_t)(t->n + 1));
    int *ri = malloc(sizeof(int) * (size_t)t->nnz);
    int *ci = malloc(sizeof(int) * (size_t)t->nnz);
    double *v = malloc(sizeof(double) * (size_t)t->nnz);
    int m = 0;
    cp[0] = 0;
    for (int j = 0; j < t->n; j++) {
        for (int k = t->colptr[j]; k < t->colptr[j + 1]; k++)
            if (!(j == row && t->rowidx[k] == row)) {
                ri[m] = t->rowidx[k];
                ci[m] = j;
                v[m++] = t->values[k];
            }
        cp[j + 1] = m;
    }
    CHECK_INT(m, t->nnz - 1);
    corepcg_system s = t->sys;
    s.A_format = f;
    s.A_colptr = f == COREPCG_CSC ? cp : NULL;
    s.A_rowidx = ri;
    s.A_colidx = f == COREPCG_TRIPLET ? ci : NULL;
    s.A_values = v;
    s.A_nnz = f == COREPCG_TRIPLET ? m : 0;
    double *x = malloc(sizeof(double) * (size_t)t->n);
    corepcg_info info;
    char msg[COREPCG_MSG_SIZE];
    int rc = solve_fresh(&s, COREPCG_METHOD_AUTO, t->b, x, &info, msg);
    CHECK_INT(rc, COREPCG_ERR_FORMAT);
    CHECK_STR_CONTAINS(msg, want);

    /* an update with it is refused and the previous system still solves */
    corepcg_solver *h = NULL;
    corepcg_create(&h);
    rc = setup_for(h, &t->sys, NULL);
    CHECK(rc == COREPCG_OK, "setup: rc %d (%s)", rc, corepcg_message(h));
    CHECK_INT(corepcg_update(h, &s, &info), COREPCG_ERR_FORMAT);
    CHECK_STR_CONTAINS(corepcg_message(h), want);
    CHECK_INT(corepcg_solve(h, t->b, NULL, x, &info), COREPCG_OK);
    corepcg_free(&h);
    free(cp);
    free(ri);
    free(ci);
    free(v);
    free(x);
}

static void test_missing_diagonal(void)
{
    testsys t;
    if (make(&t, 14))
        return;
    int free_node = -1, fixed_node = -1;
    for (int i = 0; i < t.N; i++) {
        if (t.ndof[i] == 3 && free_node < 0)
            free_node = i;
        if (t.ndof[i] == 0 && fixed_node < 0)
            fixed_node = i;
    }
    CHECK(free_node >= 0 && fixed_node >= 0, "free %d, fixed %d", free_node,
          fixed_node);
    if (free_node < 0 || fixed_node < 0) {
        testsys_free(&t);
        return;
    }
    char want[128];
    int row = 3 * free_node + 1;
    snprintf(want, sizeof want, "no diagonal entry at row %d (node %d, coordinate y)",
             row, free_node);
    expect_missing_diagonal(&t, row, COREPCG_CSC, want);
    expect_missing_diagonal(&t, row, COREPCG_TRIPLET, want);
    row = 3 * fixed_node + 2;
    snprintf(want, sizeof want, "no diagonal entry at row %d (node %d, coordinate z)",
             row, fixed_node);
    expect_missing_diagonal(&t, row, COREPCG_CSC, want);
    testsys_free(&t);
}

int main(void)
{
    test_order_and_duplicates();
    test_stretch_pairs_are_a_set();
    test_update_compares_content();
    test_missing_diagonal();
    return test_summary("test_contract");
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_node_order.c -- the answer and the work do not depend on the order
 * the caller numbers the nodes in. The shipped bundles (ballhit 41x41,
 * grids numbered row by row) are renumbered at random -- A, b, z, x0, the
 * constraints and the stretch pairs together -- and solved by every
 * method: the renumbered answer is the original's renumbered (direct to
 * 1e-10; iterative methods within their tolerance), and icpcg, which
 * orders the free nodes itself, takes at most 1.3 times the iterations of
 * the row-ordered system (in the file's order its IC(0) took 29 against 5
 * on a 161x161 grid). Public API only. */
#include "setup_for.h"
#include "corepcg.h"
#include "test.h"
#include "testsys.h"

#include <stdlib.h>
#include <string.h>

typedef struct renumbered {
    corepcg_system sys;
    int *rows, *cols, *pairs;
    double *vals, *b, *z, *x0;
    corepcg_constraint *cons;
} renumbered;

/* v (n) moved to the new numbering: node i's 3 entries go to perm[i]. */
static double *permute_vector(const double *v, const int *perm, int N)
{
    if (!v)
        return NULL;
    double *w = malloc(sizeof(double) * 3 * (size_t)N);
    for (int i = 0; i < N; i++)
        memcpy(w + 3L * perm[i], v + 3L * i, 3 * sizeof(double));
    return w;
}

/* The bundle's system with node i renumbered perm[i]: A as lower-triangle
 * triplets, every other input moved alike. */
static void renumber(const corepcg_bundle *bu, const int *perm,
                     renumbered *out)
{
    const corepcg_system *s = &bu->system; /* CSC LOWER */
    int N = s->num_nodes, n = 3 * N, nnz = s->A_colptr[n];
    memset(out, 0, sizeof *out);
    out->rows = malloc(sizeof(int) * (size_t)nnz);
    out->cols = malloc(sizeof(int) * (size_t)nnz);
    out->vals = malloc(sizeof(double) * (size_t)nnz);
    for (int j = 0; j < n; j++)
        for (int k = s->A_colptr[j]; k < s->A_colptr[j + 1]; k++) {
            int i = s->A_rowidx[k];
            int r = 3 * perm[i / 3] + i % 3, c = 3 * perm[j / 3] + j % 3;
            out->rows[k] = r > c ? r : c;
            out->cols[k] = r > c ? c : r;
            out->vals[k] = s->A_values[k];
        }
    out->b = permute_vector(bu->b, perm, N);
    out->z = permute_vector(s->z, perm, N);
    out->x0 = permute_vector(bu->x0, perm, N);
    out->cons = malloc(sizeof *out->cons * (size_t)(s->num_constraints + 1));
    for (int k = 0; k < s->num_constraints; k++) {
        out->cons[k] = s->constraints[k];
        out->cons[k].node = perm[s->constraints[k].node];
    }
    out->pairs = malloc(sizeof(int) * 2 * (size_t)(s->num_stretch + 1));
    for (int k = 0; k < 2 * s->num_stretch; k++)
        out->pairs[k] = perm[s->stretch_pairs[k]];
    out->sys = *s;
    out->sys.A_format = COREPCG_TRIPLET;
    out->sys.A_triangle = COREPCG_LOWER;
    out->sys.A_colptr = NULL;
    out->sys.A_rowidx = out->rows;
    out->sys.A_colidx = out->cols;
    out->sys.A_values = out->vals;
    out->sys.A_nnz = nnz;
    out->sys.constraints = out->cons;
    out->sys.z = out->z;
    out->sys.stretch_pairs = out->pairs;
}

static void renumbered_free(renumbered *r)
{
    free(r->rows);
    free(r->cols);
    free(r->pairs);
    free(r->vals);
    free(r->b);
    free(r->z);
    free(r->x0);
    free(r->cons);
}

static int solve(const corepcg_system *sys, corepcg_method m, double tol,
                 const double *b, const double *x0, double *x,
                 corepcg_info *info)
{
    corepcg_settings set;
    corepcg_settings_default(&set);
    set.method = m;
    set.tol = tol;
    corepcg_solver *h = NULL;
    corepcg_create(&h);
    int rc = setup_for(h, sys, &set);
    if (rc == COREPCG_OK)
        rc = corepcg_solve(h, b, x0, x, info);
    CHECK(rc == COREPCG_OK, "%s: rc %d (%s)", corepcg_method_name(m), rc,
          corepcg_message(h));
    corepcg_free(&h);
    return rc;
}

static void check_bundle(const char *name, unsigned long seed)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/%s", COREPCG_DATA_DIR, name);
    corepcg_bundle *bu = NULL;
    char msg[COREPCG_MSG_SIZE];
    int rc = corepcg_bundle_read(dir, &bu, msg);
    CHECK(rc == COREPCG_OK, "%s: %s", dir, msg);
    if (rc != COREPCG_OK)
        return;
    int N = bu->system.num_nodes, n = 3 * N;
    int *perm = malloc(sizeof(int) * (size_t)N);
    testsys_rng rng;
    testsys_rng_seed(&rng, seed);
    for (int i = 0; i < N; i++)
        perm[i] = i;
    for (int i = N - 1; i > 0; i--) { /* Fisher-Yates */
        int j = (int)(testsys_uniform(&rng) * (i + 1));
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    renumbered r;
    renumber(bu, perm, &r);
    double *x = malloc(sizeof(double) * (size_t)n);
    double *xr = malloc(sizeof(double) * (size_t)n);
    const corepcg_method methods[] = {
        COREPCG_METHOD_DIRECT, COREPCG_METHOD_ICPCG, COREPCG_METHOD_COREPCG,
        COREPCG_METHOD_UPCG, COREPCG_METHOD_MPCG, COREPCG_METHOD_AUTO};
    for (size_t k = 0; k < sizeof methods / sizeof methods[0]; k++) {
        corepcg_method m = methods[k];
        double tol = m == COREPCG_METHOD_DIRECT ? 1e-3 : 1e-8;
        corepcg_info info, rinfo;
        if (solve(&bu->system, m, tol, bu->b, bu->x0, x, &info) ||
            solve(&r.sys, m, tol, r.b, r.x0, xr, &rinfo))
            continue;
        double *back = permute_vector(x, perm, N); /* x in the new order */
        double d = testsys_max_diff(n, xr, back) / testsys_max_abs(n, back);
        CHECK(d <= (m == COREPCG_METHOD_DIRECT ? 1e-10 : 1e-5),
              "%s %s: renumbered answer differs by %.3g", name,
              corepcg_method_name(m), d);
        if (m == COREPCG_METHOD_ICPCG)
            CHECK(rinfo.iterations <= 1.3 * info.iterations,
                  "%s icpcg: %d iterations renumbered, %d in row order",
                  name, rinfo.iterations, info.iterations);
        free(back);
    }
    free(x);
    free(xr);
    free(perm);
    renumbered_free(&r);
    corepcg_bundle_free(&bu);
}

int main(void)
{
    check_bundle("ballhit41-k60", 1);
    check_bundle("ballhit41-k6000", 2);
    return test_summary("test_node_order");
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_reduce.c -- the block import of A and the reduced matrix
 * A~ = U^T A U (Ye, Webber & Wang eq. 9a).
 *
 * Asserted: A~'s block form (cpg_rmat, what upcg and icpcg multiply
 * with) times a random vector equals U^T A U times it formed densely (A
 * from testsys's blocks, U from the library's blocks, which test_ublocks
 * checks) to 1e-13 relative, also after new values of the same pattern
 * (cpg_rmat_values) and with fixed nodes (none free: r = 0);  every input form (CSC LOWER / UPPER / BOTH, TRIPLET with
 * split duplicates in each triangle; CSC with unsorted rows and
 * duplicates) gives the same block matrix, equal to the generator's
 * blocks bit for bit; a BOTH matrix off symmetry by
 * 1e-9 relative is ERR_NOT_SYMMETRIC (1e-15 is accepted); an entry outside
 * the declared triangle or a malformed colptr is ERR_FORMAT; NaN / Inf are ERR_NOT_FINITE; an
 * index out of range is ERR_DIMENSION; the walked import map (a sorted
 * lower CSC A) gives an update's A bit for bit as the full import does
 * (also where only a node's three columns together reach its blocks),
 * and refuses a block fewer or more, unsorted rows, a duplicate entry, a
 * NaN and a missing
 * diagonal entry, also after refusals (its scratch stays clean); an
 * update that analyses anew keeps the old A's arrays as the spare when
 * they fit (and drops them when not), its answer a fresh handle's. */
#include "handle.h"
#include "internal.h"
#include "test.h"
#include "testsys.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Dense U (n x r) from the library's blocks. */
static double *dense_U(const cpg_ublocks *u)
{
    int n = 3 * u->N, r = u->r;
    double *U = calloc((size_t)n * r + 1, sizeof(double));
    for (int i = 0; i < u->N; i++)
        for (int c = 0; c < u->ndof[i]; c++)
            for (int a = 0; a < 3; a++)
                U[(size_t)(u->off[i] + c) * n + 3 * i + a] = u->U[9 * i + 3 * c + a];
    return U;
}

/* U^T A U, dense. */
static double *dense_reduced(const double *A, const double *U, int n, int r)
{
    double *AU = calloc((size_t)n * r + 1, sizeof(double));
    double *R = calloc((size_t)r * r + 1, sizeof(double));
    for (int j = 0; j < r; j++)
        for (int l = 0; l < n; l++) {
            double ulj = U[(size_t)j * n + l];
            if (ulj == 0)
                continue;
            for (int i = 0; i < n; i++)
                AU[(size_t)j * n + i] += A[(size_t)l * n + i] * ulj;
        }
    for (int j = 0; j < r; j++)
        for (int i = 0; i < r; i++) {
            double s = 0;
            for (int l = 0; l < n; l++)
                s += U[(size_t)i * n + l] * AU[(size_t)j * n + l];
            R[(size_t)j * r + i] = s;
        }
    free(AU);
    return R;
}

static double rel_diff(int count, const double *a, const double *b)
{
    double scale = testsys_max_abs(count, b);
    return testsys_max_diff(count, a, b) / (scale > 0 ? scale : 1);
}

/* The block form of A~ against the dense U^T A U, on a random vector;
 * returns the relative error. */
static double check_reduced(const testsys *t, const cpg_bmat *Ab,
                            const cpg_ublocks *u, const char *label)
{
    int n = t->n, r = u->r;
    double *A = testsys_dense_A(t), *U = dense_U(u);
    double *R = dense_reduced(A, U, n, r);
    testsys_rng rng;
    testsys_rng_seed(&rng, 99);
    double *x = malloc(sizeof(double) * (size_t)(r + 1));
    double *y = malloc(sizeof(double) * (size_t)(r + 1));
    double *yd = calloc((size_t)r + 1, sizeof(double));
    for (int k = 0; k < r; k++)
        x[k] = testsys_sym(&rng);
    cpg_rmat rm;
    CHECK_INT(cpg_rmat_build(&rm, Ab, u), COREPCG_OK);
    cpg_rmat_apply(&rm, x, y);
    cpg_rmat_free(&rm);
    for (int j = 0; j < r; j++)
        for (int i = 0; i < r; i++)
            yd[i] += R[(size_t)j * r + i] * x[j];
    double err = r > 0 ? rel_diff(r, y, yd) : 0;
    CHECK(err <= 1e-13, "%s: |A~ x - U^T A U x| / |U^T A U x| = %.3g", label,
          err);
    free(x);
    free(y);
    free(yd);
    free(A);
    free(U);
    free(R);
    return err;
}

/* New values on the same pattern: every off-diagonal block pair gets a
 * random R / R^T, every diagonal block a random symmetric change. */
static void perturb_values(testsys *t, unsigned long seed)
{
    testsys_rng rng;
    testsys_rng_seed(&rng, seed);
    for (int J = 0; J < t->N; J++)
        for (int k = t->bp[J]; k < t->bp[J + 1]; k++) {
            int I = t->bi[k];
            if (I < J)
                continue;
            double *B = t->bx + 9L * k, *Bt = (double *)testsys_block(t, J, I);
            for (int c = 0; c < 3; c++)
                for (int a = 0; a < 3; a++) {
                    if (I == J && a < c)
                        continue;
                    double d = testsys_sym(&rng);
                    B[3 * c + a] += d;
                    if (I != J || a != c)
                        Bt[3 * a + c] += d;
                }
        }
    testsys_set_form(t, COREPCG_CSC, COREPCG_LOWER);
}

static void test_random_systems(void)
{
    const struct {
        int g;
        double frac;
        unsigned long seed;
    } cases[] = {{4, 0.5, 1}, {6, 0.3, 2}, {8, 0.6, 3}, {7, 1.0, 4}, {5, 0, 5}};
    double worst = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        testsys_opts o;
        testsys_default_opts(&o, cases[c].g, cases[c].seed);
        o.frac_constrained = cases[c].frac;
        testsys t;
        if (testsys_make(&t, &o)) {
            CHECK(0, "testsys_make failed");
            continue;
        }
        cholmod_common cm;
        cpg_cholmod_start(&cm);
        cpg_bmat A, A2;
        cpg_ublocks u;
        char msg[COREPCG_MSG_SIZE] = "";
        int rc = cpg_bmat_from_system(&t.sys, &cm, &A, msg);
        CHECK(rc == COREPCG_OK, "import: %s", msg);
        int rc2 = cpg_ublocks_build(t.N, t.cons, t.ncons, &u, msg);
        CHECK(rc2 == COREPCG_OK, "ublocks: %s", msg);
        if (rc || rc2) {
            testsys_free(&t);
            cholmod_finish(&cm);
            continue;
        }
        char label[64];
        snprintf(label, sizeof label, "g %d frac %.1f", cases[c].g, cases[c].frac);
        worst = fmax(worst, check_reduced(&t, &A, &u, label));

        /* new values, same pattern */
        perturb_values(&t, 100 + cases[c].seed);
        rc = cpg_bmat_from_system(&t.sys, &cm, &A2, msg);
        CHECK(rc == COREPCG_OK, "import 2: %s", msg);
        if (rc == COREPCG_OK) {
            CHECK_INT(cpg_bmat_same_pattern(&A, &A2), 1);
            snprintf(label, sizeof label, "g %d frac %.1f new values",
                     cases[c].g, cases[c].frac);
            worst = fmax(worst, check_reduced(&t, &A2, &u, label));
            cpg_bmat_free(&A2);
        }
        cpg_bmat_free(&A);
        cpg_ublocks_free(&u);
        cholmod_finish(&cm);
        testsys_free(&t);
    }
    printf("A~ vs dense U^T A U: worst relative error %.3g\n", worst);
}

/* The last grid row fixed (trailing unknowns vanish) and everything fixed
 * (A~ is 0 x 0). */
static void test_fixed_nodes(void)
{
    testsys_opts o;
    testsys_default_opts(&o, 5, 21);
    o.frac_constrained = 0;
    testsys t;
    if (testsys_make(&t, &o)) {
        CHECK(0, "testsys_make failed");
        return;
    }
    corepcg_constraint *c = malloc(sizeof *c * (size_t)t.N);
    for (int i = 0; i < t.N; i++)
        c[i] = (corepcg_constraint){.node = t.N - 1 - i, .ndof = 0};
    cholmod_common cm;
    cpg_cholmod_start(&cm);
    cpg_bmat A;
    char msg[COREPCG_MSG_SIZE] = "";
    CHECK_INT(cpg_bmat_from_system(&t.sys, &cm, &A, msg), COREPCG_OK);
    for (int count = 5; count <= t.N; count += t.N - 5) {
        cpg_ublocks u;
        CHECK_INT(cpg_ublocks_build(t.N, c, count, &u, msg), COREPCG_OK);
        free(t.cons);
        t.cons = malloc(sizeof *c * (size_t)t.N);
        memcpy(t.cons, c, sizeof *c * (size_t)count);
        t.ncons = count;
        t.r = 0;
        for (int i = 0; i < t.N; i++) {
            t.ndof[i] = i >= t.N - count ? 0 : 3;
            t.r += t.ndof[i];
        }
        CHECK_INT(u.r, t.r);
        check_reduced(&t, &A, &u, count < t.N ? "last row fixed" : "all fixed");
        cpg_ublocks_free(&u);
    }
    free(c);
    cpg_bmat_free(&A);
    cholmod_finish(&cm);
    testsys_free(&t);
}

/* icpcg's handle analyses anew when a node becomes fixed; the old A's
 * arrays then stay as the spare the next import fills (a review: they
 * were freed, and on drape, where sticking nodes change the fixed set
 * every step, each import faulted A into fresh memory), unless the new A
 * has another block count. Each answer equals a fresh handle's. */
static void test_spare_across_analysis(void)
{
    testsys_opts o;
    testsys_default_opts(&o, 5, 33);
    testsys t;
    if (testsys_make(&t, &o)) {
        CHECK(0, "testsys_make failed");
        return;
    }
    corepcg_settings s;
    corepcg_settings_default(&s);
    s.method = COREPCG_METHOD_ICPCG;
    s.tol = 1e-10;
    corepcg_solver *h = NULL;
    corepcg_create(&h);
    CHECK_INT(corepcg_setup(h, &t.sys, &s), COREPCG_OK);
    const long blocks = t.bp[t.N];
    for (int step = 0; step < 3; step++) {
        if (step < 2) { /* one more node fixed: the same A */
            corepcg_constraint *c = malloc(sizeof *c * (size_t)(t.ncons + 1));
            memcpy(c, t.cons, sizeof *c * (size_t)t.ncons);
            int free_node = 0;
            while (t.ndof[free_node] != 3)
                free_node++;
            c[t.ncons] = (corepcg_constraint){.node = free_node, .ndof = 0};
            CHECK_INT(testsys_set_constraints(&t, c, t.ncons + 1), 0);
            free(c);
        } else { /* and a contact: one block pair more */
            double K[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
            CHECK_INT(testsys_add_coupling(&t, 0, t.N - 1, K), 0);
            CHECK_INT(testsys_set_form(&t, COREPCG_CSC, COREPCG_LOWER), 0);
        }
        corepcg_info info;
        CHECK_INT(corepcg_update(h, &t.sys, &info), COREPCG_OK);
        CHECK(!info.analysis_reused, "step %d: icpcg kept its analysis", step);
        long want = step < 2 ? blocks : 0;
        CHECK(cpg_solver_spare_blocks(h) == want, "step %d: spare holds %ld "
              "blocks, expected %ld", step, cpg_solver_spare_blocks(h), want);
        double *x = malloc(sizeof(double) * (size_t)t.n);
        double *y = malloc(sizeof(double) * (size_t)t.n);
        CHECK_INT(corepcg_solve(h, t.b, NULL, x, NULL), COREPCG_OK);
        corepcg_solver *fresh = NULL;
        corepcg_create(&fresh);
        CHECK_INT(corepcg_setup(fresh, &t.sys, &s), COREPCG_OK);
        CHECK_INT(corepcg_solve(fresh, t.b, NULL, y, NULL), COREPCG_OK);
        CHECK(memcmp(x, y, sizeof(double) * (size_t)t.n) == 0,
              "step %d: kept and fresh answers differ", step);
        corepcg_free(&fresh);
        free(x);
        free(y);
    }
    corepcg_free(&h);
    testsys_free(&t);
}

/* 1 when the block matrix equals testsys's blocks exactly. */
static int same_as_generator(const cpg_bmat *A, const testsys *t, double *diff)
{
    *diff = INFINITY;
    if (A->nb != t->N || memcmp(A->p, t->bp, sizeof(int) * (size_t)(t->N + 1)) ||
        memcmp(A->i, t->bi, sizeof(int) * (size_t)t->bp[t->N]))
        return 0;
    *diff = testsys_max_diff(9 * t->bp[t->N], A->x, t->bx);
    return 1;
}

static void test_forms(void)
{
    testsys_opts o;
    testsys_default_opts(&o, 6, 31);
    testsys t;
    if (testsys_make(&t, &o)) {
        CHECK(0, "testsys_make failed");
        return;
    }
    cholmod_common cm;
    cpg_cholmod_start(&cm);
    const struct {
        corepcg_format f;
        corepcg_triangle tri;
        const char *label;
    } forms[] = {
        {COREPCG_CSC, COREPCG_LOWER, "CSC LOWER"},
        {COREPCG_CSC, COREPCG_UPPER, "CSC UPPER"},
        {COREPCG_CSC, COREPCG_BOTH, "CSC BOTH"},
        {COREPCG_TRIPLET, COREPCG_LOWER, "TRIPLET LOWER"},
        {COREPCG_TRIPLET, COREPCG_UPPER, "TRIPLET UPPER"},
        {COREPCG_TRIPLET, COREPCG_BOTH, "TRIPLET BOTH"},
    };
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        testsys_set_form(&t, forms[k].f, forms[k].tri);
        cpg_bmat A;
        char msg[COREPCG_MSG_SIZE] = "";
        int rc = cpg_bmat_from_system(&t.sys, &cm, &A, msg);
        CHECK(rc == COREPCG_OK, "%s: rc %d (%s)", forms[k].label, rc, msg);
        if (rc)
            continue;
        double diff;
        int same = same_as_generator(&A, &t, &diff);
        CHECK(same, "%s: block pattern differs from the generator's",
              forms[k].label);
        CHECK(diff <= 0, "%s: values differ by %.3g", forms[k].label, diff);
        cpg_bmat_free(&A);
    }

    /* CSC with rows in reverse order, or with every column's first entry
     * split into two halves: corepcg.h asks for neither sorted nor unique
     * rows, and LOWER / UPPER / TRIPLET sum duplicates */
    for (int variant = 0; variant < 2; variant++)
        for (int tri = COREPCG_LOWER; tri <= COREPCG_BOTH; tri++) {
            const char *vname = variant ? "with duplicates" : "unsorted";
            const char *tname = tri == COREPCG_LOWER ? "LOWER"
                              : tri == COREPCG_UPPER ? "UPPER" : "BOTH";
            testsys_set_form(&t, COREPCG_CSC, (corepcg_triangle)tri);
            int n = t.n, m = 0;
            int *cp = malloc(sizeof(int) * (size_t)(n + 1));
            int *ri = malloc(sizeof(int) * (size_t)(t.nnz + n));
            double *v = malloc(sizeof(double) * (size_t)(t.nnz + n));
            cp[0] = 0;
            for (int j = 0; j < n; j++) {
                for (int e = 0; e < t.colptr[j + 1] - t.colptr[j]; e++) {
                    int k = variant ? t.colptr[j] + e : t.colptr[j + 1] - 1 - e;
                    int split = variant && e == 0;
                    ri[m] = t.rowidx[k];
                    v[m++] = split ? 0.5 * t.values[k] : t.values[k];
                    if (split) {
                        ri[m] = t.rowidx[k];
                        v[m++] = 0.5 * t.values[k];
                    }
                }
                cp[j + 1] = m;
            }
            corepcg_system s = t.sys;
            s.A_colptr = cp;
            s.A_rowidx = ri;
            s.A_values = v;
            cpg_bmat A;
            char msg[COREPCG_MSG_SIZE] = "";
            int rc = cpg_bmat_from_system(&s, &cm, &A, msg);
            CHECK(rc == COREPCG_OK, "CSC %s %s: rc %d (%s)", tname, vname, rc,
                  msg);
            if (rc == COREPCG_OK) {
                double diff;
                int same = same_as_generator(&A, &t, &diff);
                CHECK(same && diff <= 0, "CSC %s %s: same pattern %d, values "
                      "differ by %.3g", tname, vname, same, diff);
                cpg_bmat_free(&A);
            }
            free(cp);
            free(ri);
            free(v);
        }
    cholmod_finish(&cm);
    testsys_free(&t);
}

/* One import that must fail with `code` and a message containing part. */
static void expect_import(const corepcg_system *sys, int code, const char *part,
                          const char *label)
{
    cholmod_common cm;
    cpg_cholmod_start(&cm);
    cpg_bmat A;
    char msg[COREPCG_MSG_SIZE] = "";
    int rc = cpg_bmat_from_system(sys, &cm, &A, msg);
    CHECK(rc == code, "%s: rc %d, expected %d (%s)", label, rc, code, msg);
    if (part)
        CHECK_STR_CONTAINS(msg, part);
    if (rc == COREPCG_OK)
        cpg_bmat_free(&A);
    cholmod_finish(&cm);
}

/* Index of the stored entry (row, col) in t's current arrays, or -1. */
static int entry_at(const testsys *t, int row, int col)
{
    for (int k = 0; k < t->nnz; k++) {
        int c = t->sys.A_format == COREPCG_CSC ? -1 : t->colidx[k];
        if (t->sys.A_format == COREPCG_CSC) {
            /* find k's column */
            int j = 0;
            while (t->colptr[j + 1] <= k)
                j++;
            c = j;
        }
        if (t->rowidx[k] == row && c == col)
            return k;
    }
    return -1;
}

static void test_bad_input(void)
{
    testsys_opts o;
    testsys_default_opts(&o, 4, 41);
    testsys t;
    if (testsys_make(&t, &o)) {
        CHECK(0, "testsys_make failed");
        return;
    }
    int n = t.n;

    /* BOTH, off symmetry: (0, 3) changed, (3, 0) not */
    testsys_set_form(&t, COREPCG_CSC, COREPCG_BOTH);
    int k03 = entry_at(&t, 0, 3), k30 = entry_at(&t, 3, 0);
    CHECK(k03 >= 0 && k30 >= 0, "entries (0,3) and (3,0) exist");
    double big = testsys_max_abs(t.nnz, t.values), keep = t.values[k03];
    t.values[k03] = keep + 1e-9 * big;
    expect_import(&t.sys, COREPCG_ERR_NOT_SYMMETRIC, "symmetric", "BOTH 1e-9 off");
    t.values[k03] = keep + 1e-15 * big;
    expect_import(&t.sys, COREPCG_OK, NULL, "BOTH 1e-15 off (round-off)");
    t.values[k03] = keep;
    testsys_set_form(&t, COREPCG_TRIPLET, COREPCG_BOTH);
    int kt = entry_at(&t, 0, 3);
    t.values[kt] += 1e-6 * big;
    expect_import(&t.sys, COREPCG_ERR_NOT_SYMMETRIC, "symmetric", "TRIPLET BOTH");

    /* an entry outside the declared triangle */
    testsys_set_form(&t, COREPCG_CSC, COREPCG_LOWER);
    /* column 3's first entry (its diagonal) moved to row 0: upper */
    int first3 = t.colptr[3];
    int save = t.rowidx[first3];
    t.rowidx[first3] = 0;
    expect_import(&t.sys, COREPCG_ERR_FORMAT, "triangle", "upper entry in LOWER");
    t.rowidx[first3] = save;
    testsys_set_form(&t, COREPCG_CSC, COREPCG_UPPER);
    int last0 = t.colptr[1] - 1;
    save = t.rowidx[last0];
    t.rowidx[last0] = 5;
    expect_import(&t.sys, COREPCG_ERR_FORMAT, "triangle", "lower entry in UPPER");
    t.rowidx[last0] = save;
    testsys_set_form(&t, COREPCG_TRIPLET, COREPCG_LOWER);
    int swap = t.rowidx[0];
    t.rowidx[0] = t.colidx[0];
    t.colidx[0] = swap;
    if (t.rowidx[0] != t.colidx[0])
        expect_import(&t.sys, COREPCG_ERR_FORMAT, "triangle",
                      "upper triplet in LOWER");

    /* NaN and Inf */
    testsys_set_form(&t, COREPCG_CSC, COREPCG_LOWER);
    t.values[7] = NAN;
    expect_import(&t.sys, COREPCG_ERR_NOT_FINITE, "finite", "NaN in CSC");
    t.values[7] = -INFINITY;
    expect_import(&t.sys, COREPCG_ERR_NOT_FINITE, "finite", "-Inf in CSC");
    testsys_set_form(&t, COREPCG_TRIPLET, COREPCG_BOTH);
    t.values[t.nnz - 1] = NAN;
    expect_import(&t.sys, COREPCG_ERR_NOT_FINITE, "finite", "NaN in TRIPLET");

    /* indices out of range */
    testsys_set_form(&t, COREPCG_CSC, COREPCG_LOWER);
    int lastk = t.colptr[n] - 1;
    save = t.rowidx[lastk];
    t.rowidx[lastk] = n;
    expect_import(&t.sys, COREPCG_ERR_DIMENSION, NULL, "CSC row n");
    t.rowidx[lastk] = -1;
    expect_import(&t.sys, COREPCG_ERR_DIMENSION, NULL, "CSC row -1");
    t.rowidx[lastk] = save;
    testsys_set_form(&t, COREPCG_TRIPLET, COREPCG_BOTH);
    t.colidx[3] = n + 7;
    expect_import(&t.sys, COREPCG_ERR_DIMENSION, NULL, "TRIPLET col n+7");
    t.colidx[3] = -2;
    expect_import(&t.sys, COREPCG_ERR_DIMENSION, NULL, "TRIPLET col -2");
    testsys_set_form(&t, COREPCG_TRIPLET, COREPCG_LOWER);
    t.rowidx[5] = n;
    expect_import(&t.sys, COREPCG_ERR_DIMENSION, NULL, "TRIPLET row n");

    /* the arrays themselves */
    testsys_set_form(&t, COREPCG_CSC, COREPCG_LOWER);
    corepcg_system s = t.sys;
    s.A_rowidx = NULL;
    expect_import(&s, COREPCG_ERR_ARGUMENT, NULL, "NULL rowidx");
    s = t.sys;
    s.num_nodes = 0;
    expect_import(&s, COREPCG_ERR_ARGUMENT, NULL, "0 nodes");
    s = t.sys;
    s.A_triangle = (corepcg_triangle)7;
    expect_import(&s, COREPCG_ERR_ARGUMENT, NULL, "triangle 7");
    s = t.sys;
    s.A_format = (corepcg_format)5;
    expect_import(&s, COREPCG_ERR_ARGUMENT, NULL, "format 5");
    expect_import(NULL, COREPCG_ERR_ARGUMENT, NULL, "NULL system");
    /* column pointers */
    int *cp = malloc(sizeof(int) * (size_t)(n + 1));
    memcpy(cp, t.colptr, sizeof(int) * (size_t)(n + 1));
    s = t.sys;
    s.A_colptr = cp;
    cp[0] = 1;
    expect_import(&s, COREPCG_ERR_FORMAT, "colptr", "colptr[0] = 1");
    cp[0] = 0;
    cp[5] = cp[4] - 1;
    expect_import(&s, COREPCG_ERR_FORMAT, "colptr", "decreasing colptr");
    free(cp);
    testsys_set_form(&t, COREPCG_TRIPLET, COREPCG_LOWER);
    s = t.sys;
    s.A_nnz = -3;
    expect_import(&s, COREPCG_ERR_ARGUMENT, NULL, "A_nnz -3");
    /* a node with no entries at all: no diagonal block */
    s = t.sys;
    int m = 0;
    int *ri = malloc(sizeof(int) * (size_t)t.nnz), *ci = malloc(sizeof(int) * (size_t)t.nnz);
    double *v = malloc(sizeof(double) * (size_t)t.nnz);
    for (int k = 0; k < t.nnz; k++)
        if (t.rowidx[k] / 3 != 2 && t.colidx[k] / 3 != 2) {
            ri[m] = t.rowidx[k];
            ci[m] = t.colidx[k];
            v[m++] = t.values[k];
        }
    s.A_rowidx = ri;
    s.A_colidx = ci;
    s.A_values = v;
    s.A_nnz = m;
    expect_import(&s, COREPCG_ERR_FORMAT, "no diagonal entry at row 6 (node 2, coordinate x)",
                  "node 2 without entries");
    free(ri);
    free(ci);
    free(v);
    testsys_free(&t);
}

/* ------------------------------------------------- the walked import map */

/* A lower CSC copy of t's A with entry `drop` (an index into t's arrays,
 * or -1) left out, and an entry v at (er, ec) added (er < 0: none); rows
 * stay sorted unless reverse_col >= 0, whose column is reversed. */
typedef struct csc_variant {
    int *p, *i;
    double *x;
} csc_variant;

static void make_variant(const testsys *t, const int *drop, int ndrop,
                         int er, int ec, double v, int reverse_col,
                         csc_variant *c)
{
    int n = t->n;
    c->p = calloc((size_t)n + 1, sizeof(int));
    c->i = malloc(sizeof(int) * ((size_t)t->nnz + 1));
    c->x = malloc(sizeof(double) * ((size_t)t->nnz + 1));
    int q = 0;
    for (int j = 0; j < n; j++) {
        int start = q;
        for (int k = t->colptr[j]; k < t->colptr[j + 1]; k++) {
            int skip = 0;
            for (int d = 0; d < ndrop; d++)
                skip |= drop[d] == k;
            if (j == ec && er >= 0 && t->rowidx[k] > er &&
                (q == start || c->i[q - 1] < er)) {
                c->i[q] = er;
                c->x[q++] = v;
            }
            if (!skip) {
                c->i[q] = t->rowidx[k];
                c->x[q++] = t->values[k];
            }
        }
        if (j == ec && er >= 0 && (q == start || c->i[q - 1] < er)) {
            c->i[q] = er;
            c->x[q++] = v;
        }
        if (j == reverse_col)
            for (int a = start, b = q - 1; a < b; a++, b--) {
                int ti = c->i[a];
                double tx = c->x[a];
                c->i[a] = c->i[b];
                c->x[a] = c->x[b];
                c->i[b] = ti;
                c->x[b] = tx;
            }
        c->p[j + 1] = q;
    }
}

static void free_variant(csc_variant *c)
{
    free(c->p);
    free(c->i);
    free(c->x);
}

static int bmat_equal(const cpg_bmat *a, const cpg_bmat *b)
{
    long blocks = a->p[a->nb];
    return a->nb == b->nb && cpg_bmat_same_pattern(a, b) &&
           memcmp(a->x, b->x, 9 * sizeof(double) * (size_t)blocks) == 0;
}

/* Through the map of prev (t's A) with the variant's arrays: 1 taken
 * (then out must equal the variant's full import, bit for bit), 0 not. */
static int walk_variant(const testsys *t, const cpg_import_map *m,
                        const cpg_bmat *prev, const csc_variant *c,
                        const char *what)
{
    corepcg_system s = t->sys;
    s.A_colptr = c->p;
    s.A_rowidx = c->i;
    s.A_values = c->x;
    cpg_bmat out, full;
    int taken = cpg_import_map_values(m, &s, prev, NULL, &out);
    if (taken) {
        char msg[COREPCG_MSG_SIZE];
        int rc = cpg_bmat_from_system(&s, NULL, &full, msg);
        CHECK(rc == COREPCG_OK, "%s: the full import refuses it: %s", what, msg);
        if (rc == COREPCG_OK)
            CHECK(bmat_equal(&out, &full), "%s: the walk's A differs from "
                  "the full import's", what);
        cpg_bmat_free(&full);
        cpg_bmat_free(&out);
    }
    return taken;
}

/* The first entry of an off-diagonal block that has another entry in
 * the same column (so that leaving it out keeps the block), and its
 * column. */
static int entry_sharing_block(const testsys *t, int *k_out, int *j_out)
{
    for (int j = 0; j < t->n; j++)
        for (int k = t->colptr[j]; k + 1 < t->colptr[j + 1]; k++)
            if (t->rowidx[k] / 3 > j / 3 &&
                t->rowidx[k] / 3 == t->rowidx[k + 1] / 3) {
                *k_out = k;
                *j_out = j;
                return 1;
            }
    return 0;
}

/* One node, A diagonal, its arrays exactly 3 entries long; the next
 * step's colptr {0, 1, 1000, 3}, a column ending past colptr[n]: the walk
 * refuses it without reading past the arrays (an outside review: it read
 * on towards 1000 and crashed where the caller's arrays end at a page;
 * the sanitizer build sees any read past them). */
static void test_walk_colptr_past_end(void)
{
    int colptr[4] = {0, 1, 2, 3}, *rowidx = malloc(3 * sizeof(int));
    double *values = malloc(3 * sizeof(double));
    for (int k = 0; k < 3; k++) {
        rowidx[k] = k;
        values[k] = 2.0;
    }
    corepcg_system sys = {.num_nodes = 1, .A_format = COREPCG_CSC,
        .A_triangle = COREPCG_LOWER, .A_colptr = colptr, .A_rowidx = rowidx,
        .A_values = values};
    char msg[COREPCG_MSG_SIZE];
    cpg_bmat A, out;
    cpg_import_map *m = NULL;
    CHECK(cpg_bmat_from_system(&sys, NULL, &A, msg) == COREPCG_OK, "%s", msg);
    CHECK(cpg_import_map_build(&sys, &A, 1, &m) == COREPCG_OK && m,
          "no walked map for a diagonal lower CSC A");
    if (m) {
        int bad[4] = {0, 1, 1000, 3};
        sys.A_colptr = bad;
        int taken = cpg_import_map_values(m, &sys, &A, NULL, &out);
        CHECK(!taken, "a column ending past colptr[n] taken");
        if (taken)
            cpg_bmat_free(&out);
        cpg_import_map_free(&m);
    }
    cpg_bmat_free(&A);
    free(rowidx);
    free(values);
}

/* A lower CSC A with sorted rows gets the walked map at setup
 * (walk_only); an update's values through it equal the full import's bit
 * for bit whenever it takes them, and it refuses every input whose full
 * import would give another block pattern or an error. */
static void test_walked_map(void)
{
    testsys t;
    testsys_opts o;
    testsys_default_opts(&o, 5, 41);
    if (testsys_make(&t, &o) != 0) {
        CHECK(0, "testsys_make failed");
        return;
    }
    char msg[COREPCG_MSG_SIZE];
    cpg_bmat A;
    CHECK(cpg_bmat_from_system(&t.sys, NULL, &A, msg) == COREPCG_OK, "%s", msg);
    cpg_import_map *m = NULL;
    CHECK(cpg_import_map_build(&t.sys, &A, 1, &m) == COREPCG_OK && m,
          "no walked map for a sorted lower CSC A");
    if (!m) {
        cpg_bmat_free(&A);
        testsys_free(&t);
        return;
    }
    csc_variant c;
    /* new values, same pattern */
    make_variant(&t, NULL, 0, -1, -1, 0, -1, &c);
    for (int k = 0; k < t.nnz; k++)
        c.x[k] *= 1.0 + 0.01 * (k % 7);
    CHECK(walk_variant(&t, m, &A, &c, "new values"), "new values not taken");
    free_variant(&c);
    /* one entry fewer, its block kept: the same blocks */
    int k1 = 0, j1 = 0;
    CHECK(entry_sharing_block(&t, &k1, &j1), "no block with two entries");
    make_variant(&t, &k1, 1, -1, -1, 0, -1, &c);
    CHECK(walk_variant(&t, m, &A, &c, "an entry fewer"), "an entry fewer "
          "in a block that keeps others: not taken");
    free_variant(&c);
    /* no scalar column of a node column reaches all its blocks, their
     * three together do: node column J's first two blocks below the
     * diagonal, I1 without its entries of column 3 J, I2 without those of
     * columns 3 J + 1 and 3 J + 2 -- the same blocks */
    {
        int J = -1, I1 = -1, I2 = -1;
        for (int N = 0; N < t.N && J < 0; N++) {
            I1 = I2 = -1;
            for (int k = t.colptr[3 * N]; k < t.colptr[3 * N + 1]; k++) {
                int I = t.rowidx[k] / 3;
                if (I > N && I1 < 0)
                    I1 = I;
                else if (I > I1 && I1 >= 0 && I2 < 0)
                    I2 = I;
            }
            if (I2 >= 0)
                J = N;
        }
        CHECK(J >= 0, "no node column with two blocks below its diagonal");
        int split[27], ns = 0;
        for (int c3 = 0; c3 < 3 && J >= 0; c3++)
            for (int k = t.colptr[3 * J + c3]; k < t.colptr[3 * J + c3 + 1]; k++)
                if (t.rowidx[k] / 3 == (c3 == 0 ? I1 : I2) && ns < 27)
                    split[ns++] = k;
        make_variant(&t, split, ns, -1, -1, 0, -1, &c);
        CHECK(walk_variant(&t, m, &A, &c, "blocks split over the columns"),
              "blocks that only the three columns together reach: not taken");
        free_variant(&c);
    }
    /* every entry of one off-diagonal block left out: another pattern
     * (twice: a refusal must leave the map's scratch clean) */
    int drop[9], nd = 0, node_col = j1 / 3, node_row = t.rowidx[k1] / 3;
    for (int j = 3 * node_col; j < 3 * node_col + 3; j++)
        for (int k = t.colptr[j]; k < t.colptr[j + 1]; k++)
            if (t.rowidx[k] / 3 == node_row && nd < 9)
                drop[nd++] = k;
    make_variant(&t, drop, nd, -1, -1, 0, -1, &c);
    for (int rep = 0; rep < 2; rep++)
        CHECK(!walk_variant(&t, m, &A, &c, "a block fewer"),
              "a block left out taken (time %d)", rep + 1);
    free_variant(&c);
    /* an entry in a block A does not have: node 0 and the last node */
    CHECK(testsys_block(&t, t.N - 1, 0) == NULL, "corner nodes coupled");
    make_variant(&t, NULL, 0, t.n - 1, 0, 1e-3, -1, &c);
    CHECK(!walk_variant(&t, m, &A, &c, "a block more"), "a new block taken");
    free_variant(&c);
    /* a column's rows reversed: the full import takes it, the walk not */
    make_variant(&t, NULL, 0, -1, -1, 0, 3, &c);
    CHECK(!walk_variant(&t, m, &A, &c, "reversed rows"), "unsorted rows taken");
    {
        corepcg_system s = t.sys;
        s.A_colptr = c.p;
        s.A_rowidx = c.i;
        s.A_values = c.x;
        cpg_import_map *m2 = NULL;
        CHECK(cpg_import_map_build(&s, &A, 1, &m2) == COREPCG_OK && !m2,
              "a walked map for unsorted rows");
        CHECK(cpg_import_map_build(&s, &A, 0, &m2) == COREPCG_OK && m2,
              "no copied map for unsorted rows");
        CHECK(walk_variant(&t, m2, &A, &c, "reversed rows, copied map"),
              "the copied map refuses its own pattern");
        cpg_import_map_free(&m2);
    }
    free_variant(&c);
    /* entry k1 split into two halves: a duplicate, which the full import
     * sums; the walk takes strictly increasing rows only */
    {
        csc_variant d;
        d.p = malloc(sizeof(int) * ((size_t)t.n + 1));
        d.i = malloc(sizeof(int) * ((size_t)t.nnz + 1));
        d.x = malloc(sizeof(double) * ((size_t)t.nnz + 1));
        for (int j = 0; j <= t.n; j++)
            d.p[j] = t.colptr[j] + (j > j1);
        for (int k = 0, q = 0; k < t.nnz; k++) {
            d.i[q] = t.rowidx[k];
            d.x[q++] = k == k1 ? 0.5 * t.values[k] : t.values[k];
            if (k == k1) {
                d.i[q] = t.rowidx[k];
                d.x[q++] = 0.5 * t.values[k];
            }
        }
        CHECK(!walk_variant(&t, m, &A, &d, "a duplicate"), "a duplicate taken");
        free_variant(&d);
    }
    /* a NaN, and a diagonal entry left out */
    make_variant(&t, NULL, 0, -1, -1, 0, -1, &c);
    c.x[c.p[4] + 1] = NAN;
    CHECK(!walk_variant(&t, m, &A, &c, "NaN"), "a NaN taken");
    free_variant(&c);
    int diag = t.colptr[5]; /* column 5's first row is its diagonal */
    CHECK_INT(t.rowidx[diag], 5);
    make_variant(&t, &diag, 1, -1, -1, 0, -1, &c);
    CHECK(!walk_variant(&t, m, &A, &c, "no diagonal"), "a missing diagonal "
          "entry taken");
    free_variant(&c);
    /* and the plain system again, after the refusals */
    make_variant(&t, NULL, 0, -1, -1, 0, -1, &c);
    CHECK(walk_variant(&t, m, &A, &c, "again"), "the same arrays not taken "
          "after refusals");
    free_variant(&c);
    cpg_import_map_free(&m);
    cpg_bmat_free(&A);
    testsys_free(&t);
}

int main(void)
{
    test_spare_across_analysis();
    test_random_systems();
    test_fixed_nodes();
    test_forms();
    test_bad_input();
    test_walked_map();
    test_walk_colptr_past_end();
    return test_summary("test_reduce");
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_factor.c -- the CHOLMOD wrapper: every ordering x factor kind
 * solves a random SPD grid matrix to round-off, a repeated solve is
 * bit-identical and allocates nothing, refactoring reuses the analysis,
 * and an indefinite matrix is reported with the caller's code; the
 * node-graph analysis really uses the ordering asked for (AMD, METIS and
 * NESDIS give three different orders) and keeps each node's unknowns
 * together; each analysis refuses a common not started for it. */
#include "internal.h"
#include "test.h"

#include <string.h>

#define GRID 20   /* 400 unknowns */

/* Every allocation CHOLMOD makes, counted (Common->malloc_count nets
 * allocations against frees, so it cannot see a temporary). The test may
 * set the process-wide hooks; the library never does. */
static long allocations;

static void *counting_malloc(size_t size)
{
    allocations++;
    return malloc(size);
}

static void *counting_calloc(size_t count, size_t size)
{
    allocations++;
    return calloc(count, size);
}

static void *counting_realloc(void *p, size_t size)
{
    allocations++;
    return realloc(p, size);
}

static unsigned long rng_state = 12345;

static double rng_uniform(void)   /* in (0, 1), deterministic */
{
    rng_state = rng_state * 6364136223846793005UL + 1442695040888963407UL;
    return ((double)(rng_state >> 11) + 0.5) / 9007199254740992.0;
}

/* A weighted 2D grid Laplacian plus a random positive diagonal, both
 * triangles stored, rows sorted, stype -1. Values depend on `seed` only. */
static cholmod_sparse *grid_matrix(unsigned long seed, cholmod_common *cm)
{
    int n = GRID * GRID;
    cholmod_sparse *M = cholmod_allocate_sparse(n, n, 5 * (size_t)n, 1,
                                                1, -1, CHOLMOD_REAL, cm);
    if (!M)
        return NULL;
    rng_state = seed;
    /* Edge weights: right edge of node k in wr[k], up edge in wu[k]. */
    double wr[GRID * GRID], wu[GRID * GRID];
    for (int k = 0; k < n; k++) {
        wr[k] = 0.5 + rng_uniform();
        wu[k] = 0.5 + rng_uniform();
    }
    int *Mp = M->p, *Mi = M->i;
    double *Mx = M->x;
    int nz = 0;
    for (int j = 0; j < n; j++) {
        int gx = j % GRID, gy = j / GRID;
        Mp[j] = nz;
        double diag = 1.0 + rng_uniform();   /* the "+ identity" part */
        /* neighbours in increasing row order: down, left, self, right, up */
        if (gy > 0) {
            Mi[nz] = j - GRID; Mx[nz++] = -wu[j - GRID]; diag += wu[j - GRID];
        }
        if (gx > 0) {
            Mi[nz] = j - 1; Mx[nz++] = -wr[j - 1]; diag += wr[j - 1];
        }
        int self = nz++;
        Mi[self] = j;
        if (gx < GRID - 1) {
            Mi[nz] = j + 1; Mx[nz++] = -wr[j]; diag += wr[j];
        }
        if (gy < GRID - 1) {
            Mi[nz] = j + GRID; Mx[nz++] = -wu[j]; diag += wu[j];
        }
        Mx[self] = diag;
    }
    Mp[n] = nz;
    return M;
}

/* y = M x with both triangles stored. */
static void mult(const cholmod_sparse *M, const double *x, double *y)
{
    const int *Mp = M->p, *Mi = M->i;
    const double *Mx = M->x;
    for (size_t r = 0; r < M->nrow; r++)
        y[r] = 0.0;
    for (size_t j = 0; j < M->ncol; j++)
        for (int k = Mp[j]; k < Mp[j + 1]; k++)
            y[Mi[k]] += Mx[k] * x[j];
}

static double rel_residual(const cholmod_sparse *M, const double *x,
                           const double *b)
{
    int n = (int)M->nrow;
    double y[GRID * GRID], rr = 0.0, bb = 0.0;
    mult(M, x, y);
    for (int k = 0; k < n; k++) {
        rr += (b[k] - y[k]) * (b[k] - y[k]);
        bb += b[k] * b[k];
    }
    return sqrt(rr / bb);
}

static double *diag_entry(cholmod_sparse *M, int j)
{
    int *Mp = M->p, *Mi = M->i;
    for (int k = Mp[j]; k < Mp[j + 1]; k++)
        if (Mi[k] == j)
            return (double *)M->x + k;
    return NULL;
}

static void test_code_mapping(void)
{
    cholmod_common cm;
    CHECK_INT(cpg_cholmod_start(&cm), COREPCG_OK);
    CHECK_INT(cm.print, 0);
    cm.status = CHOLMOD_OK;
    CHECK_INT(cpg_cholmod_code(&cm), COREPCG_OK);
    cm.status = CHOLMOD_DSMALL;
    CHECK_INT(cpg_cholmod_code(&cm), COREPCG_OK);
    cm.status = CHOLMOD_NOT_POSDEF;
    CHECK_INT(cpg_cholmod_code(&cm), COREPCG_ERR_NOT_SPD);
    cm.status = CHOLMOD_OUT_OF_MEMORY;
    CHECK_INT(cpg_cholmod_code(&cm), COREPCG_ERR_NO_MEMORY);
    cm.status = CHOLMOD_TOO_LARGE;
    CHECK_INT(cpg_cholmod_code(&cm), COREPCG_ERR_TOO_LARGE);
    cm.status = CHOLMOD_INVALID;
    CHECK_INT(cpg_cholmod_code(&cm), COREPCG_ERR_CHOLMOD);
    cm.status = CHOLMOD_NOT_INSTALLED;
    CHECK_INT(cpg_cholmod_code(&cm), COREPCG_ERR_CHOLMOD);
    CHECK_INT(cpg_cholmod_code(NULL), COREPCG_ERR_ARGUMENT);
    cm.status = CHOLMOD_OK;
    cholmod_finish(&cm);
}

/* The analysis the library makes (cpg_factor_analyze_nodes), of a scalar
 * matrix: every unknown its own node; the factor kind is cm's. */
static int analyze(cpg_factor *f, cholmod_sparse *M, corepcg_ordering ord,
                   cholmod_common *cm, char *msg)
{
    static int off[GRID * GRID + 1];
    int n = (int)M->ncol;
    for (int j = 0; j <= n; j++)
        off[j] = j;
    return cpg_factor_analyze_nodes(f, M, off, n, ord, cm, msg);
}

/* One ordering x kind: factor, solve, repeat, refactor, indefinite. */
static void test_combination(corepcg_ordering ord, corepcg_factor kind)
{
    const char *name = corepcg_ordering_name(ord);
    const char *kname = corepcg_factor_name(kind);
    cholmod_common cm;
    char msg[COREPCG_MSG_SIZE] = "";
    CHECK_INT(cpg_factor_start_nodes(&cm, kind, msg), COREPCG_OK);
    cholmod_sparse *M = grid_matrix(1, &cm);
    CHECK(M != NULL, "grid matrix");
    if (!M)
        return;
    int n = (int)M->nrow;
    double b[GRID * GRID], x[GRID * GRID], x2[GRID * GRID];
    rng_state = 99;
    for (int k = 0; k < n; k++)
        b[k] = rng_uniform() - 0.5;

    cpg_factor f;
    memset(&f, 0, sizeof f);
    int code = analyze(&f, M, ord, &cm, msg);
    CHECK(code == COREPCG_OK, "%s/%s analyse: %d %s", name, kname, code, msg);
    code = cpg_factor_numeric(&f, M, COREPCG_ERR_CORE_NOT_SPD, &cm, msg);
    CHECK(code == COREPCG_OK, "%s/%s factor: %d %s", name, kname, code, msg);

    /* the kind asked for is the kind made */
    if (kind == COREPCG_FACTOR_LDL)
        CHECK(!f.supernodal && !f.L->is_ll, "%s: LDL gives simplicial LDL^T",
              name);
    if (kind == COREPCG_FACTOR_LL)
        CHECK(f.supernodal && f.L->is_super, "%s: LL gives supernodal", name);
    CHECK_INT(f.supernodal, f.L->is_super);

    /* the ordering used is the one asked for (best: AMD or METIS, the
     * sparser; never nested dissection) */
    corepcg_ordering used = cpg_factor_ordering(&f);
    if (ord == COREPCG_ORDERING_BEST)
        CHECK(used == COREPCG_ORDERING_AMD || used == COREPCG_ORDERING_METIS,
              "best reported %d", (int)used);
    else
        CHECK_INT(used, ord);

    /* nnz(L) at least that of the lower triangle of M, within a grid's
     * fill (n^1.5 bounds nested dissection's n log n here comfortably) */
    long lnz = cpg_factor_nnz(&f);
    CHECK(lnz >= 3 * n - 2 * GRID && lnz <= 20L * n, "%s/%s nnz(L) = %ld",
          name, kname, lnz);
    if (!f.supernodal)
        CHECK_NEAR((double)lnz, cm.lnz, 0.0);

    code = cpg_factor_solve(&f, b, x, &cm);
    CHECK_INT(code, COREPCG_OK);
    CHECK_LE(rel_residual(M, x, b), 1e-12);

    /* a second solve: the same bits, no allocation at all */
    long before = allocations;
    code = cpg_factor_solve(&f, b, x2, &cm);
    CHECK_INT(code, COREPCG_OK);
    CHECK(memcmp(x, x2, sizeof(double) * (size_t)n) == 0,
          "%s/%s: second solve differs", name, kname);
    CHECK(allocations - before == 0, "%s/%s: %ld allocations in a solve", name, kname, allocations - before);

    /* new values, same pattern: the analysis is reused, the answer is new */
    cholmod_factor *L_before = f.L;
    int *perm_before = f.L->Perm;
    cholmod_sparse *M2 = grid_matrix(7, &cm);
    code = cpg_factor_numeric(&f, M2, COREPCG_ERR_CORE_NOT_SPD, &cm, msg);
    CHECK(code == COREPCG_OK, "%s/%s refactor: %d %s", name, kname, code, msg);
    CHECK(f.L == L_before && f.L->Perm == perm_before,
          "%s/%s: refactor kept the analysis", name, kname);
    before = allocations;
    code = cpg_factor_solve(&f, b, x2, &cm);
    CHECK_INT(code, COREPCG_OK);
    CHECK_LE(rel_residual(M2, x2, b), 1e-12);
    CHECK(rel_residual(M, x2, b) > 1e-3, "%s/%s: refactor changed nothing",
          name, kname);
    CHECK(allocations - before == 0, "%s/%s: %ld allocations in a solve "
          "after a refactor", name, kname, allocations - before);

    /* an indefinite matrix: one dominant negative diagonal entry (in the
     * middle of the grid, so that it is neither first nor last) */
    int bad = n / 2 + GRID / 2;
    double *d = diag_entry(M2, bad);
    double saved = *d;
    *d = -100.0;
    msg[0] = '\0';
    code = cpg_factor_numeric(&f, M2, COREPCG_ERR_CORE_NOT_SPD, &cm, msg);
    CHECK(code == COREPCG_ERR_CORE_NOT_SPD, "%s/%s indefinite: %d %s", name,
          kname, code, msg);
    CHECK_STR_CONTAINS(msg, "not positive definite");
    CHECK_STR_CONTAINS(msg, "column");
    /* the failure as numbers, and the message worded from them */
    CHECK(f.bad_column >= 0 && f.bad_column < n && f.bad_step < (size_t)n,
          "%s/%s: failed at column %d, step %zu", name, kname, f.bad_column,
          f.bad_step);
    CHECK(!f.bad_has_pivot || !(f.bad_pivot > 0) || !isfinite(f.bad_pivot),
          "%s/%s: failing pivot %g", name, kname, f.bad_pivot);
    char where[128], expect[COREPCG_MSG_SIZE];
    cpg_factor_not_spd_text(&f, where, sizeof where);
    snprintf(expect, sizeof expect, "not positive definite: %s", where);
    CHECK_STR_CONTAINS(msg, expect);
    /* the caller's code comes back */
    code = cpg_factor_numeric(&f, M2, COREPCG_ERR_NOT_SPD, &cm, msg);
    CHECK_INT(code, COREPCG_ERR_NOT_SPD);

    /* NaN on the diagonal is not positive definite either */
    *d = NAN;
    code = cpg_factor_numeric(&f, M2, COREPCG_ERR_NOT_SPD, &cm, msg);
    CHECK_INT(code, COREPCG_ERR_NOT_SPD);

    /* and after a failure the same analysis factorises good values again */
    *d = saved;
    code = cpg_factor_numeric(&f, M2, COREPCG_ERR_CORE_NOT_SPD, &cm, msg);
    CHECK(code == COREPCG_OK, "%s/%s refactor after failure: %d %s", name,
          kname, code, msg);
    code = cpg_factor_solve(&f, b, x2, &cm);
    CHECK_INT(code, COREPCG_OK);
    CHECK_LE(rel_residual(M2, x2, b), 1e-12);

    cpg_factor_free(&f, &cm);
    CHECK(f.L == NULL && f.B == NULL && f.X == NULL && f.Y == NULL &&
          f.E == NULL, "free empties the factor");
    cpg_factor_free(&f, &cm);   /* twice is harmless */
    cholmod_free_sparse(&M, &cm);
    cholmod_free_sparse(&M2, &cm);
    cholmod_free_work(&cm);          /* the common's own workspace */
    CHECK_INT(cm.malloc_count, 0);   /* nothing leaked */
    cholmod_finish(&cm);
}

static void test_misuse(void)
{
    cholmod_common cm;
    char msg[COREPCG_MSG_SIZE] = "";
    CHECK_INT(cpg_factor_start_nodes(&cm, COREPCG_FACTOR_LDL, msg),
              COREPCG_OK);
    cholmod_sparse *M = grid_matrix(1, &cm);
    cpg_factor f;
    memset(&f, 0, sizeof f);
    double v[GRID * GRID] = {0}, w[GRID * GRID];

    CHECK_INT(cpg_factor_numeric(&f, M, COREPCG_ERR_NOT_SPD, &cm, msg),
              COREPCG_ERR_STATE);
    CHECK_INT(cpg_factor_solve(&f, v, w, &cm), COREPCG_ERR_STATE);
    CHECK_INT(cpg_factor_nnz(&f), 0);
    CHECK_INT(analyze(&f, M, COREPCG_ORDERING_COUNT, &cm, msg),
              COREPCG_ERR_ARGUMENT);
    cholmod_common other;
    CHECK_INT(cpg_factor_start_nodes(&other, COREPCG_FACTOR_COUNT, msg),
              COREPCG_ERR_ARGUMENT);
    CHECK_STR_CONTAINS(msg, "unknown factor kind");
    /* each analysis refuses a common started for the other, or not for
     * either (its settings would be another analysis's) */
    CHECK_INT(cpg_factor_start_natural(&other, COREPCG_FACTOR_LDL, msg),
              COREPCG_OK);
    CHECK_INT(analyze(&f, M, COREPCG_ORDERING_AMD, &other, msg),
              COREPCG_ERR_ARGUMENT);
    CHECK_STR_CONTAINS(msg, "cpg_factor_start_nodes");
    cholmod_finish(&other);
    CHECK_INT(cpg_cholmod_start(&other), COREPCG_OK);
    CHECK_INT(analyze(&f, M, COREPCG_ORDERING_AMD, &other, msg),
              COREPCG_ERR_ARGUMENT);
    int perm[GRID * GRID];
    for (int k = 0; k < (int)M->ncol; k++)
        perm[k] = k;
    CHECK_INT(cpg_factor_analyze_natural(&f, M, perm, COREPCG_ORDERING_AMD,
                                         &cm, msg),
              COREPCG_ERR_ARGUMENT);
    CHECK_STR_CONTAINS(msg, "cpg_factor_start_natural");
    cholmod_finish(&other);
    /* CHOLMOD would factorise an unsymmetric matrix as M M^T: refused */
    M->stype = 0;
    CHECK_INT(analyze(&f, M, COREPCG_ORDERING_AMD, &cm, msg),
              COREPCG_ERR_ARGUMENT);
    CHECK_STR_CONTAINS(msg, "stype -1");
    M->stype = -1;

    /* analysed but not factorised: no solve yet */
    CHECK_INT(analyze(&f, M, COREPCG_ORDERING_AMD, &cm, msg), COREPCG_OK);
    CHECK_INT(cpg_factor_solve(&f, v, w, &cm), COREPCG_ERR_STATE);
    CHECK_NEAR((double)cpg_factor_nnz(&f), cm.lnz, 0.0);

    /* a matrix of another size is refused by the kept analysis */
    cholmod_sparse *small = cholmod_speye(3, 3, CHOLMOD_REAL, &cm);
    small->stype = -1;
    CHECK_INT(cpg_factor_numeric(&f, small, COREPCG_ERR_NOT_SPD, &cm, msg),
              COREPCG_ERR_DIMENSION);
    /* re-analysing replaces the old analysis without leaking */
    CHECK_INT(analyze(&f, small, COREPCG_ORDERING_AMD, &cm, msg),
              COREPCG_OK);
    CHECK_INT(cpg_factor_numeric(&f, small, COREPCG_ERR_NOT_SPD, &cm, msg),
              COREPCG_OK);
    double e[3] = {1, 2, 3}, y[3];
    CHECK_INT(cpg_factor_solve(&f, e, y, &cm), COREPCG_OK);
    CHECK_NEAR(y[0], 1.0, 1e-15);
    CHECK_NEAR(y[2], 3.0, 1e-15);
    CHECK_INT(cpg_factor_nnz(&f), 3);

    cpg_factor_free(&f, &cm);
    cholmod_free_sparse(&small, &cm);
    cholmod_free_sparse(&M, &cm);
    cholmod_free_work(&cm);
    CHECK_INT(cm.malloc_count, 0);
    cholmod_finish(&cm);
}

/* The node-graph ordering (what corepcg and direct use): each of AMD, METIS
 * and NESDIS is really computed -- three different orders -- and every
 * node's three unknowns stay together in it. M expanded to 3 unknowns per
 * node: each entry v becomes the block v C, C = I + 0.1 (ones - I), which
 * is SPD, so the expansion (M kron C) is too. */
static void test_node_orderings(void)
{
    cholmod_common cm;
    char msg[COREPCG_MSG_SIZE] = "";
    CHECK_INT(cpg_factor_start_nodes(&cm, COREPCG_FACTOR_LDL, msg),
              COREPCG_OK);
    cholmod_sparse *M = grid_matrix(3, &cm);
    int N = (int)M->nrow;
    cholmod_sparse *E = cholmod_allocate_sparse(3 * (size_t)N, 3 * (size_t)N,
                                                9 * cholmod_nnz(M, &cm), 1, 1,
                                                -1, CHOLMOD_REAL, &cm);
    int *Mp = M->p, *Mi = M->i, *Ep = E->p, *Ei = E->i, t = 0;
    double *Mx = M->x, *Ex = E->x;
    for (int j = 0; j < N; j++)
        for (int a = 0; a < 3; a++) {
            Ep[3 * j + a] = t;
            for (int k = Mp[j]; k < Mp[j + 1]; k++)
                for (int b = Mi[k] == j ? a : 0; b < 3; b++) {
                    Ei[t] = 3 * Mi[k] + b;
                    Ex[t++] = Mx[k] * (a == b ? 1.0 : 0.1);
                }
        }
    Ep[3 * N] = t;
    int off[GRID * GRID + 1];
    for (int J = 0; J <= N; J++)
        off[J] = 3 * J;

    const corepcg_ordering ords[3] = {COREPCG_ORDERING_AMD,
                                      COREPCG_ORDERING_METIS,
                                      COREPCG_ORDERING_NESDIS};
    static int order[3][GRID * GRID];
    for (int o = 0; o < 3; o++) {
        cpg_factor f;
        memset(&f, 0, sizeof f);
        int code = cpg_factor_analyze_nodes(&f, E, off, N, ords[o], &cm,
                                            msg);
        CHECK(code == COREPCG_OK, "%s: %d %s", corepcg_ordering_name(ords[o]),
              code, msg);
        if (code != COREPCG_OK)
            continue;
        CHECK_INT(cpg_factor_ordering(&f), ords[o]);
        const int *P = f.L->Perm;
        int grouped = 1;
        for (int k = 0; k < N; k++) {
            grouped &= P[3 * k] % 3 == 0 && P[3 * k + 1] == P[3 * k] + 1 &&
                       P[3 * k + 2] == P[3 * k] + 2;
            order[o][k] = P[3 * k] / 3;
        }
        CHECK(grouped, "%s: a node's unknowns are split",
              corepcg_ordering_name(ords[o]));
        cpg_factor_free(&f, &cm);
    }
    CHECK(memcmp(order[0], order[1], sizeof order[0]) != 0,
          "AMD and METIS gave the same node order");
    CHECK(memcmp(order[0], order[2], sizeof order[0]) != 0,
          "AMD and NESDIS gave the same node order");
    cholmod_free_sparse(&E, &cm);
    cholmod_free_sparse(&M, &cm);
    cholmod_finish(&cm);
}

int main(void)
{
    SuiteSparse_config.malloc_func = counting_malloc;
    SuiteSparse_config.calloc_func = counting_calloc;
    SuiteSparse_config.realloc_func = counting_realloc;
    test_code_mapping();
    for (int ord = 0; ord < COREPCG_ORDERING_COUNT; ord++)
        for (int kind = 0; kind < COREPCG_FACTOR_COUNT; kind++)
            test_combination((corepcg_ordering)ord, (corepcg_factor)kind);
    test_misuse();
    test_node_orderings();
    return test_summary("test_factor");
}

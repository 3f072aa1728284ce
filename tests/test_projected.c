/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_projected.c -- the projected matrix S B S + D (I - S) on the fixed
 * 3N pattern (src/factor/projected.c) and its kept factor, on random
 * constrained systems (tests/testsys.c), B = all of A (direct) or the
 * stretch core (corePCG).
 *
 * Asserted:
 *  - the stored matrix is 3N x 3N, its lower triangle (stype -1) for a
 *    supernodal factor and its upper one (stype 1) for a simplicial one,
 *    sorted, without duplicates, with 6 entries per diagonal block and 9 per lower
 *    off-diagonal one; mapped back through fac.perm it equals
 *    S B S + D (I - S), d_i = trace(B_ii)/3, formed densely (S from the
 *    records, not from the library) to 1e-14 relative, where for a core
 *    each block G = S_I A_IJ S_J it leaves out adds (G G^T)^(1/2) and
 *    (G^T G)^(1/2) to the diagonal blocks I and J (from LAPACK's SVD of
 *    G, not from the library's square roots);
 *  - on range(S) its inverse is the reduced matrix's:
 *    U^T Bp^-1 U v = (U^T B U)^-1 v to 1e-10, and Bp^-1 keeps range(S):
 *    |(I - S) Bp^-1 S v| <= 1e-12 |Bp^-1 S v|;
 *  - the natural analysis of the stored matrix gives the factor the
 *    nodes' analysis gives (cpg_factor_analyze_nodes on the matrix in the
 *    nodes' order): the same flop count (and nnz(L), simplicial), for
 *    amd, metis, nesdis and best, ldl and ll, core and all of A;
 *  - new constraints (a node 3 -> 2, a node fixed, a node freed) refresh
 *    values only: the same matrix, factor and value arrays (L->x stays
 *    where the first factorisation left it; the factorisation allocates
 *    less than half the factor's size: only CHOLMOD's own workspace), no
 *    CHOLMOD allocation in the solves once they have run once, and the
 *    values equal the dense form again (supernodal and simplicial);
 *  - the two-column solve equals two one-column solves to 1e-14;
 *  - all nodes fixed: Bp = D, solved exactly;
 *  - a core that is not positive definite at a node with one free
 *    direction: ERR_CORE_NOT_SPD naming that node. */
#include "projected.h"
#include "test.h"
#include "testsys.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#undef I /* <complex.h>, pulled in by lapacke.h */

/* Every allocation CHOLMOD makes, counted with its bytes through its
 * hooks (the test may set them; the library never does). */
static long allocations;
static size_t allocated_bytes;

static void *counting_malloc(size_t size)
{
    allocations++;
    allocated_bytes += size;
    return malloc(size);
}

static void *counting_calloc(size_t count, size_t size)
{
    allocations++;
    allocated_bytes += count * size;
    return calloc(count, size);
}

static void *counting_realloc(void *p, size_t size)
{
    allocations++;
    allocated_bytes += size;
    return realloc(p, size);
}

static void count_cholmod(int on)
{
    allocations = 0;
    allocated_bytes = 0;
    SuiteSparse_config.malloc_func = on ? counting_malloc : malloc;
    SuiteSparse_config.calloc_func = on ? counting_calloc : calloc;
    SuiteSparse_config.realloc_func = on ? counting_realloc : realloc;
}

/* The library's view of a testsys: A's blocks and U. cm serves the
 * import; fcm is the projected matrix's, as a method owns it, started by
 * proj_analyse. */
typedef struct lib_sys {
    cholmod_common cm;
    cholmod_common fcm;
    int fcm_started;
    cpg_bmat A;
    cpg_ublocks u;
    unsigned char *core;   /* the stretch core's blocks */
} lib_sys;

static int lib_open(lib_sys *l, const testsys *t)
{
    char msg[COREPCG_MSG_SIZE] = "";
    memset(l, 0, sizeof *l);
    cpg_cholmod_start(&l->cm);
    int rc = cpg_bmat_from_system(&t->sys, &l->cm, &l->A, msg);
    if (rc == COREPCG_OK)
        rc = cpg_ublocks_build(t->N, t->cons, t->ncons, &l->u, msg);
    long kept = 0;
    l->core = malloc((size_t)l->A.p[l->A.nb] + 1);
    if (rc == COREPCG_OK)
        rc = cpg_core_mark(&l->A, t->nstretch, t->pairs, COREPCG_CORE_STRETCH,
                           0, l->core, &kept, msg);
    CHECK(rc == COREPCG_OK, "library import: %s", msg);
    return rc;
}

static void lib_close(lib_sys *l)
{
    cpg_bmat_free(&l->A);
    cpg_ublocks_free(&l->u);
    free(l->core);
    if (l->fcm_started)
        cholmod_finish(&l->fcm);
    cholmod_finish(&l->cm);
}

/* cpg_proj_analyse in a fresh l->fcm started for the factor kind, as
 * corePCG and direct analyse (the last one's p must have been freed). */
static int proj_analyse(cpg_proj *p, lib_sys *l, const unsigned char *keep,
                        corepcg_ordering ord, corepcg_factor kind, char *msg)
{
    if (l->fcm_started)
        cholmod_finish(&l->fcm);
    int rc = cpg_factor_start_natural(&l->fcm, kind, msg);
    l->fcm_started = rc == COREPCG_OK;
    if (rc == COREPCG_OK)
        rc = cpg_proj_analyse(p, &l->A, keep, ord, &l->fcm, msg);
    return rc;
}

/* Dense n x n Bp from the stored matrix, back in the nodes' order. */
static double *dense_stored(const cpg_proj *p, int *dups, int *bad_shape)
{
    const cholmod_sparse *M = p->M;
    int n = (int)M->ncol;
    const int *Mp = M->p, *Mi = M->i, *perm = p->fac.perm;
    const double *Mx = M->x;
    double *D = calloc((size_t)n * n + 1, sizeof(double));
    unsigned char *seen = calloc((size_t)n * n + 1, 1);
    *dups = 0;
    /* lower for a supernodal factor, upper for a simplicial one */
    int lower = p->fac.L->is_super;
    *bad_shape = M->nrow != M->ncol || M->stype != (lower ? -1 : 1) ||
                 !M->sorted || M->xtype != CHOLMOD_REAL;
    for (int j = 0; j < n; j++)
        for (int k = Mp[j]; k < Mp[j + 1]; k++) {
            int i = Mi[k];
            *bad_shape |= (lower ? i < j : i > j) ||
                          (k > Mp[j] && i <= Mi[k - 1]);
            size_t at = (size_t)perm[j] * n + perm[i];
            *dups += seen[at];
            seen[at] = 1;
            D[at] = Mx[k];
            D[(size_t)perm[i] * n + perm[j]] = Mx[k];
        }
    free(seen);
    return D;
}

/* Block (I, J) of the dense n x n X into the 3x3 column-major x. */
static void get_block(const double *X, int n, int I, int J, double *x)
{
    for (int c = 0; c < 3; c++)
        for (int a = 0; a < 3; a++)
            x[3 * c + a] = X[(size_t)(3 * J + c) * n + 3 * I + a];
}

/* Each lower block A_IJ that keep leaves out, G = S_I A_IJ S_J: with
 * G = W s V^T (LAPACK), W s W^T onto P's block (I, I), V s V^T onto
 * (J, J). */
static void add_compensation(const cpg_bmat *A, const unsigned char *keep,
                             const double *S, int n, double *P)
{
    for (int J = 0; J < A->nb; J++)
        for (int k = A->p[J]; k < A->p[J + 1]; k++) {
            int I = A->i[k];
            if (I <= J || keep[k])
                continue;
            double SI[9], SJ[9], G[9] = {0}, T[9] = {0};
            get_block(S, n, I, I, SI);
            get_block(S, n, J, J, SJ);
            const double *B = A->x + 9L * k;
            for (int c = 0; c < 3; c++) /* T = B S_J, G = S_I T */
                for (int a = 0; a < 3; a++)
                    for (int e = 0; e < 3; e++)
                        T[3 * c + a] += B[3 * e + a] * SJ[3 * c + e];
            for (int c = 0; c < 3; c++)
                for (int a = 0; a < 3; a++)
                    for (int e = 0; e < 3; e++)
                        G[3 * c + a] += SI[3 * e + a] * T[3 * c + e];
            double sv[3], W[9], Vt[9], superb[2];
            CHECK_INT(LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'A', 'A', 3, 3, G, 3,
                                     sv, W, 3, Vt, 3, superb), 0);
            for (int c = 0; c < 3; c++)
                for (int a = 0; a < 3; a++)
                    for (int e = 0; e < 3; e++) {
                        P[(size_t)(3 * I + c) * n + 3 * I + a] +=
                            W[3 * e + a] * sv[e] * W[3 * e + c];
                        P[(size_t)(3 * J + c) * n + 3 * J + a] +=
                            Vt[3 * a + e] * sv[e] * Vt[3 * c + e];
                    }
        }
}

/* S B S + D (I - S) densely, B = the blocks of A that keep marks (NULL:
 * all), S from the records (testsys_dense_S). */
static double *dense_projected(const testsys *t, const cpg_bmat *A,
                               const unsigned char *keep)
{
    int n = t->n;
    double *B = calloc((size_t)n * n, sizeof(double));
    double *S = testsys_dense_S(t);
    double *T = calloc((size_t)n * n, sizeof(double));
    double *P = calloc((size_t)n * n, sizeof(double));
    for (int J = 0; J < A->nb; J++)
        for (int k = A->p[J]; k < A->p[J + 1]; k++) {
            if (keep && !keep[k])
                continue;
            int I = A->i[k];
            for (int c = 0; c < 3; c++)
                for (int a = 0; a < 3; a++)
                    B[(size_t)(3 * J + c) * n + 3 * I + a] = A->x[9L * k + 3 * c + a];
        }
    for (int j = 0; j < n; j++) /* T = B S */
        for (int l = 0; l < n; l++) {
            double s = S[(size_t)j * n + l];
            if (s != 0)
                for (int i = 0; i < n; i++)
                    T[(size_t)j * n + i] += B[(size_t)l * n + i] * s;
        }
    for (int j = 0; j < n; j++) /* P = S T */
        for (int l = 0; l < n; l++) {
            double s = T[(size_t)j * n + l];
            if (s != 0)
                for (int i = 0; i < n; i++)
                    P[(size_t)j * n + i] += S[(size_t)l * n + i] * s;
        }
    if (keep)
        add_compensation(A, keep, S, n, P);
    for (int node = 0; node < t->N; node++) {
        double d = 0;
        for (int a = 0; a < 3; a++)
            d += B[(size_t)(3 * node + a) * n + 3 * node + a] / 3;
        for (int c = 0; c < 3; c++)
            for (int a = 0; a < 3; a++) {
                size_t at = (size_t)(3 * node + c) * n + 3 * node + a;
                P[at] += d * ((a == c) - S[at]);
            }
    }
    free(B);
    free(S);
    free(T);
    return P;
}

static double rel_diff(int count, const double *a, const double *b)
{
    double scale = testsys_max_abs(count, b);
    return testsys_max_diff(count, a, b) / (scale > 0 ? scale : 1);
}

/* Entries of the lower triangle the selection gives. */
static long predicted_entries(const cpg_bmat *A, const unsigned char *keep)
{
    long nnz = 0;
    for (int J = 0; J < A->nb; J++)
        for (int k = A->p[J]; k < A->p[J + 1]; k++)
            if (A->i[k] >= J && (!keep || keep[k]))
                nnz += A->i[k] == J ? 6 : 9;
    return nnz;
}

/* Stored matrix vs the dense form; returns the relative error. */
static double check_values(const testsys *t, const lib_sys *l,
                           const cpg_proj *p, const unsigned char *keep,
                           const char *label)
{
    int dups, bad_shape;
    CHECK_INT(cpg_proj_nnz(p), predicted_entries(&l->A, keep));
    CHECK_INT(p->M->ncol, t->n);
    double *D = dense_stored(p, &dups, &bad_shape);
    CHECK(dups == 0 && !bad_shape, "%s: %d duplicates, shape %d", label,
          dups, bad_shape);
    double *P = dense_projected(t, &l->A, keep);
    double err = rel_diff(t->n * t->n, D, P);
    CHECK(err <= 1e-14, "%s: |Bp - (S B S + D (I - S))| / |Bp| = %.3g",
          label, err);
    free(D);
    free(P);
    return err;
}

/* U^T Bp^-1 U v against (U^T B U)^-1 v (dense), and Bp^-1 keeping
 * range(S). */
static void check_inverse(const testsys *t, lib_sys *l, cpg_proj *p,
                          const unsigned char *keep, const char *label)
{
    int n = t->n, r = l->u.r;
    if (r == 0)
        return;
    double *B = dense_projected(t, &l->A, keep); /* only its S part used */
    double *U = calloc((size_t)n * r, sizeof(double));
    for (int i = 0; i < t->N; i++)
        for (int c = 0; c < l->u.ndof[i]; c++)
            for (int a = 0; a < 3; a++)
                U[(size_t)(l->u.off[i] + c) * n + 3 * i + a] = l->u.U[9 * i + 3 * c + a];
    /* R = U^T Bp U = U^T B U (U^T (I - S) = 0) */
    double *R = calloc((size_t)r * r, sizeof(double));
    for (int j = 0; j < r; j++)
        for (int i = 0; i < r; i++) {
            double s = 0;
            for (int a = 0; a < n; a++)
                for (int b = 0; b < n; b++)
                    if (U[(size_t)i * n + a] != 0 && U[(size_t)j * n + b] != 0)
                        s += U[(size_t)i * n + a] * B[(size_t)b * n + a] *
                             U[(size_t)j * n + b];
            R[(size_t)j * r + i] = s;
        }
    testsys_rng rng;
    testsys_rng_seed(&rng, 7);
    double *v = malloc(sizeof(double) * (size_t)r);
    double *want = malloc(sizeof(double) * (size_t)r);
    double *got = malloc(sizeof(double) * (size_t)r);
    double *x = calloc((size_t)n, sizeof(double));
    double *y = calloc((size_t)n, sizeof(double));
    for (int k = 0; k < r; k++)
        want[k] = v[k] = testsys_sym(&rng);
    lapack_int *ipiv = malloc(sizeof(lapack_int) * (size_t)r);
    CHECK_INT(LAPACKE_dgesv(LAPACK_COL_MAJOR, r, 1, R, r, ipiv, want, r), 0);
    cpg_prolong(&l->u, v, NULL, x); /* x = U v */
    CHECK_INT(cpg_factor_solve(&p->fac, x, y, &l->fcm), COREPCG_OK);
    cpg_restrict(&l->u, y, got);
    double err = rel_diff(r, got, want);
    CHECK(err <= 1e-10, "%s: |U^T Bp^-1 U v - (U^T B U)^-1 v| = %.3g", label,
          err);
    /* (I - S) y = y - U U^T y */
    double *Sy = calloc((size_t)n, sizeof(double));
    cpg_prolong(&l->u, got, NULL, Sy);
    double off = rel_diff(n, y, Sy);
    CHECK(off <= 1e-12, "%s: |(I - S) Bp^-1 S v| / |Bp^-1 S v| = %.3g", label,
          off);
    free(Sy);
    free(B);
    free(U);
    free(R);
    free(v);
    free(want);
    free(got);
    free(x);
    free(y);
    free(ipiv);
}

static void test_values_and_inverse(void)
{
    const struct {
        int g;
        double frac;
        unsigned long seed;
    } cases[] = {{4, 0.5, 1}, {6, 0.3, 2}, {5, 1.0, 3}, {5, 0, 4}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        testsys_opts o;
        testsys_default_opts(&o, cases[c].g, cases[c].seed);
        o.frac_constrained = cases[c].frac;
        testsys t;
        lib_sys l;
        if (testsys_make(&t, &o) || lib_open(&l, &t)) {
            CHECK(0, "system %zu", c);
            continue;
        }
        for (int core = 0; core < 2; core++) {
            const unsigned char *keep = core ? l.core : NULL;
            char label[64], msg[COREPCG_MSG_SIZE] = "";
            snprintf(label, sizeof label, "g %d frac %.1f %s", cases[c].g,
                     cases[c].frac, core ? "core" : "A");
            cpg_proj p;
            int rc = proj_analyse(&p, &l, keep, COREPCG_ORDERING_AMD,
                                  COREPCG_FACTOR_AUTO, msg);
            CHECK(rc == COREPCG_OK, "%s: analyse: %s", label, msg);
            if (rc)
                continue;
            cpg_proj_values(&p, &l.A, &l.u, 1);
            check_values(&t, &l, &p, keep, label);
            rc = cpg_proj_factorise(&p, &l.u, "B", COREPCG_ERR_NOT_SPD, &l.fcm,
                                    msg);
            CHECK(rc == COREPCG_OK, "%s: factorise: %s", label, msg);
            if (rc == COREPCG_OK)
                check_inverse(&t, &l, &p, keep, label);
            cpg_proj_free(&p, &l.fcm);
        }
        lib_close(&l);
        testsys_free(&t);
    }
}

/* Every node fixed: Bp = D, and Bp^-1 v = v / d exactly enough. */
static void test_all_fixed(void)
{
    testsys_opts o;
    testsys_default_opts(&o, 4, 5);
    o.frac_constrained = 0;
    testsys t;
    if (testsys_make(&t, &o))
        return;
    corepcg_constraint *c = malloc(sizeof *c * (size_t)t.N);
    for (int i = 0; i < t.N; i++)
        c[i] = (corepcg_constraint){.node = i, .ndof = 0};
    testsys_set_constraints(&t, c, t.N);
    free(c);
    lib_sys l;
    char msg[COREPCG_MSG_SIZE] = "";
    if (lib_open(&l, &t))
        return;
    cpg_proj p;
    CHECK_INT(proj_analyse(&p, &l, l.core, COREPCG_ORDERING_NESDIS,
                           COREPCG_FACTOR_AUTO, msg), COREPCG_OK);
    cpg_proj_values(&p, &l.A, &l.u, 1);
    check_values(&t, &l, &p, l.core, "all fixed");
    CHECK_INT(cpg_proj_factorise(&p, &l.u, "B", COREPCG_ERR_NOT_SPD, &l.fcm,
                                 msg), COREPCG_OK);
    double *v = malloc(sizeof(double) * (size_t)t.n);
    double *y = malloc(sizeof(double) * (size_t)t.n);
    for (int k = 0; k < t.n; k++)
        v[k] = 1 + k % 5;
    CHECK_INT(cpg_factor_solve(&p.fac, v, y, &l.fcm), COREPCG_OK);
    double worst = 0;
    for (int i = 0; i < t.N; i++) {
        const double *B = testsys_block(&t, i, i);
        double d = (B[0] + B[4] + B[8]) / 3;
        for (int a = 0; a < 3; a++)
            worst = fmax(worst, fabs(y[3 * i + a] * d - v[3 * i + a]) /
                                    v[3 * i + a]);
    }
    CHECK_LE(worst, 1e-14);
    free(v);
    free(y);
    cpg_proj_free(&p, &l.fcm);
    lib_close(&l);
    testsys_free(&t);
}

/* The natural analysis of the stored matrix against the nodes' analysis
 * of the same matrix in the nodes' order: the same order, so the same
 * flops and (simplicial, where nnz(L) is exact) the same nnz(L). */
static void test_same_factor(void)
{
    testsys_opts o;
    testsys_default_opts(&o, 9, 11);
    testsys t;
    lib_sys l;
    if (testsys_make(&t, &o) || lib_open(&l, &t))
        return;
    const corepcg_ordering ords[] = {COREPCG_ORDERING_AMD,
                                     COREPCG_ORDERING_METIS,
                                     COREPCG_ORDERING_NESDIS,
                                     COREPCG_ORDERING_BEST};
    const corepcg_factor kinds[] = {COREPCG_FACTOR_LDL, COREPCG_FACTOR_LL};
    int *off3 = malloc(sizeof(int) * ((size_t)t.N + 1));
    int *inv = malloc(sizeof(int) * (size_t)t.n);
    for (int i = 0; i <= t.N; i++)
        off3[i] = 3 * i;
    for (int core = 0; core < 2; core++)
        for (size_t k = 0; k < sizeof ords / sizeof ords[0]; k++)
            for (int kind = 0; kind < 2; kind++) {
                char msg[COREPCG_MSG_SIZE] = "";
                const char *name = corepcg_ordering_name(ords[k]);
                cpg_proj p;
                int rc = proj_analyse(&p, &l, core ? l.core : NULL, ords[k],
                                      kinds[kind], msg);
                CHECK(rc == COREPCG_OK, "%s: %s", name, msg);
                if (rc)
                    continue;
                /* back in the nodes' order: B(a, b) = M(inv[a], inv[b]) */
                for (int q = 0; q < t.n; q++)
                    inv[p.fac.perm[q]] = q;
                cholmod_sparse *Ms = p.M->stype > 0
                                         ? cholmod_transpose(p.M, 1, &l.cm)
                                         : cholmod_copy_sparse(p.M, &l.cm);
                cholmod_sparse *U0 = cholmod_ptranspose(Ms, 1, inv, NULL, 0,
                                                        &l.cm);
                cholmod_sparse *L0 = cholmod_transpose(U0, 1, &l.cm);
                cholmod_free_sparse(&Ms, &l.cm);
                cpg_factor f0;
                memset(&f0, 0, sizeof f0);
                cholmod_common ncm;
                rc = cpg_factor_start_nodes(&ncm, kinds[kind], msg);
                if (rc == COREPCG_OK)
                    rc = cpg_factor_analyze_nodes(&f0, L0, off3, t.N, ords[k],
                                                  &ncm, msg);
                CHECK(rc == COREPCG_OK, "%s: nodes' analysis: %s", name, msg);
                if (rc == COREPCG_OK) {
                    int same = f0.flops == p.fac.flops &&
                               (kind == 1 || cpg_factor_nnz(&f0) ==
                                                 cpg_factor_nnz(&p.fac));
                    CHECK(same, "%s %s %s: natural nnz(L) %ld flops %.6g, "
                          "nodes' %ld %.6g", core ? "core" : "A", name,
                          corepcg_factor_name(kinds[kind]),
                          cpg_factor_nnz(&p.fac), p.fac.flops,
                          cpg_factor_nnz(&f0), f0.flops);
                    CHECK_INT(cpg_factor_ordering(&p.fac),
                              cpg_factor_ordering(&f0));
                    CHECK_INT(p.fac.supernodal, kind == 1);
                }
                cpg_factor_free(&f0, &ncm);
                cholmod_finish(&ncm);
                cholmod_free_sparse(&U0, &l.cm);
                cholmod_free_sparse(&L0, &l.cm);
                cpg_proj_free(&p, &l.fcm);
            }
    free(inv);
    free(off3);
    lib_close(&l);
    testsys_free(&t);
}

/* Constraints change: values in place, the factor refactorised into its
 * own storage, solves without allocating. */
static void test_refresh(corepcg_factor kind)
{
    const char *kname = corepcg_factor_name(kind);
    testsys_opts o;
    testsys_default_opts(&o, 7, 21);
    testsys t;
    lib_sys l;
    if (testsys_make(&t, &o) || lib_open(&l, &t))
        return;
    char msg[COREPCG_MSG_SIZE] = "";
    cpg_proj p;
    if (proj_analyse(&p, &l, l.core, COREPCG_ORDERING_NESDIS, kind, msg) !=
        COREPCG_OK) {
        CHECK(0, "analyse: %s", msg);
        return;
    }
    int n = t.n;
    double *v1 = malloc(sizeof(double) * (size_t)n), *v2 = malloc(sizeof(double) * (size_t)n);
    double *a1 = malloc(sizeof(double) * (size_t)n), *a2 = malloc(sizeof(double) * (size_t)n);
    double *b1 = malloc(sizeof(double) * (size_t)n), *b2 = malloc(sizeof(double) * (size_t)n);
    testsys_rng rng;
    testsys_rng_seed(&rng, 3);
    for (int k = 0; k < n; k++) {
        v1[k] = testsys_sym(&rng);
        v2[k] = testsys_sym(&rng);
    }
    cholmod_sparse *M = p.M;
    cholmod_factor *L = p.fac.L;
    void *Mx = M->x, *Lx = NULL;
    int free_node = 0, sliding = -1;
    while (t.ndof[free_node] != 3)
        free_node++;
    for (int i = 0; i < t.N && sliding < 0; i++)
        if (t.ndof[i] == 2)
            sliding = i;
    CHECK(sliding >= 0, "the system has a sliding node");
    corepcg_constraint *c = malloc(sizeof *c * (size_t)(t.ncons + 1));
    const char *steps[] = {"as made", "a node 3 -> 2", "a node fixed",
                           "a node freed"};
    for (int step = 0; step < 4; step++) {
        if (step == 1) { /* free_node starts sliding */
            memcpy(c, t.cons, sizeof *c * (size_t)t.ncons);
            c[t.ncons] = (corepcg_constraint){.node = free_node, .ndof = 2,
                                              .p = {0.2, 0.9, -0.4}};
            testsys_set_constraints(&t, c, t.ncons + 1);
        } else if (step == 2) { /* and is fixed */
            memcpy(c, t.cons, sizeof *c * (size_t)t.ncons);
            c[t.ncons - 1].ndof = 0;
            testsys_set_constraints(&t, c, t.ncons);
        } else if (step == 3) { /* a sliding node is let go */
            int m = 0;
            for (int k = 0; k < t.ncons; k++)
                if (t.cons[k].node != sliding)
                    c[m++] = t.cons[k];
            testsys_set_constraints(&t, c, m);
        }
        cpg_ublocks_free(&l.u);
        CHECK_INT(cpg_ublocks_build(t.N, t.cons, t.ncons, &l.u, msg), COREPCG_OK);
        count_cholmod(step > 0);
        cpg_proj_values(&p, &l.A, &l.u, 1);
        int rc = cpg_proj_factorise(&p, &l.u, "the core",
                                    COREPCG_ERR_CORE_NOT_SPD, &l.fcm, msg);
        CHECK(rc == COREPCG_OK, "%s %s: factorise: %s", kname, steps[step], msg);
        long factor_allocations = allocations;
        size_t factor_bytes = allocated_bytes;
        count_cholmod(step > 0);
        rc |= cpg_factor_solve(&p.fac, v1, a1, &l.fcm);
        rc |= cpg_factor_solve(&p.fac, v2, a2, &l.fcm);
        rc |= cpg_factor_solve2(&p.fac, v1, v2, b1, b2, &l.fcm);
        long solve_allocations = allocations;
        count_cholmod(0);
        CHECK_INT(rc, COREPCG_OK);
        if (step == 0)
            Lx = L->x;
        /* the factor's numbers stay where they are; CHOLMOD's own
         * per-call workspace is all a factorisation allocates */
        CHECK(p.M == M && p.fac.L == L && M->x == Mx && L->x == Lx && Lx,
              "%s %s: the matrix or the factor moved", kname, steps[step]);
        size_t factor_size = (L->is_super ? L->xsize : L->nzmax) * sizeof(double);
        if (step > 0) {
            CHECK(factor_bytes < factor_size / 2,
                  "%s %s: the factorisation allocated %zu bytes in %ld "
                  "blocks (the factor holds %zu)", kname, steps[step],
                  factor_bytes, factor_allocations, factor_size);
            CHECK(solve_allocations == 0, "%s %s: %ld CHOLMOD allocations "
                  "in the solves", kname, steps[step], solve_allocations);
        }
        check_values(&t, &l, &p, l.core, steps[step]);
        check_inverse(&t, &l, &p, l.core, steps[step]);
        double d = fmax(rel_diff(n, b1, a1), rel_diff(n, b2, a2));
        CHECK(d <= 1e-14, "%s %s: two-column solve differs by %.3g", kname,
              steps[step], d);
    }
    free(c);
    free(v1);
    free(v2);
    free(a1);
    free(a2);
    free(b1);
    free(b2);
    cpg_proj_free(&p, &l.fcm);
    lib_close(&l);
    testsys_free(&t);
}

/* A core block made indefinite along a node's one free direction. */
static void test_not_spd_node(void)
{
    testsys_opts o;
    testsys_default_opts(&o, 4, 31);
    o.frac_constrained = 0;
    testsys t;
    if (testsys_make(&t, &o))
        return;
    const int node = 5;
    corepcg_constraint c = {.node = node, .ndof = 1, .p = {1, 0, 0},
                            .q = {0, 1, 0}};
    testsys_set_constraints(&t, &c, 1); /* free along z only */
    /* node 5's diagonal block gets a large negative zz entry */
    double *B = (double *)testsys_block(&t, node, node);
    B[8] = -1e4;
    testsys_set_form(&t, COREPCG_CSC, COREPCG_LOWER);
    lib_sys l;
    char msg[COREPCG_MSG_SIZE] = "";
    if (lib_open(&l, &t))
        return;
    cpg_proj p;
    CHECK_INT(proj_analyse(&p, &l, l.core, COREPCG_ORDERING_AMD,
                           COREPCG_FACTOR_AUTO, msg), COREPCG_OK);
    cpg_proj_values(&p, &l.A, &l.u, 1);
    int rc = cpg_proj_factorise(&p, &l.u, "the matrix core",
                                COREPCG_ERR_CORE_NOT_SPD, &l.fcm, msg);
    CHECK_INT(rc, COREPCG_ERR_CORE_NOT_SPD);
    CHECK_STR_CONTAINS(msg, "the matrix core is not positive definite at "
                            "node 5 (free direction 1 of 1)");
    cpg_proj_free(&p, &l.fcm);
    lib_close(&l);
    testsys_free(&t);
}

int main(void)
{
    test_values_and_inverse();
    test_all_fixed();
    test_same_factor();
    test_refresh(COREPCG_FACTOR_LL);
    test_refresh(COREPCG_FACTOR_LDL);
    test_not_spd_node();
    return test_summary("test_projected");
}

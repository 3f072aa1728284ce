/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_ichol.c -- the block incomplete Cholesky of A~ (src/factor/ichol_*.c):
 *  - a 2-node system worked by hand: D^-1 and F checked entry by entry;
 *  - Kershaw's matrix (SPD, IC(0) meets a pivot of -5): shifts alone
 *    retry, say so, and PCG still reaches the answer, and with no retries
 *    allowed factorise refuses and apply stays refused; the default
 *    compensates the one dropped block instead (its trace by hand);
 *  - random stiff triangle patches (the garments' breakdown in small):
 *    the compensated factor never breaks down where plain IC(0) does;
 *  - a star whose level-1 fill is its whole Cholesky fill: IC(1) is exact
 *    (PCG in 1 iteration, also with ndof 2 and 1 nodes) while IC(0) is not;
 *  - a path and a spider numbered at random: RCM finds a no-fill order,
 *    so IC(0) is exact in it and not in the given order;
 *  - the analysis kept for new values and for an ndof change, refused for
 *    a node that became fixed; float storage; the kept lower triangle's
 *    product equals A~'s;
 *  - RCM's work linear in the graph's size with many components;
 *  - NULL and invalid arguments. */
#include "ichol.h"
#include "internal.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 16              /* nodes */
#define MAXU (3 * MAXN)      /* unknowns */

/* 1 when ic's analysis fits At: the same block pattern, the same free
 * nodes (an ndof 3 <-> 2 or 1 change keeps it, a node becoming fixed
 * does not). */
static int analysis_fits(const cpg_ichol *ic, const cpg_rmat *At)
{
    if (!ic || !ic->ap || !At || !At->A || At->A->nb != ic->N)
        return 0;
    const int N = ic->N;
    if (memcmp(ic->ap, At->p, sizeof(int) * ((size_t)N + 1)) != 0)
        return 0;
    for (int t = 0; t < At->p[N]; t++)
        if (ic->ai[t] != At->A->i[At->src[t]])
            return 0;
    return 1;
}

static const char *ordering_name(cpg_ichol_ordering o)
{
    switch (o) {
    case CPG_ICHOL_NATURAL: return "natural";
    case CPG_ICHOL_RCM: return "rcm";
    default: return "unknown";
    }
}

/* A small system built from a dense matrix and a node adjacency. */
typedef struct tsys {
    int N, n;
    double A[MAXU * MAXU];           /* dense, column-major */
    unsigned char adj[MAXN][MAXN];   /* block pattern (symmetric, diag on) */
    corepcg_constraint cons[MAXN];
    int ncons;
    int colptr[MAXU + 1], rowidx[MAXU * MAXU];
    double values[MAXU * MAXU];
    cholmod_common cm;
    cpg_bmat bm;
    cpg_ublocks u;
    cpg_rmat rm;
} tsys;

static void tsys_init(tsys *t, int N)
{
    memset(t, 0, sizeof *t);
    t->N = N;
    t->n = 3 * N;
    for (int i = 0; i < N; i++)
        t->adj[i][i] = 1;
}

static void link_nodes(tsys *t, int i, int j)
{
    t->adj[i][j] = t->adj[j][i] = 1;
}

/* CSC lower of the pattern blocks (explicit zeros kept), bmat, U, A~. */
static int tsys_build(tsys *t)
{
    int k = 0;
    for (int c = 0; c < t->n; c++) {
        t->colptr[c] = k;
        for (int r = c; r < t->n; r++)
            if (t->adj[r / 3][c / 3]) {
                t->rowidx[k] = r;
                t->values[k++] = t->A[t->n * c + r];
            }
    }
    t->colptr[t->n] = k;
    corepcg_system sys = {
        .num_nodes = t->N, .A_format = COREPCG_CSC,
        .A_triangle = COREPCG_LOWER, .A_colptr = t->colptr,
        .A_rowidx = t->rowidx, .A_values = t->values,
        .num_constraints = t->ncons, .constraints = t->ncons ? t->cons : NULL,
    };
    char msg[COREPCG_MSG_SIZE];
    if (cpg_cholmod_start(&t->cm) != COREPCG_OK ||
        cpg_bmat_from_system(&sys, &t->cm, &t->bm, msg) != COREPCG_OK ||
        cpg_ublocks_build(t->N, sys.constraints, t->ncons, &t->u, msg) !=
            COREPCG_OK ||
        cpg_rmat_build(&t->rm, &t->bm, &t->u) != COREPCG_OK) {
        fprintf(stderr, "tsys_build: %s\n", msg);
        return -1;
    }
    return 0;
}

static void tsys_free(tsys *t)
{
    cpg_rmat_free(&t->rm);
    cpg_ublocks_free(&t->u);
    cpg_bmat_free(&t->bm);
    cholmod_finish(&t->cm);
}

/* block (I, J) of the dense matrix = B (3x3 column-major), and (J, I) = B^T */
static void set_block(tsys *t, int I, int J, const double *B)
{
    for (int c = 0; c < 3; c++)
        for (int a = 0; a < 3; a++) {
            t->A[t->n * (3 * J + c) + 3 * I + a] = B[3 * c + a];
            t->A[t->n * (3 * I + a) + 3 * J + c] = B[3 * c + a];
        }
}

static unsigned long rng_state = 88172645463325252UL;
static double urand(void) /* in (-1, 1) */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 4503599627370496.0 - 1.0;
}

/* random off-diagonal blocks on the pattern, diagonal blocks dominant */
static void fill_random_spd(tsys *t)
{
    memset(t->A, 0, sizeof t->A);
    for (int J = 0; J < t->N; J++)
        for (int I = J + 1; I < t->N; I++)
            if (t->adj[I][J]) {
                double B[9];
                for (int e = 0; e < 9; e++)
                    B[e] = urand();
                set_block(t, I, J, B);
            }
    for (int r = 0; r < t->n; r++) {
        double s = 0;
        for (int c = 0; c < t->n; c++)
            s += fabs(t->A[t->n * c + r]);
        t->A[t->n * r + r] = s + 1 + urand() * 0.5;
    }
}

static void matvec(void *ctx, const double *in, double *out)
{
    cpg_rmat_apply(ctx, in, out);
}

/* A padded vector of exactly 3 G on the heap, so that ASan sees a kernel
 * reading or writing past a vector's last node. */
static double *padded_vector(int G)
{
    double *v = malloc(3 * (size_t)G * sizeof(double));
    if (!v)
        abort();
    return v;
}

/* M^-1 in and A~ in on reduced vectors (r), through the factor's padded
 * order, where icpcg runs both. */
static int ichol_apply(void *ctx, const double *in, double *out)
{
    cpg_ichol *ic = ctx;
    double *pin = padded_vector(ic->G), *pout = padded_vector(ic->G);
    cpg_pad(ic->G, ic->off, ic->dim, in, pin);
    int rc = cpg_ichol_apply_padded(ic, pin, pout);
    if (rc == COREPCG_OK)
        cpg_unpad(ic->G, ic->off, ic->dim, pout, out);
    free(pin);
    free(pout);
    return rc;
}

static void lower_apply(void *ctx, const double *in, double *out)
{
    cpg_lower *m = ctx;
    double *pin = padded_vector(m->G), *pout = padded_vector(m->G);
    cpg_pad(m->G, m->off, m->dim, in, pin);
    cpg_lower_apply_padded(m, pin, pout);
    cpg_unpad(m->G, m->off, m->dim, pout, out);
    free(pin);
    free(pout);
}

/* max_k |(M^-1 A e - e)_k| / max_k |e_k| for a random e: 0 up to float's
 * precision (the sweeps read F in float) when the factor is complete */
static double exactness(tsys *t, cpg_ichol *ic)
{
    double e[MAXU], Ae[MAXU], out[MAXU], err = 0, emax = 0;
    for (int k = 0; k < t->u.r; k++)
        e[k] = urand() - 0.5;
    cpg_rmat_apply(&t->rm, e, Ae);
    if (ichol_apply(ic, Ae, out) != COREPCG_OK)
        return INFINITY;
    for (int k = 0; k < t->u.r; k++) {
        err = fmax(err, fabs(out[k] - e[k]));
        emax = fmax(emax, fabs(e[k]));
    }
    return err / emax;
}

/* PCG on A~ from zero with the factor; returns iterations, writes the
 * relative reduced residual |b~ - A~ x| / |b~| */
static int pcg_iterations(tsys *t, cpg_ichol *ic, double tol, double *relres)
{
    int r = t->u.r, it = -1;
    double b[MAXU], x[MAXU], Ax[MAXU];
    for (int k = 0; k < r; k++) {
        b[k] = urand();
        x[k] = 0;
    }
    cpg_pcg_work w;
    CHECK_INT(cpg_pcg_work_alloc(&w, r, &cpg_vec_cpu), COREPCG_OK);
    cpg_pcg_problem pb = {
        .n = r, .matvec = matvec, .matvec_ctx = &t->rm,
        .precond = ichol_apply, .precond_ctx = ic, .b = b, .bdelta = b,
        .tol = tol, .max_iter = 200,
    };
    char msg[COREPCG_MSG_SIZE];
    CHECK_INT(cpg_pcg(&pb, &w, x, &it, msg), COREPCG_OK);
    cpg_pcg_work_free(&w);
    cpg_rmat_apply(&t->rm, x, Ax);
    double num = 0, den = 0;
    for (int k = 0; k < r; k++) {
        num += (b[k] - Ax[k]) * (b[k] - Ax[k]);
        den += b[k] * b[k];
    }
    *relres = sqrt(num / den);
    return it;
}

/* the defaults with this fill and ordering */
static cpg_ichol_opts opts_with(int fill, cpg_ichol_ordering ord)
{
    cpg_ichol_opts o;
    cpg_ichol_default_opts(&o);
    o.fill = fill;
    o.ordering = ord;
    return o;
}

/* ------------------------------------------------------------ by hand */

static void test_hand(void)
{
    /* A11 = [4 2 0; 2 2 0; 0 0 1], F21 = [1 0 0; 0 0 1; 0 0 0] (rows pick
     * A11's rows 0 and 2), A21 = F21 A11 = [4 2 0; 0 0 1; 0 0 0],
     * A22 = [6 1 0; 1 3 0; 0 0 2]. Block LDL^T (exact: both blocks are in
     * the pattern): D1 = A11, D1^-1 = [.5 -.5 0; -.5 1 0; 0 0 1];
     * D2 = A22 - F21 A11 F21^T = A22 - diag(4, 1, 0) = [2 1 0; 1 2 0;
     * 0 0 2], D2^-1 = [2/3 -1/3 0; -1/3 2/3 0; 0 0 1/2]. */
    tsys t;
    tsys_init(&t, 2);
    link_nodes(&t, 0, 1);
    const double A11[9] = {4, 2, 0, 2, 2, 0, 0, 0, 1};
    const double A21[9] = {4, 0, 0, 2, 0, 0, 0, 1, 0};
    const double A22[9] = {6, 1, 0, 1, 3, 0, 0, 0, 2};
    set_block(&t, 0, 0, A11);
    set_block(&t, 1, 0, A21);
    set_block(&t, 1, 1, A22);
    if (tsys_build(&t))
        return;
    cpg_ichol ic;
    char msg[COREPCG_MSG_SIZE];
    cpg_ichol_opts o = opts_with(0, CPG_ICHOL_NATURAL);
    CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &o, msg), COREPCG_OK);
    CHECK_INT(ic.G, 2);
    CHECK_INT(ic.info.blocks, 1);
    CHECK_INT(ic.info.fill_blocks, 0);
    CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_OK);
    const double D1inv[9] = {.5, -.5, 0, -.5, 1, 0, 0, 0, 1};
    const double D2inv[9] = {2. / 3, -1. / 3, 0, -1. / 3, 2. / 3, 0, 0, 0, .5};
    const double F21[9] = {1, 0, 0, 0, 0, 0, 0, 1, 0};
    for (int e = 0; e < 9; e++) {
        CHECK_NEAR(ic.num.dinv[e], D1inv[e], 1e-15);
        CHECK_NEAR(ic.num.dinv[9 + e], D2inv[e], 1e-15);
        CHECK_NEAR(ic.num.lx[e], F21[e], 1e-15);
    }
    CHECK_INT(ic.li[0], 1);
    CHECK(ic.info.shift == 0 && ic.info.retries == 0 &&
          ic.info.breakdown_node == -1, "no shift expected: %g %d %d",
          ic.info.shift, ic.info.retries, ic.info.breakdown_node);
    /* smallest pivot / diagonal entry: D2's first pivot 2 over A22's 6 */
    CHECK_NEAR(ic.info.min_pivot_ratio, 1.0 / 3, 1e-15);
    /* M = A here: M^-1 (A e) = e, to float's precision (the sweeps read
     * F in float) */
    double e[6] = {1, -2, 3, 0.5, -1, 2}, Ae[6], out[6];
    cpg_rmat_apply(&t.rm, e, Ae);
    CHECK_INT(ichol_apply(&ic, Ae, out), COREPCG_OK);
    for (int k = 0; k < 6; k++)
        CHECK_NEAR(out[k], e[k], 1e-6);
    for (int q = 0; q < 9; q++)
        CHECK_INT(ic.lxf[q] == (float)ic.num.lx[q], 1);
    cpg_ichol_free(&ic);
    tsys_free(&t);
}

/* ------------------------------------------------------------ breakdown */

/* Kershaw's matrix K (a 4-cycle, SPD) in component comp of diagonal
 * blocks, the other two components diagonally dominant: IC(0) drops the
 * fill (3, 1) and ends with the scalar pivot 3 - 4/3 - 4/0.6 = -5 in
 * component comp of node 3 (so each of a block's three pivots is
 * checked in turn). */
static void kershaw(tsys *t, int comp)
{
    static const double K[4][4] = {
        {3, -2, 0, 2}, {-2, 3, -2, 0}, {0, -2, 3, -2}, {2, 0, -2, 3}};
    tsys_init(t, 4);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            if (K[i][j] != 0) {
                link_nodes(t, i, j);
                double B[9] = {0};
                for (int a = 0; a < 3; a++)
                    B[4 * a] = a == comp ? K[i][j] : i == j ? 3 : 0.5;
                set_block(t, i, j, B);
            }
}

static void test_breakdown(int comp)
{
    tsys t;
    kershaw(&t, comp);
    if (tsys_build(&t))
        return;
    char msg[COREPCG_MSG_SIZE];
    cpg_ichol ic;

    /* shifts only (compensate NEVER), no retries: refused, with where
     * and the pivot */
    cpg_ichol_opts o = opts_with(0, CPG_ICHOL_NATURAL);
    o.compensate = CPG_ICHOL_COMP_NEVER;
    o.max_retries = 0;
    CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &o, msg), COREPCG_OK);
    msg[0] = '\0';
    CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_ERR_IC_BREAKDOWN);
    CHECK_STR_CONTAINS(msg, "broke down at node 3");
    CHECK_INT(ic.info.breakdown_node, 3);
    CHECK_INT(ic.info.retries, 0);
    CHECK_STR_CONTAINS(msg, "after 0 retries");
    CHECK_INT(ic.info.factorised, 0);
    CHECK_NEAR(ic.info.min_pivot_ratio, -5.0 / 3, 1e-12);
    double v[12] = {1}, out[12];
    CHECK_INT(cpg_ichol_apply_padded(&ic, v, out), COREPCG_ERR_STATE);
    cpg_ichol_free(&ic);

    /* shifts only: shifted until the pivots pass, and reported */
    o = opts_with(0, CPG_ICHOL_NATURAL);
    o.compensate = CPG_ICHOL_COMP_NEVER;
    CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &o, msg), COREPCG_OK);
    CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_OK);
    CHECK_INT(ic.info.factorised, 1);
    CHECK_INT(ic.info.compensated, 0);
    CHECK_INT(ic.info.breakdown_node, 3);
    CHECK_NEAR(ic.info.breakdown_ratio, -5.0 / 3, 1e-12);
    CHECK(ic.info.retries >= 1, "retries %d", ic.info.retries);
    CHECK_NEAR(ic.info.shift,
               o.shift_first * pow(o.shift_growth, ic.info.retries - 1), 1e-15);
    CHECK(ic.info.min_pivot_ratio > o.pivot_tol, "pivot ratio %g",
          ic.info.min_pivot_ratio);
    /* one shift fewer must still break down (the smallest that works) */
    if (ic.info.retries >= 2) {
        cpg_ichol ic2;
        cpg_ichol_opts o2 = o;
        o2.max_retries = ic.info.retries - 1;
        CHECK_INT(cpg_ichol_analyse(&ic2, &t.rm, &o2, msg), COREPCG_OK);
        CHECK_INT(cpg_ichol_factorise(&ic2, &t.rm, msg), COREPCG_ERR_IC_BREAKDOWN);
        cpg_ichol_free(&ic2);
    }
    double relres;
    int it = pcg_iterations(&t, &ic, 1e-10, &relres);
    CHECK_LE(relres, 1e-9);
    CHECK_LE(it, 12);
    cpg_ichol_free(&ic);

    /* the default: one breakdown, then the compensated factor, unshifted,
     * even with no shifted retry allowed. The only drop is (3, 1) at node
     * 0: E = diag(-4/3 in comp, 1/12, 1/12), s = 1, so R adds 2 (4/3 +
     * 1/12 + 1/12) = 3 to the trace of 36. M = A~ + R with R of rank 1 per
     * component: at most 4 distinct eigenvalues of M^-1 A~, so PCG ends
     * in 4 iterations. */
    o = opts_with(0, CPG_ICHOL_NATURAL);
    CHECK_INT(o.compensate, CPG_ICHOL_COMP_ON_BREAKDOWN);
    o.max_retries = 0;
    CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &o, msg), COREPCG_OK);
    CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_OK);
    CHECK_INT(ic.info.retries, 1);
    CHECK_INT(ic.info.breakdown_node, 3);
    CHECK(ic.info.shift == 0, "shift %g", ic.info.shift);
    CHECK_INT(ic.info.compensated, 1);
    CHECK_NEAR(ic.info.compensation, 3.0 / 36, 1e-14);
    CHECK(ic.info.min_pivot_ratio > 0.1, "pivot ratio %g",
          ic.info.min_pivot_ratio);
    it = pcg_iterations(&t, &ic, 1e-10, &relres);
    CHECK_LE(relres, 1e-9);
    CHECK_LE(it, 4);
    cpg_ichol_free(&ic);
    /* compensated from the start: the same factor, no breakdown */
    o.compensate = CPG_ICHOL_COMP_ALWAYS;
    CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &o, msg), COREPCG_OK);
    CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_OK);
    CHECK_INT(ic.info.retries, 0);
    CHECK_INT(ic.info.breakdown_node, -1);
    CHECK_NEAR(ic.info.compensation, 3.0 / 36, 1e-14);
    cpg_ichol_free(&ic);

    /* level-1 fill restores the dropped blocks: exact, no shift */
    o = opts_with(1, CPG_ICHOL_NATURAL);
    CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &o, msg), COREPCG_OK);
    CHECK_INT(ic.info.fill_blocks, 1); /* (3, 1), Cholesky's only fill */
    CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_OK);
    CHECK(ic.info.shift == 0, "shift %g", ic.info.shift);
    CHECK_LE(exactness(&t, &ic), 1e-6);
    CHECK_LE(pcg_iterations(&t, &ic, 1e-10, &relres), 2);
    cpg_ichol_free(&ic);
    tsys_free(&t);
}

/* ---------------------------------------------- stiff triangle springs */

/* 4 x 4 nodes, every cell cut by one diagonal, a spring of stiffness k on
 * every edge of the triangles, mass 1: a patch of cloth whose triangles
 * are rigid in-plane, slightly out of plane (z noise). A = I + k sum over
 * edges of d d^T (x) [1 -1; -1 1], d the unit edge. */
static void stiff_patch(tsys *t, double k)
{
    tsys_init(t, 16);
    memset(t->A, 0, sizeof t->A);
    double x[16][3];
    for (int i = 0; i < 16; i++) {
        x[i][0] = i % 4 + 0.2 * urand();
        x[i][1] = i / 4 + 0.2 * urand();
        x[i][2] = 0.05 * urand();
    }
    for (int i = 0; i < 16; i++)
        for (int j = i + 1; j < 16; j++) {
            int ri = i / 4, ci = i % 4, rj = j / 4, cj = j % 4;
            /* right, up, and the diagonal up-right */
            int edge = (rj == ri && cj == ci + 1) ||
                       (rj == ri + 1 && (cj == ci || cj == ci + 1));
            if (!edge)
                continue;
            link_nodes(t, i, j);
            double d[3], len = 0;
            for (int a = 0; a < 3; a++) {
                d[a] = x[j][a] - x[i][a];
                len += d[a] * d[a];
            }
            len = sqrt(len);
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    double v = k * d[a] * d[b] / (len * len);
                    t->A[t->n * (3 * i + b) + 3 * i + a] += v;
                    t->A[t->n * (3 * j + b) + 3 * j + a] += v;
                    t->A[t->n * (3 * j + b) + 3 * i + a] -= v;
                    t->A[t->n * (3 * i + b) + 3 * j + a] -= v;
                }
        }
    for (int r = 0; r < t->n; r++)
        t->A[t->n * r + r] += 1;
}

/* Many random patches at stiffness k / mass 1e2, 1e4, 1e6, in both
 * orderings: plain IC(0) breaks down on some (what the T-shirt shows);
 * the compensated factor never does, the default policy factorises at
 * most twice and never shifts, and PCG with it converges. */
static void test_stiff_triangles(void)
{
    int plain_broke = 0, comp_broke = 0, cases = 0, worst_it = 0;
    int worst_retries = 0;
    double worst_shift = 0, worst_res = 0;
    char msg[COREPCG_MSG_SIZE];
    for (int trial = 0; trial < 60; trial++)
        for (int e = 2; e <= 6; e += 2)
            for (int ord = 0; ord < 2; ord++) {
                tsys t;
                stiff_patch(&t, pow(10, e));
                if (tsys_build(&t))
                    return;
                cases++;
                cpg_ichol ic;
                cpg_ichol_opts o = opts_with(0, (cpg_ichol_ordering)ord);
                o.max_retries = 0;
                o.compensate = CPG_ICHOL_COMP_NEVER;
                CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &o, msg), COREPCG_OK);
                plain_broke += cpg_ichol_factorise(&ic, &t.rm, msg) != COREPCG_OK;
                cpg_ichol_free(&ic);
                o.compensate = CPG_ICHOL_COMP_ALWAYS;
                CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &o, msg), COREPCG_OK);
                comp_broke += cpg_ichol_factorise(&ic, &t.rm, msg) != COREPCG_OK;
                cpg_ichol_free(&ic);
                o = opts_with(0, (cpg_ichol_ordering)ord);
                CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &o, msg), COREPCG_OK);
                if (cpg_ichol_factorise(&ic, &t.rm, msg) == COREPCG_OK) {
                    double relres;
                    int it = pcg_iterations(&t, &ic, 1e-10, &relres);
                    worst_it = it > worst_it ? it : worst_it;
                    worst_res = relres > worst_res ? relres : worst_res;
                } else {
                    worst_retries = 100;
                }
                if (ic.info.retries > worst_retries)
                    worst_retries = ic.info.retries;
                if (ic.info.shift > worst_shift)
                    worst_shift = ic.info.shift;
                cpg_ichol_free(&ic);
                tsys_free(&t);
            }
    printf("stiff patches: %d cases, plain IC(0) broke down on %d, "
           "compensated on %d; default: <= %d retries, shift <= %g, "
           "<= %d iterations\n", cases, plain_broke, comp_broke,
           worst_retries, worst_shift, worst_it);
    CHECK(plain_broke >= cases / 10, "plain IC(0) broke down on only %d "
          "of %d patches: the test no longer exercises breakdown",
          plain_broke, cases);
    CHECK_INT(comp_broke, 0);
    CHECK_LE(worst_retries, 1);
    CHECK(worst_shift == 0, "shift %g", worst_shift);
    CHECK_LE(worst_res, 1e-7); /* tol 1e-10 at a condition up to ~1e6 */
    CHECK_LE(worst_it, 40); /* measured 36 */
}

/* The compensated factor does not depend on A's units: a stiff patch
 * with sliding nodes (ndof 2, whose padded pivot slots must not weigh in)
 * scaled by 1e-6 and 1e3 compensates the same share of A~'s trace and
 * takes the same PCG iterations as at scale 1 (the padding's 1s once
 * doubled the share at 1e-6: 0.035 -> 0.073, 14 -> 21 iterations). */
static void test_compensation_units(void)
{
    const double scales[] = {1, 1e-6, 1e3};
    double share[3];
    int its[3];
    char msg[COREPCG_MSG_SIZE];
    unsigned long seed = rng_state;
    for (int c = 0; c < 3; c++) {
        rng_state = seed; /* the same patch at every scale */
        tsys t;
        stiff_patch(&t, 1e4);
        for (int i = 0; i < 8; i++) /* every other node slides in z = const */
            t.cons[t.ncons++] = (corepcg_constraint){
                .node = 2 * i, .ndof = 2, .p = {0, 0, 1}};
        for (int e = 0; e < t.n * t.n; e++)
            t.A[e] *= scales[c];
        if (tsys_build(&t))
            return;
        cpg_ichol ic;
        cpg_ichol_opts o = opts_with(0, CPG_ICHOL_RCM);
        o.compensate = CPG_ICHOL_COMP_ALWAYS;
        CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &o, msg), COREPCG_OK);
        CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_OK);
        share[c] = ic.info.compensation;
        double relres;
        its[c] = pcg_iterations(&t, &ic, 1e-10, &relres);
        CHECK_LE(relres, 1e-8); /* the rule is on M^-1's norm, F in float */
        cpg_ichol_free(&ic);
        tsys_free(&t);
    }
    CHECK(share[0] > 0, "no compensation on the stiff patch");
    for (int c = 1; c < 3; c++) {
        CHECK_NEAR(share[c], share[0], 1e-6 * share[0]);
        CHECK(abs(its[c] - its[0]) <= 1, "scale %g: %d iterations, %d at 1",
              scales[c], its[c], its[0]);
    }
}

/* ------------------------------------------------------- fill = exact */

static void test_star(void)
{
    /* node 0 joined to 1..5, nothing else: eliminating 0 fills every pair
     * of 1..5 at level 1, which is all the fill Cholesky makes */
    for (int with_cons = 0; with_cons < 2; with_cons++) {
        tsys t;
        tsys_init(&t, 6);
        for (int j = 1; j < 6; j++)
            link_nodes(&t, 0, j);
        fill_random_spd(&t);
        if (with_cons) {
            corepcg_constraint c2 = {.node = 2, .ndof = 2, .p = {0.3, -1, 0.2}};
            corepcg_constraint c4 = {.node = 4, .ndof = 1, .p = {1, 0.5, 0},
                                     .q = {-0.5, 1, 0.3}};
            corepcg_constraint c0 = {.node = 0, .ndof = 2, .p = {0, 0, 1}};
            t.cons[0] = c2;
            t.cons[1] = c4;
            t.cons[2] = c0;
            t.ncons = 3;
        }
        if (tsys_build(&t))
            return;
        char msg[COREPCG_MSG_SIZE];
        cpg_ichol ic;
        double relres;
        cpg_ichol_opts o = opts_with(1, CPG_ICHOL_NATURAL);
        CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &o, msg), COREPCG_OK);
        CHECK_INT(ic.info.blocks, 15);      /* all pairs of 6 nodes */
        CHECK_INT(ic.info.fill_blocks, 10); /* pairs of 1..5 */
        CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_OK);
        CHECK_LE(exactness(&t, &ic), 1e-6);
        CHECK_LE(pcg_iterations(&t, &ic, 1e-12, &relres), 2);
        CHECK_LE(relres, 1e-12);
        cpg_ichol_free(&ic);

        o = opts_with(0, CPG_ICHOL_NATURAL);
        CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &o, msg), COREPCG_OK);
        CHECK_INT(ic.info.blocks, 5);
        CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_OK);
        CHECK(pcg_iterations(&t, &ic, 1e-12, &relres) > 1,
              "IC(0) of the star should not be exact");
        cpg_ichol_free(&ic);
        tsys_free(&t);
    }
}

/* ----------------------------------------------------------- orderings */

static void test_orderings(int spider)
{
    /* A path of 8 nodes, or a spider (a centre and three legs of 2),
     * numbered at random. In the given order IC(0) drops fill. RCM orders
     * a tree leaves-first (each node eliminated before its BFS parent):
     * no fill, IC(0) exact. (Cuthill-McKee unreversed would put the
     * spider's centre before two of its legs and drop fill.) */
    static const int path[8] = {5, 2, 7, 0, 3, 6, 1, 4};
    static const int legs[3][2] = {{4, 1}, {0, 6}, {5, 2}}; /* centre 3 */
    const int N = spider ? 7 : 8;
    tsys t;
    tsys_init(&t, N);
    if (spider) {
        for (int l = 0; l < 3; l++) {
            link_nodes(&t, 3, legs[l][0]);
            link_nodes(&t, legs[l][0], legs[l][1]);
        }
    } else {
        for (int k = 0; k + 1 < 8; k++)
            link_nodes(&t, path[k], path[k + 1]);
    }
    fill_random_spd(&t);
    if (tsys_build(&t))
        return;
    char msg[COREPCG_MSG_SIZE];
    double relres;
    for (int ord = 0; ord < CPG_ICHOL_ORDERING_COUNT; ord++) {
        cpg_ichol ic;
        cpg_ichol_opts o = opts_with(0, (cpg_ichol_ordering)ord);
        CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &o, msg), COREPCG_OK);
        /* a permutation of the nodes */
        int seen[MAXN] = {0};
        for (int k = 0; k < N; k++) {
            CHECK(ic.perm[k] >= 0 && ic.perm[k] < N, "perm[%d] = %d", k,
                  ic.perm[k]);
            if (ic.perm[k] >= 0 && ic.perm[k] < N) {
                seen[ic.perm[k]]++;
                CHECK_INT(ic.pos[ic.perm[k]], k);
            }
        }
        for (int k = 0; k < N; k++)
            CHECK_INT(seen[k], 1);
        if (ord == CPG_ICHOL_RCM && !spider) /* RCM of a path is the path */
            for (int k = 0; k + 1 < N; k++)
                CHECK(t.adj[ic.perm[k]][ic.perm[k + 1]],
                      "RCM: positions %d, %d are not neighbours", k, k + 1);
        CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_OK);
        int it = pcg_iterations(&t, &ic, 1e-12, &relres);
        if (ord == CPG_ICHOL_NATURAL) {
            CHECK(it > 1, "the given order should drop fill (%d its)", it);
        } else {
            /* no fill dropped: the factor is complete */
            CHECK(exactness(&t, &ic) <= 1e-6 && it <= 2,
                  "%s of a %s: M^-1 A - I %g, %d iterations",
                  ordering_name(o.ordering), spider ? "spider" : "path",
                  exactness(&t, &ic), it);
            CHECK_LE(relres, 1e-12);
        }
        CHECK_STR_CONTAINS(ordering_name(o.ordering),
                           ord == 0 ? "natural" : "rcm");
        cpg_ichol_free(&ic);
    }
    tsys_free(&t);
}

/* --------------------------------------------------------------- reuse */

static void grid3(tsys *t)
{
    /* 2 rows of 3 nodes with the diagonals: triangles in the pattern */
    tsys_init(t, 6);
    for (int i = 0; i < 6; i++)
        for (int j = i + 1; j < 6; j++) {
            int ri = i / 3, ci = i % 3, rj = j / 3, cj = j % 3;
            if (abs(ri - rj) <= 1 && abs(ci - cj) <= 1)
                link_nodes(t, i, j);
        }
    fill_random_spd(t);
}

/* The product's and the sweeps' AVX2 kernels (kernels/lower_product.c,
 * kernels/ichol_sweeps.c)
 * against the portable ones on padded vp (3 G): equal to round-off, the
 * padding zero in both. */
static void check_avx2(cpg_ichol *ic, const double *vp)
{
    if (!cpg_have_avx2()) {
        printf("no AVX2 here: the portable kernels only\n");
        return;
    }
    const int n = 3 * ic->G;
    double *out[2][2];
    for (int avx2 = 0; avx2 < 2; avx2++) {
        out[avx2][0] = padded_vector(ic->G);
        out[avx2][1] = padded_vector(ic->G);
        ic->avx2 = ic->lower.avx2 = avx2;
        cpg_lower_apply_padded(&ic->lower, vp, out[avx2][0]);
        CHECK_INT(cpg_ichol_apply_padded(ic, vp, out[avx2][1]), COREPCG_OK);
    }
    for (int f = 0; f < 2; f++) {
        double err = 0, scale = 0;
        for (int q = 0; q < n; q++) {
            err = fmax(err, fabs(out[1][f][q] - out[0][f][q]));
            scale = fmax(scale, fabs(out[0][f][q]));
            if (ic->dim[q / 3] <= q % 3)
                CHECK(out[0][f][q] == 0 && out[1][f][q] == 0,
                      "%s, position %d: padding %g, %g",
                      f ? "sweeps" : "product", q / 3, out[0][f][q],
                      out[1][f][q]);
        }
        CHECK(err <= 1e-14 * scale, "%s: AVX2 and portable differ by %g of %g",
              f ? "sweeps" : "product", err, scale);
    }
    for (int avx2 = 0; avx2 < 2; avx2++) {
        free(out[avx2][0]);
        free(out[avx2][1]);
    }
}

/* The padded product and sweeps of v: the padding stays zero, and the
 * AVX2 kernels agree with the portable ones. */
static void check_padded(cpg_ichol *ic, const double *v)
{
    const int G = ic->G;
    double *vp = padded_vector(G), *yp = padded_vector(G), *sp = padded_vector(G);
    cpg_pad(G, ic->off, ic->dim, v, vp);
    cpg_lower_apply_padded(&ic->lower, vp, yp);
    CHECK_INT(cpg_ichol_apply_padded(ic, vp, sp), COREPCG_OK);
    int padding = 0;
    for (int k = 0; k < G; k++)
        for (int a = ic->dim[k]; a < 3; a++) {
            padding++;
            CHECK(yp[3 * k + a] == 0 && sp[3 * k + a] == 0,
                  "position %d: padding %g, %g", k, yp[3 * k + a],
                  sp[3 * k + a]);
        }
    CHECK(padding > 0, "no padding to check");
    check_avx2(ic, vp);
    free(vp);
    free(yp);
    free(sp);
}

static void test_reuse(void)
{
    char msg[COREPCG_MSG_SIZE];
    tsys t;
    grid3(&t);
    if (tsys_build(&t))
        return;
    cpg_ichol ic, fresh;
    cpg_ichol_opts o = opts_with(0, CPG_ICHOL_NATURAL);
    CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &o, msg), COREPCG_OK);
    CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_OK);
    CHECK_INT(analysis_fits(&ic, &t.rm), 1);
    double first = ic.num.lx[0];

    /* new values, same pattern (2 A + 30 I): the kept analysis
     * factorises them exactly as a fresh one does */
    for (int k = 0; k < 9 * t.bm.p[t.bm.nb]; k++)
        t.bm.x[k] *= 2;
    for (int k = 0; k < t.bm.nb; k++)
        for (int q = t.bm.p[k]; q < t.bm.p[k + 1]; q++)
            if (t.bm.i[q] == k)
                for (int a = 0; a < 3; a++)
                    t.bm.x[9L * q + 4 * a] += 30;
    cpg_rmat_values(&t.rm);
    CHECK_INT(analysis_fits(&ic, &t.rm), 1);
    CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_OK);
    CHECK(ic.num.lx[0] != first, "the factor did not change");
    CHECK_INT(cpg_ichol_analyse(&fresh, &t.rm, &o, msg), COREPCG_OK);
    CHECK_INT(cpg_ichol_factorise(&fresh, &t.rm, msg), COREPCG_OK);
    CHECK_INT(memcmp(ic.num.lx, fresh.num.lx, 9 * sizeof(double) * (size_t)ic.info.blocks), 0);
    CHECK_INT(memcmp(ic.num.dinv, fresh.num.dinv, 9 * sizeof(double) * 6), 0);
    cpg_ichol_free(&fresh);

    /* node 4 slides (ndof 2): A~'s block pattern holds, the analysis too,
     * and the factor equals a fresh one */
    cpg_rmat_free(&t.rm);
    cpg_ublocks_free(&t.u);
    /* node 4 in a plane, node 1 on a line: padding of one and of two */
    corepcg_constraint slide[2] = {
        {.node = 4, .ndof = 2, .p = {0.6, 0.8, 0}},
        {.node = 1, .ndof = 1, .p = {0, 0, 1}, .q = {1, 0, 0}}};
    corepcg_constraint c = slide[0];
    CHECK_INT(cpg_ublocks_build(6, slide, 2, &t.u, msg), COREPCG_OK);
    CHECK_INT(cpg_rmat_build(&t.rm, &t.bm, &t.u), COREPCG_OK);
    CHECK_INT(analysis_fits(&ic, &t.rm), 1);
    CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_OK);
    CHECK_INT(cpg_ichol_analyse(&fresh, &t.rm, &o, msg), COREPCG_OK);
    CHECK_INT(cpg_ichol_factorise(&fresh, &t.rm, msg), COREPCG_OK);
    CHECK_INT(memcmp(ic.num.lx, fresh.num.lx, 9 * sizeof(double) * (size_t)ic.info.blocks), 0);
    double relres;
    int it = pcg_iterations(&t, &ic, 1e-10, &relres);
    CHECK_LE(relres, 1e-9);
    CHECK_LE(it, 15); /* r = 15 unknowns */
    cpg_ichol_free(&fresh);

    double v[MAXU];
    for (int k = 0; k < t.u.r; k++)
        v[k] = urand();

    /* the kept lower triangle multiplies as A~ does, unshifted even when
     * the factor is shifted, and with level-1 fill blocks left out */
    for (int fill = 0; fill < 2; fill++) {
        cpg_ichol_opts om = opts_with(fill, CPG_ICHOL_RCM);
        om.pivot_tol = 0.999; /* forces shifts: Schur updates lower pivots */
        CHECK_INT(cpg_ichol_analyse(&fresh, &t.rm, &om, msg), COREPCG_OK);
        double y1[MAXU], y2[MAXU] = {0};
        lower_apply(&fresh.lower, v, y2); /* nothing kept yet: NaN */
        CHECK(isnan(y2[0]) && isnan(y2[t.u.r - 1]), "matvec before factorise");
        double vp[3 * MAXU] = {0}, yp[3 * MAXU] = {0};
        cpg_lower_apply_padded(&fresh.lower, vp, yp);
        CHECK(isnan(yp[0]) && isnan(yp[3 * fresh.G - 1]),
              "padded matvec before factorise");
        CHECK_INT(cpg_ichol_factorise(&fresh, &t.rm, msg), COREPCG_OK);
        CHECK(fresh.info.shift > 0, "expected a shift, got %g", fresh.info.shift);
        cpg_rmat_apply(&t.rm, v, y1);
        lower_apply(&fresh.lower, v, y2);
        double emax = 0, ymax = 0;
        for (int k = 0; k < t.u.r; k++) {
            emax = fmax(emax, fabs(y1[k] - y2[k]));
            ymax = fmax(ymax, fabs(y1[k]));
        }
        CHECK(emax <= 1e-14 * ymax, "fill %d: matvec differs by %g of %g",
              fill, emax, ymax);
        check_padded(&fresh, v);
        cpg_ichol_free(&fresh);
    }

    /* node 4 fixed (ndof 0): the block pattern changed, the analysis no
     * longer fits and factorise refuses it */
    cpg_rmat_free(&t.rm);
    cpg_ublocks_free(&t.u);
    c.ndof = 0;
    CHECK_INT(cpg_ublocks_build(6, &c, 1, &t.u, msg), COREPCG_OK);
    CHECK_INT(cpg_rmat_build(&t.rm, &t.bm, &t.u), COREPCG_OK);
    CHECK_INT(analysis_fits(&ic, &t.rm), 0);
    msg[0] = '\0';
    CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_ERR_ARGUMENT);
    CHECK_STR_CONTAINS(msg, "not the pattern analysed");
    cpg_ichol_free(&ic);
    CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &o, msg), COREPCG_OK);
    CHECK_INT(ic.G, 5);
    CHECK_INT(ic.pos[4], -1);
    CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_OK);
    it = pcg_iterations(&t, &ic, 1e-10, &relres);
    CHECK_LE(relres, 1e-9);
    cpg_ichol_free(&ic);
    tsys_free(&t);
}

/* Two 4-cycles, 0-1-2-3-0 and 0-2-1-3-0: the same block counts per column
 * (A~'s column pointers agree), other rows: not the same pattern. */
static void test_same_counts(void)
{
    tsys a, b;
    tsys_init(&a, 4);
    tsys_init(&b, 4);
    for (int k = 0; k < 4; k++)
        link_nodes(&a, k, (k + 1) % 4);
    link_nodes(&b, 0, 2);
    link_nodes(&b, 2, 1);
    link_nodes(&b, 1, 3);
    link_nodes(&b, 3, 0);
    fill_random_spd(&a);
    fill_random_spd(&b);
    if (tsys_build(&a) || tsys_build(&b))
        return;
    CHECK_INT(memcmp(a.rm.p, b.rm.p, 5 * sizeof(int)), 0);
    char msg[COREPCG_MSG_SIZE];
    cpg_ichol ic;
    cpg_ichol_opts o = opts_with(0, CPG_ICHOL_NATURAL);
    CHECK_INT(cpg_ichol_analyse(&ic, &a.rm, &o, msg), COREPCG_OK);
    CHECK_INT(analysis_fits(&ic, &a.rm), 1);
    CHECK_INT(analysis_fits(&ic, &b.rm), 0);
    cpg_ichol_free(&ic);
    tsys_free(&a);
    tsys_free(&b);
}

/* ----------------------------------------------------------- arguments */

static void test_arguments(void)
{
    char msg[COREPCG_MSG_SIZE];
    tsys t;
    grid3(&t);
    if (tsys_build(&t))
        return;
    cpg_ichol ic;
    memset(&ic, 0, sizeof ic);
    cpg_ichol_opts o = opts_with(0, CPG_ICHOL_NATURAL);
    CHECK_INT(cpg_ichol_analyse(NULL, &t.rm, &o, msg), COREPCG_ERR_ARGUMENT);
    CHECK_INT(cpg_ichol_analyse(&ic, NULL, &o, msg), COREPCG_ERR_ARGUMENT);
    CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, NULL, msg), COREPCG_ERR_ARGUMENT);
    cpg_ichol_opts bad = o;
    bad.fill = 2;
    CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &bad, msg), COREPCG_ERR_ARGUMENT);
    CHECK_STR_CONTAINS(msg, "fill level 2");
    bad = o;
    bad.ordering = (cpg_ichol_ordering)7;
    CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &bad, msg), COREPCG_ERR_ARGUMENT);
    bad = o;
    bad.compensate = CPG_ICHOL_COMP_COUNT;
    CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &bad, msg), COREPCG_ERR_ARGUMENT);
    CHECK_STR_CONTAINS(msg, "unknown compensation 3");
    bad = o;
    bad.shift_growth = 1;
    CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &bad, msg), COREPCG_ERR_ARGUMENT);
    bad = o;
    bad.shift_first = NAN;
    CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &bad, msg), COREPCG_ERR_ARGUMENT);
    bad = o;
    bad.pivot_tol = -1;
    CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &bad, msg), COREPCG_ERR_ARGUMENT);
    bad = o;
    bad.max_retries = -1;
    CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &bad, msg), COREPCG_ERR_ARGUMENT);

    double v[MAXU] = {1}, out[MAXU];
    CHECK_INT(cpg_ichol_factorise(NULL, &t.rm, msg), COREPCG_ERR_ARGUMENT);
    CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_ERR_STATE);
    CHECK_INT(cpg_ichol_apply_padded(&ic, v, out), COREPCG_ERR_STATE);
    CHECK_INT(cpg_ichol_apply_padded(NULL, v, out), COREPCG_ERR_STATE);
    CHECK_INT(analysis_fits(NULL, &t.rm), 0);
    CHECK_INT(analysis_fits(&ic, &t.rm), 0);
    CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &o, msg), COREPCG_OK);
    CHECK_INT(cpg_ichol_factorise(&ic, NULL, msg), COREPCG_ERR_ARGUMENT);
    CHECK_INT(cpg_ichol_apply_padded(&ic, v, out), COREPCG_ERR_STATE); /* not yet */
    CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_OK);
    CHECK_INT(cpg_ichol_apply_padded(&ic, NULL, out), COREPCG_ERR_STATE);
    CHECK_INT(cpg_ichol_apply_padded(&ic, v, out), COREPCG_OK);
    /* a NaN in A~ is not a breakdown to shift away */
    t.rm.x[0] = NAN;
    msg[0] = '\0';
    CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_ERR_NOT_FINITE);
    CHECK_STR_CONTAINS(msg, "NaN");
    CHECK_INT(ic.info.retries, 0);
    cpg_ichol_free(&ic);
    cpg_ichol_free(&ic); /* twice, and NULL: harmless */
    cpg_ichol_free(NULL);
    tsys_free(&t);
}

/* The defaults (docs/benchmark.md), and PCG with them: the kept
 * lower triangle as the product, the float factor as the preconditioner. */
static void test_defaults(void)
{
    cpg_ichol_opts o;
    cpg_ichol_default_opts(&o);
    CHECK_INT(o.fill, 0);
    CHECK_INT(o.compensate, CPG_ICHOL_COMP_ON_BREAKDOWN);
    CHECK_INT(o.ordering, CPG_ICHOL_RCM);
    CHECK_INT(o.max_retries, 6);
    CHECK_NEAR(o.shift_first, 1e-3, 0);
    CHECK_NEAR(o.shift_growth, 4, 0);
    CHECK_NEAR(o.pivot_tol, 1e-8, 0);
    tsys t;
    grid3(&t);
    if (tsys_build(&t))
        return;
    char msg[COREPCG_MSG_SIZE];
    cpg_ichol ic;
    CHECK_INT(cpg_ichol_analyse(&ic, &t.rm, &o, msg), COREPCG_OK);
    CHECK_INT(cpg_ichol_factorise(&ic, &t.rm, msg), COREPCG_OK);
    CHECK(ic.lxf != NULL && ic.lower.loaded, "defaults: float F and kept A~");
    int r = t.u.r, it = -1;
    double b[MAXU], x[MAXU], Ax[MAXU];
    for (int k = 0; k < r; k++) {
        b[k] = urand();
        x[k] = 0;
    }
    cpg_pcg_work w;
    CHECK_INT(cpg_pcg_work_alloc(&w, r, &cpg_vec_cpu), COREPCG_OK);
    cpg_pcg_problem pb = {
        .n = r, .matvec = lower_apply, .matvec_ctx = &ic.lower,
        .precond = ichol_apply, .precond_ctx = &ic, .b = b, .bdelta = b,
        .tol = 1e-10, .max_iter = 100,
    };
    CHECK_INT(cpg_pcg(&pb, &w, x, &it, msg), COREPCG_OK);
    CHECK_LE(it, r);
    cpg_pcg_work_free(&w);
    cpg_rmat_apply(&t.rm, x, Ax);
    double num = 0, den = 0;
    for (int k = 0; k < r; k++) {
        num += (b[k] - Ax[k]) * (b[k] - Ax[k]);
        den += b[k] * b[k];
    }
    CHECK_LE(sqrt(num / den), 1e-9);
    cpg_ichol_free(&ic);
    tsys_free(&t);
}

/* RCM's work grows linearly with the graph, however many components it
 * has: the searches for a peripheral root stay inside a component (they
 * once re-marked every vertex for each, quadratic in the count of
 * components). Graphs of G/2 disjoint edges plus one path of G/2
 * vertices, at two sizes: the visits counted per vertex-or-edge are
 * bounded and equal at both sizes; the order is a permutation that keeps
 * each component contiguous. */
static void rcm_graph(int G, int *gp, int *gi)
{
    int t = 0, half = G / 2;
    for (int v = 0; v < G; v++) {
        gp[v] = t;
        if (v < half) /* pairs (0,1), (2,3), ... */
            gi[t++] = v ^ 1;
        else { /* a path over half..G-1 */
            if (v > half)
                gi[t++] = v - 1;
            if (v + 1 < G)
                gi[t++] = v + 1;
        }
    }
    gp[G] = t;
}

static void test_rcm_linear(void)
{
    double per_item[2];
    for (int size = 0; size < 2; size++) {
        int G = size ? 40000 : 10000;
        int *gp = malloc(sizeof(int) * (size_t)(G + 1));
        int *gi = malloc(sizeof(int) * 2 * (size_t)G);
        int *order = malloc(sizeof(int) * (size_t)G);
        int *seen = calloc((size_t)G, sizeof(int));
        rcm_graph(G, gp, gi);
        long visits = 0;
        CHECK_INT(cpg_order_rcm(gp, gi, G, order, &visits), COREPCG_OK);
        int perm_ok = 1, pairs_ok = 1;
        for (int k = 0; k < G; k++) {
            perm_ok &= order[k] >= 0 && order[k] < G && !seen[order[k]];
            if (order[k] >= 0 && order[k] < G)
                seen[order[k]] = 1;
            if (order[k] < G / 2) /* a pair's two vertices side by side */
                pairs_ok &= (k > 0 && order[k - 1] == (order[k] ^ 1)) ||
                            (k + 1 < G && order[k + 1] == (order[k] ^ 1));
        }
        CHECK(perm_ok, "RCM of %d vertices is not a permutation", G);
        CHECK(pairs_ok, "RCM of %d vertices splits a component", G);
        per_item[size] = (double)visits / (G + gp[G]);
        /* a pseudo-peripheral search is at most 8 breadth-first searches
         * plus the Cuthill-McKee sweep, each visiting a vertex once and
         * each of its edges once */
        CHECK_LE(per_item[size], 9.0);
        free(gp);
        free(gi);
        free(order);
        free(seen);
    }
    CHECK_NEAR(per_item[1], per_item[0], 0.05 * per_item[0]);
}

int main(void)
{
    test_rcm_linear();
    test_defaults();
    test_hand();
    for (int comp = 0; comp < 3; comp++)
        test_breakdown(comp);
    test_stiff_triangles();
    test_compensation_units();
    test_star();
    test_orderings(0);
    test_orderings(1);
    test_reuse();
    test_same_counts();
    test_arguments();
    return test_summary("test_ichol");
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ichol_numeric.c -- the numbers of the block incomplete Cholesky of A~
 * (ichol.h) on an analysis of ichol_symbolic.c: the factorisation by
 * unrolled 3x3 blocks, its attempts (plain, compensated on breakdown:
 * ichol_compensate.c, then Manteuffel shifts; allocates nothing but the
 * second attempt's numbers), and M^-1 inside PCG by the sweeps of
 * kernels/ichol_sweeps.c. */
#include "ichol.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>
#include <stdlib.h>

/* How a factorisation attempt (numeric) or one pivot (pivot_inverse)
 * ended. Only a breakdown is worth another attempt. */
typedef enum attempt_outcome {
    ATTEMPT_FACTORISED = 0,
    ATTEMPT_BREAKDOWN,       /* a pivot ratio <= pivot_tol */
    ATTEMPT_NOT_FINITE,      /* NaN or Inf in a pivot */
    ATTEMPT_DIAGONAL_NOT_POSITIVE, /* a diagonal entry of A~ itself <= 0 */
    ATTEMPT_STOPPED          /* told to give up (stop) */
} attempt_outcome;

/* A~'s block (dI x dJ, leading dimension dI) padded into 3x3. */
static void load_block(const double *x, int dI, int dJ, double *P)
{
    if (dI == 3 && dJ == 3) {
        memcpy(P, x, 9 * sizeof(double));
        return;
    }
    memset(P, 0, 9 * sizeof(double));
    for (int c = 0; c < dJ; c++)
        for (int a = 0; a < dI; a++)
            P[3 * c + a] = x[dI * c + a];
}

/* D (3x3, lower triangle read) -> D^-1 (all 9) by Cholesky. The scalar
 * pivots divided by diag (the unshifted A~ diagonal) must exceed tol for
 * the first d of them. Returns FACTORISED, BREAKDOWN or NOT_FINITE;
 * *ratio gets the smallest pivot ratio. */
/* Not precond.c's invert_spd (LAPACK): other rounding, no pivot ratios. */
static attempt_outcome pivot_inverse(double *D, const double *diag, int d,
                                     double tol, double *ratio)
{
    double p0 = D[0];
    double r = p0 / diag[0];
    *ratio = r;
    if (!isfinite(p0))
        return ATTEMPT_NOT_FINITE;
    if (!(r > tol))
        return *ratio = r, ATTEMPT_BREAKDOWN;
    double l00 = sqrt(p0), l10 = D[1] / l00, l20 = D[2] / l00;
    double p1 = D[4] - l10 * l10;
    double r1 = d > 1 ? p1 / diag[1] : 1;
    if (!isfinite(p1))
        return ATTEMPT_NOT_FINITE;
    if (r1 < r)
        r = r1;
    if (!(r1 > tol))
        return *ratio = r1, ATTEMPT_BREAKDOWN;
    double l11 = sqrt(p1), l21 = (D[5] - l20 * l10) / l11;
    double p2 = D[8] - l20 * l20 - l21 * l21;
    double r2 = d > 2 ? p2 / diag[2] : 1;
    if (!isfinite(p2))
        return ATTEMPT_NOT_FINITE;
    if (r2 < r)
        r = r2;
    if (!(r2 > tol))
        return *ratio = r2, ATTEMPT_BREAKDOWN;
    double l22 = sqrt(p2);
    double y00 = 1 / l00, y11 = 1 / l11, y22 = 1 / l22;
    double y10 = -l10 * y00 * y11;
    double y21 = -l21 * y11 * y22;
    double y20 = -(l20 * y00 + l21 * y10) * y22;
    /* D^-1 = Y^T Y, Y = L^-1 lower */
    double i00 = y00 * y00 + y10 * y10 + y20 * y20;
    double i10 = y11 * y10 + y21 * y20;
    double i20 = y22 * y20;
    double i11 = y11 * y11 + y21 * y21;
    double i21 = y22 * y21;
    double i22 = y22 * y22;
    D[0] = i00; D[1] = i10; D[2] = i20;
    D[3] = i10; D[4] = i11; D[5] = i21;
    D[6] = i20; D[7] = i21; D[8] = i22;
    *ratio = r;
    return ATTEMPT_FACTORISED;
}

/* F = W S, S symmetric (all 9 stored). Column-major 3x3. */
static inline void mul_ws(const double *W, const double *S, double *F)
{
    for (int c = 0; c < 3; c++) {
        const double s0 = S[3 * c], s1 = S[3 * c + 1], s2 = S[3 * c + 2];
        F[3 * c] = W[0] * s0 + W[3] * s1 + W[6] * s2;
        F[3 * c + 1] = W[1] * s0 + W[4] * s1 + W[7] * s2;
        F[3 * c + 2] = W[2] * s0 + W[5] * s1 + W[8] * s2;
    }
}

/* T -= F W^T. */
static inline void sub_fwt(double *T, const double *F, const double *W)
{
    for (int c = 0; c < 3; c++) {
        const double w0 = W[c], w1 = W[3 + c], w2 = W[6 + c];
        T[3 * c] -= F[0] * w0 + F[3] * w1 + F[6] * w2;
        T[3 * c + 1] -= F[1] * w0 + F[4] * w1 + F[7] * w2;
        T[3 * c + 2] -= F[2] * w0 + F[5] * w1 + F[8] * w2;
    }
}

/* The lower triangle of T -= F W^T (a diagonal block). */
static inline void sub_fwt_lower(double *T, const double *F, const double *W)
{
    T[0] -= F[0] * W[0] + F[3] * W[3] + F[6] * W[6];
    T[1] -= F[1] * W[0] + F[4] * W[3] + F[7] * W[6];
    T[2] -= F[2] * W[0] + F[5] * W[3] + F[8] * W[6];
    T[4] -= F[1] * W[1] + F[4] * W[4] + F[7] * W[7];
    T[5] -= F[2] * W[1] + F[5] * W[4] + F[8] * W[7];
    T[8] -= F[2] * W[2] + F[5] * W[5] + F[8] * W[8];
}

/* A~'s blocks are read in the factor's (RCM) order, scattered over A~'s
 * own: without asking for them ahead, the factorisation waits on memory
 * for each block (docs/benchmark.md, "icpcg's iteration in the factor's
 * order"). A 3x3 block spans two cache lines. */
#define PREFETCH_BLOCKS 8
static inline void prefetch_block(const double *x)
{
    __builtin_prefetch(x);
    __builtin_prefetch(x + 8);
}

/* One attempt into v with shift alpha, the dropped fill compensated when
 * comp; the first attempt on A~'s values also copies A~'s lower triangle
 * into ic->lower. stop, when not NULL, is polled between columns: once
 * it is set the attempt gives up. Returns how it ended, *bad the node
 * where it failed (a breakdown, not finite or a diagonal entry <= 0);
 * *minratio the smallest pivot ratio seen. */
static attempt_outcome numeric(cpg_ichol *ic, cpg_ichol_numbers *v,
                               const cpg_rmat *At, double alpha, int comp,
                               int load_lower, const atomic_int *stop,
                               int *bad, double *minratio)
{
    const int G = ic->G;
    const int *lp = ic->lp, *li = ic->li;
    const double *ax = At->x;
    double *lx = v->lx;
    /* values: A~ (+ alpha diag) padded into D and F */
    for (int k = 0; k < G; k++) {
        double *D = v->dinv + 9L * k;
        int d = ic->dim[k];
        if (k + PREFETCH_BLOCKS < G)
            prefetch_block(ax + 9L * ic->dsrc[k + PREFETCH_BLOCKS]);
        load_block(ax + 9L * ic->dsrc[k], d, d, D);
        for (int a = 0; a < 3; a++) {
            if (a >= d)
                D[4 * a] = 1;
            v->diag[3 * k + a] = a < d ? D[4 * a] : 1;
            /* an SPD A~ has a positive diagonal: no shift can help */
            if (!(D[4 * a] > 0)) {
                *bad = ic->perm[k];
                *minratio = -INFINITY;
                return isfinite(D[4 * a]) ? ATTEMPT_DIAGONAL_NOT_POSITIVE
                                          : ATTEMPT_NOT_FINITE;
            }
        }
        if (load_lower)
            memcpy(ic->lower.d + 9L * k, D, 9 * sizeof(double));
        for (int a = 0; a < 3; a++)
            D[4 * a] *= 1 + alpha;
    }
    if (ic->opts.fill)
        memset(lx, 0, 9 * sizeof(double) * (size_t)lp[G]);
    const int blocks = ic->mp[G];
    for (int k = 0; k < G; k++)
        for (int t = ic->mp[k]; t < ic->mp[k + 1]; t++) {
            if (t + PREFETCH_BLOCKS < blocks)
                prefetch_block(ax + 9L * ic->ms[t + PREFETCH_BLOCKS]);
            double *F = lx + 9L * ic->mq[t];
            load_block(ax + 9L * ic->ms[t], ic->dim[ic->mi[t]], ic->dim[k], F);
            if (load_lower)
                memcpy(ic->lower.x + 9L * t, F, 9 * sizeof(double));
        }
    if (load_lower)
        ic->lower.loaded = 1;
    double rmin = INFINITY;
    v->comp_added = 0;
    for (int k = 0; k < G; k++) {
        if (stop && atomic_load_explicit(stop, memory_order_relaxed))
            return ATTEMPT_STOPPED;
        double ratio;
        attempt_outcome st =
            pivot_inverse(v->dinv + 9L * k, v->diag + 3L * k, ic->dim[k],
                          ic->opts.pivot_tol, &ratio);
        if (ratio < rmin)
            rmin = ratio;
        if (st != ATTEMPT_FACTORISED) {
            *bad = ic->perm[k];
            *minratio = rmin;
            return st;
        }
        const double *S = v->dinv + 9L * k;
        const int q0 = lp[k], q1 = lp[k + 1];
        double *Fc = v->colbuf;
        for (int q = q0; q < q1; q++)
            mul_ws(lx + 9L * q, S, Fc + 9L * (q - q0));
        /* Schur update of the trailing blocks (J, I) with J <= I both in
         * column k, dropped where outside F's pattern */
        for (int s = q0; s < q1; s++) {
            const int J = li[s];
            const double *Ws = lx + 9L * s;
            sub_fwt_lower(v->dinv + 9L * J, Fc + 9L * (s - q0), Ws);
            int t2 = lp[J];
            const int e2 = lp[J + 1];
            for (int t = s + 1; t < q1 && (comp || t2 < e2); t++) {
                const int I = li[t];
                while (t2 < e2 && li[t2] < I)
                    t2++;
                if (t2 < e2 && li[t2] == I)
                    sub_fwt(lx + 9L * t2, Fc + 9L * (t - q0), Ws);
                else if (comp)
                    cpg_ichol_compensate(ic, v, I, J, Fc + 9L * (t - q0),
                                         Ws);
            }
        }
        memcpy(lx + 9L * q0, Fc, sizeof(double) * 9 * (size_t)(q1 - q0));
    }
    *minratio = rmin;
    return ATTEMPT_FACTORISED;
}

/* An attempt's inputs and outcome. */
typedef struct attempt {
    cpg_ichol_numbers *v;
    int comp, load_lower;
    attempt_outcome status;
    int bad;
    double ratio;
} attempt;

/* The plain attempt and the compensated one, unshifted, side by side
 * (attempts). settled is set once the plain one has ended any way but
 * a breakdown, the only outcome after which the compensated one is
 * wanted: that one then stops. */
typedef struct attempt_pair {
    cpg_ichol *ic;
    const cpg_rmat *At;
    attempt plain, comp;
    atomic_int settled;
} attempt_pair;

static void run_attempt(attempt_pair *p, attempt *a, const atomic_int *stop)
{
    a->status = numeric(p->ic, a->v, p->At, 0, a->comp, a->load_lower, stop,
                        &a->bad, &a->ratio);
}

static void pair_part(void *arg, int which)
{
    attempt_pair *p = arg;
    if (which == 0) {
        run_attempt(p, &p->plain, NULL);
        if (p->plain.status != ATTEMPT_BREAKDOWN)
            atomic_store_explicit(&p->settled, 1, memory_order_relaxed);
    } else {
        run_attempt(p, &p->comp, &p->settled);
    }
}

/* Whether the plain attempt runs beside the compensated one: when the
 * last factorisation's plain attempt broke down (on stiff triangle
 * meshes it does on nearly every step, possibly at its last node:
 * docs/benchmark.md, "IC(0) on triangle meshes") and a second thread is
 * free. Plain first and compensated after a breakdown give the same
 * factor: only the time changes. */
static int side_by_side(cpg_ichol *ic)
{
    if (ic->opts.compensate != CPG_ICHOL_COMP_ON_BREAKDOWN ||
        !ic->plain_broke || !cpg_two_threads(ic->G))
        return 0;
    /* the second attempt's storage, kept with the analysis once made;
     * while it cannot be had the attempts run one after the other */
    return ic->spare.lx ||
           cpg_ichol_numbers_alloc(ic, &ic->spare) == COREPCG_OK;
}

/* The attempts of a factorisation: plain IC; on breakdown the
 * compensated one, which an SPD A~ cannot break (cpg_ichol_compensate);
 * shifts only after that, for round-off or an A~ that is not SPD. The
 * first two may run at once (side_by_side); their outcomes are read in
 * the same order, so the factor and the record are those of running them
 * in turn. Fills
 * ic->info's attempt fields; *alpha and *comp are the last attempt's,
 * *bad its failed node. Returns how the last attempt ended. */
static attempt_outcome attempts(cpg_ichol *ic, const cpg_rmat *At,
                                double *alpha, int *comp, int *bad)
{
    cpg_ichol_info *inf = &ic->info;
    inf->factorised = 0;
    inf->shift = 0;
    inf->retries = 0;
    inf->breakdown_node = -1;
    inf->breakdown_ratio = 0;
    inf->min_pivot_ratio = INFINITY;
    inf->compensated = 0;
    inf->compensation = 0;
    const int policy = ic->opts.compensate;
    int shifts = 0;
    attempt_outcome st;
#ifdef COREPCG_TEST_BUILD
    *comp = policy == CPG_ICHOL_COMP_ALWAYS;
#else
    *comp = 0;
#endif
    /* the compensated attempt already run beside the plain one */
    attempt_pair pair = {.ic = ic, .At = At};
    int pair_ran = 0;
    for (;;) {
        *alpha = shifts == 0 ? 0
               : ic->opts.shift_first * pow(ic->opts.shift_growth, shifts - 1);
        double ratio;
        const int load_lower = ic->lower.x && !ic->lower.loaded;
        if (pair_ran && *comp && shifts == 0) {
            cpg_ichol_numbers t = ic->num;
            ic->num = ic->spare;
            ic->spare = t;
            st = pair.comp.status;
            *bad = pair.comp.bad;
            ratio = pair.comp.ratio;
        } else if (!*comp && shifts == 0 && side_by_side(ic)) {
            pair.plain = (attempt){.v = &ic->num, .load_lower = load_lower};
            pair.comp = (attempt){.v = &ic->spare, .comp = 1};
            atomic_init(&pair.settled, 0);
            cpg_two_parts(pair_part, &pair, 1);
            pair_ran = 1;
            st = pair.plain.status;
            *bad = pair.plain.bad;
            ratio = pair.plain.ratio;
        } else {
            st = numeric(ic, &ic->num, At, *alpha, *comp, load_lower, NULL,
                         bad, &ratio);
        }
        if (inf->retries == 0) /* whatever the policy: a probe's too */
            ic->plain_broke = !*comp && st == ATTEMPT_BREAKDOWN;
        inf->min_pivot_ratio = ratio;
        if (st == ATTEMPT_FACTORISED)
            break;
        if (inf->retries == 0) {
            inf->breakdown_node = *bad;
            inf->breakdown_ratio = ratio;
        }
        if (st != ATTEMPT_BREAKDOWN) /* no retry can help */
            break;
        if (!*comp && policy == CPG_ICHOL_COMP_ON_BREAKDOWN)
            *comp = 1;
        else if (shifts < ic->opts.max_retries)
            shifts++;
        else
            break;
        inf->retries++;
    }
    return st;
}

int cpg_ichol_factorise(cpg_ichol *ic, const cpg_rmat *At, char *msg)
{
    if (!ic || !At || !At->A || !At->u || !At->x)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "incomplete Cholesky factorise: NULL argument");
    if (!ic->ap)
        return cpg_fail(msg, COREPCG_ERR_STATE,
                        "incomplete Cholesky factorise before analyse");
    if (At->A->nb != ic->N || At->p[ic->N] != ic->ap[ic->N])
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "incomplete Cholesky "
                        "factorise: A~ is not the pattern analysed");
    double t0 = cpg_now();
    /* checked before anything changes: a refused A~ leaves the last
     * factor and its layout whole */
    for (int k = 0; k < ic->G; k++) {
        int node = ic->perm[k], d = At->u->ndof[node];
        if (d < 1 || d > 3)
            return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "incomplete Cholesky "
                            "factorise: node %d has ndof %d, not the "
                            "pattern analysed", node, d);
    }
    for (int k = 0; k < ic->G; k++) {
        ic->off[k] = At->u->off[ic->perm[k]];
        ic->dim[k] = (unsigned char)At->u->ndof[ic->perm[k]];
    }
    double alpha;
    int bad = -1, comp;
    ic->lower.loaded = 0; /* this A~'s values: loaded by the first attempt */
    attempt_outcome st = attempts(ic, At, &alpha, &comp, &bad);
    cpg_ichol_info *inf = &ic->info;
    inf->time_factor_s = cpg_now() - t0;
    if (st == ATTEMPT_NOT_FINITE)
        return cpg_fail(msg, COREPCG_ERR_NOT_FINITE, "incomplete Cholesky: "
                        "NaN or Inf in the pivot of node %d", bad);
    if (st == ATTEMPT_DIAGONAL_NOT_POSITIVE)
        return cpg_fail(msg, COREPCG_ERR_NOT_SPD, "the reduced matrix A~ is "
                        "not positive definite: a diagonal entry of node %d "
                        "is <= 0", bad);
    /* only a compensated attempt no longer wanted stops */
    if (st == ATTEMPT_STOPPED)
        return cpg_fail(msg, COREPCG_ERR_STATE, "incomplete Cholesky: an "
                        "attempt stopped unfinished");
    if (st == ATTEMPT_BREAKDOWN)
        return cpg_fail(msg, COREPCG_ERR_IC_BREAKDOWN, "incomplete Cholesky broke "
                        "down at node %d (pivot ratio %.3g) and still at "
                        "node %d with shift %.3g after %d retries%s",
                        inf->breakdown_node, inf->breakdown_ratio, bad, alpha,
                        inf->retries, comp ? " (compensated)" : "");
    /* the sweeps read the factor in float: an entry beyond its range
     * (A~'s entries spanning some 1e40 and more) would make every
     * iteration Inf, reported as NaN with no cause (an outside review) */
    long n9 = 9L * ic->lp[ic->G];
    int beyond_float = 0;
    for (long q = 0; q < n9; q++) {
        ic->lxf[q] = (float)ic->num.lx[q];
        beyond_float |= isinf(ic->lxf[q]);
    }
    if (beyond_float)
        return cpg_fail(msg, COREPCG_ERR_IC_BREAKDOWN, "incomplete Cholesky: "
                        "a factor entry lies beyond float's range (3.4e38), "
                        "in which icpcg keeps its factor: A~'s entries span "
                        "too many orders of magnitude for icpcg");
    inf->shift = alpha;
    inf->factorised = 1;
    if (comp) {
        double trace = 0;
        for (int k = 0; k < ic->G; k++)
            for (int a = 0; a < ic->dim[k]; a++)
                trace += ic->num.diag[3 * k + a];
        inf->compensated = 1;
        inf->compensation = trace > 0 ? ic->num.comp_added / trace : 0;
    }
    return COREPCG_OK;
}

int cpg_ichol_apply_padded(void *ctx, const double *in, double *out)
{
    cpg_ichol *ic = ctx;
    if (!ic || !in || !out || !ic->info.factorised)
        return COREPCG_ERR_STATE;
    if (out != in)
        memcpy(out, in, 3 * sizeof(double) * (size_t)ic->G);
    cpg_ichol_sweeps(ic->G, ic->lp, ic->li, ic->lxf, ic->num.dinv, out,
                     ic->avx2);
    return COREPCG_OK;
}

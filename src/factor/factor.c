/* SPDX-License-Identifier: GPL-2.0-or-later */
/* factor.c -- the CHOLMOD wrapper shared by the direct solver and corePCG:
 * a quiet common per analysis, its settings set once when it starts;
 * analyse once (factor_analyse.c), factorise many times
 * (factor_numeric.c), solve without allocating (the preconditioner inside
 * the PCG loop). */
#include "factor.h"

#include <stdlib.h>
#include <string.h>

/* Frees everything f holds and leaves it empty (all NULL). */
void cpg_factor_free(cpg_factor *f, cholmod_common *cm)
{
    if (!f)
        return;
    if (cm) {
        cholmod_free_factor(&f->L, cm);
        cholmod_free_dense(&f->B, cm);
        cholmod_free_dense(&f->X, cm);
        cholmod_free_dense(&f->Y, cm);
        cholmod_free_dense(&f->E, cm);
        cholmod_free_dense(&f->B2, cm);
        cholmod_free_dense(&f->X2, cm);
        cholmod_free_dense(&f->Y2, cm);
        cholmod_free_dense(&f->E2, cm);
    }
    free(f->perm);
    memset(f, 0, sizeof *f);
}

/* cpg_factor_start_nodes or _natural: the common's settings, once. */
static int start_common(cholmod_common *cm, corepcg_factor kind,
                        int ordering, char *msg)
{
    if (!cm)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "factor: NULL common");
    if ((int)kind < 0 || kind >= COREPCG_FACTOR_COUNT)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "factor: unknown factor kind %d", (int)kind);
    int rc = cpg_cholmod_start(cm);
    if (rc != COREPCG_OK)
        return cpg_fail(msg, rc, "CHOLMOD: cannot start");
    cm->supernodal = kind == COREPCG_FACTOR_LDL ? CHOLMOD_SIMPLICIAL
                   : kind == COREPCG_FACTOR_LL  ? CHOLMOD_SUPERNODAL
                   : CHOLMOD_AUTO;
    /* Simplicial factors stay LDL^T (Ye et al.'s); supernodal ones are LL^T. */
    cm->final_ll = 0;
    cm->final_asis = 1;
    /* The one ordering method the analysis uses. */
    cm->nmethods = 1;
    cm->method[0].ordering = ordering;
    return COREPCG_OK;
}

int cpg_factor_start_nodes(cholmod_common *cm, corepcg_factor kind, char *msg)
{
    int rc = start_common(cm, kind, CHOLMOD_GIVEN, msg);
    if (rc == COREPCG_OK)
        cm->postorder = 1; /* the node order, then its etree postorder */
    return rc;
}

/* Supernode amalgamation for the natural analysis (CHOLMOD's defaults
 * are nrelax 4, 16, 48 and zrelax 0.8, 0.1, 0.05). The matrix core's
 * supernodes are narrow (its node graph is the stretch grid: no diagonal
 * or two-apart couplings), and wider relaxed supernodes keep the dense
 * kernels busy longer: the core factorises faster with the same solve
 * cost; wider still factorised no faster and solved slower
 * (docs/benchmark.md, "corePCG's factorisation"). */
int cpg_factor_start_natural(cholmod_common *cm, corepcg_factor kind,
                             char *msg)
{
    static const size_t nrelax[3] = {8, 32, 96};
    static const double zrelax[3] = {0.8, 0.2, 0.1};
    int rc = start_common(cm, kind, CHOLMOD_NATURAL, msg);
    if (rc != COREPCG_OK)
        return rc;
    cm->postorder = 0; /* the matrix comes with its postorder */
    for (int k = 0; k < 3; k++) {
        cm->nrelax[k] = nrelax[k];
        cm->zrelax[k] = zrelax[k];
    }
    return COREPCG_OK;
}

/* cholmod_solve2 into the kept X (B's columns), with the kept Y and E. */
static int solve_kept(cpg_factor *f, cholmod_dense *B, cholmod_dense **X,
                      cholmod_dense **Y, cholmod_dense **E, cholmod_common *cm)
{
    size_t n = f->L->n, ncol = B->ncol;
    /* CHOLMOD 3's simplicial solve works in a 4 x n Y (up to 4 columns at
     * a time) but leaves it reshaped, so the next call would free and
     * reallocate it. Its buffer still holds 4 n entries: restore the shape
     * it expects. */
    if (*Y && !f->L->is_super && (*Y)->nzmax >= 4 * n) {
        (*Y)->nrow = 4;
        (*Y)->d = 4;
        (*Y)->ncol = n;
    }
    /* CHOLMOD 3.0.14's supernodal solve allocates Y, then E, and reads the
     * status only after both: when Y's allocation fails and E's succeeds
     * the status says OK and it solves into a NULL Y (a crash found by
     * tests/test_oom.c). Hand it both at the sizes it asks for. */
    if (f->L->is_super &&
        (!cholmod_ensure_dense(Y, n, ncol, n, CHOLMOD_REAL, cm) ||
         !cholmod_ensure_dense(E, ncol, f->L->maxesize, ncol, CHOLMOD_REAL,
                               cm))) {
        int code = cpg_cholmod_code(cm);
        return code != COREPCG_OK ? code : COREPCG_ERR_NO_MEMORY;
    }
    int ok = cholmod_solve2(CHOLMOD_A, f->L, B, NULL, X, NULL, Y, E, cm);
    int code = cpg_cholmod_code(cm);
    if (code != COREPCG_OK)
        return code;
    return ok && *X ? COREPCG_OK : COREPCG_ERR_CHOLMOD;
}

/* Column c of B (n rows) = in, in the matrix's order. Copies of n doubles
 * cost little beside two triangular solves, and keep CHOLMOD's objects
 * owning their own memory. */
static void gather(const cpg_factor *f, const double *in, double *col)
{
    size_t n = f->L->n;
    if (!f->perm) {
        memcpy(col, in, n * sizeof(double));
        return;
    }
    for (size_t k = 0; k < n; k++)
        col[k] = in[f->perm[k]];
}

static void scatter(const cpg_factor *f, const double *col, double *out)
{
    size_t n = f->L->n;
    if (!f->perm) {
        memcpy(out, col, n * sizeof(double));
        return;
    }
    for (size_t k = 0; k < n; k++)
        out[f->perm[k]] = col[k];
}

static int solvable(const cpg_factor *f)
{
    return f->L && f->B && f->X && f->L->xtype != CHOLMOD_PATTERN;
}

int cpg_factor_solve(cpg_factor *f, const double *in, double *out,
                     cholmod_common *cm)
{
    if (!f || !in || !out || !cm)
        return COREPCG_ERR_ARGUMENT;
    if (!solvable(f))
        return COREPCG_ERR_STATE;
    gather(f, in, f->B->x);
    int code = solve_kept(f, f->B, &f->X, &f->Y, &f->E, cm);
    if (code == COREPCG_OK)
        scatter(f, f->X->x, out);
    return code;
}

int cpg_factor_solve2(cpg_factor *f, const double *in1, const double *in2,
                      double *out1, double *out2, cholmod_common *cm)
{
    if (!f || !in1 || !in2 || !out1 || !out2 || !cm)
        return COREPCG_ERR_ARGUMENT;
    if (!solvable(f))
        return COREPCG_ERR_STATE;
    size_t n = f->L->n;
    if (!cholmod_ensure_dense(&f->B2, n, 2, n, CHOLMOD_REAL, cm)) {
        int code = cpg_cholmod_code(cm);
        return code != COREPCG_OK ? code : COREPCG_ERR_NO_MEMORY;
    }
    double *B = f->B2->x;
    gather(f, in1, B);
    gather(f, in2, B + n);
    int code = solve_kept(f, f->B2, &f->X2, &f->Y2, &f->E2, cm);
    if (code == COREPCG_OK) {
        const double *X = f->X2->x;
        scatter(f, X, out1);
        scatter(f, X + n, out2);
    }
    return code;
}

long cpg_factor_nnz(const cpg_factor *f)
{
    if (!f || !f->L)
        return 0;
    const cholmod_factor *L = f->L;
    long nnz = 0;
    if (L->is_super) {
        /* Entries on and below the diagonal of each supernode (explicit
         * zeros of relaxed amalgamation included): comparable to the
         * simplicial count. */
        const int *super = L->super, *Pi = L->pi;
        for (size_t s = 0; s < L->nsuper; s++) {
            long ncol = super[s + 1] - super[s];
            long nrow = Pi[s + 1] - Pi[s];
            nnz += ncol * nrow - ncol * (ncol - 1) / 2;
        }
    } else if (L->xtype != CHOLMOD_PATTERN && L->nz) {
        const int *nz = L->nz;
        for (size_t j = 0; j < L->n; j++)
            nnz += nz[j];
    } else {
        /* Symbolic only: the analysis' column counts. */
        const int *count = L->ColCount;
        for (size_t j = 0; j < L->n; j++)
            nnz += count[j];
    }
    return nnz;
}

corepcg_ordering cpg_factor_ordering(const cpg_factor *f)
{
    if (!f || !f->L)
        return COREPCG_ORDERING_BEST;
    if (f->node_ordering)
        return f->ordering_used;
    switch (f->L->ordering) {
    case CHOLMOD_AMD:
    case CHOLMOD_COLAMD:  /* AMD in the symmetric case */
        return COREPCG_ORDERING_AMD;
    case CHOLMOD_METIS:
        return COREPCG_ORDERING_METIS;
    case CHOLMOD_NESDIS:
        return COREPCG_ORDERING_NESDIS;
    default:
        /* Natural or given: none of ours; "best" means CHOLMOD's pick. */
        return COREPCG_ORDERING_BEST;
    }
}

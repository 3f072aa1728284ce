/* SPDX-License-Identifier: GPL-2.0-or-later */
/* factor_numeric.c -- the numeric factorisation of the CHOLMOD wrapper
 * (factor.h) with its kept analysis, and where it failed when the matrix
 * is not positive definite, in numbers and in words. */
#include "factor.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>

/* The diagonal of L in column j (permuted order): D(j,j) for a simplicial
 * LDL^T, L(j,j) otherwise; NaN when L holds no numbers. */
static double factor_pivot(const cholmod_factor *L, size_t j)
{
    const double *Lx = L->x;
    if (L->xtype != CHOLMOD_REAL || !Lx)
        return NAN;
    if (!L->is_super) {
        const int *Lp = L->p;   /* CHOLMOD stores the diagonal first */
        return Lx[Lp[j]];
    }
    const int *super = L->super, *Pi = L->pi, *Px = L->px;
    /* Supernodes are few and visited in order; a search keeps this simple
     * (it runs once per column only when a failure is being reported). */
    for (size_t s = 0; s < L->nsuper; s++) {
        size_t k1 = (size_t)super[s], k2 = (size_t)super[s + 1];
        if (j >= k2)
            continue;
        size_t nsrow = (size_t)(Pi[s + 1] - Pi[s]), jj = j - k1;
        return Lx[(size_t)Px[s] + jj * nsrow + jj];
    }
    return NAN;
}

/* First column (permuted order) whose pivot is not positive and finite, or
 * n. One pass over the supernodes, or over the columns. */
static size_t first_bad_pivot(const cholmod_factor *L)
{
    const double *Lx = L->x;
    if (L->xtype != CHOLMOD_REAL || !Lx)
        return 0;
    if (!L->is_super) {
        const int *Lp = L->p;
        for (size_t j = 0; j < L->n; j++) {
            double d = Lx[Lp[j]];
            if (!(d > 0.0) || !isfinite(d))
                return j;
        }
        return L->n;
    }
    const int *super = L->super, *Pi = L->pi, *Px = L->px;
    for (size_t s = 0; s < L->nsuper; s++) {
        size_t k1 = (size_t)super[s], k2 = (size_t)super[s + 1];
        size_t nsrow = (size_t)(Pi[s + 1] - Pi[s]);
        for (size_t jj = 0; jj < k2 - k1; jj++) {
            double d = Lx[(size_t)Px[s] + jj * nsrow + jj];
            if (!(d > 0.0) || !isfinite(d))
                return k1 + jj;
        }
    }
    return L->n;
}

/* The unknown of factor column k: through the matrix's own order (f->perm)
 * and CHOLMOD's (L->Perm, the identity after a natural analysis). */
static int original_column(const cpg_factor *f, size_t k)
{
    const int *Lperm = f->L->Perm;
    int j = Lperm ? Lperm[k] : (int)k;
    return f->perm ? f->perm[j] : j;
}

void cpg_factor_not_spd_text(const cpg_factor *f, char *buf, size_t size)
{
    size_t n = f->L ? f->L->n : 0;
    if (f->bad_has_pivot)
        snprintf(buf, size, "pivot %g at column %d (pivot %zu of %zu)",
                 f->bad_pivot, f->bad_column, f->bad_step + 1, n);
    else
        snprintf(buf, size, "the factorisation failed at column %d (pivot "
                 "%zu of %zu)", f->bad_column, f->bad_step + 1, n);
}

/* The failure cpg_factor_numeric reports, from f's numbers. */
static int not_spd(const cpg_factor *f, int code, char *msg)
{
    char where[128];
    cpg_factor_not_spd_text(f, where, sizeof where);
    return cpg_fail(msg, code, "not positive definite: %s", where);
}

int cpg_factor_numeric(cpg_factor *f, cholmod_sparse *M, int not_spd_code,
                       cholmod_common *cm, char *msg)
{
    if (!f || !M || !cm)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "factor: NULL argument");
    if (!f->L)
        return cpg_fail(msg, COREPCG_ERR_STATE,
                        "factor: no analysis to factorise with");
    if (M->nrow != f->L->n || M->ncol != f->L->n)
        return cpg_fail(msg, COREPCG_ERR_DIMENSION,
                        "factor: matrix is %zu x %zu, the analysis was for "
                        "n = %zu", M->nrow, M->ncol, f->L->n);

    /* CHOLMOD 3 opens the OpenMP regions of its supernodal factorisation
     * with num_threads(4), hard-wired, whatever the machine (and
     * OMP_NUM_THREADS) says, while OpenBLAS runs its own threads inside
     * them: oversubscribed (docs/benchmark.md, "corePCG's
     * factorisation"). With max-active-levels 0 on this thread the
     * regions run on it alone;
     * libgomp keeps the setting per thread, so other threads of the
     * caller are unaffected, and it is restored at once. */
    int levels = omp_get_max_active_levels();
    omp_set_max_active_levels(0);
    int ok = cholmod_factorize(M, f->L, cm);
    omp_set_max_active_levels(levels);
    int status = cm->status;
    cholmod_factor *L = f->L;

    /* TRUE comes back on a matrix that is not positive definite: the
     * status and L->minor say so (supernodal and simplicial LL^T). */
    f->bad_column = -1;
    if (status == CHOLMOD_NOT_POSDEF || (ok && L->minor < L->n)) {
        f->bad_step = L->minor < L->n ? L->minor : 0;
        f->bad_column = original_column(f, f->bad_step);
        f->bad_has_pivot = 0;
        f->bad_pivot = NAN;
        return not_spd(f, not_spd_code, msg);
    }
    int code = cpg_cholmod_code(cm);
    if (!ok && code == COREPCG_OK)
        code = COREPCG_ERR_CHOLMOD;
    if (code != COREPCG_OK)
        return cpg_fail(msg, code, "CHOLMOD factorise failed: %s (status %d)",
                        cpg_cholmod_status_text(status), status);

    /* The simplicial LDL^T path goes on through negative pivots without a
     * word (and nothing catches NaN): check the whole diagonal. */
    size_t bad = first_bad_pivot(L);
    if (bad < L->n) {
        f->bad_step = bad;
        f->bad_column = original_column(f, bad);
        f->bad_has_pivot = 1;
        f->bad_pivot = factor_pivot(L, bad);
        return not_spd(f, not_spd_code, msg);
    }
    return COREPCG_OK;
}

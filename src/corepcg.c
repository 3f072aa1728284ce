/* corepcg.c -- corePCG (Ye, Webber & Wang sec. 6): PCG on A~ preconditioned
 * by the matrix core -- A's diagonal blocks and stretch blocks, reduced
 * with the same U -- factorised once per step by CHOLMOD, so that each
 * preconditioner application is a pair of triangular solves. */
#include "handle.h"

#include <stdlib.h>
#include <string.h>

static int factor_precond(void *ctx, const double *in, double *out)
{
    corepcg_solver *h = ctx;
    return cpg_factor_solve(&h->fac, in, out, &h->cm);
}

static int core_structure(corepcg_solver *h, const corepcg_system *sys)
{
    double t = cpg_now();
    if (cpg_rmat_build(&h->Ar, &h->A, &h->u) != COREPCG_OK)
        return cpg_handle_no_memory(h);
    h->keep = malloc((size_t)h->A.p[h->A.nb] + 1);
    if (!h->keep)
        return cpg_handle_no_memory(h);
    int rc = cpg_core_mark(&h->A, sys, h->set.core, h->set.core_threshold,
                           h->keep, &h->core_blocks, h->msg);
    if (rc != COREPCG_OK)
        return rc;
    if (cpg_bmat_select(&h->A, h->keep, &h->Acore) != COREPCG_OK)
        return cpg_handle_no_memory(h);
    h->Ct = cpg_reduce_pattern(&h->Acore, &h->u, &h->cm);
    if (!h->Ct)
        return cpg_handle_no_memory(h);
    h->setup_info.time_reduce_s = cpg_now() - t;
    if (h->u.r > 0) {
        t = cpg_now();
        rc = cpg_factor_analyze_nodes(&h->fac, h->Ct, h->u.off, h->u.N,
                                      h->set.ordering, h->set.factor, &h->cm,
                                      h->msg);
        if (rc != COREPCG_OK)
            return rc;
        h->setup_info.time_analyze_s = cpg_now() - t;
    }
    return cpg_handle_buffers(h, h->u.r);
}

/* The core's blocks follow the stretch pairs (or, with core auto, the
 * values): the analysis holds only if they are the same blocks. */
static int core_keeps_structure(corepcg_solver *h, const corepcg_system *sys,
                                const cpg_bmat *newA)
{
    long nb = newA->p[newA->nb], kept = 0;
    unsigned char *keep = malloc((size_t)nb + 1);
    if (!keep)
        return 0;
    char why[COREPCG_MSG_SIZE];
    int same = cpg_core_mark(newA, sys, h->set.core, h->set.core_threshold,
                             keep, &kept, why) == COREPCG_OK &&
               memcmp(keep, h->keep, (size_t)nb) == 0;
    free(keep);
    return same;
}

static int core_numbers(corepcg_solver *h, int fresh)
{
    if (!fresh) {
        double t = cpg_now();
        cpg_rmat_values(&h->Ar);
        long t2 = 0; /* same blocks kept: copy their new values */
        for (long k = 0; k < h->A.p[h->A.nb]; k++)
            if (h->keep[k])
                memcpy(h->Acore.x + 9 * t2++, h->A.x + 9 * k, 9 * sizeof(double));
        cpg_reduce_values(&h->Acore, &h->u, h->Ct);
        h->setup_info.time_reduce_s = cpg_now() - t;
    }
    cpg_precond_free(&h->pc);
    h->fell_back = 0;
    if (!h->fac.L)
        return COREPCG_OK; /* r == 0: everything is prescribed */
    double t = cpg_now();
    int rc = cpg_factor_numeric(&h->fac, h->Ct, COREPCG_ERR_CORE_NOT_SPD,
                                &h->cm, h->msg);
    h->setup_info.time_factor_s = cpg_now() - t;
    if (rc == COREPCG_ERR_CORE_NOT_SPD && h->set.fallback_upcg) {
        rc = cpg_precond_reduced(&h->pc, COREPCG_PRECOND_BLOCK, &h->Ar, h->msg);
        h->fell_back = rc == COREPCG_OK;
    }
    return rc;
}

static int core_solve(corepcg_solver *h, const double *b, const double *y,
                      int *iterations)
{
    int rc = COREPCG_OK;
    *iterations = 0;
    if (!cpg_handle_reduced_rhs(h, b)) {
        if (h->fell_back)
            rc = cpg_handle_reduced_pcg(h, cpg_precond_apply, &h->pc, y, iterations);
        else
            rc = cpg_handle_reduced_pcg(h, factor_precond, h, y, iterations);
    }
    if (rc >= 0)
        cpg_handle_prolong(h);
    if (rc == COREPCG_OK && h->fell_back)
        rc = COREPCG_FELL_BACK;
    return rc;
}

const cpg_method_ops cpg_corepcg_ops = {
    .reduced = 1,
    .structure = core_structure,
    .keeps_structure = core_keeps_structure,
    .numbers = core_numbers,
    .solve = core_solve,
};

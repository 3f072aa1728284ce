/* direct.c -- CHOLMOD's Cholesky factorisation of the reduced system A~:
 * the direct baseline (Ye et al. sec. 4). */
#include "handle.h"

static int direct_structure(corepcg_solver *h, const corepcg_system *sys)
{
    (void)sys;
    double t = cpg_now();
    h->At = cpg_reduce_pattern(&h->A, &h->u, &h->cm);
    if (!h->At)
        return cpg_fail(h->msg, COREPCG_ERR_NO_MEMORY,
                        "cannot build the reduced matrix (out of memory or "
                        "too many entries)");
    h->setup_info.time_reduce_s = cpg_now() - t;
    if (h->u.r > 0) {
        t = cpg_now();
        int rc = cpg_factor_analyze_nodes(&h->fac, h->At, h->u.off, h->u.N,
                                          h->set.ordering, h->set.factor,
                                          &h->cm, h->msg);
        if (rc != COREPCG_OK)
            return rc;
        h->setup_info.time_analyze_s = cpg_now() - t;
    }
    return cpg_handle_buffers(h, h->u.r);
}

static int direct_numbers(corepcg_solver *h, int fresh)
{
    double t = cpg_now();
    if (!fresh) {
        cpg_reduce_values(&h->A, &h->u, h->At);
        h->setup_info.time_reduce_s = cpg_now() - t;
    }
    if (!h->fac.L)
        return COREPCG_OK; /* r == 0: everything is prescribed */
    t = cpg_now();
    int rc = cpg_factor_numeric(&h->fac, h->At, COREPCG_ERR_NOT_SPD, &h->cm,
                                h->msg);
    h->setup_info.time_factor_s = cpg_now() - t;
    return rc;
}

static int direct_solve(corepcg_solver *h, const double *b, const double *y,
                        int *iterations)
{
    (void)y;
    *iterations = 0;
    if (!cpg_handle_reduced_rhs(h, b)) {
        int rc = cpg_factor_solve(&h->fac, h->bt, h->xt, &h->cm);
        if (rc != COREPCG_OK)
            return cpg_fail(h->msg, rc, "CHOLMOD solve failed: %s",
                            corepcg_strerror(rc));
    }
    cpg_handle_prolong(h);
    return COREPCG_OK;
}

const cpg_method_ops cpg_direct_ops = {
    .reduced = 1,
    .structure = direct_structure,
    .keeps_structure = NULL,
    .numbers = direct_numbers,
    .solve = direct_solve,
};

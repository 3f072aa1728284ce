/* upcg.c -- PCG on the reduced system A~ with a cheap preconditioner (Ye,
 * Webber & Wang's uPCG): Jacobi or node blocks of A~, or the projected
 * preconditioner that makes it MPCG's twin. */
#include "handle.h"

static int upcg_structure(corepcg_solver *h, const corepcg_system *sys)
{
    (void)sys;
    double t = cpg_now();
    if (cpg_rmat_build(&h->Ar, &h->A, &h->u) != COREPCG_OK)
        return cpg_handle_no_memory(h);
    h->setup_info.time_reduce_s = cpg_now() - t;
    return cpg_handle_buffers(h, h->u.r);
}

static int upcg_numbers(corepcg_solver *h, int fresh)
{
    if (!fresh) {
        double t = cpg_now();
        cpg_rmat_values(&h->Ar);
        h->setup_info.time_reduce_s = cpg_now() - t;
    }
    cpg_precond_free(&h->pc);
    return cpg_precond_reduced(&h->pc, h->set.precond, &h->Ar, h->msg);
}

static int upcg_solve(corepcg_solver *h, const double *b, const double *y,
                      int *iterations)
{
    int rc = COREPCG_OK;
    *iterations = 0;
    if (!cpg_handle_reduced_rhs(h, b))
        rc = cpg_handle_reduced_pcg(h, cpg_precond_apply, &h->pc, y, iterations);
    if (rc >= 0)
        cpg_handle_prolong(h);
    return rc;
}

const cpg_method_ops cpg_upcg_ops = {
    .reduced = 1,
    .structure = upcg_structure,
    .keeps_structure = NULL,
    .numbers = upcg_numbers,
    .solve = upcg_solve,
};

/* mpcg.c -- modified PCG on the full system with the filter S (Ascher &
 * Boxerman's corrected form, and Baraff & Witkin's original): the baseline
 * everything is measured against. Diagonal or 3x3 block preconditioner of
 * A. */
#include "handle.h"

#include <string.h>

static void apply_full(void *ctx, const double *in, double *out)
{
    cpg_bmat_mult(ctx, in, out);
}

static void apply_filter(void *ctx, double *v)
{
    cpg_filter(ctx, v);
}

static int mpcg_structure(corepcg_solver *h, const corepcg_system *sys)
{
    (void)sys;
    return cpg_handle_buffers(h, 3 * h->A.nb);
}

static int mpcg_numbers(corepcg_solver *h, int fresh)
{
    (void)fresh;
    cpg_precond_free(&h->pc);
    return cpg_precond_full(&h->pc, h->set.precond, &h->A, h->msg);
}

/* The corrected form starts from x0 = S y + (I - S) z with delta0 from
 * b^ = S(b - A(I - S)z); the original starts from z with delta0 from S b.
 * z means its constrained part only (FORMAT.md), so "z" is (I - S) z. */
static int mpcg_solve(corepcg_solver *h, const double *b, const double *y,
                      int *iterations)
{
    int n = 3 * h->A.nb;
    double *x = h->xfull, *bd = h->tmp;
    *iterations = 0;
    if (h->set.method == COREPCG_METHOD_MPCG) {
        for (int k = 0; k < n; k++)
            x[k] = y ? y[k] : 0;
        cpg_filter(&h->u, x);
        for (int k = 0; k < n; k++)
            x[k] += h->w[k];
        cpg_bmat_mult(&h->A, h->w, bd);
        for (int k = 0; k < n; k++)
            bd[k] = b[k] - bd[k];
        cpg_filter(&h->u, bd);
        if (cpg_all_zero(bd, n)) {
            /* b^ = 0: the free part of the answer is exactly zero */
            memcpy(x, h->w, (size_t)n * sizeof(double));
            return COREPCG_OK;
        }
    } else {
        memcpy(x, h->w, (size_t)n * sizeof(double));
        memcpy(bd, b, (size_t)n * sizeof(double));
        cpg_filter(&h->u, bd);
    }
    cpg_pcg_problem pb = {
        .n = n, .matvec = apply_full, .matvec_ctx = &h->A,
        .precond = cpg_precond_apply, .precond_ctx = &h->pc,
        .filter = apply_filter, .filter_ctx = &h->u,
        .b = b, .bdelta = bd, .tol = h->set.tol, .max_iter = h->set.max_iter,
    };
    int rc = cpg_pcg(&pb, &h->work, x, iterations, h->msg);
    if (rc >= 0) {
        /* Each filtered update leaves round-off along the constrained
         * directions, relative to the size of that update (or of the guess),
         * not of the answer: a large x0 or large intermediate steps would
         * show in the constraint error. Projecting once more puts the
         * answer back on the constraints to round-off of its own size. */
        cpg_filter(&h->u, x);
        for (int k = 0; k < n; k++)
            x[k] += h->w[k];
    }
    return rc;
}

const cpg_method_ops cpg_mpcg_ops = {
    .reduced = 0,
    .structure = mpcg_structure,
    .keeps_structure = NULL,
    .numbers = mpcg_numbers,
    .solve = mpcg_solve,
};

/* solver.c -- the handle's lifecycle: setup (import the system, then the
 * method's structure and numbers), update (same pattern: numbers only, the
 * analysis reused), solve, free; and what the reduced methods share. The
 * methods themselves are in mpcg.c, upcg.c, direct.c and corepcg.c. */
#include "handle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const cpg_method_ops *ops_of(corepcg_method m)
{
    switch (m) {
    case COREPCG_METHOD_COREPCG: return &cpg_corepcg_ops;
    case COREPCG_METHOD_UPCG: return &cpg_upcg_ops;
    case COREPCG_METHOD_DIRECT: return &cpg_direct_ops;
    default: return &cpg_mpcg_ops; /* mpcg and mpcg-bw */
    }
}

/* ------------------------------------------------------------ lifecycle */

int corepcg_create(corepcg_solver **out)
{
    if (!out)
        return COREPCG_ERR_ARGUMENT;
    *out = NULL;
    corepcg_solver *h = calloc(1, sizeof *h);
    if (!h)
        return COREPCG_ERR_NO_MEMORY;
    int rc = cpg_cholmod_start(&h->cm);
    if (rc != COREPCG_OK) {
        free(h);
        return rc;
    }
    h->cm_started = 1;
    corepcg_settings_default(&h->set);
    h->ops = ops_of(h->set.method);
    *out = h;
    return COREPCG_OK;
}

/* Drops everything the last setup built; the handle is as after create. */
static void clear_system(corepcg_solver *h)
{
    cpg_bmat_free(&h->A);
    cpg_ublocks_free(&h->u);
    free(h->z);
    free(h->w);
    h->z = h->w = NULL;
    cpg_rmat_free(&h->Ar);
    cholmod_free_sparse(&h->At, &h->cm);
    cholmod_free_sparse(&h->Ct, &h->cm);
    free(h->keep);
    h->keep = NULL;
    cpg_bmat_free(&h->Acore);
    h->core_blocks = 0;
    cpg_factor_free(&h->fac, &h->cm);
    cpg_precond_free(&h->pc);
    h->fell_back = 0;
    cpg_pcg_work_free(&h->work);
    free(h->bt);
    free(h->xt);
    free(h->xfull);
    free(h->tmp);
    free(h->tmp2);
    h->bt = h->xt = h->xfull = h->tmp = h->tmp2 = NULL;
    memset(&h->setup_info, 0, sizeof h->setup_info);
    h->ready = 0;
}

void corepcg_free(corepcg_solver **hp)
{
    if (!hp || !*hp)
        return;
    corepcg_solver *h = *hp;
    clear_system(h);
    if (h->cm_started)
        cholmod_finish(&h->cm);
    free(h);
    *hp = NULL;
}

const char *corepcg_message(const corepcg_solver *h)
{
    return h ? h->msg : "no handle";
}

/* ---------------------------------------------------- shared by methods */

int cpg_handle_no_memory(corepcg_solver *h)
{
    return cpg_fail(h->msg, COREPCG_ERR_NO_MEMORY, "out of memory");
}

int cpg_handle_buffers(corepcg_solver *h, int len)
{
    int n = 3 * h->A.nb, r = h->u.r;
    if (cpg_pcg_work_alloc(&h->work, len) != COREPCG_OK)
        return cpg_handle_no_memory(h);
    size_t rl = (size_t)(r > 0 ? r : 1);
    h->bt = malloc(rl * sizeof(double));
    h->xt = malloc(rl * sizeof(double));
    h->xfull = malloc((size_t)n * sizeof(double));
    h->tmp = malloc((size_t)n * sizeof(double));
    h->tmp2 = malloc((size_t)n * sizeof(double));
    if (!h->bt || !h->xt || !h->xfull || !h->tmp || !h->tmp2)
        return cpg_handle_no_memory(h);
    return COREPCG_OK;
}

int cpg_all_zero(const double *v, int n)
{
    for (int k = 0; k < n; k++)
        if (v[k] != 0)
            return 0;
    return 1;
}

int cpg_handle_reduced_rhs(corepcg_solver *h, const double *b)
{
    int n = 3 * h->A.nb, r = h->u.r;
    cpg_bmat_mult(&h->A, h->w, h->tmp);
    for (int k = 0; k < n; k++)
        h->tmp[k] = b[k] - h->tmp[k];
    cpg_restrict(&h->u, h->tmp, h->bt);
    if (r > 0 && !cpg_all_zero(h->bt, r))
        return 0;
    /* nothing free, or b~ = 0: x~ = 0 exactly, x is the prescribed part */
    memset(h->xt, 0, (size_t)(r > 0 ? r : 1) * sizeof(double));
    return 1;
}

static void apply_reduced(void *ctx, const double *in, double *out)
{
    cpg_rmat_mult(ctx, in, out);
}

int cpg_handle_reduced_pcg(corepcg_solver *h, cpg_precond_fn precond,
                           void *precond_ctx, const double *y,
                           int *iterations)
{
    int r = h->u.r;
    if (y)
        cpg_restrict(&h->u, y, h->xt);
    else
        memset(h->xt, 0, (size_t)r * sizeof(double));
    cpg_pcg_problem pb = {
        .n = r, .matvec = apply_reduced, .matvec_ctx = &h->Ar,
        .precond = precond, .precond_ctx = precond_ctx,
        .b = h->bt, .bdelta = h->bt, .tol = h->set.tol,
        .max_iter = h->set.max_iter,
    };
    return cpg_pcg(&pb, &h->work, h->xt, iterations, h->msg);
}

void cpg_handle_prolong(corepcg_solver *h)
{
    cpg_prolong(&h->u, h->xt, h->w, h->xfull);
}

/* -------------------------------------------------------- importing */

/* What a system brings, before any method-specific work. */
struct imported {
    cpg_bmat A;
    cpg_ublocks u;
    double *z, *w;
};

static void imported_free(struct imported *im)
{
    cpg_bmat_free(&im->A);
    cpg_ublocks_free(&im->u);
    free(im->z);
    free(im->w);
    memset(im, 0, sizeof *im);
}

static int import_system(corepcg_solver *h, const corepcg_system *sys,
                         struct imported *im)
{
    memset(im, 0, sizeof *im);
    if (!sys)
        return cpg_fail(h->msg, COREPCG_ERR_ARGUMENT, "system is NULL");
    int rc = cpg_bmat_from_system(sys, &h->cm, &im->A, h->msg);
    if (rc == COREPCG_OK)
        rc = cpg_ublocks_build(sys->num_nodes, sys->constraints,
                               sys->num_constraints, &im->u, h->msg);
    if (rc == COREPCG_OK) /* every method checks them, whether it uses them */
        rc = cpg_stretch_check(sys, sys->num_nodes, h->msg);
    if (rc != COREPCG_OK) {
        imported_free(im);
        return rc;
    }
    size_t n = 3 * (size_t)sys->num_nodes;
    im->z = calloc(n, sizeof(double));
    im->w = malloc(n * sizeof(double));
    if (!im->z || !im->w) {
        imported_free(im);
        return cpg_handle_no_memory(h);
    }
    if (sys->z) {
        for (size_t k = 0; k < n; k++)
            if (!isfinite(sys->z[k])) {
                imported_free(im);
                return cpg_fail(h->msg, COREPCG_ERR_NOT_FINITE,
                                "z[%zu] is not finite", k);
            }
        memcpy(im->z, sys->z, n * sizeof(double));
    }
    cpg_prescribed(&im->u, im->z, im->w);
    return COREPCG_OK;
}

/* Moves the imported system into the handle (replacing the old one). */
static void adopt(corepcg_solver *h, struct imported *im)
{
    cpg_bmat_free(&h->A);
    cpg_ublocks_free(&h->u);
    free(h->z);
    free(h->w);
    h->A = im->A;
    h->u = im->u;
    h->z = im->z;
    h->w = im->w;
    memset(im, 0, sizeof *im);
}

/* ------------------------------------------------------ setup, update */

/* Stored entries of A~'s lower triangle: U keeps A's block pattern. */
static long reduced_nnz(const cpg_bmat *A, const cpg_ublocks *u)
{
    long nnz = 0;
    for (int J = 0; J < A->nb; J++)
        for (int k = A->p[J]; k < A->p[J + 1]; k++)
            nnz += (long)u->ndof[A->i[k]] * u->ndof[J];
    return (nnz + u->r) / 2;
}

static void record_setup(corepcg_solver *h, double t0, int reused)
{
    corepcg_info *in = &h->setup_info;
    in->method = h->set.method;
    in->n = 3 * h->A.nb;
    in->r = h->u.r;
    in->analysis_reused = reused;
    in->nnz_reduced = h->ops->reduced ? reduced_nnz(&h->A, &h->u) : 0;
    in->nnz_core = h->Ct ? (long)cholmod_nnz(h->Ct, &h->cm) : 0;
    in->core_blocks = h->core_blocks;
    in->nnz_factor = cpg_factor_nnz(&h->fac);
    in->ordering = h->fac.L ? cpg_factor_ordering(&h->fac) : h->set.ordering;
    in->factor_supernodal = h->fac.L ? h->fac.supernodal : 0;
    in->fell_back = h->fell_back;
    in->time_setup_s = cpg_now() - t0;
}

/* Everything for a new pattern. On failure the handle is left empty. */
static int full_setup(corepcg_solver *h, const corepcg_system *sys,
                      struct imported *im, double t0, double t_import)
{
    clear_system(h);
    adopt(h, im);
    int rc = h->ops->structure(h, sys);
    if (rc == COREPCG_OK)
        rc = h->ops->numbers(h, 1);
    if (rc < 0) {
        clear_system(h);
        return rc;
    }
    h->setup_info.time_reduce_s += t_import;
    record_setup(h, t0, 0);
    h->ready = 1;
    return rc;
}

int corepcg_setup(corepcg_solver *h, const corepcg_system *sys,
                  const corepcg_settings *settings)
{
    if (!h)
        return COREPCG_ERR_ARGUMENT;
    h->msg[0] = '\0';
    double t0 = cpg_now();
    corepcg_settings s;
    if (settings)
        s = *settings;
    else
        corepcg_settings_default(&s);
    int rc = cpg_settings_check(&s, h->msg);
    if (rc != COREPCG_OK) {
        clear_system(h);
        return rc;
    }
    h->set = s;
    h->ops = ops_of(s.method);
    struct imported im;
    rc = import_system(h, sys, &im);
    if (rc != COREPCG_OK) {
        clear_system(h);
        return rc;
    }
    rc = full_setup(h, sys, &im, t0, cpg_now() - t0);
    imported_free(&im);
    return rc;
}

/* 1 when the new system keeps the structure built for the current one. */
static int same_structure(corepcg_solver *h, const corepcg_system *sys,
                          const struct imported *im)
{
    if (!cpg_bmat_same_pattern(&h->A, &im->A) || h->u.N != im->u.N ||
        memcmp(h->u.ndof, im->u.ndof, sizeof(int) * (size_t)h->u.N) != 0)
        return 0;
    return !h->ops->keeps_structure || h->ops->keeps_structure(h, sys, &im->A);
}

static int report_update(corepcg_solver *h, int rc, corepcg_info *info)
{
    if (info) {
        if (h && h->ready)
            *info = h->setup_info;
        else
            memset(info, 0, sizeof *info);
        info->status = rc;
    }
    return rc;
}

int corepcg_update(corepcg_solver *h, const corepcg_system *sys,
                   corepcg_info *info)
{
    if (!h)
        return report_update(h, COREPCG_ERR_ARGUMENT, info);
    h->msg[0] = '\0';
    if (!h->ready)
        return report_update(h, cpg_fail(h->msg, COREPCG_ERR_STATE,
                                         "update before setup"), info);
    double t0 = cpg_now();
    struct imported im;
    int rc = import_system(h, sys, &im);
    if (rc != COREPCG_OK)
        return report_update(h, rc, info); /* the current system stays usable */
    double t_import = cpg_now() - t0;
    if (same_structure(h, sys, &im)) {
        adopt(h, &im);
        h->setup_info.time_analyze_s = 0;
        rc = h->ops->numbers(h, 0);
        if (rc < 0) {
            clear_system(h);
        } else {
            h->setup_info.time_reduce_s += t_import;
            record_setup(h, t0, 1);
        }
    } else {
        h->msg[0] = '\0';
        rc = full_setup(h, sys, &im, t0, t_import);
    }
    imported_free(&im);
    return report_update(h, rc, info);
}

/* ------------------------------------------------------------- solving */

static int check_vector(corepcg_solver *h, const double *v, int n,
                        const char *name)
{
    for (int k = 0; k < n; k++)
        if (!isfinite(v[k]))
            return cpg_fail(h->msg, COREPCG_ERR_NOT_FINITE,
                            "%s[%d] is not finite", name, k);
    return COREPCG_OK;
}

int corepcg_solve(corepcg_solver *h, const double *b, const double *x0,
                  double *x, corepcg_info *info)
{
    if (info)
        memset(info, 0, sizeof *info);
    int rc = COREPCG_OK;
    if (!h)
        rc = COREPCG_ERR_ARGUMENT;
    else if ((h->msg[0] = '\0', !h->ready))
        rc = cpg_fail(h->msg, COREPCG_ERR_STATE, "solve before setup");
    else if (!b || !x)
        rc = cpg_fail(h->msg, COREPCG_ERR_ARGUMENT, "b and x must not be NULL");
    else if ((rc = check_vector(h, b, 3 * h->A.nb, "b")) == COREPCG_OK && x0)
        rc = check_vector(h, x0, 3 * h->A.nb, "x0");
    if (rc != COREPCG_OK) {
        if (info)
            info->status = rc;
        return rc;
    }
    double t0 = cpg_now();
    int iterations = 0;
    rc = h->ops->solve(h, b, x0, &iterations);
    double t_iterate = cpg_now() - t0;

    double cerr = NAN, rres = NAN;
    if (rc >= 0) {
        cpg_check_measures(&h->A, &h->u, b, h->z, h->xfull, h->tmp, h->tmp2,
                           &cerr, &rres);
        if (!isfinite(cerr) || !isfinite(rres))
            rc = cpg_fail(h->msg, COREPCG_ERR_NAN,
                          "the answer's residual is not finite (A x overflows)");
        else
            memcpy(x, h->xfull, sizeof(double) * 3 * (size_t)h->A.nb);
    }
    if (info) {
        *info = h->setup_info;
        info->status = rc;
        info->iterations = iterations;
        info->converged = rc == COREPCG_OK || rc == COREPCG_FELL_BACK;
        info->rel_residual = rres;
        info->constraint_error = cerr;
        info->time_iterate_s = t_iterate;
        info->time_solve_s = cpg_now() - t0;
        info->time_total_s = info->time_setup_s + info->time_solve_s;
    }
    return rc;
}

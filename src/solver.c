/* solver.c -- the handle: setup (import, reduce, core, analyse, factor),
 * update (same pattern: numbers only, analysis reused), solve, free. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct corepcg_solver {
    cholmod_common cm;
    int cm_started;
    char msg[COREPCG_MSG_SIZE];
    corepcg_settings set;
    int ready;              /* a system is set up */

    /* the full system */
    cpg_bmat A;
    cpg_ublocks u;
    double *z;              /* n: prescribed values (zeros when none) */
    double *w;              /* n: (I - S) z */

    /* the reduced system and what the method built on it */
    cpg_rmat Ar;            /* A~ by blocks: upcg, corepcg (PCG products) */
    cholmod_sparse *At;     /* A~ in CSC: direct (CHOLMOD factorises it) */
    unsigned char *keep;    /* corepcg: the blocks of A in the core */
    cpg_bmat Acore;
    cholmod_sparse *Ct;
    long core_blocks;
    cpg_factor fac;         /* direct: of A~; corepcg: of the core */
    int fac_analyzed;
    cpg_precond pc;         /* upcg, mpcg, and corepcg's fallback */
    int fell_back;

    /* solve buffers, allocated at setup so that solve allocates nothing */
    cpg_pcg_work work;
    double *bt, *xt, *xfull, *tmp;

    corepcg_info setup_info; /* what the last setup/update measured */
};

/* The context of the factorisation used as a preconditioner. */
struct factor_apply {
    corepcg_solver *h;
    int failed;             /* the first failure's code (0: none) */
};

static void apply_factor(void *ctx, const double *in, double *out)
{
    struct factor_apply *fa = ctx;
    int rc = cpg_factor_solve(&fa->h->fac, in, out, &fa->h->cm);
    if (rc != COREPCG_OK) {
        /* the kernel sees NaN and stops; solve reports the real cause,
         * kept now because a later call may reset CHOLMOD's status */
        if (!fa->failed)
            fa->failed = rc;
        out[0] = NAN;
    }
}

static void apply_reduced(void *ctx, const double *in, double *out)
{
    cpg_rmat_mult(ctx, in, out);
}

static void apply_full(void *ctx, const double *in, double *out)
{
    cpg_bmat_mult(ctx, in, out);
}

static void apply_filter(void *ctx, double *v)
{
    cpg_filter(ctx, v);
}

static int uses_reduced(corepcg_method m)
{
    return m == COREPCG_METHOD_UPCG || m == COREPCG_METHOD_DIRECT ||
           m == COREPCG_METHOD_COREPCG;
}

static int uses_factor(corepcg_method m)
{
    return m == COREPCG_METHOD_DIRECT || m == COREPCG_METHOD_COREPCG;
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
    cpg_factor_free(&h->fac, &h->cm);
    h->fac_analyzed = 0;
    cpg_precond_free(&h->pc);
    h->fell_back = 0;
    cpg_pcg_work_free(&h->work);
    free(h->bt);
    free(h->xt);
    free(h->xfull);
    free(h->tmp);
    h->bt = h->xt = h->xfull = h->tmp = NULL;
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

static int validate_settings(const corepcg_settings *s, char *msg)
{
    if ((unsigned)s->method >= COREPCG_METHOD_COUNT)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: unknown method %d", (int)s->method);
    if (!(s->tol > 0 && s->tol < 1))
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: tol must be in (0, 1), got %g", s->tol);
    if (s->max_iter < 1)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: max_iter must be >= 1, got %d", s->max_iter);
    if ((unsigned)s->precond >= COREPCG_PRECOND_COUNT)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: unknown precond %d", (int)s->precond);
    if ((unsigned)s->ordering >= COREPCG_ORDERING_COUNT)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: unknown ordering %d", (int)s->ordering);
    if ((unsigned)s->factor >= COREPCG_FACTOR_COUNT)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: unknown factor %d", (int)s->factor);
    if ((unsigned)s->core >= COREPCG_CORE_COUNT)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: unknown core %d", (int)s->core);
    if (!(s->core_threshold >= 0) || !isfinite(s->core_threshold))
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: core_threshold must be >= 0, got %g", s->core_threshold);
    if (s->fallback_upcg != 0 && s->fallback_upcg != 1)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: fallback_upcg must be 0 or 1");
    if (s->precond == COREPCG_PRECOND_PROJECTED && s->method != COREPCG_METHOD_UPCG)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "settings: precond projected is for upcg (mpcg applies it in effect with diag)");
    return COREPCG_OK;
}

/* ----------------------------------------------------- the three stages */

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
    if (rc != COREPCG_OK) {
        imported_free(im);
        return rc;
    }
    size_t n = 3 * (size_t)sys->num_nodes;
    im->z = calloc(n, sizeof(double));
    im->w = malloc(n * sizeof(double));
    if (!im->z || !im->w) {
        imported_free(im);
        return cpg_fail(h->msg, COREPCG_ERR_NO_MEMORY, "out of memory");
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

static void adopt(corepcg_solver *h, struct imported *im)
{
    h->A = im->A;
    h->u = im->u;
    h->z = im->z;
    h->w = im->w;
    memset(im, 0, sizeof *im);
}

static int no_memory(corepcg_solver *h)
{
    return cpg_fail(h->msg, COREPCG_ERR_NO_MEMORY, "out of memory");
}

/* Pattern-dependent work: A~ and core patterns, analysis, buffers. */
static int build_structure(corepcg_solver *h, const corepcg_system *sys)
{
    const corepcg_settings *s = &h->set;
    int n = 3 * h->A.nb, r = h->u.r;
    double t = cpg_now();
    if (s->method == COREPCG_METHOD_DIRECT) {
        h->At = cpg_reduce_pattern(&h->A, &h->u, &h->cm);
        if (!h->At)
            return cpg_fail(h->msg, COREPCG_ERR_NO_MEMORY,
                            "cannot build the reduced matrix (out of memory "
                            "or too many entries)");
    } else if (uses_reduced(s->method)) {
        if (cpg_rmat_build(&h->Ar, &h->A, &h->u) != COREPCG_OK)
            return no_memory(h);
    }
    if (s->method == COREPCG_METHOD_COREPCG) {
        h->keep = malloc((size_t)h->A.p[h->A.nb] + 1);
        if (!h->keep)
            return no_memory(h);
        int rc = cpg_core_mark(&h->A, sys, s->core, s->core_threshold,
                               h->keep, &h->core_blocks, h->msg);
        if (rc != COREPCG_OK)
            return rc;
        if (cpg_bmat_select(&h->A, h->keep, &h->Acore) != COREPCG_OK)
            return no_memory(h);
        h->Ct = cpg_reduce_pattern(&h->Acore, &h->u, &h->cm);
        if (!h->Ct)
            return no_memory(h);
    }
    h->setup_info.time_reduce_s = cpg_now() - t;

    if (uses_factor(s->method) && r > 0) {
        t = cpg_now();
        cholmod_sparse *M = s->method == COREPCG_METHOD_DIRECT ? h->At : h->Ct;
        int rc = cpg_factor_analyze_nodes(&h->fac, M, h->u.off, h->u.N,
                                          s->ordering, s->factor, &h->cm, h->msg);
        if (rc != COREPCG_OK)
            return rc;
        h->fac_analyzed = 1;
        h->setup_info.time_analyze_s = cpg_now() - t;
    }
    int len = uses_reduced(s->method) ? r : n;
    if (cpg_pcg_work_alloc(&h->work, len) != COREPCG_OK)
        return no_memory(h);
    size_t rl = (size_t)(r > 0 ? r : 1);
    h->bt = malloc(rl * sizeof(double));
    h->xt = malloc(rl * sizeof(double));
    h->xfull = malloc((size_t)n * sizeof(double));
    h->tmp = malloc((size_t)n * sizeof(double));
    if (!h->bt || !h->xt || !h->xfull || !h->tmp)
        return no_memory(h);
    return COREPCG_OK;
}

/* Value-dependent work: A~ and core values, factorisation, preconditioner.
 * `fresh` is 0 when the structure is kept from an earlier system. */
static int build_numbers(corepcg_solver *h, int fresh)
{
    const corepcg_settings *s = &h->set;
    double t = cpg_now();
    if (!fresh && h->At)
        cpg_reduce_values(&h->A, &h->u, h->At);
    if (!fresh && h->Ar.x)
        cpg_rmat_values(&h->Ar);
    if (!fresh && h->Ct) {
        /* same pattern and same kept blocks: copy the kept values */
        long t2 = 0;
        for (long k = 0; k < h->A.p[h->A.nb]; k++)
            if (h->keep[k])
                memcpy(h->Acore.x + 9 * t2++, h->A.x + 9 * k, 9 * sizeof(double));
        cpg_reduce_values(&h->Acore, &h->u, h->Ct);
    }
    if (!fresh)
        h->setup_info.time_reduce_s = cpg_now() - t;

    cpg_precond_free(&h->pc);
    h->fell_back = 0;
    int rc = COREPCG_OK;
    switch (s->method) {
    case COREPCG_METHOD_MPCG:
    case COREPCG_METHOD_MPCG_BW:
        return cpg_precond_full(&h->pc, s->precond, &h->A, h->msg);
    case COREPCG_METHOD_UPCG:
        return cpg_precond_reduced(&h->pc, s->precond, &h->Ar, h->msg);
    case COREPCG_METHOD_DIRECT:
    case COREPCG_METHOD_COREPCG:
        if (!h->fac_analyzed)
            return COREPCG_OK; /* r == 0: everything is prescribed */
        t = cpg_now();
        if (s->method == COREPCG_METHOD_DIRECT)
            rc = cpg_factor_numeric(&h->fac, h->At, COREPCG_ERR_NOT_SPD, &h->cm, h->msg);
        else
            rc = cpg_factor_numeric(&h->fac, h->Ct, COREPCG_ERR_CORE_NOT_SPD, &h->cm, h->msg);
        h->setup_info.time_factor_s = cpg_now() - t;
        if (rc == COREPCG_ERR_CORE_NOT_SPD && s->fallback_upcg) {
            rc = cpg_precond_reduced(&h->pc, COREPCG_PRECOND_BLOCK, &h->Ar,
                                     h->msg);
            h->fell_back = rc == COREPCG_OK;
        }
        return rc;
    default:
        return cpg_fail(h->msg, COREPCG_ERR_ARGUMENT, "unknown method");
    }
}

/* Stored entries of A~ (both triangles): U keeps A's block pattern. */
static long reduced_nnz(const cpg_bmat *A, const cpg_ublocks *u)
{
    long nnz = 0;
    for (int J = 0; J < A->nb; J++)
        for (int k = A->p[J]; k < A->p[J + 1]; k++)
            nnz += (long)u->ndof[A->i[k]] * u->ndof[J];
    return nnz;
}

static void record_setup(corepcg_solver *h, double t0, int reused)
{
    corepcg_info *in = &h->setup_info;
    in->method = h->set.method;
    in->n = 3 * h->A.nb;
    in->r = h->u.r;
    in->analysis_reused = reused;
    in->nnz_reduced = uses_reduced(h->set.method) ? (reduced_nnz(&h->A, &h->u) + h->u.r) / 2 : 0;
    in->nnz_core = h->Ct ? (long)((cholmod_nnz(h->Ct, &h->cm) + h->u.r) / 2) : 0;
    in->core_blocks = h->core_blocks;
    in->nnz_factor = h->fac_analyzed ? cpg_factor_nnz(&h->fac) : 0;
    in->ordering = h->fac_analyzed ? cpg_factor_ordering(&h->fac) : h->set.ordering;
    in->factor_supernodal = h->fac_analyzed ? h->fac.supernodal : 0;
    in->fell_back = h->fell_back;
    in->time_setup_s = cpg_now() - t0;
}

static int full_setup(corepcg_solver *h, const corepcg_system *sys,
                      struct imported *im, double t0)
{
    clear_system(h);
    memset(&h->setup_info, 0, sizeof h->setup_info);
    adopt(h, im);
    int rc = build_structure(h, sys);
    if (rc == COREPCG_OK)
        rc = build_numbers(h, 1);
    if (rc < 0) {
        clear_system(h);
        return rc;
    }
    record_setup(h, t0, 0);
    h->ready = 1;
    return COREPCG_OK;
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
    int rc = validate_settings(&s, h->msg);
    if (rc != COREPCG_OK) {
        clear_system(h);
        return rc;
    }
    h->set = s;
    struct imported im;
    rc = import_system(h, sys, &im);
    if (rc != COREPCG_OK) {
        clear_system(h);
        return rc;
    }
    double t_import = cpg_now() - t0;
    rc = full_setup(h, sys, &im, t0);
    imported_free(&im);
    if (rc == COREPCG_OK)
        h->setup_info.time_reduce_s += t_import;
    return rc;
}

/* 1 when the new system keeps the structure built for the current one. */
static int same_structure(corepcg_solver *h, const corepcg_system *sys,
                          const struct imported *im)
{
    if (!cpg_bmat_same_pattern(&h->A, &im->A) || h->u.N != im->u.N ||
        memcmp(h->u.ndof, im->u.ndof, sizeof(int) * (size_t)h->u.N) != 0)
        return 0;
    if (!h->keep)
        return 1;
    /* the core's blocks follow the stretch pairs (or, with core auto, the
     * values): they must be the same blocks for the analysis to hold */
    long nb = h->A.p[h->A.nb], kept = 0;
    unsigned char *keep = malloc((size_t)nb + 1);
    if (!keep)
        return 0;
    int same = cpg_core_mark(&im->A, sys, h->set.core, h->set.core_threshold,
                             keep, &kept, h->msg) == COREPCG_OK &&
               memcmp(keep, h->keep, (size_t)nb) == 0;
    free(keep);
    return same;
}

int corepcg_update(corepcg_solver *h, const corepcg_system *sys,
                   corepcg_info *info)
{
    if (!h)
        return COREPCG_ERR_ARGUMENT;
    h->msg[0] = '\0';
    if (!h->ready)
        return cpg_fail(h->msg, COREPCG_ERR_STATE, "update before setup");
    double t0 = cpg_now();
    struct imported im;
    int rc = import_system(h, sys, &im);
    if (rc != COREPCG_OK)
        return rc; /* the current system stays usable */
    double t_import = cpg_now() - t0;
    if (same_structure(h, sys, &im)) {
        cpg_bmat_free(&h->A);
        cpg_ublocks_free(&h->u);
        free(h->z);
        free(h->w);
        adopt(h, &im);
        h->setup_info.time_analyze_s = 0;
        rc = build_numbers(h, 0);
        if (rc < 0)
            clear_system(h);
        else
            record_setup(h, t0, 1);
    } else {
        h->msg[0] = '\0';
        rc = full_setup(h, sys, &im, t0);
    }
    imported_free(&im);
    if (rc >= 0)
        h->setup_info.time_reduce_s += t_import;
    if (info) {
        *info = h->setup_info;
        info->status = rc;
    }
    return rc;
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

static int all_zero(const double *v, int n)
{
    for (int k = 0; k < n; k++)
        if (v[k] != 0)
            return 0;
    return 1;
}

/* MPCG on the full system: Ascher & Boxerman's corrected form starts from
 * x0 = S y + (I - S) z with delta0 from b^ = S(b - A(I - S)z); Baraff &
 * Witkin's original starts from z with delta0 from S b. */
static int solve_full(corepcg_solver *h, const double *b, const double *y,
                      int *iterations)
{
    int n = 3 * h->A.nb;
    double *x = h->xfull, *bd = h->tmp;
    if (h->set.method == COREPCG_METHOD_MPCG) {
        for (int k = 0; k < n; k++)
            x[k] = y ? y[k] : 0;
        cpg_filter(&h->u, x);
        for (int k = 0; k < n; k++)
            x[k] += h->w[k];
        cpg_bmat_mult(&h->A, h->w, bd);
        for (int k = 0; k < n; k++)
            bd[k] = b[k] - bd[k];
    } else {
        memcpy(x, h->z, (size_t)n * sizeof(double));
        memcpy(bd, b, (size_t)n * sizeof(double));
    }
    cpg_filter(&h->u, bd);
    if (h->set.method == COREPCG_METHOD_MPCG && all_zero(bd, n)) {
        /* b^ = 0: the free part of the answer is exactly zero */
        memcpy(x, h->w, (size_t)n * sizeof(double));
        *iterations = 0;
        return COREPCG_OK;
    }
    cpg_pcg_problem pb = {
        .n = n, .matvec = apply_full, .matvec_ctx = &h->A,
        .precond = cpg_precond_apply, .precond_ctx = &h->pc,
        .filter = apply_filter, .filter_ctx = &h->u,
        .b = b, .bdelta = bd, .tol = h->set.tol, .max_iter = h->set.max_iter,
    };
    return cpg_pcg(&pb, &h->work, x, iterations, h->msg);
}

/* The reduced methods: b~ = U^T (b - A (I - S) z), x~0 = U^T y. */
static int solve_reduced(corepcg_solver *h, const double *b, const double *y,
                         int *iterations)
{
    int n = 3 * h->A.nb, r = h->u.r, rc = COREPCG_OK;
    cpg_bmat_mult(&h->A, h->w, h->tmp);
    for (int k = 0; k < n; k++)
        h->tmp[k] = b[k] - h->tmp[k];
    cpg_restrict(&h->u, h->tmp, h->bt);
    *iterations = 0;
    if (r == 0 || all_zero(h->bt, r)) {
        /* nothing free, or b~ = 0: x~ = 0 and x is the prescribed part */
        memset(h->xt, 0, (size_t)(r > 0 ? r : 1) * sizeof(double));
    } else if (h->set.method == COREPCG_METHOD_DIRECT) {
        rc = cpg_factor_solve(&h->fac, h->bt, h->xt, &h->cm);
        if (rc != COREPCG_OK)
            rc = cpg_fail(h->msg, rc, "CHOLMOD solve failed (status %d)", h->cm.status);
    } else {
        if (y)
            cpg_restrict(&h->u, y, h->xt);
        else
            memset(h->xt, 0, (size_t)r * sizeof(double));
        struct factor_apply fa = {h, 0};
        cpg_pcg_problem pb = {
            .n = r, .matvec = apply_reduced, .matvec_ctx = &h->Ar,
            .b = h->bt, .bdelta = h->bt, .tol = h->set.tol,
            .max_iter = h->set.max_iter,
        };
        if (h->set.method == COREPCG_METHOD_COREPCG && !h->fell_back) {
            pb.precond = apply_factor;
            pb.precond_ctx = &fa;
        } else {
            pb.precond = cpg_precond_apply;
            pb.precond_ctx = &h->pc;
        }
        rc = cpg_pcg(&pb, &h->work, h->xt, iterations, h->msg);
        if (fa.failed)
            rc = cpg_fail(h->msg, fa.failed,
                          "CHOLMOD solve failed in the preconditioner: %s",
                          corepcg_strerror(fa.failed));
    }
    if (rc >= 0)
        cpg_prolong(&h->u, h->xt, h->w, h->xfull);
    return rc;
}

int corepcg_solve(corepcg_solver *h, const double *b, const double *x0,
                  double *x, corepcg_info *info)
{
    if (info)
        memset(info, 0, sizeof *info);
    if (!h)
        return COREPCG_ERR_ARGUMENT;
    h->msg[0] = '\0';
    int rc;
    if (!h->ready)
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
    if (uses_reduced(h->set.method))
        rc = solve_reduced(h, b, x0, &iterations);
    else
        rc = solve_full(h, b, x0, &iterations);
    double t_iterate = cpg_now() - t0;
    if (rc == COREPCG_OK && h->fell_back)
        rc = COREPCG_FELL_BACK;

    double cerr = NAN, rres = NAN;
    if (rc >= 0) {
        cpg_check_measures(&h->A, &h->u, b, h->z, h->xfull, &cerr, &rres);
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

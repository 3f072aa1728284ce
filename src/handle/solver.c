/* SPDX-License-Identifier: GPL-2.0-or-later */
/* solver.c -- the handle's lifecycle: setup (import the system, then the
 * method's analysis and factorisation), update (same pattern: the
 * factorisation only, the analysis reused), solve, free. The methods are
 * in methods/, found through their table (methods/registry.c). */
#include "handle.h"
#include "check.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ lifecycle */

int corepcg_create(corepcg_solver **out)
{
    if (!out)
        return COREPCG_ERR_ARGUMENT;
    *out = NULL;
    corepcg_solver *h = calloc(1, sizeof *h);
    if (!h)
        return COREPCG_ERR_NO_MEMORY;
    corepcg_settings_default(&h->set);
    h->ops = cpg_method_ops_of(h->set.method);
    *out = h;
    return COREPCG_OK;
}

/* Drops everything the last setup built; the handle is as after create
 * (its settings aside). */
static void clear_system(corepcg_solver *h)
{
    if (h->state) {
        h->ops->clear(h->state);
        free(h->state);
        h->state = NULL;
    }
    cpg_sys_free(&h->sys);
    cpg_bmat_free(&h->spare_A);
    free(h->x);
    free(h->check_work);
    h->x = h->check_work = NULL;
    memset(&h->setup_info, 0, sizeof h->setup_info);
    memset(&h->last_info, 0, sizeof h->last_info);
    h->ready = 0;
}

void corepcg_free(corepcg_solver **hp)
{
    if (!hp || !*hp || (*hp)->solving)
        return;
    corepcg_solver *h = *hp;
    clear_system(h);
    free(h);
    *hp = NULL;
}

#ifdef COREPCG_TEST_BUILD
void cpg_solver_use_vec(corepcg_solver *h, const cpg_vec_ops *vec)
{
    clear_system(h); /* its work was allocated on the old back end */
    h->vec = vec;
}

long cpg_solver_spare_blocks(const corepcg_solver *h)
{
    return h->spare_A.p ? h->spare_A.p[h->spare_A.nb] : 0;
}

const void *cpg_solver_method_state(const corepcg_solver *h)
{
    return h->state;
}
#endif

int corepcg_set_monitor(corepcg_solver *h, corepcg_monitor monitor,
                        void *user)
{
    if (!h)
        return COREPCG_ERR_ARGUMENT;
    if (h->solving)
        return COREPCG_ERR_STATE;
    h->set.monitor = monitor;
    h->set.monitor_user = user;
    return COREPCG_OK;
}

const char *corepcg_message(const corepcg_solver *h)
{
    return h ? h->msg : "no handle";
}

static cpg_ctx context(corepcg_solver *h)
{
    cpg_ctx ctx = {.sys = &h->sys, .set = &h->set, .msg = h->msg,
                   .rec = &h->setup_info, .monitor = h->set.monitor,
                   .monitor_user = h->set.monitor_user, .vec = h->vec};
    return ctx;
}

/* A fresh record for a setup or update: what no method sets (a method
 * that analyses after all clears analysis_reused). */
static void record_start(corepcg_solver *h, int reused)
{
    corepcg_info *in = &h->setup_info;
    memset(in, 0, sizeof *in);
    in->method = h->set.method;
    in->method_used = h->set.method;
    in->analysis_reused = reused;
    in->n = 3 * h->sys.A.nb;
    in->r = h->sys.u.r;
    in->ordering = h->set.ordering;
}

static void record_end(corepcg_solver *h, double t0, double t_import)
{
    h->setup_info.time_reduce_s += t_import;
    h->setup_info.time_setup_s = cpg_now() - t0;
    h->last_info = h->setup_info;
}

/* Everything for a new pattern, with the imported system moved into the
 * handle. On failure the handle is left empty. */
static int full_setup(corepcg_solver *h, cpg_sys *im, double t0,
                      double t_import)
{
    clear_system(h);
    h->sys = *im;
    memset(im, 0, sizeof *im);
    record_start(h, 0);
    size_t n = 3 * (size_t)h->sys.A.nb;
    h->state = calloc(1, h->ops->state_size);
    h->x = malloc(n * sizeof(double));
    h->check_work = malloc(2 * n * sizeof(double));
    int rc = h->state && h->x && h->check_work
                 ? COREPCG_OK
                 : cpg_fail(h->msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    cpg_ctx ctx = context(h);
    if (rc == COREPCG_OK)
        rc = h->ops->analyse(h->state, &ctx);
    if (rc == COREPCG_OK)
        rc = h->ops->factorise(h->state, &ctx);
    if (rc < 0) {
        clear_system(h);
        return rc;
    }
    record_end(h, t0, t_import);
    h->ready = 1;
    return rc;
}

/* sys imported (cpg_sys_import_next, prev and spare as there) and each
 * node's block on its free directions checked; on failure *im is empty,
 * and prev keeps the import map the import took over from it (the next
 * step's update walks it instead of importing in full). */
static int import_checked(const corepcg_system *sys, cpg_sys *prev,
                          cpg_bmat *spare, cpg_sys *im, char *msg)
{
    cpg_import_map *prev_map = prev ? prev->map : NULL;
    int rc = cpg_sys_import_next(sys, prev, spare, im, msg);
    if (rc == COREPCG_OK)
        rc = cpg_free_blocks_check(&im->A, &im->u, msg);
    if (rc != COREPCG_OK) {
        if (prev_map && im->map == prev_map) {
            prev->map = prev_map;
            im->map = NULL;
        }
        cpg_sys_free(im);
    }
    return rc;
}

/* sys imported afresh (no previous system to reuse), then set up with
 * the handle's settings. */
static int setup_system(corepcg_solver *h, const corepcg_system *sys,
                        double t0)
{
    cpg_sys im;
    int rc = import_checked(sys, NULL, NULL, &im, h->msg);
    if (rc != COREPCG_OK)
        return rc;
    return full_setup(h, &im, t0, cpg_now() - t0);
}

int corepcg_setup(corepcg_solver *h, const corepcg_system *sys,
                  const corepcg_settings *settings)
{
    if (!h)
        return COREPCG_ERR_ARGUMENT;
    if (h->solving)
        return COREPCG_ERR_STATE;
    h->msg[0] = '\0';
    double t0 = cpg_now();
    corepcg_settings s;
    if (settings)
        s = *settings;
    else
        corepcg_settings_default(&s);
    int rc = cpg_settings_check(&s, h->msg);
    clear_system(h); /* with the old method's ops */
    h->configured = rc == COREPCG_OK;
    if (rc != COREPCG_OK)
        return rc;
    h->set = s;
    h->ops = cpg_method_ops_of(s.method);
    return setup_system(h, sys, t0);
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

/* 1 when a's arrays can hold b's blocks (the import then copies b's
 * pattern in: take_arrays in import_map.c). */
static int same_size(const cpg_bmat *a, const cpg_bmat *b)
{
    return a->p && b->p && a->nb == b->nb && a->p[a->nb] == b->p[b->nb];
}

int corepcg_update(corepcg_solver *h, const corepcg_system *sys,
                   corepcg_info *info)
{
    if (!h)
        return report_update(h, COREPCG_ERR_ARGUMENT, info);
    if (h->solving) /* from its own monitor: the message stays the solve's */
        return report_update(h, COREPCG_ERR_STATE, info);
    h->msg[0] = '\0';
    double t0 = cpg_now();
    if (!h->ready && !h->configured)
        return report_update(h, cpg_fail(h->msg, COREPCG_ERR_STATE,
                                         "update before setup: call "
                                         "corepcg_setup first (with "
                                         "settings it accepts)"), info);
    /* the last step failed and left the handle empty: this one sets up
     * anew with the settings in force, so a simulation recovers */
    if (!h->ready)
        return report_update(h, setup_system(h, sys, t0), info);
    cpg_sys im;
    int rc = import_checked(sys, &h->sys, &h->spare_A, &im, h->msg);
    if (rc != COREPCG_OK)
        return report_update(h, rc, info); /* the current system stays usable */
    double t_import = cpg_now() - t0;
    cpg_ctx ctx = context(h);
    if (!h->ops->same_pattern(h->state, &ctx, &im)) {
        /* A new analysis, often on A's old blocks (nodes that touch and
         * stick change only which are free): the old A's arrays wait for
         * the next step's values here too, where they fit, so that its
         * import fills them rather than fresh pages, each a fault (an
         * outside review: on drape icpcg's reduce took up to 2x that of
         * auto, whose handle keeps its pattern and so kept them) */
        cpg_bmat old = h->sys.A;
        memset(&h->sys.A, 0, sizeof h->sys.A);
        int keep = same_size(&old, &im.A);
        if (!keep) /* freed first: the step's peak memory as before */
            cpg_bmat_free(&old);
        rc = full_setup(h, &im, t0, t_import);
        if (keep && h->ready)
            h->spare_A = old; /* full_setup emptied spare_A */
        else
            cpg_bmat_free(&old);
        return report_update(h, rc, info);
    }
    /* The system moves into the same place, so what the method borrowed
     * from it (pointers to A and u) stays valid; the old A's arrays wait
     * for the next step's values. */
    cpg_bmat_free(&h->spare_A);
    h->spare_A = h->sys.A;
    memset(&h->sys.A, 0, sizeof h->sys.A);
    cpg_sys_free(&h->sys);
    h->sys = im;
    record_start(h, 1);
    rc = h->ops->factorise(h->state, &ctx);
    if (rc < 0)
        clear_system(h);
    else
        record_end(h, t0, t_import);
    return report_update(h, rc, info);
}

/* ------------------------------------------------------------- solving */

int corepcg_ready(const corepcg_solver *h)
{
    return h && h->ready;
}

static int check_vector(corepcg_solver *h, const double *v, int n,
                        const char *name)
{
    for (int k = 0; k < n; k++)
        if (!isfinite(v[k]))
            return cpg_fail(h->msg, COREPCG_ERR_NOT_FINITE,
                            "%s[%d] is not finite", name, k);
    return COREPCG_OK;
}

/* rc, or NOT_CONVERGED where direct's answer has a relative residual
 * above sqrt(eps) beyond what the prescribed part's round-off explains: a
 * backward-stable Cholesky leaves about n eps cond(A~), so such a residual
 * says A~ is too ill-conditioned for double precision (an outside review:
 * entries from 1e-20 to 1e59, cond 1e79, OK at a residual of 1e23). */
static int direct_answer_holds(corepcg_solver *h, int rc, double rres,
                               double prescribed_ratio)
{
    double bound = fmax(sqrt(DBL_EPSILON), CPG_ROUND_OFF * prescribed_ratio);
    if (!(rres > bound))
        return rc;
    return cpg_fail(h->msg, COREPCG_NOT_CONVERGED, "the answer's relative "
                    "residual %.2e is above %.2e: the factorisation lost A~ "
                    "to round-off (A~ is too ill-conditioned for double "
                    "precision)", rres, bound);
}

/* rc, or NOT_CONVERGED where an iterative method's own residual met tol
 * but the answer's, measured from b as info reports it, is above tol: the
 * round-off of b - A x, which holds the prescribed values' part S A (I -
 * S) z, is that large where that part outweighs b^ (an outside review:
 * 6e10 times, 1.3e-5 at tol 1e-5), or where the answer is subnormal (b
 * about 1e-320: 3e-4). Where b^ is itself at that round-off
 * (b = A (I - S) z) any answer at round-off is right and the measure
 * says nothing (docs/design.md, "Round-off"). */
static int residual_meets_tol(corepcg_solver *h, int rc, corepcg_method ran,
                              double rres, double prescribed_ratio)
{
    const corepcg_settings *s = &h->set;
    if (!(prescribed_ratio * CPG_ROUND_OFF < 1))
        return rc;
    if (!corepcg_method_takes(ran, COREPCG_OPTION_TOL)) /* direct, or auto's */
        return direct_answer_holds(h, rc, rres, prescribed_ratio);
    if (s->stop != COREPCG_STOP_RESIDUAL || !(rres > s->tol))
        return rc;
    return cpg_fail(h->msg, COREPCG_NOT_CONVERGED, "the answer's relative "
                    "residual %.2e is above tol %.2e, although the method's "
                    "own measure met it: double precision loses that much "
                    "forming b - A x here (its prescribed part S A (I - S) z "
                    "is %.1e times b^; or its numbers lie below double's "
                    "normal range, 2.2e-308)", rres, s->tol, prescribed_ratio);
}

int corepcg_solve(corepcg_solver *h, const double *b, const double *x0,
                  double *x, corepcg_info *info)
{
    if (info)
        memset(info, 0, sizeof *info);
    int rc = COREPCG_OK;
    if (!h)
        rc = COREPCG_ERR_ARGUMENT;
    else if (h->solving) /* from its own monitor: its message stays */
        rc = COREPCG_ERR_STATE;
    else if ((h->msg[0] = '\0', !h->ready))
        rc = cpg_fail(h->msg, COREPCG_ERR_STATE, h->configured
                      ? "no system is set up: the last setup or update "
                        "failed (the next update sets its system up)"
                      : "solve before setup");
    else if (!b || !x)
        rc = cpg_fail(h->msg, COREPCG_ERR_ARGUMENT, "b and x must not be NULL");
    else if ((rc = check_vector(h, b, 3 * h->sys.A.nb, "b")) == COREPCG_OK && x0)
        rc = check_vector(h, x0, 3 * h->sys.A.nb, "x0");
    if (rc != COREPCG_OK) {
        if (info)
            info->status = rc;
        return rc;
    }
    size_t n = 3 * (size_t)h->sys.A.nb;
    double t0 = cpg_now();
    int iterations = 0;
    /* the solve's own record, from the setup's: a method may say in it
     * what ran (auto's fallback); the setup's record stays as it was */
    corepcg_info run = h->setup_info;
    cpg_ctx ctx = context(h);
    ctx.rec = &run;
    h->solving = 1;
    rc = h->ops->solve(h->state, &ctx, b, x0, h->x, &iterations);
    h->solving = 0;
    h->last_info = run; /* what the method that ran reports */
    double t_iterate = cpg_now() - t0;

    double cerr = NAN, rres = NAN, prescribed_ratio = NAN;
    if (rc >= 0) {
        cpg_check_measures(&h->sys.A, &h->sys.u, b, h->sys.z, h->x,
                           h->check_work, h->check_work + n, &cerr, &rres,
                           &prescribed_ratio);
        if (!isfinite(cerr) || !isfinite(rres))
            rc = cpg_fail(h->msg, COREPCG_ERR_NAN,
                          "the answer's residual is not finite (A x overflows)");
        else
            memcpy(x, h->x, sizeof(double) * n);
        if (rc == COREPCG_OK || rc == COREPCG_FELL_BACK)
            rc = residual_meets_tol(h, rc, run.method_used, rres,
                                    prescribed_ratio);
    }
    if (info) {
        *info = run;
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

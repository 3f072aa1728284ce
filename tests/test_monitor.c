/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_monitor.c -- the per-iteration monitor (corepcg_settings.monitor,
 * corepcg_set_monitor) through the public API: called once after each
 * iteration of every iterative method, numbered 1 .. info.iterations,
 * with the value the stopping rule compares with tol (the last one
 * info.rel_residual under the residual rule); a non-zero return stops the
 * solve at that iteration with COREPCG_STOPPED and a usable x; never
 * called by direct. */
#include "setup_for.h"
#include "corepcg.h"
#include "test.h"
#include "testsys.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CALLS 4096

/* What the monitor saw, and when it asks to stop. */
typedef struct watch {
    int calls;
    int iteration[MAX_CALLS];
    double residual[MAX_CALLS];
    int stop_at;        /* return 1 at this iteration (0: never) */
    void *seen_user;    /* the user pointer it was handed */
} watch;

static int record(int iteration, double residual, void *user)
{
    watch *w = user;
    if (w->calls < MAX_CALLS) {
        w->iteration[w->calls] = iteration;
        w->residual[w->calls] = residual;
    }
    w->calls++;
    w->seen_user = user;
    return iteration == w->stop_at;
}

static int make_system(testsys *t)
{
    testsys_opts o;
    testsys_default_opts(&o, 8, 11);
    int rc = testsys_make(t, &o);
    CHECK(rc == 0, "testsys_make failed");
    return rc;
}

/* The defaults with method m, tol 1e-8 and a monitor recording into w
 * (none when w is NULL). */
static corepcg_settings watched_settings(corepcg_method m, watch *w)
{
    corepcg_settings set;
    corepcg_settings_default(&set);
    set.method = m;
    set.tol = 1e-8;
    /* amgpcg's default coarsest level holds these small systems whole,
     * and its one dense solve converges at once: a hierarchy instead */
    if ((int)m == corepcg_method_from_name("amgpcg"))
        corepcg_option_set(&set, corepcg_option_from_name("amg_coarse_nodes"), 4);
    if (w) {
        set.monitor = record;
        set.monitor_user = w;
    }
    return set;
}

/* A handle set up on t with set; NULL (and a failed check) when refused. */
static corepcg_solver *set_up(const testsys *t, const corepcg_settings *set)
{
    corepcg_solver *h = NULL;
    int rc = corepcg_create(&h);
    if (rc == COREPCG_OK)
        rc = setup_for(h, &t->sys, set);
    CHECK(rc == COREPCG_OK, "setup of %s: %s",
          corepcg_method_name(set->method), corepcg_message(h));
    if (rc != COREPCG_OK)
        corepcg_free(&h);
    return h;
}

/* Sets up method m on t with the monitor given in the settings and
 * solves from x0; returns the code, info and x filled. */
static int solve_watched_from(const testsys *t, const double *x0,
                              corepcg_method m, corepcg_stop stop, watch *w,
                              double *x, corepcg_info *info)
{
    corepcg_settings set = watched_settings(m, w);
    set.stop = stop;
    corepcg_solver *h = set_up(t, &set);
    int rc = corepcg_solve(h, t->b, x0, x, info);
    CHECK(rc >= 0, "%s: %s", corepcg_method_name(m), corepcg_message(h));
    corepcg_free(&h);
    return rc;
}

/* Sets up method m on t with the monitor given in the settings and
 * solves from t's x0. */
static int solve_watched(const testsys *t, corepcg_method m, corepcg_stop stop,
                         watch *w, double *x, corepcg_info *info)
{
    return solve_watched_from(t, t->x0, m, stop, w, x, info);
}

/* The calls are 1, 2, ..., info.iterations, each residual finite. */
static void check_numbering(const watch *w, const corepcg_info *info,
                            const char *name)
{
    CHECK(w->calls == info->iterations, "%s: %d calls for %d iterations",
          name, w->calls, info->iterations);
    for (int k = 0; k < w->calls && k < MAX_CALLS; k++) {
        CHECK(w->iteration[k] == k + 1, "%s: call %d saw iteration %d", name,
              k + 1, w->iteration[k]);
        CHECK(isfinite(w->residual[k]) && w->residual[k] >= 0,
              "%s: residual %g at iteration %d", name, w->residual[k], k + 1);
    }
}

/* Every iterative method, both rules: one call an iteration, the value
 * compared with tol (above it before the last call, at most tol at the
 * last), and under the residual rule the last one is the answer's true
 * relative residual. direct: no call. */
static void test_called_every_iteration(const testsys *t, const double *x0,
                                        const char *guess)
{
    double *x = malloc(sizeof(double) * (size_t)t->n);
    for (int k = 0; corepcg_method_at(k) >= 0; k++) {
        corepcg_method m = corepcg_method_at(k);
        for (int stop = 0; stop < COREPCG_STOP_COUNT; stop++) {
            watch w = {0};
            corepcg_info info;
            int rc = solve_watched_from(t, x0, m, stop, &w, x, &info);
            char name[96];
            snprintf(name, sizeof name, "%s, stop %s, %s",
                     corepcg_method_name(m), corepcg_stop_name(stop), guess);
            CHECK(rc == COREPCG_OK, "%s: %s", name, corepcg_strerror(rc));
            CHECK(w.seen_user == (w.calls ? (void *)&w : NULL),
                  "%s: the user pointer was not handed through", name);
            check_numbering(&w, &info, name);
            if (m == COREPCG_METHOD_DIRECT) {
                CHECK_INT(w.calls, 0);
                continue;
            }
            CHECK(w.calls >= 2, "%s: %d iterations: too few to test", name,
                  w.calls);
            if (w.calls < 1 || w.calls > MAX_CALLS)
                continue;
            for (int c = 0; c + 1 < w.calls; c++)
                CHECK(w.residual[c] > 1e-8, "%s: residual %g <= tol at "
                      "iteration %d, yet the solve went on", name,
                      w.residual[c], c + 1);
            double last = w.residual[w.calls - 1];
            CHECK(last <= 1e-8, "%s: the last residual %g is above tol",
                  name, last);
            if (stop == COREPCG_STOP_RESIDUAL)
                CHECK(fabs(last - info.rel_residual) <=
                          1e-6 * info.rel_residual,
                      "%s: the last residual %.17g, info.rel_residual %.17g",
                      name, last, info.rel_residual);
        }
    }
    free(x);
}

/* A tol below round-off: the solve ends NOT_CONVERGED at round-off, and
 * the monitor was shown that last iteration too (an outside review: the
 * CLI's --monitor printed one line fewer than the iterations reported). */
static void test_round_off_stop_shown(const testsys *t)
{
    double *x = malloc(sizeof(double) * (size_t)t->n);
    for (int k = 0; x && corepcg_method_at(k) >= 0; k++) {
        corepcg_method m = corepcg_method_at(k);
        if (m == COREPCG_METHOD_DIRECT)
            continue;
        watch w = {0};
        corepcg_info info;
        corepcg_settings set = watched_settings(m, &w);
        set.tol = 1e-300;
        corepcg_solver *h = set_up(t, &set);
        int rc = h ? corepcg_solve(h, t->b, t->x0, x, &info) : COREPCG_ERR_ARGUMENT;
        CHECK(rc == COREPCG_NOT_CONVERGED, "%s at tol 1e-300: %s", corepcg_method_name(m),
              corepcg_strerror(rc));
        if (rc == COREPCG_NOT_CONVERGED)
            check_numbering(&w, &info, corepcg_method_name(m));
        corepcg_free(&h);
    }
    free(x);
}

/* A monitor that returns non-zero at iteration k stops the solve there:
 * STOPPED, k iterations, x finite, on its constraints, not converged,
 * and its measures those of x. */
static void test_stop_at(const testsys *t, int k)
{
    double *x = malloc(sizeof(double) * (size_t)t->n);
    for (int j = 0; corepcg_method_at(j) >= 0; j++) {
        corepcg_method m = corepcg_method_at(j);
        if (m == COREPCG_METHOD_DIRECT)
            continue;
        for (int i = 0; i < t->n; i++)
            x[i] = NAN;
        watch w = {.stop_at = k};
        corepcg_info info;
        int rc = solve_watched(t, m, COREPCG_STOP_RESIDUAL, &w, x, &info);
        const char *name = corepcg_method_name(m);
        CHECK(rc == COREPCG_STOPPED, "%s: status %d (%s)", name, rc,
              corepcg_strerror(rc));
        CHECK_INT(info.status, COREPCG_STOPPED);
        CHECK_INT(info.iterations, k);
        CHECK_INT(w.calls, k);
        CHECK_INT(info.converged, 0);
        double cerr, rres;
        testsys_measures(t, t->b, x, &cerr, &rres);
        CHECK(isfinite(rres) && cerr <= 1e-12, "%s: x stopped at iteration "
              "%d: constraint error %g, residual %g", name, k, cerr, rres);
        CHECK(rres > 1e-8, "%s: stopped at %d yet converged (%g)", name, k,
              rres);
        CHECK(fabs(rres - info.rel_residual) <= 1e-9 * rres,
              "%s: info.rel_residual %g, x's %g", name, info.rel_residual,
              rres);
    }
    free(x);
}

/* A stop asked at the iteration that meets tol changes nothing: OK. */
static void test_stop_when_converged(const testsys *t)
{
    double *x = malloc(sizeof(double) * (size_t)t->n);
    watch first = {0}, w = {0};
    corepcg_info info;
    solve_watched(t, COREPCG_METHOD_ICPCG, COREPCG_STOP_RESIDUAL, &first, x,
                  &info);
    w.stop_at = info.iterations;
    int rc = solve_watched(t, COREPCG_METHOD_ICPCG, COREPCG_STOP_RESIDUAL, &w,
                           x, &info);
    CHECK_INT(rc, COREPCG_OK);
    CHECK_INT(info.iterations, w.stop_at);
    CHECK_INT(info.converged, 1);
    free(x);
}

/* corepcg_set_monitor between solves, without a new setup (auto too,
 * whose candidates copy the settings): a monitor set after setup is
 * called, NULL removes it, and the next setup puts back the settings'. */
static void test_set_monitor(const testsys *t)
{
    double *x = malloc(sizeof(double) * (size_t)t->n);
    corepcg_settings set = watched_settings(COREPCG_METHOD_AUTO, NULL);
    CHECK(set.monitor == NULL && set.monitor_user == NULL,
          "the default settings have a monitor");
    corepcg_solver *h = set_up(t, &set);
    corepcg_info info;
    CHECK_INT(corepcg_solve(h, t->b, NULL, x, &info), COREPCG_OK);
    watch w = {0};
    CHECK_INT(corepcg_set_monitor(h, record, &w), COREPCG_OK);
    CHECK_INT(corepcg_solve(h, t->b, NULL, x, &info), COREPCG_OK);
    CHECK(info.iterations > 0, "no iterations");
    check_numbering(&w, &info, "set_monitor after setup");
    CHECK_INT(corepcg_update(h, &t->sys, NULL), COREPCG_OK);
    w.calls = 0;
    CHECK_INT(corepcg_solve(h, t->b, NULL, x, &info), COREPCG_OK);
    check_numbering(&w, &info, "set_monitor, after an update");
    CHECK_INT(corepcg_set_monitor(h, NULL, NULL), COREPCG_OK);
    w.calls = 0;
    CHECK_INT(corepcg_solve(h, t->b, NULL, x, &info), COREPCG_OK);
    CHECK_INT(w.calls, 0);
    CHECK_INT(corepcg_set_monitor(h, record, &w), COREPCG_OK);
    CHECK_INT(setup_for(h, &t->sys, &set), COREPCG_OK);
    CHECK_INT(corepcg_solve(h, t->b, NULL, x, &info), COREPCG_OK);
    CHECK_INT(w.calls, 0);
    corepcg_free(&h);
    CHECK_INT(corepcg_set_monitor(NULL, record, &w), COREPCG_ERR_ARGUMENT);
    free(x);
}

/* A monitor that calls the library on the handle being solved (its
 * docs say it must not): every call that would change the handle. */
typedef struct reentry {
    corepcg_solver *h;
    const testsys *t;
    double *scratch;
    int calls, codes[7];
} reentry;

static int call_back_in(int iteration, double residual, void *user)
{
    (void)iteration;
    (void)residual;
    reentry *r = user;
    if (r->calls++ > 0)
        return 0;
    corepcg_info info;
    corepcg_solver *same = r->h;
    r->codes[0] = corepcg_solve(r->h, r->t->b, NULL, r->scratch, &info);
    memset(&info, 0x5a, sizeof info);
    r->codes[1] = corepcg_update(r->h, &r->t->sys, &info);
    /* info filled as by every refused update, not left as it came */
    r->codes[6] = info.status == COREPCG_ERR_STATE &&
                  (info.analysis_reused == 0 || info.analysis_reused == 1);
    r->codes[2] = corepcg_setup(r->h, &r->t->sys, NULL);
    r->codes[3] = corepcg_set_monitor(r->h, NULL, NULL);
    corepcg_free(&same);
    r->codes[4] = same == r->h;      /* left be */
    r->codes[5] = corepcg_ready(r->h);
    return 0;
}

/* Called from within its own solve, solve, update, setup and set_monitor
 * return ERR_STATE and change nothing, and free leaves the handle be (an
 * outside review: a solve from the monitor crashed): the solve goes on
 * to the answer it gives without them, bit for bit. */
static void test_reentry_refused(const testsys *t)
{
    double *x = malloc(sizeof(double) * (size_t)t->n);
    double *plain = malloc(sizeof(double) * (size_t)t->n);
    double *scratch = malloc(sizeof(double) * (size_t)t->n);
    /* not auto: its second step may run another method, by the clock */
    const corepcg_method methods[] = {COREPCG_METHOD_COREPCG, COREPCG_METHOD_ICPCG,
                                      COREPCG_METHOD_MPCG};
    for (int k = 0; k < 3; k++) {
        corepcg_settings set = watched_settings(methods[k], NULL);
        corepcg_solver *h = set_up(t, &set);
        corepcg_info info;
        CHECK_INT(corepcg_solve(h, t->b, NULL, plain, &info), COREPCG_OK);
        reentry r = {.h = h, .t = t, .scratch = scratch};
        CHECK_INT(corepcg_set_monitor(h, call_back_in, &r), COREPCG_OK);
        CHECK_INT(corepcg_update(h, &t->sys, NULL), COREPCG_OK);
        int rc = corepcg_solve(h, t->b, NULL, x, &info);
        const char *name = corepcg_method_name(methods[k]);
        CHECK(rc == COREPCG_OK, "%s: the solve around the calls: %d (%s)", name,
              rc, corepcg_message(h));
        CHECK(r.calls > 0, "%s: the monitor never ran", name);
        for (int c = 0; c < 4; c++)
            CHECK(r.codes[c] == COREPCG_ERR_STATE, "%s: call %d from the "
                  "monitor returned %d", name, c, r.codes[c]);
        CHECK(r.codes[4] && r.codes[5], "%s: free from the monitor dropped "
              "the handle", name);
        CHECK(r.codes[6], "%s: update from the monitor left info unfilled", name);
        CHECK(memcmp(x, plain, sizeof(double) * (size_t)t->n) == 0,
              "%s: the answer differs from the one without the calls", name);
        corepcg_free(&h);
    }
    free(x);
    free(plain);
    free(scratch);
}

/* auto does not time a step its solve was stopped in: after a stopped
 * first solve the next step is still auto's first choice (one timed step
 * would have made it probe another candidate). */
static void test_auto_untimed_when_stopped(const testsys *t)
{
    double *x = malloc(sizeof(double) * (size_t)t->n);
    watch w = {.stop_at = 1};
    corepcg_settings set = watched_settings(COREPCG_METHOD_AUTO, &w);
    corepcg_solver *h = set_up(t, &set);
    corepcg_info info;
    CHECK_INT(corepcg_solve(h, t->b, NULL, x, &info), COREPCG_STOPPED);
    CHECK_INT(info.auto_reason, COREPCG_AUTO_FIRST);
    CHECK_INT(corepcg_set_monitor(h, NULL, NULL), COREPCG_OK);
    CHECK_INT(corepcg_update(h, &t->sys, NULL), COREPCG_OK);
    CHECK_INT(corepcg_solve(h, t->b, NULL, x, &info), COREPCG_OK);
    CHECK(info.auto_reason == COREPCG_AUTO_FIRST, "auto_reason %s after a "
          "stopped step: the stopped solve was timed",
          corepcg_auto_reason_name(info.auto_reason));
    /* a step that ran to its end is timed: the next one probes */
    CHECK_INT(corepcg_update(h, &t->sys, NULL), COREPCG_OK);
    CHECK_INT(corepcg_solve(h, t->b, NULL, x, &info), COREPCG_OK);
    CHECK(info.auto_reason != COREPCG_AUTO_FIRST, "auto_reason %s after a "
          "timed step", corepcg_auto_reason_name(info.auto_reason));
    corepcg_free(&h);
    free(x);
}

/* auto's choice gives up at max_iter before anything was timed and its
 * fallback solves again: the monitor sees both attempts, each numbered
 * from 1, and info.iterations counts the last one's calls. */
static void test_auto_fallback_numbering(const testsys *t)
{
    enum { LIMIT = 2 };
    double *x = malloc(sizeof(double) * (size_t)t->n);
    watch w = {0};
    corepcg_settings set = watched_settings(COREPCG_METHOD_AUTO, &w);
    set.max_iter = LIMIT;
    corepcg_solver *h = set_up(t, &set);
    corepcg_info info;
    CHECK_INT(corepcg_solve(h, t->b, NULL, x, &info), COREPCG_NOT_CONVERGED);
    CHECK_INT(info.auto_reason, COREPCG_AUTO_FALLBACK);
    CHECK_INT(info.iterations, LIMIT);
    CHECK_INT(w.calls, 2 * LIMIT);
    for (int k = 0; k < w.calls && k < 2 * LIMIT; k++)
        CHECK(w.iteration[k] == k % LIMIT + 1, "call %d saw iteration %d",
              k + 1, w.iteration[k]);
    corepcg_free(&h);
    free(x);
}

int main(void)
{
    testsys t;
    if (make_system(&t) != 0)
        return test_summary("test_monitor");
    CHECK(strcmp(corepcg_strerror(COREPCG_STOPPED), "stopped by the monitor")
              == 0, "strerror(STOPPED) = %s", corepcg_strerror(COREPCG_STOPPED));
    test_called_every_iteration(&t, t.x0, "x0");
    /* a guess far from the answer makes the recurrence's residual drift
     * from the true one: the monitor must show the true one wherever the
     * rule checks it */
    double *far = malloc(sizeof(double) * (size_t)t.n);
    for (int k = 0; k < t.n; k++)
        far[k] = 1e8 * t.x0[k];
    test_called_every_iteration(&t, far, "x0 * 1e8");
    free(far);
    test_round_off_stop_shown(&t);
    test_stop_at(&t, 1);
    test_stop_at(&t, 2);
    test_stop_when_converged(&t);
    test_set_monitor(&t);
    test_reentry_refused(&t);
    test_auto_untimed_when_stopped(&t);
    test_auto_fallback_numbering(&t);
    testsys_free(&t);
    return test_summary("test_monitor");
}

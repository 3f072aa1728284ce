/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_run.c -- the measurement loop of `corepcg bench`.
 *
 * Per scene, tol, size and k: build the scene, step it with auto
 * (cloth_step) until the cloth touches the obstacle, then spread the
 * measured steps over the next BENCH_HIT_WINDOW_S (auto steps the cloth in
 * between). Every method's handle is set up on the step before the first
 * measured one, untimed, and kept across steps as a simulator would keep
 * it (corepcg_update at each measured step); auto's handle is the
 * simulator's own, so it has seen every step. For each measured step
 * assemble once and hand that same system to every method in turn -- the
 * order rotated by one per step so that no method always runs first (cold
 * caches). Every method starts from the same guess, the previous step's
 * answer. The cloth then advances with one reference answer (direct's,
 * exact up to round-off), and all methods see the same trajectory. The
 * steps between are auto's, whose choices follow its timings: so the
 * trajectory, and the measured systems' iteration counts, move a little
 * from run to run (docs/benchmark.md says so). */
#include "bench.h"
#include "cloth.h"
#include "monotonic.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* "\r" progress on a terminal only. */
static void progress(const bench_options *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void progress(const bench_options *o, const char *fmt, ...)
{
    if (!o->progress)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("\r\033[K", stderr);
    vfprintf(stderr, fmt, ap);
    fflush(stderr);
    va_end(ap);
}

static void fail_cell(bench_cell *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void fail_cell(bench_cell *c, const char *fmt, ...)
{
    if (!c->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->why, sizeof c->why, fmt, ap);
        va_end(ap);
    }
    c->failed = 1;
}

int bench_judge(const bench_sample *s, int ran, double tol, const char *message,
                char *why, size_t len)
{
    int exact = !corepcg_method_takes(ran, COREPCG_OPTION_TOL);
    int has_message = message && *message;
    why[0] = '\0';
    if (s->status < 0) {
        snprintf(why, len, "%s", has_message ? message : corepcg_strerror(s->status));
        return BENCH_ANSWER_FAILED;
    }
    if (s->status == COREPCG_NOT_CONVERGED) {
        /* the library's reason (e.g. tol below round-off), not a guess */
        snprintf(why, len, "not converged in %d iterations (relative residual %.2e)%s%s",
                 s->iterations, s->rel_residual, has_message ? ": " : "",
                 has_message ? message : "");
        return BENCH_ANSWER_NOT_CONVERGED;
    }
    if (exact && !(s->rel_residual <= BENCH_DIRECT_RESIDUAL))
        snprintf(why, len, "relative residual %.2e > %.2g (%s takes no tol: %g x "
                 "round-off, 64 eps)", s->rel_residual, BENCH_DIRECT_RESIDUAL,
                 corepcg_method_name(ran), BENCH_DIRECT_RESIDUAL / BENCH_ROUND_OFF);
    else if (!exact && !(s->rel_residual <= BENCH_RESIDUAL_FACTOR * tol))
        snprintf(why, len, "relative residual %.2e > %g x tol", s->rel_residual,
                 BENCH_RESIDUAL_FACTOR);
    else if (!(s->constraint_error <= BENCH_CONSTRAINT_TOL))
        snprintf(why, len, "constraint error %.2e > %g", s->constraint_error,
                 BENCH_CONSTRAINT_TOL);
    return why[0] ? BENCH_ANSWER_FAILED : BENCH_ANSWER_OK;
}

const char *bench_answer_name(int verdict)
{
    return verdict == BENCH_ANSWER_OK ? "ok"
           : verdict == BENCH_ANSWER_NOT_CONVERGED ? "not_converged" : "failed";
}

/* Judges one sample (bench_judge): an error, no convergence or a wrong
 * answer fails the cell (the worst kind, and its first reason, kept). */
static void verify(const bench_case *cs, bench_cell *c, int step,
                   const bench_sample *s, const char *message)
{
    int ran = c->method == COREPCG_METHOD_AUTO ? s->method_used : c->method;
    char why[COREPCG_MSG_SIZE];
    int verdict = bench_judge(s, ran, cs->id.tol, message, why, sizeof why);
    if (verdict == BENCH_ANSWER_FAILED && c->not_converged)
        c->failed = c->not_converged = 0; /* the worst kept, as --scaling
                                             keeps it, with its reason */
    if (verdict == BENCH_ANSWER_NOT_CONVERGED)
        c->not_converged |= !c->failed;
    if (verdict != BENCH_ANSWER_OK)
        fail_cell(c, "step %d: %s", step + 1, why);
}

/* One method on the assembled system: setup (first time, or after a
 * failure emptied the handle) or update, then solve from sim->dv. */
static void measure(double tol, int method, corepcg_solver *h, int *ready,
                    const corepcg_system *sys, const cloth_sim *sim,
                    double *x, bench_sample *s)
{
    corepcg_settings set;
    corepcg_settings_default(&set);
    set.method = (corepcg_method)method;
    set.tol = tol;
    corepcg_settings_for_method(&set); /* direct takes no tol */
    corepcg_info info;
    memset(&info, 0, sizeof info);
    memset(s, 0, sizeof *s);

    double t0 = cpg_now();
    int rc = *ready ? corepcg_update(h, sys, NULL) : corepcg_setup(h, sys, &set);
    if (rc >= 0)
        rc = corepcg_solve(h, sim->b, sim->dv, x, &info);
    s->seconds = cpg_now() - t0;

    *ready = rc >= 0;
    s->status = rc;
    s->rel_residual = rc >= 0 ? info.rel_residual : NAN;
    s->constraint_error = rc >= 0 ? info.constraint_error : NAN;
    s->iterations = info.iterations;
    s->setup_s = info.time_setup_s;
    s->solve_s = info.time_solve_s;
    s->reduce_s = info.time_reduce_s;
    s->analyze_s = info.time_analyze_s;
    s->factor_s = info.time_factor_s;
    s->iterate_s = info.time_iterate_s;
    s->analysis_reused = info.analysis_reused;
    s->fell_back = info.fell_back;
    s->method_used = info.method_used;
    s->auto_reason = info.auto_reason;
    s->r = info.r;
    s->nnz_factor = info.nnz_factor;
    s->factor_flops = info.factor_flops;
}

static void summarise(bench_cell *c)
{
    double v[BENCH_MAX_STEPS];
    int n = c->steps;
    c->rel_residual_max = c->constraint_error_max = 0;
    c->nnz_factor = 0;
    c->time_min_s = INFINITY;
    c->time_max_s = 0;
    c->reused_steps = c->fell_back_steps = 0;
    for (int k = 0; k < n; k++) {
        const bench_sample *s = &c->samples[k];
        /* no answer counts as an infinite error: it can never pass */
        double rr = s->status < 0 ? INFINITY : s->rel_residual;
        double ce = s->status < 0 ? INFINITY : s->constraint_error;
        c->rel_residual_max = fmax(c->rel_residual_max, isnan(rr) ? INFINITY : rr);
        c->constraint_error_max = fmax(c->constraint_error_max, isnan(ce) ? INFINITY : ce);
        if (s->nnz_factor > c->nnz_factor)
            c->nnz_factor = s->nnz_factor;
        c->time_min_s = fmin(c->time_min_s, s->seconds);
        c->time_max_s = fmax(c->time_max_s, s->seconds);
        c->reused_steps += s->analysis_reused;
        c->fell_back_steps += s->fell_back;
    }
    if (n == 0)
        c->time_min_s = c->time_max_s = NAN;
#define MEDIAN_OF(field, out)                                                \
    do {                                                                     \
        for (int k = 0; k < n; k++)                                          \
            v[k] = (double)c->samples[k].field;                              \
        c->out = cli_median(v, n);                                         \
    } while (0)
    MEDIAN_OF(iterations, iterations_median);
    MEDIAN_OF(seconds, time_median_s);
    MEDIAN_OF(reduce_s, reduce_median_s);
    MEDIAN_OF(analyze_s, analyze_median_s);
    MEDIAN_OF(factor_s, factor_median_s);
    MEDIAN_OF(iterate_s, iterate_median_s);
#undef MEDIAN_OF
    /* the rate of the steps that factorised (direct, corepcg; never icpcg,
     * whose incomplete factor CHOLMOD does not count) */
    int f = 0;
    for (int k = 0; k < n; k++)
        if (c->samples[k].factor_flops > 0 && c->samples[k].factor_s > 0)
            v[f++] = 1e-9 * c->samples[k].factor_flops / c->samples[k].factor_s;
    c->factor_gflops_median = f ? cli_median(v, f) : NAN;
}

/* Steps the scene (with the default method, auto) until contacts appear
 * (scenes with an obstacle; capped at BENCH_MAX_WARMUP steps). */
static int warm_up(const bench_options *o, cloth_sim *sim, bench_case *cs)
{
    corepcg_settings set;
    corepcg_settings_default(&set);
    set.method = COREPCG_METHOD_AUTO; /* the auto cell's settings */
    set.tol = cs->id.tol;
    char msg[COREPCG_MSG_SIZE] = "";
    cs->contacts_found = 0;
    if (!cloth_sim_has_obstacles(sim))
        return 0;
    while (cs->warmup_steps < BENCH_MAX_WARMUP) {
        progress(o, "bench %s %s k %g tol %g: warm-up step %d",
                 cloth_scene_name(cs->id.scene), cs->id.label, cs->id.k,
                 cs->id.tol, cs->warmup_steps + 1);
        int rc = cloth_step(sim, &set, msg);
        if (rc < 0) {
            snprintf(cs->error, sizeof cs->error, "warm-up step %d: %s",
                     cs->warmup_steps + 1, msg);
            return rc;
        }
        cs->warmup_steps++;
        if (sim->contacts > 0) {
            cs->contacts_found = 1;
            break;
        }
    }
    return 0;
}

/* The method whose answer moves the cloth: one that factorises with
 * CHOLMOD (corepcg_method_reports), exact (direct: it does not iterate)
 * before preconditioned (corepcg); else the first one listed. */
static int reference_index(const bench_options *o)
{
    for (int exact = 1; exact >= 0; exact--)
        for (int k = 0; corepcg_method_at(k) >= 0; k++) {
            int m = corepcg_method_at(k);
            int j = bench_method_index(o, m);
            if (j >= 0 && (corepcg_method_reports(m) & COREPCG_REPORT_CHOLMOD) &&
                corepcg_method_takes(m, COREPCG_OPTION_TOL) != exact)
                return j;
        }
    return 0;
}

/* The handles of one case, one per method: auto's is the simulator's. */
typedef struct case_handles {
    int M, ja, ref;
    corepcg_solver *h[TOOL_MAX_METHODS];
    int ready[TOOL_MAX_METHODS];
    double *x[TOOL_MAX_METHODS];
} case_handles;

/* Every handle set up on the step before the first measured one and
 * updated once with it (untimed: a handle's first update builds its
 * import map), so that each measured step is a steady warm update, as a
 * simulator's are; auto's handle, the simulator's own, has seen every
 * step anyway. Then that step is taken. */
static int prime_handles(bench_case *cs, cloth_sim *sim, case_handles *ch,
                         const corepcg_settings *between)
{
    char msg[COREPCG_MSG_SIZE] = "";
    int rc = cloth_assemble(sim, msg);
    if (rc < 0) {
        snprintf(cs->error, sizeof cs->error, "assembly: %s", msg);
        return rc;
    }
    corepcg_system prime;
    cloth_system(sim, &prime);
    for (int j = 0; j < ch->M; j++) {
        bench_sample scratch;
        for (int pass = 0; pass < 2 && j != ch->ja; pass++)
            measure(cs->id.tol, cs->cells[j].method, ch->h[j], &ch->ready[j],
                    &prime, sim, ch->x[j], &scratch);
    }
    rc = cloth_step(sim, between, msg);
    if (rc < 0)
        snprintf(cs->error, sizeof cs->error, "step before measuring: %s", msg);
    return rc;
}

/* Measured step `step`: the stride's steps in between, then every method
 * on the same system (order rotated per step), then the cloth advanced
 * with the reference answer (if it failed or did not converge, the next
 * method's whose status is neither: its residual is not checked). */
static int measured_step(const bench_options *o, bench_case *cs, cloth_sim *sim,
                         case_handles *ch, int step,
                         const corepcg_settings *between)
{
    char msg[COREPCG_MSG_SIZE] = "";
    for (int skip = 1; skip < cs->stride; skip++) {
        int rc = cloth_step(sim, between, msg);
        if (rc < 0) {
            snprintf(cs->error, sizeof cs->error,
                     "step between measurements: %s", msg);
            return rc;
        }
    }
    int rc = cloth_assemble(sim, msg);
    if (rc < 0) {
        snprintf(cs->error, sizeof cs->error, "assembly: %s", msg);
        return rc;
    }
    corepcg_system sys;
    cloth_system(sim, &sys);
    if (step == 0) {
        cs->contacts = sim->contacts;
        cs->constrained = sim->num_cons;
    }
    const int M = ch->M, ja = ch->ja, ref = ch->ref;
    for (int t = 0; t < M; t++) {
        int j = (t + step) % M;
        bench_cell *c = &cs->cells[j];
        progress(o, "bench %s %s k %g tol %g: step %d/%d %s",
                 cloth_scene_name(cs->id.scene), cs->id.label, cs->id.k, cs->id.tol,
                 step + 1, o->steps, corepcg_method_name(c->method));
        bench_sample *s = &c->samples[c->steps++];
        if (j == ja)
            ch->ready[j] = sim->solver_ready;
        measure(cs->id.tol, c->method, ch->h[j], &ch->ready[j], &sys, sim,
                ch->x[j], s);
        if (j == ja)
            sim->solver_ready = ch->ready[j];
        verify(cs, c, step, s, corepcg_message(ch->h[j]));
    }
    int use = -1;
    for (int t = 0; t < M && use < 0; t++) {
        int j = t == 0 ? ref : (t <= ref ? t - 1 : t);
        const bench_sample *s = &cs->cells[j].samples[step];
        if (s->status >= 0 && s->status != COREPCG_NOT_CONVERGED)
            use = j;
    }
    if (use < 0) {
        snprintf(cs->error, sizeof cs->error,
                 "step %d: no method produced an answer; stopped", step + 1);
        return COREPCG_ERR_STATE;
    }
    cs->advance_substitutes += use != ref;
    memcpy(sim->dv_next, ch->x[use], sizeof(double) * (size_t)cs->n);
    cloth_advance(sim);
    return COREPCG_OK;
}

static void run_case(const bench_options *o, bench_case *cs)
{
    case_handles ch;
    memset(&ch, 0, sizeof ch);
    ch.M = o->num_methods;
    ch.ja = bench_method_index(o, COREPCG_METHOD_AUTO);
    ch.ref = reference_index(o);
    for (int j = 0; j < ch.M; j++)
        cs->cells[j].method = o->methods[j];
    cs->advance_method = o->methods[ch.ref];
    /* Every way out goes through done:, which fails each cell that did not
     * get all its steps -- a scene or warm-up failure included. */
    cloth_sim *sim = NULL;
    char msg[COREPCG_MSG_SIZE] = "";
    int rc = bench_sim_create(o, cs->id.scene, cs->id.model, cs->id.size_index,
                              cs->id.k, &sim, msg);
    cs->dt = rc >= 0 ? sim->par.dt : 0;
    if (rc < 0) {
        snprintf(cs->error, sizeof cs->error, "scene: %s", msg);
        goto done;
    }
    cs->n = sim->model.n;
    /* The auto method's handle is the simulator's own: it steps the cloth
     * through the warm-up and between the measured steps, so that, as in
     * a simulation, it has seen every step (its choice rests on what it
     * measured on earlier ones). */
    if (ch.ja >= 0) {
        rc = corepcg_create(&sim->solver);
        if (rc < 0) {
            snprintf(cs->error, sizeof cs->error, "%s", corepcg_strerror(rc));
            goto done;
        }
        ch.h[ch.ja] = sim->solver;
    }
    if (warm_up(o, sim, cs) < 0)
        goto done;
    for (int j = 0; j < ch.M; j++) {
        ch.x[j] = malloc(sizeof(double) * (size_t)cs->n);
        rc = ch.x[j] ? (ch.h[j] ? COREPCG_OK : corepcg_create(&ch.h[j]))
                     : COREPCG_ERR_NO_MEMORY;
        if (rc < 0) {
            snprintf(cs->error, sizeof cs->error, "%s", corepcg_strerror(rc));
            goto done;
        }
    }
    /* the measured steps spread over the window: after the first contact
     * with an obstacle, from the start in a scene without one */
    cs->stride = (int)fmax(1, floor(BENCH_HIT_WINDOW_S / cs->dt / o->steps));
    corepcg_settings between;
    corepcg_settings_default(&between);
    between.method = COREPCG_METHOD_AUTO;
    between.tol = cs->id.tol;
    if (prime_handles(cs, sim, &ch, &between) < 0)
        goto done;
    for (int step = 0; step < o->steps; step++)
        if (measured_step(o, cs, sim, &ch, step, &between) < 0)
            break;
done:
    for (int j = 0; j < ch.M; j++) {
        if (j != ch.ja) /* auto's handle is the simulator's, freed with it */
            corepcg_free(&ch.h[j]);
        free(ch.x[j]);
        summarise(&cs->cells[j]);
        if (cs->cells[j].steps < o->steps)
            fail_cell(&cs->cells[j], "%s", cs->error[0] ? cs->error : "not run");
    }
    cloth_sim_free(&sim);
}

int bench_run(const bench_options *o, bench_results *res, char *msg)
{
    memset(res, 0, sizeof *res);
    res->opt = o;
    bench_date(res->date, sizeof res->date);
    res->load1_start = bench_load_average(res->load_start, sizeof res->load_start);
    res->num_cases = bench_case_count(o);
    res->cases = calloc((size_t)res->num_cases, sizeof *res->cases);
    if (!res->cases) {
        snprintf(msg, COREPCG_MSG_SIZE, "out of memory");
        return COREPCG_ERR_NO_MEMORY;
    }
    double t0 = cpg_now();
    for (int c = 0; c < res->num_cases; c++) {
        bench_case_id_at(o, c, &res->cases[c].id);
        run_case(o, &res->cases[c]);
    }
    progress(o, "%s", "");
    res->total_s = cpg_now() - t0;
    return 0;
}

int bench_any_failure(const bench_results *res)
{
    for (int c = 0; c < res->num_cases; c++) {
        if (res->cases[c].error[0])
            return 1;
        for (int j = 0; j < res->opt->num_methods; j++)
            if (res->cases[c].cells[j].failed)
                return 1;
    }
    return 0;
}

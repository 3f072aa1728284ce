/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_whole.c -- `corepcg bench --simulations STEPS`: whole simulations,
 * one per method, timed from the first step to the last.
 *
 * The per-step tables time every method on the same systems; this run
 * answers the question a user of auto asks: over a whole simulation, with
 * its probes of other methods and its re-checks, how much slower is auto
 * than the method that would have been fastest had one known it in
 * advance? Each method steps its own copy of the scene (same start, same
 * parameters, its own answers: trajectories agree to the tolerance), and
 * the seconds are the solver's -- setup or update + solve at every step,
 * cloth_sim's time_solve_s -- summed. The copies advance side by side, one
 * step each in turn (the order rotated per step), so that a machine whose
 * speed drifts over minutes slows every method alike (docs/benchmark.md,
 * "Whole simulations on both cloth models"); each step then runs after
 * the others' have used the caches, as it would beside a simulator's
 * own work. */
#include "bench.h"
#include "cloth.h"
#include "monotonic.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"

/* One simulation: the solver's seconds summed over the steps, how often
 * each method ran (auto), and the first failure. */
typedef struct whole_run {
    int method;
    double seconds;
    long iterations;
    int ran[TOOL_MAX_METHODS];
    int steps_done, not_converged;
    int wrong;             /* steps whose answer failed the bench's check
                              (bench_judge): why says the first          */
    char why[COREPCG_MSG_SIZE];
    int pattern_changes;   /* steps whose A had another pattern than the
                              step before (self-contact springs came or
                              went; each run follows its own trajectory) */
    int reused;            /* updates that kept the symbolic analysis   */
    char error[COREPCG_MSG_SIZE];
} whole_run;

typedef struct whole_case {
    bench_case_id id;
    whole_run runs[TOOL_MAX_METHODS]; /* as opt.methods */
} whole_case;

/* One method's copy of the scene, with the settings it steps with. */
typedef struct whole_sim {
    cloth_sim *sim;
    corepcg_settings set;
} whole_sim;

static void start(const bench_options *o, const whole_case *wc, whole_run *r, whole_sim *w)
{
    corepcg_settings_default(&w->set);
    w->set.method = (corepcg_method)r->method;
    w->set.tol = wc->id.tol;
    char msg[COREPCG_MSG_SIZE] = "";
    if (bench_sim_create(o, wc->id.scene, wc->id.model, wc->id.size_index, wc->id.k, &w->sim,
                         msg) < 0)
        snprintf(r->error, sizeof r->error, "scene: %s", msg);
}

/* Step s of r's simulation; a failure ends it (its copy freed). Each
 * answer is checked as the per-step bench checks its own (bench_judge). */
static void step(whole_run *r, whole_sim *w, int s)
{
    char msg[COREPCG_MSG_SIZE] = "";
    cloth_sim *sim = w->sim;
    int st = cloth_step(sim, &w->set, msg);
    if (st < 0) {
        snprintf(r->error, sizeof r->error, "step %d: %s", s + 1, msg);
        cloth_sim_free(&w->sim);
        return;
    }
    r->not_converged += st == COREPCG_NOT_CONVERGED;
    bench_sample answer = {.status = st, .iterations = sim->info.iterations,
                           .rel_residual = sim->info.rel_residual,
                           .constraint_error = sim->info.constraint_error};
    char why[COREPCG_MSG_SIZE];
    if (bench_judge(&answer, sim->info.method_used, w->set.tol, NULL, why, sizeof why) ==
        BENCH_ANSWER_FAILED) {
        if (!r->wrong++)
            snprintf(r->why, sizeof r->why, "step %d: %.400s", s + 1, why);
    }
    r->pattern_changes += s > 0 && sim->pattern_changed;
    r->reused += s > 0 && sim->analysis_reused;
    r->seconds += sim->time_solve_s;
    r->iterations += sim->info.iterations;
    if ((unsigned)sim->info.method_used < TOOL_MAX_METHODS)
        r->ran[sim->info.method_used]++;
    r->steps_done++;
}

/* Every method's simulation of the case, side by side. */
static void run_case(const bench_options *o, whole_case *wc)
{
    whole_sim sims[TOOL_MAX_METHODS];
    int n = o->num_methods;
    for (int j = 0; j < n; j++) {
        wc->runs[j].method = o->methods[j];
        sims[j].sim = NULL;
        start(o, wc, &wc->runs[j], &sims[j]);
    }
    for (int s = 0; s < o->whole_steps; s++) {
        if (o->progress)
            fprintf(stderr, "\r\033[Kbench %s %s k %g: step %d of %d",
                    cloth_scene_name(wc->id.scene), wc->id.label, wc->id.k, s + 1,
                    o->whole_steps);
        for (int i = 0; i < n; i++) {
            int j = (i + s) % n;
            if (sims[j].sim)
                step(&wc->runs[j], &sims[j], s);
        }
    }
    for (int j = 0; j < n; j++)
        cloth_sim_free(&sims[j].sim);
}

static int failed(const whole_run *r, const bench_options *o)
{
    return r->error[0] || r->not_converged || r->wrong || r->steps_done < o->whole_steps;
}

/* The run's BENCH_ANSWER_*: not converged only where every step ran and
 * no answer failed the check. */
static int verdict(const whole_run *r, const bench_options *o)
{
    if (!failed(r, o))
        return BENCH_ANSWER_OK;
    return !r->error[0] && !r->wrong && r->steps_done == o->whole_steps
               ? BENCH_ANSWER_NOT_CONVERGED
               : BENCH_ANSWER_FAILED;
}

/* The fastest run other than auto's, or -1. */
static int fastest(const bench_options *o, const whole_case *wc)
{
    int best = -1;
    for (int j = 0; j < o->num_methods; j++) {
        const whole_run *r = &wc->runs[j];
        if (r->method == COREPCG_METHOD_AUTO || failed(r, o))
            continue;
        if (best < 0 || r->seconds < wc->runs[best].seconds)
            best = j;
    }
    return best;
}

static void print_table(FILE *out, const bench_options *o,
                        const whole_case *cases, int count)
{
    fprintf(out, "| scene | tol | size | k_stretch |");
    for (int j = 0; j < o->num_methods; j++)
        fprintf(out, " %s |", corepcg_method_name(o->methods[j]));
    fprintf(out, " fastest | auto/fastest | auto ran | steps with a new pattern |\n"
                 "|---|---:|---:|---:|");
    for (int j = 0; j < o->num_methods + 4; j++)
        fprintf(out, "---:|");
    fputc('\n', out);
    int ja = bench_method_index(o, COREPCG_METHOD_AUTO);
    for (int c = 0; c < count; c++) {
        const whole_case *wc = &cases[c];
        fprintf(out, "| %s | %g | %s | %g |", cloth_scene_name(wc->id.scene),
                wc->id.tol, wc->id.label, wc->id.k);
        for (int j = 0; j < o->num_methods; j++) {
            const whole_run *r = &wc->runs[j];
            int v = verdict(r, o);
            if (v == BENCH_ANSWER_FAILED && !r->error[0] && r->wrong)
                fprintf(out, " **FAILED** (%s) |", r->why);
            else if (v == BENCH_ANSWER_NOT_CONVERGED)
                fprintf(out, " **NOT CONVERGED** (%d of %d steps) |", r->not_converged,
                        r->steps_done);
            else if (v == BENCH_ANSWER_FAILED)
                fprintf(out, " **FAILED** (%s) |", r->error[0] ? r->error : "not run");
            else
                fprintf(out, " %.3f s |", r->seconds);
        }
        int best = fastest(o, wc);
        fprintf(out, " %s |", best < 0 ? "n/a" : corepcg_method_name(o->methods[best]));
        if (ja >= 0 && best >= 0 && !failed(&wc->runs[ja], o))
            fprintf(out, " %.3f |", wc->runs[ja].seconds / wc->runs[best].seconds);
        else
            fprintf(out, " n/a |");
        char ran[160] = "";
        size_t used = 0;
        for (int m = 0; ja >= 0 && m < TOOL_MAX_METHODS; m++)
            if (wc->runs[ja].ran[m] && used < sizeof ran)
                used += (size_t)snprintf(ran + used, sizeof ran - used, "%s%s x%d",
                                         used ? ", " : "", corepcg_method_name(m),
                                         wc->runs[ja].ran[m]);
        fprintf(out, " %s |", used ? ran : "-");
        /* each run follows its own trajectory: the fewest and the most */
        int lo = -1, hi = -1;
        for (int j = 0; j < o->num_methods; j++) {
            int p = wc->runs[j].pattern_changes;
            lo = lo < 0 || p < lo ? p : lo;
            hi = p > hi ? p : hi;
        }
        if (lo == hi)
            fprintf(out, " %d |\n", lo);
        else
            fprintf(out, " %d-%d |\n", lo, hi);
    }
}

static int write_markdown(FILE *out, const bench_options *o,
                          const whole_case *cases, int count, double total_s,
                          const bench_stamp *start)
{
    bench_env env;
    bench_env_read(&env);
    fprintf(out, "# corepcg bench --simulations: whole simulations\n\n"
                 "Reproduce: `%s`\n\n", o->command);
    bench_print_run_header(out, &env, start->date, total_s, start->load, start->load1);
    fprintf(out, "\nEach method steps its own copy of the scene for %d steps from "
                 "the same start, the copies side by side (one step each in turn, "
                 "the order rotated per step); the seconds are the solver's (setup or update + "
                 "solve at every step) summed over the run, so auto's probes of "
                 "the other methods and its re-checks are included. \"fastest\" is "
                 "the fastest method other than auto. \"steps with a new pattern\": "
                 "steps after the first whose A had another sparsity pattern than "
                 "the step before (self-contact springs came or went; the fewest "
                 "and the most over the methods' runs, each on its own "
                 "trajectory). Every step's answer is checked as in the per-step "
                 "tables: an iterative method's relative residual within %g x tol, "
                 "direct's within %.2g; a run with a step that fails the check is "
                 "marked FAILED, one with a step that did not converge NOT "
                 "CONVERGED.\n\n",
            o->whole_steps, BENCH_RESIDUAL_FACTOR, BENCH_DIRECT_RESIDUAL);
    print_table(out, o, cases, count);
    return ferror(out) ? -1 : 0;
}

struct whole_report {
    const bench_options *o;
    const whole_case *cases;
    int count;
    double total_s;
    const bench_stamp *start;
};

static int fill_markdown(FILE *out, const void *what)
{
    const struct whole_report *w = what;
    return write_markdown(out, w->o, w->cases, w->count, w->total_s, w->start);
}

static int fill_csv(FILE *out, const void *what)
{
    const struct whole_report *w = what;
    fprintf(out, "scene,tol,size,k_stretch,steps,method,total_s,iterations,failed,"
                 "pattern_changes,analysis_reused_steps,mesh,status\n");
    for (int c = 0; c < w->count; c++)
        for (int j = 0; j < w->o->num_methods; j++) {
            const whole_case *wc = &w->cases[c];
            const whole_run *r = &wc->runs[j];
            /* size 0 and the mesh (and its level) on a mesh scene,
             * quoted when its label holds a comma */
            fprintf(out, "%s,%.6g,%d,%.17g,%d,%s,%.6e,%ld,%d,%d,%d,",
                    cloth_scene_name(wc->id.scene), wc->id.tol, wc->id.size, wc->id.k,
                    r->steps_done, corepcg_method_name(r->method), r->seconds,
                    r->iterations, failed(r, w->o), r->pattern_changes, r->reused);
            bench_csv_text(out, wc->id.size ? "" : wc->id.label);
            fprintf(out, ",%s\n", bench_answer_name(verdict(r, w->o)));
        }
    return ferror(out) ? -1 : 0;
}

int bench_whole(const bench_options *o)
{
    int count = bench_case_count(o);
    whole_case *cases = calloc((size_t)count, sizeof *cases);
    if (!cases) {
        cli_error("bench: out of memory");
        return CLI_EXIT_ERROR;
    }
    bench_stamp start;
    bench_stamp_take(&start);
    double t0 = cpg_now();
    for (int c = 0; c < count; c++) {
        whole_case *wc = &cases[c];
        bench_case_id_at(o, c, &wc->id);
        run_case(o, wc);
    }
    if (o->progress)
        fputs("\r\033[K", stderr);
    struct whole_report w = {o, cases, count, cpg_now() - t0, &start};
    printf("%s: solver seconds over %d steps per simulation\n\n", o->command,
           o->whole_steps);
    print_table(stdout, o, cases, count);
    int bad = (o->csv && bench_write_atomic(o->csv, &w, fill_csv)) ||
              (o->markdown && bench_write_atomic(o->markdown, &w, fill_markdown));
    int any_failed = 0;
    for (int c = 0; c < count; c++)
        for (int j = 0; j < o->num_methods; j++)
            any_failed |= failed(&cases[c].runs[j], o);
    free(cases);
    if (bad)
        return CLI_EXIT_ERROR;
    return any_failed ? CLI_EXIT_NOT_CONVERGED : CLI_EXIT_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_report.c -- the bench's results as a terminal table, a CSV and a
 * markdown report with the machine they came from; atomic file output. */
#include "bench.h"
#include "cloth.h"

#include "atomic_file.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

/* ------------------------------------------------------------- helpers */

static const bench_cell *cell_of(const bench_results *res, int c, int method)
{
    int j = bench_method_index(res->opt, method);
    return j < 0 ? NULL : &res->cases[c].cells[j];
}

/* median(a) / median(b), or NAN when either is missing or failed. */
static double time_ratio(const bench_results *res, int c, int a, int b)
{
    const bench_cell *x = cell_of(res, c, a), *y = cell_of(res, c, b);
    if (!x || !y || x->failed || y->failed || !(y->time_median_s > 0))
        return NAN;
    return x->time_median_s / y->time_median_s;
}

/* The fastest method of case c other than auto (auto chooses among the
 * others), or -1. */
static int fastest_method(const bench_results *res, int c)
{
    const bench_options *o = res->opt;
    int best = -1;
    for (int j = 0; j < o->num_methods; j++) {
        const bench_cell *cl = &res->cases[c].cells[j];
        if (cl->method == COREPCG_METHOD_AUTO || cl->failed ||
            !(cl->time_median_s > 0))
            continue;
        if (best < 0 || cl->time_median_s < res->cases[c].cells[best].time_median_s)
            best = j;
    }
    return best < 0 ? -1 : o->methods[best];
}

static const char *format_time(double s, char *buf, size_t len)
{
    if (!isfinite(s))
        snprintf(buf, len, "n/a");
    else if (s < 0.01)
        snprintf(buf, len, "%.2f ms", 1e3 * s);
    else if (s < 1)
        snprintf(buf, len, "%.1f ms", 1e3 * s);
    else
        snprintf(buf, len, "%.2f s", s);
    return buf;
}

/* Three significant digits, trailing zeros kept (1.10, not 1.1), so that
 * a column's ratios read alike. */
static const char *format_ratio(double r, char *buf, size_t len)
{
    if (isnan(r))
        snprintf(buf, len, "n/a");
    else if (fabs(r) >= 100)
        snprintf(buf, len, "%.0f", r);
    else
        snprintf(buf, len, "%#.3g", r);
    return buf;
}

/* What a failed cell is marked: a step that did not converge is not an
 * error of the method (a tol below round-off: the library says so). */
static const char *failure_mark(const bench_cell *c)
{
    return c->not_converged ? "**NOT CONVERGED**" : "**FAILED**";
}

/* "119 it, 160.0 ms", "12.3 ms" (direct), "FAILED" or "NOT CONVERGED". */
static const char *format_cell(const bench_cell *c, char *buf, size_t len)
{
    char t[32];
    format_time(c->time_median_s, t, sizeof t);
    if (c->failed)
        snprintf(buf, len, "%s (%s)", failure_mark(c), t);
    else if (!corepcg_method_takes(c->method, COREPCG_OPTION_TOL))
        snprintf(buf, len, "%s", t); /* it does not iterate */
    else
        snprintf(buf, len, "%g it, %s", c->iterations_median, t);
    return buf;
}

/* The bench's k-th comparison when it compares times of methods both
 * benchmarked (a / b: below 1, a is faster); 0 otherwise, and past the
 * last (bench_comparison). */
static int time_ratio_column(const bench_options *o, int k, int *a, int *b)
{
    return bench_comparison(k, a, b) == BENCH_COMPARE_TIME &&
           bench_method_index(o, *a) >= 0 && bench_method_index(o, *b) >= 0;
}

/* Cases first .. first + count - 1 share a scene, a model and a tol. */
static void print_group_heading(FILE *out, const bench_results *res, int first,
                                const char *level)
{
    const bench_case *cs = &res->cases[first];
    /* the default model unlabelled, another by name */
    int named = cs->id.model != CLOTH_MODEL_SPRINGS;
    fprintf(out, "%s %s%s%s%s, tol %g\n\n", level, cloth_scene_name(cs->id.scene),
            named ? " (" : "", named ? cloth_force_model_name(cs->id.model) : "",
            named ? ")" : "", cs->id.tol);
}

/* The shape of Ye et al.'s Table 2, with the fastest method and the
 * ratios that say by how much. */
static void print_main_table(FILE *out, const bench_results *res, int first,
                             int count)
{
    const bench_options *o = res->opt;
    int has_auto = bench_method_index(o, COREPCG_METHOD_AUTO) >= 0;
    int columns = o->num_methods + 1 + has_auto;
    fprintf(out, "| size | k_stretch |");
    for (int j = 0; j < o->num_methods; j++)
        fprintf(out, " %s |", corepcg_method_name(o->methods[j]));
    fprintf(out, " fastest |");
    if (has_auto)
        fprintf(out, " auto/fastest |");
    int a, b;
    for (int k = 0; bench_comparison(k, &a, &b) >= 0; k++)
        if (time_ratio_column(o, k, &a, &b)) {
            fprintf(out, " %s/%s |", corepcg_method_name(a), corepcg_method_name(b));
            columns++;
        }
    fprintf(out, "\n|---:|---:|");
    for (int j = 0; j < columns; j++)
        fprintf(out, "---:|");
    fputc('\n', out);
    for (int c = first; c < first + count; c++) {
        const bench_case *cs = &res->cases[c];
        fprintf(out, "| %s | %g |", cs->id.label, cs->id.k);
        for (int j = 0; j < o->num_methods; j++) {
            char buf[96];
            fprintf(out, " %s |", format_cell(&cs->cells[j], buf, sizeof buf));
        }
        char r[32];
        int best = fastest_method(res, c);
        fprintf(out, " %s |", best < 0 ? "n/a" : corepcg_method_name(best));
        if (has_auto)
            fprintf(out, " %s |", format_ratio(best < 0 ? NAN :
                    time_ratio(res, c, COREPCG_METHOD_AUTO, best), r, sizeof r));
        for (int k = 0; bench_comparison(k, &a, &b) >= 0; k++)
            if (time_ratio_column(o, k, &a, &b))
                fprintf(out, " %s |", format_ratio(time_ratio(res, c, a, b),
                                                   r, sizeof r));
        fputc('\n', out);
    }
}

static void print_failures(FILE *out, const bench_results *res)
{
    int any = 0;
    for (int c = 0; c < res->num_cases; c++) {
        const bench_case *cs = &res->cases[c];
        if (cs->error[0]) {
            fprintf(out, "%s- %s tol %g %s k %g: %s\n",
                    any ? "" : "\nFailures:\n\n", cloth_scene_name(cs->id.scene),
                    cs->id.tol, cs->id.label, cs->id.k, cs->error);
            any = 1;
        }
        for (int j = 0; j < res->opt->num_methods; j++)
            if (cs->cells[j].failed) {
                fprintf(out, "%s- %s tol %g %s k %g %s: %s\n",
                        any ? "" : "\nFailures:\n\n",
                        cloth_scene_name(cs->id.scene), cs->id.tol, cs->id.label,
                        cs->id.k,
                        corepcg_method_name(cs->cells[j].method), cs->cells[j].why);
                any = 1;
            }
    }
}

void bench_print_table(FILE *out, const bench_results *res)
{
    fprintf(out, "%s: median of %d steps per cell (iterations, seconds of update + solve)\n",
            res->opt->command, res->opt->steps);
    for (int g = 0, group; g < res->num_cases; g += group) {
        group = bench_group_size(res->opt, res->cases[g].id.scene);
        fputc('\n', out);
        print_group_heading(out, res, g, "==");
        print_main_table(out, res, g, group);
    }
    print_failures(out, res);
    fprintf(out, "\ntotal %.1f s\n", res->total_s);
}

/* ----------------------------------------------------------------- CSV */

void bench_csv_text(FILE *out, const char *text)
{
    if (!strpbrk(text, ",\"\r\n")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

int bench_write_csv(FILE *out, const bench_results *res)
{
    const bench_options *o = res->opt;
    fprintf(out, "scene,tol,size,k_stretch,dt,method,steps,iterations_median,"
                 "time_median_s,time_min_s,time_max_s,rel_residual_max,"
                 "constraint_error_max,nnz_factor,factor_gflops_median,mesh,status\n");
    for (int c = 0; c < res->num_cases; c++) {
        const bench_case *cs = &res->cases[c];
        for (int j = 0; j < o->num_methods; j++) {
            const bench_cell *cl = &cs->cells[j];
            /* a failed cell is flagged by iterations_median = -1, and
             * status says whether it failed or did not converge */
            /* factor_gflops_median is nan for a method that does not
             * factorise with CHOLMOD */
            /* size 0 and the mesh's label on a mesh (quoted: it may hold
             * a comma) */
            fprintf(out, "%s,%.6g,%d,%.17g,%.6g,%s,%d,%.17g,%.6e,%.6e,%.6e,%.6e,%.6e,%ld,"
                         "%.4g,",
                    cloth_scene_name(cs->id.scene), cs->id.tol, cs->id.size, cs->id.k,
                    cs->dt,
                    corepcg_method_name(cl->method), cl->steps,
                    cl->failed ? -1.0 : cl->iterations_median, cl->time_median_s,
                    cl->time_min_s, cl->time_max_s, cl->rel_residual_max,
                    cl->constraint_error_max, cl->nnz_factor, cl->factor_gflops_median);
            bench_csv_text(out, cs->id.size ? "" : cs->id.label);
            fprintf(out, ",%s\n", bench_answer_name(!cl->failed ? BENCH_ANSWER_OK
                                   : cl->not_converged ? BENCH_ANSWER_NOT_CONVERGED
                                                       : BENCH_ANSWER_FAILED));
        }
    }
    return ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------ markdown */

/* Median iterations of method m in case c: NAN when it did not run or
 * failed. */
static double iterations_of(const bench_results *res, int c, int m)
{
    const bench_cell *cl = cell_of(res, c, m);
    return cl && !cl->failed ? cl->iterations_median : NAN;
}

/* The k-th method of the library's table when it iterates and is not
 * auto (the methods of the iteration table); -1 otherwise. */
static int iterating_method(int k)
{
    int m = corepcg_method_at(k);
    return m != COREPCG_METHOD_AUTO && corepcg_method_takes(m, COREPCG_OPTION_TOL)
               ? m : -1;
}

/* The comparisons of iterations the bench makes, the columns beside
 * method's own: " a / b |" in the header (c < 0) or case c's figures;
 * returns how many. */
static int print_iteration_comparisons(FILE *out, const bench_results *res,
                                       int c, int method)
{
    int a, b, what, columns = 0;
    for (int k = 0; (what = bench_comparison(k, &a, &b)) >= 0; k++) {
        if (a != method || what == BENCH_COMPARE_TIME)
            continue;
        int ratio = what == BENCH_COMPARE_ITERATIONS;
        double x = c < 0 ? 0 : iterations_of(res, c, a);
        double y = c < 0 ? 0 : iterations_of(res, c, b);
        char r[32];
        if (c < 0)
            fprintf(out, " %s %s %s |", corepcg_method_name(a), ratio ? "/" : "-",
                    corepcg_method_name(b));
        else if (ratio)
            fprintf(out, " %s |", format_ratio(x / y, r, sizeof r));
        else if (isnan(x - y))
            fprintf(out, " n/a |");
        else
            fprintf(out, " %+g |", x - y);
        columns++;
    }
    return columns;
}

/* The shape of Ascher & Boxerman's Tables 1-2: every method that
 * iterates (auto aside), with the comparisons of iterations beside. */
static void print_iteration_table(FILE *out, const bench_results *res,
                                  int first, int count)
{
    int columns = 2;
    fprintf(out, "| size | k_stretch |");
    for (int k = 0; corepcg_method_at(k) >= 0; k++) {
        int m = iterating_method(k);
        if (m < 0)
            continue;
        fprintf(out, " %s |", corepcg_method_name(m));
        columns += 1 + print_iteration_comparisons(out, res, -1, m);
    }
    fprintf(out, "\n|");
    for (int j = 0; j < columns; j++)
        fprintf(out, "---:|");
    fputc('\n', out);
    for (int c = first; c < first + count; c++) {
        const bench_case *cs = &res->cases[c];
        fprintf(out, "| %s | %g |", cs->id.label, cs->id.k);
        for (int k = 0; corepcg_method_at(k) >= 0; k++) {
            int m = iterating_method(k);
            if (m < 0)
                continue;
            const bench_cell *cl = cell_of(res, c, m);
            if (!cl)
                fprintf(out, " - |");
            else if (cl->failed)
                fprintf(out, " %s |", failure_mark(cl));
            else
                fprintf(out, " %g |", cl->iterations_median);
            print_iteration_comparisons(out, res, c, m);
        }
        fputc('\n', out);
    }
}

static void print_profile_table(FILE *out, const bench_results *res, int first,
                                int count)
{
    fprintf(out, "| size | k_stretch | method | reduce | analyse | factor | factor GFlop/s | "
                 "iterate | update + solve | nnz(L) | analysis reused |\n"
                 "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int c = first; c < first + count; c++)
        for (int k = 0; corepcg_method_at(k) >= 0; k++) {
            /* the methods that factorise, completely or not */
            int m = corepcg_method_at(k);
            const bench_cell *cl = cell_of(res, c, m);
            if (!cl || !(corepcg_method_reports(m) &
                         (COREPCG_REPORT_CHOLMOD | COREPCG_REPORT_INCOMPLETE)))
                continue;
            char a[32], b[32], d[32], e[32], f[32], g[32] = "-";
            if (!isnan(cl->factor_gflops_median))
                snprintf(g, sizeof g, "%.1f", cl->factor_gflops_median);
            /* every measured step is an update: the handles are set up
             * on the step before the first */
            fprintf(out, "| %s | %g | %s | %s | %s | %s | %s | %s | %s | %ld | %d of %d |\n",
                    res->cases[c].id.label, res->cases[c].id.k,
                    corepcg_method_name(m),
                    format_time(cl->reduce_median_s, a, sizeof a),
                    format_time(cl->analyze_median_s, b, sizeof b),
                    format_time(cl->factor_median_s, d, sizeof d), g,
                    format_time(cl->iterate_median_s, e, sizeof e),
                    format_time(cl->time_median_s, f, sizeof f), cl->nnz_factor,
                    cl->reused_steps, cl->steps);
        }
}

/* Returns the largest constraint error in the group. */
static double print_verification_table(FILE *out, const bench_results *res,
                                       int first, int count)
{
    const bench_options *o = res->opt;
    fprintf(out, "| size | k_stretch |");
    for (int j = 0; j < o->num_methods; j++)
        fprintf(out, " %s |", corepcg_method_name(o->methods[j]));
    fprintf(out, "\n|---:|---:|");
    for (int j = 0; j < o->num_methods; j++)
        fprintf(out, "---:|");
    fputc('\n', out);
    double worst_constraint = 0;
    for (int c = first; c < first + count; c++) {
        const bench_case *cs = &res->cases[c];
        fprintf(out, "| %s | %g |", cs->id.label, cs->id.k);
        for (int j = 0; j < o->num_methods; j++) {
            const bench_cell *cl = &cs->cells[j];
            fprintf(out, " %.2e%s%s |", cl->rel_residual_max, cl->failed ? " " : "",
                    cl->failed ? failure_mark(cl) : "");
            worst_constraint = fmax(worst_constraint, cl->constraint_error_max);
        }
        fputc('\n', out);
    }
    return worst_constraint;
}

/* What auto ran at the measured steps: per case, how often each
 * candidate, and the reasons. */
static void print_auto_table(FILE *out, const bench_results *res, int first,
                             int count)
{
    fprintf(out, "| size | k_stretch | auto ran (measured steps) | auto/fastest |\n"
                 "|---:|---:|---|---:|\n");
    for (int c = first; c < first + count; c++) {
        const bench_cell *cl = cell_of(res, c, COREPCG_METHOD_AUTO);
        if (!cl)
            return;
        char ran[256] = "", r[32];
        size_t used = 0;
        for (int m = 0; m < TOOL_MAX_METHODS; m++)
            for (int w = 0; w < COREPCG_AUTO_REASON_COUNT; w++) {
                int n = 0;
                for (int k = 0; k < cl->steps; k++)
                    n += cl->samples[k].method_used == m &&
                         cl->samples[k].auto_reason == w;
                if (n && used < sizeof ran)
                    used += (size_t)snprintf(ran + used, sizeof ran - used,
                                             "%s%s x%d (%s)", used ? ", " : "",
                                             corepcg_method_name(m), n,
                                             corepcg_auto_reason_name(w));
            }
        int best = fastest_method(res, c);
        fprintf(out, "| %s | %g | %s | %s |\n", res->cases[c].id.label,
                res->cases[c].id.k, ran[0] ? ran : "-",
                format_ratio(best < 0 ? NAN : time_ratio(res, c,
                             COREPCG_METHOD_AUTO, best), r, sizeof r));
    }
}

static void print_runs_table(FILE *out, const bench_results *res, int first,
                             int count)
{
    const bench_options *o = res->opt;
    fprintf(out, "| size | k_stretch | dt | unknowns n | reduced r (step 1) | warm-up steps | "
                 "measured every | contacts (step 1) | constrained nodes (step 1) |\n"
                 "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int c = first; c < first + count; c++) {
        const bench_case *cs = &res->cases[c];
        int r = 0;
        for (int j = 0; j < o->num_methods; j++)
            if (cs->cells[j].steps > 0 && cs->cells[j].samples[0].r > 0)
                r = cs->cells[j].samples[0].r;
        fprintf(out, "| %s | %g | %.2f ms | %d | %d | %d%s | %d steps | %d | %d |\n",
                cs->id.label, cs->id.k, 1e3 * cs->dt, cs->n, r, cs->warmup_steps,
                cs->contacts_found ? "" : " (no contact: cap reached or no obstacle)",
                cs->stride, cs->contacts, cs->constrained);
    }
}

/* Each table once per (scene, tol) group, under a heading. */
static void for_each_group(FILE *out, const bench_results *res,
                           void (*table)(FILE *, const bench_results *, int, int))
{
    for (int g = 0, group; g < res->num_cases; g += group) {
        group = bench_group_size(res->opt, res->cases[g].id.scene);
        print_group_heading(out, res, g, "###");
        table(out, res, g, group);
        fputc('\n', out);
    }
}

void bench_print_run_header(FILE *out, const bench_env *env, const char *date,
                            double total_s, const char *load_start,
                            double load1_start)
{
    bench_print_machine(out, env);
    struct utsname u;
    if (uname(&u) == 0)
        fprintf(out, "- system: %s %s %s\n", u.sysname, u.release, u.machine);
#ifdef __OPTIMIZE__
    fprintf(out, "- tool compiled with optimisation (use `meson setup BUILD --buildtype=release`)\n");
#else
    fprintf(out, "- tool compiled WITHOUT optimisation: times are not representative\n");
#endif
    /* the load at the start, before the bench's own threads count in it:
     * at the end it holds the bench itself */
    int busy = load1_start > BENCH_BUSY_LOAD;
    fprintf(out, "- date: %s; the whole run took %.0f s; load average (1, 5, 15 min) "
                 "%s at the start, %s at the end; busy: %s (busy means a 1 minute "
                 "load above %g at the start, before the bench's own work: other "
                 "work was running%s)\n",
            date, total_s, load_start, env->load, busy ? "yes" : "no", BENCH_BUSY_LOAD,
            busy ? ", and absolute times suffer more than ratios" : "");
}

int bench_write_markdown(FILE *out, const bench_results *res, const bench_env *env)
{
    const bench_options *o = res->opt;
    const char *advance = "n/a";
    int substitutes = 0;
    for (int c = 0; c < res->num_cases; c++) {
        advance = corepcg_method_name(res->cases[c].advance_method);
        substitutes += res->cases[c].advance_substitutes;
    }
    fprintf(out, "# corepcg bench\n\n");
    fprintf(out, "Reproduce: `%s`\n\n", o->command);
    bench_print_run_header(out, env, res->date, res->total_s, res->load_start,
                           res->load1_start);
    fprintf(out, "- the tol of each table for every iterative method, on the true "
                 "relative residual |S(b - A x)| <= tol |S(b - A(I-S)z)| (the default "
                 "stopping rule: every method at the same accuracy); default settings "
                 "otherwise\n");
    fprintf(out, "- per scene, tol, size and k: the scene is stepped with auto until the "
                 "cloth touches the obstacle (none in pinned), then %d steps spread over "
                 "the next %g s are measured (auto steps the cloth in between, so that "
                 "its handle has seen every step as in a simulation; the Runs tables give "
                 "the spacing). Each step's system is assembled "
                 "once and solved by every method in the same process, in turn, the order "
                 "rotated by one each step; each method keeps its own handle, set up "
                 "on the step before the first measured one (untimed), so that every "
                 "measured step is a warm corepcg_update + corepcg_solve, and "
                 "starts from the previous step's answer. The cloth advances with %s's "
                 "answer%s.\n", o->steps, BENCH_HIT_WINDOW_S, advance,
            substitutes ? " (where that answer failed or did not converge, the answer "
                          "of another method whose solve returned neither an error "
                          "nor non-convergence; its residual is not checked)" : "");
    fprintf(out, "- time = a monotonic clock around corepcg_update + "
                 "corepcg_solve, i.e. everything a simulator waits for, including the "
                 "library's own check of the answer; medians over the steps. Ratios are "
                 "of medians; \"fastest\" is the fastest method other than auto, which "
                 "chooses among ");
    for (int k = 0; corepcg_auto_candidate(k) >= 0; k++) /* "a, b and c" */
        fprintf(out, "%s%s", k == 0 ? "" : corepcg_auto_candidate(k + 1) < 0 ? " and " : ", ",
                corepcg_method_name(corepcg_auto_candidate(k)));
    fprintf(out, ".\n\n");

    fprintf(out, "## Iterations and seconds per step (the shape of Ye, Webber & Wang, Table 2)\n\n");
    for_each_group(out, res, print_main_table);
    print_failures(out, res);

    if (bench_method_index(o, COREPCG_METHOD_AUTO) >= 0) {
        fprintf(out, "\n## What auto ran at the measured steps, and why\n\n");
        for_each_group(out, res, print_auto_table);
    }

    fprintf(out, "\n## Iterations: original vs corrected MPCG "
                 "(the shape of Ascher & Boxerman, Tables 1-2)\n\n");
    for_each_group(out, res, print_iteration_table);

    fprintf(out, "\n## Where the time goes (medians; reduce includes importing the system)\n\n");
    for_each_group(out, res, print_profile_table);

    fprintf(out, "\n## Verification: largest relative residual |S(b - A x)| / |S b^| "
                 "(must be <= %g x tol; direct, which takes no tol: <= %.2g, %g x the "
                 "round-off 64 eps)\n\n", BENCH_RESIDUAL_FACTOR, BENCH_DIRECT_RESIDUAL,
            BENCH_DIRECT_RESIDUAL / BENCH_ROUND_OFF);
    double worst = 0;
    for (int g = 0, group; g < res->num_cases; g += group) {
        group = bench_group_size(o, res->cases[g].id.scene);
        print_group_heading(out, res, g, "###");
        worst = fmax(worst, print_verification_table(out, res, g, group));
        fputc('\n', out);
    }
    fprintf(out, "Largest constraint error max |(I - S)(x - z)| over every answer: %.2e "
                 "(bound %g).\n", worst, BENCH_CONSTRAINT_TOL);

    fprintf(out, "\n## Runs\n\n");
    for_each_group(out, res, print_runs_table);
    return ferror(out) ? -1 : 0;
}

/* -------------------------------------------------------------- files */

int bench_write_atomic(const char *path, const void *what,
                       int (*fill)(FILE *out, const void *what))
{
    char msg[COREPCG_MSG_SIZE];
    cpg_atomic_file af;
    int rc = cpg_atomic_open(&af, path, msg);
    if (rc == COREPCG_OK && fill(af.f, what) != 0) {
        snprintf(msg, sizeof msg, "%.400s: write failed", path);
        rc = COREPCG_ERR_IO;
    }
    if (rc == COREPCG_OK)
        rc = cpg_atomic_commit(&af, msg);
    cpg_atomic_discard(&af);
    if (rc == COREPCG_OK)
        return 0;
    cli_error("%s", msg);
    return -1;
}

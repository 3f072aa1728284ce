/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd_solve.c -- `corepcg solve BUNDLE`: set up, solve, report, write x. */
#include "cli.h"
#include "cli_settings.h"
#include "monotonic.h"
#include "solve_report.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The command's own options; the settings' lines come from the library's
 * descriptions (cli_settings_usage). */
static const char usage_head[] = "usage: corepcg solve BUNDLE [options]\n";
static const char usage_tail[] =
    "  --out X.mtx         write the answer (atomically; missing parent\n"
    "                      directories are created, and an unwritable path\n"
    "                      is refused before solving)\n"
    "  --repeat K          then time K warm steps (update with the same system,\n"
    "                      which keeps the analysis, + solve from the same\n"
    "                      guess), as a simulator sees a step; reports their\n"
    "                      median beside the cold first step\n"
    "  --json              one JSON object instead of the summary\n"
    "  --monitor           iterative methods: after each iteration of the first\n"
    "                      solve, print `iteration K residual R` on stderr (R:\n"
    "                      what --stop compares with the tolerance; stdout keeps\n"
    "                      the summary or the JSON object alone)\n"
    "An option the method would ignore is refused (exit 2). docs/cli.md\n"
    "explains the stopping rules and the matrix core.\n"
    "--json prints one object with every key (0 or null where one does not\n"
    "apply to the method).\n"
    "exit status: 0 solved, 1 error (nothing written), 2 usage, 3 not converged\n"
    "(answer written and flagged)\n";

static void usage(FILE *out)
{
    fputs(usage_head, out);
    cli_settings_usage(out);
    fputs(usage_tail, out);
}

struct solve_options {
    const char *bundle, *out;
    int json;
    cli_settings settings;
    int gave_monitor;
    int repeat;     /* warm steps timed after the cold one */
};

/* Warm steps as a simulator sees them: the handle set up on an earlier
 * step, corepcg_update with this step's system (same pattern: the
 * analysis is kept) and corepcg_solve from the previous answer. */
typedef struct warm_steps {
    int count;
    double median_s, min_s;   /* wall clock around update + solve */
    int fewest, most;         /* iterations                         */
    int status;               /* the worst step's (cli_worse_status)  */
    int runs[TOOL_MAX_METHODS]; /* steps each method ran (auto's choice) */
} warm_steps;

/* The methods the warm steps ran, in the registry's order: "icpcg x2,
 * corepcg x3", or as JSON members "\"icpcg\": 2, \"corepcg\": 3". */
static void warm_runs_text(const warm_steps *warm, int json, char *buf,
                           size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; corepcg_method_at(k) >= 0 && len < size; k++) {
        int m = corepcg_method_at(k);
        if (m < TOOL_MAX_METHODS && warm->runs[m] > 0)
            len += (size_t)snprintf(buf + len, size - len,
                                    json ? "%s\"%s\": %d" : "%s%s x%d",
                                    len ? ", " : "", corepcg_method_name(m),
                                    warm->runs[m]);
    }
}

/* --monitor's line, on stderr: stdout holds the summary or the one JSON
 * object. */
static int print_iteration(int iteration, double residual, void *user)
{
    (void)user;
    fprintf(stderr, "iteration %d residual %.6e\n", iteration, residual);
    return 0;
}

/* One argument of solve's command line (cli_parse_args). */
static int solve_arg(const char *a, const char *v, void *ctx)
{
    struct solve_options *o = ctx;
    int took = cli_settings_arg(&o->settings, a, v);
    if (took != CLI_ARG_UNKNOWN)
        return took;
    if (strcmp(a, "--json") == 0) {
        o->json = 1;
    } else if (strcmp(a, "--monitor") == 0) {
        o->settings.set.monitor = print_iteration;
        o->gave_monitor = 1;
    } else if (strcmp(a, "--repeat") == 0) {
        return cli_parse_int(a, v, 1, 100000, &o->repeat) ? CLI_ARG_ERROR : CLI_ARG_WITH_VALUE;
    } else if (strcmp(a, "--out") == 0) {
        if (cli_path_value(a, v, "a file name"))
            return CLI_ARG_ERROR;
        o->out = v;
        return CLI_ARG_WITH_VALUE;
    } else if (a[0] != '-' && !o->bundle) {
        o->bundle = a;
    } else {
        return CLI_ARG_UNKNOWN;
    }
    return CLI_ARG_ALONE;
}

static int parse(int argc, char **argv, struct solve_options *o)
{
    memset(o, 0, sizeof *o);
    cli_settings_init(&o->settings);
    int rc = cli_parse_args(argc, argv, "solve", solve_arg, o);
    if (rc == 1)
        usage(stdout);
    if (rc)
        return rc;
    if (!o->bundle) {
        cli_error("solve: no BUNDLE given");
        usage(stderr);
        return -1;
    }
    if (cli_positional_name("solve", "BUNDLE", o->bundle))
        return -1;
    if (cli_settings_check(&o->settings, "solve") ||
        (o->gave_monitor &&
         cli_settings_refuse_ignored(&o->settings, "solve", COREPCG_OPTION_TOL, "--monitor")))
        return -1;
    /* an answer that cannot be written is refused before the work */
    return cli_outputs_ready("solve", &o->out, 1, NULL, 0) ? -2 : 0;
}

/* The report items the JSON object places where it held them before
 * they were described (its other items follow nnz_reduced). */
static const char *const json_placed[] = {"fell_back", "factor_flops", NULL};

/* One object with every key, whatever the method: those that do not apply
 * to the method that ran are 0 (counts) or null (names). The method's
 * items come from their descriptions (solve_report.c). */
static void print_json(const struct solve_options *o, const corepcg_info *in,
                       const solve_report *rep, double read_s,
                       const warm_steps *warm)
{
    char reason[32] = "null", tol[32] = "null", warm_status[192] = "null";
    char runs[256];
    /* direct takes no tol: null, as for every key that does not apply */
    if (corepcg_method_takes(in->method, COREPCG_OPTION_TOL))
        snprintf(tol, sizeof tol, "%.17g", o->settings.set.tol);
    if (warm->count)
        snprintf(warm_status, sizeof warm_status, "\"%s\"", corepcg_strerror(warm->status));
    warm_runs_text(warm, 1, runs, sizeof runs);
    if (in->method == COREPCG_METHOD_AUTO)
        snprintf(reason, sizeof reason, "\"%s\"",
                 corepcg_auto_reason_name(in->auto_reason));
    printf("{\"method\": \"%s\", \"method_used\": \"%s\", \"auto_reason\": %s, "
           "\"status\": \"%s\", \"n\": %d, \"r\": %d, "
           "\"iterations\": %d, \"converged\": %s, \"fell_back\": ",
           corepcg_method_name(in->method), corepcg_method_name(in->method_used),
           reason, corepcg_strerror(in->status), in->n, in->r, in->iterations,
           in->converged ? "true" : "false");
    solve_report_json(stdout, rep, "fell_back");
    printf(", \"rel_residual\": %.17g, \"constraint_error\": %.17g, "
           "\"tol\": %s, \"nnz_reduced\": %ld", in->rel_residual,
           in->constraint_error, tol, in->nnz_reduced);
    solve_report_json_rest(stdout, rep, json_placed);
    printf(", \"analysis_reused\": %s, "
           "\"time_read_s\": %.6g, "
           "\"time_reduce_s\": %.6g, \"time_analyze_s\": %.6g, "
           "\"time_factor_s\": %.6g, \"factor_flops\": %.6g, "
           "\"time_iterate_s\": %.6g, "
           "\"time_setup_s\": %.6g, \"time_solve_s\": %.6g, "
           "\"time_total_s\": %.6g, \"repeat\": %d, "
           "\"time_warm_median_s\": %.6g, \"time_warm_min_s\": %.6g, "
           "\"warm_status\": %s, \"warm_methods\": {%s}}\n",
           in->analysis_reused ? "true" : "false", read_s, in->time_reduce_s,
           in->time_analyze_s, in->time_factor_s,
           solve_report_value(rep, "factor_flops"), in->time_iterate_s,
           in->time_setup_s, in->time_solve_s, in->time_total_s, warm->count,
           warm->count ? warm->median_s : 0, warm->count ? warm->min_s : 0,
           warm_status, runs);
}

/* The report items the summary's own lines say (or leave out:
 * core_blocks); any other the method reports gets a line of its own. */
static const char *const summary_shown[] = {
    "ordering", "factor_supernodal", "nnz_factor", "factor_flops", "nnz_core",
    "core_blocks", "core_compensated", "fell_back", "ic_fill", "ic_shift",
    "ic_retries", "ic_compensation", NULL};

static void print_summary(const corepcg_info *in, const solve_report *rep,
                          double read_s, const warm_steps *warm)
{
    /* a CHOLMOD factorisation, an incomplete one */
    int factored = solve_report_find(rep, "ordering") >= 0;
    int incomplete = solve_report_find(rep, "ic_fill") >= 0;
    printf("method            %s", corepcg_method_name(in->method_used));
    if (in->method == COREPCG_METHOD_AUTO)
        printf(" (auto: %s)", corepcg_auto_reason_name(in->auto_reason));
    if (factored)
        printf(" (ordering %s, factor %s)",
               corepcg_ordering_name((int)solve_report_value(rep, "ordering")),
               solve_report_value(rep, "factor_supernodal") != 0 ? "supernodal LL^T"
                                                                 : "simplicial LDL^T");
    if (incomplete) {
        double compensation = solve_report_value(rep, "ic_compensation");
        double shift = solve_report_value(rep, "ic_shift");
        int retries = (int)solve_report_value(rep, "ic_retries");
        printf(" (IC(%d)", (int)solve_report_value(rep, "ic_fill"));
        if (compensation > 0)
            printf(", dropped fill compensated (tr R / tr A~ %.3g)", compensation);
        if (shift > 0)
            printf(", shift %g", shift);
        if (retries > 0)
            printf(" after %d breakdown%s", retries, retries > 1 ? "s" : "");
        printf(")");
    }
    printf("\nunknowns          n = %d, reduced r = %d\n", in->n, in->r);
    printf("iterations        %d (%s)\n", in->iterations,
           in->converged ? "converged" : "NOT CONVERGED");
    if (solve_report_value(rep, "fell_back") != 0)
        printf("note              core not positive definite: fell back to block-preconditioned upcg\n");
    else if (solve_report_value(rep, "core_compensated") != 0)
        printf("note              core compensated: the blocks it leaves out moved onto its diagonal\n");
    printf("rel_residual      %.3e\n", in->rel_residual);
    printf("constraint_error  %.3e\n", in->constraint_error);
    double flops = solve_report_value(rep, "factor_flops");
    if (factored)
        printf("nnz               A~ %ld, core %ld, L %ld; factorisation %.3g "
               "flops (%.2f GFlop/s)\n", in->nnz_reduced,
               (long)solve_report_value(rep, "nnz_core"),
               (long)solve_report_value(rep, "nnz_factor"), flops,
               in->time_factor_s > 0 ? 1e-9 * flops / in->time_factor_s : 0);
    else if (incomplete)
        printf("nnz               A~ %ld, incomplete factor %ld\n", in->nnz_reduced,
               (long)solve_report_value(rep, "nnz_factor"));
    solve_report_summary_rest(stdout, rep, summary_shown);
    printf("seconds           read %.4f; setup %.4f (reduce %.4f, analyse %.4f, "
           "factor %.4f), solve %.4f (iterate %.4f), total %.4f\n", read_s,
           in->time_setup_s, in->time_reduce_s, in->time_analyze_s,
           in->time_factor_s, in->time_solve_s, in->time_iterate_s,
           in->time_total_s);
    if (warm->count) {
        char runs[256], its[32];
        warm_runs_text(warm, 0, runs, sizeof runs);
        if (warm->fewest == warm->most)
            snprintf(its, sizeof its, "%d", warm->most);
        else
            snprintf(its, sizeof its, "%d-%d", warm->fewest, warm->most);
        printf("warm step         %.4f s median of %d (min %.4f; update + "
               "solve, %s iterations; %s)%s\n", warm->median_s, warm->count,
               warm->min_s, its, runs,
               warm->status == COREPCG_NOT_CONVERGED ? " NOT CONVERGED" : "");
    }
}

/* o->repeat warm steps on h, set up with the same system, each solving
 * into x (not the cold step's answer: that is the one reported and
 * written, and auto's warm steps may run another method); the code of
 * the first error, else the worst step's status (warm->status: a step
 * that did not converge is not hidden by those after it). */
static int time_warm_steps(const struct solve_options *o, corepcg_solver *h,
                           const corepcg_bundle *bundle, double *x,
                           warm_steps *warm)
{
    memset(warm, 0, sizeof *warm);
    if (o->repeat < 1)
        return COREPCG_OK;
    double *seconds = malloc(sizeof(double) * (size_t)o->repeat);
    if (!seconds)
        return COREPCG_ERR_NO_MEMORY;
    warm->fewest = INT_MAX;
    int rc = COREPCG_OK;
    for (int k = 0; k < o->repeat && rc >= 0; k++) {
        corepcg_info info;
        double t = cpg_now();
        rc = corepcg_update(h, &bundle->system, NULL);
        if (rc >= 0)
            rc = corepcg_solve(h, bundle->b, bundle->x0, x, &info);
        seconds[k] = cpg_now() - t;
        warm->status = cli_worse_status(warm->status, rc);
        if (rc >= 0) {
            warm->fewest = info.iterations < warm->fewest ? info.iterations : warm->fewest;
            warm->most = info.iterations > warm->most ? info.iterations : warm->most;
        }
        if (rc >= 0 && info.method_used >= 0 && info.method_used < TOOL_MAX_METHODS)
            warm->runs[info.method_used]++;
    }
    if (rc >= 0) {
        warm->count = o->repeat;
        warm->median_s = cli_median(seconds, o->repeat); /* sorts */
        warm->min_s = seconds[0];
    }
    free(seconds);
    return rc < 0 ? rc : warm->status;
}

/* "corepcg: WHERE: MESSAGE" for a failed library call: the library's
 * message (which says what went wrong), or the code's name when empty. */
static void library_error(const char *where, int code, const char *message)
{
    cli_fail(code, "%s: %s", where,
             message && message[0] ? message : corepcg_strerror(code));
}

int cmd_solve(int argc, char **argv)
{
    struct solve_options o;
    int prc = parse(argc, argv, &o);
    if (prc)
        return prc > 0 ? CLI_EXIT_OK : prc == -2 ? CLI_EXIT_ERROR : CLI_EXIT_USAGE;

    char msg[COREPCG_MSG_SIZE];
    corepcg_bundle *bundle = NULL;
    double read_s = cpg_now();
    int rc = corepcg_bundle_read(o.bundle, &bundle, msg);
    read_s = cpg_now() - read_s; /* beside the library's own times */
    if (rc < 0) {
        cli_fail(rc, "%s", msg);
        return CLI_EXIT_ERROR;
    }
    int n = 3 * bundle->system.num_nodes;
    double *x = malloc(sizeof(double) * (size_t)n);
    double *x_warm = o.repeat > 0 ? malloc(sizeof(double) * (size_t)n) : NULL;
    char why[COREPCG_MSG_SIZE] = ""; /* the reported solve's message */
    corepcg_solver *h = NULL;
    corepcg_info info;
    memset(&info, 0, sizeof info);
    solve_report rep = {0};
    if (!x || (o.repeat > 0 && !x_warm) || (rc = corepcg_create(&h)) != COREPCG_OK) {
        rc = rc < 0 ? rc : COREPCG_ERR_NO_MEMORY;
        cli_fail(rc, "%s", corepcg_strerror(rc));
        goto done;
    }
    rc = corepcg_setup(h, &bundle->system, &o.settings.set);
    if (rc < 0) {
        library_error(o.bundle, rc, corepcg_message(h));
        goto done;
    }
    rc = corepcg_solve(h, bundle->b, bundle->x0, x, &info);
    if (rc < 0) {
        library_error(o.bundle, rc, corepcg_message(h));
        goto done;
    }
    /* what this solve's method reports, before the warm steps solve again */
    snprintf(why, sizeof why, "%s", corepcg_message(h));
    if (solve_report_take(&rep, h) != 0) {
        rc = COREPCG_ERR_NO_MEMORY;
        cli_fail(rc, "%s", corepcg_strerror(rc));
        goto done;
    }
    /* the warm steps run unwatched: their times are the loop's own */
    corepcg_set_monitor(h, NULL, NULL);
    warm_steps warm;
    int wrc = time_warm_steps(&o, h, bundle, x_warm, &warm);
    if (wrc < 0) { /* the same system solved once already: unexpected */
        library_error(o.bundle, wrc, corepcg_message(h));
        rc = wrc;
        goto done;
    }
    /* written before anything is printed: a failure then prints only its
     * error (--json: the error object alone on stdout) */
    if (o.out && (wrc = corepcg_vector_write(o.out, n, x, msg)) < 0) {
        cli_fail(wrc, "%s", msg);
        rc = wrc;
        goto done;
    }
    if (o.json)
        print_json(&o, &info, &rep, read_s, &warm);
    else
        print_summary(&info, &rep, read_s, &warm);
    if (rc == COREPCG_NOT_CONVERGED) {
        /* direct takes no iterations: its residual says it all */
        char its[48] = "";
        if (corepcg_method_takes(info.method_used, COREPCG_OPTION_MAX_ITER))
            snprintf(its, sizeof its, " in %d iterations", info.iterations);
        cli_error("%s: not converged%s (relative residual %.3e)%s%s%s", o.bundle, its,
                  info.rel_residual, why[0] ? ": " : "", why,
                  o.out ? "; the answer is written but flagged" : "");
    } else if (warm.status == COREPCG_NOT_CONVERGED) {
        /* the cold answer, written, converged; the exit says a warm one
         * did not, as a simulator's step would have */
        cli_error("%s: a warm step did not converge; %s", o.bundle,
                  o.out ? "the answer written is the cold step's" : "the figures "
                  "printed but the warm line's are the cold step's");
        rc = COREPCG_NOT_CONVERGED;
    }
done:
    solve_report_free(&rep);
    corepcg_free(&h);
    corepcg_bundle_free(&bundle);
    free(x);
    free(x_warm);
    return cli_exit_status(rc);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd_solve.c -- `corepcg solve BUNDLE`: set up, solve, report, write x. */
#include "cli.h"
#include "monotonic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: corepcg solve BUNDLE [options]\n"
    "  --method M          auto (default: per step the fastest of icpcg, corepcg\n"
    "                      and mpcg, as the handle measured them) | icpcg |\n"
    "                      corepcg | upcg | direct | mpcg | mpcg-bw\n"
    "  --tol T             iterative methods' tolerance (default 1e-5)\n"
    "  --stop R            iterative methods' rule: residual (default: the true\n"
    "                      |S(b - A x)| <= T |S(b - A(I-S)z)|, the same for every\n"
    "                      method) | preconditioned (the papers': r^T M^-1 r <=\n"
    "                      T^2 delta0, delta0 = b^T M^-1 b; mpcg-bw: (S b)^T P\n"
    "                      (S b), P itself, as Baraff & Witkin publish it)\n"
    "  --max-iter K        iterative methods: iteration limit (default 10000);\n"
    "                      reaching it exits 3\n"
    "  --precond P         upcg/mpcg/auto: diag (default) | block | projected\n"
    "                      (upcg only)\n"
    "  --ordering O        direct/corepcg/auto: nesdis (default) | amd | best |\n"
    "                      metis\n"
    "  --factor F          direct/corepcg/auto: auto (default) | ldl | ll\n"
    "  --ic-fill L         icpcg/auto: 0 (default: IC(0)) | 1 (one level of\n"
    "                      block fill); both in reverse Cuthill-McKee order\n"
    "  --core C            corepcg/auto: stretch (default, needs stretch.mtx) |\n"
    "                      auto\n"
    "  --core-threshold t  core auto: keep blocks with |A_ij| >= t sqrt(|A_ii||A_jj|)\n"
    "                      (default 1e-2)\n"
    "  --fallback upcg     corepcg/auto: if the core is not SPD, solve with\n"
    "                      block PCG\n"
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
    "                      what --stop compares with T; stdout keeps the\n"
    "                      summary or the JSON object alone)\n"
    "An option the method would ignore is refused (exit 2).\n"
    "--json prints one object with every key (0 or null where one does not\n"
    "apply to the method).\n"
    "exit status: 0 solved, 1 error (nothing written), 2 usage, 3 not converged\n"
    "(answer written and flagged)\n";

struct solve_options {
    const char *bundle, *out;
    int json;
    corepcg_settings set;
    /* options given (by corepcg_option), to refuse those the method
     * would ignore */
    int gave[COREPCG_OPTION_COUNT], gave_monitor;
    int repeat;     /* warm steps timed after the cold one */
};

/* Warm steps as a simulator sees them: the handle set up on an earlier
 * step, corepcg_update with this step's system (same pattern: the
 * analysis is kept) and corepcg_solve from the previous answer. */
typedef struct warm_steps {
    int count;
    double median_s, min_s;   /* wall clock around update + solve */
    int iterations;           /* of the last */
} warm_steps;

/* 1 when method m's info holds what report (corepcg_report) names. */
static int reports(corepcg_method m, corepcg_report report)
{
    return (corepcg_method_reports(m) & report) != 0;
}

/* "upcg, mpcg and auto's mpcg": the methods that read option, from the
 * library's table (auto's candidates named as auto's). */
static void takers(int option, char *out, size_t size)
{
    const char *names[2 * COREPCG_METHOD_COUNT];
    int count = 0;
    char autos[2 * COREPCG_METHOD_COUNT][32];
    for (int k = 0; corepcg_method_at(k) >= 0; k++) {
        int m = corepcg_method_at(k);
        if (m != COREPCG_METHOD_AUTO && corepcg_method_takes(m, option))
            names[count++] = corepcg_method_name(m);
    }
    for (int k = 0; corepcg_auto_candidate(k) >= 0; k++) {
        int m = corepcg_auto_candidate(k);
        if (corepcg_method_takes(m, option)) {
            snprintf(autos[k], sizeof autos[k], "auto's %s",
                     corepcg_method_name(m));
            names[count++] = autos[k];
        }
    }
    out[0] = '\0';
    for (int k = 0; k < count; k++) {
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s",
                 k == 0 ? "" : k + 1 == count ? " and " : ", ", names[k]);
    }
}

/* "--tol/--max-iter": the flags of option's family (corepcg_option_info). */
static void family_flags(int option, char *out, size_t size)
{
    int family = corepcg_option_describe(option)->family;
    out[0] = '\0';
    for (int k = 0; k < COREPCG_OPTION_COUNT; k++) {
        const corepcg_option_info *d = corepcg_option_describe(k);
        size_t len = strlen(out);
        if (d->family == family)
            snprintf(out + len, size - len, "%s%s", len ? "/" : "", d->flag);
    }
}

/* An option the chosen method would ignore is a usage error, not a
 * surprise. */
static int refuse_ignored(corepcg_method m, int option, const char *flags)
{
    if (corepcg_method_takes(m, option))
        return 0;
    char list[256];
    takers(option, list, sizeof list);
    cli_error("solve: --method %s does not take %s (%s for %s)",
              corepcg_method_name(m), flags,
              strchr(flags, '/') ? "they are" : "it is", list);
    return -1;
}

/* A value another method alone takes (corepcg_option_value_method:
 * precond projected is upcg's). */
static int refuse_value(const struct solve_options *o, int option)
{
    const char *why;
    int value = (int)corepcg_option_get(&o->set, option);
    int only = corepcg_option_value_method(option, value, &why);
    if (only < 0 || only == (int)o->set.method)
        return 0;
    cli_error("solve: --method %s does not take %s %s (it is for %s; %s)",
              corepcg_method_name(o->set.method), corepcg_option_describe(option)->flag,
              corepcg_option_value_name(option, value), corepcg_method_name(only), why);
    return -1;
}

/* An option given that is read only while another has a value it has
 * not (core_threshold needs core auto). */
static int refuse_unmet_need(const struct solve_options *o, int option)
{
    const corepcg_option_info *d = corepcg_option_describe(option);
    if (!o->gave[option] || d->needs < 0 ||
        corepcg_option_get(&o->set, d->needs) == d->needs_value)
        return 0;
    cli_error("solve: %s is for %s %s", d->flag, corepcg_option_describe(d->needs)->flag,
              corepcg_option_value_name(d->needs, d->needs_value));
    return -1;
}

/* The first of the refusals above, in that order. */
static int check_combination(const struct solve_options *o)
{
    for (int k = 0; k < COREPCG_OPTION_COUNT; k++) {
        char flags[64];
        family_flags(k, flags, sizeof flags);
        if (o->gave[k] && refuse_ignored(o->set.method, k, flags))
            return -1;
    }
    if (o->gave_monitor && refuse_ignored(o->set.method, COREPCG_OPTION_TOL, "--monitor"))
        return -1;
    for (int k = 0; k < COREPCG_OPTION_COUNT; k++)
        if (refuse_value(o, k))
            return -1;
    for (int k = 0; k < COREPCG_OPTION_COUNT; k++)
        if (refuse_unmet_need(o, k))
            return -1;
    return 0;
}

/* The value v of option (flag a) by its type and range: 0, or -1 having
 * said why. */
static int parse_value(int option, const char *a, const char *v, double *value)
{
    const corepcg_option_info *d = corepcg_option_describe(option);
    int i = 0;
    switch (d->type) {
    case COREPCG_VALUE_REAL:
        return cli_parse_double(a, v, d->min, d->max, value);
    case COREPCG_VALUE_INT:
        if (cli_parse_int(a, v, (long)d->min, (long)d->max, &i))
            return -1;
        *value = i;
        return 0;
    case COREPCG_VALUE_CHOICE: {
        char names[128] = "";
        for (int k = 0; corepcg_option_value_name(option, k); k++) {
            size_t len = strlen(names);
            snprintf(names + len, sizeof names - len, "%s%s", k ? ", " : "",
                     corepcg_option_value_name(option, k));
        }
        *value = v ? corepcg_option_value_from_name(option, v) : -1;
        if (*value >= 0)
            return 0;
        cli_error("%s takes one of %s, got '%s'", a, names, v ? v : "");
        return -1;
    }
    default: { /* a switch, --STEM WORD for the setting STEM_WORD */
        const char *word = d->name + strlen(d->flag + 2) + 1;
        *value = 1;
        if (v && strcmp(v, word) == 0)
            return 0;
        cli_error("%s takes %s, got '%s'", a, word, v ? v : "");
        return -1;
    }
    }
}

/* --method or one of the library's options (corepcg_option_describe), a
 * with its value v, into o->set (and what was given, for
 * check_combination): 1 when a is one (*rc 0 or -1, having said why), 0
 * when it is none of them. */
static int parse_setting(const char *a, const char *v, struct solve_options *o,
                         int *rc)
{
    if (strcmp(a, "--method") == 0) {
        int m;
        *rc = cli_parse_method(a, v, 1, &m);
        o->set.method = (corepcg_method)m;
        return 1;
    }
    for (int k = 0; k < COREPCG_OPTION_COUNT; k++) {
        if (strcmp(a, corepcg_option_describe(k)->flag) != 0)
            continue;
        double value;
        *rc = parse_value(k, a, v, &value);
        if (*rc == 0)
            corepcg_option_set(&o->set, k, value);
        o->gave[k] = 1;
        return 1;
    }
    return 0;
}

/* --monitor's line, on stderr: stdout holds the summary or the one JSON
 * object. */
static int print_iteration(int iteration, double residual, void *user)
{
    (void)user;
    fprintf(stderr, "iteration %d residual %.6e\n", iteration, residual);
    return 0;
}

static int parse(int argc, char **argv, struct solve_options *o)
{
    memset(o, 0, sizeof *o);
    corepcg_settings_default(&o->set);
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        int rc = 0, takes_value = 1;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            return 1;
        } else if (strcmp(a, "--json") == 0) {
            o->json = 1;
            takes_value = 0;
        } else if (strcmp(a, "--monitor") == 0) {
            o->set.monitor = print_iteration;
            o->gave_monitor = 1;
            takes_value = 0;
        } else if (parse_setting(a, v, o, &rc)) {
            /* o->set, with what was given */
        } else if (strcmp(a, "--repeat") == 0) {
            rc = cli_parse_int(a, v, 1, 100000, &o->repeat);
        } else if (strcmp(a, "--out") == 0) {
            if (!v) {
                cli_error("--out needs a file name");
                rc = -1;
            }
            o->out = v;
        } else if (a[0] == '-') {
            cli_error("solve: unknown option '%s'", a);
            rc = -1;
            takes_value = 0;
        } else if (!o->bundle) {
            o->bundle = a;
            takes_value = 0;
        } else {
            cli_error("solve: unexpected argument '%s'", a);
            rc = -1;
            takes_value = 0;
        }
        if (rc)
            return -1;
        k += takes_value;
    }
    if (!o->bundle) {
        cli_error("solve: no BUNDLE given");
        fputs(usage_text, stderr);
        return -1;
    }
    if (check_combination(o))
        return -1;
    /* an answer that cannot be written is refused before the work */
    return cli_outputs_ready("solve", &o->out, 1, NULL, 0) ? -2 : 0;
}

/* One object with every key, whatever the method: those that do not apply
 * to the method that ran are 0 (counts) or null (names). */
static void print_json(const struct solve_options *o, const corepcg_info *in,
                       double read_s, const warm_steps *warm)
{
    corepcg_method used = in->method_used;
    int factored = reports(used, COREPCG_REPORT_CHOLMOD);
    int core = reports(used, COREPCG_REPORT_CORE);
    int ic = reports(used, COREPCG_REPORT_INCOMPLETE);
    char ordering[32] = "null", factor[16] = "null", reason[32] = "null";
    if (factored) {
        snprintf(ordering, sizeof ordering, "\"%s\"", corepcg_ordering_name(in->ordering));
        snprintf(factor, sizeof factor, "\"%s\"", in->factor_supernodal ? "ll" : "ldl");
    }
    if (in->method == COREPCG_METHOD_AUTO)
        snprintf(reason, sizeof reason, "\"%s\"",
                 corepcg_auto_reason_name(in->auto_reason));
    printf("{\"method\": \"%s\", \"method_used\": \"%s\", \"auto_reason\": %s, "
           "\"status\": \"%s\", \"n\": %d, \"r\": %d, "
           "\"iterations\": %d, \"converged\": %s, \"fell_back\": %s, "
           "\"rel_residual\": %.17g, \"constraint_error\": %.17g, "
           "\"tol\": %.17g, \"nnz_reduced\": %ld, \"nnz_factor\": %ld, "
           "\"ordering\": %s, \"factor\": %s, \"nnz_core\": %ld, "
           "\"core_blocks\": %ld, \"core_compensated\": %s, "
           "\"ic_fill\": %d, \"ic_shift\": %.17g, "
           "\"ic_retries\": %d, \"ic_compensation\": %.17g, "
           "\"analysis_reused\": %s, "
           "\"time_read_s\": %.6g, "
           "\"time_reduce_s\": %.6g, \"time_analyze_s\": %.6g, "
           "\"time_factor_s\": %.6g, \"factor_flops\": %.6g, "
           "\"time_iterate_s\": %.6g, "
           "\"time_setup_s\": %.6g, \"time_solve_s\": %.6g, "
           "\"time_total_s\": %.6g, \"repeat\": %d, "
           "\"time_warm_median_s\": %.6g, \"time_warm_min_s\": %.6g}\n",
           corepcg_method_name(in->method), corepcg_method_name(used), reason,
           corepcg_strerror(in->status),
           in->n, in->r, in->iterations, in->converged ? "true" : "false",
           in->fell_back ? "true" : "false", in->rel_residual,
           in->constraint_error, o->set.tol, in->nnz_reduced,
           factored || ic ? in->nnz_factor : 0, ordering, factor,
           core ? in->nnz_core : 0, core ? in->core_blocks : 0,
           core && in->core_compensated ? "true" : "false",
           ic ? in->ic_fill : 0, ic ? in->ic_shift : 0, ic ? in->ic_retries : 0,
           ic ? in->ic_compensation : 0,
           in->analysis_reused ? "true" : "false", read_s, in->time_reduce_s,
           in->time_analyze_s, in->time_factor_s,
           factored ? in->factor_flops : 0, in->time_iterate_s,
           in->time_setup_s, in->time_solve_s, in->time_total_s, warm->count,
           warm->count ? warm->median_s : 0, warm->count ? warm->min_s : 0);
}

static void print_summary(const corepcg_info *in, double read_s,
                          const warm_steps *warm)
{
    corepcg_method used = in->method_used;
    printf("method            %s", corepcg_method_name(used));
    if (in->method == COREPCG_METHOD_AUTO)
        printf(" (auto: %s)", corepcg_auto_reason_name(in->auto_reason));
    if (reports(used, COREPCG_REPORT_CHOLMOD))
        printf(" (ordering %s, factor %s)", corepcg_ordering_name(in->ordering),
               in->factor_supernodal ? "supernodal LL^T" : "simplicial LDL^T");
    if (reports(used, COREPCG_REPORT_INCOMPLETE)) {
        printf(" (IC(%d)", in->ic_fill);
        if (in->ic_compensation > 0)
            printf(", dropped fill compensated (tr R / tr A~ %.3g)",
                   in->ic_compensation);
        if (in->ic_shift > 0)
            printf(", shift %g", in->ic_shift);
        if (in->ic_retries > 0)
            printf(" after %d breakdown%s", in->ic_retries,
                   in->ic_retries > 1 ? "s" : "");
        printf(")");
    }
    printf("\nunknowns          n = %d, reduced r = %d\n", in->n, in->r);
    printf("iterations        %d (%s)\n", in->iterations,
           in->converged ? "converged" : "NOT CONVERGED");
    if (in->fell_back)
        printf("note              core not positive definite: fell back to block-preconditioned upcg\n");
    else if (in->core_compensated && reports(used, COREPCG_REPORT_CORE))
        printf("note              core compensated: the blocks it leaves out moved onto its diagonal\n");
    printf("rel_residual      %.3e\n", in->rel_residual);
    printf("constraint_error  %.3e\n", in->constraint_error);
    if (reports(used, COREPCG_REPORT_CHOLMOD))
        printf("nnz               A~ %ld, core %ld, L %ld; factorisation %.3g "
               "flops (%.2f GFlop/s)\n", in->nnz_reduced, in->nnz_core,
               in->nnz_factor, in->factor_flops,
               in->time_factor_s > 0 ? 1e-9 * in->factor_flops / in->time_factor_s : 0);
    else if (reports(used, COREPCG_REPORT_INCOMPLETE))
        printf("nnz               A~ %ld, incomplete factor %ld\n",
               in->nnz_reduced, in->nnz_factor);
    printf("seconds           read %.4f; setup %.4f (reduce %.4f, analyse %.4f, "
           "factor %.4f), solve %.4f (iterate %.4f), total %.4f\n", read_s,
           in->time_setup_s, in->time_reduce_s, in->time_analyze_s,
           in->time_factor_s, in->time_solve_s, in->time_iterate_s,
           in->time_total_s);
    if (warm->count)
        printf("warm step         %.4f s median of %d (min %.4f; update + "
               "solve, %d iterations)\n", warm->median_s, warm->count,
               warm->min_s, warm->iterations);
}

/* o->repeat warm steps on h, set up with the same system; the code of
 * the first failure, else OK. */
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
    int rc = COREPCG_OK;
    for (int k = 0; k < o->repeat && rc >= 0; k++) {
        corepcg_info info;
        double t = cpg_now();
        rc = corepcg_update(h, &bundle->system, NULL);
        if (rc >= 0)
            rc = corepcg_solve(h, bundle->b, bundle->x0, x, &info);
        seconds[k] = cpg_now() - t;
        warm->iterations = info.iterations;
    }
    if (rc >= 0) {
        warm->count = o->repeat;
        warm->median_s = cli_median(seconds, o->repeat); /* sorts */
        warm->min_s = seconds[0];
    }
    free(seconds);
    return rc;
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
    corepcg_solver *h = NULL;
    corepcg_info info;
    memset(&info, 0, sizeof info);
    if (!x || (rc = corepcg_create(&h)) != COREPCG_OK) {
        rc = x ? rc : COREPCG_ERR_NO_MEMORY;
        cli_fail(rc, "%s", corepcg_strerror(rc));
        goto done;
    }
    rc = corepcg_setup(h, &bundle->system, &o.set);
    if (rc < 0) {
        cli_library_error(o.bundle, rc, corepcg_message(h));
        goto done;
    }
    rc = corepcg_solve(h, bundle->b, bundle->x0, x, &info);
    if (rc < 0) {
        cli_library_error(o.bundle, rc, corepcg_message(h));
        goto done;
    }
    /* the warm steps run unwatched: their times are the loop's own */
    corepcg_set_monitor(h, NULL, NULL);
    warm_steps warm;
    int wrc = time_warm_steps(&o, h, bundle, x, &warm);
    if (wrc < 0) { /* the same system solved once already: unexpected */
        cli_library_error(o.bundle, wrc, corepcg_message(h));
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
        print_json(&o, &info, read_s, &warm);
    else
        print_summary(&info, read_s, &warm);
    if (rc == COREPCG_NOT_CONVERGED)
        cli_error("%s: not converged in %d iterations (relative residual %.3e)%s",
                  o.bundle, info.iterations, info.rel_residual,
                  o.out ? "; the answer is written but flagged" : "");
done:
    corepcg_free(&h);
    corepcg_bundle_free(&bundle);
    free(x);
    return cli_exit_status(rc);
}

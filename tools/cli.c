/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli.c -- argument helpers shared by the subcommands. */
#include "cli.h"

#include "atomic_file.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("corepcg: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void cli_library_error(const char *where, int code, const char *message)
{
    cli_error("%s: %s", where,
              message && message[0] ? message : corepcg_strerror(code));
}

int cli_outputs_ready(const char *command, const char *const *files,
                      int nfiles, const char *const *dirs, int ndirs)
{
    char msg[COREPCG_MSG_SIZE];
    for (int k = 0; k < nfiles; k++)
        if (files[k] && cpg_output_check(files[k], msg) != COREPCG_OK) {
            cli_error("%s: %s", command, msg);
            return -1;
        }
    for (int k = 0; k < ndirs; k++)
        if (dirs[k] && cpg_output_dir_check(dirs[k], msg) != COREPCG_OK) {
            cli_error("%s: %s", command, msg);
            return -1;
        }
    return 0;
}

int cli_parse_double(const char *opt, const char *text, double lo, double hi, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = text ? strtod(text, &end) : NAN;
    if (!text || end == text || *end != '\0' || errno != 0 || !isfinite(v) || v < lo || v > hi) {
        cli_error("%s needs a number in [%g, %g], got '%s'", opt, lo, hi, text ? text : "");
        return -1;
    }
    *out = v;
    return 0;
}

int cli_parse_int(const char *opt, const char *text, long lo, long hi, int *out)
{
    char *end = NULL;
    errno = 0;
    long v = text ? strtol(text, &end, 10) : 0;
    if (!text || end == text || *end != '\0' || errno != 0 || v < lo || v > hi) {
        cli_error("%s needs a whole number in [%ld, %ld], got '%s'", opt, lo, hi, text ? text : "");
        return -1;
    }
    *out = (int)v;
    return 0;
}

int cli_parse_choice(const char *opt, const char *text, int (*from_name)(const char *),
                     const char *choices, int *out)
{
    int v = text ? from_name(text) : -1;
    if (v < 0) {
        cli_error("%s takes one of %s, got '%s'", opt, choices, text ? text : "");
        return -1;
    }
    *out = v;
    return 0;
}

int cli_exit_status(int code)
{
    if (code == COREPCG_NOT_CONVERGED)
        return CLI_EXIT_NOT_CONVERGED;
    return code < 0 ? CLI_EXIT_ERROR : CLI_EXIT_OK;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double cli_median(double *v, int n)
{
    if (n <= 0)
        return NAN;
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int cli_positional(int argc, char **argv, const char *command,
                   const char *what, const char **positional, int count,
                   int *json, void (*usage)(FILE *out))
{
    int given = 0;
    *json = 0;
    for (int k = 0; k < count; k++)
        positional[k] = NULL;
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 1;
        }
        if (strcmp(a, "--json") == 0) {
            *json = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            cli_error("%s: unknown option '%s'", command, a);
            usage(stderr);
            return -1;
        } else if (given < count) {
            positional[given++] = a;
        } else {
            cli_error("%s: unexpected argument '%s'", command, a);
            usage(stderr);
            return -1;
        }
    }
    if (given < count) {
        cli_error("%s: %s", command, what);
        usage(stderr);
        return -1;
    }
    return 0;
}

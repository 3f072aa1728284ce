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

/* The last error printed and its library code (0: none given), for
 * --json's error object. */
static struct {
    int json, code;
    char message[2 * COREPCG_MSG_SIZE];
} last_error;

static void print_error(int code, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    vsnprintf(last_error.message, sizeof last_error.message, fmt, copy);
    va_end(copy);
    last_error.code = code;
    fputs("corepcg: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_error(0, fmt, ap);
    va_end(ap);
}

void cli_fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_error(code, fmt, ap);
    va_end(ap);
}

void cli_library_error(const char *where, int code, const char *message)
{
    cli_fail(code, "%s: %s", where,
             message && message[0] ? message : corepcg_strerror(code));
}

void cli_json_errors(void)
{
    last_error.json = 1;
}

/* The C names of the library's error codes (include/corepcg.h), which
 * the Python package's Status enum also uses. */
static const char *const error_names[] = {
    "ERR_ARGUMENT", "ERR_NO_MEMORY", "ERR_IO", "ERR_FORMAT", "ERR_DIMENSION",
    "ERR_NOT_FINITE", "ERR_NOT_SYMMETRIC", "ERR_CONSTRAINT", "ERR_NOT_SPD",
    "ERR_CORE_NOT_SPD", "ERR_BREAKDOWN", "ERR_NAN", "ERR_NO_CORE",
    "ERR_STATE", "ERR_CHOLMOD", "ERR_TOO_LARGE", "ERR_IC_BREAKDOWN",
};

/* s as a JSON string on stdout. */
static void print_json_string(const char *s)
{
    putchar('"');
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            printf("\\%c", *c);
        else if (*c < 0x20)
            printf("\\u%04x", *c);
        else
            putchar(*c);
    }
    putchar('"');
}

int cli_finish(int exit_status)
{
    if (!last_error.json ||
        (exit_status != CLI_EXIT_ERROR && exit_status != CLI_EXIT_USAGE))
        return exit_status;
    int code = last_error.code;
    if (code == 0 || exit_status == CLI_EXIT_USAGE)
        code = COREPCG_ERR_ARGUMENT; /* a bad command line */
    int known = code < 0 &&
                -code <= (int)(sizeof error_names / sizeof error_names[0]);
    printf("{\"error\": {\"status\": %d, \"code\": \"%s\", \"message\": ",
           code, known ? error_names[-code - 1] : "ERR_UNKNOWN");
    print_json_string(last_error.message);
    printf("}}\n");
    return exit_status;
}

int cli_outputs_ready(const char *command, const char *const *files,
                      int nfiles, const char *const *dirs, int ndirs)
{
    char msg[COREPCG_MSG_SIZE];
    int rc;
    for (int k = 0; k < nfiles; k++)
        if (files[k] && (rc = cpg_output_check(files[k], msg)) != COREPCG_OK) {
            cli_fail(rc, "%s: %s", command, msg);
            return -1;
        }
    for (int k = 0; k < ndirs; k++)
        if (dirs[k] && (rc = cpg_output_dir_check(dirs[k], msg)) != COREPCG_OK) {
            cli_fail(rc, "%s: %s", command, msg);
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

int cli_parse_method(const char *opt, const char *text, int newest_first, int *out)
{
    char names[256] = "";
    size_t used = 0;
    for (int k = 0; k < COREPCG_METHOD_COUNT && used < sizeof names; k++) {
        int m = corepcg_method_at(newest_first ? COREPCG_METHOD_COUNT - 1 - k : k);
        int w = snprintf(names + used, sizeof names - used, "%s%s", k ? ", " : "",
                         corepcg_method_name(m));
        used += w > 0 ? (size_t)w : 0;
    }
    return cli_parse_choice(opt, text, corepcg_method_from_name, names, out);
}

int cli_on_off(const char *name)
{
    return !name ? -1 : strcmp(name, "on") == 0 ? 1 : strcmp(name, "off") == 0 ? 0 : -1;
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

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tool_errors.c -- the corepcg tool's error lines, --json's error object
 * and exit statuses (tool_errors.h). */
#include "tool_errors.h"

#include "corepcg.h" /* its codes only: util calls nothing of the library */

#include <stdarg.h>
#include <stdio.h>

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

int cli_exit_status(int code)
{
    if (code == COREPCG_NOT_CONVERGED)
        return CLI_EXIT_NOT_CONVERGED;
    return code < 0 ? CLI_EXIT_ERROR : CLI_EXIT_OK;
}

int cli_worse_status(int a, int b)
{
    if (a < 0 || b < 0)
        return a < b ? a : b;
    if (a == COREPCG_NOT_CONVERGED || b == COREPCG_NOT_CONVERGED)
        return COREPCG_NOT_CONVERGED;
    return a > b ? a : b;
}

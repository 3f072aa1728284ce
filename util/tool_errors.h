/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tool_errors.h -- how the corepcg tool's commands and the benchmark
 * compiled into it report failures: "corepcg: ..." lines on stderr,
 * --json's error object, the exit statuses (tool_errors.c). Not part of
 * the library. */
#ifndef COREPCG_TOOL_ERRORS_H
#define COREPCG_TOOL_ERRORS_H

/* Exit statuses of the tool (README documents them). */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_ERROR = 1,          /* bad input or numerical failure */
    CLI_EXIT_USAGE = 2,          /* bad command line */
    CLI_EXIT_NOT_CONVERGED = 3,  /* answer written but flagged */
};

/* "corepcg: <text>" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* cli_error for a failure with a library status code (COREPCG_ERR_*),
 * which --json's error object reports. */
void cli_fail(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* --json given: on failure (exit 1 or 2) cli_finish prints, on stdout and
 * as the only thing there, {"error": {"status": S, "code": "ERR_...",
 * "message": "..."}} with the last error printed (the human message
 * stays on stderr). Usage errors are ERR_ARGUMENT. */
void cli_json_errors(void);

/* What main returns: exit_status, after --json's error object if due. */
int cli_finish(int exit_status);

/* Maps a library status to the tool's exit status. */
int cli_exit_status(int code);

/* The worse of two library statuses, for a figure over several solves:
 * an error, then not converged (exit 3), then another warning, then OK. */
int cli_worse_status(int a, int b);

#endif /* COREPCG_TOOL_ERRORS_H */

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli_settings.h -- the library's settings on a command line (`corepcg
 * solve`), read from their descriptions: --method and one option per
 * corepcg_option_describe, parsed by type and range, refused where the
 * method would ignore them, and listed in the usage. A setting described
 * in the library (a method's own included) is offered here with no line
 * of this file changed. */
#ifndef COREPCG_CLI_SETTINGS_H
#define COREPCG_CLI_SETTINGS_H

#include "corepcg.h"

#include <stdio.h>

typedef struct cli_settings {
    corepcg_settings set;
    /* the options given, by number, to refuse those the method ignores */
    unsigned char gave[COREPCG_OPTION_COUNT + COREPCG_METHOD_OPTION_SLOTS];
} cli_settings;

/* The library's defaults, nothing given. */
void cli_settings_init(cli_settings *c);

/* Argument a (with the next argument v, or NULL) when it is --method or
 * an option's flag: CLI_ARG_WITH_VALUE, or CLI_ARG_ERROR having said why;
 * CLI_ARG_UNKNOWN for any other argument (cli_parse_args' handlers). */
int cli_settings_arg(cli_settings *c, const char *a, const char *v);

/* After parsing: -1, having said why (as "COMMAND: ..."), for the
 * library's first refusal of the options given (corepcg_settings_refusal:
 * one the method ignores, a value another method alone takes, an option
 * whose need is not met); else 0. */
int cli_settings_check(const cli_settings *c, const char *command);

/* -1 with the same refusal when the method does not take option (the
 * command's own flags read with it, e.g. --monitor with tol); else 0. */
int cli_settings_refuse_ignored(const cli_settings *c, const char *command, int option,
                                const char *flags);

/* The usage lines of --method and of every option. */
void cli_settings_usage(FILE *out);

#endif

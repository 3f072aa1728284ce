/* SPDX-License-Identifier: GPL-2.0-or-later */
/* corepcg.c -- the command-line tool: dispatches to one subcommand. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    {"info", cmd_info, "info BUNDLE [--json]            sizes and constraint counts"},
    {"check", cmd_check, "check BUNDLE X.mtx [--json]     constraint error and relative residual"},
    {"solve", cmd_solve, "solve BUNDLE [--method M] ...   solve; --help lists the options"},
    {"gen", cmd_gen, "gen SCENE --size m --out DIR    a cloth step's system as a bundle"},
    {"simulate", cmd_simulate, "simulate SCENE --size m ...     time-step a cloth, solver in the loop"},
    {"bench", cmd_bench, "bench [--quick] [--scaling] ...  every method side by side: table, CSV, SVG"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: corepcg COMMAND [options]   (corepcg COMMAND --help for more)\n\ncommands:\n");
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
        fprintf(out, "  %s\n", commands[k].summary);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("corepcg %s\n", corepcg_version());
        return CLI_EXIT_OK;
    }
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
        if (strcmp(argv[1], commands[k].name) == 0)
            return commands[k].run(argc - 1, argv + 1);
    cli_error("unknown command '%s'", argv[1]);
    usage(stderr);
    return CLI_EXIT_USAGE;
}

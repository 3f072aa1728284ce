/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli.h -- what the subcommands of the corepcg tool share. The tool is a
 * thin layer over corepcg.h: it parses arguments, calls the library and
 * prints; it does no arithmetic of its own. */
#ifndef COREPCG_CLI_H
#define COREPCG_CLI_H

#include "corepcg.h"
#include "median.h"
#include "tool_errors.h"
#include "tool_methods.h"

#include <stdio.h>

/* Every output is checked before the work that ends in writing it:
 * missing parent directories are created, and a path that cannot be
 * written (a directory in a file's place, no permission) is refused with
 * an error printed. files[] and dirs[] may hold NULLs (options not
 * given). Returns 0 or -1. */
int cli_outputs_ready(const char *command, const char *const *files,
                      int nfiles, const char *const *dirs, int ndirs);

/* The directories a command created for its output, so that a failure
 * can take them back. */
typedef struct cli_new_dirs {
    int count;
    char **paths; /* in the order made: parents first */
} cli_new_dirs;

/* mkdir -p dir, one component at a time, recording in *made each
 * directory it created (not one that was there). Best effort: where a
 * component cannot be made it stops, and cli_outputs_ready says why. */
void cli_make_new_dirs(const char *dir, cli_new_dirs *made);

/* After a failed command: removes made's directories, deepest first,
 * each only while empty, and forgets them. */
void cli_remove_new_dirs(cli_new_dirs *made);

/* After a command that succeeded: forgets made's directories. */
void cli_forget_new_dirs(cli_new_dirs *made);

/* Option values: print a usage error and return -1 on a bad value. */
/* text as a finite number into *out (-0 made 0: echoed with %g it would
 * print as "-0"): 0, or -1 when it is not one (*out untouched). */
int cli_finite_number(const char *text, double *out);

/* One --help entry: "  FLAG VALUE" padded to `column` (the text on the
 * next line when they reach it), then text wrapped at 79 columns. */
void cli_usage_entry(FILE *out, int column, const char *flag, const char *value,
                     const char *text);

/* A file or directory name as opt's value (what: "a file name"): refused
 * when missing or empty, or when it is an option name ("--out --json" would
 * write a file named --json). 0, or -1 having said why. */
int cli_path_value(const char *opt, const char *value, const char *what);

int cli_parse_double(const char *opt, const char *text, double lo, double hi, double *out);
int cli_parse_int(const char *opt, const char *text, long lo, long hi, int *out);
/* value of a name table (corepcg_*_from_name); prints the choices on error */
int cli_parse_choice(const char *opt, const char *text, int (*from_name)(const char *),
                     const char *choices, int *out);
/* a method's name; the choices printed on error are the library's table
 * of methods (corepcg_method_at), newest first or in the table's order */
int cli_parse_method(const char *opt, const char *text, int newest_first, int *out);
/* The library's methods by name into out (size bytes), newest first
 * (auto first) or in the table's order, joined by sep; the default one
 * marked " (default)" when mark_default. */
void cli_method_names(char *out, size_t size, int newest_first, const char *sep,
                      int mark_default);
/* A command's usage text with the library's table of methods in it:
 * "@METHODS@" becomes "auto (default)|icpcg|...|mpcg-bw" (newest first,
 * the default marked), "@METHOD_LIST@" "mpcg-bw, mpcg, ..., auto" (the
 * table's order), "@AUTO_METHODS@" "icpcg,corepcg,...,auto" (auto's
 * candidates and auto). */
void cli_usage(FILE *out, const char *text);
/* "on" 1, "off" 0, else -1: a name table for cli_parse_choice */
int cli_on_off(const char *name);

/* What a command's option handler made of one argument (cli_parse_args):
 * a flag or a positional taken alone, an option that took the value after
 * it, an error it has said, or an argument it does not take. */
enum {
    CLI_ARG_UNKNOWN = -2,
    CLI_ARG_ERROR = -1,
    CLI_ARG_ALONE = 0,
    CLI_ARG_WITH_VALUE = 1
};
/* main's "--opt=value" split: value is the one it cut off, which a flag
 * that takes no value refuses (cli_parse_args). */
void cli_note_glued(const char *value);

/* arg: the argument at hand; value: the one after it, or NULL. */
typedef int (*cli_option_fn)(const char *arg, const char *value, void *ctx);

/* The loop every command line shares: each argument in turn to option(),
 * skipping the value it took. Returns 0 (parsed), 1 (--help or -h: the
 * caller prints its usage) or -1 (a usage error, said; an argument that
 * option() does not take is "COMMAND: unknown option" when it starts with
 * '-', else "COMMAND: unexpected argument"; a flag given "=value",
 * "COMMAND: --flag takes no value"). An option's value is the next
 * argument (main has split --opt=value in two). */
int cli_parse_args(int argc, char **argv, const char *command, cli_option_fn option,
                   void *ctx);

/* The command lines of info and check: `count` positional arguments
 * (all required and none empty; `what` is the error when some are
 * missing, `names` theirs, e.g. {"BUNDLE", "X.mtx"}) and --json. Returns 0
 * (parsed), 1 (--help printed) or -1 (usage error printed). */
int cli_positional(int argc, char **argv, const char *command,
                   const char *what, const char *const *names,
                   const char **positional, int count, int *json,
                   void (*usage)(FILE *out));

/* A positional argument that names a file or directory: an empty one is
 * a usage error ("COMMAND: the NAME argument is empty"). 0, or -1 said. */
int cli_positional_name(const char *command, const char *name, const char *value);

int cmd_info(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_render(int argc, char **argv);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* main.c -- the command-line tool `corepcg`: dispatches to one
 * subcommand (cmd_*.c). */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    int json;  /* takes --json: a failure then prints a JSON error object */
};

static const struct command commands[] = {
    {"info", cmd_info, "info BUNDLE [--json]            sizes and constraint counts", 1},
    {"check", cmd_check, "check BUNDLE X.mtx [--json]     constraint error and relative residual", 1},
    {"solve", cmd_solve, "solve BUNDLE [--method M] ...   solve; --help lists the options", 1},
    {"gen", cmd_gen, "gen SCENE --size m|--mesh F ...  a cloth step's system as a bundle", 0},
    {"simulate", cmd_simulate, "simulate SCENE --size m|--mesh F  time-step a cloth, solver in the loop", 0},
    {"render", cmd_render, "render --out DIR FRAME.obj ...  OBJ frames as PNG pictures", 0},
    {"bench", cmd_bench, "bench [--quick] [--scaling] ...  every method side by side: table, CSV, SVG", 0},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: corepcg COMMAND [options]   (corepcg help COMMAND, or\n"
                 "       corepcg COMMAND --help, for more; --opt value and\n"
                 "       --opt=value are the same)\n\ncommands:\n");
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
        fprintf(out, "  %s\n", commands[k].summary);
    fprintf(out, "  help [COMMAND]                  this text, or COMMAND's\n"
                 "  --version                       the library's version\n");
}

/* "--opt=value" becomes "--opt" "value", so that every subcommand takes
 * both spellings. A NULL-terminated copy of argv (malloc'd; NULL when out
 * of memory). */
static char **split_equals(int argc, char **argv, int *out_argc)
{
    char **out = malloc(sizeof(char *) * (2 * (size_t)argc + 1));
    if (!out)
        return NULL;
    int m = 0;
    for (int k = 0; k < argc; k++) {
        char *eq = strchr(argv[k], '=');
        if (k > 0 && strncmp(argv[k], "--", 2) == 0 && eq && eq > argv[k] + 2) {
            *eq = '\0';
            out[m++] = argv[k];
            out[m++] = eq + 1;
            cli_note_glued(eq + 1);
        } else {
            out[m++] = argv[k];
        }
    }
    out[m] = NULL;
    *out_argc = m;
    return out;
}

static const struct command *find(const char *name)
{
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
        if (strcmp(name, commands[k].name) == 0)
            return &commands[k];
    return NULL;
}

static int is_help_flag(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *first = argv[1];
    /* `help --help` and `help help` ask help for itself: the same text,
     * as every command's --help is */
    if (is_help_flag(first) ||
        (strcmp(first, "help") == 0 &&
         (argc == 2 || (argc == 3 && (is_help_flag(argv[2]) || strcmp(argv[2], "help") == 0))))) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(first, "--version") == 0) {
        printf("corepcg %s\n", corepcg_version());
        return CLI_EXIT_OK;
    }
    if (strcmp(first, "help") == 0) { /* help COMMAND = COMMAND --help */
        const struct command *c = find(argv[2]);
        if (c && argc == 3) {
            char *help_argv[] = {argv[2], "--help", NULL};
            return c->run(2, help_argv);
        }
        if (c)
            cli_error("help: takes one COMMAND, got %d", argc - 2);
        else
            cli_error("help: unknown command '%s'", argv[2]);
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const struct command *c = find(first);
    if (c) {
        /* before the command parses anything, so that its usage errors
         * are JSON too */
        for (int k = 2; c->json && k < argc; k++)
            if (strcmp(argv[k], "--json") == 0)
                cli_json_errors();
        return c->run(argc - 1, argv + 1);
    }
    cli_error("unknown command '%s'", first);
    usage(stderr);
    return CLI_EXIT_USAGE;
}

/* A standard stream the caller closed (`>&-`) is held open on /dev/null,
 * so that no file the command opens takes its number and receives what
 * was meant for the stream; stdout read-only, so that its writes fail
 * and are reported (finish_stdout). */
static void hold_closed_streams(void)
{
    static const int flags[3] = {O_RDONLY, O_RDONLY, O_WRONLY};
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int held = open("/dev/null", flags[fd]);
            if (held >= 0 && held != fd) { /* a lower one was closed too */
                dup2(held, fd);
                close(held);
            }
        }
}

/* What was printed reaches stdout, or the run fails: a full disk, a
 * closed stdout or a broken pipe would otherwise lose the output with
 * exit 0. A command that failed already keeps its own status. */
static int finish_stdout(int status)
{
    errno = 0;
    int failed = fflush(stdout) != 0 || ferror(stdout);
    int why = errno;
    /* a write that failed earlier left no errno behind; a write of no
     * bytes writes nothing and tells why (ENOSPC, EBADF), where it can */
    if (failed && !why && write(STDOUT_FILENO, "", 0) < 0)
        why = errno;
    if (fclose(stdout) != 0 && !failed) {
        failed = 1;
        why = errno;
    }
    if (!failed)
        return status;
    cli_error("writing standard output: %s", why ? strerror(why) : "write error");
    return status == CLI_EXIT_OK ? CLI_EXIT_ERROR : status;
}

int main(int argc, char **argv)
{
    hold_closed_streams();
    int split_argc = 0;
    char **split_argv = split_equals(argc, argv, &split_argc);
    if (!split_argv) {
        cli_error("out of memory");
        return CLI_EXIT_ERROR;
    }
    int status = cli_finish(dispatch(split_argc, split_argv));
    free(split_argv);
    return finish_stdout(status);
}

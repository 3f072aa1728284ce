/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli.c -- argument helpers shared by the subcommands (the error lines
 * and exit statuses are util/tool_errors.c, shared with the benchmark). */
#include "cli.h"

#include "atomic_file.h"
#include "name_is.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* cpg_make_dirs_noting's note: the path appended to made's list. */
static int note_new_dir(const char *path, void *ctx)
{
    cli_new_dirs *made = ctx;
    char **more = realloc(made->paths, sizeof *more * (size_t)(made->count + 1));
    char *copy = more ? strdup(path) : NULL;
    if (more)
        made->paths = more;
    if (!copy)
        return -1;
    made->paths[made->count++] = copy;
    return 0;
}

void cli_make_new_dirs(const char *dir, cli_new_dirs *made)
{
    made->count = 0;
    made->paths = NULL;
    char msg[COREPCG_MSG_SIZE];
    /* best effort: cli_outputs_ready says why a directory cannot be made */
    cpg_make_dirs_noting(dir, note_new_dir, made, msg);
}

void cli_remove_new_dirs(cli_new_dirs *made)
{
    /* deepest first; rmdir removes only an empty one: never a file
     * someone put there */
    for (int k = made->count; k-- > 0;)
        rmdir(made->paths[k]);
    cli_forget_new_dirs(made);
}

void cli_forget_new_dirs(cli_new_dirs *made)
{
    for (int k = 0; k < made->count; k++)
        free(made->paths[k]);
    free(made->paths);
    made->paths = NULL;
    made->count = 0;
}

int cli_finite_number(const char *text, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = text ? strtod(text, &end) : NAN;
    if (!text || end == text || *end != '\0' || errno != 0 || !isfinite(v))
        return -1;
    *out = v == 0 ? 0.0 : v;
    return 0;
}

int cli_path_value(const char *opt, const char *value, const char *what)
{
    if (!value || !*value) {
        cli_error("%s needs %s%s", opt, what, value ? ", got ''" : "");
        return -1;
    }
    /* the next option taken as the name: the user left the value out */
    if (strncmp(value, "--", 2) == 0) {
        cli_error("%s needs %s, got the option '%s' (a name that starts with -- "
                  "is given as ./%s)", opt, what, value, value);
        return -1;
    }
    return 0;
}

int cli_parse_double(const char *opt, const char *text, double lo, double hi, double *out)
{
    double v = NAN;
    if (cli_finite_number(text, &v) || v < lo || v > hi) {
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

void cli_method_names(char *out, size_t size, int newest_first, const char *sep,
                      int mark_default)
{
    corepcg_settings defaults;
    corepcg_settings_default(&defaults);
    out[0] = '\0';
    int count = 0;
    while (corepcg_method_at(count) >= 0)
        count++;
    for (int k = 0; k < count; k++) {
        int m = corepcg_method_at(newest_first ? count - 1 - k : k);
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s%s", k ? sep : "", corepcg_method_name(m),
                 mark_default && m == (int)defaults.method ? " (default)" : "");
    }
}

int cli_parse_method(const char *opt, const char *text, int newest_first, int *out)
{
    char names[256];
    cli_method_names(names, sizeof names, newest_first, ", ", 0);
    return cli_parse_choice(opt, text, corepcg_method_from_name, names, out);
}

void cli_usage_entry(FILE *out, int column, const char *flag, const char *value,
                     const char *text)
{
    enum { WIDTH = 79 };
    int col = fprintf(out, "  %s %s", flag, value);
    if (col >= column) {
        fputc('\n', out);
        col = 0;
    }
    const char *p = text;
    while (*p) {
        size_t len = strcspn(p, " ");
        if (col >= column && col + 1 + (int)len > WIDTH) {
            fputc('\n', out);
            col = 0;
        }
        col += fprintf(out, "%*s%.*s", col < column ? column - col : 1, "", (int)len, p);
        p += len;
        p += *p == ' ';
    }
    fputc('\n', out);
}

void cli_usage(FILE *out, const char *text)
{
    static const char newest[] = "@METHODS@", listed[] = "@METHOD_LIST@",
                      automatic[] = "@AUTO_METHODS@";
    const char *p = text, *at;
    while ((at = strchr(p, '@'))) {
        fwrite(p, 1, (size_t)(at - p), out);
        int is_newest = strncmp(at, newest, sizeof newest - 1) == 0;
        int is_listed = strncmp(at, listed, sizeof listed - 1) == 0;
        if (strncmp(at, automatic, sizeof automatic - 1) == 0) {
            for (int k = 0; corepcg_auto_candidate(k) >= 0; k++)
                fprintf(out, "%s,", corepcg_method_name(corepcg_auto_candidate(k)));
            fputs(corepcg_method_name(COREPCG_METHOD_AUTO), out);
            p = at + sizeof automatic - 1;
            continue;
        }
        if (!is_newest && !is_listed) {
            fputc('@', out);
            p = at + 1;
            continue;
        }
        char names[256];
        cli_method_names(names, sizeof names, is_newest, is_newest ? "|" : ", ", is_newest);
        fputs(names, out);
        p = at + (is_newest ? sizeof newest : sizeof listed) - 1;
    }
    fputs(p, out);
}

int cli_on_off(const char *name)
{
    static const char *const words[] = {"off", "on"};
    return cpg_name_index(name, words, 2);
}

/* The values main cut off "--opt=value" arguments (argv's own strings,
 * by address). */
static struct {
    const char **values;
    int count, capacity;
} glued;

void cli_note_glued(const char *value)
{
    if (glued.count == glued.capacity) {
        int capacity = glued.capacity ? 2 * glued.capacity : 16;
        const char **grown = realloc(glued.values, (size_t)capacity * sizeof *grown);
        if (!grown)
            return; /* "--json=yes" then says "unexpected argument 'yes'" */
        glued.values = grown;
        glued.capacity = capacity;
    }
    glued.values[glued.count++] = value;
}

static int is_glued(const char *value)
{
    for (int k = 0; value && k < glued.count; k++)
        if (glued.values[k] == value)
            return 1;
    return 0;
}

int cli_parse_args(int argc, char **argv, const char *command, cli_option_fn option,
                   void *ctx)
{
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        if (is_glued(a)) { /* a value no option took: "--json=yes" */
            cli_error("%s: %s takes no value, got '%s=%s'", command, argv[k - 1],
                      argv[k - 1], a);
            return -1;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            return 1;
        int took = option(a, v, ctx);
        if (took == CLI_ARG_UNKNOWN) {
            if (a[0] == '-' && a[1] != '\0')
                cli_error("%s: unknown option '%s'", command, a);
            else
                cli_error("%s: unexpected argument '%s'", command, a);
            return -1;
        }
        if (took < 0)
            return -1;
        k += took;
    }
    return 0;
}

int cli_positional_name(const char *command, const char *name, const char *value)
{
    if (value && !*value) {
        cli_error("%s: the %s argument is empty", command, name);
        return -1;
    }
    return 0;
}

/* info's and check's positionals and --json (cli_positional). */
struct positional_args {
    const char **positional;
    int count, given;
    int *json;
};

static int positional_option(const char *a, const char *v, void *ctx)
{
    (void)v;
    struct positional_args *p = ctx;
    if (strcmp(a, "--json") == 0)
        *p->json = 1;
    else if ((a[0] != '-' || a[1] == '\0') && p->given < p->count)
        p->positional[p->given++] = a;
    else
        return CLI_ARG_UNKNOWN;
    return CLI_ARG_ALONE;
}

int cli_positional(int argc, char **argv, const char *command,
                   const char *what, const char *const *names,
                   const char **positional, int count, int *json,
                   void (*usage)(FILE *out))
{
    struct positional_args p = {positional, count, 0, json};
    *json = 0;
    for (int k = 0; k < count; k++)
        positional[k] = NULL;
    int rc = cli_parse_args(argc, argv, command, positional_option, &p);
    if (rc == 0 && p.given < count) {
        cli_error("%s: %s", command, what);
        rc = -1;
    }
    for (int k = 0; rc == 0 && k < count; k++)
        if (cli_positional_name(command, names[k], positional[k]))
            rc = -1;
    if (rc)
        usage(rc == 1 ? stdout : stderr);
    return rc;
}

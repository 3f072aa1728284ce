/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli_settings.c -- the library's settings on a command line, from their
 * descriptions (cli_settings.h). */
#include "cli_settings.h"

#include "cli.h"
#include "name_is.h"

#include <stdio.h>
#include <string.h>

void cli_settings_init(cli_settings *c)
{
    memset(c, 0, sizeof *c);
    corepcg_settings_default(&c->set);
}

/* "upcg, mpcg and auto's mpcg": the methods that read option, from the
 * library's table (auto's candidates named as auto's). */
static void takers(int option, char *out, size_t size)
{
    const char *names[2 * TOOL_MAX_METHODS];
    int count = 0;
    char autos[2 * TOOL_MAX_METHODS][32];
    for (int k = 0; corepcg_method_at(k) >= 0; k++) {
        int m = corepcg_method_at(k);
        if (m != COREPCG_METHOD_AUTO && corepcg_method_takes(m, option))
            names[count++] = corepcg_method_name(m);
    }
    for (int k = 0; corepcg_auto_candidate(k) >= 0; k++) {
        int m = corepcg_auto_candidate(k);
        if (corepcg_method_takes(m, option)) {
            snprintf(autos[k], sizeof autos[k], "auto's %s", corepcg_method_name(m));
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

/* The name of the option d is read with (corepcg_option_info.family). */
static const char *family(const corepcg_option_info *d)
{
    return d->family ? d->family : d->name;
}

/* "--tol/--max-iter": the flags of option's family that were given (a
 * refusal names what the user typed, not the family's other options). */
static void given_family_flags(const cli_settings *c, int option, char *out, size_t size)
{
    const char *f = family(corepcg_option_describe(option));
    out[0] = '\0';
    for (int k = 0; k < corepcg_option_count(); k++) {
        const corepcg_option_info *d = corepcg_option_describe(k);
        size_t len = strlen(out);
        if (c->gave[k] && strcmp(family(d), f) == 0)
            snprintf(out + len, size - len, "%s%s", len ? "/" : "", d->flag);
    }
}

int cli_settings_refuse_ignored(const cli_settings *c, const char *command, int option,
                                const char *flags)
{
    corepcg_method m = c->set.method;
    if (corepcg_method_takes(m, option))
        return 0;
    char list[256];
    takers(option, list, sizeof list);
    cli_error("%s: --method %s does not take %s (%s for %s)", command, corepcg_method_name(m),
              flags, strchr(flags, '/') ? "they are" : "it is", list);
    return -1;
}

int cli_settings_check(const cli_settings *c, const char *command)
{
    /* the library decides (corepcg_settings_refusal, the rule setup
     * applies too); the CLI says it in its own words, by flag */
    int k = 0; /* set only with a refusal */
    int refusal = corepcg_settings_refusal(&c->set, c->gave, &k, NULL);
    if (refusal == COREPCG_REFUSAL_NONE)
        return 0;
    const corepcg_option_info *d = corepcg_option_describe(k);
    if (refusal == COREPCG_REFUSAL_METHOD) {
        char flags[64];
        given_family_flags(c, k, flags, sizeof flags);
        return cli_settings_refuse_ignored(c, command, k, flags);
    }
    if (refusal == COREPCG_REFUSAL_VALUE) {
        const char *why;
        int value = (int)corepcg_option_get(&c->set, k);
        int only = corepcg_option_value_method(k, value, &why);
        cli_error("%s: --method %s does not take %s %s (it is for %s; %s)", command,
                  corepcg_method_name(c->set.method), d->flag,
                  corepcg_option_value_name(k, value), corepcg_method_name(only), why);
        return -1;
    }
    if (refusal == COREPCG_REFUSAL_NEEDS) {
        int needs = corepcg_option_from_name(d->needs);
        cli_error("%s: %s is for %s %s", command, d->flag, corepcg_option_describe(needs)->flag,
                  corepcg_option_value_name(needs, d->needs_value));
        return -1;
    }
    return 0;
}

/* "diag|block|projected": a CHOICE option's values. */
static void choices(int option, char *out, size_t size)
{
    out[0] = '\0';
    for (int v = 0; corepcg_option_value_name(option, v); v++) {
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s", v ? "|" : "",
                 corepcg_option_value_name(option, v));
    }
}

/* A SWITCH's word: --STEM WORD sets STEM_WORD. */
static const char *switch_word(const corepcg_option_info *d)
{
    return d->name + strlen(d->flag + 2) + 1;
}

/* The value v of option (flag a) by its type and range: 0, or -1 having
 * said why. */
static int parse_value(int option, const char *a, const char *v, double *value)
{
    const corepcg_option_info *d = corepcg_option_describe(option);
    int i = 0;
    char names[128];
    switch (d->type) {
    case COREPCG_VALUE_REAL:
        return cli_parse_double(a, v, d->min, d->max, value);
    case COREPCG_VALUE_INT:
        if (cli_parse_int(a, v, (long)d->min, (long)d->max, &i))
            return -1;
        *value = i;
        return 0;
    case COREPCG_VALUE_CHOICE:
        *value = v ? corepcg_option_value_from_name(option, v) : -1;
        if (*value >= 0)
            return 0;
        choices(option, names, sizeof names);
        cli_error("%s takes one of %s, got '%s'", a, names, v ? v : "");
        return -1;
    default:
        *value = 1;
        if (v && cpg_name_is(v, switch_word(d)))
            return 0;
        cli_error("%s takes %s, got '%s'", a, switch_word(d), v ? v : "");
        return -1;
    }
}

int cli_settings_arg(cli_settings *c, const char *a, const char *v)
{
    if (strcmp(a, "--method") == 0) {
        int m;
        if (cli_parse_method(a, v, 1, &m))
            return CLI_ARG_ERROR;
        c->set.method = (corepcg_method)m;
        return CLI_ARG_WITH_VALUE;
    }
    for (int k = 0; k < corepcg_option_count(); k++) {
        if (strcmp(a, corepcg_option_describe(k)->flag) != 0)
            continue;
        double value;
        if (parse_value(k, a, v, &value))
            return CLI_ARG_ERROR;
        corepcg_option_set(&c->set, k, value);
        c->gave[k] = 1;
        return CLI_ARG_WITH_VALUE;
    }
    return CLI_ARG_UNKNOWN;
}

/* The text's column in solve's and bench's option entries. */
#define SETTINGS_COLUMN 22

/* Its default as the CLI spells it ("1e-05", "diag", "off"). */
static void default_text(int option, char *out, size_t size)
{
    const corepcg_option_info *d = corepcg_option_describe(option);
    if (d->type == COREPCG_VALUE_CHOICE)
        snprintf(out, size, "%s", corepcg_option_value_name(option, (int)d->default_value));
    else if (d->type == COREPCG_VALUE_SWITCH)
        snprintf(out, size, "%s", d->default_value ? switch_word(d) : "off");
    else if (d->type == COREPCG_VALUE_INT)
        snprintf(out, size, "%.0f", d->default_value);
    else
        snprintf(out, size, "%g", d->default_value);
}

void cli_settings_usage(FILE *out)
{
    char methods[256] = "", candidates[128] = "", text[512];
    corepcg_settings defaults;
    corepcg_settings_default(&defaults);
    cli_method_names(methods, sizeof methods, 1, "|", 0);
    for (int k = 0; corepcg_auto_candidate(k) >= 0; k++) {
        size_t len = strlen(candidates);
        snprintf(candidates + len, sizeof candidates - len, "%s%s",
                 k == 0 ? "" : corepcg_auto_candidate(k + 1) < 0 ? " and " : ", ",
                 corepcg_method_name(corepcg_auto_candidate(k)));
    }
    snprintf(text, sizeof text,
             "the method (default %s); auto: per step the fastest of %s, as the "
             "handle measured them",
             corepcg_method_name(defaults.method), candidates);
    cli_usage_entry(out, SETTINGS_COLUMN, "--method", methods, text);
    for (int k = 0; k < corepcg_option_count(); k++) {
        const corepcg_option_info *d = corepcg_option_describe(k);
        char value[128], def[64], list[256], need[160] = "";
        if (d->type == COREPCG_VALUE_CHOICE)
            choices(k, value, sizeof value);
        else
            snprintf(value, sizeof value, "%s", d->type == COREPCG_VALUE_SWITCH
                                                    ? switch_word(d)
                                                    : d->type == COREPCG_VALUE_INT ? "K" : "X");
        default_text(k, def, sizeof def);
        takers(k, list, sizeof list);
        int needs = d->needs ? corepcg_option_from_name(d->needs) : -1;
        if (needs >= 0)
            snprintf(need, sizeof need, ", with %s %s", corepcg_option_describe(needs)->flag,
                     corepcg_option_value_name(needs, d->needs_value));
        char range[200] = "";
        /* a whole number's range in digits: "[1, 1e+09]" read as 1e9 is
         * refused by --max-iter itself */
        if (d->type == COREPCG_VALUE_INT)
            snprintf(range, sizeof range, "%s in [%.0f, %.0f], ", value, d->min, d->max);
        else if (d->type == COREPCG_VALUE_REAL)
            snprintf(range, sizeof range, "%s in [%g, %g], ", value, d->min, d->max);
        char alone[128] = "";
        for (int v = 0; d->type == COREPCG_VALUE_CHOICE && corepcg_option_value_name(k, v); v++) {
            int only = corepcg_option_value_method(k, v, NULL);
            size_t len = strlen(alone);
            if (only >= 0)
                snprintf(alone + len, sizeof alone - len, "; %s: %s only",
                         corepcg_option_value_name(k, v), corepcg_method_name(only));
        }
        snprintf(text, sizeof text, "%s (%sdefault %s; for %s%s%s)", d->help, range, def, list,
                 need, alone);
        cli_usage_entry(out, SETTINGS_COLUMN, d->flag, value, text);
    }
}

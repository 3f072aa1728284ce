/* SPDX-License-Identifier: GPL-2.0-or-later */
/* takes.c -- which settings go with which method, the one rule that
 * corepcg_setup applies to the settings that differ from their defaults
 * and the CLI and Python to those their callers give
 * (corepcg_settings_refusal): a method reads the shared settings its row
 * lists and its own (auto: what its candidates read); a value of a
 * setting may be one method's alone (registry.c's rules); a setting may
 * be read only while another has a given value
 * (corepcg_option_info.needs). */
#include "method.h"

#include <stdio.h>
#include <string.h>

/* 1 when the row e reads option: a shared one it lists, or one of its
 * own. */
static int reads(const cpg_method_entry *e, int option)
{
    if (option < COREPCG_OPTION_COUNT)
        return (e->options & CPG_TAKES(option)) != 0;
    corepcg_method owner;
    return cpg_own_option_at(option - COREPCG_OPTION_COUNT, &owner) && owner == e->method;
}

int corepcg_method_takes(int method, int option)
{
    const cpg_method_entry *e = cpg_method_entry_of((corepcg_method)method);
    if (!e || option < 0 || option >= corepcg_option_count())
        return 0;
    if (reads(e, option))
        return 1;
    if (method != COREPCG_METHOD_AUTO)
        return 0;
    for (int k = 0; corepcg_auto_candidate(k) >= 0; k++)
        if (corepcg_method_takes(corepcg_auto_candidate(k), option))
            return 1;
    return 0;
}

/* "mpcg-bw, mpcg, upcg, corepcg, icpcg and auto": the methods that take
 * option, in the table's order, auto last. */
static void takers(int option, char *out, size_t size)
{
    const char *names[64];
    int count = 0, with_auto = corepcg_method_takes(COREPCG_METHOD_AUTO, option);
    for (int k = 0; corepcg_method_at(k) >= 0 && count < 63; k++) {
        int m = corepcg_method_at(k);
        if (m != COREPCG_METHOD_AUTO && corepcg_method_takes(m, option))
            names[count++] = corepcg_method_name(m);
    }
    if (with_auto)
        names[count++] = corepcg_method_name(COREPCG_METHOD_AUTO);
    snprintf(out, size, "%s", count ? "" : "no method");
    for (int k = 0; k < count; k++) {
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s",
                 k == 0 ? "" : k + 1 == count ? " and " : ", ", names[k]);
    }
}

/* A CHOICE's value as Python spells it ('auto'), a number as %g. */
static void value_text(int option, double v, char *out, size_t size)
{
    const char *name = corepcg_option_value_name(option, (int)v);
    if (corepcg_option_describe(option)->type == COREPCG_VALUE_CHOICE && name)
        snprintf(out, size, "'%s'", name);
    else
        snprintf(out, size, "%g", v);
}

/* Whether option was given: by the caller's list, or (given NULL) by a
 * value other than its default. */
static int was_given(const corepcg_settings *s, const unsigned char *given, int option)
{
    if (given)
        return given[option] != 0;
    return corepcg_option_get(s, option) != corepcg_option_describe(option)->default_value;
}

int corepcg_settings_refusal(const corepcg_settings *s, const unsigned char *given,
                             int *option, char *msg)
{
    int unused;
    option = option ? option : &unused;
    if (!s || !cpg_method_entry_of(s->method))
        return COREPCG_REFUSAL_NONE; /* setup refuses the method itself */
    const char *method = corepcg_method_name(s->method);
    int count = corepcg_option_count();
    for (int k = 0; k < count; k++) {
        if (!was_given(s, given, k) || corepcg_method_takes(s->method, k))
            continue;
        char list[256];
        takers(k, list, sizeof list);
        *option = k;
        return cpg_fail(msg, COREPCG_REFUSAL_METHOD,
                        "settings: method '%s' does not take %s (it is for %s)", method,
                        corepcg_option_describe(k)->name, list);
    }
    for (int k = 0; k < count; k++) {
        const corepcg_option_info *d = corepcg_option_describe(k);
        if (d->type != COREPCG_VALUE_CHOICE)
            continue; /* the rules are on named values */
        const char *why;
        int value = (int)corepcg_option_get(s, k);
        int only = corepcg_option_value_method(k, value, &why);
        if (only >= 0 && only != (int)s->method) {
            *option = k;
            return cpg_fail(msg, COREPCG_REFUSAL_VALUE,
                            "settings: method '%s' does not take %s='%s' (%s is for %s; %s)",
                            method, d->name, corepcg_option_value_name(k, value),
                            corepcg_option_value_name(k, value), corepcg_method_name(only), why);
        }
    }
    for (int k = 0; k < count; k++) {
        const corepcg_option_info *d = corepcg_option_describe(k);
        int needs = d->needs ? corepcg_option_from_name(d->needs) : -1;
        if (!was_given(s, given, k) || needs < 0 ||
            corepcg_option_get(s, needs) == d->needs_value)
            continue;
        char wanted[64], has[64];
        value_text(needs, d->needs_value, wanted, sizeof wanted);
        value_text(needs, corepcg_option_get(s, needs), has, sizeof has);
        *option = k;
        return cpg_fail(msg, COREPCG_REFUSAL_NEEDS, "settings: %s is for %s=%s, not %s=%s",
                        d->name, d->needs, wanted, d->needs, has);
    }
    return COREPCG_REFUSAL_NONE;
}

void corepcg_settings_for_method(corepcg_settings *s)
{
    if (!s || !cpg_method_entry_of(s->method))
        return;
    for (int k = 0; k < corepcg_option_count(); k++) {
        const corepcg_option_info *d = corepcg_option_describe(k);
        int needs = d->needs ? corepcg_option_from_name(d->needs) : -1;
        /* the options come after those they need: a need put back first */
        int unread = !corepcg_method_takes(s->method, k) ||
                     (needs >= 0 && corepcg_option_get(s, needs) != d->needs_value);
        if (unread)
            corepcg_option_set(s, k, d->default_value);
    }
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options.c -- every setting described once: name, the CLI's option,
 * type, range, default, family, what it needs and a help line (which
 * names no method). The settings more than one method reads are
 * described here, each method's own in its file (cpg_method_ops.own),
 * and both are numbered as one list (corepcg_option_count). From the
 * descriptions corepcg_settings_default sets the defaults and
 * corepcg_setup checks the ranges; the CLI parses and refuses, Python
 * checks its keywords and tests compare the docs' tables through
 * corepcg_option_describe. Which methods take a setting is the table of
 * methods' (registry.c). */
#include "method.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* A shared setting: its description and its field. */
typedef struct option_desc {
    corepcg_option_info info;
    size_t offset;                        /* its field in corepcg_settings */
    const char *(*value_name)(int value); /* CHOICE: corepcg_*_name        */
} option_desc;

#define FIELD(f) offsetof(corepcg_settings, f)
#define NONE NULL, 0 /* needs nothing */

/* a CHOICE's default is written as an int */
_Static_assert(sizeof(corepcg_precond) == sizeof(int) && sizeof(corepcg_ordering) == sizeof(int) &&
                   sizeof(corepcg_factor) == sizeof(int) && sizeof(corepcg_stop) == sizeof(int),
               "enums are int-sized");

/* {{name, flag, type, min, max, default, family, needs, needs_value,
 * help}, field, value names} */
static const option_desc options[COREPCG_OPTION_COUNT] = {
    [COREPCG_OPTION_TOL] = {{"tol", "--tol", COREPCG_VALUE_REAL, 1e-300, 0.999999,
                             COREPCG_DEFAULT_TOL, NULL, NONE,
                             "iterative methods' tolerance: the bound of stop's measure"},
                            FIELD(tol), NULL},
    [COREPCG_OPTION_MAX_ITER] = {{"max_iter", "--max-iter", COREPCG_VALUE_INT, 1, 1e9,
                                  COREPCG_DEFAULT_MAX_ITER, "tol", NONE,
                                  "iterative methods' iteration limit"},
                                 FIELD(max_iter), NULL},
    [COREPCG_OPTION_PRECOND] = {{"precond", "--precond", COREPCG_VALUE_CHOICE, 0,
                                 COREPCG_PRECOND_COUNT - 1, COREPCG_PRECOND_DIAG,
                                 NULL, NONE,
                                 "the cheap preconditioner: Jacobi, per-node block "
                                 "or projected"},
                                FIELD(precond), corepcg_precond_name},
    /* nested dissection on the node graph: the fastest warm step, its
     * longer analysis paid back by the first factorisation
     * (docs/benchmark.md, "Ordering") */
    [COREPCG_OPTION_ORDERING] = {{"ordering", "--ordering", COREPCG_VALUE_CHOICE, 0,
                                  COREPCG_ORDERING_COUNT - 1, COREPCG_ORDERING_NESDIS,
                                  NULL, NONE,
                                  "CHOLMOD's fill-reducing ordering"},
                                 FIELD(ordering), corepcg_ordering_name},
    [COREPCG_OPTION_FACTOR] = {{"factor", "--factor", COREPCG_VALUE_CHOICE, 0,
                                COREPCG_FACTOR_COUNT - 1, COREPCG_FACTOR_AUTO,
                                "ordering", NONE,
                                "CHOLMOD's factor: simplicial LDL^T, supernodal "
                                "LL^T or its choice"},
                               FIELD(factor), corepcg_factor_name},
    [COREPCG_OPTION_STOP] = {{"stop", "--stop", COREPCG_VALUE_CHOICE, 0,
                              COREPCG_STOP_COUNT - 1, COREPCG_STOP_RESIDUAL,
                              NULL, NONE,
                              "iterative methods' rule: the true residual or the "
                              "papers' preconditioned one"},
                             FIELD(stop), corepcg_stop_name},
};

int corepcg_option_count(void)
{
    return COREPCG_OPTION_COUNT + cpg_own_option_total();
}

/* A method's own option by number, NULL for a shared or unknown one. */
static const cpg_own_option *own(int option)
{
    return option >= COREPCG_OPTION_COUNT
               ? cpg_own_option_at(option - COREPCG_OPTION_COUNT, NULL)
               : NULL;
}

const corepcg_option_info *corepcg_option_describe(int option)
{
    if (option >= 0 && option < COREPCG_OPTION_COUNT)
        return &options[option].info;
    const cpg_own_option *o = own(option);
    return o ? &o->info : NULL;
}

int corepcg_option_from_name(const char *name)
{
    for (int k = 0; name && k < corepcg_option_count(); k++)
        if (cpg_name_is(name, corepcg_option_describe(k)->name))
            return k;
    return -1;
}

const char *corepcg_option_value_name(int option, int value)
{
    const corepcg_option_info *o = corepcg_option_describe(option);
    if (!o || o->type != COREPCG_VALUE_CHOICE || value < 0 || value > (int)o->max)
        return NULL;
    const char *(*name)(int) = option < COREPCG_OPTION_COUNT ? options[option].value_name
                                                             : own(option)->value_name;
    return name ? name(value) : NULL;
}

int corepcg_option_value_from_name(int option, const char *name)
{
    const corepcg_option_info *o = corepcg_option_describe(option);
    if (!o || !name)
        return -1;
    for (int v = 0; v <= (int)o->max; v++) {
        const char *n = corepcg_option_value_name(option, v);
        if (n && cpg_name_is(name, n))
            return v;
    }
    return -1;
}

int corepcg_option_set(corepcg_settings *s, int option, double value)
{
    const corepcg_option_info *d = corepcg_option_describe(option);
    if (!s || !d ||
        (d->type != COREPCG_VALUE_REAL &&
         (value != floor(value) || value < INT_MIN || value > INT_MAX)))
        return COREPCG_ERR_ARGUMENT;
    if (option >= COREPCG_OPTION_COUNT) {
        s->method_options[option - COREPCG_OPTION_COUNT] = value;
        return COREPCG_OK;
    }
    char *field = (char *)s + options[option].offset;
    if (options[option].info.type == COREPCG_VALUE_REAL)
        *(double *)field = value;
    else /* int fields and int-sized enums */
        *(int *)field = (int)value;
    return COREPCG_OK;
}

double corepcg_option_get(const corepcg_settings *s, int option)
{
    if (!s || !corepcg_option_describe(option))
        return NAN;
    if (option >= COREPCG_OPTION_COUNT)
        return s->method_options[option - COREPCG_OPTION_COUNT];
    const char *field = (const char *)s + options[option].offset;
    if (options[option].info.type == COREPCG_VALUE_REAL)
        return *(const double *)field;
    return *(const int *)field;
}

double cpg_own_value(const corepcg_settings *s, const cpg_own_option *o)
{
    int k = cpg_own_option_number(o); /* -1: one settings have no room for */
    return k >= 0 ? s->method_options[k] : o->info.default_value;
}

void cpg_options_default(corepcg_settings *s)
{
    for (int k = 0; k < COREPCG_METHOD_OPTION_SLOTS; k++)
        s->method_options[k] = 0;
    for (int k = 0; k < corepcg_option_count(); k++)
        corepcg_option_set(s, k, corepcg_option_describe(k)->default_value);
}

/* Whether v is a value of o: in its range, whole unless REAL. */
static int in_range(const corepcg_option_info *o, double v)
{
    return v >= o->min && v <= o->max &&
           (o->type == COREPCG_VALUE_REAL || v == floor(v));
}

/* v as the shortest of %.15g, %.16g, %.17g that reads back as v (an
 * integer's digits whole): "got 1e+09" for 1000000001 read as in range. */
static void exact_text(double v, char *buf, size_t len)
{
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

int cpg_options_check(const corepcg_settings *s, char *msg)
{
    for (int k = 0; k < corepcg_option_count(); k++) {
        const corepcg_option_info *o = corepcg_option_describe(k);
        double v = corepcg_option_get(s, k);
        if (in_range(o, v))
            continue;
        if (o->type == COREPCG_VALUE_CHOICE)
            return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: unknown %s %g", o->name, v);
        char lo[32], hi[32], got[32];
        exact_text(o->min, lo, sizeof lo);
        exact_text(o->max, hi, sizeof hi);
        exact_text(v, got, sizeof got);
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: %s must be %s in [%s, %s], got %s",
                        o->name, o->type == COREPCG_VALUE_REAL ? "a number" : "a whole number",
                        lo, hi, got);
    }
    return COREPCG_OK;
}

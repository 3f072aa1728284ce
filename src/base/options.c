/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options.c -- every setting described once: name, the CLI's option,
 * type, range, default, family, what it needs and a help line (which
 * names no method: the methods' rows say which take it). corepcg_settings_default
 * sets the defaults from here; the CLI parses and refuses, Python checks
 * its keywords and tests compare the docs' table through
 * corepcg_option_describe. Which methods take a setting is the table of
 * methods' (methods/registry.c). */
#include "base.h"

#include <math.h>
#include <stddef.h>

typedef struct option_desc {
    corepcg_option_info info;
    size_t offset;                        /* its field in corepcg_settings */
    const char *(*value_name)(int value); /* CHOICE: corepcg_*_name        */
} option_desc;

#define FIELD(f) offsetof(corepcg_settings, f)
#define NONE -1, 0 /* needs nothing */

/* a CHOICE's default is written as an int */
_Static_assert(sizeof(corepcg_precond) == sizeof(int) && sizeof(corepcg_ordering) == sizeof(int) &&
                   sizeof(corepcg_factor) == sizeof(int) && sizeof(corepcg_core) == sizeof(int) &&
                   sizeof(corepcg_stop) == sizeof(int),
               "enums are int-sized");

/* {{name, flag, type, min, max, default, family, needs, needs_value,
 * help}, field, value names} */
static const option_desc options[COREPCG_OPTION_COUNT] = {
    [COREPCG_OPTION_TOL] = {{"tol", "--tol", COREPCG_VALUE_REAL, 1e-300, 0.999999,
                             COREPCG_DEFAULT_TOL, COREPCG_OPTION_TOL, NONE,
                             "iterative methods' tolerance (see stop)"},
                            FIELD(tol), NULL},
    [COREPCG_OPTION_MAX_ITER] = {{"max_iter", "--max-iter", COREPCG_VALUE_INT, 1, 1e9,
                                  COREPCG_DEFAULT_MAX_ITER, COREPCG_OPTION_TOL, NONE,
                                  "iterative methods' iteration limit"},
                                 FIELD(max_iter), NULL},
    [COREPCG_OPTION_PRECOND] = {{"precond", "--precond", COREPCG_VALUE_CHOICE, 0,
                                 COREPCG_PRECOND_COUNT - 1, COREPCG_PRECOND_DIAG,
                                 COREPCG_OPTION_PRECOND, NONE,
                                 "the cheap preconditioner: Jacobi, per-node block "
                                 "or projected"},
                                FIELD(precond), corepcg_precond_name},
    /* nested dissection on the node graph: the fastest warm step, its
     * longer analysis paid back by the first factorisation
     * (docs/benchmark.md, "Ordering") */
    [COREPCG_OPTION_ORDERING] = {{"ordering", "--ordering", COREPCG_VALUE_CHOICE, 0,
                                  COREPCG_ORDERING_COUNT - 1, COREPCG_ORDERING_NESDIS,
                                  COREPCG_OPTION_ORDERING, NONE,
                                  "CHOLMOD's fill-reducing ordering"},
                                 FIELD(ordering), corepcg_ordering_name},
    [COREPCG_OPTION_FACTOR] = {{"factor", "--factor", COREPCG_VALUE_CHOICE, 0,
                                COREPCG_FACTOR_COUNT - 1, COREPCG_FACTOR_AUTO,
                                COREPCG_OPTION_ORDERING, NONE,
                                "CHOLMOD's factor: simplicial LDL^T, supernodal "
                                "LL^T or its choice"},
                               FIELD(factor), corepcg_factor_name},
    [COREPCG_OPTION_CORE] = {{"core", "--core", COREPCG_VALUE_CHOICE, 0,
                              COREPCG_CORE_COUNT - 1, COREPCG_CORE_STRETCH,
                              COREPCG_OPTION_CORE, NONE,
                              "the matrix core: the stretch-pair blocks or those "
                              "that pass core_threshold"},
                             FIELD(core), corepcg_core_name},
    [COREPCG_OPTION_CORE_THRESHOLD] = {{"core_threshold", "--core-threshold",
                                        COREPCG_VALUE_REAL, 0, 1e300,
                                        COREPCG_DEFAULT_CORE_THRESHOLD,
                                        COREPCG_OPTION_CORE,
                                        COREPCG_OPTION_CORE, COREPCG_CORE_AUTO,
                                        "core auto: keep blocks with |A_ij| >= t "
                                        "sqrt(|A_ii||A_jj|)"},
                                       FIELD(core_threshold), NULL},
    [COREPCG_OPTION_FALLBACK_UPCG] = {{"fallback_upcg", "--fallback", COREPCG_VALUE_SWITCH,
                                       0, 1, 0, COREPCG_OPTION_FALLBACK_UPCG, NONE,
                                       "if the core is not SPD, solve with "
                                       "block-preconditioned upcg"},
                                      FIELD(fallback_upcg), NULL},
    [COREPCG_OPTION_IC_FILL] = {{"ic_fill", "--ic-fill", COREPCG_VALUE_INT, 0, 1, 0,
                                 COREPCG_OPTION_IC_FILL, NONE,
                                 "the incomplete factor: 0 = IC(0), 1 = one level "
                                 "of block fill"},
                                FIELD(ic_fill), NULL},
    [COREPCG_OPTION_STOP] = {{"stop", "--stop", COREPCG_VALUE_CHOICE, 0,
                              COREPCG_STOP_COUNT - 1, COREPCG_STOP_RESIDUAL,
                              COREPCG_OPTION_STOP, NONE,
                              "iterative methods' rule: the true residual or the "
                              "papers' preconditioned one"},
                             FIELD(stop), corepcg_stop_name},
};

const corepcg_option_info *corepcg_option_describe(int option)
{
    return option >= 0 && option < COREPCG_OPTION_COUNT ? &options[option].info : NULL;
}

const char *corepcg_option_value_name(int option, int value)
{
    const corepcg_option_info *o = corepcg_option_describe(option);
    if (!o || o->type != COREPCG_VALUE_CHOICE || value < 0 || value > (int)o->max)
        return NULL;
    return options[option].value_name(value);
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
    if (!s || !corepcg_option_describe(option))
        return COREPCG_ERR_ARGUMENT;
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
    const char *field = (const char *)s + options[option].offset;
    if (options[option].info.type == COREPCG_VALUE_REAL)
        return *(const double *)field;
    return *(const int *)field;
}

void cpg_options_default(corepcg_settings *s)
{
    for (int k = 0; k < COREPCG_OPTION_COUNT; k++)
        corepcg_option_set(s, k, options[k].info.default_value);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* registry.c -- the one table of methods: each one's enum value, name,
 * operations, the settings it reads and its place among auto's
 * candidates. The handle finds a method's ops here, auto its candidates,
 * and the CLI and the benchmark (through corepcg_method_at,
 * corepcg_method_takes and corepcg_auto_candidate) the names, the option
 * checks and the method lists. */
#include "method.h"

#define ITERATES (CPG_TAKES(COREPCG_OPTION_TOL) | CPG_TAKES(COREPCG_OPTION_MAX_ITER) | \
                  CPG_TAKES(COREPCG_OPTION_STOP))
#define CHOLMOD_ORDERING (CPG_TAKES(COREPCG_OPTION_ORDERING) | CPG_TAKES(COREPCG_OPTION_FACTOR))

/* Every method's operations (methods/method_*.c): only this table names
 * them. */
extern const cpg_method_ops cpg_mpcg_ops;
extern const cpg_method_ops cpg_mpcg_bw_ops;
extern const cpg_method_ops cpg_upcg_ops;
extern const cpg_method_ops cpg_direct_ops;
extern const cpg_method_ops cpg_corepcg_ops;
extern const cpg_method_ops cpg_icpcg_ops;
extern const cpg_method_ops cpg_auto_ops;

/* From the baseline to the newest; auto last (the benchmark's order). */
const cpg_method_entry cpg_methods[] = {
    {COREPCG_METHOD_MPCG_BW, "mpcg-bw", &cpg_mpcg_bw_ops,
     ITERATES | CPG_TAKES(COREPCG_OPTION_PRECOND), 0, 0},
    {COREPCG_METHOD_MPCG, "mpcg", &cpg_mpcg_ops,
     ITERATES | CPG_TAKES(COREPCG_OPTION_PRECOND), 3, 1},
    {COREPCG_METHOD_UPCG, "upcg", &cpg_upcg_ops,
     ITERATES | CPG_TAKES(COREPCG_OPTION_PRECOND), 0, 0},
    {COREPCG_METHOD_DIRECT, "direct", &cpg_direct_ops, CHOLMOD_ORDERING, 0, 0},
    {COREPCG_METHOD_COREPCG, "corepcg", &cpg_corepcg_ops,
     ITERATES | CHOLMOD_ORDERING | CPG_TAKES(COREPCG_OPTION_CORE) |
         CPG_TAKES(COREPCG_OPTION_CORE_THRESHOLD) |
         CPG_TAKES(COREPCG_OPTION_FALLBACK_UPCG),
     2, 0},
    {COREPCG_METHOD_ICPCG, "icpcg", &cpg_icpcg_ops,
     ITERATES | CPG_TAKES(COREPCG_OPTION_IC_FILL), 1, 0},
    /* auto reads what its candidates read (corepcg_method_takes) */
    {COREPCG_METHOD_AUTO, "auto", &cpg_auto_ops, 0, 0, 0},
};

_Static_assert(sizeof cpg_methods / sizeof cpg_methods[0] == COREPCG_METHOD_COUNT,
               "one row per corepcg_method");

const cpg_method_entry *cpg_method_entry_of(corepcg_method m)
{
    for (int k = 0; k < COREPCG_METHOD_COUNT; k++)
        if (cpg_methods[k].method == m)
            return &cpg_methods[k];
    return NULL;
}

const cpg_method_ops *cpg_method_ops_of(corepcg_method m)
{
    const cpg_method_entry *e = cpg_method_entry_of(m);
    return e ? e->ops : NULL; /* cpg_settings_check refuses any other */
}

int cpg_auto_candidates(corepcg_method *out, int max, int *fallback)
{
    int count = 0;
    *fallback = -1;
    for (int rank = 1; count < max; rank++) {
        const cpg_method_entry *e = NULL;
        for (int k = 0; k < COREPCG_METHOD_COUNT; k++)
            if (cpg_methods[k].auto_rank == rank)
                e = &cpg_methods[k];
        if (!e)
            break;
        if (e->auto_fallback)
            *fallback = count;
        out[count++] = e->method;
    }
    if (*fallback < 0) /* none marked: the last one tried */
        *fallback = count - 1;
    return count;
}

int corepcg_method_at(int k)
{
    return k >= 0 && k < COREPCG_METHOD_COUNT ? (int)cpg_methods[k].method : -1;
}

int corepcg_auto_candidate(int k)
{
    corepcg_method c[COREPCG_METHOD_COUNT];
    int fallback;
    int count = cpg_auto_candidates(c, COREPCG_METHOD_COUNT, &fallback);
    return k >= 0 && k < count ? (int)c[k] : -1;
}

int corepcg_method_takes(int method, int option)
{
    const cpg_method_entry *e = cpg_method_entry_of((corepcg_method)method);
    if (!e || option < 0 || option >= COREPCG_OPTION_COUNT)
        return 0;
    if (e->options & CPG_TAKES(option))
        return 1;
    if (method != COREPCG_METHOD_AUTO)
        return 0;
    for (int k = 0; corepcg_auto_candidate(k) >= 0; k++)
        if (corepcg_method_takes(corepcg_auto_candidate(k), option))
            return 1;
    return 0;
}

const char *corepcg_method_name(int method)
{
    const cpg_method_entry *e = cpg_method_entry_of((corepcg_method)method);
    return e ? e->name : "unknown";
}

int corepcg_method_from_name(const char *name)
{
    if (!name)
        return -1;
    for (int k = 0; k < COREPCG_METHOD_COUNT; k++)
        if (cpg_name_is(name, cpg_methods[k].name))
            return (int)cpg_methods[k].method;
    return -1;
}

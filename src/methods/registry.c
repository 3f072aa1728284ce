/* SPDX-License-Identifier: GPL-2.0-or-later */
/* registry.c -- the one table of methods: each one's enum value, name,
 * operations, the shared settings it reads (its own: its ops), its place
 * among auto's candidates and what its info reports; beside it auto's
 * successor on a breakdown, the values one method alone takes, and the
 * methods' own settings numbered over the rows. The handle finds a
 * method's ops here, auto its candidates and successors, takes.c what
 * each method reads, and the CLI, Python and the benchmark
 * (corepcg_method_at, _reports, corepcg_auto_candidate) the names, the
 * method lists and what to print. How the benchmark draws and compares
 * methods is its own (bench/bench_policy.c). */
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
extern const cpg_method_ops cpg_amgpcg_ops;
extern const cpg_method_ops cpg_auto_ops;

/* From the baseline to the newest; auto last (the order tools list them
 * in). Beside what runs, each row says what its info reports beside its
 * iterations (corepcg_method_reports). */
const cpg_method_entry cpg_methods[] = {
    {.method = COREPCG_METHOD_MPCG_BW, .name = "mpcg-bw", .ops = &cpg_mpcg_bw_ops,
     .options = ITERATES | CPG_TAKES(COREPCG_OPTION_PRECOND)},
    {.method = COREPCG_METHOD_MPCG, .name = "mpcg", .ops = &cpg_mpcg_ops,
     .options = ITERATES | CPG_TAKES(COREPCG_OPTION_PRECOND),
     .auto_rank = 3, .auto_fallback = 1},
    {.method = COREPCG_METHOD_UPCG, .name = "upcg", .ops = &cpg_upcg_ops,
     .options = ITERATES | CPG_TAKES(COREPCG_OPTION_PRECOND)},
    {.method = COREPCG_METHOD_DIRECT, .name = "direct", .ops = &cpg_direct_ops,
     .options = CHOLMOD_ORDERING, .auto_rank = 5, .reports = COREPCG_REPORT_CHOLMOD},
    {.method = COREPCG_METHOD_COREPCG, .name = "corepcg", .ops = &cpg_corepcg_ops,
     .options = ITERATES | CHOLMOD_ORDERING,
     .auto_rank = 2, .reports = COREPCG_REPORT_CHOLMOD | COREPCG_REPORT_CORE},
    {.method = COREPCG_METHOD_ICPCG, .name = "icpcg", .ops = &cpg_icpcg_ops,
     .options = ITERATES,
     .auto_rank = 1, .reports = COREPCG_REPORT_INCOMPLETE},
    {.method = (corepcg_method)COREPCG_METHODS_NAMED, .name = "amgpcg",
     .ops = &cpg_amgpcg_ops, .options = ITERATES, .auto_rank = 4},
    /* auto reads what its candidates read (corepcg_method_takes); its
     * info reports what the one it ran reports */
    {.method = COREPCG_METHOD_AUTO, .name = "auto", .ops = &cpg_auto_ops},
};

/* The rows: one per corepcg_method constant, and any method added since,
 * whose row gives it the next value (the header need not name it). */
#define ROWS ((int)(sizeof cpg_methods / sizeof cpg_methods[0]))
_Static_assert(ROWS >= COREPCG_METHODS_NAMED, "a row for every corepcg_method");

int cpg_method_rows(void)
{
    return ROWS;
}

const cpg_method_entry *cpg_method_entry_of(corepcg_method m)
{
    for (int k = 0; k < ROWS; k++)
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
        for (int k = 0; k < ROWS; k++)
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

/* Auto's policy on a breakdown: icpcg's zero fill drops the stiff
 * in-plane couplings that close each triangle of a mesh, the core holds
 * exactly them (docs/benchmark.md, "IC(0) on triangle meshes"). */
static const struct {
    corepcg_method method, successor;
} breakdown_rules[] = {
    {COREPCG_METHOD_ICPCG, COREPCG_METHOD_COREPCG},
};

int cpg_breakdown_successor(corepcg_method m)
{
    for (size_t k = 0; k < sizeof breakdown_rules / sizeof breakdown_rules[0]; k++)
        if (breakdown_rules[k].method == m)
            return (int)breakdown_rules[k].successor;
    return -1;
}

/* Values of a setting (a CHOICE) that one method alone takes. */
static const struct {
    corepcg_option option;
    int value;
    corepcg_method method;
    const char *why;
} value_rules[] = {
    {COREPCG_OPTION_PRECOND, COREPCG_PRECOND_PROJECTED, COREPCG_METHOD_UPCG,
     "mpcg applies it in effect with diag"},
};

int corepcg_option_value_method(int option, int value, const char **why)
{
    for (size_t k = 0; k < sizeof value_rules / sizeof value_rules[0]; k++)
        if ((int)value_rules[k].option == option && value_rules[k].value == value) {
            if (why)
                *why = value_rules[k].why;
            return (int)value_rules[k].method;
        }
    return -1;
}

int corepcg_method_at(int k)
{
    return k >= 0 && k < ROWS ? (int)cpg_methods[k].method : -1;
}

int corepcg_auto_candidate(int k)
{
    corepcg_method c[ROWS];
    int fallback;
    int count = cpg_auto_candidates(c, ROWS, &fallback);
    return k >= 0 && k < count ? (int)c[k] : -1;
}

int cpg_own_option_declared(void)
{
    int total = 0;
    for (int k = 0; k < ROWS; k++)
        total += cpg_methods[k].ops->own_count;
    return total;
}

int cpg_own_option_total(void)
{
    int declared = cpg_own_option_declared();
    return declared < COREPCG_METHOD_OPTION_SLOTS ? declared : COREPCG_METHOD_OPTION_SLOTS;
}

const cpg_own_option *cpg_own_option_at(int k, corepcg_method *owner)
{
    if (k >= cpg_own_option_total())
        return NULL;
    for (int r = 0; r < ROWS && k >= 0; r++) {
        const cpg_method_ops *ops = cpg_methods[r].ops;
        if (k < ops->own_count) {
            if (owner)
                *owner = cpg_methods[r].method;
            return &ops->own[k];
        }
        k -= ops->own_count;
    }
    return NULL;
}

int cpg_own_option_number(const cpg_own_option *o)
{
    for (int k = 0; k < cpg_own_option_total(); k++)
        if (cpg_own_option_at(k, NULL) == o)
            return k;
    return -1;
}

int corepcg_method_reports(int method)
{
    const cpg_method_entry *e = cpg_method_entry_of((corepcg_method)method);
    return e ? (int)e->reports : 0;
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
    for (int k = 0; k < ROWS; k++)
        if (cpg_name_is(name, cpg_methods[k].name))
            return (int)cpg_methods[k].method;
    return -1;
}

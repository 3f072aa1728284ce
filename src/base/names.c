/* SPDX-License-Identifier: GPL-2.0-or-later */
/* names.c -- the names of the enumerated choices, as the CLI spells them
 * (the methods' are in their table, methods/registry.c), read in any
 * case. */
#include "base.h"

static const char *const auto_reason_names[] = {
    "none", "first", "fastest", "probe", "recheck", "fallback", "breakdown"};
static const char *const precond_names[] = {"diag", "block", "projected"};
static const char *const ordering_names[] = {"best", "amd", "metis", "nesdis"};
static const char *const factor_names[] = {"ldl", "ll", "auto"};
static const char *const core_names[] = {"stretch", "auto"};
static const char *const stop_names[] = {"residual", "preconditioned"};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char *name_of(const char *const *names, int count, int value)
{
    return value >= 0 && value < count ? names[value] : "unknown";
}

/* as the simulator and the CLI read their choices (util/name_is.c) */
static int value_of(const char *const *names, int count, const char *name)
{
    return cpg_name_index(name, names, count);
}

const char *corepcg_precond_name(int v) { return name_of(precond_names, COUNT(precond_names), v); }
const char *corepcg_ordering_name(int v) { return name_of(ordering_names, COUNT(ordering_names), v); }
const char *corepcg_factor_name(int v) { return name_of(factor_names, COUNT(factor_names), v); }
const char *corepcg_core_name(int v) { return name_of(core_names, COUNT(core_names), v); }
const char *corepcg_auto_reason_name(int v)
{
    return name_of(auto_reason_names, COUNT(auto_reason_names), v);
}

int corepcg_precond_from_name(const char *s) { return value_of(precond_names, COUNT(precond_names), s); }
int corepcg_ordering_from_name(const char *s) { return value_of(ordering_names, COUNT(ordering_names), s); }
int corepcg_factor_from_name(const char *s) { return value_of(factor_names, COUNT(factor_names), s); }
int corepcg_core_from_name(const char *s) { return value_of(core_names, COUNT(core_names), s); }
const char *corepcg_stop_name(int v) { return name_of(stop_names, COUNT(stop_names), v); }
int corepcg_stop_from_name(const char *s) { return value_of(stop_names, COUNT(stop_names), s); }

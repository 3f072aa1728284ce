/* SPDX-License-Identifier: GPL-2.0-or-later */
/* solve_report.c -- a solve's report items, printed from their
 * descriptions (solve_report.h): a method that adds an item adds a JSON
 * member and a summary line with no change here. */
#include "solve_report.h"

#include <stdlib.h>
#include <string.h>

int solve_report_take(solve_report *r, const corepcg_solver *h)
{
    r->count = corepcg_info_count();
    r->value = calloc((size_t)r->count + 1, sizeof *r->value);
    r->reported = calloc((size_t)r->count + 1, 1);
    if (!r->value || !r->reported) {
        solve_report_free(r);
        return -1;
    }
    for (int k = 0; k < r->count; k++)
        r->reported[k] = corepcg_info_get(h, k, &r->value[k]) == COREPCG_OK;
    return 0;
}

void solve_report_free(solve_report *r)
{
    free(r->value);
    free(r->reported);
    memset(r, 0, sizeof *r);
}

/* The first item called name: reported, else any (-1: none). */
static int item(const solve_report *r, const char *name, int reported)
{
    for (int k = 0; k < r->count; k++)
        if ((!reported || r->reported[k]) && strcmp(corepcg_info_describe(k)->name, name) == 0)
            return k;
    return -1;
}

int solve_report_find(const solve_report *r, const char *name)
{
    return item(r, name, 1);
}

double solve_report_value(const solve_report *r, const char *name)
{
    int k = item(r, name, 1);
    return k >= 0 ? r->value[k] : 0;
}

/* Items the object held before they were described, under the key and
 * in the words it held them (factor_supernodal: "factor": "ldl"/"ll"). */
static const struct {
    const char *item, *key, *words[2];
} legacy_words[] = {
    {"factor_supernodal", "factor", {"ldl", "ll"}},
};

static int legacy(const char *name)
{
    for (size_t j = 0; j < sizeof legacy_words / sizeof legacy_words[0]; j++)
        if (strcmp(legacy_words[j].item, name) == 0)
            return (int)j;
    return -1;
}

void solve_report_json(FILE *out, const solve_report *r, const char *name)
{
    int k = item(r, name, 1), any = k >= 0 ? k : item(r, name, 0), j = legacy(name);
    int type = any >= 0 ? corepcg_info_describe(any)->type : COREPCG_VALUE_INT;
    double v = k >= 0 ? r->value[k] : 0;
    const char *word = j >= 0 && k >= 0 ? legacy_words[j].words[v != 0] : NULL;
    if (j >= 0)
        fprintf(out, word ? "\"%s\"" : "null", word);
    else if (type == COREPCG_VALUE_SWITCH)
        fputs(v != 0 ? "true" : "false", out);
    else if (type == COREPCG_VALUE_CHOICE && (k < 0 || !corepcg_info_value_name(k, (int)v)))
        fputs("null", out);
    else if (type == COREPCG_VALUE_CHOICE)
        fprintf(out, "\"%s\"", corepcg_info_value_name(k, (int)v));
    else if (type == COREPCG_VALUE_REAL)
        fprintf(out, "%.17g", v);
    else
        fprintf(out, "%ld", (long)v);
}

static int listed(const char *const *names, const char *name)
{
    for (; names && *names; names++)
        if (strcmp(*names, name) == 0)
            return 1;
    return 0;
}

void solve_report_json_rest(FILE *out, const solve_report *r, const char *const *placed)
{
    for (int k = 0; k < r->count; k++) {
        const char *name = corepcg_info_describe(k)->name;
        if (item(r, name, 0) != k || listed(placed, name)) /* once a name */
            continue;
        int j = legacy(name);
        fprintf(out, ", \"%s\": ", j >= 0 ? legacy_words[j].key : name);
        solve_report_json(out, r, name);
    }
}

void solve_report_summary_rest(FILE *out, const solve_report *r, const char *const *shown)
{
    for (int k = 0; k < r->count; k++) {
        const corepcg_info_item *d = corepcg_info_describe(k);
        if (!r->reported[k] || listed(shown, d->name))
            continue;
        double v = r->value[k];
        fprintf(out, "%-17s ", d->name);
        if (d->type == COREPCG_VALUE_SWITCH)
            fputs(v != 0 ? "yes" : "no", out);
        else if (d->type == COREPCG_VALUE_CHOICE)
            fputs(corepcg_info_value_name(k, (int)v) ? corepcg_info_value_name(k, (int)v) : "?", out);
        else if (d->type == COREPCG_VALUE_REAL)
            fprintf(out, "%.6g", v);
        else
            fprintf(out, "%ld", (long)v);
        fprintf(out, "%s%s\n", d->unit[0] ? " " : "", d->unit);
    }
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report.c -- what the methods report beside the iterations, numbered as
 * one list over the table of methods (each method's items are described
 * in its file, cpg_method_ops.report), and the items of a CHOLMOD
 * factorisation that direct and corepcg share. The values are read on a
 * handle by corepcg_info_get (handle/info_items.c). */
#include "method.h"

#include <stddef.h>

int cpg_report_total(void)
{
    int total = 0;
    for (int r = 0; r < cpg_method_rows(); r++)
        total += cpg_methods[r].ops->report_count;
    return total;
}

const cpg_report_item *cpg_report_item_at(int k, corepcg_method *owner)
{
    for (int r = 0; r < cpg_method_rows() && k >= 0; r++) {
        const cpg_method_ops *ops = cpg_methods[r].ops;
        if (k < ops->report_count) {
            if (owner)
                *owner = cpg_methods[r].method;
            return &ops->report[k];
        }
        k -= ops->report_count;
    }
    return NULL;
}

int corepcg_info_count(void)
{
    return cpg_report_total();
}

const corepcg_info_item *corepcg_info_describe(int k)
{
    const cpg_report_item *it = cpg_report_item_at(k, NULL);
    return it ? &it->info : NULL;
}

int corepcg_info_method(int k)
{
    corepcg_method m;
    return cpg_report_item_at(k, &m) ? (int)m : -1;
}

const char *corepcg_info_value_name(int k, int value)
{
    const cpg_report_item *it = cpg_report_item_at(k, NULL);
    if (!it || it->info.type != COREPCG_VALUE_CHOICE || !it->value_name || value < 0)
        return NULL;
    const char *name = it->value_name(value);
    /* the corepcg_*_name functions name a value out of range "unknown" */
    return name && !cpg_name_is(name, "unknown") ? name : NULL;
}

/* A CHOLMOD factorisation's numbers: the method fills them into the
 * record (the kept corepcg_info fields) when it factorises. */
double cpg_report_nnz_factor(const void *state, const corepcg_info *rec)
{
    (void)state;
    return (double)rec->nnz_factor;
}

double cpg_report_ordering(const void *state, const corepcg_info *rec)
{
    (void)state;
    return rec->ordering;
}

double cpg_report_supernodal(const void *state, const corepcg_info *rec)
{
    (void)state;
    return rec->factor_supernodal;
}

double cpg_report_factor_flops(const void *state, const corepcg_info *rec)
{
    (void)state;
    return rec->factor_flops;
}

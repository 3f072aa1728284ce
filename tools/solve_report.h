/* SPDX-License-Identifier: GPL-2.0-or-later */
/* solve_report.h -- what the method of one solve reports (the library's
 * report items, corepcg_info_describe), taken from the handle right after
 * that solve (the warm steps solve again) and printed from the items'
 * descriptions: solve's JSON members and summary lines. */
#ifndef COREPCG_SOLVE_REPORT_H
#define COREPCG_SOLVE_REPORT_H

#include "corepcg.h"

#include <stdio.h>

typedef struct solve_report {
    int count;                /* corepcg_info_count()                  */
    double *value;            /* each item's value; 0 where not reported */
    unsigned char *reported;  /* 1: the method that ran reports it     */
} solve_report;

/* The items of the last solve on h into r. Returns 0, or -1 (out of
 * memory, r then empty: nothing reported). */
int solve_report_take(solve_report *r, const corepcg_solver *h);
void solve_report_free(solve_report *r);

/* The number of the reported item called name, -1 for none. */
int solve_report_find(const solve_report *r, const char *name);
/* Its value, 0 when not reported. */
double solve_report_value(const solve_report *r, const char *name);

/* The JSON value of the item called name as its type says (a number,
 * true/false, a CHOICE's name in quotes), or when not reported what the
 * object has always said then: 0, false or null. */
void solve_report_json(FILE *out, const solve_report *r, const char *name);
/* `, "NAME": VALUE` for each item name, once, in the order described,
 * but those in placed (NULL-terminated: printed elsewhere). */
void solve_report_json_rest(FILE *out, const solve_report *r, const char *const *placed);
/* A summary line `NAME  VALUE UNIT` for each reported item not in shown
 * (NULL-terminated: said by the summary's own lines). */
void solve_report_summary_rest(FILE *out, const solve_report *r, const char *const *shown);

#endif

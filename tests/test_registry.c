/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_registry.c -- the table of methods (src/methods/registry.c) holds
 * together: every row's ops are complete, auto's candidates and breakdown
 * rules name methods whose ops give what auto asks of them. */
#include "auto_model.h"
#include "method.h"
#include "test.h"
#include "tool_methods.h"

static void test_rows(void)
{
    /* a row for every constant of the header; the values 0 .. rows - 1,
     * each once (the tools index by them: util/tool_methods.h) */
    int rows = cpg_method_rows();
    CHECK(rows >= COREPCG_METHODS_NAMED && rows <= TOOL_MAX_METHODS, "%d rows", rows);
    for (int v = 0; v < rows; v++) {
        int found = 0;
        for (int k = 0; k < rows; k++)
            found += (int)cpg_methods[k].method == v;
        CHECK(found == 1, "method value %d: %d rows", v, found);
    }
    for (int k = 0; k < cpg_method_rows(); k++) {
        const cpg_method_entry *e = &cpg_methods[k];
        CHECK(cpg_method_entry_of(e->method) == e, "row %d: %s", k, e->name);
        const cpg_method_ops *ops = e->ops;
        CHECK(ops && ops->state_size > 0 && ops->analyse && ops->same_pattern &&
                  ops->factorise && ops->solve && ops->clear,
              "%s: an operation missing", e->name);
        CHECK(ops && !ops->factorise_until_breakdown == !ops->broke_down,
              "%s: factorise_until_breakdown and broke_down come together",
              e->name);
    }
}

/* A method with a successor on a breakdown can stop at one and say it
 * met one; both it and its successor are auto's candidates. */
static void test_breakdown_rules(void)
{
    int rules = 0;
    corepcg_method cand[64];
    int fallback;
    int count = cpg_auto_candidates(cand, 64, &fallback);
    for (int k = 0; k < cpg_method_rows(); k++) {
        corepcg_method m = cpg_methods[k].method;
        int next = cpg_breakdown_successor(m);
        if (next < 0)
            continue;
        rules++;
        const cpg_method_ops *ops = cpg_method_ops_of(m);
        CHECK(ops->factorise_until_breakdown && ops->broke_down,
              "%s: a breakdown rule without the ops it needs",
              corepcg_method_name(m));
        CHECK(cpg_method_entry_of((corepcg_method)next) && next != (int)m,
              "%s: successor %d", corepcg_method_name(m), next);
        int is_cand = 0, next_cand = 0;
        for (int j = 0; j < count; j++) {
            is_cand |= cand[j] == m;
            next_cand |= (int)cand[j] == next;
        }
        CHECK(is_cand && next_cand, "%s -> %s: not both auto's candidates",
              corepcg_method_name(m), corepcg_method_name(next));
    }
    CHECK(rules >= 1, "no breakdown rule");
    /* every ranked row is a candidate: auto has room for them all */
    int ranked = 0;
    for (int k = 0; k < cpg_method_rows(); k++)
        ranked += cpg_methods[k].auto_rank > 0;
    CHECK(ranked == count && count <= CPG_AUTO_MAX, "%d ranked rows, %d candidates (room for %d)",
          ranked, count, CPG_AUTO_MAX);
    CHECK_INT(cpg_breakdown_successor(cpg_method_rows()), -1);
}

/* What each method's info reports: a CHOLMOD factorisation is what the
 * ordering setting is for. */
static void test_reports(void)
{
    for (int k = 0; k < cpg_method_rows(); k++) {
        int m = corepcg_method_at(k);
        int reports = corepcg_method_reports(m);
        CHECK(!(reports & COREPCG_REPORT_CHOLMOD) ==
                  !(m != COREPCG_METHOD_AUTO && corepcg_method_takes(m, COREPCG_OPTION_ORDERING)),
              "%s: reports %d", corepcg_method_name(m), reports);
    }
    CHECK_INT(corepcg_method_reports(cpg_method_rows()), 0);
}

/* A value one method alone takes: a value of a setting that method
 * takes; the library refuses it for another method, accepts it for that
 * one. */
static void test_value_rules(void)
{
    int rules = 0;
    for (int k = 0; k < corepcg_option_count(); k++)
        for (int v = 0; corepcg_option_value_name(k, v); v++) {
            const char *why = NULL;
            int only = corepcg_option_value_method(k, v, &why);
            if (only < 0)
                continue;
            rules++;
            CHECK(corepcg_method_takes(only, k) && why && why[0], "%s %s: %d",
                  corepcg_option_describe(k)->name, corepcg_option_value_name(k, v), only);
            for (int j = 0; corepcg_method_at(j) >= 0; j++) {
                corepcg_settings s;
                corepcg_settings_default(&s);
                s.method = (corepcg_method)corepcg_method_at(j);
                corepcg_option_set(&s, k, v);
                char msg[COREPCG_MSG_SIZE] = "";
                /* nothing given: the value rules alone */
                unsigned char none[COREPCG_OPTION_COUNT + COREPCG_METHOD_OPTION_SLOTS] = {0};
                int refusal = corepcg_settings_refusal(&s, none, NULL, msg);
                CHECK(refusal == ((int)s.method == only ? COREPCG_REFUSAL_NONE
                                                        : COREPCG_REFUSAL_VALUE),
                      "%s with %s %s: %d %s", corepcg_method_name(s.method),
                      corepcg_option_describe(k)->name, corepcg_option_value_name(k, v),
                      refusal, msg);
            }
        }
    CHECK(rules >= 1, "no value rule");
    CHECK_INT(corepcg_option_value_method(COREPCG_OPTION_PRECOND, COREPCG_PRECOND_DIAG, NULL), -1);
    /* the rules are on named values: none on any other option */
    for (int k = 0; k < corepcg_option_count(); k++)
        if (corepcg_option_describe(k)->type != COREPCG_VALUE_CHOICE)
            for (int v = -1; v <= 2; v++)
                CHECK_INT(corepcg_option_value_method(k, v, NULL), -1);
}

int main(void)
{
    test_value_rules();
    test_rows();
    test_breakdown_rules();
    test_reports();
    return test_summary("test_registry");
}

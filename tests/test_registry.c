/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_registry.c -- the table of methods (src/methods/registry.c) holds
 * together: every row's ops are complete, auto's candidates and breakdown
 * rules name methods whose ops give what auto asks of them. */
#include "method.h"
#include "test.h"

static void test_rows(void)
{
    for (int k = 0; k < COREPCG_METHOD_COUNT; k++) {
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
    corepcg_method cand[COREPCG_METHOD_COUNT];
    int fallback;
    int count = cpg_auto_candidates(cand, COREPCG_METHOD_COUNT, &fallback);
    for (int k = 0; k < COREPCG_METHOD_COUNT; k++) {
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
    CHECK_INT(cpg_breakdown_successor(COREPCG_METHOD_COUNT), -1);
}

int main(void)
{
    test_rows();
    test_breakdown_rules();
    return test_summary("test_registry");
}

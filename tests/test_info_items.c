/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_info_items.c -- the report items (corepcg_info_count, _describe,
 * _get): each is declared by the row of its method, and after a solve by
 * every method on every bundle of data/ each item of the method that ran
 * equals the kept corepcg_info field of its name (an item of a method
 * added since, which has none: is finite and not negative), while the
 * items of the other methods are refused (ERR_STATE). */
#include "method.h"
#include "test.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* The kept corepcg_info fields an item may stand for. */
static int legacy(const corepcg_info *in, const char *name, double *v)
{
    static const struct {
        const char *name;
        size_t offset;
        char kind; /* i int, l long, d double */
    } fields[] = {
#define F(f, k) {#f, offsetof(corepcg_info, f), k}
        F(fell_back, 'i'), F(nnz_core, 'l'), F(nnz_factor, 'l'),
        F(core_blocks, 'l'), F(core_compensated, 'i'), F(ordering, 'i'),
        F(factor_supernodal, 'i'), F(ic_fill, 'i'), F(ic_shift, 'd'),
        F(ic_retries, 'i'), F(ic_compensation, 'd'), F(factor_flops, 'd'),
#undef F
    };
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
        if (strcmp(fields[k].name, name) != 0)
            continue;
        const char *p = (const char *)in + fields[k].offset;
        *v = fields[k].kind == 'i'   ? *(const int *)p
             : fields[k].kind == 'l' ? (double)*(const long *)p
                                     : *(const double *)p;
        return 1;
    }
    return 0;
}

/* Each item described, in its row's order, by the method of that row. */
static void test_described(void)
{
    int count = corepcg_info_count(), k = 0;
    CHECK(count == 20, "%d items", count); /* direct 4, corepcg 8, icpcg 5, amgpcg 3 */
    for (int r = 0; r < cpg_method_rows(); r++) {
        const cpg_method_ops *ops = cpg_methods[r].ops;
        for (int j = 0; j < ops->report_count; j++, k++) {
            const corepcg_info_item *d = corepcg_info_describe(k);
            CHECK(d == &ops->report[j].info, "item %d", k);
            CHECK(d && corepcg_info_method(k) == (int)cpg_methods[r].method && d->name && d->help &&
                      d->unit && ops->report[j].value,
                  "item %d (%s) of %s", k, d ? d->name : "?", cpg_methods[r].name);
            double v;
            corepcg_info none;
            memset(&none, 0, sizeof none);
            int added = (int)cpg_methods[r].method >= COREPCG_METHODS_NAMED;
            CHECK(d && legacy(&none, d->name, &v) != added, "item %s: %s kept field", d ? d->name : "?",
                  added ? "a" : "no");
            CHECK(d && (d->type == COREPCG_VALUE_CHOICE) == (ops->report[j].value_name != NULL),
                  "item %d: value names for a CHOICE", k);
        }
    }
    CHECK_INT(k, count);
    CHECK(corepcg_info_describe(count) == NULL && corepcg_info_describe(-1) == NULL &&
              corepcg_info_method(count) == -1 && corepcg_info_method(-1) == -1,
          "past the last");
    for (int j = 0; j < count; j++)
        if (strcmp(corepcg_info_describe(j)->name, "ordering") == 0) {
            CHECK(strcmp(corepcg_info_value_name(j, COREPCG_ORDERING_AMD), "amd") == 0,
                  "ordering amd");
            CHECK(corepcg_info_value_name(j, COREPCG_ORDERING_COUNT) == NULL, "out of range");
        } else {
            CHECK(corepcg_info_value_name(j, 0) == NULL, "%d: no CHOICE", j);
        }
}

/* Every item on h against the kept fields of in: equal for the method
 * that ran, refused for the others. Returns how many were equal. */
static int compare(const corepcg_solver *h, const corepcg_info *in, const char *what)
{
    int reported = 0;
    for (int k = 0; k < corepcg_info_count(); k++) {
        const corepcg_info_item *d = corepcg_info_describe(k);
        double got = -1, want = 0;
        int rc = corepcg_info_get(h, k, &got);
        if (corepcg_info_method(k) != (int)in->method_used) {
            CHECK(rc == COREPCG_ERR_STATE && got == 0, "%s: %s of %s given (%d)", what, d->name,
                  corepcg_method_name(corepcg_info_method(k)), rc);
            continue;
        }
        if (legacy(in, d->name, &want))
            CHECK(rc == COREPCG_OK && got == want, "%s: %s = %.17g, field %.17g (rc %d)", what,
                  d->name, got, want, rc);
        else
            CHECK(rc == COREPCG_OK && isfinite(got) && got >= 0, "%s: %s = %.17g (rc %d)", what,
                  d->name, got, rc);
        reported++;
    }
    return reported;
}

/* Every method on every bundle: solve, compare; then an update, which
 * the items follow until the next solve. */
static void test_values(const char *bundle)
{
    char dir[1024], msg[COREPCG_MSG_SIZE];
    snprintf(dir, sizeof dir, "%s/%s", COREPCG_DATA_DIR, bundle);
    corepcg_bundle *bd = NULL;
    int rc = corepcg_bundle_read(dir, &bd, msg);
    CHECK(rc == COREPCG_OK, "%s: %s", dir, msg);
    if (rc != COREPCG_OK)
        return;
    int n = 3 * bd->system.num_nodes;
    double *x = malloc(sizeof(double) * (size_t)n);
    for (int r = 0; x && corepcg_method_at(r) >= 0; r++) {
        int m = corepcg_method_at(r);
        char what[256];
        snprintf(what, sizeof what, "%s, %s", bundle, corepcg_method_name(m));
        corepcg_solver *h = NULL;
        CHECK_INT(corepcg_create(&h), COREPCG_OK);
        double v = 5;
        CHECK_INT(corepcg_info_get(h, 0, &v), COREPCG_ERR_STATE); /* nothing set up */
        CHECK(v == 0, "%s: %g before setup", what, v);
        corepcg_settings s;
        corepcg_settings_default(&s);
        s.method = (corepcg_method)m;
        CHECK_INT(corepcg_setup(h, &bd->system, &s), COREPCG_OK);
        corepcg_info info;
        rc = corepcg_solve(h, bd->b, bd->x0, x, &info);
        CHECK(rc >= 0, "%s: solve %d", what, rc);
        int reported = compare(h, &info, what);
        /* the kept fields' flags, or (a method added since) items alone */
        int declared = corepcg_method_reports(info.method_used) ||
                       cpg_method_ops_of(info.method_used)->report_count > 0;
        CHECK((reported > 0) == declared, "%s: %d items of %s", what, reported,
              corepcg_method_name(info.method_used));
        corepcg_info up;
        CHECK(corepcg_update(h, &bd->system, &up) >= 0, "%s: update", what);
        compare(h, &up, what);
        CHECK_INT(corepcg_info_get(h, corepcg_info_count(), &v), COREPCG_ERR_ARGUMENT);
        CHECK_INT(corepcg_info_get(h, -1, &v), COREPCG_ERR_ARGUMENT);
        CHECK_INT(corepcg_info_get(NULL, 0, &v), COREPCG_ERR_ARGUMENT);
        CHECK_INT(corepcg_info_get(h, 0, NULL), COREPCG_ERR_ARGUMENT);
        corepcg_free(&h);
    }
    free(x);
    corepcg_bundle_free(&bd);
}

int main(void)
{
    test_described();
    test_values("tiny");
    test_values("ballhit41-k60");
    test_values("ballhit41-k6000");
    return test_summary("test_info_items");
}

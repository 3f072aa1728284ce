/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_options.c -- every setting's description (src/handle/options.c)
 * agrees with what the library does: the defaults are the descriptions',
 * the library accepts every value a description allows, a CHOICE's
 * values are named, the CLI's flag is the name's spelling, a family is
 * taken by the same methods. */
#include "base.h"
#include "test.h"

#include <ctype.h>

/* s with option set to value: accepted by the library's check for one of
 * the methods that take it (precond projected is upcg's alone)? */
static int accepted(int option, double value)
{
    int ok = 0;
    for (int j = 0; corepcg_method_at(j) >= 0; j++) {
        corepcg_settings s;
        corepcg_settings_default(&s);
        s.method = (corepcg_method)corepcg_method_at(j);
        char msg[COREPCG_MSG_SIZE];
        CHECK_INT(corepcg_option_set(&s, option, value), COREPCG_OK);
        ok |= corepcg_method_takes(s.method, option) &&
              cpg_settings_check(&s, msg) == COREPCG_OK;
    }
    return ok;
}

static void test_defaults(void)
{
    corepcg_settings s;
    memset(&s, 0xab, sizeof s);
    corepcg_settings_default(&s);
    for (int k = 0; k < COREPCG_OPTION_COUNT; k++) {
        const corepcg_option_info *d = corepcg_option_describe(k);
        CHECK(corepcg_option_get(&s, k) == d->default_value, "%s: %g, described %g",
              d->name, corepcg_option_get(&s, k), d->default_value);
    }
    /* by hand, the fields the descriptions name */
    CHECK(s.tol == COREPCG_DEFAULT_TOL && s.max_iter == COREPCG_DEFAULT_MAX_ITER &&
              s.core_threshold == COREPCG_DEFAULT_CORE_THRESHOLD &&
              s.ordering == COREPCG_ORDERING_NESDIS && s.factor == COREPCG_FACTOR_AUTO &&
              s.precond == COREPCG_PRECOND_DIAG && s.core == COREPCG_CORE_STRETCH &&
              s.stop == COREPCG_STOP_RESIDUAL && s.fallback_upcg == 0 && s.ic_fill == 0 &&
              s.method == COREPCG_METHOD_AUTO && s.monitor == NULL,
          "a default");
    CHECK(corepcg_option_describe(COREPCG_OPTION_COUNT) == NULL &&
              corepcg_option_describe(-1) == NULL, "past the table");
    CHECK_INT(corepcg_option_set(&s, COREPCG_OPTION_COUNT, 1), COREPCG_ERR_ARGUMENT);
    CHECK(isnan(corepcg_option_get(&s, -1)), "get past the table");
}

/* set then get: the field the description names, by its type */
static void test_set_get(void)
{
    corepcg_settings s;
    corepcg_settings_default(&s);
    corepcg_option_set(&s, COREPCG_OPTION_CORE_THRESHOLD, 0.25);
    corepcg_option_set(&s, COREPCG_OPTION_MAX_ITER, 77);
    corepcg_option_set(&s, COREPCG_OPTION_STOP, COREPCG_STOP_PRECONDITIONED);
    CHECK(s.core_threshold == 0.25 && s.max_iter == 77 &&
              s.stop == COREPCG_STOP_PRECONDITIONED && s.tol == COREPCG_DEFAULT_TOL,
          "set: %g %d %d", s.core_threshold, s.max_iter, (int)s.stop);
}

static void test_ranges(void)
{
    for (int k = 0; k < COREPCG_OPTION_COUNT; k++) {
        const corepcg_option_info *d = corepcg_option_describe(k);
        CHECK(d->min <= d->default_value && d->default_value <= d->max, "%s: default", d->name);
        CHECK(accepted(k, d->min) && accepted(k, d->max), "%s: [%g, %g] refused",
              d->name, d->min, d->max);
        if (d->type == COREPCG_VALUE_REAL)
            continue;
        CHECK(d->type != COREPCG_VALUE_SWITCH || (d->min == 0 && d->max == 1), "%s", d->name);
        if (d->max <= 1e6) /* a bound the library has: past it refused */
            CHECK(!accepted(k, d->max + 1), "%s: %g accepted", d->name, d->max + 1);
        CHECK(!accepted(k, d->min - 1), "%s: %g accepted", d->name, d->min - 1);
        if (d->type != COREPCG_VALUE_CHOICE) {
            CHECK(corepcg_option_value_name(k, 0) == NULL, "%s: no names", d->name);
            continue;
        }
        for (int v = 0; v <= (int)d->max; v++) {
            const char *name = corepcg_option_value_name(k, v);
            CHECK(name && corepcg_option_value_from_name(k, name) == v, "%s: value %d",
                  d->name, v);
            char upper[32] = "";
            for (size_t c = 0; name && name[c] && c + 1 < sizeof upper; c++)
                upper[c] = (char)toupper((unsigned char)name[c]);
            CHECK(corepcg_option_value_from_name(k, upper) == v, "%s: %s, in any case",
                  d->name, upper); /* as the library's *_from_name read names */
        }
        CHECK(corepcg_option_value_name(k, (int)d->max + 1) == NULL, "%s", d->name);
        CHECK_INT(corepcg_option_value_from_name(k, "no such value"), -1);
    }
    CHECK(!accepted(COREPCG_OPTION_TOL, 0) && !accepted(COREPCG_OPTION_TOL, 1), "tol's bounds");
}

/* --core-threshold for core_threshold; a switch: --fallback for
 * fallback_upcg. */
static void test_flags(void)
{
    for (int k = 0; k < COREPCG_OPTION_COUNT; k++) {
        const corepcg_option_info *d = corepcg_option_describe(k);
        char spelt[64];
        snprintf(spelt, sizeof spelt, "--%s", d->name);
        for (char *c = spelt; *c; c++)
            *c = *c == '_' ? '-' : *c;
        if (d->type == COREPCG_VALUE_SWITCH) {
            size_t stem = strlen(d->flag);
            CHECK(strncmp(spelt, d->flag, stem) == 0 && spelt[stem] == '-' &&
                      spelt[stem + 1] != '\0',
                  "%s: switch %s is not --STEM WORD", d->name, d->flag);
        } else {
            CHECK(strcmp(spelt, d->flag) == 0, "%s: flag %s", d->name, d->flag);
        }
        CHECK(d->help && d->help[0] && !strchr(d->help, '\n'), "%s: help", d->name);
        for (int j = 0; j < k; j++)
            CHECK(strcmp(d->name, corepcg_option_describe(j)->name) != 0, "%s twice", d->name);
    }
}

/* A family is read by the same methods: its one refusal is right for
 * each; every option is read by some method; an option read only while
 * another has a value needs one of that CHOICE's values. */
static void test_families(void)
{
    for (int k = 0; k < COREPCG_OPTION_COUNT; k++) {
        const corepcg_option_info *d = corepcg_option_describe(k);
        CHECK(d->family >= 0 && d->family <= k &&
                  corepcg_option_describe(d->family)->family == d->family,
              "%s: family %d", d->name, d->family);
        int takers = 0;
        for (int j = 0; corepcg_method_at(j) >= 0; j++) {
            int m = corepcg_method_at(j);
            takers += corepcg_method_takes(m, k);
            CHECK(corepcg_method_takes(m, k) == corepcg_method_takes(m, d->family),
                  "%s and its family's %s: %s", d->name,
                  corepcg_option_describe(d->family)->name, corepcg_method_name(m));
        }
        CHECK(takers > 0, "%s: no method takes it", d->name);
        if (d->needs >= 0) {
            const corepcg_option_info *n = corepcg_option_describe(d->needs);
            CHECK(n && d->needs != k && n->type == COREPCG_VALUE_CHOICE &&
                      d->needs_value >= 0 && d->needs_value <= n->max,
                  "%s needs %d = %d", d->name, d->needs, d->needs_value);
        }
    }
}

int main(void)
{
    test_defaults();
    test_set_get();
    test_ranges();
    test_flags();
    test_families();
    return test_summary("test_options");
}

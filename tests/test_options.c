/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_options.c -- every setting's description (src/methods/options.c,
 * and each method's own in its file) agrees with what the library does:
 * the defaults are the descriptions', the library accepts every value a
 * description allows and refuses those past its bounds, a CHOICE's values
 * are named, the CLI's flag is the name's spelling, a family is taken by
 * the same methods; a shared setting is read by two methods or more, a
 * method's own by that method alone, and the own ones fit the room
 * settings have for them. */
#include "method.h"
#include "test.h"

#include <ctype.h>

/* s with option set to value (and what it needs, core auto for
 * core_threshold): accepted by the library's check for one of the
 * methods that take it (precond projected is upcg's alone)? */
static int accepted(int option, double value)
{
    int ok = 0;
    const corepcg_option_info *d = corepcg_option_describe(option);
    for (int j = 0; corepcg_method_at(j) >= 0; j++) {
        corepcg_settings s;
        corepcg_settings_default(&s);
        s.method = (corepcg_method)corepcg_method_at(j);
        char msg[COREPCG_MSG_SIZE];
        if (d->needs)
            corepcg_option_set(&s, corepcg_option_from_name(d->needs), d->needs_value);
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
    for (int k = 0; k < corepcg_option_count(); k++) {
        const corepcg_option_info *d = corepcg_option_describe(k);
        CHECK(corepcg_option_get(&s, k) == d->default_value, "%s: %g, described %g",
              d->name, corepcg_option_get(&s, k), d->default_value);
    }
    /* by hand, the fields the descriptions name and the own ones by name */
    CHECK(s.tol == COREPCG_DEFAULT_TOL && s.max_iter == COREPCG_DEFAULT_MAX_ITER &&
              s.ordering == COREPCG_ORDERING_NESDIS && s.factor == COREPCG_FACTOR_AUTO &&
              s.precond == COREPCG_PRECOND_DIAG && s.stop == COREPCG_STOP_RESIDUAL &&
              s.method == COREPCG_METHOD_AUTO && s.monitor == NULL,
          "a default");
    CHECK(corepcg_option_get(&s, corepcg_option_from_name("core_threshold")) ==
                  COREPCG_DEFAULT_CORE_THRESHOLD &&
              corepcg_option_get(&s, corepcg_option_from_name("core")) == COREPCG_CORE_STRETCH &&
              corepcg_option_get(&s, corepcg_option_from_name("fallback_upcg")) == 0 &&
              corepcg_option_get(&s, corepcg_option_from_name("ic_fill")) == 0,
          "an own default");
    for (int k = cpg_own_option_total(); k < COREPCG_METHOD_OPTION_SLOTS; k++)
        CHECK(s.method_options[k] == 0, "slot %d unused but set", k);
    int count = corepcg_option_count();
    CHECK(corepcg_option_describe(count) == NULL && corepcg_option_describe(-1) == NULL,
          "past the table");
    CHECK_INT(corepcg_option_set(&s, count, 1), COREPCG_ERR_ARGUMENT);
    CHECK(isnan(corepcg_option_get(&s, -1)) && isnan(corepcg_option_get(&s, count)),
          "get past the table");
}

/* The numbering: shared options first, then the methods' own, each found
 * by its name in any case, all of them in the room settings have. */
static void test_numbers(void)
{
    int count = corepcg_option_count();
    CHECK(count - COREPCG_OPTION_COUNT == cpg_own_option_total() &&
              cpg_own_option_declared() == cpg_own_option_total(),
          "the methods declare %d own options, settings have room for %d",
          cpg_own_option_declared(), COREPCG_METHOD_OPTION_SLOTS);
    for (int k = 0; k < count; k++) {
        const char *name = corepcg_option_describe(k)->name;
        char upper[64] = "";
        for (size_t c = 0; name[c] && c + 1 < sizeof upper; c++)
            upper[c] = (char)toupper((unsigned char)name[c]);
        CHECK(corepcg_option_from_name(name) == k && corepcg_option_from_name(upper) == k,
              "%s: number %d", name, corepcg_option_from_name(name));
        if (k >= COREPCG_OPTION_COUNT) {
            const cpg_own_option *o = cpg_own_option_at(k - COREPCG_OPTION_COUNT, NULL);
            CHECK(o && &o->info == corepcg_option_describe(k) &&
                      cpg_own_option_number(o) == k - COREPCG_OPTION_COUNT,
                  "%s: own number", name);
        }
    }
    CHECK(corepcg_option_from_name("no_such_option") == -1 && corepcg_option_from_name(NULL) == -1,
          "an unknown name");
}

/* set then get: the field the description names, by its type, or the
 * own option's slot */
static void test_set_get(void)
{
    corepcg_settings s;
    corepcg_settings_default(&s);
    int threshold = corepcg_option_from_name("core_threshold");
    corepcg_option_set(&s, threshold, 0.25);
    corepcg_option_set(&s, COREPCG_OPTION_MAX_ITER, 77);
    corepcg_option_set(&s, COREPCG_OPTION_STOP, COREPCG_STOP_PRECONDITIONED);
    CHECK(s.method_options[threshold - COREPCG_OPTION_COUNT] == 0.25 &&
              corepcg_option_get(&s, threshold) == 0.25 && s.max_iter == 77 &&
              s.stop == COREPCG_STOP_PRECONDITIONED && s.tol == COREPCG_DEFAULT_TOL,
          "set: %g %d %d", corepcg_option_get(&s, threshold), s.max_iter, (int)s.stop);
    /* a whole-number option given a fraction is refused, not truncated:
     * by corepcg_option_set, shared or own, and by setup when written
     * into the slot directly */
    int fill = corepcg_option_from_name("ic_fill");
    CHECK(corepcg_option_set(&s, fill, 0.5) == COREPCG_ERR_ARGUMENT &&
              corepcg_option_set(&s, COREPCG_OPTION_MAX_ITER, 10.5) == COREPCG_ERR_ARGUMENT &&
              corepcg_option_set(&s, COREPCG_OPTION_STOP, NAN) == COREPCG_ERR_ARGUMENT &&
              corepcg_option_set(&s, COREPCG_OPTION_MAX_ITER, 1e20) == COREPCG_ERR_ARGUMENT &&
              corepcg_option_get(&s, fill) == 0 && s.max_iter == 77 &&
              s.stop == COREPCG_STOP_PRECONDITIONED,
          "a fraction set: fill %g, max_iter %d", corepcg_option_get(&s, fill), s.max_iter);
    char msg[COREPCG_MSG_SIZE];
    s.method = COREPCG_METHOD_ICPCG;
    CHECK(fill >= COREPCG_OPTION_COUNT, "ic_fill: number %d", fill);
    if (fill < COREPCG_OPTION_COUNT)
        return;
    s.method_options[fill - COREPCG_OPTION_COUNT] = 0.5;
    CHECK(cpg_settings_check(&s, msg) == COREPCG_ERR_ARGUMENT && strstr(msg, "ic_fill"),
          "ic_fill 0.5: %s", msg);
}

static void test_ranges(void)
{
    for (int k = 0; k < corepcg_option_count(); k++) {
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
    for (int k = 0; k < corepcg_option_count(); k++) {
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
 * each; a shared option is read by two methods or more (auto aside), a
 * method's own by one; an option read only while another has a value
 * needs one of that CHOICE's values. */
static void test_families(void)
{
    for (int k = 0; k < corepcg_option_count(); k++) {
        const corepcg_option_info *d = corepcg_option_describe(k);
        int family = d->family ? corepcg_option_from_name(d->family) : k;
        CHECK(family >= 0 && family <= k && !corepcg_option_describe(family)->family,
              "%s: family %s", d->name, d->family);
        if (family < 0)
            continue;
        int takers = 0;
        for (int j = 0; corepcg_method_at(j) >= 0; j++) {
            int m = corepcg_method_at(j);
            takers += m != COREPCG_METHOD_AUTO && corepcg_method_takes(m, k);
            CHECK(corepcg_method_takes(m, k) == corepcg_method_takes(m, family),
                  "%s and its family's %s: %s", d->name,
                  corepcg_option_describe(family)->name, corepcg_method_name(m));
        }
        if (k < COREPCG_OPTION_COUNT)
            CHECK(takers >= 2, "%s: shared, taken by %d method", d->name, takers);
        else
            CHECK(takers == 1, "%s: a method's own, taken by %d", d->name, takers);
        if (d->needs) {
            int needs = corepcg_option_from_name(d->needs);
            const corepcg_option_info *n = corepcg_option_describe(needs);
            CHECK(n && needs != k && n->type == COREPCG_VALUE_CHOICE &&
                      d->needs_value >= 0 && d->needs_value <= n->max,
                  "%s needs %s = %d", d->name, d->needs, d->needs_value);
        }
    }
}

/* Which settings go with which method (corepcg_settings_refusal), as
 * setup applies it (given NULL: the options that differ from their
 * defaults) and the CLI and Python (the options given). */
static void test_refusals(void)
{
    char msg[COREPCG_MSG_SIZE];
    int option = -1;
    /* the defaults go with every method */
    for (int j = 0; corepcg_method_at(j) >= 0; j++) {
        corepcg_settings s;
        corepcg_settings_default(&s);
        s.method = (corepcg_method)corepcg_method_at(j);
        CHECK(corepcg_settings_refusal(&s, NULL, &option, msg) == COREPCG_REFUSAL_NONE &&
                  cpg_settings_check(&s, msg) == COREPCG_OK,
              "%s: defaults refused: %s", corepcg_method_name(s.method), msg);
    }
    corepcg_settings s;
    corepcg_settings_default(&s);
    s.method = COREPCG_METHOD_DIRECT;
    /* set to its default: never refused by setup */
    corepcg_option_set(&s, COREPCG_OPTION_TOL, COREPCG_DEFAULT_TOL);
    CHECK_INT(cpg_settings_check(&s, msg), COREPCG_OK);
    /* but given (the CLI's --tol 1e-5 with direct): refused */
    unsigned char given[COREPCG_OPTION_COUNT + COREPCG_METHOD_OPTION_SLOTS] = {0};
    given[COREPCG_OPTION_MAX_ITER] = 1;
    CHECK_INT(corepcg_settings_refusal(&s, given, &option, msg), COREPCG_REFUSAL_METHOD);
    CHECK_INT(option, COREPCG_OPTION_MAX_ITER);
    /* a value direct ignores: refused by setup, naming the setting and
     * the methods that take it */
    corepcg_option_set(&s, COREPCG_OPTION_TOL, 1e-3);
    CHECK_INT(cpg_settings_check(&s, msg), COREPCG_ERR_ARGUMENT);
    CHECK(strcmp(msg, "settings: method 'direct' does not take tol (it is for mpcg-bw, mpcg, "
                      "upcg, corepcg, icpcg, amgpcg and auto)") == 0,
          "%s", msg);
    /* a method's own setting: its method and auto take it, no other */
    int fill = corepcg_option_from_name("ic_fill");
    corepcg_settings_default(&s);
    corepcg_option_set(&s, fill, 1);
    s.method = COREPCG_METHOD_MPCG;
    CHECK_INT(corepcg_settings_refusal(&s, NULL, &option, msg), COREPCG_REFUSAL_METHOD);
    CHECK(option == fill && strcmp(msg, "settings: method 'mpcg' does not take ic_fill (it is "
                                        "for icpcg and auto)") == 0,
          "%d %s", option, msg);
    s.method = COREPCG_METHOD_AUTO;
    CHECK_INT(cpg_settings_check(&s, msg), COREPCG_OK);
    s.method = COREPCG_METHOD_ICPCG;
    CHECK_INT(cpg_settings_check(&s, msg), COREPCG_OK);
    /* a value one method alone takes */
    corepcg_settings_default(&s);
    s.method = COREPCG_METHOD_MPCG;
    s.precond = COREPCG_PRECOND_PROJECTED;
    CHECK_INT(corepcg_settings_refusal(&s, NULL, &option, msg), COREPCG_REFUSAL_VALUE);
    CHECK(option == COREPCG_OPTION_PRECOND &&
              strcmp(msg, "settings: method 'mpcg' does not take precond='projected' "
                          "(projected is for upcg; mpcg applies it in effect with diag)") == 0,
          "%s", msg);
    s.method = COREPCG_METHOD_UPCG;
    CHECK_INT(cpg_settings_check(&s, msg), COREPCG_OK);
    /* a setting read only while another has a value */
    int threshold = corepcg_option_from_name("core_threshold");
    corepcg_settings_default(&s);
    s.method = COREPCG_METHOD_COREPCG;
    corepcg_option_set(&s, threshold, 0.1);
    CHECK_INT(corepcg_settings_refusal(&s, NULL, &option, msg), COREPCG_REFUSAL_NEEDS);
    CHECK(option == threshold &&
              strcmp(msg, "settings: core_threshold is for core='auto', not core='stretch'") == 0,
          "%s", msg);
    CHECK_INT(cpg_settings_check(&s, msg), COREPCG_ERR_ARGUMENT);
    corepcg_option_set(&s, corepcg_option_from_name("core"), COREPCG_CORE_AUTO);
    CHECK_INT(cpg_settings_check(&s, msg), COREPCG_OK);
    /* no settings, an unknown method: nothing to say here (setup refuses
     * the method itself) */
    CHECK_INT(corepcg_settings_refusal(NULL, NULL, NULL, NULL), COREPCG_REFUSAL_NONE);
    int unknown = COREPCG_METHODS_NAMED;
    for (int k = 0; corepcg_method_at(k) >= 0; k++)
        if (corepcg_method_at(k) >= unknown)
            unknown = corepcg_method_at(k) + 1; /* past the rows added since */
    s.method = (corepcg_method)unknown;
    CHECK_INT(corepcg_settings_refusal(&s, NULL, NULL, NULL), COREPCG_REFUSAL_NONE);
}

int main(void)
{
    test_defaults();
    test_numbers();
    test_set_get();
    test_ranges();
    test_flags();
    test_families();
    test_refusals();
    return test_summary("test_options");
}

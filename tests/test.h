/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test.h -- checks that always run (not assert, which -Db_ndebug removes)
 * and print what was expected, what came and the tolerance. Each test
 * executable ends with `return test_summary("name");`. */
#ifndef COREPCG_TEST_H
#define COREPCG_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_checks_run;
static int test_checks_failed;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        test_checks_run++;                                                   \
        if (!(cond)) {                                                       \
            test_checks_failed++;                                            \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, \
                    #cond);                                                  \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
        }                                                                    \
    } while (0)

/* |got - want| <= tol (NaN fails). */
#define CHECK_NEAR(got, want, tol)                                           \
    do {                                                                     \
        double g_ = (got), w_ = (want), t_ = (tol);                          \
        CHECK(fabs(g_ - w_) <= t_, "%s = %.17g, expected %.17g +- %g", #got, \
              g_, w_, t_);                                                   \
    } while (0)

/* got <= bound (NaN fails). */
#define CHECK_LE(got, bound)                                                 \
    do {                                                                     \
        double g_ = (got), b_ = (bound);                                     \
        CHECK(g_ <= b_, "%s = %.17g, expected <= %g", #got, g_, b_);         \
    } while (0)

#define CHECK_INT(got, want)                                                 \
    do {                                                                     \
        long g_ = (long)(got), w_ = (long)(want);                            \
        CHECK(g_ == w_, "%s = %ld, expected %ld", #got, g_, w_);             \
    } while (0)

#define CHECK_STR_CONTAINS(text, part)                                       \
    do {                                                                     \
        const char *t_ = (text), *p_ = (part);                               \
        CHECK(t_ && strstr(t_, p_), "%s = \"%s\", expected to contain "      \
              "\"%s\"", #text, t_ ? t_ : "(null)", p_);                      \
    } while (0)

static inline int test_summary(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, test_checks_run,
           test_checks_failed);
    return test_checks_failed == 0 && test_checks_run > 0 ? 0 : 1;
}

#endif

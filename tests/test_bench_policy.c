/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_bench_policy.c -- the benchmark's view of the methods
 * (bench/bench_policy.c): every method of the library can be drawn (a
 * colour of its own, a marker the chart knows, a line), a name the
 * bench's table does not list gets the default style, the comparisons
 * name two methods each, and the warm-up methods iterate without a
 * CHOLMOD factorisation. */
#include "bench_policy.h"
#include "test.h"

#include <string.h>

static int known_marker(const char *marker)
{
    static const char *const markers[] = {"circle", "square", "triangle",
                                          "triangle-down", "diamond", "ring"};
    for (size_t j = 0; marker && j < sizeof markers / sizeof markers[0]; j++)
        if (strcmp(marker, markers[j]) == 0)
            return 1;
    return 0;
}

static void test_styles(void)
{
    for (int k = 0; corepcg_method_at(k) >= 0; k++) {
        int m = corepcg_method_at(k);
        const char *color = bench_method_color(m);
        CHECK(color[0] == '#' && strlen(color) == 7, "%s: colour %s",
              corepcg_method_name(m), color);
        CHECK(strcmp(color, "#7f7f7f") != 0, "%s: the default colour",
              corepcg_method_name(m));
        for (int j = 0; j < k; j++)
            CHECK(strcmp(color, bench_method_color(corepcg_method_at(j))) != 0,
                  "%s and %s share a colour", corepcg_method_name(m),
                  corepcg_method_name(corepcg_method_at(j)));
        CHECK(known_marker(bench_method_marker(m)), "%s: marker %s",
              corepcg_method_name(m), bench_method_marker(m));
        CHECK(bench_method_line_width(m) > 0, "%s: line width", corepcg_method_name(m));
    }
    /* the paper's method is drawn over the others, auto as a ring */
    int corepcg = corepcg_method_from_name("corepcg");
    CHECK_INT(bench_method_line_width(corepcg), 3);
    CHECK(strcmp(bench_method_color(corepcg), "#d62728") == 0, "corepcg: %s",
          bench_method_color(corepcg));
    CHECK(strcmp(bench_method_marker(corepcg_method_from_name("auto")), "ring") == 0,
          "auto: %s", bench_method_marker(corepcg_method_from_name("auto")));
    /* a value no row names (a method the table does not list) */
    CHECK(strcmp(bench_method_color(-1), "#7f7f7f") == 0, "default colour %s",
          bench_method_color(-1));
    CHECK(strcmp(bench_method_marker(1000), "circle") == 0, "default marker %s",
          bench_method_marker(1000));
    CHECK_INT(bench_method_line_width(1000), 2);
}

static void test_comparisons(void)
{
    int a = -1, b = -1, what, count = 0, iterations = 0;
    for (int k = 0; (what = bench_comparison(k, &a, &b)) >= 0; k++, count++) {
        CHECK(what <= BENCH_COMPARE_ITERATION_GAP && a != b &&
                  strcmp(corepcg_method_name(a), "unknown") != 0 &&
                  strcmp(corepcg_method_name(b), "unknown") != 0,
              "comparison %d: %d against %d (%d)", k, a, b, what);
        iterations += what != BENCH_COMPARE_TIME;
    }
    CHECK_INT(count, 7);
    CHECK_INT(iterations, 2);
    a = b = -7;
    CHECK(bench_comparison(count, &a, &b) == -1 && a == -7 && b == -7, "past the last");
    CHECK(bench_comparison(0, &a, &b) == BENCH_COMPARE_ITERATIONS &&
              strcmp(corepcg_method_name(a), "mpcg") == 0 &&
              strcmp(corepcg_method_name(b), "mpcg-bw") == 0,
          "the first: %d against %d", a, b);
}

static void test_warmups(void)
{
    for (int mesh = 0; mesh <= 1; mesh++)
        for (int attempt = 0; attempt <= 1; attempt++) {
            int m = bench_warmup_method(mesh, attempt);
            CHECK(m >= 0 && m != COREPCG_METHOD_AUTO &&
                      !(corepcg_method_reports(m) & COREPCG_REPORT_CHOLMOD) &&
                      corepcg_method_takes(m, COREPCG_OPTION_TOL),
                  "warm-up %d %d: %d", mesh, attempt, m);
        }
    CHECK(strcmp(corepcg_method_name(bench_warmup_method(1, 0)), "icpcg") == 0,
          "mesh warm-up %d", bench_warmup_method(1, 0));
    CHECK(bench_warmup_method(2, 0) == -1 && bench_warmup_method(0, 2) == -1 &&
              bench_warmup_method(-1, 0) == -1,
          "warm-up past its table");
}

int main(void)
{
    test_styles();
    test_comparisons();
    test_warmups();
    return test_summary("test_bench_policy");
}

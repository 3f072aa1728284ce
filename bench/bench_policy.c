/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_policy.c -- the benchmark's own view of the methods, keyed by the
 * library's method names: how the chart draws each one, which pairs the
 * report compares and which method steps the scene before the bench
 * forks. The library knows nothing of it; a method this table does not
 * name is drawn in the default style and compared with nothing, so a new
 * method needs no edit here. */
#include "bench_policy.h"

#include <stddef.h>
#include <string.h>

/* From the baseline to the newest, auto last. */
static const struct {
    const char *name;
    const char *color;  /* an SVG colour                     */
    const char *marker; /* one of bench_svg.c's shapes       */
    int line_width;     /* its line's width in pixels        */
} styles[] = {
    {"mpcg-bw", "#9467bd", "triangle-down", 2},
    {"mpcg", "#ff7f0e", "diamond", 2},
    {"upcg", "#2ca02c", "triangle", 2},
    {"direct", "#1f77b4", "square", 2},
    {"corepcg", "#d62728", "circle", 3}, /* the paper's method, drawn over the others */
    {"icpcg", "#17becf", "circle", 2},
    {"amgpcg", "#8c564b", "square", 2},
    {"auto", "#000000", "ring", 2},
};

/* A method the table does not name: grey (no listed method's colour),
 * a circle, the common width. */
static const char default_color[] = "#7f7f7f";
static const char default_marker[] = "circle";
enum { DEFAULT_LINE_WIDTH = 2 };

/* What the report compares, a against b: the iterations of the corrected
 * MPCG against the original and of upcg against the corrected (Ascher &
 * Boxerman's tables), then the newer methods' times against the older
 * ones' (Ye et al.'s Table 2). */
static const struct {
    const char *a, *b;
    bench_compare what;
} comparisons[] = {
    {"mpcg", "mpcg-bw", BENCH_COMPARE_ITERATIONS},
    {"upcg", "mpcg", BENCH_COMPARE_ITERATION_GAP},
    {"corepcg", "direct", BENCH_COMPARE_TIME},
    {"corepcg", "mpcg", BENCH_COMPARE_TIME},
    {"icpcg", "mpcg", BENCH_COMPARE_TIME},
    {"icpcg", "corepcg", BENCH_COMPARE_TIME},
    {"amgpcg", "direct", BENCH_COMPARE_TIME},
};

/* The warm-up before the bench forks: no CHOLMOD (its OpenMP regions hang
 * a forked child); upcg on a grid, as the grid figures were measured;
 * icpcg on a mesh, where upcg takes thousands of iterations a step on a
 * stiff subdivided garment, and upcg should its factor break down. */
static const char *const warmups[2][2] = {
    {"upcg", "upcg"},
    {"icpcg", "upcg"},
};

/* The style row of method, or -1 for one the table does not name. */
static int style_of(int method)
{
    const char *name = corepcg_method_from_name(corepcg_method_name(method)) == method
                           ? corepcg_method_name(method)
                           : NULL;
    for (size_t k = 0; name && k < sizeof styles / sizeof styles[0]; k++)
        if (strcmp(styles[k].name, name) == 0)
            return (int)k;
    return -1;
}

const char *bench_method_color(int method)
{
    int k = style_of(method);
    return k >= 0 ? styles[k].color : default_color;
}

const char *bench_method_marker(int method)
{
    int k = style_of(method);
    return k >= 0 ? styles[k].marker : default_marker;
}

int bench_method_line_width(int method)
{
    int k = style_of(method);
    return k >= 0 ? styles[k].line_width : DEFAULT_LINE_WIDTH;
}

int bench_comparison(int k, int *a, int *b)
{
    int seen = 0;
    for (size_t j = 0; j < sizeof comparisons / sizeof comparisons[0]; j++) {
        int ma = corepcg_method_from_name(comparisons[j].a);
        int mb = corepcg_method_from_name(comparisons[j].b);
        if (ma < 0 || mb < 0)
            continue; /* a method the library no longer has */
        if (seen++ == k) {
            *a = ma;
            *b = mb;
            return (int)comparisons[j].what;
        }
    }
    return -1;
}

int bench_warmup_method(int mesh, int attempt)
{
    if ((mesh != 0 && mesh != 1) || (attempt != 0 && attempt != 1))
        return -1;
    return corepcg_method_from_name(warmups[mesh][attempt]);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_policy.h -- the benchmark's own view of the methods, by the
 * library's method names (bench_policy.c): how its chart draws each one,
 * what its report compares and what steps a scene before it forks. */
#ifndef COREPCG_BENCH_POLICY_H
#define COREPCG_BENCH_POLICY_H

#include "corepcg.h"

/* How the report compares method a with method b. */
typedef enum bench_compare {
    BENCH_COMPARE_TIME = 0,      /* a's time / b's                         */
    BENCH_COMPARE_ITERATIONS,    /* a's iterations / b's                   */
    BENCH_COMPARE_ITERATION_GAP  /* a's iterations - b's                   */
} bench_compare;

/* How the chart draws a method: its colour ("#d62728"), its marker
 * ("circle", "square", "triangle", "triangle-down", "diamond" or "ring")
 * and its line's width in pixels; a method the bench's table does not
 * name gets a default style (grey, a circle, 2). */
const char *bench_method_color(int method);
const char *bench_method_marker(int method);
int bench_method_line_width(int method);
/* The k-th comparison the report makes (k = 0, 1, ...) between two
 * methods the library has, its bench_compare; -1 past the last (a, b
 * untouched). */
int bench_comparison(int k, int *a, int *b);
/* The method that steps a grid (mesh 0) or mesh scene (mesh 1) before the
 * bench forks the processes that measure: one that runs no CHOLMOD
 * factorisation (whose OpenMP regions hang a forked child); attempt 1 is
 * the one after the first broke down; -1 for none. */
int bench_warmup_method(int mesh, int attempt);

#endif

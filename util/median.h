/* SPDX-License-Identifier: GPL-2.0-or-later */
/* median.h -- the median the tool's timings report (median.c), shared by
 * the CLI and the benchmark. Not part of the library. */
#ifndef COREPCG_MEDIAN_H
#define COREPCG_MEDIAN_H

/* Median of n values, NAN for none (the values are reordered). */
double cli_median(double *v, int n);

#endif /* COREPCG_MEDIAN_H */

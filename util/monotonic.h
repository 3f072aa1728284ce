/* SPDX-License-Identifier: GPL-2.0-or-later */
/* monotonic.h -- the one clock of the library, the simulator, the
 * benchmark and the CLI (monotonic.c). Not installed. */
#ifndef COREPCG_MONOTONIC_H
#define COREPCG_MONOTONIC_H

/* Monotonic wall-clock seconds, for timings (info's, a step's). */
double cpg_now(void);

#endif /* COREPCG_MONOTONIC_H */

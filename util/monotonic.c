/* SPDX-License-Identifier: GPL-2.0-or-later */
/* monotonic.c -- monotonic wall-clock seconds (monotonic.h). */
#include "monotonic.h"

#include <time.h>

double cpg_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* two_parts.c -- a kernel's two halves on two threads: the second half on
 * a thread started for the call and joined before it returns. No pool
 * stays behind to spin (libgomp's workers spin for milliseconds after a
 * parallel region, on the core CHOLMOD's BLAS threads want next), and
 * nothing is kept between calls. */
#include "kernels.h"

#include <omp.h>
#include <pthread.h>

int cpg_two_threads(int columns)
{
    /* omp_get_max_threads: OMP_NUM_THREADS=1 (or omp_set_num_threads(1)
     * on the calling thread) keeps the library on one thread; so does a
     * caller's own parallel region, whose threads have the cores */
    return columns >= CPG_PARALLEL_COLUMNS && omp_get_max_threads() > 1 &&
           !omp_in_parallel();
}

typedef struct second_half {
    void (*part)(void *arg, int which);
    void *arg;
} second_half;

static void *run_second(void *p)
{
    second_half *h = p;
    h->part(h->arg, 1);
    return NULL;
}

void cpg_two_parts(void (*part)(void *arg, int which), void *arg,
                   int two_threads)
{
    second_half h = {part, arg};
    pthread_t thread;
    /* a thread that cannot be started: both halves here, same answer */
    int started = two_threads &&
                  pthread_create(&thread, NULL, run_second, &h) == 0;
    part(arg, 0);
    if (started)
        pthread_join(thread, NULL);
    else
        part(arg, 1);
}

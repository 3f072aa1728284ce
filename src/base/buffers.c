/* SPDX-License-Identifier: GPL-2.0-or-later */
/* buffers.c -- large arrays without fresh-page costs. A new block of
 * memory is paid for on its first touch, one page fault per 4 KiB page
 * (docs/benchmark.md, "corePCG's factorisation"); memory already touched
 * is not. So the arrays a handle keeps from step to step (the factor's
 * storage, the projected matrix) ask for huge pages before their first
 * touch. */
#define _DEFAULT_SOURCE /* madvise */
#include "base.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void cpg_huge_pages(void *p, size_t bytes)
{
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t b = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (p && b > a)
        (void)madvise((void *)a, b - a, MADV_HUGEPAGE);
}

/* An array of 2 MiB or more starts on a 2 MiB boundary and is rounded up
 * to whole huge pages, so that all of it can be one: malloc's would leave
 * up to 2 MiB of 4 KiB pages at its two ends, 512 faults each
 * (docs/benchmark.md, "The cold path"). */
void *cpg_malloc_huge(size_t count, size_t size)
{
    const size_t huge = (size_t)2 << 20;
    if (count == 0)
        count = 1;
    if (size == 0 || count > (SIZE_MAX - huge) / size)
        return NULL;
    size_t bytes = count * size;
    if (bytes < huge)
        return malloc(bytes);
    bytes = (bytes + huge - 1) & ~(huge - 1);
    void *p = NULL;
    if (posix_memalign(&p, huge, bytes) != 0)
        return NULL;
    cpg_huge_pages(p, bytes);
    return p;
}

void *cpg_zeroed_huge(size_t count, size_t size)
{
    void *p = cpg_malloc_huge(count, size);
    if (p)
        memset(p, 0, (count ? count : 1) * size);
    return p;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* buffers.c -- large arrays without fresh-page costs. A new block of
 * memory is paid for on its first touch, one page fault per 4 KiB page
 * (about 12 us each on the VM measured, a quarter of a 161x161 update's
 * time when every array of the system was allocated afresh); memory
 * already touched is not. So: hand an array on from one step's data to
 * the next, and ask for huge pages on a fresh one before touching it. */
#define _DEFAULT_SOURCE /* madvise */
#include "internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

void cpg_huge_pages(void *p, size_t bytes)
{
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t b = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (p && b > a)
        (void)madvise((void *)a, b - a, MADV_HUGEPAGE);
}

void *cpg_reuse(void **spare, size_t have, size_t want, size_t size)
{
    void *old = spare ? *spare : NULL;
    if (spare)
        *spare = NULL;
    if (old && have >= want)
        return old;
    free(old);
    void *p = malloc((want ? want : 1) * size);
    cpg_huge_pages(p, want * size);
    return p;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* buffers.c -- handing an array on from one step's data to the next. A
 * new block of memory is paid for on its first touch, one page fault per
 * 4 KiB page (about 12 us each on the VM measured, a quarter of a 161x161
 * update's time when every array of the system was allocated afresh);
 * memory already touched is not. */
#include "internal.h"

#include <stdlib.h>

void *cpg_reuse(void **spare, size_t have, size_t want, size_t size)
{
    void *old = spare ? *spare : NULL;
    if (spare)
        *spare = NULL;
    if (old && have >= want)
        return old;
    free(old);
    return malloc((want ? want : 1) * size);
}

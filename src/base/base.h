/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * base.h -- what every layer of the library uses, so it is the lowest:
 * messages, names read in any case, the clock (util/monotonic.c) and large
 * buffers (base/: error.c, names.c, buffers.c). Not CHOLMOD: only its
 * users include it (cholmod_quiet.h). The settings are the methods'
 * (methods/options.c, settings.c): a method describes its own. Not
 * installed.
 * Naming: cpg_ prefix, hidden visibility (the library is built with
 * gnu_symbol_visibility=hidden, so only COREPCG_EXPORT escapes).
 */
#ifndef COREPCG_BASE_H
#define COREPCG_BASE_H

#include "corepcg.h"

#include <stdarg.h>
#include <stddef.h>

#include "message.h" /* cpg_fail */
#include "monotonic.h" /* cpg_now */
#include "name_is.h" /* cpg_name_is, cpg_name_index */

/* Asks for transparent huge pages on the 2 MiB-aligned interior of a
 * buffer that nothing has touched yet (a fresh allocation): its first
 * touch then costs one fault per 2 MiB instead of one per 4 KiB. A hint
 * on this mapping only (madvise), ignored where unsupported. */
void cpg_huge_pages(void *p, size_t bytes);
/* calloc(count, size) for a large array, with cpg_huge_pages before the
 * zeros are written (calloc's fresh pages would fault one per 4 KiB). */
void *cpg_zeroed_huge(size_t count, size_t size);
/* malloc(count * size) (at least one element) with cpg_huge_pages: for a
 * large array whose first writer fills it anyway; NULL on overflow. Free
 * it with free(). */
void *cpg_malloc_huge(size_t count, size_t size);

#endif /* COREPCG_BASE_H */

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* version.c -- the version the library was built as, for programs that
 * want to know which one they run with (COREPCG_VERSION is the headers'). */
#include "base.h"

const char *corepcg_version(void)
{
    return COREPCG_VERSION;
}

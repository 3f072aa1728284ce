/* SPDX-License-Identifier: GPL-2.0-or-later */
/* c_locale.c -- see c_locale.h. */
#include "c_locale.h"

#include "base.h"

int cpg_c_locale_enter(cpg_c_locale *l, char *msg)
{
    l->c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (l->c == (locale_t)0)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY,
                        "out of memory (the C locale for reading and "
                        "writing numbers)");
    l->caller = uselocale(l->c);
    return COREPCG_OK;
}

void cpg_c_locale_leave(cpg_c_locale *l)
{
    uselocale(l->caller);
    freelocale(l->c);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* name_is.c -- a chosen name compared in any case (name_is.h). */
#include "name_is.h"

int cpg_name_is(const char *name, const char *choice)
{
    for (;; name++, choice++) {
        char a = *name, b = *choice;
        /* by hand, not tolower: a Turkish locale would fold 'I' to a
         * dotless i */
        if (a >= 'A' && a <= 'Z')
            a = (char)(a - 'A' + 'a');
        if (a != b)
            return 0;
        if (a == '\0')
            return 1;
    }
}

int cpg_name_index(const char *name, const char *const *names, int count)
{
    for (int k = 0; name && k < count; k++)
        if (names[k] && cpg_name_is(name, names[k]))
            return k;
    return -1;
}

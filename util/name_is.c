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

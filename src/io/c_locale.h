/* SPDX-License-Identifier: GPL-2.0-or-later */
/* c_locale.h -- the bundle's files in the C locale, whatever the caller's.
 * A simulator that called setlocale(LC_ALL, "") under de_DE had printf
 * write "1,5e20" into b.mtx (read back as no number) and strtod stop at
 * the '.' of "0.6" in constraints.txt. Each public call that reads or
 * writes files runs in a thread-local C locale (uselocale: the process's
 * locale and the caller's other threads are untouched) and gives the
 * caller's back. */
#ifndef COREPCG_C_LOCALE_H
#define COREPCG_C_LOCALE_H

#include <locale.h>

typedef struct cpg_c_locale {
    locale_t c;      /* the C locale, made for the call */
    locale_t caller; /* the thread's locale before it  */
} cpg_c_locale;

/* Switches the calling thread to the C locale. OK, or ERR_NO_MEMORY with
 * msg (may be NULL) saying so. */
int cpg_c_locale_enter(cpg_c_locale *l, char *msg);

/* The caller's locale back, the C locale freed. */
void cpg_c_locale_leave(cpg_c_locale *l);

#endif

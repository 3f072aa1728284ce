/* SPDX-License-Identifier: GPL-2.0-or-later */
/* setup_for.h -- corepcg_setup for the tests that keep one set of
 * settings for every method they run (a tol for all, which direct does
 * not read): the settings the method reads (corepcg_settings_for_method),
 * so that setup, which refuses an option its method would ignore, takes
 * them. */
#ifndef COREPCG_SETUP_FOR_H
#define COREPCG_SETUP_FOR_H

#include "corepcg.h"

static inline int setup_for(corepcg_solver *h, const corepcg_system *sys,
                            const corepcg_settings *s)
{
    if (!s)
        return corepcg_setup(h, sys, s);
    corepcg_settings own = *s;
    corepcg_settings_for_method(&own);
    return corepcg_setup(h, sys, &own);
}

#endif

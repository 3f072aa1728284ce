/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cholmod.c -- a CHOLMOD common that never prints, and CHOLMOD's status as
 * a corepcg code. */
#include "base.h"

int cpg_cholmod_start(cholmod_common *cm)
{
    if (!cm)
        return COREPCG_ERR_ARGUMENT;
    if (!cholmod_start(cm))
        return COREPCG_ERR_CHOLMOD;
    /* The library never prints: errors come back through status codes. */
    cm->print = 0;
    cm->error_handler = NULL;
    return cpg_cholmod_code(cm);
}

int cpg_cholmod_code(const cholmod_common *cm)
{
    if (!cm)
        return COREPCG_ERR_ARGUMENT;
    switch (cm->status) {
    case CHOLMOD_OUT_OF_MEMORY:
        return COREPCG_ERR_NO_MEMORY;
    case CHOLMOD_TOO_LARGE:
        return COREPCG_ERR_TOO_LARGE;
    case CHOLMOD_NOT_POSDEF:
        /* A default; callers that know which matrix failed (the core or
         * A~) map it to their own code. */
        return COREPCG_ERR_NOT_SPD;
    default:
        /* Other warnings (DSMALL: a tiny pivot) leave a usable result. */
        return cm->status >= CHOLMOD_OK ? COREPCG_OK : COREPCG_ERR_CHOLMOD;
    }
}

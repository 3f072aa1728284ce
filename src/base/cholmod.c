/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cholmod.c -- a CHOLMOD common that never prints, and CHOLMOD's status as
 * a corepcg code and in words. */
#include "cholmod_quiet.h"

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

int cpg_cholmod_call(int (*work)(cholmod_common *cm, void *arg, char *msg),
                     void *arg, const char *who, char *msg)
{
    cholmod_common cm;
    int rc = cpg_cholmod_start(&cm);
    if (rc != COREPCG_OK)
        return cpg_fail(msg, rc, "%scannot start CHOLMOD", who);
    rc = work(&cm, arg, msg);
    cholmod_finish(&cm);
    return rc;
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

const char *cpg_cholmod_status_text(int status)
{
    switch (status) {
    case CHOLMOD_OK: return "ok";
    case CHOLMOD_NOT_INSTALLED: return "method not installed";
    case CHOLMOD_OUT_OF_MEMORY: return "out of memory";
    case CHOLMOD_TOO_LARGE: return "problem too large";
    case CHOLMOD_INVALID: return "invalid input";
    case CHOLMOD_NOT_POSDEF: return "not positive definite";
    case CHOLMOD_DSMALL: return "tiny pivot";
    default: return "unknown status";
    }
}

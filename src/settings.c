/* settings.c -- default settings. Validation lives in solver.c, where the
 * settings are used. */
#include "internal.h"

void corepcg_settings_default(corepcg_settings *s)
{
    if (!s)
        return;
    s->method = COREPCG_METHOD_COREPCG;
    s->tol = COREPCG_DEFAULT_TOL;
    s->max_iter = COREPCG_DEFAULT_MAX_ITER;
    s->precond = COREPCG_PRECOND_DIAG;
    s->ordering = COREPCG_ORDERING_BEST;
    s->factor = COREPCG_FACTOR_AUTO;
    s->core = COREPCG_CORE_STRETCH;
    s->core_threshold = COREPCG_DEFAULT_CORE_THRESHOLD;
    s->fallback_upcg = 0;
}

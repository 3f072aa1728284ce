/* SPDX-License-Identifier: GPL-2.0-or-later */
/* settings.c -- default settings (options.c describes them) and their
 * validation. */
#include "base.h"

#include <math.h>

void corepcg_settings_default(corepcg_settings *s)
{
    if (!s)
        return;
    s->method = COREPCG_METHOD_AUTO;
    cpg_options_default(s); /* every option's, from its description */
    s->monitor = NULL;
    s->monitor_user = NULL;
}

int cpg_settings_check(const corepcg_settings *s, char *msg)
{
    if ((unsigned)s->method >= COREPCG_METHOD_COUNT)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: unknown method %d", (int)s->method);
    if (!(s->tol > 0 && s->tol < 1))
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: tol must be in (0, 1), got %g", s->tol);
    if (s->max_iter < 1)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: max_iter must be >= 1, got %d", s->max_iter);
    if ((unsigned)s->precond >= COREPCG_PRECOND_COUNT)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: unknown precond %d", (int)s->precond);
    if ((unsigned)s->ordering >= COREPCG_ORDERING_COUNT)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: unknown ordering %d", (int)s->ordering);
    if ((unsigned)s->factor >= COREPCG_FACTOR_COUNT)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: unknown factor %d", (int)s->factor);
    if ((unsigned)s->core >= COREPCG_CORE_COUNT)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: unknown core %d", (int)s->core);
    if (!(s->core_threshold >= 0) || !isfinite(s->core_threshold))
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: core_threshold must be >= 0, got %g", s->core_threshold);
    if (s->fallback_upcg != 0 && s->fallback_upcg != 1)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: fallback_upcg must be 0 or 1");
    if (s->ic_fill != 0 && s->ic_fill != 1)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: ic_fill must be 0 or 1, got %d", s->ic_fill);
    if ((unsigned)s->stop >= COREPCG_STOP_COUNT)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: unknown stop %d", (int)s->stop);
    return COREPCG_OK;
}

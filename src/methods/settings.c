/* SPDX-License-Identifier: GPL-2.0-or-later */
/* settings.c -- default settings and their validation, both from the
 * options' descriptions (options.c), and which go with the method
 * (takes.c). */
#include "method.h"

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
    if (!cpg_method_entry_of(s->method))
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "settings: unknown method %d", (int)s->method);
    int rc = cpg_options_check(s, msg);
    if (rc != COREPCG_OK)
        return rc;
    /* a setting the method would ignore is refused, not ignored; one left
     * at (or set to) its default is never refused */
    return corepcg_settings_refusal(s, NULL, NULL, msg) == COREPCG_REFUSAL_NONE
               ? COREPCG_OK
               : COREPCG_ERR_ARGUMENT;
}

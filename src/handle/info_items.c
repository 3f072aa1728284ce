/* SPDX-License-Identifier: GPL-2.0-or-later */
/* info_items.c -- a report item's value on a handle (corepcg_info_get):
 * the item's method must be the one the last solve ran, and its value is
 * read from that solve's record or from that method's state. */
#include "handle.h"

int corepcg_info_get(const corepcg_solver *h, int k, double *value)
{
    corepcg_method owner;
    const cpg_report_item *it = cpg_report_item_at(k, &owner);
    if (!h || !value || !it) {
        if (value)
            *value = 0;
        return COREPCG_ERR_ARGUMENT;
    }
    *value = 0;
    const corepcg_info *rec = &h->last_info;
    if (!h->ready || owner != rec->method_used)
        return COREPCG_ERR_STATE;
    /* auto keeps the method it ran in a state of its own */
    const void *state = h->ops->ran_state ? h->ops->ran_state(h->state, rec->method_used)
                                          : h->state;
    *value = it->value(state, rec);
    return COREPCG_OK;
}

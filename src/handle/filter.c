/* SPDX-License-Identifier: GPL-2.0-or-later */
/* filter.c -- corepcg_filter: S v for a simulator that applies the filter
 * itself (Baraff & Witkin's filter()), with the library's own S: the U
 * blocks the solvers build (cpg_ublocks_build) and their product
 * (cpg_filter), so that the two can never disagree. */
#include "system.h"

#include <limits.h>
#include <math.h>
#include <string.h>

int corepcg_filter(int num_nodes, int num_constraints,
                   const corepcg_constraint *constraints, const double *v,
                   double *out, char *msg)
{
    if (msg)
        msg[0] = '\0';
    if (!v || !out)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "corepcg_filter: v and out are required");
    /* the limits of corepcg_system.num_nodes (bmat.c), with its codes */
    if (num_nodes < 1 || num_nodes > INT_MAX / 3 - 1)
        return cpg_fail(msg, num_nodes < 1 ? COREPCG_ERR_ARGUMENT
                                           : COREPCG_ERR_TOO_LARGE,
                        "corepcg_filter: num_nodes is %d", num_nodes);
    size_t n = 3 * (size_t)num_nodes;
    for (size_t k = 0; k < n; k++)
        if (!isfinite(v[k]))
            return cpg_fail(msg, COREPCG_ERR_NOT_FINITE,
                            "corepcg_filter: v[%zu] = %g is not finite", k,
                            v[k]);
    cpg_ublocks u;
    int rc = cpg_ublocks_build(num_nodes, constraints, num_constraints, &u,
                               msg);
    if (rc != COREPCG_OK)
        return rc;
    if (out != v)
        memmove(out, v, n * sizeof(double));
    cpg_filter(&u, out);
    cpg_ublocks_free(&u);
    return COREPCG_OK;
}

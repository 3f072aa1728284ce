/* SPDX-License-Identifier: GPL-2.0-or-later */
/* system.c -- the one path by which a caller's system enters the library.
 * corepcg_setup, corepcg_update, corepcg_check and corepcg_bundle_write
 * all import through cpg_sys_import, so they accept and refuse exactly the
 * same systems, with the same codes and messages. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cpg_sys_free(cpg_sys *s)
{
    if (!s)
        return;
    cpg_bmat_free(&s->A);
    cpg_ublocks_free(&s->u);
    free(s->z);
    free(s->w);
    free(s->stretch);
    memset(s, 0, sizeof *s);
}

int cpg_stretch_check(int num_stretch, const int *pairs, int N, char *msg)
{
    if (num_stretch < 0 || (num_stretch > 0 && !pairs))
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "num_stretch is %d with %s stretch_pairs", num_stretch,
                        pairs ? "some" : "NULL");
    for (int s = 0; s < num_stretch; s++) {
        int a = pairs[2 * s], b = pairs[2 * s + 1];
        if (a < 0 || a >= N || b < 0 || b >= N)
            return cpg_fail(msg, COREPCG_ERR_DIMENSION,
                            "stretch pair %d (%d, %d): node index out of "
                            "range [0, %d)", s, a, b, N);
        if (a == b)
            return cpg_fail(msg, COREPCG_ERR_FORMAT,
                            "stretch pair %d (%d, %d): a node joined to "
                            "itself", s, a, b);
    }
    return COREPCG_OK;
}

static int import_stretch(const corepcg_system *in, cpg_sys *out,
                          cpg_sys *spare, char *msg)
{
    int rc = cpg_stretch_check(in->num_stretch, in->stretch_pairs,
                               in->num_nodes, msg);
    if (rc != COREPCG_OK || in->num_stretch == 0)
        return rc;
    size_t len = 2 * (size_t)in->num_stretch;
    out->stretch = cpg_reuse((void **)&spare->stretch,
                             2 * (size_t)spare->num_stretch, len, sizeof(int));
    if (!out->stretch)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY,
                        "out of memory copying %d stretch pairs",
                        in->num_stretch);
    memcpy(out->stretch, in->stretch_pairs, len * sizeof(int));
    out->num_stretch = in->num_stretch;
    return COREPCG_OK;
}

/* spare_n: the length of spare's z and w. */
static int import_z(const corepcg_system *in, cpg_sys *out, cpg_sys *spare,
                    size_t spare_n, char *msg)
{
    size_t n = 3 * (size_t)in->num_nodes;
    out->z = cpg_reuse((void **)&spare->z, spare_n, n, sizeof(double));
    out->w = cpg_reuse((void **)&spare->w, spare_n, n, sizeof(double));
    if (!out->z || !out->w)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    memset(out->z, 0, n * sizeof(double));
    if (in->z) {
        for (size_t k = 0; k < n; k++)
            if (!isfinite(in->z[k]))
                return cpg_fail(msg, COREPCG_ERR_NOT_FINITE,
                                "z[%zu] is not finite", k);
        memcpy(out->z, in->z, n * sizeof(double));
    }
    cpg_prescribed(&out->u, out->z, out->w);
    return COREPCG_OK;
}

int cpg_sys_import(const corepcg_system *in, cholmod_common *cm, cpg_sys *out,
                   char *msg)
{
    return cpg_sys_import_reusing(in, cm, out, NULL, msg);
}

int cpg_sys_import_reusing(const corepcg_system *in, cholmod_common *cm,
                           cpg_sys *out, cpg_sys *spare, char *msg)
{
    memset(out, 0, sizeof *out);
    cpg_sys none;
    memset(&none, 0, sizeof none);
    if (!spare)
        spare = &none;
    size_t spare_n = 3 * (size_t)spare->A.nb; /* before A is taken */
    int rc = COREPCG_OK;
    if (!in)
        rc = cpg_fail(msg, COREPCG_ERR_ARGUMENT, "system is NULL");
    /* A first: it validates num_nodes, which the others rely on. */
    if (rc == COREPCG_OK)
        rc = cpg_bmat_import(in, cm, &out->A, &spare->A, msg);
    if (rc == COREPCG_OK)
        rc = cpg_ublocks_build_reusing(in->num_nodes, in->constraints,
                                       in->num_constraints, &out->u,
                                       &spare->u, msg);
    if (rc == COREPCG_OK) /* checked for every method, whether it uses them */
        rc = import_stretch(in, out, spare, msg);
    if (rc == COREPCG_OK)
        rc = import_z(in, out, spare, spare_n, msg);
    cpg_sys_free(spare);
    if (rc != COREPCG_OK)
        cpg_sys_free(out);
    return rc;
}

int cpg_sys_same_blocks(const cpg_sys *a, const cpg_sys *b)
{
    return cpg_bmat_same_pattern(&a->A, &b->A);
}

int cpg_sys_same_ndof(const cpg_sys *a, const cpg_sys *b)
{
    return a->u.N == b->u.N &&
           memcmp(a->u.ndof, b->u.ndof, sizeof(int) * (size_t)a->u.N) == 0;
}

int cpg_sys_same_stretch(const cpg_sys *a, const cpg_sys *b)
{
    return a->num_stretch == b->num_stretch &&
           (a->num_stretch == 0 ||
            memcmp(a->stretch, b->stretch,
                   2 * sizeof(int) * (size_t)a->num_stretch) == 0);
}

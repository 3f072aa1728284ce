/* SPDX-License-Identifier: GPL-2.0-or-later */
/* system.c -- the one path by which a caller's system enters the library.
 * corepcg_setup, corepcg_update, corepcg_check and corepcg_bundle_write
 * all import through cpg_sys_import, so they accept and refuse exactly the
 * same systems, with the same codes and messages. */
#include "system.h"

#include <limits.h>
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
    cpg_import_map_free(&s->map);
    memset(s, 0, sizeof *s);
}

int cpg_stretch_check(int num_stretch, const int *pairs, int N, char *msg)
{
    if (num_stretch < 0 || (num_stretch > 0 && !pairs))
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "num_stretch is %d with %s stretch_pairs", num_stretch,
                        pairs ? "some" : "NULL");
    /* each pair gives the core two 3x3 blocks, and a block's 9 entries
     * are indexed by int, as A's are (an outside review: 2^30 + 1 pairs
     * overflowed 2 s) */
    long most = ((long)INT_MAX / 9 - N) / 2;
    if (num_stretch > most)
        return cpg_fail(msg, COREPCG_ERR_TOO_LARGE,
                        "num_stretch %d: more stretch pairs than the core's "
                        "blocks can index (at most %ld for %d nodes)",
                        num_stretch, most > 0 ? most : 0, N);
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

static int import_stretch(const corepcg_system *in, cpg_sys *out, char *msg)
{
    int rc = cpg_stretch_check(in->num_stretch, in->stretch_pairs,
                               in->num_nodes, msg);
    if (rc != COREPCG_OK || in->num_stretch == 0)
        return rc;
    size_t len = 2 * (size_t)in->num_stretch;
    out->stretch = malloc(len * sizeof(int));
    if (!out->stretch)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY,
                        "out of memory copying %d stretch pairs",
                        in->num_stretch);
    memcpy(out->stretch, in->stretch_pairs, len * sizeof(int));
    out->num_stretch = in->num_stretch;
    return COREPCG_OK;
}

static int import_z(const corepcg_system *in, cpg_sys *out, char *msg)
{
    size_t n = 3 * (size_t)in->num_nodes;
    out->z = calloc(n, sizeof(double));
    out->w = malloc(n * sizeof(double));
    if (!out->z || !out->w)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
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

/* Everything but A, which out already holds. */
static int import_rest(const corepcg_system *in, cpg_sys *out, char *msg)
{
    int rc = cpg_ublocks_build(in->num_nodes, in->constraints,
                               in->num_constraints, &out->u, msg);
    if (rc == COREPCG_OK) /* checked for every method, whether it uses them */
        rc = import_stretch(in, out, msg);
    if (rc == COREPCG_OK)
        rc = import_z(in, out, msg);
    if (rc != COREPCG_OK)
        cpg_sys_free(out);
    return rc;
}

int cpg_sys_import(const corepcg_system *in, struct cholmod_common_struct *cm,
                   cpg_sys *out, char *msg)
{
    memset(out, 0, sizeof *out);
    if (!in)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "system is NULL");
    /* A first: it validates num_nodes, which the others rely on. */
    int rc = cpg_bmat_from_system(in, cm, &out->A, msg);
    if (rc != COREPCG_OK)
        return rc;
    return import_rest(in, out, msg);
}

int cpg_sys_import_next(const corepcg_system *in, cpg_sys *prev,
                        cpg_bmat *spare, cpg_sys *out, char *msg)
{
    memset(out, 0, sizeof *out);
    if (in && prev && prev->map &&
        cpg_import_map_values(prev->map, in, &prev->A, spare, &out->A)) {
        int rc = import_rest(in, out, msg);
        if (rc == COREPCG_OK) { /* the same pattern: the same map */
            out->map = prev->map;
            prev->map = NULL;
        }
        return rc;
    }
    int rc = cpg_sys_import(in, NULL, out, msg);
    /* the map only saves the next import's work: without memory for it
     * the next update imports in full. A setup makes only the walked
     * kind, which costs little beside the import, so that the first
     * update needs none */
    if (rc == COREPCG_OK)
        (void)cpg_import_map_build(in, &out->A, prev == NULL, &out->map);
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

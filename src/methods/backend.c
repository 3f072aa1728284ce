/* SPDX-License-Identifier: GPL-2.0-or-later */
/* backend.c -- which back end the methods' solve-time vectors go on
 * (docs/design.md, "Back ends"): the one place that chooses, asked by
 * cpg_fwork_alloc and cpg_rwork_alloc. */
#include "method.h"
#include "vec_cpu.h"

const cpg_vec_ops *cpg_backend(const cpg_ctx *ctx)
{
    /* the CPU's, the one the library ships, unless the context names
     * another (the tests' checking back end, through the handle's hook) */
    return ctx->vec ? ctx->vec : &cpg_vec_cpu;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vec_cpu.c -- vec.h's operations on the CPU: each a loop from k = 0 up,
 * every reduction summed one term at a time in that order (the bits of
 * the loops pcg.c inlined before; a compiler may not reorder them without
 * -ffast-math). The fused operations stay fused: one pass over memory. */
#include "vec_cpu.h"

#include "base.h"    /* cpg_malloc_huge */
#include "kernels.h" /* cpg_all_zero */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Huge pages: PCG's work is large enough for them from about 22k nodes
 * on, so that the first solve does not fault on each 4 KiB. */
static double *cpu_alloc(size_t n)
{
    return cpg_malloc_huge(n, sizeof(double));
}

static void cpu_free(double *v)
{
    free(v);
}

static int cpu_all_zero(int n, const double *v)
{
    return cpg_all_zero(v, n);
}

static double cpu_dot(int n, const double *a, const double *b)
{
    double s = 0;
    for (int k = 0; k < n; k++)
        s += a[k] * b[k];
    return s;
}

static double cpu_dot_norm(int n, const double *r, const double *s,
                           double *rr)
{
    double rs = 0, sq = 0;
    for (int k = 0; k < n; k++) {
        rs += r[k] * s[k];
        sq += r[k] * r[k];
    }
    *rr = sq;
    return rs;
}

static void cpu_copy(int n, const double *in, double *out)
{
    if (n > 0)
        memcpy(out, in, (size_t)n * sizeof(double));
}

static void cpu_fill(int n, double value, double *out)
{
    for (int k = 0; k < n; k++)
        out[k] = value;
}

static double cpu_amax(int n, const double *v)
{
    double m = 0;
    for (int k = 0; k < n; k++)
        m = fmax(m, fabs(v[k]));
    return m;
}

static void cpu_scale(int n, double alpha, double *v)
{
    for (int k = 0; k < n; k++)
        v[k] *= alpha;
}

static void cpu_sub(int n, const double *a, const double *b, double *out)
{
    for (int k = 0; k < n; k++)
        out[k] = a[k] - b[k];
}

static void cpu_axpy(int n, double alpha, const double *x, double *y)
{
    for (int k = 0; k < n; k++)
        y[k] += alpha * x[k];
}

static void cpu_xpay(int n, const double *x, double beta, double *y)
{
    for (int k = 0; k < n; k++)
        y[k] = x[k] + beta * y[k];
}

static void cpu_cg_update(int n, double alpha, const double *p,
                          const double *q, double *x, double *r)
{
    for (int k = 0; k < n; k++) {
        x[k] += alpha * p[k];
        r[k] -= alpha * q[k];
    }
}

const cpg_vec_ops cpg_vec_cpu = {
    .name = "cpu",
    .alloc = cpu_alloc,
    .free = cpu_free,
    /* the device is the host: crossing the boundary is a copy */
    .to_device = cpu_copy,
    .from_device = cpu_copy,
    .all_zero = cpu_all_zero,
    .dot = cpu_dot,
    .dot_norm = cpu_dot_norm,
    .copy = cpu_copy,
    .fill = cpu_fill,
    .amax = cpu_amax,
    .scale = cpu_scale,
    .sub = cpu_sub,
    .axpy = cpu_axpy,
    .xpay = cpu_xpay,
    .cg_update = cpu_cg_update,
};

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vec.h -- the vector operations and reductions of the PCG loop (pcg.c)
 * and of the methods' solve-time work around it (full_solve.c,
 * reduced_solve.c), behind one table, as OSQP's vector layer and amgcl's
 * backends put theirs: a back end that keeps its vectors elsewhere (a
 * GPU, several processes) is its own table in its own folder under
 * backend/ (backend/cpu/ holds the CPU's), not a change of the loop.
 * docs/design.md, "Back ends", lists what a back end implements.
 * Not installed.
 */
#ifndef COREPCG_VEC_H
#define COREPCG_VEC_H

#include <stddef.h>

/* Every vector is n doubles from the table's own alloc ("device" memory:
 * on the CPU the host's). The caller's arrays -- b, a guess, the answer --
 * are host memory: they cross only through to_device and from_device, at
 * the edge of the methods' solve-time work (full_solve.c, reduced_solve.c;
 * mpcg-bw's start, direct's answer), where a back end with memory of its
 * own copies them. A reduction's order of summation is the back end's;
 * the CPU's sums k = 0, 1, ..., n-1 one term at a time, so that its
 * answers are the same bits on every run (the loop's round-off, and so
 * the iteration counts, depend on it). */
typedef struct cpg_vec_ops {
    const char *name;
    /* n doubles (at least one), uninitialised; NULL when out of memory */
    double *(*alloc)(size_t n);
    void (*free)(double *v); /* NULL: nothing */
    /* dev = host (n entries): the caller's array into a vector */
    void (*to_device)(int n, const double *host, double *dev);
    /* host = dev (n entries): a vector out to the caller's array */
    void (*from_device)(int n, const double *dev, double *host);
    /* a^T b */
    double (*dot)(int n, const double *a, const double *b);
    /* r^T s, and r^T r into *rr, in one pass over r: each sum as dot
     * sums it (the same bits as two calls) */
    double (*dot_norm)(int n, const double *r, const double *s, double *rr);
    /* out = in */
    void (*copy)(int n, const double *in, double *out);
    /* 1 when every entry is zero (a right-hand side whose answer is
     * exactly zero), else 0 */
    int (*all_zero)(int n, const double *v);
    /* out = value in every entry */
    void (*fill)(int n, double value, double *out);
    /* the largest |v_k| (v finite) */
    double (*amax)(int n, const double *v);
    /* v = alpha v */
    void (*scale)(int n, double alpha, double *v);
    /* out = a - b; out may be a or b */
    void (*sub)(int n, const double *a, const double *b, double *out);
    /* y += alpha x */
    void (*axpy)(int n, double alpha, const double *x, double *y);
    /* y = x + beta y */
    void (*xpay)(int n, const double *x, double beta, double *y);
    /* CG's update in one pass: x += alpha p and r -= alpha q */
    void (*cg_update)(int n, double alpha, const double *p, const double *q,
                      double *x, double *r);
} cpg_vec_ops;

#endif /* COREPCG_VEC_H */

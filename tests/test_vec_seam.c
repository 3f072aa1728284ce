/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_vec_seam.c -- the back-end seam (docs/design.md, "Back ends")
 * proved with a back end of the test's own, "check": its alloc records
 * every block it hands out, and each of its operations fails a check when
 * a vector it is handed does not lie inside such a block (a caller's
 * array that slipped past to_device, a buffer from plain malloc), or when
 * to_device/from_device are handed a block as the caller's side; then it
 * does the CPU table's arithmetic. A handle is put on it through the
 * test build's hook cpg_solver_use_vec (not in the shipped library).
 *
 * Asserted:
 *  - the checker itself fails on a foreign vector (a stack array), on a
 *    crossing whose host side is a block, and on freeing what it never
 *    allocated;
 *  - upcg (diag, block, projected), mpcg (diag, block), mpcg-bw (diag,
 *    block), corepcg, icpcg (fill 0 and 1) and direct on random systems,
 *    from a zero and a random guess, after an update with new values, and
 *    with every node fixed: no operation saw a foreign vector; the table
 *    was used (blocks allocated, operations run, to_device and
 *    from_device called); every block is freed by corepcg_free; and
 *    status, iterations, the measures and x equal the CPU table's bit for
 *    bit.
 */
#include "handle.h"
#include "setup_for.h"
#include "test.h"
#include "testsys.h"
#include "vec_cpu.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------ the checking back end */

#define MAX_BLOCKS 64

static struct {
    struct {
        double *p;
        size_t n;
    } block[MAX_BLOCKS];
    int blocks;            /* live blocks */
    long allocs, ops, ins, outs;
    int foreign;           /* operations that saw a foreign vector */
    char first[160];       /* the first of them */
} chk;

static void chk_reset(void)
{
    chk.allocs = chk.ops = chk.ins = chk.outs = 0;
    chk.foreign = 0;
    chk.first[0] = '\0';
}

/* 1 when v .. v + n - 1 lies inside one live block. */
static int in_block(const double *v, int n)
{
    uintptr_t a = (uintptr_t)v, e = a + (size_t)(n > 0 ? n : 0) * sizeof *v;
    for (int k = 0; k < chk.blocks; k++) {
        uintptr_t b = (uintptr_t)chk.block[k].p;
        if (a >= b && e <= b + chk.block[k].n * sizeof(double))
            return 1;
    }
    return 0;
}

static void foreign(const char *op, const char *arg, const void *v, int n)
{
    if (!chk.foreign++)
        snprintf(chk.first, sizeof chk.first, "%s's %s (%p, %d entries)", op,
                 arg, v, n);
}

/* Notes v (n entries) when it lies inside no block. */
#define VEC(op, v, n)                                                        \
    do {                                                                     \
        if (!in_block((v), (n)))                                             \
            foreign(op, #v, (v), (n));                                       \
    } while (0)

static double *chk_alloc(size_t n)
{
    double *p = cpg_vec_cpu.alloc(n);
    chk.allocs++;
    if (p && chk.blocks < MAX_BLOCKS) {
        chk.block[chk.blocks].p = p;
        chk.block[chk.blocks].n = n;
        chk.blocks++;
    } else if (p) {
        foreign("alloc", "block table full", p, (int)n);
    }
    return p;
}

static void chk_free(double *v)
{
    if (!v)
        return;
    for (int k = 0; k < chk.blocks; k++)
        if (chk.block[k].p == v) {
            chk.block[k] = chk.block[--chk.blocks];
            cpg_vec_cpu.free(v);
            return;
        }
    foreign("free", "v", v, 0); /* never ours: leave it alone */
}

/* A crossing: dev a block's, host the caller's (no block's). */
static void crossing(const char *op, int n, const double *host,
                     const double *dev)
{
    chk.ops++;
    VEC(op, dev, n);
    if (n > 0 && in_block(host, 1))
        foreign(op, "host (a block)", host, n);
}

static void chk_to_device(int n, const double *host, double *dev)
{
    chk.ins++;
    crossing("to_device", n, host, dev);
    cpg_vec_cpu.to_device(n, host, dev);
}

static void chk_from_device(int n, const double *dev, double *host)
{
    chk.outs++;
    crossing("from_device", n, host, dev);
    cpg_vec_cpu.from_device(n, dev, host);
}

static int chk_all_zero(int n, const double *v)
{
    chk.ops++;
    VEC("all_zero", v, n);
    return cpg_vec_cpu.all_zero(n, v);
}

static double chk_dot(int n, const double *a, const double *b)
{
    chk.ops++;
    VEC("dot", a, n);
    VEC("dot", b, n);
    return cpg_vec_cpu.dot(n, a, b);
}

static double chk_dot_norm(int n, const double *r, const double *s,
                           double *rr)
{
    chk.ops++;
    VEC("dot_norm", r, n);
    VEC("dot_norm", s, n);
    return cpg_vec_cpu.dot_norm(n, r, s, rr);
}

static void chk_copy(int n, const double *in, double *out)
{
    chk.ops++;
    VEC("copy", in, n);
    VEC("copy", out, n);
    cpg_vec_cpu.copy(n, in, out);
}

static void chk_fill(int n, double value, double *out)
{
    chk.ops++;
    VEC("fill", out, n);
    cpg_vec_cpu.fill(n, value, out);
}

static double chk_amax(int n, const double *v)
{
    chk.ops++;
    VEC("amax", v, n);
    return cpg_vec_cpu.amax(n, v);
}

static void chk_scale(int n, double alpha, double *v)
{
    chk.ops++;
    VEC("scale", v, n);
    cpg_vec_cpu.scale(n, alpha, v);
}

static void chk_sub(int n, const double *a, const double *b, double *out)
{
    chk.ops++;
    VEC("sub", a, n);
    VEC("sub", b, n);
    VEC("sub", out, n);
    cpg_vec_cpu.sub(n, a, b, out);
}

static void chk_axpy(int n, double alpha, const double *x, double *y)
{
    chk.ops++;
    VEC("axpy", x, n);
    VEC("axpy", y, n);
    cpg_vec_cpu.axpy(n, alpha, x, y);
}

static void chk_xpay(int n, const double *x, double beta, double *y)
{
    chk.ops++;
    VEC("xpay", x, n);
    VEC("xpay", y, n);
    cpg_vec_cpu.xpay(n, x, beta, y);
}

static void chk_cg_update(int n, double alpha, const double *p,
                          const double *q, double *x, double *r)
{
    chk.ops++;
    VEC("cg_update", p, n);
    VEC("cg_update", q, n);
    VEC("cg_update", x, n);
    VEC("cg_update", r, n);
    cpg_vec_cpu.cg_update(n, alpha, p, q, x, r);
}

static const cpg_vec_ops vec_check = {
    .name = "check",
    .alloc = chk_alloc,
    .free = chk_free,
    .to_device = chk_to_device,
    .from_device = chk_from_device,
    .all_zero = chk_all_zero,
    .dot = chk_dot,
    .dot_norm = chk_dot_norm,
    .copy = chk_copy,
    .fill = chk_fill,
    .amax = chk_amax,
    .scale = chk_scale,
    .sub = chk_sub,
    .axpy = chk_axpy,
    .xpay = chk_xpay,
    .cg_update = chk_cg_update,
};

/* The checker fails where it should: a test that cannot fail proves
 * nothing. */
static void test_checker_fails(void)
{
    double host[4] = {1, 2, 3, 4};
    chk_reset();
    (void)vec_check.dot(4, host, host);
    CHECK_INT(chk.foreign, 2);
    chk_reset();
    double *v = vec_check.alloc(4), *w = vec_check.alloc(4);
    CHECK(v && w, "alloc failed");
    if (!v || !w)
        return;
    vec_check.fill(4, 0, v);
    vec_check.to_device(4, host, v);
    vec_check.from_device(4, v, host);
    (void)vec_check.dot(3, v + 1, v);
    CHECK_INT(chk.foreign, 0);
    /* one entry past the block (asked of the check alone: the CPU's dot
     * would read past it) */
    CHECK(!in_block(v + 1, 4) && in_block(v + 1, 3),
          "in_block does not see the block's end");
    vec_check.to_device(4, w, v);   /* a block as the caller's side */
    vec_check.from_device(4, v, w);
    CHECK_INT(chk.foreign, 2);
    vec_check.free(host);           /* never allocated: left alone */
    CHECK_INT(chk.foreign, 3);
    vec_check.free(v);
    vec_check.free(w);
    CHECK_INT(chk.blocks, 0);
    chk_reset();
}

/* ------------------------------------------------------ the comparison */

struct seam_case {
    corepcg_method method;
    corepcg_precond precond;
    int ic_fill;
    const char *label;
};

static const struct seam_case cases[] = {
    {COREPCG_METHOD_UPCG, COREPCG_PRECOND_DIAG, 0, "upcg diag"},
    {COREPCG_METHOD_UPCG, COREPCG_PRECOND_BLOCK, 0, "upcg block"},
    {COREPCG_METHOD_UPCG, COREPCG_PRECOND_PROJECTED, 0, "upcg projected"},
    {COREPCG_METHOD_MPCG, COREPCG_PRECOND_DIAG, 0, "mpcg diag"},
    {COREPCG_METHOD_MPCG, COREPCG_PRECOND_BLOCK, 0, "mpcg block"},
    {COREPCG_METHOD_MPCG_BW, COREPCG_PRECOND_DIAG, 0, "mpcg-bw diag"},
    {COREPCG_METHOD_MPCG_BW, COREPCG_PRECOND_BLOCK, 0, "mpcg-bw block"},
    {COREPCG_METHOD_COREPCG, COREPCG_PRECOND_DIAG, 0, "corepcg"},
    {COREPCG_METHOD_ICPCG, COREPCG_PRECOND_DIAG, 0, "icpcg fill 0"},
    {COREPCG_METHOD_ICPCG, COREPCG_PRECOND_DIAG, 1, "icpcg fill 1"},
    {COREPCG_METHOD_DIRECT, COREPCG_PRECOND_DIAG, 0, "direct"},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static void settings_of(const struct seam_case *c, corepcg_settings *s)
{
    corepcg_settings_default(s);
    s->method = c->method;
    s->precond = c->precond;
    corepcg_option_set(s, corepcg_option_from_name("ic_fill"), c->ic_fill);
    s->tol = 1e-9;
}

/* The same solve on the CPU's handle and the checker's: the same bits. */
static void same_solve(corepcg_solver *cpu, corepcg_solver *chkh,
                       const double *b, const double *x0, int n,
                       const char *what)
{
    double *xc = malloc(sizeof(double) * (size_t)n);
    double *xk = malloc(sizeof(double) * (size_t)n);
    for (int k = 0; k < n; k++)
        xc[k] = xk[k] = -1;
    corepcg_info ic, ik;
    int rcc = corepcg_solve(cpu, b, x0, xc, &ic);
    int rck = corepcg_solve(chkh, b, x0, xk, &ik);
    CHECK(rcc == rck && rcc >= 0, "%s: rc %d on the CPU, %d on check (%s)",
          what, rcc, rck, corepcg_message(chkh));
    CHECK(ic.iterations == ik.iterations, "%s: %d iterations on the CPU, %d "
          "on check", what, ic.iterations, ik.iterations);
    CHECK(memcmp(xc, xk, sizeof(double) * (size_t)n) == 0,
          "%s: x differs between the CPU and check", what);
    CHECK(memcmp(&ic.rel_residual, &ik.rel_residual, sizeof(double)) == 0 &&
          memcmp(&ic.constraint_error, &ik.constraint_error,
                 sizeof(double)) == 0,
          "%s: measures (%.17g, %.17g) on the CPU, (%.17g, %.17g) on check",
          what, ic.rel_residual, ic.constraint_error, ik.rel_residual,
          ik.constraint_error);
    free(xc);
    free(xk);
}

/* Every case on t: setup, two solves, an update with A scaled (same
 * pattern), a solve; then every block freed. iterative: a system with
 * free nodes, on which every case crosses out and the iterative ones run
 * many operations. */
static void compare_on(testsys *t, const char *sysname, int iterative)
{
    for (int k = 0; k < NCASES; k++) {
        const struct seam_case *c = &cases[k];
        char what[120];
        corepcg_settings s;
        settings_of(c, &s);
        corepcg_solver *cpu = NULL, *chkh = NULL;
        CHECK_INT(corepcg_create(&cpu), COREPCG_OK);
        CHECK_INT(corepcg_create(&chkh), COREPCG_OK);
        if (!cpu || !chkh)
            return;
        cpg_solver_use_vec(chkh, &vec_check);
        chk_reset();
        int rcc = setup_for(cpu, &t->sys, &s);
        int rck = setup_for(chkh, &t->sys, &s);
        snprintf(what, sizeof what, "%s, %s, setup", sysname, c->label);
        CHECK(rcc == COREPCG_OK && rck == COREPCG_OK,
              "%s: rc %d on the CPU, %d on check (%s)", what, rcc, rck,
              corepcg_message(chkh));
        if (rcc == COREPCG_OK && rck == COREPCG_OK) {
            snprintf(what, sizeof what, "%s, %s, zero guess", sysname,
                     c->label);
            same_solve(cpu, chkh, t->b, NULL, t->n, what);
            snprintf(what, sizeof what, "%s, %s, random guess", sysname,
                     c->label);
            same_solve(cpu, chkh, t->b, t->x0, t->n, what);
            testsys_scale(t, 2); /* and back, exactly */
            rcc = corepcg_update(cpu, &t->sys, NULL);
            rck = corepcg_update(chkh, &t->sys, NULL);
            testsys_scale(t, 0.5);
            snprintf(what, sizeof what, "%s, %s, after an update", sysname,
                     c->label);
            CHECK(rcc == rck && rcc >= 0, "%s: rc %d on the CPU, %d on check",
                  what, rcc, rck);
            same_solve(cpu, chkh, t->b, t->x0, t->n, what);
        }
        snprintf(what, sizeof what, "%s, %s", sysname, c->label);
        CHECK(chk.foreign == 0, "%s: %d operations saw a vector not from the "
              "table's alloc; the first: %s", what, chk.foreign, chk.first);
        /* with every node fixed the full-system methods hand out z as it
         * came: nothing crosses out */
        CHECK(chk.allocs > 0 && chk.ins > 0 &&
              (!iterative || (chk.outs > 0 &&
                              (c->method == COREPCG_METHOD_DIRECT ||
                               chk.ops > 50))),
              "%s: the table was not used (%ld allocs, %ld operations, %ld "
              "in, %ld out)", what, chk.allocs, chk.ops, chk.ins, chk.outs);
        corepcg_free(&cpu);
        corepcg_free(&chkh);
        CHECK(chk.blocks == 0, "%s: %d blocks not freed", what, chk.blocks);
        chk.blocks = 0;
    }
}

int main(void)
{
    test_checker_fails();
    const unsigned long seeds[] = {3, 17};
    const int sizes[] = {5, 8};
    for (int k = 0; k < 2; k++) {
        testsys_opts o;
        testsys_default_opts(&o, sizes[k], seeds[k]);
        testsys t;
        if (testsys_make(&t, &o)) {
            CHECK(0, "testsys_make failed");
            continue;
        }
        char name[40];
        snprintf(name, sizeof name, "%d x %d grid", sizes[k], sizes[k]);
        compare_on(&t, name, 1);
        /* every node fixed: the answers that need no iteration */
        corepcg_constraint *fixed = malloc(sizeof *fixed * (size_t)t.N);
        for (int i = 0; i < t.N; i++)
            fixed[i] = (corepcg_constraint){.node = i, .ndof = 0};
        if (testsys_set_constraints(&t, fixed, t.N) == 0)
            compare_on(&t, "all fixed", 0);
        else
            CHECK(0, "testsys_set_constraints failed");
        free(fixed);
        testsys_free(&t);
    }
    return test_summary("test_vec_seam");
}

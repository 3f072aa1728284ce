/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_steps.c -- libFuzzer target for the step loop (issue 17): the
 * input is a sequence of small SPD systems (tests/testsys_steps.h), set
 * up on one handle and then handed to it by corepcg_update, step after
 * step, while a fresh handle sets up and solves each step's system.
 *
 * Input: 4 header bytes, then 4 bytes per step (at most FUZZ_STEPS):
 *   header 0: grid g = 3 + v % 4 (a step may change it, 3..8)
 *          1: the method (methods[v % count])
 *          2: stiffness ratio k_stretch = 10^(v % 5)
 *          3: seed of the values and of which nodes and contacts change
 *   step   0: A's pattern, "KMSADRN"[v % 7] (testsys_steps.h)
 *          1: v < 128: node v % N moves on to its next constraint kind
 *          2: A's scale 10^((v % 61 - 30) / 10)
 *          3: bits 0-2 A's form (CSC or triplets x lower, upper, both),
 *             bits 3-4 the stretch pairs (all, a subset, shuffled),
 *             bit 5 every constrained node's directions anew, bit 6 the
 *             random guess x0 (else none)
 * The contract checked at every step:
 *   - setup and every update return OK: the system is SPD, so the handle
 *     is never emptied, and analysis_reused follows the method's rule;
 *   - both solves return a code the library names, >= 0 (OK, or
 *     NOT_CONVERGED within FUZZ_MAX_ITER), with converged to match;
 *   - what info reports of an answer (relative residual, constraint
 *     error) is what the caller's system gives, measured here densely
 *     without the library; a converged answer's residual is at most tol
 *     (1e-8, the default stopping rule; 1e-6 for direct), and every
 *     answer holds the constraints to 1e-10 of its size;
 *   - every method but auto computes on the kept handle exactly what it
 *     computes on the fresh one (status, iterations, x to 1e-12). */
#include "setup_for.h"
#include "fuzz_check.h"
#include "testsys_steps.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_STEPS 12
#define FUZZ_MAX_ITER 1000
#define FUZZ_TOL 1e-8

static const struct {
    corepcg_method method;
    corepcg_precond precond;
    int ic_fill;
} methods[] = {
    {COREPCG_METHOD_AUTO, COREPCG_PRECOND_DIAG, 0},
    {COREPCG_METHOD_ICPCG, COREPCG_PRECOND_DIAG, 0},
    {COREPCG_METHOD_ICPCG, COREPCG_PRECOND_DIAG, 1},
    {COREPCG_METHOD_COREPCG, COREPCG_PRECOND_DIAG, 0},
    {COREPCG_METHOD_UPCG, COREPCG_PRECOND_DIAG, 0},
    {COREPCG_METHOD_UPCG, COREPCG_PRECOND_BLOCK, 0},
    {COREPCG_METHOD_UPCG, COREPCG_PRECOND_PROJECTED, 0},
    {COREPCG_METHOD_DIRECT, COREPCG_PRECOND_DIAG, 0},
    {COREPCG_METHOD_MPCG, COREPCG_PRECOND_DIAG, 0},
    {COREPCG_METHOD_MPCG, COREPCG_PRECOND_BLOCK, 0},
    {COREPCG_METHOD_MPCG_BW, COREPCG_PRECOND_DIAG, 0},
    {COREPCG_METHOD_MPCG_BW, COREPCG_PRECOND_BLOCK, 0},
};
#define NMETHODS (sizeof methods / sizeof methods[0])

/* The step's changes but A's pattern, from its last three bytes. */
static void apply_step_bytes(steps_scene *sc, const uint8_t *v)
{
    if (v[1] < 128)
        steps_advance_node(sc, v[1] % sc->N);
    sc->scale = pow(10, (v[2] % 61 - 30) / 10.0);
    int form = (v[3] & 7) % 6;
    sc->format = (corepcg_format)(form / 3);
    sc->triangle = (corepcg_triangle)(form % 3);
    steps_stretch stretch = (steps_stretch)(((v[3] >> 3) & 3) % STEPS_STRETCH_COUNT);
    if (stretch != sc->stretch)
        sc->subset_seed = v[2] + 256UL * v[1];
    sc->stretch = stretch;
    if (v[3] & 32)
        steps_redirect(sc);
}

/* An answer's measures, from the caller's arrays, against what info
 * says and what its status claims. */
static void check_answer(const testsys *t, const corepcg_info *info,
                         const double *x, double rres_max, const char *who)
{
    double cerr, rres;
    testsys_system_measures(&t->sys, t->b, x, &cerr, &rres);
    double big = fmax(1, fmax(testsys_max_abs(t->n, x), testsys_max_abs(t->n, t->z)));
    FUZZ_REQUIRE(cerr <= 1e-10 * big && info->constraint_error <= 1e-10 * big,
                 "%s: constraint error %.3g (info %.3g), |x| %.3g", who, cerr,
                 info->constraint_error, big);
    FUZZ_REQUIRE(fabs(info->rel_residual - rres) <= 1e-11 + 1e-6 * rres,
                 "%s: info says relative residual %.3g, the system gives %.3g",
                 who, info->rel_residual, rres);
    if (info->status == COREPCG_OK)
        FUZZ_REQUIRE(rres <= rres_max,
                     "%s: converged, but the relative residual is %.3g", who,
                     rres);
}

static void check_solve(int rc, const corepcg_info *info, const char *who)
{
    FUZZ_REQUIRE(fuzz_is_code(rc) && rc >= 0 && info->status == rc,
                 "%s: solve returned %d (info %d) on an SPD system", who, rc,
                 info->status);
    FUZZ_REQUIRE(info->converged == (rc == COREPCG_OK) &&
                     info->iterations >= 0 && info->iterations <= FUZZ_MAX_ITER,
                 "%s: status %d, converged %d, iterations %d", who, rc,
                 info->converged, info->iterations);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    int m = data[1] % (int)NMETHODS;
    corepcg_settings set;
    corepcg_settings_default(&set);
    set.method = methods[m].method;
    set.precond = methods[m].precond;
    corepcg_option_set(&set, corepcg_option_from_name("ic_fill"), methods[m].ic_fill);
    set.tol = FUZZ_TOL;
    set.max_iter = FUZZ_MAX_ITER;
    /* what a converged answer's residual may be: tol, the default
     * stopping rule (residual), but for round-off; direct: its own
     * round-off at these condition numbers */
    double rres_max = set.method == COREPCG_METHOD_DIRECT ? 1e-6
                                                          : FUZZ_TOL + 1e-11;
    steps_scene sc;
    steps_init(&sc, 1 + data[3], 3 + data[0] % 4, pow(10, data[2] % 5));
    corepcg_solver *kept = NULL, *fresh = NULL;
    FUZZ_REQUIRE(corepcg_create(&kept) == COREPCG_OK, "create");
    steps_shape shapes[2];
    size_t nmax = 3 * STEPS_MAX_NODES;
    double *x = malloc(sizeof(double) * nmax), *xf = malloc(sizeof(double) * nmax);
    FUZZ_REQUIRE(x && xf, "harness out of memory");
    int steps = (int)((size - 4) / 4);
    if (steps > FUZZ_STEPS)
        steps = FUZZ_STEPS;
    for (int step = 0; step <= steps; step++) {
        const uint8_t *v = data + 4 + 4 * (step - 1);
        if (step > 0) {
            steps_change_pattern(&sc, "KMSADRN"[v[0] % 7]);
            apply_step_bytes(&sc, v);
        }
        testsys t;
        FUZZ_REQUIRE(steps_build(&sc, step, &t) == 0, "harness out of memory");
        steps_shape *now = &shapes[step % 2], *prev = &shapes[(step + 1) % 2];
        steps_shape_of(&t, now);
        const double *x0 = step > 0 && (v[3] & 64) ? t.x0 : NULL;
        corepcg_info up, info, finfo;
        int rc;
        if (step == 0) {
            rc = setup_for(kept, &t.sys, &set);
            FUZZ_REQUIRE(rc == COREPCG_OK, "step 0: setup %d: %s", rc,
                         corepcg_message(kept));
        } else {
            rc = corepcg_update(kept, &t.sys, &up);
            FUZZ_REQUIRE(rc == COREPCG_OK && up.status == rc,
                         "step %d: update %d on an SPD system: %s", step, rc,
                         corepcg_message(kept));
            steps_change c = steps_change_of(prev, now);
            int want = steps_expected_reuse(set.method, &c);
            if (want < 0 && !steps_auto_reuse_allowed(up.method_used, &c))
                want = 0;
            FUZZ_REQUIRE(want < 0 || up.analysis_reused == want,
                         "step %d: analysis_reused %d, expected %d (%s ran)",
                         step, up.analysis_reused, want,
                         corepcg_method_name(up.method_used));
        }
        rc = corepcg_solve(kept, t.b, x0, x, &info);
        check_solve(rc, &info, "kept");
        check_answer(&t, &info, x, rres_max, "kept");

        FUZZ_REQUIRE(corepcg_create(&fresh) == COREPCG_OK, "create");
        int frc = setup_for(fresh, &t.sys, &set);
        FUZZ_REQUIRE(frc == COREPCG_OK, "step %d: fresh setup %d: %s", step,
                     frc, corepcg_message(fresh));
        frc = corepcg_solve(fresh, t.b, x0, xf, &finfo);
        check_solve(frc, &finfo, "fresh");
        check_answer(&t, &finfo, xf, rres_max, "fresh");
        corepcg_free(&fresh);
        if (set.method != COREPCG_METHOD_AUTO) {
            double d = testsys_max_diff(t.n, x, xf);
            double s = fmax(1e-300, testsys_max_abs(t.n, xf));
            FUZZ_REQUIRE(rc == frc && info.iterations == finfo.iterations &&
                             d <= 1e-12 * s,
                         "step %d: kept status %d, %d iterations; fresh %d, "
                         "%d; |x - x_fresh| = %.3g of %.3g", step, rc,
                         info.iterations, frc, finfo.iterations, d, s);
        }
        testsys_free(&t);
    }
    corepcg_free(&kept);
    free(x);
    free(xf);
    return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_step_sequence.c -- "the step loop is always right" (issue 17): one
 * handle kept across a simulator's steps, whatever the steps do, gives
 * what a fresh handle gives on each step's system. Public API only, on
 * systems from tests/testsys.c (no library code).
 *
 * Seeded step sequences on cloth-like grids (3x3..8x8) in which, between
 * steps, "contact" springs between nodes no spring joins come, go, move
 * to other node pairs (the same number of blocks) and come back (A -> B ->
 * B -> A); nodes' constraints go round 3 -> 2 -> 0 -> 1 -> 3 free
 * directions; the stretch pairs drop a third or arrive shuffled and
 * flipped; the grid size changes; A's scale jumps by up to 1e3 either way
 * (stiffness ratios to 1e4 within a step); A arrives as CSC or triplets,
 * lower, upper or both triangles. The first sequence is the issue's:
 * setup(P1), update(P2), update(P2), ... with P2 a moved contact.
 *
 * FEM-like sequences (testsys_steps.h's FEM scenes) split the grids' quads
 * into triangles, hand their diagonals over as stretch pairs too, and add
 * to the springs a membrane per triangle and a dihedral hinge per chosen
 * pair of triangles that share an edge: k g g^T over its four nodes, whose
 * blocks between the two vertices opposite the edge are not symmetric and
 * not in the core. Between steps, besides the changes above, hinges go
 * (O) and come (H: on all, about 40% or about 5% of the interior edges),
 * their stiffness jumps 10 to 100 times (J), a few come with one wing
 * fixed (F: the block the core leaves out is projected away), quads take
 * their other diagonal (T) and membranes go and come (E). So corepcg's
 * core turns from plain to compensated and back while its analysis is
 * kept (docs/design.md, "The matrix core").
 *
 * Asserted at every step for every method (auto, icpcg and icpcg fill 1,
 * corepcg, upcg with each preconditioner, direct, mpcg, mpcg-bw, amgpcg
 * with a hierarchy of 2-3 levels), after
 * corepcg_update + corepcg_solve on the kept handle and corepcg_setup +
 * corepcg_solve on a fresh one with the same arrays:
 *  - the update returns OK (an SPD system never empties the handle) and
 *    both solves return OK (converged);
 *  - measured here from the caller's arrays: constraint error <= 1e-12
 *    max(1, |x|, |z|), relative residual <= tol = 1e-8 (the stopping
 *    rule; RRES_DIRECT for direct), and the answer within X_ITER /
 *    X_DIRECT of the dense answer (LAPACK on [S A + (I - S)] x = S b +
 *    (I - S) z);
 *  - the kept handle's info.rel_residual and constraint_error are those
 *    measures (a wrong A inside the handle shows here: it reports the
 *    residual of a system the caller never gave);
 *  - kept and fresh agree: every method but auto to 1e-12 relative with
 *    the same iterations (the same computation: reusing an analysis must
 *    not change the answer), auto (which may choose another candidate
 *    than a fresh handle) within 2 X_ITER;
 *  - info.analysis_reused follows each method's rule (corepcg_update's
 *    comment, src/method_*.c same_pattern; testsys_steps.c has them):
 *    direct keeps its analysis while N and A's block pattern hold;
 *    corepcg while these and the set of stretch pairs (unordered,
 *    unoriented: they arrive shuffled) hold; icpcg while the block
 *    pattern and the set of fixed (ndof 0) nodes hold; upcg while the
 *    block pattern and every node's ndof hold; mpcg and mpcg-bw while N
 *    holds; amgpcg while the block pattern and the stretch pairs (as
 *    given) hold. auto: 0 on a new N, and 0 whenever the rule of the candidate
 *    it chose (info.method_used) says that candidate must analyse (else
 *    it may be either: a candidate analyses on its first step on a
 *    pattern);
 *  - which core corepcg factorised: info.core_compensated is 1 exactly
 *    on the steps whose core leaves out a block that is not symmetric
 *    between two nodes that keep a free direction (known from the scene:
 *    steps_left_out_asymmetric), else 0 (the plain core is then SPD), on
 *    the kept and the fresh handle, and the update's info says what the
 *    solve's does; on steps with hinges corepcg converges within max_iter
 *    iterations. auto's info is held to the same on the steps where its
 *    kept or fresh handle ran corepcg (auto's measured times decide what
 *    runs: on these small grids icpcg comes first and stays the fastest,
 *    so auto may never run corepcg here; the run says how often it did);
 *  - the run saw what it claims: pattern changes, ndof moves, forms, and
 *    plain and compensated cores, hinges on the plain core (F), and the
 *    core turning either way while corepcg kept its analysis, where a
 *    kept handle could carry one step's core over to the next.
 */
#include "setup_for.h"
#include "corepcg.h"
#include "test.h"
#include "testsys_steps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TOL 1e-8          /* tol of the iterative methods */
/* The default stopping rule (settings.stop, residual) is the measure
 * itself: |S(b - A x)| <= tol |S(b - A(I - S)z)|, confirmed on b - A x
 * computed afresh. So a converged answer's relative residual is <= tol,
 * up to the round-off between the library's sparse product and the dense
 * one here (RES_ROUNDOFF: at most 7e-15 measured; the worst residual is
 * 0.9999 tol). The error runs 10 to 100 times the residual on cloth
 * (docs/design.md, "Stopping"): X_ITER is 100 tol, the worst 6.6e-8.
 * Direct: worst residual 1.6e-14, error 2e-9 (condition up to ~1e6). */
#define RES_ROUNDOFF 1e-12
#define RRES_ITER (TOL + RES_ROUNDOFF)
#define X_ITER (100 * TOL)
#define RRES_DIRECT 1e-10
#define X_DIRECT 1e-7
#define KEPT_REL 1e-12    /* kept vs fresh handle, same method */
#define CERR_REL 1e-12

/* ------------------------------------------------------------ methods */

struct method_case {
    corepcg_method method;
    corepcg_precond precond;
    int ic_fill;
    const char *label;
};

/* amgpcg, a method added since the header's constants: its value from
 * its name (main), and a coarsest level of 4 nodes, so that these small
 * grids get a hierarchy of 2-3 levels */
#define AMG_CASE 10
#define AMG_COARSE_NODES 4

static struct method_case cases[] = {
    {COREPCG_METHOD_AUTO, COREPCG_PRECOND_DIAG, 0, "auto"},
    {COREPCG_METHOD_ICPCG, COREPCG_PRECOND_DIAG, 0, "icpcg"},
    {COREPCG_METHOD_ICPCG, COREPCG_PRECOND_DIAG, 1, "icpcg-fill1"},
    {COREPCG_METHOD_COREPCG, COREPCG_PRECOND_DIAG, 0, "corepcg"},
    {COREPCG_METHOD_UPCG, COREPCG_PRECOND_DIAG, 0, "upcg-diag"},
    {COREPCG_METHOD_UPCG, COREPCG_PRECOND_BLOCK, 0, "upcg-block"},
    {COREPCG_METHOD_UPCG, COREPCG_PRECOND_PROJECTED, 0, "upcg-projected"},
    {COREPCG_METHOD_DIRECT, COREPCG_PRECOND_DIAG, 0, "direct"},
    {COREPCG_METHOD_MPCG, COREPCG_PRECOND_DIAG, 0, "mpcg"},
    {COREPCG_METHOD_MPCG_BW, COREPCG_PRECOND_DIAG, 0, "mpcg-bw"},
    {COREPCG_METHODS_NAMED, COREPCG_PRECOND_DIAG, 0, "amgpcg"}, /* AMG_CASE */
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static void settings_of(const struct method_case *c, corepcg_settings *s)
{
    corepcg_settings_default(s);
    s->method = c->method;
    s->precond = c->precond;
    corepcg_option_set(s, corepcg_option_from_name("ic_fill"), c->ic_fill);
    if (c == &cases[AMG_CASE])
        corepcg_option_set(s, corepcg_option_from_name("amg_coarse_nodes"),
                           AMG_COARSE_NODES);
    s->tol = TOL;
}

/* What the kept handle of one method saw over the run. */
static struct {
    int steps, reused, resetups;
    double x_rel, rres, kept_rel;
} stats[NCASES];

/* Which cores corepcg's kept handle met (from the scenes, not the
 * library). */
static struct {
    int steps[2];      /* steps by the expected core: plain, compensated */
    int fem_plain;     /* FEM scenes' steps on the plain core */
    int hinge_steps;   /* steps with a hinge */
    int hinge_plain;   /* ... on the plain core: each pair of a hinge's
                          nodes that the core leaves out has a fixed node */
    int turns[2];      /* the expected core went plain -> compensated,
                          compensated -> plain, while corepcg kept its
                          analysis */
    int iterations[2]; /* corepcg's most, plain and compensated steps */
    int auto_core[2];  /* auto's kept handle ran corepcg, by core */
    int auto_both;     /* ... and so did the fresh one */
} core_seen;

/* What the sequences exercised (from testsys's blocks, not the library). */
static struct {
    int same_count;    /* block pattern changed, block count kept */
    int rows_only;     /* ... every column's count kept: rows changed */
    int other_count;   /* block pattern changed with the block count */
    int came_back;     /* the pattern of two steps ago again */
    int new_N;
    int ndof_moves[4]; /* nodes going 3->2, 2->0, 0->1, 1->3 */
    int stretch;       /* the set of stretch pairs changed */
    unsigned forms;    /* bit 3 format + triangle: each form seen */
    int icpcg_full_only; /* icpcg kept its analysis while only the set of
                            fully free nodes changed (see main) */
    int amg_levels;        /* the most levels amgpcg's hierarchy had */
    int auto_must_analyse; /* auto updates whose chosen candidate's rule
                              says its analysis does not hold */
} seen;

/* ------------------------------------------------------------ scenes */

static char random_action(testsys_rng *r)
{
    static const char weighted[] = "KKKKKKMMMSSSAADDRRN";
    return weighted[(int)(testsys_uniform(r) * (sizeof weighted - 1))];
}

/* FEM scenes: the contacts' letters and the elements' (testsys_steps.h),
 * hinges coming and going most. */
static char random_fem_action(testsys_rng *r)
{
    static const char weighted[] = "KKKMMSADRNHHHHOOOOJJJTTEFF";
    return weighted[(int)(testsys_uniform(r) * (sizeof weighted - 1))];
}

/* Everything but A's pattern between two steps: constraints, stretch
 * pairs, A's form and scale. */
static void change_rest(steps_scene *sc)
{
    testsys_rng *r = &sc->rng;
    if (testsys_uniform(r) < 0.6) {
        int count = 1 + (int)(3 * testsys_uniform(r));
        for (int k = 0; k < count; k++)
            steps_advance_node(sc, (int)(sc->N * testsys_uniform(r)));
    }
    if (testsys_uniform(r) < 0.3)
        steps_redirect(sc);
    if (testsys_uniform(r) < 0.12) {
        sc->stretch = (steps_stretch)(int)(STEPS_STRETCH_COUNT * testsys_uniform(r));
        sc->subset_seed = (unsigned long)(testsys_uniform(r) * 1e9);
    }
    if (testsys_uniform(r) < 0.12) {
        sc->format = (corepcg_format)(int)(2 * testsys_uniform(r));
        sc->triangle = (corepcg_triangle)(int)(3 * testsys_uniform(r));
    }
    sc->scale = pow(10, -3 + 6 * testsys_uniform(r));
}

static void record_coverage(const steps_shape *prev, const steps_shape *now,
                            const steps_shape *before, const steps_change *c)
{
    static const int next_ndof[4] = {1, 3, 0, 2}; /* steps_advance_node's */
    static const int move_of[4] = {2, 3, 1, 0};   /* 0->1 is ndof_moves[2] */
    seen.new_N += c->N;
    seen.same_count += !c->N && c->blocks && prev->nblocks == now->nblocks;
    seen.rows_only += !c->N && c->blocks &&
                      memcmp(prev->bp, now->bp, sizeof(int) * ((size_t)now->N + 1)) == 0;
    seen.other_count += !c->N && prev->nblocks != now->nblocks;
    seen.came_back += c->blocks && before && steps_same_blocks(before, now);
    seen.stretch += !c->N && c->stretch;
    for (int i = 0; !c->N && i < now->N; i++)
        if (prev->ndof[i] != now->ndof[i] &&
            next_ndof[prev->ndof[i]] == now->ndof[i])
            seen.ndof_moves[move_of[prev->ndof[i]]]++;
}

/* ------------------------------------------------------------ checks */

static double rel_diff(int n, const double *x, const double *ref)
{
    double s = testsys_max_abs(n, ref);
    return testsys_max_diff(n, x, ref) / (s > 0 ? s : 1);
}

/* One step's system and what every method is compared with. */
struct step {
    const testsys *t;
    const double *x0;
    const double *xd;     /* the dense answer */
    steps_change change;  /* from the kept handles' previous system */
    int first;            /* the handles are set up, not updated */
    int fem;              /* an FEM scene's step */
    int hinges;           /* the scene's hinges this step */
    int compensated;      /* the core corepcg must factorise: 1 when it
                             leaves out a block that is not symmetric */
    int turned;           /* ... and the previous step's was the other */
    char where[96];       /* "sequence 3 step 17 (M, 6x6 csc lower, 12
                             hinges)" */
};

static int setup_solve(corepcg_solver *h, const struct method_case *mc,
                       const struct step *st, double *x, corepcg_info *info)
{
    corepcg_settings s;
    settings_of(mc, &s);
    int rc = setup_for(h, &st->t->sys, &s);
    return rc < 0 ? rc : corepcg_solve(h, st->t->b, st->x0, x, info);
}

/* The answer of one handle measured from the caller's arrays. */
static void check_answer(int c, const struct step *st, const double *x,
                         const corepcg_info *info, const char *who)
{
    const testsys *t = st->t;
    int n = t->n, direct = cases[c].method == COREPCG_METHOD_DIRECT;
    double rres_max = direct ? RRES_DIRECT : RRES_ITER;
    double cerr, rres;
    testsys_system_measures(&t->sys, t->b, x, &cerr, &rres);
    double big = fmax(1, fmax(testsys_max_abs(n, x), testsys_max_abs(n, t->z)));
    double xr = rel_diff(n, x, st->xd);
    CHECK(cerr <= CERR_REL * big, "%s, %s %s: constraint error %.3g (|x| %.3g)",
          st->where, cases[c].label, who, cerr, big);
    CHECK(rres <= rres_max,
          "%s, %s %s: relative residual %.3g", st->where, cases[c].label, who,
          rres);
    CHECK(xr <= (direct ? X_DIRECT : X_ITER),
          "%s, %s %s: |x - x_dense| / |x_dense| = %.3g", st->where,
          cases[c].label, who, xr);
    /* what the handle says of its answer is what the caller's system says */
    CHECK(fabs(info->rel_residual - rres) <= RES_ROUNDOFF + 1e-6 * rres &&
              fabs(info->constraint_error - cerr) <= 1e-12 * big,
          "%s, %s %s: info says residual %.3g, constraint error %.3g; the "
          "system gives %.3g, %.3g", st->where, cases[c].label, who,
          info->rel_residual, info->constraint_error, rres, cerr);
    stats[c].x_rel = fmax(stats[c].x_rel, xr);
    stats[c].rres = fmax(stats[c].rres, rres);
}

/* Which core corepcg factorised (a kept handle's, auto's when it ran
 * corepcg, and the fresh handle's): the compensated one exactly when the
 * core leaves out a block that is not symmetric, known here from the
 * scene's elements (docs/design.md, "The matrix core"). A kept handle
 * decides from this step's A as a fresh one does, never from the steps
 * before. */
static void check_core(int c, const struct step *st, const corepcg_info *up,
                       const corepcg_info *info, const corepcg_info *finfo)
{
    const struct method_case *mc = &cases[c];
    int core = mc->method == COREPCG_METHOD_COREPCG;
    int kept_ran = info->method_used == COREPCG_METHOD_COREPCG;
    int fresh_ran = finfo->method_used == COREPCG_METHOD_COREPCG;
    if (core)
        CHECK(kept_ran && fresh_ran, "%s, corepcg: %s and %s ran", st->where,
              corepcg_method_name(info->method_used),
              corepcg_method_name(finfo->method_used));
    if (kept_ran)
        CHECK(info->core_compensated == st->compensated,
              "%s, %s kept: core_compensated %d, expected %d (%s)", st->where,
              mc->label, info->core_compensated, st->compensated,
              st->compensated ? "a left-out block is not symmetric"
                              : "every left-out block leaves a PSD remainder");
    if (fresh_ran)
        CHECK(finfo->core_compensated == st->compensated,
              "%s, %s fresh: core_compensated %d, expected %d", st->where,
              mc->label, finfo->core_compensated, st->compensated);
    if (core && !st->first) /* the update said what the solve says */
        CHECK(up->core_compensated == info->core_compensated,
              "%s, corepcg: update's core_compensated %d, solve's %d",
              st->where, up->core_compensated, info->core_compensated);
    if (kept_ran && st->hinges)
        CHECK(info->iterations > 0 &&
                  info->iterations < COREPCG_DEFAULT_MAX_ITER,
              "%s, %s: %d iterations with %d hinges", st->where, mc->label,
              info->iterations, st->hinges);
    if (!core) {
        core_seen.auto_core[st->compensated] += kept_ran;
        core_seen.auto_both += kept_ran && fresh_ran;
        return;
    }
    core_seen.steps[st->compensated]++;
    core_seen.fem_plain += st->fem && !st->compensated;
    core_seen.hinge_steps += st->hinges > 0;
    core_seen.hinge_plain += st->hinges > 0 && !st->compensated;
    if (!st->first && st->turned && up->analysis_reused)
        core_seen.turns[st->compensated]++;
    if (info->iterations > core_seen.iterations[st->compensated])
        core_seen.iterations[st->compensated] = info->iterations;
}

/* One method on one step: the kept handle updated (or set up on the first
 * step), a fresh one set up, both solved and compared. */
static void check_method(int c, corepcg_solver *kept, const struct step *st,
                         double *x, double *xf)
{
    const struct method_case *mc = &cases[c];
    const testsys *t = st->t;
    corepcg_info up, info, finfo;
    memset(&up, 0, sizeof up);
    memset(&info, 0, sizeof info);
    memset(&finfo, 0, sizeof finfo);
    int rc;
    if (st->first) {
        rc = setup_solve(kept, mc, st, x, &info);
        CHECK(rc == COREPCG_OK, "%s, %s: setup + solve %d: %s", st->where,
              mc->label, rc, corepcg_message(kept));
    } else {
        rc = corepcg_update(kept, &t->sys, &up);
        CHECK(rc == COREPCG_OK && up.status == rc,
              "%s, %s: update %d (info %d) on an SPD system: %s", st->where,
              mc->label, rc, up.status, corepcg_message(kept));
        int want = steps_expected_reuse(mc->method, &st->change);
        if (want < 0 && !steps_auto_reuse_allowed(up.method_used, &st->change))
            want = 0;
        seen.auto_must_analyse += mc->method == COREPCG_METHOD_AUTO && want == 0;
        CHECK(rc < 0 || want < 0 || up.analysis_reused == want,
              "%s, %s (%s ran): analysis_reused %d, expected %d (blocks %s, "
              "ndof %s, fixed nodes %s, stretch set %s)", st->where, mc->label,
              corepcg_method_name(up.method_used), up.analysis_reused, want,
              st->change.blocks ? "changed" : "kept",
              st->change.ndof ? "changed" : "kept",
              st->change.fixed ? "changed" : "kept",
              st->change.stretch ? "changed" : "kept");
        if (rc >= 0 && mc->method == COREPCG_METHOD_ICPCG && !mc->ic_fill &&
            !st->change.blocks && !st->change.fixed && st->change.full)
            seen.icpcg_full_only += up.analysis_reused;
        if (rc >= 0) {
            stats[c].reused += up.analysis_reused;
            rc = corepcg_solve(kept, t->b, st->x0, x, &info);
            CHECK(rc == COREPCG_OK, "%s, %s: solve after update %d: %s",
                  st->where, mc->label, rc, corepcg_message(kept));
        } else {
            /* (a failure, reported above) set up again, so that the
             * sequence goes on */
            stats[c].resetups++;
            rc = setup_solve(kept, mc, st, x, &info);
            CHECK(rc == COREPCG_OK, "%s, %s: setup after a failed update: %d",
                  st->where, mc->label, rc);
        }
    }
    corepcg_solver *fresh = NULL;
    corepcg_create(&fresh);
    int frc = setup_solve(fresh, mc, st, xf, &finfo);
    CHECK(frc == COREPCG_OK, "%s, %s: fresh setup + solve %d: %s", st->where,
          mc->label, frc, corepcg_message(fresh));
    corepcg_free(&fresh);
    stats[c].steps++;
    if (rc != COREPCG_OK || frc != COREPCG_OK)
        return;
    CHECK(info.status == finfo.status && info.converged && finfo.converged &&
              info.r == finfo.r && info.r == t->r,
          "%s, %s: kept status %d converged %d r %d; fresh %d %d %d; r %d",
          st->where, mc->label, info.status, info.converged, info.r,
          finfo.status, finfo.converged, finfo.r, t->r);
    check_answer(c, st, x, &info, "kept");
    double d = rel_diff(t->n, x, xf);
    stats[c].kept_rel = fmax(stats[c].kept_rel, d);
    if (mc->method == COREPCG_METHOD_AUTO) {
        check_answer(c, st, xf, &finfo, "fresh");
        CHECK(d <= 2 * X_ITER, "%s, auto: kept (%s) vs fresh (%s) differ by "
              "%.3g", st->where, corepcg_method_name(info.method_used),
              corepcg_method_name(finfo.method_used), d);
    } else /* the same computation: what holds for kept holds for fresh */
        CHECK(d <= KEPT_REL && info.iterations == finfo.iterations,
              "%s, %s: kept vs fresh differ by %.3g, iterations %d vs %d",
              st->where, mc->label, d, info.iterations, finfo.iterations);
    if (mc->method == COREPCG_METHOD_COREPCG ||
        mc->method == COREPCG_METHOD_AUTO)
        check_core(c, st, &up, &info, &finfo);
    if (c == AMG_CASE)
        for (int k = 0; k < corepcg_info_count(); k++) {
            double levels = 0;
            if (strcmp(corepcg_info_describe(k)->name, "amg_levels") == 0 &&
                corepcg_info_get(kept, k, &levels) == COREPCG_OK &&
                levels > seen.amg_levels)
                seen.amg_levels = (int)levels;
        }
}

/* ------------------------------------------------------------ sequences */

static const char *form_name(const corepcg_system *s)
{
    static const char *const names[2][3] = {
        {"csc lower", "csc upper", "csc both"},
        {"triplet lower", "triplet upper", "triplet both"}};
    return names[s->A_format][s->A_triangle];
}

/* Runs one sequence, of springs or (fem) FEM-like: script gives the
 * pattern changes (one letter per step after the first), or NULL for
 * random ones. */
static void run_sequence(int seq, unsigned long seed, int g, double k_stretch,
                         int fem, const char *script, int steps)
{
    steps_scene sc;
    if (fem)
        steps_init_fem(&sc, seed, g, k_stretch);
    else
        steps_init(&sc, seed, g, k_stretch);
    corepcg_solver *kept[NCASES];
    for (int c = 0; c < NCASES; c++)
        corepcg_create(&kept[c]);
    /* the shapes of this step and the two before */
    steps_shape *now = malloc(sizeof *now), *prev = malloc(sizeof *prev);
    steps_shape *before = malloc(sizeof *before);
    size_t nmax = 3 * STEPS_MAX_NODES;
    double *x = malloc(sizeof(double) * nmax), *xf = malloc(sizeof(double) * nmax);
    double *xd = malloc(sizeof(double) * nmax);
    int was_compensated = 0;
    for (int step = 0; step < steps; step++) {
        char action = 'K';
        if (step > 0) {
            action = script ? script[step - 1]
                     : fem  ? random_fem_action(&sc.rng)
                            : random_action(&sc.rng);
            steps_change_pattern(&sc, action);
            change_rest(&sc);
        }
        testsys t;
        if (steps_build(&sc, step, &t)) {
            CHECK(0, "sequence %d step %d: out of memory", seq, step);
            break;
        }
        struct step st = {.t = &t, .xd = xd, .first = step == 0};
        st.x0 = step % 2 ? t.x0 : NULL;
        st.fem = fem;
        st.hinges = steps_hinge_count(&sc);
        st.compensated = steps_left_out_asymmetric(&sc, &t);
        st.turned = step > 0 && st.compensated != was_compensated;
        was_compensated = st.compensated;
        snprintf(st.where, sizeof st.where,
                 "sequence %d step %d (%c, %dx%d %s, %d hinges)", seq, step,
                 action, sc.g, sc.g, form_name(&t.sys), st.hinges);
        steps_shape_of(&t, now);
        if (step > 0) {
            st.change = steps_change_of(prev, now);
            record_coverage(prev, now, step > 1 ? before : NULL, &st.change);
        }
        seen.forms |= 1u << (3 * t.sys.A_format + t.sys.A_triangle);
        CHECK_INT(testsys_system_dense_solve(&t.sys, t.b, xd), 0);
        for (int c = 0; c < NCASES; c++)
            check_method(c, kept[c], &st, x, xf);
        steps_shape *oldest = before; /* before <- prev <- now */
        before = prev;
        prev = now;
        now = oldest;
        testsys_free(&t);
    }
    for (int c = 0; c < NCASES; c++)
        corepcg_free(&kept[c]);
    free(before);
    free(prev);
    free(now);
    free(x);
    free(xf);
    free(xd);
}

/* test_step_sequence [STEPS]: with STEPS, also as many more random steps
 * per method, in sequences of 500 on 6x6 grids, every third FEM-like (the
 * long run the issue asks for: `build/tests/test_step_sequence 10000`). */
int main(int argc, char **argv)
{
    /* Each sequence: its seed, grid, k_stretch, FEM-like or not, and its
     * script (NULL: random steps) of so many steps. */
    static const struct {
        unsigned long seed;
        int g;
        double k_stretch;
        int fem;
        const char *script;
        int steps;
    } sequences[] = {
        /* the issue's: a contact moves to another node pair (the same
         * block count) and stays, comes back, and so on */
        {17, 5, 50, 0, "SKKRKMKKSKKRKMMKKAKDKSKRKK", 27},
        {100, 3, 50, 0, NULL, 30}, {101, 4, 1e3, 0, NULL, 30},
        {102, 6, 50, 0, NULL, 30}, {103, 8, 1e4, 0, NULL, 20},
        {104, 5, 1e4, 0, NULL, 30}, {105, 7, 1e3, 0, NULL, 30},
        {106, 4, 1, 0, NULL, 30}, {107, 6, 300, 0, NULL, 30},
        /* FEM-like: hinges go (O) and come (H) on one pattern of the core,
         * so that corepcg keeps its analysis while its core turns plain
         * and compensated; their stiffness jumps (J), the triangulation
         * (T), the membranes (E) and the contacts change */
        {23, 5, 50, 1, "OKHKJOKKHJJKOEKHKMKOKFKHKTKOKEHKJKSKOAKFKHKDOKHK", 49},
        {200, 4, 50, 1, NULL, 30}, {201, 6, 1e3, 1, NULL, 30},
        {202, 3, 300, 1, NULL, 30}, {203, 8, 50, 1, NULL, 25},
        {204, 5, 1e4, 1, NULL, 30}, {205, 7, 1, 1, NULL, 30},
    };
    cases[AMG_CASE].method = (corepcg_method)corepcg_method_from_name("amgpcg");
    CHECK(cases[AMG_CASE].method >= COREPCG_METHODS_NAMED, "amgpcg: %d", cases[AMG_CASE].method);
    int seq = (int)(sizeof sequences / sizeof sequences[0]);
    for (int k = 0; k < seq; k++)
        run_sequence(k, sequences[k].seed, sequences[k].g, sequences[k].k_stretch,
                     sequences[k].fem, sequences[k].script, sequences[k].steps);
    long extra = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
    for (int k = 0; extra > 0; k++, extra -= 500)
        run_sequence(seq + k, 1000 + (unsigned long)k, 6, k % 2 ? 1e4 : 50,
                     k % 3 == 2, NULL, 500);
    printf("steps checked per method:");
    for (int c = 0; c < NCASES; c++)
        printf(" %s %d%s", cases[c].label, stats[c].steps,
               c + 1 < NCASES ? "," : "\n");
    for (int c = 0; c < NCASES; c++)
        printf("  %-15s analysis reused %3d, set up again after a failed "
               "update %2d; worst |x - x_dense| %.1e, residual %.1e, "
               "kept vs fresh %.1e\n", cases[c].label, stats[c].reused,
               stats[c].resetups, stats[c].x_rel, stats[c].rres,
               stats[c].kept_rel);
    printf("exercised: %d pattern changes with the block count kept (%d "
           "with every column's), %d with it changed, %d back to two steps "
           "ago, %d new sizes, %d stretch sets; nodes 3->2 %d, 2->0 %d, "
           "0->1 %d, 1->3 %d; forms 0x%x; icpcg kept its analysis across "
           "ndof changes among 3, 2, 1 on %d steps; auto's candidate had to "
           "analyse on %d\n", seen.same_count,
           seen.rows_only, seen.other_count, seen.came_back,
           seen.new_N, seen.stretch, seen.ndof_moves[0], seen.ndof_moves[1],
           seen.ndof_moves[2], seen.ndof_moves[3], seen.forms,
           seen.icpcg_full_only, seen.auto_must_analyse);
    /* the run exercised what it claims to */
    CHECK(seen.same_count >= 40 && seen.rows_only >= 10 &&
              seen.other_count >= 30 &&
              seen.came_back >= 8 && seen.new_N >= 3 && seen.stretch >= 10,
          "too few pattern changes");
    for (int k = 0; k < 4; k++)
        CHECK(seen.ndof_moves[k] >= 25, "ndof move %d seen %d times", k,
              seen.ndof_moves[k]);
    CHECK_INT(seen.forms, 0x3f);
    CHECK(seen.amg_levels >= 3, "amgpcg's hierarchy: at most %d levels", seen.amg_levels);
    CHECK(seen.icpcg_full_only >= 10 && seen.auto_must_analyse >= 10,
          "icpcg across ndof 3, 2, 1: %d steps; auto analysing: %d",
          seen.icpcg_full_only, seen.auto_must_analyse);
    printf("cores: corepcg plain on %d steps (%d in FEM scenes), compensated "
           "on %d; %d steps with hinges, %d of them plain; turned "
           "compensated %d and plain %d times with its analysis kept; most "
           "iterations %d plain, %d compensated; auto ran corepcg on %d "
           "plain and %d compensated steps (the fresh handle too on %d)\n",
           core_seen.steps[0], core_seen.fem_plain, core_seen.steps[1],
           core_seen.hinge_steps, core_seen.hinge_plain, core_seen.turns[1],
           core_seen.turns[0], core_seen.iterations[0],
           core_seen.iterations[1], core_seen.auto_core[0],
           core_seen.auto_core[1], core_seen.auto_both);
    /* the turns with the analysis kept are where a kept handle could
     * carry a step's core over to the next */
    CHECK(core_seen.steps[1] >= 80 && core_seen.fem_plain >= 40 &&
              core_seen.hinge_steps >= 80 && core_seen.hinge_plain >= 5 &&
              core_seen.turns[0] >= 10 && core_seen.turns[1] >= 10,
          "too few compensated or plain cores, hinges or turns");
    return test_summary("test_step_sequence");
}

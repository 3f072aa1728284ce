/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_oom.c -- allocation failure inside the library.
 *
 * Every allocation the library makes goes through one counting allocator:
 * its own malloc/calloc/realloc/free calls by the linker's --wrap (this
 * test links the internal static library with -Wl,--wrap=malloc,...), and
 * CHOLMOD's (and AMD's, COLAMD's...) through SuiteSparse_config's
 * function pointers, which are process-global in SuiteSparse 5: a test may
 * set them, the library never does (checked below). For each scenario the
 * k-th allocation is made to fail, for k = 1, 2, ... until a run makes no
 * more than k - 1 allocations; once with that single failure, once with
 * every allocation from the k-th on failing. Each run must
 *   - return COREPCG_ERR_NO_MEMORY (or succeed with the right answer, when
 *     the library could do without that allocation),
 *   - leave no allocation behind once the handle is freed (the allocator
 *     keeps a table of live blocks; ASan/LSan watch too in build-sanitize),
 *   - leave the handle usable: an update alone (a simulation's next step)
 *     and then setup again succeed, with the answer of an undisturbed run.
 * The scenarios cover every method (icpcg, amgpcg and auto since an outside
 * review found them missing). posix_memalign (buffers.c's huge-page
 * storage, 2 MiB and up) is not wrapped: these systems are too small for
 * it. */
#include "setup_for.h"
#include "test.h"
#include "corepcg.h"

#include <stdint.h>
#include <suitesparse/SuiteSparse_config.h>
#include <unistd.h>

#ifndef COREPCG_DATA_DIR
#define COREPCG_DATA_DIR "data"
#endif

/* ------------------------------------------------- the counting allocator */

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void __real_free(void *p);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);
void __wrap_free(void *p);

#define TABLE_SIZE (1 << 18) /* open addressing; far more than live blocks */

static void *live_table[TABLE_SIZE];
static long live_count;      /* blocks in the table */
static int armed;            /* count (and fail) allocations */
static long seen;            /* allocations counted since armed */
static long fail_at;         /* 0: none; else the first one to fail */
static int fail_all_after;   /* 1: every allocation from fail_at on fails */
static long failures;        /* how many were refused */

static size_t slot_of(const void *p)
{
    uintptr_t h = (uintptr_t)p;
    h ^= h >> 17;
    h *= 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 20) & (TABLE_SIZE - 1);
}

static void track(void *p)
{
    if (!p)
        return;
    size_t k = slot_of(p);
    while (live_table[k] && live_table[k] != (void *)1)
        k = (k + 1) & (TABLE_SIZE - 1);
    live_table[k] = p;
    live_count++;
}

/* Removes p; 0 when p was not allocated through the wrappers (libc's own
 * getline or strdup buffers, freed by the library, are such). */
static int untrack(void *p)
{
    size_t k = slot_of(p);
    while (live_table[k]) {
        if (live_table[k] == p) {
            live_table[k] = (void *)1; /* tombstone */
            live_count--;
            return 1;
        }
        k = (k + 1) & (TABLE_SIZE - 1);
    }
    return 0;
}

static int refuse(void)
{
    if (!armed)
        return 0;
    seen++;
    if (fail_at && (seen == fail_at || (fail_all_after && seen > fail_at))) {
        failures++;
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t size)
{
    if (refuse())
        return NULL;
    void *p = __real_malloc(size);
    track(p);
    return p;
}

void *__wrap_calloc(size_t count, size_t size)
{
    if (refuse())
        return NULL;
    void *p = __real_calloc(count, size);
    track(p);
    return p;
}

void *__wrap_realloc(void *p, size_t size)
{
    if (refuse())
        return NULL; /* p stays valid, as realloc promises */
    int known = p ? untrack(p) : 0;
    void *q = __real_realloc(p, size);
    if (q && (known || !p))
        track(q);
    else if (!q && known)
        track(p);
    return q;
}

void __wrap_free(void *p)
{
    if (p)
        untrack(p);
    __real_free(p);
}

static void arm(long k, int all_after)
{
    seen = 0;
    failures = 0;
    fail_at = k;
    fail_all_after = all_after;
    armed = 1;
}

static void disarm(void)
{
    armed = 0;
    fail_at = 0;
}

/* ------------------------------------------------------------ scenarios */

typedef struct config {
    const char *name;
    corepcg_method method;
    corepcg_precond precond;
    corepcg_factor factor;
    corepcg_ordering ordering;
    corepcg_core core;
    int fallback;
    int core_indefinite; /* the system whose core is not SPD */
    int triplets;        /* that system as triplets: the copied import map */
} config;

static const config configs[] = {
    {"corepcg", COREPCG_METHOD_COREPCG, 0, COREPCG_FACTOR_AUTO, 0, 0, 0, 0, 0},
    {"corepcg ldl amd", COREPCG_METHOD_COREPCG, 0, COREPCG_FACTOR_LDL,
     COREPCG_ORDERING_AMD, 0, 0, 0, 0},
    {"corepcg ll metis", COREPCG_METHOD_COREPCG, 0, COREPCG_FACTOR_LL,
     COREPCG_ORDERING_METIS, 0, 0, 0, 0},
    {"corepcg core auto", COREPCG_METHOD_COREPCG, 0, COREPCG_FACTOR_AUTO, 0,
     COREPCG_CORE_AUTO, 0, 0, 0},
    {"corepcg fallback", COREPCG_METHOD_COREPCG, 0, COREPCG_FACTOR_AUTO, 0, 0,
     1, 1, 0},
    {"direct", COREPCG_METHOD_DIRECT, 0, COREPCG_FACTOR_AUTO, 0, 0, 0, 0, 0},
    {"direct ldl nesdis", COREPCG_METHOD_DIRECT, 0, COREPCG_FACTOR_LDL,
     COREPCG_ORDERING_NESDIS, 0, 0, 0, 0},
    {"upcg diag", COREPCG_METHOD_UPCG, COREPCG_PRECOND_DIAG, 0, 0, 0, 0, 0, 0},
    {"upcg block", COREPCG_METHOD_UPCG, COREPCG_PRECOND_BLOCK, 0, 0, 0, 0, 0, 0},
    {"upcg projected", COREPCG_METHOD_UPCG, COREPCG_PRECOND_PROJECTED, 0, 0, 0,
     0, 0, 0},
    {"mpcg", COREPCG_METHOD_MPCG, COREPCG_PRECOND_DIAG, 0, 0, 0, 0, 0, 0},
    {"mpcg block", COREPCG_METHOD_MPCG, COREPCG_PRECOND_BLOCK, 0, 0, 0, 0, 0, 0},
    {"mpcg-bw", COREPCG_METHOD_MPCG_BW, COREPCG_PRECOND_DIAG, 0, 0, 0, 0, 0, 0},
    {"direct triplets", COREPCG_METHOD_DIRECT, 0, COREPCG_FACTOR_AUTO, 0, 0, 0,
     1, 1},
    {"icpcg", COREPCG_METHOD_ICPCG, 0, 0, 0, 0, 0, 0, 0},
    {"icpcg triplets", COREPCG_METHOD_ICPCG, 0, 0, 0, 0, 0, 1, 1},
    {"amgpcg", (corepcg_method)(COREPCG_METHODS_NAMED), 0, 0, 0, 0, 0, 0, 0},
    {"auto", COREPCG_METHOD_AUTO, 0, 0, 0, 0, 0, 0, 0},
    {"corepcg nesdis", COREPCG_METHOD_COREPCG, 0, COREPCG_FACTOR_AUTO,
     COREPCG_ORDERING_NESDIS, 0, 0, 0, 0},
    {"corepcg triplets ci", COREPCG_METHOD_COREPCG, 0, COREPCG_FACTOR_AUTO, 0, 0,
     1, 1, 1},
};

static corepcg_bundle *tiny;

/* The core-not-SPD system of test_reliability: blocks (multiples of I_3)
 * [[1, -0.8, 0.6], [-0.8, 1, -0.8], [0.6, -0.8, 1]], stretch 0-1, 1-2. */
static int ci_colptr[10], ci_rowidx[45], ci_colidx[45], ci_pairs[4] = {0, 1, 1, 2};
static double ci_values[45], ci_b[9];
static corepcg_system core_indefinite, core_indefinite_triplets;

static void make_core_indefinite(void)
{
    const double a[3][3] = {{1, -0.8, 0.6}, {-0.8, 1, -0.8}, {0.6, -0.8, 1}};
    int nnz = 0;
    for (int j = 0; j < 9; j++) {
        ci_colptr[j] = nnz;
        for (int i = j; i < 9; i++)
            if (i % 3 == j % 3) {
                ci_rowidx[nnz] = i;
                ci_colidx[nnz] = j;
                ci_values[nnz++] = a[i / 3][j / 3];
            }
    }
    ci_colptr[9] = nnz;
    for (int k = 0; k < 9; k++)
        ci_b[k] = 1.0 + k;
    core_indefinite = (corepcg_system){
        .num_nodes = 3, .A_format = COREPCG_CSC, .A_triangle = COREPCG_LOWER,
        .A_colptr = ci_colptr, .A_rowidx = ci_rowidx, .A_values = ci_values,
        .num_stretch = 2, .stretch_pairs = ci_pairs};
    core_indefinite_triplets = core_indefinite;
    core_indefinite_triplets.A_format = COREPCG_TRIPLET;
    core_indefinite_triplets.A_colptr = NULL;
    core_indefinite_triplets.A_colidx = ci_colidx;
    core_indefinite_triplets.A_nnz = nnz;
}

static const corepcg_system *system_of(const config *c)
{
    if (!c->core_indefinite)
        return &tiny->system;
    return c->triplets ? &core_indefinite_triplets : &core_indefinite;
}

static corepcg_settings settings_of(const config *c)
{
    corepcg_settings s;
    corepcg_settings_default(&s);
    s.method = c->method;
    s.precond = c->precond;
    s.factor = c->factor;
    s.ordering = c->ordering;
    corepcg_option_set(&s, corepcg_option_from_name("core"), c->core);
    corepcg_option_set(&s, corepcg_option_from_name("fallback_upcg"), c->fallback);
    s.tol = 1e-10;
    return s;
}

/* create, setup, solve, then twice update (same pattern) and solve: a
 * lower CSC A is walked through the map its setup built; triplets get
 * theirs at the first update and are scattered through it at the second. */
static int solve_steps(const config *c, corepcg_solver **hp, double *x)
{
    const corepcg_system *sys = system_of(c);
    const double *b = c->core_indefinite ? ci_b : tiny->b;
    const double *x0 = c->core_indefinite ? NULL : tiny->x0;
    corepcg_settings s = settings_of(c);
    corepcg_info info;
    int rc = corepcg_create(hp);
    if (rc == COREPCG_OK)
        rc = setup_for(*hp, sys, &s);
    if (rc >= 0)
        rc = corepcg_solve(*hp, b, x0, x, &info);
    for (int step = 0; step < 2 && rc >= 0; step++) {
        rc = corepcg_update(*hp, sys, &info);
        if (rc >= 0)
            rc = corepcg_solve(*hp, b, x0, x, &info);
    }
    return rc;
}

static double max_diff(const double *a, const double *b, int n)
{
    double d = 0;
    for (int k = 0; k < n; k++)
        d = fmax(d, fabs(a[k] - b[k]));
    return d;
}

/* What each scenario reports back to the loop. */
static long runs, injected_runs;

/* COREPCG_OOM_TRACE=1: name each run on stderr before it starts, so that
 * a crash points at its allocation. */
static void trace(const char *what, long k, int mode)
{
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("COREPCG_OOM_TRACE");
        on = e && e[0] == '1';
    }
    if (on)
        fprintf(stderr, "run: %s, allocation %ld refused%s\n", what, k,
                mode ? " and all after" : "");
}

static void oom_solver(const config *c)
{
    int n = 3 * (c->core_indefinite ? core_indefinite.num_nodes
                                    : tiny->system.num_nodes);
    double xref[64], x[64];
    corepcg_solver *h = NULL;

    long live0 = live_count;
    arm(0, 0);
    int rc_ref = solve_steps(c, &h, xref);
    long total = seen;
    disarm();
    corepcg_free(&h);
    CHECK(rc_ref >= 0, "%s: undisturbed run %d", c->name, rc_ref);
    CHECK_INT(live_count, live0);
    CHECK(total > 0, "%s: no allocation seen: the wrappers are not in place",
          c->name);
    if (rc_ref < 0)
        return;

    int bad_code = 0, bad_leak = 0, bad_reuse = 0, bad_answer = 0;
    for (int mode = 0; mode < 2; mode++) {
        for (long k = 1; k <= total + 1; k++) {
            trace(c->name, k, mode);
            arm(k, mode);
            int rc = solve_steps(c, &h, x);
            long refused = failures;
            disarm();
            runs++;
            injected_runs += refused > 0;
            if (refused == 0) {
                /* k past the last allocation: an undisturbed run */
                CHECK(rc == rc_ref && max_diff(x, xref, n) <= 1e-12,
                      "%s: run with nothing refused gave %d", c->name, rc);
            } else if (rc < 0) {
                if (rc != COREPCG_ERR_NO_MEMORY && bad_code++ < 3)
                    CHECK(rc == COREPCG_ERR_NO_MEMORY,
                          "%s: allocation %ld refused (%s): code %d (%s), "
                          "message \"%s\"", c->name, k,
                          mode ? "and all after" : "alone", rc,
                          corepcg_strerror(rc), corepcg_message(h));
            } else if (max_diff(x, xref, n) > 1e-12 && bad_answer++ < 3) {
                CHECK(0, "%s: allocation %ld refused, code %d but x differs "
                      "by %g", c->name, k, rc, max_diff(x, xref, n));
            }
            /* the handle (if create got that far) is still usable */
            if (h) {
                /* recovery by update alone, as a simulation's next step
                 * (ERR_STATE: no setup had accepted the settings yet) */
                int rc2 = corepcg_update(h, system_of(c), NULL);
                if (rc2 >= 0)
                    rc2 = corepcg_solve(h, c->core_indefinite ? ci_b : tiny->b,
                                        c->core_indefinite ? NULL : tiny->x0, x,
                                        NULL);
                if (rc2 != COREPCG_ERR_STATE &&
                    (rc2 != rc_ref || max_diff(x, xref, n) > 1e-12) &&
                    bad_reuse++ < 3)
                    CHECK(0, "%s: after refusing allocation %ld (%s) the next "
                          "update gives %d (%s) diff %g", c->name, k,
                          mode ? "all after" : "alone", rc2, corepcg_message(h),
                          rc2 >= 0 ? max_diff(x, xref, n) : 0.0);
            }
            if (h) {
                corepcg_settings s = settings_of(c);
                int rc2 = setup_for(h, system_of(c), &s);
                if (rc2 >= 0)
                    rc2 = corepcg_solve(h, c->core_indefinite ? ci_b : tiny->b,
                                        c->core_indefinite ? NULL : tiny->x0, x,
                                        NULL);
                if ((rc2 != rc_ref || max_diff(x, xref, n) > 1e-12) &&
                    bad_reuse++ < 3)
                    CHECK(0, "%s: after refusing allocation %ld the handle "
                          "gives %d (%s)", c->name, k, rc2, corepcg_message(h));
            }
            corepcg_free(&h);
            if (live_count != live0) {
                if (bad_leak++ < 3)
                    CHECK(0, "%s: allocation %ld refused (%s): %ld blocks "
                          "leaked", c->name, k, mode ? "and all after" : "alone",
                          live_count - live0);
                live0 = live_count; /* report each leak once */
            }
            if (refused == 0)
                break;
        }
    }
    printf("%-18s %4ld allocations; every one refused in turn: codes %s, "
           "leaks %s, handle reuse %s\n", c->name, total,
           bad_code ? "WRONG" : "ok", bad_leak ? "FOUND" : "none",
           bad_reuse ? "BROKEN" : "ok");
}

/* 1 when a and b hold the same system, vectors and records. */
static int same_bundle(const corepcg_bundle *a, const corepcg_bundle *b)
{
    const corepcg_system *s = &a->system, *t = &b->system;
    int n = 3 * s->num_nodes;
    return s->num_nodes == t->num_nodes && s->A_nnz == t->A_nnz &&
           memcmp(s->A_colptr, t->A_colptr, sizeof(int) * (size_t)(n + 1)) == 0 &&
           memcmp(s->A_rowidx, t->A_rowidx, sizeof(int) * (size_t)s->A_nnz) == 0 &&
           memcmp(s->A_values, t->A_values, sizeof(double) * (size_t)s->A_nnz) == 0 &&
           memcmp(a->b, b->b, sizeof(double) * (size_t)n) == 0 &&
           (!a->x0) == (!b->x0) &&
           (!a->x0 || memcmp(a->x0, b->x0, sizeof(double) * (size_t)n) == 0) &&
           (!s->z) == (!t->z) &&
           (!s->z || memcmp(s->z, t->z, sizeof(double) * (size_t)n) == 0) &&
           s->num_constraints == t->num_constraints &&
           memcmp(s->constraints, t->constraints,
                  sizeof(corepcg_constraint) * (size_t)s->num_constraints) == 0 &&
           s->num_stretch == t->num_stretch &&
           memcmp(s->stretch_pairs, t->stretch_pairs,
                  sizeof(int) * 2 * (size_t)s->num_stretch) == 0;
}

/* corepcg_bundle_read of data/tiny */
static void oom_bundle_read(const char *dir)
{
    char msg[COREPCG_MSG_SIZE];
    corepcg_bundle *bd = NULL;
    long live0 = live_count;
    arm(0, 0);
    int rc = corepcg_bundle_read(dir, &bd, msg);
    long total = seen;
    disarm();
    CHECK_INT(rc, COREPCG_OK);
    corepcg_bundle_free(&bd);
    int bad = 0, absorbed = 0;
    for (int mode = 0; mode < 2; mode++)
        for (long k = 1; k <= total + 1; k++) {
            msg[0] = '\0';
            trace("bundle_read", k, mode);
            arm(k, mode);
            rc = corepcg_bundle_read(dir, &bd, msg);
            long refused = failures;
            disarm();
            runs++;
            injected_runs += refused > 0;
            /* CHOLMOD's reader can do without some of its workspace (it
             * allocates it again later): then the bundle must be whole */
            int ok = rc == COREPCG_OK ? bd && same_bundle(bd, tiny)
                                      : refused && rc == COREPCG_ERR_NO_MEMORY &&
                                            !bd && msg[0];
            absorbed += refused && rc == COREPCG_OK;
            corepcg_bundle_free(&bd);
            ok = ok && live_count == live0;
            if (!ok && bad++ < 3)
                CHECK(0, "bundle_read, allocation %ld refused (%s): code %d "
                      "(%s), %ld blocks leaked", k, mode ? "and all after" : "alone",
                      rc, msg, live_count - live0);
            live0 = live_count;
            if (!refused)
                break;
        }
    printf("%-18s %4ld allocations; every one refused in turn: %s (%d "
           "refusals absorbed by CHOLMOD, same bundle read)\n", "bundle_read",
           total, bad ? "FAILURES" : "ok", absorbed);
}

/* corepcg_bundle_write and corepcg_vector_write: refused allocations give
 * NO_MEMORY and leave no file, temporary or final, behind. */
static int dir_is_empty(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s' 2>/dev/null)\"", dir);
    return system(cmd) == 0;
}

static void oom_writers(void)
{
    char base[256], dir[300], path[300], msg[COREPCG_MSG_SIZE];
    const char *tmp = getenv("TMPDIR");
    snprintf(base, sizeof base, "%s/corepcg-oom-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(base)) {
        perror("mkdtemp");
        exit(1);
    }
    snprintf(dir, sizeof dir, "%s/b", base);
    snprintf(path, sizeof path, "%s/x.mtx", base);
    long live0 = live_count;
    int bad = 0;
    long totals[2] = {0, 0};
    for (int which = 0; which < 2; which++)
        for (int mode = 0; mode < 2; mode++)
            for (long k = 0;; k++) {
                trace(which ? "vector_write" : "bundle_write", k, mode);
                arm(k, mode);
                int rc = which == 0
                             ? corepcg_bundle_write(dir, &tiny->system, tiny->b,
                                                    tiny->x0, msg)
                             : corepcg_vector_write(path, 12, tiny->b, msg);
                long refused = failures;
                if (k == 0)
                    totals[which] = seen;
                disarm();
                runs++;
                injected_runs += refused > 0;
                int ok = refused ? rc == COREPCG_ERR_NO_MEMORY : rc == COREPCG_OK;
                /* nothing left: the directory may exist (mkdir) but empty */
                if (refused)
                    ok = ok && (which == 0 ? dir_is_empty(dir)
                                           : access(path, F_OK) != 0);
                ok = ok && live_count == live0;
                if (!ok && bad++ < 3)
                    CHECK(0, "%s, allocation %ld refused (%s): code %d (%s), "
                          "%ld blocks leaked", which ? "vector_write" : "bundle_write",
                          k, mode ? "and all after" : "alone", rc, msg,
                          live_count - live0);
                live0 = live_count;
                char cmd[700];
                snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", dir, path);
                if (system(cmd) != 0)
                    exit(1);
                if (k > 0 && !refused)
                    break;
            }
    rmdir(base);
    printf("%-18s %4ld allocations; every one refused in turn: %s\n",
           "bundle_write", totals[0], bad ? "FAILURES" : "ok");
    printf("%-18s %4ld allocations; every one refused in turn: %s\n",
           "vector_write", totals[1], bad ? "FAILURES" : "ok");
}

int main(void)
{
    /* CHOLMOD and the ordering packages allocate through these */
    SuiteSparse_config.malloc_func = __wrap_malloc;
    SuiteSparse_config.calloc_func = __wrap_calloc;
    SuiteSparse_config.realloc_func = __wrap_realloc;
    SuiteSparse_config.free_func = __wrap_free;

    const char *env = getenv("COREPCG_DATA_DIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tiny", env && env[0] ? env : COREPCG_DATA_DIR);
    char msg[COREPCG_MSG_SIZE];
    if (corepcg_bundle_read(dir, &tiny, msg) != COREPCG_OK) {
        fprintf(stderr, "cannot read %s: %s\n", dir, msg);
        return 1;
    }
    make_core_indefinite();

    oom_bundle_read(dir);
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++)
        oom_solver(&configs[c]);
    oom_writers();

    /* the library left SuiteSparse_config's hooks as this test set them */
    CHECK(SuiteSparse_config.malloc_func == __wrap_malloc &&
              SuiteSparse_config.free_func == __wrap_free,
          "the library changed SuiteSparse_config's allocator");
    printf("%ld runs, %ld with an allocation refused\n", runs, injected_runs);
    corepcg_bundle_free(&tiny);
    return test_summary("test_oom");
}

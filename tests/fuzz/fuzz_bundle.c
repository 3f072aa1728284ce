/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_bundle.c -- libFuzzer target for the bundle reader
 * (corepcg_bundle_read) and what runs on what it accepts.
 *
 * The input is split at each "@@@\n" into up to seven parts: A.mtx, b.mtx,
 * constraints.txt, stretch.mtx, z.mtx, x0.mtx, and a line of option words
 * (method, precond, ordering, factor or core names -- "auto" is the
 * method; factor-auto and core-auto the others -- "fallback", "ic1"). A
 * non-empty part becomes its file; an empty or missing one leaves the file
 * absent. The contract checked:
 *   - a failed read returns a negative code, no bundle, and a message;
 *   - an accepted bundle is one docs/format.md allows (lower CSC, positive
 *     diagonal, finite vectors, valid constraints, pairs in range), read
 *     from files that hold no NUL or other control byte but tabs and line
 *     ends outside comments;
 *   - writing it back and reading it again gives the same numbers;
 *   - setup + solve return documented codes; an error leaves x untouched
 *     (and a failed setup leaves the handle empty), a usable x is finite
 *     and holds the constraints, checked here from the records. */
#include "fuzz_check.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { P_A, P_B, P_CONSTRAINTS, P_STRETCH, P_Z, P_X0, P_OPTIONS, P_COUNT };
static const char *const part_files[P_OPTIONS] = {
    "A.mtx", "b.mtx", "constraints.txt", "stretch.mtx", "z.mtx", "x0.mtx"};
static const char separator[] = "@@@\n";

#define FUZZ_MAX_ITER 200

struct part {
    const uint8_t *data;
    size_t size;
    int present;
};

static void split_parts(const uint8_t *data, size_t size,
                        struct part parts[P_COUNT])
{
    memset(parts, 0, sizeof(struct part) * P_COUNT);
    size_t seplen = sizeof separator - 1, at = 0;
    for (int k = 0; k < P_COUNT; k++) {
        if (k > 0 && at > size)
            break;
        size_t end = size;
        if (k < P_COUNT - 1)
            for (size_t i = at; i + seplen <= size; i++)
                if (memcmp(data + i, separator, seplen) == 0) {
                    end = i;
                    break;
                }
        parts[k].data = data + at;
        parts[k].size = end - at;
        parts[k].present = parts[k].size > 0;
        if (end == size)
            break;
        at = end + seplen;
    }
}

/* COREPCG_FUZZ_VERBOSE=1 prints what each input did (for triage). */
static int verbose(void)
{
    static int v = -1;
    if (v < 0) {
        const char *e = getenv("COREPCG_FUZZ_VERBOSE");
        v = e && e[0] == '1';
    }
    return v;
}

static void parse_options(const struct part *p, corepcg_settings *s)
{
    corepcg_settings_default(s);
    s->max_iter = FUZZ_MAX_ITER;
    s->tol = 1e-8;
    if (!p->present)
        return;
    char text[256];
    size_t len = p->size < sizeof text - 1 ? p->size : sizeof text - 1;
    memcpy(text, p->data, len);
    text[len] = '\0';
    char *save = NULL;
    for (char *w = strtok_r(text, " \t\r\n", &save); w;
         w = strtok_r(NULL, " \t\r\n", &save)) {
        int v;
        /* "auto" names a method, a factor kind and a core: the latter two
         * are spelled factor-auto and core-auto here */
        if (strcmp(w, "factor-auto") == 0)
            s->factor = COREPCG_FACTOR_AUTO;
        else if (strcmp(w, "core-auto") == 0)
            corepcg_option_set(s, corepcg_option_from_name("core"), COREPCG_CORE_AUTO);
        else if (strcmp(w, "ic1") == 0)
            corepcg_option_set(s, corepcg_option_from_name("ic_fill"), 1);
        else if ((v = corepcg_method_from_name(w)) >= 0)
            s->method = (corepcg_method)v;
        else if ((v = corepcg_precond_from_name(w)) >= 0)
            s->precond = (corepcg_precond)v;
        else if ((v = corepcg_ordering_from_name(w)) >= 0)
            s->ordering = (corepcg_ordering)v;
        else if ((v = corepcg_factor_from_name(w)) >= 0)
            s->factor = (corepcg_factor)v;
        else if ((v = corepcg_core_from_name(w)) >= 0)
            corepcg_option_set(s, corepcg_option_from_name("core"), v);
        else if (strcmp(w, "fallback") == 0)
            corepcg_option_set(s, corepcg_option_from_name("fallback_upcg"), 1);
    }
}

/* docs/format.md sections 3.1 and 4.1: outside its comments an accepted
 * file holds no control character but tabs and its line ends (LF, CRLF;
 * a CR may end the last line). Comments: in a .mtx file a line after the
 * banner starting with '%'; in constraints.txt from '#' on. */
static void check_text_bytes(const struct part *p, const char *name,
                             int hash_comments)
{
    const char *t = (const char *)p->data;
    size_t n = p->size;
    long line = 1;
    for (size_t at = 0; at < n; at++, line++) {
        const char *nl = memchr(t + at, '\n', n - at);
        size_t end = nl ? (size_t)(nl - t) : n, stop = end;
        const char *hash = hash_comments ? memchr(t + at, '#', end - at) : NULL;
        if (hash)
            stop = (size_t)(hash - t);
        else if (!hash_comments && line > 1 && end > at && t[at] == '%')
            stop = at;
        for (size_t k = at; k < stop; k++) {
            unsigned char c = (unsigned char)t[k];
            FUZZ_REQUIRE(c >= 0x20 || c == '\t' ||
                             (c == '\r' && k + 1 == end && stop == end),
                         "%s accepted with byte 0x%02x on line %ld", name, c,
                         line);
        }
        at = end;
    }
}

/* What docs/format.md promises about an accepted bundle. */
static void check_bundle(const corepcg_bundle *bd,
                         const struct part parts[P_COUNT])
{
    for (int k = 0; k < P_OPTIONS; k++)
        if (parts[k].present)
            check_text_bytes(&parts[k], part_files[k], k == P_CONSTRAINTS);
    const corepcg_system *s = &bd->system;
    int N = s->num_nodes, n = 3 * N;
    FUZZ_REQUIRE(N >= 1, "N = %d", N);
    FUZZ_REQUIRE(s->A_format == COREPCG_CSC && s->A_triangle == COREPCG_LOWER,
                 "A is not CSC lower");
    const int *cp = s->A_colptr, *ri = s->A_rowidx;
    FUZZ_REQUIRE(cp[0] == 0 && cp[n] == s->A_nnz, "colptr[0] %d, [n] %d, nnz %d",
                 cp[0], cp[n], s->A_nnz);
    for (int j = 0; j < n; j++) {
        FUZZ_REQUIRE(cp[j + 1] > cp[j], "column %d is empty", j);
        FUZZ_REQUIRE(ri[cp[j]] == j && s->A_values[cp[j]] > 0,
                     "column %d: first row %d value %g", j, ri[cp[j]],
                     s->A_values[cp[j]]);
        for (int k = cp[j]; k < cp[j + 1]; k++) {
            FUZZ_REQUIRE(ri[k] >= j && ri[k] < n &&
                             (k == cp[j] || ri[k] > ri[k - 1]),
                         "column %d: row %d out of order", j, ri[k]);
            FUZZ_REQUIRE(isfinite(s->A_values[k]), "A value %d", k);
        }
    }
    for (int k = 0; k < n; k++) {
        FUZZ_REQUIRE(isfinite(bd->b[k]), "b[%d]", k);
        FUZZ_REQUIRE(!s->z || isfinite(s->z[k]), "z[%d]", k);
        FUZZ_REQUIRE(!bd->x0 || isfinite(bd->x0[k]), "x0[%d]", k);
    }
    FUZZ_REQUIRE(bd->has_constraints == parts[P_CONSTRAINTS].present &&
                     bd->has_stretch == parts[P_STRETCH].present &&
                     bd->has_z == parts[P_Z].present &&
                     (bd->x0 != NULL) == parts[P_X0].present,
                 "has_* flags disagree with the files present");
    FUZZ_REQUIRE(s->num_constraints >= 0 && s->num_constraints <= N,
                 "num_constraints %d", s->num_constraints);
    fuzz_check_ublocks(N, s->constraints, s->num_constraints);
    for (int k = 0; k < s->num_stretch; k++) {
        int i = s->stretch_pairs[2 * k], j = s->stretch_pairs[2 * k + 1];
        FUZZ_REQUIRE(i >= 0 && i < j && j < N, "pair %d (%d, %d)", k, i, j);
        if (k > 0) {
            int pi = s->stretch_pairs[2 * k - 2], pj = s->stretch_pairs[2 * k - 1];
            FUZZ_REQUIRE(pi < i || (pi == i && pj < j),
                         "pairs out of order or repeated at %d", k);
        }
    }
}

static void check_same_vector(const double *a, const double *b, int n,
                              const char *name)
{
    FUZZ_REQUIRE((a == NULL) == (b == NULL), "%s present once only", name);
    for (int k = 0; a && k < n; k++)
        FUZZ_REQUIRE(a[k] == b[k], "%s[%d]: %.17g became %.17g", name, k,
                     a[k], b[k]);
}

/* Written and read back, the bundle must be the same numbers. */
static void check_round_trip(const corepcg_bundle *bd)
{
    char dir[FUZZ_PATH], msg[COREPCG_MSG_SIZE] = "";
    fuzz_join(dir, fuzz_scratch_dir("bundle"), "again");
    int rc = corepcg_bundle_write(dir, &bd->system, bd->b, bd->x0, msg);
    FUZZ_REQUIRE(rc == COREPCG_OK, "an accepted bundle does not write: %s", msg);
    corepcg_bundle *re = NULL;
    rc = corepcg_bundle_read(dir, &re, msg);
    FUZZ_REQUIRE(rc == COREPCG_OK, "a written bundle does not read: %s", msg);
    const corepcg_system *a = &bd->system, *b = &re->system;
    int n = 3 * a->num_nodes;
    FUZZ_REQUIRE(a->num_nodes == b->num_nodes && a->A_nnz == b->A_nnz,
                 "N %d -> %d, nnz %d -> %d", a->num_nodes, b->num_nodes,
                 a->A_nnz, b->A_nnz);
    FUZZ_REQUIRE(memcmp(a->A_colptr, b->A_colptr, sizeof(int) * (size_t)(n + 1)) == 0 &&
                     memcmp(a->A_rowidx, b->A_rowidx, sizeof(int) * (size_t)a->A_nnz) == 0,
                 "the pattern of A changed");
    check_same_vector(a->A_values, b->A_values, a->A_nnz, "A");
    check_same_vector(bd->b, re->b, n, "b");
    check_same_vector(a->z, b->z, n, "z");
    check_same_vector(bd->x0, re->x0, n, "x0");
    FUZZ_REQUIRE(a->num_constraints == b->num_constraints, "constraints %d -> %d",
                 a->num_constraints, b->num_constraints);
    for (int k = 0; k < a->num_constraints; k++) {
        const corepcg_constraint *c = &a->constraints[k], *d = &b->constraints[k];
        FUZZ_REQUIRE(c->node == d->node && c->ndof == d->ndof, "record %d", k);
        for (int x = 0; x < 3; x++)
            FUZZ_REQUIRE((c->ndof == 0 || c->p[x] == d->p[x]) &&
                             (c->ndof != 1 || c->q[x] == d->q[x]),
                         "record %d: a direction changed", k);
    }
    FUZZ_REQUIRE(a->num_stretch == b->num_stretch &&
                     (a->num_stretch == 0 ||
                      memcmp(a->stretch_pairs, b->stretch_pairs,
                             sizeof(int) * 2 * (size_t)a->num_stretch) == 0),
                 "stretch pairs changed");
    corepcg_bundle_free(&re);
}

/* x holds every constraint, measured from the records themselves. */
static void check_answer(const corepcg_bundle *bd, const double *x)
{
    const corepcg_system *s = &bd->system;
    int n = 3 * s->num_nodes;
    double big = 1;
    for (int k = 0; k < n; k++) {
        FUZZ_REQUIRE(isfinite(x[k]), "x[%d] = %g", k, x[k]);
        big = fmax(big, fabs(x[k]));
        if (s->z)
            big = fmax(big, fabs(s->z[k]));
    }
    double tol = 1e-10 * big;
    for (int k = 0; k < s->num_constraints; k++) {
        const corepcg_constraint *c = &s->constraints[k];
        double d[3], u[3] = {0, 0, 0};
        for (int a = 0; a < 3; a++)
            d[a] = x[3 * c->node + a] - (s->z ? s->z[3 * c->node + a] : 0);
        if (c->ndof == 0) {
            for (int a = 0; a < 3; a++)
                FUZZ_REQUIRE(fabs(d[a]) <= tol, "fixed node %d moved by %g",
                             c->node, d[a]);
            continue;
        }
        fuzz_unit(c->p, u);
        FUZZ_REQUIRE(fabs(fuzz_dot3(u, d)) <= tol,
                     "node %d: p.(x - z) = %g", c->node, fuzz_dot3(u, d));
        if (c->ndof == 1) {
            fuzz_unit(c->q, u);
            FUZZ_REQUIRE(fabs(fuzz_dot3(u, d)) <= tol,
                         "node %d: q.(x - z) = %g", c->node, fuzz_dot3(u, d));
        }
    }
}

static void check_solve(const corepcg_bundle *bd, const struct part *options)
{
    corepcg_settings set;
    parse_options(options, &set);
    int n = 3 * bd->system.num_nodes;
    double *x = malloc(sizeof(double) * (size_t)n);
    FUZZ_REQUIRE(x != NULL, "harness out of memory");
    for (int k = 0; k < n; k++)
        x[k] = -12345.0;
    corepcg_solver *h = NULL;
    FUZZ_REQUIRE(corepcg_create(&h) == COREPCG_OK, "create");
    corepcg_info info;
    int rc = corepcg_setup(h, &bd->system, &set);
    if (verbose())
        fprintf(stderr, "  %s: setup %d: %s\n", corepcg_method_name(set.method),
                rc, corepcg_message(h));
    FUZZ_REQUIRE(rc == COREPCG_OK || (rc < 0 && fuzz_is_code(rc)),
                 "setup returned %d", rc);
    if (rc < 0) {
        FUZZ_REQUIRE(corepcg_message(h)[0] != '\0', "setup %d without a message", rc);
        rc = corepcg_solve(h, bd->b, bd->x0, x, &info);
        FUZZ_REQUIRE(rc == COREPCG_ERR_STATE && info.status == rc,
                     "solve after a failed setup returned %d", rc);
    } else {
        rc = corepcg_solve(h, bd->b, bd->x0, x, &info);
        FUZZ_REQUIRE(fuzz_is_code(rc) && info.status == rc, "solve returned %d (info %d)",
                     rc, info.status);
        FUZZ_REQUIRE(info.iterations >= 0 && info.iterations <= FUZZ_MAX_ITER,
                     "iterations %d", info.iterations);
    }
    if (verbose())
        fprintf(stderr, "  %s: solve %d (%s) iterations %d, residual %.3g: %s\n",
                corepcg_method_name(set.method), rc, corepcg_strerror(rc),
                info.iterations, info.rel_residual, corepcg_message(h));
    if (rc < 0) {
        FUZZ_REQUIRE(corepcg_message(h)[0] != '\0', "solve %d without a message", rc);
        for (int k = 0; k < n; k++)
            FUZZ_REQUIRE(x[k] == -12345.0, "error %d but x[%d] written", rc, k);
    } else {
        FUZZ_REQUIRE(info.converged == (rc != COREPCG_NOT_CONVERGED),
                     "converged %d with status %d", info.converged, rc);
        check_answer(bd, x);
    }
    corepcg_free(&h);
    FUZZ_REQUIRE(h == NULL, "free did not clear the handle");
    free(x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *dir = fuzz_scratch_dir("bundle");
    struct part parts[P_COUNT];
    split_parts(data, size, parts);
    for (int k = 0; k < P_OPTIONS; k++) {
        char path[FUZZ_PATH];
        fuzz_join(path, dir, part_files[k]);
        if (parts[k].present)
            fuzz_write_file(path, parts[k].data, parts[k].size);
        else
            fuzz_remove(path);
    }

    corepcg_bundle *bd = (corepcg_bundle *)(uintptr_t)1;
    char msg[COREPCG_MSG_SIZE];
    msg[0] = '\0';
    int rc = corepcg_bundle_read(dir, &bd, msg);
    if (verbose())
        fprintf(stderr, "read %d: %s\n", rc, msg);
    if (rc != COREPCG_OK) {
        FUZZ_REQUIRE(rc < 0 && fuzz_is_code(rc), "read returned %d (%s)", rc, msg);
        FUZZ_REQUIRE(bd == NULL, "failed read left a bundle");
        FUZZ_REQUIRE(msg[0] != '\0', "read failed (%d) without a message", rc);
        return 0;
    }
    check_bundle(bd, parts);
    check_round_trip(bd);
    check_solve(bd, &parts[P_OPTIONS]);
    corepcg_bundle_free(&bd);
    FUZZ_REQUIRE(bd == NULL, "bundle_free did not clear the pointer");
    return 0;
}

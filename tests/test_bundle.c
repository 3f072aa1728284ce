/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_bundle.c -- the bundle on disk: data/tiny reads as documented;
 * write-then-read is bit-exact (A, b, z, x0, constraints, stretch); every
 * bad input is refused with its code and a message naming file:line; the
 * writer refuses a bad system with the code corepcg_setup gives; a failed
 * write leaves the directory as it was, also when a rename or a removal
 * fails midway (this test links with --wrap=rename,unlink to make one
 * fail). */
#include "internal.h"
#include "atomic_file.h"
#include "fixture.h"
#include "test.h"

#include <errno.h>

static char tmpdir[FIXTURE_PATH];

/* ------------------------------------------- rename/unlink made to fail */

int __real_rename(const char *from, const char *to);
int __wrap_rename(const char *from, const char *to);
int __real_unlink(const char *path);
int __wrap_unlink(const char *path);

/* While call is set, its fail_at-th use (1-based) fails with EIO, and with
 * fail_after every later one too. */
static struct {
    const char *call;
    long seen, fail_at;
    int fail_after;
} inject;

static void inject_arm(const char *call, long fail_at, int fail_after)
{
    inject.call = call;
    inject.seen = 0;
    inject.fail_at = fail_at;
    inject.fail_after = fail_after;
}

static int injected(const char *call)
{
    if (!inject.call || strcmp(inject.call, call) != 0)
        return 0;
    long k = ++inject.seen;
    if (k == inject.fail_at || (inject.fail_after && k > inject.fail_at)) {
        errno = EIO;
        return 1;
    }
    return 0;
}

int __wrap_rename(const char *from, const char *to)
{
    return injected("rename") ? -1 : __real_rename(from, to);
}

int __wrap_unlink(const char *path)
{
    return injected("unlink") ? -1 : __real_unlink(path);
}

/* ------------------------------------------------------------ helpers */

static char *tiny_text(const char *name)
{
    char tiny[FIXTURE_PATH], path[FIXTURE_PATH];
    fixture_join(tiny, fixture_data_dir(), "tiny");
    fixture_join(path, tiny, name);
    char *text = fixture_read(path);
    if (!text) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    return text;
}

static int codes_equal_bits(const void *a, const void *b, size_t bytes)
{
    return (a == NULL) == (b == NULL) && (!a || memcmp(a, b, bytes) == 0);
}

/* Bit-for-bit equality of everything two bundles hold. */
static void check_bundles_identical(const corepcg_bundle *x,
                                    const corepcg_bundle *y, const char *what)
{
    const corepcg_system *s = &x->system, *t = &y->system;
    CHECK_INT(t->num_nodes, s->num_nodes);
    if (t->num_nodes != s->num_nodes)
        return;
    int n = 3 * s->num_nodes;
    CHECK(s->A_format == COREPCG_CSC && t->A_format == COREPCG_CSC &&
              s->A_triangle == COREPCG_LOWER &&
              t->A_triangle == COREPCG_LOWER,
          "%s: A must come back CSC lower", what);
    CHECK(codes_equal_bits(s->A_colptr, t->A_colptr, sizeof(int) * (size_t)(n + 1)),
          "%s: column pointers differ", what);
    int nnz = s->A_colptr[n];
    CHECK_INT(t->A_colptr[n], nnz);
    if (t->A_colptr[n] != nnz)
        return;
    CHECK(codes_equal_bits(s->A_rowidx, t->A_rowidx, sizeof(int) * (size_t)nnz),
          "%s: row indices differ", what);
    CHECK(codes_equal_bits(s->A_values, t->A_values, sizeof(double) * (size_t)nnz),
          "%s: values of A differ", what);
    CHECK(codes_equal_bits(x->b, y->b, sizeof(double) * (size_t)n),
          "%s: b differs", what);
    CHECK(codes_equal_bits(s->z, t->z, sizeof(double) * (size_t)n),
          "%s: z differs", what);
    CHECK(codes_equal_bits(x->x0, y->x0, sizeof(double) * (size_t)n),
          "%s: x0 differs", what);
    CHECK_INT(t->num_constraints, s->num_constraints);
    for (int k = 0; k < s->num_constraints && k < t->num_constraints; k++) {
        const corepcg_constraint *c = &s->constraints[k], *d = &t->constraints[k];
        CHECK(c->node == d->node && c->ndof == d->ndof &&
                  memcmp(c->p, d->p, sizeof c->p) == 0 &&
                  memcmp(c->q, d->q, sizeof c->q) == 0,
              "%s: constraint record %d differs", what, k);
    }
    CHECK_INT(t->num_stretch, s->num_stretch);
    if (t->num_stretch == s->num_stretch)
        CHECK(codes_equal_bits(s->stretch_pairs, t->stretch_pairs,
                               sizeof(int) * 2 * (size_t)s->num_stretch),
              "%s: stretch pairs differ", what);
}

static void check_first_line(const char *dir, const char *name,
                             const char *want)
{
    char path[FIXTURE_PATH];
    fixture_join(path, dir, name);
    char *text = fixture_read(path);
    CHECK(text && strncmp(text, want, strlen(want)) == 0 &&
              text[strlen(want)] == '\n',
          "%s starts with \"%.60s\", expected \"%s\"", path,
          text ? text : "(unreadable)", want);
    free(text);
}

/* ------------------------------------------------------------ tiny */

static void test_read_tiny(void)
{
    char dir[FIXTURE_PATH], msg[COREPCG_MSG_SIZE];
    fixture_join(dir, fixture_data_dir(), "tiny");
    corepcg_bundle *bu = NULL;
    int rc = corepcg_bundle_read(dir, &bu, msg);
    CHECK(rc == COREPCG_OK, "reading data/tiny: %d %s", rc, msg);
    if (rc != COREPCG_OK)
        return;
    const corepcg_system *s = &bu->system;
    CHECK_INT(s->num_nodes, 4);
    CHECK_INT(bu->A_general, 0);
    CHECK_INT(bu->A_file_entries, 42);
    CHECK_INT(s->A_colptr[12], 42);
    CHECK_INT(s->A_colptr[1], 5); /* column 1 of the file: rows 1 2 4 5 7 */
    CHECK_INT(s->A_rowidx[2], 3);
    CHECK_NEAR(s->A_values[0], 8, 0);
    CHECK_NEAR(s->A_values[2], -2, 0);
    CHECK_NEAR(s->A_values[41], 9, 0);
    /* Lower triangle, sorted, diagonal first in every column. */
    int lower = 1;
    for (int j = 0; j < 12; j++)
        for (int k = s->A_colptr[j]; k < s->A_colptr[j + 1]; k++)
            lower &= k == s->A_colptr[j] ? s->A_rowidx[k] == j
                                         : s->A_rowidx[k] > s->A_rowidx[k - 1];
    CHECK(lower, "A must be sorted lower CSC with the diagonal first");
    CHECK_NEAR(bu->b[0], -0.7, 0);
    CHECK_NEAR(bu->b[7], 19.105, 0);
    CHECK(s->z && bu->has_z, "z.mtx is present");
    if (s->z)
        CHECK_NEAR(s->z[11], -0.75, 0);
    CHECK(bu->x0 != NULL, "x0.mtx is present");
    if (bu->x0)
        CHECK_NEAR(bu->x0[3], 1, 0);
    CHECK_INT(bu->has_constraints, 1);
    CHECK_INT(s->num_constraints, 3);
    if (s->num_constraints == 3) {
        const corepcg_constraint *c = s->constraints;
        CHECK(c[0].node == 0 && c[0].ndof == 0, "record 0: node 0 fixed");
        CHECK(c[1].node == 1 && c[1].ndof == 2 && c[1].p[0] == 0.6 &&
                  c[1].p[1] == 0.8 && c[1].p[2] == 0,
              "record 1: node 1 in the plane p = (0.6, 0.8, 0)");
        CHECK(c[2].node == 2 && c[2].ndof == 1 && c[2].p[2] == 0.8 &&
                  c[2].q[0] == 1.6 && c[2].q[1] == -1.2,
              "record 2: node 2 on a line, q as written (1.6, -1.2, 0)");
    }
    CHECK_INT(bu->has_stretch, 1);
    CHECK_INT(s->num_stretch, 3);
    if (s->num_stretch == 3) {
        const int want[6] = {0, 1, 1, 2, 2, 3};
        CHECK(memcmp(s->stretch_pairs, want, sizeof want) == 0,
              "stretch pairs (0,1) (1,2) (2,3)");
    }

    /* Write it elsewhere, read it back: bit for bit the same. */
    char out[FIXTURE_PATH];
    fixture_join(out, tmpdir, "tiny-copy");
    rc = corepcg_bundle_write(out, s, bu->b, bu->x0, msg);
    CHECK(rc == COREPCG_OK, "writing tiny: %d %s", rc, msg);
    corepcg_bundle *again = NULL;
    rc = corepcg_bundle_read(out, &again, msg);
    CHECK(rc == COREPCG_OK, "re-reading tiny: %d %s", rc, msg);
    if (again)
        check_bundles_identical(bu, again, "tiny round trip");
    check_first_line(out, "A.mtx", "%%MatrixMarket matrix coordinate real symmetric");
    check_first_line(out, "b.mtx", "%%MatrixMarket matrix array real general");
    check_first_line(out, "stretch.mtx", "%%MatrixMarket matrix coordinate pattern symmetric");
    check_first_line(out, "constraints.txt", "# node ndof  p_x p_y p_z  [q_x q_y q_z]");
    CHECK_INT(fixture_count_files(out), 6); /* no temporary left behind */
    corepcg_bundle_free(&again);
    corepcg_bundle_free(&bu);
    CHECK(bu == NULL, "corepcg_bundle_free sets the handle to NULL");
    corepcg_bundle_free(&bu); /* NULL-safe */
    corepcg_bundle_free(NULL);
}

/* Only A and b: every optional file is optional. */
static void test_optional_files(void)
{
    char dir[FIXTURE_PATH], msg[COREPCG_MSG_SIZE], path[FIXTURE_PATH];
    if (fixture_copy_tiny(tmpdir, "minimal", dir) != 0) {
        CHECK(0, "cannot copy tiny");
        return;
    }
    const char *drop[] = {"z.mtx", "constraints.txt", "stretch.mtx", "x0.mtx"};
    for (size_t k = 0; k < 4; k++) {
        fixture_join(path, dir, drop[k]);
        unlink(path);
    }
    corepcg_bundle *bu = NULL;
    int rc = corepcg_bundle_read(dir, &bu, msg);
    CHECK(rc == COREPCG_OK, "A and b only: %d %s", rc, msg);
    if (bu) {
        CHECK(bu->system.z == NULL && !bu->has_z, "no z");
        CHECK(bu->x0 == NULL, "no x0");
        CHECK(bu->system.num_constraints == 0 && !bu->has_constraints &&
                  bu->system.constraints == NULL, "no constraints");
        CHECK(bu->system.num_stretch == 0 && !bu->has_stretch &&
                  bu->system.stretch_pairs == NULL, "no stretch pairs");
    }
    corepcg_bundle_free(&bu);
}

/* ------------------------------------------------------ round trips */

/* A 5-node system with awkward numbers, given as unsorted triplets with
 * both triangles, unordered stretch pairs and unit-less directions. */
static void test_round_trip_awkward(void)
{
    enum { N = 5, n = 15 };
    double dense[n][n];
    memset(dense, 0, sizeof dense);
    unsigned long seed = 12345;
    const double awkward[] = {1.0 / 3, 0.1, -2.5e300, 4.9e-324, -1e-310,
                              3.141592653589793, -0.0, 1e-17, 123456789.123,
                              -7.0000000000000009};
    int m = 0;
    for (int j = 0; j < n; j++)
        for (int i = j + 1; i < n; i++) {
            seed = seed * 6364136223846793005UL + 1442695040888963407UL;
            if ((seed >> 33) % 3 == 0)
                continue; /* some structural zeros */
            double v = awkward[m++ % 10];
            dense[i][j] = dense[j][i] = v;
        }
    for (int i = 0; i < n; i++)
        dense[i][i] = i % 3 == 0 ? 1e300 : 7.000000000000001 + i / 3.0;

    int ti[n * n], tj[n * n];
    double tx[n * n];
    int nnz = 0;
    /* reverse column order: the writer must sort */
    for (int j = n - 1; j >= 0; j--)
        for (int i = 0; i < n; i++)
            if (dense[i][j] != 0 || (i != j && signbit(dense[i][j]))) {
                ti[nnz] = i;
                tj[nnz] = j;
                tx[nnz++] = dense[i][j];
            }
    double b[n], z[n], x0[n];
    for (int k = 0; k < n; k++) {
        b[k] = awkward[k % 10] * (k + 1);
        z[k] = 1.0 / (k + 3) - 0.5;
        x0[k] = k % 2 ? -1e-200 * k : 2.0 / 7 * k;
    }
    corepcg_constraint c[3];
    memset(c, 0, sizeof c);
    c[0] = (corepcg_constraint){.node = 4, .ndof = 0};
    c[1] = (corepcg_constraint){.node = 0, .ndof = 1,
                                .p = {1.0 / 3, 2.0 / 3, 2.0 / 3},
                                .q = {2.0 / 3, 1.0 / 3, -2.0 / 3}};
    c[2] = (corepcg_constraint){.node = 2, .ndof = 2, .p = {0.1, -0.7, 1e-5}};
    int pairs[6] = {3, 1, 0, 4, 1, 2};
    corepcg_system sys = {
        .num_nodes = N, .A_format = COREPCG_TRIPLET, .A_triangle = COREPCG_BOTH,
        .A_rowidx = ti, .A_colidx = tj, .A_values = tx, .A_nnz = nnz,
        .num_constraints = 3, .constraints = c, .z = z,
        .num_stretch = 3, .stretch_pairs = pairs};

    char dir1[FIXTURE_PATH], dir2[FIXTURE_PATH], msg[COREPCG_MSG_SIZE];
    fixture_join(dir1, tmpdir, "awkward/nested/one");
    fixture_join(dir2, tmpdir, "awkward/two");
    int rc = corepcg_bundle_write(dir1, &sys, b, x0, msg);
    CHECK(rc == COREPCG_OK, "writing the awkward system: %d %s", rc, msg);
    corepcg_bundle *one = NULL, *two = NULL;
    rc = corepcg_bundle_read(dir1, &one, msg);
    CHECK(rc == COREPCG_OK, "reading it back: %d %s", rc, msg);
    if (!one)
        return;

    /* Every lower entry comes back bit for bit, and nothing else. */
    const corepcg_system *s = &one->system;
    int lower_count = 0, same = 1;
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++)
            if (dense[i][j] != 0 || (i != j && signbit(dense[i][j])))
                lower_count++;
    for (int j = 0; j < n; j++)
        for (int k = s->A_colptr[j]; k < s->A_colptr[j + 1]; k++)
            same &= memcmp(&s->A_values[k], &dense[s->A_rowidx[k]][j],
                           sizeof(double)) == 0;
    CHECK_INT(s->A_colptr[n], lower_count);
    CHECK(same, "A's values (denormals, -0, 1e300) must come back exactly");
    CHECK(memcmp(one->b, b, sizeof b) == 0, "b exact");
    CHECK(s->z && memcmp(s->z, z, sizeof z) == 0, "z exact");
    CHECK(one->x0 && memcmp(one->x0, x0, sizeof x0) == 0, "x0 exact");
    CHECK_INT(s->num_constraints, 3);
    if (s->num_constraints == 3)
        CHECK(memcmp(s->constraints, c, sizeof c) == 0,
              "constraint records exact (p, q as given, not normalised)");
    const int sorted_pairs[6] = {0, 4, 1, 2, 1, 3};
    CHECK_INT(s->num_stretch, 3);
    if (s->num_stretch == 3)
        CHECK(memcmp(s->stretch_pairs, sorted_pairs, sizeof sorted_pairs) == 0,
              "stretch pairs come back as i < j, ordered");

    /* The bundle as read, written and read again: identical. */
    rc = corepcg_bundle_write(dir2, s, one->b, one->x0, msg);
    CHECK(rc == COREPCG_OK, "second write: %d %s", rc, msg);
    rc = corepcg_bundle_read(dir2, &two, msg);
    CHECK(rc == COREPCG_OK, "second read: %d %s", rc, msg);
    if (two)
        check_bundles_identical(one, two, "awkward round trip");
    corepcg_bundle_free(&one);
    corepcg_bundle_free(&two);
}

/* CHOLMOD writes an integer-valued A as `integer` and an all-ones A as
 * `pattern`; both, and an UPPER input, must read back as given. */
static void test_round_trip_special_fields(void)
{
    struct {
        const char *name, *banner;
        corepcg_triangle tri;
        int rows[5], cols[5];
        double vals[5];
        int nnz;
    } cases[] = {
        {"integer", "%%MatrixMarket matrix coordinate integer symmetric",
         COREPCG_LOWER, {0, 1, 2, 2}, {0, 1, 2, 0}, {2, 3, 4, -1}, 4},
        {"pattern", "%%MatrixMarket matrix coordinate pattern symmetric",
         COREPCG_LOWER, {0, 1, 2, 1}, {0, 1, 2, 0}, {1, 1, 1, 1}, 4},
        {"upper", "%%MatrixMarket matrix coordinate real symmetric",
         COREPCG_UPPER, {0, 0, 1, 2, 1}, {0, 2, 1, 2, 2}, {2.5, 0.25, 3, 4, -0.5}, 5},
    };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        corepcg_system sys = {.num_nodes = 1, .A_format = COREPCG_TRIPLET,
                              .A_triangle = cases[t].tri,
                              .A_rowidx = cases[t].rows, .A_colidx = cases[t].cols,
                              .A_values = cases[t].vals, .A_nnz = cases[t].nnz};
        double b[3] = {1, 2, 3};
        char dir[FIXTURE_PATH], msg[COREPCG_MSG_SIZE];
        fixture_join(dir, tmpdir, cases[t].name);
        int rc = corepcg_bundle_write(dir, &sys, b, NULL, msg);
        CHECK(rc == COREPCG_OK, "%s: write %d %s", cases[t].name, rc, msg);
        check_first_line(dir, "A.mtx", cases[t].banner);
        corepcg_bundle *bu = NULL;
        rc = corepcg_bundle_read(dir, &bu, msg);
        CHECK(rc == COREPCG_OK, "%s: read %d %s", cases[t].name, rc, msg);
        if (!bu)
            continue;
        /* Dense lower triangle of what was given vs. what came back. */
        double want[3][3] = {{0}}, got[3][3] = {{0}};
        for (int k = 0; k < cases[t].nnz; k++) {
            int i = cases[t].rows[k], j = cases[t].cols[k];
            want[i > j ? i : j][i > j ? j : i] = cases[t].vals[k];
        }
        const corepcg_system *s = &bu->system;
        for (int j = 0; j < 3; j++)
            for (int k = s->A_colptr[j]; k < s->A_colptr[j + 1]; k++)
                got[s->A_rowidx[k]][j] = s->A_values[k];
        CHECK(memcmp(want, got, sizeof want) == 0, "%s: A read back differs",
              cases[t].name);
        CHECK_INT(s->A_colptr[3], cases[t].nnz);
        corepcg_bundle_free(&bu);
    }
}

/* ------------------------------------------------------- bad bundles */

/* The len bytes of text (NUL bytes too) as the file dir/name. */
static void write_bytes(const char *dir, const char *name, const char *text,
                        size_t len)
{
    char path[FIXTURE_PATH];
    fixture_join(path, dir, name);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(text, 1, len, f) == len;
    if (!f || fclose(f) != 0 || !ok) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
}

/* Copies tiny to tmpdir/tag, replaces `file` with the len bytes of text
 * (NULL deletes it), reads the bundle and expects code and a message
 * containing "<bundle>/<file>:<line>:" (line > 0) or "<bundle>/<file>"
 * and phrase. */
static void expect_bad_bytes(const char *tag, const char *file, char *text,
                             size_t len, int code, int line,
                             const char *phrase)
{
    char dir[FIXTURE_PATH], path[FIXTURE_PATH], where[FIXTURE_PATH + 32];
    char msg[COREPCG_MSG_SIZE];
    if (fixture_copy_tiny(tmpdir, tag, dir) != 0) {
        CHECK(0, "%s: cannot copy tiny", tag);
        free(text);
        return;
    }
    fixture_join(path, dir, file);
    if (text)
        write_bytes(dir, file, text, len);
    else
        unlink(path);
    free(text);
    corepcg_bundle *bu = (corepcg_bundle *)&bu; /* poison */
    msg[0] = '\0';
    int rc = corepcg_bundle_read(dir, &bu, msg);
    CHECK(rc == code, "%s: code %d (%s), expected %d; message: %s", tag, rc,
          corepcg_strerror(rc), code, msg);
    CHECK(bu == NULL, "%s: *out must be NULL on failure", tag);
    if (line > 0)
        snprintf(where, sizeof where, "%s:%d: ", path, line);
    else
        snprintf(where, sizeof where, "%s", path);
    CHECK_STR_CONTAINS(msg, where);
    CHECK_STR_CONTAINS(msg, phrase);
}

static void expect_bad(const char *tag, const char *file, char *text,
                       int code, int line, const char *phrase)
{
    expect_bad_bytes(tag, file, text, text ? strlen(text) : 0, code, line,
                     phrase);
}

static void test_bad_inputs(void)
{
    char *A = tiny_text("A.mtx"), *b = tiny_text("b.mtx");
    char *z = tiny_text("z.mtx"), *x0 = tiny_text("x0.mtx");
    char *st = tiny_text("stretch.mtx"), *con = tiny_text("constraints.txt");
    /* tiny/A.mtx: banner, comment, size line 3, entries on lines 4..45
     * (line 4 "1 1 8", line 10 "3 2 -1"); the vectors: size line 3,
     * values on lines 4..15; stretch.mtx: size line 3, pairs 4..6. */

    expect_bad("no-A", "A.mtx", NULL, COREPCG_ERR_IO, 0, "cannot open");
    expect_bad("no-b", "b.mtx", NULL, COREPCG_ERR_IO, 0, "cannot open");
    expect_bad("empty-A", "A.mtx", strdup(""), COREPCG_ERR_FORMAT, 1,
               "empty file");
    expect_bad("no-banner", "A.mtx", fixture_edit_lines(A, 1, "% just a comment", 0),
               COREPCG_ERR_FORMAT, 1, "not a Matrix Market file");
    expect_bad("A-array", "A.mtx",
               fixture_edit_lines(A, 1, "%%MatrixMarket matrix array real general", 0),
               COREPCG_ERR_FORMAT, 1, "A must be `coordinate real symmetric");
    expect_bad("A-complex", "A.mtx",
               fixture_edit_lines(A, 1, "%%MatrixMarket matrix coordinate complex symmetric", 0),
               COREPCG_ERR_FORMAT, 1, "complex");
    char comment[1100];
    memset(comment, 'x', sizeof comment - 1);
    comment[0] = '%';
    comment[sizeof comment - 1] = '\0';
    expect_bad("A-long-line", "A.mtx", fixture_edit_lines(A, 2, comment, 0),
               COREPCG_ERR_FORMAT, 2, "longer than");

    /* the size line */
    expect_bad("A-non-square", "A.mtx", fixture_edit_lines(A, 3, "12 9 42", 0),
               COREPCG_ERR_DIMENSION, 3, "A is 12 x 9; it must be square");
    expect_bad("A-not-3N", "A.mtx", fixture_edit_lines(A, 3, "10 10 42", 0),
               COREPCG_ERR_DIMENSION, 3, "n = 10 is not a positive multiple of 3");
    expect_bad("A-huge-nnz", "A.mtx", fixture_edit_lines(A, 3, "12 12 1000000000000", 0),
               COREPCG_ERR_TOO_LARGE, 3, "1000000000000 entries");
    expect_bad("A-huge-n", "A.mtx", fixture_edit_lines(A, 3, "3000000000 3000000000 42", 0),
               COREPCG_ERR_TOO_LARGE, 3, "n = 3000000000");
    expect_bad("A-too-many", "A.mtx", fixture_edit_lines(A, 3, "12 12 100", 0),
               COREPCG_ERR_FORMAT, 3, "more than a symmetric 12 x 12 matrix holds (78)");
    expect_bad("A-too-few", "A.mtx", fixture_edit_lines(A, 3, "12 12 5", 0),
               COREPCG_ERR_FORMAT, 3, "diagonal");
    expect_bad("A-size-fields", "A.mtx", fixture_edit_lines(A, 3, "12 12", 0),
               COREPCG_ERR_FORMAT, 3, "malformed size line");
    expect_bad("A-size-negative", "A.mtx", fixture_edit_lines(A, 3, "12 12 -4", 0),
               COREPCG_ERR_FORMAT, 3, "malformed size line");

    /* entries */
    expect_bad("A-truncated", "A.mtx", fixture_edit_lines(A, 0, NULL, 43),
               COREPCG_ERR_FORMAT, 44, "file ends after 40 of the 42 entries");
    char *longer = malloc(strlen(A) + 16);
    sprintf(longer, "%s12 1 1\n", A);
    expect_bad("A-extra", "A.mtx", longer, COREPCG_ERR_FORMAT, 46,
               "more entries than the 42");
    expect_bad("A-nan", "A.mtx", fixture_edit_lines(A, 10, "3 2 nan", 0),
               COREPCG_ERR_NOT_FINITE, 10, "value nan is not finite");
    expect_bad("A-inf", "A.mtx", fixture_edit_lines(A, 10, "3 2 -Inf", 0),
               COREPCG_ERR_NOT_FINITE, 10, "not finite");
    expect_bad("A-overflow", "A.mtx", fixture_edit_lines(A, 10, "3 2 1e999", 0),
               COREPCG_ERR_NOT_FINITE, 10, "not finite");
    expect_bad("A-huge-value", "A.mtx", fixture_edit_lines(A, 10, "3 2 1.5e308", 0),
               COREPCG_ERR_NOT_FINITE, 10, "turns |v| >= 1e308 into Inf");
    /* CHOLMOD sums duplicates: a second diagonal entry is added on. */
    expect_bad("A-duplicate", "A.mtx", fixture_edit_lines(A, 15, "4 4 -10.5", 0),
               COREPCG_ERR_NOT_SPD, 0, "A(4,4) = -0.5 is not positive");
    expect_bad("A-row-range", "A.mtx", fixture_edit_lines(A, 10, "13 2 -1", 0),
               COREPCG_ERR_DIMENSION, 10, "row index 13 is out of range 1..12");
    expect_bad("A-zero-index", "A.mtx", fixture_edit_lines(A, 10, "3 0 -1", 0),
               COREPCG_ERR_DIMENSION, 10, "column index 0 is out of range");
    expect_bad("A-upper", "A.mtx", fixture_edit_lines(A, 10, "2 3 -1", 0),
               COREPCG_ERR_FORMAT, 10, "above the diagonal");
    expect_bad("A-fields", "A.mtx", fixture_edit_lines(A, 10, "3 2", 0),
               COREPCG_ERR_FORMAT, 10, "expected 3 fields");
    expect_bad("A-fields-extra", "A.mtx", fixture_edit_lines(A, 10, "3 2 -1 0", 0),
               COREPCG_ERR_FORMAT, 10, "expected 3 fields");
    expect_bad("A-index-text", "A.mtx", fixture_edit_lines(A, 10, "3.0 2 -1", 0),
               COREPCG_ERR_FORMAT, 10, "row index is not a whole number");
    expect_bad("A-value-text", "A.mtx", fixture_edit_lines(A, 10, "3 2 one", 0),
               COREPCG_ERR_FORMAT, 10, "value is not a number ('one')");
    expect_bad("A-value-hex", "A.mtx", fixture_edit_lines(A, 10, "3 2 -0x1p0", 0),
               COREPCG_ERR_FORMAT, 10, "value -0x1p0 is a hexadecimal float");
    expect_bad("A-integer-banner", "A.mtx",
               fixture_edit_lines(A, 1, "%%MatrixMarket matrix coordinate integer symmetric", 0),
               COREPCG_ERR_FORMAT, 7, "not an integer");

    /* numbers CHOLMOD reads but no SPD matrix has */
    expect_bad("A-negative-diag", "A.mtx", fixture_edit_lines(A, 4, "1 1 -8", 0),
               COREPCG_ERR_NOT_SPD, 0, "A(1,1) = -8 is not positive");
    expect_bad("A-zero-diag", "A.mtx", fixture_edit_lines(A, 18, "4 4 0", 0),
               COREPCG_ERR_NOT_SPD, 0, "A(4,4) = 0 is not positive");
    char *nodiag = fixture_edit_lines(A, 4, NULL, 0), *nodiag2 = fixture_edit_lines(nodiag, 3, "12 12 41", 0);
    free(nodiag);
    expect_bad("A-missing-diag", "A.mtx", nodiag2, COREPCG_ERR_FORMAT, 0,
               "A(1,1) is missing: every diagonal entry must be stored");

    /* vectors */
    expect_bad("b-dims", "b.mtx", fixture_edit_lines(b, 3, "9 1", 0),
               COREPCG_ERR_DIMENSION, 3, "b is 9 x 1, expected 12 x 1");
    expect_bad("z-dims", "z.mtx", fixture_edit_lines(z, 3, "12 2", 0),
               COREPCG_ERR_DIMENSION, 3, "z is 12 x 2");
    expect_bad("b-nan", "b.mtx", fixture_edit_lines(b, 6, "NaN", 0),
               COREPCG_ERR_NOT_FINITE, 6, "value NaN is not finite");
    expect_bad("z-inf", "z.mtx", fixture_edit_lines(z, 15, "inf", 0),
               COREPCG_ERR_NOT_FINITE, 15, "not finite");
    expect_bad("x0-truncated", "x0.mtx", fixture_edit_lines(x0, 0, NULL, 14),
               COREPCG_ERR_FORMAT, 15, "file ends after 11 of the 12 entries");
    expect_bad("b-coordinate", "b.mtx",
               fixture_edit_lines(b, 1, "%%MatrixMarket matrix coordinate real general", 0),
               COREPCG_ERR_FORMAT, 1, "b must be `array real general`");
    expect_bad("b-fields", "b.mtx", fixture_edit_lines(b, 6, "1 2", 0),
               COREPCG_ERR_FORMAT, 6, "expected 1 value, found 2 fields");

    /* stretch.mtx */
    expect_bad("stretch-dims", "stretch.mtx", fixture_edit_lines(st, 3, "5 5 3", 0),
               COREPCG_ERR_DIMENSION, 3, "N = 4");
    expect_bad("stretch-self", "stretch.mtx", fixture_edit_lines(st, 4, "2 2", 0),
               COREPCG_ERR_FORMAT, 4, "node 1 is paired with itself");
    expect_bad("stretch-upper", "stretch.mtx", fixture_edit_lines(st, 5, "2 3", 0),
               COREPCG_ERR_FORMAT, 5, "above the diagonal");
    expect_bad("stretch-real", "stretch.mtx",
               fixture_edit_lines(st, 1, "%%MatrixMarket matrix coordinate real symmetric", 0),
               COREPCG_ERR_FORMAT, 1, "coordinate pattern symmetric");
    expect_bad("stretch-range", "stretch.mtx", fixture_edit_lines(st, 6, "5 3", 0),
               COREPCG_ERR_DIMENSION, 6, "row index 5 is out of range 1..4");

    /* constraints.txt inside a bundle: line 1 is a comment */
    expect_bad("constraints-zero-p", "constraints.txt", fixture_edit_lines(con, 3, "1 2 0 0 0", 0),
               COREPCG_ERR_CONSTRAINT, 3, "p is zero");
    char *twice = malloc(strlen(con) + 8);
    sprintf(twice, "%s1 0\n", con);
    expect_bad("constraints-twice", "constraints.txt", twice,
               COREPCG_ERR_CONSTRAINT, 5, "node 1 is listed twice (first on line 3)");
    expect_bad("constraints-range", "constraints.txt", fixture_edit_lines(con, 2, "4 0", 0),
               COREPCG_ERR_CONSTRAINT, 2, "out of range");
    expect_bad("constraints-hex", "constraints.txt",
               fixture_edit_lines(con, 3, "1 2 0x1.3333333333333p-1 0.8 0", 0),
               COREPCG_ERR_FORMAT, 3, "is a hexadecimal float");

    /* no bundle at all */
    char msg[COREPCG_MSG_SIZE];
    corepcg_bundle *bu = NULL;
    CHECK_INT(corepcg_bundle_read("/nonexistent/corepcg-bundle", &bu, msg),
              COREPCG_ERR_IO);
    CHECK_STR_CONTAINS(msg, "/nonexistent/corepcg-bundle/A.mtx: cannot open");
    CHECK_INT(corepcg_bundle_read(NULL, &bu, msg), COREPCG_ERR_ARGUMENT);
    CHECK_INT(corepcg_bundle_read("x", NULL, msg), COREPCG_ERR_ARGUMENT);

    free(A);
    free(b);
    free(z);
    free(x0);
    free(st);
    free(con);
}

/* text with line `lineno` replaced by `with`, in which every '@' stands
 * for the byte c (a NUL, which no C string holds); *len: its length. */
static char *edit_with_byte(const char *text, int lineno, const char *with,
                            char c, size_t *len)
{
    char *out = fixture_edit_lines(text, lineno, with, 0);
    *len = strlen(out);
    for (char *at = out; (at = strchr(at, '@')) != NULL; at++)
        *at = c;
    return out;
}

/* A NUL byte, a CR that does not end its line, a vertical tab or a form
 * feed is refused in every file, with its line (docs/format.md sections
 * 3.1 and 4.1): a NUL used to cut the line short silently ("25\0.4" read
 * as 25), the others passed for blanks. CRLF line ends and tabs still
 * read as before. */
static void test_stray_bytes(void)
{
    /* tiny's line `line` of `file` replaced by `with`, '@' standing for c:
     * b.mtx line 7 is 25.4, A.mtx line 5 "2 1 1", line 10 "3 2 -1" */
    static const struct {
        const char *tag, *file;
        int line;
        const char *with;
        char c;
        const char *phrase;
    } cases[] = {
        {"b-nul", "b.mtx", 7, "25@.4", '\0',
         "the line holds a NUL byte (column 3)"},
        {"b-nul-first", "b.mtx", 4, "@-0.7", '\0', "NUL byte"},
        {"A-nul", "A.mtx", 5, "2 1 1@5", '\0',
         "the line holds a NUL byte (column 6)"},
        {"A-nul-garbage", "A.mtx", 5, "2 1 1@ garbage 7 8", '\0', "NUL byte"},
        {"A-nul-index", "A.mtx", 10, "3@ 2 -1", '\0', "NUL byte"},
        {"A-nul-banner", "A.mtx", 1,
         "%%MatrixMarket matrix coordinate real symmetric@ x", '\0',
         "NUL byte"},
        {"A-nul-size", "A.mtx", 3, "12 12 42@7", '\0', "NUL byte"},
        {"stretch-nul", "stretch.mtx", 5, "3 2@1", '\0', "NUL byte"},
        /* "1 0\0 5" was read as `1 0`; "... 0.8\0 0" as a missing field */
        {"constraints-nul", "constraints.txt", 3, "1 0@ 5", '\0',
         "the line holds a NUL byte (column 4)"},
        {"constraints-nul-field", "constraints.txt", 3, "1  2   0.6 0.8@ 0",
         '\0', "NUL byte"},
        /* only spaces and tabs separate fields */
        {"A-cr", "A.mtx", 5, "2 1@1", '\r',
         "the line holds a carriage return (CR) that does not end it "
         "(column 4)"},
        {"A-cr-lf", "A.mtx", 5, "2 1 1@ ", '\r', "carriage return"},
        {"A-vtab", "A.mtx", 10, "3@2 -1", '\v',
         "the line holds a vertical tab (column 2)"},
        {"A-formfeed", "A.mtx", 10, "3 2@-1", '\f',
         "the line holds a form feed (column 4)"},
        {"b-vtab", "b.mtx", 7, "25.4@", '\v', "vertical tab"},
        {"b-size-cr", "b.mtx", 3, "12@1", '\r', "carriage return"},
        /* a line of a form feed is not blank (it was skipped) */
        {"b-formfeed-line", "b.mtx", 2, "@", '\f', "form feed"},
        {"stretch-vtab", "stretch.mtx", 5, "3@2", '\v', "vertical tab"},
        {"constraints-cr", "constraints.txt", 2, "0@0", '\r',
         "carriage return"},
        {"constraints-formfeed", "constraints.txt", 3, "1 2 0.6 0.8@0", '\f',
         "form feed"},
        {"constraints-control", "constraints.txt", 2, "0 0@", '\x01',
         "control character 0x01"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *text = tiny_text(cases[k].file);
        size_t len;
        char *t = edit_with_byte(text, cases[k].line, cases[k].with,
                                 cases[k].c, &len);
        expect_bad_bytes(cases[k].tag, cases[k].file, t, len,
                         COREPCG_ERR_FORMAT, cases[k].line, cases[k].phrase);
        free(text);
    }

    /* Every file with CRLF line ends, tabs between fields, a NUL and a
     * lone CR in comments: the same bundle as tiny. */
    char dir[FIXTURE_PATH], msg[COREPCG_MSG_SIZE];
    fixture_join(dir, fixture_data_dir(), "tiny");
    corepcg_bundle *want = NULL, *got = NULL;
    CHECK_INT(corepcg_bundle_read(dir, &want, msg), COREPCG_OK);
    if (fixture_copy_tiny(tmpdir, "crlf-tabs", dir) != 0)
        CHECK(0, "cannot copy tiny");
    static const char *const names[] = {"A.mtx", "b.mtx", "z.mtx", "x0.mtx",
                                        "stretch.mtx", "constraints.txt"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char *text = tiny_text(names[k]);
        size_t n = strlen(text);
        char *out = malloc(2 * n + 64), *o = out;
        int line = 1;
        for (const char *c = text; *c; c++) {
            if (*c == '\n') {
                if (line == 2) { /* a comment in every file */
                    o += sprintf(o, "%s", names[k][0] == 'c' ? " #" : "");
                    memcpy(o, "\0\r\v", 3);
                    o += 3;
                }
                *o++ = '\r';
                line++;
            }
            /* tabs for spaces, but not in the banner */
            *o++ = *c == ' ' && line > 1 ? '\t' : *c;
        }
        write_bytes(dir, names[k], out, (size_t)(o - out));
        free(out);
        free(text);
    }
    int rc = corepcg_bundle_read(dir, &got, msg);
    CHECK(rc == COREPCG_OK, "CRLF and tabs: %d %s", rc, msg);
    if (want && got)
        check_bundles_identical(want, got, "CRLF and tabs");
    corepcg_bundle_free(&got);
    corepcg_bundle_free(&want);
}

/* A stored `general`: symmetric to round-off is accepted and gives the
 * same lower triangle; anything more is refused. */
static void test_general_A(void)
{
    char *A = tiny_text("A.mtx");
    /* Both triangles: every off-diagonal entry of tiny mirrored. */
    size_t cap = 2 * strlen(A) + 256;
    char *gen = malloc(cap), *o = gen;
    o += sprintf(o, "%%%%MatrixMarket matrix coordinate real general\n12 12 72\n");
    const char *p = A;
    for (int line = 1; *p; line++) {
        const char *nl = strchr(p, '\n');
        if (line >= 4) {
            int i, j;
            char v[64];
            if (sscanf(p, "%d %d %63s", &i, &j, v) == 3) {
                o += sprintf(o, "%d %d %s\n", i, j, v);
                if (i != j)
                    o += sprintf(o, "%d %d %s\n", j, i, v);
            }
        }
        p = nl ? nl + 1 : p + strlen(p);
    }
    free(A);

    char dir[FIXTURE_PATH], tiny[FIXTURE_PATH], msg[COREPCG_MSG_SIZE];
    fixture_copy_tiny(tmpdir, "general", dir);
    fixture_write(dir, "A.mtx", gen);
    corepcg_bundle *g = NULL, *t = NULL;
    int rc = corepcg_bundle_read(dir, &g, msg);
    CHECK(rc == COREPCG_OK, "general A: %d %s", rc, msg);
    fixture_join(tiny, fixture_data_dir(), "tiny");
    corepcg_bundle_read(tiny, &t, msg);
    if (g && t) {
        CHECK_INT(g->A_general, 1);
        CHECK_INT(g->A_file_entries, 72);
        check_bundles_identical(t, g, "general vs symmetric A");
    }
    corepcg_bundle_free(&g);

    /* the mirror of "4 1 -2" off by one unit in the last place: accepted */
    char *roundoff = strdup(gen);
    char *at = strstr(roundoff, "\n1 4 -2\n");
    CHECK(at != NULL, "the mirror entry (1, 4) is in the general file");
    if (at) {
        char *fixed = malloc(strlen(roundoff) + 32);
        if (!fixed) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        *at = '\0';
        sprintf(fixed, "%s\n1 4 -2.0000000000000004\n%s", roundoff, at + 8);
        fixture_write(dir, "A.mtx", fixed);
        rc = corepcg_bundle_read(dir, &g, msg);
        CHECK(rc == COREPCG_OK, "asymmetry of 1 ulp: %d %s", rc, msg);
        if (g && t)
            check_bundles_identical(t, g, "general A with round-off");
        corepcg_bundle_free(&g);

        /* ... and off by 0.5: refused, naming both entries */
        sprintf(fixed, "%s\n1 4 -2.5\n%s", roundoff, at + 8);
        char *bad = fixed;
        expect_bad("general-asym", "A.mtx", strdup(bad), COREPCG_ERR_NOT_SYMMETRIC,
                   0, "A(4,1) = -2, A(1,4) = -2.5");

        /* ... and missing: refused */
        sprintf(fixed, "%s\n%s", roundoff, at + 8);
        char *shorter = fixture_edit_lines(fixed, 2, "12 12 71", 0);
        expect_bad("general-missing", "A.mtx", shorter,
                   COREPCG_ERR_NOT_SYMMETRIC, 0, "not symmetric");
        free(fixed);
    }
    free(roundoff);
    corepcg_bundle_free(&t);
    free(gen);
}

/* --------------------------------------------------- atomic writing */

static void test_failed_writes_change_nothing(void)
{
    char dir[FIXTURE_PATH], tiny[FIXTURE_PATH], path[FIXTURE_PATH];
    char msg[COREPCG_MSG_SIZE];
    fixture_join(tiny, fixture_data_dir(), "tiny");
    corepcg_bundle *t = NULL;
    if (corepcg_bundle_read(tiny, &t, msg) != COREPCG_OK) {
        CHECK(0, "cannot read tiny: %s", msg);
        return;
    }
    fixture_join(dir, tmpdir, "atomic");
    CHECK_INT(corepcg_bundle_write(dir, &t->system, t->b, t->x0, msg), COREPCG_OK);
    fixture_join(path, dir, "A.mtx");
    char *before = fixture_read(path);

    /* A NaN in b: refused before any file is touched. */
    double bad_b[12];
    memcpy(bad_b, t->b, sizeof bad_b);
    bad_b[5] = NAN;
    corepcg_system sys = t->system;
    int rc = corepcg_bundle_write(dir, &sys, bad_b, t->x0, msg);
    CHECK_INT(rc, COREPCG_ERR_NOT_FINITE);
    CHECK_STR_CONTAINS(msg, "b[5]");
    /* ... and in x0, and in z */
    double bad_x0[12], bad_z[12];
    memcpy(bad_x0, t->x0, sizeof bad_x0);
    bad_x0[3] = -INFINITY;
    rc = corepcg_bundle_write(dir, &sys, t->b, bad_x0, msg);
    CHECK_INT(rc, COREPCG_ERR_NOT_FINITE);
    CHECK_STR_CONTAINS(msg, "x0[3]");
    memcpy(bad_z, t->system.z, sizeof bad_z);
    bad_z[11] = NAN;
    sys.z = bad_z;
    rc = corepcg_bundle_write(dir, &sys, t->b, t->x0, msg);
    CHECK_INT(rc, COREPCG_ERR_NOT_FINITE);
    CHECK_STR_CONTAINS(msg, "z[11]");
    sys = t->system;

    /* A bad constraint record and a NaN in A: refused too. */
    corepcg_constraint c[3];
    memcpy(c, t->system.constraints, sizeof c);
    c[2].q[0] = 0.8;
    c[2].q[2] = 0.5; /* no longer orthogonal to p */
    sys.constraints = c;
    rc = corepcg_bundle_write(dir, &sys, t->b, t->x0, msg);
    CHECK_INT(rc, COREPCG_ERR_CONSTRAINT);
    CHECK_STR_CONTAINS(msg, "not orthogonal");
    sys = t->system;
    double vals[42];
    memcpy(vals, t->system.A_values, sizeof vals);
    vals[7] = INFINITY;
    sys.A_values = vals;
    rc = corepcg_bundle_write(dir, &sys, t->b, t->x0, msg);
    CHECK_INT(rc, COREPCG_ERR_NOT_FINITE);
    sys = t->system;
    int pairs[6] = {0, 1, 2, 2, 2, 3};
    sys.stretch_pairs = pairs;
    rc = corepcg_bundle_write(dir, &sys, t->b, t->x0, msg);
    CHECK_INT(rc, COREPCG_ERR_FORMAT);
    CHECK_STR_CONTAINS(msg, "stretch pair 1 (2, 2)");

    char *after = fixture_read(path);
    CHECK(before && after && strcmp(before, after) == 0,
          "a failed write must leave A.mtx as it was");
    CHECK_INT(fixture_count_files(dir), 6);
    free(before);
    free(after);

    /* The target is a regular file: no directory can be made. */
    rc = corepcg_bundle_write(path, &t->system, t->b, NULL, msg);
    CHECK_INT(rc, COREPCG_ERR_IO);
    CHECK_STR_CONTAINS(msg, path);

    /* A smaller system written over it: stale optional files go. */
    sys = t->system;
    sys.z = NULL;
    sys.num_constraints = 0;
    sys.constraints = NULL;
    sys.num_stretch = 0;
    sys.stretch_pairs = NULL;
    rc = corepcg_bundle_write(dir, &sys, t->b, NULL, msg);
    CHECK(rc == COREPCG_OK, "overwrite: %d %s", rc, msg);
    CHECK_INT(fixture_count_files(dir), 2);
    CHECK(fixture_exists(dir, "A.mtx") && fixture_exists(dir, "b.mtx") &&
              !fixture_exists(dir, "z.mtx") && !fixture_exists(dir, "x0.mtx"),
          "only A.mtx and b.mtx remain");
    corepcg_bundle_free(&t);
}

/* ------------------------------------- the writer refuses as setup does */

/* corepcg_bundle_write refuses sys with the code corepcg_setup gives for
 * it, which must be want (README, "Errors and what they mean"), and
 * creates nothing. */
static void expect_setup_code(const char *what, const corepcg_system *sys,
                              const double *b, int want)
{
    char dir[FIXTURE_PATH], msg[COREPCG_MSG_SIZE];
    corepcg_solver *h = NULL;
    if (corepcg_create(&h) != COREPCG_OK) {
        CHECK(0, "%s: no handle", what);
        return;
    }
    int setup = corepcg_setup(h, sys, NULL);
    fixture_join(dir, tmpdir, "refused");
    int wrc = corepcg_bundle_write(dir, sys, b, NULL, msg);
    CHECK(wrc == setup, "%s: bundle_write gives %d (%s: %s), setup %d (%s: %s)",
          what, wrc, corepcg_strerror(wrc), msg, setup,
          corepcg_strerror(setup), corepcg_message(h));
    CHECK(wrc == want, "%s: code %d (%s), expected %d (%s)", what, wrc,
          corepcg_strerror(wrc), want, corepcg_strerror(want));
    struct stat st;
    if (want != COREPCG_OK)
        CHECK(stat(dir, &st) != 0, "%s: a refused write created %s", what,
              dir);
    corepcg_free(&h);
}

static void test_write_codes_are_setup_codes(void)
{
    char tiny[FIXTURE_PATH], msg[COREPCG_MSG_SIZE];
    fixture_join(tiny, fixture_data_dir(), "tiny");
    corepcg_bundle *t = NULL;
    if (corepcg_bundle_read(tiny, &t, msg) != COREPCG_OK) {
        CHECK(0, "cannot read tiny: %s", msg);
        return;
    }
    const corepcg_system *base = &t->system;
    enum { n = 12, nnz = 42 };
    int colptr[n + 1], rowidx[nnz];
    double values[nnz], z[n];
    memcpy(colptr, base->A_colptr, sizeof colptr);
    memcpy(rowidx, base->A_rowidx, sizeof rowidx);
    memcpy(values, base->A_values, sizeof values);
    memcpy(z, base->z, sizeof z);
    corepcg_system sys = *base;

    /* the tiny system itself is fine with both */
    expect_setup_code("tiny", &sys, t->b, COREPCG_OK);
    char dir[FIXTURE_PATH];
    fixture_join(dir, tmpdir, "refused");
    fixture_remove_tree(dir);

    /* A's arrays: structure (FORMAT), indices (DIMENSION), numbers */
    colptr[2] = colptr[1] - 1;
    sys.A_colptr = colptr;
    expect_setup_code("colptr decreasing", &sys, t->b, COREPCG_ERR_FORMAT);
    memcpy(colptr, base->A_colptr, sizeof colptr);
    colptr[0] = 1;
    expect_setup_code("colptr[0] = 1", &sys, t->b, COREPCG_ERR_FORMAT);
    sys = *base;
    rowidx[colptr[1] + 1] = 0; /* (0, 1): above the diagonal of LOWER */
    sys.A_rowidx = rowidx;
    expect_setup_code("entry in the wrong triangle", &sys, t->b,
                      COREPCG_ERR_FORMAT);
    memcpy(rowidx, base->A_rowidx, sizeof rowidx);
    rowidx[2] = n;
    expect_setup_code("row index n", &sys, t->b, COREPCG_ERR_DIMENSION);
    rowidx[2] = -1;
    expect_setup_code("row index -1", &sys, t->b, COREPCG_ERR_DIMENSION);
    sys = *base;
    values[7] = NAN;
    sys.A_values = values;
    expect_setup_code("NaN in A", &sys, t->b, COREPCG_ERR_NOT_FINITE);
    values[7] = INFINITY;
    expect_setup_code("Inf in A", &sys, t->b, COREPCG_ERR_NOT_FINITE);

    /* triplets with both triangles: column out of range, asymmetry */
    int ti[2 * nnz], tj[2 * nnz], m = 0;
    double tx[2 * nnz];
    for (int j = 0; j < n; j++)
        for (int k = base->A_colptr[j]; k < base->A_colptr[j + 1]; k++) {
            int i = base->A_rowidx[k];
            ti[m] = i, tj[m] = j, tx[m++] = base->A_values[k];
            if (i != j)
                ti[m] = j, tj[m] = i, tx[m++] = base->A_values[k];
        }
    sys = *base;
    sys.A_format = COREPCG_TRIPLET;
    sys.A_triangle = COREPCG_BOTH;
    sys.A_colptr = NULL;
    sys.A_rowidx = ti;
    sys.A_colidx = tj;
    sys.A_values = tx;
    sys.A_nnz = m;
    expect_setup_code("tiny as full triplets", &sys, t->b, COREPCG_OK);
    fixture_remove_tree(dir);
    tj[5] = 40;
    expect_setup_code("triplet column 40", &sys, t->b, COREPCG_ERR_DIMENSION);
    tj[5] = ti[4]; /* entries 4 and 5 are a mirrored pair */
    tx[5] += 1e-3;
    expect_setup_code("full A not symmetric", &sys, t->b,
                      COREPCG_ERR_NOT_SYMMETRIC);
    {   /* the refusal names the pair, 0-based as the arrays are */
        corepcg_solver *h = NULL;
        char ij[32], ji[32];
        snprintf(ij, sizeof ij, "A(%d,%d) = ", ti[5], tj[5]);
        snprintf(ji, sizeof ji, "A(%d,%d) = ", tj[5], ti[5]);
        int rc = corepcg_create(&h) == COREPCG_OK
                     ? corepcg_setup(h, &sys, NULL)
                     : COREPCG_ERR_NO_MEMORY;
        const char *said = h ? corepcg_message(h) : "";
        CHECK(rc == COREPCG_ERR_NOT_SYMMETRIC &&
                  strstr(said, "A is not symmetric: ") && strstr(said, ij) &&
                  strstr(said, ji),
              "asymmetric triplets: message '%s' lacks %s or %s", said, ij, ji);
        corepcg_free(&h);
    }

    /* stretch pairs: a node out of range, a self pair, no array */
    sys = *base;
    int pairs[6] = {0, 1, 1, 4, 2, 3};
    sys.stretch_pairs = pairs;
    expect_setup_code("stretch pair out of range", &sys, t->b,
                      COREPCG_ERR_DIMENSION);
    pairs[2] = pairs[3] = 2;
    expect_setup_code("self pair", &sys, t->b, COREPCG_ERR_FORMAT);
    sys.stretch_pairs = NULL;
    expect_setup_code("stretch pairs NULL", &sys, t->b, COREPCG_ERR_ARGUMENT);

    /* the rest of the system */
    sys = *base;
    z[3] = INFINITY;
    sys.z = z;
    expect_setup_code("Inf in z", &sys, t->b, COREPCG_ERR_NOT_FINITE);
    sys = *base;
    corepcg_constraint c[3];
    memcpy(c, base->constraints, sizeof c);
    c[1].node = 4;
    sys.constraints = c;
    expect_setup_code("constraint node 4 of 4", &sys, t->b,
                      COREPCG_ERR_CONSTRAINT);
    sys = *base;
    sys.num_nodes = 0;
    expect_setup_code("num_nodes 0", &sys, t->b, COREPCG_ERR_ARGUMENT);
    corepcg_bundle_free(&t);
}

/* --------------------------------------------- all or nothing on disk */

/* The six bundle files of a directory (NULL: absent) and its entry
 * count. */
typedef struct snapshot {
    int entries;
    char *text[6];
} snapshot;

static void snapshot_take(const char *dir, snapshot *s)
{
    static const char *const names[6] = {"A.mtx", "b.mtx", "z.mtx",
                                         "constraints.txt", "stretch.mtx",
                                         "x0.mtx"};
    char path[FIXTURE_PATH];
    s->entries = fixture_count_files(dir);
    for (int k = 0; k < 6; k++) {
        fixture_join(path, dir, names[k]);
        s->text[k] = fixture_read(path);
    }
}

static void snapshot_free(snapshot *s)
{
    for (int k = 0; k < 6; k++)
        free(s->text[k]);
}

/* 1 when dir holds exactly what s saw. */
static int snapshot_same(const char *dir, const snapshot *s)
{
    snapshot now;
    snapshot_take(dir, &now);
    int same = now.entries == s->entries;
    for (int k = 0; k < 6; k++)
        same &= (now.text[k] == NULL) == (s->text[k] == NULL) &&
                (!now.text[k] || strcmp(now.text[k], s->text[k]) == 0);
    snapshot_free(&now);
    return same;
}

/* A system whose six files all differ from tiny's. */
typedef struct other_system {
    corepcg_system sys;
    double values[42], b[12], z[12], x0[12];
    int pairs[4];
} other_system;

static void make_other(const corepcg_bundle *t, other_system *o)
{
    o->sys = t->system;
    for (int k = 0; k < 42; k++)
        o->values[k] = 2 * t->system.A_values[k];
    for (int k = 0; k < 12; k++) {
        o->b[k] = 3 * t->b[k];
        o->z[k] = t->system.z[k] + 1;
        o->x0[k] = -t->x0[k] - 0.5;
    }
    memcpy(o->pairs, t->system.stretch_pairs, sizeof o->pairs);
    o->sys.A_values = o->values;
    o->sys.z = o->z;
    o->sys.num_constraints = 2;
    o->sys.num_stretch = 2;
    o->sys.stretch_pairs = o->pairs;
}

static void test_commit_all_or_nothing(void)
{
    char tiny[FIXTURE_PATH], dir[FIXTURE_PATH], msg[COREPCG_MSG_SIZE];
    fixture_join(tiny, fixture_data_dir(), "tiny");
    corepcg_bundle *t = NULL;
    if (corepcg_bundle_read(tiny, &t, msg) != COREPCG_OK) {
        CHECK(0, "cannot read tiny: %s", msg);
        return;
    }
    other_system o;
    make_other(t, &o);
    fixture_join(dir, tmpdir, "all-or-nothing");
    CHECK_INT(corepcg_bundle_write(dir, &t->system, t->b, t->x0, msg),
              COREPCG_OK);
    snapshot old;
    snapshot_take(dir, &old);
    CHECK_INT(old.entries, 6);

    /* The k-th of the six renames fails: the k-1 files renamed already
     * are put back, nothing else remains. */
    int renames = 0;
    for (long k = 1; k <= 7; k++) {
        inject_arm("rename", k, 0);
        int rc = corepcg_bundle_write(dir, &o.sys, o.b, o.x0, msg);
        long seen = inject.seen;
        inject_arm(NULL, 0, 0);
        if (k == 7) {
            CHECK(rc == COREPCG_OK, "no rename refused: %d %s", rc, msg);
            renames = (int)seen;
            break;
        }
        CHECK(rc == COREPCG_ERR_IO, "rename %ld refused: code %d (%s)", k, rc,
              msg);
        CHECK_STR_CONTAINS(msg, "cannot rename");
        CHECK_STR_CONTAINS(msg, "every file is as it was");
        CHECK(snapshot_same(dir, &old),
              "rename %ld refused: the directory changed (%s)", k, msg);
    }
    CHECK_INT(renames, 6);
    corepcg_bundle *back = NULL;
    CHECK_INT(corepcg_bundle_read(dir, &back, msg), COREPCG_OK);
    if (back) {
        CHECK(memcmp(back->b, o.b, sizeof o.b) == 0 &&
                  back->system.num_stretch == 2 &&
                  back->system.num_constraints == 2,
              "the new bundle is in place after the commit");
        corepcg_bundle_free(&back);
    }

    /* Back to tiny; then a smaller system whose removal of the stale z.mtx
     * fails after A.mtx and b.mtx were renamed: both come back. */
    CHECK_INT(corepcg_bundle_write(dir, &t->system, t->b, t->x0, msg),
              COREPCG_OK);
    CHECK(snapshot_same(dir, &old), "tiny rewritten as before");
    corepcg_system small = t->system;
    small.z = NULL;
    small.num_constraints = 0;
    small.constraints = NULL;
    small.num_stretch = 0;
    small.stretch_pairs = NULL;
    inject_arm("unlink", 1, 0);
    int rc = corepcg_bundle_write(dir, &small, o.b, NULL, msg);
    inject_arm(NULL, 0, 0);
    CHECK_INT(rc, COREPCG_ERR_IO);
    CHECK_STR_CONTAINS(msg, "z.mtx: cannot remove the old file");
    CHECK_STR_CONTAINS(msg, "every file is as it was");
    CHECK(snapshot_same(dir, &old), "failed removal: the directory changed");

    /* When the restore fails too, the message says what is left and where
     * the old content went; that file holds it. */
    inject_arm("rename", 2, 1);
    rc = corepcg_bundle_write(dir, &o.sys, o.b, o.x0, msg);
    inject_arm(NULL, 0, 0);
    CHECK_INT(rc, COREPCG_ERR_IO);
    CHECK_STR_CONTAINS(msg, "A.mtx could not be restored");
    const char *kept = strstr(msg, "its old content is in ");
    CHECK(kept != NULL, "the message names the copy: %s", msg);
    if (kept) {
        char copy[FIXTURE_PATH];
        snprintf(copy, sizeof copy, "%s", kept + strlen("its old content is in "));
        copy[strcspn(copy, ";")] = '\0';
        char *text = fixture_read(copy);
        CHECK(text && old.text[0] && strcmp(text, old.text[0]) == 0,
              "%s holds the old A.mtx", copy);
        free(text);
    }
    snapshot_free(&old);
    corepcg_bundle_free(&t);
}

/* Where no temporary can be made, or a target name is a directory: an
 * error naming the file, and nothing changed. */
static void test_unwritable(void)
{
    char tiny[FIXTURE_PATH], dir[FIXTURE_PATH], path[FIXTURE_PATH];
    char msg[COREPCG_MSG_SIZE];
    fixture_join(tiny, fixture_data_dir(), "tiny");
    corepcg_bundle *t = NULL;
    if (corepcg_bundle_read(tiny, &t, msg) != COREPCG_OK) {
        CHECK(0, "cannot read tiny: %s", msg);
        return;
    }
    /* a directory no one may create files in, root included */
    int rc = corepcg_bundle_write("/proc/self", &t->system, t->b, NULL, msg);
    CHECK_INT(rc, COREPCG_ERR_IO);
    CHECK_STR_CONTAINS(msg, "/proc/self/A.mtx: cannot write");

    fixture_join(dir, tmpdir, "unwritable");
    CHECK_INT(corepcg_bundle_write(dir, &t->system, t->b, t->x0, msg),
              COREPCG_OK);
    snapshot old;
    snapshot_take(dir, &old);
    if (geteuid() != 0) { /* root writes through the mode bits */
        chmod(dir, 0555);
        double b2[12];
        for (int k = 0; k < 12; k++)
            b2[k] = t->b[k] + 1;
        rc = corepcg_bundle_write(dir, &t->system, b2, t->x0, msg);
        chmod(dir, 0755);
        CHECK_INT(rc, COREPCG_ERR_IO);
        CHECK_STR_CONTAINS(msg, "cannot write");
        CHECK(snapshot_same(dir, &old), "unwritable directory changed");
    }

    /* z.mtx is a directory: refused before any rename */
    fixture_join(path, dir, "z.mtx");
    char *zt = fixture_read(path);
    unlink(path);
    mkdir(path, 0777);
    snapshot_free(&old);
    snapshot_take(dir, &old);
    rc = corepcg_bundle_write(dir, &t->system, t->b, t->x0, msg);
    CHECK_INT(rc, COREPCG_ERR_IO);
    CHECK_STR_CONTAINS(msg, "z.mtx: cannot write: it is a directory");
    CHECK(snapshot_same(dir, &old), "a directory in the way: files changed");
    /* ... also as a stale file to remove */
    corepcg_system noz = t->system;
    noz.z = NULL;
    rc = corepcg_bundle_write(dir, &noz, t->b, t->x0, msg);
    CHECK_INT(rc, COREPCG_ERR_IO);
    CHECK_STR_CONTAINS(msg, "z.mtx: is a directory");
    CHECK(snapshot_same(dir, &old), "a directory in the way: files changed");
    rmdir(path);
    if (zt)
        fixture_write(dir, "z.mtx", zt);
    free(zt);

    /* a read-only A.mtx is replaced, as mv replaces it */
    fixture_join(path, dir, "A.mtx");
    chmod(path, 0444);
    double v2[42];
    for (int k = 0; k < 42; k++)
        v2[k] = 4 * t->system.A_values[k];
    corepcg_system sys = t->system;
    sys.A_values = v2;
    rc = corepcg_bundle_write(dir, &sys, t->b, t->x0, msg);
    CHECK(rc == COREPCG_OK, "over a read-only A.mtx: %d %s", rc, msg);
    corepcg_bundle *back = NULL;
    CHECK_INT(corepcg_bundle_read(dir, &back, msg), COREPCG_OK);
    if (back) {
        CHECK_NEAR(back->system.A_values[0], 4 * t->system.A_values[0], 0);
        corepcg_bundle_free(&back);
    }
    CHECK_INT(fixture_count_files(dir), 6);
    snapshot_free(&old);
    corepcg_bundle_free(&t);
}

/* The temporary is a fresh name: files named like one are left alone,
 * whoever made them; discarding leaves nothing behind. */
static void test_temporaries(void)
{
    char dir[FIXTURE_PATH], path[FIXTURE_PATH], msg[COREPCG_MSG_SIZE];
    fixture_join(dir, tmpdir, "temporaries");
    mkdir(dir, 0777);
    fixture_join(path, dir, "v.mtx");
    char ours[64];
    snprintf(ours, sizeof ours, ".v.mtx.tmp-%ld-0", (long)getpid());
    fixture_write(dir, "v.mtx.tmp", "someone's file\n");
    fixture_write(dir, ours, "a stale temporary\n");
    double v[3] = {1, 2, 3};
    CHECK_INT(corepcg_vector_write(path, 3, v, msg), COREPCG_OK);
    char other[FIXTURE_PATH];
    fixture_join(other, dir, "v.mtx.tmp");
    char *text = fixture_read(other);
    CHECK(text && strcmp(text, "someone's file\n") == 0, "v.mtx.tmp clobbered");
    free(text);
    fixture_join(other, dir, ours);
    text = fixture_read(other);
    CHECK(text && strcmp(text, "a stale temporary\n") == 0, "%s clobbered",
          ours);
    free(text);
    CHECK_INT(fixture_count_files(dir), 3);

    /* a discarded file leaves neither temporary nor target */
    cpg_atomic_file af;
    fixture_join(path, dir, "w.txt");
    CHECK_INT(cpg_atomic_open(&af, path, msg), COREPCG_OK);
    fputs("half", af.f);
    cpg_atomic_discard(&af);
    CHECK_INT(fixture_count_files(dir), 3);
    /* a committed one is complete, and its temporary gone */
    CHECK_INT(cpg_atomic_open(&af, path, msg), COREPCG_OK);
    fputs("whole\n", af.f);
    CHECK_INT(cpg_atomic_commit(&af, msg), COREPCG_OK);
    text = fixture_read(path);
    CHECK(text && strcmp(text, "whole\n") == 0, "w.txt holds what was written");
    free(text);
    CHECK_INT(fixture_count_files(dir), 4);

    /* what a write replaces: a symbolic link's file (the link stays), with
     * its permission bits; never a pipe (or a device: `--out /dev/full`
     * as root made the device a file) nor an empty name */
    char real[FIXTURE_PATH], link_path[FIXTURE_PATH];
    fixture_join(real, dir, "real.txt");
    fixture_join(link_path, dir, "link.txt");
    fixture_write(dir, "real.txt", "old\n");
    CHECK_INT(chmod(real, 0600), 0);
    CHECK_INT(symlink("real.txt", link_path), 0);
    CHECK_INT(cpg_atomic_open(&af, link_path, msg), COREPCG_OK);
    fputs("new\n", af.f);
    CHECK_INT(cpg_atomic_commit(&af, msg), COREPCG_OK);
    struct stat st;
    CHECK(lstat(link_path, &st) == 0 && S_ISLNK(st.st_mode),
          "the link was replaced by a file");
    CHECK(stat(real, &st) == 0 && (st.st_mode & 0777) == 0600,
          "the file's mode became %o, was 600", (unsigned)(st.st_mode & 0777));
    text = fixture_read(real);
    CHECK(text && strcmp(text, "new\n") == 0, "written through the link");
    free(text);
    fixture_join(path, dir, "pipe");
    CHECK_INT(mkfifo(path, 0600), 0);
    CHECK_INT(cpg_atomic_open(&af, path, msg), COREPCG_ERR_IO);
    CHECK_STR_CONTAINS(msg, "is not a regular file");
    CHECK_INT(cpg_output_check(path, msg), COREPCG_ERR_IO);
    CHECK(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode), "the pipe replaced");
    CHECK_INT(cpg_output_check("", msg), COREPCG_ERR_IO);
    CHECK_STR_CONTAINS(msg, "empty name");
    unlink(path);
    unlink(link_path);
    unlink(real);

    /* mkdir -p, and a file in the way */
    fixture_join(path, dir, "a/b/c");
    CHECK_INT(cpg_make_dirs(path, msg), COREPCG_OK);
    CHECK(fixture_exists(dir, "a/b/c"), "a/b/c created");
    fixture_join(path, dir, "w.txt/d");
    CHECK_INT(cpg_make_dirs(path, msg), COREPCG_ERR_IO);
    CHECK_STR_CONTAINS(msg, "w.txt");
}

static void test_vectors(void)
{
    char path[FIXTURE_PATH], msg[COREPCG_MSG_SIZE];
    double v[7] = {0.1, -0.0, 4.9e-324, 9.8765432109876543e307, -1.0 / 3,
                   123456789012345678.0, 2.2250738585072014e-308};
    fixture_join(path, tmpdir, "v.mtx");
    CHECK_INT(corepcg_vector_write(path, 7, v, msg), COREPCG_OK);
    double *back = NULL;
    int rc = corepcg_vector_read(path, 7, &back, msg);
    CHECK(rc == COREPCG_OK, "vector read: %d %s", rc, msg);
    CHECK(back && memcmp(back, v, sizeof v) == 0,
          "vector round trip must be bit for bit (-0, denormal, 1e308-)");
    free(back);
    back = NULL;

    /* Wrong length: named with the size line (CHOLMOD writes no comment,
     * so that is line 2). */
    rc = corepcg_vector_read(path, 8, &back, msg);
    CHECK_INT(rc, COREPCG_ERR_DIMENSION);
    char where[FIXTURE_PATH + 8];
    snprintf(where, sizeof where, "%s:2: ", path);
    CHECK_STR_CONTAINS(msg, where);
    CHECK(back == NULL, "no vector on failure");

    /* A NaN is never written, and the old file stays. */
    char *before = fixture_read(path);
    double bad[7];
    memcpy(bad, v, sizeof bad);
    bad[3] = NAN;
    rc = corepcg_vector_write(path, 7, bad, msg);
    CHECK_INT(rc, COREPCG_ERR_NOT_FINITE);
    CHECK_STR_CONTAINS(msg, "x[3] = nan is not finite");
    /* DBL_MAX is finite, but CHOLMOD would write it as 1e308 = Inf. */
    bad[3] = 1.7976931348623157e308;
    rc = corepcg_vector_write(path, 7, bad, msg);
    CHECK_INT(rc, COREPCG_ERR_NOT_FINITE);
    CHECK_STR_CONTAINS(msg, "into Inf");
    char *after = fixture_read(path);
    CHECK(before && after && strcmp(before, after) == 0,
          "a refused vector write leaves the file as it was");
    free(before);
    free(after);

    /* missing parents are created (mkdir -p), as for every output */
    char sub[FIXTURE_PATH];
    fixture_join(sub, tmpdir, "no-such-dir/deeper/v.mtx");
    CHECK_INT(corepcg_vector_write(sub, 7, v, msg), COREPCG_OK);
    CHECK_INT(corepcg_vector_read(sub, 7, &back, msg), COREPCG_OK);
    if (back)
        CHECK(memcmp(back, v, 7 * sizeof(double)) == 0,
              "vector written under new parents reads back bit for bit");
    free(back);
    back = NULL;
    /* a regular file where a parent should be: refused, naming the path */
    char under_file[FIXTURE_PATH];
    fixture_join(under_file, path, "v.mtx");
    rc = corepcg_vector_write(under_file, 7, v, msg);
    CHECK_INT(rc, COREPCG_ERR_IO);
    CHECK_STR_CONTAINS(msg, path);
    CHECK_INT(corepcg_vector_read(under_file, 7, &back, msg), COREPCG_ERR_IO);
    CHECK_INT(corepcg_vector_write(path, 0, v, msg), COREPCG_ERR_ARGUMENT);
}

int main(void)
{
    fixture_temp_dir(tmpdir, "bundle");
    test_read_tiny();
    test_optional_files();
    test_round_trip_awkward();
    test_round_trip_special_fields();
    test_bad_inputs();
    test_stray_bytes();
    test_general_A();
    test_failed_writes_change_nothing();
    test_write_codes_are_setup_codes();
    test_commit_all_or_nothing();
    test_unwritable();
    test_temporaries();
    test_vectors();
    int files_left = fixture_count_files(tmpdir);
    fixture_remove_tree(tmpdir);
    CHECK(files_left > 0, "the fixtures were made in %s", tmpdir);
    return test_summary("test_bundle");
}

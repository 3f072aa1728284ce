/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_constraints.c -- the constraints.txt parser: docs/format.md's own example
 * block is accepted as printed; every defect docs/format.md lists (and a few
 * more a file can have) is refused with its code and a message that names
 * path:line. */
#include "internal.h"
#include "bundle_io.h" /* cpg_constraints_read */
#include "fixture.h"
#include "test.h"

static char tmpdir[FIXTURE_PATH];

/* Writes text to a file named name and parses it for N nodes. */
static int parse(const char *name, const char *text, int N,
                 corepcg_constraint **recs, int *count, char *msg,
                 char *path)
{
    fixture_join(path, tmpdir, name);
    if (fixture_write(tmpdir, name, text) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    msg[0] = '\0';
    return cpg_constraints_read(path, N, recs, count, msg);
}

/* The text must be refused with code, and the message must contain
 * "path:line:" and the phrase. */
static void expect_refused(const char *name, const char *text, int N,
                           int code, int line, const char *phrase)
{
    char msg[COREPCG_MSG_SIZE], path[FIXTURE_PATH], where[FIXTURE_PATH + 32];
    corepcg_constraint *recs = (corepcg_constraint *)&recs; /* poison */
    int count = -7;
    int rc = parse(name, text, N, &recs, &count, msg, path);
    CHECK_INT(rc, code);
    snprintf(where, sizeof where, "%s:%d: ", path, line);
    CHECK_STR_CONTAINS(msg, where);
    CHECK_STR_CONTAINS(msg, phrase);
    CHECK(recs == NULL && count == 0, "%s: outputs not reset on failure",
          name);
}

/* docs/format.md's example, verbatim (node 913 needs N > 913). */
static void test_format_example(void)
{
    const char *text =
        "# node ndof  p_x p_y p_z  [q_x q_y q_z]\n"
        "0    0\n"
        "40   0\n"
        "812  2   0.0 0.0 1.0\n"
        "913  1   1.0 0.0 0.0   0.0 1.0 0.0\n";
    char msg[COREPCG_MSG_SIZE], path[FIXTURE_PATH];
    corepcg_constraint *c = NULL;
    int count = 0;
    int rc = parse("example.txt", text, 1000, &c, &count, msg, path);
    CHECK_INT(rc, COREPCG_OK);
    CHECK_INT(count, 4);
    if (rc != COREPCG_OK || count != 4)
        return;
    CHECK_INT(c[0].node, 0);
    CHECK_INT(c[0].ndof, 0);
    CHECK_INT(c[1].node, 40);
    CHECK_INT(c[1].ndof, 0);
    CHECK_INT(c[2].node, 812);
    CHECK_INT(c[2].ndof, 2);
    CHECK_NEAR(c[2].p[0], 0.0, 0);
    CHECK_NEAR(c[2].p[1], 0.0, 0);
    CHECK_NEAR(c[2].p[2], 1.0, 0);
    CHECK_INT(c[3].node, 913);
    CHECK_INT(c[3].ndof, 1);
    CHECK_NEAR(c[3].p[0], 1.0, 0);
    CHECK_NEAR(c[3].q[1], 1.0, 0);
    CHECK_NEAR(c[3].q[0] + c[3].q[2] + c[3].p[1] + c[3].p[2], 0.0, 0);
    free(c);

    /* The same records with N = 913 put node 913 out of range (line 5). */
    expect_refused("example-small.txt", text, 913, COREPCG_ERR_CONSTRAINT, 5,
                   "out of range");
}

/* What a file may look like besides the example: tabs, CRLF, trailing
 * comments, unnormalised directions (kept as written, exactly). */
static void test_accepted_forms(void)
{
    char msg[COREPCG_MSG_SIZE], path[FIXTURE_PATH];
    corepcg_constraint *c = NULL;
    int count = -1;
    int rc = parse("forms.txt",
                   "\n   # only a comment\n"
                   "3\t2\t0 0 2.5   # a plane, p not unit\r\n"
                   "1 1 0.36 0.48 0.8 1.6 -1.2 0\n"
                   "   \t\n"
                   "0 0 # fixed\n",
                   4, &c, &count, msg, path);
    CHECK_INT(rc, COREPCG_OK);
    CHECK_INT(count, 3);
    if (rc == COREPCG_OK && count == 3) {
        CHECK_INT(c[0].node, 3);
        CHECK_INT(c[0].ndof, 2);
        CHECK_NEAR(c[0].p[2], 2.5, 0);  /* as written: U normalises */
        CHECK_INT(c[1].ndof, 1);
        CHECK_NEAR(c[1].p[0], 0.36, 0);
        CHECK_NEAR(c[1].q[0], 1.6, 0);
        CHECK_NEAR(c[1].q[1], -1.2, 0);
        CHECK_INT(c[2].node, 0);
        CHECK_INT(c[2].ndof, 0);
    }
    free(c);

    /* Nothing listed: no records, no array. */
    c = (corepcg_constraint *)&c;
    rc = parse("empty.txt", "# nothing constrained\n\n", 4, &c, &count, msg,
               path);
    CHECK_INT(rc, COREPCG_OK);
    CHECK_INT(count, 0);
    CHECK(c == NULL, "no records must give a NULL array");

    /* |p.q| just inside the 1e-6 tolerance is accepted. */
    c = NULL;
    rc = parse("almost.txt", "2 1 1 0 0 5e-7 1 0\n", 4, &c, &count, msg, path);
    CHECK_INT(rc, COREPCG_OK);
    CHECK_INT(count, 1);
    free(c);

    /* Many records (the array grows as it reads): 300 planes, read back in
     * order with their values. */
    char *many = malloc(300 * 40), *o = many;
    for (int k = 0; k < 300; k++)
        o += sprintf(o, "%d 2 %d 1 0\n", 299 - k, k + 1);
    c = NULL;
    rc = parse("many.txt", many, 300, &c, &count, msg, path);
    free(many);
    CHECK_INT(rc, COREPCG_OK);
    CHECK_INT(count, 300);
    int same = rc == COREPCG_OK && count == 300;
    for (int k = 0; same && k < 300; k++)
        same = c[k].node == 299 - k && c[k].ndof == 2 && c[k].p[0] == k + 1;
    CHECK(same, "the 300 records did not read back as written");
    free(c);
}

static void test_defects(void)
{
    /* docs/format.md's list: zero vector, q not orthogonal, node twice, node out
     * of range, missing or extra field, ndof other than 0, 1, 2. Each bad
     * record sits on line 3 after a comment and a good record. */
    const char *head = "# test\n0 0\n";
    struct {
        const char *line;
        int code;
        const char *phrase;
    } cases[] = {
        {"5 2 0 0 0\n", COREPCG_ERR_CONSTRAINT, "p is zero"},
        {"5 1 0.6 0.8 0  0 0 0\n", COREPCG_ERR_CONSTRAINT, "q is zero"},
        {"5 1 0 0 0  1 0 0\n", COREPCG_ERR_CONSTRAINT, "p is zero"},
        {"5 1 1 0 0  0.1 1 0\n", COREPCG_ERR_CONSTRAINT, "not orthogonal"},
        {"5 1 1 0 0  2e-6 1 0\n", COREPCG_ERR_CONSTRAINT, "not orthogonal"},
        {"0 2 0 0 1\n", COREPCG_ERR_CONSTRAINT,
         "node 0 is listed twice (first on line 2)"},
        {"10 0\n", COREPCG_ERR_CONSTRAINT, "out of range"},
        {"-1 0\n", COREPCG_ERR_CONSTRAINT, "out of range"},
        {"99999999999999999999 0\n", COREPCG_ERR_CONSTRAINT, "out of range"},
        {"5\n", COREPCG_ERR_FORMAT, "missing field"},
        {"5 2 0.6 0.8\n", COREPCG_ERR_FORMAT, "missing field"},
        {"5 1 1 0 0  0 1\n", COREPCG_ERR_FORMAT, "missing field"},
        {"5 0 1\n", COREPCG_ERR_FORMAT, "extra field '1'"},
        {"5 2 0 0 1 7\n", COREPCG_ERR_FORMAT, "extra field '7'"},
        {"5 1 1 0 0  0 1 0  9\n", COREPCG_ERR_FORMAT, "extra field '9'"},
        {"5 3\n", COREPCG_ERR_CONSTRAINT,
         "ndof 3 is not 0, 1 or 2 (a free node is not listed)"},
        {"5 4 0 0 1\n", COREPCG_ERR_CONSTRAINT, "ndof 4"},
        {"5 -1\n", COREPCG_ERR_CONSTRAINT, "ndof -1"},
        {"five 0\n", COREPCG_ERR_FORMAT, "node is not a whole number"},
        {"5 2.0 0 0 1\n", COREPCG_ERR_FORMAT, "ndof is not a whole number"},
        {"5 2 0 x 1\n", COREPCG_ERR_FORMAT, "p_y is not a number ('x')"},
        {"5 1 1 0 0  0 1 0,\n", COREPCG_ERR_FORMAT, "q_z is not a number"},
        {"5 2 nan 0 1\n", COREPCG_ERR_NOT_FINITE, "p_x is not finite"},
        {"5 1 1 0 0  0 inf 0\n", COREPCG_ERR_NOT_FINITE, "q_y is not finite"},
        {"5 2 0 0 1e999\n", COREPCG_ERR_NOT_FINITE, "p_z is not finite"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char text[256], name[32];
        snprintf(text, sizeof text, "%s%s", head, cases[k].line);
        snprintf(name, sizeof name, "bad%zu.txt", k);
        expect_refused(name, text, 10, cases[k].code, 3, cases[k].phrase);
    }

    /* The first line counts as line 1; later lines are not read. */
    expect_refused("first.txt", "7 5\n0 0\n", 10, COREPCG_ERR_CONSTRAINT, 1,
                   "ndof 5");
}

static void test_missing_file(void)
{
    char msg[COREPCG_MSG_SIZE], path[FIXTURE_PATH];
    corepcg_constraint *c = NULL;
    int count = 0;
    fixture_join(path, tmpdir, "absent.txt");
    int rc = cpg_constraints_read(path, 4, &c, &count, msg);
    CHECK_INT(rc, COREPCG_ERR_IO);
    CHECK_STR_CONTAINS(msg, path);
    CHECK_STR_CONTAINS(msg, "cannot open");
    rc = cpg_constraints_read(path, 0, &c, &count, msg);
    CHECK_INT(rc, COREPCG_ERR_ARGUMENT);
}

int main(void)
{
    fixture_temp_dir(tmpdir, "constraints");
    test_format_example();
    test_accepted_forms();
    test_defects();
    test_missing_file();
    fixture_remove_tree(tmpdir);
    return test_summary("test_constraints");
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_obj.c -- meshes as the tools write them, and their orientation
 * (issue 28): the OBJ reader on an ARCSim-style file (velocities, more
 * material coordinates than vertices, v/vt faces, per-face lines) and a
 * Blender-style export (objects, materials, normals, quads, line
 * elements, y up), each skipped statement counted; every face corner
 * form and the malformed ones; the six --up turns (rotations, up to +z);
 * a scene that would fix more than half its vertices, or free none,
 * refused with the --up that starts it; and gen, simulate and bench on
 * those files. The files are written here, by this test. Also what a new
 * user tripped on (issue 36): no note for `o` lines (the shipped
 * meshes'), simulate --obj into an earlier run's folder, choices in any
 * case. And what an outside review found: a UTF-8 byte order mark read
 * past, old Mac line ends (CR alone) refused with the line, and a gen
 * that fails after making --out's directories taking them back. */
#include "cloth_fixture.h"
#include "fixture.h"
#include "test.h"

#include <stdarg.h>
#include <sys/stat.h>

static char tmp_dir[FIXTURE_PATH];

#define SIDE 5            /* vertices a side of the test sheets */
#define SPACING 0.125     /* m between them: 0.5 m sheets       */

/* Appends printf-style text to tmp_dir/name (created by the first call
 * with `fresh`). */
static void put(const char *name, int fresh, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void put(const char *name, int fresh, const char *fmt, ...)
{
    char path[FIXTURE_PATH];
    fixture_join(path, tmp_dir, name);
    FILE *f = fopen(path, fresh ? "w" : "a");
    if (!f) {
        perror(path);
        exit(1);
    }
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fclose(f);
}

/* The 1-based number of the sheet's vertex at row r, column c. */
static int at(int r, int c)
{
    return r * SIDE + c + 1;
}

/* As ARCSim saves a mesh: the material-space vertices (vt) first, one
 * per node and again for the first column (a seam: more vt than v), then
 * each node's position (v) and velocity (vv), then each face as v/vt
 * with a `t` line after it. Z up: the sheet hangs in the x-z plane, its
 * top at z = 1. */
static void write_arcsim(const char *name)
{
    put(name, 1, "# ARCSim-style mesh\n");
    for (int r = 0; r < SIDE; r++)
        for (int c = 0; c < SIDE; c++)
            put(name, 0, "vt %g %g\n", c * SPACING, r * SPACING);
    for (int r = 0; r < SIDE; r++)
        put(name, 0, "vt %g %g\n", 1.0 + r * SPACING, 0.0);
    for (int r = 0; r < SIDE; r++)
        for (int c = 0; c < SIDE; c++)
            put(name, 0, "v %g 0 %g\nvv 0 0 %g\n", c * SPACING, 1.0 - r * SPACING,
                -0.01 * r);
    for (int r = 0; r + 1 < SIDE; r++)
        for (int c = 0; c + 1 < SIDE; c++) {
            /* the first column's left corners take the seam's vt */
            int left = c == 0 ? SIDE * SIDE + r + 1 : at(r, c);
            int below_left = c == 0 ? SIDE * SIDE + r + 2 : at(r + 1, c);
            put(name, 0, "f %d/%d %d/%d %d/%d\nt 0 0\n", at(r, c), left, at(r + 1, c),
                below_left, at(r + 1, c + 1), at(r + 1, c + 1));
            put(name, 0, "f %d/%d %d/%d %d/%d\nt 0 0\n", at(r, c), left,
                at(r + 1, c + 1), at(r + 1, c + 1), at(r, c + 1), at(r, c + 1));
        }
}

/* As Blender's OBJ export writes a plane: a header, mtllib, an object,
 * positions, one normal, texture coordinates, smoothing off, a
 * material, quads as v/vt/vn, and two loose edges (`l`) along the
 * border. Y up (Blender's default): the sheet hangs in the x-y plane,
 * its top at y = 1. */
static void write_blender(const char *name)
{
    put(name, 1, "# Blender 4.1.1\n# www.blender.org\nmtllib sheet.mtl\no Sheet\n");
    for (int r = 0; r < SIDE; r++)
        for (int c = 0; c < SIDE; c++)
            put(name, 0, "v %.6f %.6f 0.000000\n", c * SPACING, 1.0 - r * SPACING);
    put(name, 0, "vn -0.0000 -0.0000 1.0000\n");
    for (int r = 0; r < SIDE; r++)
        for (int c = 0; c < SIDE; c++)
            put(name, 0, "vt %.6f %.6f\n", c / (SIDE - 1.0), r / (SIDE - 1.0));
    put(name, 0, "s 0\nusemtl Cloth\n");
    for (int r = 0; r + 1 < SIDE; r++)
        for (int c = 0; c + 1 < SIDE; c++)
            put(name, 0, "f %d/%d/1 %d/%d/1 %d/%d/1 %d/%d/1\n", at(r, c), at(r, c),
                at(r + 1, c), at(r + 1, c), at(r + 1, c + 1), at(r + 1, c + 1),
                at(r, c + 1), at(r, c + 1));
    put(name, 0, "l 1 2\nl 2 3\n");
}

static int read_file(const char *name, cloth_mesh *mesh, cloth_obj_skipped *skipped,
                     char *msg)
{
    char path[FIXTURE_PATH];
    fixture_join(path, tmp_dir, name);
    return cloth_mesh_read_obj_skipping(path, mesh, skipped, msg);
}

static int read_text(const char *name, const char *text, cloth_mesh *mesh,
                     cloth_obj_skipped *skipped, char *msg)
{
    put(name, 1, "%s", text);
    return read_file(name, mesh, skipped, msg);
}

/* ------------------------------------------------------------- reader */

static void test_tool_files(void)
{
    cloth_mesh m;
    cloth_obj_skipped s;
    char msg[COREPCG_MSG_SIZE] = "", note[256];

    write_arcsim("arcsim.obj");
    int rc = read_file("arcsim.obj", &m, &s, msg);
    CHECK(rc == COREPCG_OK, "arcsim.obj: %s", msg);
    if (rc == COREPCG_OK) {
        CHECK_INT(m.num_vertices, SIDE * SIDE);
        CHECK_INT(m.num_triangles, 2 * (SIDE - 1) * (SIDE - 1));
        CHECK_NEAR(m.x[3 * (SIDE * SIDE - 1) + 2], 1.0 - (SIDE - 1) * SPACING, 0);
        cloth_mesh_free(&m);
    }
    cloth_obj_skipped_describe(&s, note, sizeof note);
    CHECK_STR_CONTAINS(note, "skipped 30 'vt', 25 'vv', 32 't' lines");
    CHECK_INT(cloth_obj_skipped_lines(&s), 30 + 25 + 32);

    write_blender("blender.obj");
    rc = read_file("blender.obj", &m, &s, msg);
    CHECK(rc == COREPCG_OK, "blender.obj: %s", msg);
    if (rc == COREPCG_OK) {
        CHECK_INT(m.num_vertices, SIDE * SIDE);
        CHECK_INT(m.num_triangles, 2 * (SIDE - 1) * (SIDE - 1)); /* quads fanned */
        const int first[6] = {0, 5, 6, 0, 6, 1};
        int diff = 0;
        for (int k = 0; k < 6; k++)
            diff += m.triangles[k] != first[k];
        CHECK_INT(diff, 0);
        cloth_mesh_free(&m);
    }
    cloth_obj_skipped_describe(&s, note, sizeof note);
    /* its `o` line, an object's name, loses nothing: not noted */
    CHECK(strcmp(note, "skipped 1 'mtllib', 1 'vn', 25 'vt', 1 's', 1 'usemtl', "
                       "2 'l' lines") == 0, "note: '%s'", note);

    /* the shipped meshes (an `o` line each besides v and f) say nothing */
    static const char *const shipped[] = {"tshirt.obj", "tshirt_coarse.obj", "dress.obj",
                                           "sheet.obj"};
    for (size_t k = 0; k < sizeof shipped / sizeof shipped[0]; k++) {
        char dir[FIXTURE_PATH], path[FIXTURE_PATH];
        fixture_join(dir, fixture_data_dir(), "meshes");
        fixture_join(path, dir, shipped[k]);
        rc = cloth_mesh_read_obj_skipping(path, &m, &s, msg);
        CHECK(rc == COREPCG_OK, "%s: %s", path, msg);
        cloth_mesh_free(&m);
        cloth_obj_skipped_describe(&s, note, sizeof note);
        CHECK(note[0] == '\0' && cloth_obj_skipped_lines(&s) == 0, "%s: note '%s'",
              shipped[k], note);
    }
}

static void test_skip_tally(void)
{
    cloth_mesh m;
    cloth_obj_skipped s;
    char msg[COREPCG_MSG_SIZE] = "", note[256], text[2048];

    /* more kinds than are named one by one, a keyword too long to name
     * and one that does not print: counted as other lines */
    int used = snprintf(text, sizeof text, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    for (int k = 0; k < CLOTH_OBJ_SKIP_KINDS + 2; k++)
        used += snprintf(text + used, sizeof text - (size_t)used, "k%d 1\nk%d 2\n", k, k);
    snprintf(text + used, sizeof text - (size_t)used,
             "averyveryverylongkeyword 1\n\x01\x02 3\ncstype bspline\n");
    int rc = read_text("kinds.obj", text, &m, &s, msg);
    CHECK(rc == COREPCG_OK, "kinds.obj: %s", msg);
    cloth_mesh_free(&m);
    CHECK_INT(s.kinds, CLOTH_OBJ_SKIP_KINDS);
    CHECK_INT(s.lines[0], 2);
    CHECK(strcmp(s.keyword[CLOTH_OBJ_SKIP_KINDS - 1], "k11") == 0, "last kind named: %s",
          s.keyword[CLOTH_OBJ_SKIP_KINDS - 1]);
    CHECK_INT(s.other_lines, 2 * 2 + 3); /* k12, k13, long, unprintable, cstype */
    cloth_obj_skipped_describe(&s, note, sizeof note);
    CHECK_STR_CONTAINS(note, ", 2 'k11', 7 other lines");

    /* one line skipped: singular (the `o` lines beside it not counted);
     * nothing skipped, or only `o` lines: no note */
    rc = read_text("one.obj", "o a\ng b\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\no c\n", &m,
                   &s, msg);
    CHECK(rc == COREPCG_OK, "one.obj: %s", msg);
    cloth_mesh_free(&m);
    cloth_obj_skipped_describe(&s, note, sizeof note);
    CHECK(strcmp(note, "skipped 1 'g' line") == 0, "note: '%s'", note);
    rc = read_text("named.obj", "o a\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", &m, &s, msg);
    cloth_mesh_free(&m);
    cloth_obj_skipped_describe(&s, note, sizeof note);
    CHECK(rc == COREPCG_OK && note[0] == '\0', "note: '%s' (%s)", note, msg);
    rc = read_text("none.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3 # c\n", &m, &s, msg);
    cloth_mesh_free(&m);
    cloth_obj_skipped_describe(&s, note, sizeof note);
    CHECK(rc == COREPCG_OK && note[0] == '\0', "note: '%s' (%s)", note, msg);

    /* the tally also on failure: what came before the bad line */
    rc = read_text("late.obj", "vv 1 2 3\nvv 1 2 3\nv 0 0 nan\n", &m, &s, msg);
    CHECK_INT(rc, COREPCG_ERR_FORMAT);
    CHECK_STR_CONTAINS(msg, "late.obj:3: number 'nan' is not finite");
    CHECK_INT(s.lines[0], 2);
}

static void test_corners(void)
{
    cloth_mesh m;
    char msg[COREPCG_MSG_SIZE] = "";
    /* every corner form, signs on the unused indices, negative vertices */
    int rc = read_text("corners.obj",
                       "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0 0\n"
                       "f 1 2/7 3//-2 4/+1/3\nf -4/-1/-1 -1//1 -3/2\n", &m, NULL, msg);
    CHECK(rc == COREPCG_OK, "corners.obj: %s", msg);
    if (rc == COREPCG_OK) {
        CHECK_INT(m.num_triangles, 3);
        const int want[9] = {0, 1, 2, 0, 2, 3, 1, 4, 2};
        int diff = 0;
        for (int k = 0; k < 9; k++)
            diff += m.triangles[k] != want[k];
        CHECK_INT(diff, 0);
        cloth_mesh_free(&m);
    }
    static const char square[] = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n";
    const struct {
        const char *line, *message;
    } bad[] = {
        {"f 1/ 2 3", ":5: bad vertex reference '1/' (v, v/vt, v/vt/vn or v//vn)"},
        {"f 1// 2 3", ":5: bad vertex reference '1//'"},
        {"f 1/2/3/4 2 3", ":5: bad vertex reference '1/2/3/4'"},
        {"f 1/x 2 3", ":5: bad vertex reference '1/x'"},
        {"f 1/2/- 2 3", ":5: bad vertex reference '1/2/-'"},
        {"f /1 2 3", ":5: bad vertex reference '/1'"},
        {"f 1 2 5/1", ":5: vertex index 5/1 out of range: 4 vertices defined so far"},
        {"f 1 2", ":5: a face needs at least 3 vertices, got 2"},
        {"v 1 2", ":5: a v line holds x y z (and w, or r g b), got 2 numbers"},
        {"v nan 0 0", ":5: number 'nan' is not finite"},
        {"v 2 0 0\nf 1 2 5", ":6: triangle 1 2 5 is degenerate (no area)"},
    };
    char text[256];
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(text, sizeof text, "%s%s\nf 1 2 3 4\n", square, bad[k].line);
        rc = read_text("bad.obj", text, &m, NULL, msg);
        CHECK(rc == COREPCG_ERR_FORMAT, "'%s': status %d (%s)", bad[k].line, rc, msg);
        CHECK_STR_CONTAINS(msg, bad[k].message);
        CHECK(m.num_vertices == 0 && m.x == NULL, "'%s': a refused mesh is empty",
              bad[k].line);
    }
}

/* A number too small for a double is still a finite one: read as the
 * denormal or zero strtod rounds it to, as other OBJ readers do. One too
 * large is refused, and said so. */
static void test_tiny_numbers(void)
{
    cloth_mesh m;
    char msg[COREPCG_MSG_SIZE] = "";
    int rc = read_text("tiny.obj", "v 1e-400 4e-320 0\nv 1 0 0\nv 0 1 -1e-310\nf 1 2 3\n", &m,
                       NULL, msg);
    CHECK(rc == COREPCG_OK, "tiny.obj: %s", msg);
    if (rc == COREPCG_OK) {
        CHECK(m.x[0] == 0.0, "1e-400 read as %g, not 0", m.x[0]);
        CHECK(m.x[1] == strtod("4e-320", NULL) && m.x[1] > 0, "4e-320 read as %g", m.x[1]);
        CHECK(m.x[8] < 0 && m.x[8] > -1e-300, "-1e-310 read as %g", m.x[8]);
        cloth_mesh_free(&m);
    }
    rc = read_text("huge.obj", "v 0 0 0\nv 1e400 0 0\n", &m, NULL, msg);
    CHECK_INT(rc, COREPCG_ERR_FORMAT);
    CHECK_STR_CONTAINS(msg, "huge.obj:2: number '1e400' is too large for a double");
    rc = read_text("huge.obj", "v 0 -1e999 0\n", &m, NULL, msg);
    CHECK_INT(rc, COREPCG_ERR_FORMAT);
    CHECK_STR_CONTAINS(msg, "huge.obj:1: number '-1e999' is too large for a double");
    rc = read_text("inf.obj", "v 0 inf 0\n", &m, NULL, msg);
    CHECK_INT(rc, COREPCG_ERR_FORMAT);
    CHECK_STR_CONTAINS(msg, "inf.obj:1: number 'inf' is not finite");
}

/* A NUL byte would end the line for the string functions and hide what
 * follows it: the line is refused. */
static void test_nul_byte(void)
{
    static const char text[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\0 garbage\n";
    char path[FIXTURE_PATH], msg[COREPCG_MSG_SIZE] = "";
    fixture_join(path, tmp_dir, "nul.obj");
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(text, 1, sizeof text - 1, f) == sizeof text - 1, "writing %s", path);
    if (f)
        fclose(f);
    cloth_mesh m;
    CHECK_INT(cloth_mesh_read_obj(path, &m, msg), COREPCG_ERR_FORMAT);
    CHECK_STR_CONTAINS(msg, "nul.obj:4: NUL byte in the line");
    CHECK(m.num_vertices == 0 && m.x == NULL, "a refused mesh is empty");
}

/* Line ends and a byte order mark: LF and CRLF read alike, a UTF-8 BOM
 * at the file's start read past (no skipped line), and a lone CR -- old
 * Mac line ends, which getline would read as one line -- refused at its
 * line rather than read as a file of no faces. */
static void test_line_ends(void)
{
    cloth_mesh m;
    cloth_obj_skipped s;
    char msg[COREPCG_MSG_SIZE] = "", note[256];
    const char *const ok[] = {
        "\xEF\xBB\xBFv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",
        "\xEF\xBB\xBF# made on Windows\r\nv 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nf 1 2 3\r\n",
        "\xEF\xBB\xBF\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\r", /* a last CRLF cut short */
    };
    for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++) {
        int rc = read_text("bom.obj", ok[k], &m, &s, msg);
        CHECK(rc == COREPCG_OK, "file %zu: %s", k, msg);
        cloth_obj_skipped_describe(&s, note, sizeof note);
        CHECK(note[0] == '\0', "file %zu: note '%s'", k, note);
        if (rc == COREPCG_OK) {
            CHECK_INT(m.num_vertices, 3);
            CHECK_INT(m.num_triangles, 1);
            CHECK_INT(m.vertex_line[0], k == 0 ? 1 : 2);
            cloth_mesh_free(&m);
        }
    }
    /* only at the very start: elsewhere the bytes are a statement's */
    int rc = read_text("bom2.obj", "v 0 0 0\n\xEF\xBB\xBFv 2 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",
                       &m, &s, msg);
    CHECK(rc == COREPCG_OK, "bom2.obj: %s", msg);
    CHECK_INT(s.other_lines, 1);
    if (rc == COREPCG_OK) {
        CHECK_INT(m.num_vertices, 3);
        CHECK(m.x[3] == 1.0, "vertex 2 at x = %g, not line 3's 1", m.x[3]);
        cloth_mesh_free(&m);
    }
    const struct {
        const char *text, *message;
    } bad[] = {
        {"# exported\rv 0 0 0\rv 1 0 0\rv 0 1 0\rf 1 2 3\r",
         "cr.obj:1: the line ends with a lone carriage return (CR: old Mac line ends); "
         "convert the file's line ends to LF"},
        {"v 0 0 0\nv 1 0 0\rv 0 1 0\rf 1 2 3\r\n",
         "cr.obj:2: the line ends with a lone carriage return (CR: old Mac line ends)"},
        {"\xEF\xBB\xBFv 0 0 0\rv 1 0 0\rv 0 1 0\rf 1 2 3",
         "cr.obj:1: the line ends with a lone carriage return"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0 \r# tail\nf 1 2 3\n",
         "cr.obj:3: a carriage return (CR) inside the line; a line ends with LF or CRLF"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        rc = read_text("cr.obj", bad[k].text, &m, NULL, msg);
        CHECK(rc == COREPCG_ERR_FORMAT, "text %zu: status %d (%s)", k, rc, msg);
        CHECK_STR_CONTAINS(msg, bad[k].message);
        CHECK(m.num_vertices == 0 && m.x == NULL, "text %zu: a refused mesh is empty", k);
    }
    /* the CLI: no note for the mark, the file and line for the CR */
    char args[4 * FIXTURE_PATH], out[8192];
    put("bom.obj", 1, "\xEF\xBB\xBF# sheet\n");
    for (int r = 0; r < SIDE; r++)
        for (int c = 0; c < SIDE; c++)
            put("bom.obj", 0, "v %g 0 %g\n", c * SPACING, 1.0 - r * SPACING);
    for (int r = 0; r + 1 < SIDE; r++)
        for (int c = 0; c + 1 < SIDE; c++)
            put("bom.obj", 0, "f %d %d %d %d\n", at(r, c), at(r + 1, c), at(r + 1, c + 1),
                at(r, c + 1));
    snprintf(args, sizeof args, "simulate hang --mesh '%s/bom.obj' --steps 1", tmp_dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    CHECK(!strstr(out, "skipped"), "a note for the BOM: %s", out);
    put("cr.obj", 1, "%s", bad[0].text);
    snprintf(args, sizeof args, "simulate hang --mesh '%s/cr.obj' --steps 1", tmp_dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    CHECK_STR_CONTAINS(out, "cr.obj:1: the line ends with a lone carriage return");
}

/* A polygon of n corners: a centre, then n - 1 points on a quarter
 * circle around it, the face listing them all and then `repeat` (0:
 * none). The fan of its triangles has none degenerate. */
static void write_polygon(const char *name, int n, int repeat)
{
    char path[FIXTURE_PATH];
    fixture_join(path, tmp_dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fprintf(f, "v 0 0 0\n");
    for (int k = 1; k < n; k++) {
        double angle = 1.5707963267948966 * (k - 1) / (n - 2);
        fprintf(f, "v %.17g %.17g 0\n", cos(angle), sin(angle));
    }
    fprintf(f, "f");
    for (int k = 1; k <= n; k++)
        fprintf(f, " %d", k);
    if (repeat)
        fprintf(f, " %d", repeat);
    fprintf(f, "\n");
    fclose(f);
}

/* Faces with many corners: each corner checked against the others in
 * one look, a repeat found however far apart; vertices defined after a
 * face are marked as well. */
static void test_large_face(void)
{
    enum { CORNERS = 200000 };
    cloth_mesh m;
    char msg[COREPCG_MSG_SIZE] = "";
    write_polygon("polygon.obj", CORNERS, 0);
    int rc = read_file("polygon.obj", &m, NULL, msg);
    CHECK(rc == COREPCG_OK, "polygon.obj: %s", msg);
    if (rc == COREPCG_OK) {
        CHECK_INT(m.num_vertices, CORNERS);
        CHECK_INT(m.num_triangles, CORNERS - 2);
        int *last = &m.triangles[3 * (CORNERS - 3)];
        CHECK(last[0] == 0 && last[1] == CORNERS - 2 && last[2] == CORNERS - 1,
              "the last triangle of the fan is %d %d %d", last[0], last[1], last[2]);
        cloth_mesh_free(&m);
    }
    /* the second corner again at the end: the face's line named */
    write_polygon("repeat.obj", CORNERS, 2);
    CHECK_INT(read_file("repeat.obj", &m, NULL, msg), COREPCG_ERR_FORMAT);
    char want[64];
    snprintf(want, sizeof want, "repeat.obj:%d: the face repeats vertex 2", CORNERS + 1);
    CHECK_STR_CONTAINS(msg, want);
    /* a vertex is used by many faces, once each; one defined after a
     * face is then used by another, which repeats it */
    rc = read_text("later.obj",
                   "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 3 1 2\nv 1 1 0\nf 2 4 3\n"
                   "f 4 2 3 -1\n", &m, NULL, msg);
    CHECK_INT(rc, COREPCG_ERR_FORMAT);
    CHECK_STR_CONTAINS(msg, "later.obj:8: the face repeats vertex 4");
}

/* --------------------------------------------------------- orientation */

static void test_orient(void)
{
    static const double basis[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const double up_of[CLOTH_UP_COUNT][3] = {
        {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {-1, 0, 0}, {0, -1, 0}, {0, 0, -1}};
    for (int up = 0; up < CLOTH_UP_COUNT; up++) {
        CHECK_INT(cloth_up_from_name(cloth_up_name(up)), up);
        double x[9];
        memcpy(x, basis, sizeof x);
        cloth_mesh m = {.num_vertices = 3, .x = x};
        cloth_mesh_orient(&m, CLOTH_UP_Z, (cloth_up)up);
        /* the columns of the turn are the images of the file's axes */
        const double *ex = &x[0], *ey = &x[3], *ez = &x[6];
        double det = ex[0] * (ey[1] * ez[2] - ey[2] * ez[1]) -
                     ex[1] * (ey[0] * ez[2] - ey[2] * ez[0]) +
                     ex[2] * (ey[0] * ez[1] - ey[1] * ez[0]);
        CHECK(det == 1.0, "up %s: determinant %g, a rotation has 1", cloth_up_name(up), det);
        double image_z = 0;
        for (int a = 0; a < 3; a++)
            image_z += up_of[up][a] * x[3 * a + 2];
        CHECK(image_z == 1.0, "up %s: the file's up turns to z %g, not 1",
              cloth_up_name(up), image_z);
        /* from any up to any other and back: exactly the same points */
        for (int to = 0; to < CLOTH_UP_COUNT; to++) {
            double y[9];
            memcpy(y, x, sizeof y);
            cloth_mesh t = {.num_vertices = 3, .x = y};
            cloth_mesh_orient(&t, (cloth_up)up, (cloth_up)to);
            cloth_mesh_orient(&t, (cloth_up)to, (cloth_up)up);
            CHECK(memcmp(x, y, sizeof y) == 0, "%s -> %s -> %s changed the points",
                  cloth_up_name(up), cloth_up_name(to), cloth_up_name(up));
        }
    }
    /* in any case, as every other choice's name */
    CHECK_INT(cloth_up_from_name("Y"), CLOTH_UP_Y);
    CHECK_INT(cloth_up_from_name("-Y"), CLOTH_UP_MINUS_Y);
    CHECK_INT(cloth_up_from_name("+y"), -1);
    CHECK_INT(cloth_up_from_name("yy"), -1);
    CHECK_INT(cloth_up_from_name(NULL), -1);
}

/* ------------------------------------------------------- scene checks */

/* The Blender sheet (y up) in a scene, read with `up`: the status and,
 * on success, the vertices held. */
static int blender_scene(cloth_scene scene, cloth_up up, int *held, char *msg)
{
    cloth_mesh m;
    int rc = read_file("blender.obj", &m, NULL, msg);
    if (rc != COREPCG_OK)
        return rc;
    cloth_mesh_orient(&m, CLOTH_UP_Z, up);
    cloth_params p;
    cloth_params_default_mesh(&p, scene, &m);
    cloth_sim *sim = NULL;
    rc = cloth_sim_create(&p, &sim, msg);
    *held = 0;
    for (int i = 0; sim && i < sim->model.N; i++)
        *held += sim->held[i] == 0;
    if (rc != COREPCG_OK) /* the advice, as the CLI gives it */
        *held = -1 - cloth_scene_suggest_up(&p, up, NULL);
    cloth_sim_free(&sim);
    cloth_mesh_free(&m);
    return rc;
}

/* The mesh in `text` read, and refused in `scene` with `message`. */
static void check_refused_start(const char *name, const char *text, cloth_scene scene,
                                const char *message)
{
    cloth_mesh m;
    char msg[COREPCG_MSG_SIZE] = "";
    int rc = read_text(name, text, &m, NULL, msg);
    CHECK(rc == COREPCG_OK, "%s: %s", name, msg);
    if (rc != COREPCG_OK)
        return;
    cloth_params p;
    cloth_params_default_mesh(&p, scene, &m);
    cloth_sim *sim = NULL;
    CHECK_INT(cloth_sim_create(&p, &sim, msg), COREPCG_ERR_ARGUMENT);
    CHECK_STR_CONTAINS(msg, message);
    CHECK(sim == NULL, "%s: a refused scene leaves no simulation", name);
    cloth_sim_free(&sim);
    cloth_mesh_free(&m);
}

static void test_scene_check(void)
{
    char msg[COREPCG_MSG_SIZE] = "";
    int held = 0;
    /* flat in the file's up plane: hang and ballhit would hold it all */
    cloth_scene band[2] = {CLOTH_SCENE_HANG, CLOTH_SCENE_BALLHIT};
    for (int k = 0; k < 2; k++) {
        CHECK_INT(blender_scene(band[k], CLOTH_UP_Z, &held, msg), COREPCG_ERR_ARGUMENT);
        CHECK_STR_CONTAINS(msg, "fixed 25 of 25 vertices: the mesh's highest 1 cm holds "
                                "all of it");
        CHECK_INT(-1 - held, CLOTH_UP_Y); /* the suggested up */
        CHECK_INT(blender_scene(band[k], CLOTH_UP_Y, &held, msg), COREPCG_OK);
        CHECK_INT(held, SIDE); /* the top row */
        CHECK_INT(blender_scene(band[k], CLOTH_UP_MINUS_Y, &held, msg), COREPCG_OK);
        CHECK_INT(held, SIDE); /* the bottom row, upside down */
    }
    /* x up: the last column (the largest x) is the top */
    CHECK_INT(blender_scene(CLOTH_SCENE_HANG, CLOTH_UP_X, &held, msg), COREPCG_OK);
    CHECK_INT(held, SIDE);
    /* nothing held: these start whichever way the sheet lies */
    CHECK_INT(blender_scene(CLOTH_SCENE_DRAPE, CLOTH_UP_Z, &held, msg), COREPCG_OK);
    CHECK_INT(blender_scene(CLOTH_SCENE_FREE, CLOTH_UP_Z, &held, msg), COREPCG_OK);
    CHECK_INT(held, 0);

    /* more than half, not all: 13 of 25 within 1 cm of the top */
    char text[2048];
    int used = 0;
    for (int i = 0; i < SIDE * SIDE; i++)
        used += snprintf(text + used, sizeof text - (size_t)used, "v %g %g %g\n",
                         (i % SIDE) * SPACING, (i / SIDE) * SPACING,
                         i < 13 ? 1.0 - 0.0005 * i : 0.5 - 0.01 * i);
    for (int r = 0; r + 1 < SIDE; r++)
        for (int c = 0; c + 1 < SIDE; c++)
            used += snprintf(text + used, sizeof text - (size_t)used, "f %d %d %d %d\n",
                             at(r, c), at(r + 1, c), at(r + 1, c + 1), at(r, c + 1));
    check_refused_start("half.obj", text, CLOTH_SCENE_HANG, "fixed 13 of 25 vertices: "
                        "the mesh's highest 1 cm holds more than half of it");

    /* a small sheet inside the body proxy's torso: refused as inside */
    cloth_obstacle body[CLOTH_MAX_OBSTACLES];
    int count = cloth_body_proxy(body);
    CHECK(count > 1, "%d obstacles", count);
    const double *c = body[1].end0[0];
    snprintf(text, sizeof text, "v %g %g %g\nv %g %g %g\nv %g %g %g\nf 1 2 3\n", c[0],
             c[1], c[2], c[0] + 0.01, c[1], c[2], c[0], c[1] + 0.01, c[2]);
    check_refused_start("inside.obj", text, CLOTH_SCENE_GARMENT,
                        "3 of 3 vertices start inside the scene's body proxy");

    /* no vertex free: the sheet just outside the torso (0.5 mm), within
     * the contact margin (0.1 of its mean edge, 1.1 mm) */
    double y = c[1] - body[1].radius - 5e-4;
    snprintf(text, sizeof text, "v %g %g %g\nv %g %g %g\nv %g %g %g\nf 1 2 3\n", c[0], y,
             c[2], c[0] + 0.01, y, c[2], c[0], y, c[2] + 0.01);
    check_refused_start("touching.obj", text, CLOTH_SCENE_GARMENT, "no vertex of 3 is free: "
                        "0 fixed, 3 touching an obstacle at the start");

    /* every grid scene starts, down to the smallest grid */
    for (int s = 0; s < CLOTH_SCENE_COUNT; s++)
        if (cloth_scene_on_grid(s)) {
            cloth_sim *sim = fixture_cloth((cloth_scene)s, CLOTH_MIN_SIZE, 600);
            cloth_sim_free(&sim);
        }
}

/* ---------------------------------------------------------------- CLI */

/* The CSV's rows (after the header): each row's ndof0 and iterations
 * columns into ndof0[] and iterations[]; the row count. */
static int csv_rows(const char *path, int *ndof0, int *iterations, int max)
{
    char *text = fixture_read(path);
    int rows = 0;
    char *line = text ? strchr(text, '\n') : NULL;
    while (line && line[1] && rows < max) {
        line++;
        int step, contacts;
        char method[32];
        if (sscanf(line, "%d,%d,%d,%*d,%*d,%31[^,],%*[^,],%d", &step, &contacts,
                   &ndof0[rows], method, &iterations[rows]) == 5)
            rows++;
        line = strchr(line, '\n');
    }
    free(text);
    return rows;
}

static void test_cli_gen(void)
{
    char args[4 * FIXTURE_PATH], out[8192], path[FIXTURE_PATH];
    corepcg_bundle *bundle = NULL;
    char msg[COREPCG_MSG_SIZE] = "";

    /* ARCSim's file as it comes (z up): the note on stderr and in the summary */
    snprintf(args, sizeof args, "gen hang --mesh '%s/arcsim.obj' --steps 2 --out '%s/a'",
             tmp_dir, tmp_dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    CHECK_STR_CONTAINS(out, "arcsim.obj: skipped 30 'vt', 25 'vv', 32 't' lines\n");
    CHECK_STR_CONTAINS(out, "hang on arcsim.obj (25 vertices), ");
    CHECK_STR_CONTAINS(out, "ndof 0/1/2: 5/0/0; arcsim.obj: skipped 30 'vt', 25 'vv', "
                            "32 't' lines\n");
    fixture_join(path, tmp_dir, "a");
    CHECK_INT(corepcg_bundle_read(path, &bundle, msg), COREPCG_OK);
    if (bundle) {
        CHECK_INT(bundle->system.num_nodes, SIDE * SIDE);
        CHECK_INT(bundle->system.num_constraints, SIDE); /* the top row */
        CHECK_INT(bundle->system.num_stretch, 2 * SIDE * (SIDE - 1) + (SIDE - 1) * (SIDE - 1));
        corepcg_bundle_free(&bundle);
    }

    /* Blender's file (y up) with --up y: the top row held */
    snprintf(args, sizeof args, "gen hang --mesh '%s/blender.obj' --up y --steps 2 "
             "--out '%s/b'", tmp_dir, tmp_dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    CHECK_STR_CONTAINS(out, "blender.obj: skipped 1 'mtllib', 1 'vn', 25 'vt', 1 's', "
                            "1 'usemtl', 2 'l' lines\n");
    CHECK_STR_CONTAINS(out, "hang on blender.obj (25 vertices, up y), ");
    fixture_join(path, tmp_dir, "b");
    CHECK_INT(corepcg_bundle_read(path, &bundle, msg), COREPCG_OK);
    if (bundle) {
        CHECK_INT(bundle->system.num_nodes, SIDE * SIDE);
        CHECK_INT(bundle->system.num_constraints, SIDE);
        corepcg_bundle_free(&bundle);
    }
}

static void test_cli_simulate(void)
{
    char args[4 * FIXTURE_PATH], out[8192], path[FIXTURE_PATH];
    int ndof0[8], iterations[8];

    /* with --up y it moves: the top row fixed, every step iterates */
    snprintf(args, sizeof args, "simulate hang --mesh '%s/blender.obj' --up y --steps 3 "
             "--method corepcg --csv '%s/run.csv'", tmp_dir, tmp_dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    CHECK_STR_CONTAINS(out, "hang on blender.obj (25 vertices, up y), ");
    fixture_join(path, tmp_dir, "run.csv");
    int rows = csv_rows(path, ndof0, iterations, 8);
    CHECK_INT(rows, 3);
    for (int k = 0; k < rows; k++) {
        CHECK_INT(ndof0[k], SIDE);
        CHECK(iterations[k] > 0, "step %d: %d iterations", k + 1, iterations[k]);
    }
}

static void test_cli_options(void)
{
    char args[4 * FIXTURE_PATH], out[8192];
    const char *commands[3] = {"gen hang --out X", "simulate hang", "bench --scene hang"};
    for (int k = 0; k < 3; k++) {
        /* named in --help; a bad value refused naming the option */
        snprintf(args, sizeof args, "%.*s --help", (int)strcspn(commands[k], " "),
                 commands[k]);
        CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
        CHECK_STR_CONTAINS(out, "--up AXIS        the mesh's up axis: x | y | z (default) | "
                                "-x | -y | -z");
        snprintf(args, sizeof args, "%s --mesh '%s/blender.obj' --up w", commands[k],
                 tmp_dir);
        CHECK_INT(fixture_run_cli(args, out, sizeof out), 2);
        CHECK_STR_CONTAINS(out, "--up takes one of x, y, z, -x, -y, -z, got 'w'");
    }
    /* read in any case: --up Y is --up y, --up -Y is --up -y; the scene,
     * --model and --self-contact too (test_cli_any_case) */
    snprintf(args, sizeof args, "gen Hang --mesh '%s/blender.obj' --up Y --model Springs "
             "--self-contact Off --steps 1 --out '%s/b'", tmp_dir, tmp_dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    CHECK_STR_CONTAINS(out, "hang on blender.obj (25 vertices, up y), ");
    snprintf(args, sizeof args, "gen hang --mesh '%s/blender.obj' --up -Y --steps 1 "
             "--out '%s/b'", tmp_dir, tmp_dir);
    fixture_run_cli(args, out, sizeof out);
    CHECK(!strstr(out, "--up takes one of"), "--up -Y refused: %s", out);
    CHECK_INT(fixture_run_cli("gen ballhit --size 5 --up y --out X", out, sizeof out), 2);
    CHECK_STR_CONTAINS(out, "gen: --up turns a mesh (--mesh FILE.obj); the grid scenes are "
                            "z-up");
    CHECK_INT(fixture_run_cli("bench --quick --up y", out, sizeof out), 2);
    CHECK_STR_CONTAINS(out, "bench: --up applies to the mesh scenes (hang, garment) only");
}

/* simulate --obj DIR into a folder an earlier run filled: that run's
 * frames (frame_ and five or more digits, .obj) are removed first, and
 * said so; every other file stays; a run refused before it starts
 * removes nothing (issue 36). */
static void test_cli_frames(void)
{
    char args[4 * FIXTURE_PATH], out[8192], dir[FIXTURE_PATH], name[64], want[2 * FIXTURE_PATH];
    fixture_join(dir, tmp_dir, "frames");
    fixture_remove_tree(dir);
    CHECK_INT(mkdir(dir, 0755), 0);
    for (int step = 1; step <= 10; step++) {
        snprintf(name, sizeof name, "frame_%05d.obj", step);
        fixture_write(dir, name, "# an earlier run's\n");
    }
    static const char *const others[] = {"frame_123456.obj", "notes.txt", "frame_keep.obj",
                                         "frame_0001.obj", "frame_00003.png",
                                         "frame_00002.obj.txt"};
    for (size_t k = 0; k < sizeof others / sizeof others[0]; k++)
        fixture_write(dir, others[k], "# another file\n");

    snprintf(args, sizeof args, "simulate hang --mesh '%s/blender.obj' --up y --steps 3 "
             "--obj '%s'", tmp_dir, dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    snprintf(want, sizeof want, "corepcg: simulate: removed 11 frames of an earlier run "
             "from %s\n", dir);
    CHECK_STR_CONTAINS(out, want);
    for (int step = 1; step <= 10; step++) {
        char path[2 * FIXTURE_PATH];
        snprintf(path, sizeof path, "%s/frame_%05d.obj", dir, step);
        char *text = fixture_read(path);
        if (step <= 3)
            CHECK(text && strstr(text, "\nv "), "%s: not this run's frame", path);
        else
            CHECK(!text, "%s: an earlier run's frame left", path);
        free(text);
    }
    CHECK(!fixture_exists(dir, "frame_123456.obj"), "frame_123456.obj left");
    for (size_t k = 1; k < sizeof others / sizeof others[0]; k++)
        CHECK(fixture_exists(dir, others[k]), "%s removed", others[k]);

    /* refused at the start (y-up read as z-up): the frames stay */
    snprintf(args, sizeof args, "simulate hang --mesh '%s/blender.obj' --steps 3 --obj '%s'",
             tmp_dir, dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    CHECK(fixture_exists(dir, "frame_00003.obj"), "a refused run removed the frames");
    CHECK(!strstr(out, "removed"), "a refused run said: %s", out);

    /* a shorter run after it: the third frame goes */
    snprintf(args, sizeof args, "simulate hang --mesh '%s/blender.obj' --up y --steps 2 "
             "--obj '%s'", tmp_dir, dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    snprintf(want, sizeof want, "removed 3 frames of an earlier run from %s\n", dir);
    CHECK_STR_CONTAINS(out, want);
    CHECK(fixture_exists(dir, "frame_00002.obj") && !fixture_exists(dir, "frame_00003.obj"),
          "not the 2 frames of the last run");

    /* a run that fails after its first frame (an FEM step of 1 s at
     * k 1e12 is not positive definite at step 2) leaves DIR as it was:
     * the earlier frames, none of its own, no staging directory (an
     * outside review: it had removed the earlier frames and left its own
     * first) */
    char frame2[2 * FIXTURE_PATH];
    snprintf(frame2, sizeof frame2, "%s/frame_00002.obj", dir);
    char *before = fixture_read(frame2);
    int files = fixture_count_files(dir);
    char coarse[2 * FIXTURE_PATH];
    snprintf(coarse, sizeof coarse, "%s/meshes/tshirt_coarse.obj", fixture_data_dir());
    snprintf(args, sizeof args, "simulate free --mesh '%s' --model fem --dt 1 "
             "--k-stretch 1e12 --method direct --steps 5 --obj '%s'", coarse, dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    CHECK_STR_CONTAINS(out, "corepcg: simulate: step 2: ");
    char *after = fixture_read(frame2);
    CHECK(before && after && strcmp(before, after) == 0, "a failed run changed %s", frame2);
    free(before);
    free(after);
    CHECK_INT(fixture_count_files(dir), files);
    CHECK(!strstr(out, "removed"), "a failed run said: %s", out);
    /* into directories it makes: they are taken back */
    snprintf(args, sizeof args, "simulate free --mesh '%s' --model fem --dt 1 "
             "--k-stretch 1e12 --method direct --steps 5 --obj '%s/made/frames'", coarse,
             tmp_dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    CHECK(!fixture_exists(tmp_dir, "made"), "a failed run left %s/made", tmp_dir);

    /* --csv naming a frame in --obj DIR: refused, nothing written */
    snprintf(args, sizeof args, "simulate hang --mesh '%s/blender.obj' --up y --steps 2 "
             "--obj '%s' --csv '%s/frame_00001.obj'", tmp_dir, dir, dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 2);
    CHECK_STR_CONTAINS(out, "is a frame's name in --obj");
    CHECK_INT(fixture_count_files(dir), files);

    /* one frame: the word singular; an empty or new folder: nothing said */
    fixture_remove_tree(dir);
    CHECK_INT(mkdir(dir, 0755), 0);
    fixture_write(dir, "frame_00009.obj", "# an earlier run's\n");
    snprintf(args, sizeof args, "simulate hang --mesh '%s/blender.obj' --up y --steps 1 "
             "--obj '%s'", tmp_dir, dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    snprintf(want, sizeof want, "removed 1 frame of an earlier run from %s\n", dir);
    CHECK_STR_CONTAINS(out, want);
    CHECK_INT(fixture_count_files(dir), 1);
    fixture_remove_tree(dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    CHECK(!strstr(out, "removed"), "a new folder: %s", out);
    CHECK_INT(fixture_count_files(dir), 1);
}

/* Every choice is read in any case, as docs/cli.md says (issue 36):
 * scene names, --model, --self-contact, --up, render's --view (gen's
 * are in test_cli_options). */
static void test_cli_any_case(void)
{
    CHECK_INT(cloth_scene_from_name("GARMENT"), CLOTH_SCENE_GARMENT);
    CHECK_INT(cloth_scene_from_name("Garment"), CLOTH_SCENE_GARMENT);
    CHECK_INT(cloth_scene_from_name("garments"), -1);
    CHECK_INT(cloth_force_model_from_name("FEM"), CLOTH_MODEL_FEM);
    CHECK_INT(cloth_force_model_from_name("fe"), -1);
    CHECK_INT(cloth_up_from_name("-Y"), CLOTH_UP_MINUS_Y);

    char args[4 * FIXTURE_PATH], out[8192], mesh[FIXTURE_PATH], dir[FIXTURE_PATH];
    fixture_join(dir, fixture_data_dir(), "meshes");
    fixture_join(mesh, dir, "tshirt_coarse.obj");
    snprintf(args, sizeof args, "simulate GARMENT --mesh '%s' --model FEM --self-contact ON "
             "--steps 1 --obj '%s/any-case'", mesh, tmp_dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    CHECK_STR_CONTAINS(out, "garment on tshirt_coarse.obj (414 vertices), fem (nu 0.3, ");
    snprintf(args, sizeof args, "render --view FRONT --width 16 --height 16 --out '%s/any-case' "
             "'%s/any-case/frame_00001.obj'", tmp_dir, tmp_dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    snprintf(args, sizeof args, "%s/any-case", tmp_dir);
    CHECK(fixture_exists(args, "frame_00001.png"), "render --view FRONT wrote no picture: %s",
          out);
    /* a wrong word still refused, the choices named */
    CHECK_INT(fixture_run_cli("render --view Oblique --out X a.obj", out, sizeof out), 2);
    CHECK_STR_CONTAINS(out, "--view takes one of front, side, top, got 'Oblique'");
}

/* The y-up sheet as read (z up) would hang whole from its top band:
 * each command refuses it, with why and the --up to try, before it
 * writes anything (bench makes its outputs' directories first). */
static void test_cli_refused(void)
{
    const struct {
        const char *command, *option, *output, *absent;
    } runs[] = {
        {"gen ballhit", "--out", "refused/bundle", "refused"},
        {"simulate hang --steps 3", "--csv", "refused/run.csv", "refused"},
        {"bench --quick --scene hang", "--csv", "refused/b.csv", "refused/b.csv"},
    };
    char args[4 * FIXTURE_PATH], out[8192], want[256];
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        snprintf(args, sizeof args, "%s --mesh '%s/blender.obj' %s '%s/%s'", runs[k].command,
                 tmp_dir, runs[k].option, tmp_dir, runs[k].output);
        CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
        snprintf(want, sizeof want, "corepcg: %.*s: fixed 25 of 25 vertices: the mesh's "
                 "highest 1 cm holds all of it; is it y-up? try --up y",
                 (int)strcspn(runs[k].command, " "), runs[k].command);
        CHECK_STR_CONTAINS(out, want);
        CHECK(!fixture_exists(tmp_dir, runs[k].absent), "'%s' made %s", runs[k].command,
              runs[k].absent);
    }
}

/* gen's "1 error (nothing written)": a step that fails after --out's
 * directories were made takes back the new ones, also on a path through
 * ".." (an outside review: it left the one before "..") (and only those: an
 * existing directory, and the bundle in it, stay as they were). Positions
 * of 1e150 m make the springs' A not finite at the first step. */
static void test_cli_gen_failed(void)
{
    char args[4 * FIXTURE_PATH], out[8192], path[FIXTURE_PATH];
    put("far.obj", 1, "v 0 0 1e150\nv 1e150 0 1e150\nv 0 0 0\nv 1e150 0 0\nf 1 3 4 2\n");
    snprintf(args, sizeof args, "gen hang --mesh '%s/far.obj' --steps 2 --out '%s/new/sub/'",
             tmp_dir, tmp_dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    CHECK_STR_CONTAINS(out, "corepcg: gen: step 1: ");
    CHECK(!fixture_exists(tmp_dir, "new"), "a failed gen left %s/new", tmp_dir);
    /* through "." and "..": every directory it made, and only those */
    snprintf(args, sizeof args, "gen hang --mesh '%s/far.obj' --steps 2 --out "
             "'%s/up/../down/./deep'", tmp_dir, tmp_dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    CHECK(!fixture_exists(tmp_dir, "up"), "a failed gen left %s/up", tmp_dir);
    CHECK(!fixture_exists(tmp_dir, "down"), "a failed gen left %s/down", tmp_dir);

    snprintf(args, sizeof args, "gen hang --mesh '%s/arcsim.obj' --steps 2 --out '%s/kept'",
             tmp_dir, tmp_dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 0);
    fixture_join(path, tmp_dir, "kept/A.mtx");
    char *before = fixture_read(path);
    snprintf(args, sizeof args, "gen hang --mesh '%s/far.obj' --steps 2 --out '%s/kept'",
             tmp_dir, tmp_dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    char *after = fixture_read(path);
    CHECK(before && after && strcmp(before, after) == 0, "a failed gen changed %s", path);
    free(before);
    free(after);
    fixture_join(path, tmp_dir, "empty");
    CHECK_INT(mkdir(path, 0777), 0);
    snprintf(args, sizeof args, "gen hang --mesh '%s/far.obj' --steps 2 --out '%s'", tmp_dir,
             path);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    CHECK(fixture_exists(tmp_dir, "empty"), "a failed gen removed %s, which it did not make",
          path);
}

int main(void)
{
    fixture_temp_dir(tmp_dir, "obj");
    test_tool_files();
    test_skip_tally();
    test_corners();
    test_tiny_numbers();
    test_nul_byte();
    test_line_ends();
    test_large_face();
    test_orient();
    test_scene_check();
    test_cli_gen();
    test_cli_simulate();
    test_cli_frames();
    test_cli_any_case();
    test_cli_options();
    test_cli_refused();
    test_cli_gen_failed();
    fixture_remove_tree(tmp_dir);
    return test_summary("test_obj");
}

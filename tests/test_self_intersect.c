/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_self_intersect.c -- a garment passing through itself at the start
 * (cloth/self_intersect.c): a triangle piercing another is counted and
 * refused by gen, simulate and bench with nothing written; a strip folded
 * onto itself 1 mm apart is not; the shipped meshes pass. */
#include "cloth_fixture.h"
#include "test.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/test_self_intersect_XXXXXX";

/* A mesh of nv vertices and nt triangles from arrays. */
static void make_mesh(const double *x, int nv, const int *tri, int nt, cloth_mesh *m)
{
    memset(m, 0, sizeof *m);
    m->x = malloc(3 * (size_t)nv * sizeof *m->x);
    m->triangles = malloc(3 * (size_t)nt * sizeof *m->triangles);
    memcpy(m->x, x, 3 * (size_t)nv * sizeof *x);
    memcpy(m->triangles, tri, 3 * (size_t)nt * sizeof *tri);
    m->num_vertices = nv;
    m->num_triangles = nt;
}

/* Triangle 2 (file lines 8) stands through triangle 1 (line 7): two of its
 * edges cross it, one pair of triangles. */
static void pierced(cloth_mesh *m)
{
    const double x[] = {0, 0, 1,  1, 0, 1,  0, 1, 1,
                        0.2, 0.2, 0.8,  0.3, 0.2, 1.2,  0.2, 0.3, 1.2};
    const int tri[] = {0, 1, 2, 3, 4, 5};
    make_mesh(x, 6, tri, 2, m);
}

/* A strip 1 m by 0.2 m folded back over itself: the upper layer 1 mm
 * above the lower, joined along x = 1 by a 1 mm band. */
static void folded(cloth_mesh *m)
{
    enum { COLS = 11, ROWS = 3, NV = 2 * COLS * ROWS };
    double x[3 * NV];
    int tri[6 * (2 * COLS - 1) * (ROWS - 1)], nt = 0;
    for (int c = 0; c < 2 * COLS; c++)
        for (int r = 0; r < ROWS; r++) {
            double *p = &x[3 * (c * ROWS + r)];
            p[0] = c < COLS ? c / (double)(COLS - 1) : (2 * COLS - 1 - c) / (double)(COLS - 1);
            p[1] = 0.1 * r;
            p[2] = c < COLS ? 0.0 : 0.001;
        }
    for (int c = 0; c + 1 < 2 * COLS; c++)
        for (int r = 0; r + 1 < ROWS; r++) {
            int a = c * ROWS + r, b = (c + 1) * ROWS + r;
            int t[6] = {a, b, b + 1, a, b + 1, a + 1};
            memcpy(&tri[3 * nt], t, sizeof t);
            nt += 2;
        }
    make_mesh(x, NV, tri, nt, m);
}

static void test_counts(void)
{
    char msg[COREPCG_MSG_SIZE] = "";
    cloth_self_intersection si;
    cloth_mesh m;
    pierced(&m);
    CHECK_INT(cloth_mesh_self_intersections(&m, &si, msg), COREPCG_OK);
    CHECK_INT((int)si.pairs, 1);
    CHECK_INT((int)si.crossings, 2);
    CHECK_INT(si.triangle[0], 1);
    CHECK_INT(si.triangle[1], 0);
    CHECK(fabs(si.point[2] - 1.0) < 1e-12, "the crossing at z = 1: %g", si.point[2]);
    cloth_mesh_free(&m);

    folded(&m);
    CHECK_INT(cloth_mesh_self_intersections(&m, &si, msg), COREPCG_OK);
    CHECK_INT((int)si.pairs, 0);
    CHECK_INT((int)si.crossings, 0);
    CHECK_INT(si.triangle[0], -1);
    /* the upper layer pushed 1 mm below the lower but for its fold (and
     * 3 cm along y, so that no edge meets another's): the layers cross
     * along x = 0.95, z = 0 for y in [0.015, 0.2]; the upper layer's
     * edges pierce the lower at y = 0.015, 0.065, 0.115, 0.165, the
     * lower's the upper at 0.05, 0.1, 0.15, 0.2 -- 8 crossings, and the
     * 7 intervals between them 7 pairs of triangles */
    for (int i = 0; i < m.num_vertices; i++)
        if (m.x[3 * i + 2] > 0.0 && m.x[3 * i] < 0.95) {
            m.x[3 * i + 1] += 0.03;
            m.x[3 * i + 2] = -0.001;
        }
    CHECK_INT(cloth_mesh_self_intersections(&m, &si, msg), COREPCG_OK);
    CHECK_INT((int)si.pairs, 7);
    CHECK_INT((int)si.crossings, 8);
    cloth_mesh_free(&m);
}

/* The shipped meshes pass at level 0, the T-shirt subdivided once too. */
static void test_shipped(void)
{
    const char *names[] = {"tshirt.obj", "dress.obj", "sheet.obj", "top.obj",
                           "tshirt_coarse.obj"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char path[1024], msg[COREPCG_MSG_SIZE] = "";
        snprintf(path, sizeof path, "%s/meshes/%s", COREPCG_DATA_DIR, names[k]);
        cloth_mesh m, fine;
        if (cloth_mesh_read_obj(path, &m, msg) != COREPCG_OK) {
            CHECK(0, "%s", msg);
            continue;
        }
        for (int level = 0; level <= (k == 0); level++) {
            if (cloth_mesh_subdivide(&m, level, &fine, msg) != COREPCG_OK) {
                CHECK(0, "%s", msg);
                continue;
            }
            cloth_self_intersection si;
            CHECK_INT(cloth_mesh_self_intersections(&fine, &si, msg), COREPCG_OK);
            CHECK(si.pairs == 0, "%s level %d: %ld pairs cross", names[k], level, si.pairs);
            cloth_mesh_free(&fine);
        }
        cloth_mesh_free(&m);
    }
}

/* The tool refuses the pierced mesh, exit 1, nothing written; takes the
 * fold. */
static void test_cli(void)
{
    char path[1024], folded_path[1024], args[4096], out[8192], dir[1100];
    cloth_mesh m;
    pierced(&m);
    snprintf(path, sizeof path, "%s/pierced.obj", tmpdir);
    fixture_write_mesh(path, &m);
    cloth_mesh_free(&m);
    const char *want = "the garment passes through itself: 1 pair of triangles cross "
                       "(2 edge crossings), e.g. an edge of the triangle at line 8 passes "
                       "through the triangle at line 7 at (0.25, 0.2, 1) m in the scene";

    snprintf(dir, sizeof dir, "%s/gen", tmpdir);
    snprintf(args, sizeof args, "gen free --mesh %s --out %s", path, dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    CHECK_STR_CONTAINS(out, want);
    CHECK_STR_CONTAINS(out, "fix the mesh in the tool that made it");
    CHECK(access(dir, F_OK) != 0, "gen wrote %s", dir);

    snprintf(dir, sizeof dir, "%s/frames", tmpdir);
    snprintf(args, sizeof args, "simulate free --mesh %s --steps 1 --obj %s", path, dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    CHECK_STR_CONTAINS(out, want);
    CHECK(access(dir, F_OK) != 0, "simulate wrote %s", dir);

    /* subdivided twice: 16 pieces a triangle, still named by the file's lines */
    snprintf(args, sizeof args, "simulate free --mesh %s --steps 1 --subdivide 2", path);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    CHECK_STR_CONTAINS(out, "8 pairs of triangles cross (4 edge crossings)");
    CHECK_STR_CONTAINS(out, "line 7");

    snprintf(dir, sizeof dir, "%s/bench.csv", tmpdir);
    snprintf(args, sizeof args, "bench --quick --scene hang --mesh %s --methods icpcg "
             "--csv %s", path, dir);
    CHECK_INT(fixture_run_cli(args, out, sizeof out), 1);
    CHECK_STR_CONTAINS(out, "bench: ");
    CHECK_STR_CONTAINS(out, want);
    CHECK(access(dir, F_OK) != 0, "bench wrote %s", dir);

    folded(&m);
    snprintf(folded_path, sizeof folded_path, "%s/folded.obj", tmpdir);
    fixture_write_mesh(folded_path, &m);
    cloth_mesh_free(&m);
    snprintf(args, sizeof args, "simulate free --mesh %s --steps 1", folded_path);
    CHECK(fixture_run_cli(args, out, sizeof out) == 0, "%s: %s", args, out);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        CHECK(0, "mkdtemp failed");
        return test_summary("test_self_intersect");
    }
    test_counts();
    test_shipped();
    test_cli();
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        CHECK(0, "%s failed", cmd);
    return test_summary("test_self_intersect");
}

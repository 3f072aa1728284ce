/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_obj.c -- libFuzzer target for the OBJ reader
 * (cloth_mesh_read_obj_skipping): the input is the file. Whatever it
 * returns must keep its contract: on success a mesh that
 * cloth_mesh_check accepts, every vertex and triangle with its line, no
 * more lines skipped than the file has, a note that names them, every
 * --up turn undone exactly by the turn back, and no lone CR (an old Mac
 * line end) in the file; on failure a format, size or memory code, an
 * empty mesh and a message that starts with `file:`. */
#include "cloth.h"
#include "fuzz_util.h"

#include <math.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static long count_lines(const uint8_t *data, size_t size)
{
    long lines = size > 0 && data[size - 1] != '\n';
    for (size_t k = 0; k < size; k++)
        lines += data[k] == '\n';
    return lines;
}

static void check_accepted(const cloth_mesh *m, long lines)
{
    char msg[COREPCG_MSG_SIZE] = "";
    FUZZ_REQUIRE(cloth_mesh_check(m, msg) == COREPCG_OK, "accepted, then refused: %s",
                 msg);
    FUZZ_REQUIRE(m->num_vertices >= 3 && m->num_triangles >= 1, "%d vertices, %d triangles",
                 m->num_vertices, m->num_triangles);
    FUZZ_REQUIRE(m->source && m->vertex_line && m->triangle_line, "lines not kept");
    for (int i = 0; i < m->num_vertices; i++)
        FUZZ_REQUIRE(m->vertex_line[i] >= 1 && m->vertex_line[i] <= lines &&
                         (i == 0 || m->vertex_line[i] > m->vertex_line[i - 1]),
                     "vertex %d on line %d of %ld", i + 1, m->vertex_line[i], lines);
    for (int t = 0; t < m->num_triangles; t++)
        FUZZ_REQUIRE(m->triangle_line[t] >= 1 && m->triangle_line[t] <= lines,
                     "triangle %d on line %d of %ld", t + 1, m->triangle_line[t], lines);
}

/* Each up and back: the same bits (the turns only move and negate). */
static void check_turns(cloth_mesh *m)
{
    size_t bytes = 3 * (size_t)m->num_vertices * sizeof *m->x;
    double *before = malloc(bytes);
    FUZZ_REQUIRE(before != NULL, "out of memory");
    memcpy(before, m->x, bytes);
    for (int up = 0; up < CLOTH_UP_COUNT; up++) {
        cloth_mesh_orient(m, CLOTH_UP_Z, (cloth_up)up);
        cloth_mesh_orient(m, (cloth_up)up, CLOTH_UP_Z);
        FUZZ_REQUIRE(memcmp(before, m->x, bytes) == 0, "up %s and back moved a vertex",
                     cloth_up_name(up));
    }
    free(before);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH];
    fuzz_join(path, fuzz_scratch_dir("obj"), "mesh.obj");
    fuzz_write_file(path, data, size);

    cloth_mesh m;
    cloth_obj_skipped skipped;
    char msg[COREPCG_MSG_SIZE] = "", note[512];
    int rc = cloth_mesh_read_obj_skipping(path, &m, &skipped, msg);
    long lines = count_lines(data, size);
    long skipped_lines = cloth_obj_skipped_lines(&skipped);
    FUZZ_REQUIRE(skipped_lines >= 0 && skipped_lines <= lines, "%ld skipped of %ld lines",
                 skipped_lines, lines);
    FUZZ_REQUIRE(skipped.kinds >= 0 && skipped.kinds <= CLOTH_OBJ_SKIP_KINDS, "%d kinds",
                 skipped.kinds);
    cloth_obj_skipped_describe(&skipped, note, sizeof note);
    FUZZ_REQUIRE((skipped_lines == 0) == (note[0] == '\0'), "%ld skipped, note '%s'",
                 skipped_lines, note);
    for (int k = 0; k < skipped.kinds; k++) {
        char named[CLOTH_OBJ_KEYWORD_SIZE + 4];
        snprintf(named, sizeof named, "'%s'", skipped.keyword[k]);
        FUZZ_REQUIRE(strstr(note, named), "note '%s' leaves out %s", note, named);
    }
    if (rc != COREPCG_OK) {
        FUZZ_REQUIRE(rc == COREPCG_ERR_FORMAT || rc == COREPCG_ERR_TOO_LARGE ||
                         rc == COREPCG_ERR_NO_MEMORY,
                     "unexpected code %d (%s)", rc, msg);
        FUZZ_REQUIRE(m.x == NULL && m.triangles == NULL && m.num_vertices == 0 &&
                         m.num_triangles == 0 && m.source == NULL,
                     "a refused mesh was left with data");
        FUZZ_REQUIRE(strncmp(msg, path, strlen(path)) == 0 && msg[strlen(path)] == ':',
                     "message does not start with `path:` (%s)", msg);
        FUZZ_REQUIRE(strlen(msg) > strlen(path) + 4, "empty reason: %s", msg);
        return 0;
    }
    check_accepted(&m, lines);
    /* a CR only ends a line (CRLF, or the file's last): a lone one is an
     * old Mac line end, which would have made one line of many */
    for (size_t k = 0; k + 1 < size; k++)
        FUZZ_REQUIRE(data[k] != '\r' || data[k + 1] == '\n', "accepted a lone CR at byte %zu",
                     k);
    check_turns(&m);
    cloth_mesh_free(&m);
    return 0;
}

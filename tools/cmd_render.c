/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd_render.c -- `corepcg render`: OBJ frames (simulate --obj) as PNG
 * pictures, a shaded orthographic view with hidden surfaces removed,
 * every frame framed alike so that they play as a film. */
#include "cli.h"
#include "cloth.h"
#include "render/png_write.h"
#include "render/raster.h"

#include "atomic_file.h"
#include "name_is.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RENDER_MAX_SIDE 8192

static const char usage_text[] =
    "usage: corepcg render [options] --out DIR FRAME.obj [FRAME.obj ...]\n"
    "  --out DIR        DIR/NAME.png for each NAME.obj; DIR is created if missing\n"
    "  --view V         front (from -y, default) | side (from +x) | top (from +z)\n"
    "  --width W        pixels (default 640)\n"
    "  --height H       pixels (default 640)\n"
    "Every frame is framed by the bounding box of all of them. The first object\n"
    "of a file (the cloth) is drawn orange, the others (obstacles) blue-grey.\n"
    "A frame is read as `--mesh` reads a mesh: a bad one is refused with its\n"
    "file and line.\n"
    "Two frames of the same NAME (a/frame_00001.obj, b/frame_00001.obj) would\n"
    "write the same picture: refused.\n"
    "Every picture's path is checked before any frame is read: one that\n"
    "cannot be written (a directory of its name, no permission) is refused.\n"
    "exit status: 0 written, 1 error (a bad frame or an unwritable path:\n"
    "no picture written), 2 usage\n";

static int view_from_name(const char *name)
{
    static const char *const views[] = {
        [RASTER_FRONT] = "front", [RASTER_SIDE] = "side", [RASTER_TOP] = "top"};
    return cpg_name_index(name, views, (int)(sizeof views / sizeof views[0]));
}

/* Line numbers of the file's `o` statements (ascending), malloc'ed. */
static int object_lines(const char *path, int **lines, int *count)
{
    *lines = NULL;
    *count = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *text = NULL;
    size_t size = 0;
    int line = 0, capacity = 0;
    while (getline(&text, &size, f) >= 0) {
        line++;
        if (text[0] != 'o' || (text[1] != ' ' && text[1] != '\t'))
            continue;
        if (*count == capacity) {
            capacity = capacity ? 2 * capacity : 8;
            int *grown = realloc(*lines, (size_t)capacity * sizeof *grown);
            if (!grown)
                break;
            *lines = grown;
        }
        (*lines)[(*count)++] = line;
    }
    free(text);
    fclose(f);
    return 0;
}

/* The picture of one frame, written to out_path. */
static int render_one(const cloth_mesh *m, const char *path, const char *out_path,
                      raster_view view, int width, int height, const double lo[3],
                      const double hi[3])
{
    static const unsigned char cloth_rgb[3] = {232, 122, 62}, other_rgb[3] = {110, 140, 190};
    int *objects = NULL, num_objects = 0;
    raster r;
    if (object_lines(path, &objects, &num_objects) ||
        raster_init(&r, width, height, view, lo, hi)) {
        free(objects);
        cli_error("render: %s: out of memory or unreadable", path);
        return -1;
    }
    for (int t = 0; t < m->num_triangles; t++) {
        /* objects before this face's line: the cloth is the first */
        int object = 0;
        while (object < num_objects && objects[object] < m->triangle_line[t])
            object++;
        const int *v = &m->triangles[3 * t];
        raster_triangle(&r, &m->x[3 * v[0]], &m->x[3 * v[1]], &m->x[3 * v[2]],
                        object <= 1 ? cloth_rgb : other_rgb);
    }
    free(objects);
    char msg[COREPCG_MSG_SIZE];
    cpg_atomic_file af;
    int rc = cpg_atomic_open(&af, out_path, msg);
    if (rc == COREPCG_OK && png_write(af.f, r.rgb, width, height) != 0) {
        snprintf(msg, sizeof msg, "%.400s: write failed", out_path);
        rc = COREPCG_ERR_IO;
    }
    if (rc == COREPCG_OK)
        rc = cpg_atomic_commit(&af, msg);
    cpg_atomic_discard(&af);
    raster_free(&r);
    if (rc != COREPCG_OK) {
        cli_error("render: %s", msg);
        return -1;
    }
    return 0;
}

/* DIR/NAME.png for FRAME path .../NAME.obj. */
static int png_path(const char *dir, const char *frame, char *out, size_t len)
{
    const char *slash = strrchr(frame, '/'), *base = slash ? slash + 1 : frame;
    size_t stem = strlen(base);
    if (stem > 4 && strcmp(base + stem - 4, ".obj") == 0)
        stem -= 4;
    return snprintf(out, len, "%s/%.*s.png", dir, (int)stem, base) < (int)len ? 0 : -1;
}

/* A frame's picture path and its place on the command line. */
struct picture {
    const char *path;
    int frame;
};

static int by_path(const void *a, const void *b)
{
    const struct picture *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    return c ? c : x->frame - y->frame;
}

/* DIR/NAME.png of every frame, in the frames' order (malloc'ed, for
 * free_paths), or NULL (said). */
static char **picture_paths(const char *out, const char **frames, int count)
{
    char **paths = calloc((size_t)count, sizeof *paths);
    if (!paths) {
        cli_error("render: out of memory");
        return NULL;
    }
    for (int k = 0; k < count; k++) {
        char path[4096];
        if (png_path(out, frames[k], path, sizeof path) || !(paths[k] = strdup(path))) {
            cli_error("render: %.400s...: path too long, or out of memory", out);
            for (int j = 0; j < k; j++)
                free(paths[j]);
            free(paths);
            return NULL;
        }
    }
    return paths;
}

static void free_paths(char **paths, int count)
{
    for (int k = 0; paths && k < count; k++)
        free(paths[k]);
    free(paths);
}

/* Two frames whose pictures (paths[k] for frames[k]) would have one name,
 * the second overwriting the first: CLI_EXIT_USAGE naming both (before
 * any work), else CLI_EXIT_OK or CLI_EXIT_ERROR (said). Sorted, not
 * compared pairwise: a film has thousands of frames. */
static int distinct_names(char *const *paths, const char **frames, int count)
{
    struct picture *pics = calloc((size_t)count, sizeof *pics);
    int rc = pics ? CLI_EXIT_OK : CLI_EXIT_ERROR;
    if (!pics)
        cli_error("render: out of memory");
    for (int k = 0; rc == CLI_EXIT_OK && k < count; k++) {
        pics[k].frame = k;
        pics[k].path = paths[k];
    }
    if (rc == CLI_EXIT_OK)
        qsort(pics, (size_t)count, sizeof *pics, by_path);
    for (int k = 1; rc == CLI_EXIT_OK && k < count; k++)
        if (strcmp(pics[k - 1].path, pics[k].path) == 0) {
            cli_error("render: %s and %s would both be drawn to %s: give frames of "
                      "different names, or render them to different --out directories",
                      frames[pics[k - 1].frame], frames[pics[k].frame], pics[k].path);
            rc = CLI_EXIT_USAGE;
        }
    free(pics);
    return rc;
}

/* Every frame into meshes, and the box around all of them (lo, hi):
 * CLI_EXIT_OK, or CLI_EXIT_ERROR (said) at the first bad one. */
static int read_frames(const char **frames, int count, cloth_mesh *meshes,
                       double *lo, double *hi)
{
    for (int c = 0; c < 3; c++) {
        lo[c] = INFINITY;
        hi[c] = -INFINITY;
    }
    for (int k = 0; k < count; k++) {
        char msg[COREPCG_MSG_SIZE];
        if (cloth_mesh_read_obj(frames[k], &meshes[k], msg) != COREPCG_OK) {
            cli_error("render: %s", msg);
            return CLI_EXIT_ERROR;
        }
        double a[3], b[3];
        cloth_mesh_bounds(&meshes[k], a, b);
        for (int c = 0; c < 3; c++) {
            lo[c] = fmin(lo[c], a[c]);
            hi[c] = fmax(hi[c], b[c]);
        }
    }
    return CLI_EXIT_OK;
}

/* What render's command line gives. */
struct render_args {
    const char *out;
    int view, width, height;
    const char **frames;
    int count;
};

/* One argument of render's command line (cli_parse_args). */
static int render_option(const char *a, const char *v, void *ctx)
{
    struct render_args *r = ctx;
    int rc = 0;
    if (strcmp(a, "--out") == 0) {
        rc = cli_path_value(a, v, "a directory");
        r->out = v;
    } else if (strcmp(a, "--view") == 0) {
        rc = cli_parse_choice(a, v, view_from_name, "front, side, top", &r->view);
    } else if (strcmp(a, "--width") == 0 || strcmp(a, "--height") == 0) {
        int *side = a[2] == 'w' ? &r->width : &r->height;
        rc = cli_parse_int(a, v, 16, RENDER_MAX_SIDE, side);
    } else if (a[0] != '-') {
        if (cli_positional_name("render", "FRAME", a))
            return CLI_ARG_ERROR;
        r->frames[r->count++] = a;
        return CLI_ARG_ALONE;
    } else {
        return CLI_ARG_UNKNOWN;
    }
    return rc ? CLI_ARG_ERROR : CLI_ARG_WITH_VALUE;
}

int cmd_render(int argc, char **argv)
{
    struct render_args r = {NULL, RASTER_FRONT, 640, 640, NULL, 0};
    r.frames = calloc((size_t)argc + 1, sizeof *r.frames);
    if (!r.frames) {
        cli_error("render: out of memory");
        return CLI_EXIT_ERROR;
    }
    int rc = cli_parse_args(argc, argv, "render", render_option, &r);
    if (rc == 1)
        fputs(usage_text, stdout);
    if (rc) {
        free(r.frames);
        return rc == 1 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    }
    const char *out = r.out, **frames = r.frames;
    int view = r.view, width = r.width, height = r.height, count = r.count;
    if (!out || count == 0) {
        cli_error("render: %s", !out ? "--out DIR is required" : "no FRAME.obj given");
        fputs(usage_text, stderr);
        free(frames);
        return CLI_EXIT_USAGE;
    }
    char **paths = picture_paths(out, frames, count);
    int named = paths ? distinct_names(paths, frames, count) : CLI_EXIT_ERROR;
    if (named != CLI_EXIT_OK) {
        free_paths(paths, count);
        free(frames);
        return named;
    }
    /* every picture's path checked first (as solve and gen check theirs):
     * one that cannot be written (a directory in its place) is said
     * before any frame is read, and none is written */
    const char *dirs[1] = {out};
    cli_new_dirs made = {0, NULL};
    cli_make_new_dirs(out, &made);
    int status = cli_outputs_ready("render", NULL, 0, dirs, 1) ||
                         cli_outputs_ready("render", (const char *const *)paths, count, NULL, 0)
                     ? CLI_EXIT_ERROR
                     : CLI_EXIT_OK;
    /* then every frame: the framing is their common box, and a bad one
     * stops the run before any picture is written */
    cloth_mesh *meshes = status == CLI_EXIT_OK ? calloc((size_t)count, sizeof *meshes) : NULL;
    double lo[3], hi[3];
    if (status == CLI_EXIT_OK && !meshes) {
        cli_error("render: out of memory");
        status = CLI_EXIT_ERROR;
    }
    if (status == CLI_EXIT_OK)
        status = read_frames(frames, count, meshes, lo, hi);
    for (int k = 0; status == CLI_EXIT_OK && k < count; k++)
        if (render_one(&meshes[k], frames[k], paths[k], (raster_view)view, width, height,
                       lo, hi))
            status = CLI_EXIT_ERROR;
    for (int k = 0; meshes && k < count; k++)
        cloth_mesh_free(&meshes[k]);
    free(meshes);
    free_paths(paths, count);
    free(frames);
    if (status != CLI_EXIT_OK)
        cli_remove_new_dirs(&made); /* each only while empty */
    cli_forget_new_dirs(&made);
    if (status == CLI_EXIT_OK)
        printf("wrote %d picture%s to %s\n", count, count == 1 ? "" : "s", out);
    return status;
}

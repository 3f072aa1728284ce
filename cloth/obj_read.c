/* SPDX-License-Identifier: GPL-2.0-or-later */
/* obj_read.c -- a triangle mesh from a Wavefront OBJ file: positions and
 * faces. Every other statement, known or not, is skipped and tallied:
 * modellers and simulators write many a cloth has no use for (texture
 * coordinates, normals, groups, materials, lines, velocities). Every
 * refusal names the file and the line. */
#include "cloth_mesh.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    const char *path;
    int line;
    char *msg;
    cloth_obj_skipped *skipped;
    /* growing arrays */
    double *x;
    int *vertex_line;
    long num_vertices, vertex_capacity;
    int *triangles;
    int *triangle_line;
    long num_triangles, triangle_capacity;
    int *face;          /* the current face's vertices */
    long face_capacity;
    int *last_face;     /* per vertex: the line of the last face using it */
    long last_face_capacity;
    long max_items;     /* vertices, and triangles, kept at most         */
    int over;           /* past max_items: v and f lines only counted    */
    long file_vertices, file_triangles; /* then the file's counts        */
} reader;

static int refuse(reader *r, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int refuse(reader *r, int code, const char *fmt, ...)
{
    if (r->msg) {
        /* no line yet (a directory, an unreadable file): the file alone */
        int used = r->line > 0
                       ? snprintf(r->msg, COREPCG_MSG_SIZE, "%s:%d: ", r->path, r->line)
                       : snprintf(r->msg, COREPCG_MSG_SIZE, "%s: ", r->path);
        if (used < 0 || used >= COREPCG_MSG_SIZE)
            used = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->msg + used, COREPCG_MSG_SIZE - (size_t)used, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* The next capacity for count + more items: doubled from 1024. */
static long next_capacity(long capacity, long count, long more)
{
    long wanted = capacity ? 2 * capacity : 1024;
    while (wanted < count + more)
        wanted *= 2;
    return wanted;
}

/* Room for `more` items in *data (`width` values of `size` bytes each)
 * and *line (one int each), count held of *capacity: both arrays grow
 * together, so that each item keeps its line. */
static int grow_with_lines(void **data, size_t width, size_t size, int **line,
                           long *capacity, long count, long more)
{
    if (count + more <= *capacity)
        return 0;
    long cap = next_capacity(*capacity, count, more);
    void *grown = realloc(*data, width * (size_t)cap * size);
    if (grown)
        *data = grown;
    int *lines = realloc(*line, (size_t)cap * sizeof *lines);
    if (lines)
        *line = lines;
    if (!grown || !lines)
        return -1;
    *capacity = cap;
    return 0;
}

/* Room for count + 1 corners of the current face. */
static int grow_face(reader *r, long count)
{
    if (count < r->face_capacity)
        return 0;
    long cap = next_capacity(r->face_capacity, count, 1);
    int *face = realloc(r->face, (size_t)cap * sizeof *face);
    if (!face)
        return -1;
    r->face = face;
    r->face_capacity = cap;
    return 0;
}

/* Room in last_face for every vertex defined so far, the new ones in no
 * face yet (line 0). */
static int grow_last_face(reader *r)
{
    if (r->num_vertices <= r->last_face_capacity)
        return 0;
    long cap = next_capacity(r->last_face_capacity, r->num_vertices, 0);
    int *grown = realloc(r->last_face, (size_t)cap * sizeof *grown);
    if (!grown)
        return -1;
    memset(grown + r->last_face_capacity, 0,
           (size_t)(cap - r->last_face_capacity) * sizeof *grown);
    r->last_face = grown;
    r->last_face_capacity = cap;
    return 0;
}

static int read_vertex(reader *r, char **save)
{
    double value[7];
    int count = 0;
    for (char *tok; (tok = strtok_r(NULL, " \t", save));) {
        if (count == 7)
            return refuse(r, COREPCG_ERR_FORMAT, "a v line holds x y z (and w, or r g b): "
                          "more than 7 numbers");
        char *end;
        errno = 0;
        value[count] = strtod(tok, &end);
        if (end == tok || *end)
            return refuse(r, COREPCG_ERR_FORMAT, "bad number '%s'", tok);
        /* ERANGE with a finite value is an underflow: strtod gives the
         * denormal or zero nearest, a coordinate as good as any */
        if (errno == ERANGE && isinf(value[count]))
            return refuse(r, COREPCG_ERR_FORMAT, "number '%s' is too large for a double",
                          tok);
        if (!isfinite(value[count]))
            return refuse(r, COREPCG_ERR_FORMAT, "number '%s' is not finite", tok);
        count++;
    }
    if (count < 3 || count == 5)
        return refuse(r, COREPCG_ERR_FORMAT, "a v line holds x y z (and w, or r g b), "
                      "got %d number%s", count, count == 1 ? "" : "s");
    if (r->num_vertices == INT_MAX / 3)
        return refuse(r, COREPCG_ERR_TOO_LARGE, "more vertices than an int counts");
    if (grow_with_lines((void **)&r->x, 3, sizeof *r->x, &r->vertex_line,
                        &r->vertex_capacity, r->num_vertices, 1))
        return refuse(r, COREPCG_ERR_NO_MEMORY, "out of memory");
    memcpy(&r->x[3 * r->num_vertices], value, 3 * sizeof *value);
    r->vertex_line[r->num_vertices++] = r->line;
    return COREPCG_OK;
}

/* `len` characters of text form a whole number, sign allowed. */
static int is_index(const char *text, size_t len)
{
    size_t sign = len > 0 && (text[0] == '-' || text[0] == '+');
    if (len == sign)
        return 0;
    for (size_t k = sign; k < len; k++)
        if (text[k] < '0' || text[k] > '9')
            return 0;
    return 1;
}

/* What follows a corner's vertex index: "", "/t", "/t/n" or "//n" (the
 * texture and normal indices are not used, but must be indices). */
static int is_corner_tail(const char *tail)
{
    if (!*tail)
        return 1;
    if (*tail != '/')
        return 0;
    const char *texture = tail + 1, *slash = strchr(texture, '/');
    if (!slash)
        return is_index(texture, strlen(texture));
    const char *normal = slash + 1;
    size_t texture_len = (size_t)(slash - texture);
    return (texture_len == 0 || is_index(texture, texture_len)) &&
           is_index(normal, strlen(normal));
}

/* One face corner: "v", "v/vt", "v/vt/vn" or "v//vn"; only v is kept. */
static int read_corner(reader *r, const char *tok, int *vertex)
{
    char *end;
    errno = 0;
    long v = strtol(tok, &end, 10);
    if (end == tok || !is_corner_tail(end))
        return refuse(r, COREPCG_ERR_FORMAT, "bad vertex reference '%s' (v, v/vt, "
                      "v/vt/vn or v//vn)", tok);
    if (v == 0)
        return refuse(r, COREPCG_ERR_FORMAT, "vertex index 0 in '%s' (OBJ counts from 1)", tok);
    long index = v > 0 ? v - 1 : r->num_vertices + v;
    if (errno == ERANGE || index < 0 || index >= r->num_vertices)
        return refuse(r, COREPCG_ERR_FORMAT, "vertex index %s out of range: %ld vertices "
                      "defined so far", tok, r->num_vertices);
    *vertex = (int)index;
    return COREPCG_OK;
}

static int read_face(reader *r, char **save)
{
    long count = 0;
    if (grow_last_face(r))
        return refuse(r, COREPCG_ERR_NO_MEMORY, "out of memory");
    for (char *tok; (tok = strtok_r(NULL, " \t", save));) {
        if (grow_face(r, count))
            return refuse(r, COREPCG_ERR_NO_MEMORY, "out of memory");
        int rc = read_corner(r, tok, &r->face[count]);
        if (rc != COREPCG_OK)
            return rc;
        /* each vertex marked with this face's line, which no other face
         * has: a repeat is found in one look, not by a search of the
         * corners before it */
        int v = r->face[count];
        if (r->last_face[v] == r->line)
            return refuse(r, COREPCG_ERR_FORMAT, "the face repeats vertex %d", v + 1);
        r->last_face[v] = r->line;
        count++;
    }
    if (count < 3)
        return refuse(r, COREPCG_ERR_FORMAT, "a face needs at least 3 vertices, got %ld",
                      count);
    long fan = count - 2;
    if (r->num_triangles + fan > INT_MAX / 3)
        return refuse(r, COREPCG_ERR_TOO_LARGE, "more triangles than an int counts");
    if (grow_with_lines((void **)&r->triangles, 3, sizeof *r->triangles, &r->triangle_line,
                        &r->triangle_capacity, r->num_triangles, fan))
        return refuse(r, COREPCG_ERR_NO_MEMORY, "out of memory");
    /* a polygon becomes a fan of triangles around its first vertex */
    for (long k = 1; k + 1 < count; k++) {
        r->triangle_line[r->num_triangles] = r->line;
        int *t = &r->triangles[3 * r->num_triangles++];
        t[0] = r->face[0];
        t[1] = r->face[k];
        t[2] = r->face[k + 1];
    }
    return COREPCG_OK;
}

/* Strips the comment and the line end; returns the statement's keyword
 * (NULL for an empty line) with *save set for strtok_r. */
static char *keyword(char *text, char **save)
{
    char *hash = strchr(text, '#');
    if (hash)
        *hash = '\0';
    text[strcspn(text, "\r\n")] = '\0';
    return strtok_r(text, " \t", save);
}

/* Past max_items, v and f lines are only counted (an f line of k corners
 * is k - 2 triangles): the file's size is told, memory stays bounded.
 * 1 when the line was counted so. */
static int count_past_limit(reader *r, const char *word, char **save)
{
    int vertex = strcmp(word, "v") == 0, face = strcmp(word, "f") == 0;
    if (!vertex && !face)
        return 0;
    if (!r->over) {
        long corners = 0;
        /* by hand: a sanitizer's strcspn measures the whole rest of the
         * line on every call, quadratic on a face of millions of corners */
        for (const char *c = *save; face && c && *c; c++)
            corners += *c != ' ' && *c != '\t' && (c == *save || c[-1] == ' ' || c[-1] == '\t');
        if (vertex ? r->num_vertices < r->max_items
                   : r->num_triangles + (corners > 2 ? corners - 2 : 0) <= r->max_items)
            return 0;
        r->over = 1;
        r->file_vertices = r->num_vertices;
        r->file_triangles = r->num_triangles;
    }
    if (vertex) {
        r->file_vertices++;
        return 1;
    }
    long corners = 0;
    for (char *tok; (tok = strtok_r(NULL, " \t", save));)
        corners++;
    r->file_triangles += corners > 2 ? corners - 2 : 0;
    return 1;
}

static int read_lines(reader *r, FILE *f)
{
    char *text = NULL;
    size_t size = 0;
    int rc = COREPCG_OK;
    for (ssize_t len; rc == COREPCG_OK && (len = getline(&text, &size, f)) >= 0;) {
        if (r->line == INT_MAX) {
            rc = refuse(r, COREPCG_ERR_TOO_LARGE, "too many lines");
            break;
        }
        r->line++;
        /* the string functions would stop at it and drop the rest */
        if (memchr(text, '\0', (size_t)len)) {
            rc = refuse(r, COREPCG_ERR_FORMAT, "NUL byte in the line");
            break;
        }
        /* a CR ends a line only before its LF (CRLF) or at the file's
         * end. A lone one is an old Mac line end, which getline does not
         * split at (a file of them reads as one line) -- or, the only one
         * in a line that ends with LF, a stray CR inside it */
        const char *cr = memchr(text, '\r', (size_t)len);
        if (cr && cr + 1 < text + len && cr[1] != '\n') {
            int mac = text[len - 1] != '\n' ||
                      memchr(cr + 1, '\r', (size_t)(text + len - 2 - (cr + 1)));
            rc = refuse(r, COREPCG_ERR_FORMAT, mac
                        ? "the line ends with a lone carriage return (CR: old Mac line "
                          "ends); convert the file's line ends to LF"
                        : "a carriage return (CR) inside the line; a line ends with LF "
                          "or CRLF");
            break;
        }
        /* a UTF-8 byte order mark, as Windows editors write, is no text */
        char *start = text;
        if (r->line == 1 && len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
            start += 3;
        char *save = NULL, *word = keyword(start, &save);
        if (!word)
            continue;
        if (count_past_limit(r, word, &save))
            continue;
        if (strcmp(word, "v") == 0) {
            rc = read_vertex(r, &save);
        } else if (strcmp(word, "f") == 0) {
            rc = read_face(r, &save);
        } else {
            cloth_obj_skipped_add(r->skipped, word);
        }
    }
    if (rc == COREPCG_OK && ferror(f))
        rc = refuse(r, COREPCG_ERR_IO, "read error: %s", strerror(errno));
    if (rc == COREPCG_OK && r->over) {
        r->line = 0; /* the file as a whole */
        rc = refuse(r, COREPCG_ERR_TOO_LARGE, "%ld vertices and %ld triangles: more than "
                    "the %ld of either read (a coarser mesh will do)",
                    r->file_vertices, r->file_triangles, r->max_items);
    }
    free(text);
    return rc;
}

int cloth_mesh_read_obj(const char *path, cloth_mesh *mesh, char *msg)
{
    return cloth_mesh_read_obj_skipping(path, mesh, NULL, msg);
}

int cloth_mesh_read_obj_skipping(const char *path, cloth_mesh *mesh,
                                 cloth_obj_skipped *skipped, char *msg)
{
    return cloth_mesh_read_obj_bounded(path, INT_MAX / 3, mesh, skipped, msg);
}

int cloth_mesh_read_obj_bounded(const char *path, long max_items, cloth_mesh *mesh,
                                cloth_obj_skipped *skipped, char *msg)
{
    memset(mesh, 0, sizeof *mesh);
    cloth_obj_skipped ignored;
    if (!skipped)
        skipped = &ignored;
    memset(skipped, 0, sizeof *skipped);
    if (!path) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "mesh: no file name");
        return COREPCG_ERR_ARGUMENT;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "%s: %s", path, strerror(errno));
        return COREPCG_ERR_IO;
    }
    reader r = {.path = path, .msg = msg, .skipped = skipped, .max_items = max_items};
    int rc = read_lines(&r, f);
    fclose(f);
    free(r.face);
    free(r.last_face);
    mesh->x = r.x;
    mesh->vertex_line = r.vertex_line;
    mesh->num_vertices = (int)r.num_vertices;
    mesh->triangles = r.triangles;
    mesh->triangle_line = r.triangle_line;
    mesh->num_triangles = (int)r.num_triangles;
    if (rc == COREPCG_OK) {
        mesh->source = strdup(path);
        rc = mesh->source ? cloth_mesh_check(mesh, msg) : COREPCG_ERR_NO_MEMORY;
        if (rc == COREPCG_ERR_NO_MEMORY && msg && !mesh->source)
            snprintf(msg, COREPCG_MSG_SIZE, "%s: out of memory", path);
    }
    if (rc != COREPCG_OK)
        cloth_mesh_free(mesh);
    return rc;
}

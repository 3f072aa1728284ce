/* SPDX-License-Identifier: GPL-2.0-or-later */
/* obj_skipped.c -- the tally of the OBJ statements the reader skips that
 * lose information (by keyword, in the order they first appear) and the
 * note that says it. */
#include "cloth_mesh.h"

#include <stdio.h>
#include <string.h>

/* A keyword is named in the note only when it prints as itself: a
 * garbled file's bytes are counted among the other lines. */
static int printable(const char *keyword)
{
    size_t len = strlen(keyword);
    if (len == 0 || len >= CLOTH_OBJ_KEYWORD_SIZE)
        return 0;
    for (const char *c = keyword; *c; c++)
        if (*c < '!' || *c > '~' || *c == '\'')
            return 0;
    return 1;
}

void cloth_obj_skipped_add(cloth_obj_skipped *s, const char *keyword)
{
    /* an object's name loses nothing (the mesh is one cloth whatever its
     * objects are called): a note of it on every use of the shipped
     * meshes would only teach users to ignore the notes */
    if (strcmp(keyword, "o") == 0)
        return;
    if (!printable(keyword)) {
        s->other_lines++;
        return;
    }
    for (int k = 0; k < s->kinds; k++)
        if (strcmp(s->keyword[k], keyword) == 0) {
            s->lines[k]++;
            return;
        }
    if (s->kinds == CLOTH_OBJ_SKIP_KINDS) {
        s->other_lines++;
        return;
    }
    strcpy(s->keyword[s->kinds], keyword);
    s->lines[s->kinds++] = 1;
}

long cloth_obj_skipped_lines(const cloth_obj_skipped *s)
{
    long total = s->other_lines;
    for (int k = 0; k < s->kinds; k++)
        total += s->lines[k];
    return total;
}

void cloth_obj_skipped_describe(const cloth_obj_skipped *s, char *buf, size_t len)
{
    if (len == 0)
        return;
    buf[0] = '\0';
    long total = cloth_obj_skipped_lines(s);
    if (total == 0)
        return;
    size_t used = (size_t)snprintf(buf, len, "skipped");
    for (int k = 0; k < s->kinds && used < len; k++)
        used += (size_t)snprintf(buf + used, len - used, "%s %ld '%s'", k ? "," : "",
                                 s->lines[k], s->keyword[k]);
    if (s->other_lines && used < len)
        used += (size_t)snprintf(buf + used, len - used, "%s %ld other",
                                 s->kinds ? "," : "", s->other_lines);
    if (used < len)
        snprintf(buf + used, len - used, " line%s", total == 1 ? "" : "s");
}

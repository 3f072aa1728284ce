/* SPDX-License-Identifier: GPL-2.0-or-later */
/* text_fields.c -- the pieces of line parsing the text formats share
 * (Matrix Market files, constraints.txt): the bytes a line may hold,
 * fields separated by spaces or tabs, and whole numbers. */
#include "bundle_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t cpg_stray_byte(const char *text, size_t len)
{
    /* a CR ending the text is its line end (CRLF) */
    size_t body = len - (len > 0 && text[len - 1] == '\r');
    for (size_t k = 0; k < body; k++)
        if ((unsigned char)text[k] < 0x20 && text[k] != '\t')
            return k;
    return len;
}

int cpg_fail_stray(char *msg, const char *path, long line, const char *text,
                   size_t at)
{
    unsigned char c = (unsigned char)text[at];
    char other[32];
    const char *what = other, *rule = "only spaces and tabs separate fields";
    if (c == '\0') { /* the C string functions would stop at it */
        what = "a NUL byte";
        rule = "a text file holds none";
    } else if (c == '\r') {
        what = "a carriage return (CR) that does not end it";
        rule = "a line ends with LF or CRLF";
    } else if (c == '\v') {
        what = "a vertical tab";
    } else if (c == '\f') {
        what = "a form feed";
    } else {
        snprintf(other, sizeof other, "control character 0x%02x", c);
    }
    return cpg_fail(msg, COREPCG_ERR_FORMAT,
                    "%s:%ld: the line holds %s (column %zu); %s", path, line,
                    what, at + 1, rule);
}

int cpg_hexadecimal(const char *text)
{
    const char *p = text + (*text == '+' || *text == '-');
    return p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
}

int cpg_split_fields(char *line, char **fields, int max)
{
    int count = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line, " \t", &save); tok;
         tok = strtok_r(NULL, " \t", &save)) {
        if (count < max)
            fields[count] = tok;
        count++;
    }
    return count;
}

int cpg_parse_whole(const char *text, long long *out)
{
    char *end = NULL;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end != '\0')
        return 0;
    *out = v; /* strtoll clamps to LLONG_MIN / LLONG_MAX on overflow */
    return 1;
}

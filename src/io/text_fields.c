/* SPDX-License-Identifier: GPL-2.0-or-later */
/* text_fields.c -- the two pieces of line parsing the text formats share
 * (Matrix Market files, constraints.txt): blank-separated fields and whole
 * numbers. */
#include "bundle_io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int cpg_split_fields(char *line, char **fields, int max)
{
    int count = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line, " \t\r\n\v\f", &save); tok;
         tok = strtok_r(NULL, " \t\r\n\v\f", &save)) {
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

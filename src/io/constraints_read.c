/* SPDX-License-Identifier: GPL-2.0-or-later */
/* constraints_read.c -- reads constraints.txt (docs/format.md): one
 * constrained node per line, `node ndof [p_x p_y p_z [q_x q_y q_z]]`, `#`
 * comments, blank lines ignored. The per-record rules live in
 * cpg_constraint_check (system/ublocks.c); this file adds what only a file
 * has: lines, fields, numbers and a node listed twice. p and q are kept
 * as written (the U blocks normalise them), so that writing and re-reading
 * a bundle is exact. */
#include "bundle_io.h"
#include "system.h" /* cpg_constraint_check */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_FIELDS 9 /* node ndof p(3) q(3), plus one to detect extras */

static const char *const field_names[8] = {"node", "ndof", "p_x", "p_y",
                                           "p_z",  "q_x",  "q_y", "q_z"};

/* The fields of the len bytes of line (as getline read them, modified in
 * place) before its comment; returns how many there are, counting all of
 * them even past MAX_FIELDS, or an error code when the text before the
 * comment holds a byte it may not (cpg_stray_byte: a NUL would cut it
 * short silently). */
static int split_fields(const char *path, long lineno, char *line,
                        size_t len, char **fields, char *msg)
{
    if (len > 0 && line[len - 1] == '\n')
        len--;
    char *hash = memchr(line, '#', len);
    size_t text = hash ? (size_t)(hash - line) : len;
    /* the '#' included: a CR right before it does not end the line */
    size_t at = cpg_stray_byte(line, hash ? text + 1 : text);
    if (at < text)
        return cpg_fail_stray(msg, path, lineno, line, at);
    if (!hash && text > 0 && line[text - 1] == '\r')
        text--; /* CRLF */
    line[text] = '\0';
    return cpg_split_fields(line, fields, MAX_FIELDS);
}

/* Fields needed for each valid ndof (node, ndof, then directions). */
static int fields_for_ndof(int ndof)
{
    return ndof == 0 ? 2 : ndof == 2 ? 5 : 8;
}

/* Parses one non-empty line into *c. Returns OK or a code with msg set. */
static int parse_record(const char *path, long line, char **fields,
                        int nfields, int N, corepcg_constraint *c,
                        char *msg)
{
    long long node, ndof;
    memset(c, 0, sizeof *c);
    if (nfields < 2)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: missing field: a record needs at least "
                        "`node ndof`", path, line);
    if (!cpg_parse_whole(fields[0], &node))
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: node is not a whole number ('%s')", path,
                        line, fields[0]);
    if (!cpg_parse_whole(fields[1], &ndof))
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: ndof is not a whole number ('%s')", path,
                        line, fields[1]);
    if (node < 0 || node >= N)
        return cpg_fail(msg, COREPCG_ERR_CONSTRAINT,
                        "%s:%ld: node %s is out of range (the system has "
                        "%d nodes, numbered from 0)", path, line, fields[0],
                        N);
    c->node = (int)node;
    /* The file lists constrained nodes only: a free node is not listed
     * (the API's ndof-3 record has no line; the writer leaves it out). */
    if (ndof < 0 || ndof > 2)
        return cpg_fail(msg, COREPCG_ERR_CONSTRAINT,
                        "%s:%ld: ndof %s is not 0, 1 or 2%s", path, line,
                        fields[1],
                        ndof == 3 ? " (a free node is not listed)" : "");
    c->ndof = (int)ndof;
    char why[COREPCG_MSG_SIZE];

    int want = fields_for_ndof(c->ndof);
    static const char *const layout[3] = {
        "node ndof", "node ndof p_x p_y p_z q_x q_y q_z",
        "node ndof p_x p_y p_z"};
    if (nfields < want)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: missing field: ndof %d needs %d fields (%s), "
                        "found %d", path, line, c->ndof, want,
                        layout[c->ndof], nfields);
    if (nfields > want)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s:%ld: extra field '%s': ndof %d takes %d fields "
                        "(%s), found %d", path, line, fields[want], c->ndof,
                        want, layout[c->ndof], nfields);

    for (int k = 2; k < want; k++) {
        char *end = NULL;
        double v = strtod(fields[k], &end);
        if (end == fields[k] || *end != '\0')
            return cpg_fail(msg, COREPCG_ERR_FORMAT,
                            "%s:%ld: %s is not a number ('%s')", path, line,
                            field_names[k], fields[k]);
        if (cpg_hexadecimal(fields[k]))
            return cpg_fail(msg, COREPCG_ERR_FORMAT,
                            "%s:%ld: %s %s is a hexadecimal float; write it "
                            "in decimal", path, line, field_names[k],
                            fields[k]);
        if (!isfinite(v))
            return cpg_fail(msg, COREPCG_ERR_NOT_FINITE,
                            "%s:%ld: %s is not finite ('%s')", path, line,
                            field_names[k], fields[k]);
        if (k < 5)
            c->p[k - 2] = v;
        else
            c->q[k - 5] = v;
    }

    why[0] = '\0';
    int code = cpg_constraint_check(c, N, why);
    if (code != COREPCG_OK)
        return cpg_fail(msg, code, "%s:%ld: %s", path, line,
                        why[0] ? why : "invalid constraint");
    return COREPCG_OK;
}

int cpg_constraints_read(const char *path, int N, corepcg_constraint **out,
                         int *count, char *msg)
{
    if (!path || !out || !count || N < 1)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "cpg_constraints_read: invalid argument");
    *out = NULL;
    *count = 0;

    FILE *f = fopen(path, "r");
    if (!f)
        return cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot open: %s", path,
                        strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) { /* as the writer says it */
        fclose(f);
        return cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot read: it is a directory", path);
    }

    /* first_line[node] = line where node was listed (0: not yet). */
    long *first_line = calloc((size_t)N, sizeof *first_line);
    corepcg_constraint *recs = NULL;
    int nrecs = 0, cap = 0;
    char *line = NULL;
    size_t line_cap = 0;
    long lineno = 0;
    int code = COREPCG_OK;
    if (!first_line) {
        code = cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "%s: out of memory", path);
        goto done;
    }

    ssize_t got;
    while ((got = getline(&line, &line_cap, f)) != -1) {
        lineno++;
        char *fields[MAX_FIELDS];
        int nfields = split_fields(path, lineno, line, (size_t)got, fields,
                                   msg);
        if (nfields < 0) {
            code = nfields;
            goto done;
        }
        if (nfields == 0)
            continue;
        corepcg_constraint c;
        code = parse_record(path, lineno, fields, nfields, N, &c, msg);
        if (code != COREPCG_OK)
            goto done;
        if (first_line[c.node]) {
            code = cpg_fail(msg, COREPCG_ERR_CONSTRAINT,
                            "%s:%ld: node %d is listed twice (first on line "
                            "%ld)", path, lineno, c.node,
                            first_line[c.node]);
            goto done;
        }
        first_line[c.node] = lineno;
        if (nrecs == cap) {
            /* At most N records: a node appears once. */
            int grown = cap ? (cap > N / 2 ? N : 2 * cap) : (N < 16 ? N : 16);
            corepcg_constraint *more = realloc(recs, (size_t)grown * sizeof *recs);
            if (!more) {
                code = cpg_fail(msg, COREPCG_ERR_NO_MEMORY,
                                "%s: out of memory", path);
                goto done;
            }
            recs = more;
            cap = grown;
        }
        recs[nrecs++] = c;
    }
    if (ferror(f))
        code = cpg_fail(msg, COREPCG_ERR_IO, "%s:%ld: read error", path,
                        lineno + 1);

done:
    free(line);
    free(first_line);
    fclose(f);
    if (code != COREPCG_OK) {
        free(recs);
        return code;
    }
    *out = recs;
    *count = nrecs;
    return COREPCG_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mm_scan.c -- reading the Matrix Market files of a bundle: one read of
 * the whole file (mapped where it can be), its banner and size line
 * checked (mm_header.c), then its entries parsed on all cores
 * (mm_chunks.c) by the rules of mm_entries.c. Nothing is allocated for
 * the content before the size line has been checked. */
#define _GNU_SOURCE /* sched_getaffinity: the cores this process may use */
#include "mm_lines.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MM_CHUNK_BYTES (256 * 1024)  /* a thread is worth this much text */

/* Cores this process may run on. */
static int cores(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* A file's text in memory: [p, p + len), mapped or read into the heap. */
typedef struct mm_text {
    const char *p;
    size_t len;
    void *map;    /* the mapping, or NULL */
    char *heap;   /* the copy, or NULL */
} mm_text;

static void text_free(mm_text *t)
{
    if (t->map)
        munmap(t->map, t->len);
    free(t->heap);
    memset(t, 0, sizeof *t);
}

/* The whole file: a regular file is mapped (no copy of its pages); any
 * other, or one that cannot be mapped, is read into the heap. (A mapped
 * file truncated by another program while it is read faults; corepcg's
 * writer never truncates, it renames a complete file into place.) */
static int read_whole(const cpg_mm_scan *s, mm_text *t, char *msg)
{
    memset(t, 0, sizeof *t);
    int fd = open(s->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot open: %s", s->path,
                        strerror(errno));
    struct stat st;
    int stated = fstat(fd, &st) == 0;
    if (stated && S_ISDIR(st.st_mode)) { /* as the writer says it */
        close(fd);
        return cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot read: it is a directory",
                        s->path);
    }
    int regular = stated && S_ISREG(st.st_mode);
    if (regular && st.st_size > 0 && (uintmax_t)st.st_size < SIZE_MAX) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ,
                       MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (m != MAP_FAILED) {
            close(fd);
            t->map = m;
            t->p = m;
            t->len = (size_t)st.st_size;
            return COREPCG_OK;
        }
    }
    size_t cap = regular && st.st_size > 0 ? (size_t)st.st_size + 1 : 65536;
    char *b = malloc(cap);
    size_t got = 0;
    int rc = b ? COREPCG_OK : cpg_fail(msg, COREPCG_ERR_NO_MEMORY,
                                       "%s: out of memory", s->path);
    while (rc == COREPCG_OK) {
        if (got == cap) { /* a file that grew, or not a regular one */
            char *more = realloc(b, 2 * cap);
            if (!more) {
                rc = cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "%s: out of memory",
                              s->path);
                break;
            }
            b = more;
            cap *= 2;
        }
        ssize_t n = read(fd, b + got, cap - got);
        if (n == 0)
            break;
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) /* the disk: as getline's failure */
            rc = cpg_fail(msg, COREPCG_ERR_IO,
                          "%s:1: read error; expected the %%%%MatrixMarket "
                          "banner", s->path);
        else
            got += (size_t)n;
    }
    close(fd);
    if (rc != COREPCG_OK) {
        free(b);
        return rc;
    }
    t->heap = b;
    t->p = b;
    t->len = got;
    return COREPCG_OK;
}

int cpg_mm_read_file(cpg_mm_scan *s, char *msg)
{
    s->row = s->col = NULL;
    s->val = NULL;
    mm_text t;
    int rc = read_whole(s, &t, msg);
    if (rc != COREPCG_OK)
        return rc;
    mm_cursor c = {t.p, t.p + t.len, 0};
    rc = cpg_mm_scan_header(&c, s, msg);
    if (rc == COREPCG_OK) {
        const char *body = c.p;
        size_t bytes = (size_t)(t.p + t.len - body);
        int want = s->chunks > 0 ? s->chunks : cores();
        if (s->chunks <= 0 && (size_t)want > bytes / MM_CHUNK_BYTES)
            want = (int)(bytes / MM_CHUNK_BYTES);
        if (want > CPG_MM_MAX_CHUNKS)
            want = CPG_MM_MAX_CHUNKS;
        rc = want > 1 ? cpg_mm_parse_parallel(s, body, bytes, want)
                      : COREPCG_ERR_FORMAT;
        if (rc == COREPCG_ERR_NO_MEMORY)
            rc = cpg_fail(msg, rc, "%s: out of memory", s->path);
        else if (rc != COREPCG_OK) /* or a defect: find it in order */
            rc = cpg_mm_parse_sequential(s, body, bytes, msg);
    }
    text_free(&t);
    return rc;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mm_chunks.c -- a Matrix Market body parsed on several threads. The
 * entries are split at line boundaries into up to CPG_MM_MAX_CHUNKS
 * pieces, one thread each (pthreads, started and joined inside the call),
 * each writing its part of the arrays. A piece does not know the number
 * of its first line; so when any piece meets a line it cannot accept, or
 * the count differs from the size line's, the whole body is read again in
 * one piece in file order (cpg_mm_parse_sequential), which stops at the
 * first defect with its file:line. No more is allocated than the file
 * can hold. */
#include "mm_lines.h"

#include <locale.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

/* Fewest bytes an entry line takes ("1 1 1\n", "1 1\n", "1\n"): room is
 * bounded by the text, whatever the size line says. */
static long long most_entries(const cpg_mm_scan *s, size_t bytes)
{
    int least = s->kind == CPG_MM_VECTOR ? 2 : s->pattern ? 4 : 6;
    long long most = (long long)(bytes / (size_t)least) + 1;
    return most < s->entries ? most : s->entries;
}

/* The entries' arrays are allocated here, so freed here too (mm_scan.c
 * and bundle_read.c call it). */
void cpg_mm_free(cpg_mm_scan *s)
{
    free(s->row);
    free(s->col);
    free(s->val);
    s->row = s->col = NULL;
    s->val = NULL;
}

/* Room for count entries in s's arrays (those the kind has). */
static int entries_alloc(cpg_mm_scan *s, long long count)
{
    size_t k = (size_t)count;
    if (s->kind == CPG_MM_VECTOR || !s->pattern)
        s->val = cpg_malloc_huge(k, sizeof(double));
    if (s->kind != CPG_MM_VECTOR) {
        s->row = cpg_malloc_huge(k, sizeof(int));
        s->col = cpg_malloc_huge(k, sizeof(int));
    }
    int ok = (s->kind == CPG_MM_VECTOR || (s->row && s->col)) &&
             (s->val || (s->kind != CPG_MM_VECTOR && s->pattern));
    if (!ok)
        cpg_mm_free(s);
    return ok ? COREPCG_OK : COREPCG_ERR_NO_MEMORY;
}

/* Chunk c writes at entry `at` of s's arrays. */
static void chunk_place(mm_chunk *c, const cpg_mm_scan *s, long long at)
{
    c->row = s->row ? s->row + at : NULL;
    c->col = s->col ? s->col + at : NULL;
    c->val = s->val ? s->val + at : NULL;
}

/* Lines in the chunk: its newlines, and a last line without one. */
static void *count_lines(void *arg)
{
    mm_chunk *c = arg;
    const char *p = c->begin, *end = c->end;
    long long n = 0;
    /* Eight bytes a word: a byte of x is 0 where the text has '\n', and
     * each byte of acc counts those of its lane, for up to 255 words. */
    while (end - p >= 8) {
        uint64_t acc = 0;
        for (int w = 0; w < 255 && end - p >= 8; w++, p += 8) {
            uint64_t x;
            memcpy(&x, p, sizeof x);
            x ^= 0x0A0A0A0A0A0A0A0Au;
            uint64_t t = ((x & 0x7F7F7F7F7F7F7F7Fu) + 0x7F7F7F7F7F7F7F7Fu) | x;
            acc += (~t & 0x8080808080808080u) >> 7;
        }
        acc = (acc & 0x00FF00FF00FF00FFu) + ((acc >> 8) & 0x00FF00FF00FF00FFu);
        n += (long long)((acc * 0x0001000100010001u) >> 48);
    }
    for (; p < end; p++)
        n += *p == '\n';
    c->lines = n + (c->end > c->begin && c->end[-1] != '\n');
    return NULL;
}

size_t cpg_mm_chunk_starts(const char *body, size_t len, int count,
                           size_t *starts)
{
    size_t made = 0, at = 0;
    for (int k = 0; k < count; k++) {
        size_t want = (size_t)((unsigned long long)len * (unsigned)k /
                               (unsigned)count);
        if (want < at)
            want = at;
        /* the first line that starts at or after want */
        while (want > 0 && want < len && body[want - 1] != '\n')
            want++;
        if (k > 0 && want >= len)
            break;
        if (made > 0 && want == starts[made - 1])
            continue;
        starts[made++] = want;
        at = want;
    }
    return made;
}

/* The threads of one file: each counts the lines of its chunk, waits
 * until every chunk is counted and the arrays are placed, then parses. */
typedef struct mm_team {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int counted;  /* chunks counted */
    int go;       /* 0: wait; 1: parse; -1: stop */
    locale_t locale; /* the starting thread's: a new thread has the
                        process's (c_locale.h) */
} mm_team;

static void team_counted(mm_team *t, int chunks)
{
    pthread_mutex_lock(&t->lock);
    t->counted += chunks;
    pthread_cond_broadcast(&t->cond);
    pthread_mutex_unlock(&t->lock);
}

static void *chunk_thread(void *arg)
{
    mm_chunk *c = arg;
    mm_team *t = c->team;
    uselocale(t->locale);
    count_lines(c);
    team_counted(t, 1);
    pthread_mutex_lock(&t->lock);
    while (t->go == 0)
        pthread_cond_wait(&t->cond, &t->lock);
    int go = t->go;
    pthread_mutex_unlock(&t->lock);
    if (go > 0)
        cpg_mm_parse_chunk(c);
    return NULL;
}

/* Room for each chunk's entries, in order, in s's arrays: at most its
 * lines, and what its bytes can hold. */
static int place_chunks(cpg_mm_scan *s, mm_chunk *c, int count)
{
    long long room = 0;
    for (int k = 0; k < count; k++) {
        c[k].cap = most_entries(s, (size_t)(c[k].end - c[k].begin));
        if (c[k].cap > c[k].lines)
            c[k].cap = c[k].lines;
        c[k].at = room;
        room += c[k].cap;
    }
    int rc = entries_alloc(s, room);
    for (int k = 0; rc == COREPCG_OK && k < count; k++)
        chunk_place(&c[k], s, c[k].at);
    return rc;
}

/* The pieces one after the other in s's arrays, the gaps that comment
 * or blank lines left closed: OK when every chunk read all its lines and
 * they make the count. */
static int join_chunks(cpg_mm_scan *s, const mm_chunk *c, int count)
{
    long long total = 0;
    for (int k = 0; k < count; k++) {
        if (c[k].rc != COREPCG_OK)
            return c[k].rc;
        size_t n = (size_t)c[k].count;
        if (c[k].at != total && n > 0) {
            if (s->row) {
                memmove(s->row + total, c[k].row, sizeof(int) * n);
                memmove(s->col + total, c[k].col, sizeof(int) * n);
            }
            if (s->val)
                memmove(s->val + total, c[k].val, sizeof(double) * n);
        }
        total += c[k].count;
    }
    return total == s->entries ? COREPCG_OK : COREPCG_ERR_FORMAT;
}

/* The body in pieces on threads, each writing where its entries go: the
 * lines before it are counted first. Every line of a file as corepcg or
 * CHOLMOD writes it is an entry, so the places are exact; comment or
 * blank lines leave gaps, closed afterwards. OK only when every line was
 * accepted and the count is right. A thread that cannot start leaves its
 * chunk to this one. */
int cpg_mm_parse_parallel(cpg_mm_scan *s, const char *body, size_t len,
                          int want)
{
    size_t starts[CPG_MM_MAX_CHUNKS];
    int count = (int)cpg_mm_chunk_starts(body, len, want, starts);
    mm_chunk *c = calloc((size_t)count, sizeof *c);
    mm_team team = {.counted = 0, .go = 0, .locale = uselocale((locale_t)0)};
    if (!c)
        return COREPCG_ERR_NO_MEMORY;
    if (pthread_mutex_init(&team.lock, NULL) != 0) {
        free(c);
        return COREPCG_ERR_FORMAT; /* then one piece, no threads */
    }
    if (pthread_cond_init(&team.cond, NULL) != 0) {
        pthread_mutex_destroy(&team.lock);
        free(c);
        return COREPCG_ERR_FORMAT;
    }
    for (int k = 0; k < count; k++) {
        c[k].s = s;
        c[k].team = &team;
        c[k].begin = body + starts[k];
        c[k].end = body + (k + 1 < count ? starts[k + 1] : len);
        c[k].limit = s->entries;
    }
    /* small stacks: a chunk needs a line and a message */
    pthread_attr_t attr;
    int attr_ok = pthread_attr_init(&attr) == 0 &&
                  pthread_attr_setstacksize(&attr, 256 * 1024) == 0;
    pthread_t tid[CPG_MM_MAX_CHUNKS];
    int started[CPG_MM_MAX_CHUNKS] = {0}, here = 1;
    for (int k = 1; k < count; k++) {
        started[k] = pthread_create(&tid[k], attr_ok ? &attr : NULL,
                                    chunk_thread, &c[k]) == 0;
        here += !started[k];
    }
    for (int k = 0; k < count; k++)
        if (!started[k])
            count_lines(&c[k]);
    team_counted(&team, here);
    pthread_mutex_lock(&team.lock);
    while (team.counted < count)
        pthread_cond_wait(&team.cond, &team.lock);
    pthread_mutex_unlock(&team.lock);

    int rc = place_chunks(s, c, count);
    pthread_mutex_lock(&team.lock);
    team.go = rc == COREPCG_OK ? 1 : -1;
    pthread_cond_broadcast(&team.cond);
    pthread_mutex_unlock(&team.lock);
    for (int k = 0; rc == COREPCG_OK && k < count; k++)
        if (!started[k])
            cpg_mm_parse_chunk(&c[k]);
    for (int k = 1; k < count; k++)
        if (started[k])
            pthread_join(tid[k], NULL);
    if (attr_ok)
        pthread_attr_destroy(&attr);
    pthread_cond_destroy(&team.cond);
    pthread_mutex_destroy(&team.lock);

    if (rc == COREPCG_OK)
        rc = join_chunks(s, c, count);
    if (rc != COREPCG_OK)
        cpg_mm_free(s);
    free(c);
    return rc;
}

/* The body in one piece, in file order: the reference, with file:line
 * for the first defect. */
int cpg_mm_parse_sequential(cpg_mm_scan *s, const char *body, size_t len,
                            char *msg)
{
    mm_chunk c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.begin = body;
    c.end = body + len;
    c.lineno = s->size_line; /* the body starts after it */
    c.limit = s->entries;
    c.cap = most_entries(s, len);
    if (entries_alloc(s, c.cap) != COREPCG_OK)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "%s: out of memory",
                        s->path);
    chunk_place(&c, s, 0);
    cpg_mm_parse_chunk(&c);
    int rc = c.rc;
    if (rc != COREPCG_OK)
        rc = cpg_fail(msg, rc, "%s", c.msg);
    else if (c.count < s->entries)
        rc = cpg_fail(msg, COREPCG_ERR_FORMAT,
                      "%s:%ld: file ends after %lld of the %lld entries "
                      "the size line (line %ld) announces", s->path,
                      c.lineno + 1, c.count, s->entries, s->size_line);
    if (rc != COREPCG_OK)
        cpg_mm_free(s);
    return rc;
}

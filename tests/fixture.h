/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fixture.h -- files for the I/O tests: a private temporary directory,
 * text written and read back, a copy of data/tiny to spoil one file at a
 * time. Bad-input fixtures are made here at run time, never committed. */
#ifndef COREPCG_FIXTURE_H
#define COREPCG_FIXTURE_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef COREPCG_DATA_DIR
#define COREPCG_DATA_DIR "data"
#endif

#define FIXTURE_PATH 1024

/* The data directory: $COREPCG_DATA_DIR, else the compiled-in one. */
static inline const char *fixture_data_dir(void)
{
    const char *env = getenv("COREPCG_DATA_DIR");
    return env && env[0] ? env : COREPCG_DATA_DIR;
}

/* A fresh directory under $TMPDIR (or /tmp); exits on failure, since no
 * test can run without it. */
static inline void fixture_temp_dir(char *out, const char *tag)
{
    const char *tmp = getenv("TMPDIR");
    int len = snprintf(out, FIXTURE_PATH, "%s/corepcg-%s-XXXXXX",
                       tmp && tmp[0] ? tmp : "/tmp", tag);
    if (len < 0 || len >= FIXTURE_PATH || !mkdtemp(out)) {
        perror("mkdtemp");
        exit(1);
    }
}

static inline void fixture_join(char *out, const char *dir, const char *name)
{
    int len = snprintf(out, FIXTURE_PATH, "%s/%s", dir, name);
    if (len < 0 || len >= FIXTURE_PATH) {
        fprintf(stderr, "path too long: %s/%s\n", dir, name);
        exit(1);
    }
}

static inline int fixture_write(const char *dir, const char *name,
                                const char *text)
{
    char path[FIXTURE_PATH];
    fixture_join(path, dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* The whole file as a malloc'd string (NULL if it cannot be read). */
static inline char *fixture_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            char *more = realloc(buf, cap *= 2);
            if (!more) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = more;
        }
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

static inline int fixture_exists(const char *dir, const char *name)
{
    char path[FIXTURE_PATH];
    struct stat st;
    fixture_join(path, dir, name);
    return stat(path, &st) == 0;
}

/* Number of entries in dir other than . and .. */
static inline int fixture_count_files(const char *dir)
{
    DIR *d = opendir(dir);
    int count = 0;
    if (!d)
        return -1;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            count++;
    closedir(d);
    return count;
}

static const char *const fixture_tiny_files[] = {
    "A.mtx", "b.mtx", "z.mtx", "constraints.txt", "stretch.mtx", "x0.mtx",
    "x.mtx"};

/* Copies data/tiny into dir/name (created); returns 0 on success. */
static inline int fixture_copy_tiny(const char *dir, const char *name,
                                    char *out)
{
    char src[FIXTURE_PATH], tiny[FIXTURE_PATH];
    fixture_join(out, dir, name);
    if (mkdir(out, 0777) != 0)
        return -1;
    fixture_join(tiny, fixture_data_dir(), "tiny");
    for (size_t k = 0; k < sizeof fixture_tiny_files / sizeof *fixture_tiny_files; k++) {
        fixture_join(src, tiny, fixture_tiny_files[k]);
        char *text = fixture_read(src);
        if (!text || fixture_write(out, fixture_tiny_files[k], text) != 0) {
            free(text);
            return -1;
        }
        free(text);
    }
    return 0;
}

/* Removes dir and everything in it (one level of subdirectories deep is
 * all the tests make). */
static inline void fixture_remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char path[FIXTURE_PATH];
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        fixture_join(path, dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
            fixture_remove_tree(path);
        else
            unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

/* text with line `lineno` (1-based) replaced by `with` (a line without
 * its newline; NULL deletes the line). Lines past `keep` (if > 0) are
 * dropped: a truncated file. malloc'd. */
static inline char *fixture_edit_lines(const char *text, int lineno,
                                       const char *with, int keep)
{
    size_t cap = strlen(text) + (with ? strlen(with) : 0) + 2;
    char *out = malloc(cap), *o = out;
    int line = 1;
    for (const char *p = text; *p; line++) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
        if (keep > 0 && line > keep)
            break;
        if (line == lineno) {
            if (with)
                o += sprintf(o, "%s\n", with);
        } else {
            memcpy(o, p, len);
            o += len;
        }
        p += len;
    }
    *o = '\0';
    return out;
}

#endif

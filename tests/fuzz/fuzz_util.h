/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_util.h -- what the fuzz targets share: a private scratch directory
 * made once per process, files written from the fuzz input, and a loud
 * stop when an invariant breaks (libFuzzer reports an abort as a crash and
 * keeps the input). */
#ifndef COREPCG_FUZZ_UTIL_H
#define COREPCG_FUZZ_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FUZZ_PATH 512

/* Abort with a reason: the fuzzer keeps the input as a crash. */
#define FUZZ_REQUIRE(cond, ...)                                              \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "%s:%d: invariant failed: %s: ", __FILE__,       \
                    __LINE__, #cond);                                        \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
            abort();                                                         \
        }                                                                    \
    } while (0)

/* A directory of its own under /dev/shm (fast) or $TMPDIR or /tmp, made
 * on first use and reused by every input of this process. */
static inline const char *fuzz_scratch_dir(const char *tag)
{
    static char dir[FUZZ_PATH];
    if (dir[0])
        return dir;
    const char *tmp = getenv("TMPDIR");
    struct stat st;
    const char *base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) &&
                               access("/dev/shm", W_OK) == 0
                           ? "/dev/shm"
                           : tmp && tmp[0] ? tmp : "/tmp";
    int len = snprintf(dir, sizeof dir, "%s/corepcg-fuzz-%s-XXXXXX", base, tag);
    if (len < 0 || len >= (int)sizeof dir || !mkdtemp(dir)) {
        perror("mkdtemp");
        abort();
    }
    return dir;
}

static inline void fuzz_join(char *out, const char *dir, const char *name)
{
    int len = snprintf(out, FUZZ_PATH, "%s/%s", dir, name);
    if (len < 0 || len >= FUZZ_PATH)
        abort();
}

/* Writes len bytes to path (replacing it); aborts on failure, which is the
 * harness's fault, not the library's. */
static inline void fuzz_write_file(const char *path, const void *data,
                                   size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

static inline void fuzz_remove(const char *path)
{
    (void)unlink(path);
}

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* frame_files.c -- simulate's frame files by name (frame_files.h). */
#include "frame_files.h"

#include "atomic_file.h"
#include "corepcg.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FRAME_PREFIX "frame_"
#define FRAME_SUFFIX ".obj"
#define FRAME_DIGITS 5

int frame_path(char *path, size_t size, const char *dir, int step, char *msg)
{
    if (snprintf(path, size, "%s/" FRAME_PREFIX "%0*d" FRAME_SUFFIX, dir, FRAME_DIGITS,
                 step) < (int)size)
        return COREPCG_OK;
    snprintf(msg, COREPCG_MSG_SIZE, "%.400s...: path too long", dir);
    return COREPCG_ERR_IO;
}

int frame_is_name(const char *name)
{
    size_t len = strlen(name), pre = strlen(FRAME_PREFIX), suf = strlen(FRAME_SUFFIX);
    if (len < pre + FRAME_DIGITS + suf || strncmp(name, FRAME_PREFIX, pre) != 0 ||
        strcmp(name + len - suf, FRAME_SUFFIX) != 0)
        return 0;
    for (size_t k = pre; k < len - suf; k++)
        if (name[k] < '0' || name[k] > '9')
            return 0;
    return 1;
}

enum pass { CHECK, REMOVE, MOVE };

/* 1 when name is the frame a run of `steps` steps wrote (frame_path's
 * name of a step 1 .. steps). */
static int written_by_run(const char *name, int steps)
{
    int step = atoi(name + strlen(FRAME_PREFIX));
    char own[64];
    snprintf(own, sizeof own, FRAME_PREFIX "%0*d" FRAME_SUFFIX, FRAME_DIGITS, step);
    return step >= 1 && step <= steps && strcmp(own, name) == 0;
}

/* Each of DIR's frame names in turn: check (nothing removed), remove (but
 * the frames of a run of `keep` steps), or move into `to`; *done counts
 * the files removed, or replaced in `to`. COREPCG_OK, or a code with msg
 * naming the file. */
static int frame_files_pass(const char *dir, enum pass what, const char *to, int keep,
                            int *done, char *msg)
{
    DIR *d = opendir(dir);
    if (!d) {
        if (errno == ENOENT)
            return COREPCG_OK;
        snprintf(msg, COREPCG_MSG_SIZE, "%.400s: %s", dir, strerror(errno));
        return COREPCG_ERR_IO;
    }
    int rc = COREPCG_OK;
    struct dirent *e;
    struct stat st;
    while (rc == COREPCG_OK && (e = readdir(d))) {
        if (!frame_is_name(e->d_name) || (what == REMOVE && written_by_run(e->d_name, keep)))
            continue;
        char *path = cpg_path_join(dir, e->d_name);
        char *target = path && what == MOVE ? cpg_path_join(to, e->d_name) : NULL;
        if (!path || (what == MOVE && !target)) {
            snprintf(msg, COREPCG_MSG_SIZE, "out of memory");
            rc = COREPCG_ERR_NO_MEMORY;
        } else if (what == CHECK && lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            /* unlink would refuse it after the frames before it were gone */
            snprintf(msg, COREPCG_MSG_SIZE, "%.400s: a directory of a frame's name, "
                     "which cannot be removed: move it away (no frame was removed)", path);
            rc = COREPCG_ERR_IO;
        } else if (what == REMOVE && unlink(path) != 0) {
            snprintf(msg, COREPCG_MSG_SIZE, "%.400s: cannot remove an earlier run's "
                     "frame: %s", path, strerror(errno));
            rc = COREPCG_ERR_IO;
        } else if (what == MOVE) {
            *done += lstat(target, &st) == 0; /* an earlier frame replaced */
            if (rename(path, target) != 0) {
                snprintf(msg, COREPCG_MSG_SIZE, "%.200s: cannot move it to %.200s: %s",
                         path, to, strerror(errno));
                rc = COREPCG_ERR_IO;
            }
        } else {
            *done += what == REMOVE;
        }
        free(path);
        free(target);
    }
    closedir(d);
    return rc;
}

int frame_files_clear(const char *dir, int *removed, char *msg)
{
    *removed = 0;
    /* every name checked before any is removed: a run refused removes
     * nothing */
    int rc = frame_files_pass(dir, CHECK, NULL, 0, removed, msg);
    return rc == COREPCG_OK ? frame_files_pass(dir, REMOVE, NULL, 0, removed, msg) : rc;
}

int frame_files_check(const char *dir, char *msg)
{
    int none = 0;
    return frame_files_pass(dir, CHECK, NULL, 0, &none, msg);
}

int frame_staging_open(const char *dir, char **staging, char *msg)
{
    *staging = cpg_path_join(dir, ".corepcg-frames-XXXXXX");
    if (!*staging) {
        snprintf(msg, COREPCG_MSG_SIZE, "out of memory");
        return COREPCG_ERR_NO_MEMORY;
    }
    if (mkdtemp(*staging))
        return COREPCG_OK;
    snprintf(msg, COREPCG_MSG_SIZE, "%.400s: cannot make a directory for the "
             "run's frames: %s", dir, strerror(errno));
    free(*staging);
    *staging = NULL;
    return COREPCG_ERR_IO;
}

int frame_staging_commit(char **staging, const char *dir, int steps, int *removed,
                         char *msg)
{
    /* the run's frames over the earlier ones of their names (rename
     * replaces each whole), then the earlier ones past them removed */
    *removed = 0;
    int rc = frame_files_pass(*staging, MOVE, dir, 0, removed, msg);
    if (rc == COREPCG_OK)
        rc = frame_files_pass(dir, REMOVE, NULL, steps, removed, msg);
    if (rc == COREPCG_OK && rmdir(*staging) != 0) {
        snprintf(msg, COREPCG_MSG_SIZE, "%.400s: cannot remove: %s", *staging,
                 strerror(errno));
        rc = COREPCG_ERR_IO;
    }
    if (rc != COREPCG_OK) {
        frame_staging_discard(staging);
        return rc;
    }
    free(*staging);
    *staging = NULL;
    return rc;
}

void frame_staging_discard(char **staging)
{
    if (!*staging)
        return;
    int removed = 0;
    char msg[COREPCG_MSG_SIZE];
    frame_files_pass(*staging, REMOVE, NULL, 0, &removed, msg);
    rmdir(*staging);
    free(*staging);
    *staging = NULL;
}

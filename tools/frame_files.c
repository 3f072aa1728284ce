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

/* Each of DIR's frame names in turn: check (nothing removed) or remove.
 * COREPCG_OK, or a code with msg naming the file. */
static int frame_files_pass(const char *dir, int remove, int *removed, char *msg)
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
        if (!frame_is_name(e->d_name))
            continue;
        char *path = cpg_path_join(dir, e->d_name);
        if (!path) {
            snprintf(msg, COREPCG_MSG_SIZE, "out of memory");
            rc = COREPCG_ERR_NO_MEMORY;
        } else if (!remove && lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            /* unlink would refuse it after the frames before it were gone */
            snprintf(msg, COREPCG_MSG_SIZE, "%.400s: a directory of a frame's name, "
                     "which cannot be removed: move it away (no frame was removed)", path);
            rc = COREPCG_ERR_IO;
        } else if (remove && unlink(path) != 0) {
            snprintf(msg, COREPCG_MSG_SIZE, "%.400s: cannot remove an earlier run's "
                     "frame: %s", path, strerror(errno));
            rc = COREPCG_ERR_IO;
        } else {
            *removed += remove;
        }
        free(path);
    }
    closedir(d);
    return rc;
}

int frame_files_clear(const char *dir, int *removed, char *msg)
{
    *removed = 0;
    /* every name checked before any is removed: a run refused removes
     * nothing */
    int rc = frame_files_pass(dir, 0, removed, msg);
    return rc == COREPCG_OK ? frame_files_pass(dir, 1, removed, msg) : rc;
}

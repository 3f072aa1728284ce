/* SPDX-License-Identifier: GPL-2.0-or-later */
/* frame_files.h -- the frames `corepcg simulate --obj DIR` writes,
 * DIR/frame_NNNNN.obj (frame_files.c): their names, and an earlier run's
 * frames removed before a run writes its own, so that DIR holds one run. */
#ifndef COREPCG_FRAME_FILES_H
#define COREPCG_FRAME_FILES_H

#include <stddef.h>

/* DIR/frame_NNNNN.obj for step (1, 2, ...; five digits at least) into
 * path: COREPCG_OK, or ERR_IO with msg when it does not fit. */
int frame_path(char *path, size_t size, const char *dir, int step, char *msg);

/* 1 when name (no directory) is one frame_path writes: "frame_", five or
 * more digits, ".obj". */
int frame_is_name(const char *name);

/* Removes every file of DIR whose name frame_is_name accepts, and nothing
 * else; *removed counts them. A missing DIR holds none. COREPCG_OK, or
 * ERR_IO with msg naming the file that could not be removed; a directory
 * of such a name is found before any file is removed, and none is. */
int frame_files_clear(const char *dir, int *removed, char *msg);

#endif /* COREPCG_FRAME_FILES_H */

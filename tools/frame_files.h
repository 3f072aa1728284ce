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

/* frame_files_clear's check alone, nothing removed: OK, or ERR_IO with msg
 * naming a directory of a frame's name. */
int frame_files_check(const char *dir, char *msg);

/* A run writes its frames into a staging directory inside DIR
 * (DIR/.corepcg-frames-XXXXXX, made here; *staging malloc'd) and moves
 * them into DIR only when it ends well: a run that fails leaves DIR as it
 * was, its earlier frames included. OK, or a code with msg. */
int frame_staging_open(const char *dir, char **staging, char *msg);

/* The run of `steps` steps ended well: its staged frames moved into DIR
 * (each replacing an earlier frame of its name), the earlier frames past
 * them removed (*removed counts the earlier frames, replaced or
 * removed), the staging directory removed and *staging freed. OK, or
 * ERR_IO with msg. */
int frame_staging_commit(char **staging, const char *dir, int steps, int *removed,
                         char *msg);

/* The run failed: the staged frames and the staging directory removed,
 * *staging freed. Nothing when *staging is NULL. */
void frame_staging_discard(char **staging);

#endif /* COREPCG_FRAME_FILES_H */

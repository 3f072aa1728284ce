/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atomic_file.h -- output files that appear whole or not at all.
 *
 * A file is written under a fresh temporary name in its target's
 * directory (created with O_EXCL, as mkstemp does, so it is never someone
 * else's file), flushed, fsync'ed and closed, then renamed over the
 * target: a reader sees the old file or the complete new one. A failure
 * removes the temporary and leaves the target as it was. A read-only
 * target is replaced like any other (what counts, as for mv, is write
 * permission on the directory).
 *
 * Self-contained (libc and POSIX; corepcg.h only for the codes and
 * COREPCG_MSG_SIZE), so that the library, the cloth simulator and the CLI
 * share this one implementation: the library compiles it in (hidden), the
 * cloth library and the CLI link it as the static library corepcg_util.
 *
 * Functions return COREPCG_OK, COREPCG_ERR_IO or COREPCG_ERR_NO_MEMORY and
 * write a one-line reason naming the file into msg (COREPCG_MSG_SIZE
 * bytes; may be NULL).
 */
#ifndef COREPCG_ATOMIC_FILE_H
#define COREPCG_ATOMIC_FILE_H

#include <stdio.h>

typedef struct cpg_atomic_file {
    FILE *f;    /* write the content here; NULL once finished           */
    char *path; /* the target                                           */
    char *tmp;  /* the temporary; NULL once renamed, removed or empty   */
} cpg_atomic_file;

/* Creates path's missing parent directories, then the temporary next to
 * the file path names: path, or a symbolic link's file (written through,
 * the link kept; a link to a missing file refused). Refuses an empty path and an existing path that is not
 * a regular file (a directory, a device, a pipe); a replaced file keeps
 * its permission bits. On failure *af is empty (discard is still safe). */
int cpg_atomic_open(cpg_atomic_file *af, const char *path, char *msg);

/* Flushes, fsyncs and closes the temporary, which stays until commit or
 * discard. A write error on af->f (its error flag) makes it fail, and
 * discards. A caller whose own output failed discards instead. */
int cpg_atomic_finish(cpg_atomic_file *af, char *msg);

/* Finishes (unless done) and renames the temporary over the target. On
 * failure the target is untouched and the temporary removed. af is
 * emptied either way. */
int cpg_atomic_commit(cpg_atomic_file *af, char *msg);

/* All or nothing for several files: files[0 .. count-1] replace their
 * targets and the existing files named in remove[0 .. nremove-1] (may be
 * NULL) are deleted, or else every one of those names is left as it was.
 * Temporaries are finished first; the old files are kept under backup
 * names (hard links; a file system without them gets the old file moved
 * aside for the moment of the swap) until every rename has succeeded; a
 * failed rename puts back what was already changed. Only if that restore
 * fails too (the directory became unwritable midway) can a mix remain:
 * the message then names each file not restored and where its old
 * content is kept. Existing targets must not be directories. Every
 * files[k] is emptied. */
int cpg_atomic_commit_all(cpg_atomic_file *files, int count,
                          const char *const *remove, int nremove, char *msg);

/* Removes the temporary (if any) and frees; safe on an empty af. */
void cpg_atomic_discard(cpg_atomic_file *af);

/* dir "/" name (no doubled slash), malloc'd; NULL when out of memory. */
char *cpg_path_join(const char *dir, const char *name);

/* 1 when path exists, 0 when it does not, ERR_IO when stat fails. */
int cpg_path_exists(const char *path, char *msg);

/* mkdir -p: dir and any missing parents; dir must end up a directory. */
int cpg_make_dirs(const char *dir, char *msg);

/* The same, calling made(path, ctx) for each directory it created (not
 * one that was there), parents first; made returns non-zero when it could
 * not note it (out of memory), and that directory is removed again. */
typedef int (*cpg_made_dir_fn)(const char *path, void *ctx);
int cpg_make_dirs_noting(const char *dir, cpg_made_dir_fn made, void *ctx, char *msg);

/* Whether path can be written, checked before any work that would end in
 * writing it: creates its missing parents, refuses what cpg_atomic_open
 * refuses and an unwritable directory (by creating and removing a
 * temporary, as writing will). The target itself is not touched. */
int cpg_output_check(const char *path, char *msg);

/* The same for a directory that files will be written into: created with
 * its parents if missing, and writable. */
int cpg_output_dir_check(const char *dir, char *msg);

#endif /* COREPCG_ATOMIC_FILE_H */

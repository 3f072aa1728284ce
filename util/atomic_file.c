/* SPDX-License-Identifier: GPL-2.0-or-later */
/* atomic_file.c -- output files that appear whole or not at all (see
 * atomic_file.h): temporaries next to the target, fsync, rename; for a
 * group of files, backups of the old ones until every rename succeeded. */
#define _DEFAULT_SOURCE /* realpath */
#include "atomic_file.h"
#include "message.h"

#include "corepcg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NAME_TRIES 1000 /* taken names (stale temporaries) before giving up */

/* ================================================================ paths */

char *cpg_path_join(const char *dir, const char *name)
{
    size_t ld = strlen(dir), ln = strlen(name);
    int slash = ld > 0 && dir[ld - 1] != '/';
    char *p = malloc(ld + (size_t)slash + ln + 1);
    if (!p)
        return NULL;
    memcpy(p, dir, ld);
    if (slash)
        p[ld] = '/';
    memcpy(p + ld + slash, name, ln + 1);
    return p;
}

int cpg_path_exists(const char *path, char *msg)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return 1;
    if (errno == ENOENT)
        return 0;
    return cpg_fail(msg, COREPCG_ERR_IO, "%s: %s", path, strerror(errno));
}

static int make_one_dir(const char *dir, cpg_made_dir_fn made, void *ctx, char *msg)
{
    if (mkdir(dir, 0777) == 0) {
        if (made && made(dir, ctx) != 0) { /* not noted: taken back */
            rmdir(dir);
            return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
        }
        return COREPCG_OK;
    }
    if (errno == EEXIST)
        return COREPCG_OK;
    return cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot create: %s", dir,
                strerror(errno));
}

int cpg_make_dirs(const char *dir, char *msg)
{
    return cpg_make_dirs_noting(dir, NULL, NULL, msg);
}

int cpg_make_dirs_noting(const char *dir, cpg_made_dir_fn made, void *ctx, char *msg)
{
    char *p = malloc(strlen(dir) + 1);
    if (!p)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    strcpy(p, dir);
    int rc = COREPCG_OK;
    /* every parent, then dir itself; an existing one is fine here and
     * checked by the stat below (or by the next mkdir under it) */
    for (char *s = p + 1; *s && rc == COREPCG_OK; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        rc = make_one_dir(p, made, ctx, msg);
        *s = '/';
    }
    free(p);
    if (rc == COREPCG_OK)
        rc = make_one_dir(dir, made, ctx, msg);
    struct stat st;
    if (rc == COREPCG_OK && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)))
        rc = cpg_fail(msg, COREPCG_ERR_IO, "%s: exists and is not a directory",
                  dir);
    return rc;
}

/* path's directory, malloc'd ("." for a bare name); NULL when out of
 * memory. */
static char *parent_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t len = !slash ? 1 : slash == path ? 1 : (size_t)(slash - path);
    char *dir = malloc(len + 1);
    if (dir) {
        memcpy(dir, slash ? path : ".", len);
        dir[len] = '\0';
    }
    return dir;
}

/* ======================================================= sibling names */

/* Makes something under a candidate name; 0, or -1 with errno (EEXIST
 * means: try another name). */
typedef int (*make_fn)(const char *name, void *ctx);

/* A fresh name ".BASE.TAG-PID-K" in path's directory for which make
 * succeeded, malloc'd; NULL with *err set otherwise. */
static char *sibling_name(const char *path, const char *tag, make_fn make,
                          void *ctx, int *err)
{
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    size_t size = strlen(path) + strlen(tag) + 48;
    char *name = malloc(size);
    if (!name) {
        *err = ENOMEM;
        return NULL;
    }
    for (int k = 0; k < NAME_TRIES; k++) {
        snprintf(name, size, "%.*s.%s.%s-%ld-%d", (int)dirlen, path,
                 path + dirlen, tag, (long)getpid(), k);
        if (make(name, ctx) == 0)
            return name;
        if (errno != EEXIST)
            break;
    }
    *err = errno;
    free(name);
    return NULL;
}

/* A new file, mode 0666 less the umask like any other new file. */
static int make_file(const char *name, void *fd)
{
    *(int *)fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    return *(int *)fd < 0 ? -1 : 0;
}

/* A second name for the existing file *target. */
static int make_link(const char *name, void *target)
{
    return link((const char *)target, name);
}

/* ========================================================= one file */

/* mkdir -p of path's directory. */
static int make_parents(const char *path, char *msg)
{
    char *dir = parent_of(path);
    if (!dir)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    int rc = cpg_make_dirs(dir, msg);
    free(dir);
    return rc;
}

/* The file that writing path replaces, malloc'd into *target: path, or
 * the file a symbolic link at path names (the link stays, as a shell's
 * `>` writes through it; a link to a missing file is refused, where `>`
 * would create it). An existing one that is not a regular file (a
 * device, a pipe, a directory) is refused: the rename would replace it
 * (`--out /dev/full` as root made the device a file). *mode gets an
 * existing file's permission bits, which its replacement keeps, or -1. */
static int write_target(const char *path, char **target, int *mode,
                        char *msg)
{
    *target = NULL;
    *mode = -1;
    if (!path[0])
        return cpg_fail(msg, COREPCG_ERR_IO, "cannot write a file with an "
                        "empty name");
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT)
            return cpg_fail(msg, COREPCG_ERR_IO, "%s: %s", path,
                            strerror(errno));
        *target = strdup(path);
    } else if (S_ISLNK(st.st_mode)) {
        *target = realpath(path, NULL);
        if (!*target || stat(*target, &st) != 0) {
            int err = errno;
            free(*target);
            *target = NULL;
            return cpg_fail(msg, COREPCG_ERR_IO, "%s: a symbolic link whose "
                            "file cannot be reached: %s", path, strerror(err));
        }
    } else {
        *target = strdup(path);
    }
    if (!*target)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    if (*mode == -1 && lstat(*target, &st) == 0) {
        if (!S_ISREG(st.st_mode)) {
            free(*target);
            *target = NULL;
            return cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot write: it %s",
                            path, S_ISDIR(st.st_mode)
                                      ? "is a directory"
                                      : "exists and is not a regular file "
                                        "(a device, a pipe or a socket)");
        }
        *mode = (int)(st.st_mode & 07777);
    }
    return COREPCG_OK;
}

int cpg_atomic_open(cpg_atomic_file *af, const char *path, char *msg)
{
    memset(af, 0, sizeof *af);
    int fd = -1, err = 0, mode;
    int rc = path[0] ? make_parents(path, msg) : COREPCG_OK;
    if (rc == COREPCG_OK)
        rc = write_target(path, &af->path, &mode, msg);
    if (rc != COREPCG_OK)
        return rc;
    af->tmp = sibling_name(af->path, "tmp", make_file, &fd, &err);
    if (af->tmp && mode >= 0)
        (void)fchmod(fd, (mode_t)mode); /* best effort: the umask's else */
    if (af->tmp && !(af->f = fdopen(fd, "w"))) {
        err = errno;
        close(fd);
        unlink(af->tmp);
        free(af->tmp);
        af->tmp = NULL;
    }
    if (af->f)
        return COREPCG_OK;
    free(af->path);
    af->path = NULL;
    if (err == ENOMEM)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "%s: out of memory", path);
    return cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot write: cannot create a "
                "temporary file in its directory: %s", path, strerror(err));
}

/* fsync, tolerating file systems that cannot (EINVAL, ENOTSUP): the data
 * is then as safe as that file system makes it. */
static int sync_fd(int fd)
{
    if (fsync(fd) == 0 || errno == EINVAL || errno == ENOTSUP ||
        errno == ENOSYS)
        return 0;
    return -1;
}

int cpg_atomic_finish(cpg_atomic_file *af, char *msg)
{
    if (!af->f)
        return af->tmp ? COREPCG_OK
                       : cpg_fail(msg, COREPCG_ERR_IO, "no file to finish");
    int err = 0;
    if (fflush(af->f) != 0)
        err = errno ? errno : EIO;
    else if (ferror(af->f))
        err = EIO; /* an earlier write failed; its errno is long gone */
    if (!err && sync_fd(fileno(af->f)) != 0)
        err = errno;
    if (fclose(af->f) != 0 && !err)
        err = errno ? errno : EIO;
    af->f = NULL;
    if (!err)
        return COREPCG_OK;
    int rc = cpg_fail(msg, COREPCG_ERR_IO, "%s: write failed: %s", af->path,
                  strerror(err));
    cpg_atomic_discard(af);
    return rc;
}

void cpg_atomic_discard(cpg_atomic_file *af)
{
    if (af->f)
        fclose(af->f);
    if (af->tmp)
        unlink(af->tmp);
    free(af->tmp);
    free(af->path);
    memset(af, 0, sizeof *af);
}

/* fsync a directory, so that the renames in it survive a crash. Best
 * effort: some file systems refuse to open or sync a directory. */
static void sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        sync_fd(fd);
        close(fd);
    }
}

int cpg_atomic_commit(cpg_atomic_file *af, char *msg)
{
    return cpg_atomic_commit_all(af, 1, NULL, 0, msg);
}

/* ====================================================== group commit */

/* One name the group commit changes, and how to undo it. */
typedef struct change {
    const char *path;  /* target, or a file to remove            */
    const char *tmp;   /* its replacement; NULL for a removal      */
    char *backup;      /* the old file's second name; NULL: none   */
    char *dir;         /* its directory, to fsync                  */
    int existed;       /* path existed before                      */
    int moved;         /* the old file was moved to backup         */
    int done;          /* the change is visible                    */
} change;

/* Keeps the old file at c->path under a backup name before anything
 * changes. A hard link leaves the target in place; without hard links
 * (EPERM, ENOTSUP... on some file systems) apply() moves it aside. */
static int keep_old(change *c, char *msg)
{
    struct stat st;
    if (lstat(c->path, &st) != 0) {
        if (errno != ENOENT)
            return cpg_fail(msg, COREPCG_ERR_IO, "%s: %s", c->path,
                        strerror(errno));
        c->existed = 0; /* nothing to keep (or to remove) */
        return COREPCG_OK;
    }
    if (S_ISDIR(st.st_mode))
        return cpg_fail(msg, COREPCG_ERR_IO, "%s: is a directory", c->path);
    c->existed = 1;
    int err = 0;
    c->backup = sibling_name(c->path, "old", make_link, (void *)c->path, &err);
    if (c->backup)
        return COREPCG_OK;
    if (err == ENOMEM)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "%s: out of memory", c->path);
    /* reserve a name now; apply() renames the old file onto it */
    int fd = -1;
    c->backup = sibling_name(c->path, "old", make_file, &fd, &err);
    if (!c->backup)
        return err == ENOMEM
                   ? cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "%s: out of memory",
                          c->path)
                   : cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot keep a copy of "
                          "the old file: %s", c->path, strerror(err));
    close(fd);
    c->moved = 1;
    return COREPCG_OK;
}

/* The visible step: rename the replacement in, or remove the old file.
 * done is set once there is something for undo() to put back. */
static int apply(change *c)
{
    if (c->moved) {
        if (rename(c->path, c->backup) != 0)
            return -1;
        c->done = 1; /* the old file is aside, even if the rename fails */
        return c->tmp ? rename(c->tmp, c->path) : 0;
    }
    if (c->tmp ? rename(c->tmp, c->path) != 0 : unlink(c->path) != 0)
        return -1;
    c->done = 1;
    return 0;
}

/* Puts the old state of c->path back; 0 or -1 (errno set). */
static int undo(change *c)
{
    if (!c->done)
        return 0;
    if (c->existed)
        return rename(c->backup, c->path); /* the old file, same inode */
    return unlink(c->path);                /* there was none */
}

/* Appends "; NOTE" to msg as far as it fits. */
static void append(char *msg, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void append(char *msg, const char *fmt, ...)
{
    if (!msg)
        return;
    size_t len = strlen(msg);
    if (len + 1 >= COREPCG_MSG_SIZE)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + len, COREPCG_MSG_SIZE - len, fmt, ap);
    va_end(ap);
}

/* After a failed step: undoes steps failed_at .. 0 and says in msg
 * whether that restored everything. */
static void roll_back(change *ch, int failed_at, char *msg)
{
    int restored = 1;
    for (int k = failed_at; k >= 0; k--) {
        if (undo(&ch[k]) != 0) {
            restored = 0;
            append(msg, "; %s could not be restored (%s)%s%s", ch[k].path,
                   strerror(errno),
                   ch[k].existed ? ": its old content is in " : "",
                   ch[k].existed ? ch[k].backup : "");
        } else if (!(ch[k].done && ch[k].existed)) {
            continue;
        }
        /* renamed back, or the only copy left: either way not to unlink */
        free(ch[k].backup);
        ch[k].backup = NULL;
    }
    if (restored)
        append(msg, "; every file is as it was");
}

int cpg_atomic_commit_all(cpg_atomic_file *files, int count,
                          const char *const *remove, int nremove, char *msg)
{
    int total = count + (remove ? nremove : 0), rc = COREPCG_OK;
    change *ch = calloc((size_t)(total > 0 ? total : 1), sizeof *ch);
    if (!ch)
        rc = cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    for (int k = 0; k < count && rc == COREPCG_OK; k++) {
        rc = cpg_atomic_finish(&files[k], msg);
        if (rc == COREPCG_OK && !files[k].tmp)
            rc = cpg_fail(msg, COREPCG_ERR_IO, "no file to commit");
    }
    /* Each target is one visible step, each existing file to remove too;
     * a single step cannot leave a mix, so it needs no backup. */
    int steps = count;
    for (int k = 0; rc == COREPCG_OK && k < total; k++) {
        ch[k].path = k < count ? files[k].path : remove[k - count];
        ch[k].tmp = k < count ? files[k].tmp : NULL;
        if (k >= count) {
            int there = cpg_path_exists(ch[k].path, msg);
            if (there < 0)
                rc = there;
            ch[k].existed = there == 1;
            steps += there == 1;
        }
    }
    for (int k = 0; rc == COREPCG_OK && steps > 1 && k < total; k++)
        if (ch[k].tmp || ch[k].existed)
            rc = keep_old(&ch[k], msg);
    /* allocated now: after the first rename nothing may fail for memory */
    for (int k = 0; rc == COREPCG_OK && k < total; k++)
        if (!(ch[k].dir = parent_of(ch[k].path)))
            rc = cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");

    for (int k = 0; rc == COREPCG_OK && k < total; k++) {
        if (!ch[k].tmp && !ch[k].existed)
            continue; /* nothing to remove */
        if (apply(&ch[k]) == 0)
            continue;
        int err = errno;
        if (!ch[k].tmp && err == ENOENT)
            continue; /* vanished meanwhile: removed all the same */
        rc = ch[k].tmp
                 ? cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot rename %s into "
                        "place: %s", ch[k].path, ch[k].tmp, strerror(err))
                 : cpg_fail(msg, COREPCG_ERR_IO, "%s: cannot remove the old "
                        "file: %s", ch[k].path, strerror(err));
        roll_back(ch, k, msg);
    }
    if (rc == COREPCG_OK)
        for (int k = 0; k < total; k++)
            if (ch[k].done)
                sync_dir(ch[k].dir);
    for (int k = 0; ch && k < total; k++) {
        if (ch[k].backup)
            unlink(ch[k].backup); /* the old file, or a reserved name */
        free(ch[k].backup);
        free(ch[k].dir);
    }
    free(ch);
    for (int k = 0; k < count; k++) {
        if (rc == COREPCG_OK) {
            free(files[k].tmp); /* renamed: nothing left to remove */
            files[k].tmp = NULL;
        }
        cpg_atomic_discard(&files[k]);
    }
    return rc;
}

int cpg_output_check(const char *path, char *msg)
{
    /* what writing it will do first: the parents, what it replaces (not a
     * directory or a device), then a temporary */
    cpg_atomic_file af;
    int rc = cpg_atomic_open(&af, path, msg);
    cpg_atomic_discard(&af);
    return rc;
}

int cpg_output_dir_check(const char *dir, char *msg)
{
    int rc = cpg_make_dirs(dir, msg);
    char *probe = rc == COREPCG_OK ? cpg_path_join(dir, ".corepcg-write-probe") : NULL;
    if (rc == COREPCG_OK && !probe)
        rc = cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    if (rc == COREPCG_OK) {
        cpg_atomic_file af;
        rc = cpg_atomic_open(&af, probe, msg);
        cpg_atomic_discard(&af);
    }
    free(probe);
    return rc;
}

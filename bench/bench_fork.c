/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_fork.c -- bench's child processes. A child gets a copy of every
 * lock that another thread of its parent held at the fork (ASan's
 * allocator, TBB's scheduler) and no thread to release it: it can hang
 * for good. OpenBLAS stops its own threads at a fork; the TBB workers that
 * an Embree tree's build (or its device's release) starts live on. So a
 * process that forks builds no tree beforehand: bench's checks that build
 * one run apart (bench_apart), and a mesh obstacle's tree, which the
 * per-size process needs, is built on one thread (mesh_obstacle.c). */
#include "bench.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

pid_t bench_fork(char *why, size_t len)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        snprintf(why, len, "fork: %s", strerror(errno));
    return pid;
}

int bench_apart(int (*work)(const void *), const void *arg)
{
    char why[160];
    pid_t pid = bench_fork(why, sizeof why);
    if (pid == 0)
        _exit(work(arg) == 0 ? 0 : 1);
    if (pid < 0) {
        cli_error("bench: %s", why);
        return -1;
    }
    int wstatus = 0;
    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0 ? 0 : -1;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_fork.c -- bench's child processes. A child gets a copy of every
 * lock that another thread of its parent held at the fork (ASan's
 * allocator, TBB's scheduler) and no thread to release it: it can hang
 * for good. OpenBLAS stops its own threads at a fork; the TBB workers that
 * an Embree tree's build starts live on, and so does the one that the
 * release of a device started with threads=1 starts. So a process that
 * forks builds no tree before: bench's checks that build one run apart
 * (bench_apart), and a mesh obstacle's tree, which the per-size process
 * needs, is built on one thread (mesh_obstacle.c) and freed only after
 * that process's last fork. */
#include "bench.h"

#include <errno.h>
#include <signal.h>
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

int bench_wait(pid_t pid, int *wstatus)
{
    pid_t got;
    while ((got = waitpid(pid, wstatus, 0)) < 0 && errno == EINTR)
        ;
    return got == pid ? 0 : -1;
}

int bench_apart(int (*work)(const void *), const void *arg, const char *what)
{
    char why[160];
    pid_t pid = bench_fork(why, sizeof why);
    if (pid == 0)
        _exit(work(arg) == 0 ? 0 : 1);
    if (pid < 0) {
        cli_error("bench: %s: %s", what, why);
        return -1;
    }
    int wstatus = 0;
    if (bench_wait(pid, &wstatus) < 0) {
        cli_error("bench: %s: waitpid: %s", what, strerror(errno));
        return -1;
    }
    if (WIFSIGNALED(wstatus))
        cli_error("bench: %s: its process was killed by signal %d (%s)%s", what,
                  WTERMSIG(wstatus), strsignal(WTERMSIG(wstatus)),
                  WTERMSIG(wstatus) == SIGKILL ? ": out of memory?" : "");
    /* an exit status of 1 was said by the check itself */
    return WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0 ? 0 : -1;
}

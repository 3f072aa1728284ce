/* SPDX-License-Identifier: GPL-2.0-or-later */
/* message.h -- the one error-message helper of the library, the atomic
 * writer, the simulator and the CLI (message.c). Not installed. */
#ifndef COREPCG_MESSAGE_H
#define COREPCG_MESSAGE_H

/* printf into msg (COREPCG_MSG_SIZE bytes, may be NULL); returns code so
 * that callers can write `return cpg_fail(msg, CODE, "...", ...)`. */
int cpg_fail(char *msg, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* COREPCG_MESSAGE_H */

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* message.c -- cpg_fail (message.h). Its own file so that the library
 * (hidden) and the tools' static util library each hold one copy. */
#include "message.h"

#include "corepcg.h"

#include <stdarg.h>
#include <stdio.h>

int cpg_fail(char *msg, int code, const char *fmt, ...)
{
    if (msg) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, COREPCG_MSG_SIZE, fmt, ap);
        va_end(ap);
    }
    return code;
}

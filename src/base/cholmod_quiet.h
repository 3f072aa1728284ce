/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cholmod_quiet.h -- the one header through which the library includes
 * CHOLMOD, and the quiet common every user of it starts (cholmod.c).
 * CHOLMOD is the factorisations' back end (factor/, through factor.h, and
 * the methods that factorise) and, for the import and the bundle files,
 * a toolkit of sparse utilities; no other file includes this one
 * (tests/layers.py, CHOLMOD_USERS), so that another back end does not
 * meet CHOLMOD in every layer. Not installed.
 */
#ifndef COREPCG_CHOLMOD_QUIET_H
#define COREPCG_CHOLMOD_QUIET_H

#include "base.h"

#include <suitesparse/cholmod.h>

/* A CHOLMOD common that never prints; the caller owns it. */
int cpg_cholmod_start(cholmod_common *cm);
/* work(cm, arg, msg) on a common started for this call alone and
 * finished after it, for the public entries that need CHOLMOD for one
 * call: work's code, or the start's failure with msg "<who>cannot start
 * CHOLMOD" (who: "" or "name: "). */
int cpg_cholmod_call(int (*work)(cholmod_common *cm, void *arg, char *msg),
                     void *arg, const char *who, char *msg);

/* Maps a CHOLMOD status after a call to a corepcg code (OK when fine). */
int cpg_cholmod_code(const cholmod_common *cm);
/* A CHOLMOD status in words, for messages ("not positive definite"). */
const char *cpg_cholmod_status_text(int status);

#endif /* COREPCG_CHOLMOD_QUIET_H */

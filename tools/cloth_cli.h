/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cloth_cli.h -- the options `corepcg gen` and `corepcg simulate` share:
 * the scene, its parameters and the solver settings used in the loop. */
#ifndef COREPCG_CLOTH_CLI_H
#define COREPCG_CLOTH_CLI_H

#include "cloth.h"
#include "corepcg.h"

struct cloth_cli {
    const char *command;  /* "gen" or "simulate", for messages            */
    cloth_params par;     /* scene, size, k_stretch, dt (others default)  */
    int steps;            /* 0 when --steps was not given                 */
    corepcg_settings set; /* --method, --tol                              */
    const char *out;      /* gen: --out DIR                               */
    const char *obj;      /* simulate: --obj DIR                          */
    const char *csv;      /* simulate: --csv FILE                         */
};

/* Parses argv[1..]: SCENE, --size, --k-stretch, --dt, --steps, --method,
 * --tol, and whichever of --out / --obj / --csv the command takes (the
 * flags say which). Returns 0, 1 after --help (usage printed), or -1
 * after a usage error (message printed). */
int cloth_cli_parse(int argc, char **argv, const char *command,
                    const char *usage, int takes_out, int takes_files,
                    struct cloth_cli *o);

#endif

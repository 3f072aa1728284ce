/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cloth_cli.c -- option parsing shared by `corepcg gen` and `simulate`. */
#include "cloth_cli.h"
#include "cli.h"

#include <stdio.h>
#include <string.h>

static int needs_value(const char *opt, const char *value, const char *what)
{
    if (value)
        return 0;
    cli_error("%s needs %s", opt, what);
    return -1;
}

int cloth_cli_parse(int argc, char **argv, const char *command,
                    const char *usage, int takes_out, int takes_files,
                    struct cloth_cli *o)
{
    memset(o, 0, sizeof *o);
    o->command = command;
    corepcg_settings_default(&o->set);
    const char *scene = NULL;
    int size = 0, have_dt = 0, have_k = 0, m;
    double dt = 0, k_stretch = 0;
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        int rc = 0, takes_value = 1;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            return 1;
        } else if (strcmp(a, "--size") == 0) {
            rc = cli_parse_int(a, v, CLOTH_MIN_SIZE, CLOTH_MAX_SIZE, &size);
        } else if (strcmp(a, "--k-stretch") == 0) {
            rc = cli_parse_double(a, v, 0.0, 1e12, &k_stretch);
            have_k = 1;
        } else if (strcmp(a, "--dt") == 0) {
            rc = cli_parse_double(a, v, 1e-9, 1.0, &dt);
            have_dt = 1;
        } else if (strcmp(a, "--steps") == 0) {
            rc = cli_parse_int(a, v, 1, 100000000, &o->steps);
        } else if (strcmp(a, "--method") == 0) {
            rc = cli_parse_choice(a, v, corepcg_method_from_name,
                                  "auto, icpcg, corepcg, upcg, direct, mpcg, "
                                  "mpcg-bw", &m);
            o->set.method = (corepcg_method)m;
        } else if (strcmp(a, "--tol") == 0) {
            rc = cli_parse_double(a, v, 1e-300, 0.999999, &o->set.tol);
        } else if (takes_out && strcmp(a, "--out") == 0) {
            rc = needs_value(a, v, "a directory");
            o->out = v;
        } else if (takes_files && strcmp(a, "--obj") == 0) {
            rc = needs_value(a, v, "a directory");
            o->obj = v;
        } else if (takes_files && strcmp(a, "--csv") == 0) {
            rc = needs_value(a, v, "a file name");
            o->csv = v;
        } else if (a[0] == '-') {
            cli_error("%s: unknown option '%s'", command, a);
            rc = -1;
        } else if (!scene) {
            scene = a;
            takes_value = 0;
        } else {
            cli_error("%s: unexpected argument '%s'", command, a);
            rc = -1;
        }
        if (rc)
            return -1;
        k += takes_value;
    }
    if (!scene) {
        cli_error("%s: no SCENE given (pinned, drape, ballhit, rail or free)", command);
        fputs(usage, stderr);
        return -1;
    }
    int s = cloth_scene_from_name(scene);
    if (s < 0) {
        cli_error("%s: unknown scene '%s' (pinned, drape, ballhit, rail or free)",
                  command, scene);
        return -1;
    }
    if (!size) {
        cli_error("%s: --size m is required (nodes per side, %d..%d)", command,
                  CLOTH_MIN_SIZE, CLOTH_MAX_SIZE);
        return -1;
    }
    if (takes_out && !o->out) {
        cli_error("%s: --out DIR is required", command);
        return -1;
    }
    cloth_params_default(&o->par, (cloth_scene)s, size);
    if (have_k)
        o->par.k_stretch = k_stretch;
    if (have_dt)
        o->par.dt = dt;
    return 0;
}

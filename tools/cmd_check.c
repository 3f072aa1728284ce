/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd_check.c -- `corepcg check BUNDLE X.mtx [--json]`: docs/format.md's
 * constraint error and relative residual of an answer. Writes no file. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: corepcg check BUNDLE X.mtx [--json]\n"
            "\n"
            "Measures the answer X.mtx (an n x 1 real `array`) of the bundle BUNDLE as\n"
            "docs/format.md defines it:\n"
            "  constraint error   max |(I - S)(x - z)|\n"
            "  relative residual  |S(b - A x)|_2 / |S(b - A(I - S)z)|_2\n"
            "                     (the numerator alone when the denominator is 0)\n"
            "\n"
            "  --json   print {\"constraint_error\": ..., \"rel_residual\": ...}\n"
            "\n"
            "Exit status: 0 when both could be computed (whatever their size), 1 when\n"
            "the bundle or X.mtx is missing or invalid (the message names the file and\n"
            "line), 2 bad command line.\n");
}

int cmd_check(int argc, char **argv)
{
    const char *args[2];
    static const char *const names[2] = {"BUNDLE", "X.mtx"};
    int json, prc = cli_positional(argc, argv, "check", "needs BUNDLE and X.mtx", names,
                                   args, 2, &json, usage);
    if (prc)
        return prc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    const char *dir = args[0], *xpath = args[1];

    char msg[COREPCG_MSG_SIZE];
    corepcg_bundle *bundle = NULL;
    double *x = NULL;
    int rc = corepcg_bundle_read(dir, &bundle, msg);
    if (rc >= 0)
        rc = corepcg_vector_read(xpath, 3 * bundle->system.num_nodes, &x, msg);
    double cerr = 0, rres = 0;
    if (rc >= 0)
        rc = corepcg_check(&bundle->system, bundle->b, x, &cerr, &rres, msg);
    if (rc < 0)
        cli_fail(rc, "%s", msg);
    else if (json)
        printf("{\"constraint_error\": %.17g, \"rel_residual\": %.17g}\n", cerr,
               rres);
    else {
        printf("constraint error   %.3e   max |(I - S)(x - z)|\n", cerr);
        printf("relative residual  %.3e   |S(b - A x)|_2 / |S(b - A(I - S)z)|_2\n",
               rres);
    }
    free(x);
    corepcg_bundle_free(&bundle);
    return cli_exit_status(rc);
}

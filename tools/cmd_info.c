/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd_info.c -- `corepcg info BUNDLE [--json]`: what a bundle holds. The
 * counts come from the constraint records as read; nothing is computed on
 * the system itself. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: corepcg info BUNDLE [--json]\n"
            "\n"
            "Reads and validates the bundle directory BUNDLE (docs/format.md) and prints\n"
            "N, n = 3N, the entries stored in A.mtx and their storage (symmetric or\n"
            "general), how many nodes have ndof 0, 1, 2 and 3, the reduced size\n"
            "r = sum of ndof, and the number of stretch pairs.\n"
            "\n"
            "  --json   one JSON object instead of the table\n"
            "\n"
            "Exit status: 0 ok, 1 the bundle is missing or invalid (the message names\n"
            "the file and line), 2 bad command line.\n");
}

int cmd_info(int argc, char **argv)
{
    const char *dir;
    static const char *const names[1] = {"BUNDLE"};
    int json, prc = cli_positional(argc, argv, "info", "no BUNDLE given", names, &dir, 1,
                                   &json, usage);
    if (prc)
        return prc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;

    char msg[COREPCG_MSG_SIZE];
    corepcg_bundle *bundle = NULL;
    int rc = corepcg_bundle_read(dir, &bundle, msg);
    if (rc < 0) {
        cli_fail(rc, "%s", msg);
        return cli_exit_status(rc);
    }
    const corepcg_system *sys = &bundle->system;
    long nodes_with[4] = {0, 0, 0, 0};
    for (int k = 0; k < sys->num_constraints; k++)
        nodes_with[sys->constraints[k].ndof]++;
    nodes_with[3] = sys->num_nodes - sys->num_constraints;
    long r = nodes_with[1] + 2 * nodes_with[2] + 3 * nodes_with[3];
    const char *storage = bundle->A_general ? "general" : "symmetric";

    if (json) {
        printf("{\"N\": %d, \"n\": %ld, \"nnz_A\": %ld, \"storage\": \"%s\", "
               "\"ndof0\": %ld, \"ndof1\": %ld, \"ndof2\": %ld, \"ndof3\": %ld, "
               "\"r\": %ld, \"stretch_pairs\": %d, \"has_z\": %s, "
               "\"has_constraints\": %s, \"has_stretch\": %s, \"has_x0\": %s}\n",
               sys->num_nodes, 3L * sys->num_nodes, bundle->A_file_entries,
               storage, nodes_with[0], nodes_with[1], nodes_with[2],
               nodes_with[3], r, sys->num_stretch,
               bundle->has_z ? "true" : "false",
               bundle->has_constraints ? "true" : "false",
               bundle->has_stretch ? "true" : "false",
               bundle->x0 ? "true" : "false");
    } else {
        printf("bundle           %s\n", dir);
        printf("nodes N          %d\n", sys->num_nodes);
        printf("unknowns n       %ld\n", 3L * sys->num_nodes);
        printf("nnz(A)           %ld entries stored in A.mtx (%s%s)\n",
               bundle->A_file_entries, storage,
               bundle->A_general ? ", both triangles" : ", lower triangle");
        printf("nodes by ndof    0: %ld   1: %ld   2: %ld   3: %ld\n",
               nodes_with[0], nodes_with[1], nodes_with[2], nodes_with[3]);
        printf("reduced size r   %ld\n", r);
        printf("stretch pairs    %d%s\n", sys->num_stretch,
               bundle->has_stretch ? "" : " (no stretch.mtx)");
        printf("optional files   z.mtx %s, constraints.txt %s, x0.mtx %s\n",
               bundle->has_z ? "yes" : "no",
               bundle->has_constraints ? "yes" : "no",
               bundle->x0 ? "yes" : "no");
    }
    corepcg_bundle_free(&bundle);
    return CLI_EXIT_OK;
}

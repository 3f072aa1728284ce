/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_constraints.c -- libFuzzer target for the constraints.txt parser
 * (cpg_constraints_read): the input is the file, for a system of
 * FUZZ_NODES nodes. Whatever it returns must keep its contract: on
 * success at most N records, each valid, no node twice, and U blocks that
 * are orthonormal bases of the free directions; on failure a negative
 * code, no records, and a message that starts with the file name. */
#include "fuzz_check.h"
#include "bundle_io.h" /* cpg_constraints_read */

#include <stdint.h>

/* 20 nodes: enough records to grow the record array twice (16, then N). */
#define FUZZ_NODES 20

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH];
    fuzz_join(path, fuzz_scratch_dir("constraints"), "constraints.txt");
    fuzz_write_file(path, data, size);

    corepcg_constraint *recs = (corepcg_constraint *)(uintptr_t)1;
    int count = -1;
    char msg[COREPCG_MSG_SIZE];
    msg[0] = '\0';
    int rc = cpg_constraints_read(path, FUZZ_NODES, &recs, &count, msg);
    if (rc != COREPCG_OK) {
        FUZZ_REQUIRE(rc == COREPCG_ERR_FORMAT || rc == COREPCG_ERR_CONSTRAINT ||
                         rc == COREPCG_ERR_NOT_FINITE,
                     "unexpected code %d (%s)", rc, msg);
        FUZZ_REQUIRE(recs == NULL && count == 0,
                     "failure left records %p, count %d", (void *)recs, count);
        FUZZ_REQUIRE(strncmp(msg, path, strlen(path)) == 0 &&
                         msg[strlen(path)] == ':',
                     "message does not start with `path:` (%s)", msg);
        FUZZ_REQUIRE(strlen(msg) > strlen(path) + 4, "empty reason: %s", msg);
        return 0;
    }
    FUZZ_REQUIRE(count >= 0 && count <= FUZZ_NODES, "count %d", count);
    FUZZ_REQUIRE((count == 0) == (recs == NULL), "count %d with records %p",
                 count, (void *)recs);
    int seen[FUZZ_NODES] = {0};
    for (int k = 0; k < count; k++) {
        char why[COREPCG_MSG_SIZE] = "";
        FUZZ_REQUIRE(cpg_constraint_check(&recs[k], FUZZ_NODES, why) ==
                         COREPCG_OK,
                     "record %d accepted but invalid: %s", k, why);
        FUZZ_REQUIRE(!seen[recs[k].node]++, "node %d accepted twice",
                     recs[k].node);
    }
    fuzz_check_ublocks(FUZZ_NODES, recs, count);
    free(recs);
    return 0;
}

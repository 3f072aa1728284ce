/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_tool_status.c -- the statuses the tool reports over several solves
 * (util/tool_errors.c): the worst of them (solve --repeat's warm steps,
 * the benchmark's cells) and the exit status each maps to, and the median
 * its timings report (util/median.c). Through the CLI only "not converged
 * beats OK" can be reached (an error stops a run), so the ordering is
 * checked here, in every order. */
#include "corepcg.h"
#include "median.h"
#include "test.h"
#include "tool_errors.h"

#include <math.h>

/* Statuses from best to worst, as cli_worse_status ranks them: OK, the
 * warnings whose answer stands (FELL_BACK, then STOPPED: the larger code),
 * not converged (exit 3), then any error. */
static void test_worse_status(void)
{
    const int ranked[] = {COREPCG_OK, COREPCG_FELL_BACK, COREPCG_STOPPED,
                          COREPCG_NOT_CONVERGED, COREPCG_ERR_NOT_SPD};
    const int count = (int)(sizeof ranked / sizeof ranked[0]);
    for (int i = 0; i < count; i++)
        for (int j = 0; j < count; j++) {
            int want = ranked[i > j ? i : j];
            CHECK(cli_worse_status(ranked[i], ranked[j]) == want,
                  "worse of %d and %d: %d, expected %d", ranked[i], ranked[j],
                  cli_worse_status(ranked[i], ranked[j]), want);
        }
    /* two errors: the one kept is one of them, never a warning */
    int e = cli_worse_status(COREPCG_ERR_IO, COREPCG_ERR_NOT_SPD);
    CHECK(e == COREPCG_ERR_IO || e == COREPCG_ERR_NOT_SPD, "two errors gave %d", e);
    /* over a run: a step that did not converge is not hidden by the
     * converged ones after it */
    int status = COREPCG_OK;
    const int run[] = {COREPCG_OK, COREPCG_NOT_CONVERGED, COREPCG_OK, COREPCG_FELL_BACK,
                       COREPCG_OK};
    for (int k = 0; k < 5; k++)
        status = cli_worse_status(status, run[k]);
    CHECK_INT(status, COREPCG_NOT_CONVERGED);
    CHECK_INT(cli_exit_status(status), CLI_EXIT_NOT_CONVERGED);
}

static void test_exit_status(void)
{
    CHECK_INT(cli_exit_status(COREPCG_OK), CLI_EXIT_OK);
    CHECK_INT(cli_exit_status(COREPCG_FELL_BACK), CLI_EXIT_OK);
    CHECK_INT(cli_exit_status(COREPCG_STOPPED), CLI_EXIT_OK);
    CHECK_INT(cli_exit_status(COREPCG_NOT_CONVERGED), CLI_EXIT_NOT_CONVERGED);
    CHECK_INT(cli_exit_status(COREPCG_ERR_NOT_SPD), CLI_EXIT_ERROR);
    CHECK_INT(cli_exit_status(COREPCG_ERR_ARGUMENT), CLI_EXIT_ERROR);
}

static void test_median(void)
{
    double odd[] = {5, 1, 3};
    double even[] = {4, 1, 3, 2};
    double one[] = {7};
    CHECK(cli_median(odd, 3) == 3, "median of 5 1 3: %g", cli_median(odd, 3));
    CHECK(cli_median(even, 4) == 2.5, "median of 4 1 3 2: %g", cli_median(even, 4));
    CHECK(cli_median(one, 1) == 7, "median of 7: %g", cli_median(one, 1));
    CHECK(isnan(cli_median(NULL, 0)), "median of none: %g", cli_median(NULL, 0));
}

int main(void)
{
    test_worse_status();
    test_exit_status();
    test_median();
    return test_summary("test_tool_status");
}

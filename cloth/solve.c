/* SPDX-License-Identifier: GPL-2.0-or-later */
/* solve.c -- the solver in the loop, through corepcg.h only, exactly as an
 * outside simulator would call it: setup at the first step, update (which
 * keeps the symbolic analysis while the reduced pattern holds) after, and
 * the previous step's answer as the guess. */
#include "cloth_model.h"
#include "cloth_sim.h"
#include "monotonic.h"

#include <stdio.h>

static int solver_failed(cloth_sim *sim, const char *what, int rc, char *msg)
{
    if (msg)
    {
        /* the library's message says what went wrong; the code's name only
         * when there is none */
        const char *why = sim->solver ? corepcg_message(sim->solver) : "";
        snprintf(msg, COREPCG_MSG_SIZE, "step %d: %s: %s", sim->step + 1,
                 what, why[0] ? why : corepcg_strerror(rc));
    }
    return rc;
}

int cloth_solve(cloth_sim *sim, const corepcg_settings *settings, char *msg)
{
    corepcg_system sys;
    cloth_system(sim, &sys);
    double start = cpg_now();
    int rc;
    if (!sim->solver_ready) {
        if (!sim->solver) {
            rc = corepcg_create(&sim->solver);
            if (rc < 0)
                return solver_failed(sim, "corepcg_create", rc, msg);
        }
        /* the caller's settings are for whichever method it names (a tol
         * that direct does not read): those the method reads */
        corepcg_settings own;
        if (settings) {
            own = *settings;
            corepcg_settings_for_method(&own);
        }
        rc = corepcg_setup(sim->solver, &sys, settings ? &own : NULL);
        if (rc < 0)
            return solver_failed(sim, "corepcg_setup", rc, msg);
        sim->solver_ready = 1;
        sim->analysis_reused = 0;
    } else {
        corepcg_info update;
        rc = corepcg_update(sim->solver, &sys, &update);
        if (rc < 0) {
            /* a failed update may leave the handle empty: set up afresh
             * at the next step rather than fail every step after */
            sim->solver_ready = 0;
            return solver_failed(sim, "corepcg_update", rc, msg);
        }
        sim->analysis_reused = update.analysis_reused;
    }
    rc = corepcg_solve(sim->solver, sim->b, sim->dv, sim->dv_next, &sim->info);
    sim->time_solve_s = cpg_now() - start;
    if (rc < 0)
        return solver_failed(sim, "corepcg_solve", rc, msg);
    return rc;
}

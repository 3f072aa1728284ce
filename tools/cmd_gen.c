/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd_gen.c -- `corepcg gen SCENE`: run the built-in cloth simulator with
 * the solver in the loop and write one step's system as a bundle. */
#include "cli.h"
#include "cloth_cli.h"

#include <stdio.h>
#include <stdlib.h>

#define GEN_DEFAULT_STEPS 10     /* scenes without an obstacle             */
#define GEN_CONTACT_LIMIT 10000  /* give up looking for a first contact    */
#define GEN_WARNINGS_SHOWN 10    /* not-converged steps named one by one   */

static const char usage_text[] =
    "usage: corepcg gen SCENE (--size m | --mesh FILE.obj) [options] --out DIR\n"
    "  SCENE            on a grid: pinned | drape | ballhit | rail | free\n"
    "                   on a mesh: hang | ballhit | drape | garment | dressed | free\n"
    "                   (dressed: as garment, for --mesh data/meshes/top.obj\n"
    "                   --obstacle data/meshes/body.obj)\n"
    "  --size m         a grid of m x m nodes (3..2049)\n"
    CLOTH_CLI_MESH_USAGE
    CLOTH_CLI_UP_USAGE
    CLOTH_PLACE_USAGE
    "  --subdivide K    midpoint-subdivide the mesh K times (0..6; 4^K\n"
    "                   triangles each)\n"
    "  --density D      the mesh's mass per area in kg/m^2 (default 0.15)\n"
    "@cloth:models@\n"
    "  --self-contact on|off  repulsion springs between close vertices that\n"
    "                   are not neighbours (default: on in garment, else off)\n"
    "  --dt s           time step (default 6.67/5.55/3.67 ms for 41/81/161,\n"
    "                   linear in between, constant beyond; a mesh of N\n"
    "                   vertices: as a grid of sqrt(N) a side)\n"
    "  --steps s        write step s's system, after solving steps 1..s-1\n"
    "                   (default: the first step with contacts in a scene with\n"
    "                   obstacles -- ballhit, drape, garment -- step 10 otherwise)\n"
    "  --method M       solver for steps 1..s-1, one of\n"
    "                   @METHODS@\n"
    "  --tol T          its tolerance (default 1e-5); a step that does not\n"
    "                   converge is taken all the same, with a warning on\n"
    "                   stderr naming it; refused, as solve refuses it, for\n"
    "                   a method that does not take it\n"
    "  --out DIR        the bundle: A.mtx, b.mtx, z.mtx, constraints.txt,\n"
    "                   stretch.mtx, x0.mtx (the previous step's answer)\n"
    "exit status: 0 written, 1 error (nothing written), 2 usage\n";

/* Exit 1, "nothing written": not even the directories --out made. */
static int gen_failed(cloth_sim **sim, struct cloth_cli *o, cli_new_dirs *made)
{
    if (made)
        cli_remove_new_dirs(made);
    cloth_sim_free(sim);
    cloth_cli_free(o);
    return CLI_EXIT_ERROR;
}

int cmd_gen(int argc, char **argv)
{
    struct cloth_cli o;
    int prc = cloth_cli_parse(argc, argv, "gen", usage_text, 1, 0, &o);
    if (prc)
        return prc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    /* the mesh and the scene first: a bad one leaves no output directory */
    cloth_sim *sim = NULL;
    if (cloth_cli_load(&o) || cloth_cli_create(&o, &sim))
        return gen_failed(&sim, &o, NULL);
    /* the directories --out makes: a later failure takes them back */
    cli_new_dirs made;
    cli_make_new_dirs(o.out, &made);
    if (cli_outputs_ready("gen", NULL, 0, &o.out, 1))
        return gen_failed(&sim, &o, &made);
    char msg[COREPCG_MSG_SIZE];
    int rc;
    int until_contact = o.steps == 0 && cloth_sim_has_obstacles(sim);
    int last = o.steps ? o.steps : until_contact ? GEN_CONTACT_LIMIT : GEN_DEFAULT_STEPS;
    int not_converged = 0, solved = 0;
    for (;;) {
        rc = cloth_assemble(sim, msg);
        if (rc >= 0 && (sim->step + 1 == last || (until_contact && sim->contacts > 0)))
            break;
        if (rc >= 0)
            rc = cloth_solve(sim, &o.settings.set, msg);
        if (rc < 0) {
            cli_error("gen: %s", msg);
            return gen_failed(&sim, &o, &made);
        }
        /* the step is taken (its answer is usable), but the bundle's
         * state and x0 then come from an inexact solve: say so */
        solved++;
        if (rc == COREPCG_NOT_CONVERGED && ++not_converged <= GEN_WARNINGS_SHOWN) {
            char tol[40];
            cloth_cli_tol_text(&o, tol, sizeof tol);
            char its[40] = ""; /* direct takes no iterations */
            if (corepcg_method_takes(sim->info.method_used, COREPCG_OPTION_MAX_ITER))
                snprintf(its, sizeof its, "%d iterations, ", sim->info.iterations);
            cli_error("gen: warning: step %d did not converge (%srelative residual "
                      "%.3g%s); taken all the same",
                      sim->step + 1, its, sim->info.rel_residual, tol);
        }
        cloth_advance(sim);
    }
    if (not_converged > GEN_WARNINGS_SHOWN)
        cli_error("gen: warning: %d of the %d steps solved did not converge",
                  not_converged, solved);
    if (until_contact && sim->contacts == 0) {
        cli_error("gen: no contact within %d steps", GEN_CONTACT_LIMIT);
        return gen_failed(&sim, &o, &made);
    }

    corepcg_system sys;
    cloth_system(sim, &sys);
    rc = corepcg_bundle_write(o.out, &sys, sim->b, sim->dv, msg);
    if (rc < 0) {
        cli_error("gen: %s", msg);
        return gen_failed(&sim, &o, &made);
    }
    cli_forget_new_dirs(&made);
    char what[512];
    cloth_cli_describe(&o, sim->model.N, what, sizeof what);
    printf("wrote %s: %s, k_stretch %g, dt %g s, step %d (t = %.6g s), "
           "n = %d, %d entries (lower), %d contacts, %d self-contacts, "
           "ndof 0/1/2: %d/%d/%d%s%s\n",
           o.out, what, o.par.k_stretch, o.par.dt, sim->step + 1, sim->t,
           sim->model.n, sim->model.nnz, sim->contacts, sim->self_contacts,
           sim->ndof_count[0], sim->ndof_count[1], sim->ndof_count[2],
           o.skipped[0] ? "; " : "", o.skipped);
    cloth_sim_free(&sim);
    cloth_cli_free(&o);
    return CLI_EXIT_OK;
}

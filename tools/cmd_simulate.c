/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd_simulate.c -- `corepcg simulate SCENE`: time-step the built-in cloth
 * with the solver in the loop; an OBJ per step and a CSV row per step. */
#include "cli.h"
#include "cloth_cli.h"
#include "frame_files.h"

#include "atomic_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SIMULATE_DEFAULT_STEPS 100

static const char usage_text[] =
    "usage: corepcg simulate SCENE (--size m | --mesh FILE.obj) [options]\n"
    "  SCENE            on a grid: pinned | drape | ballhit | rail | free\n"
    "                   on a mesh: hang | ballhit | drape | garment | dressed | free\n"
    "                   (dressed: as garment, for --mesh data/meshes/top.obj\n"
    "                   --obstacle data/meshes/body.obj)\n"
    "  --size m         a grid of m x m nodes (3..2049)\n"
    CLOTH_CLI_MESH_USAGE
    CLOTH_CLI_UP_USAGE
    CLOTH_PLACE_USAGE
    "  --subdivide K    midpoint-subdivide the mesh K times (0..6)\n"
    "  --density D      the mesh's mass per area in kg/m^2 (default 0.15)\n"
    "@cloth:models@\n"
    "  --self-contact on|off  repulsion springs between close vertices that\n"
    "                   are not neighbours (default: on in garment, else off)\n"
    "  --dt s           time step (default 6.67/5.55/3.67 ms for 41/81/161;\n"
    "                   a mesh of N vertices: as a grid of sqrt(N) a side)\n"
    "  --steps s        steps to take (default 100)\n"
    "  --method M       one of @METHODS@\n"
    "  --tol T          solver tolerance (default 1e-5); refused, as solve\n"
    "                   refuses it, for a method that does not take it\n"
    "  --obj DIR        write DIR/frame_NNNNN.obj for each step (cloth and\n"
    "                   obstacles); DIR and its parents are created if missing;\n"
    "                   the frames go to DIR/.corepcg-frames-XXXXXX while the\n"
    "                   run goes and replace the frame_NNNNN.obj files already\n"
    "                   in DIR (an earlier run's, said so) when it ends well;\n"
    "                   a failed run leaves DIR as it was; no other file\n"
    "                   is touched\n"
    "  --csv FILE       one row per step: step,contacts,ndof0,ndof1,ndof2,\n"
    "                   method,reason,iterations,seconds,analysis_reused,\n"
    "                   self_contacts,ic_shift,ic_retries,ic_compensation,\n"
    "                   converged\n"
    "                   (method: the one that ran; reason: why auto ran it,\n"
    "                   none for the other methods; seconds: the solver's\n"
    "                   setup/update + solve; ic_*: icpcg's factor as info\n"
    "                   reports it, 0 for the other methods; converged: 0\n"
    "                   for a step that did not converge, else 1)\n"
    "A progress line goes to stderr when it is a terminal.\n"
    "exit status: 0 done, 1 error (the CSV is not written), 2 usage,\n"
    "3 some step did not converge (all written; its CSV row says which)\n";

static void csv_header(FILE *csv)
{
    fprintf(csv, "step,contacts,ndof0,ndof1,ndof2,method,reason,iterations,"
                 "seconds,analysis_reused,self_contacts,ic_shift,ic_retries,"
                 "ic_compensation,converged\n");
}

/* The CSV's row for the step just taken (csv_header's columns), whose
 * solve returned rc. */
static void csv_row(FILE *csv, const cloth_sim *sim, int rc)
{
    fprintf(csv, "%d,%d,%d,%d,%d,%s,%s,%d,%.6g,%d,%d,%g,%d,%g,%d\n", sim->step,
            sim->contacts, sim->ndof_count[0], sim->ndof_count[1],
            sim->ndof_count[2], corepcg_method_name(sim->info.method_used),
            corepcg_auto_reason_name(sim->info.auto_reason),
            sim->info.iterations, sim->time_solve_s, sim->analysis_reused,
            sim->self_contacts, sim->info.ic_shift, sim->info.ic_retries,
            sim->info.ic_compensation, rc != COREPCG_NOT_CONVERGED);
}

/* The step's frame, DIR/frame_NNNNN.obj: OK or a code, with msg. */
static int write_frame(const cloth_sim *sim, const char *dir, char *msg)
{
    char path[4096];
    int rc = frame_path(path, sizeof path, dir, sim->step, msg);
    return rc == COREPCG_OK ? cloth_write_obj(sim, path, msg) : rc;
}

/* Before the run: DIR's earlier frames can be replaced, and the run's
 * own go to a staging directory in DIR. 0, or -1 with the error printed. */
static int stage_frames(const char *dir, char **staging)
{
    char msg[COREPCG_MSG_SIZE];
    if (frame_files_check(dir, msg) == COREPCG_OK &&
        frame_staging_open(dir, staging, msg) == COREPCG_OK)
        return 0;
    cli_error("simulate: %s", msg);
    return -1;
}

/* The run of `steps` steps ended well: its frames, staged, replace an
 * earlier run's in DIR (the count of those removed said on stderr). 0,
 * or -1 with the error printed. */
static int commit_frames(char **staging, const char *dir, int steps)
{
    char msg[COREPCG_MSG_SIZE];
    int removed = 0;
    if (frame_staging_commit(staging, dir, steps, &removed, msg) != COREPCG_OK) {
        cli_error("simulate: %s", msg);
        return -1;
    }
    if (removed)
        fprintf(stderr, "corepcg: simulate: removed %d frame%s of an earlier run from %s\n",
                removed, removed == 1 ? "" : "s", dir);
    return 0;
}

/* --csv FILE naming a frame of --obj DIR (DIR/frame_00001.obj): the CSV
 * and the frame would replace each other. 0, or -1 with the error
 * printed. Both outputs' directories exist (cli_outputs_ready). */
static int csv_apart_from_frames(const char *csv, const char *dir)
{
    const char *slash = strrchr(csv, '/');
    const char *name = slash ? slash + 1 : csv;
    if (!frame_is_name(name))
        return 0;
    char *parent = slash ? strndup(csv, (size_t)(slash - csv) + (slash == csv)) : strdup(".");
    struct stat a, b;
    int same = parent && stat(parent, &a) == 0 && stat(dir, &b) == 0 &&
               a.st_dev == b.st_dev && a.st_ino == b.st_ino;
    free(parent);
    if (!same)
        return 0;
    cli_error("simulate: --csv %s is a frame's name in --obj %s: the frames "
              "would replace it", csv, dir);
    return -1;
}

/* " (icpcg x97, corepcg x3)": the methods that solved some of the steps
 * but not all (auto's choices), or "" when one method solved them all. */
static void methods_used(const int *ran, int steps, char *used, size_t size)
{
    size_t len = 0;
    used[0] = '\0';
    for (int m = 0; m < TOOL_MAX_METHODS; m++)
        if (ran[m] && ran[m] < steps && len < size)
            len += (size_t)snprintf(used + len, size - len, "%s%s x%d",
                                    len ? ", " : " (", corepcg_method_name(m),
                                    ran[m]);
    if (len && len < size)
        snprintf(used + len, size - len, ")");
}

/* The line that sums the run up on stdout. */
static void print_summary(const struct cloth_cli *o, const cloth_sim *sim,
                          int steps, const int *ran, long iterations,
                          double median_s, double assemble_mean_s)
{
    char used[256], what[512];
    methods_used(ran, steps, used, sizeof used);
    cloth_cli_describe(o, sim->model.N, what, sizeof what);
    printf("%s, k_stretch %g, dt %g s, %d steps, method %s%s: %ld "
           "iterations, median solve %.4g s, mean assembly %.4g s, %d contacts "
           "and %d self-contacts at the end\n",
           what, o->par.k_stretch, o->par.dt, steps,
           corepcg_method_name(o->settings.set.method), used, iterations, median_s,
           assemble_mean_s, sim->contacts, sim->self_contacts);
}

int cmd_simulate(int argc, char **argv)
{
    struct cloth_cli o;
    int prc = cloth_cli_parse(argc, argv, "simulate", usage_text, 0, 1, &o);
    if (prc)
        return prc > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    int steps = o.steps ? o.steps : SIMULATE_DEFAULT_STEPS;
    char msg[COREPCG_MSG_SIZE];
    /* the mesh and the scene first: a bad one leaves no output directory */
    cloth_sim *sim = NULL;
    if (cloth_cli_load(&o) || cloth_cli_create(&o, &sim)) {
        cloth_sim_free(&sim);
        cloth_cli_free(&o);
        return CLI_EXIT_ERROR;
    }
    /* the directories --obj makes: a run refused or failed takes them back */
    cli_new_dirs made = {0, NULL};
    if (o.obj)
        cli_make_new_dirs(o.obj, &made);
    char *staging = NULL; /* the run's frames until it ends well */
    int refused = 0;
    if (cli_outputs_ready("simulate", &o.csv, 1, &o.obj, 1))
        refused = CLI_EXIT_ERROR;
    else if (o.obj && o.csv && csv_apart_from_frames(o.csv, o.obj))
        refused = CLI_EXIT_USAGE;
    else if (o.obj && stage_frames(o.obj, &staging))
        refused = CLI_EXIT_ERROR;
    if (refused) {
        cli_remove_new_dirs(&made);
        cloth_sim_free(&sim);
        cloth_cli_free(&o);
        return refused;
    }
    /* the CSV appears at the end, whole, or not at all */
    cpg_atomic_file csv_file = {0};
    FILE *csv = NULL;
    if (o.csv) {
        if (cpg_atomic_open(&csv_file, o.csv, msg) != COREPCG_OK) {
            cli_error("simulate: %s", msg);
            frame_staging_discard(&staging);
            cli_remove_new_dirs(&made);
            cloth_sim_free(&sim);
            cloth_cli_free(&o);
            return CLI_EXIT_ERROR;
        }
        csv = csv_file.f;
        csv_header(csv);
    }
    double *seconds = malloc(sizeof(double) * (size_t)steps);
    int rc = seconds ? COREPCG_OK : COREPCG_ERR_NO_MEMORY;
    if (!seconds)
        snprintf(msg, sizeof msg, "out of memory");
    int not_converged = 0, progress = isatty(STDERR_FILENO);
    int ran[TOOL_MAX_METHODS] = {0}; /* steps each method solved */
    long iterations = 0;
    double assemble = 0;
    for (int k = 0; rc >= 0 && k < steps; k++) {
        rc = cloth_step(sim, &o.settings.set, msg);
        if (rc < 0)
            break;
        not_converged += rc == COREPCG_NOT_CONVERGED;
        iterations += sim->info.iterations;
        if ((unsigned)sim->info.method_used < TOOL_MAX_METHODS)
            ran[sim->info.method_used]++;
        assemble += sim->time_assemble_s;
        seconds[k] = sim->time_solve_s;
        if (progress) /* overwritten in place; cleared at the end */
            fprintf(stderr, "\rsimulate: step %d of %d, %d contacts, %d "
                    "iterations, %.3g s   ", k + 1, steps, sim->contacts,
                    sim->info.iterations, sim->time_solve_s);
        if (csv)
            csv_row(csv, sim, rc);
        if (staging)
            rc = write_frame(sim, staging, msg);
    }
    if (progress)
        fprintf(stderr, "\r%*s\r", 72, "");
    if (rc < 0)
        cli_error("simulate: %s", msg);
    /* the frames, then the CSV: a frame that cannot be moved in leaves
     * no CSV of the run */
    int failed = rc < 0 || (staging && commit_frames(&staging, o.obj, steps));
    if (csv && !failed && cpg_atomic_commit(&csv_file, msg) != COREPCG_OK) {
        cli_error("simulate: %s", msg);
        failed = 1;
    }
    cpg_atomic_discard(&csv_file);
    if (failed) {
        frame_staging_discard(&staging);
        cli_remove_new_dirs(&made);
        cloth_sim_free(&sim);
        cloth_cli_free(&o);
        free(seconds);
        return CLI_EXIT_ERROR;
    }
    cli_forget_new_dirs(&made);
    print_summary(&o, sim, steps, ran, iterations, cli_median(seconds, steps),
                  assemble / steps);
    char tol[40];
    cloth_cli_tol_text(&o, tol, sizeof tol);
    cloth_sim_free(&sim);
    cloth_cli_free(&o);
    free(seconds);
    if (not_converged) {
        if (tol[0]) /* ", tol T" */
            cli_error("simulate: %d of %d steps did not converge (%s)",
                      not_converged, steps, tol + 2);
        else
            cli_error("simulate: %d of %d steps did not converge",
                      not_converged, steps);
        return CLI_EXIT_NOT_CONVERGED;
    }
    return CLI_EXIT_OK;
}

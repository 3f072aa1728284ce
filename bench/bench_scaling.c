/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench_scaling.c -- `corepcg bench --scaling`: how one step's cost grows
 * with the mesh. Per size (and k), a child process builds the scene and
 * steps it with corepcg until the cloth touches the ball; then each method
 * runs in its own grandchild, forked from that state, doing a cold
 * corepcg_setup + corepcg_solve, then, after the simulator takes that
 * answer, the next step warm: corepcg_update + corepcg_solve on the same
 * handle, as a simulator's every step after its first. Peak memory is the grandchild's
 * getrusage ru_maxrss: it starts at the resident size it inherits (the
 * simulator) and adds the solver's own peak, and separate processes keep
 * one size's or method's peak out of the next one's.
 *
 * The warm-up steps with a method that never factorises with CHOLMOD
 * (bench_warmup_method): CHOLMOD's supernodal factorisation runs OpenMP
 * regions, and GNU libgomp hangs in a child forked from a process that
 * has used them (seen here in cholmod_super_numeric). */
#include "bench.h"
#include "cloth.h"
#include "monotonic.h"

#include <errno.h>
#include <malloc.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

/* What one process reports through the pipe (one write, < PIPE_BUF). */
typedef struct scaling_record {
    int scene, model;          /* the scene entry's cloth_scene and model */
    int size;                  /* grid: nodes per side; 0 on a mesh      */
    int level;                 /* mesh: --subdivide level; -1 on a grid  */
    int nodes;                 /* N: grid size^2, or the mesh's vertices */
    char label[64];            /* "161x161", "tshirt.obj --subdivide 2"  */
    double k, dt;
    int method;                /* -1: the scene itself failed             */
    int n, r, status, iterations, warmup_steps, contacts;
    double warmup_s, seconds, setup_s, solve_s, reduce_s, analyze_s, factor_s,
        iterate_s;
    double rel_residual, constraint_error;
    long nnz_factor;
    double factor_flops;       /* of the cold step's factorisation       */
    /* the next --steps steps, warm (status 0 and the rest 0 when not
     * reached): medians of the time, iterations and factorisation, the
     * largest residual and constraint error, counts of the steps that
     * kept the analysis and of those whose A changed pattern */
    int warm_status, warm_steps, warm_reused, warm_pattern_changes;
    double warm_s, warm_iterations, warm_factor_s, warm_rel_residual,
        warm_constraint_error;
    long peak_kb, sim_kb;      /* ru_maxrss; resident size before setup  */
    int ran[TOOL_MAX_METHODS]; /* warm steps each method ran (auto's) */
    int verdict;               /* the worst BENCH_ANSWER_* of the cold and
                                  warm answers (bench_judge)             */
    char error[512];           /* the first reason for that verdict, or
                                  for a step that could not run          */
} scaling_record;

static void send_record(int fd, const scaling_record *rec)
{
    ssize_t w;
    do
        w = write(fd, rec, sizeof *rec);
    while (w < 0 && errno == EINTR);
}

static long resident_kb(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Judges one answer as the per-step bench does (bench_judge): the worst
 * verdict kept, with the first reason for it. */
static void judge(scaling_record *rec, const char *step, int status,
                  const corepcg_info *info, double tol, const char *message)
{
    bench_sample s = {.status = status, .iterations = info->iterations,
                      .rel_residual = status >= 0 ? info->rel_residual : NAN,
                      .constraint_error = status >= 0 ? info->constraint_error : NAN};
    char why[COREPCG_MSG_SIZE];
    int verdict = bench_judge(&s, info->method_used, tol, message, why, sizeof why);
    if (verdict > rec->verdict) {
        rec->verdict = verdict;
        snprintf(rec->error, sizeof rec->error, "%s: %.200s", step, why);
    }
}

/* Grandchild, after the cold step: the simulator takes the answer x and
 * assembles the next step, which the same handle solves warm; `steps`
 * times. */
static void warm_steps(corepcg_solver *h, cloth_sim *sim, double *x, int steps,
                       double tol, scaling_record *rec)
{
    double seconds[BENCH_MAX_STEPS], its[BENCH_MAX_STEPS], factor[BENCH_MAX_STEPS];
    rec->warm_rel_residual = rec->warm_constraint_error = 0;
    /* A handle's first update builds its import map (a setup builds
     * none); untimed here, so that each measured step is a simulator's
     * steady step: the same system again, the analysis kept */
    corepcg_system first;
    cloth_system(sim, &first);
    if (corepcg_update(h, &first, NULL) < 0) {
        rec->warm_status = COREPCG_ERR_STATE;
        rec->warm_rel_residual = rec->warm_constraint_error = NAN;
        rec->verdict = BENCH_ANSWER_FAILED;
        snprintf(rec->error, sizeof rec->error, "first update: %s",
                 corepcg_message(h));
        return;
    }
    for (int k = 0; k < steps && k < BENCH_MAX_STEPS; k++) {
        memcpy(sim->dv_next, x, sizeof(double) * (size_t)rec->n);
        cloth_advance(sim);
        char msg[COREPCG_MSG_SIZE] = "";
        int rc = cloth_assemble(sim, msg);
        if (rc < 0) {
            rec->warm_status = rc;
            rec->verdict = BENCH_ANSWER_FAILED;
            snprintf(rec->error, sizeof rec->error, "warm step %d: %s", k + 1, msg);
            break;
        }
        rec->warm_pattern_changes += sim->pattern_changed;
        corepcg_system sys;
        cloth_system(sim, &sys);
        corepcg_info info;
        memset(&info, 0, sizeof info);
        double t0 = cpg_now();
        rc = corepcg_update(h, &sys, &info);
        rec->warm_reused += rc >= 0 && info.analysis_reused;
        if (rc >= 0)
            rc = corepcg_solve(h, sim->b, sim->dv, x, &info);
        seconds[k] = cpg_now() - t0;
        /* the worst step's, not the last's: one that did not converge
         * early in the run is not hidden by those after it */
        rec->warm_status = cli_worse_status(rec->warm_status, rc);
        char step[32];
        snprintf(step, sizeof step, "warm step %d", k + 1);
        judge(rec, step, rc, &info, tol, corepcg_message(h));
        if (rc < 0) {
            rec->warm_rel_residual = rec->warm_constraint_error = NAN;
            break;
        }
        its[k] = info.iterations;
        factor[k] = info.time_factor_s;
        if (info.method_used >= 0 && info.method_used < TOOL_MAX_METHODS)
            rec->ran[info.method_used]++;
        rec->warm_rel_residual = fmax(rec->warm_rel_residual, info.rel_residual);
        rec->warm_constraint_error = fmax(rec->warm_constraint_error, info.constraint_error);
        rec->warm_steps = k + 1;
    }
    if (rec->warm_steps > 0) {
        rec->warm_s = cli_median(seconds, rec->warm_steps);
        rec->warm_iterations = cli_median(its, rec->warm_steps);
        rec->warm_factor_s = cli_median(factor, rec->warm_steps);
    }
}

/* Grandchild: one cold setup + solve of the assembled step, then the
 * next --steps ones warm. */
static void run_method(const bench_options *o, cloth_sim *sim, int method,
                       scaling_record *rec)
{
    rec->method = method;
    rec->sim_kb = resident_kb();
    corepcg_settings set;
    corepcg_settings_default(&set);
    set.method = (corepcg_method)method;
    set.tol = o->tols[0];
    corepcg_settings_for_method(&set); /* direct takes no tol */
    corepcg_system sys;
    cloth_system(sim, &sys);
    double *x = malloc(sizeof(double) * (size_t)rec->n);
    corepcg_solver *h = NULL;
    corepcg_info info;
    memset(&info, 0, sizeof info);

    double t0 = cpg_now();
    int rc = x ? corepcg_create(&h) : COREPCG_ERR_NO_MEMORY;
    if (rc >= 0)
        rc = corepcg_setup(h, &sys, &set);
    if (rc >= 0)
        rc = corepcg_solve(h, sim->b, sim->dv, x, &info);
    rec->seconds = cpg_now() - t0;
    rec->status = rc;
    judge(rec, "cold step", rc, &info, o->tols[0], h ? corepcg_message(h) : NULL);
    rec->r = info.r;
    rec->iterations = info.iterations;
    rec->setup_s = info.time_setup_s;
    rec->solve_s = info.time_solve_s;
    rec->reduce_s = info.time_reduce_s;
    rec->analyze_s = info.time_analyze_s;
    rec->factor_s = info.time_factor_s;
    rec->iterate_s = info.time_iterate_s;
    rec->rel_residual = rc >= 0 ? info.rel_residual : NAN;
    rec->constraint_error = rc >= 0 ? info.constraint_error : NAN;
    rec->nnz_factor = info.nnz_factor;
    rec->factor_flops = info.factor_flops;
    if (rc >= 0)
        warm_steps(h, sim, x, o->steps, o->tols[0], rec);
    /* after the warm steps: an update holds a second A beside the first */
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    rec->peak_kb = ru.ru_maxrss;
    corepcg_free(&h);
    free(x);
}

/* The record of scene entry e at size or level index a, k, before
 * anything ran. */
static void record_start(const bench_options *o, int e, int a, double k,
                         scaling_record *rec)
{
    memset(rec, 0, sizeof *rec);
    rec->scene = o->scenes[e];
    rec->model = o->scene_models[e];
    int mesh = bench_is_mesh_scene(rec->scene);
    rec->size = mesh ? 0 : o->sizes[a];
    rec->level = mesh ? o->levels[a] : -1;
    rec->nodes = mesh ? 0 : o->sizes[a] * o->sizes[a];
    bench_case_label(o, rec->scene, rec->model, a, rec->label, sizeof rec->label);
    rec->k = k;
    rec->method = -1;
    rec->rel_residual = rec->constraint_error = NAN; /* no answer yet */
}

/* Steps the scene until the cloth touches an obstacle (at most
 * BENCH_MAX_WARMUP steps); the count and time into rec, an error there. */
static int warm_up(const bench_options *o, cloth_sim *sim, scaling_record *rec)
{
    /* no CHOLMOD before fork (see above) */
    int mesh = bench_is_mesh_scene(rec->scene);
    corepcg_settings set;
    corepcg_settings_default(&set);
    set.method = (corepcg_method)bench_warmup_method(mesh, 0);
    set.tol = o->tols[0];
    char msg[COREPCG_MSG_SIZE] = "";
    double t0 = cpg_now();
    while (cloth_sim_has_obstacles(sim) && sim->contacts == 0 && rec->warmup_steps < BENCH_MAX_WARMUP) {
        if (o->progress)
            fprintf(stderr, "\r\033[Kscaling %s: warm-up step %d", rec->label,
                    rec->warmup_steps + 1);
        int rc = cloth_step(sim, &set, msg);
        if (rc == COREPCG_ERR_IC_BREAKDOWN) {
            corepcg_free(&sim->solver);
            sim->solver_ready = 0;
            set.method = (corepcg_method)bench_warmup_method(mesh, 1);
            rc = cloth_step(sim, &set, msg);
        }
        if (rc < 0) {
            snprintf(rec->error, sizeof rec->error, "warm-up step %d: %s",
                     rec->warmup_steps + 1, msg);
            return rc;
        }
        rec->warmup_steps++;
    }
    rec->warmup_s = cpg_now() - t0;
    return COREPCG_OK;
}

/* Child: the scene (a grid size or a mesh's subdivision level) up to its
 * first contact (stepped with upcg, icpcg on a mesh), then one grandchild
 * per method. */
static void run_size(const bench_options *o, int e, int a, double k, int fd)
{
    scaling_record base;
    record_start(o, e, a, k, &base);
    cloth_sim *sim = NULL;
    char msg[COREPCG_MSG_SIZE] = "";
    int rc = bench_sim_create(o, base.scene, base.model, a, k, &sim, msg);
    if (rc >= 0)
        base.dt = sim->par.dt;
    if (rc < 0) {
        snprintf(base.error, sizeof base.error, "scene: %s", msg);
        send_record(fd, &base);
        return;
    }
    base.n = sim->model.n;
    base.nodes = sim->model.N;
    if (warm_up(o, sim, &base) < 0) {
        send_record(fd, &base);
        cloth_sim_free(&sim);
        return;
    }
    /* the warm-up's solver is not part of the measured step */
    corepcg_free(&sim->solver);
    sim->solver_ready = 0;
    malloc_trim(0);
    rc = cloth_assemble(sim, msg);
    if (rc < 0) {
        snprintf(base.error, sizeof base.error, "assembly: %s", msg);
        send_record(fd, &base);
        cloth_sim_free(&sim);
        return;
    }
    base.contacts = sim->contacts;

    for (int j = 0; j < o->num_methods; j++) {
        if (o->progress)
            fprintf(stderr, "\r\033[Kscaling %s: %s", base.label,
                    corepcg_method_name(o->methods[j]));
        scaling_record rec = base;
        rec.method = o->methods[j];
        pid_t pid = bench_fork(rec.error, sizeof rec.error);
        if (pid == 0) {
            run_method(o, sim, o->methods[j], &rec);
            send_record(fd, &rec);
            _exit(0);
        }
        int wstatus = 0;
        if (pid < 0) {
            rec.status = COREPCG_ERR_NO_MEMORY;
            send_record(fd, &rec);
            continue;
        }
        int waited = bench_wait(pid, &wstatus);
        if (waited < 0 || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
            /* it died before reporting: say how */
            if (waited < 0)
                snprintf(rec.error, sizeof rec.error, "waitpid: %s", strerror(errno));
            else if (WIFSIGNALED(wstatus))
                snprintf(rec.error, sizeof rec.error, "killed by signal %d (%s)%s",
                         WTERMSIG(wstatus), strsignal(WTERMSIG(wstatus)),
                         WTERMSIG(wstatus) == SIGKILL ? ": out of memory?" : "");
            else
                snprintf(rec.error, sizeof rec.error, "exited with status %d",
                         WEXITSTATUS(wstatus));
            rec.status = COREPCG_ERR_NO_MEMORY;
            send_record(fd, &rec);
        }
    }
    cloth_sim_free(&sim);
}

/* ------------------------------------------------------------ reports */

/* The largest true residual of the cold and the warm steps (NaN when the
 * cold step gave no answer). */
/* The larger of the cold and the warm steps' measure; NaN when a step
 * failed (fmax would drop a NaN). */
static double largest(const scaling_record *r, double cold, double warm)
{
    if (r->status < 0 || r->warm_status < 0)
        return NAN;
    return r->warm_steps > 0 ? fmax(cold, warm) : cold;
}

static double largest_residual(const scaling_record *r)
{
    return largest(r, r->rel_residual, r->warm_rel_residual);
}

static double largest_constraint_error(const scaling_record *r)
{
    return largest(r, r->constraint_error, r->warm_constraint_error);
}

/* The record's BENCH_ANSWER_*: the worst of its answers' verdicts; a
 * scene, a step or a process that failed before answering counts
 * failed. */
static int verdict_of(const scaling_record *r)
{
    if (r->method < 0 || r->status < 0 || r->warm_status < 0)
        return BENCH_ANSWER_FAILED;
    if (r->verdict != BENCH_ANSWER_OK)
        return r->verdict;
    return r->error[0] ? BENCH_ANSWER_FAILED : BENCH_ANSWER_OK;
}

static void print_header(FILE *out)
{
    fprintf(out, "| size | k_stretch | unknowns n | method | warm-up steps | contacts | cold step "
                 "(setup + solve) | analyse | factor | factor GFlop/s | iterate | iterations | "
                 "warm step (update + solve; median) | its factor | its | analysis kept | "
                 "new pattern | nnz(L) | peak memory | of which simulator | "
                 "rel. residual (largest) | status |\n"
                 "|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
                 "---:|---:|---:|---:|---:|---|\n");
}

/* What auto's warm steps ran, each method and its count joined by sep:
 * "corepcg x3, direct x7"; "" for another method. */
static void ran_text(const scaling_record *r, const char *sep, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0, m; r->method == COREPCG_METHOD_AUTO && (m = corepcg_method_at(k)) >= 0 &&
                       m < TOOL_MAX_METHODS && len < size; k++)
        if (r->ran[m] > 0)
            len += (size_t)snprintf(buf + len, size - len, "%s%s x%d", len ? sep : "",
                                    corepcg_method_name(m), r->ran[m]);
}

/* The method's name; auto's with what it ran: "auto (corepcg x3, direct
 * x7)". */
static void method_cell(const scaling_record *r, char *buf, size_t size)
{
    char ran[80];
    ran_text(r, ", ", ran, sizeof ran);
    snprintf(buf, size, ran[0] ? "%s (%s)" : "%s", corepcg_method_name(r->method), ran);
}

static void print_row(FILE *out, const scaling_record *r)
{
    if (r->method < 0) {
        fprintf(out, "| %s | %g | %d | - | %d | - | - | - | - | - | - | - | - | - | - | - | "
                     "- | - | - | - | - | **FAILED**: %s |\n", r->label, r->k, r->n,
                r->warmup_steps, r->error);
        return;
    }
    char gflops[32] = "-", warm[32] = "-", warm_its[16] = "-", warm_factor[32] = "-";
    if (r->factor_flops > 0 && r->factor_s > 0)
        snprintf(gflops, sizeof gflops, "%.1f", 1e-9 * r->factor_flops / r->factor_s);
    char kept[32] = "-", changed[16] = "-";
    if (r->warm_steps > 0 && r->warm_status >= 0) {
        snprintf(changed, sizeof changed, "%d", r->warm_pattern_changes);
        snprintf(warm, sizeof warm, "%.3f s", r->warm_s);
        snprintf(warm_its, sizeof warm_its, "%g", r->warm_iterations);
        snprintf(warm_factor, sizeof warm_factor, "%.3f s", r->warm_factor_s);
        if (r->warm_steps == 1)
            snprintf(kept, sizeof kept, "%s", r->warm_reused ? "yes" : "no");
        else
            snprintf(kept, sizeof kept, "%d of %d", r->warm_reused, r->warm_steps);
    }
    int verdict = verdict_of(r);
    char method[96];
    method_cell(r, method, sizeof method);
    fprintf(out, "| %s | %g | %d | %s | %d | %d | %.3f s | %.3f s | %.3f s | %s | %.3f s | %d | "
                 "%s | %s | %s | %s | %s | %ld | %.0f MB | %.0f MB | %.2e | %s%s |\n",
            r->label, r->k, r->n, method, r->warmup_steps,
            r->contacts, r->seconds, r->analyze_s, r->factor_s, gflops, r->iterate_s,
            r->iterations, warm, warm_factor, warm_its, kept, changed,
            r->nnz_factor, r->peak_kb / 1024.0, r->sim_kb / 1024.0,
            largest_residual(r),
            verdict == BENCH_ANSWER_FAILED ? "**FAILED**: "
            : verdict == BENCH_ANSWER_NOT_CONVERGED ? "**NOT CONVERGED**: " : "",
            verdict && r->error[0] ? r->error : corepcg_strerror(r->status));
}

static void print_table(FILE *out, const scaling_record *recs, int count)
{
    print_header(out);
    for (int i = 0; i < count; i++)
        print_row(out, &recs[i]);
}

struct scaling_report {
    const bench_options *o;
    const scaling_record *recs;
    int count;
    const bench_env *env;
    double total_s;
    const bench_stamp *start;
};

static int fill_csv(FILE *out, const void *what)
{
    const struct scaling_report *sr = what;
    fprintf(out, "scene,size,k_stretch,dt,n,method,seconds,setup_s,solve_s,iterations,"
                 "nnz_factor,peak_rss_mb,sim_rss_mb,rel_residual_max,constraint_error_max,status,"
                 "factor_gflops,warm_s,warm_iterations,warm_analysis_reused,warm_factor_s,"
                 "mesh,subdivide,nodes,warm_steps,warm_pattern_changes,model,method_ran,tol\n");
    for (int i = 0; i < sr->count; i++) {
        const scaling_record *r = &sr->recs[i];
        double gflops = r->factor_flops > 0 && r->factor_s > 0
                            ? 1e-9 * r->factor_flops / r->factor_s : NAN;
        /* status: ok, not_converged or failed, the worst of the cold
         * and warm steps' (bench_judge); rel_residual/constraint_error:
         * the largest of the cold and warm steps' (NaN when one failed) */
        /* mesh, subdivide: empty on a grid */
        char level[16] = "";
        if (r->level >= 0)
            snprintf(level, sizeof level, "%d", r->level);
        char ran[96]; /* auto's: "corepcg x3; direct x7" */
        ran_text(r, "; ", ran, sizeof ran);
        /* the string fields through bench_csv_text: a mesh's file name
         * may hold a comma */
        fprintf(out, "%s,%d,%.17g,%.6g,%d,%s,%.6e,%.6e,%.6e,%d,%ld,%.1f,%.1f,%.6e,%.6e,%s,"
                     "%.4g,%.6e,%g,%d,%.6e,",
                cloth_scene_name(r->scene), r->size, r->k, r->dt, r->n,
                r->method < 0 ? "none" : corepcg_method_name(r->method), r->seconds,
                r->setup_s, r->solve_s, r->iterations, r->nnz_factor, r->peak_kb / 1024.0,
                r->sim_kb / 1024.0, largest_residual(r), largest_constraint_error(r),
                bench_answer_name(verdict_of(r)), gflops, r->warm_s,
                r->warm_iterations, r->warm_reused, r->warm_factor_s);
        bench_csv_text(out, r->level >= 0 && sr->o->mesh_name ? sr->o->mesh_name : "");
        fprintf(out, ",%s,%d,%d,%d,%s,", level, r->nodes, r->warm_steps,
                r->warm_pattern_changes, cloth_force_model_name(r->model));
        bench_csv_text(out, ran);
        fprintf(out, ",%.6g\n", sr->o->tols[0]);
    }
    return ferror(out) ? -1 : 0;
}

static int fill_markdown(FILE *out, const void *what)
{
    const struct scaling_report *sr = what;
    fprintf(out, "# corepcg bench --scaling: %s\n\n", cloth_scene_name(sr->o->scenes[0]));
    fprintf(out, "Reproduce: `%s`\n\n", sr->o->command);
    bench_print_run_header(out, sr->env, sr->start->date, sr->total_s, sr->start->load,
                           sr->start->load1);
    fprintf(out, "- per size (on a mesh: per subdivision level, 4^K triangles): a child process "
                 "steps the scene (with upcg, on a mesh with icpcg, so that the process that "
                 "forks never runs CHOLMOD's OpenMP regions, which GNU libgomp cannot fork) until the cloth "
                 "touches an obstacle (the ball; the body proxy in garment), then each method runs in its own grandchild: one cold "
                 "corepcg_setup + corepcg_solve (tol %g) of the next step, then the %d "
                 "step%s after it warm (corepcg_update + corepcg_solve on the same handle, as every "
                 "step after a simulator's first, after one untimed update with the cold step's system, "
                 "which builds the handle's import map; the median time and iterations; \"new "
                 "pattern\": warm steps whose A's pattern changed, self-contact springs "
                 "coming or going), each timed with a monotonic clock. "
                 "rel. residual: the largest true relative residual of the cold and warm steps; "
                 "every answer is checked as in the per-step tables (an iterative method's "
                 "within %g x tol, direct's within %.2g): a row with an answer that "
                 "did not converge is marked NOT CONVERGED, one with an error or a failed "
                 "check FAILED. "
                 "GFlop/s: CHOLMOD's flop count of the cold factorisation over its time. "
                 "Peak memory = the grandchild's getrusage ru_maxrss "
                 "(simulator state inherited + the solver's peak, after the warm steps); \"of which simulator\" "
                 "is its resident size before setup.\n\n", sr->o->tols[0], sr->o->steps,
            sr->o->steps == 1 ? "" : "s", BENCH_RESIDUAL_FACTOR, BENCH_DIRECT_RESIDUAL);
    print_table(out, sr->recs, sr->count);
    return ferror(out) ? -1 : 0;
}

/* Scene entry e at size index a with k, in a child process (run_size);
 * its records read into recs (room for room), a record of its death if it
 * died. Returns how many. */
static int run_size_process(const bench_options *o, int e, int a, double k,
                            const int fds[2], scaling_record *recs, int room)
{
    int count = 0;
    char why[COREPCG_MSG_SIZE] = "";
    pid_t pid = bench_fork(why, sizeof why);
    if (pid == 0) {
        close(fds[0]);
        run_size(o, e, a, k, fds[1]);
        _exit(0);
    }
    int wstatus = 0, waited = pid > 0 ? bench_wait(pid, &wstatus) : -1;
    /* the pipe holds this size's records: read them now so that a large
     * run never fills it */
    for (;;) {
        struct timeval tv = {0, 0};
        fd_set set;
        FD_ZERO(&set);
        FD_SET(fds[0], &set);
        if (select(fds[0] + 1, &set, NULL, NULL, &tv) <= 0 || count == room)
            break;
        if (read(fds[0], &recs[count], sizeof *recs) != (ssize_t)sizeof *recs)
            break;
        count++;
    }
    if ((waited < 0 || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) && count < room) {
        scaling_record *r = &recs[count++];
        record_start(o, e, a, k, r);
        if (pid < 0)
            snprintf(r->error, sizeof r->error, "the size's process: %s", why);
        else
            snprintf(r->error, sizeof r->error, "the size's process died");
    }
    return count;
}

int bench_scaling(const bench_options *o)
{
    int fds[2];
    if (pipe(fds) != 0) {
        cli_error("bench --scaling: pipe: %s", strerror(errno));
        return CLI_EXIT_ERROR;
    }
    int capacity = 0, count = 0;
    for (int e = 0; e < o->num_scenes; e++)
        capacity += bench_scene_sizes(o, o->scenes[e]) * o->num_ks * (o->num_methods + 1);
    scaling_record *recs = calloc((size_t)capacity, sizeof *recs);
    if (!recs) {
        cli_error("bench --scaling: out of memory");
        return CLI_EXIT_ERROR;
    }
    bench_stamp start;
    bench_stamp_take(&start);
    double t0 = cpg_now();
    int printed = 0;
    printf("%s\n\n", o->command);
    print_header(stdout);
    for (int e = 0; e < o->num_scenes; e++)
        for (int a = 0; a < bench_scene_sizes(o, o->scenes[e]); a++)
            for (int b = 0; b < o->num_ks; b++) {
                count += run_size_process(o, e, a, o->ks[b], fds, recs + count,
                                          capacity - count);
                if (o->progress)
                    fputs("\r\033[K", stderr);
                /* print as we go: a long run shows its figures early */
                for (; printed < count; printed++)
                    print_row(stdout, &recs[printed]);
                fflush(stdout);
            }
    close(fds[0]);
    close(fds[1]);
    double total = cpg_now() - t0;
    printf("\ntotal %.1f s\n", total);

    bench_env env;
    bench_env_read(&env);
    struct scaling_report sr = {o, recs, count, &env, total, &start};
    int bad = (o->csv && bench_write_atomic(o->csv, &sr, fill_csv)) ||
              (o->markdown && bench_write_atomic(o->markdown, &sr, fill_markdown));
    int failed = 0;
    for (int i = 0; i < count; i++)
        failed |= verdict_of(&recs[i]) != BENCH_ANSWER_OK;
    free(recs);
    if (bad)
        return CLI_EXIT_ERROR;
    return failed ? CLI_EXIT_NOT_CONVERGED : CLI_EXIT_OK;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bench.h -- what the parts of `corepcg bench` share: the options, one
 * step's measurement of one method, a cell's summary and the whole run.
 *
 * The bench only measures: it steps the cloth simulator, hands every
 * method the same assembled system through corepcg.h and keeps the
 * numbers the library reports; its own arithmetic is statistics of those
 * numbers (median, min, max, ratios). */
#ifndef COREPCG_BENCH_H
#define COREPCG_BENCH_H

#include "bench_policy.h"
#include "cloth.h"
#include "median.h"
#include "tool_methods.h"
#include "tool_errors.h"

#include <float.h>
#include <stdio.h>
#include <sys/types.h>

#define BENCH_MAX_LIST 16      /* entries of --sizes and --k             */
#define BENCH_MAX_STEPS 100    /* --steps                                */
#define BENCH_MAX_WARMUP 100   /* steps taken at most to reach contacts  */
/* The measured steps are spread over this much simulated time after the
 * first contact: the ball pushing into the cloth, the regime Ye et al.
 * time ("while simulating a piece of cloth being hit by a sphere"). The
 * first steps after contact alone are unrepresentative: the cloth has
 * barely moved, the previous answer is a near-perfect guess, and MPCG
 * can stop in a handful of iterations. */
#define BENCH_HIT_WINDOW_S 0.2

/* The verification a cell must pass at every step. The default stopping
 * rule is on rel_residual itself (|S r| / |S b^| <= tol), so 10 x tol is
 * only a margin; under the papers' rule (r^T M^-1 r <= tol^2 b^T M^-1 b)
 * the two differ by up to sqrt(cond M). */
#define BENCH_RESIDUAL_FACTOR 10.0
#define BENCH_CONSTRAINT_TOL 1e-12
/* A method that takes no tol (direct; auto when it ran direct) is exact
 * up to round-off, and judged by that, not by a tol it never saw (at
 * --tol 1e-17 its 3e-16 had failed it). The library's round-off is 64
 * eps (src/kernels/pcg.c); the residual grows with A's condition, and the
 * shipped runs' largest is 5.3e-12 (dressed, fem, k 6000), so 1e6 x
 * round-off (1.4e-8, half of double's digits) leaves stiffer cloths room
 * and still fails a wrong factor. */
#define BENCH_ROUND_OFF (64 * DBL_EPSILON)
#define BENCH_DIRECT_RESIDUAL (1e6 * BENCH_ROUND_OFF)

typedef struct bench_options {
    int scenes[BENCH_MAX_LIST];        /* cloth_scene values             */
    int scene_models[BENCH_MAX_LIST];  /* each scene's cloth_force_model:
                                          --model LIST makes a mesh scene
                                          an entry per model, in a row  */
    int num_scenes;
    double tols[BENCH_MAX_LIST];       /* every iterative method's tol   */
    int num_tols;
    int sizes[BENCH_MAX_LIST];
    int num_sizes;
    double ks[BENCH_MAX_LIST];         /* k_stretch values               */
    int num_ks;
    int methods[TOOL_MAX_METHODS]; /* in the order given             */
    int num_methods;
    int steps;                         /* measured steps per case        */
    const char *csv, *svg, *markdown;  /* output files, or NULL          */
    int quick, scaling;
    int whole_steps;                   /* --simulations STEPS, else 0    */
    int progress;                      /* stderr is a terminal           */
    const char *command;               /* the command line, for reports  */
    const char *mesh_path;             /* the mesh scenes' mesh          */
    const char *mesh_name;             /* its file name, for reports     */
    const cloth_mesh *mesh;            /* read before the run; NULL when
                                          no scene is a mesh scene       */
    int levels[BENCH_MAX_LIST];        /* --subdivide: the mesh scenes'
                                          subdivision levels, as given   */
    int num_levels;
    int self_contact;                  /* --self-contact: 1 on, 0 off, -1
                                          the scene's default            */
    int up;                            /* --up: the mesh file's up axis
                                          (cloth_up), -1 not given (z)   */
    int models[BENCH_MAX_LIST];        /* --model: the mesh scenes'
                                          cloth_force_models            */
    int num_models;
    double bending;                    /* --bending: the FEM scenes'
                                          bending stiffness (N m), or -1:
                                          the cloth's default          */
    int num_obstacle_meshes;           /* --obstacle: every scene's mesh
                                          obstacles, z-up (read before
                                          the run)                      */
    const cloth_mesh *obstacle_meshes;
    const cloth_mesh *dressed_mesh;    /* the dressed scene's garment and */
    const cloth_mesh *dressed_body;    /* body (top.obj, body.obj), read
                                          when it runs; its obstacle     */
    long max_unknowns;                 /* --max-unknowns: --scaling on a
                                          mesh without --subdivide runs
                                          the levels 0, 1, ... whose 3 x
                                          vertices stay within it       */
} bench_options;

/* --max-unknowns' default: the issue's ~1M. */
#define BENCH_SCALING_MAX_UNKNOWNS 1000000L

/* bench_cases.c: what the options make of cases. */

/* Where a case sits in the run: its scene, model, tol, size and k. */
typedef struct bench_case_id {
    int scene;
    int model;                 /* cloth_force_model                      */
    double tol;
    int size;                  /* nodes per side; 0 on a mesh            */
    int size_index;            /* in opt->sizes, or opt->levels on a mesh */
    char label[64];            /* "41x41", or the mesh's file name and
                                  its level: "tshirt.obj --subdivide 1" */
    double k;
} bench_case_id;

/* The mesh scenes (hang, garment) run on opt->mesh at each --subdivide
 * level; every other scene on each grid size. */
int bench_is_mesh_scene(int scene);
/* Sizes a scene runs at: num_levels for a mesh scene, else num_sizes. */
int bench_scene_sizes(const bench_options *o, int scene);
/* The most sizes any scene runs at (the chart's columns). */
int bench_max_scene_sizes(const bench_options *o);
/* Cases per (scene, tol) group: the scene's sizes x num_ks. */
int bench_group_size(const bench_options *o, int scene);
/* scenes x tols x (their sizes) x ks. */
int bench_case_count(const bench_options *o);
/* Case `index` of the run, whose cases are scenes x tols x (their sizes)
 * x ks in that order: a group of sizes x ks cases per (scene, tol). Every
 * run and report takes its cases in this order. */
void bench_case_id_at(const bench_options *o, int index, bench_case_id *id);
/* The scene at size (grid) or level (mesh) index a, with k: on a mesh
 * scene opt->mesh subdivided levels[a] times, with the run's
 * --self-contact and the given cloth_force_model. OK, or an error with
 * msg and *sim NULL. */
int bench_sim_create(const bench_options *o, int scene, int model, int a, double k,
                     cloth_sim **sim, char *msg);
/* "41x41", the mesh's file name, or "tshirt.obj --subdivide 2"; with
 * " (fem)" after it for the FEM model. */
void bench_case_label(const bench_options *o, int scene, int model, int a, char *buf,
                      size_t len);
/* Vertices of opt->mesh after `levels` rounds of midpoint subdivision,
 * counted without subdividing (each round adds a vertex per edge, doubles
 * the edges and adds three per triangle, quadruples the triangles);
 * num_edges: the unsubdivided mesh's. */
long bench_subdivided_vertices(const cloth_mesh *mesh, long num_edges, int levels);
/* Index of a method in opt->methods, or -1. */
int bench_method_index(const bench_options *o, int method);

/* One method on one step's system. */
typedef struct bench_sample {
    int status;                /* of setup/update, else of solve         */
    int iterations;
    double seconds;            /* monotonic clock around update + solve  */
    double setup_s, solve_s;   /* info.time_setup_s, info.time_solve_s   */
    double reduce_s, analyze_s, factor_s, iterate_s;
    double rel_residual;       /* NAN when there was no answer           */
    double constraint_error;
    int analysis_reused;
    int fell_back;
    int method_used;           /* auto: the method it ran                */
    int auto_reason;           /* auto: why                              */
    int r;                     /* reduced unknowns                       */
    long nnz_factor;
    double factor_flops;       /* CHOLMOD's count for the factorisation  */
} bench_sample;

/* One (size, k, method): its samples and their summary. */
typedef struct bench_cell {
    int method;
    int steps;                          /* samples taken                 */
    bench_sample samples[BENCH_MAX_STEPS];
    int failed;                         /* some step failed or was wrong */
    int not_converged;                  /* the first failure is a step
                                           that did not converge: said
                                           so, not FAILED                */
    char why[COREPCG_MSG_SIZE];         /* the first failure, as text    */
    double iterations_median;
    double time_median_s, time_min_s, time_max_s;
    double rel_residual_max;            /* INFINITY when no answer       */
    double constraint_error_max;
    long nnz_factor;                    /* largest over the steps        */
    double reduce_median_s, analyze_median_s, factor_median_s,
        iterate_median_s;
    double factor_gflops_median;        /* flops / factor time per step;
                                           NAN without a factorisation   */
    int reused_steps;                   /* updates that kept the analysis */
    int fell_back_steps;
} bench_cell;

/* One (scene, tol, size, k): what it ran and its cells, one per method. */
typedef struct bench_case {
    bench_case_id id;
    double dt;
    int n;                     /* unknowns 3N                            */
    int warmup_steps;          /* steps taken before measuring           */
    int stride;                /* a measured step every stride steps     */
    int contacts_found;        /* 0: the warm-up cap came first          */
    int contacts;              /* at the first measured step             */
    int constrained;           /* constrained nodes at that step         */
    int advance_method;        /* whose answer moved the cloth           */
    int advance_substitutes;   /* steps another method's answer was used */
    char error[COREPCG_MSG_SIZE]; /* the scene could not be run          */
    bench_cell cells[TOOL_MAX_METHODS]; /* as opt.methods            */
} bench_case;

typedef struct bench_results {
    const bench_options *opt;
    int num_cases;             /* scenes x tols x sizes x ks, in that
                                  order: a group of sizes x ks cases per
                                  (scene, tol), bench_group_size() (one
                                  size on a mesh)                        */
    bench_case *cases;
    char date[64];             /* UTC, when the run started              */
    char load_start[64];       /* /proc/loadavg then: others' work skews
                                  the times on a shared machine          */
    double load1_start;
    double total_s;
} bench_results;

/* The machine the figures come from. */
typedef struct bench_env {
    char cpu[128];
    int cores;
    char blas[256];
    int blas_threads;
    char omp[128];             /* the OpenMP settings CHOLMOD runs under   */
    char load[64];             /* /proc/loadavg when read                */
    double load1;
    char blas_note[256];       /* a warning about OpenBLAS's kernels, or "" */
} bench_env;

/* bench_machine.c */
void bench_env_read(bench_env *env);
/* The report's lines about the machine (markdown), env's note included. */
void bench_print_machine(FILE *out, const bench_env *env);

/* The 1, 5 and 15 minute load averages as text ("?" when unknown); returns
 * the 1 minute one (0 when unknown). */
double bench_load_average(char *buf, size_t len);
/* The time now, UTC ("2026-12-07 10:45 UTC"): when a run started. */
void bench_date(char *buf, size_t len);
/* When a run started and the load average then. */
typedef struct bench_stamp {
    char date[64];
    char load[64];
    double load1;
} bench_stamp;
void bench_stamp_take(bench_stamp *st);
/* The 1 minute load average above which the machine counts as busy when
 * a run starts (before the bench's own work): others' work then took half
 * a core or more. */
#define BENCH_BUSY_LOAD 0.5

/* bench_fork.c: bench's child processes (see there why a process that
 * forks must not have built an Embree tree). fork() after flushing
 * stdio; -1 with why said in why when it failed. */
pid_t bench_fork(char *why, size_t len);
/* Waits for child pid (through EINTR): 0, or -1 when it cannot. */
int bench_wait(pid_t pid, int *wstatus);
/* work(arg) in a child process: 0 when it returned 0, -1 when it failed
 * (work says why), died or could not start (said on stderr, naming
 * what). For work that starts threads (an Embree tree), so that the
 * caller can still fork after it. */
int bench_apart(int (*work)(const void *), const void *arg, const char *what);

/* bench_run.c: runs every case; 0, or a negative status when a scene
 * could not be built (msg says why). */
int bench_run(const bench_options *o, bench_results *res, char *msg);

/* What every mode of the bench makes of one answer (its status,
 * iterations, rel_residual and constraint_error), by one rule: an
 * iterative method's residual within BENCH_RESIDUAL_FACTOR x tol, one
 * that takes no tol (ran: the method that answered, auto's choice) within
 * BENCH_DIRECT_RESIDUAL, the constraints within BENCH_CONSTRAINT_TOL.
 * why says what failed (message: the library's, or NULL). */
enum { BENCH_ANSWER_OK = 0, BENCH_ANSWER_NOT_CONVERGED = 1, BENCH_ANSWER_FAILED = 2 };
int bench_judge(const bench_sample *s, int ran, double tol, const char *message,
                char *why, size_t len);
/* A verdict's name in the CSVs: "ok", "not_converged" or "failed". */
const char *bench_answer_name(int verdict);
/* 1 when the run has a cell or a case that failed. */
int bench_any_failure(const bench_results *res);

/* bench_report.c */
void bench_print_table(FILE *out, const bench_results *res);
/* The lines every markdown report opens with after its command: the
 * machine, the system, the build, then the date, the run's length and
 * the load average at its start (load1_start: the 1 minute one) and end,
 * flagged busy when others' work was running as it started. */
void bench_print_run_header(FILE *out, const bench_env *env, const char *date,
                            double total_s, const char *load_start,
                            double load1_start);
/* One CSV field as RFC 4180 has it: quoted, its quotes doubled, when it
 * holds a comma, a quote or a line break (a mesh label "tshirt.obj (fem,
 * bending 0.0001)"); as it is otherwise. */
void bench_csv_text(FILE *out, const char *text);
int bench_write_csv(FILE *out, const bench_results *res);
int bench_write_markdown(FILE *out, const bench_results *res,
                         const bench_env *env);
/* Writes through fill() into a hidden temporary in PATH's directory and
 * renames it to PATH when complete (util/atomic_file.c); nothing is left
 * at PATH on failure. 0 or -1 (reported). */
int bench_write_atomic(const char *path, const void *what,
                       int (*fill)(FILE *out, const void *what));

/* bench_svg.c */
int bench_write_svg(FILE *out, const bench_results *res);

/* bench_whole.c: the --simulations run (CLI exit status). */
int bench_whole(const bench_options *o);

/* bench_scaling.c: the --scaling run (CLI exit status). */
int bench_scaling(const bench_options *o);

#endif

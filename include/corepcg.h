/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * corepcg.h -- the one public header of corepcg.
 *
 * corepcg solves the constrained SPD systems of implicit cloth simulation,
 *
 *     S A x = S b,      (I - S) x = (I - S) z,      S = blockdiag(S_i),
 *
 * by reducing them to an unconstrained SPD system U^T A U and solving that
 * with corePCG or a baseline (docs/design.md, "The methods").
 *
 * Conventions
 *   - Public symbols start with corepcg_, macros and enum values COREPCG_.
 *   - Indices are 0-based `int`. A system of N nodes has n = 3N unknowns;
 *     unknown 3i+c is coordinate c of node i.
 *   - Functions that can fail return an int status: 0 is OK, negative is an
 *     error (no usable result), positive is a warning (the result is usable
 *     but flagged, e.g. not converged). corepcg_strerror() names any code.
 *   - Inputs are const and borrowed for the duration of the call; whatever
 *     the library keeps, it copies. Outputs belong to the caller.
 *   - The library never prints, never exits and keeps no global state: two
 *     handles may be used from two threads at once.
 *   - Functions that take `char *msg` write a one-line, NUL-terminated
 *     explanation (file:line: what is wrong, for file input) into it when
 *     they fail; msg may be NULL, else it must hold COREPCG_MSG_SIZE bytes.
 */
#ifndef COREPCG_H
#define COREPCG_H

#include "corepcg_version.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(COREPCG_BUILDING) && defined(__GNUC__)
#define COREPCG_EXPORT __attribute__((visibility("default")))
#else
#define COREPCG_EXPORT
#endif

#define COREPCG_MSG_SIZE 512

/* ---------------------------------------------------------------- codes */

enum corepcg_status {
    COREPCG_OK = 0,
    /* warnings: x is usable */
    COREPCG_NOT_CONVERGED = 1,    /* tol not met: iteration limit reached,
                                     or the residual at round-off above tol;
                                     direct: an answer whose residual shows
                                     round-off lost A~ (docs/design.md) */
    COREPCG_FELL_BACK = 2,        /* core not SPD; solved by block PCG     */
    COREPCG_STOPPED = 3,          /* monitor said stop; x is that iterate */
    /* errors: no usable x */
    COREPCG_ERR_ARGUMENT = -1,    /* NULL pointer or invalid setting       */
    COREPCG_ERR_NO_MEMORY = -2,   /* an allocation failed                  */
    COREPCG_ERR_IO = -3,          /* file missing, unreadable, unwritable  */
    COREPCG_ERR_FORMAT = -4,      /* malformed file or array content       */
    COREPCG_ERR_DIMENSION = -5,   /* sizes disagree                        */
    COREPCG_ERR_NOT_FINITE = -6,  /* NaN or Inf in the input               */
    COREPCG_ERR_NOT_SYMMETRIC = -7, /* A is not symmetric to round-off     */
    COREPCG_ERR_CONSTRAINT = -8,  /* a bad constraint record               */
    COREPCG_ERR_NOT_SPD = -9,     /* A~ (or A) is not positive definite    */
    COREPCG_ERR_CORE_NOT_SPD = -10, /* the matrix core is not pos. definite */
    COREPCG_ERR_BREAKDOWN = -11,  /* CG found p^T A p <= 0                 */
    COREPCG_ERR_NAN = -12,        /* NaN or Inf appeared while iterating   */
    COREPCG_ERR_NO_CORE = -13,    /* no stretch pairs and core != auto     */
    COREPCG_ERR_STATE = -14,      /* call out of order (solve before setup) */
    COREPCG_ERR_CHOLMOD = -15,    /* CHOLMOD failed for another reason     */
    COREPCG_ERR_TOO_LARGE = -16,  /* sizes overflow the index type         */
    COREPCG_ERR_IC_BREAKDOWN = -17 /* IC not SPD even with a diagonal shift */
};

/* The version of the library the program runs with (COREPCG_VERSION is
 * that of the headers it was compiled against). Never NULL. */
COREPCG_EXPORT const char *corepcg_version(void);

/* Text for any int, unknown codes included. Never NULL. */
COREPCG_EXPORT const char *corepcg_strerror(int code);

/* -------------------------------------------------------------- choices */

typedef enum corepcg_method {
    COREPCG_METHOD_COREPCG = 0, /* PCG with the matrix core's factor       */
    COREPCG_METHOD_UPCG,        /* PCG on A~ with a cheap preconditioner    */
    COREPCG_METHOD_DIRECT,      /* CHOLMOD's Cholesky (S A S + D (I - S))   */
    COREPCG_METHOD_MPCG,        /* Ascher & Boxerman's corrected MPCG on A  */
    COREPCG_METHOD_MPCG_BW,     /* Baraff & Witkin's original MPCG on A     */
    COREPCG_METHOD_ICPCG,       /* PCG on A~, incomplete Cholesky precond   */
    COREPCG_METHOD_AUTO,        /* per step the fastest candidate measured */
    COREPCG_METHODS_NAMED       /* not a count of the methods: those added
                                   since (amgpcg) take values from here on;
                                   corepcg_method_at lists them all */
} corepcg_method;

/* Why the auto method ran the method it ran (corepcg_info.auto_reason). */
typedef enum corepcg_auto_reason {
    COREPCG_AUTO_NONE = 0,      /* not the auto method                      */
    COREPCG_AUTO_FIRST,         /* nothing measured yet: the first choice   */
    COREPCG_AUTO_FASTEST,       /* the fastest measured on earlier steps    */
    COREPCG_AUTO_PROBE,         /* a candidate never timed, tried once      */
    COREPCG_AUTO_RECHECK,       /* a slower candidate, timed again          */
    COREPCG_AUTO_FALLBACK,      /* the chosen one failed; this one ran      */
    COREPCG_AUTO_BREAKDOWN,     /* first choice broke down; successor ran   */
    COREPCG_AUTO_REASON_COUNT
} corepcg_auto_reason;

typedef enum corepcg_precond {
    COREPCG_PRECOND_DIAG = 0,   /* Jacobi (upcg: of A~; mpcg: of A)          */
    COREPCG_PRECOND_BLOCK,      /* per-node diagonal block (ndof^2 or 3x3)   */
    COREPCG_PRECOND_PROJECTED,  /* upcg only: (U_i^T P_i^-1 U_i)^-1, P=diag A */
    COREPCG_PRECOND_COUNT
} corepcg_precond;

/* When an iterative method stops (settings.stop). */
typedef enum corepcg_stop {
    COREPCG_STOP_RESIDUAL = 0,  /* |S(b - A x)| <= tol |S(b - A(I-S)z)|, the
                                   same measure for every method (default) */
    COREPCG_STOP_PRECONDITIONED, /* r^T M^-1 r <= tol^2 delta0, the papers'
                                   rule: what tol means depends on M        */
    COREPCG_STOP_COUNT
} corepcg_stop;

typedef enum corepcg_ordering {
    COREPCG_ORDERING_BEST = 0,  /* AMD and METIS; keeps the sparser factor */
    COREPCG_ORDERING_AMD,
    COREPCG_ORDERING_METIS,
    COREPCG_ORDERING_NESDIS,
    COREPCG_ORDERING_COUNT
} corepcg_ordering;

typedef enum corepcg_factor {
    COREPCG_FACTOR_LDL = 0,     /* simplicial LDL^T (Ye et al.'s choice)     */
    COREPCG_FACTOR_LL,          /* supernodal LL^T                           */
    COREPCG_FACTOR_AUTO,        /* CHOLMOD decides                           */
    COREPCG_FACTOR_COUNT
} corepcg_factor;

typedef enum corepcg_core {
    COREPCG_CORE_STRETCH = 0,   /* diagonal blocks + stretch-pair blocks     */
    COREPCG_CORE_AUTO,          /* diagonal blocks + off-diagonal blocks that
                                   pass core_threshold                      */
    COREPCG_CORE_COUNT
} corepcg_core;

/* Names used by the CLI and in info output ("corepcg", "amd", ...).
 * The *_from_name functions read a name in any case ("ICPCG" is icpcg;
 * ASCII, whatever the locale) and return -1 for an unknown name. */
COREPCG_EXPORT const char *corepcg_method_name(int method);
COREPCG_EXPORT const char *corepcg_precond_name(int precond);
COREPCG_EXPORT const char *corepcg_ordering_name(int ordering);
COREPCG_EXPORT const char *corepcg_factor_name(int factor);
COREPCG_EXPORT const char *corepcg_core_name(int core);
COREPCG_EXPORT const char *corepcg_auto_reason_name(int reason);
COREPCG_EXPORT const char *corepcg_stop_name(int stop);
COREPCG_EXPORT int corepcg_method_from_name(const char *name);
COREPCG_EXPORT int corepcg_precond_from_name(const char *name);
COREPCG_EXPORT int corepcg_ordering_from_name(const char *name);
COREPCG_EXPORT int corepcg_factor_from_name(const char *name);
COREPCG_EXPORT int corepcg_core_from_name(const char *name);
COREPCG_EXPORT int corepcg_stop_from_name(const char *name);

/* The settings more than one method reads, by number: the options of
 * corepcg_method_takes, corepcg_option_describe, _set and _get. The
 * settings one method alone reads are its own (corepcg_settings'
 * method_options): numbered from COREPCG_OPTION_COUNT to
 * corepcg_option_count() - 1 and found by name (corepcg_option_from_name). */
typedef enum corepcg_option {
    COREPCG_OPTION_TOL = 0,          /* tol (the method iterates)            */
    COREPCG_OPTION_MAX_ITER,         /* max_iter                             */
    COREPCG_OPTION_PRECOND,          /* precond                              */
    COREPCG_OPTION_ORDERING,         /* ordering (a CHOLMOD factorisation)   */
    COREPCG_OPTION_FACTOR,           /* factor                               */
    COREPCG_OPTION_STOP,             /* stop                                 */
    COREPCG_OPTION_COUNT             /* the first method's own option        */
} corepcg_option;

/* The library's one table of methods, for tools that offer every method.
 *   corepcg_method_at(k): its k-th method, k = 0, 1, ... (the constants
 *     above, then any added since, from COREPCG_METHODS_NAMED on); -1 past
 *     the last.
 *   corepcg_method_takes(method, option): 1 when the method reads that
 *     setting (auto: when a candidate does); 0 when not or out of range.
 *   corepcg_auto_candidate(k): auto's k-th candidate, in the order it
 *     tries them when nothing is measured yet; -1 past the last. */
COREPCG_EXPORT int corepcg_method_at(int k);
COREPCG_EXPORT int corepcg_method_takes(int method, int option);
COREPCG_EXPORT int corepcg_auto_candidate(int k);

/* What a method's info reports beside its iterations (flags). */
typedef enum corepcg_report {
    COREPCG_REPORT_CHOLMOD = 1,    /* a CHOLMOD factorisation: ordering,
                                      factor_supernodal, nnz_factor,
                                      factor_flops                         */
    COREPCG_REPORT_CORE = 2,       /* the matrix core: nnz_core, core_blocks */
    COREPCG_REPORT_INCOMPLETE = 4  /* an incomplete factor: ic_fill,
                                      ic_shift, ic_retries, ic_compensation,
                                      nnz_factor                           */
} corepcg_report;

/* corepcg_method_reports(method): the corepcg_report flags of the info
 * fields the method fills (auto: none of its own, those of method_used);
 * 0 for a value that is not a method. */
COREPCG_EXPORT int corepcg_method_reports(int method);

/* ------------------------------------------------------------- settings */

/* Defaults (corepcg_settings_default fills these in). */
#define COREPCG_DEFAULT_TOL 1e-5
#define COREPCG_DEFAULT_MAX_ITER 10000
#define COREPCG_DEFAULT_CORE_THRESHOLD 1e-2

/* A monitor (settings.monitor, corepcg_set_monitor): called by the
 * iterative methods after each iteration, iteration = 1, 2, ... (k calls
 * for k iterations; none from direct or a solve of 0 iterations; auto's
 * fallback numbers again from 1). residual is what the stopping rule
 * compares with tol (RESIDUAL: |r| / |S(b - A(I-S)z)|; PRECONDITIONED:
 * sqrt(r^T M^-1 r / delta0)). Non-zero stops the solve after this
 * iteration with COREPCG_STOPPED: x is written, holds the constraints and
 * is this iteration's answer. Runs on the thread of corepcg_solve; must
 * not call the library on this handle: setup, update, solve and
 * set_monitor on it then return ERR_STATE and change nothing (the
 * message stays the running solve's), and corepcg_free leaves it be.
 * (docs/design.md, "Stopping") */
typedef int (*corepcg_monitor)(int iteration, double residual, void *user);

/* Room for the methods' own settings (settings.method_options). */
#define COREPCG_METHOD_OPTION_SLOTS 8

/* Every field but the method and the monitor is an option: its range, its
 * default and why, and the methods that read it come from
 * corepcg_option_describe and corepcg_method_takes. */
typedef struct corepcg_settings {
    corepcg_method method;     /* default COREPCG_METHOD_AUTO                */
    double tol;                /* iterative methods' tolerance, in [1e-300,
                                  0.999999]; COREPCG_DEFAULT_TOL           */
    int max_iter;              /* reaching it gives NOT_CONVERGED            */
    corepcg_precond precond;   /* default DIAG                               */
    corepcg_ordering ordering; /* default NESDIS                             */
    corepcg_factor factor;     /* default AUTO                               */
    corepcg_stop stop;         /* stopping rule; default RESIDUAL            */
    double method_options[COREPCG_METHOD_OPTION_SLOTS];
                               /* a method's own settings, by name with
                                  corepcg_option_set, _get (layout private) */
    corepcg_monitor monitor;   /* iterative methods: called after each
                                  iteration (corepcg_monitor); default NULL */
    void *monitor_user;        /* handed to monitor as user              */
} corepcg_settings;

COREPCG_EXPORT void corepcg_settings_default(corepcg_settings *s);

/* How a setting's value is given (corepcg_option_info.type). */
typedef enum corepcg_value_type {
    COREPCG_VALUE_REAL = 0,    /* a double in [min, max]                    */
    COREPCG_VALUE_INT,         /* an int in [min, max]                      */
    COREPCG_VALUE_CHOICE,      /* an enum, 0 .. max, each value named
                                  (corepcg_option_value_name)               */
    COREPCG_VALUE_SWITCH       /* 0 or 1; the CLI spells 1 as --STEM WORD
                                  for the setting STEM_WORD                 */
} corepcg_value_type;

/* One setting described once, for tools that offer the settings (the
 * CLI's options, Python's keywords, the docs' table), which read it with
 * corepcg_option_describe instead of keeping a copy. The methods that
 * take it: corepcg_method_takes. */
typedef struct corepcg_option_info {
    const char *name;          /* corepcg_settings' field or a method's
                                  own; Python's keyword ("core_threshold") */
    const char *flag;          /* the CLI's option ("--core-threshold")   */
    int type;                  /* corepcg_value_type                        */
    double min, max;           /* the values tools accept; the library
                                  refuses those past a bound it has        */
    double default_value;      /* what corepcg_settings_default sets       */
    const char *family;        /* the option it is read with, by name
                                  (max_iter: tol); NULL: itself            */
    const char *needs;         /* read only while the option of this name
                                  has needs_value (core_threshold: core
                                  auto), else refused; NULL: always read   */
    int needs_value;
    const char *help;          /* one line: what it does                   */
} corepcg_option_info;

/* Options are numbered 0 .. corepcg_option_count() - 1: the corepcg_option
 * values, then each method's own in the table of methods' order.
 *   corepcg_option_describe(option): NULL for any other number;
 *   corepcg_option_from_name(name): any case ("ic_fill"), -1 for none. */
COREPCG_EXPORT int corepcg_option_count(void);
COREPCG_EXPORT int corepcg_option_from_name(const char *name);
COREPCG_EXPORT const corepcg_option_info *corepcg_option_describe(int option);
/* A CHOICE option's value's name (NULL: out of range, or no CHOICE) and
 * a name's value (-1: unknown). */
COREPCG_EXPORT const char *corepcg_option_value_name(int option, int value);
COREPCG_EXPORT int corepcg_option_value_from_name(int option, const char *name);
/* The method that alone takes this value of a CHOICE option (precond
 * projected: upcg), with why the others do not (when why is not NULL);
 * -1 when each method that takes option takes the value. corepcg_setup
 * refuses the value for any other method. */
COREPCG_EXPORT int corepcg_option_value_method(int option, int value, const char **why);
/* Which settings go with s's method: the one rule that setup applies to
 * each option that differs from its default (given NULL: none is ignored
 * silently) and the CLI and Python to those given (given[option] != 0).
 * Returns the first refusal in this order, *option (may be NULL) its
 * option, msg why, naming the methods that take it; NONE: none. */
typedef enum corepcg_refusal {
    COREPCG_REFUSAL_NONE = 0,
    COREPCG_REFUSAL_METHOD,    /* a given option the method does not read */
    COREPCG_REFUSAL_VALUE,     /* any option's value another method alone
                                  takes (corepcg_option_value_method)      */
    COREPCG_REFUSAL_NEEDS      /* a given option whose needs s does not
                                  meet (corepcg_option_info.needs)         */
} corepcg_refusal;
COREPCG_EXPORT int corepcg_settings_refusal(const corepcg_settings *s,
                                            const unsigned char *given,
                                            int *option, char *msg);
/* Every option s's method would not read put back to its default, for
 * one set of settings kept for several methods: setup then refuses none. */
COREPCG_EXPORT void corepcg_settings_for_method(corepcg_settings *s);
/* A setting of s by option number, the way to set a method's own, e.g.
 * corepcg_option_set(&s, corepcg_option_from_name("ic_fill"), 1).
 * _set stores value (setup checks the range) and returns OK, or
 * ERR_ARGUMENT with s unchanged for a NULL s, an unknown option or, for a
 * non-REAL option, a value no int holds exactly (NaN included); _get
 * returns it as a double (NaN for a NULL s or an unknown option). */
COREPCG_EXPORT int corepcg_option_set(corepcg_settings *s, int option, double value);
COREPCG_EXPORT double corepcg_option_get(const corepcg_settings *s, int option);

/* --------------------------------------------------------------- system */

/* How A is handed over. Either format: entries in any order (CSC rows
 * unsorted too); an entry given twice or more is the sum of its values;
 * explicit zeros belong to the pattern; every diagonal a_kk must be given,
 * even a fixed node's (else ERR_FORMAT); entries of the declared triangle
 * only (docs/design.md, "The import"). */
typedef enum corepcg_format {
    COREPCG_CSC = 0,           /* A_colptr (n+1), A_rowidx, A_values         */
    COREPCG_TRIPLET            /* A_nnz entries of A_rowidx, A_colidx, A_values */
} corepcg_format;

typedef enum corepcg_triangle {
    COREPCG_LOWER = 0,         /* only entries with row >= col are given     */
    COREPCG_UPPER,             /* only entries with row <= col are given     */
    COREPCG_BOTH               /* the whole matrix, symmetric to round-off   */
} corepcg_triangle;

/* One constrained node, listed at most once. ndof = free directions left:
 * 2 = in the plane with normal p; 1 = on the line orthogonal to p and q;
 * 0 = fixed; 3 = free, as if not listed (docs/format.md, "4. constraints.txt").
 * p, q (ignored for 0 and 3) need not be unit; for ndof 1, |p.q| <= 1e-6
 * after normalising, and q is then made exactly orthogonal. */
typedef struct corepcg_constraint {
    int node;
    int ndof;
    double p[3];
    double q[3];
} corepcg_constraint;

/* A constrained system as plain arrays (all borrowed). */
typedef struct corepcg_system {
    int num_nodes;             /* N >= 1; n = 3N                            */
    corepcg_format A_format;
    corepcg_triangle A_triangle;
    const int *A_colptr;       /* CSC: n+1 column pointers                  */
    const int *A_rowidx;       /* CSC: colptr[n]; TRIPLET: A_nnz            */
    const int *A_colidx;       /* TRIPLET only: A_nnz                       */
    const double *A_values;    /* as A_rowidx                               */
    int A_nnz;                 /* TRIPLET only                              */
    int num_constraints;
    const corepcg_constraint *constraints; /* may be NULL if none           */
    const double *z;           /* n prescribed values, or NULL for zero     */
    int num_stretch;           /* stretch springs (the matrix core)         */
    const int *stretch_pairs;  /* 2*num_stretch node indices: i0 j0 i1 j1..
                                  a set (order, repeats do not matter); a
                                  pair A does not couple adds nothing
                                  (docs/design.md, "The import")          */
} corepcg_system;

/* ----------------------------------------------------------------- info */

/* The fields one method alone fills (fell_back, nnz_core, nnz_factor,
 * core_blocks, core_compensated, ordering, factor_supernodal, ic_*,
 * factor_flops) are kept for compatibility: each is also a report item
 * (corepcg_info_describe, _get), the way a method reports anything new. */
typedef struct corepcg_info {
    int status;                /* the code the call returned                */
    corepcg_method method;     /* the method asked for (settings.method)    */
    corepcg_method method_used; /* the method that ran (auto: its choice) */
    corepcg_auto_reason auto_reason; /* auto: why method_used; else NONE    */
    int n;                     /* unknowns of the full system (3N)          */
    int r;                     /* unknowns of the reduced system            */
    int iterations;            /* 0 for direct                              */
    int converged;             /* 1 when the stopping rule was met          */
    int fell_back;             /* 1: corepcg used upcg's block precond  */
    double rel_residual;       /* |S(b - A x)| / |S(b - A(I-S)z)|           */
    double constraint_error;   /* max |(I - S)(x - z)|                      */
    long nnz_reduced;          /* stored entries of A~ (one triangle)       */
    long nnz_core;             /* stored entries of the projected core
                                  S C S + D (I - S) (lower triangle)    */
    long nnz_factor;           /* entries of L (CHOLMOD-backed methods)     */
    long core_blocks;          /* off-diagonal node blocks kept in the core */
    int core_compensated;      /* corepcg: 1 when the plain core was not SPD
                                  and the compensated one was factorised  */
    corepcg_ordering ordering; /* ordering CHOLMOD actually used            */
    int factor_supernodal;     /* 1 when the factor is supernodal LL^T      */
    int analysis_reused;       /* 1: last setup/update reused the analysis */
    int ic_fill;               /* icpcg: the fill level of its factor       */
    double ic_shift;           /* icpcg: alpha of the Manteuffel shift
                                  A~ + alpha diag(A~) it needed (0: none)  */
    int ic_retries;            /* icpcg: factorisations that broke down
                                  before the one kept                       */
    double ic_compensation;    /* icpcg: tr R / tr A~ of the dropped fill R
                                  moved onto its pivots (0: none)          */
    double time_reduce_s;      /* build U, A~ (and core) at setup/update    */
    double time_analyze_s;     /* CHOLMOD analyse (0 when reused)           */
    double time_factor_s;      /* numeric factorisation (CHOLMOD or icpcg) */
    double factor_flops;       /* CHOLMOD's flop count of the factorisation */
    double time_setup_s;       /* whole of the last setup or update         */
    double time_iterate_s;     /* PCG loop (or the direct solve)            */
    double time_solve_s;       /* whole of this solve call                  */
    double time_total_s;       /* setup/update + solve                      */
} corepcg_info;

/* What a method reports beside the fields above, described once beside
 * its operations, as its own settings are: numbered 0 ..
 * corepcg_info_count() - 1 over the table of methods (a name may recur:
 * nnz_factor is corepcg's, direct's and icpcg's). auto declares none: a
 * solve by auto reports the items of the method it ran. */
typedef struct corepcg_info_item {
    const char *name;          /* the key ("ic_shift"; a kept corepcg_info
                                  field's name where there is one)         */
    int type;                  /* corepcg_value_type: REAL, INT, CHOICE
                                  (corepcg_info_value_name), SWITCH (bool)  */
    const char *unit;          /* "" for none                              */
    const char *help;          /* one line: what it measures               */
} corepcg_info_item;

/* corepcg_info_describe(k): item k, NULL for any other number.
 * corepcg_info_method(k): the method that reports item k (the table of
 * methods' row that declares it), -1 for any other number.
 * corepcg_info_value_name(k, value): a CHOICE item's value by name, NULL
 * for a value out of range or an item that is no CHOICE. */
COREPCG_EXPORT int corepcg_info_count(void);
COREPCG_EXPORT const corepcg_info_item *corepcg_info_describe(int k);
COREPCG_EXPORT int corepcg_info_method(int k);
COREPCG_EXPORT const char *corepcg_info_value_name(int k, int value);

/* --------------------------------------------------------------- solver */

typedef struct corepcg_solver corepcg_solver; /* opaque */

/* An empty handle into *out (NULL on failure).
 * Returns OK, ERR_ARGUMENT (out is NULL), ERR_NO_MEMORY. */
COREPCG_EXPORT int corepcg_create(corepcg_solver **out);

/* Builds everything for this system: U blocks, A~, the core and its
 * factorisation (or what the chosen method needs). settings may be NULL
 * (defaults). On failure the handle is left empty and corepcg_message()
 * says why; unless a setting was refused, the settings stay in force and
 * corepcg_update sets its system up with them.
 * Returns OK; ERR_ARGUMENT (NULL h or sys, NULL arrays, a setting out of
 * range); ERR_FORMAT (malformed colptr, an entry outside the declared
 * triangle, a diagonal entry left out, a node joined to itself);
 * ERR_DIMENSION (an index out of range); ERR_NOT_FINITE; ERR_NOT_SYMMETRIC
 * (BOTH given but not symmetric to 1e-12 max|A|); ERR_CONSTRAINT (a bad
 * record); ERR_NOT_SPD (direct: A~ is not positive definite; any method: a
 * node's diagonal block on its free directions, U^T A_ii U, is not);
 * ERR_CORE_NOT_SPD (corepcg without fallback); ERR_NO_CORE (corepcg, core
 * stretch, no stretch pairs); ERR_NO_MEMORY; ERR_TOO_LARGE; ERR_CHOLMOD.
 * With fallback_upcg a core that is not SPD gives OK here and FELL_BACK
 * from every solve. */
COREPCG_EXPORT int corepcg_setup(corepcg_solver *h, const corepcg_system *sys,
                                 const corepcg_settings *settings);

/* The next step's system. When what the method analysed is unchanged
 * (compared by content, never by pointer or count), only the numbers are
 * recomputed and the analysis is reused (info.analysis_reused = 1); else
 * it is a full setup (docs/design.md, "Each method owns its state").
 * info (may be NULL) gets status, analysis_reused and the setup times.
 * Returns setup's codes, and ERR_STATE on a handle no setup has accepted
 * settings for. If the new system cannot be read (its arrays, constraints
 * or stretch pairs malformed or not finite, or a diagonal block not
 * positive definite), the previous one stays set up; if it is read but
 * the method cannot set it up (ERR_NO_CORE: no stretch pairs for corepcg's
 * core; a factorisation that fails: ERR_NOT_SPD, ERR_CORE_NOT_SPD,
 * ERR_NO_MEMORY, ERR_CHOLMOD), the handle is left empty (solve:
 * ERR_STATE) and the next update is a full setup of its system with the
 * settings in force, so a simulation's next step recovers. */
COREPCG_EXPORT int corepcg_update(corepcg_solver *h, const corepcg_system *sys,
                                  corepcg_info *info);

/* 1 when h holds a system that solve can run on; 0 for NULL, a new
 * handle, and one a failed setup or update left empty (a failed update
 * whose system could not be read keeps the previous one: 1). */
COREPCG_EXPORT int corepcg_ready(const corepcg_solver *h);

/* Solves with right-hand side b (n), initial guess x0 (n, or NULL for
 * zero: it is the unconstrained guess y of Ascher & Boxerman), into x (n).
 * info may be NULL; its status is the code returned. Allocates nothing.
 * May be called any number of times after setup/update.
 * Returns OK; the warnings NOT_CONVERGED (max_iter reached; the residual
 * at round-off above tol; the answer's residual from b, info.rel_residual,
 * above tol though the method's own measure met it; direct: an answer
 * whose residual shows round-off lost A~), FELL_BACK and
 * STOPPED (the monitor asked to stop) (x written); or, x untouched:
 * ERR_ARGUMENT, ERR_STATE (no system set up, or called from this handle's
 * own monitor), ERR_NOT_FINITE (b or x0),
 * ERR_BREAKDOWN (p^T A p <= 0: A~ is not positive definite), ERR_NAN (NaN
 * or Inf while iterating, or an answer whose residual overflows),
 * ERR_NO_MEMORY / ERR_CHOLMOD (a failed factor solve). */
COREPCG_EXPORT int corepcg_solve(corepcg_solver *h, const double *b,
                                 const double *x0, double *x,
                                 corepcg_info *info);

/* Replaces the monitor in force (NULL: none) for the solves that follow,
 * without a new setup (a per-call callback, a log of one step).
 * corepcg_update keeps it; the next corepcg_setup puts back its settings'
 * own. Returns OK, ERR_ARGUMENT (h is NULL), or ERR_STATE (called from
 * this handle's own monitor: nothing changed). */
COREPCG_EXPORT int corepcg_set_monitor(corepcg_solver *h,
                                       corepcg_monitor monitor, void *user);

/* The detail of the last failure on this handle ("" if none). */
COREPCG_EXPORT const char *corepcg_message(const corepcg_solver *h);

/* *value = item k of the last solve on h (after a setup or an update
 * not yet solved, of that setup's record). Returns OK; ERR_ARGUMENT (h
 * or value NULL, k no item); ERR_STATE (*value = 0: nothing set up, or
 * the method that ran -- auto's choice -- does not report item k). */
COREPCG_EXPORT int corepcg_info_get(const corepcg_solver *h, int k,
                                    double *value);

/* Frees the handle and sets *h to NULL; safe on NULL and on *h == NULL,
 * so a second call does nothing. From the handle's own monitor it does
 * nothing (the solve goes on with it). */
COREPCG_EXPORT void corepcg_free(corepcg_solver **h);

/* ---------------------------------------------------------------- check */

/* docs/format.md's measures of an answer x (n) of sys with right-hand side b:
 * constraint error max |(I - S)(x - z)| and relative residual
 * |S(b - A x)|_2 / |S(b - A(I - S)z)|_2 (with a zero denominator the
 * residual norm itself is reported).
 * Returns OK; setup's codes for a bad system; ERR_NOT_FINITE (b, x or z);
 * ERR_NAN (finite inputs but A x overflows: the measures are NaN). */
COREPCG_EXPORT int corepcg_check(const corepcg_system *sys, const double *b,
                                 const double *x, double *constraint_error,
                                 double *rel_residual, char *msg);

/* out (3 num_nodes) = S v, the constraints' filter (S_i = U_i U_i^T,
 * docs/format.md section 5) the solvers use; out may be v. The records
 * are checked as by corepcg_setup.
 * Returns OK; ERR_ARGUMENT (v or out NULL, num_nodes < 1, a negative
 * count or NULL records with a positive count); ERR_TOO_LARGE (3 num_nodes
 * overflows int); ERR_NOT_FINITE (v, a record's p or q); ERR_CONSTRAINT
 * (a bad record);
 * ERR_NO_MEMORY. out is untouched on failure. */
COREPCG_EXPORT int corepcg_filter(int num_nodes, int num_constraints,
                                  const corepcg_constraint *constraints,
                                  const double *v, double *out, char *msg);

/* --------------------------------------------------------------- bundle */

/* A bundle read from disk (docs/format.md); every array is owned by it. */
typedef struct corepcg_bundle {
    corepcg_system system;     /* ready for corepcg_setup: A is CSC LOWER   */
    const double *b;           /* n                                         */
    const double *x0;          /* n, or NULL when x0.mtx is absent          */
    int A_general;             /* 1 when A.mtx was stored `general`         */
    long A_file_entries;       /* entries stored in A.mtx                   */
    int has_z, has_constraints, has_stretch;
} corepcg_bundle;

/* Reads DIR/A.mtx, b.mtx and the optional z.mtx, constraints.txt,
 * stretch.mtx, x0.mtx; validates everything docs/format.md requires.
 * Returns OK; ERR_IO (missing or unreadable file); ERR_FORMAT (malformed
 * content, with file:line); ERR_DIMENSION; ERR_NOT_FINITE;
 * ERR_NOT_SYMMETRIC; ERR_CONSTRAINT (constraints.txt, with file:line);
 * ERR_FORMAT too for a diagonal entry missing, ERR_NOT_SPD for one <= 0;
 * ERR_TOO_LARGE (absurd header sizes, refused before allocating);
 * ERR_NO_MEMORY. *out is NULL on failure. */
COREPCG_EXPORT int corepcg_bundle_read(const char *dir, corepcg_bundle **out,
                                       char *msg);
COREPCG_EXPORT void corepcg_bundle_free(corepcg_bundle **bundle);

/* Writes a bundle into DIR (created if missing): A.mtx (symmetric, lower),
 * b.mtx, and z.mtx, constraints.txt, stretch.mtx, x0.mtx when the system
 * has them (x0 may be NULL); removes optional files it does not write.
 * All or nothing (docs/format.md, "9.4 All or nothing").
 * Returns OK, setup's codes for a bad system (it runs the same checks),
 * ERR_NOT_FINITE (|v| >= 1e308 too, which Matrix Market cannot carry),
 * ERR_FORMAT (a diagonal entry missing), ERR_NOT_SPD (one <= 0),
 * ERR_NO_MEMORY, ERR_IO. */
COREPCG_EXPORT int corepcg_bundle_write(const char *dir,
                                        const corepcg_system *sys,
                                        const double *b, const double *x0,
                                        char *msg);

/* Reads an n x 1 real `array` Matrix Market vector. *out is malloc'd.
 * Returns OK or the codes of corepcg_bundle_read. */
COREPCG_EXPORT int corepcg_vector_read(const char *path, int n, double **out,
                                       char *msg);

/* Writes an n x 1 real `array` Matrix Market vector, atomically (a
 * temporary name renamed when complete; an existing file is replaced only
 * on success). Returns OK, ERR_ARGUMENT, ERR_NOT_FINITE, ERR_IO. */
COREPCG_EXPORT int corepcg_vector_write(const char *path, int n,
                                        const double *x, char *msg);

#ifdef __cplusplus
}
#endif

#endif /* COREPCG_H */

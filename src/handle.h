/* handle.h -- the layout of the solver handle, shared by solver.c (the
 * lifecycle: import, setup, update, solve, free) and the method files
 * (mpcg.c, upcg.c, direct.c, corepcg.c: what each method builds and how it
 * solves), which plug in through one table of operations, as OSQP's
 * linear-system back ends do. Not installed. */
#ifndef COREPCG_HANDLE_H
#define COREPCG_HANDLE_H

#include "internal.h"

typedef struct cpg_method_ops cpg_method_ops;

struct corepcg_solver {
    cholmod_common cm;
    int cm_started;
    char msg[COREPCG_MSG_SIZE];
    corepcg_settings set;
    const cpg_method_ops *ops;
    int ready;              /* a system is set up */

    /* the full system */
    cpg_bmat A;
    cpg_ublocks u;
    double *z;              /* n: prescribed values (zeros when none) */
    double *w;              /* n: (I - S) z */

    /* what the methods build; each uses its own part */
    cpg_rmat Ar;            /* A~ by blocks: upcg, corepcg (PCG products) */
    cholmod_sparse *At;     /* A~ in CSC, lower triangle: direct */
    unsigned char *keep;    /* corepcg: the blocks of A in the core */
    cpg_bmat Acore;         /* corepcg: those blocks */
    cholmod_sparse *Ct;     /* corepcg: the reduced core, lower triangle */
    long core_blocks;
    cpg_factor fac;         /* direct: of A~; corepcg: of the core */
    cpg_precond pc;         /* upcg, mpcg, and corepcg's fallback */
    int fell_back;

    /* solve buffers, allocated at setup so that solve allocates nothing */
    cpg_pcg_work work;
    double *bt, *xt;        /* r: reduced right-hand side and answer */
    double *xfull;          /* n: the answer before it is handed out */
    double *tmp, *tmp2;     /* n each */

    corepcg_info setup_info; /* what the last setup/update measured */
};

struct cpg_method_ops {
    int reduced;            /* 1: solves A~ (else the full A with S) */
    /* Pattern-dependent work (after import): reduced pattern, core,
     * analysis, buffers. Records time_reduce_s and time_analyze_s. */
    int (*structure)(corepcg_solver *h, const corepcg_system *sys);
    /* Whether what structure built still holds for sys, whose A (newA)
     * has the current block pattern and whose nodes keep their ndof. NULL
     * when A's pattern and the ndof are all that matter. */
    int (*keeps_structure)(corepcg_solver *h, const corepcg_system *sys,
                           const cpg_bmat *newA);
    /* Value-dependent work: A~ and core values (fresh = 0: the structure
     * is kept from an earlier system), factorisation, preconditioner.
     * Records time_factor_s (and time_reduce_s when not fresh). */
    int (*numbers)(corepcg_solver *h, int fresh);
    /* The answer into h->xfull from b and the guess y (NULL: zero). */
    int (*solve)(corepcg_solver *h, const double *b, const double *y,
                 int *iterations);
};

extern const cpg_method_ops cpg_mpcg_ops;    /* mpcg and mpcg-bw */
extern const cpg_method_ops cpg_upcg_ops;
extern const cpg_method_ops cpg_direct_ops;
extern const cpg_method_ops cpg_corepcg_ops;

/* ------------------------------------------ shared by the methods */

int cpg_handle_no_memory(corepcg_solver *h);

/* 1 when every entry of v (n) is zero: a right-hand side whose answer is
 * zero, which PCG would otherwise chase to underflow. */
int cpg_all_zero(const double *v, int n);

/* The PCG work of length len and the solve buffers. */
int cpg_handle_buffers(corepcg_solver *h, int len);

/* h->bt = U^T (b - A (I - S) z). Returns 1 when the reduced answer is
 * trivially zero (no free unknowns, or b~ = 0), having set h->xt = 0. */
int cpg_handle_reduced_rhs(corepcg_solver *h, const double *b);

/* PCG on A~ (Ye et al.'s uPCG) from x~0 = U^T y, with the given
 * preconditioner, into h->xt. */
int cpg_handle_reduced_pcg(corepcg_solver *h, cpg_precond_fn precond,
                           void *precond_ctx, const double *y,
                           int *iterations);

/* h->xfull = U h->xt + (I - S) z. */
void cpg_handle_prolong(corepcg_solver *h);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* handle.h -- the layout of the solver handle; only solver.c (the
 * lifecycle) sees it. The method's own state is opaque here: methods plug
 * in through method.h and never see the handle. Not installed. */
#ifndef COREPCG_HANDLE_H
#define COREPCG_HANDLE_H

#include "method.h"

/* No CHOLMOD common: an import that needs CHOLMOD starts its own for the
 * call (system.h), and the methods that factorise own theirs. */
struct corepcg_solver {
    char msg[COREPCG_MSG_SIZE];
    corepcg_settings set;
    const cpg_method_ops *ops;
    const cpg_vec_ops *vec;  /* NULL: the methods' vector work on the
                                CPU (cpg_backend); another only through
                                the tests' hook */
    void *state;             /* the method's: ops->state_size bytes */
    int ready;               /* a system is set up */
    int configured;          /* a setup accepted set: an update of an
                                empty handle sets up anew with it */
    int solving;             /* inside a solve: a call from its monitor
                                that would change the handle is refused */
    cpg_sys sys;             /* the system set up (the methods borrow it) */
    cpg_bmat spare_A;        /* the previous step's A arrays, reused by the
                                next import of the same pattern */
    double *x;               /* n: the answer before it is handed out */
    double *check_work;      /* 2n: the measures of the answer */
    corepcg_info setup_info; /* what the last setup/update measured */
    corepcg_info last_info;  /* the last solve's record (or, until one,
                                setup_info): corepcg_info_get reads it */
};

#ifdef COREPCG_TEST_BUILD
/* The tests' hook (not in the shipped library): the methods' vector work
 * on vec from the next setup on; drops what the handle had set up. */
void cpg_solver_use_vec(corepcg_solver *h, const cpg_vec_ops *vec);
/* The blocks the handle's spare A arrays hold, which the next update's
 * import fills instead of fresh memory (0: none). */
long cpg_solver_spare_blocks(const corepcg_solver *h);
/* The method's own state on h (NULL before a setup). */
const void *cpg_solver_method_state(const corepcg_solver *h);
#endif

#endif

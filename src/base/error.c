/* SPDX-License-Identifier: GPL-2.0-or-later */
/* error.c -- the table of status texts (the message helper, cpg_fail, is
 * util/message.c). */
#include "base.h"

#include <stdio.h>

struct code_text {
    int code;
    const char *text;
};

static const struct code_text code_texts[] = {
    {COREPCG_OK, "ok"},
    {COREPCG_NOT_CONVERGED, "not converged (max_iter reached, or the residual stopped at round-off above tol)"},
    {COREPCG_FELL_BACK, "core not positive definite; solved by block-preconditioned PCG instead"},
    {COREPCG_STOPPED, "stopped by the monitor"},
    {COREPCG_ERR_ARGUMENT, "invalid argument"},
    {COREPCG_ERR_NO_MEMORY, "out of memory"},
    {COREPCG_ERR_IO, "input/output error"},
    {COREPCG_ERR_FORMAT, "malformed input"},
    {COREPCG_ERR_DIMENSION, "dimensions disagree"},
    {COREPCG_ERR_NOT_FINITE, "NaN or Inf in the input"},
    {COREPCG_ERR_NOT_SYMMETRIC, "matrix is not symmetric"},
    {COREPCG_ERR_CONSTRAINT, "invalid constraint"},
    {COREPCG_ERR_NOT_SPD, "matrix is not positive definite"},
    {COREPCG_ERR_CORE_NOT_SPD, "matrix core is not positive definite"},
    {COREPCG_ERR_BREAKDOWN, "conjugate gradient breakdown (p^T A p <= 0)"},
    {COREPCG_ERR_NAN, "NaN or Inf appeared during the iteration"},
    {COREPCG_ERR_NO_CORE, "no stretch pairs to build the matrix core from"},
    {COREPCG_ERR_STATE, "call out of order (no system set up)"},
    {COREPCG_ERR_CHOLMOD, "CHOLMOD failed"},
    {COREPCG_ERR_TOO_LARGE, "problem too large for the index type"},
    {COREPCG_ERR_IC_BREAKDOWN, "incomplete Cholesky broke down even with a diagonal shift"},
};

const char *corepcg_strerror(int code)
{
    /* A search, not an index: codes are negative and sparse. */
    for (size_t k = 0; k < sizeof code_texts / sizeof code_texts[0]; k++)
        if (code_texts[k].code == code)
            return code_texts[k].text;
    return code < 0 ? "unknown error" : "unknown warning";
}

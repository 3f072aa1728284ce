/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bundle_A.c -- the rules A obeys in a bundle, one implementation for the
 * reader (after CHOLMOD read A.mtx) and the writer (after the library's
 * import accepted the caller's A): values a Matrix Market round trip
 * keeps, symmetry when both triangles are stored, a positive diagonal,
 * and the stored form, the sorted lower triangle. */
#include "bundle_io.h"
#include "cholmod_quiet.h"
#include "system.h" /* cpg_symmetry_check */

#include <stdio.h>

int cpg_cholmod_failure(const char *what, cholmod_common *cm, char *msg)
{
    int code = cpg_cholmod_code(cm);
    if (code == COREPCG_OK)
        code = COREPCG_ERR_CHOLMOD;
    return cpg_fail(msg, code, "%s: CHOLMOD failed (status %d)", what,
                    cm->status);
}

/* Every stored value survives being written and read back. */
static int check_storable(const cholmod_sparse *A, const char *name,
                          int base, char *msg)
{
    const int *Ap = A->p, *Ai = A->i, *Anz = A->nz;
    const double *Ax = A->x;
    for (size_t j = 0; j < A->ncol; j++) {
        int end = A->packed ? Ap[j + 1] : Ap[j] + Anz[j];
        for (int k = Ap[j]; k < end; k++)
            if (!cpg_mm_storable(Ax[k]))
                return cpg_fail(msg, COREPCG_ERR_NOT_FINITE,
                                "%s: A(%d,%d) = %g is not finite%s", name,
                                Ai[k] + base, (int)j + base, Ax[k],
                                isfinite(Ax[k]) ? CPG_MM_HUGE_NOTE : "");
    }
    return COREPCG_OK;
}

/* In a sorted lower triangle the diagonal entry leads each column. */
static int check_diagonal(const cholmod_sparse *L, const char *name,
                          int base, char *msg)
{
    const int *Lp = L->p, *Li = L->i;
    const double *Lx = L->x;
    for (size_t j = 0; j < L->ncol; j++) {
        int k = Lp[j], d = (int)j + base;
        if (k == Lp[j + 1] || Li[k] != (int)j) /* as the array import */
            return cpg_fail(msg, COREPCG_ERR_FORMAT,
                            "%s: diagonal entry A(%d,%d) is missing: every "
                            "diagonal entry must be stored", name, d, d);
        if (!(Lx[k] > 0))
            return cpg_fail(msg, COREPCG_ERR_NOT_SPD,
                            "%s: diagonal entry A(%d,%d) = %.17g is not "
                            "positive: A is not positive definite", name, d,
                            d, Lx[k]);
    }
    return COREPCG_OK;
}

int cpg_bundle_A_check_read(cholmod_sparse *L, const char *name,
                            cholmod_common *cm, char *msg)
{
    const double *Lx = L->x;
    size_t nnz = (size_t)((const int *)L->p)[L->ncol];
    for (size_t k = 0; k < nnz; k++)
        if (!cpg_mm_storable(Lx[k])) {
            /* named as in the upper triangle CHOLMOD's reader returned */
            cholmod_sparse *U = cholmod_transpose(L, 1, cm);
            if (!U)
                return cpg_cholmod_failure(name, cm, msg);
            int rc = check_storable(U, name, 1, msg);
            cholmod_free_sparse(&U, cm);
            return rc;
        }
    return check_diagonal(L, name, 1, msg);
}

int cpg_bundle_A_lower(cholmod_sparse *A, const char *name, int base,
                       cholmod_common *cm, cholmod_sparse **out, char *msg)
{
    *out = NULL;
    if (A->xtype != CHOLMOD_REAL || A->nrow != A->ncol)
        return cpg_fail(msg, COREPCG_ERR_FORMAT,
                        "%s: A must be a real square matrix", name);
    int rc = check_storable(A, name, base, msg);
    if (rc == COREPCG_OK && A->stype == 0) {
        /* named as the file gives its indices (base 1) */
        char what[COREPCG_MSG_SIZE / 2];
        snprintf(what, sizeof what, "%s: A, stored `general`,", name);
        rc = cpg_symmetry_check(A, what, base, cm, NULL, msg);
    }
    if (rc != COREPCG_OK)
        return rc;
    /* Whichever triangle CHOLMOD holds, copy to the lower one. */
    cholmod_sparse *L = cholmod_copy(A, -1, 1, cm);
    if (!L || cm->status < CHOLMOD_OK || !cholmod_sort(L, cm)) {
        cholmod_free_sparse(&L, cm);
        return cpg_cholmod_failure(name, cm, msg);
    }
    rc = check_diagonal(L, name, base, msg);
    if (rc != COREPCG_OK) {
        cholmod_free_sparse(&L, cm);
        return rc;
    }
    *out = L;
    return COREPCG_OK;
}

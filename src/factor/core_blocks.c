/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core_blocks.c -- which blocks of A the matrix core keeps (Ye, Webber & Wang
 * §6): every diagonal block whole, since it carries the shear and bend
 * contributions (A_core = A_strh + diag(A_shear) + diag(A_bend) + D_other),
 * plus the off-diagonal blocks of stretch springs (core STRETCH) or the
 * off-diagonal blocks that are large beside the diagonal blocks they
 * couple (core AUTO). */
#include "factor.h"

#include <math.h>
#include <stdlib.h>

static double block_norm(const double *x)
{
    double s = 0.0;
    for (int e = 0; e < 9; e++)
        s += x[e] * x[e];
    return sqrt(s);
}

/* Marks the diagonal block of every column; a column without one means A
 * has a zero diagonal, so it cannot be positive definite. */
static int mark_diagonal(const cpg_bmat *A, unsigned char *keep, char *msg)
{
    for (int j = 0; j < A->nb; j++) {
        int found = 0;
        for (int k = A->p[j]; k < A->p[j + 1]; k++) {
            keep[k] = A->i[k] == j;
            found |= keep[k];
        }
        if (!found)
            return cpg_fail(msg, COREPCG_ERR_NOT_SPD,
                            "node %d has no diagonal block: A is not "
                            "positive definite", j);
    }
    return COREPCG_OK;
}

static int mark_stretch(const cpg_bmat *A, int ns, const int *pairs,
                        unsigned char *keep, char *msg)
{
    int nb = A->nb;
    int rc = cpg_stretch_check(ns, pairs, nb, msg);
    if (rc != COREPCG_OK)
        return rc;
    if (ns == 0)
        return cpg_fail(msg, COREPCG_ERR_NO_CORE,
                        "the system has no stretch pairs to build the matrix "
                        "core from: pass stretch pairs (stretch.mtx or "
                        "corepcg_system.stretch_pairs; with no springs, "
                        "per-triangle forces: the mesh edges) or use core "
                        "auto");

    /* Each node's stretch partners (both directions), then per column a
     * marker of its partners: linear in blocks plus pairs. */
    int *start = calloc((size_t)nb + 1, sizeof *start);
    int *partner = malloc(2 * (size_t)ns * sizeof *partner);
    int *marker = malloc((size_t)nb * sizeof *marker);
    if (!start || !partner || !marker) {
        free(start);
        free(partner);
        free(marker);
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY,
                        "out of memory marking %d stretch pairs", ns);
    }
    for (int s = 0; s < 2 * ns; s++)
        start[pairs[s] + 1]++;
    for (int j = 0; j < nb; j++)
        start[j + 1] += start[j];
    for (int s = 0; s < ns; s++) {
        int a = pairs[2 * s], b = pairs[2 * s + 1];
        partner[start[a]++] = b;
        partner[start[b]++] = a;
    }
    /* The fill advanced start[j] to the end of j's list: shift back. */
    for (int j = nb; j > 0; j--)
        start[j] = start[j - 1];
    start[0] = 0;

    for (int j = 0; j < nb; j++)
        marker[j] = -1;
    for (int j = 0; j < nb; j++) {
        for (int t = start[j]; t < start[j + 1]; t++)
            marker[partner[t]] = j;
        /* A pair whose block is not in A's pattern keeps nothing. */
        for (int k = A->p[j]; k < A->p[j + 1]; k++)
            if (marker[A->i[k]] == j)
                keep[k] = 1;
    }
    free(start);
    free(partner);
    free(marker);
    return COREPCG_OK;
}

/* Decides on the lower block (i > j) and copies the decision to its mirror
 * (j, i), so that round-off asymmetry cannot split a pair. */
static int mark_auto(const cpg_bmat *A, double threshold, unsigned char *keep,
                     char *msg)
{
    int nb = A->nb;
    double *diag_norm = malloc((size_t)nb * sizeof *diag_norm);
    /* cursor[i]: next lower block of column i whose mirror is still to be
     * met; upper blocks are met in increasing column, so one pass. */
    int *cursor = malloc((size_t)nb * sizeof *cursor);
    if (!diag_norm || !cursor) {
        free(diag_norm);
        free(cursor);
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY,
                        "out of memory marking the automatic core");
    }
    for (int j = 0; j < nb; j++) {
        int k = A->p[j];
        diag_norm[j] = 0.0;
        while (k < A->p[j + 1] && A->i[k] < j)
            k++;
        if (k < A->p[j + 1] && A->i[k] == j)
            diag_norm[j] = block_norm(A->x + 9 * (size_t)k);
        cursor[j] = k < A->p[j + 1] && A->i[k] == j ? k + 1 : k;
    }
    for (int j = 0; j < nb; j++)
        for (int k = A->p[j]; k < A->p[j + 1]; k++) {
            int i = A->i[k];
            if (i > j)
                keep[k] = block_norm(A->x + 9 * (size_t)k) >=
                          threshold * sqrt(diag_norm[i] * diag_norm[j]);
        }
    for (int j = 0; j < nb; j++)
        for (int k = A->p[j]; k < A->p[j + 1] && A->i[k] < j; k++) {
            int i = A->i[k];
            /* The mirror (j, i) sits in column i; skip lower blocks of
             * column i that have no mirror (an unsymmetric pattern). */
            int m = cursor[i];
            while (m < A->p[i + 1] && A->i[m] < j)
                m++;
            if (m < A->p[i + 1] && A->i[m] == j) {
                keep[k] = keep[m];
                cursor[i] = m + 1;
            } else {
                keep[k] = block_norm(A->x + 9 * (size_t)k) >=
                          threshold * sqrt(diag_norm[i] * diag_norm[j]);
                cursor[i] = m;
            }
        }
    free(diag_norm);
    free(cursor);
    return COREPCG_OK;
}

int cpg_core_mark(const cpg_bmat *A, int num_stretch, const int *pairs,
                  corepcg_core mode, double threshold, unsigned char *keep,
                  long *kept, char *msg)
{
    if (!A || !keep || !kept)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "core: NULL argument");
    *kept = 0;
    if (mode == COREPCG_CORE_AUTO && !(threshold >= 0.0 && isfinite(threshold)))
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "core auto: threshold %g must be finite and >= 0",
                        threshold);
    if (mode != COREPCG_CORE_STRETCH && mode != COREPCG_CORE_AUTO)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "core: unknown mode %d",
                        (int)mode);

    int code = mark_diagonal(A, keep, msg);
    if (code == COREPCG_OK)
        code = mode == COREPCG_CORE_STRETCH
                   ? mark_stretch(A, num_stretch, pairs, keep, msg)
                   : mark_auto(A, threshold, keep, msg);
    if (code != COREPCG_OK)
        return code;

    /* Pairs: each kept off-diagonal block counted from the lower triangle. */
    long count = 0;
    for (int j = 0; j < A->nb; j++)
        for (int k = A->p[j]; k < A->p[j + 1]; k++)
            count += keep[k] && A->i[k] > j;
    *kept = count;
    return COREPCG_OK;
}

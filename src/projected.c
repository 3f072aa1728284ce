/* SPDX-License-Identifier: GPL-2.0-or-later */
/* projected.c -- S B S + D (I - S) on the fixed 3N pattern of a selection
 * of A's blocks, kept in its factor's order (see projected.h). */
#include "projected.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cpg_proj_free(cpg_proj *p, cholmod_common *cm)
{
    if (!p)
        return;
    free(p->bp);
    free(p->src);
    free(p->map);
    free(p->S);
    if (cm) {
        cholmod_free_sparse(&p->M, cm);
        cpg_factor_free(&p->fac, cm);
    }
    memset(p, 0, sizeof *p);
}

long cpg_proj_nnz(const cpg_proj *p)
{
    return p->M ? (long)((const int *)p->M->p)[p->M->ncol] : 0;
}

static int selected(const cpg_bmat *A, const unsigned char *keep, int J,
                    int k)
{
    return A->i[k] >= J && (!keep || keep[k]);
}

/* bp and src for the selected lower blocks; A's rows are sorted, so each
 * column's diagonal block comes first. *nnz: the scalar entries they
 * give the lower triangle. */
static int select_blocks(cpg_proj *p, const cpg_bmat *A,
                         const unsigned char *keep, long *nnz, char *msg)
{
    int N = A->nb;
    long count = 0, entries = 0;
    for (int J = 0; J < N; J++)
        for (int k = A->p[J]; k < A->p[J + 1]; k++)
            if (selected(A, keep, J, k)) {
                count++;
                entries += A->i[k] == J ? 6 : 9;
            }
    if (9 * count > INT_MAX || entries > INT_MAX)
        return cpg_fail(msg, COREPCG_ERR_TOO_LARGE,
                        "%ld node blocks are too many to factorise", count);
    size_t len = (size_t)(count ? count : 1);
    p->bp = malloc(sizeof(int) * ((size_t)N + 1));
    p->src = malloc(sizeof(int) * len);
    p->map = malloc(sizeof(int) * 9 * len);
    p->S = malloc(sizeof(double) * 9 * (size_t)N);
    if (!p->bp || !p->src || !p->map || !p->S)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    int b = 0;
    for (int J = 0; J < N; J++) {
        p->bp[J] = b;
        for (int k = A->p[J]; k < A->p[J + 1]; k++)
            if (selected(A, keep, J, k))
                p->src[b++] = k;
        if (b == p->bp[J] || A->i[p->src[p->bp[J]]] != J)
            return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                            "node %d's diagonal block is not selected", J);
    }
    p->bp[N] = b;
    *nnz = entries;
    return COREPCG_OK;
}

/* The lower triangle of the 3N pattern in the nodes' own order, each entry
 * holding its name 9b + 3c + a (exact in a double) so that the permuted
 * copy below says where every entry went. */
static cholmod_sparse *named_pattern(const cpg_proj *p, const cpg_bmat *A,
                                     long nnz, cholmod_common *cm)
{
    int N = p->N;
    cholmod_sparse *M = cholmod_allocate_sparse(3 * (size_t)N, 3 * (size_t)N,
                                                (size_t)nnz, 1, 1, -1,
                                                CHOLMOD_REAL, cm);
    if (!M)
        return NULL;
    int *Mp = M->p, *Mi = M->i, t = 0;
    double *Mx = M->x;
    for (int J = 0; J < N; J++)
        for (int c = 0; c < 3; c++) {
            Mp[3 * J + c] = t;
            for (int b = p->bp[J]; b < p->bp[J + 1]; b++) {
                int I = A->i[p->src[b]];
                for (int a = I == J ? c : 0; a < 3; a++) {
                    Mi[t] = 3 * I + a;
                    Mx[t++] = 9.0 * b + 3 * c + a;
                }
            }
        }
    Mp[3 * N] = t;
    return M;
}

/* The fill-reducing order of the node graph (its postorder included), as
 * the analysis of the nodes' own order finds it. A simplicial analysis is
 * enough: only L->Perm is kept. */
static int node_order(const cpg_proj *p, cholmod_sparse *M0,
                      corepcg_ordering ord, int *perm,
                      corepcg_ordering *used, cholmod_common *cm, char *msg)
{
    int N = p->N;
    int *off3 = malloc(sizeof(int) * ((size_t)N + 1));
    if (!off3)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    for (int i = 0; i <= N; i++)
        off3[i] = 3 * i;
    cpg_factor f0;
    memset(&f0, 0, sizeof f0);
    int rc = cpg_factor_analyze_nodes(&f0, M0, off3, N, ord,
                                      COREPCG_FACTOR_LDL, cm, msg);
    free(off3);
    if (rc != COREPCG_OK)
        return rc;
    memcpy(perm, f0.L->Perm, sizeof(int) * 3 * (size_t)N);
    *used = f0.ordering_used;
    cpg_factor_free(&f0, cm);
    return COREPCG_OK;
}

/* A simplicial factorisation reads the upper triangle: stored lower, the
 * matrix would be transposed on every call (a copy of it per step). The
 * supernodal one reads the lower triangle as it is. */
static int store_upper(cpg_proj *p, cholmod_common *cm, char *msg)
{
    double *Mx = p->M->x;
    long nnz = cpg_proj_nnz(p);
    for (long t = 0; t < nnz; t++)
        Mx[t] = (double)t; /* each entry named by its position */
    cholmod_sparse *U = cholmod_transpose(p->M, 1, cm);
    int *moved = malloc(sizeof(int) * (nnz > 0 ? (size_t)nnz : 1));
    if (!U || !moved) {
        cholmod_free_sparse(&U, cm);
        free(moved);
        int rc = cpg_cholmod_code(cm);
        return cpg_fail(msg, rc != COREPCG_OK ? rc : COREPCG_ERR_NO_MEMORY,
                        "out of memory");
    }
    const double *Ux = U->x;
    for (long t = 0; t < nnz; t++)
        moved[(long)Ux[t]] = (int)t;
    long entries = 9L * p->bp[p->N];
    for (long e = 0; e < entries; e++)
        if (p->map[e] >= 0)
            p->map[e] = moved[p->map[e]];
    free(moved);
    cholmod_free_sparse(&p->M, cm);
    p->M = U;
    return COREPCG_OK;
}

int cpg_proj_analyse(cpg_proj *p, const cpg_bmat *A, const unsigned char *keep,
                     corepcg_ordering ord, corepcg_factor kind,
                     cholmod_common *cm, char *msg)
{
    memset(p, 0, sizeof *p);
    p->N = A->nb;
    long nnz = 0;
    int rc = select_blocks(p, A, keep, &nnz, msg);
    cholmod_sparse *M0 = NULL, *upper = NULL;
    int *perm = NULL;
    if (rc != COREPCG_OK)
        goto done;
    M0 = named_pattern(p, A, nnz, cm);
    perm = malloc(sizeof(int) * 3 * (size_t)p->N);
    if (!M0 || !perm) {
        rc = cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
        goto done;
    }
    corepcg_ordering used = ord;
    rc = node_order(p, M0, ord, perm, &used, cm, msg);
    if (rc != COREPCG_OK)
        goto done;
    /* P M0 P^T: its upper triangle, then the lower one (both sorted) */
    upper = cholmod_ptranspose(M0, 1, perm, NULL, 0, cm);
    p->M = upper ? cholmod_transpose(upper, 1, cm) : NULL;
    if (!p->M) {
        rc = cpg_cholmod_code(cm);
        rc = cpg_fail(msg, rc != COREPCG_OK ? rc : COREPCG_ERR_CHOLMOD,
                      "CHOLMOD: cannot permute the projected matrix");
        goto done;
    }
    double *Mx = p->M->x;
    for (long e = 0; e < 9L * p->bp[p->N]; e++)
        p->map[e] = -1; /* the diagonal blocks' upper entries */
    for (long t = 0; t < nnz; t++) {
        p->map[(long)Mx[t]] = (int)t;
        Mx[t] = 0;
    }
    rc = cpg_factor_analyze_natural(&p->fac, p->M, perm, used, kind, cm, msg);
    if (rc == COREPCG_OK && !p->fac.L->is_super)
        rc = store_upper(p, cm, msg);
done:
    cholmod_free_sparse(&M0, cm);
    cholmod_free_sparse(&upper, cm);
    free(perm);
    if (rc != COREPCG_OK)
        cpg_proj_free(p, cm);
    return rc;
}

/* S_i = U_i U_i^T per node; exactly I and 0 for ndof 3 and 0. */
static void node_projectors(const cpg_ublocks *u, double *S)
{
    for (int i = 0; i < u->N; i++) {
        double *Si = S + 9L * i;
        const double *U = u->U + 9L * i;
        int d = u->ndof[i];
        for (int c = 0; c < 3; c++)
            for (int a = 0; a < 3; a++) {
                double s = d == 3 && a == c ? 1 : 0;
                for (int e = 0; d < 3 && e < d; e++)
                    s += U[3 * e + a] * U[3 * e + c];
                Si[3 * c + a] = s;
            }
    }
}

/* C = X Y, 3x3 column-major. */
static void mul3(const double *X, const double *Y, double *C)
{
    for (int c = 0; c < 3; c++)
        for (int a = 0; a < 3; a++)
            C[3 * c + a] = X[a] * Y[3 * c] + X[3 + a] * Y[3 * c + 1] +
                           X[6 + a] * Y[3 * c + 2];
}

/* V = S_I B S_J, plus d (I - S_J) on the diagonal. */
static void project_block(const double *B, int I, int J,
                          const cpg_ublocks *u, const double *S, double *V)
{
    int nI = u->ndof[I], nJ = u->ndof[J];
    if (nI == 3 && nJ == 3) {
        memcpy(V, B, 9 * sizeof(double));
        return;
    }
    if (nI == 0 || nJ == 0) {
        memset(V, 0, 9 * sizeof(double));
    } else {
        double T[9];
        mul3(B, S + 9L * J, T);
        mul3(S + 9L * I, T, V);
    }
    if (I == J) {
        /* any d > 0 gives the same inverse on range(S); the diagonal's
         * mean keeps the pivots of the constrained directions in scale */
        double d = (B[0] + B[4] + B[8]) / 3;
        if (!(d > 0) || !isfinite(d))
            d = 1;
        const double *Sj = S + 9L * J;
        for (int e = 0; e < 9; e++)
            V[e] += d * ((e % 4 == 0 ? 1.0 : 0.0) - Sj[e]);
    }
}

void cpg_proj_values(cpg_proj *p, const cpg_bmat *A, const cpg_ublocks *u)
{
    node_projectors(u, p->S);
    double *Mx = p->M->x;
    for (int J = 0; J < p->N; J++)
        for (int b = p->bp[J]; b < p->bp[J + 1]; b++) {
            int k = p->src[b], I = A->i[k];
            double V[9];
            project_block(A->x + 9L * k, I, J, u, p->S, V);
            const int *m = p->map + 9L * b;
            for (int c = 0; c < 3; c++)
                for (int a = I == J ? c : 0; a < 3; a++)
                    Mx[m[3 * c + a]] = V[3 * c + a];
        }
}

/* Rewrites msg (the factor's "not positive definite: ...") to name the
 * node of the failed column. */
static int not_spd_at_node(const cpg_proj *p, const cpg_ublocks *u,
                           const char *what, int code, char *msg)
{
    int col = p->fac.bad_column;
    if (col < 0 || col >= 3 * u->N || !msg)
        return code;
    int node = col / 3, ndof = u->ndof[node];
    char where[64];
    if (ndof == 3 || ndof == 1) /* a free node's U is I; one direction */
        snprintf(where, sizeof where, "free direction %d of %d",
                 ndof == 3 ? col % 3 + 1 : 1, ndof);
    else
        snprintf(where, sizeof where, "in its %d free directions", ndof);
    char detail[COREPCG_MSG_SIZE];
    const char *colon = strstr(msg, ": ");
    snprintf(detail, sizeof detail, "%s", colon ? colon + 2 : msg);
    return cpg_fail(msg, code, "%s is not positive definite at node %d (%s): "
                    "%s", what, node, where, detail);
}

int cpg_proj_factorise(cpg_proj *p, const cpg_ublocks *u, const char *what,
                       int not_spd_code, cholmod_common *cm, char *msg)
{
    int rc = cpg_factor_numeric(&p->fac, p->M, not_spd_code, cm, msg);
    if (rc == not_spd_code)
        rc = not_spd_at_node(p, u, what, not_spd_code, msg);
    return rc;
}

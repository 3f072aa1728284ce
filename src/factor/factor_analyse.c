/* SPDX-License-Identifier: GPL-2.0-or-later */
/* factor_analyse.c -- the analyses of the CHOLMOD wrapper (factor.h): a
 * fill-reducing ordering computed on the node graph and expanded to the
 * unknowns (cpg_factor_analyze_nodes), or a matrix already stored in its
 * factor's order analysed as it is, with every solve workspace allocated
 * up front (cpg_factor_analyze_natural). */
#include "factor.h"
#include "order.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* f, M and the common's settings fit the analysis (ordering: the one
 * the common was started for). */
static int check_analyze_args(cpg_factor *f, cholmod_sparse *M,
                              corepcg_ordering ord, cholmod_common *cm,
                              int ordering, char *msg)
{
    if (!f || !M || !cm)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "factor analyse: NULL argument");
    if ((int)ord < 0 || ord >= COREPCG_ORDERING_COUNT)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "factor analyse: unknown ordering %d", (int)ord);
    if (cm->nmethods != 1 || cm->method[0].ordering != ordering ||
        cm->postorder != (ordering == CHOLMOD_GIVEN))
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "factor analyse: the common was not started for "
                        "this analysis (cpg_factor_start_%s)",
                        ordering == CHOLMOD_GIVEN ? "nodes" : "natural");
    if (M->nrow != M->ncol || M->stype >= 0 || M->xtype != CHOLMOD_REAL)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "factor analyse: the matrix must be square, real "
                        "and stored with stype -1");
    return COREPCG_OK;
}

/* After cholmod_analyze(_p): status, kind, and the solve vectors. */
static int finish_analyze(cpg_factor *f, cholmod_sparse *M, cholmod_common *cm,
                          char *msg)
{
    int code = cpg_cholmod_code(cm);
    if (!f->L && code == COREPCG_OK)
        code = COREPCG_ERR_CHOLMOD;
    if (code != COREPCG_OK) {
        int status = cm->status;
        cpg_factor_free(f, cm);
        return cpg_fail(msg, code, "CHOLMOD analyse failed: %s (status %d)",
                        cpg_cholmod_status_text(status), status);
    }
    f->supernodal = f->L->is_super ? 1 : 0;
    f->flops = cm->fl; /* of the analysis just made (CHOLMOD sets it) */

    /* The solve's right-hand side and answer, allocated once at the right
     * size so that cholmod_solve2 never reallocates X. */
    f->B = cholmod_zeros(M->nrow, 1, CHOLMOD_REAL, cm);
    f->X = cholmod_zeros(M->nrow, 1, CHOLMOD_REAL, cm);
    code = cpg_cholmod_code(cm);
    if (code == COREPCG_OK && (!f->B || !f->X))
        code = COREPCG_ERR_NO_MEMORY;
    if (code != COREPCG_OK) {
        cpg_factor_free(f, cm);
        return cpg_fail(msg, code, "CHOLMOD: cannot allocate the solve "
                        "vectors (n = %zu)", M->nrow);
    }
    return COREPCG_OK;
}

/* METIS's support library (GKlib) keeps its random generator in static
 * variables and reseeds it at the start of each call: two METIS-based
 * orderings at once on two threads race on it, and came out different
 * from the same orderings made one after the other (test_api's two
 * handles on two threads, nested dissection: the answers differed in the
 * last bits). Made one at a time, each is what it is alone, so that two
 * handles on two threads stay independent. This lock holds no data. */
static pthread_mutex_t metis_lock = PTHREAD_MUTEX_INITIALIZER;

/* The node graph of M: node g's neighbours (g itself included), for the
 * G nodes that own columns, read from each one's first column gcol[g];
 * pattern only, stype -1 (the triangle M holds). */
static cholmod_sparse *node_graph(const cholmod_sparse *M, const int *gcol,
                                  const int *node_of_col, int G,
                                  cholmod_common *cm)
{
    const int *Mp = M->p, *Mi = M->i;
    long nnz = cpg_node_graph(Mp, Mi, gcol, G, node_of_col, 0, NULL, NULL);
    cholmod_sparse *Gm = cholmod_allocate_sparse(G, G, (size_t)nnz, 1, 1, -1,
                                                 CHOLMOD_PATTERN, cm);
    if (Gm)
        cpg_node_graph(Mp, Mi, gcol, G, node_of_col, 0, Gm->p, Gm->i);
    return Gm;
}

/* A fill-reducing order of the node graph, by one method: OK or a code. */
static int order_nodes(cholmod_sparse *Gm, corepcg_ordering ord, int *Pnode,
                       cholmod_common *cm)
{
    size_t G = Gm->ncol;
    int ok;
    if (ord == COREPCG_ORDERING_AMD) {
        ok = cholmod_amd(Gm, NULL, 0, Pnode, cm);
    } else if (ord == COREPCG_ORDERING_METIS) {
        pthread_mutex_lock(&metis_lock);
        ok = cholmod_metis(Gm, NULL, 0, 1, Pnode, cm);
        pthread_mutex_unlock(&metis_lock);
    } else {
        int *parent = malloc(sizeof(int) * (G ? G : 1));
        int *member = malloc(sizeof(int) * (G ? G : 1));
        if (!parent || !member) {
            free(parent);
            free(member);
            return COREPCG_ERR_NO_MEMORY;
        }
        pthread_mutex_lock(&metis_lock);
        ok = cholmod_nested_dissection(Gm, NULL, 0, Pnode, parent, member, cm) >= 0;
        pthread_mutex_unlock(&metis_lock);
        free(parent);
        free(member);
    }
    int code = cpg_cholmod_code(cm);
    return code != COREPCG_OK ? code : ok ? COREPCG_OK : COREPCG_ERR_CHOLMOD;
}

/* The nodes that own columns, their graph and its orders: the work of
 * cpg_factor_analyze_nodes. */
typedef struct node_work {
    int G;               /* nodes that own columns */
    int *gnode;          /* G: the node (of N) of each */
    int *gindex;         /* N: each node's place among the G */
    int *gcol;           /* G: its first column */
    int *node_of_col;    /* n: the place of each column's node */
    int *Pnode;          /* G: a fill-reducing order of the G */
    int *Perm;           /* n: Pnode expanded to the columns */
    cholmod_sparse *Gm;  /* the graph of the G */
} node_work;

static void node_work_free(node_work *w, cholmod_common *cm)
{
    cholmod_free_sparse(&w->Gm, cm);
    free(w->node_of_col);
    free(w->gnode);
    free(w->gindex);
    free(w->gcol);
    free(w->Pnode);
    free(w->Perm);
}

/* CHOLMOD's code for a call that returned nothing (ERR_CHOLMOD when its
 * status says OK). */
static int cholmod_failure(const cholmod_common *cm)
{
    int code = cpg_cholmod_code(cm);
    return code != COREPCG_OK ? code : COREPCG_ERR_CHOLMOD;
}

/* w for M's columns in the node groups off[0..N]: the nodes that own
 * columns and their graph. OK or a code; w is to be freed either way. */
static int node_work_make(node_work *w, cholmod_sparse *M, const int *off,
                          int N, cholmod_common *cm)
{
    size_t n = M->ncol;
    memset(w, 0, sizeof *w);
    w->node_of_col = malloc(sizeof(int) * (n ? n : 1));
    w->gnode = malloc(sizeof(int) * ((size_t)N + 1));
    w->gindex = malloc(sizeof(int) * ((size_t)N + 1));
    w->gcol = malloc(sizeof(int) * ((size_t)N + 1));
    w->Pnode = malloc(sizeof(int) * ((size_t)N + 1));
    w->Perm = malloc(sizeof(int) * (n ? n : 1));
    if (!w->node_of_col || !w->gnode || !w->gindex || !w->gcol ||
        !w->Pnode || !w->Perm)
        return COREPCG_ERR_NO_MEMORY;
    for (int J = 0; J < N; J++)
        if (off[J + 1] > off[J]) {
            w->gindex[J] = w->G;
            w->gcol[w->G] = off[J];
            w->gnode[w->G++] = J;
        }
    for (int J = 0; J < N; J++)
        for (int c = off[J]; c < off[J + 1]; c++)
            w->node_of_col[c] = w->gindex[J];
    w->Gm = node_graph(M, w->gcol, w->node_of_col, w->G, cm);
    return w->Gm ? COREPCG_OK : cholmod_failure(cm);
}

/* Analyses M with the node order w->Pnode expanded to its unknowns. */
static cholmod_factor *analyze_given(cholmod_sparse *M, const int *off,
                                     node_work *w, cholmod_common *cm)
{
    int t = 0;
    for (int k = 0; k < w->G; k++) {
        int J = w->gnode[w->Pnode[k]];
        for (int c = off[J]; c < off[J + 1]; c++)
            w->Perm[t++] = c;
    }
    return cholmod_analyze_p(M, w->Perm, NULL, 0, cm);
}

/* best, after AMD's analysis f->L: METIS too, and the factor with fewer
 * nonzeros. Always, not by CHOLMOD's rule (METIS only when fl/lnz >= 500
 * and lnz/anz >= 5): on a node graph that stands for 3x3 blocks fl/lnz is
 * a third of the scalar matrix's, so the rule would rarely fire; one more
 * ordering of the node graph is cheap beside the factorisations it
 * serves, and with full blocks the scalar nnz(L) is 9 lnz - 3 N, so
 * comparing the node graph's counts picks what the scalar ones would. A
 * failed second try (METIS or its analysis) leaves the first, with its
 * counts in the common (finish_analyze reads fl). */
static void try_metis_too(cpg_factor *f, cholmod_sparse *M, const int *off,
                          node_work *w, cholmod_common *cm)
{
    double lnz = cm->lnz, fl = cm->fl;
    if (order_nodes(w->Gm, COREPCG_ORDERING_METIS, w->Pnode, cm) ==
        COREPCG_OK) {
        cholmod_factor *L2 = analyze_given(M, off, w, cm);
        if (L2 && cm->lnz < lnz) {
            cholmod_free_factor(&f->L, cm);
            f->L = L2;
            f->ordering_used = COREPCG_ORDERING_METIS;
        } else {
            cholmod_free_factor(&L2, cm);
            cm->fl = fl;
            cm->lnz = lnz;
        }
    }
    cm->status = CHOLMOD_OK;
}

int cpg_factor_analyze_nodes(cpg_factor *f, cholmod_sparse *M, const int *off,
                             int N, corepcg_ordering ord, cholmod_common *cm,
                             char *msg)
{
    int rc = check_analyze_args(f, M, ord, cm, CHOLMOD_GIVEN, msg);
    if (rc != COREPCG_OK)
        return rc;
    if (!off || N < 0 || (size_t)off[N] != M->ncol)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "factor analyse: node offsets do not cover the matrix");
    cpg_factor_free(f, cm);
    node_work w;
    rc = node_work_make(&w, M, off, N, cm);
    corepcg_ordering first = ord == COREPCG_ORDERING_BEST ? COREPCG_ORDERING_AMD : ord;
    if (rc == COREPCG_OK)
        rc = order_nodes(w.Gm, first, w.Pnode, cm);
    if (rc == COREPCG_OK) {
        f->L = analyze_given(M, off, &w, cm);
        rc = f->L ? COREPCG_OK : cholmod_failure(cm);
    }
    if (rc == COREPCG_OK) {
        f->ordering_used = first;
        if (ord == COREPCG_ORDERING_BEST)
            try_metis_too(f, M, off, &w, cm);
    }
    node_work_free(&w, cm);
    if (rc != COREPCG_OK) {
        int status = cm->status;
        cpg_factor_free(f, cm);
        return cpg_fail(msg, rc, "CHOLMOD ordering/analyse failed: %s (status %d)",
                        cpg_cholmod_status_text(status), status);
    }
    corepcg_ordering used = f->ordering_used;
    rc = finish_analyze(f, M, cm, msg);
    if (rc == COREPCG_OK) {
        f->node_ordering = 1;
        f->ordering_used = used;
    }
    return rc;
}

/* Every workspace of the one- and two-column solves (the two-column one
 * serves the papers' stopping rule only), at the sizes cholmod_solve2
 * asks for, so that no solve allocates (corepcg_solve's promise): the
 * right-hand sides and answers, and Y and E (supernodal: n x ncol and
 * ncol x maxesize; simplicial: 4 x n, see solve_kept). */
static int alloc_solve_work(cpg_factor *f, cholmod_common *cm)
{
    size_t n = f->L->n;
    int ok = (f->B2 = cholmod_zeros(n, 2, CHOLMOD_REAL, cm)) != NULL &&
             (f->X2 = cholmod_zeros(n, 2, CHOLMOD_REAL, cm)) != NULL;
    if (ok && f->L->is_super)
        ok = cholmod_ensure_dense(&f->Y, n, 1, n, CHOLMOD_REAL, cm) &&
             cholmod_ensure_dense(&f->E, 1, f->L->maxesize, 1, CHOLMOD_REAL, cm) &&
             cholmod_ensure_dense(&f->Y2, n, 2, n, CHOLMOD_REAL, cm) &&
             cholmod_ensure_dense(&f->E2, 2, f->L->maxesize, 2, CHOLMOD_REAL, cm);
    else if (ok)
        ok = cholmod_ensure_dense(&f->Y, 4, n, 4, CHOLMOD_REAL, cm) &&
             cholmod_ensure_dense(&f->Y2, 4, n, 4, CHOLMOD_REAL, cm);
    int code = cpg_cholmod_code(cm);
    return code != COREPCG_OK ? code : ok ? COREPCG_OK : COREPCG_ERR_NO_MEMORY;
}

int cpg_factor_analyze_natural(cpg_factor *f, cholmod_sparse *M,
                               const int *perm, corepcg_ordering ordering_used,
                               cholmod_common *cm, char *msg)
{
    int rc = check_analyze_args(f, M, ordering_used, cm, CHOLMOD_NATURAL,
                                msg);
    if (rc != COREPCG_OK)
        return rc;
    if (!perm)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "factor analyse: no order for the natural analysis");
    cpg_factor_free(f, cm);
    size_t n = M->ncol;
    f->perm = malloc(sizeof(int) * (n ? n : 1));
    if (!f->perm)
        return cpg_fail(msg, COREPCG_ERR_NO_MEMORY, "out of memory");
    memcpy(f->perm, perm, sizeof(int) * n);
    f->L = cholmod_analyze(M, cm);
    int *keep_perm = f->perm;
    f->perm = NULL; /* finish_analyze frees f whole on failure */
    rc = finish_analyze(f, M, cm, msg);
    if (rc != COREPCG_OK) {
        free(keep_perm);
        return rc;
    }
    f->perm = keep_perm;
    f->node_ordering = 1;
    f->ordering_used = ordering_used;
    /* The numeric storage now, untouched, so that the hint comes first. */
    if (f->L->is_super &&
        cholmod_change_factor(CHOLMOD_REAL, 1, 1, 1, 1, f->L, cm))
        cpg_huge_pages(f->L->x, f->L->xsize * sizeof(double));
    rc = cpg_cholmod_code(cm);
    if (rc == COREPCG_OK)
        rc = alloc_solve_work(f, cm);
    if (rc != COREPCG_OK) {
        cpg_factor_free(f, cm);
        return cpg_fail(msg, rc, "CHOLMOD: cannot allocate the factor");
    }
    return COREPCG_OK;
}

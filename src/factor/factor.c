/* SPDX-License-Identifier: GPL-2.0-or-later */
/* factor.c -- the CHOLMOD wrapper shared by the direct solver and corePCG:
 * a quiet common per analysis, its settings set once when it starts;
 * analyse once, factorise many times, solve without allocating (the
 * preconditioner inside the PCG loop). */
#include "factor.h"
#include "order.h"

#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *cholmod_status_text(int status)
{
    switch (status) {
    case CHOLMOD_OK: return "ok";
    case CHOLMOD_NOT_INSTALLED: return "method not installed";
    case CHOLMOD_OUT_OF_MEMORY: return "out of memory";
    case CHOLMOD_TOO_LARGE: return "problem too large";
    case CHOLMOD_INVALID: return "invalid input";
    case CHOLMOD_NOT_POSDEF: return "not positive definite";
    case CHOLMOD_DSMALL: return "tiny pivot";
    default: return "unknown status";
    }
}

/* Frees everything f holds and leaves it empty (all NULL). */
void cpg_factor_free(cpg_factor *f, cholmod_common *cm)
{
    if (!f)
        return;
    if (cm) {
        cholmod_free_factor(&f->L, cm);
        cholmod_free_dense(&f->B, cm);
        cholmod_free_dense(&f->X, cm);
        cholmod_free_dense(&f->Y, cm);
        cholmod_free_dense(&f->E, cm);
        cholmod_free_dense(&f->B2, cm);
        cholmod_free_dense(&f->X2, cm);
        cholmod_free_dense(&f->Y2, cm);
        cholmod_free_dense(&f->E2, cm);
    }
    free(f->perm);
    memset(f, 0, sizeof *f);
}

/* cpg_factor_start_nodes or _natural: the common's settings, once. */
static int start_common(cholmod_common *cm, corepcg_factor kind,
                        int ordering, char *msg)
{
    if (!cm)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT, "factor: NULL common");
    if ((int)kind < 0 || kind >= COREPCG_FACTOR_COUNT)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "factor: unknown factor kind %d", (int)kind);
    int rc = cpg_cholmod_start(cm);
    if (rc != COREPCG_OK)
        return cpg_fail(msg, rc, "CHOLMOD: cannot start");
    cm->supernodal = kind == COREPCG_FACTOR_LDL ? CHOLMOD_SIMPLICIAL
                   : kind == COREPCG_FACTOR_LL  ? CHOLMOD_SUPERNODAL
                   : CHOLMOD_AUTO;
    /* Simplicial factors stay LDL^T (Ye et al.'s); supernodal ones are LL^T. */
    cm->final_ll = 0;
    cm->final_asis = 1;
    /* The one ordering method the analysis uses. */
    cm->nmethods = 1;
    cm->method[0].ordering = ordering;
    return COREPCG_OK;
}

int cpg_factor_start_nodes(cholmod_common *cm, corepcg_factor kind, char *msg)
{
    int rc = start_common(cm, kind, CHOLMOD_GIVEN, msg);
    if (rc == COREPCG_OK)
        cm->postorder = 1; /* the node order, then its etree postorder */
    return rc;
}

/* Supernode amalgamation for the natural analysis (CHOLMOD's defaults
 * are nrelax 4, 16, 48 and zrelax 0.8, 0.1, 0.05). The matrix core's
 * supernodes are narrow (its node graph is the stretch grid: no diagonal
 * or two-apart couplings), and wider relaxed supernodes keep the dense
 * kernels busy longer: the core factorises faster with the same solve
 * cost; wider still factorised no faster and solved slower
 * (docs/benchmark.md, "corePCG's factorisation"). */
int cpg_factor_start_natural(cholmod_common *cm, corepcg_factor kind,
                             char *msg)
{
    static const size_t nrelax[3] = {8, 32, 96};
    static const double zrelax[3] = {0.8, 0.2, 0.1};
    int rc = start_common(cm, kind, CHOLMOD_NATURAL, msg);
    if (rc != COREPCG_OK)
        return rc;
    cm->postorder = 0; /* the matrix comes with its postorder */
    for (int k = 0; k < 3; k++) {
        cm->nrelax[k] = nrelax[k];
        cm->zrelax[k] = zrelax[k];
    }
    return COREPCG_OK;
}

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
                        cholmod_status_text(status), status);
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
                        cholmod_status_text(status), status);
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

/* The diagonal of L in column j (permuted order): D(j,j) for a simplicial
 * LDL^T, L(j,j) otherwise; NaN when L holds no numbers. */
static double factor_pivot(const cholmod_factor *L, size_t j)
{
    const double *Lx = L->x;
    if (L->xtype != CHOLMOD_REAL || !Lx)
        return NAN;
    if (!L->is_super) {
        const int *Lp = L->p;   /* CHOLMOD stores the diagonal first */
        return Lx[Lp[j]];
    }
    const int *super = L->super, *Pi = L->pi, *Px = L->px;
    /* Supernodes are few and visited in order; a search keeps this simple
     * (it runs once per column only when a failure is being reported). */
    for (size_t s = 0; s < L->nsuper; s++) {
        size_t k1 = (size_t)super[s], k2 = (size_t)super[s + 1];
        if (j >= k2)
            continue;
        size_t nsrow = (size_t)(Pi[s + 1] - Pi[s]), jj = j - k1;
        return Lx[(size_t)Px[s] + jj * nsrow + jj];
    }
    return NAN;
}

/* First column (permuted order) whose pivot is not positive and finite, or
 * n. One pass over the supernodes, or over the columns. */
static size_t first_bad_pivot(const cholmod_factor *L)
{
    const double *Lx = L->x;
    if (L->xtype != CHOLMOD_REAL || !Lx)
        return 0;
    if (!L->is_super) {
        const int *Lp = L->p;
        for (size_t j = 0; j < L->n; j++) {
            double d = Lx[Lp[j]];
            if (!(d > 0.0) || !isfinite(d))
                return j;
        }
        return L->n;
    }
    const int *super = L->super, *Pi = L->pi, *Px = L->px;
    for (size_t s = 0; s < L->nsuper; s++) {
        size_t k1 = (size_t)super[s], k2 = (size_t)super[s + 1];
        size_t nsrow = (size_t)(Pi[s + 1] - Pi[s]);
        for (size_t jj = 0; jj < k2 - k1; jj++) {
            double d = Lx[(size_t)Px[s] + jj * nsrow + jj];
            if (!(d > 0.0) || !isfinite(d))
                return k1 + jj;
        }
    }
    return L->n;
}

/* The unknown of factor column k: through the matrix's own order (f->perm)
 * and CHOLMOD's (L->Perm, the identity after a natural analysis). */
static int original_column(const cpg_factor *f, size_t k)
{
    const int *Lperm = f->L->Perm;
    int j = Lperm ? Lperm[k] : (int)k;
    return f->perm ? f->perm[j] : j;
}

void cpg_factor_not_spd_text(const cpg_factor *f, char *buf, size_t size)
{
    size_t n = f->L ? f->L->n : 0;
    if (f->bad_has_pivot)
        snprintf(buf, size, "pivot %g at column %d (pivot %zu of %zu)",
                 f->bad_pivot, f->bad_column, f->bad_step + 1, n);
    else
        snprintf(buf, size, "the factorisation failed at column %d (pivot "
                 "%zu of %zu)", f->bad_column, f->bad_step + 1, n);
}

/* The failure cpg_factor_numeric reports, from f's numbers. */
static int not_spd(const cpg_factor *f, int code, char *msg)
{
    char where[128];
    cpg_factor_not_spd_text(f, where, sizeof where);
    return cpg_fail(msg, code, "not positive definite: %s", where);
}

int cpg_factor_numeric(cpg_factor *f, cholmod_sparse *M, int not_spd_code,
                       cholmod_common *cm, char *msg)
{
    if (!f || !M || !cm)
        return cpg_fail(msg, COREPCG_ERR_ARGUMENT,
                        "factor: NULL argument");
    if (!f->L)
        return cpg_fail(msg, COREPCG_ERR_STATE,
                        "factor: no analysis to factorise with");
    if (M->nrow != f->L->n || M->ncol != f->L->n)
        return cpg_fail(msg, COREPCG_ERR_DIMENSION,
                        "factor: matrix is %zu x %zu, the analysis was for "
                        "n = %zu", M->nrow, M->ncol, f->L->n);

    /* CHOLMOD 3 opens the OpenMP regions of its supernodal factorisation
     * with num_threads(4), hard-wired, whatever the machine (and
     * OMP_NUM_THREADS) says, while OpenBLAS runs its own threads inside
     * them: oversubscribed (docs/benchmark.md, "corePCG's
     * factorisation"). With max-active-levels 0 on this thread the
     * regions run on it alone;
     * libgomp keeps the setting per thread, so other threads of the
     * caller are unaffected, and it is restored at once. */
    int levels = omp_get_max_active_levels();
    omp_set_max_active_levels(0);
    int ok = cholmod_factorize(M, f->L, cm);
    omp_set_max_active_levels(levels);
    int status = cm->status;
    cholmod_factor *L = f->L;

    /* TRUE comes back on a matrix that is not positive definite: the
     * status and L->minor say so (supernodal and simplicial LL^T). */
    f->bad_column = -1;
    if (status == CHOLMOD_NOT_POSDEF || (ok && L->minor < L->n)) {
        f->bad_step = L->minor < L->n ? L->minor : 0;
        f->bad_column = original_column(f, f->bad_step);
        f->bad_has_pivot = 0;
        f->bad_pivot = NAN;
        return not_spd(f, not_spd_code, msg);
    }
    int code = cpg_cholmod_code(cm);
    if (!ok && code == COREPCG_OK)
        code = COREPCG_ERR_CHOLMOD;
    if (code != COREPCG_OK)
        return cpg_fail(msg, code, "CHOLMOD factorise failed: %s (status %d)",
                        cholmod_status_text(status), status);

    /* The simplicial LDL^T path goes on through negative pivots without a
     * word (and nothing catches NaN): check the whole diagonal. */
    size_t bad = first_bad_pivot(L);
    if (bad < L->n) {
        f->bad_step = bad;
        f->bad_column = original_column(f, bad);
        f->bad_has_pivot = 1;
        f->bad_pivot = factor_pivot(L, bad);
        return not_spd(f, not_spd_code, msg);
    }
    return COREPCG_OK;
}

/* cholmod_solve2 into the kept X (B's columns), with the kept Y and E. */
static int solve_kept(cpg_factor *f, cholmod_dense *B, cholmod_dense **X,
                      cholmod_dense **Y, cholmod_dense **E, cholmod_common *cm)
{
    size_t n = f->L->n, ncol = B->ncol;
    /* CHOLMOD 3's simplicial solve works in a 4 x n Y (up to 4 columns at
     * a time) but leaves it reshaped, so the next call would free and
     * reallocate it. Its buffer still holds 4 n entries: restore the shape
     * it expects. */
    if (*Y && !f->L->is_super && (*Y)->nzmax >= 4 * n) {
        (*Y)->nrow = 4;
        (*Y)->d = 4;
        (*Y)->ncol = n;
    }
    /* CHOLMOD 3.0.14's supernodal solve allocates Y, then E, and reads the
     * status only after both: when Y's allocation fails and E's succeeds
     * the status says OK and it solves into a NULL Y (a crash found by
     * tests/test_oom.c). Hand it both at the sizes it asks for. */
    if (f->L->is_super &&
        (!cholmod_ensure_dense(Y, n, ncol, n, CHOLMOD_REAL, cm) ||
         !cholmod_ensure_dense(E, ncol, f->L->maxesize, ncol, CHOLMOD_REAL,
                               cm))) {
        int code = cpg_cholmod_code(cm);
        return code != COREPCG_OK ? code : COREPCG_ERR_NO_MEMORY;
    }
    int ok = cholmod_solve2(CHOLMOD_A, f->L, B, NULL, X, NULL, Y, E, cm);
    int code = cpg_cholmod_code(cm);
    if (code != COREPCG_OK)
        return code;
    return ok && *X ? COREPCG_OK : COREPCG_ERR_CHOLMOD;
}

/* Column c of B (n rows) = in, in the matrix's order. Copies of n doubles
 * cost little beside two triangular solves, and keep CHOLMOD's objects
 * owning their own memory. */
static void gather(const cpg_factor *f, const double *in, double *col)
{
    size_t n = f->L->n;
    if (!f->perm) {
        memcpy(col, in, n * sizeof(double));
        return;
    }
    for (size_t k = 0; k < n; k++)
        col[k] = in[f->perm[k]];
}

static void scatter(const cpg_factor *f, const double *col, double *out)
{
    size_t n = f->L->n;
    if (!f->perm) {
        memcpy(out, col, n * sizeof(double));
        return;
    }
    for (size_t k = 0; k < n; k++)
        out[f->perm[k]] = col[k];
}

static int solvable(const cpg_factor *f)
{
    return f->L && f->B && f->X && f->L->xtype != CHOLMOD_PATTERN;
}

int cpg_factor_solve(cpg_factor *f, const double *in, double *out,
                     cholmod_common *cm)
{
    if (!f || !in || !out || !cm)
        return COREPCG_ERR_ARGUMENT;
    if (!solvable(f))
        return COREPCG_ERR_STATE;
    gather(f, in, f->B->x);
    int code = solve_kept(f, f->B, &f->X, &f->Y, &f->E, cm);
    if (code == COREPCG_OK)
        scatter(f, f->X->x, out);
    return code;
}

int cpg_factor_solve2(cpg_factor *f, const double *in1, const double *in2,
                      double *out1, double *out2, cholmod_common *cm)
{
    if (!f || !in1 || !in2 || !out1 || !out2 || !cm)
        return COREPCG_ERR_ARGUMENT;
    if (!solvable(f))
        return COREPCG_ERR_STATE;
    size_t n = f->L->n;
    if (!cholmod_ensure_dense(&f->B2, n, 2, n, CHOLMOD_REAL, cm)) {
        int code = cpg_cholmod_code(cm);
        return code != COREPCG_OK ? code : COREPCG_ERR_NO_MEMORY;
    }
    double *B = f->B2->x;
    gather(f, in1, B);
    gather(f, in2, B + n);
    int code = solve_kept(f, f->B2, &f->X2, &f->Y2, &f->E2, cm);
    if (code == COREPCG_OK) {
        const double *X = f->X2->x;
        scatter(f, X, out1);
        scatter(f, X + n, out2);
    }
    return code;
}

long cpg_factor_nnz(const cpg_factor *f)
{
    if (!f || !f->L)
        return 0;
    const cholmod_factor *L = f->L;
    long nnz = 0;
    if (L->is_super) {
        /* Entries on and below the diagonal of each supernode (explicit
         * zeros of relaxed amalgamation included): comparable to the
         * simplicial count. */
        const int *super = L->super, *Pi = L->pi;
        for (size_t s = 0; s < L->nsuper; s++) {
            long ncol = super[s + 1] - super[s];
            long nrow = Pi[s + 1] - Pi[s];
            nnz += ncol * nrow - ncol * (ncol - 1) / 2;
        }
    } else if (L->xtype != CHOLMOD_PATTERN && L->nz) {
        const int *nz = L->nz;
        for (size_t j = 0; j < L->n; j++)
            nnz += nz[j];
    } else {
        /* Symbolic only: the analysis' column counts. */
        const int *count = L->ColCount;
        for (size_t j = 0; j < L->n; j++)
            nnz += count[j];
    }
    return nnz;
}

corepcg_ordering cpg_factor_ordering(const cpg_factor *f)
{
    if (!f || !f->L)
        return COREPCG_ORDERING_BEST;
    if (f->node_ordering)
        return f->ordering_used;
    switch (f->L->ordering) {
    case CHOLMOD_AMD:
    case CHOLMOD_COLAMD:  /* AMD in the symmetric case */
        return COREPCG_ORDERING_AMD;
    case CHOLMOD_METIS:
        return COREPCG_ORDERING_METIS;
    case CHOLMOD_NESDIS:
        return COREPCG_ORDERING_NESDIS;
    default:
        /* Natural or given: none of ours; "best" means CHOLMOD's pick. */
        return COREPCG_ORDERING_BEST;
    }
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* testsys.c -- see testsys.h. Nothing here calls the library: the systems
 * and the reference answers are made from first principles. */
#include "testsys.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#undef I /* <complex.h>, pulled in by lapacke.h: I and J name nodes here */

/* ------------------------------------------------------------ random */

void testsys_rng_seed(testsys_rng *r, unsigned long seed)
{
    r->state = seed * 2862933555777941757UL + 3037000493UL;
}

double testsys_uniform(testsys_rng *r)
{
    r->state = r->state * 6364136223846793005UL + 1442695040888963407UL;
    return ((double)(r->state >> 11) + 0.5) / 9007199254740992.0;
}

double testsys_sym(testsys_rng *r)
{
    return 2 * testsys_uniform(r) - 1;
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void normalise3(double v[3])
{
    double s = sqrt(dot3(v, v));
    v[0] /= s;
    v[1] /= s;
    v[2] /= s;
}

void testsys_unit(testsys_rng *r, double v[3])
{
    do {
        v[0] = testsys_sym(r);
        v[1] = testsys_sym(r);
        v[2] = testsys_sym(r);
    } while (dot3(v, v) < 0.05 || dot3(v, v) > 1);
    normalise3(v);
}

void testsys_orthogonal_unit(testsys_rng *r, const double p[3], double q[3])
{
    double t;
    do {
        testsys_unit(r, q);
        t = dot3(p, q);
    } while (fabs(t) > 0.9);
    for (int a = 0; a < 3; a++)
        q[a] -= t * p[a];
    normalise3(q);
    t = dot3(p, q); /* a second pass leaves |p.q| at round-off */
    for (int a = 0; a < 3; a++)
        q[a] -= t * p[a];
    normalise3(q);
}

/* ------------------------------------------------------------ building */

void testsys_default_opts(testsys_opts *o, int g, unsigned long seed)
{
    o->g = g;
    o->mass = 1;
    o->k_stretch = 50;
    o->k_shear = 2;
    o->k_bend = 0.5;
    o->frac_constrained = 0.25;
    o->ndof_only = -1;
    o->seed = seed;
}

/* Spring families: grid offsets (dx, dy) joined to a node. */
struct family {
    int dx, dy;
    int kind; /* 0 stretch, 1 shear, 2 bend */
};

static const struct family families[] = {
    {1, 0, 0}, {0, 1, 0}, {1, 1, 1}, {1, -1, 1}, {2, 0, 2}, {0, 2, 2},
};
#define NFAM ((int)(sizeof families / sizeof families[0]))

static double family_k(const testsys_opts *o, int kind)
{
    return kind == 0 ? o->k_stretch : kind == 1 ? o->k_shear : o->k_bend;
}

/* Visits every spring (i < j by construction of the offsets' direction). */
static int spring_other(int g, int i, const struct family *f)
{
    int x = i % g + f->dx, y = i / g + f->dy;
    if (x < 0 || x >= g || y < 0 || y >= g)
        return -1;
    return y * g + x;
}

static double *block_at(testsys *t, int I, int J)
{
    for (int k = t->bp[J]; k < t->bp[J + 1]; k++)
        if (t->bi[k] == I)
            return t->bx + 9L * k;
    return NULL;
}

const double *testsys_block(const testsys *t, int I, int J)
{
    return block_at((testsys *)t, I, J);
}

/* M += s K, 3x3 column-major. */
static void add3(double *M, const double *K, double s)
{
    for (int e = 0; e < 9; e++)
        M[e] += s * K[e];
}

void testsys_spring_K(testsys_rng *r, double k, double K[9])
{
    double d[3], eps = 0.05 + 0.1 * testsys_uniform(r);
    double scale = k * (0.5 + testsys_uniform(r));
    testsys_unit(r, d);
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            K[3 * b + a] = scale * (d[a] * d[b] + (a == b ? eps : 0));
}

/* [K -K; -K K] on nodes i, j, whose four blocks are in the pattern. */
static void add_spring(testsys *t, int i, int j, const double *K)
{
    add3(block_at(t, i, i), K, 1);
    add3(block_at(t, j, j), K, 1);
    add3(block_at(t, i, j), K, -1);
    add3(block_at(t, j, i), K, -1);
}

/* Block (I, J) made part of the pattern (zero) if it is not yet. */
static int insert_block(testsys *t, int I, int J)
{
    if (block_at(t, I, J))
        return 0;
    size_t nb = (size_t)t->bp[t->N];
    int *bi = realloc(t->bi, sizeof(int) * (nb + 1));
    if (!bi)
        return -1;
    t->bi = bi;
    double *bx = realloc(t->bx, 9 * sizeof(double) * (nb + 1));
    if (!bx)
        return -1;
    t->bx = bx;
    size_t k = (size_t)t->bp[J];
    while (k < (size_t)t->bp[J + 1] && t->bi[k] < I)
        k++;
    memmove(t->bi + k + 1, t->bi + k, sizeof(int) * (nb - k));
    memmove(t->bx + 9 * (k + 1), t->bx + 9 * k, 9 * sizeof(double) * (nb - k));
    t->bi[k] = I;
    memset(t->bx + 9 * k, 0, 9 * sizeof(double));
    for (int j = J + 1; j <= t->N; j++)
        t->bp[j]++;
    return 0;
}

int testsys_add_coupling(testsys *t, int a, int b, const double K[9])
{
    if (insert_block(t, a, b) || insert_block(t, b, a))
        return -1;
    add_spring(t, a, b, K);
    return 0;
}

void testsys_element_H(testsys_rng *r, int m, int rank, double k, double *H)
{
    int n = 3 * m;
    memset(H, 0, sizeof(double) * (size_t)n * (size_t)n);
    for (int q = 0; q < rank; q++) {
        double h[3 * TESTSYS_MAX_ELEMENT] = {0};
        for (int v = 0; v + 1 < m; v++)
            for (int a = 0; a < 3; a++) {
                h[3 * v + a] = testsys_sym(r);
                h[3 * (m - 1) + a] -= h[3 * v + a];
            }
        for (int c = 0; c < n; c++)
            for (int a = 0; a < n; a++)
                H[c * n + a] += k * h[a] * h[c];
    }
}

int testsys_add_element(testsys *t, int m, const int *nodes, const double *H)
{
    int n = 3 * m;
    for (int u = 0; u < m; u++)
        for (int v = 0; v < m; v++)
            if (insert_block(t, nodes[u], nodes[v]))
                return -1;
    for (int u = 0; u < m; u++)
        for (int v = 0; v < m; v++) {
            double *B = block_at(t, nodes[u], nodes[v]);
            for (int c = 0; c < 3; c++)
                for (int a = 0; a < 3; a++)
                    B[3 * c + a] += H[(3 * v + c) * n + 3 * u + a];
        }
    return 0;
}

void testsys_record_directions(const corepcg_constraint *c, double p[3],
                               double q[3])
{
    memcpy(p, c->p, 3 * sizeof(double));
    normalise3(p);
    memset(q, 0, 3 * sizeof(double));
    if (c->ndof != 1)
        return;
    memcpy(q, c->q, 3 * sizeof(double));
    normalise3(q);
    double pq = dot3(p, q);
    for (int a = 0; a < 3; a++)
        q[a] -= pq * p[a];
    normalise3(q);
}

/* S_i per node from constraint records, as docs/format.md defines it. */
static void S_from_records(int N, const corepcg_constraint *cons, int count,
                           double *Sall)
{
    for (int i = 0; i < N; i++) {
        double *S = Sall + 9L * i;
        memset(S, 0, 9 * sizeof(double));
        S[0] = S[4] = S[8] = 1;
    }
    for (int k = 0; k < count; k++) {
        const corepcg_constraint *c = &cons[k];
        double *S = Sall + 9L * c->node, p[3], q[3];
        if (c->ndof == 0) {
            memset(S, 0, 9 * sizeof(double));
            continue;
        }
        testsys_record_directions(c, p, q);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                S[3 * b + a] -= p[a] * p[b];
        if (c->ndof == 1) {
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                    S[3 * b + a] -= q[a] * q[b];
        }
    }
}

static void compute_S(testsys *t)
{
    S_from_records(t->N, t->cons, t->ncons, t->S);
}

static void sort_ints(int *v, int count)
{
    for (int a = 1; a < count; a++) {
        int x = v[a], b = a;
        while (b > 0 && v[b - 1] > x) {
            v[b] = v[b - 1];
            b--;
        }
        v[b] = x;
    }
}

int testsys_make(testsys *t, const testsys_opts *o)
{
    memset(t, 0, sizeof *t);
    testsys_rng rng;
    testsys_rng_seed(&rng, o->seed);
    int g = o->g, N = g * g, n = 3 * N;
    t->g = g;
    t->N = N;
    t->n = n;

    /* pattern: per node, itself plus every spring partner */
    int *count = calloc((size_t)N, sizeof(int));
    if (!count)
        return -1;
    for (int i = 0; i < N; i++) {
        count[i]++;
        for (int f = 0; f < NFAM; f++) {
            int j = spring_other(g, i, &families[f]);
            if (j >= 0 && family_k(o, families[f].kind) > 0) {
                count[i]++;
                count[j]++;
            }
        }
    }
    t->bp = malloc(sizeof(int) * ((size_t)N + 1));
    if (!t->bp) {
        free(count);
        return -1;
    }
    t->bp[0] = 0;
    for (int i = 0; i < N; i++)
        t->bp[i + 1] = t->bp[i] + count[i];
    int nb = t->bp[N];
    t->bi = malloc(sizeof(int) * (size_t)nb);
    t->bx = calloc(9 * (size_t)nb, sizeof(double));
    t->ndof = malloc(sizeof(int) * (size_t)N);
    t->S = malloc(sizeof(double) * 9 * (size_t)N);
    t->z = malloc(sizeof(double) * (size_t)n);
    t->b = malloc(sizeof(double) * (size_t)n);
    t->x0 = malloc(sizeof(double) * (size_t)n);
    t->cons = malloc(sizeof(corepcg_constraint) * (size_t)N);
    t->pairs = malloc(sizeof(int) * 4 * (size_t)N);
    if (!t->bi || !t->bx || !t->ndof || !t->S || !t->z || !t->b || !t->x0 ||
        !t->cons || !t->pairs) {
        free(count);
        testsys_free(t);
        return -1;
    }
    for (int i = 0; i < N; i++)
        count[i] = t->bp[i];
    for (int i = 0; i < N; i++) {
        t->bi[count[i]++] = i;
        for (int f = 0; f < NFAM; f++) {
            int j = spring_other(g, i, &families[f]);
            if (j >= 0 && family_k(o, families[f].kind) > 0) {
                t->bi[count[i]++] = j;
                t->bi[count[j]++] = i;
            }
        }
    }
    for (int i = 0; i < N; i++)
        sort_ints(t->bi + t->bp[i], t->bp[i + 1] - t->bp[i]);
    free(count);

    /* values: SPD mass block per node, [K -K; -K K] per spring */
    for (int i = 0; i < N; i++) {
        double R[9], *M = block_at(t, i, i);
        for (int e = 0; e < 9; e++)
            R[e] = testsys_sym(&rng);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                double s = a == b ? 1 : 0;
                for (int c = 0; c < 3; c++)
                    s += 0.3 * R[3 * c + a] * R[3 * c + b];
                M[3 * b + a] += o->mass * s;
            }
    }
    for (int i = 0; i < N; i++)
        for (int f = 0; f < NFAM; f++) {
            int j = spring_other(g, i, &families[f]);
            double k = family_k(o, families[f].kind);
            if (j < 0 || !(k > 0))
                continue;
            double K[9];
            testsys_spring_K(&rng, k, K);
            add_spring(t, i, j, K);
            if (families[f].kind == 0) {
                /* stretch pairs in both orientations */
                int flip = testsys_uniform(&rng) < 0.5;
                t->pairs[2 * t->nstretch] = flip ? j : i;
                t->pairs[2 * t->nstretch + 1] = flip ? i : j;
                t->nstretch++;
            }
        }

    /* constraints on a random subset, kinds cycled 2, 1, 0 */
    int *order = malloc(sizeof(int) * (size_t)N);
    if (!order) {
        testsys_free(t);
        return -1;
    }
    for (int i = 0; i < N; i++)
        order[i] = i;
    for (int i = N - 1; i > 0; i--) {
        int j = (int)(testsys_uniform(&rng) * (i + 1));
        int s = order[i];
        order[i] = order[j];
        order[j] = s;
    }
    t->ncons = (int)(o->frac_constrained * N + 0.5);
    for (int i = 0; i < N; i++)
        t->ndof[i] = 3;
    for (int k = 0; k < t->ncons; k++) {
        corepcg_constraint *c = &t->cons[k];
        memset(c, 0, sizeof *c);
        c->node = order[k];
        c->ndof = o->ndof_only >= 0 ? o->ndof_only : 2 - k % 3;
        t->ndof[c->node] = c->ndof;
        if (c->ndof > 0) {
            double s = 0.5 + 1.5 * testsys_uniform(&rng);
            testsys_unit(&rng, c->p);
            for (int a = 0; a < 3; a++)
                c->p[a] *= s; /* not unit: the library normalises */
        }
        if (c->ndof == 1) {
            double p[3], s = 0.5 + 1.5 * testsys_uniform(&rng);
            memcpy(p, c->p, sizeof p);
            normalise3(p);
            testsys_orthogonal_unit(&rng, p, c->q);
            for (int a = 0; a < 3; a++)
                c->q[a] *= s;
        }
    }
    free(order);
    t->r = 0;
    for (int i = 0; i < N; i++)
        t->r += t->ndof[i];
    compute_S(t);

    for (int k = 0; k < n; k++) {
        t->z[k] = testsys_sym(&rng);
        t->b[k] = testsys_sym(&rng);
        t->x0[k] = testsys_sym(&rng);
    }
    if (testsys_set_form(t, COREPCG_CSC, COREPCG_LOWER)) {
        testsys_free(t);
        return -1;
    }
    return 0;
}

void testsys_free(testsys *t)
{
    free(t->bp);
    free(t->bi);
    free(t->bx);
    free(t->cons);
    free(t->ndof);
    free(t->S);
    free(t->z);
    free(t->b);
    free(t->x0);
    free(t->pairs);
    free(t->colptr);
    free(t->rowidx);
    free(t->colidx);
    free(t->values);
    memset(t, 0, sizeof *t);
}

static int keep_entry(corepcg_triangle tri, int row, int col)
{
    return tri == COREPCG_BOTH || (tri == COREPCG_LOWER ? row >= col : row <= col);
}

int testsys_set_form(testsys *t, corepcg_format format,
                     corepcg_triangle triangle)
{
    int n = t->n;
    free(t->colptr);
    free(t->rowidx);
    free(t->colidx);
    free(t->values);
    t->colptr = t->rowidx = t->colidx = NULL;
    t->values = NULL;
    size_t cap = 9 * (size_t)t->bp[t->N] * 2;
    t->colptr = malloc(sizeof(int) * ((size_t)n + 1));
    t->rowidx = malloc(sizeof(int) * cap);
    t->colidx = malloc(sizeof(int) * cap);
    t->values = malloc(sizeof(double) * cap);
    if (!t->colptr || !t->rowidx || !t->colidx || !t->values)
        return -1;
    int m = 0;
    t->colptr[0] = 0;
    for (int J = 0; J < t->N; J++)
        for (int c = 0; c < 3; c++) {
            int col = 3 * J + c;
            for (int k = t->bp[J]; k < t->bp[J + 1]; k++)
                for (int a = 0; a < 3; a++) {
                    int row = 3 * t->bi[k] + a;
                    if (!keep_entry(triangle, row, col))
                        continue;
                    double v = t->bx[9L * k + 3 * c + a];
                    if (format == COREPCG_TRIPLET) {
                        /* two halves: exact in binary, summed by the reader */
                        for (int h = 0; h < 2; h++) {
                            t->rowidx[m] = row;
                            t->colidx[m] = col;
                            t->values[m++] = 0.5 * v;
                        }
                    } else {
                        t->rowidx[m] = row;
                        t->colidx[m] = col;
                        t->values[m++] = v;
                    }
                }
            t->colptr[col + 1] = m;
        }
    if (format == COREPCG_TRIPLET) {
        testsys_rng rng;
        testsys_rng_seed(&rng, 777);
        for (int k = m - 1; k > 0; k--) {
            int j = (int)(testsys_uniform(&rng) * (k + 1));
            int ri = t->rowidx[k], ci = t->colidx[k];
            double v = t->values[k];
            t->rowidx[k] = t->rowidx[j];
            t->colidx[k] = t->colidx[j];
            t->values[k] = t->values[j];
            t->rowidx[j] = ri;
            t->colidx[j] = ci;
            t->values[j] = v;
        }
    }
    t->nnz = m;
    corepcg_system *s = &t->sys;
    memset(s, 0, sizeof *s);
    s->num_nodes = t->N;
    s->A_format = format;
    s->A_triangle = triangle;
    s->A_colptr = format == COREPCG_CSC ? t->colptr : NULL;
    s->A_rowidx = t->rowidx;
    s->A_colidx = format == COREPCG_TRIPLET ? t->colidx : NULL;
    s->A_values = t->values;
    s->A_nnz = format == COREPCG_TRIPLET ? m : 0;
    s->num_constraints = t->ncons;
    s->constraints = t->ncons ? t->cons : NULL;
    s->z = t->z;
    s->num_stretch = t->nstretch;
    s->stretch_pairs = t->pairs;
    return 0;
}

int testsys_set_constraints(testsys *t, const corepcg_constraint *c,
                            int count)
{
    corepcg_constraint *copy = malloc(sizeof *copy * (size_t)(count ? count : 1));
    if (!copy)
        return -1;
    if (count)
        memcpy(copy, c, sizeof *copy * (size_t)count);
    free(t->cons);
    t->cons = copy;
    t->ncons = count;
    for (int i = 0; i < t->N; i++)
        t->ndof[i] = 3;
    for (int k = 0; k < count; k++)
        t->ndof[c[k].node] = c[k].ndof;
    t->r = 0;
    for (int i = 0; i < t->N; i++)
        t->r += t->ndof[i];
    compute_S(t);
    t->sys.num_constraints = count;
    t->sys.constraints = count ? t->cons : NULL;
    return 0;
}

void testsys_negate_diagonal_block(testsys *t, int node)
{
    double *B = block_at(t, node, node);
    for (int e = 0; e < 9; e++)
        B[e] = -B[e];
    testsys_set_form(t, COREPCG_CSC, COREPCG_LOWER);
}

void testsys_scale(testsys *t, double s)
{
    for (long e = 0; e < 9L * t->bp[t->N]; e++)
        t->bx[e] *= s;
    testsys_set_form(t, COREPCG_CSC, COREPCG_LOWER);
}

/* ------------------------------------------------------------ dense */

void testsys_mult(const testsys *t, const double *x, double *y)
{
    memset(y, 0, sizeof(double) * (size_t)t->n);
    for (int J = 0; J < t->N; J++)
        for (int k = t->bp[J]; k < t->bp[J + 1]; k++) {
            const double *B = t->bx + 9L * k;
            int I = t->bi[k];
            for (int a = 0; a < 3; a++)
                for (int c = 0; c < 3; c++)
                    y[3 * I + a] += B[3 * c + a] * x[3 * J + c];
        }
}

double *testsys_dense_A(const testsys *t)
{
    size_t n = (size_t)t->n;
    double *A = calloc(n * n, sizeof(double));
    if (!A)
        return NULL;
    for (int J = 0; J < t->N; J++)
        for (int k = t->bp[J]; k < t->bp[J + 1]; k++)
            for (int c = 0; c < 3; c++)
                for (int a = 0; a < 3; a++)
                    A[(3 * (size_t)J + c) * n + 3 * (size_t)t->bi[k] + a] =
                        t->bx[9L * k + 3 * c + a];
    return A;
}

double *testsys_dense_S(const testsys *t)
{
    size_t n = (size_t)t->n;
    double *S = calloc(n * n, sizeof(double));
    if (!S)
        return NULL;
    for (int i = 0; i < t->N; i++)
        for (int c = 0; c < 3; c++)
            for (int a = 0; a < 3; a++)
                S[(3 * (size_t)i + c) * n + 3 * (size_t)i + a] =
                    t->S[9L * i + 3 * c + a];
    return S;
}

/* What the dense references need: dense A, the S blocks and z. */
struct dense_ref {
    int N, n;
    double *A;       /* n x n column-major */
    double *S;       /* 9 N */
    const double *z; /* n, or NULL for zero */
};

static void dense_ref_free(struct dense_ref *d)
{
    free(d->A);
    free(d->S);
    d->A = d->S = NULL;
}

/* v -> S v with the per-node blocks (out may not alias v). */
static void ref_apply_S(const struct dense_ref *d, const double *v, double *out)
{
    for (int i = 0; i < d->N; i++) {
        const double *S = d->S + 9L * i;
        for (int a = 0; a < 3; a++)
            out[3 * i + a] = S[a] * v[3 * i] + S[3 + a] * v[3 * i + 1] +
                             S[6 + a] * v[3 * i + 2];
    }
}

static void ref_mult(const struct dense_ref *d, const double *x, double *y)
{
    size_t n = (size_t)d->n;
    for (size_t i = 0; i < n; i++)
        y[i] = 0;
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < n; i++)
            y[i] += d->A[j * n + i] * x[j];
}

static double ref_z(const struct dense_ref *d, size_t k)
{
    return d->z ? d->z[k] : 0;
}

static int ref_solve(const struct dense_ref *d, const double *b, double *x)
{
    size_t n = (size_t)d->n;
    double *B = malloc(n * n * sizeof(double));
    int *ipiv = malloc(n * sizeof(int));
    double *z = calloc(n, sizeof(double)), *Sz = calloc(n, sizeof(double));
    if (!B || !ipiv || !z || !Sz) {
        free(B);
        free(ipiv);
        free(z);
        free(Sz);
        return -1;
    }
    /* B = S A + (I - S); S is block diagonal, so row block i of S A is
     * S_i times row block i of A. */
    for (size_t col = 0; col < n; col++)
        for (int i = 0; i < d->N; i++) {
            const double *S = d->S + 9L * i;
            for (int a = 0; a < 3; a++) {
                double s = 0;
                for (int c = 0; c < 3; c++)
                    s += S[3 * c + a] * d->A[col * n + 3 * (size_t)i + c];
                size_t row = 3 * (size_t)i + a;
                double ims = 0; /* (I - S)(row, col) */
                if (col / 3 == (size_t)i)
                    ims = (row == col ? 1 : 0) - S[3 * (col % 3) + a];
                B[col * n + row] = s + ims;
            }
        }
    /* rhs = S b + (I - S) z */
    for (size_t k = 0; k < n; k++)
        z[k] = ref_z(d, k);
    ref_apply_S(d, b, x);
    ref_apply_S(d, z, Sz);
    for (size_t k = 0; k < n; k++)
        x[k] += z[k] - Sz[k];
    int info = LAPACKE_dgesv(LAPACK_COL_MAJOR, (int)n, 1, B, (int)n, ipiv, x,
                             (int)n);
    free(B);
    free(ipiv);
    free(z);
    free(Sz);
    return info;
}

static void ref_measures(const struct dense_ref *d, const double *b,
                         const double *x, double *constraint_error,
                         double *rel_residual)
{
    size_t n = (size_t)d->n;
    double *v = calloc(n, sizeof(double)), *w = calloc(n, sizeof(double));
    double *Av = calloc(n, sizeof(double));
    *constraint_error = *rel_residual = NAN;
    if (!v || !w || !Av) {
        free(v);
        free(w);
        free(Av);
        return;
    }
    /* (I - S)(x - z) */
    for (size_t k = 0; k < n; k++)
        v[k] = x[k] - ref_z(d, k);
    ref_apply_S(d, v, w);
    double cerr = 0;
    for (size_t k = 0; k < n; k++)
        cerr = fmax(cerr, fabs(v[k] - w[k]));
    /* |S(b - A x)| */
    ref_mult(d, x, Av);
    for (size_t k = 0; k < n; k++)
        v[k] = b[k] - Av[k];
    ref_apply_S(d, v, w);
    double num = 0;
    for (size_t k = 0; k < n; k++)
        num += w[k] * w[k];
    /* |S(b - A (I - S) z)| */
    for (size_t k = 0; k < n; k++)
        Av[k] = ref_z(d, k);
    ref_apply_S(d, Av, w);
    for (size_t k = 0; k < n; k++)
        v[k] = ref_z(d, k) - w[k];
    ref_mult(d, v, Av);
    for (size_t k = 0; k < n; k++)
        v[k] = b[k] - Av[k];
    ref_apply_S(d, v, w);
    double den = 0;
    for (size_t k = 0; k < n; k++)
        den += w[k] * w[k];
    *constraint_error = cerr;
    *rel_residual = den > 0 ? sqrt(num / den) : sqrt(num);
    free(v);
    free(w);
    free(Av);
}

static int ref_of_testsys(const testsys *t, struct dense_ref *d)
{
    d->N = t->N;
    d->n = t->n;
    d->z = t->z;
    d->A = testsys_dense_A(t);
    d->S = malloc(9 * sizeof(double) * (size_t)t->N);
    if (!d->A || !d->S) {
        dense_ref_free(d);
        return -1;
    }
    memcpy(d->S, t->S, 9 * sizeof(double) * (size_t)t->N);
    return 0;
}

/* Dense A straight from the caller's arrays (one triangle mirrored). */
static int ref_of_system(const corepcg_system *sys, struct dense_ref *d)
{
    size_t n = 3 * (size_t)sys->num_nodes;
    d->N = sys->num_nodes;
    d->n = (int)n;
    d->z = sys->z;
    d->A = calloc(n * n, sizeof(double));
    d->S = malloc(9 * sizeof(double) * (size_t)d->N);
    if (!d->A || !d->S) {
        dense_ref_free(d);
        return -1;
    }
    long count = sys->A_format == COREPCG_CSC ? sys->A_colptr[n] : sys->A_nnz;
    size_t col = 0;
    for (long k = 0; k < count; k++) {
        size_t row = (size_t)sys->A_rowidx[k];
        if (sys->A_format == COREPCG_CSC)
            while ((long)sys->A_colptr[col + 1] <= k)
                col++;
        else
            col = (size_t)sys->A_colidx[k];
        double v = sys->A_values[k];
        d->A[col * n + row] += v;
        if (sys->A_triangle != COREPCG_BOTH && row != col)
            d->A[row * n + col] += v;
    }
    S_from_records(d->N, sys->constraints, sys->num_constraints, d->S);
    return 0;
}

int testsys_dense_solve(const testsys *t, const double *b, double *x)
{
    struct dense_ref d;
    if (ref_of_testsys(t, &d))
        return -1;
    int info = ref_solve(&d, b, x);
    dense_ref_free(&d);
    return info;
}

void testsys_measures(const testsys *t, const double *b, const double *x,
                      double *constraint_error, double *rel_residual)
{
    struct dense_ref d;
    *constraint_error = *rel_residual = NAN;
    if (ref_of_testsys(t, &d))
        return;
    ref_measures(&d, b, x, constraint_error, rel_residual);
    dense_ref_free(&d);
}

int testsys_system_dense_solve(const corepcg_system *sys, const double *b,
                               double *x)
{
    struct dense_ref d;
    if (ref_of_system(sys, &d))
        return -1;
    int info = ref_solve(&d, b, x);
    dense_ref_free(&d);
    return info;
}

void testsys_system_measures(const corepcg_system *sys, const double *b,
                             const double *x, double *constraint_error,
                             double *rel_residual)
{
    struct dense_ref d;
    *constraint_error = *rel_residual = NAN;
    if (ref_of_system(sys, &d))
        return;
    ref_measures(&d, b, x, constraint_error, rel_residual);
    dense_ref_free(&d);
}

double testsys_max_diff(int n, const double *a, const double *b)
{
    double m = 0;
    for (int k = 0; k < n; k++) {
        double d = fabs(a[k] - b[k]);
        if (!(d <= m))
            m = isnan(d) ? INFINITY : d;
    }
    return m;
}

double testsys_max_abs(int n, const double *a)
{
    double m = 0;
    for (int k = 0; k < n; k++)
        m = fmax(m, fabs(a[k]));
    return m;
}

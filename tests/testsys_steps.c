/* SPDX-License-Identifier: GPL-2.0-or-later */
/* testsys_steps.c -- see testsys_steps.h. Nothing here calls the library
 * but for names of enums. */
#include "testsys_steps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int rand_int(testsys_rng *r, int count)
{
    int k = (int)(testsys_uniform(r) * count);
    return k < count ? k : count - 1;
}

/* 1 when a grid spring (stretch, shear or bend) joins nodes a and b. */
static int springs_join(int g, int a, int b)
{
    int dx = abs(a % g - b % g), dy = abs(a / g - b / g);
    return (dx <= 1 && dy <= 1) || (dx == 0 && dy == 2) || (dx == 2 && dy == 0);
}

static int in_contact(const steps_scene *sc, int a, int b)
{
    for (int k = 0; k < sc->ncontacts; k++)
        if ((sc->contacts[k].a == a && sc->contacts[k].b == b) ||
            (sc->contacts[k].a == b && sc->contacts[k].b == a))
            return 1;
    return 0;
}

/* 1 when a new contact may join a and b: two new blocks. */
static int free_pair(const steps_scene *sc, int a, int b)
{
    return a != b && !springs_join(sc->g, a, b) && !in_contact(sc, a, b);
}

static int add_contact(steps_scene *sc)
{
    if (sc->ncontacts == STEPS_MAX_CONTACTS)
        return 0;
    for (int tries = 0; tries < 200; tries++) {
        int a = rand_int(&sc->rng, sc->N), b = rand_int(&sc->rng, sc->N);
        if (!free_pair(sc, a, b))
            continue;
        steps_contact *c = &sc->contacts[sc->ncontacts++];
        c->a = a;
        c->b = b;
        c->k = pow(10, -1 + 4 * testsys_uniform(&sc->rng));
        return 1;
    }
    return 0;
}

static void drop_contact(steps_scene *sc, int k)
{
    sc->contacts[k] = sc->contacts[--sc->ncontacts];
}

/* Contacts i and j trade partners, (a, b) (c, d) -> (a, d) (c, b), or in
 * the other pairing (a, c) (b, d), whichever makes two new contacts. */
static void swap_partners(steps_scene *sc, int i, int j)
{
    steps_contact *x = &sc->contacts[i], *y = &sc->contacts[j];
    int *other_end[2] = {&y->b, &y->a};
    for (int e = 0; e < 2; e++) {
        int *v = other_end[e], *w = other_end[1 - e];
        /* x becomes (x->a, *v), y becomes (*w, x->b): both new pairs */
        if (!free_pair(sc, x->a, *v) || !free_pair(sc, *w, x->b))
            continue;
        int t = *v;
        *v = x->b;
        x->b = t;
        return;
    }
}

static void random_constraint(steps_scene *sc, int node, int ndof)
{
    sc->ndof[node] = ndof;
    double s = 0.5 + testsys_uniform(&sc->rng);
    testsys_unit(&sc->rng, sc->p[node]);
    testsys_orthogonal_unit(&sc->rng, sc->p[node], sc->q[node]);
    for (int a = 0; a < 3; a++) /* not unit: the library normalises */
        sc->p[node][a] *= s;
}

/* Every quad takes one of its diagonals at random (FEM scenes). */
static void triangulate(steps_scene *sc)
{
    for (int q = 0; q < sc->N; q++)
        sc->split[q] = testsys_uniform(&sc->rng) < 0.5;
}

static void new_grid(steps_scene *sc, int g)
{
    sc->g = g;
    sc->N = g * g;
    sc->ncontacts = 0;
    sc->hist_n[0] = sc->hist_n[1] = 0;
    for (int i = 0; i < sc->N; i++) {
        sc->ndof[i] = 3;
        if (testsys_uniform(&sc->rng) < 0.25)
            random_constraint(sc, i, rand_int(&sc->rng, 3));
    }
    for (int k = 0; k < 3; k++)
        add_contact(sc);
    if (sc->fem) /* drawn last: a spring scene's draws stay as they were */
        triangulate(sc);
}

void steps_init(steps_scene *sc, unsigned long seed, int g, double k_stretch)
{
    memset(sc, 0, sizeof *sc);
    testsys_rng_seed(&sc->rng, seed);
    sc->seed = seed;
    sc->k_stretch = k_stretch;
    sc->scale = 1;
    sc->stretch = STEPS_STRETCH_ALL;
    sc->format = COREPCG_CSC;
    sc->triangle = COREPCG_LOWER;
    new_grid(sc, g);
}

void steps_init_fem(steps_scene *sc, unsigned long seed, int g,
                    double k_stretch)
{
    steps_init(sc, seed, g, k_stretch);
    sc->fem = 1;
    triangulate(sc);
    sc->k_hinge = 0.1;
    sc->hinge_share = 1;
    sc->hinge_seed = seed;
    sc->k_membrane = 0.3;
}

static int hinges(const steps_scene *sc, int h[][4]);

/* The element letters of steps_change_pattern (FEM scenes). */
static void change_elements(steps_scene *sc, char action)
{
    testsys_rng *r = &sc->rng;
    switch (action) {
    case 'F': { /* the wings' left-out block projected away */
        sc->hinge_share = 0.05;
        sc->hinge_seed = (unsigned long)(testsys_uniform(r) * 1e9);
        sc->k_hinge = pow(10, -3 + 3.5 * testsys_uniform(r));
        int h[STEPS_MAX_HINGES][4], nh = hinges(sc, h);
        for (int e = 0; e < nh; e++)
            random_constraint(sc, h[e][2 + rand_int(r, 2)], 0);
        break;
    }
    case 'H': {
        static const double shares[] = {1, 0.4, 0.05};
        sc->hinge_share = shares[rand_int(r, 3)];
        sc->hinge_seed = (unsigned long)(testsys_uniform(r) * 1e9);
        sc->k_hinge = pow(10, -3 + 3.5 * testsys_uniform(r));
        break;
    }
    case 'O':
        sc->k_hinge = 0;
        break;
    case 'J': /* towards the other end of the range H draws from */
        if (sc->k_hinge > 0.03)
            sc->k_hinge /= pow(10, 1 + testsys_uniform(r));
        else
            sc->k_hinge *= pow(10, 1 + testsys_uniform(r));
        break;
    case 'T': {
        int count = 1 + rand_int(r, 3), g = sc->g;
        for (int k = 0; k < count; k++) {
            int x = rand_int(r, g - 1), y = rand_int(r, g - 1);
            sc->split[y * g + x] ^= 1;
        }
        break;
    }
    case 'E':
        sc->k_membrane = sc->k_membrane > 0 ? 0 : 0.3;
        break;
    default:
        break;
    }
}

void steps_change_pattern(steps_scene *sc, char action)
{
    sc->hist_n[1] = sc->hist_n[0];
    memcpy(sc->hist[1], sc->hist[0], sizeof sc->hist[0]);
    sc->hist_n[0] = sc->ncontacts;
    memcpy(sc->hist[0], sc->contacts, sizeof sc->contacts);
    int n = sc->ncontacts;
    switch (action) {
    case 'M':
        if (n > 0 && add_contact(sc)) /* added first: never the old pair */
            drop_contact(sc, rand_int(&sc->rng, n));
        break;
    case 'S':
        if (n >= 2) {
            int i = rand_int(&sc->rng, n), j = rand_int(&sc->rng, n - 1);
            swap_partners(sc, i, j >= i ? j + 1 : j);
        }
        break;
    case 'A':
        add_contact(sc);
        break;
    case 'D':
        if (n > 0)
            drop_contact(sc, rand_int(&sc->rng, n));
        break;
    case 'R':
        sc->ncontacts = sc->hist_n[1];
        memcpy(sc->contacts, sc->hist[1], sizeof sc->contacts);
        break;
    case 'N': /* any other size in 3..STEPS_MAX_G */
        new_grid(sc, 3 + (sc->g - 3 + 1 + rand_int(&sc->rng, STEPS_MAX_G - 3)) %
                             (STEPS_MAX_G - 2));
        break;
    default: /* 'K', or an element's letter */
        if (sc->fem)
            change_elements(sc, action);
        break;
    }
}

void steps_advance_node(steps_scene *sc, int i)
{
    static const int next_ndof[4] = {1, 3, 0, 2};
    random_constraint(sc, i, next_ndof[sc->ndof[i]]);
}

void steps_redirect(steps_scene *sc)
{
    for (int i = 0; i < sc->N; i++)
        if (sc->ndof[i] < 3)
            random_constraint(sc, i, sc->ndof[i]);
}

/* ------------------------------------------------------------ elements */

/* The triangles of an FEM scene's grid. */
static int triangles(const steps_scene *sc, int tri[][3])
{
    int g = sc->g, m = 0;
    for (int y = 0; y + 1 < g; y++)
        for (int x = 0; x + 1 < g; x++) {
            int a = y * g + x, b = a + 1, c = a + g, d = c + 1;
            int split = sc->split[y * g + x];
            int t0[3] = {a, b, split ? c : d}, t1[3] = {split ? b : a, d, c};
            memcpy(tri[m++], t0, sizeof t0);
            memcpy(tri[m++], t1, sizeof t1);
        }
    return m;
}

/* Where the three nodes of u meet those of v: 1 when they share an edge,
 * with h = (its two ends, the vertex of u off it, the vertex of v off
 * it). */
static int hinge_of(const int *u, const int *v, int h[4])
{
    int shared = 0, off_u = -1, off_v = -1;
    for (int i = 0; i < 3; i++) {
        int in_v = u[i] == v[0] || u[i] == v[1] || u[i] == v[2];
        if (in_v)
            h[shared++] = u[i];
        else
            off_u = u[i];
        int in_u = v[i] == u[0] || v[i] == u[1] || v[i] == u[2];
        if (!in_u)
            off_v = v[i];
    }
    h[2] = off_u;
    h[3] = off_v;
    return shared == 2 && off_u >= 0 && off_v >= 0;
}

/* This step's hinges: the pairs of triangles that share an edge, each
 * kept with probability hinge_share (its own generator: the same seed
 * keeps the same hinges). */
static int hinges(const steps_scene *sc, int h[][4])
{
    if (!sc->fem || !(sc->k_hinge > 0))
        return 0;
    int tri[STEPS_MAX_TRIANGLES][3], nt = triangles(sc, tri), m = 0;
    testsys_rng pick;
    testsys_rng_seed(&pick, sc->hinge_seed);
    for (int u = 0; u < nt; u++)
        for (int v = u + 1; v < nt; v++) {
            int one[4];
            if (hinge_of(tri[u], tri[v], one) &&
                testsys_uniform(&pick) < sc->hinge_share)
                memcpy(h[m++], one, sizeof one);
        }
    return m;
}

int steps_hinge_count(const steps_scene *sc)
{
    int h[STEPS_MAX_HINGES][4];
    return hinges(sc, h);
}

/* The quads' diagonals join the stretch pairs (each in a random
 * orientation, as testsys_make hands over the grid's). */
static int add_diagonals(steps_scene *sc, testsys *t)
{
    int g = sc->g;
    int *pairs = realloc(t->pairs, sizeof(int) * 2 * STEPS_MAX_PAIRS);
    if (!pairs)
        return -1;
    t->pairs = pairs;
    for (int y = 0; y + 1 < g; y++)
        for (int x = 0; x + 1 < g; x++) {
            int a = y * g + x, split = sc->split[a];
            int i = split ? a + 1 : a, j = split ? a + g : a + g + 1;
            int flip = testsys_uniform(&sc->rng) < 0.5;
            t->pairs[2 * t->nstretch] = flip ? j : i;
            t->pairs[2 * t->nstretch + 1] = flip ? i : j;
            t->nstretch++;
        }
    return 0;
}

/* This step's hinges and membranes, new values on the scene's pattern. */
static int add_elements(steps_scene *sc, testsys *t)
{
    int h[STEPS_MAX_HINGES][4], nh = hinges(sc, h);
    double H[144], k = sc->scale * sc->k_stretch;
    for (int e = 0; e < nh; e++) {
        double kh = k * sc->k_hinge * (0.5 + testsys_uniform(&sc->rng));
        testsys_element_H(&sc->rng, 4, 1, kh, H);
        if (testsys_add_element(t, 4, h[e], H))
            return -1;
    }
    if (!(sc->k_membrane > 0))
        return 0;
    int tri[STEPS_MAX_TRIANGLES][3], nt = triangles(sc, tri);
    for (int e = 0; e < nt; e++) {
        double km = k * sc->k_membrane * (0.5 + testsys_uniform(&sc->rng));
        testsys_element_H(&sc->rng, 3, 2, km, H);
        if (testsys_add_element(t, 3, tri[e], H))
            return -1;
    }
    return 0;
}

static int is_stretch_pair(const testsys *t, int a, int b)
{
    for (int s = 0; s < t->nstretch; s++) {
        int i = t->pairs[2 * s], j = t->pairs[2 * s + 1];
        if ((i == a && j == b) || (i == b && j == a))
            return 1;
    }
    return 0;
}

/* 1 when a pair of the m nodes is a left-out block between free nodes. */
static int element_left_out(const testsys *t, int m, const int *nodes)
{
    for (int u = 0; u < m; u++)
        for (int v = u + 1; v < m; v++)
            if (t->ndof[nodes[u]] > 0 && t->ndof[nodes[v]] > 0 &&
                !is_stretch_pair(t, nodes[u], nodes[v]))
                return 1;
    return 0;
}

int steps_left_out_asymmetric(const steps_scene *sc, const testsys *t)
{
    if (!sc->fem)
        return 0;
    int h[STEPS_MAX_HINGES][4], nh = hinges(sc, h);
    for (int e = 0; e < nh; e++)
        if (element_left_out(t, 4, h[e]))
            return 1;
    if (!(sc->k_membrane > 0))
        return 0;
    int tri[STEPS_MAX_TRIANGLES][3], nt = triangles(sc, tri);
    for (int e = 0; e < nt; e++)
        if (element_left_out(t, 3, tri[e]))
            return 1;
    return 0;
}

/* ------------------------------------------------------------ steps */

/* The stretch pairs testsys made, as the scene's mode wants them. */
static void shape_stretch(steps_scene *sc, testsys *t)
{
    testsys_rng sub;
    testsys_rng_seed(&sub, sc->subset_seed);
    int m = 0;
    for (int s = 0; s < t->nstretch; s++) {
        int a = t->pairs[2 * s], b = t->pairs[2 * s + 1];
        int lo = a < b ? a : b, hi = a < b ? b : a;
        if (sc->stretch == STEPS_STRETCH_SUBSET && testsys_uniform(&sub) < 0.33)
            continue;
        int flip = sc->stretch == STEPS_STRETCH_SHUFFLED &&
                   testsys_uniform(&sc->rng) < 0.5;
        t->pairs[2 * m] = flip ? hi : lo;
        t->pairs[2 * m + 1] = flip ? lo : hi;
        m++;
    }
    t->nstretch = m;
    if (sc->stretch == STEPS_STRETCH_SHUFFLED)
        for (int s = m - 1; s > 0; s--) {
            int j = rand_int(&sc->rng, s + 1);
            for (int e = 0; e < 2; e++) {
                int v = t->pairs[2 * s + e];
                t->pairs[2 * s + e] = t->pairs[2 * j + e];
                t->pairs[2 * j + e] = v;
            }
        }
}

int steps_build(steps_scene *sc, int step, testsys *t)
{
    testsys_opts o;
    testsys_default_opts(&o, sc->g, sc->seed * 1000 + (unsigned long)step);
    o.mass = sc->scale;
    o.k_stretch = sc->scale * sc->k_stretch;
    o.k_shear = sc->scale * sc->k_stretch / 25;
    o.k_bend = sc->scale * sc->k_stretch / 100;
    o.frac_constrained = 0;
    if (testsys_make(t, &o))
        return -1;
    for (int k = 0; k < sc->ncontacts; k++) {
        double K[9];
        testsys_spring_K(&sc->rng, sc->scale * sc->contacts[k].k, K);
        if (testsys_add_coupling(t, sc->contacts[k].a, sc->contacts[k].b, K)) {
            testsys_free(t);
            return -1;
        }
    }
    if (sc->fem && (add_diagonals(sc, t) || add_elements(sc, t))) {
        testsys_free(t);
        return -1;
    }
    corepcg_constraint cons[STEPS_MAX_NODES];
    int count = 0;
    for (int i = 0; i < sc->N; i++) {
        if (sc->ndof[i] == 3)
            continue;
        corepcg_constraint *c = &cons[count++];
        c->node = i;
        c->ndof = sc->ndof[i];
        memcpy(c->p, sc->p[i], sizeof c->p);
        memcpy(c->q, sc->q[i], sizeof c->q);
    }
    shape_stretch(sc, t);
    if (testsys_set_constraints(t, cons, count) ||
        testsys_set_form(t, sc->format, sc->triangle)) {
        testsys_free(t);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ shapes */

static int compare_pairs(const void *x, const void *y)
{
    const int *a = x, *b = y;
    return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0])
                        : (a[1] > b[1]) - (a[1] < b[1]);
}

void steps_shape_of(const testsys *t, steps_shape *s)
{
    s->N = t->N;
    s->nblocks = t->bp[t->N];
    memcpy(s->bp, t->bp, sizeof(int) * ((size_t)t->N + 1));
    memcpy(s->bi, t->bi, sizeof(int) * (size_t)s->nblocks);
    memcpy(s->ndof, t->ndof, sizeof(int) * (size_t)t->N);
    s->nstretch = t->nstretch;
    for (int k = 0; k < t->nstretch; k++) {
        int a = t->pairs[2 * k], b = t->pairs[2 * k + 1];
        s->pairs[2 * k] = a < b ? a : b;
        s->pairs[2 * k + 1] = a < b ? b : a;
    }
    qsort(s->pairs, (size_t)t->nstretch, 2 * sizeof(int), compare_pairs);
}

int steps_same_blocks(const steps_shape *a, const steps_shape *b)
{
    return a->N == b->N && a->nblocks == b->nblocks &&
           memcmp(a->bp, b->bp, sizeof(int) * ((size_t)a->N + 1)) == 0 &&
           memcmp(a->bi, b->bi, sizeof(int) * (size_t)a->nblocks) == 0;
}

steps_change steps_change_of(const steps_shape *a, const steps_shape *b)
{
    steps_change c = {1, 1, 1, 1, 1, 1};
    if (a->N != b->N)
        return c;
    c.N = 0;
    c.blocks = !steps_same_blocks(a, b);
    c.ndof = memcmp(a->ndof, b->ndof, sizeof(int) * (size_t)a->N) != 0;
    c.fixed = c.full = 0;
    for (int i = 0; i < a->N; i++) {
        c.fixed |= (a->ndof[i] == 0) != (b->ndof[i] == 0);
        c.full |= (a->ndof[i] == 3) != (b->ndof[i] == 3);
    }
    c.stretch = a->nstretch != b->nstretch ||
                memcmp(a->pairs, b->pairs, 2 * sizeof(int) * (size_t)a->nstretch) != 0;
    return c;
}

int steps_expected_reuse(corepcg_method m, const steps_change *c)
{
    /* amgpcg (added since the header's constants): its hierarchy is made
     * from A's blocks and the stretch pairs' graph */
    if ((int)m == corepcg_method_from_name("amgpcg"))
        return !c->blocks && !c->stretch;
    switch (m) {
    case COREPCG_METHOD_DIRECT: /* S A S + D (I - S): A's blocks */
        return !c->blocks;
    case COREPCG_METHOD_COREPCG: /* core stretch: the diagonal and the
                                    stretch pairs' blocks, unordered; A's
                                    other blocks (contacts) may change */
        return !c->N && !c->stretch;
    case COREPCG_METHOD_ICPCG: /* cpg_rmat_same_free: nodes with ndof > 0 */
        return !c->blocks && !c->fixed;
    case COREPCG_METHOD_UPCG: /* cpg_same_reduced_pattern */
        return !c->blocks && !c->ndof;
    case COREPCG_METHOD_MPCG:
    case COREPCG_METHOD_MPCG_BW: /* vectors of n: the preconditioner is
                                    rebuilt from the values */
        return !c->N;
    default: /* auto: steps_auto_reuse_allowed */
        return c->N ? 0 : -1;
    }
}

int steps_auto_reuse_allowed(corepcg_method used, const steps_change *c)
{
    /* the candidate that ran keeps its analysis by its own rule (corrected
     * MPCG, prepared beside it as the fallback, keeps its own while N
     * holds, which every rule asks too) */
    return steps_expected_reuse(used, c) != 0;
}

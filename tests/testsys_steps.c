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
    default: /* 'K' */
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

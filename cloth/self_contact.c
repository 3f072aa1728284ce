/* SPDX-License-Identifier: GPL-2.0-or-later */
/* self_contact.c -- repulsion springs between vertices of the cloth that
 * come closer than the thickness without being neighbours. Candidates come
 * from a spatial hash of cells one thickness wide (each vertex looks in
 * its own cell and the 26 around it), not from all N^2 pairs. A pair is
 * skipped when a fixed spring joins it or when it was closer than the
 * thickness at the start (vertices of one neighbourhood, not two layers
 * of cloth meeting). The springs are found afresh every step; when the
 * set changes, so does A's pattern. */
#include "cloth_model.h"
#include "cloth_sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int out_of_memory(char *msg)
{
    if (msg)
        snprintf(msg, COREPCG_MSG_SIZE, "cloth self-contact: out of memory");
    return COREPCG_ERR_NO_MEMORY;
}

static unsigned long cell_hash(const long cell[3], int size)
{
    unsigned long h = (unsigned long)cell[0] * 73856093UL ^
                      (unsigned long)cell[1] * 19349663UL ^
                      (unsigned long)cell[2] * 83492791UL;
    return h & (unsigned long)(size - 1);
}

/* Buckets every node with a finite position by its cell (size a power of
 * two, at least 2N); hash_head[bucket] and hash_next[node] chain them. */
static int fill_hash(cloth_sim *sim, double cell_width, char *msg)
{
    int N = sim->model.N;
    if (!sim->hash_head) {
        int size = 1;
        while (size < 2 * N)
            size *= 2;
        sim->hash_size = size;
        sim->hash_head = malloc((size_t)size * sizeof *sim->hash_head);
        sim->hash_next = malloc((size_t)N * sizeof *sim->hash_next);
        sim->hash_cell = malloc(3 * (size_t)N * sizeof *sim->hash_cell);
        if (!sim->hash_head || !sim->hash_next || !sim->hash_cell)
            return out_of_memory(msg);
    }
    for (int k = 0; k < sim->hash_size; k++)
        sim->hash_head[k] = -1;
    for (int i = N - 1; i >= 0; i--) {
        const double *x = &sim->x[3 * i];
        long *cell = &sim->hash_cell[3 * i];
        sim->hash_next[i] = -1;
        if (!isfinite(x[0]) || !isfinite(x[1]) || !isfinite(x[2]))
            continue;
        for (int c = 0; c < 3; c++)
            cell[c] = (long)floor(x[c] / cell_width);
        unsigned long b = cell_hash(cell, sim->hash_size);
        sim->hash_next[i] = sim->hash_head[b];
        sim->hash_head[b] = i;
    }
    return COREPCG_OK;
}

static double distance2(const double *x, int a, int b)
{
    double d[3] = {x[3 * a] - x[3 * b], x[3 * a + 1] - x[3 * b + 1], x[3 * a + 2] - x[3 * b + 2]};
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

/* 1 when a fixed spring joins a and b (sorted neighbour lists). */
static int joined(const cloth_model *g, int a, int b)
{
    int lo = g->near_ptr[a], hi = g->near_ptr[a + 1];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (g->near[mid] < b)
            lo = mid + 1;
        else if (g->near[mid] > b)
            hi = mid;
        else
            return 1;
    }
    return 0;
}

/* Room for `count` contact springs after the fixed ones. */
static int reserve(cloth_model *g, long count)
{
    if (g->num_fixed + count <= g->spring_capacity)
        return 0;
    long wanted = g->num_fixed + 2 * count + 64;
    cloth_spring *grown = realloc(g->springs, (size_t)wanted * sizeof *grown);
    if (!grown)
        return -1;
    g->springs = grown;
    g->spring_capacity = (int)wanted;
    return 0;
}

/* Appends pair a < b to the list being built (springs past the fixed ones
 * and the previous step's contact springs: kept apart in `found`). */
static int add_pair(int **found, long *count, long *capacity, int a, int b)
{
    if (*count == *capacity) {
        long wanted = *capacity ? 2 * *capacity : 256;
        int *grown = realloc(*found, 2 * (size_t)wanted * sizeof *grown);
        if (!grown)
            return -1;
        *found = grown;
        *capacity = wanted;
    }
    (*found)[2 * *count] = a;
    (*found)[2 * *count + 1] = b;
    (*count)++;
    return 0;
}

/* The pairs a < b closer than `thickness`, ascending by a, then b. */
static int find_pairs(cloth_sim *sim, double thickness, int **found, long *count)
{
    const cloth_model *g = &sim->model;
    long capacity = 0;
    double t2 = thickness * thickness;
    *found = NULL;
    *count = 0;
    for (int a = 0; a < g->N; a++) {
        const double *xa = &sim->x[3 * a];
        if (!isfinite(xa[0]) || !isfinite(xa[1]) || !isfinite(xa[2]))
            continue;
        const long *ca = &sim->hash_cell[3 * a];
        long first = *count;
        for (int dx = -1; dx <= 1; dx++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dz = -1; dz <= 1; dz++) {
                    long cell[3] = {ca[0] + dx, ca[1] + dy, ca[2] + dz};
                    unsigned long bucket = cell_hash(cell, sim->hash_size);
                    for (int b = sim->hash_head[bucket]; b >= 0; b = sim->hash_next[b]) {
                        const long *cb = &sim->hash_cell[3 * b];
                        /* another cell in the same bucket is not this one */
                        if (b <= a || cb[0] != cell[0] || cb[1] != cell[1] || cb[2] != cell[2])
                            continue;
                        if (!(distance2(sim->x, a, b) < t2) || joined(g, a, b) ||
                            distance2(sim->x_rest, a, b) < t2)
                            continue;
                        if (add_pair(found, count, &capacity, a, b))
                            return -1;
                    }
                }
        /* a's pairs by b ascending (the cells came in hash order) */
        int *pairs = *found;
        for (long k = first + 1; k < *count; k++) {
            int b = pairs[2 * k + 1];
            long j = k;
            for (; j > first && pairs[2 * j - 1] > b; j--)
                pairs[2 * j + 1] = pairs[2 * j - 1];
            pairs[2 * j + 1] = b;
        }
    }
    return 0;
}

/* 1 when the model's contact springs are exactly these pairs. */
static int same_pairs(const cloth_model *g, const int *found, long count)
{
    if (g->num_springs - g->num_fixed != count)
        return 0;
    for (long k = 0; k < count; k++) {
        const cloth_spring *sp = &g->springs[g->num_fixed + k];
        if (sp->a != found[2 * k] || sp->b != found[2 * k + 1])
            return 0;
    }
    return 1;
}

int cloth_self_contact(cloth_sim *sim, char *msg)
{
    cloth_model *g = &sim->model;
    sim->self_contacts = 0;
    sim->pattern_changed = 0;
    if (!sim->par.self_contact)
        return COREPCG_OK;
    double thickness = sim->par.thickness * g->spacing;
    int rc = fill_hash(sim, thickness, msg);
    if (rc != COREPCG_OK)
        return rc;
    int *found = NULL;
    long count = 0;
    if (find_pairs(sim, thickness, &found, &count)) {
        free(found);
        return out_of_memory(msg);
    }
    sim->self_contacts = (int)count;
    if (same_pairs(g, found, count)) {
        free(found);
        return COREPCG_OK;
    }
    if (count > (long)(2147483647 - g->num_fixed) / 2 || reserve(g, count)) {
        free(found);
        return out_of_memory(msg);
    }
    for (long k = 0; k < count; k++) {
        cloth_spring *sp = &g->springs[g->num_fixed + k];
        memset(sp, 0, sizeof *sp);
        sp->a = found[2 * k];
        sp->b = found[2 * k + 1];
        sp->kind = CLOTH_CONTACT;
        sp->rest = thickness;
    }
    free(found);
    g->num_springs = g->num_fixed + (int)count;
    sim->pattern_changed = 1;
    return cloth_model_pattern(g, msg);
}

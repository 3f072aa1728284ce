/* SPDX-License-Identifier: GPL-2.0-or-later */
/* model.c -- a cloth model's arrays, and A's lower-triangle CSC pattern
 * from its list of springs with where each spring's off-diagonal block
 * lands in it. The same code lays
 * out a grid, a mesh and a mesh with this step's self-contact springs:
 * node a's column holds its diagonal block's lower part, then three rows
 * per neighbour b > a in ascending order. */
#include "cloth_model.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cloth_model_free(cloth_model *g)
{
    if (!g)
        return;
    free(g->mass);
    free(g->faces);
    free(g->springs);
    free(g->stretch_pairs);
    free(g->near_ptr);
    free(g->near);
    free(g->colptr);
    free(g->rowidx);
    memset(g, 0, sizeof *g);
}

/* The model's arrays for N nodes, `springs` fixed springs of which
 * `stretch` stretch, and faces of face_size nodes. */
int cloth_model_alloc(cloth_model *g, int N, long springs, long stretch,
                      int face_size, long faces, char *msg)
{
    memset(g, 0, sizeof *g);
    g->N = N;
    g->n = 3 * N;
    g->num_fixed = g->num_springs = g->spring_capacity = (int)springs;
    g->num_stretch = (int)stretch;
    g->face_size = face_size;
    g->num_faces = (int)faces;
    g->mass = calloc((size_t)N, sizeof *g->mass);
    g->springs = malloc(((size_t)springs + 1) * sizeof *g->springs);
    g->stretch_pairs = malloc((2 * (size_t)stretch + 1) * sizeof *g->stretch_pairs);
    g->faces = malloc(((size_t)face_size * faces + 1) * sizeof *g->faces);
    if (!g->mass || !g->springs || !g->stretch_pairs || !g->faces) {
        cloth_model_free(g);
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "cloth of %d nodes: out of memory", N);
        return COREPCG_ERR_NO_MEMORY;
    }
    return COREPCG_OK;
}

static int out_of_memory(char *msg)
{
    if (msg)
        snprintf(msg, COREPCG_MSG_SIZE, "cloth: out of memory");
    return COREPCG_ERR_NO_MEMORY;
}

/* Sorts list[0 .. count) ascending and drops repeats; returns the new
 * count. The lists are a node's neighbours: a dozen or so. */
static int sort_unique(int *list, int count)
{
    for (int k = 1; k < count; k++) {
        int v = list[k], j = k;
        for (; j > 0 && list[j - 1] > v; j--)
            list[j] = list[j - 1];
        list[j] = v;
    }
    int kept = 0;
    for (int k = 0; k < count; k++)
        if (kept == 0 || list[kept - 1] != list[k])
            list[kept++] = list[k];
    return kept;
}

/* Each node's neighbours over springs[0 .. count), both directions, in
 * CSR form (ptr: N + 1); lists sorted and unique when `unique`, else in
 * spring order. later_only keeps b > a only. */
static int neighbour_lists(const cloth_model *g, int count, int later_only,
                           int **ptr_out, int **list_out)
{
    int N = g->N;
    int *ptr = calloc((size_t)N + 1, sizeof *ptr);
    int *list = malloc(((size_t)2 * count + 1) * sizeof *list);
    if (!ptr || !list) {
        free(ptr);
        free(list);
        return COREPCG_ERR_NO_MEMORY;
    }
    for (int s = 0; s < count; s++) {
        ptr[g->springs[s].a + 1]++;
        if (!later_only)
            ptr[g->springs[s].b + 1]++;
    }
    for (int i = 0; i < N; i++)
        ptr[i + 1] += ptr[i];
    /* fill with a moving cursor per node, then compact after sorting */
    int *fill = malloc(((size_t)N + 1) * sizeof *fill);
    if (!fill) {
        free(ptr);
        free(list);
        return COREPCG_ERR_NO_MEMORY;
    }
    memcpy(fill, ptr, ((size_t)N + 1) * sizeof *fill);
    for (int s = 0; s < count; s++) {
        const cloth_spring *sp = &g->springs[s];
        list[fill[sp->a]++] = sp->b;
        if (!later_only)
            list[fill[sp->b]++] = sp->a;
    }
    int out = 0;
    for (int i = 0; i < N; i++) {
        int start = ptr[i], kept = sort_unique(&list[start], ptr[i + 1] - start);
        memmove(&list[out], &list[start], (size_t)kept * sizeof *list);
        ptr[i] = out;
        out += kept;
    }
    ptr[N] = out;
    free(fill);
    *ptr_out = ptr;
    *list_out = list;
    return COREPCG_OK;
}

/* Index of value in the sorted list[lo .. hi), or -1. */
static int find(const int *list, int lo, int hi, int value)
{
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (list[mid] < value)
            lo = mid + 1;
        else if (list[mid] > value)
            hi = mid;
        else
            return mid;
    }
    return -1;
}

int cloth_model_pattern(cloth_model *g, char *msg)
{
    /* The first call also lists the fixed springs' neighbours, which
     * self-contact must skip. */
    if (!g->near_ptr &&
        neighbour_lists(g, g->num_fixed, 0, &g->near_ptr, &g->near) != COREPCG_OK)
        return out_of_memory(msg);

    int *ptr = NULL, *later = NULL;
    if (neighbour_lists(g, g->num_springs, 1, &ptr, &later) != COREPCG_OK)
        return out_of_memory(msg);
    long nnz = 6L * g->N + 9L * ptr[g->N];
    if (nnz > INT_MAX) {
        free(ptr);
        free(later);
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE,
                     "cloth of %d nodes: %ld matrix entries overflow int", g->N, nnz);
        return COREPCG_ERR_TOO_LARGE;
    }
    if (!g->colptr) {
        g->colptr = malloc(((size_t)g->n + 1) * sizeof *g->colptr);
        if (!g->colptr) {
            free(ptr);
            free(later);
            return out_of_memory(msg);
        }
    }
    if (nnz > g->nnz_capacity) {
        /* room for more: self-contact springs come and go every step */
        long capacity = nnz + nnz / 4 < INT_MAX ? nnz + nnz / 4 : nnz;
        int *grown = realloc(g->rowidx, (size_t)capacity * sizeof *grown);
        if (!grown) {
            free(ptr);
            free(later);
            return out_of_memory(msg);
        }
        g->rowidx = grown;
        g->nnz_capacity = (int)capacity;
    }
    int p = 0;
    for (int a = 0; a < g->N; a++)
        for (int cc = 0; cc < 3; cc++) {
            g->colptr[3 * a + cc] = p;
            for (int row = cc; row < 3; row++)
                g->rowidx[p++] = 3 * a + row;
            for (int k = ptr[a]; k < ptr[a + 1]; k++)
                for (int row = 0; row < 3; row++)
                    g->rowidx[p++] = 3 * later[k] + row;
        }
    g->colptr[g->n] = p;
    g->nnz = p;
    for (int s = 0; s < g->num_springs; s++) {
        cloth_spring *sp = &g->springs[s];
        int k = find(later, ptr[sp->a], ptr[sp->a + 1], sp->b) - ptr[sp->a];
        for (int cc = 0; cc < 3; cc++)
            sp->pos[cc] = g->colptr[3 * sp->a + cc] + (3 - cc) + 3 * k;
    }
    free(ptr);
    free(later);
    return COREPCG_OK;
}

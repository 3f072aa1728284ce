/* SPDX-License-Identifier: GPL-2.0-or-later */
/* grid.c -- the Provot grid's springs and the lower-triangle CSC pattern
 * of A, built once per grid: the springs never change, so neither does
 * the pattern, and each step only recomputes values. */
#include "cloth.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The neighbours of node (r, c) with a larger index, in ascending index
 * order (for m >= 3: (r, c+2) and (r+1, c-1) are never both on the grid
 * when they would collide), so each column's rows come out sorted. */
static const struct {
    int dr, dc;
    cloth_spring_kind kind;
} later_neighbours[6] = {
    {0, 1, CLOTH_STRETCH}, {0, 2, CLOTH_BEND},    {1, -1, CLOTH_SHEAR},
    {1, 0, CLOTH_STRETCH}, {1, 1, CLOTH_SHEAR},   {2, 0, CLOTH_BEND},
};

static int on_grid(int m, int r, int c)
{
    return r >= 0 && r < m && c >= 0 && c < m;
}

void cloth_grid_free(cloth_grid *g)
{
    if (!g)
        return;
    free(g->springs);
    free(g->stretch_pairs);
    free(g->colptr);
    free(g->rowidx);
    memset(g, 0, sizeof *g);
}

int cloth_grid_build(int m, double side, cloth_grid *g, char *msg)
{
    memset(g, 0, sizeof *g);
    if (m < CLOTH_MIN_SIZE || m > CLOTH_MAX_SIZE || !(side > 0.0)) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "cloth grid: size %d or side %g out of range", m, side);
        return COREPCG_ERR_ARGUMENT;
    }
    g->m = m;
    g->N = m * m;
    g->n = 3 * g->N;
    g->spacing = side / (m - 1);

    /* Count springs and entries first (in long: 2049^2 nodes fit int,
     * their entries must be checked). */
    long springs = 0, stretch = 0;
    for (int r = 0; r < m; r++)
        for (int c = 0; c < m; c++)
            for (int k = 0; k < 6; k++)
                if (on_grid(m, r + later_neighbours[k].dr, c + later_neighbours[k].dc)) {
                    springs++;
                    stretch += later_neighbours[k].kind == CLOTH_STRETCH;
                }
    long nnz = 6L * g->N + 9L * springs;
    if (nnz > INT_MAX) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "cloth grid %dx%d: %ld matrix entries overflow int", m, m, nnz);
        return COREPCG_ERR_TOO_LARGE;
    }
    g->num_springs = (int)springs;
    g->num_stretch = (int)stretch;
    g->nnz = (int)nnz;
    g->springs = malloc((size_t)springs * sizeof *g->springs);
    g->stretch_pairs = malloc(2 * (size_t)stretch * sizeof *g->stretch_pairs);
    g->colptr = malloc(((size_t)g->n + 1) * sizeof *g->colptr);
    g->rowidx = malloc((size_t)nnz * sizeof *g->rowidx);
    if (!g->springs || !g->stretch_pairs || !g->colptr || !g->rowidx) {
        cloth_grid_free(g);
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE, "cloth grid %dx%d: out of memory", m, m);
        return COREPCG_ERR_NO_MEMORY;
    }

    double diag = sqrt(2.0) * g->spacing;
    int s = 0, st = 0, p = 0;
    for (int r = 0; r < m; r++)
        for (int c = 0; c < m; c++) {
            int a = r * m + c;
            int later[6], count = 0, first_spring = s;
            for (int k = 0; k < 6; k++) {
                int rb = r + later_neighbours[k].dr, cb = c + later_neighbours[k].dc;
                if (!on_grid(m, rb, cb))
                    continue;
                cloth_spring *sp = &g->springs[s++];
                sp->a = a;
                sp->b = rb * m + cb;
                sp->kind = later_neighbours[k].kind;
                sp->rest = sp->kind == CLOTH_STRETCH ? g->spacing
                         : sp->kind == CLOTH_SHEAR ? diag : 2.0 * g->spacing;
                if (sp->kind == CLOTH_STRETCH) {
                    g->stretch_pairs[2 * st] = sp->a;
                    g->stretch_pairs[2 * st + 1] = sp->b;
                    st++;
                }
                later[count++] = sp->b;
            }
            /* Column 3a+cc: the lower part of the diagonal block (rows
             * 3a+cc..3a+2), then three rows per later neighbour. */
            for (int cc = 0; cc < 3; cc++) {
                g->colptr[3 * a + cc] = p;
                for (int row = cc; row < 3; row++)
                    g->rowidx[p++] = 3 * a + row;
                for (int k = 0; k < count; k++) {
                    g->springs[first_spring + k].pos[cc] = p;
                    for (int row = 0; row < 3; row++)
                        g->rowidx[p++] = 3 * later[k] + row;
                }
            }
        }
    g->colptr[g->n] = p;
    return COREPCG_OK;
}

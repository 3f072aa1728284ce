/* SPDX-License-Identifier: GPL-2.0-or-later */
/* grid.c -- the Provot grid as a cloth model: its springs (stretch, shear,
 * bend), equal masses and quads; model.c lays out A's pattern. */
#include "cloth_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The neighbours of node (r, c) with a larger index, in ascending index
 * order (for m >= 3: (r, c+2) and (r+1, c-1) are never both on the grid
 * when they would collide), so the springs come out by a, then b: the
 * order in which assembly has always summed them. */
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

int cloth_grid_build(int m, double side, double mass, cloth_model *g, char *msg)
{
    memset(g, 0, sizeof *g);
    if (m < CLOTH_MIN_SIZE || m > CLOTH_MAX_SIZE || !(side > 0.0) || !(mass > 0.0)) {
        if (msg)
            snprintf(msg, COREPCG_MSG_SIZE,
                     "cloth grid: size %d, side %g or mass %g out of range", m, side, mass);
        return COREPCG_ERR_ARGUMENT;
    }
    long springs = 0, stretch = 0;
    for (int r = 0; r < m; r++)
        for (int c = 0; c < m; c++)
            for (int k = 0; k < 6; k++)
                if (on_grid(m, r + later_neighbours[k].dr, c + later_neighbours[k].dc)) {
                    springs++;
                    stretch += later_neighbours[k].kind == CLOTH_STRETCH;
                }
    int rc = cloth_model_alloc(g, m * m, springs, stretch, 4, (long)(m - 1) * (m - 1), msg);
    if (rc != COREPCG_OK)
        return rc;
    g->spacing = side / (m - 1);
    for (int i = 0; i < g->N; i++)
        g->mass[i] = mass;

    double diag = sqrt(2.0) * g->spacing;
    int s = 0, st = 0;
    for (int r = 0; r < m; r++)
        for (int c = 0; c < m; c++)
            for (int k = 0; k < 6; k++) {
                int rb = r + later_neighbours[k].dr, cb = c + later_neighbours[k].dc;
                if (!on_grid(m, rb, cb))
                    continue;
                cloth_spring *sp = &g->springs[s++];
                sp->a = r * m + c;
                sp->b = rb * m + cb;
                sp->kind = later_neighbours[k].kind;
                sp->rest = sp->kind == CLOTH_STRETCH ? g->spacing
                         : sp->kind == CLOTH_SHEAR ? diag : 2.0 * g->spacing;
                if (sp->kind == CLOTH_STRETCH) {
                    g->stretch_pairs[2 * st] = sp->a;
                    g->stretch_pairs[2 * st + 1] = sp->b;
                    st++;
                }
            }
    int f = 0;
    for (int r = 0; r + 1 < m; r++)
        for (int c = 0; c + 1 < m; c++) {
            int a = r * m + c;
            int quad[4] = {a, a + 1, a + m + 1, a + m};
            memcpy(&g->faces[4 * f++], quad, sizeof quad);
        }
    rc = cloth_model_pattern(g, msg);
    if (rc != COREPCG_OK)
        cloth_model_free(g);
    return rc;
}

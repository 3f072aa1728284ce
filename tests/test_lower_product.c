/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_lower_product.c -- icpcg's product y = A~ x from the lower
 * triangle by padded 3x3 blocks (kernels/lower_product.c), on a random
 * banded pattern large enough to run in two halves on two threads: equal
 * to the whole symmetric matrix's product block by block (the first
 * half's blocks below it go through the spill rows), with nodes of 1, 2
 * and 3 dof, and the same bits on one thread as on two; the same for
 * the AVX2 kernel (kernels/lower_product.c) where the CPU has it. */
#include "internal.h"
#include "test.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define G 10000   /* block columns: above the two-thread threshold */
#define BAND 150  /* a column's rows lie within this many below it */

static unsigned long rng_state = 2463534242UL;
static double urand(void) /* in (-1, 1) */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 4503599627370496.0 - 1.0;
}

/* A random banded lower pattern, up to 6 rows a column, and the nodes'
 * dof (1, 2 or 3) and offsets; returns r, the unknowns. */
static int make_pattern(int *p, int *i, int *off, unsigned char *dim)
{
    int r = 0;
    p[0] = 0;
    for (int k = 0; k < G; k++) {
        dim[k] = (unsigned char)(k % 7 == 0 ? 2 : k % 11 == 0 ? 1 : 3);
        off[k] = r;
        r += dim[k];
        int row = k, n = p[k];
        for (int e = 0; e < 6; e++) {
            row += 1 + (int)((urand() + 1) * BAND / 12);
            if (row >= G)
                break;
            i[n++] = row;
        }
        p[k + 1] = n;
    }
    return r;
}

/* Block (a, c) of a padded block: a value where both nodes have that
 * dof, 0 in the padding (as the incomplete factor loads A~). */
static double entry(int a, int c, int dim_row, int dim_col)
{
    return a < dim_row && c < dim_col ? urand() : 0;
}

/* y = A~ x through the padded blocks of the whole symmetric matrix. */
static void reference(const cpg_lower *m, const double *x, double *y)
{
    static double xp[3 * G], yp[3 * G];
    memset(xp, 0, sizeof xp);
    memset(yp, 0, sizeof yp);
    for (int k = 0; k < G; k++)
        for (int a = 0; a < m->dim[k]; a++)
            xp[3 * k + a] = x[m->off[k] + a];
    for (int k = 0; k < G; k++) {
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++)
                yp[3 * k + a] += m->d[9L * k + 3 * c + a] * xp[3 * k + c];
        for (int t = m->p[k]; t < m->p[k + 1]; t++) {
            int I = m->i[t];
            for (int a = 0; a < 3; a++)
                for (int c = 0; c < 3; c++) {
                    double B = m->x[9L * t + 3 * c + a];
                    yp[3 * I + a] += B * xp[3 * k + c];
                    yp[3 * k + c] += B * xp[3 * I + a];
                }
        }
    }
    for (int k = 0; k < G; k++)
        for (int a = 0; a < m->dim[k]; a++)
            y[m->off[k] + a] = yp[3 * k + a];
}

/* y = A~ x on reduced vectors, through the padded order. */
static void apply(cpg_lower *m, const double *x, double *y)
{
    static double xp[3 * G], yp[3 * G];
    cpg_pad(G, m->off, m->dim, x, xp);
    cpg_lower_apply_padded(m, xp, yp);
    cpg_unpad(G, m->off, m->dim, yp, y);
}

int main(void)
{
    int *p = malloc((G + 1) * sizeof *p), *i = malloc(6L * G * sizeof *i),
        *off = malloc(G * sizeof *off);
    unsigned char *dim = malloc(G);
    double *x = malloc(3 * G * sizeof *x), *y1 = malloc(3 * G * sizeof *y1),
           *y2 = malloc(3 * G * sizeof *y2), *yr = malloc(3 * G * sizeof *yr);
    if (!p || !i || !off || !dim || !x || !y1 || !y2 || !yr) {
        CHECK(0, "out of memory");
        return test_summary("test_lower_product");
    }
    int r = make_pattern(p, i, off, dim);
    cpg_lower m;
    CHECK_INT(cpg_lower_alloc(&m, G, p, i, off, dim), COREPCG_OK);
    CHECK(m.half > 0 && m.half < G && m.spill_rows > 0,
          "two halves and spill rows: half %d, %d spill rows", m.half,
          m.spill_rows);
    for (int k = 0; k < G; k++) {
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++)
                m.d[9L * k + 3 * c + a] =
                    a == c && a >= dim[k] ? 1 : entry(a, c, dim[k], dim[k]);
        for (int t = p[k]; t < p[k + 1]; t++)
            for (int a = 0; a < 3; a++)
                for (int c = 0; c < 3; c++)
                    m.x[9L * t + 3 * c + a] = entry(a, c, dim[i[t]], dim[k]);
    }
    m.loaded = 1;
    for (int k = 0; k < r; k++)
        x[k] = urand();

    reference(&m, x, yr);
    /* the portable kernel, and the AVX2 one where this CPU has it */
    const int kernels = cpg_have_avx2() ? 2 : 1;
    if (kernels == 1)
        printf("no AVX2 here: the portable kernel only\n");
    for (int avx2 = 0; avx2 < kernels; avx2++) {
        m.avx2 = avx2;
        omp_set_num_threads(1);
        apply(&m, x, y1);
        omp_set_num_threads(2);
        apply(&m, x, y2);
        double err = 0, scale = 0;
        for (int k = 0; k < r; k++) {
            err = fmax(err, fabs(y1[k] - yr[k]));
            scale = fmax(scale, fabs(yr[k]));
        }
        CHECK(err <= 1e-14 * scale, "%s product vs reference: %g of %g",
              avx2 ? "AVX2" : "portable", err, scale);
        CHECK(memcmp(y1, y2, (size_t)r * sizeof *y1) == 0,
              "%s: one thread and two differ", avx2 ? "AVX2" : "portable");
    }

    cpg_lower_free(&m);
    free(p);
    free(i);
    free(off);
    free(dim);
    free(x);
    free(y1);
    free(y2);
    free(yr);
    return test_summary("test_lower_product");
}

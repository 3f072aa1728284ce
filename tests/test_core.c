/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_core.c -- the matrix core's block selection on hand-built block
 * matrices: STRETCH keeps the diagonal and exactly the listed pairs' blocks,
 * AUTO exactly the blocks above the threshold, and bad input is refused
 * with its own code; the compensation of a block the core leaves out,
 * P = (B B^T)^(1/2) and Q = (B^T B)^(1/2): P^2 = B B^T, Q^2 = B^T B, both
 * symmetric, and [P -B; -B^T Q] positive semidefinite, on random, rank-one
 * (a hinge's Gauss-Newton coupling), symmetric and zero blocks. */
#include "internal.h"
#include "test.h"

/* The stretch pairs of a corepcg_system, as cpg_core_mark takes them. */
#define NS(sys) (sys).num_stretch, (sys).stretch_pairs

#include <lapacke.h>
#include <math.h>
#include <string.h>

/* A 3x3 grid of nodes (node = 3 gy + gx) with the 8-neighbour pattern
 * (a Provot cloth without bend springs): the 12 axis neighbours are the
 * stretch candidates, the 8 diagonal neighbours are shear blocks. */
#define NB 9   /* 3 x 3 nodes */
#define MAXBLK (NB * NB)

typedef struct {
    cpg_bmat A;
    int p[NB + 1];
    int i[MAXBLK];
    double x[9 * MAXBLK];
} test_bmat;

static int neighbours(int a, int b)
{
    int ax = a % 3, ay = a / 3, bx = b % 3, by = b / 3;
    return abs(ax - bx) <= 1 && abs(ay - by) <= 1;
}

static int axis_neighbours(int a, int b)
{
    int ax = a % 3, ay = a / 3, bx = b % 3, by = b / 3;
    return abs(ax - bx) + abs(ay - by) == 1;
}

/* Off-diagonal block (i, j): value v times a fixed pattern that is the
 * same for (i, j) and (j, i) transposed, so A is symmetric. Diagonal
 * blocks: 10 I (Frobenius norm 10 sqrt 3). Axis neighbours get size
 * big_scale, diagonal neighbours small_scale. */
static void build(test_bmat *t, double big_scale, double small_scale)
{
    memset(t, 0, sizeof *t);
    int nz = 0;
    for (int j = 0; j < NB; j++) {
        t->p[j] = nz;
        for (int i = 0; i < NB; i++) {
            if (!neighbours(i, j))
                continue;
            double *blk = t->x + 9 * nz;
            if (i == j) {
                blk[0] = blk[4] = blk[8] = 10.0;
            } else {
                double s = axis_neighbours(i, j) ? big_scale : small_scale;
                /* a symmetric 3x3 block: its transpose is itself */
                for (int a = 0; a < 3; a++)
                    for (int c = 0; c < 3; c++)
                        blk[3 * c + a] = -s * (a == c ? 1.0 : 0.25);
            }
            t->i[nz++] = i;
        }
    }
    t->p[NB] = nz;
    t->A.nb = NB;
    t->A.p = t->p;
    t->A.i = t->i;
    t->A.x = t->x;
}

static int block_index(const cpg_bmat *A, int i, int j)
{
    for (int k = A->p[j]; k < A->p[j + 1]; k++)
        if (A->i[k] == i)
            return k;
    return -1;
}

static void test_stretch(void)
{
    test_bmat t;
    build(&t, 1.0, 0.1);
    const cpg_bmat *A = &t.A;
    int nblocks = A->p[NB];
    CHECK_INT(nblocks, 9 + 2 * (12 + 8));   /* 9 diagonal, 20 pairs */

    /* Stretch pairs: the horizontal axis edges only (6), one listed twice
     * and one reversed; plus a pair (0, 8) not in A's pattern (ignored). */
    int pairs[] = {0, 1, 1, 2, 3, 4, 5, 4, 6, 7, 7, 8, 1, 0, 0, 8};
    int num_pairs = (int)(sizeof pairs / sizeof pairs[0]) / 2;
    corepcg_system sys;
    memset(&sys, 0, sizeof sys);
    sys.num_nodes = NB;
    sys.num_stretch = num_pairs;
    sys.stretch_pairs = pairs;

    unsigned char keep[MAXBLK];
    memset(keep, 7, sizeof keep);
    long kept = -1;
    char msg[COREPCG_MSG_SIZE] = "";
    int code = cpg_core_mark(A, NS(sys), COREPCG_CORE_STRETCH, 0.0, keep, &kept,
                             msg);
    CHECK(code == COREPCG_OK, "stretch: %d %s", code, msg);
    CHECK_INT(kept, 6);
    int nkeep = 0;
    for (int j = 0; j < NB; j++)
        for (int k = A->p[j]; k < A->p[j + 1]; k++) {
            int i = A->i[k];
            int want = i == j || (axis_neighbours(i, j) && i / 3 == j / 3);
            CHECK(keep[k] == want, "stretch: block (%d, %d) keep %d, "
                  "expected %d", i, j, keep[k], want);
            nkeep += keep[k];
        }
    CHECK_INT(nkeep, 9 + 2 * 6);

    /* every axis edge listed: the 12 stretch pairs, no shear blocks */
    int all[24], m = 0;
    for (int a = 0; a < NB; a++)
        for (int b = a + 1; b < NB; b++)
            if (axis_neighbours(a, b)) {
                all[m++] = b;   /* (larger, smaller): order must not matter */
                all[m++] = a;
            }
    sys.num_stretch = m / 2;
    sys.stretch_pairs = all;
    code = cpg_core_mark(A, NS(sys), COREPCG_CORE_STRETCH, 0.0, keep, &kept, msg);
    CHECK_INT(code, COREPCG_OK);
    CHECK_INT(kept, 12);
    CHECK_INT(keep[block_index(A, 0, 4)], 0);   /* shear */
    CHECK_INT(keep[block_index(A, 4, 0)], 0);
    CHECK_INT(keep[block_index(A, 1, 4)], 1);   /* stretch */
    CHECK_INT(keep[block_index(A, 4, 1)], 1);
    CHECK_INT(keep[block_index(A, 4, 4)], 1);   /* diagonal */
}

static void test_stretch_errors(void)
{
    test_bmat t;
    build(&t, 1.0, 0.1);
    corepcg_system sys;
    memset(&sys, 0, sizeof sys);
    sys.num_nodes = NB;
    unsigned char keep[MAXBLK];
    long kept = -1;
    char msg[COREPCG_MSG_SIZE] = "";

    /* no stretch pairs */
    int code = cpg_core_mark(&t.A, NS(sys), COREPCG_CORE_STRETCH, 0.0, keep,
                             &kept, msg);
    CHECK_INT(code, COREPCG_ERR_NO_CORE);
    CHECK_STR_CONTAINS(msg, "no stretch pairs");
    CHECK_STR_CONTAINS(msg, "core auto");
    CHECK_STR_CONTAINS(msg, "per-triangle forces: the mesh edges");

    int out_of_range[] = {0, 1, 2, 9};
    sys.num_stretch = 2;
    sys.stretch_pairs = out_of_range;
    code = cpg_core_mark(&t.A, NS(sys), COREPCG_CORE_STRETCH, 0.0, keep, &kept,
                         msg);
    CHECK_INT(code, COREPCG_ERR_DIMENSION);
    CHECK_STR_CONTAINS(msg, "stretch pair 1 (2, 9)");
    CHECK_STR_CONTAINS(msg, "out of range");

    int negative[] = {-1, 1};
    sys.num_stretch = 1;
    sys.stretch_pairs = negative;
    CHECK_INT(cpg_core_mark(&t.A, NS(sys), COREPCG_CORE_STRETCH, 0.0, keep,
                            &kept, msg), COREPCG_ERR_DIMENSION);

    int self[] = {0, 1, 4, 4};
    sys.num_stretch = 2;
    sys.stretch_pairs = self;
    code = cpg_core_mark(&t.A, NS(sys), COREPCG_CORE_STRETCH, 0.0, keep, &kept,
                         msg);
    CHECK_INT(code, COREPCG_ERR_FORMAT);
    CHECK_STR_CONTAINS(msg, "itself");

    CHECK_INT(cpg_core_mark(&t.A, 1, NULL, COREPCG_CORE_STRETCH, 0.0, keep,
                            &kept, msg), COREPCG_ERR_ARGUMENT);
    CHECK_INT(cpg_core_mark(&t.A, NS(sys), COREPCG_CORE_COUNT, 0.0, keep, &kept,
                            msg), COREPCG_ERR_ARGUMENT);
    CHECK_INT(cpg_core_mark(&t.A, 0, NULL, COREPCG_CORE_AUTO, -1.0, keep, &kept,
                            msg), COREPCG_ERR_ARGUMENT);
    CHECK_INT(cpg_core_mark(&t.A, 0, NULL, COREPCG_CORE_AUTO, NAN, keep, &kept,
                            msg), COREPCG_ERR_ARGUMENT);
    CHECK_INT(cpg_core_mark(NULL, NS(sys), COREPCG_CORE_AUTO, 0.1, keep, &kept,
                            msg), COREPCG_ERR_ARGUMENT);

    /* a missing diagonal block: A cannot be positive definite */
    int saved = t.i[t.p[4] + 4];   /* column 4 holds all 9 nodes: row 4 */
    CHECK_INT(saved, 4);
    t.i[t.p[4] + 4] = -1;          /* (not sorted any more; irrelevant) */
    code = cpg_core_mark(&t.A, 0, NULL, COREPCG_CORE_AUTO, 0.1, keep, &kept,
                         msg);
    CHECK_INT(code, COREPCG_ERR_NOT_SPD);
    CHECK_STR_CONTAINS(msg, "node 4");
}

static void test_auto(void)
{
    test_bmat t;
    /* diagonal blocks 10 sqrt 3; axis blocks |.|_F = s sqrt(3 + 6/16) */
    build(&t, 2.0, 0.02);
    const cpg_bmat *A = &t.A;
    double dn = 10.0 * sqrt(3.0);
    double big = 2.0 * sqrt(3.375), small = 0.02 * sqrt(3.375);
    unsigned char keep[MAXBLK];
    long kept = -1;
    char msg[COREPCG_MSG_SIZE] = "";

    /* a threshold between the two sizes keeps exactly the big blocks */
    double threshold = sqrt(big * small) / dn;
    int code = cpg_core_mark(A, 0, NULL, COREPCG_CORE_AUTO, threshold, keep,
                             &kept, msg);
    CHECK(code == COREPCG_OK, "auto: %d %s", code, msg);
    CHECK_INT(kept, 12);
    for (int j = 0; j < NB; j++)
        for (int k = A->p[j]; k < A->p[j + 1]; k++) {
            int i = A->i[k];
            int want = i == j || axis_neighbours(i, j);
            CHECK(keep[k] == want, "auto: block (%d, %d) keep %d, expected "
                  "%d", i, j, keep[k], want);
        }

    /* the rule is >=: exactly at the big size still keeps them */
    code = cpg_core_mark(A, 0, NULL, COREPCG_CORE_AUTO, big / dn * (1 - 1e-12),
                         keep, &kept, msg);
    CHECK_INT(kept, 12);
    code = cpg_core_mark(A, 0, NULL, COREPCG_CORE_AUTO, big / dn * (1 + 1e-12),
                         keep, &kept, msg);
    CHECK_INT(kept, 0);
    /* threshold 0: the whole of A */
    code = cpg_core_mark(A, 0, NULL, COREPCG_CORE_AUTO, 0.0, keep, &kept, msg);
    CHECK_INT(code, COREPCG_OK);
    CHECK_INT(kept, 20);
    /* ... even blocks that are exactly zero: an exact tie (0 >= 0) is kept */
    test_bmat z;
    build(&z, 2.0, 0.0);
    code = cpg_core_mark(&z.A, 0, NULL, COREPCG_CORE_AUTO, 0.0, keep, &kept, msg);
    CHECK_INT(code, COREPCG_OK);
    CHECK_INT(kept, 20);

    /* a diagonal block made larger raises the bar for its couplings only:
     * node 4's diagonal x 10^4 (norm ratio 100 under the square root) */
    for (int e = 0; e < 9; e++)
        t.x[9 * block_index(A, 4, 4) + e] *= 1e4;
    code = cpg_core_mark(A, 0, NULL, COREPCG_CORE_AUTO, threshold, keep, &kept,
                         msg);
    CHECK_INT(code, COREPCG_OK);
    CHECK_INT(kept, 8);   /* 12 axis pairs minus node 4's four */
    CHECK_INT(keep[block_index(A, 1, 4)], 0);
    CHECK_INT(keep[block_index(A, 4, 1)], 0);
    CHECK_INT(keep[block_index(A, 0, 1)], 1);
    CHECK_INT(keep[block_index(A, 1, 0)], 1);

    /* round-off asymmetry exactly at the threshold cannot split a pair:
     * the decision is made on the lower block and mirrored */
    for (int e = 0; e < 9; e++)
        t.x[9 * block_index(A, 4, 4) + e] *= 1e-4;
    double at = big / dn;
    int up = block_index(A, 0, 1), low = block_index(A, 1, 0);
    for (int e = 0; e < 9; e++) {
        t.x[9 * up + e] *= 1 - 1e-9;    /* upper just below */
        t.x[9 * low + e] *= 1 + 1e-9;   /* lower just above */
    }
    code = cpg_core_mark(A, 0, NULL, COREPCG_CORE_AUTO, at, keep, &kept, msg);
    CHECK_INT(code, COREPCG_OK);
    CHECK_INT(keep[up], keep[low]);
    CHECK_INT(keep[low], 1);
}

/* X Y^T (tx = 0: X Y) of 3x3 column-major blocks. */
static void mul3t(const double *X, const double *Y, int transpose_y,
                  double *C)
{
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) {
            double s = 0;
            for (int e = 0; e < 3; e++)
                s += X[3 * e + r] *
                     (transpose_y ? Y[3 * e + c] : Y[3 * c + e]);
            C[3 * c + r] = s;
        }
}

static double max_diff9(const double *a, const double *b)
{
    double d = 0;
    for (int e = 0; e < 9; e++)
        d = fmax(d, fabs(a[e] - b[e]));
    return d;
}

static void check_modulus(const double *B, const char *label)
{
    double P[9], Q[9], P2[9], Q2[9], BBt[9], BtB[9], Bt[9];
    cpg_block_modulus(B, P, Q);
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            Bt[3 * c + r] = B[3 * r + c];
    mul3t(P, P, 0, P2);
    mul3t(Q, Q, 0, Q2);
    mul3t(B, B, 1, BBt);
    mul3t(Bt, Bt, 1, BtB);
    double scale = 0;
    for (int e = 0; e < 9; e++)
        scale = fmax(scale, fabs(B[e]));
    double tol = 1e-13 * (scale * scale > 0 ? scale * scale : 1);
    CHECK(max_diff9(P2, BBt) <= tol, "%s: |P^2 - B B^T| = %.3g", label,
          max_diff9(P2, BBt));
    CHECK(max_diff9(Q2, BtB) <= tol, "%s: |Q^2 - B^T B| = %.3g", label,
          max_diff9(Q2, BtB));
    double W[36], w[6];
    for (int c = 0; c < 6; c++)
        for (int r = 0; r < 6; r++) {
            double v;
            if (r < 3 && c < 3)
                v = P[3 * c + r];
            else if (r >= 3 && c >= 3)
                v = Q[3 * (c - 3) + r - 3];
            else if (r < 3)
                v = -B[3 * (c - 3) + r];
            else
                v = -B[3 * r - 9 + c];
            W[6 * c + r] = v;
        }
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            CHECK(P[3 * c + r] == P[3 * r + c] && Q[3 * c + r] == Q[3 * r + c],
                  "%s: P or Q not symmetric at (%d, %d)", label, r, c);
    CHECK_INT(LAPACKE_dsyev(LAPACK_COL_MAJOR, 'N', 'L', 6, W, 6, w), 0);
    CHECK(w[0] >= -1e-13 * (scale > 0 ? scale : 1),
          "%s: [P -B; -B^T Q] has eigenvalue %.3g", label, w[0]);
}

static void test_block_modulus(void)
{
    unsigned state = 12345;
    for (int trial = 0; trial < 200; trial++) {
        double B[9], a[3], b[3];
        for (int e = 0; e < 9; e++) {
            state = state * 1103515245u + 12345u;
            B[e] = ((state >> 8) & 0xffff) / 32768.0 - 1.0;
        }
        char label[64];
        snprintf(label, sizeof label, "random %d", trial);
        check_modulus(B, label);
        for (int e = 0; e < 3; e++) {
            a[e] = B[e];
            b[e] = B[3 + e] * 1e3;
        }
        for (int c = 0; c < 3; c++) /* rank one, scaled */
            for (int r = 0; r < 3; r++)
                B[3 * c + r] = a[r] * b[c];
        snprintf(label, sizeof label, "rank one %d", trial);
        check_modulus(B, label);
        for (int c = 0; c < 3; c++) /* symmetric: P = Q = |B| */
            for (int r = 0; r < c; r++)
                B[3 * c + r] = B[3 * r + c] = a[r] + a[c];
        snprintf(label, sizeof label, "symmetric %d", trial);
        check_modulus(B, label);
    }
    const double zero[9] = {0};
    check_modulus(zero, "zero");
    /* extreme scales: no square overflows or underflows */
    const double scales[4] = {1e-160, 1e-100, 1e100, 1e155};
    for (int k = 0; k < 4; k++) {
        double B[9];
        for (int e = 0; e < 9; e++)
            B[e] = scales[k] * (e % 4 == 0 ? 2.0 : 0.5 * (e % 3) - 0.3);
        double P[9], Q[9], Pu[9], Qu[9], U[9];
        for (int e = 0; e < 9; e++)
            U[e] = B[e] / scales[k];
        cpg_block_modulus(B, P, Q);
        cpg_block_modulus(U, Pu, Qu);
        for (int e = 0; e < 9; e++)
            CHECK(fabs(P[e] / scales[k] - Pu[e]) <= 1e-14 * fabs(Pu[0]) &&
                      fabs(Q[e] / scales[k] - Qu[e]) <= 1e-14 * fabs(Qu[0]),
                  "scale %g: entry %d P %g Q %g, unscaled %g %g", scales[k],
                  e, P[e] / scales[k], Q[e] / scales[k], Pu[e], Qu[e]);
    }
    const double spring[9] = {-2, 0, 0, 0, 0, 0, 0, 0, 0}; /* -k d d^T */
    double P[9], Q[9];
    cpg_block_modulus(spring, P, Q);
    CHECK(P[0] == 2 && Q[0] == 2, "a spring's -k d d^T: |B| = k d d^T, got "
          "%g, %g", P[0], Q[0]);
}

int main(void)
{
    test_block_modulus();
    test_stretch();
    test_stretch_errors();
    test_auto();
    return test_summary("test_core");
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_check.h -- invariants the fuzz targets assert on what the library
 * accepted, computed here independently of the library's own arithmetic. */
#ifndef COREPCG_FUZZ_CHECK_H
#define COREPCG_FUZZ_CHECK_H

#include "fuzz_util.h"
#include "internal.h"

#include <math.h>

/* A code the library names: every status it defines, including ones added
 * after this harness was written. */
static inline int fuzz_is_code(int rc)
{
    const char *text = corepcg_strerror(rc);
    return strcmp(text, "unknown error") != 0 && strcmp(text, "unknown warning") != 0;
}

/* v / |v| without overflow or underflow in |v|^2: scale by max |v_k|
 * first. Returns 0 when v is zero or not finite. */
static inline int fuzz_unit(const double v[3], double u[3])
{
    double m = fmax(fabs(v[0]), fmax(fabs(v[1]), fabs(v[2])));
    if (!(m > 0) || !isfinite(m))
        return 0;
    double s[3] = {v[0] / m, v[1] / m, v[2] / m};
    double len = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    for (int a = 0; a < 3; a++)
        u[a] = s[a] / len;
    return 1;
}

static inline double fuzz_dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The U blocks built from accepted records must be orthonormal bases of
 * the free directions: U_i^T U_i = I and U_i^T p = U_i^T q = 0 for the
 * directions the record prohibits. */
static inline void fuzz_check_ublocks(int N, const corepcg_constraint *c,
                                      int count)
{
    cpg_ublocks u;
    char msg[COREPCG_MSG_SIZE] = "";
    int rc = cpg_ublocks_build(N, c, count, &u, msg);
    FUZZ_REQUIRE(rc == COREPCG_OK,
                 "records the parser accepted do not build U: %d %s", rc,
                 msg);
    int r = 0;
    for (int i = 0; i < N; i++)
        r += u.ndof[i];
    FUZZ_REQUIRE(r == u.r, "r = %d, sum of ndof = %d", u.r, r);
    for (int k = 0; k < count; k++) {
        const double *U = u.U + 9L * c[k].node;
        int d = c[k].ndof;
        FUZZ_REQUIRE(u.ndof[c[k].node] == d, "node %d: ndof %d, record %d",
                     c[k].node, u.ndof[c[k].node], d);
        double p[3] = {0, 0, 0}, q[3] = {0, 0, 0};
        int have_p = d > 0 && fuzz_unit(c[k].p, p);
        int have_q = d == 1 && fuzz_unit(c[k].q, q);
        FUZZ_REQUIRE(d == 0 || (have_p && (d == 2 || have_q)),
                     "record %d accepted with a zero direction", k);
        for (int a = 0; a < d; a++) {
            for (int b = 0; b < d; b++) {
                double g = fuzz_dot3(U + 3 * a, U + 3 * b);
                FUZZ_REQUIRE(fabs(g - (a == b)) <= 1e-12,
                             "node %d: (U^T U)(%d,%d) = %.17g", c[k].node, a,
                             b, g);
            }
            double up = fuzz_dot3(U + 3 * a, p);
            FUZZ_REQUIRE(fabs(up) <= 1e-12,
                         "node %d: column %d of U has p-component %.3g",
                         c[k].node, a, up);
            if (d == 1) {
                double uq = fuzz_dot3(U + 3 * a, q);
                FUZZ_REQUIRE(fabs(uq) <= 1e-12,
                             "node %d: column %d of U has q-component %.3g",
                             c[k].node, a, uq);
            }
        }
    }
    cpg_ublocks_free(&u);
}

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* padded.c -- vectors between the reduced order (r entries, node after
 * node, as many as each node's free directions) and an incomplete
 * factor's padded node order (3 per position, the padding zero), in
 * which icpcg's PCG runs so that its product and sweeps need no gather or
 * scatter of their own. */
#include "kernels.h"

void cpg_pad(int G, const int *off, const unsigned char *dim,
             const double *in, double *out)
{
    for (int k = 0; k < G; k++) {
        const double *v = in + off[k];
        double *o = out + 3L * k;
        int d = dim[k];
        o[0] = v[0];
        o[1] = d > 1 ? v[1] : 0;
        o[2] = d > 2 ? v[2] : 0;
    }
}

void cpg_unpad(int G, const int *off, const unsigned char *dim,
               const double *in, double *out)
{
    for (int k = 0; k < G; k++) {
        double *v = out + off[k];
        const double *p = in + 3L * k;
        int d = dim[k];
        v[0] = p[0];
        if (d > 1)
            v[1] = p[1];
        if (d > 2)
            v[2] = p[2];
    }
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.h -- docs/format.md's measures of an answer (check.c). They apply
 * A (kernels/) to a system as imported (system/), and both the public
 * corepcg_check and the solver's record of every answer take them: so
 * they sit with the public entries, above both. Not installed.
 */
#ifndef COREPCG_CHECK_H
#define COREPCG_CHECK_H

#include "system.h"

/* docs/format.md's measures, on the internal representation, with two work
 * vectors of n doubles (no allocation), and into *prescribed_ratio (unless
 * NULL) |S |A| |(I - S) z|| / |b^|: how far b^ is a remainder of the
 * prescribed values' part, whose round-off is relative to the size of
 * what A (I - S) z sums (Inf for b^ = 0). A NaN anywhere gives NaN. */
void cpg_check_measures(const cpg_bmat *A, const cpg_ublocks *u,
                        const double *b, const double *z, const double *x,
                        double *w, double *Aw, double *constraint_error,
                        double *rel_residual, double *prescribed_ratio);

#endif /* COREPCG_CHECK_H */

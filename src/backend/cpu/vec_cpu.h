/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vec_cpu.h -- the CPU back end's vector operations (vec_cpu.c): plain
 * loops over host memory, the ones pcg.c ran inline before the seam, in
 * the same order. Not installed. */
#ifndef COREPCG_VEC_CPU_H
#define COREPCG_VEC_CPU_H

#include "vec.h"

extern const cpg_vec_ops cpg_vec_cpu;

#endif /* COREPCG_VEC_CPU_H */

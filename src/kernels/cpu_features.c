/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpu_features.c -- whether this CPU runs the AVX2 and FMA kernels
 * (blocks_avx2.h), asked once per analysis. */
#include "kernels.h"
#include "blocks_avx2.h"

int cpg_have_avx2(void)
{
#ifdef CPG_AVX2_KERNELS
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h -- the internal headers of the lower layers at once, for the
 * tests. Inside the library a file includes the headers it uses, never
 * this one: it sits above every layer (tests/layers.py).
 * Not installed.
 */
#ifndef COREPCG_INTERNAL_H
#define COREPCG_INTERNAL_H

#include "base.h"
#include "system.h"
#include "kernels.h"
#include "order.h"
#include "factor.h"
#include "vec_cpu.h"

#endif /* COREPCG_INTERNAL_H */

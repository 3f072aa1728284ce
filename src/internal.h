/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h -- every internal header at once, for the tests and the bundle
 * files that reach across groups. Inside the library a file includes only
 * its group's header (base.h, system.h,
 * kernels.h, order.h, factor.h, method.h).
 * Not installed.
 */
#ifndef COREPCG_INTERNAL_H
#define COREPCG_INTERNAL_H

#include "base.h"
#include "system.h"
#include "kernels.h"
#include "order.h"
#include "factor.h"

#endif /* COREPCG_INTERNAL_H */

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tool_methods.h -- the room the corepcg tool and the benchmark compiled
 * into it keep for the library's methods. The methods themselves come
 * from the library's table (corepcg_method_at): a new method needs no
 * change here while the table's method values stay below this bound
 * (test_registry: the values are 0 .. rows - 1). Not part of the
 * library. */
#ifndef COREPCG_TOOL_METHODS_H
#define COREPCG_TOOL_METHODS_H

/* Method values 0 .. TOOL_MAX_METHODS - 1; tools index arrays by them. */
#define TOOL_MAX_METHODS 16

#endif /* COREPCG_TOOL_METHODS_H */

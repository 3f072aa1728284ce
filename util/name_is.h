/* SPDX-License-Identifier: GPL-2.0-or-later */
/* name_is.h -- how the library, the simulator and the CLI read a name
 * the user chose (name_is.c). Not installed. */
#ifndef COREPCG_NAME_IS_H
#define COREPCG_NAME_IS_H

/* 1 when name spells choice (lower case) in any case, ASCII only,
 * whatever the program's locale: how every *_from_name function
 * compares. */
int cpg_name_is(const char *name, const char *choice);

/* The index of name among names[0..count) as cpg_name_is reads it (NULL
 * entries never match), or -1; name may be NULL. */
int cpg_name_index(const char *name, const char *const *names, int count);

#endif /* COREPCG_NAME_IS_H */

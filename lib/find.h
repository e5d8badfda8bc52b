/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one linear search by name over an array of structs whose name is a
 * `const char *` member. The model, the spec and the check keep small
 * arrays (a call's parameters, a set's values, a struct's fields) that are
 * looked up by name a handful of times: a hash map would cost more than
 * it saves, and before this each lookup carried its own copy of the loop.
 */
#ifndef KD_FIND_H
#define KD_FIND_H

#include <stddef.h>

/*
 * The first of the @n elements of @size bytes at @base whose `const char *`
 * at byte @name_off equals @name (strcmp), or NULL: none, or @name NULL.
 * An element whose name is NULL never matches.
 */
const void *kd_find_named(const void *base, size_t n, size_t size, size_t name_off,
			  const char *name);

/*
 * kd_find_named() over the @n elements of @type at @arr, by member @field,
 * as a @type * (give @type its const where the caller's result has one).
 */
#define KD_FIND_NAMED(type, arr, n, field, name) \
	((type *)kd_find_named((arr), (n), sizeof(type), offsetof(type, field), (name)))

#endif

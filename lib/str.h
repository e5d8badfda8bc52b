/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Prefix and suffix tests on C strings, so that no caller counts the
 * length of a literal by hand (strncmp(s, "struct ", 7)) and a miscount
 * cannot silently test a shorter prefix.
 */
#ifndef KD_STR_H
#define KD_STR_H

#include <stdbool.h>

/* Whether @s begins with @prefix ("" begins every string). */
bool kd_starts_with(const char *s, const char *prefix);

/* Whether @s begins with @prefix; if so, *@rest (may be NULL) is what follows it. */
bool kd_skip_prefix(const char *s, const char *prefix, const char **rest);

/* Whether @s ends with @suffix. */
bool kd_ends_with(const char *s, const char *suffix);

/* strcmp() with NULL ordered as "": for optional fields. */
int kd_strcmp_null(const char *a, const char *b);

/* strcmp() of two `const char *` array elements, for qsort() and bsearch(). */
int kd_strcmp_ptr(const void *a, const void *b);

#endif

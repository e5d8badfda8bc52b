// SPDX-License-Identifier: GPL-2.0-only
/* Linear search by name over an array of structs; see find.h. */
#include "find.h"

#include <string.h>

const void *kd_find_named(const void *base, size_t n, size_t size, size_t name_off,
			  const char *name)
{
	const char *p = base;
	size_t i;

	for (i = 0; name && i < n; i++, p += size) {
		const char *s;

		/* memcpy: the member may be a char * (same representation). */
		memcpy(&s, p + name_off, sizeof(s));
		if (s && !strcmp(s, name))
			return p;
	}
	return NULL;
}

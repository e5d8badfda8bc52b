// SPDX-License-Identifier: GPL-2.0-only
#include "lib/str.h"

#include <string.h>

bool kd_starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

bool kd_skip_prefix(const char *s, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n))
		return false;
	if (rest)
		*rest = s + n;
	return true;
}

bool kd_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !memcmp(s + n - m, suffix, m);
}

int kd_strcmp_null(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

int kd_strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

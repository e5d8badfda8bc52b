// SPDX-License-Identifier: GPL-2.0-only
/* Allocation wrappers with test-time fault injection; see mem.h. */
#include "mem.h"

/* The one caller of the allocator (lib/banned.h bans it elsewhere). */
#undef malloc
#undef calloc
#undef realloc
#undef strdup
#undef strndup

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static long fail_countdown = -1;

void kd_mem_fail_after(long n)
{
	fail_countdown = n;
}

static int should_fail(void)
{
	if (fail_countdown < 0)
		return 0;
	if (fail_countdown == 0)
		return 1;
	fail_countdown--;
	return 0;
}

void *kd_malloc(size_t size)
{
	return should_fail() ? NULL : malloc(size ? size : 1);
}

void *kd_calloc(size_t n, size_t size)
{
	return should_fail() ? NULL : calloc(n ? n : 1, size ? size : 1);
}

void *kd_realloc(void *p, size_t size)
{
	return should_fail() ? NULL : realloc(p, size ? size : 1);
}

/* Whether @n elements of @size bytes fit a size_t; *bytes their size. */
static int array_bytes(size_t n, size_t size, size_t *bytes)
{
	if (size && n > SIZE_MAX / size)
		return 0;
	*bytes = n * size;
	return 1;
}

void *kd_malloc_array(size_t n, size_t size)
{
	size_t bytes;

	return array_bytes(n, size, &bytes) ? kd_malloc(bytes) : NULL;
}

void *kd_realloc_array(void *p, size_t n, size_t size)
{
	size_t bytes;

	return array_bytes(n, size, &bytes) ? kd_realloc(p, bytes) : NULL;
}

char *kd_strndup(const char *s, size_t n)
{
	char *d;

	if (!s)
		return NULL;
	d = kd_malloc(n + 1);
	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *kd_strdup(const char *s)
{
	return s ? kd_strndup(s, strlen(s)) : NULL;
}

int kd_grow_array(void **arr, size_t *cap, size_t need, size_t elem_size)
{
	size_t ncap;
	void *p;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap : 16;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -ENOMEM;
		ncap *= 2;
	}
	if (elem_size && ncap > SIZE_MAX / elem_size)
		return -ENOMEM;
	p = kd_realloc(*arr, ncap * elem_size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

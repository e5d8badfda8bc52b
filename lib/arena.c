// SPDX-License-Identifier: GPL-2.0-only
/*
 * kd_arena implementation: a list of blocks, the newest first; an
 * allocation takes the tail of the newest block or starts a new one (the
 * rest of the old block is left unused: lifetimes are short, waste small).
 */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

struct kd_arena_block {
	struct kd_arena_block *next;
	size_t used, cap;
	_Alignas(16) unsigned char data[];
};

#define KD_ARENA_BLOCK 65536

void *kd_arena_alloc(struct kd_arena *a, size_t size)
{
	struct kd_arena_block *b = a->head;
	void *p;

	if (size > SIZE_MAX - sizeof(*b) - 15)
		return NULL;
	size = (size + 15) & ~(size_t)15;
	if (!b || b->cap - b->used < size) {
		size_t cap = size > KD_ARENA_BLOCK ? size : KD_ARENA_BLOCK;

		b = kd_malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->used = 0;
		b->cap = cap;
		b->next = a->head;
		a->head = b;
	}
	p = b->data + b->used;
	b->used += size;
	memset(p, 0, size);
	return p;
}

void *kd_arena_alloc_array(struct kd_arena *a, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return kd_arena_alloc(a, n * size);
}

char *kd_arena_strndup(struct kd_arena *a, const char *s, size_t n)
{
	char *d = n < SIZE_MAX ? kd_arena_alloc(a, n + 1) : NULL;

	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *kd_arena_strdup(struct kd_arena *a, const char *s)
{
	return s ? kd_arena_strndup(a, s, strlen(s)) : NULL;
}

void kd_arena_release(struct kd_arena *a)
{
	while (a->head) {
		struct kd_arena_block *next = a->head->next;

		free(a->head);
		a->head = next;
	}
}

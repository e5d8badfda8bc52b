/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kd_arena: bump allocation for data that dies all at once (the strings,
 * tokens and expression trees of one parse), freed by one
 * kd_arena_release(). Blocks are 64 KiB, or one block of the request's
 * size when larger; every allocation is 16-byte aligned and zeroed.
 * A zero-initialized struct kd_arena (KD_ARENA_INIT) is empty and valid.
 */
#ifndef KD_ARENA_H
#define KD_ARENA_H

#include <stddef.h>

struct kd_arena_block;
struct kd_arena {
	struct kd_arena_block *head;
};

#define KD_ARENA_INIT { .head = NULL }

/* @size zeroed bytes that live until kd_arena_release(); NULL on ENOMEM. */
void *kd_arena_alloc(struct kd_arena *a, size_t size);
/* @n zeroed elements of @size bytes; NULL when n * size overflows. */
void *kd_arena_alloc_array(struct kd_arena *a, size_t n, size_t size);
/* A NUL-terminated copy of the @n bytes at @s; NULL on ENOMEM. */
char *kd_arena_strndup(struct kd_arena *a, const char *s, size_t n);
/* A copy of @s; NULL in, NULL out (and NULL on ENOMEM). */
char *kd_arena_strdup(struct kd_arena *a, const char *s);
/* Free every block; @a is empty and valid afterwards. */
void kd_arena_release(struct kd_arena *a);

#endif

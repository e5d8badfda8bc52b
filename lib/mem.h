/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Allocation wrappers. Every allocation of kabi-diff goes through these so
 * that tests can inject failures (kd_mem_fail_after) and prove that each
 * out-of-memory path unwinds cleanly. Array growth goes through
 * kd_grow_array(), the one overflow-checked place that computes sizes.
 */
#ifndef KD_MEM_H
#define KD_MEM_H

#include <stddef.h>

void *kd_malloc(size_t size);
void *kd_calloc(size_t n, size_t size);
void *kd_realloc(void *p, size_t size);
/* Returns a malloc'ed copy (caller frees), NULL on ENOMEM or NULL input. */
char *kd_strdup(const char *s);
char *kd_strndup(const char *s, size_t n);
/* @n elements of @size bytes: NULL (as for ENOMEM) when n * size overflows. */
void *kd_malloc_array(size_t n, size_t size);
void *kd_realloc_array(void *p, size_t n, size_t size);

/*
 * Make *arr hold at least @need elements of @elem_size bytes, growing
 * geometrically; *cap is updated. Returns 0 or -ENOMEM (on failure *arr
 * and *cap are unchanged).
 */
int kd_grow_array(void **arr, size_t *cap, size_t need, size_t elem_size);

#define KD_GROW(arr, cap, need) \
	kd_grow_array((void **)&(arr), &(cap), (need), sizeof(*(arr)))

/*
 * Fault injection for tests: after @n more successful allocations, every
 * allocation fails. A negative @n turns injection off.
 */
void kd_mem_fail_after(long n);

#endif

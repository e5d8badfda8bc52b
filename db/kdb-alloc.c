// SPDX-License-Identifier: GPL-2.0-only
/*
 * SQLite's allocations routed through kd_malloc/kd_realloc, so the
 * fault-injection of lib/mem.h reaches inside SQLite too and the db tests
 * can prove that every out-of-memory path fails cleanly. SQLite needs the
 * size of each allocation back (xSize), kept in a header before the block.
 */
#include "db/kdb_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mem.h"

#define HDR 16	/* keeps the user block 16-byte aligned */

static void *xmalloc(int n)
{
	unsigned char *p = kd_malloc((size_t)n + HDR);

	if (!p)
		return NULL;
	memcpy(p, &n, sizeof(n));
	return p + HDR;
}

static void xfree(void *p)
{
	if (p)
		free((unsigned char *)p - HDR);
}

static void *xrealloc(void *p, int n)
{
	unsigned char *q;

	if (!p)
		return xmalloc(n);
	q = kd_realloc((unsigned char *)p - HDR, (size_t)n + HDR);
	if (!q)
		return NULL;
	memcpy(q, &n, sizeof(n));
	return q + HDR;
}

static int xsize(void *p)
{
	int n;

	memcpy(&n, (unsigned char *)p - HDR, sizeof(n));
	return n;
}

static int xroundup(int n)
{
	return (n + 7) & ~7;
}

static int xinit(void *ctx)
{
	(void)ctx;
	return SQLITE_OK;
}

static void xshutdown(void *ctx)
{
	(void)ctx;
}

static const sqlite3_mem_methods methods = {
	xmalloc, xfree, xrealloc, xsize, xroundup, xinit, xshutdown, NULL,
};

static int init_rc = SQLITE_OK;

static void install(void)
{
	/* Fails (SQLITE_MISUSE) only if SQLite was initialized by someone else
	 * first; then it keeps its own allocator, which is fine. */
	if (sqlite3_config(SQLITE_CONFIG_MALLOC, &methods) == SQLITE_OK)
		init_rc = sqlite3_initialize();
}

int kdb_init_allocator(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, install);
	return init_rc == SQLITE_OK ? 0 : -1;
}

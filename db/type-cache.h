/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Types of one .kabi loaded on demand and kept for the life of the cache,
 * so printers and checks can follow references freely: a kd_type_lookup_fn
 * for kd_cdecl() and the walks of lib/typegraph.h. Types are kept by id in
 * a hash map, so a damaged file's huge ids cost nothing.
 */
#ifndef KD_TYPE_CACHE_H
#define KD_TYPE_CACHE_H

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "lib/model.h"

struct type_cache;

/* *out: type_cache__free(). */
int type_cache__new(struct kdb *db, struct type_cache **out);
void type_cache__free(struct type_cache *tc);
/* The type @id, or NULL (void, or unreadable: the error was reported). */
const struct kd_type *type_cache__get(struct type_cache *tc, int64_t id);
/*
 * The first error a lookup met (a negative code, reported already), 0 when
 * none: a printer that got NULL for a type id can tell a damaged file from
 * void.
 */
int type_cache__error(const struct type_cache *tc);
/* A kd_type_lookup_fn over a type_cache (ctx = the cache). */
const struct kd_type *type_cache__lookup(int64_t id, void *ctx);
/* kd_type_strip() over the cache: @id after typedefs and qualifiers. */
const struct kd_type *type_cache__strip(struct type_cache *tc, int64_t id);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * C spelling of a model type: "const char *", "struct open_how *",
 * "void (*)(struct fx_node *, int)". Works over any store of types through
 * a lookup callback, so extract (in-memory table) and show/diff (a .kabi)
 * print types the same way.
 */
#ifndef KD_CDECL_H
#define KD_CDECL_H

#include "lib/buf.h"
#include "lib/model.h"

/*
 * Append to @b the declaration of @decl (a name, or "" for an abstract
 * declarator) with type @id. Returns 0 or -ENOMEM.
 */
int kd_cdecl(struct kd_buf *b, int64_t id, const char *decl, kd_type_lookup_fn lookup, void *ctx);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Walking the type graph of lib/model.h the same way in every stage:
 * typedefs and qualifiers stripped with one bound and one set of
 * qualifiers, and the one structural hash that says two types are the
 * same (extract dedups by it, diff skips equal subtrees by it). Works over
 * any store of types through a kd_type_lookup_fn.
 */
#ifndef KD_TYPEGRAPH_H
#define KD_TYPEGRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/model.h"

/*
 * The longest chain of typedefs, qualifiers, pointers or arrays followed
 * before giving up (C code has a handful; only a hostile file has more).
 */
#define KD_TYPE_MAX_HOPS 64

/* typedef, const, volatile, restrict, _Atomic: a name or a qualifier over t->ref. */
static inline bool kd_kind_is_qualifier(enum kd_kind k)
{
	return k == KD_KIND_TYPEDEF || k == KD_KIND_CONST || k == KD_KIND_VOLATILE ||
	       k == KD_KIND_RESTRICT || k == KD_KIND_ATOMIC;
}

/* Called for each typedef or qualifier a strip passes; non-zero stops it. */
typedef int (*kd_type_visit_fn)(const struct kd_type *t, void *ctx);

/*
 * Follow typedefs and qualifiers from @id. *out: the first other type,
 * NULL for void or a type @lookup does not have; after KD_TYPE_MAX_HOPS
 * steps, the qualifier reached (callers that need a real type check
 * kd_kind_is_qualifier()). @visit (may be NULL) sees each typedef and
 * qualifier passed, outermost first; its non-zero return stops the walk
 * and is returned. Returns 0 otherwise.
 */
int kd_type_strip_visit(int64_t id, kd_type_lookup_fn lookup, void *ctx,
			kd_type_visit_fn visit, void *vctx, const struct kd_type **out);

/* kd_type_strip_visit() without a visitor. */
const struct kd_type *kd_type_strip(int64_t id, kd_type_lookup_fn lookup, void *ctx);

/*
 * The hash a pointer to @t contributes when @t is named (struct, union,
 * enum, typedef with a name): its kind and name, so that pointers break
 * the cycles of the graph (struct list_head). 0 when @t is not so named:
 * a pointer to it hashes its structure.
 */
uint64_t kd_type_name_key(const struct kd_type *t);

/*
 * The structural hash (kd_type_hash()) of the type @id, 0 when the store
 * lacks it. Supplied by the store, which memoizes it and bounds cycles and
 * depth (only pointers to named types break cycles by themselves).
 */
typedef uint64_t (*kd_type_hash_fn)(int64_t id, void *ctx);

/*
 * Whose types are hashed. A pointer to a named type hashes that name, so
 * a pointer of the compiled headers and one of the kernel's DWARF would
 * be one row leading to whichever layout came first: the kernel's, even
 * of a type the headers only declare (xt_bpf.h's struct bpf_prog *), which
 * user space cannot see. In the header view such a pointer is its own:
 * it leads to the headers' layout of its pointee, or to their declaration.
 */
enum kd_type_view {
	KD_VIEW_KERNEL,		/* vmlinux and modules */
	KD_VIEW_HEADERS,	/* the UAPI headers compiled as user space does */
};

/*
 * The structural hash of @t: kind, name, size, alignment, array count,
 * flags, members (name, offset, bits, type) and enumerators, with the
 * types it refers to hashed through @ref, except a pointee that has a
 * kd_type_name_key() (found through @lookup): that key stands for it,
 * and in @view KD_VIEW_HEADERS that key marked as the headers'. @ctx goes
 * to both callbacks.
 */
uint64_t kd_type_hash(const struct kd_type *t, enum kd_type_view view, kd_type_lookup_fn lookup,
		      kd_type_hash_fn ref, void *ctx);

#endif

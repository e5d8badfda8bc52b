/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The format-neutral model of a kernel's user-space ABI, shared by every
 * stage: extract fills it from ELF/DWARF, db/ stores and loads it, show,
 * check and diff read it. Nothing here knows about DWARF or SQLite.
 *
 * Types refer to each other by id (int64_t, 0 = none/void). Inside the
 * extractor ids are its own; in a .kabi file they are the rows of `types`.
 */
#ifndef KD_MODEL_H
#define KD_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum kd_kind {
	KD_KIND_VOID = 0,
	KD_KIND_BASE,		/* int, char, _Bool, float ... */
	KD_KIND_POINTER,	/* ref: pointee */
	KD_KIND_STRUCT,		/* members */
	KD_KIND_UNION,		/* members */
	KD_KIND_ENUM,		/* enumerators; ref: underlying type if known */
	KD_KIND_TYPEDEF,	/* ref: target */
	KD_KIND_ARRAY,		/* ref: element, count (or flexible) */
	KD_KIND_CONST,		/* ref: qualified type */
	KD_KIND_VOLATILE,
	KD_KIND_RESTRICT,
	KD_KIND_ATOMIC,
	KD_KIND_FUNC,		/* ref: return type; members: parameters */
	KD_KIND__COUNT
};

/*
 * Is @decl_file (a function's DW_AT_decl_file) kernel/sys_ni.c? A syscall
 * entry declared there is a COND_SYSCALL stub: the call is compiled out of
 * this kernel and returns -ENOSYS. NULL is fine.
 */
bool kd_is_sys_ni_file(const char *decl_file);

/* "struct", "pointer", ...: the spelling used in the DB and in reports. */
const char *kd_kind_name(enum kd_kind kind);
/* Inverse of kd_kind_name(); -1 when unknown. */
int kd_kind_from_name(const char *name);

#define KD_ARRAY_FLEXIBLE	(-1)	/* `T x[]` (no bound) */

/* Flags of a type. */
#define KD_TYPE_DECLARATION	0x1	/* only declared (struct foo;): no layout */
#define KD_TYPE_SIGNED		0x2	/* base/enum: signed */
#define KD_TYPE_VARIADIC	0x4	/* func: ends in ... */
#define KD_TYPE_PACKED		0x8	/* struct/union: members below natural alignment */

struct kd_member {
	char *name;		/* NULL: anonymous struct/union member or unnamed parameter */
	int64_t type;		/* type id */
	int64_t offset;		/* bytes; for a bitfield, of its storage unit */
	int bit_offset;		/* bitfield: first bit inside the storage unit (LSB 0) */
	int bit_size;		/* bitfield width in bits; 0 if not a bitfield */
};

struct kd_enumerator {
	char *name;
	int64_t value;
};

struct kd_type {
	int64_t id;
	enum kd_kind kind;
	char *name;		/* NULL when anonymous */
	int64_t size;		/* bytes; -1 when unknown (declaration, flexible, func) */
	int64_t align;		/* bytes; 0 when unknown */
	int64_t ref;		/* see enum kd_kind; 0 = void */
	int64_t count;		/* arrays: element count, KD_ARRAY_FLEXIBLE */
	unsigned flags;		/* KD_TYPE_* */
	char *decl_file;	/* NULL when unknown */
	int decl_line;
	uint64_t hash;		/* structural identity; see extract/ */
	size_t nr_members;
	struct kd_member *members;
	size_t nr_enumerators;
	struct kd_enumerator *enumerators;
};

/*
 * A difference between two versions of the contract: spec__diff() finds
 * them, the diff judges them (rules errno-added, set-value-removed, ...).
 * Strings are owned by whoever made the array (spec_changes__free()).
 */
struct kd_contract_change {
	char *kind;		/* syscall.errno.added, ioctl.errno.removed, set.value.added, ... */
	char *name;		/* the call or the set: "openat2", "open_flags" */
	char *subject;		/* "openat2 EINVAL when how.flags & ~open_how_flags",
				 * "open_flags.O_TMPFILE" */
	char *old_value;	/* errno text / "= EXPR" or the UAPI name; NULL: absent */
	char *new_value;	/* NULL: absent in the new contract */
};

/*
 * The type with id @id from some store of types (the extractor's table, a
 * .kabi's cache, the diff's loaded graph), or NULL (0 is void). The
 * pointer must stay valid until the next call.
 */
typedef const struct kd_type *(*kd_type_lookup_fn)(int64_t id, void *ctx);

/* Frees the strings and arrays of @t, not @t itself. NULL is fine. */
void kd_type__release(struct kd_type *t);
/* kd_type__release() plus free(t). NULL is fine. */
void kd_type__free(struct kd_type *t);

#endif

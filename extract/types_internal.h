/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to extract/: the in-memory type table the DWARF reader fills and
 * the dedup pass empties into the DB.
 *
 * Reading is breadth-first from a worklist: asking for the type of a DIE
 * returns its id at once and queues the DIE, so deep or cyclic type graphs
 * never recurse on the C stack. Ids are 1-based indexes into the table.
 */
#ifndef KD_EXTRACT_TYPES_H
#define KD_EXTRACT_TYPES_H

#include "extract/dwarf_internal.h"
#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "lib/buf.h"
#include "lib/hashmap.h"
#include "lib/typegraph.h"

/* Bounds that keep hostile input from exhausting memory or time. */
#define XT_MAX_TYPES		(4u << 20)
#define XT_MAX_MEMBERS		(1u << 20)	/* per struct/union/enum/func */
#define XT_MAX_DEPTH		512		/* nesting by value (struct in struct) */

struct xtype {
	struct kd_type t;	/* t.id = index + 1; references are table ids */
	Dwarf_Off die;		/* 0 for nodes the reader synthesizes */
	uint8_t state;		/* XT_* below */
	uint8_t hash_state;	/* 0 not hashed, 1 in progress, 2 done */
	uint8_t align_state;
	uint64_t hash;		/* structural identity, see type-dedup.c */
	int64_t canon;		/* id in the DB after dedup */
	size_t members_cap;	/* allocated entries of t.members / t.enumerators */
	size_t enumerators_cap;
};

/* Source file names of DW_AT_decl_file, per CU, tree-relative (srcfiles.c). */
struct srcfiles_cache;
int srcfiles_new(struct srcfiles_cache **out);
void srcfiles_free(struct srcfiles_cache *c);
/* Name of file @idx of @die's CU, or NULL. Owned by the cache. */
const char *srcfiles_name(struct srcfiles_cache *c, struct kdwarf *d, Dwarf_Die die,
			  Dwarf_Unsigned idx);
/*
 * Call @fn with the tree-relative name of each file of @cu's line table
 * (every file the compilation read that left a line or a declaration in
 * its DWARF) until it returns non-zero, which is returned.
 */
int srcfiles_for_each(struct kdwarf *d, Dwarf_Die cu, int (*fn)(const char *name, void *ctx),
		      void *ctx);

struct xtable {
	struct kdwarf *dwarf;
	struct kdb *db;			/* for problems rows */
	const char *input;		/* file name for problems and messages */
	struct xtype *v;
	size_t n, cap;
	size_t max_types;		/* XT_MAX_TYPES, or lower for the tests */
	struct kd_hashmap by_die;	/* DIE offset -> id */
	int64_t *todo;
	size_t nr_todo, todo_cap;
	struct srcfiles_cache *files;
	/* A struct only declared is no problem: the headers point to kernel-internal ones. */
	bool declarations_expected;
	/* Whose types: the header view's pointers are not the kernel's (lib/typegraph.h). */
	enum kd_type_view view;
	/*
	 * A scalar's (base, enum, pointer) alignment at most, in bytes; 0: its
	 * size. i386's is 4: its long long and double are 4-aligned in structs.
	 */
	int64_t max_scalar_align;
	int64_t nr_problems;
	/* Problems met while no DB is attached (worker threads): "location\tmessage". */
	char **held_problems;
	size_t nr_held, held_cap;
};

int xtable_init(struct xtable *xt, struct kdwarf *d, struct kdb *db, const char *input);
void xtable_release(struct xtable *xt);
/* Drop what ties the table to its libdwarf handle (before closing it). */
void xtable_detach_dwarf(struct xtable *xt);
/* Write problems held while the table had no DB, then attach it to @db. */
int xtable_attach_db(struct xtable *xt, struct kdb *db);
static inline struct xtype *xt_get(struct xtable *xt, int64_t id)
{
	return id > 0 && (size_t)id <= xt->n ? &xt->v[id - 1] : NULL;
}
/* Id of the type at DIE @off (queued for reading when new). */
int xt_type_of_die(struct xtable *xt, Dwarf_Off off, int64_t *id);
/* Id of the DW_AT_type of @die; 0 (void) when it has none. */
int xt_type_attr(struct xtable *xt, Dwarf_Die die, int64_t *id);
/* Read every queued DIE into its node. */
int xt_drain(struct xtable *xt);
/* Sizes, alignments, bitfield storage units, enum signedness (after xt_drain). */
int xt_settle_layout(struct xtable *xt);

/* A bitfield member whose storage unit xt_settle_layout() has yet to settle. */
#define XT_BITFIELD_PENDING INT64_MIN
/* A new empty node (synthesized, no DIE). */
int xt_new(struct xtable *xt, enum kd_kind kind, int64_t *id);
/* Relative source path of @die's DW_AT_decl_file (malloc'ed) or NULL. */
char *xt_decl_file(struct xtable *xt, Dwarf_Die die);
/* Record a problem row (and count it). */
void xt_problem(struct xtable *xt, Dwarf_Off off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* After the reads: every queued DIE read (xt_drain), layouts settled and
 * hashes computed, in the order each needs; ready for xt_write(). */
int xt_complete(struct xtable *xt);
/*
 * Every type of a kernel, from vmlinux and its modules, is one row per
 * structural identity; the sink remembers which identities have a row.
 */
struct type_sink;
int type_sink_new(struct type_sink **out);
void type_sink_free(struct type_sink *sink);
/* DB id of the type with @hash, 0 when none yet. */
int64_t type_sink_lookup(const struct type_sink *sink, uint64_t hash);
/* The last DB id handed out (ids grow by one per new identity); 0: none yet. */
int64_t type_sink_last_id(const struct type_sink *sink);
/* A new DB id for @hash. */
int type_sink_add(struct type_sink *sink, uint64_t hash, int64_t *id);

/* Assign DB ids (identical types share one) and write the new rows. */
int xt_write(struct xtable *xt, struct type_sink *sink, int64_t *nr_written);
/* DB id of table node @id (after xt_write). */
int64_t xt_canon(struct xtable *xt, int64_t id);

/* Append the C spelling of type @id with declarator @decl ("" for none). */
int xt_cdecl(struct xtable *xt, struct kd_buf *b, int64_t id, const char *decl);

#endif

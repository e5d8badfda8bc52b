/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to diff/: the type walk. Types are compared as pairs (old id,
 * new id) reached along the same path from a syscall or ioctl. Each pair
 * of structs/unions/enums/function types is a node, compared once; its
 * changes are owned by the node and its edges (member name -> node)
 * record how deeper types are reached. Impacts are computed at the end by
 * walking the node graph from each root.
 *
 * The passes of diff_internal.h add roots (dt_root()) and hand them slots
 * (dt_slot(), dt_ioctl_arg(), dt_header_type()); the rest is the walk's
 * own: diff-types.c compares a node and descends, diff-aggregate.c
 * compares members and descends again through diff-types.c (the one
 * cycle of diff/), diff-enum.c compares enumerators, diff-graph.c keeps
 * the nodes and the impacts; diff-spelling.c, diff-embedded.c and
 * diff-member-facts.c answer questions about types and members.
 */
#ifndef KD_DIFF_TYPE_WALK_H
#define KD_DIFF_TYPE_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diff/changes.h"
#include "diff/diff.h"
#include "diff/tgraph.h"
#include "lib/buf.h"
#include "lib/hashmap.h"
#include "lib/model.h"

struct kdb;

struct dedge {
	char *label;		/* member or parameter name */
	size_t node;
};

struct dnode {
	int64_t ids[2];		/* old, new; 0 for roots */
	char *display;		/* "struct open_how", a root's name */
	size_t *changes;	/* indices into the result */
	size_t nr_changes, cap_changes;
	struct dedge *edges;
	size_t nr_edges, cap_edges;
	/*
	 * Anonymous struct/union only: 1 while every path embeds it (no
	 * pointer, no array) in an extensible type, as a union alternative or
	 * at a struct's tail: it inherits the extensibility; -1 once a path
	 * does not; 0 not reached yet. Nodes are compared in creation order,
	 * so a path found after the node was compared (a deduplicated
	 * anonymous type used twice) no longer changes its verdicts.
	 */
	signed char anon_ext;
	/*
	 * 1 while every path embeds the type (no pointer, no array) as an
	 * alternative of a union whose size did not change (v4l2_format's
	 * fmt.meta); -1 once a path does not; 0 not reached yet.
	 */
	signed char union_alt;
	/* The same, for "every path is the argument of a size-tolerant ioctl". */
	signed char tolerant;
	bool dirty;		/* owns a change or reaches one */
	long seen;		/* impact walk: root generation */
	long parent;		/* impact walk: node it was reached from, -1 at the root */
	size_t parent_edge;
};

struct diff_engine {
	struct diff_result *r;
	const struct diff_conf *conf;
	struct tgraph g[2];
	struct dnode *nodes;
	size_t nr_nodes, cap_nodes;
	size_t nr_compared;	/* nodes [0, nr_compared) are compared (dt_compare_pending()) */
	struct kd_hashmap pairs;	/* hash of (old id, new id) -> node index + 1 */
	struct kd_buf scratch[2];
	struct kdb *new_db;		/* the new side, for its constants (an enumerator's alias) */
	struct kdb *old_db;		/* the old side, for its constants (a field's gates) */
	/*
	 * Between two kernels, the types only their headers reach are compared
	 * after the syscalls' and ioctls' (diff-header-types.c): nodes from
	 * header_from on are the header pass's, and one whose display names a
	 * type an earlier node compared (kernel_names, by display) is not
	 * compared again under the header view's ids.
	 */
	size_t header_from;
	bool by_kernel_names;
	struct kd_hashmap kernel_names;
	/*
	 * The names of the structs and unions a type of either graph embeds
	 * by value, sorted (diff-embedded.c); pointers into the graphs' types.
	 */
	const char **embedded;
	size_t nr_embedded, cap_embedded;
	bool embedded_loaded;
};

/* Where a compared type sits, which decides the change kinds and rules. */
enum slot_kind { SLOT_PARAM, SLOT_RETURN, SLOT_MEMBER, SLOT_IOCTL_ARG, SLOT_FUNC_PARAM };

/* A new node for the pair (@a, @b) (0, 0: a root); *out receives its index. */
int dt_new_node(struct diff_engine *e, int64_t a, int64_t b, const char *display, size_t *out);
/* The node of the pair (@a, @b), or -1. */
long dt_pair_find(const struct diff_engine *e, int64_t a, int64_t b);
/* Index node @node by its pair. */
int dt_pair_insert(struct diff_engine *e, size_t node);
/*
 * Index the displays of nodes [@from, @to) into @m (kd_hash_str of the
 * display -> node + 1): the roots when @roots, else the types. 0 or -ENOMEM.
 */
int dt_names_index(const struct diff_engine *e, struct kd_hashmap *m, size_t from, size_t to,
		   bool roots);
/* A node @m indexes whose display is @name, or -1. */
long dt_names_find(const struct diff_engine *e, const struct kd_hashmap *m, const char *name);
/* Is every path to change @c one from a root @roots indexes (and is there one)? */
bool dt_only_roots(const struct diff_engine *e, const struct kd_hashmap *roots,
		   const struct diff_change *c);
/* Edge @from -> @to labelled @label (once per target). */
int dt_edge(struct diff_engine *e, size_t from, const char *label, size_t to);
/* Compare the two types of node @node (diff-types.c). */
int dt_compare_node(struct diff_engine *e, size_t node);
/* Compare two enums of node @node, enumerator by enumerator (diff-enum.c). */
int dt_compare_enum(struct diff_engine *e, size_t node, const struct kd_type *ta,
		    const struct kd_type *tb);
/* A new root node (a syscall or ioctl) named @label; *node receives its index. */
int dt_root(struct diff_engine *e, const char *label, size_t *node);
/*
 * Compare the types @old_id / @new_id found in the same place: @owner is
 * the node that owns slot-level changes (named @name; @subject is the
 * slot, "struct fx_stat.mode"); deeper aggregates become nodes reached from
 * @owner through an edge labelled @label.
 */
int dt_slot(struct diff_engine *e, size_t owner, enum slot_kind sk, const char *name,
	    const char *subject, const char *label, int64_t old_id, int64_t new_id);
/* dt_slot() of an ioctl's argument; @size_tolerant: its family's dispatcher is. */
int dt_ioctl_arg(struct diff_engine *e, size_t owner, const char *name, int64_t old_id,
		 int64_t new_id, bool size_tolerant);
/*
 * dt_slot() of a type header @name declares (@subject: "struct tcp_info"),
 * reached from the header's root: compared, but this path is no use of the
 * type and leaves the verdicts that every use decides (a union
 * alternative, a size-tolerant argument) to the syscalls and ioctls.
 */
int dt_header_type(struct diff_engine *e, size_t owner, const char *name, const char *subject,
		   int64_t old_id, int64_t new_id);
/* Record change @idx as owned by @node. */
int dt_own(struct diff_engine *e, size_t node, size_t idx);
/*
 * After every root is compared and then every node (dt_compare_pending()):
 * fill in the impacts of every type change (diff-graph.c).
 */
int dt_impacts(struct diff_engine *e);
/*
 * Compare the nodes not compared yet (and those they add; diff-types.c).
 * Called before the header roots are added, so that every use of a type by
 * a syscall or ioctl has voted (union_alt, tolerant) before a header path
 * reaches it, and before dt_impacts().
 */
int dt_compare_pending(struct diff_engine *e);
void dt_release(struct diff_engine *e);

/*
 * Two types of one slot that say the same bytes otherwise (diff-spelling.c);
 * @g is the engine's pair of type graphs, g[0] the old side's, and @a, @b
 * are type ids of g[0] and g[1].
 */
bool dt_same_name(const char *a, const char *b);	/* both NULL, or equal */
/* The same tag, or an anonymous aggregate that got one in the same place. */
bool dt_same_tag(const char *a, const char *b);
/*
 * The same type under other typedef names (pointers and arrays followed;
 * aggregates and enums by tag: their layouts are their nodes' business).
 * Plain char of either signedness is char: Linux builds with
 * -funsigned-char since 6.2, user space keeps the ABI's.
 */
bool dt_equivalent(const struct tgraph *g, int64_t a, int64_t b);
/* The same integer (or array of them) but for its signedness. */
bool dt_sign_only(const struct tgraph *g, int64_t a, int64_t b);
/* A struct of one member at 0 replaced by that member's type, or the reverse. */
bool dt_wrapped(const struct tgraph *g, int64_t a, int64_t b);
/* --- diff-types.c's slots and nodes, as diff-aggregate.c uses them ---- */
#define MAX_BITMAP_BITS (1 << 24)	/* structs above 2 MiB: no padding analysis */
/*
 * Bit positions and widths are clamped to [0, 2^60]: a .kabi may hold any
 * offset or size (2^61 - 8 bytes is 2^64 - 64 bits), and the sum of two
 * clamped values never overflows.
 */
#define MAX_BIT ((int64_t)1 << 60)

#define SLOT_LAST_SAME_SIZE	0x1	/* last member of a struct whose size did not change */
#define SLOT_EXT_TAIL		0x2	/* its growth is an extensible owner's tail growth */
#define SLOT_UNION_ALT		0x4	/* an alternative of a union whose size did not change */
#define SLOT_TOLERANT		0x8	/* the argument of an ioctl of a size-tolerant family */
/*
 * A header root's path (a type its header declares): not a use of the
 * type, so it does not vote on how every path embeds it (union_alt,
 * tolerant, anon_ext): an ioctl's size-tolerant argument or a union
 * alternative stays one although its header declares it too.
 */
#define SLOT_NO_VOTE		0x10
#define SLOT_LOST_UNUSED	0x20	/* elements an array loses are the contract's unused */
#define SLOT_LAST_MESSAGE	0x40	/* last member of a message, at the same offset */

/* @bits and @bytes (as bits) clamped to [0, MAX_BIT]. */
int64_t dt_clamp_bits(int64_t bits);
int64_t dt_bits_of(int64_t bytes);
/* Add a change owned by node @node (in the types category); *@idx (may be NULL): its index. */
int dt_emit(struct diff_engine *e, size_t node, enum diff_kind kind, enum diff_rule_id rule,
	    const char *subject, const char *old_value, const char *new_value, const char *note,
	    size_t *idx);
/* Follow @a/@b to the aggregates they lead to: their node, reached from @owner by @label. */
int dt_descend(struct diff_engine *e, size_t owner, const char *label, int64_t a, int64_t b,
	       unsigned flags);
/* Compare slot @a/@b (@reserved: reserved space; SLOT_* @flags), then descend. */
int dt_slot_with(struct diff_engine *e, size_t owner, enum slot_kind sk, const char *name,
		 const char *subject, const char *label, int64_t a, int64_t b, bool reserved,
		 unsigned flags);
/* Compare node @node's structs or unions @ta/@tb member by member (diff-aggregate.c). */
int dt_compare_aggregate(struct diff_engine *e, size_t node, const struct kd_type *ta,
			 const struct kd_type *tb);

/*
 * Is enumerator @name of enum @t a count or end marker: named like one
 * (__FOO_MAX, FOO_LAST, NUM_FOO) with no enumerator not named so of a
 * greater value (diff-enum.c)? False when @t has no such enumerator.
 */
bool dt_enum_end_marker(const struct kd_type *t, const char *name);

/*
 * Does a type of either kernel embed the struct or union @name by value (a
 * member, an array's element)? *@embedded: the answer (true for NULL: an
 * anonymous aggregate is its owner's member). 0 or -ENOMEM.
 */
int dt_embedded(struct diff_engine *e, const char *name, bool *embedded);

/*
 * Does the comparison of enum @ta with @tb report the enumerator of @ta
 * that @tb lacks, of @value, as renamed (the old name kept as a constant
 * of that value, one new name for it in @tb; diff-enum.c)?
 */
bool dt_enumerator_renamed(const struct diff_engine *e, const struct kd_type *ta,
			   const struct kd_type *tb, int64_t value);

/* Enums of other tags, the same size, every old enumerator kept with its value. */
bool dt_enum_renamed(const struct kd_type *ta, const struct kd_type *tb);

/*
 * What the contract and the naming convention say about struct @type
 * (its name without the tag) and its members (diff-member-facts.c).
 */
/* Do @db's headers define constant @name? *@value (may be NULL): its value. */
bool diff_constant(struct kdb *db, const char *name, int64_t *value);
/* Why a member is reserved space: a line of the contract, or its name. */
struct dt_resv_why {
	bool is;
	enum diff_evidence kind;	/* DIFF_EV_CONTRACT or DIFF_EV_CONVENTION */
	struct diff_where where;	/* the contract's line */
	/*
	 * By the convention, a name that says padding only (pad, padding,
	 * __align), not reserved space: its bytes are judged as padding when
	 * they get a meaning.
	 */
	bool padding;
};
/*
 * Is @member of @type (NULL: anonymous) reserved space? The contract first
 * (a member it describes otherwise is not: a "pad" with a kind is no
 * padding), else the name (reserved, resvd, resv, rsvd, rsv, spare,
 * unused; or padding: pad, padding, __align; with underscores and a
 * number). *@why: who said.
 */
bool dt_member_reserved(const struct diff_engine *e, const char *type, const char *member,
			struct dt_resv_why *why);
/* Name what made change @idx (@owner's member @member) a reserved-space one. */
int dt_resv_evidence(struct diff_engine *e, size_t idx, const char *owner, const char *member,
		     const struct dt_resv_why *why);
/* The contract says @member of @type (NULL: its padding) must be zero. */
bool dt_contract_reserved(const struct diff_engine *e, const char *type, const char *member);
/* The contract calls @member of @type output-only; *@where: its line. */
bool dt_contract_out(const struct diff_engine *e, const char *type, const char *member,
		     struct diff_where *where);
/* The contract calls @type prefix (copied no further than the caller's length). */
bool dt_contract_prefix(const struct diff_engine *e, const char *type, struct diff_where *where);
/* The contract calls @type a message (sized by a length, read at any address). */
bool dt_contract_message(const struct diff_engine *e, const char *type, struct diff_where *where);
/* The contract calls @member of @type unused from element *@from on (0: all of it). */
bool dt_contract_unused(const struct diff_engine *e, const char *type, const char *member,
			int64_t *from, struct diff_where *where);
/*
 * Does the new kernel leave member @member of new @type unread from old
 * binaries? The contract calls it unused, or (with @out_counts) out, or it
 * is read only `when` UAPI constants that both sides' headers were read
 * for, none in the old ones and all in the new. *@why: the evidence, which
 * names the member as node @node displays its type.
 */
bool dt_member_unread(const struct diff_engine *e, size_t node, const char *type,
		      const char *member, bool out_counts, struct kd_buf *why);
/*
 * The rule of member @name of node @node's new type (added, or an old
 * member's new name) in bytes that only a name saying padding reserved
 * (@t: the old and new types): judged as padding is. Reserved space
 * itself, it names them anew (reserved-reuse); output-only (*@out_where:
 * the contract's line) or unread by the new kernel (@why: the evidence),
 * nothing old binaries left there is interpreted; otherwise nothing says
 * they left zero (padding-member-reuse-uncontracted).
 */
enum diff_rule_id dt_padding_member_rule(const struct diff_engine *e, size_t node,
					 const char *old_type, const char *new_type, const char *name,
					 struct diff_where *out_where, struct kd_buf *why);
/*
 * The contract's evidence of change @idx, node @node's member @name, when
 * @rule (of dt_padding_member_rule() or an added member's) rests on it:
 * @ow the out line, @why dt_member_unread()'s text. 0 for other rules.
 */
int dt_meaning_evidence(struct diff_engine *e, size_t idx, size_t node, enum diff_rule_id rule,
			const char *name, const struct diff_where *ow, const struct kd_buf *why);
/* Node @node's type @t is extensible: by the contract, or inherited when anonymous. */
bool dt_node_extensible(const struct diff_engine *e, size_t node, const struct kd_type *t);
/* The rule of a growth at the tail of node @node's type @t. */
enum diff_rule_id dt_tail_rule(const struct diff_engine *e, size_t node, const struct kd_type *t);
/*
 * The evidence of change @idx, node @node's (of @type), when @rule rests
 * on a fact of the whole struct: a size-tolerant argument, prefix, whole.
 * Nothing for another rule.
 */
int dt_struct_fact_evidence(struct diff_engine *e, size_t idx, size_t node, enum diff_rule_id rule,
			    const char *type);

#endif

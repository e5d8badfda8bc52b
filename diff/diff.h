/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * diff: two kernels' user-space ABI (two .kabi files) compared into a list
 * of changes. Each change has a stable kind id ("type.member.offset"), the
 * thing it is about, old -> new values, and a verdict that comes from one
 * rule of diff/RULES.md (the engine applies exactly those rules and every
 * change cites its rule id). Type changes carry their impact: every syscall
 * or ioctl that reaches the type, with the path from it
 * ("openat2 -> how -> struct open_how").
 *
 * Facts only a contract can give (is this struct extensible? is that member
 * reserved?) come in through struct diff_contract; without one, the engine
 * judges from layout alone and marks such verdicts "potentially breaking".
 * The engine sees the DB API only; reports are printed by report__fprintf().
 */
#ifndef KD_DIFF_H
#define KD_DIFF_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

struct kdb;

/* In increasing order of severity. */
enum diff_verdict {
	DIFF_INFO = 0,		/* no effect on binaries or sources (a rename, a spelling) */
	DIFF_COMPATIBLE,	/* old binaries keep working */
	DIFF_SOURCE,		/* old binaries keep working; old source fails to build or
				 * changes meaning when rebuilt */
	DIFF_BREAKING,		/* old binaries break on the new kernel */
	DIFF__NR_VERDICTS
};

/*
 * What decided a verdict, strongest first: a line of the contract, the
 * layouts (or tables, or header values) of both kernels as the rule reads
 * them, what a kernel's own binary shows beyond the compared item (a
 * sys_ni.c stub, a module that is or is not there, whether built code uses
 * a type), what the probe observed, or a naming convention (weaker than a
 * contract, which overrides it).
 */
enum diff_evidence {
	DIFF_EV_LAYOUT = 0,
	DIFF_EV_CONTRACT,
	DIFF_EV_KERNEL,
	DIFF_EV_PROBE,
	DIFF_EV_CONVENTION,
	DIFF__NR_EVIDENCE
};

enum diff_category {
	DIFF_CAT_SYSCALL = 0,
	DIFF_CAT_TYPE,
	DIFF_CAT_CONSTANT,
	DIFF_CAT_IOCTL,
	DIFF_CAT_VDSO,
	DIFF__NR_CATEGORIES
};

/* "breaking", "source", "compatible", "info"; "syscalls", "types", ..., "vdso";
 * "layout", "contract", "kernel", "probe", "convention". */
const char *diff_verdict_name(enum diff_verdict v);
const char *diff_evidence_name(enum diff_evidence e);
const char *diff_category_name(enum diff_category c);

/*
 * What changed: the stable kind ids of diff/RULES.md's "Change kinds"
 * ("type.member.offset"), each in a category (diff_kind_category()).
 */
enum diff_kind {
	DIFF_K_NONE = 0,
	DIFF_K_SYSCALL_ADDED,
	DIFF_K_SYSCALL_REMOVED,
	DIFF_K_SYSCALL_RENUMBERED,
	DIFF_K_SYSCALL_PARAM_COUNT,
	DIFF_K_SYSCALL_PARAM_TYPE,
	DIFF_K_SYSCALL_RETURN_TYPE,
	DIFF_K_SYSCALL_PARAM_NAME,
	DIFF_K_TYPE_KIND,
	DIFF_K_TYPE_SIZE,
	DIFF_K_TYPE_ALIGN,
	DIFF_K_TYPE_MEMBER_ADDED,
	DIFF_K_TYPE_MEMBER_REMOVED,
	DIFF_K_TYPE_MEMBER_RENAMED,
	DIFF_K_TYPE_MEMBER_OFFSET,
	DIFF_K_TYPE_MEMBER_TYPE,
	DIFF_K_TYPE_MEMBER_BITFIELD,
	DIFF_K_TYPE_ARRAY_BOUND,
	DIFF_K_TYPE_ARRAY_FLEXIBLE,
	DIFF_K_TYPE_ENUMERATOR_ADDED,
	DIFF_K_TYPE_ENUMERATOR_REMOVED,
	DIFF_K_TYPE_ENUMERATOR_VALUE,
	DIFF_K_TYPE_ENUMERATOR_RENAMED,
	DIFF_K_TYPE_HEADER_KERNEL,
	DIFF_K_TYPE_FUNC_PARAMS,
	DIFF_K_TYPE_REMOVED,
	DIFF_K_HEADER_COMPILE,
	DIFF_K_HEADER_UNSERVED,
	DIFF_K_CONSTANT_ADDED,
	DIFF_K_CONSTANT_REMOVED,
	DIFF_K_CONSTANT_VALUE,
	DIFF_K_CONSTANT_DEFINITION,
	DIFF_K_IOCTL_ADDED,
	DIFF_K_IOCTL_REMOVED,
	DIFF_K_IOCTL_CMD,
	DIFF_K_IOCTL_ARG_TYPE,
	DIFF_K_IOCTL_IA32,
	DIFF_K_IOCTL_FAMILY_ADDED,
	DIFF_K_IOCTL_FAMILY_REMOVED,
	DIFF_K_IOCTL_FAMILY_CHANGED,
	DIFF_K_PROBE_ERRNO,
	DIFF_K_PROBE_FLAG,
	DIFF_K_PROBE_DEVIATION,
	DIFF_K_SYSCALL_ERRNO_ADDED,
	DIFF_K_SYSCALL_ERRNO_REMOVED,
	DIFF_K_IOCTL_ERRNO_ADDED,
	DIFF_K_IOCTL_ERRNO_REMOVED,
	DIFF_K_SET_VALUE_ADDED,
	DIFF_K_SET_VALUE_REMOVED,
	DIFF_K_VDSO_IMAGE_ADDED,
	DIFF_K_VDSO_IMAGE_REMOVED,
	DIFF_K_VDSO_SONAME,
	DIFF_K_VDSO_SYMBOL_ADDED,
	DIFF_K_VDSO_SYMBOL_REMOVED,
	DIFF_K_VDSO_SYMBOL_VERSION,
	DIFF_K_VDSO_SYMBOL_BINDING,
	DIFF__NR_KINDS
};

/* "type.member.offset"; "?" for DIFF_K_NONE or out of range. */
const char *diff_kind_name(enum diff_kind k);
/*
 * The category a change of kind @k belongs to; DIFF__NR_CATEGORIES for the
 * kinds that sit wherever their type does (type.array.*: a syscall
 * parameter, an ioctl argument or a member).
 */
enum diff_category diff_kind_category(enum diff_kind k);

/* The rules of diff/RULES.md, in its order: the index of diff_rules(). */
enum diff_rule_id {
	DIFF_R_SYSCALL_ADDED,
	DIFF_R_SYSCALL_REMOVED,
	DIFF_R_SYSCALL_REMOVED_UNIMPLEMENTED,
	DIFF_R_SYSCALL_ABI_REMOVED,
	DIFF_R_SYSCALL_ABI_ADDED,
	DIFF_R_SYSCALL_RENUMBERED,
	DIFF_R_SYSCALL_IMPLEMENTED,
	DIFF_R_SYSCALL_COMPILED_OUT,
	DIFF_R_SYSCALL_PARAMS_COUNT,
	DIFF_R_SYSCALL_PARAM_TYPE,
	DIFF_R_SYSCALL_PARAM_RENAMED,
	DIFF_R_TYPE_SPELLING,
	DIFF_R_INTEGER_SIGNEDNESS,
	DIFF_R_TYPE_WRAPPED,
	DIFF_R_ENUM_RENAMED,
	DIFF_R_POINTEE_VOID,
	DIFF_R_TYPE_KIND,
	DIFF_R_TYPE_KIND_LAYOUT,
	DIFF_R_TYPE_SIZE,
	DIFF_R_TYPE_ALIGN,
	DIFF_R_TYPE_ALIGN_PREFIX,
	DIFF_R_TYPE_ALIGN_MESSAGE,
	DIFF_R_TYPE_ALIGN_UNEMBEDDED,
	DIFF_R_TAIL_GROWTH_EXTENSIBLE,
	DIFF_R_TAIL_GROWTH_UNCONTRACTED,
	DIFF_R_TAIL_GROWTH_UNION,
	DIFF_R_TAIL_GROWTH_TOLERANT,
	DIFF_R_TAIL_GROWTH_PREFIX,
	DIFF_R_TAIL_GROWTH_WHOLE,
	DIFF_R_TAIL_SHRINK_UNUSED,
	DIFF_R_MEMBER_REMOVED,
	DIFF_R_MEMBER_REMOVED_UNUSED,
	DIFF_R_MEMBER_ADDED,
	DIFF_R_MEMBER_ADDED_EMPTY,
	DIFF_R_MEMBER_ADDED_ALIAS,
	DIFF_R_PADDING_REUSE,
	DIFF_R_PADDING_REUSE_UNCONTRACTED,
	DIFF_R_PADDING_REUSE_OUT,
	DIFF_R_PADDING_NAMED,
	DIFF_R_MEMBER_ADDED_UNREAD,
	DIFF_R_RESERVED_REUSE,
	DIFF_R_RESERVED_CARVED,
	DIFF_R_PADDING_MEMBER_REUSE_UNCONTRACTED,
	DIFF_R_MEMBER_RENAMED,
	DIFF_R_MEMBER_MOVED,
	DIFF_R_MEMBER_TYPE,
	DIFF_R_MEMBER_BITFIELD,
	DIFF_R_ARRAY_BOUND,
	DIFF_R_ARRAY_SHRINK_UNUSED,
	DIFF_R_ARRAY_FLEXIBLE_SPELLING,
	DIFF_R_ARRAY_FLEXIBLE_ELEMENT,
	DIFF_R_ARRAY_ONE_ELEMENT,
	DIFF_R_ARRAY_ONE_ELEMENT_MESSAGE,
	DIFF_R_ENUMERATOR_ADDED,
	DIFF_R_ENUMERATOR_REMOVED,
	DIFF_R_ENUMERATOR_VALUE,
	DIFF_R_ENUMERATOR_RENAMED,
	DIFF_R_ENUMERATOR_COUNT,
	DIFF_R_HEADER_KERNEL_MISMATCH,
	DIFF_R_HEADER_KERNEL_KEPT,
	DIFF_R_HEADER_KERNEL_UNREACHED,
	DIFF_R_ENUMERATOR_REMOVED_HEADER,
	DIFF_R_TYPE_UNBUILT,
	DIFF_R_HEADER_TYPE_REMOVED,
	DIFF_R_HEADER_COMPILE_FAILED,
	DIFF_R_FUNC_SIGNATURE,
	DIFF_R_CONSTANT_ADDED,
	DIFF_R_CONSTANT_REMOVED,
	DIFF_R_CONSTANT_REMOVED_SET_VALUE,
	DIFF_R_CONSTANT_REMOVED_MODULE,
	DIFF_R_HEADER_UNSERVED,
	DIFF_R_SYSCALL_NUMBER_KEPT,
	DIFF_R_SYSCALL_NUMBER_UNSERVED,
	DIFF_R_CONSTANT_VALUE,
	DIFF_R_CONSTANT_VALUE_UNBUILT,
	DIFF_R_CONSTANT_COUNT,
	DIFF_R_CONSTANT_VERSION_UP,
	DIFF_R_CONSTANT_VERSION_DOWN,
	DIFF_R_CONSTANT_VERSION_MAJOR,
	DIFF_R_CONSTANT_MINIMUM_UP,
	DIFF_R_CONSTANT_MINIMUM_DOWN,
	DIFF_R_CONSTANT_MASK_GROWN,
	DIFF_R_CONSTANT_MASK_LOST,
	DIFF_R_CONSTANT_RESERVED_SHRUNK,
	DIFF_R_CONSTANT_RESERVED_GROWN,
	DIFF_R_CONSTANT_HARDWARE,
	DIFF_R_CONSTANT_RENUMBERED,
	DIFF_R_CONSTANT_NOW_ENUMERATOR,
	DIFF_R_CONSTANT_NOW_MACRO,
	DIFF_R_IOCTL_ADDED,
	DIFF_R_IOCTL_REMOVED,
	DIFF_R_IOCTL_REMOVED_UNBUILT,
	DIFF_R_IOCTL_REMOVED_UNIMPLEMENTED,
	DIFF_R_IOCTL_CMD,
	DIFF_R_IOCTL_CMD_UNBUILT,
	DIFF_R_IOCTL_SIZE_TOLERANT,
	DIFF_R_IOCTL_ARG_TYPE,
	DIFF_R_IOCTL_CMD_IA32,
	DIFF_R_IOCTL_IA32_UNBUILT,
	DIFF_R_IOCTL_FAMILY_ADDED,
	DIFF_R_IOCTL_FAMILY_REMOVED,
	DIFF_R_IOCTL_FAMILY_CHANGED,
	DIFF_R_PROBE_FLAG_ACCEPTED,
	DIFF_R_PROBE_FLAG_REJECTED,
	DIFF_R_PROBE_CALL_IMPLEMENTED,
	DIFF_R_PROBE_NOW_SUCCEEDS,
	DIFF_R_PROBE_ERRNO_CHANGED,
	DIFF_R_PROBE_ERRNO_CONTRACTED,
	DIFF_R_PROBE_DEVIATION_GONE,
	DIFF_R_PROBE_FLAG_KNOWN,
	DIFF_R_PROBE_DEVIATION_ACCEPTS,
	DIFF_R_PROBE_DEVIATION_NEW,
	DIFF_R_PROBE_FS_DIFFERS,
	DIFF_R_PROBE_SIZE_CHANGED,
	DIFF_R_ERRNO_ADDED,
	DIFF_R_ERRNO_REMOVED,
	DIFF_R_SET_VALUE_ADDED,
	DIFF_R_SET_VALUE_REMOVED,
	DIFF_R_VDSO_IMAGE_ADDED,
	DIFF_R_VDSO_IMAGE_REMOVED,
	DIFF_R_VDSO_SONAME,
	DIFF_R_VDSO_SYMBOL_ADDED,
	DIFF_R_VDSO_SYMBOL_REMOVED,
	DIFF_R_VDSO_SYMBOL_VERSION,
	DIFF_R_VDSO_SYMBOL_BINDING,
	DIFF__NR_RULES
};

#define DIFF_RULE_MAX_KINDS 16

/* One row of diff/RULES.md. */
struct diff_rule {
	const char *id;		/* "member-moved" */
	/* The kinds of change it judges, DIFF_K_NONE after the last; its
	 * "matches" text in RULES.md starts with their names. */
	enum diff_kind kinds[DIFF_RULE_MAX_KINDS];
	const char *matches;	/* what it matches, as in RULES.md */
	enum diff_verdict verdict;
	bool uncontracted;	/* applies because no contract said otherwise */
	const char *why;
};

/* The rule table, in RULES.md order (indexed by enum diff_rule_id); *n receives its length. */
const struct diff_rule *diff_rules(size_t *n);
/* Rule by id, NULL when unknown. */
const struct diff_rule *diff_rule_by_id(const char *id);
/* Rule @r (which must be one of enum diff_rule_id). */
const struct diff_rule *diff_rule(enum diff_rule_id r);

/* Where the contract says something, for the evidence: "spec/contract/perf.kabispec", 45. */
struct diff_where {
	const char *file;
	int line;
};

/* What a UAPI constant is for (spec/FORMAT.md "constant"); see diff/RULES.md. */
enum diff_role {
	DIFF_ROLE_NONE = 0,	/* not known: judged as a value */
	DIFF_ROLE_VALUE,	/* a flag or value user space passes */
	DIFF_ROLE_MASK,		/* the OR of a set's bits */
	DIFF_ROLE_VERSION,	/* an interface version */
	DIFF_ROLE_MINIMUM,	/* the oldest version the kernel accepts */
	DIFF_ROLE_COUNT,	/* a count or an end sentinel */
	DIFF_ROLE_RESERVED,	/* a mask of reserved bits */
	DIFF_ROLE_HARDWARE,	/* a fact of hardware no syscall or ioctl passes */
};

/* What the contract says about a UAPI constant. */
struct diff_constant_fact {
	enum diff_role role;	/* DIFF_ROLE_NONE: no role stated */
	struct diff_where role_where;
	const char *set;	/* a flag set or enum that lists it as a value, NULL: none */
	bool set_rejects;	/* that set refuses unknown values ("unknown reject") */
	struct diff_where set_where;	/* the value's line in the set */
};

/*
 * The contract, as far as verdicts need it. Any callback may be NULL
 * (treated as "the contract does not say"). Each returns true when the
 * contract says so, and then fills @where (which may be NULL) with the
 * line that says it. @name is the type's name without its tag
 * ("open_how"); @member NULL asks about padding.
 */
struct diff_contract {
	/* The struct is versioned by its size: the kernel accepts shorter and
	 * longer copies and requires bytes it does not know to be zero. */
	bool (*is_extensible)(void *ctx, const char *name, struct diff_where *where);
	/* The struct is copied to or from user space no further than a length
	 * the caller gives (or read from a message whose length says how much
	 * there is): any prefix of it is a whole copy, a missing tail unset. */
	bool (*is_prefix)(void *ctx, const char *name, struct diff_where *where);
	/* The struct is a message's bytes: the kernel takes its length from
	 * the caller or the protocol, never its C size, and reads it at any
	 * address (nbd's reply on a socket, a firmware request the caller sizes). */
	bool (*is_message)(void *ctx, const char *name, struct diff_where *where);
	/* The kernel copies the struct at its own size whatever length the
	 * caller gave (bnxt_re_create_srq()'s ib_copy_to_udata(sizeof(resp))). */
	bool (*is_whole)(void *ctx, const char *name, struct diff_where *where);
	/* The kernel never reads nor writes member @member of @name from
	 * element *@from on (0: the whole member): its bytes are the caller's. */
	bool (*is_unused)(void *ctx, const char *name, const char *member, int64_t *from,
			  struct diff_where *where);
	/* The kernel reads @member only when one of the UAPI constants *@gates
	 * (*@nr of them) is in play: a flag set, a command issued. */
	bool (*gates)(void *ctx, const char *name, const char *member, const char *const **gates,
		      size_t *nr, struct diff_where *where);
	/* The member (or, with @member NULL, the padding) must be zero. */
	bool (*is_reserved)(void *ctx, const char *name, const char *member,
			    struct diff_where *where);
	/* The member (or the whole struct, "struct X out") is written by the
	 * kernel only; user space never gave it a meaning. */
	bool (*is_out)(void *ctx, const char *name, const char *member, struct diff_where *where);
	/* The contract describes member @member of @name (which overrides a
	 * naming convention about it: a "pad" with a kind is no padding). */
	bool (*describes)(void *ctx, const char *name, const char *member,
			  struct diff_where *where);
	/* The contract's facts about a UAPI constant; false when it says nothing. */
	bool (*constant)(void *ctx, const char *name, struct diff_constant_fact *fact);
	/* The ioctl (_IOC_TYPE @type, defined in header @header, may be NULL) is
	 * served by a dispatcher that matches commands without their size and
	 * zero-fills what a shorter argument lacks. */
	bool (*size_tolerant)(void *ctx, const char *ioctl, int type, const char *header,
			      struct diff_where *where);
	/* The syscall or ioctl @name is kept by number only: the kernel always
	 * fails it. */
	bool (*unimplemented)(void *ctx, bool ioctl, const char *name, struct diff_where *where);
	/* Parameter *@len of syscall @call gives the length in bytes of its
	 * parameter @param (the contract's `len PARAM`). */
	bool (*length_of)(void *ctx, const char *call, const char *param, const char **len,
			  struct diff_where *where);
	/* The vDSO of ABI @abi ("x64") exports entry point @name at version
	 * node @node (the contract's `vdso ABI` block); with @name NULL: the
	 * contract describes that ABI's vDSO at all. */
	bool (*vdso_promise)(void *ctx, const char *abi, const char *name, const char *node,
			     struct diff_where *where);
	void *ctx;
	const char *source;	/* what the contract is, for the report header */
};

/*
 * A change between two versions of the contract (--old-spec/--new-spec),
 * found by the spec stage (spec/spec-diff.h) and judged here by the rules
 * errno-added/-removed and set-value-added/-removed.
 */

struct diff_conf {
	const struct diff_contract *contract;	/* NULL: layout-only verdicts */
	const char *abi;			/* compare only this syscall ABI; NULL: all */
	const struct kd_contract_change *contract_changes;	/* NULL: none */
	size_t nr_contract_changes;
	/* The inputs as the user named them (a vmlinux, a directory, packages),
	 * which reports show instead of the .kabi they were extracted into
	 * (a cache file); NULL: the .kabi's own path. */
	const char *input[2];
	/* This run's name of a header tree, which reports show instead of the
	 * meta.release its cache entry was first given (the label of another
	 * run: "HEAD~1" for "master"); NULL: meta.release. */
	const char *release[2];
};

/* Where a type change is reached from. */
struct diff_impact {
	char *root;	/* "openat2", "ioctl FS_IOC_GETFLAGS" */
	char *path;	/* "openat2 -> how -> struct open_how" */
};

struct diff_change {
	const char *kind;	/* stable id, see RULES.md: "type.member.offset" */
	enum diff_category category;
	const struct diff_rule *rule;	/* never NULL; the verdict is rule->verdict */
	char *name;		/* what owns it: "struct open_how", "openat2", "O_PATH" */
	char *subject;		/* what changed: "struct open_how.newfield" */
	char *old_value;	/* NULL: absent in the old kernel */
	char *new_value;	/* NULL: absent in the new kernel */
	char *note;		/* optional detail ("size 24 -> 32, dir w"), NULL when none */
	enum diff_evidence evidence_kind;
	char *evidence;		/* what decided the verdict, never NULL:
				 * "spec/perf.kabispec:45: __reserved_3: reserved" */
	char *cause;		/* the finding it belongs to, never NULL: "struct statx",
				 * "lookup_dcookie", "header drm/mga_drm.h" */
	size_t nr_impacts;
	struct diff_impact *impacts;	/* sorted by root */
	char *suppressed;	/* reason of the suppression that matched (a copy), or NULL */
	/* Where it is declared (diff_result__locate()), relative to the kernel's
	 * source tree unless absolute; NULL when unknown or not asked for. */
	char *decl_file;
	int decl_line;		/* 1-based; 0 when unknown */
};

struct diff_result;

/*
 * Compare @old and @new. *out: free with diff_result__free(). Returns 0 or
 * a negative code (reported through kd_err()).
 */
int diff__run(struct kdb *old, struct kdb *new, const struct diff_conf *conf,
	      struct diff_result **out);
void diff_result__free(struct diff_result *r);

/*
 * Fill in each change's decl_file/decl_line from the kernel that has it
 * (@new first, then @old; either may be NULL): the struct, union or enum
 * it is about, the header line of a constant or ioctl, the definition of a
 * syscall. Returns 0 or a negative code; changes left unknown stay NULL.
 */
int diff_result__locate(struct diff_result *r, struct kdb *old, struct kdb *new);

/* Changes sorted by category, name, subject and kind. */
size_t diff_result__nr_changes(const struct diff_result *r);
const struct diff_change *diff_result__change(const struct diff_result *r, size_t i);
/* First change of @kind whose subject is @subject (tests, tools), or NULL. */
const struct diff_change *diff_result__find(const struct diff_result *r, const char *kind,
					    const char *subject);
/* Unsuppressed changes of @cat (DIFF__NR_CATEGORIES: all) with verdict @v. */
size_t diff_result__count(const struct diff_result *r, enum diff_category cat,
			  enum diff_verdict v);
/* Suppressed changes of @cat (DIFF__NR_CATEGORIES: all). */
size_t diff_result__count_suppressed(const struct diff_result *r, enum diff_category cat);
/*
 * Identity of the two kernels: "release", "build_id", "path" (the input as
 * given: struct diff_conf.input), "kabi" (the .kabi compared); and
 * "uapi_constants", what became of its headers' macros ("N evaluated, M
 * not (K problems)"); NULL if unknown.
 */
const char *diff_result__meta(const struct diff_result *r, bool new_side, const char *key);
bool diff_result__has_contract(const struct diff_result *r);

/* What one side's .kabi covers (what its extraction read). */
struct diff_coverage {
	bool vmlinux;		/* a kernel image: syscall tables and DWARF (not a header tree) */
	bool btf;		/* ...read from a bootable image's BTF (meta coverage_gaps) */
	bool headers;		/* UAPI headers: constants, ioctls, the header view */
	long long modules;	/* modules read (0: none) */
	bool probe;		/* probe results (kabi-diff probe) */
	bool contract;		/* a contract stored in it */
};
const struct diff_coverage *diff_result__coverage(const struct diff_result *r, bool new_side);
/*
 * A header of the old side whose types were not compared although both
 * sides were read with headers: it compiles on its own in the old tree
 * and not in the new one (its failure is a change, header-compile-failed),
 * so the new headers give its types no layout. @header NULL: every
 * header, one side having no header view at all (no compiler).
 */
struct diff_uncompared {
	const char *header;		/* include-relative: "linux/b.h" */
	const char *why;		/* "the new linux/b.h does not compile on its own: ..." */
	const char *const *types;	/* "struct b_t", in name order; none for @header NULL */
	size_t nr_types;
};
/*
 * A module the old kernel had and the new one lacks (read with their
 * modules, compared by name as modprobe spells it), in name order.
 */
struct diff_module_removed {
	char *name;		/* "act_ipt" */
	char *path;		/* where the old kernel's was read */
	char *description;	/* .modinfo's; NULL: none */
	char **headers;		/* the UAPI headers its code includes, sorted */
	size_t nr_headers;
	char **served;		/* subjects of the changes only removed code served, it among it; sorted */
	size_t nr_served;
	char **shared;		/* subjects one of several removed modules served, which the
				 * binaries do not tell apart (RULES.md "plugins gone"); sorted */
	size_t nr_shared;
};
size_t diff_result__nr_removed_modules(const struct diff_result *r);
const struct diff_module_removed *diff_result__removed_module(const struct diff_result *r, size_t i);
size_t diff_result__nr_uncompared(const struct diff_result *r);
const struct diff_uncompared *diff_result__uncompared(const struct diff_result *r, size_t i);
/*
 * Was category @c compared (both sides cover it)? When not, *why (may be
 * NULL) says what is missing ("the old side was read without UAPI headers").
 */
bool diff_result__compared(const struct diff_result *r, enum diff_category c, const char **why);
/* Were probe results compared (both sides have them)? *why as above. */
bool diff_result__probe_compared(const struct diff_result *r, const char **why);
/* What the contract is (struct diff_contract.source), NULL when none or unnamed. */
const char *diff_result__contract_source(const struct diff_result *r);

/*
 * Exit status bits: abidiff's for binaries (4 changes, 8 breaking
 * changes) and one of kabi-diff's own, DIFF_EXIT_SOURCE, for source-level
 * changes. 0: no change. Suppressed changes do not count.
 */
#define DIFF_EXIT_CHANGES	4
#define DIFF_EXIT_BREAKING	8
#define DIFF_EXIT_SOURCE	16
int diff_result__exit_bits(const struct diff_result *r);

/* --- one program's view (--for) ----------------------------------------- */
struct kd_usage;

/* What diff_result__restrict() kept and left out. */
struct diff_for {
	char *file;		/* the file the usage was read from, as given */
	char *kind;		/* "strace log", "seccomp profile", "ELF binary" */
	size_t nr_syscalls;	/* syscalls the program uses that a kernel has */
	size_t nr_ioctls;	/* ioctls it uses (names, and numbers no kernel defines) */
	char **names;		/* those syscalls, then those ioctls, each sorted */
	size_t nr_names;
	char **unknown;		/* syscall names it uses that neither kernel has */
	size_t nr_unknown, cap_unknown;
	size_t nr_unknown_cmds;	/* ioctl command numbers neither kernel defines */
	const char *unseen;	/* what the reader cannot see (static), NULL: nothing */
	/* Changes left out, unsuppressed by verdict, and suppressed ones. */
	size_t left_out[DIFF__NR_VERDICTS];
	size_t left_out_suppressed;
};

/*
 * Keep only the changes of @r that program usage @u (finished) reaches:
 * a used syscall (of @u->abi, if it says) or ioctl, its __NR_ constant,
 * or a type one of them reaches; the rest are dropped and counted in
 * diff_result__for(). @u's numbers are resolved against @old and @new
 * (syscall tables, ioctl commands). Returns 0 or a negative code
 * (reported).
 */
int diff_result__restrict(struct diff_result *r, const struct kd_usage *u, const char *file,
			  struct kdb *old, struct kdb *new);
/* The restriction of diff_result__restrict(), NULL when there was none. */
const struct diff_for *diff_result__for(const struct diff_result *r);

/* --- suppressions ------------------------------------------------------- */
/*
 * A suppressions file: one entry per line, "RULE-GLOB NAME-GLOB REASON...",
 * '#' comments and blank lines ignored; the reason is mandatory. A change
 * matches when the rule id matches RULE-GLOB and its name, subject or one of
 * its impact roots matches NAME-GLOB (fnmatch). Suppressed changes stay in
 * the result, counted apart and printed with their reason.
 */
struct diff_suppressions;

/* Parse @path. Errors are reported as "FILE:LINE: cause". *out: __free(). */
int diff_suppressions__load(const char *path, struct diff_suppressions **out);
void diff_suppressions__free(struct diff_suppressions *s);
/*
 * Mark the matching changes of @r; returns how many, or -ENOMEM. Entries
 * that match no change are kept in @r (diff_result__unmatched()).
 */
long diff_result__suppress(struct diff_result *r, const struct diff_suppressions *s);
/* Suppression entries that matched no change, "FILE:LINE: RULE NAME", in file order. */
size_t diff_result__nr_unmatched(const struct diff_result *r);
const char *diff_result__unmatched(const struct diff_result *r, size_t i);

/* --- reports ------------------------------------------------------------ */
enum report_format { REPORT_TEXT = 0, REPORT_JSON, REPORT_MD, REPORT_SARIF };

struct report_conf {
	enum report_format format;
	bool only_breaking;	/* list breaking changes only (the summary stays whole) */
	bool stat;		/* text and Markdown: the summary only, no change listed
				 * (abidiff's --stat) */
	bool full;		/* text: list every change of every section, not only
				 * breaking and source ones (JSON and Markdown always do) */
	bool color;		/* text: ANSI colors */
	size_t max_bytes;	/* Markdown: at most this many bytes, the findings that
				 * do not fit left out and counted (a review comment:
				 * REPORT_REVIEW_BYTES); 0: no limit */
	const char *whole_name;	/* with max_bytes: where the whole report is, which the
				 * note on what was left out names (a CI artifact);
				 * NULL: "the same command without --review" */
	const char *whole_url;	/* and where a reader of the comment finds it (an
				 * http(s) URL the note links); NULL: no link */
	const char *tool_version;	/* SARIF: the driver's version; NULL: none */
};

/*
 * GitHub refuses a comment over 65,536 characters; a review's Markdown
 * report stays under this many bytes (a byte is at most one character),
 * with room for what a CI job adds around it.
 */
#define REPORT_REVIEW_BYTES 60000

/* "text", "json", "md", "sarif" -> format; -1 when unknown. */
int report_format_from_name(const char *name);

/*
 * Print @r to @f in @conf->format. Returns 0 or -EIO when writing failed.
 * Every printer shares one walk over the changes (diff/report.c).
 */
int report__fprintf(const struct diff_result *r, const struct report_conf *conf, FILE *f);

#endif

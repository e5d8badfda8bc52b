/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * spec: the contract, i.e. what user space was promised about the kernel
 * ABI, written by humans in .kabispec files (see spec/FORMAT.md) and parsed
 * here into a read-only model: syscalls and ioctls with semantic parameter
 * kinds and errnos, flag sets and enums, struct annotations (extensible,
 * reserved, out-only), fd kinds, and the files it came from with their
 * content hashes.
 *
 * struct spec is opaque; the element structs below are public views that
 * live as long as the spec (libbpf-style: opaque handle, plain records).
 * Parsing never stops at the first error: every error of every file is
 * reported through kd_err() as "FILE:LINE:COL: message" and counted;
 * the loaders then return -KD_ESYNTAX. Names are resolved across files
 * only when loading is finished (spec__resolve()), so files may refer to
 * each other in any order.
 */
#ifndef KD_SPEC_H
#define KD_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kd_buf;
struct kdb;
struct spec;

struct spec_loc {
	const char *file;	/* as given to the loader ("spec/fs.kabispec") */
	int line, col;		/* 1-based; col counts bytes */
};

/* --- expressions (machine-readable conditions, values, ranges) --------- */
enum spec_expr_op {
	SPEC_EX_NUM,		/* num */
	SPEC_EX_NAME,		/* name: "size", "how.flags", "PAGE_SIZE", "open_how_flags" */
	SPEC_EX_NOT,		/* ~a */
	SPEC_EX_LNOT,		/* !a */
	SPEC_EX_NEG,		/* -a */
	SPEC_EX_MUL, SPEC_EX_DIV, SPEC_EX_MOD,
	SPEC_EX_ADD, SPEC_EX_SUB,
	SPEC_EX_SHL, SPEC_EX_SHR,
	SPEC_EX_AND, SPEC_EX_XOR, SPEC_EX_OR,
	SPEC_EX_EQ, SPEC_EX_NE, SPEC_EX_LT, SPEC_EX_LE, SPEC_EX_GT, SPEC_EX_GE,
	SPEC_EX_LAND, SPEC_EX_LOR,
	SPEC_EX__COUNT
};

/* What a SPEC_EX_NAME stands for, decided by spec__resolve(). */
enum spec_name_ref {
	SPEC_REF_UNRESOLVED = 0,
	SPEC_REF_PARAM,		/* a parameter of the call (or field of the struct), maybe a path */
	SPEC_REF_SET,		/* a flag set: the mask of all its bits; an enum: not allowed */
	SPEC_REF_CONST,		/* anything else: a UAPI constant, looked up in the DB */
};

struct spec_expr {
	enum spec_expr_op op;
	struct spec_loc loc;
	uint64_t num;			/* SPEC_EX_NUM */
	const char *name;		/* SPEC_EX_NAME (dotted path kept as written) */
	enum spec_name_ref ref;		/* SPEC_EX_NAME */
	const struct spec_expr *a, *b;	/* operands (b: binary operators only) */
	unsigned depth;			/* 1 for a leaf; at most SPEC_MAX_EXPR_TREE */
};

/* "~", "&", "<=", ...; "" for NUM and NAME. */
const char *spec_expr_op_name(enum spec_expr_op op);
/*
 * Append @e to @b in canonical form: binary operators spaced, a binary
 * operand of a binary operator parenthesized, numbers in decimal below
 * 4096 and in hex above ("flags & ~open_how_flags", "(a & 3) == 0").
 */
int spec_expr__format(const struct spec_expr *e, struct kd_buf *b);
/*
 * Evaluate @e with unsigned 64-bit arithmetic (comparisons give 0/1).
 * @lookup gives the value of each name (return 0, or -ENOENT when it has
 * none, which ends evaluation with -ENOENT); division by zero: -EDOM.
 */
typedef int (*spec_lookup_fn)(const char *name, uint64_t *value, void *ctx);
int spec_expr__eval(const struct spec_expr *e, spec_lookup_fn lookup, void *ctx, uint64_t *out);

/* --- flag sets and enums -------------------------------------------------- */
enum spec_set_kind { SPEC_SET_FLAGS, SPEC_SET_ENUM };
enum spec_unknown { SPEC_UNKNOWN_REJECT, SPEC_UNKNOWN_IGNORE };

struct spec_value {
	const char *name;		/* "O_CREAT" */
	const struct spec_expr *value;	/* explicit "= 0x40"; NULL: the UAPI constant of that name */
	const char *since;		/* "3.11" or NULL */
	int group;			/* index in spec_set.groups, -1 when in none */
	struct spec_loc loc;
};

/*
 * The explicit value of @v (v->value, not NULL) against one kernel, @lookup
 * giving its constants: 0 and *@out, or spec_expr__eval()'s error. A value
 * that divides by zero through a constant of that kernel (X = 1 / KD_ZERO)
 * is an error of the spec, never "unknown" (which would drop the value from
 * every rule without a word): one line naming @v's place, then -KD_ESYNTAX.
 * spec load and check both evaluate through this.
 */
int spec_value__eval(const struct spec_value *v, spec_lookup_fn lookup, void *ctx,
		     uint64_t *out);

/* Mutually exclusive values: at most one of them (under @mask, if given). */
struct spec_group {
	const char *mask;		/* "O_ACCMODE" or NULL */
	struct spec_loc loc;
};

struct spec_set {
	enum spec_set_kind kind;
	const char *name;		/* "open_flags" */
	const char *extends;		/* base set whose values come first, or NULL */
	enum spec_unknown unknown;	/* unknown bits/values: rejected (default) or ignored */
	const char *since;
	struct spec_loc loc;
	size_t nr_values;		/* own values only; see spec__set_values() */
	struct spec_value *values;
	size_t nr_groups;
	struct spec_group *groups;
};

/* --- parameters, struct fields ------------------------------------------ */
enum spec_kind {
	SPEC_K_INT,	/* integer, optional range lo..hi */
	SPEC_K_FD,	/* file descriptor; ref: fd kind or NULL (any); specials: AT_FDCWD... */
	SPEC_K_PATH,	/* NUL-terminated path name in user memory */
	SPEC_K_STRING,	/* NUL-terminated string in user memory (not a path) */
	SPEC_K_PTR,	/* user pointer; dir; ref: C type ("struct open_how", "void") */
	SPEC_K_ADDR,	/* user address the call does not dereference (mmap hint) */
	SPEC_K_LEN,	/* byte length of the ptr/path/string named by ref */
	SPEC_K_COUNT,	/* element count of the array ptr named by ref */
	SPEC_K_FLAGS,	/* bits from the flag set ref */
	SPEC_K_ENUM,	/* one value of the enum ref */
	SPEC_K_PID,
	SPEC_K_UID,
	SPEC_K_GID,
	SPEC_K_UNUSED,	/* must be zero / ignored, kept for the signature */
	SPEC_K_ID,	/* an id of a kernel object that is not an fd; ref: its id kind (timer) */
	SPEC_K__COUNT
};

/* What an fd must be open for ("fd pipe writable"). */
enum spec_access { SPEC_ACCESS_ANY, SPEC_ACCESS_READ, SPEC_ACCESS_WRITE };

enum spec_dir { SPEC_DIR_NONE, SPEC_DIR_IN, SPEC_DIR_OUT, SPEC_DIR_INOUT };

/* "int", "fd", ...; "none", "in", "out", "inout". */
const char *spec_kind_name(enum spec_kind k);
const char *spec_dir_name(enum spec_dir d);

struct spec_arg {
	enum spec_kind kind;
	const char *ref;		/* see enum spec_kind; NULL when none */
	struct spec_loc ref_loc;	/* where @ref is written */
	enum spec_dir dir;		/* SPEC_K_PTR only */
	bool array;			/* SPEC_K_PTR: "T[]" */
	bool optional;			/* NULL / 0 accepted */
	bool nonzero;			/* int, len, count: 0 makes the call a no-op that
					 * returns before it looks at the other arguments */
	bool mapped;			/* addr: inside a mapping of the caller (mprotect) */
	enum spec_access access;	/* SPEC_K_FD: readable, writable */
	struct spec_loc mod_loc;	/* where the last of optional/nonzero/mapped is */
	const struct spec_expr *lo, *hi;	/* SPEC_K_INT range, NULL when open */
	size_t nr_specials;		/* SPEC_K_FD "or NAME": a special value (AT_FDCWD), or
					 * another fd kind the descriptor may be (spec__is_fdkind) */
	const char **specials;
};

struct spec_param {
	const char *name;
	struct spec_arg arg;
	struct spec_loc loc;
};

/* --- syscalls and ioctls ---------------------------------------------- */
enum spec_call_kind { SPEC_SYSCALL, SPEC_IOCTL };
enum spec_ret {
	SPEC_RET_ZERO,		/* "0": 0 on success */
	SPEC_RET_FD,		/* a new fd; ret_ref: its fd kind or NULL */
	SPEC_RET_COUNT,		/* a byte or item count */
	SPEC_RET_ADDR,		/* a user address (mmap, brk) */
	SPEC_RET_INT,		/* some other non-negative integer */
	SPEC_RET_PID,
	SPEC_RET_NORETURN,	/* exit, exit_group */
	SPEC_RET__COUNT
};
const char *spec_ret_name(enum spec_ret r);	/* "0", "fd", "count", ... */

struct spec_errno {
	const char *name;		/* "EINVAL" */
	const char *text;		/* the condition in words */
	const struct spec_expr *when;	/* machine-readable condition, or NULL */
	const char *since;
	struct spec_loc loc;
};

/*
 * The file systems a probe's files can be on (`deviation ... on FS`), as
 * bits of spec_deviation.fs; spec_fs_names[i] is bit 1 << i's name.
 */
enum {
	SPEC_FS_TMPFS = 1u << 0,	/* the initramfs root */
	SPEC_FS_EXT4 = 1u << 1,		/* an image made by mke2fs (probe --fs ext4) */
};
extern const char *const spec_fs_names[];	/* NULL-terminated */
/* The bit of the file system @name ("tmpfs"), 0 for one no deviation can name. */
unsigned spec_fs_bit(const char *name);

/*
 * A known deviation: for inputs that meet @when, a kernel of the releases
 * [@since, @until) answers @outcome instead of what the errno conditions
 * say, for the reason @text (a kernel fact, or one of the probe's machine),
 * with the probe's files on one of the file systems @fs (0: on any).
 */
struct spec_deviation {
	const char *outcome;		/* an errno name ("EINVAL"), or "ok" */
	const char *text;
	const struct spec_expr *when;	/* never NULL */
	const char *since, *until;	/* NULL: open */
	unsigned fs;			/* SPEC_FS_* bits; 0: any file system */
	struct spec_loc loc;
};

struct spec_call {
	enum spec_call_kind kind;
	const char *name;		/* "openat2", "FS_IOC_GETFLAGS" */
	const char *since;
	struct spec_loc loc;
	const char *unimplemented;	/* "unimplemented TEXT;": the kernel keeps the number but
					 * always fails it (why, in words); NULL otherwise */
	struct spec_loc unimplemented_loc;
	size_t nr_params;		/* ioctl: 1 (fd) or 2 (fd, arg) */
	struct spec_param *params;
	enum spec_ret ret;
	const char *ret_ref;		/* SPEC_RET_FD: fd kind, or NULL */
	struct spec_loc ret_ref_loc;
	size_t nr_errnos;
	struct spec_errno *errnos;
	size_t nr_notes;
	const char **notes;
	size_t nr_deviations;
	struct spec_deviation *deviations;
	/* ioctls: derived from the parameters */
	const char *fd_kind;		/* params[0]'s fd kind, NULL: any fd */
	enum spec_dir dir;		/* the promised _IOC_DIR, seen from user space:
					 * in = _IOC_WRITE, out = _IOC_READ, inout = both */
	const char *arg_type;		/* pointee of a ptr argument, NULL when none */
};

/* --- struct annotations -------------------------------------------------- */
struct spec_size {
	const char *name;		/* "OPEN_HOW_SIZE_VER0" or NULL */
	uint64_t size;			/* bytes */
	const char *since;
	struct spec_loc loc;
};

struct spec_field {
	const char *name;		/* member name; a dotted path for nested members */
	int64_t from_elem;		/* name[N]: the elements from N on; -1: the whole member */
	bool reserved;			/* must be zero; may be reused by a later version */
	bool out;			/* written by the kernel, the user's value ignored */
	bool unused;			/* never read nor written by the kernel: the caller's own */
	bool has_arg;			/* kind given */
	struct spec_arg arg;
	/* "when A, B": read only when one of these UAPI constants is in play */
	const char **gates;
	size_t nr_gates;
	const char *since, *until;	/* NULL: open */
	struct spec_loc loc;
};

struct spec_struct {
	const char *name;		/* without the tag: "open_how" */
	bool is_union;
	bool extensible;		/* size-versioned (copy_struct_from_user) */
	bool prefix;			/* copied no further than a length the caller gives */
	bool message;			/* bytes of a message: sized by a length, read at any address */
	bool whole;			/* copied at the kernel's own size, whatever the caller's length */
	bool out;			/* output-only: the kernel writes it, every field is 'out' */
	bool padding_zero;		/* padding must be zero */
	int64_t min_size;		/* bytes; -1: none stated (see sizes) */
	const char *since;
	struct spec_loc loc;
	size_t nr_sizes;		/* known sizes, in the order written */
	struct spec_size *sizes;
	size_t nr_fields;
	struct spec_field *fields;
};

/* --- constants' roles and ioctl families ------------------------------- */
/*
 * What a UAPI constant is for, which decides what a change of its value
 * means ("constant NAME: ROLE;").
 */
enum spec_role {
	SPEC_ROLE_VALUE,	/* a flag or value user space passes: another value breaks */
	SPEC_ROLE_MASK,		/* the OR of a set's bits: may grow, must not lose bits */
	SPEC_ROLE_VERSION,	/* an interface version: may go up */
	SPEC_ROLE_MINIMUM,	/* the oldest version the kernel accepts: may go down */
	SPEC_ROLE_COUNT,	/* a count or an end sentinel: its value is no promise */
	SPEC_ROLE_RESERVED,	/* a mask of reserved bits: may shrink, must not grow */
	SPEC_ROLE_HARDWARE,	/* a fact of hardware no syscall passes: a new value corrects it */
	SPEC_ROLE__COUNT
};

struct spec_constant {
	const char *name;		/* the UAPI constant: "UFFD_API_FEATURES" */
	enum spec_role role;
	const char *since;
	struct spec_loc loc;
};

/*
 * A family of ioctls that one dispatcher handles ("family drm { ... }"):
 * the commands of one _IOC_TYPE, optionally only those of some headers.
 */
struct spec_family {
	const char *name;		/* "drm" */
	bool has_type;
	uint64_t type;			/* _IOC_TYPE of its commands ('d' = 0x64) */
	const char *header;		/* fnmatch pattern of the headers ("drm/" and a star), NULL: any */
	const char *size_tolerant;	/* "size tolerant TEXT;": the dispatcher matches a
					 * command without its size, copies what user space sent
					 * and zero-fills the rest (why, in words); NULL: not said */
	struct spec_loc loc, size_tolerant_loc;
};

/* --- the vDSO's entry points ------------------------------------------ */
/*
 * What the vDSO of one ABI promises ("vdso x64 { ... }"): the version
 * nodes its image defines and the entry points it exports at a node,
 * which C libraries and runtimes look up by name and node (dlvsym).
 */
struct spec_vdso_version {
	const char *node;		/* "LINUX_2.6" */
	const char *since;
	struct spec_loc loc;
};

struct spec_vdso_entry {
	const char *name;		/* "__vdso_clock_gettime" */
	const char *node;		/* its version node, one of the block's versions */
	const char *since;
	struct spec_loc loc;
};

struct spec_vdso {
	const char *abi;		/* an ABI of lib/arch.h: x64, ia32, x32, arm64, aarch32 */
	const char *since;		/* the first release with an image for it; NULL: open */
	struct spec_loc loc;
	size_t nr_versions;
	struct spec_vdso_version *versions;
	size_t nr_entries;
	struct spec_vdso_entry *entries;
};

struct spec_fdkind {
	const char *name;		/* "dir", "epoll" */
	const char *text;		/* description, may be NULL */
	struct spec_loc loc;
};

struct spec_file {
	const char *path;		/* as loaded ("spec/fs.kabispec") */
	const char *name;		/* relative to the loaded directory ("fs.kabispec") */
	uint64_t hash;			/* kd_hash_bytes(KD_HASH_SEED, content) */
	char hash_hex[17];		/* the same, 16 lower-case hex digits */
	size_t bytes;
};

/* --- loading ------------------------------------------------------------ */
/* An empty spec. *out: free with spec__free(). */
int spec__new(struct spec **out);
void spec__free(struct spec *s);

/*
 * Parse @len bytes of @text as file @name (used in messages and spec_loc),
 * adding its declarations to @s. An "include" is read relative to the
 * directory of @name. Returns 0, -KD_ESYNTAX when errors were reported,
 * or another negative code (-ENOMEM).
 */
int spec__parse_buffer(struct spec *s, const char *name, const char *text, size_t len);
/* Read @path and parse it (a file already loaded is skipped). */
int spec__parse_file(struct spec *s, const char *path);
/*
 * Load every "*.kabispec" of @dir (not recursive) in byte order of the
 * names, then spec__resolve(). Returns 0, -KD_ESYNTAX (all errors of all
 * files reported) or another negative code; -ENOENT when @dir holds no spec.
 */
int spec__load_dir(const char *dir, struct spec **out);
/*
 * Check references across the loaded files: kinds, flag sets, enums, fd
 * kinds, len/count targets, group members, duplicates, errno names; and
 * classify the names of expressions. Reports every problem; returns 0 or
 * -KD_ESYNTAX. spec__load_dir() calls it; call it after spec__parse_*().
 */
int spec__resolve(struct spec *s);
/* Errors reported so far (parse and resolve). */
size_t spec__nr_errors(const struct spec *s);

/* --- reading ------------------------------------------------------------- */
size_t spec__nr_files(const struct spec *s);
const struct spec_file *spec__file(const struct spec *s, size_t i);
/* The content of file @i as parsed (NUL-terminated; lives as long as @s). */
const char *spec__file_text(const struct spec *s, size_t i);
/* Hash of all files (their names and hashes, in load order), 16 hex digits. */
const char *spec__hash_hex(const struct spec *s);

size_t spec__nr_calls(const struct spec *s);
const struct spec_call *spec__call(const struct spec *s, size_t i);
/* NULL when absent. */
const struct spec_call *spec__find_syscall(const struct spec *s, const char *name);
const struct spec_call *spec__find_ioctl(const struct spec *s, const char *name);
const struct spec_param *spec_call__param(const struct spec_call *c, const char *name);

size_t spec__nr_sets(const struct spec *s);
const struct spec_set *spec__set(const struct spec *s, size_t i);
const struct spec_set *spec__find_set(const struct spec *s, const char *name);
/*
 * The values of @set including those inherited through "extends", base
 * first. *values: malloc'ed array of pointers (caller frees the array).
 * Returns the count or -ENOMEM.
 */
long spec__set_values(const struct spec *s, const struct spec_set *set,
		      const struct spec_value ***values);

size_t spec__nr_structs(const struct spec *s);
const struct spec_struct *spec__struct(const struct spec *s, size_t i);
/* By name without the tag ("open_how"); NULL when absent. */
const struct spec_struct *spec__find_struct(const struct spec *s, const char *name);
/* The line about member @name as a whole (not one about its elements from N on). */
const struct spec_field *spec_struct__field(const struct spec_struct *st, const char *name);
/*
 * The line that calls member @name (or its elements from N on) unused;
 * NULL when none does. With several, the one reaching furthest forward.
 */
const struct spec_field *spec_struct__unused(const struct spec_struct *st, const char *name);

/* The role the contract gives constant @name; NULL when it gives none. */
const struct spec_constant *spec__find_constant(const struct spec *s, const char *name);
/*
 * The family an ioctl of _IOC_TYPE @type defined in header @header (an
 * include name, "drm/drm.h"; NULL: unknown) belongs to, NULL when none.
 */
const struct spec_family *spec__find_family(const struct spec *s, int type, const char *header);

size_t spec__nr_vdsos(const struct spec *s);
const struct spec_vdso *spec__vdso(const struct spec *s, size_t i);
/* The block of @abi ("x64"); NULL when the contract promises nothing of its vDSO. */
const struct spec_vdso *spec__find_vdso(const struct spec *s, const char *abi);
/* The line promising entry point @name at version node @node; NULL when none does. */
const struct spec_vdso_entry *spec_vdso__entry(const struct spec_vdso *v, const char *name,
					       const char *node);

size_t spec__nr_fdkinds(const struct spec *s);
const struct spec_fdkind *spec__fdkind(const struct spec *s, size_t i);
bool spec__is_fdkind(const struct spec *s, const char *name);
/* Id kinds ("idkind timer ...;"): same record as fd kinds. */
size_t spec__nr_idkinds(const struct spec *s);
const struct spec_fdkind *spec__idkind(const struct spec *s, size_t i);

/*
 * Answers in the shape of diff/diff.h's struct diff_contract callbacks
 * (@ctx is the struct spec *): is struct @name extensible? must member
 * @member of @name (NULL: its padding) be zero?
 */
bool spec__is_extensible(void *ctx, const char *name);
bool spec__is_reserved(void *ctx, const char *name, const char *member);

/* --- the DB ------------------------------------------------------------ */
/*
 * Store @s in @db's spec tables (see db/SCHEMA.md): files with hashes and
 * texts, sets, values (explicit values, or those of the UAPI constants of
 * @db when present), calls, params, errnos, structs, sizes and fields;
 * meta "spec_hash" and "spec_files". Replaces a spec already stored.
 */
int spec__store(const struct spec *s, struct kdb *db);
/*
 * Rebuild the spec stored in @db by parsing the stored texts again.
 * -ENOENT when @db holds no spec. *out: spec__free().
 */
int spec__load_db(struct kdb *db, struct spec **out);

#endif

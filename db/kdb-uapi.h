/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kdb: the UAPI headers' integer constants and ioctl command numbers
 * (extract --uapi writes them; show, check, probe and diff read them).
 */
#ifndef KD_KDB_UAPI_H
#define KD_KDB_UAPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/kdb.h"

/* --- the header view (types the compiled UAPI headers declare) --- */
/* Type @type_id is declared by header @file (include-relative) at @line (0: unknown). */
int kdb__put_uapi_type(struct kdb *db, int64_t type_id, const char *file, int line);
/*
 * Which views @type_id is in: *kernel true when the kernel's DWARF (vmlinux
 * or a module: type_origins) has this layout, *header "file:line" of the
 * first header (in name order) that declares it, malloc'ed, NULL when none.
 */
int kdb__type_views(struct kdb *db, int64_t type_id, bool *kernel, char **header);
/* Where one layout was read: kdb__type_sources(). */
struct kdb_type_sources {
	char *header;		/* "file:line" as kdb__type_views() gives it, or NULL */
	bool vmlinux;		/* vmlinux's DWARF has it */
	char *module;		/* else the first module (by name) whose DWARF has it, or NULL */
};
/* kdb__type_views() telling vmlinux from a module; free with kdb_type_sources__release(). */
int kdb__type_sources(struct kdb *db, int64_t type_id, struct kdb_type_sources *out);
void kdb_type_sources__release(struct kdb_type_sources *s);

/*
 * Header @header (include-relative) does not compile on its own, so its
 * types have no header view: a problems row (stage "uapi", input and
 * location @header) whose message is KDB_UAPI_NOT_COMPILED followed by
 * @first_error, the compiler's first error. The diff reads them back
 * (kdb__foreach_uapi_failure()): a header that stops compiling is a
 * change, and its types are not compared.
 */
/*
 * The user ABI a source tree keeps outside include/uapi (extract/uapi/
 * outside.c): meta "uapi_outside" lists the headers read, "FILE: USER"
 * joined by "; " ("fs/xfs/libxfs/xfs_fs.h: xfsprogs"). *user (malloc'ed)
 * is the program that uses @file, or NULL when @file is no such header.
 */
#define KDB_META_UAPI_OUTSIDE "uapi_outside"
int kdb__outside_user(struct kdb *db, const char *file, char **user);

#define KDB_UAPI_NOT_COMPILED "does not compile on its own, so its types have no header view: "
int kdb__put_uapi_failure(struct kdb *db, const char *header, const char *first_error);
/* Each failure of @db, once per header, in header order; strings live until @cb returns. */
struct kdb_uapi_failure {
	const char *header;	/* include-relative */
	const char *first_error;
};
typedef int (*kdb_uapi_failure_fn)(const struct kdb_uapi_failure *f, void *ctx);
int kdb__foreach_uapi_failure(struct kdb *db, kdb_uapi_failure_fn cb, void *ctx);

/*
 * An integer constant of the UAPI headers: a #define, or an enumerator of
 * an enum the header view declares (named or anonymous), one namespace.
 * @value holds the 64 bits of the C value in two's complement; @ctype
 * names its C type ("int", "unsigned int", "long", "unsigned long", "long
 * long", "unsigned long long"), so (uint64_t)value is the value when
 * ctype is unsigned 64-bit.
 */
struct kd_constant {
	const char *name;
	int64_t value;
	const char *ctype;
	const char *expr;	/* the macro body as written (comments stripped); NULL: enumerator */
	const char *file;	/* include-relative: "linux/fcntl.h" */
	int line;		/* an enumerator's: its enum's */
	int64_t enum_type;	/* types.id of an enum with an enumerator of that name; 0: none */
	const char *source;	/* "macro" (a #define), "enumerator"; NULL: macro */
};

/* An ioctl command number #define (_IO/_IOR/_IOW/_IOWR/_IOC). */
struct kd_ioctl {
	const char *name;
	const char *dir;	/* none | r | w | rw */
	int type_char;		/* 0..255 */
	int nr;			/* 0..255 */
	const char *arg_type_text; /* "struct drm_mode_create_dumb"; NULL for _IO */
	int64_t arg_type;	/* types.id, 0: unknown */
	bool has_size;		/* false: the argument type's size is unknown */
	int64_t size;		/* bytes, when has_size */
	bool size_trusted;	/* size from DWARF or a plain C type */
	bool has_cmd;		/* false when !has_size */
	uint32_t cmd;
	int64_t module_id;	/* modules.id of the DWARF that knows the type; 0: vmlinux/none */
	const char *file;
	int line;
	/* What defines it: "macro" (a #define), "enumerator" (an enum constant),
	 * "number" (a plain number, argument type from the contract); NULL: macro. */
	const char *source;
};

/*
 * A function-like ioctl macro (EVIOCGNAME(len)): each field a value or the
 * formula of its parameters as the expansion gives it, tokens one space
 * apart ("0x40 + ( abs )", "len", "sizeof(char [ SPI_MSG_SIZE ( N ) ])").
 */
struct kd_ioctl_family {
	const char *name;
	const char *params;	/* "len", "a,b" */
	const char *dir;	/* none | r | w | rw, or a formula */
	const char *type, *nr, *size;
	const char *file;
	int line;
};
int kdb__put_ioctl_families(struct kdb *db, const struct kd_ioctl_family *f, size_t n);
/* Calls @cb for the family @name (NULL: every one, by name); strings valid during the call. */
typedef int (*kdb_ioctl_family_fn)(const struct kd_ioctl_family *f, void *ctx);
int kdb__foreach_ioctl_family(struct kdb *db, const char *name, kdb_ioctl_family_fn cb, void *ctx);

/* Insert @n rows (one prepared statement for the batch). A name already present is replaced. */
int kdb__put_constants(struct kdb *db, const struct kd_constant *c, size_t n);
int kdb__put_ioctls(struct kdb *db, const struct kd_ioctl *io, size_t n);
static inline int kdb__put_constant(struct kdb *db, const struct kd_constant *c)
{
	return kdb__put_constants(db, c, 1);
}
static inline int kdb__put_ioctl(struct kdb *db, const struct kd_ioctl *io)
{
	return kdb__put_ioctls(db, io, 1);
}
/*
 * Ioctls whose command is a plain number (TCGETS 0x5401, LOOP_CONFIGURE
 * 0x4C0A): for every ioctl of the stored contract that the headers define
 * as an integer constant and not as an _IO* call, an ioctls row with
 * source "number": cmd the constant, type_char and nr its bytes, dir the
 * contract's, the argument type the contract's, found by name (the header
 * view's layout first) with its size. Rows of an earlier contract are
 * replaced. Returns the number of rows or a negative code.
 */
int kdb__add_number_ioctls(struct kdb *db);

/*
 * Set constants.enum_type where an enumerator of the same name exists (one
 * UPDATE; run after the types are written). Returns the number linked.
 */
int kdb__link_constants_to_enums(struct kdb *db);
/*
 * Every enumerator of an enum the header view declares (uapi_types), named
 * or anonymous, as a constant of source "enumerator", after the #defines
 * and ioctls are written: a name one of those already has stays theirs
 * (#define FOO FOO is one constant). A name that enums of several headers
 * give different values keeps the first header's (path order), as
 * #defines do; that disagreement, and an enumerator whose #define of the
 * same name has another value, are problems rows. Returns the number of
 * constants added or a negative code.
 */
int kdb__add_enumerator_constants(struct kdb *db);

/*
 * The C type of an enumerator of @value in an enum of @enum_size bytes:
 * "int" when the value fits (C's enumeration constants are ints);
 * otherwise, as gcc types those that do not fit (cn_proc.h's
 * PROC_EVENT_EXIT 0x80000000: unsigned int), its enum's type.
 */
const char *kdb__enumerator_ctype(int64_t value, int64_t enum_size, bool is_signed);

/* Callbacks see rows whose strings live until the callback returns; a
 * non-zero return stops the walk and is returned. */
typedef int (*kdb_constant_fn)(const struct kd_constant *c, void *ctx);
typedef int (*kdb_ioctl_fn)(const struct kd_ioctl *io, void *ctx);
/* Calls @cb once for the constant @name; -ENOENT when absent. */
int kdb__get_constant(struct kdb *db, const char *name, kdb_constant_fn cb, void *ctx);
/* Calls @cb once for the ioctl @name; -ENOENT when absent. */
int kdb__get_ioctl(struct kdb *db, const char *name, kdb_ioctl_fn cb, void *ctx);
/* All constants in name order. */
int kdb__foreach_constant(struct kdb *db, kdb_constant_fn cb, void *ctx);
/*
 * All ioctls in name order; with @module (a modules.name) only those whose
 * argument type was found in that module.
 */
int kdb__foreach_ioctl(struct kdb *db, const char *module, kdb_ioctl_fn cb, void *ctx);

#endif

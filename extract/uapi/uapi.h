/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The UAPI header reader: integer #defines and ioctl command numbers of a
 * kernel's user-space headers, computed as gcc would for user space of the
 * kernel's architecture (x86_64 or arm64: a small preprocessor with that
 * target's predefined macros and a C constant-expression evaluator with
 * its char signedness and type sizes; nothing is guessed: what is not an
 * integer constant is skipped and counted).
 *
 * The tree is either what `make headers_install` writes (DIR/linux,
 * DIR/asm) or a source / Debian linux-headers-*-common tree (DIR/uapi and
 * DIR/arch/ARCH/include/uapi, or the parent of such an include/); in the
 * latter the asm/ headers Kbuild would generate resolve to asm-generic/.
 */
#ifndef KD_UAPI_H
#define KD_UAPI_H

#include <stddef.h>
#include <stdint.h>

#include "db/kdb.h"
#include "db/kdb-uapi.h"
#include "lib/arch.h"

struct uapi_type_info {
	int64_t size;		/* bytes */
	int64_t type_id;	/* types.id in the DB being written, 0 if none */
	int64_t module_id;	/* modules.id where the type was found, 0: vmlinux */
};

/*
 * Size of the type @type_text ("struct drm_mode_create_dumb", "union x",
 * "enum y", a typedef name; never a pointer, array or plain C type, which
 * the reader sizes itself). Returns 1 and fills @info when known, 0 when
 * unknown, a negative code on a hard error (which ends the scan).
 */
typedef int (*uapi_sizeof_fn)(const char *type_text, struct uapi_type_info *info, void *ctx);
/*
 * The value of the enumerator @name (@len bytes) and its C type
 * (kdb__enumerator_ctype(): "int" unless the value does not fit one):
 * 1 with *value and *ctype, 0 when unknown.
 */
typedef int (*uapi_enumerator_fn)(const char *name, size_t len, int64_t *value,
				  const char **ctype, void *ctx);

/*
 * The offset in bytes of @designator ("length", "dirent.name", "v[2].x":
 * members joined by '.', indices evaluated) in the struct or union
 * @type_text, as offsetof() gives it: 1 with *offset, 0 when unknown (no
 * such member, a bitfield, a type of unknown layout), a negative code on
 * a hard error. Only a view compiled as user space compiles answers.
 */
typedef int (*uapi_offsetof_fn)(const char *type_text, const char *designator, int64_t *offset,
				void *ctx);
/* The alignment in bytes of the struct, union, enum or typedef @type_text: as uapi_offsetof_fn. */
typedef int (*uapi_alignof_fn)(const char *type_text, int64_t *align, void *ctx);

/* What the reader asks of its caller; any callback may be NULL (unknown). */
struct uapi_lookup {
	uapi_sizeof_fn size;
	uapi_enumerator_fn enumerator;
	uapi_offsetof_fn offset;
	uapi_alignof_fn align;
	void *ctx;
};

struct uapi_stats {
	int64_t headers;	/* header files read */
	int64_t constants;
	int64_t ioctls;
	int64_t ioctls_unsized;	/* ioctls whose argument type had no size */
	int64_t skipped;	/* non-empty object-like macros that are not integer constants */
	int64_t problems;
};

struct uapi_problem {
	const char *file;	/* include-relative header, or NULL */
	const char *location;	/* "file:line" or NULL */
	const char *message;
};

/* What a scan found. Arrays sorted by name; all strings owned by the result. */
struct uapi_result {
	struct kd_constant *consts;
	const char **const_roots;	/* the header whose inclusion gave consts[i] */
	size_t nr_consts;
	struct kd_ioctl *ioctls;
	const char **ioctl_roots;
	size_t nr_ioctls;
	struct kd_ioctl_family *families;	/* function-like ioctl macros */
	size_t nr_families;
	struct uapi_problem *problems;
	size_t nr_problems;
	struct uapi_stats stats;
	struct uapi_scan *priv;		/* storage */
};

/*
 * Read the tree at @dir as user space of @arch sees it (NULL: x86_64). @lk
 * may be NULL (every struct size and enumerator is then unknown). *out:
 * free with uapi_result__free(). Returns 0, or a negative code when @dir is
 * not a UAPI tree (of @arch, in the source layout) or on ENOMEM (reported
 * with kd_err); header trouble becomes problems, not failures.
 */
int uapi__scan(const char *dir, const struct kd_arch *arch, const struct uapi_lookup *lk,
	       struct uapi_result **out);
void uapi_result__free(struct uapi_result *r);
/*
 * The source-tree path of the @i-th header of the user ABI kept outside
 * include/uapi (outside.c), NULL past the end: what a cache key of a
 * source tree must cover beside include/uapi.
 */
const char *uapi__outside_path(size_t i);

/*
 * One field of an ioctl family (db/SCHEMA.md, ioctl_families) for the
 * arguments @argv of its parameters @params ("len", "a,b"): *@value, 0;
 * -EINVAL when it is no constant for them (a sizeof, an identifier that
 * is no parameter, fewer arguments than it uses). Nothing is reported.
 */
#define UAPI_FAMILY_MAX_PARAMS 8
int uapi__family_eval(const char *formula, const char *params, const int64_t *argv, int argc,
		      uint64_t *value);

/*
 * uapi__scan() and write constants, ioctls and problems (stage "uapi")
 * into @db. @stats may be NULL. Run kdb__link_constants_to_enums() once
 * the types are written too.
 */
int uapi__extract(struct kdb *db, const char *dir, const struct kd_arch *arch,
		  const struct uapi_lookup *lk, struct uapi_stats *stats);

#endif

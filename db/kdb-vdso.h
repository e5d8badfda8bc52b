/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kdb: the vDSO, the third surface of the user ABI next to the syscalls
 * and the ioctls: the images a vmlinux embeds (one per ABI: x64, ia32,
 * x32; arm64, aarch32), their version definitions and the dynamic symbols
 * they export, which C libraries and runtimes look up by name and version
 * node. Rows written by extract/vdso.c, read by show and diff.
 */
#ifndef KD_KDB_VDSO_H
#define KD_KDB_VDSO_H

#include <stdbool.h>
#include <stdint.h>

#include "db/kdb.h"

/*
 * Meta "vdso" says what the extraction read of the vDSO: KDB_VDSO_NAMES,
 * the images of a vmlinux (names, versions, symbol types; no signatures).
 * Absent: the vDSO was not read (a header tree), and the diff compares none.
 */
#define KDB_VDSO_NAMES "names"
/*
 * Meta "vdso_dwarf": the images whose DWARF gave their entry points'
 * signatures (the debug package's vdso64.so), "x64 (PATH)" space-separated.
 */

struct kd_vdso_image {
	const char *abi;	/* x64, ia32, x32, arm64, aarch32 */
	const char *symbol;	/* the vmlinux symbol it was found at: vdso_image_64 */
	int64_t size;		/* bytes of the ELF image */
	int elf_class;		/* 32 | 64 */
	int machine;		/* e_machine */
	const char *soname;	/* NULL when none */
	const char *build_id;	/* hex; NULL when none */
};

struct kd_vdso_version {
	const char *abi;
	int64_t idx;		/* vd_ndx */
	const char *name;
	int flags;		/* VER_FLG_* */
	const char *parents;	/* space-separated; NULL when none */
};

struct kd_vdso_symbol {
	const char *abi;
	const char *name;
	const char *version;	/* NULL: unversioned */
	bool hidden;		/* name@VERSION, not the default version */
	const char *bind;	/* global, weak, unique */
	const char *type;	/* func, object, notype, ... */
	uint64_t value;		/* address in the image: aliases share it */
	uint64_t size;
	int64_t func_id;	/* reading: its signature's functions.id; 0: none */
};

/* --- writing ------------------------------------------------------------ */
/*
 * Each returns 0 when the row was written, 1 when an equal key was there
 * already (a second image of one ABI, a repeated version index or symbol:
 * the first is kept and the caller records a problem), or a negative code.
 */
int kdb__put_vdso_image(struct kdb *db, const struct kd_vdso_image *im);
int kdb__put_vdso_version(struct kdb *db, const struct kd_vdso_version *v);
int kdb__put_vdso_symbol(struct kdb *db, const struct kd_vdso_symbol *s);
/*
 * Function @func_id (kdb__put_function()) is the signature of @abi's
 * function symbol @name and of every function symbol at its address (its
 * aliases: time and __vdso_time). Returns how many symbols it now signs.
 */
int kdb__link_vdso_function(struct kdb *db, const char *abi, const char *name, int64_t func_id);

/* --- reading ------------------------------------------------------------ */
/*
 * Walks of @abi's rows (NULL: every ABI), in ABI order, then: images by
 * ABI, versions by index, symbols by address with global bindings before
 * weak ones, then by name (so the names at one address, its aliases, are
 * together and the first is the strong one). The row is valid during the
 * call only; a non-zero return of @cb stops the walk and is returned.
 */
typedef int (*kdb_vdso_image_fn)(const struct kd_vdso_image *im, void *ctx);
typedef int (*kdb_vdso_version_fn)(const struct kd_vdso_version *v, void *ctx);
typedef int (*kdb_vdso_symbol_fn)(const struct kd_vdso_symbol *s, void *ctx);
int kdb__foreach_vdso_image(struct kdb *db, const char *abi, kdb_vdso_image_fn cb, void *ctx);
int kdb__foreach_vdso_version(struct kdb *db, const char *abi, kdb_vdso_version_fn cb, void *ctx);
int kdb__foreach_vdso_symbol(struct kdb *db, const char *abi, kdb_vdso_symbol_fn cb, void *ctx);

/*
 * Diff queries, on @db with the other kernel attached (kdb__attach_other()).
 * Images paired by ABI: either side NULL when that kernel has none.
 */
typedef int (*kdb_vdso_image_pair_fn)(const char *abi, const struct kd_vdso_image *old,
				      const struct kd_vdso_image *new, void *ctx);
int kdb__diff_vdso_images(struct kdb *db, kdb_vdso_image_pair_fn cb, void *ctx);
/*
 * Exported names paired by (ABI, name), for the ABIs both kernels have an
 * image of, in that order: the versions each side gives the name
 * (space-separated in version order, "" for an unversioned symbol; NULL:
 * the side lacks the name), the attributes of its default version
 * ("global func", NULL as the versions are) and its signature.
 */
struct kdb_vdso_pair {
	const char *abi, *name;
	const char *old_versions, *new_versions;
	const char *old_attrs, *new_attrs;
	int64_t old_func, new_func;	/* the default version's signature; 0: none */
};
typedef int (*kdb_vdso_pair_fn)(const struct kdb_vdso_pair *p, void *ctx);
int kdb__diff_vdso_symbols(struct kdb *db, kdb_vdso_pair_fn cb, void *ctx);

#endif

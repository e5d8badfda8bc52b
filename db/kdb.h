/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kdb: one kernel's ABI as a .kabi SQLite file. The only module that
 * speaks SQL; every other stage reads and writes through this API.
 *
 * Writing is atomic: kdb__create() builds the file under a temporary name
 * in the destination directory, kdb__commit() commits, checks integrity and
 * renames it into place. A kdb freed before commit leaves nothing behind
 * and an existing file at @path untouched.
 *
 * The rows of each stage have their own header, so that a change to one
 * stage's rows rebuilds only that stage: db/kdb-kernel.h (types,
 * signatures, syscall tables, modules: extract's), db/kdb-uapi.h (UAPI
 * constants and ioctls), db/kdb-spec.h (the stored contract),
 * db/kdb-probe.h (probe results), db/kdb-vdso.h (the vDSO images),
 * db/kdb-diff.h (queries over two attached DBs). This one holds the
 * handle, meta, problems and counts.
 */
#ifndef KD_KDB_H
#define KD_KDB_H

#include <stdbool.h>
#include <stdint.h>

#define KDB_SCHEMA_VERSION 10

struct kdb;

/* Start a new DB that will replace @path on commit. *out: free with kdb__free(). */
int kdb__create(const char *path, struct kdb **out);
/* COMMIT, verify, and rename into place. Only kdb__free() may follow. */
int kdb__commit(struct kdb *db);
/*
 * Open an existing .kabi read-only. Fails with KD_EFORMAT when @path is not
 * a kabi-diff DB and KD_ESCHEMA when its schema version differs.
 */
int kdb__open(const char *path, struct kdb **out);
/* Does @path look like a .kabi file (SQLite header)? Never fails loudly. */
bool kdb__is_db_file(const char *path);
/* Closes; an uncommitted DB's temporary file is removed. NULL is fine. */
void kdb__free(struct kdb *db);
const char *kdb__path(const struct kdb *db);

/*
 * Open the existing .kabi @path for an update: the file is copied beside
 * itself, opened read-write inside a transaction, and kdb__commit() renames
 * it into place (kdb__free() before commit leaves @path untouched). Adds the
 * spec tables to a DB written before they existed. *out: kdb__free().
 */
int kdb__open_update(const char *path, struct kdb **out);

/* --- meta, problems, counts ---------------------------------------------- */
/*
 * The words of meta "boot_support" (extract writes it from a vmlinux's
 * symbols, probe checks it before a boot): what a probe boot needs of the
 * kernel, each present when the kernel has the code for it.
 */
#define KDB_BOOT_CONSOLE	"serial-console"	/* the console QEMU captures */
#define KDB_BOOT_INITRAMFS	"initramfs"		/* the probe is the initramfs' /init */
#define KDB_BOOT_ELF		"elf"			/* the probe is a static ELF binary */
#define KDB_BOOT_POWEROFF	"power-off"		/* how the probe ends QEMU */
/* Not needed, but decide where the probe's files can be (probe --fs ext4): */
#define KDB_BOOT_EXT4		"ext4"			/* ext4 built in (CONFIG_EXT4_FS=y) */
#define KDB_BOOT_LOOP		"loop"			/* loop devices built in (CONFIG_BLK_DEV_LOOP=y) */

int kdb__set_meta(struct kdb *db, const char *key, const char *value);
/* *value is malloc'ed (caller frees), NULL when the key is absent. */
int kdb__get_meta(struct kdb *db, const char *key, char **value);
struct kd_arch;
/*
 * The kernel's architecture, by meta "arch" (lib/arch.h): x86_64 when @db
 * is NULL or records none (a .kabi of before arm64), whose native syscall
 * table (x64, arm64) check, spec init and the probe read.
 */
const struct kd_arch *kdb__arch(struct kdb *db);
int kdb__put_problem(struct kdb *db, const char *stage, const char *input,
		     const char *location, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

struct kd_problem {
	const char *stage, *input, *location, *message;
};
typedef int (*kdb_problem_fn)(const struct kd_problem *p, void *ctx);
int kdb__foreach_problem(struct kdb *db, kdb_problem_fn cb, void *ctx);
/* Row count of @table (one of the schema's tables), for summaries. */
int64_t kdb__count(struct kdb *db, const char *table);

/* Make @other's tables readable from @db's diff queries (ATTACH ... AS other). */
int kdb__attach_other(struct kdb *db, struct kdb *other);
int kdb__detach_other(struct kdb *db);

/*
 * The names a .kabi holds of @what, a `show` item (syscall, ioctl, const,
 * struct, union, enum, type: struct, union, enum or typedef) or "abi" (the
 * syscall ABIs), each once, sorted; only those @glob matches (SQLite's
 * GLOB: *, ?, [...]) unless it is NULL. Returns their number and *names
 * (kdb__names_free()), or a negative code (-EINVAL: no such @what).
 */
int kdb__names(struct kdb *db, const char *what, const char *glob, char ***names);
void kdb__names_free(char **names, int n);
/*
 * The name of @what nearest @name that is not @name: at most a third of
 * its letters (at least one) inserted, deleted or replaced, case aside;
 * the first in sorted order of the nearest. *best: malloc'ed (caller
 * frees), NULL when none is that near. Returns 0 or a negative code.
 */
int kdb__nearest_name(struct kdb *db, const char *what, const char *name, char **best);

#endif

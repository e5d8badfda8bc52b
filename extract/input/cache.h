/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The extraction cache as a whole (`kabi-diff cache list|prune`): where it
 * lives and what is in it. diff-inputs.c writes and reads its entries;
 * this module only enumerates and removes them. An entry is one of
 *   BUILD-ID[-um]-KEY.kabi, headers-u-KEY.kabi   an extracted kernel or header tree
 *   pkg-HASH.ref       packages already read: which .kabi they gave
 *   file-HASH.ref      a file already digested for a key (file-digest.h)
 *   uapi/KEY.{so,idx}  a header tree compiled (extract/uapi/compile-cache.c)
 *   uapi/units/        each header compiled alone (compile-cache-unit.c), one entry
 *   *.tmp.*, .kabi-unpack-*   what an extraction writes before it commits
 * The cache may be shared and may hold anything: an entry is only ever
 * removed by name inside the directory, links are not followed.
 */
#ifndef KD_CACHE_H
#define KD_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct kd_buf;

/*
 * The cache directory into @dir: $XDG_CACHE_HOME/kabi-diff, else
 * ~/.cache/kabi-diff, else ./.kabi-diff-cache. @create: make it (and its
 * parents). 0 or a negative code (reported when creating fails).
 */
int kcache__dir(struct kd_buf *dir, bool create);

enum kcache_kind {
	KCACHE_KERNEL,		/* a .kabi of a kernel image */
	KCACHE_HEADERS,		/* a .kabi of a header tree alone */
	KCACHE_PACKAGES,	/* a pkg-HASH.ref */
	KCACHE_DIGEST,		/* a file-HASH.ref: a vmlinux's digest (file-digest.h) */
	KCACHE_COMPILED,	/* uapi/KEY.so with its .idx */
	KCACHE_UNITS,		/* uapi/units/: each header compiled alone (compile-cache-unit.c) */
	KCACHE_PARTIAL,		/* an extraction's temporary file or directory */
	KCACHE_OTHER,		/* not kabi-diff's: listed, never pruned */
};

struct kcache_entry {
	char *name;		/* relative to the cache directory: "uapi/KEY.so" */
	enum kcache_kind kind;
	uint64_t bytes;		/* on disk (a directory: its files) */
	time_t used;		/* last written or used (mtime; a hit touches a .kabi) */
	char *release;		/* .kabi: meta.release; .ref: the .kabi it names; else NULL */
	char *what;		/* .kabi: "vmlinux, headers, modules"; else NULL */
	/* Why it can never be used again (static text), NULL: it can. */
	const char *stale;
};

/*
 * Every entry of @dir, sorted by name. *out (free with
 * kcache__entries_free()) and *nr. A missing directory has none.
 * @now: the time leftovers are judged against (a temporary file older
 * than a day is no running extraction's). 0 or a negative code (reported).
 */
int kcache__list(const char *dir, time_t now, struct kcache_entry **out, size_t *nr);
void kcache__entries_free(struct kcache_entry *e, size_t nr);

/* Remove entry @e of @dir (a compiled tree: both files). 0 or a negative code (reported). */
int kcache__remove(const char *dir, const struct kcache_entry *e);

/* "kernel", "headers", "packages", "file digest", "compiled headers", "compiled units",
 * "partial", "other". */
const char *kcache_kind_name(enum kcache_kind k);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to extract/: reading the ioctl argument types that kernel modules
 * define. Modules are read in parallel (one libdwarf handle per worker);
 * the DB is written from the calling thread only, in module path order, so
 * the output does not depend on thread timing.
 */
#ifndef KD_EXTRACT_MODULES_H
#define KD_EXTRACT_MODULES_H

#include "extract/named_internal.h"

/* Where each wanted type name was found, for the ioctl table. */
struct named_type {
	int64_t type_id;	/* DB id, 0 when not found anywhere */
	int64_t size;		/* bytes, -1 unknown */
	int64_t module_id;	/* 0: vmlinux */
};

struct modules_stats {
	int64_t scanned;	/* .ko files looked at */
	int64_t parsed;		/* of which DWARF was read */
	int64_t failed;		/* unreadable, not ELF, no DWARF: listed in problems */
	int64_t types;		/* rows added */
	int64_t spooled_peak;	/* streamed modules: most bytes of spool files on disk at once */
};

struct extract_modules_feed;

/*
 * Read every .ko under @dir, or every module @feed hands over (@dir NULL;
 * at most SPOOL_BUDGET_BYTES of them waiting on disk, plus one); store each definition of a name of @wanted
 * that a module has, with the types reached from it. @out (an array of
 * name_set_count(wanted) entries) records the first module, in path
 * order, that defines each name (entries already set are kept). @jobs workers (0: all
 * CPUs); @progress prints "[i/n] name.ko" on stderr.
 */
int modules__extract(struct kdb *db, struct type_sink *sink, const char *dir,
		     const struct extract_modules_feed *feed, const struct name_set *wanted, struct named_type *out, int jobs,
		     bool progress, struct modules_stats *stats);

#endif

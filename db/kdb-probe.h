/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kdb: what `kabi-diff probe` observed on a booted kernel (tables
 * probe_cases and probe_results), and the cases two probed kernels
 * answered differently.
 */
#ifndef KD_KDB_PROBE_H
#define KD_KDB_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/kdb.h"

/*
 * One probe case with its observed result (tables probe_cases and
 * probe_results, db/SCHEMA.md). Strings are the caller's (put) or live
 * until the callback returns (walk).
 */
struct kdb_probe_row {
	const char *id, *call;
	int64_t nr;
	const char *kind;		/* errno | flag | unknown-flag */
	const char *args;		/* readable */
	const char *expect;		/* any | ok | errno | accept */
	const char *expect_errno;	/* NULL when none */
	const char *what, *origin;
	const char *deviation;		/* a known deviation's outcome (EINVAL, ok); NULL: none */
	const char *deviation_why;	/* its reason */
	const char *deviation_fs;	/* the probe's fs, when the deviation holds there only */
	const char *status;		/* ret | timeout | signal | missing */
	int64_t ret;
	int err;			/* errno (ret == -1) or signal number */
	const char *errno_name;		/* NULL when none */
	bool matches;
	const char *release;
};
/* Create the probe tables if the DB predates them, and empty them. */
int kdb__clear_probe(struct kdb *db);
int kdb__put_probe(struct kdb *db, const struct kdb_probe_row *r);
typedef int (*kdb_probe_fn)(const struct kdb_probe_row *r, void *ctx);
/* Every case in id order; 0 rows when the DB holds no probe (or predates the tables). */
int kdb__foreach_probe(struct kdb *db, kdb_probe_fn cb, void *ctx);

/* A call probed on both kernels with the same arguments and another outcome. */
struct kdb_probe_pair {
	const char *id, *call, *kind, *args, *expect, *expect_errno, *what; /* the old side's */
	const char *old_status, *old_errno;	/* status ret|timeout|...; errno NULL: succeeded */
	const char *new_status, *new_errno;
	const char *new_id;			/* the new side's id for the same arguments */
	const char *old_deviation, *new_deviation; /* each side's known deviation, NULL: none */
	const char *old_deviation_why, *new_deviation_why;
	const char *old_deviation_fs, *new_deviation_fs; /* set: the deviation is that fs's */
	const char *old_fs, *new_fs;		/* meta probe_fs of each side, NULL: unknown */
	const char *new_kind;			/* the new side's case kind */
	const char *new_expect, *new_expect_errno; /* the new side's expectation */
	bool old_matches, new_matches;		/* each side's expectation held */
};
typedef int (*kdb_probe_pair_fn)(const struct kdb_probe_pair *p, void *ctx);
/*
 * With the new kernel's DB attached as "other" (kdb__attach_other()), each
 * case whose status or errno differs: flag cases first, then errno cases,
 * each in id order (an errno case may pass what a flag case passes). 0
 * rows when either side holds no probe.
 */
int kdb__diff_probe(struct kdb *db, kdb_probe_pair_fn cb, void *ctx);

#endif

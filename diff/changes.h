/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to diff/: the result (struct diff_result) and its change list.
 * Every comparison of diff/ appends its changes here and names what
 * decided their verdicts; the driver sorts them at the end, the
 * accessors of diff.h read them. This header knows nothing of how the
 * kernels are compared, so a comparer can include it without including
 * the others.
 */
#ifndef KD_DIFF_CHANGES_H
#define KD_DIFF_CHANGES_H

#include <stdbool.h>
#include <stddef.h>

#include "diff/diff.h"

struct diff_side_meta {
	char *path;	/* the input as given (struct diff_conf.input), else the .kabi's */
	char *kabi;	/* the .kabi compared (a cache file for a vmlinux or directory) */
	char *release, *build_id, *arch;
	char *constants;	/* meta uapi_constants: "N evaluated, M not (K problems)", or NULL */
};

/* A diff_module_removed with its arrays' capacities (diff-modules.c). */
struct diff_removed_module {
	struct diff_module_removed pub;
	size_t cap_headers, cap_served, cap_shared;
};

struct diff_result {
	struct diff_change *changes;
	size_t nr_changes, cap_changes;
	struct diff_side_meta meta[2];	/* [0] old, [1] new */
	bool headers_only;		/* both sides are header trees (meta input=headers) */
	bool has_contract;
	char *contract_source;
	struct diff_coverage coverage[2];
	/* Why each category was not compared (static text), NULL: compared. */
	const char *not_compared[DIFF__NR_CATEGORIES];
	const char *probe_not_compared;
	/* Suppression entries that matched no change: "FILE:LINE: RULE NAME". */
	char **unmatched;
	size_t nr_unmatched;
	/* Headers whose old types were not compared (diff-header-lost.c); strings owned. */
	struct diff_uncompared *uncompared;
	size_t nr_uncompared, cap_uncompared;
	struct diff_for *usage;		/* --for: what was kept and left out; NULL: none */
	/* diff-modules.c */
	struct diff_removed_module *removed_modules;
	size_t nr_removed_modules, cap_removed_modules;
};

/* A change to append (diff_add()). */
struct diff_new {
	enum diff_rule_id rule;		/* what judges it: the verdict is the rule's */
	enum diff_kind kind;		/* one of the rule's kinds; DIFF_K_NONE: its first */
	enum diff_category in;		/* where a type.array.* change's type sits */
	const char *name;		/* what owns it: "struct open_how", "openat2" */
	const char *subject;		/* what changed: "struct open_how.newfield" */
	const char *old_value, *new_value;	/* NULL: absent in that kernel */
	const char *note;		/* NULL: none */
};

/*
 * Append change @n (strings are copied); its category is its kind's. A kind
 * its rule does not judge is an internal error (-EINVAL, reported). *idx
 * (may be NULL) receives its index.
 */
int diff_add(struct diff_result *r, const struct diff_new *n, size_t *idx);
/* What decided change @idx's verdict (replaces the layout default). */
int diff_evidence(struct diff_result *r, size_t idx, enum diff_evidence kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The finding change @idx belongs to (replaces the default, see changes.c). */
int diff_cause(struct diff_result *r, size_t idx, const char *cause);
/* Add an impact unless @root is already listed for change @idx. */
int diff_add_impact(struct diff_result *r, size_t idx, const char *root, const char *path);
/*
 * The evidence a change of category @cat gets until a rule names better
 * (two kernels' builds; a pair of header trees has its own).
 */
const char *diff_default_evidence(enum diff_category cat);
/* Put the changes, and each change's impacts, in the order they are reported. */
void diff_result_sort(struct diff_result *r);
/* Free what change @c owns (not @c itself). */
void diff_change_release(struct diff_change *c);
/* Free a restriction (diff-for.c); NULL is fine. */
void diff_for_free(struct diff_for *df);

#endif

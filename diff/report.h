/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to diff/: the one walk over a diff result that every report
 * format shares. report__fprintf() decides what is listed and in what order
 * (summary, then one section per verdict, breaking first, each grouped
 * into findings: the changes of one cause); a format only says how each
 * piece looks, through struct report_ops.
 */
#ifndef KD_DIFF_REPORT_H
#define KD_DIFF_REPORT_H

#include "lib/json.h"
#include <stdio.h>

#include "diff/diff.h"

enum report_section {
	REPORT_BREAKING = 0,
	REPORT_SOURCE,
	REPORT_COMPATIBLE,
	REPORT_INFO,
	REPORT_SUPPRESSED,
	REPORT__NR_SECTIONS
};

struct report_ctx {
	struct kd_json json;	/* the JSON and SARIF writers' */
	const struct diff_result *r;
	const struct report_conf *conf;
	FILE *f;
	enum report_section section;
	size_t index;		/* of the change within the whole report (JSON commas) */
	size_t group_count;	/* changes in the current group */
	const char *group_kinds; /* the group's changes by kind: "2 ioctl.removed, 5 constant.removed" */
	size_t nr_groups;	/* findings in the current section */
	size_t hidden;		/* changes --only breaking or --stat leaves out */
	const struct diff_change *prev;	/* text: the group's change before, NULL at its start */
	struct md_cap *cap;	/* Markdown with report_conf.max_bytes: its state */
};

/* Every callback may be NULL. Return 0 or a negative code to stop the walk. */
struct report_ops {
	int (*begin)(struct report_ctx *x);	/* header and summary */
	int (*section_begin)(struct report_ctx *x, size_t count);
	int (*group_begin)(struct report_ctx *x, const char *title, size_t count);
	int (*change)(struct report_ctx *x, const struct diff_change *c);
	int (*group_end)(struct report_ctx *x);
	int (*section_end)(struct report_ctx *x);
	int (*end)(struct report_ctx *x);
};

extern const struct report_ops report_text_ops, report_json_ops, report_md_ops, report_sarif_ops;
/* A walk stopped by an error: the capped Markdown's buffers freed, nothing written. */
void report_md_cap_discard(struct report_ctx *x);

/* JSON members the JSON and SARIF reports share: "old", "new" (path,
 * release, build_id), "contract" and, with one, "contract_source". */
void report_json_sides(struct kd_json *w, const struct diff_result *r);
/* "for": what --for kept and left out (null without --for). */
void report_json_for(struct kd_json *w, const struct diff_result *r);
/*
 * --for in words, for the text and Markdown reports: @lines[0] what the
 * program uses and what of it changed, [1] what was left out, [2] the
 * syscall names neither kernel has, [3] what the reader cannot see; a
 * line is empty when it has nothing to say (all are without --for).
 * Names come from the file: the caller escapes. 0 or -ENOMEM.
 */
#define REPORT_FOR_LINES 4
struct kd_buf;
int report_for_lines(const struct diff_result *r, struct kd_buf *lines);
/* A change's kind, category, verdict, potential, subject, old, new, note,
 * cause, evidence (kind, text) and impact (root and path of each). */
void report_json_change(struct kd_json *w, const struct diff_change *c);

/*
 * What side coverage @c has (@covered) or lacks, into @b (reset first):
 * "vmlinux, UAPI headers, 3 modules"; "nothing" or "-" when empty.
 */
struct kd_buf;
int diff_coverage_text(const struct diff_coverage *c, bool covered, struct kd_buf *b);

/* "Breaking changes", ... */
const char *report_section_title(enum report_section s);
/* Does @s list each change (breaking, source, or any with report_conf.full)? */
bool report_section_detailed(const struct report_ctx *x);
/* Has the contract cleared or left open this change's verdict? "potentially breaking" when open. */
const char *report_verdict_label(const struct diff_change *c);

/*
 * Text from the inputs (a release string, names, values), made safe for a
 * terminal: control characters (the ESC of an escape sequence, CR, BS)
 * and C1 controls in UTF-8 as \xNN. Returns @s itself when it has none,
 * else the escaped text in @b (the caller releases @b); "" for NULL.
 */
struct kd_buf;
const char *report_plain(struct kd_buf *b, const char *s);
/* Is @p the start of a character report_plain() escapes? Its length in bytes, else 0. */
size_t report_control_len(const char *p);

#endif

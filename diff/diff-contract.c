// SPDX-License-Identifier: GPL-2.0-only
/*
 * Changes between two versions of the contract (`diff --old-spec DIR
 * --new-spec DIR`): errnos added to or removed from a syscall or ioctl, and
 * values added to or removed from a flag set or enum. The spec stage finds
 * them (spec/spec-diff.h); here each becomes a change with its rule from
 * diff/RULES.md, in the syscall, ioctl or constant category, reaching the
 * call it is about.
 */
#include <string.h>

#include "diff/diff_internal.h"

/* The spec stage's kinds (struct kd_contract_change), and the rules judging them. */
static const struct kind_rule {
	enum diff_kind kind;
	enum diff_rule_id rule;
} kinds[] = {
	{ DIFF_K_SYSCALL_ERRNO_ADDED, DIFF_R_ERRNO_ADDED },
	{ DIFF_K_SYSCALL_ERRNO_REMOVED, DIFF_R_ERRNO_REMOVED },
	{ DIFF_K_IOCTL_ERRNO_ADDED, DIFF_R_ERRNO_ADDED },
	{ DIFF_K_IOCTL_ERRNO_REMOVED, DIFF_R_ERRNO_REMOVED },
	{ DIFF_K_SET_VALUE_ADDED, DIFF_R_SET_VALUE_ADDED },
	{ DIFF_K_SET_VALUE_REMOVED, DIFF_R_SET_VALUE_REMOVED },
};

int diff_contract_changes(struct diff_result *r, const struct diff_conf *conf)
{
	size_t i, k, idx;
	int err;

	for (i = 0; i < conf->nr_contract_changes; i++) {
		const struct kd_contract_change *c = &conf->contract_changes[i];

		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (!strcmp(diff_kind_name(kinds[k].kind), c->kind))
				break;
		if (k == sizeof(kinds) / sizeof(kinds[0]))
			continue;	/* a kind this engine does not know: not judged */
		err = diff_add(r, &(struct diff_new){ .rule = kinds[k].rule, .kind = kinds[k].kind,
						      .name = c->name, .subject = c->subject,
						      .old_value = c->old_value,
						      .new_value = c->new_value }, &idx);
		if (!err && diff_kind_category(kinds[k].kind) != DIFF_CAT_CONSTANT)
			err = diff_add_impact(r, idx, c->name, c->name);
		if (!err)
			err = diff_evidence(r, idx, DIFF_EV_CONTRACT, "listed in the %s contract only"
					    " (--old-spec, --new-spec)", c->old_value ? "old" : "new");
		if (err)
			return err;
	}
	return 0;
}

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

struct kind_rule {
	const char *kind, *rule;
	enum diff_category cat;
};

static const struct kind_rule kinds[] = {
	{ "syscall.errno.added", "errno-added", DIFF_CAT_SYSCALL },
	{ "syscall.errno.removed", "errno-removed", DIFF_CAT_SYSCALL },
	{ "ioctl.errno.added", "errno-added", DIFF_CAT_IOCTL },
	{ "ioctl.errno.removed", "errno-removed", DIFF_CAT_IOCTL },
	{ "set.value.added", "set-value-added", DIFF_CAT_CONSTANT },
	{ "set.value.removed", "set-value-removed", DIFF_CAT_CONSTANT },
};

int diff_contract_changes(struct diff_result *r, const struct diff_conf *conf)
{
	size_t i, k, idx;
	int err;

	for (i = 0; i < conf->nr_contract_changes; i++) {
		const struct kd_contract_change *c = &conf->contract_changes[i];

		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (!strcmp(kinds[k].kind, c->kind))
				break;
		if (k == sizeof(kinds) / sizeof(kinds[0]))
			continue;	/* a kind this engine does not know: not judged */
		err = diff_add(r, kinds[k].kind, kinds[k].cat, kinds[k].rule, c->name, c->subject,
			       c->old_value, c->new_value, NULL, &idx);
		if (!err && kinds[k].cat != DIFF_CAT_CONSTANT)
			err = diff_add_impact(r, idx, c->name, c->name);
		if (!err)
			err = diff_evidence(r, idx, DIFF_EV_CONTRACT, "listed in the %s contract only"
					    " (--old-spec, --new-spec)", c->old_value ? "old" : "new");
		if (err)
			return err;
	}
	return 0;
}

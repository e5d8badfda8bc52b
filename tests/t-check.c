// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the check stage's rule table (spec/check/check.h): it is
 * spec/check/CHECK.md's table, row by row and in order. The findings
 * themselves are tested end to end (t0400-check.sh).
 */
#include <stdio.h>
#include <string.h>

#include "lib/buf.h"
#include "spec/check/check.h"
#include "tests/doc-table.h"
#include "tests/tap.h"

static void check_row(size_t i, struct kd_buf *want, const void *ctx)
{
	const struct spec_check_rule *r = (const struct spec_check_rule *)ctx + i;

	kd_buf_addf(want, "| `%s` | %s |", r->id, r->what);
}

static void test_rules_documented(void)
{
	const struct spec_check_rule *rules;
	size_t n;

	rules = spec_check_rules(&n);
	is_int(n, CHECK__NR_RULES, "one row per enum spec_check_rule_id");
	doc_rules_match("spec/check/CHECK.md", n, check_row, rules);
	is_str(rules[CHECK_R_STRUCT_SIZE_CONSTANT].id, "struct-size-constant", "indexed by its enum");
}

int main(void)
{
	test_rules_documented();
	return tap_done();
}

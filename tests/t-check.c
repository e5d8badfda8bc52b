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

static void test_rules_documented(void)
{
	struct kd_buf want = KD_BUF_INIT;
	const struct spec_check_rule *rules;
	char **rows;
	size_t n, i, bad = 0;
	long nr_rows = doc_rule_rows("spec/check/CHECK.md", &rows);

	rules = spec_check_rules(&n);
	is_int(n, CHECK__NR_RULES, "one row per enum spec_check_rule_id");
	is_int(nr_rows, (long)n, "CHECK.md has as many rules as the code");
	for (i = 0; i < n; i++) {
		kd_buf_reset(&want);
		kd_buf_addf(&want, "| `%s` | %s |", rules[i].id, rules[i].what);
		if (nr_rows < 0 || i >= (size_t)nr_rows || strcmp(rows[i], want.s)) {
			printf("# CHECK.md row %zu: %s\n#      the code's: %s\n", i + 1,
			       nr_rows > 0 && i < (size_t)nr_rows ? rows[i] : "(none)", want.s);
			bad++;
		}
	}
	ok(nr_rows >= 0 && !bad, "every rule of the code is CHECK.md's row, in order (%zu rules)", n);
	is_str(rules[CHECK_R_STRUCT_SIZE_CONSTANT].id, "struct-size-constant", "indexed by its enum");
	if (nr_rows > 0)
		doc_rows_free(rows, nr_rows);
	kd_buf_release(&want);
}

int main(void)
{
	test_rules_documented();
	return tap_done();
}

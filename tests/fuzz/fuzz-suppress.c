// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz harness of the suppressions reader (issue 25): the input is one
 * suppressions file (seeds: the entries the tests write, see
 * make-corpus.sh), loaded with diff_suppressions__load() and, when it
 * loads, matched against a result of three changes (a syscall, a struct
 * member reached from an ioctl, a constant): every glob and line shape
 * must be an error naming its line or a suppression, never a crash.
 */
#include "tests/fuzz/fuzz-common.h"
#include "tests/fuzz/harness.h"

#include "diff/changes.h"
#include "lib/mem.h"

/* Three changes of three categories, one with an impact. */
static struct diff_result *sample_result(void)
{
	struct diff_result *r = kd_calloc(1, sizeof(*r));
	size_t idx;

	if (!r || diff_add(r, &(struct diff_new){ .rule = DIFF_R_SYSCALL_RENUMBERED, .name = "openat2",
						  .subject = "openat2 (x64)", .old_value = "437",
						  .new_value = "438" }, NULL) ||
	    diff_add(r, &(struct diff_new){ .rule = DIFF_R_MEMBER_MOVED, .name = "struct open_how",
					    .subject = "struct open_how.mode", .old_value = "8",
					    .new_value = "16" }, &idx) ||
	    diff_add_impact(r, idx, "ioctl FX_IOC_GET", "ioctl FX_IOC_GET -> struct open_how") ||
	    diff_add(r, &(struct diff_new){ .rule = DIFF_R_CONSTANT_REMOVED, .name = "O_PATH",
					    .subject = "O_PATH", .old_value = "0x200000" }, NULL)) {
		diff_result__free(r);
		return NULL;
	}
	return r;
}

int fuzz_suppress_one(const uint8_t *data, size_t size)
{
	struct kd_buf path = KD_BUF_INIT;
	struct diff_suppressions *s = NULL;
	struct diff_result *r;
	size_t i, total = 0;

	fuzz_path(&path, "fuzz.supp");
	fuzz_write(path.s, data, size);
	if (diff_suppressions__load(path.s, &s) == 0) {
		r = sample_result();
		if (!r)
			abort();
		if (diff_result__suppress(r, s) >= 0) {
			for (i = 0; i < diff_result__nr_unmatched(r); i++)
				total += strlen(diff_result__unmatched(r, i));
			total += diff_result__count_suppressed(r, DIFF__NR_CATEGORIES);
		}
		if (total == (size_t)-1)
			abort();
		diff_result__free(r);
	}
	diff_suppressions__free(s);
	kd_buf_release(&path);
	return 0;
}

FUZZ_ENTRY(fuzz_suppress_one)

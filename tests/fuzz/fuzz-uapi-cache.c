// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz harness of the UAPI compile cache's index reader (issue 25): the
 * input is the text of a KEY.idx, which a shared cache lets anyone write
 * (seeds: make-corpus.sh). uapi_cc_index__parse() must refuse it or read
 * it, never crash; what it reads, written again by uapi_cc_index__format(),
 * must read back to the same text (a parse that kept a field the writer
 * cannot carry would be a finding).
 */
#include "tests/fuzz/fuzz-common.h"
#include "tests/fuzz/harness.h"

#include "extract/uapi/compile_internal.h"

int fuzz_uapi_cache_one(const uint8_t *data, size_t size)
{
	struct kd_buf once = KD_BUF_INIT, twice = KD_BUF_INIT;
	struct uapi_cc_index ix;
	int rc = uapi_cc_index__parse((const char *)data, size, &ix);

	if (rc < 0)
		return 0;	/* out of memory */
	if (rc > 0) {
		if (uapi_cc_index__format(&ix, &once))
			abort();
		uapi_cc_index__release(&ix);
		if (uapi_cc_index__parse(once.s, once.len, &ix) != 1 ||
		    uapi_cc_index__format(&ix, &twice) || strcmp(once.s, twice.s)) {
			fprintf(stderr, "kabi-fuzz: the index written does not read back:\n%s", once.s);
			abort();
		}
	}
	uapi_cc_index__release(&ix);
	kd_buf_release(&once);
	kd_buf_release(&twice);
	return 0;
}

FUZZ_ENTRY(fuzz_uapi_cache_one)

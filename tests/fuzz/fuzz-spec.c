// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz harness of the spec parser and resolver: the input is one
 * .kabispec file (seeds: the .kabispec files of spec/ and tests/fixtures/spec, see
 * make-corpus.sh), parsed with spec__parse_buffer() and resolved; every
 * kind of syntax error must be reported, never crash.
 */
#include "tests/fuzz/fuzz-common.h"
#include "tests/fuzz/harness.h"

#include "spec/spec.h"

int fuzz_spec_one(const uint8_t *data, size_t size)
{
	struct kd_buf name = KD_BUF_INIT;
	struct spec *s = NULL;
	size_t i, total = 0;

	/* "include" resolves beside the file: inside the scratch directory. */
	fuzz_path(&name, "fuzz.kabispec");
	if (spec__new(&s) == 0) {
		if (spec__parse_buffer(s, name.s, (const char *)data, size) == 0)
			(void)spec__resolve(s);
		total += spec__nr_errors(s) + strlen(spec__hash_hex(s));
		for (i = 0; i < spec__nr_calls(s); i++)
			total += spec__call(s, i) != NULL;
		for (i = 0; i < spec__nr_files(s); i++)
			total += strlen(spec__file_text(s, i));
		if (total == (size_t)-1)
			abort();
	}
	spec__free(s);
	kd_buf_release(&name);
	return 0;
}

FUZZ_ENTRY(fuzz_spec_one)

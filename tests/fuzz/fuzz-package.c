// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz harness of the package member reader (issue 25): kpkg__open() on
 * the input as a package (a .deb, an RPM or a tar: libarchive's readers,
 * the nested data.tar, the member mapping, the unpack limits), then every
 * module its feed streams, as the extractor would take them. The input is
 * given twice, as a list whose first name says "headers": modules are
 * only streamed when a headers package was read before. Caps of a
 * few MiB stand in for the real ones (unpack__override_caps()), so a
 * crafted member costs no gigabytes; whatever the input, nothing may be
 * left in the scratch directory (seeds: make-corpus.sh).
 */
#include "tests/fuzz/fuzz-common.h"
#include "tests/fuzz/harness.h"

#include "extract/extract.h"
#include "extract/input/package.h"
#include "extract/input/unpack-limits.h"

static const struct unpack_caps fuzz_caps = {
	.member = { 4 << 20, 4 << 20, 1 << 20 },
	.kind = { UINT64_MAX, UINT64_MAX, 4 << 20 },
	.input = 16 << 20,
	.files = 2000,
};

int fuzz_package_one(const uint8_t *data, size_t size)
{
	struct kd_buf path = KD_BUF_INIT, list = KD_BUF_INIT;
	const struct extract_modules_feed *feed;
	struct kpkg *p = NULL;

	unpack__override_caps(&fuzz_caps);
	fuzz_write(fuzz_path(&path, "input.deb"), data, size);
	fuzz_write(fuzz_path(&path, "input-headers.deb"), data, size);
	if (kd_buf_addf(&list, "%s,%s/input.deb", path.s, fuzz_tmpdir()))
		abort();
	if (!kpkg__open(list.s, fuzz_tmpdir(), false, &p) && (feed = kpkg__modules_feed(p))) {
		char *name, *file;

		while (feed->next(feed->ctx, &name, &file) > 0) {
			fuzz_remove(file);
			free(name);
			free(file);
		}
	}
	kpkg__close(p);
	fuzz_remove(path.s);
	fuzz_remove(fuzz_path(&path, "input.deb"));
	fuzz_assert_no_file(".kabi-unpack-");
	kd_buf_release(&path);
	kd_buf_release(&list);
	return 0;
}

FUZZ_ENTRY(fuzz_package_one)

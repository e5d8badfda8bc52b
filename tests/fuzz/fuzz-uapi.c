// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz harness of the UAPI header reader (preprocessor, macro expansion,
 * constant-expression evaluator, ioctl decoding): uapi__scan() on an
 * installed-layout tree made from the input. The input is up to four
 * headers separated by a line "#--": linux/fuzz.h, linux/fuzz2.h,
 * asm/fuzz.h and asm-generic/ioctl.h, so that #include between them and
 * the _IOC macros are reachable (seeds: make-corpus.sh). Struct sizes come
 * from a fake callback that knows some names and not others.
 */
#include "tests/fuzz/fuzz-common.h"
#include "tests/fuzz/harness.h"

#include "extract/uapi/uapi.h"

static const char *const uapi_files[] = {
	"uapi/linux/fuzz.h", "uapi/linux/fuzz2.h", "uapi/asm/fuzz.h", "uapi/asm-generic/ioctl.h",
};
#define NR_UAPI_FILES (sizeof(uapi_files) / sizeof(uapi_files[0]))

/* Names of odd length have a size (their length, 0 for "x" to try 0); others are unknown. */
static int fake_sizeof(const char *type_text, struct uapi_type_info *info, void *ctx)
{
	size_t n = strlen(type_text);

	(void)ctx;
	if (n % 2 == 0)
		return 0;
	info->size = n == 1 ? 0 : (int64_t)n;
	info->type_id = (int64_t)n;
	info->module_id = 0;
	return 1;
}

static void make_dirs(void)
{
	static int done;
	static const char *const dirs[] = { "uapi", "uapi/linux", "uapi/asm", "uapi/asm-generic" };
	struct kd_buf b = KD_BUF_INIT;
	size_t i;

	if (done)
		return;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (mkdir(fuzz_path(&b, dirs[i]), 0755) && errno != EEXIST)
			abort();
	kd_buf_release(&b);
	done = 1;
}

int fuzz_uapi_one(const uint8_t *data, size_t size)
{
	static const char sep[] = "\n#--\n";
	struct kd_buf b = KD_BUF_INIT, dir = KD_BUF_INIT;
	struct uapi_result *r = NULL;
	const uint8_t *p = data, *end = data + size;
	size_t i;
	int err;

	make_dirs();
	for (i = 0; i < NR_UAPI_FILES; i++)
		fuzz_remove(fuzz_path(&b, uapi_files[i]));
	for (i = 0; i < NR_UAPI_FILES && p <= end; i++) {
		const uint8_t *q = i + 1 < NR_UAPI_FILES ?
			memmem(p, (size_t)(end - p), sep, sizeof(sep) - 1) : NULL;
		size_t n = q ? (size_t)(q - p) + 1 : (size_t)(end - p);

		fuzz_write(fuzz_path(&b, uapi_files[i]), p, n);
		if (!q)
			break;
		p = q + sizeof(sep) - 1;
	}
	err = uapi__scan(fuzz_path(&dir, "uapi"), NULL, &(struct uapi_lookup){ .size = fake_sizeof }, &r);
	if (!err) {
		/* Touch every string of the result: ASan sees a dangling one. */
		size_t total = 0;

		for (i = 0; i < r->nr_consts; i++)
			total += strlen(r->consts[i].name) + strlen(r->consts[i].ctype) +
				 strlen(r->const_roots[i]);
		for (i = 0; i < r->nr_ioctls; i++)
			total += strlen(r->ioctls[i].name) + strlen(r->ioctls[i].dir) +
				 strlen(r->ioctl_roots[i]);
		for (i = 0; i < r->nr_problems; i++)
			total += strlen(r->problems[i].message);
		if (total == (size_t)-1)
			abort();
	}
	uapi_result__free(r);
	kd_buf_release(&b);
	kd_buf_release(&dir);
	return 0;
}

FUZZ_ENTRY(fuzz_uapi_one)

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The 32-bit ABI within one kernel, in C: extract/fops.c on a fixture
 * module compiled at test time (tests/fixtures/fops/module.c: every
 * object, target and NULL exact), the byte scan of ioctl numbers in code
 * (extract/ioctl-immediates.c: which encodings count, none read past the
 * end), and kdb__compat_handling()'s verdict for each case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb-compat.h"
#include "extract/fops_internal.h"
#include "extract/ioctl_immediates_internal.h"
#include "lib/buf.h"
#include "lib/mem.h"
#include "tests/tap.h"

/* The values ioctl_immediates__scan() finds in @code, as "0x%08x ..." (empty: none). */
static char *scan(const unsigned char *code, size_t size)
{
	struct kd_buf b = KD_BUF_INIT;
	uint32_t *v = NULL;
	size_t n = 0, cap = 0, i;
	/* A copy of exactly @size bytes: ASan sees any read past it. */
	unsigned char *copy = kd_malloc(size ? size : 1);

	if (!copy)
		return NULL;
	memcpy(copy, code, size);
	if (ioctl_immediates__scan(copy, size, &v, &n, &cap))
		kd_buf_adds(&b, "error");
	for (i = 0; i < n; i++)
		kd_buf_addf(&b, "%s0x%08x", i ? " " : "", v[i]);
	free(v);
	free(copy);
	return kd_buf_detach(&b);
}

static void test_scan(void)
{
	static const struct {
		const char *what;
		unsigned char code[12];
		size_t size;
		const char *want;
	} cases[] = {
		{ "cmp $imm32, %eax (3d)", { 0x3d, 0x08, 0x63, 0x08, 0x40 }, 5, "0x40086308" },
		{ "cmp $imm32, %esi (81 fe)", { 0x81, 0xfe, 0x08, 0x5b, 0x10, 0xc0 }, 6, "0xc0105b08" },
		{ "cmp $imm32, %r8d (41 81 f8)", { 0x41, 0x81, 0xf8, 0x08, 0x5b, 0x10, 0xc0 }, 7,
		  "0xc0105b08" },
		{ "mov $imm32, %esi (be)", { 0xbe, 0x01, 0x66, 0x10, 0x80 }, 5, "0x80106601" },
		{ "mov $imm32, %r9d (41 b9)", { 0x41, 0xb9, 0x01, 0x66, 0x10, 0x80 }, 6, "0x80106601" },
		{ "movabs (48 b8 imm64): not a 32-bit operand", { 0x48, 0xb8, 0x01, 0x66, 0x10, 0x80,
		  0, 0, 0, 0 }, 10, "" },
		{ "add $imm32, %esi (81 c6): not a compare", { 0x81, 0xc6, 0x01, 0x66, 0x10, 0x80 }, 6, "" },
		{ "cmp with a memory operand (81 7e): not", { 0x81, 0x7e, 0x08, 0x01, 0x66, 0x10, 0x80 },
		  7, "" },
		{ "_IO number (no size): not", { 0x3d, 0x05, 0x46, 0x00, 0x00 }, 5, "" },
		{ "no type byte: not", { 0x3d, 0x01, 0x00, 0x10, 0x80 }, 5, "" },
		{ "cut short: the operand's last byte missing", { 0x3d, 0x08, 0x63, 0x08 }, 4, "" },
		{ "cut short after 81 fe", { 0x81, 0xfe, 0x08, 0x63, 0x08 }, 5, "" },
		{ "two in a row", { 0x3d, 0x08, 0x63, 0x08, 0x40, 0xbe, 0x01, 0x66, 0x10, 0x80 }, 10,
		  "0x40086308 0x80106601" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = scan(cases[i].code, cases[i].size);

		struct kd_buf what = KD_BUF_INIT;

		kd_buf_addf(&what, "scan: %s", cases[i].what);
		is_str(got, cases[i].want, what.s);
		kd_buf_release(&what);
		free(got);
	}
}

static void test_handling(void)
{
	struct kdb_compat_serving s = { .ioctl = "X", .file = "linux/x.h", .binary = "m",
					.fops = "m_fops", .nr_fops = 1 };

	s.binary = NULL;
	ok(kdb__compat_handling(&s) == KDB_COMPAT_UNSERVED, "no binary: unserved");
	s.binary = "m";
	s.nr_fops = 2;
	ok(kdb__compat_handling(&s) == KDB_COMPAT_AMBIGUOUS, "two file_operations: ambiguous");
	s.nr_fops = 1;
	ok(kdb__compat_handling(&s) == KDB_COMPAT_ENOTTY, "compat_ioctl NULL: ENOTTY");
	s.compat_ioctl = "m_compat_ioctl";
	ok(kdb__compat_handling(&s) == KDB_COMPAT_TRANSLATED, "a handler: translated");
	s.compat_ioctl = "compat_ptr_ioctl";
	ok(kdb__compat_handling(&s) == KDB_COMPAT_UNSEEN,
	       "compat_ptr_ioctl, neither number in the code: unseen");
	s.native_cmd_in_code = true;
	ok(kdb__compat_handling(&s) == KDB_COMPAT_PTR,
	       "compat_ptr_ioctl, the native number in the code: broken");
	s.same_members = true;
	ok(kdb__compat_handling(&s) == KDB_COMPAT_PADDING,
	       "compat_ptr_ioctl, the members alike: size only");
	s.compat_cmd_in_code = true;
	ok(kdb__compat_handling(&s) == KDB_COMPAT_NATIVE_TRANSLATED,
	       "compat_ptr_ioctl, the i386 number in the code: translated in the native handler");
}

/* fops__read() of @ko as "name unlocked compat;..." */
static char *read_fops(const char *ko)
{
	struct kd_buf b = KD_BUF_INIT;
	struct fops_list l = { 0 };
	struct kelf *k = NULL;
	struct kdwarf *d = NULL;
	size_t i;

	if (kelf_open(ko, &k) || kdwarf_open(k, &d) || fops__read(d, &l))
		kd_buf_adds(&b, "error");
	for (i = 0; i < l.n; i++)
		kd_buf_addf(&b, "%s %s %s;", l.v[i].name, l.v[i].unlocked ? l.v[i].unlocked : "NULL",
			    l.v[i].compat ? l.v[i].compat : "NULL");
	if (l.problem)
		kd_buf_addf(&b, "problem: %s", l.problem);
	fops__release(&l);
	kdwarf_close(d);
	kelf_close(k);
	return kd_buf_detach(&b);
}

static void test_fops(void)
{
	static const struct {
		const char *flags, *want;
	} cases[] = {
		{ "-DFXF_COMPAT=ptr", "fxf_fops fxf_ioctl compat_ptr_ioctl;" },
		{ "-DFXF_COMPAT=null", "fxf_fops fxf_ioctl NULL;" },
		{ "-DFXF_COMPAT=xlate -DFXF_TWO",
		  "fxf_ctl_fops fxf_ioctl NULL;fxf_fops fxf_ioctl fxf_compat_ioctl;" },
		{ "-DFXF_COMPAT=xlate -DFXF_OTHER_LAYOUT", "fxf_fops fxf_ioctl fxf_compat_ioctl;" },
	};
	const char *src = tap_srcdir();
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kd_buf cmd = KD_BUF_INIT;
		char *got;

		kd_buf_addf(&cmd, "mkdir -p inc/linux inc/asm && cp %s/fixtures/fops/fxfops.h inc/linux/ &&"
			    " cp %s/fixtures/uapi/installed/asm/ioctl.h inc/asm/ &&"
			    " cp %s/fixtures/uapi/installed/linux/types.h inc/linux/ &&"
			    " gcc -g -O2 -c -Iinc -DFXF_NAME='\"fx\"' %s %s/fixtures/fops/module.c -o fx.ko",
			    src, src, src, cases[i].flags, src);
		if (system(cmd.s)) {
			ok(0, "compile the fixture module with %s", cases[i].flags);
			kd_buf_release(&cmd);
			continue;
		}
		got = read_fops("fx.ko");
		kd_buf_reset(&cmd);
		kd_buf_addf(&cmd, "fops__read: %s", cases[i].flags);
		is_str(got, cases[i].want, cmd.s);
		kd_buf_release(&cmd);
		free(got);
	}
}

int main(void)
{
	test_scan();
	test_handling();
	test_fops();
	return tap_done();
}

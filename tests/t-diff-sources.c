// SPDX-License-Identifier: GPL-2.0-only
/*
 * diff/diff-provenance.c: the evidence of a layout change names where
 * each side's row was read, from the rows' own records (uapi_types: a
 * header declares it; type_origins: vmlinux or a module), whatever path
 * reached it. A header's type that points to a row only the kernel's
 * DWARF has (what an extractor that followed a header's pointer into the
 * kernel wrote) says so, not "the headers' layouts"; an anonymous member
 * has its named parent's sources; a syscall's type read from a module on
 * one side and from the headers on the other names both; rows both
 * kernels' DWARF gives keep the kernels' evidence. Exact texts.
 */
#include <stdbool.h>
#include <string.h>

#include "db/kdb-kernel.h"
#include "db/kdb-uapi.h"
#include "diff/diff.h"
#include "lib/buf.h"
#include "tests/tap.h"
#include "tests/diff-fixture.h"

static void header_at(struct kb *k, int64_t id, const char *file, int line)
{
	if (!k->err)
		k->err = kdb__put_uapi_type(k->db, id, file, line);
}

static void origin(struct kb *k, int64_t id, int64_t module_id)
{
	if (!k->err)
		k->err = kdb__put_type_origin(k->db, id, module_id);
}

static void build_sources(struct kb *k)
{
	int64_t u16 = base(k, "short unsigned int", 2), u32 = base(k, "unsigned int", 4);
	int64_t l64 = base(k, "long int", 8), fxm = 0;
	bool n = k->is_new;
	/* struct kin: the kernel's, grown; only the DWARF of vmlinux has it. */
	struct kd_member kin_m[] = {
		{ .name = "a", .type = u32, .offset = 0 }, { .name = "b", .type = u32, .offset = 4 },
	};
	int64_t kin = agg(k, KD_KIND_STRUCT, "kin", n ? 8 : 4, 4, kin_m, n ? 2 : 1);
	/* struct hdr_a: a header's, pointing to it. */
	struct kd_member a_m[] = {
		{ .name = "len", .type = u32, .offset = 0 }, { .name = "k", .type = ptr(k, kin), .offset = 8 },
	};
	int64_t hdr_a = agg(k, KD_KIND_STRUCT, "hdr_a", 16, 8, a_m, NM(a_m));
	/* struct hdr_b: a header's, a member added to the anonymous union of its member inner. */
	struct kd_member u_m[] = {
		{ .name = "u", .type = u32, .offset = 0 }, { .name = "w", .type = u16, .offset = 0 },
	};
	int64_t anon = agg(k, KD_KIND_UNION, NULL, 4, 4, u_m, n ? 2 : 1);
	struct kd_member b_m[] = {
		{ .name = "x", .type = u32, .offset = 0 }, { .name = "inner", .type = anon, .offset = 4 },
	};
	int64_t hdr_b = agg(k, KD_KIND_STRUCT, "hdr_b", 8, 4, b_m, NM(b_m));
	/* struct hdr_c: a header's that vmlinux's DWARF has too, grown in both. */
	struct kd_member c_m[] = {
		{ .name = "a", .type = u32, .offset = 0 }, { .name = "b", .type = u32, .offset = 4 },
	};
	int64_t hdr_c = agg(k, KD_KIND_STRUCT, "hdr_c", n ? 8 : 4, 4, c_m, n ? 2 : 1);
	/* struct m: a syscall's, module fxm's in the old kernel, the headers' in the new. */
	struct kd_member m_m[] = {
		{ .name = "a", .type = u32, .offset = 0 }, { .name = "b", .type = u32, .offset = 4 },
	};
	int64_t m = agg(k, KD_KIND_STRUCT, "m", n ? 8 : 4, 4, m_m, n ? 2 : 1);
	/* struct v: a syscall's, vmlinux's in both. */
	int64_t v = agg(k, KD_KIND_STRUCT, "v", n ? 8 : 4, 4, c_m, n ? 2 : 1);

	origin(k, kin, 0);
	header_at(k, hdr_a, "linux/a.h", 3);
	header_at(k, hdr_b, "linux/a.h", n ? 8 : 7);
	header_at(k, hdr_c, "linux/c.h", 2);
	origin(k, hdr_c, 0);
	if (n) {
		header_at(k, m, "linux/m.h", 4);
	} else {
		if (!k->err)
			k->err = kdb__put_module(k->db, "fxm", "fxm.ko", NULL, NULL, &fxm);
		origin(k, m, fxm);
	}
	origin(k, v, 0);
	sys(k, 0, "getm", l64, 1, "m", ptr(k, m));
	sys(k, 1, "getv", l64, 1, "v", ptr(k, v));
}

static void test_sources(void)
{
	struct diff_result *r = pair("sources", build_sources, NULL);

	check(r, "type.size", "struct kin", "tail-growth-uncontracted", "4", "8",
	      "linux/a.h -> struct hdr_a -> k -> struct kin");
	evidence_is(r, "type.size", "struct kin", DIFF_EV_LAYOUT,
		    "old: struct kin in vmlinux's DWARF; new: struct kin in vmlinux's DWARF;"
		    " no syscall or ioctl of either kernel reaches it");
	evidence_is(r, "type.member.added", "struct kin.b", DIFF_EV_LAYOUT,
		    "old: struct kin in vmlinux's DWARF; new: struct kin in vmlinux's DWARF;"
		    " no syscall or ioctl of either kernel reaches it");
	evidence_is(r, "type.member.added", "struct hdr_b.inner.w", DIFF_EV_LAYOUT,
		    "the layouts both header views give (compiled as user space compiles them):"
		    " struct hdr_b at linux/a.h:7 in the old headers, linux/a.h:8 in the new;"
		    " no syscall or ioctl of either kernel reaches it");
	evidence_is(r, "type.size", "struct hdr_c", DIFF_EV_LAYOUT,
		    "the layouts both header views give (compiled as user space compiles them):"
		    " struct hdr_c at linux/c.h:2 in the old headers, linux/c.h:2 in the new;"
		    " no syscall or ioctl of either kernel reaches it");
	evidence_is(r, "type.size", "struct m", DIFF_EV_LAYOUT,
		    "old: struct m in module fxm's DWARF; new: struct m in the header view"
		    " (linux/m.h:4, compiled as user space compiles it)");
	evidence_is(r, "type.size", "struct v", DIFF_EV_LAYOUT, "the layouts of both kernels (DWARF)");
	count_is(r, 9, "sources: nothing else");
	diff_result__free(r);
}

/*
 * struct NAME -> next -> @depth anonymous structs, each pointing to the
 * next; the last grows. Only struct NAME records a source (vmlinux).
 */
static void chain(struct kb *k, const char *name, int depth, int64_t l64, int64_t u32, int nr)
{
	struct kd_member last[] = {
		{ .name = "a", .type = u32, .offset = 0 }, { .name = "b", .type = u32, .offset = 4 },
	};
	int64_t cur = agg(k, KD_KIND_STRUCT, NULL, k->is_new ? 8 : 4, 4, last, k->is_new ? 2 : 1);
	int i;

	for (i = 0; i < depth; i++) {
		struct kd_member m = { .name = "next", .type = ptr(k, cur), .offset = 0 };

		cur = agg(k, KD_KIND_STRUCT, i == depth - 1 ? name : NULL, 8, 8, &m, 1);
	}
	origin(k, cur, 0);
	sys(k, nr, name, l64, 1, "p", ptr(k, cur));
}

/* The sources are looked for 256 levels up a path (doc/LIMITS.md). */
static void build_deep(struct kb *k)
{
	int64_t u32 = base(k, "unsigned int", 4), l64 = base(k, "long int", 8);

	chain(k, "deep255", 255, l64, u32, 0);
	chain(k, "deep256", 256, l64, u32, 1);
}

static void test_deep(void)
{
	struct diff_result *r = pair("sources-deep", build_deep, NULL);
	struct kd_buf subj = KD_BUF_INIT;
	int i;

	kd_buf_adds(&subj, "struct deep255");
	for (i = 0; i < 255; i++)
		kd_buf_adds(&subj, ".next");
	evidence_is(r, "type.size", subj.s, DIFF_EV_LAYOUT, "the layouts of both kernels (DWARF)");
	kd_buf_reset(&subj);
	kd_buf_adds(&subj, "struct deep256");
	for (i = 0; i < 256; i++)
		kd_buf_adds(&subj, ".next");
	evidence_is(r, "type.size", subj.s, DIFF_EV_LAYOUT,
		    "old: a layout whose source is not within 256 levels up its path;"
		    " new: a layout whose source is not within 256 levels up its path");
	count_is(r, 4, "sources-deep: each chain's last struct grew (size, member)");
	kd_buf_release(&subj);
	diff_result__free(r);
}

int main(void)
{
	test_sources();
	test_deep();
	return tap_done();
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * diff/ on the bytes of a layout: reserved space carved or reused, padding
 * given output-only or named members, void pointees, sys_ni stubs (with
 * and without a contract that says so), and changes that keep the same
 * bytes under another spelling (signedness, one-member wrappers, flexible
 * arrays, growth inside a union alternative). Pairs of small kernels built
 * by tests/diff-fixture.h, each change checked for its exact kind, subject,
 * values, rule and evidence.
 */
#include <stdbool.h>
#include <string.h>

#include "diff/diff.h"
#include "lib/buf.h"
#include "tests/tap.h"
#include "tests/diff-fixture.h"

/* --- reserved space, output-only padding, void pointees, sys_ni stubs ---- */

static void build_space(struct kb *k)
{
	int64_t u16 = base(k, "short unsigned int", 2), u32 = base(k, "unsigned int", 4);
	int64_t u64 = base(k, "long long unsigned int", 8), l64 = base(k, "long int", 8);
	int64_t i32 = base(k, "int", 4);
	bool n = k->is_new;
	/* Carving reserved[3] moves live from 16 to 4: live breaks. */
	struct kd_member co[] = {
		{ .name = "flags", .type = u32, .offset = 0 },
		{ .name = "reserved", .type = arr(k, u32, 3), .offset = 4 },
		{ .name = "live", .type = u32, .offset = 16 },
	};
	struct kd_member cn[] = {
		{ .name = "flags", .type = u32, .offset = 0 }, { .name = "live", .type = u32, .offset = 4 },
		{ .name = "added", .type = u32, .offset = 8 },
		{ .name = "reserved", .type = arr(k, u32, 2), .offset = 12 },
	};
	int64_t carve = agg(k, KD_KIND_STRUCT, "carve_live", 20, 4, n ? cn : co, n ? 4 : 3);
	/* A "pad" the contract gives a meaning is no reserved space. */
	struct kd_member dold[] = {
		{ .name = "a", .type = u32, .offset = 0 }, { .name = "pad", .type = u32, .offset = 4 },
	};
	struct kd_member dnew[] = {
		{ .name = "a", .type = u32, .offset = 0 }, { .name = "b", .type = u16, .offset = 4 },
		{ .name = "pad", .type = u16, .offset = 6 },
	};
	int64_t desc = agg(k, KD_KIND_STRUCT, "desc", 8, 4, n ? dnew : dold, n ? 3 : 2);
	/* The kernel's output in old padding (struct rseq's node_id). */
	struct kd_member om[] = {
		{ .name = "a", .type = u32, .offset = 0 }, { .name = "b", .type = u64, .offset = 8 },
		{ .name = "c", .type = u32, .offset = 4 },
	};
	int64_t outs = agg(k, KD_KIND_STRUCT, "outs", 16, 8, om, n ? 3 : 2);
	int64_t fid = 0;
	struct kd_syscall stub = { .abi = "x64", .nr = 8, .name = "stubbed", .entry = "__x64_sys_stubbed",
				   .implemented = true };

	sys(k, 0, "carve", l64, 1, "c", ptr(k, carve));
	sys(k, 1, "desc", l64, 1, "d", ptr(k, desc));
	sys(k, 2, "outs", l64, 1, "o", ptr(k, outs));
	/* name_to_handle_at(mnt_id): int * -> void *; widen: int * -> long *. */
	sys(k, 3, "handle", l64, 1, "mnt_id", n ? ptr(k, 0) : ptr(k, i32));
	sys(k, 4, "widen", l64, 1, "p", n ? ptr(k, l64) : ptr(k, i32));
	if (!n) {
		/* lookup_dcookie in 6.1: the table's entry is a COND_SYSCALL stub. */
		if (!k->err)
			k->err = kdb__put_function(k->db, "sys_stubbed", l64, "dwarf", "kernel/sys_ni.c", 60,
						   &fid);
		stub.func_id = fid;
		if (!k->err)
			k->err = kdb__put_syscall(k->db, &stub);
		sys(k, 9, "really_gone", l64, 0);
	}
}

static bool says_out(void *ctx, const char *name, const char *member, struct diff_where *where)
{
	(void)ctx;
	if (where)
		*where = (struct diff_where){ "test.kabispec", 3 };
	return !strcmp(name, "outs") && member && !strcmp(member, "c");
}

static bool says_describes(void *ctx, const char *name, const char *member,
			   struct diff_where *where)
{
	(void)ctx;
	(void)where;
	return !strcmp(name, "desc") && member && !strcmp(member, "pad");
}

static void test_space(void)
{
	static const struct diff_contract c = {
		.is_out = says_out, .describes = says_describes, .source = "test",
	};
	struct diff_result *r = pair("space", build_space, NULL);

	check(r, "type.member.offset", "struct carve_live.live", "member-moved", "16", "4", NULL);
	check(r, "type.member.offset", "struct carve_live.reserved", "member-moved", "4", "12", NULL);
	check(r, "type.member.added", "struct carve_live.added", "reserved-reuse", NULL,
	      "unsigned int added at 8", NULL);
	/* Without the contract, "pad" says padding: its remainder moves within its bytes. */
	check(r, "type.member.offset", "struct desc.pad", "reserved-carved", "4", "6", NULL);
	check(r, "type.member.added", "struct outs.c", "padding-reuse-uncontracted", NULL,
	      "unsigned int c at 4", NULL);
	check(r, "syscall.param.type", "handle(mnt_id)", "pointee-void", "int *", "void *", NULL);
	evidence_is(r, "syscall.param.type", "handle(mnt_id)", DIFF_EV_LAYOUT,
		    "int * -> void *: the same pointer; void gives the pointee no size");
	check(r, "syscall.param.type", "widen(p)", "syscall-param-type", "int *", "long int *", NULL);
	check(r, "syscall.removed", "stubbed (x64)", "syscall-removed-unimplemented", "8", NULL, NULL);
	evidence_is(r, "syscall.removed", "stubbed (x64)", DIFF_EV_KERNEL,
		    "the old kernel's sys_stubbed is the stub at kernel/sys_ni.c:60"
		    " (COND_SYSCALL: returns -ENOSYS)");
	check(r, "syscall.removed", "really_gone (x64)", "syscall-removed", "9", NULL, NULL);
	check(r, "type.member.added", "struct desc.b", "padding-member-reuse-uncontracted", NULL,
	      "short unsigned int b at 4", NULL);
	check(r, "type.member.type", "struct desc.pad", "reserved-reuse", "unsigned int",
	      "short unsigned int", NULL);
	check(r, "type.array.bound", "struct carve_live.reserved", "reserved-reuse", "unsigned int[3]",
	      "unsigned int[2]", NULL);
	pair_done(r, 12, "space: nothing else", 28, "space: exit 4|8|16");

	r = pair("space-contract", build_space, &(struct diff_conf){ .contract = &c });
	check(r, "type.member.offset", "struct desc.pad", "member-moved", "4", "6", NULL);
	check(r, "type.member.added", "struct desc.b", "member-added", NULL,
	      "short unsigned int b at 4", NULL);
	check(r, "type.member.added", "struct outs.c", "padding-reuse-out", NULL, "unsigned int c at 4",
	      NULL);
	evidence_is(r, "type.member.added", "struct outs.c", DIFF_EV_CONTRACT,
		    "test.kabispec:3: struct outs.c is output-only (out): the kernel writes it");
	diff_result__free(r);
}

/* --- same bytes, other spelling; growth inside a union alternative -------- */

static void build_bytes(struct kb *k)
{
	int64_t u8 = base(k, "unsigned char", 1), l64 = base(k, "long int", 8);
	int64_t u32 = basef(k, "unsigned int", 4, 0), s32 = basef(k, "int", 4, KD_TYPE_SIGNED);
	int64_t u64 = base(k, "long long unsigned int", 8);
	bool n = k->is_new;
	/* emu10k1's gpr control: unsigned int -> int, also in an array. */
	struct kd_member sm[] = {
		{ .name = "min", .type = n ? s32 : u32, .offset = 0 },
		{ .name = "v", .type = arr(k, n ? s32 : u32, 4), .offset = 4 },
		{ .name = "wide", .type = n ? u64 : u32, .offset = 24 },
	};
	int64_t sgn = agg(k, KD_KIND_STRUCT, "sgn", 32, 8, sm, 3);
	/* acrn's uuid: guid_t (a struct of __u8 b[16]) -> __u8[16]; back: the reverse. */
	struct kd_member gm[] = { { .name = "b", .type = arr(k, u8, 16), .offset = 0 } };
	int64_t guid = agg(k, KD_KIND_STRUCT, "guid", 16, 1, gm, 1);
	struct kd_member wm[] = {
		{ .name = "uuid", .type = n ? arr(k, u8, 16) : guid, .offset = 0 },
		{ .name = "back", .type = n ? guid : arr(k, u8, 16), .offset = 16 },
	};
	int64_t wrap = agg(k, KD_KIND_STRUCT, "wrap", 32, 1, wm, 2);
	/* kvm_xen_hvm_attr's shared_info: struct { gfn } -> union { gfn; hva }. */
	struct kd_member am[] = {
		{ .name = "gfn", .type = u64, .offset = 0 }, { .name = "hva", .type = u64, .offset = 0 },
	};
	int64_t anon = agg(k, n ? KD_KIND_UNION : KD_KIND_STRUCT, NULL, 8, 8, am, n ? 2 : 1);
	struct kd_member hm[] = { { .name = "si", .type = anon, .offset = 0 } };
	int64_t xen = agg(k, KD_KIND_STRUCT, "xen", 8, 8, hm, 1);
	/* v4l2_format's fmt.meta grows inside the 16-byte union; meta2 is also pointed to. */
	struct kd_member mm[] = {
		{ .name = "a", .type = u32, .offset = 0 }, { .name = "b", .type = u32, .offset = 4 },
		{ .name = "w", .type = u32, .offset = 8 },
	};
	int64_t meta = agg(k, KD_KIND_STRUCT, "meta", n ? 12 : 8, 4, mm, n ? 3 : 2);
	int64_t meta2 = agg(k, KD_KIND_STRUCT, "meta2", n ? 12 : 8, 4, mm, n ? 3 : 2);
	struct kd_member um[] = {
		{ .name = "m", .type = meta, .offset = 0 }, { .name = "m2", .type = meta2, .offset = 0 },
		{ .name = "raw", .type = arr(k, u8, 16), .offset = 0 },
	};
	int64_t fmtu = agg(k, KD_KIND_UNION, NULL, 16, 4, um, 3);
	struct kd_member fm[] = {
		{ .name = "type", .type = u32, .offset = 0 }, { .name = "fmt", .type = fmtu, .offset = 4 },
	};
	int64_t vfmt = agg(k, KD_KIND_STRUCT, "vfmt", 20, 4, fm, 2);
	/* btrfs_ioctl_search_args_v2.buf: __u64[] -> __u8[]. */
	struct kd_member flm[] = {
		{ .name = "size", .type = u64, .offset = 0 },
		{ .name = "buf", .type = arr(k, n ? u8 : u64, KD_ARRAY_FLEXIBLE), .offset = 8 },
	};
	int64_t flex = agg(k, KD_KIND_STRUCT, "flex", 8, 8, flm, 2);
	/* sed-opal's __align carved. */
	struct kd_member oo[] = {
		{ .name = "a", .type = u8, .offset = 0 }, { .name = "__align", .type = arr(k, u8, 7), .offset = 1 },
	};
	struct kd_member on[] = {
		{ .name = "a", .type = u8, .offset = 0 }, { .name = "k", .type = u8, .offset = 1 },
		{ .name = "__align", .type = arr(k, u8, 6), .offset = 2 },
	};
	int64_t opal = agg(k, KD_KIND_STRUCT, "opal", 8, 1, n ? on : oo, n ? 3 : 2);

	sys(k, 0, "sgn", l64, 1, "p", ptr(k, sgn));
	sys(k, 1, "wrap", l64, 1, "p", ptr(k, wrap));
	sys(k, 2, "xen", l64, 1, "p", ptr(k, xen));
	sys(k, 3, "vfmt", l64, 1, "p", ptr(k, vfmt));
	sys(k, 4, "meta2", l64, 1, "p", ptr(k, meta2));
	sys(k, 5, "flex", l64, 1, "p", ptr(k, flex));
	sys(k, 6, "opal", l64, 1, "p", ptr(k, opal));
}

static void test_bytes(void)
{
	struct diff_result *r = pair("bytes", build_bytes, NULL);

	check(r, "type.member.type", "struct sgn.min", "integer-signedness", "unsigned int", "int", NULL);
	check(r, "type.member.type", "struct sgn.v", "integer-signedness", "unsigned int[4]", "int[4]",
	      NULL);
	check(r, "type.member.type", "struct sgn.wide", "member-type", "unsigned int",
	      "long long unsigned int", NULL);
	check(r, "type.member.type", "struct wrap.uuid", "type-wrapped", "struct guid", "unsigned char[16]",
	      NULL);
	check(r, "type.member.type", "struct wrap.back", "type-wrapped", "unsigned char[16]", "struct guid",
	      NULL);
	check(r, "type.kind", "struct xen.si", "type-kind-layout", "struct", "union", NULL);
	check(r, "type.member.added", "struct xen.si.hva", "member-added-alias", NULL,
	      "long long unsigned int hva at 0", NULL);
	check(r, "type.size", "struct meta", "tail-growth-union", "8", "12", NULL);
	check(r, "type.member.added", "struct meta.w", "tail-growth-union", NULL, "unsigned int w at 8",
	      NULL);
	check(r, "type.size", "struct meta2", "tail-growth-uncontracted", "8", "12", NULL);
	check(r, "type.array.flexible", "struct flex.buf", "array-flexible-element",
	      "long long unsigned int[]", "unsigned char[]", NULL);
	/* __align's remainder stays padding; k gives some of its bytes a meaning (test_padding_names). */
	check(r, "type.member.offset", "struct opal.__align", "reserved-carved", "1", "2", NULL);
	check(r, "type.member.added", "struct opal.k", "padding-member-reuse-uncontracted", NULL,
	      "unsigned char k at 1", NULL);
	check(r, "type.array.bound", "struct opal.__align", "reserved-reuse", "unsigned char[7]",
	      "unsigned char[6]", NULL);
	count_is(r, 15, "bytes: nothing else");
	is_int(r ? (long)diff_result__count(r, DIFF__NR_CATEGORIES, DIFF_BREAKING) : -1, 4,
	       "bytes: breaking: sgn.wide, meta2 (also reached by a pointer) and its member, opal.k");
	diff_result__free(r);
}

/* --- what a name says: reserved space, or padding only ---------------------- */

/*
 * sed-opal's opal_key (6.6): key_type carved from __u8 __align[6], which
 * 6.12's opal_get_key() refuses non-zero and 6.1 never looked at; the same
 * carving of a member named rsvd; a pad renamed flags (drm_msm_wait_fence),
 * another renamed reserved2, a third renamed out_len.
 */
static void build_names(struct kb *k)
{
	int64_t u8 = base(k, "unsigned char", 1), u32 = base(k, "unsigned int", 4);
	int64_t l64 = base(k, "long int", 8);
	bool n = k->is_new;
	struct kd_member ko[] = {
		{ .name = "lr", .type = u8, .offset = 0 }, { .name = "key_len", .type = u8, .offset = 1 },
		{ .name = "__align", .type = arr(k, u8, 6), .offset = 2 },
	};
	struct kd_member kn[] = {
		{ .name = "lr", .type = u8, .offset = 0 }, { .name = "key_len", .type = u8, .offset = 1 },
		{ .name = "key_type", .type = u8, .offset = 2 },
		{ .name = "__align", .type = arr(k, u8, 5), .offset = 3 },
	};
	int64_t key = agg(k, KD_KIND_STRUCT, "key", 8, 1, n ? kn : ko, n ? 4 : 3);
	struct kd_member ro[] = {
		{ .name = "lr", .type = u8, .offset = 0 }, { .name = "rsvd", .type = arr(k, u8, 7), .offset = 1 },
	};
	struct kd_member rn[] = {
		{ .name = "lr", .type = u8, .offset = 0 }, { .name = "mode", .type = u8, .offset = 1 },
		{ .name = "rsvd", .type = arr(k, u8, 6), .offset = 2 },
	};
	int64_t rsv = agg(k, KD_KIND_STRUCT, "rsv", 8, 1, n ? rn : ro, 2 + n);
	struct kd_member fm[] = {
		{ .name = "fence", .type = u32, .offset = 0 }, { .name = n ? "flags" : "pad", .type = u32, .offset = 4 },
		{ .name = n ? "reserved2" : "pad2", .type = u32, .offset = 8 },
		{ .name = n ? "out_len" : "pad3", .type = u32, .offset = 12 },
	};
	int64_t fence = agg(k, KD_KIND_STRUCT, "fence", 16, 4, fm, 4);

	sys(k, 0, "key", l64, 1, "k", ptr(k, key));
	sys(k, 1, "rsv", l64, 1, "r", ptr(k, rsv));
	sys(k, 2, "fence", l64, 1, "f", ptr(k, fence));
}

/* A contract that says key.__align is reserved (zero-checked) and fence.out_len output-only. */
static bool names_reserved(void *ctx, const char *name, const char *member, struct diff_where *where)
{
	(void)ctx;
	if (where)
		*where = (struct diff_where){ "test.kabispec", 7 };
	return !strcmp(name, "key") && member && !strcmp(member, "__align");
}

static bool names_out(void *ctx, const char *name, const char *member, struct diff_where *where)
{
	(void)ctx;
	if (where)
		*where = (struct diff_where){ "test.kabispec", 8 };
	return !strcmp(name, "fence") && member && !strcmp(member, "out_len");
}

static void test_padding_names(void)
{
	static const struct diff_contract c = {
		.is_reserved = names_reserved, .is_out = names_out, .source = "test",
	};
	struct diff_result *r = pair("names", build_names, NULL);
	const struct diff_change *kt = r ? diff_result__find(r, "type.member.added",
							     "struct key.key_type") : NULL;

	/* A name that says padding promises nothing: as unnamed padding, potentially breaking. */
	check(r, "type.member.added", "struct key.key_type", "padding-member-reuse-uncontracted", NULL,
	      "unsigned char key_type at 2", NULL);
	ok(kt && kt->rule->verdict == DIFF_BREAKING && kt->rule->uncontracted,
	   "key_type: breaking for want of a contract ('potentially breaking')");
	evidence_is(r, "type.member.added", "struct key.key_type", DIFF_EV_CONVENTION,
		    "the name __align says padding, which promises nothing about its value, by the naming"
		    " convention only: no contract line or kernel fact says the kernel zero-checks or"
		    " ignores struct key.__align");
	check(r, "type.member.offset", "struct key.__align", "reserved-carved", "2", "3", NULL);
	check(r, "type.array.bound", "struct key.__align", "reserved-reuse", "unsigned char[6]",
	      "unsigned char[5]", NULL);
	/* A name that says reserved space: compatible, and the evidence says how weak it is. */
	check(r, "type.member.added", "struct rsv.mode", "reserved-reuse", NULL, "unsigned char mode at 1",
	      NULL);
	evidence_is(r, "type.member.added", "struct rsv.mode", DIFF_EV_CONVENTION,
		    "the name rsvd says reserved space, by the naming convention only: no contract line"
		    " or kernel fact says the kernel zero-checks or ignores struct rsv.rsvd");
	/* Renamed: a meaning (flags) is padding reused; another padding name (reserved2) is not. */
	check(r, "type.member.renamed", "struct fence.pad", "padding-member-reuse-uncontracted", "pad",
	      "flags", NULL);
	check(r, "type.member.renamed", "struct fence.pad2", "reserved-reuse", "pad2", "reserved2", NULL);
	check(r, "type.member.renamed", "struct fence.pad3", "padding-member-reuse-uncontracted", "pad3",
	      "out_len", NULL);
	pair_done(r, 9, "names: nothing else", 12, "names: exit 4|8");

	/* The contract decides where it says something. */
	r = pair("names-contract", build_names, &(struct diff_conf){ .contract = &c });
	check(r, "type.member.added", "struct key.key_type", "reserved-reuse", NULL,
	      "unsigned char key_type at 2", NULL);
	evidence_is(r, "type.member.added", "struct key.key_type", DIFF_EV_CONTRACT,
		    "test.kabispec:7: struct key.__align is reserved");
	check(r, "type.member.renamed", "struct fence.pad3", "padding-reuse-out", "pad3", "out_len", NULL);
	evidence_is(r, "type.member.renamed", "struct fence.pad3", DIFF_EV_CONTRACT,
		    "test.kabispec:8: struct fence.out_len is output-only (out): the kernel writes it");
	check(r, "type.member.renamed", "struct fence.pad", "padding-member-reuse-uncontracted", "pad",
	      "flags", NULL);
	pair_done(r, 9, "names-contract: nothing else", 12, "names-contract: exit 4|8 (fence.flags)");
}

int main(void)
{
	test_space();
	test_bytes();
	test_padding_names();
	return tap_done();
}

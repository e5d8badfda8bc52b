// SPDX-License-Identifier: GPL-2.0-only
/*
 * diff/: pairs of small kernels (built by tests/diff-fixture.h), one pair
 * per change kind, each checked for its exact kind, subject, old and new
 * values, rule id (hence verdict), impact paths and exit bits; with and
 * without a contract; suppressions (matching, counting, file errors); the
 * three report formats; and RULES.md listing every rule of the code.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/kdb.h"
#include "db/kdb-uapi.h"
#include "diff/diff.h"
#include "diff/changes.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/usage.h"
#include "tests/tap.h"
#include "tests/diff-fixture.h"
#include "tests/doc-table.h"

/* --- syscalls ------------------------------------------------------------ */

static void build_syscalls(struct kb *k)
{
	int64_t i32 = base(k, "int", 4), l64 = base(k, "long int", 8);
	int64_t s32 = tdef(k, "__s32", i32);

	sys(k, 0, "read", l64, 2, "fd", i32, "count", l64);
	sys(k, 1, "write", l64, 1, k->is_new ? "fd2" : "fd", k->is_new ? s32 : i32);
	sys(k, k->is_new ? 9 : 2, "moved", l64, 0);
	sys(k, 3, "grown", l64, k->is_new ? 2 : 1, "a", i32, "b", i32);
	sys(k, 4, "widened", k->is_new ? i32 : l64, 1, "x", k->is_new ? l64 : i32);
	sys(k, 5, k->is_new ? "fresh" : "gone", l64, 0);
}

static void test_syscalls(void)
{
	struct diff_result *r = pair("syscalls", build_syscalls, NULL);

	check(r, "syscall.added", "fresh (x64)", "syscall-added", NULL, "5", "fresh");
	check(r, "syscall.removed", "gone (x64)", "syscall-removed", "5", NULL, "gone");
	check(r, "syscall.renumbered", "moved (x64)", "syscall-renumbered", "2", "9", "moved");
	check(r, "syscall.param.count", "grown()", "syscall-params-count", "1", "2", "grown");
	check(r, "syscall.param.type", "widened(x)", "syscall-param-type", "int", "long int", "widened");
	check(r, "syscall.return.type", "widened() return", "syscall-param-type", "long int", "int", NULL);
	check(r, "syscall.param.type", "write(fd2)", "type-spelling", "int", "__s32", "write");
	check(r, "syscall.param.name", "write(fd2)", "syscall-param-renamed", "fd", "fd2", NULL);
	count_is(r, 8, "syscalls: nothing else (read is unchanged)");
	is_int(r ? diff_result__exit_bits(r) : -1, 12, "syscalls: exit bits 4|8");
	is_int(r ? diff_result__count(r, DIFF_CAT_SYSCALL, DIFF_BREAKING) : 0, 5, "5 breaking");
	is_int(r ? diff_result__count(r, DIFF_CAT_SYSCALL, DIFF_INFO) : 0, 2, "2 info");
	diff_result__free(r);
}

/* --- struct layouts -------------------------------------------------------- */

/* struct open_how-like tail growth, reached from two syscalls. */
static void build_tail(struct kb *k)
{
	int64_t u64 = base(k, "long long unsigned int", 8), l64 = base(k, "long int", 8);
	struct kd_member m[] = {
		{ .name = "flags", .type = u64, .offset = 0 },
		{ .name = "mode", .type = u64, .offset = 8 },
		{ .name = "resolve", .type = u64, .offset = 16 },
		{ .name = "newfield", .type = u64, .offset = 24 },
	};
	int64_t how = agg(k, KD_KIND_STRUCT, "open_how", k->is_new ? 32 : 24, 8, m, k->is_new ? 4 : 3);
	struct kd_member wm[] = { { .name = "how", .type = ptr(k, how), .offset = 0 } };
	int64_t wrap = agg(k, KD_KIND_STRUCT, "wrapper", 8, 8, wm, 1);

	sys(k, 0, "openat2", l64, 1, "how", ptr(k, how));
	sys(k, 1, "indirect", l64, 1, "w", ptr(k, wrap));
}

static bool says_extensible(void *ctx, const char *name, struct diff_where *where)
{
	(void)ctx;
	if (where)
		*where = (struct diff_where){ "test.kabispec", 1 };
	return !strcmp(name, "open_how");
}

static bool says_reserved(void *ctx, const char *name, const char *member,
			  struct diff_where *where)
{
	(void)ctx;
	if (where)
		*where = (struct diff_where){ "test.kabispec", 2 };
	return !strcmp(name, "padded") ? member == NULL :
	       !strcmp(name, "resv") && member && !strcmp(member, "__reserved");
}

static bool says_prefix(void *ctx, const char *name, struct diff_where *where)
{
	(void)ctx;
	if (where)
		*where = (struct diff_where){ "test.kabispec", 3 };
	return !strcmp(name, "open_how") || !strcmp(name, "leaf");
}

static const struct diff_contract says_prefix_only = {
	.is_prefix = says_prefix, .source = "test",
};

static const struct diff_contract contract = {
	.is_extensible = says_extensible, .is_reserved = says_reserved, .source = "test",
};

/*
 * struct ev { enum what what; } -> enum proc_cn_event what: the old values
 * kept and one added (renamed: source); struct ev2's enum renamed with a
 * value changed (breaking, as any other member type).
 */
static void build_enum_renamed(struct kb *k)
{
	int64_t l64 = base(k, "long int", 8);
	struct kd_enumerator eo[] = { { "EV_NONE", 0 }, { "EV_FORK", 1 } };
	struct kd_enumerator en[] = { { "EV_NONE", 0 }, { "EV_FORK", 1 }, { "EV_EXIT_NZ", 2 } };
	struct kd_enumerator e2[] = { { "EV_NONE", 0 }, { "EV_FORK", 4 } };
	int64_t ea = enm(k, k->is_new ? "proc_cn_event" : "what", k->is_new ? en : eo,
			 k->is_new ? 3 : 2);
	int64_t eb = k->is_new ? enm(k, "proc_cn_event2", e2, 2) : ea;
	struct kd_member m[] = { { .name = "what", .type = ea, .offset = 0 } };
	struct kd_member m2[] = { { .name = "what", .type = eb, .offset = 0 } };
	int64_t ev = agg(k, KD_KIND_STRUCT, "ev", 4, 4, m, 1);
	int64_t ev2 = agg(k, KD_KIND_STRUCT, "ev2", 4, 4, m2, 1);

	sys(k, 0, "evget", l64, 1, "ev", ptr(k, ev));
	sys(k, 1, "evget2", l64, 1, "ev", ptr(k, ev2));
}

static void test_enum_renamed(void)
{
	struct diff_result *r = pair("enum-renamed", build_enum_renamed, NULL);

	check(r, "type.member.type", "struct ev.what", "enum-renamed", "enum what",
	      "enum proc_cn_event", "evget -> ev -> struct ev");
	check(r, "type.member.type", "struct ev2.what", "member-type", "enum what",
	      "enum proc_cn_event2", "evget2 -> ev -> struct ev2");
	pair_done(r, 2, "enum renamed: two changes", 28, "one breaking, one source: exit 28");
}

static void test_tail_growth(void)
{
	struct diff_conf with = { .contract = &contract }, prefix = { .contract = &says_prefix_only };
	struct diff_result *r = pair("tail", build_tail, NULL);
	const struct diff_change *c;

	check(r, "type.size", "struct open_how", "tail-growth-uncontracted", "24", "32",
	      "indirect -> w -> struct wrapper -> how -> struct open_how");
	check(r, "type.member.added", "struct open_how.newfield", "tail-growth-uncontracted",
	      NULL, "long long unsigned int newfield at 24", NULL);
	c = r ? diff_result__find(r, "type.size", "struct open_how") : NULL;
	is_int(c ? c->nr_impacts : 0, 2, "open_how reached from two syscalls");
	if (c && c->nr_impacts == 2) {
		is_str(c->impacts[1].root, "openat2", "second root");
		is_str(c->impacts[1].path, "openat2 -> how -> struct open_how", "its path");
	}
	ok(c && c->rule->verdict == DIFF_BREAKING && c->rule->uncontracted,
	   "without a contract: potentially breaking");
	pair_done(r, 2, "tail: two changes", 12, "tail, no contract: exit 12");

	r = pair("tail-contract", build_tail, &with);
	check(r, "type.size", "struct open_how", "tail-growth-extensible", "24", "32", NULL);
	check(r, "type.member.added", "struct open_how.newfield", "tail-growth-extensible",
	      NULL, "long long unsigned int newfield at 24", NULL);
	is_int(r ? diff_result__exit_bits(r) : -1, 4, "tail, extensible by contract: exit 4");
	ok(r && diff_result__has_contract(r), "the result knows a contract was used");
	diff_result__free(r);

	/* prefix: copied no further than the caller's length (getsockopt, bpf info, udata) */
	r = pair("tail-prefix", build_tail, &prefix);
	check(r, "type.size", "struct open_how", "tail-growth-prefix", "24", "32", NULL);
	check(r, "type.member.added", "struct open_how.newfield", "tail-growth-prefix",
	      NULL, "long long unsigned int newfield at 24", NULL);
	c = r ? diff_result__find(r, "type.size", "struct open_how") : NULL;
	is_str(c ? c->evidence : "", "test.kabispec:3: struct open_how is prefix: copied no further"
	       " than the caller's length", "the evidence names the contract's line");
	is_int(r ? diff_result__exit_bits(r) : -1, 4, "tail, prefix by contract: exit 4");
	diff_result__free(r);
}

static void build_members(struct kb *k)
{
	int64_t u32 = base(k, "unsigned int", 4), u16 = base(k, "short unsigned int", 2);
	int64_t l64 = base(k, "long int", 8), u8 = base(k, "unsigned char", 1);
	bool n = k->is_new;
	/* old: { u32 a; u32 b; u32 gone; u32 w:4, x:3; u16 tag; u8 arr[4]; u8 flex[0]; }
	 * new: { u32 a; u32 renamed_b; u16 gone2; u32 w:5, x:3; u32 tag; u8 arr[8]; u8 flex[]; } */
	struct kd_member mo[] = {
		{ .name = "a", .type = u32, .offset = 0 },
		{ .name = "b", .type = u32, .offset = 4 },
		{ .name = "gone", .type = u32, .offset = 8 },
		{ .name = "w", .type = u32, .offset = 12, .bit_offset = 0, .bit_size = 4 },
		{ .name = "x", .type = u32, .offset = 12, .bit_offset = 4, .bit_size = 3 },
		{ .name = "tag", .type = u16, .offset = 16 },
		{ .name = "arr", .type = arr(k, u8, 4), .offset = 18 },
		{ .name = "flex", .type = arr(k, u8, n ? KD_ARRAY_FLEXIBLE : 0), .offset = 22 },
	};
	struct kd_member mn[] = {
		{ .name = "a", .type = u32, .offset = 0 },
		{ .name = "renamed_b", .type = u32, .offset = 4 },
		{ .name = "w", .type = u32, .offset = 12, .bit_offset = 0, .bit_size = 5 },
		{ .name = "x", .type = u32, .offset = 12, .bit_offset = 5, .bit_size = 3 },
		{ .name = "tag", .type = u32, .offset = 16 },
		{ .name = "arr", .type = arr(k, u8, 8), .offset = 20 },
		{ .name = "flex", .type = mo[7].type, .offset = 28 },
	};
	int64_t s = n ? agg(k, KD_KIND_STRUCT, "ms", 28, 4, mn, NM(mn)) :
		       agg(k, KD_KIND_STRUCT, "ms", 24, 4, mo, NM(mo));

	sys(k, 0, "msys", l64, 1, "arg", ptr(k, s));
}

static void test_members(void)
{
	struct diff_result *r = pair("members", build_members, NULL);
	const char *p = "msys -> arg -> struct ms";

	check(r, "type.member.renamed", "struct ms.b", "member-renamed", "b", "renamed_b", p);
	check(r, "type.member.removed", "struct ms.gone", "member-removed", "unsigned int gone at 8", NULL, p);
	check(r, "type.member.bitfield", "struct ms.w", "member-bitfield", "bit 96, width 4",
	      "bit 96, width 5", p);
	check(r, "type.member.bitfield", "struct ms.x", "member-bitfield", "bit 100, width 3",
	      "bit 101, width 3", p);
	check(r, "type.member.type", "struct ms.tag", "member-type", "short unsigned int", "unsigned int", p);
	check(r, "type.member.offset", "struct ms.arr", "member-moved", "18", "20", p);
	check(r, "type.array.bound", "struct ms.arr", "array-bound", "unsigned char[4]",
	      "unsigned char[8]", p);
	check(r, "type.array.flexible", "struct ms.flex", "array-flexible-spelling", "unsigned char[0]",
	      "unsigned char[]", p);
	check(r, "type.member.offset", "struct ms.flex", "member-moved", "22", "28", p);
	check(r, "type.size", "struct ms", "type-size", "24", "28", p);
	count_is(r, 10, "members: nothing else");
	diff_result__free(r);
}

/* A member moved into an anonymous union at the same offset: no change. */
static void build_anon(struct kb *k)
{
	int64_t u64 = base(k, "long long unsigned int", 8), u32 = base(k, "unsigned int", 4);
	int64_t l64 = base(k, "long int", 8);
	struct kd_member inner[] = {
		{ .name = "lo", .type = u32, .offset = 0 }, { .name = "hi", .type = u32, .offset = 4 },
	};
	int64_t lohi = agg(k, KD_KIND_STRUCT, NULL, 8, 4, inner, 2);
	struct kd_member um[] = {
		{ .name = "ino", .type = u64, .offset = 0 }, { .name = NULL, .type = lohi, .offset = 0 },
	};
	int64_t un = agg(k, KD_KIND_UNION, NULL, 8, 8, um, 2);
	struct kd_member mo[] = {
		{ .name = "mask", .type = u64, .offset = 0 }, { .name = "ino", .type = u64, .offset = 8 },
	};
	struct kd_member mn[] = {
		{ .name = "mask", .type = u64, .offset = 0 }, { .name = NULL, .type = un, .offset = 8 },
	};
	int64_t s = agg(k, KD_KIND_STRUCT, "st", 16, 8, k->is_new ? mn : mo, 2);

	sys(k, 0, "stat", l64, 1, "st", ptr(k, s));
}

static void test_anonymous_union(void)
{
	struct diff_result *r = pair("anon", build_anon, NULL);

	ok(r && !diff_result__find(r, "type.member.removed", "struct st.ino") &&
	   !diff_result__find(r, "type.member.offset", "struct st.ino") &&
	   !diff_result__find(r, "type.member.added", "struct st.ino"),
	   "ino moved into an anonymous union at the same offset: no change");
	check(r, "type.member.added", "struct st.lo", "member-added-alias", NULL,
	      "unsigned int lo at 8", "stat -> st -> struct st");
	check(r, "type.member.added", "struct st.hi", "member-added-alias", NULL,
	      "unsigned int hi at 12", NULL);
	pair_done(r, 2, "anon: only the two aliases", 4, "anon: compatible only, exit 4");
}

/* Padding reuse, reserved reuse, struct -> union, enums, a changed pointee behind an unchanged struct. */
static void build_misc(struct kb *k)
{
	int64_t u32 = base(k, "unsigned int", 4), u64 = base(k, "long long unsigned int", 8);
	int64_t l64 = base(k, "long int", 8);
	bool n = k->is_new;
	struct kd_member pm[] = {
		{ .name = "a", .type = u32, .offset = 0 }, { .name = "b", .type = u64, .offset = 8 },
		{ .name = "c", .type = u32, .offset = 4 },
	};
	int64_t padded = agg(k, KD_KIND_STRUCT, "padded", 16, 8, pm, n ? 3 : 2);
	struct kd_member ro[] = {
		{ .name = "flags", .type = u64, .offset = 0 },
		{ .name = "__reserved", .type = arr(k, u64, 2), .offset = 8 },
	};
	struct kd_member rn[] = {
		{ .name = "flags", .type = u64, .offset = 0 }, { .name = "newf", .type = u64, .offset = 8 },
		{ .name = "__reserved", .type = arr(k, u64, 1), .offset = 16 },
	};
	int64_t resv = agg(k, KD_KIND_STRUCT, "resv", 24, 8, n ? rn : ro, n ? 3 : 2);
	/* The same carving of a member whose name says nothing: breaking. */
	struct kd_member fo[] = {
		{ .name = "flags", .type = u64, .offset = 0 },
		{ .name = "room", .type = arr(k, u64, 2), .offset = 8 },
	};
	struct kd_member fn[] = {
		{ .name = "flags", .type = u64, .offset = 0 }, { .name = "newf", .type = u64, .offset = 8 },
		{ .name = "room", .type = arr(k, u64, 1), .offset = 16 },
	};
	int64_t room = agg(k, KD_KIND_STRUCT, "room", 24, 8, n ? fn : fo, n ? 3 : 2);
	struct kd_member km[] = {
		{ .name = "i", .type = u32, .offset = 0 }, { .name = "j", .type = u32, .offset = n ? 0 : 4 },
	};
	int64_t kinded = agg(k, n ? KD_KIND_UNION : KD_KIND_STRUCT, "kinded", n ? 4 : 8, 4, km, 2);
	struct kd_enumerator eo[] = { { "E_A", 0 }, { "E_B", 1 }, { "E_C", 2 } };
	struct kd_enumerator en[] = { { "E_A", 0 }, { "E_B", 5 }, { "E_D", 3 } };
	int64_t e = enm(k, "mode", n ? en : eo, 3);
	struct kd_member leaf_m[] = { { .name = "v", .type = n ? u64 : u32, .offset = 0 } };
	int64_t leaf = agg(k, KD_KIND_STRUCT, "leaf", n ? 8 : 4, n ? 8 : 4, leaf_m, 1);
	struct kd_member hm[] = {
		{ .name = "p", .type = ptr(k, leaf), .offset = 0 }, { .name = "m", .type = e, .offset = 8 },
	};
	int64_t holder = agg(k, KD_KIND_STRUCT, "holder", 16, 8, hm, 2);

	sys(k, 0, "pad", l64, 1, "p", ptr(k, padded));
	sys(k, 1, "res", l64, 1, "r", ptr(k, resv));
	sys(k, 4, "room", l64, 1, "r", ptr(k, room));
	sys(k, 2, "kind", l64, 1, "k", ptr(k, kinded));
	sys(k, 3, "hold", l64, 1, "h", ptr(k, holder));
}

static void test_misc(void)
{
	struct diff_conf with = { .contract = &contract }, prefix = { .contract = &says_prefix_only };
	struct diff_result *r = pair("misc", build_misc, NULL);

	check(r, "type.member.added", "struct padded.c", "padding-reuse-uncontracted", NULL,
	      "unsigned int c at 4", "pad -> p -> struct padded");
	/* __reserved says reserved space by its name: carving it is compatible (convention). */
	check(r, "type.member.added", "struct resv.newf", "reserved-reuse", NULL,
	      "long long unsigned int newf at 8", NULL);
	check(r, "type.array.bound", "struct resv.__reserved", "reserved-reuse",
	      "long long unsigned int[2]", "long long unsigned int[1]", NULL);
	check(r, "type.member.offset", "struct resv.__reserved", "reserved-carved", "8", "16", NULL);
	evidence_is(r, "type.member.offset", "struct resv.__reserved", DIFF_EV_CONVENTION,
		    "the name __reserved says reserved space, by the naming convention only: no"
		    " contract line or kernel fact says the kernel zero-checks or ignores"
		    " struct resv.__reserved");
	evidence_is(r, "type.member.added", "struct resv.newf", DIFF_EV_CONVENTION,
		    "the name __reserved says reserved space, by the naming convention only: no"
		    " contract line or kernel fact says the kernel zero-checks or ignores"
		    " struct resv.__reserved");
	/* room says nothing: the same carving breaks. */
	check(r, "type.member.added", "struct room.newf", "member-added", NULL,
	      "long long unsigned int newf at 8", NULL);
	check(r, "type.array.bound", "struct room.room", "array-bound",
	      "long long unsigned int[2]", "long long unsigned int[1]", NULL);
	check(r, "type.member.offset", "struct room.room", "member-moved", "8", "16", NULL);
	check(r, "type.kind", "struct kinded", "type-kind", "struct", "union", "kind -> k -> struct kinded");
	check(r, "type.enumerator.value", "enum mode.E_B", "enumerator-value", "1", "5",
	      "hold -> h -> struct holder -> m -> enum mode");
	check(r, "type.enumerator.removed", "enum mode.E_C", "enumerator-removed", "2", NULL, NULL);
	check(r, "type.enumerator.added", "enum mode.E_D", "enumerator-added", NULL, "3", NULL);
	/* struct holder's own layout (and hash) is unchanged: its pointee is still followed. */
	check(r, "type.member.type", "struct leaf.v", "member-type", "unsigned int",
	      "long long unsigned int", "hold -> h -> struct holder -> p -> struct leaf");
	check(r, "type.size", "struct leaf", "type-size", "4", "8", NULL);
	check(r, "type.align", "struct leaf", "type-align-unembedded", "4", "8", NULL);
	ok(r && !diff_result__find(r, "type.size", "struct holder"), "struct holder itself unchanged");
	diff_result__free(r);

	r = pair("misc-contract", build_misc, &with);
	check(r, "type.member.added", "struct padded.c", "padding-reuse", NULL, "unsigned int c at 4", NULL);
	check(r, "type.member.added", "struct resv.newf", "reserved-reuse", NULL,
	      "long long unsigned int newf at 8", NULL);
	check(r, "type.array.bound", "struct resv.__reserved", "reserved-reuse",
	      "long long unsigned int[2]", "long long unsigned int[1]", NULL);
	check(r, "type.member.offset", "struct resv.__reserved", "reserved-carved", "8", "16", NULL);
	evidence_is(r, "type.member.offset", "struct resv.__reserved", DIFF_EV_CONTRACT,
		    "test.kabispec:2: struct resv.__reserved is reserved");
	evidence_is(r, "type.array.bound", "struct resv.__reserved", DIFF_EV_CONTRACT,
		    "test.kabispec:2: struct resv.__reserved is reserved");
	diff_result__free(r);

	/* leaf copied by the caller's length: its alignment is no placement the kernel makes */
	r = pair("misc-prefix", build_misc, &prefix);
	check(r, "type.align", "struct leaf", "type-align-prefix", "4", "8", NULL);
	evidence_is(r, "type.align", "struct leaf", DIFF_EV_CONTRACT,
		    "test.kabispec:3: struct leaf is prefix: copied no further than the caller's length");
	check(r, "type.size", "struct leaf", "type-size", "4", "8", NULL);
	diff_result__free(r);
}

/* --- constants and ioctls ----------------------------------------------- */

static void build_uapi(struct kb *k)
{
	int64_t u64 = base(k, "long long unsigned int", 8), l64 = base(k, "long int", 8);
	struct kd_member am[] = {
		{ .name = "x", .type = u64, .offset = 0 }, { .name = "y", .type = u64, .offset = 8 },
	};
	int64_t argt = agg(k, KD_KIND_STRUCT, "io_arg", k->is_new ? 16 : 8, 8, am, k->is_new ? 2 : 1);
	struct kd_constant c[] = {
		{ .name = "C_SAME", .value = 1, .ctype = "int" },
		{ .name = "C_VAL", .value = k->is_new ? 8 : 4, .ctype = "int", .expr = k->is_new ? "(1<<3)" : "(1<<2)" },
		{ .name = k->is_new ? "C_NEW" : "C_OLD", .value = 7, .ctype = "unsigned int" },
	};
	struct kd_ioctl io[] = {
		{ .name = "IO_SAME", .dir = "none", .type_char = 'f', .nr = 1, .has_cmd = true, .cmd = 0x6601 },
		{ .name = "IO_GROW", .dir = "w", .type_char = 'f', .nr = 2, .arg_type_text = "struct io_arg",
		  .arg_type = argt, .has_size = true, .size = k->is_new ? 16 : 8, .size_trusted = true,
		  .has_cmd = true, .cmd = k->is_new ? 0x40106602 : 0x40086602 },
		{ .name = k->is_new ? "IO_NEW" : "IO_OLD", .dir = "none", .type_char = 'f', .nr = 3,
		  .has_cmd = true, .cmd = 0x6603 },
	};

	sys(k, 0, "ioctl", l64, 0);
	if (!k->err)
		k->err = kdb__put_constants(k->db, c, NM(c));
	if (!k->err)
		k->err = kdb__put_ioctls(k->db, io, NM(io));
}

/*
 * Removed __NR_ constants read against the syscall tables (diff-nr.c):
 * old 0 read, 1 write, 2 dcookie, 3 -, 4 newfstatat; new 0 read,
 * 1 pwrite, 2 -, 3 -, 4 newfstatat; the new headers have no __NR_.
 */
static void build_nr(struct kb *k)
{
	int64_t l64 = base(k, "long int", 8);
	struct kd_constant c[] = {
		{ .name = "__NR_read", .value = 0, .ctype = "int" },
		{ .name = "__NR_write", .value = 1, .ctype = "int" },
		{ .name = "__NR_dcookie", .value = 2, .ctype = "int" },
		{ .name = "__NR_nfsservctl", .value = 3, .ctype = "int" },
		{ .name = "__NR3264_fstatat", .value = 4, .ctype = "int" },
		{ .name = "__NR_syscalls", .value = 5, .ctype = "int" },
		{ .name = "NR_LOOKALIKE", .value = 0, .ctype = "int" },
	};
	int i;

	sys(k, 0, "read", l64, 0);
	sys(k, 1, k->is_new ? "pwrite" : "write", l64, 0);
	if (!k->is_new)
		sys(k, 2, "dcookie", l64, 0);
	for (i = k->is_new ? 2 : 3; i <= 3; i++)
		if (!k->err)
			k->err = kdb__put_syscall(k->db, &(struct kd_syscall){ .abi = "x64", .nr = i });
	sys(k, 4, "newfstatat", l64, 0);
	if (!k->err && !k->is_new)
		k->err = kdb__put_constants(k->db, c, NM(c));
}

static void test_nr(void)
{
	struct diff_result *r = pair("nr", build_nr, NULL);
	const struct diff_change *c;

	check(r, "constant.removed", "__NR_read", "syscall-number-kept", "0", NULL, NULL);
	c = r ? diff_result__find(r, "constant.removed", "__NR_read") : NULL;
	ok(c && c->evidence_kind == DIFF_EV_KERNEL &&
	   !strcmp(c->evidence, "the new kernel's x64 table has read at 0"),
	   "kept: the table is the evidence (%s)", c ? c->evidence : "-");
	check(r, "constant.removed", "__NR_write", "constant-removed", "1", NULL, NULL);
	check(r, "constant.removed", "__NR_dcookie", "constant-removed", "2", NULL, NULL);
	check(r, "constant.removed", "__NR_nfsservctl", "syscall-number-unserved", "3", NULL, NULL);
	c = r ? diff_result__find(r, "constant.removed", "__NR_nfsservctl") : NULL;
	is_str(c ? c->evidence : NULL, "neither kernel's x64 table serves 3", "unserved: evidence");
	check(r, "constant.removed", "__NR3264_fstatat", "syscall-number-kept", "4", NULL, NULL);
	c = r ? diff_result__find(r, "constant.removed", "__NR3264_fstatat") : NULL;
	is_str(c ? c->evidence : NULL, "the new kernel's x64 table has newfstatat at 4",
	       "asm-generic's __NR3264_ names the 64-bit call's slot");
	check(r, "constant.removed", "__NR_syscalls", "syscall-number-kept", "5", NULL, NULL);
	c = r ? diff_result__find(r, "constant.removed", "__NR_syscalls") : NULL;
	is_str(c ? c->evidence : NULL, "the new kernel's x64 table has 5 slots", "__NR_syscalls: the size");
	check(r, "constant.removed", "NR_LOOKALIKE", "constant-removed", "0", NULL, NULL);
	is_int(r ? diff_result__count(r, DIFF_CAT_CONSTANT, DIFF_SOURCE) : 0, 3,
	       "3 source-level: write (1 is pwrite now), dcookie (2 gone), NR_LOOKALIKE");
	is_int(r ? diff_result__count(r, DIFF_CAT_CONSTANT, DIFF_COMPATIBLE) : 0, 3, "3 compatible");
	diff_result__free(r);
}

/*
 * COND_SYSCALL stubs (kernel/sys_ni.c) in the table: a call the old kernel
 * compiled out and the new one implements (arm64's pkey_alloc in 6.12),
 * and the other way round, a call the new kernel compiled out.
 */
static void put_call(struct kb *k, int64_t nr, const char *name, bool stub, int nparams, int64_t type)
{
	struct kd_buf fn = KD_BUF_INIT;
	struct kd_syscall sc = { .abi = "x64", .nr = nr, .name = name, .implemented = true };
	int64_t fid = 0;
	int i;

	kd_buf_addf(&fn, "sys_%s", name);
	if (!k->err)
		k->err = kdb__put_function(k->db, fn.s, type, "dwarf", stub ? "kernel/sys_ni.c" : "mm/k.c",
					   stub ? 356 : 1, &fid);
	for (i = 0; i < nparams; i++)
		if (!k->err)
			k->err = kdb__put_param(k->db, fid, i, i ? "b" : "a", type, "?");
	sc.entry = fn.s;
	sc.func_id = fid;
	if (!k->err)
		k->err = kdb__put_syscall(k->db, &sc);
	kd_buf_release(&fn);
}

static void build_stub(struct kb *k)
{
	int64_t l64 = base(k, "long int", 8);

	put_call(k, 0, "pk_alloc", !k->is_new, k->is_new ? 2 : 0, l64);
	put_call(k, 1, "gone", k->is_new, k->is_new ? 0 : 1, l64);
	put_call(k, 2, "never", true, 0, l64);
}

static void test_stub(void)
{
	struct diff_result *r = pair("stub", build_stub, NULL);
	const struct diff_change *c;

	check(r, "syscall.param.count", "pk_alloc()", "syscall-implemented", "0", "2", NULL);
	c = r ? diff_result__find(r, "syscall.param.count", "pk_alloc()") : NULL;
	ok(c && c->evidence_kind == DIFF_EV_KERNEL && !strcmp(c->evidence,
	   "the old kernel's sys_pk_alloc is the stub at kernel/sys_ni.c:356 (COND_SYSCALL: returns -ENOSYS)"),
	   "implemented: the stub is the evidence (%s)", c ? c->evidence : "-");
	ok(r && !diff_result__find(r, "syscall.param.name", "pk_alloc(a)") &&
	   !diff_result__find(r, "syscall.param.type", "pk_alloc(a)"), "the stub's parameters are not compared");
	check(r, "syscall.param.count", "gone()", "syscall-compiled-out", "1", "0", NULL);
	c = r ? diff_result__find(r, "syscall.param.count", "gone()") : NULL;
	ok(c && c->evidence_kind == DIFF_EV_KERNEL && !strcmp(c->evidence,
	   "the new kernel's sys_gone is the stub at kernel/sys_ni.c:356 (COND_SYSCALL: returns -ENOSYS)"),
	   "compiled out: the new stub is the evidence (%s)", c ? c->evidence : "-");
	count_is(r, 2, "stubs: nothing else (both stubs: nothing)");
	diff_result__free(r);
}

static bool says_tolerant(void *ctx, const char *ioctl, int type, const char *header,
			  struct diff_where *where)
{
	(void)ctx;
	(void)ioctl;
	(void)header;
	if (where)
		*where = (struct diff_where){ "test.kabispec", 4 };
	return type == 'f';
}

static const struct diff_contract tolerant_contract = {
	.size_tolerant = says_tolerant, .source = "test",
};

static void test_uapi(void)
{
	struct diff_result *r = pair("uapi", build_uapi, NULL);
	const struct diff_change *c;

	check(r, "constant.value", "C_VAL", "constant-value", "4", "8", NULL);
	check(r, "constant.removed", "C_OLD", "constant-removed", "7", NULL, NULL);
	c = r ? diff_result__find(r, "constant.removed", "C_OLD") : NULL;
	is_str(c ? diff_verdict_name(c->rule->verdict) : NULL, "source", "C_OLD: source-level");
	check(r, "constant.added", "C_NEW", "constant-added", NULL, "7", NULL);
	check(r, "ioctl.cmd", "IO_GROW", "ioctl-cmd", "0x40086602", "0x40106602", "IO_GROW");
	c = r ? diff_result__find(r, "ioctl.cmd", "IO_GROW") : NULL;
	is_str(c ? c->note : NULL, "size 8 -> 16", "ioctl.cmd says why");
	check(r, "type.member.added", "struct io_arg.y", "tail-growth-uncontracted", NULL,
	      "long long unsigned int y at 8", "IO_GROW -> arg -> struct io_arg");
	check(r, "ioctl.removed", "IO_OLD", "ioctl-removed", "0x00006603", NULL, NULL);
	c = r ? diff_result__find(r, "ioctl.removed", "IO_OLD") : NULL;
	is_str(c ? c->evidence : NULL, "IO_OLD is in a header of the old headers only; the old kernel"
	       " was read without its modules, so whether its code served IO_OLD is not known"
	       " (extract it with --modules to decide)",
	       "IO_OLD removed, the old kernel read without modules: the evidence says so");
	check(r, "ioctl.added", "IO_NEW", "ioctl-added", NULL, "0x00006603", NULL);
	count_is(r, 8, "uapi: nothing else");
	is_int(r ? diff_result__count(r, DIFF_CAT_CONSTANT, DIFF_BREAKING) : 0, 1,
	       "1 breaking constant (C_VAL: a value)");
	is_int(r ? diff_result__count(r, DIFF_CAT_CONSTANT, DIFF_SOURCE) : 0, 1,
	       "1 source-level constant (C_OLD: removed, in no set of a contract)");
	is_int(r ? diff_result__exit_bits(r) : 0, 28, "exit bits: changes, breaking, source");
	is_int(r ? diff_result__count(r, DIFF_CAT_IOCTL, DIFF_COMPATIBLE) : 0, 1, "1 compatible ioctl");
	diff_result__free(r);

	/* The 'f' family is size tolerant: the command and its argument's growth are compatible. */
	r = pair("uapi-tolerant", build_uapi, &(struct diff_conf){ .contract = &tolerant_contract });
	check(r, "ioctl.cmd", "IO_GROW", "ioctl-size-tolerant", "0x40086602", "0x40106602", "IO_GROW");
	check(r, "type.member.added", "struct io_arg.y", "tail-growth-tolerant", NULL,
	      "long long unsigned int y at 8", "IO_GROW -> arg -> struct io_arg");
	check(r, "type.size", "struct io_arg", "tail-growth-tolerant", "8", "16", NULL);
	evidence_is(r, "type.size", "struct io_arg", DIFF_EV_CONTRACT,
		    "every ioctl that passes struct io_arg is of a family the contract calls size tolerant");
	diff_result__free(r);
}

static void build_same(struct kb *k)
{
	int64_t i32 = base(k, "int", 4);

	sys(k, 0, "same", i32, 1, "x", i32);
}

static void test_no_change(void)
{
	struct diff_result *r = pair("same", build_same, NULL);

	pair_done(r, 0, "identical kernels: no change", 0, "exit 0");
}

/* --- suppressions ------------------------------------------------------- */

static struct kd_buf log_buf = KD_BUF_INIT;

static void log_sink(enum kd_level level, const char *msg, void *ctx)
{
	(void)level;
	(void)ctx;
	kd_buf_addf(&log_buf, "%s; ", msg);
}

static void test_suppressions(void)
{
	char *good = tap_write_tmp("good.supp", "# reviewed\n\n"
				   "tail-growth-* struct\\ open_how  extensible since 5.6, see openat2(2)\n"
				   "syscall-removed gone   never shipped\n");
	char *noreason = tap_write_tmp("noreason.supp", "# ok\nsyscall-removed gone\n");
	char *badrule = tap_write_tmp("badrule.supp", "no-such-rule x  why\n");
	struct diff_suppressions *s = NULL;
	struct diff_result *r;

	kd_log_set_sink(log_sink, NULL);
	is_int(diff_suppressions__load(noreason, &s), -KD_ESYNTAX, "a missing reason is an error");
	ok(strstr(log_buf.s, "noreason.supp:2: ") != NULL, "  named FILE:LINE (%s)", log_buf.s);
	kd_buf_reset(&log_buf);
	is_int(diff_suppressions__load(badrule, &s), -KD_ESYNTAX, "an unknown rule is an error");
	ok(strstr(log_buf.s, "badrule.supp:1: unknown rule 'no-such-rule'") != NULL, "  named (%s)", log_buf.s);
	kd_log_set_sink(NULL, NULL);

	is_int(diff_suppressions__load(good, &s), 0, "load a good file");
	r = pair("supp", build_tail, NULL);
	if (r && s) {
		is_int(diff_result__suppress(r, s), 2, "both open_how changes suppressed");
		is_int(diff_result__count(r, DIFF__NR_CATEGORIES, DIFF_BREAKING), 0, "no breaking left");
		is_int(diff_result__count_suppressed(r, DIFF_CAT_TYPE), 2, "counted as suppressed");
		is_int(diff_result__exit_bits(r), 0, "suppressed changes do not set exit bits");
		is_str(diff_result__find(r, "type.size", "struct open_how")->suppressed,
		       "extensible since 5.6, see openat2(2)", "the reason is kept");
	}
	diff_result__free(r);
	r = pair("supp2", build_syscalls, NULL);
	if (r && s) {
		is_int(diff_result__suppress(r, s), 1, "syscall removal suppressed by name");
		is_int(diff_result__exit_bits(r), 12, "other breaking changes still count");
	}
	diff_result__free(r);
	diff_suppressions__free(s);
	free(good);
	free(noreason);
	free(badrule);
}

/* --- reports ------------------------------------------------------------ */

static char *render(const struct diff_result *r, enum report_format fmt, bool only)
{
	struct report_conf rc = { .format = fmt, .only_breaking = only };
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (!f)
		return NULL;
	if (report__fprintf(r, &rc, f))
		ok(0, "report__fprintf failed");
	fclose(f);
	return s;
}

static void test_reports(void)
{
	struct diff_result *r = pair("report", build_tail, NULL);
	char *text, *json, *md, *only, *full;

	if (!r)
		return;
	text = render(r, REPORT_TEXT, false);
	json = render(r, REPORT_JSON, false);
	md = render(r, REPORT_MD, false);
	only = render(r, REPORT_TEXT, true);
	ok(text && strstr(text, "types                2       0           0      0           0\n"),
	   "text: summary row for types (breaking, source, compatible, info, suppressed)");
	ok(text && strstr(text, "contract: none"), "text: says there was no contract");
	ok(text && strstr(text, "Breaking changes (2 in 1 finding):\n\n"
			  "  struct open_how (1 type.size, 1 type.member.added)\n"
			  "    type.size                struct open_how: 24 -> 32"
			  "  [tail-growth-uncontracted]\n"), "text: one finding per cause, old -> new, rule");
	ok(text && strstr(text, "potentially breaking: no contract says"), "text: potentially breaking");
	ok(text && strstr(text, "        evidence (layout): "), "text: evidence of each change");
	ok(text && strstr(text, "via indirect -> w -> struct wrapper -> how -> struct open_how\n"),
	   "text: impact path");
	ok(json && strstr(json, "\"schema\": \"kabi-diff-report\",\n  \"version\": 2,"), "json: schema v2");
	ok(json && strstr(json, "\n    {\"rule\": \"tail-growth-uncontracted\", \"name\": \"struct open_how\","),
	   "json: a change, one a line, with its rule");
	ok(json && strstr(json, "\"kind\": \"type.size\", \"category\": \"types\", \"verdict\": \"breaking\","
			  " \"potential\": true, \"subject\": \"struct open_how\", \"old\": \"24\","
			  " \"new\": \"32\", \"note\": null, \"cause\": \"struct open_how\""),
	   "json: its kind, verdict, values and finding");
	ok(json && strstr(json, "\"evidence\": {\"kind\": \"layout\", \"text\": "), "json: evidence");
	ok(json && strstr(json, "\"total\": {\"breaking\": 2, \"source\": 0, \"compatible\": 0,"),
	   "json: summary counts source-level changes");
	ok(json && strstr(json, "{\"root\": \"openat2\", \"path\": \"openat2 -> how -> struct open_how\"}"),
	   "json: impact");
	ok(json && strstr(json, "\"exit_status\": 12"), "json: exit status");
	ok(md && strstr(md, "| change | verdict | why | evidence | impact |\n"), "md: the columns");
	ok(md && strstr(md, "| `type.size` `struct open_how`: `24` → `32` | potentially breaking"
			" (tail-growth-uncontracted) | no contract says the struct is extensible, so old"
			" binaries may be refused or misread | layout: "), "md: a row: change, verdict, why, evidence");
	ok(md && strstr(md, "#### `struct open_how` (1 type.size, 1 type.member.added)"), "md: finding heading");
	ok(only && !strstr(only, "Compatible"), "--only breaking: no compatible section");
	free(text);
	free(json);
	free(md);
	free(only);
	diff_result__free(r);

	r = pair("report-contract", build_tail, &(struct diff_conf){ .contract = &contract });
	md = r ? render(r, REPORT_MD, false) : NULL;
	text = r ? render(r, REPORT_TEXT, false) : NULL;
	only = r ? render(r, REPORT_TEXT, true) : NULL;
	full = NULL;
	if (r) {
		struct report_conf rc = { .format = REPORT_TEXT, .full = true };
		size_t n = 0;
		FILE *f = open_memstream(&full, &n);

		if (f && !report__fprintf(r, &rc, f))
			fclose(f);
		else if (f)
			fclose(f);
	}
	ok(md && strstr(md, "<details><summary>Compatible changes (2 in 1 finding)</summary>"),
	   "md: compatible changes folded");
	ok(text && strstr(text, "Compatible changes (2 in 1 finding); --full lists each change:\n"
			  "  struct open_how: 1 type.size, 1 type.member.added\n"),
	   "text: compatible findings one line each");
	ok(full && strstr(full, "    type.size                struct open_how: 24 -> 32"
			  "  [tail-growth-extensible]\n"), "text --full: each compatible change");
	ok(only && strstr(only, "--only breaking: 2 other changes not listed (see the summary)\n"),
	   "--only breaking says how many changes it left out");
	free(md);
	free(text);
	free(only);
	free(full);
	diff_result__free(r);
}

/*
 * RULES.md's rule table is the code's, row by row and in order, and each
 * rule's "matches" starts with the kinds it judges.
 */
static void rule_row(size_t i, struct kd_buf *want, const void *ctx)
{
	const struct diff_rule *r = (const struct diff_rule *)ctx + i;

	kd_buf_addf(want, "| `%s` | %s | %s%s | %s |", r->id, r->matches,
		    diff_verdict_name(r->verdict), r->uncontracted ? " (no contract)" : "", r->why);
}

static void test_rules_documented(void)
{
	struct kd_buf want = KD_BUF_INIT;
	const struct diff_rule *rules;
	size_t n, i, k, bad_kinds = 0;

	rules = diff_rules(&n);
	is_int(n, DIFF__NR_RULES, "one row per enum diff_rule_id");
	doc_rules_match("diff/RULES.md", n, rule_row, rules);
	for (i = 0; i < n; i++) {
		kd_buf_reset(&want);
		for (k = 0; k < DIFF_RULE_MAX_KINDS && rules[i].kinds[k]; k++)
			kd_buf_addf(&want, "%s%s", k ? ", " : "", diff_kind_name(rules[i].kinds[k]));
		if (!k || strncmp(rules[i].matches, want.s, want.len) ||
		    !strchr(": ", rules[i].matches[want.len])) {
			printf("# %s matches '%s', judges %s\n", rules[i].id, rules[i].matches, want.s);
			bad_kinds++;
		}
	}
	ok(!bad_kinds, "each rule's matches starts with the kinds it judges");
	ok(diff_rule_by_id("member-moved") == diff_rule(DIFF_R_MEMBER_MOVED) &&
	   diff_rule(DIFF_R_MEMBER_MOVED)->verdict == DIFF_BREAKING, "rule lookup");
	is_str(diff_kind_name(DIFF_K_TYPE_MEMBER_OFFSET), "type.member.offset", "kind name");
	is_str(diff_kind_name(DIFF_K_NONE), "?", "no kind");
	is_int(diff_kind_category(DIFF_K_IOCTL_ERRNO_ADDED), DIFF_CAT_IOCTL, "a kind's category");
	kd_buf_release(&want);
}

/* diff_add(): a rule cited for a kind it does not judge is refused; the category is the kind's. */
static void test_add_checks_kind(void)
{
	struct diff_result *r = calloc(1, sizeof(*r));
	struct kd_buf log = KD_BUF_INIT;
	size_t idx = 99;
	int err;

	kd_log_capture(&log);
	err = diff_add(r, &(struct diff_new){ .rule = DIFF_R_MEMBER_MOVED, .kind = DIFF_K_TYPE_SIZE,
					      .name = "struct s", .subject = "struct s" }, &idx);
	kd_log_capture(NULL);
	is_int(err, -EINVAL, "member-moved does not judge type.size");
	ok(log.s && strstr(log.s, "rule member-moved does not judge a change of kind type.size"),
	   "  said so (%s)", log.s ? log.s : "");
	is_int(r->nr_changes, 0, "  nothing added");
	err = diff_add(r, &(struct diff_new){ .rule = DIFF_R_MEMBER_MOVED, .name = "struct s",
					      .subject = "struct s.a", .old_value = "0",
					      .new_value = "4" }, &idx);
	ok(!err && idx == 0 && !strcmp(r->changes[0].kind, "type.member.offset") &&
	   r->changes[0].category == DIFF_CAT_TYPE, "no kind: the rule's first, in its category");
	err = diff_add(r, &(struct diff_new){ .rule = DIFF_R_ARRAY_BOUND,
					      .kind = DIFF_K_TYPE_ARRAY_BOUND, .in = DIFF_CAT_IOCTL,
					      .name = "FS_IOC_GETFSLABEL", .subject = "FS_IOC_GETFSLABEL",
					      .old_value = "char[256]", .new_value = "char[512]" }, &idx);
	ok(!err && idx == 1 && r->changes[1].category == DIFF_CAT_IOCTL,
	   "an array's bound sits where its type does");
	diff_result__free(r);
	kd_buf_release(&log);
}

/* Every allocation failure inside diff__run() and the reports fails cleanly (ASan: no leak). */
static void test_oom(void)
{
	char *p[2] = { tap_tmp_path("misc-old.kabi"), tap_tmp_path("misc-new.kabi") };
	struct kdb *db[2] = { NULL, NULL };
	int n, failures = 0, successes = 0;

	if (kdb__open(p[0], &db[0]) || kdb__open(p[1], &db[1])) {
		ok(0, "reopen the misc pair");
		goto out;
	}
	kd_log_set_level(KD_LOG_QUIET);
	for (n = 0; n < 20000; n++) {
		struct diff_result *r = NULL;
		int err;

		kd_mem_fail_after(n);
		err = diff__run(db[0], db[1], NULL, &r);
		kd_mem_fail_after(-1);
		if (err) {
			failures += r == NULL;
			continue;
		}
		successes++;
		diff_result__free(r);
		break;
	}
	kd_log_set_level(KD_LOG_WARN);
	ok(successes == 1 && failures == n, "OOM at each of %d allocations: clean failure, then success", n);
out:
	kdb__free(db[0]);
	kdb__free(db[1]);
	free(p[0]);
	free(p[1]);
}

/*
 * --for: a program that uses the first syscall an impact names keeps
 * exactly the changes that root reaches, the rest counted as left out;
 * an allocation failing at each step of the restriction leaves the
 * result whole.
 */
static void test_for(void)
{
	char *p[2] = { tap_tmp_path("misc-old.kabi"), tap_tmp_path("misc-new.kabi") };
	struct kdb *db[2] = { NULL, NULL };
	struct kd_usage u = KD_USAGE_INIT;
	struct diff_result *r = NULL;
	const char *root = NULL;
	size_t i, j, total, reached = 0, left = 0;
	int n, failures = 0;

	if (kdb__open(p[0], &db[0]) || kdb__open(p[1], &db[1]) || diff__run(db[0], db[1], NULL, &r)) {
		ok(0, "the misc pair");
		goto out;
	}
	total = diff_result__nr_changes(r);
	for (i = 0; !root && i < total; i++)
		if (diff_result__change(r, i)->nr_impacts)
			root = diff_result__change(r, i)->impacts[0].root;
	for (i = 0; root && i < total; i++) {
		const struct diff_change *c = diff_result__change(r, i);
		bool hit = c->category == DIFF_CAT_SYSCALL && !strcmp(c->name, root);

		for (j = 0; j < c->nr_impacts; j++)
			hit |= !strcmp(c->impacts[j].root, root);
		reached += hit;
	}
	if (!root || kd_usage_add_syscall(&u, root, strlen(root))) {
		ok(0, "a change with an impact");
		goto out;
	}
	kd_usage_finish(&u);
	kd_log_set_level(KD_LOG_QUIET);
	for (n = 0; n < 1000; n++) {
		int err;

		kd_mem_fail_after(n);
		err = diff_result__restrict(r, &u, "prog.log", db[0], db[1]);
		kd_mem_fail_after(-1);
		if (!err)
			break;
		failures += err == -ENOMEM && diff_result__nr_changes(r) == total && !diff_result__for(r);
	}
	kd_log_set_level(KD_LOG_WARN);
	ok(n > 0 && failures == n, "restrict: out of memory at each of %d allocations leaves the result whole", n);
	is_int(diff_result__nr_changes(r), reached, "  then keeps the changes the used root reaches");
	ok(diff_result__for(r) && diff_result__for(r)->nr_syscalls == 1, "  one syscall used");
	for (i = 0; diff_result__for(r) && i < DIFF__NR_VERDICTS; i++)
		left += diff_result__for(r)->left_out[i];
	is_int(left, total - reached, "  the others counted as left out");
out:
	kd_usage_release(&u);
	diff_result__free(r);
	kdb__free(db[0]);
	kdb__free(db[1]);
	free(p[0]);
	free(p[1]);
}

int main(void)
{
	test_syscalls();
	test_tail_growth();
	test_enum_renamed();
	test_members();
	test_anonymous_union();
	test_misc();
	test_uapi();
	test_nr();
	test_stub();
	test_no_change();
	test_suppressions();
	test_reports();
	test_rules_documented();
	test_add_checks_kind();
	test_oom();
	test_for();
	kd_buf_release(&log_buf);
	return tap_done();
}

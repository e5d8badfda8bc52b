// SPDX-License-Identifier: GPL-2.0-only
/*
 * diff/ layout rules that only the real-kernel test (check-real) used to
 * reach, each on a pair of small kernels (tests/diff-fixture.h) with its
 * exact changes: a one-element array respelled as a flexible one, members
 * that occupy no bytes, plain char of either signedness, unions growing at
 * the tail (with and without a contract), a member that became a bitfield,
 * and anonymous structs nested in an extensible union or at the tail of an
 * extensible struct (they inherit its extensibility; in the middle of one or
 * behind a pointer they do not), and an alignment change of a type that
 * nothing embeds (source) or that a member or an array places (breaking).
 */
#include <string.h>

#include "db/kdb.h"
#include "diff/diff.h"
#include "tests/tap.h"
#include "tests/diff-fixture.h"

/* The contract of these tests: what it calls extensible. */
static bool says_extensible(void *ctx, const char *name, struct diff_where *where)
{
	static const char *const ext[] = { "ua", "attr", "holder", "mid", "pholder" };
	size_t i;

	(void)ctx;
	if (where)
		*where = (struct diff_where){ "t-diff-layout.kabispec", 1 };
	for (i = 0; i < NM(ext); i++)
		if (!strcmp(name, ext[i]))
			return true;
	return false;
}

static const struct diff_contract contract = {
	.is_extensible = says_extensible, .source = "t-diff-layout",
};

static void verdict_is(const struct diff_result *r, const char *kind, const char *subject,
		       enum diff_verdict v)
{
	const struct diff_change *c = r ? diff_result__find(r, kind, subject) : NULL;

	is_str(c ? diff_verdict_name(c->rule->verdict) : NULL, diff_verdict_name(v), "  verdict");
}

/* --- [1] <-> [] ----------------------------------------------------------- */

/*
 * struct one { u32 n; u32 data[1]; } (8 bytes) -> { u32 n; u32 data[]; } kept
 * at 8 bytes: the old spelling of a flexible array. struct shrunk makes the
 * same change but its size follows (8 -> 4): an array bound like any other.
 */
static void build_one(struct kb *k)
{
	int64_t u32 = base(k, "unsigned int", 4), l64 = base(k, "long int", 8);
	int64_t data = arr(k, u32, k->is_new ? KD_ARRAY_FLEXIBLE : 1);
	struct kd_member m[] = {
		{ .name = "n", .type = u32, .offset = 0 }, { .name = "data", .type = data, .offset = 4 },
	};
	int64_t one = agg(k, KD_KIND_STRUCT, "one", 8, 4, m, 2);
	int64_t shrunk = agg(k, KD_KIND_STRUCT, "shrunk", k->is_new ? 4 : 8, 4, m, 2);

	sys(k, 0, "one", l64, 2, "a", ptr(k, one), "b", ptr(k, shrunk));
}

static void test_one_element(void)
{
	struct diff_result *r = pair("one", build_one, NULL);

	check(r, "type.array.flexible", "struct one.data", "array-one-element", "unsigned int[1]",
	      "unsigned int[]", "one -> a -> struct one");
	verdict_is(r, "type.array.flexible", "struct one.data", DIFF_INFO);
	check(r, "type.array.flexible", "struct shrunk.data", "array-bound", "unsigned int[1]",
	      "unsigned int[]", "one -> b -> struct shrunk");
	check(r, "type.size", "struct shrunk", "type-size", "8", "4", NULL);
	pair_done(r, 3, "one: nothing else", 12, "one: exit 12 (struct shrunk)");
}

/* --- members without bytes ------------------------------------------------- */

/* struct hdr { u32 len; } -> { u32 len; struct empty mark; u8 data[]; }, 4 bytes both. */
static void build_empty(struct kb *k)
{
	int64_t u32 = base(k, "unsigned int", 4), u8 = base(k, "unsigned char", 1);
	int64_t l64 = base(k, "long int", 8);
	int64_t empty = agg(k, KD_KIND_STRUCT, "empty", 0, 1, NULL, 0);
	struct kd_member m[] = {
		{ .name = "len", .type = u32, .offset = 0 },
		{ .name = "mark", .type = empty, .offset = 4 },
		{ .name = "data", .type = arr(k, u8, KD_ARRAY_FLEXIBLE), .offset = 4 },
	};
	int64_t hdr = agg(k, KD_KIND_STRUCT, "hdr", 4, 4, m, k->is_new ? 3 : 1);

	sys(k, 0, "hdr", l64, 1, "h", ptr(k, hdr));
}

static void test_added_empty(void)
{
	struct diff_result *r = pair("empty", build_empty, NULL);

	check(r, "type.member.added", "struct hdr.mark", "member-added-empty", NULL,
	      "struct empty mark at 4", "hdr -> h -> struct hdr");
	verdict_is(r, "type.member.added", "struct hdr.mark", DIFF_INFO);
	check(r, "type.member.added", "struct hdr.data", "member-added-empty", NULL,
	      "unsigned char data[] at 4", NULL);
	verdict_is(r, "type.member.added", "struct hdr.data", DIFF_INFO);
	pair_done(r, 2, "empty: nothing else", 4, "empty: info changes only, exit 4");
}

/* --- plain char ------------------------------------------------------------ */

/*
 * DWARF's char is signed in the old kernel, unsigned in the new one (Linux
 * 6.2's -funsigned-char). struct cs { char name[4]; char a; char t; }: a
 * is renamed to b (a rename needs the same type), t becomes __kchar, a
 * typedef of the new char (a spelling needs the same type).
 */
static void build_char(struct kb *k)
{
	int64_t ch = basef(k, "char", 1, k->is_new ? 0 : KD_TYPE_SIGNED);
	int64_t l64 = base(k, "long int", 8);
	struct kd_member m[] = {
		{ .name = "name", .type = arr(k, ch, 4), .offset = 0 },
		{ .name = k->is_new ? "b" : "a", .type = ch, .offset = 4 },
		{ .name = "t", .type = k->is_new ? tdef(k, "__kchar", ch) : ch, .offset = 5 },
	};
	int64_t cs = agg(k, KD_KIND_STRUCT, "cs", 6, 1, m, NM(m));

	sys(k, 0, "chr", l64, 2, "s", ptr(k, cs), "c", ch);
}

static void test_plain_char(void)
{
	struct diff_result *r = pair("char", build_char, NULL);

	ok(r && !diff_result__find(r, "syscall.param.type", "chr(c)") &&
	   !diff_result__find(r, "type.member.type", "struct cs.name"),
	   "char signed -> unsigned, same size: no change of the parameter or the array");
	check(r, "type.member.renamed", "struct cs.a", "member-renamed", "a", "b",
	      "chr -> s -> struct cs");
	check(r, "type.member.type", "struct cs.t", "type-spelling", "char", "__kchar", NULL);
	pair_done(r, 2, "char: only the rename and the spelling", 4, "char: info only, exit 4");
}

/* --- unions growing at the tail ------------------------------------------- */

/*
 * union ua { u32 a; u32 b; } (4 bytes) -> { u32 a; u32 b; u64 c; struct { u32 x; u32 y; }; }
 * (8 bytes): c starts over kept members and grows past the old size, x lies
 * over kept members only, y starts at the old size.
 */
static void build_union(struct kb *k)
{
	int64_t u32 = base(k, "unsigned int", 4), u64 = base(k, "long long unsigned int", 8);
	int64_t l64 = base(k, "long int", 8);
	struct kd_member xm[] = {
		{ .name = "x", .type = u32, .offset = 0 }, { .name = "y", .type = u32, .offset = 4 },
	};
	int64_t xy = agg(k, KD_KIND_STRUCT, NULL, 8, 4, xm, 2);
	struct kd_member m[] = {
		{ .name = "a", .type = u32, .offset = 0 }, { .name = "b", .type = u32, .offset = 0 },
		{ .name = "c", .type = u64, .offset = 0 }, { .name = NULL, .type = xy, .offset = 0 },
	};
	int64_t ua = agg(k, KD_KIND_UNION, "ua", k->is_new ? 8 : 4, k->is_new ? 8 : 4, m,
			 k->is_new ? 4 : 2);

	sys(k, 0, "uni", l64, 1, "u", ptr(k, ua));
}

/* The members union ua gains: c and y past the old size judged by @tail_rule, x an alias. */
static void union_members(const struct diff_result *r, const char *tail_rule)
{
	check(r, "type.member.added", "union ua.c", tail_rule, NULL,
	      "long long unsigned int c at 0", NULL);
	check(r, "type.member.added", "union ua.x", "member-added-alias", NULL,
	      "unsigned int x at 0", NULL);
	check(r, "type.member.added", "union ua.y", tail_rule, NULL, "unsigned int y at 4", NULL);
}

static void test_union_tail(void)
{
	struct diff_conf with = { .contract = &contract };
	struct diff_result *r = pair("union", build_union, NULL);

	check(r, "type.size", "union ua", "tail-growth-uncontracted", "4", "8", "uni -> u -> union ua");
	union_members(r, "tail-growth-uncontracted");
	/* Only passed by pointer, embedded nowhere: its alignment places nothing. */
	check(r, "type.align", "union ua", "type-align-unembedded", "4", "8", NULL);
	count_is(r, 5, "union: nothing else");
	diff_result__free(r);

	r = pair("union-contract", build_union, &with);
	check(r, "type.size", "union ua", "tail-growth-extensible", "4", "8", NULL);
	verdict_is(r, "type.size", "union ua", DIFF_COMPATIBLE);
	union_members(r, "tail-growth-extensible");
	diff_result__free(r);
}

/* --- a plain member becomes a bitfield ----------------------------------- */

/* struct bf { u32 flags; u32 other; } -> { u32 flags:29, more:3; u32 other; } */
static void build_bitfield(struct kb *k)
{
	int64_t u32 = base(k, "unsigned int", 4), l64 = base(k, "long int", 8);
	struct kd_member mo[] = {
		{ .name = "flags", .type = u32, .offset = 0 }, { .name = "other", .type = u32, .offset = 4 },
	};
	struct kd_member mn[] = {
		{ .name = "flags", .type = u32, .offset = 0, .bit_offset = 0, .bit_size = 29 },
		{ .name = "more", .type = u32, .offset = 0, .bit_offset = 29, .bit_size = 3 },
		{ .name = "other", .type = u32, .offset = 4 },
	};
	int64_t bf = k->is_new ? agg(k, KD_KIND_STRUCT, "bf", 8, 4, mn, NM(mn)) :
				 agg(k, KD_KIND_STRUCT, "bf", 8, 4, mo, NM(mo));

	sys(k, 0, "bits", l64, 1, "b", ptr(k, bf));
}

static void test_bitfield(void)
{
	struct diff_result *r = pair("bitfield", build_bitfield, NULL);

	check(r, "type.member.bitfield", "struct bf.flags", "member-bitfield", "bit 0, width 32",
	      "bit 0, width 29", "bits -> b -> struct bf");
	check(r, "type.member.added", "struct bf.more", "member-added", NULL,
	      "unsigned int more:3 at bit 29", NULL);
	count_is(r, 2, "bitfield: nothing else");
	diff_result__free(r);
}

/* --- anonymous aggregates inside extensible types ----------------------- */

/*
 * union bpf_attr in small: union attr { struct { u32 map_type, key_size,
 * value_size, max_entries; }; struct { u32 target_fd, attach_type; }
 * link_create; struct { u64 fd; } query; } grows link_create by a u32
 * (inside the union's old 16 bytes) and query by two u64 (the union grows
 * to 24). struct holder { u32 flags; struct { u32 a; } opt; } grows opt at
 * its tail; struct mid { struct { u32 a; } head; u32 z; } grows head in the
 * middle; struct pholder { struct { u32 a; } *p; } grows what p points to.
 */
static void build_anon_ext(struct kb *k)
{
	int64_t u32 = base(k, "unsigned int", 4), u64 = base(k, "long long unsigned int", 8);
	int64_t l64 = base(k, "long int", 8);
	bool n = k->is_new;
	struct kd_member mc[] = {
		{ .name = "map_type", .type = u32, .offset = 0 },
		{ .name = "key_size", .type = u32, .offset = 4 },
		{ .name = "value_size", .type = u32, .offset = 8 },
		{ .name = "max_entries", .type = u32, .offset = 12 },
	};
	struct kd_member lc[] = {
		{ .name = "target_fd", .type = u32, .offset = 0 },
		{ .name = "attach_type", .type = u32, .offset = 4 },
		{ .name = "flags", .type = u32, .offset = 8 },
	};
	struct kd_member qm[] = {
		{ .name = "fd", .type = u64, .offset = 0 }, { .name = "ids", .type = u64, .offset = 8 },
		{ .name = "cnt", .type = u64, .offset = 16 },
	};
	struct kd_member am[] = {
		{ .name = NULL, .type = agg(k, KD_KIND_STRUCT, NULL, 16, 4, mc, NM(mc)), .offset = 0 },
		{ .name = "link_create", .type = agg(k, KD_KIND_STRUCT, NULL, n ? 12 : 8, 4, lc, n ? 3 : 2) },
		{ .name = "query", .type = agg(k, KD_KIND_STRUCT, NULL, n ? 24 : 8, 8, qm, n ? 3 : 1) },
	};
	int64_t attr = agg(k, KD_KIND_UNION, "attr", n ? 24 : 16, 8, am, NM(am));
	struct kd_member om[] = {
		{ .name = "a", .type = u32, .offset = 0 }, { .name = "b", .type = u32, .offset = 4 },
	};
	struct kd_member hm[] = {
		{ .name = "flags", .type = u32, .offset = 0 },
		{ .name = "opt", .type = agg(k, KD_KIND_STRUCT, NULL, n ? 8 : 4, 4, om, n ? 2 : 1),
		  .offset = 4 },
	};
	int64_t holder = agg(k, KD_KIND_STRUCT, "holder", n ? 12 : 8, 4, hm, NM(hm));
	struct kd_member mm[] = {
		{ .name = "head", .type = agg(k, KD_KIND_STRUCT, NULL, n ? 8 : 4, 4, om, n ? 2 : 1) },
		{ .name = "z", .type = u32, .offset = n ? 8 : 4 },
	};
	int64_t mid = agg(k, KD_KIND_STRUCT, "mid", n ? 12 : 8, 4, mm, NM(mm));
	struct kd_member pm[] = {
		{ .name = "p", .type = ptr(k, agg(k, KD_KIND_STRUCT, NULL, n ? 8 : 4, 4, om, n ? 2 : 1)) },
	};
	int64_t pholder = agg(k, KD_KIND_STRUCT, "pholder", 8, 8, pm, NM(pm));

	sys(k, 0, "bpf", l64, 1, "attr", ptr(k, attr));
	sys(k, 1, "hold", l64, 3, "h", ptr(k, holder), "m", ptr(k, mid), "p", ptr(k, pholder));
}

/* The changes of build_anon_ext(); @rule for the tail growths that inherit. */
static void check_anon_ext(const struct diff_result *r, const char *rule)
{
	const char *un = "tail-growth-uncontracted";

	check(r, "type.size", "union attr", rule, "16", "24", "bpf -> attr -> union attr");
	check(r, "type.size", "union attr.link_create", rule, "8", "12",
	      "bpf -> attr -> union attr -> link_create");
	check(r, "type.member.added", "union attr.link_create.flags", rule, NULL,
	      "unsigned int flags at 8", NULL);
	check(r, "type.size", "union attr.query", rule, "8", "24", NULL);
	check(r, "type.member.added", "union attr.query.ids", rule, NULL,
	      "long long unsigned int ids at 8", NULL);
	check(r, "type.member.added", "union attr.query.cnt", rule, NULL,
	      "long long unsigned int cnt at 16", NULL);
	check(r, "type.size", "struct holder", rule, "8", "12", NULL);
	check(r, "type.size", "struct holder.opt", rule, "4", "8",
	      "hold -> h -> struct holder -> opt");
	check(r, "type.member.added", "struct holder.opt.b", rule, NULL, "unsigned int b at 4", NULL);
	/* Not at the tail, or behind a pointer: never inherited. */
	check(r, "type.size", "struct mid.head", un, "4", "8", NULL);
	check(r, "type.member.added", "struct mid.head.b", un, NULL, "unsigned int b at 4", NULL);
	check(r, "type.member.offset", "struct mid.z", "member-moved", "4", "8", NULL);
	check(r, "type.size", "struct mid", "type-size", "8", "12", NULL);
	check(r, "type.size", "struct pholder.p", un, "4", "8",
	      "hold -> p -> struct pholder -> p");
	check(r, "type.member.added", "struct pholder.p.b", un, NULL, "unsigned int b at 4", NULL);
	count_is(r, 15, "anonymous aggregates: nothing else");
}

static void test_anon_in_extensible(void)
{
	struct diff_conf with = { .contract = &contract };
	struct diff_result *r = pair("anon-ext", build_anon_ext, NULL);

	check_anon_ext(r, "tail-growth-uncontracted");
	diff_result__free(r);

	r = pair("anon-ext-contract", build_anon_ext, &with);
	check_anon_ext(r, "tail-growth-extensible");
	verdict_is(r, "type.member.added", "union attr.link_create.flags", DIFF_COMPATIBLE);
	is_int(r ? diff_result__count(r, DIFF_CAT_TYPE, DIFF_BREAKING) : 0, 6,
	       "breaking: struct mid's four changes and struct pholder.p's two");
	diff_result__free(r);
}

/* --- an alignment no type places ------------------------------------------ */

/*
 * resp { u32 id } (4 bytes, align 4) grows an aligned u64 at its tail
 * ({ u32 id; u32 rsvd; u64 mask }: 16, align 8) and is only ever passed
 * by pointer; inner and elem change alike but outer embeds inner and
 * list holds an array of elem; plain keeps its 8 bytes and states
 * aligned(8) in the new kernel.
 */
static int64_t grown(struct kb *k, const char *name, int64_t u32, int64_t u64)
{
	struct kd_member m[] = {
		{ .name = "id", .type = u32, .offset = 0 }, { .name = "rsvd", .type = u32, .offset = 4 },
		{ .name = "mask", .type = u64, .offset = 8 },
	};

	return agg(k, KD_KIND_STRUCT, name, k->is_new ? 16 : 4, k->is_new ? 8 : 4, m,
		   k->is_new ? 3 : 1);
}

static void build_align(struct kb *k)
{
	int64_t u32 = base(k, "unsigned int", 4), u64 = base(k, "long long unsigned int", 8);
	int64_t l64 = base(k, "long int", 8);
	int64_t resp = grown(k, "resp", u32, u64), inner = grown(k, "inner", u32, u64);
	int64_t elem = grown(k, "elem", u32, u64);
	struct kd_member om[] = {
		{ .name = "x", .type = u32, .offset = 0 }, { .name = "in", .type = inner,
							      .offset = k->is_new ? 8 : 4 },
	};
	int64_t outer = agg(k, KD_KIND_STRUCT, "outer", k->is_new ? 24 : 8, k->is_new ? 8 : 4, om, 2);
	struct kd_member lm[] = { { .name = "e", .type = arr(k, elem, 2), .offset = 0 } };
	int64_t list = agg(k, KD_KIND_STRUCT, "list", k->is_new ? 32 : 8, k->is_new ? 8 : 4, lm, 1);
	struct kd_member pm[] = { { .name = "v", .type = u64, .offset = 0 } };
	int64_t plain = agg(k, KD_KIND_STRUCT, "plain", 8, k->is_new ? 8 : 4, pm, 1);

	sys(k, 0, "srq", l64, 1, "r", ptr(k, resp));
	sys(k, 1, "out", l64, 1, "o", ptr(k, outer));
	sys(k, 2, "lst", l64, 1, "l", ptr(k, list));
	sys(k, 3, "pln", l64, 1, "p", ptr(k, plain));
}

static bool says_whole(void *ctx, const char *name, struct diff_where *where)
{
	(void)ctx;
	if (where)
		*where = (struct diff_where){ "t-diff-layout.kabispec", 2 };
	return !strcmp(name, "resp");
}

static void test_align_unembedded(void)
{
	const struct diff_contract whole = { .is_whole = says_whole, .source = "t-diff-layout" };
	struct diff_conf with = { .contract = &whole };
	struct diff_result *r = pair("align", build_align, NULL);

	check(r, "type.align", "struct resp", "type-align-unembedded", "4", "8", NULL);
	evidence_is(r, "type.align", "struct resp", DIFF_EV_LAYOUT,
		    "no type of either kernel (DWARF and header views) embeds struct resp or an"
		    " array of it: it crosses as the bytes behind a pointer");
	check(r, "type.align", "struct plain", "type-align-unembedded", "4", "8", NULL);
	/* A member, an array's element: the alignment moves what follows it. */
	check(r, "type.align", "struct inner", "type-align", "4", "8", NULL);
	check(r, "type.align", "struct elem", "type-align", "4", "8", NULL);
	check(r, "type.member.offset", "struct outer.in", "member-moved", "4", "8", NULL);
	diff_result__free(r);

	/* The size is the contract's breaking finding; the alignment adds no cause. */
	r = pair("align-whole", build_align, &with);
	check(r, "type.size", "struct resp", "tail-growth-whole", "4", "16", NULL);
	check(r, "type.align", "struct resp", "type-align-unembedded", "4", "8", NULL);
	verdict_is(r, "type.align", "struct resp", DIFF_SOURCE);
	diff_result__free(r);

	/* A side read without headers may lack the types that embed it: no conclusion. */
	r = pair_headers("align-no-headers", build_align, NULL, false);
	check(r, "type.align", "struct resp", "type-align", "4", "8", NULL);
	check(r, "type.align", "struct plain", "type-align", "4", "8", NULL);
	diff_result__free(r);
}

int main(void)
{
	test_one_element();
	test_added_empty();
	test_plain_char();
	test_union_tail();
	test_bitfield();
	test_anon_in_extensible();
	test_align_unembedded();
	return tap_done();
}

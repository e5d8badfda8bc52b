// SPDX-License-Identifier: GPL-2.0-only
/*
 * diff/diff-aggregate-layout.c's questions of a pair of layouts, on
 * layouts written by hand (no kernel, no engine): bits all set or all
 * clear, bits past the map unset; the last member of a side; old bits
 * each a kept member's or padding; and whether new members cover an old
 * one, walked by intervals (a member 2^60 bits wide, gaps, overlaps).
 */
#include <stdint.h>
#include <string.h>

#include "diff/aggregate_internal.h"
#include "tests/tap.h"

static void test_bits_all(void)
{
	unsigned char map[2] = { 0x0f, 0x00 };	/* bits 0-3 set of 16 */

	ok(agg_bits_all(map, 16, 0, 4, true), "bits 0-3 all set");
	ok(!agg_bits_all(map, 16, 0, 5, true), "bits 0-4 not all set");
	ok(agg_bits_all(map, 16, 4, 12, false), "bits 4-15 all clear");
	ok(!agg_bits_all(map, 16, 3, 2, false), "bits 3-4 not all clear");
	ok(agg_bits_all(map, 16, 8, 100, false), "bits past the map count as unset");
	ok(!agg_bits_all(map, 16, 0, 17, true), "set: a range past the map is not all set");
	ok(!agg_bits_all(map, 16, -1, 2, true), "set: a range before bit 0 is not all set");
	ok(agg_bits_all(map, 16, 2, 0, false) && agg_bits_all(map, 16, 2, 0, true),
	   "an empty range is all of either");
}

static void test_is_last(void)
{
	struct leaf v[3] = { { .name = "a", .bit = 0 }, { .name = "b", .bit = 32 },
			     { .name = "c", .bit = 32 } };
	struct leaves l = { .v = v, .n = 3 };

	ok(!agg_is_last(&l, &v[0]), "a member others start after is not last");
	ok(agg_is_last(&l, &v[1]) && agg_is_last(&l, &v[2]),
	   "union-like members at one last offset are each last");
}

static void test_kept_or_padding(void)
{
	/* Old layout of 32 bits: a kept member at 0-7, a lost one at 16-23, padding between. */
	unsigned char old_map[5] = { 0xff, 0x00, 0xff, 0x00, 0 }, kept_map[5] = { 0xff, 0 };
	struct agg g;

	memset(&g, 0, sizeof(g));
	g.old_map = old_map;
	g.kept_map = kept_map;
	g.nbits = 32;
	ok(agg_kept_or_padding(&g, 0, 16), "a kept member and padding after it");
	ok(!agg_kept_or_padding(&g, 0, 24), "not over a member that was not kept");
	ok(agg_kept_or_padding(&g, 24, 8), "tail padding");
	ok(!agg_kept_or_padding(&g, 24, 9), "not past the old layout");
	ok(!agg_kept_or_padding(&g, -1, 4), "not before it");
}

static void test_covered_in_new(void)
{
	const int64_t huge = (int64_t)1 << 60;
	struct leaf old = { .name = "o", .bit = 0, .bits = 64 };
	struct leaf nv[3] = { { .name = "x", .bit = 0, .bits = 40 },
			      { .name = "y", .bit = 32, .bits = 16 },
			      { .name = "z", .bit = 48, .bits = 16 } };
	struct agg g;

	memset(&g, 0, sizeof(g));
	g.l[1].v = nv;
	g.l[1].n = 3;
	ok(agg_covered_in_new(&g, &old), "overlapping new members cover all 64 old bits");
	nv[2].bit = 49;
	ok(!agg_covered_in_new(&g, &old), "a one-bit gap at 48 is found");
	nv[2].bit = 48;
	old.bits = 65;
	ok(!agg_covered_in_new(&g, &old), "an old member past the new ones' end is not covered");
	old = (struct leaf){ .name = "big", .bit = 0, .bits = huge };
	nv[0].bits = huge / 2;
	nv[1] = (struct leaf){ .name = "rest", .bit = huge / 2, .bits = huge / 2 };
	g.l[1].n = 2;
	ok(agg_covered_in_new(&g, &old), "2^60 bits covered by two halves, walked by intervals");
	g.l[1].n = 1;
	ok(!agg_covered_in_new(&g, &old), "and not by the first half alone");
}

int main(void)
{
	test_bits_all();
	test_is_last();
	test_kept_or_padding();
	test_covered_in_new();
	return tap_done();
}

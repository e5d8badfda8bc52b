// SPDX-License-Identifier: GPL-2.0-only
/*
 * diff/ on bytes the kernel does not read as C lays them out: messages
 * (sized by a length, read at any address), structs copied whole at the
 * kernel's size (their growth breaks, by the contract), members and array elements
 * the contract calls unused, and members read only `when` a UAPI constant
 * is in play. Each rule in both directions: with the contract's fact the
 * change is compatible or source, without it (or when the fact does not
 * hold: a gate the old headers already had) it breaks.
 */
#include <stdbool.h>
#include <string.h>

#include "db/kdb-uapi.h"
#include "diff/diff.h"
#include "lib/buf.h"
#include "tests/tap.h"
#include "tests/diff-fixture.h"

static void build_unread(struct kb *k)
{
	int64_t u8 = base(k, "unsigned char", 1), u16 = base(k, "short unsigned int", 2);
	int64_t u32 = base(k, "unsigned int", 4), u64 = base(k, "long long unsigned int", 8);
	int64_t l64 = base(k, "long int", 8);
	bool n = k->is_new;
	/* A request the caller sizes: cmd[1] -> cmd[] (mpi3_nvme_encapsulated_request). */
	struct kd_member mo[] = {
		{ .name = "a", .type = u32, .offset = 0 }, { .name = "b", .type = u32, .offset = 4 },
		{ .name = "cmd", .type = arr(k, u32, n ? -1 : 1), .offset = 8 },
	};
	int64_t msg = agg(k, KD_KIND_STRUCT, "msg", n ? 8 : 12, 4, mo, 3);
	/* A message whose size change is no flexible tail: a member inserted. */
	struct kd_member go[] = {
		{ .name = "a", .type = u32, .offset = 0 }, { .name = "cmd", .type = arr(k, u32, 1), .offset = 4 },
	};
	struct kd_member gn[] = {
		{ .name = "a", .type = u32, .offset = 0 }, { .name = "x", .type = u32, .offset = 4 },
		{ .name = "cmd", .type = arr(k, u32, 1), .offset = 8 },
	};
	int64_t grown = agg(k, KD_KIND_STRUCT, "grown", n ? 12 : 8, 4, n ? gn : go, n ? 3 : 2);
	/* A reply on a socket: handle[8] in a union with a __be64 (nbd_reply). */
	struct kd_member um[] = {
		{ .name = "cookie", .type = u64, .offset = 0 }, { .name = "h", .type = arr(k, u8, 8), .offset = 0 },
	};
	int64_t uni = n ? agg(k, KD_KIND_UNION, NULL, 8, 8, um, 2) : 0;
	struct kd_member wo[] = {
		{ .name = "magic", .type = u32, .offset = 0 }, { .name = "err", .type = u32, .offset = 4 },
		{ .name = "h", .type = arr(k, u8, 8), .offset = 8 },
	};
	struct kd_member wn[] = {
		{ .name = "magic", .type = u32, .offset = 0 }, { .name = "err", .type = u32, .offset = 4 },
		{ .name = NULL, .type = uni, .offset = 8 },
	};
	int64_t wire = agg(k, KD_KIND_STRUCT, "wire", 16, n ? 8 : 4, n ? wn : wo, 3);
	/* The guest's own member dropped at the tail (kvm_vcpu_pv_apf_data.enabled). */
	struct kd_member ao[] = {
		{ .name = "flags", .type = u32, .offset = 0 }, { .name = "token", .type = u32, .offset = 4 },
		{ .name = "pad", .type = arr(k, u8, 56), .offset = 8 },
		{ .name = "enabled", .type = u32, .offset = 64 },
	};
	int64_t apf = agg(k, KD_KIND_STRUCT, "apf", n ? 64 : 68, 4, ao, n ? 3 : 4);
	/* data[2] -> data[1] and gated members in data[1]'s bytes (ublksrv_ctrl_cmd). */
	struct kd_member co[] = {
		{ .name = "dev_id", .type = u32, .offset = 0 }, { .name = "len", .type = u32, .offset = 4 },
		{ .name = "addr", .type = u64, .offset = 8 },
		{ .name = "data", .type = arr(k, u64, 2), .offset = 16 },
	};
	struct kd_member cn[] = {
		{ .name = "dev_id", .type = u32, .offset = 0 }, { .name = "len", .type = u32, .offset = 4 },
		{ .name = "addr", .type = u64, .offset = 8 },
		{ .name = "data", .type = arr(k, u64, 1), .offset = 16 },
		{ .name = "path_len", .type = u16, .offset = 24 }, { .name = "pad", .type = u16, .offset = 26 },
		{ .name = "rsv", .type = u32, .offset = 28 },
	};
	int64_t ctrl = agg(k, KD_KIND_STRUCT, "ctrl", 32, 8, n ? cn : co, n ? 7 : 4);
	/* A member in old tail padding, read behind a new flag (xdp_umem_reg.tx_metadata_len). */
	struct kd_member uo[] = {
		{ .name = "addr", .type = u64, .offset = 0 }, { .name = "flags", .type = u32, .offset = 8 },
		{ .name = "meta_len", .type = u32, .offset = 12 },
	};
	int64_t umem = agg(k, KD_KIND_STRUCT, "umem", 16, 8, uo, n ? 3 : 2);
	/* A response copied at the kernel's size (bnxt_re_srq_resp): 4 -> 16 bytes. */
	struct kd_member ro[] = {
		{ .name = "id", .type = u32, .offset = 0 }, { .name = "rsvd", .type = u32, .offset = 4 },
		{ .name = "mask", .type = u64, .offset = 8 },
	};
	int64_t resp = agg(k, KD_KIND_STRUCT, "resp", n ? 16 : 4, n ? 8 : 4, ro, n ? 3 : 1);
	struct kd_constant c[] = {
		{ .name = "GATE_OLD", .value = 1, .ctype = "int", .expr = "1", .file = "linux/gate.h", .line = 1 },
		{ .name = "GATE_NEW", .value = 2, .ctype = "int", .expr = "2", .file = "linux/gate.h", .line = 2 },
	};

	sys(k, 0, "msg", l64, 1, "m", ptr(k, msg));
	sys(k, 1, "grown", l64, 1, "g", ptr(k, grown));
	sys(k, 2, "wire", l64, 1, "w", ptr(k, wire));
	sys(k, 3, "apf", l64, 1, "a", ptr(k, apf));
	sys(k, 4, "ctrl", l64, 1, "c", ptr(k, ctrl));
	sys(k, 5, "umem", l64, 1, "u", ptr(k, umem));
	sys(k, 6, "resp", l64, 1, "r", ptr(k, resp));
	if (!k->err)
		k->err = kdb__put_constants(k->db, c, n ? 2 : 1);
}

/* --- the contract: messages, unused members, gates ------------------------ */

static const char *gate = "GATE_NEW";	/* the gate of ctrl.path_len and umem.meta_len */
static bool data_unused = true;		/* ctrl.data[1]: unused */

static bool at(struct diff_where *w, int line, bool yes)
{
	if (yes && w)
		*w = (struct diff_where){ "test.kabispec", line };
	return yes;
}

static bool says_message(void *ctx, const char *name, struct diff_where *where)
{
	(void)ctx;
	return at(where, 1, !strcmp(name, "msg") || !strcmp(name, "grown") || !strcmp(name, "wire"));
}

static bool says_whole(void *ctx, const char *name, struct diff_where *where)
{
	(void)ctx;
	return at(where, 6, !strcmp(name, "resp"));
}

static bool says_unused(void *ctx, const char *name, const char *member, int64_t *from,
			struct diff_where *where)
{
	(void)ctx;
	*from = 0;
	if (!strcmp(name, "apf") && !strcmp(member, "enabled"))
		return at(where, 2, true);
	if (!strcmp(name, "ctrl") && !strcmp(member, "data") && data_unused) {
		*from = 1;
		return at(where, 3, true);
	}
	return at(where, 4, !strcmp(name, "ctrl") && (!strcmp(member, "pad") || !strcmp(member, "rsv")));
}

static bool says_gates(void *ctx, const char *name, const char *member, const char *const **gates,
		       size_t *nr, struct diff_where *where)
{
	(void)ctx;
	*gates = &gate;
	*nr = 1;
	return at(where, 5, (!strcmp(name, "ctrl") && !strcmp(member, "path_len")) ||
			    (!strcmp(name, "umem") && !strcmp(member, "meta_len")));
}

static const struct diff_contract contract = {
	.is_message = says_message, .is_whole = says_whole, .is_unused = says_unused,
	.gates = says_gates, .source = "test",
};

static void test_without_contract(void)
{
	struct diff_result *r = pair("unread-none", build_unread, NULL);

	check(r, "type.array.flexible", "struct msg.cmd", "array-bound", "unsigned int[1]",
	      "unsigned int[]", NULL);
	check(r, "type.size", "struct msg", "type-size", "12", "8", NULL);
	/* Passed by pointer only, embedded nowhere: its alignment places nothing. */
	check(r, "type.align", "struct wire", "type-align-unembedded", "4", "8", NULL);
	check(r, "type.member.removed", "struct apf.enabled", "member-removed",
	      "unsigned int enabled at 64", NULL, NULL);
	check(r, "type.size", "struct apf", "type-size", "68", "64", NULL);
	check(r, "type.array.bound", "struct ctrl.data", "array-bound", "long long unsigned int[2]",
	      "long long unsigned int[1]", NULL);
	check(r, "type.member.added", "struct ctrl.path_len", "member-added", NULL,
	      "short unsigned int path_len at 24", NULL);
	check(r, "type.member.added", "struct umem.meta_len", "padding-reuse-uncontracted", NULL,
	      "unsigned int meta_len at 12", NULL);
	check(r, "type.size", "struct resp", "tail-growth-uncontracted", "4", "16", NULL);
	is_int(r ? (long)diff_result__count(r, DIFF__NR_CATEGORIES, DIFF_BREAKING) : -1, 15,
	       "no contract: 15 breaking (all but the alias, the constant and the alignments"
	       " of wire and resp, which nothing embeds)");
	diff_result__free(r);
}

static void test_with_contract(void)
{
	struct diff_conf conf = { .contract = &contract };
	struct diff_result *r = pair("unread", build_unread, &conf);

	/* message */
	check(r, "type.array.flexible", "struct msg.cmd", "array-one-element-message", "unsigned int[1]",
	      "unsigned int[]", NULL);
	check(r, "type.size", "struct msg", "array-one-element-message", "12", "8", NULL);
	evidence_is(r, "type.size", "struct msg", DIFF_EV_CONTRACT,
		    "test.kabispec:1: struct msg is message: sized by a length, read at any address");
	check(r, "type.align", "struct wire", "type-align-message", "4", "8", NULL);
	check(r, "type.member.added", "struct wire.cookie", "member-added-alias", NULL,
	      "long long unsigned int cookie at 8", NULL);
	/* A message that grew in its middle still breaks. */
	check(r, "type.member.offset", "struct grown.cmd", "member-moved", "4", "8", NULL);
	check(r, "type.size", "struct grown", "type-size", "8", "12", NULL);
	/* unused: removed, and lost at the tail */
	check(r, "type.member.removed", "struct apf.enabled", "member-removed-unused",
	      "unsigned int enabled at 64", NULL, NULL);
	evidence_is(r, "type.member.removed", "struct apf.enabled", DIFF_EV_CONTRACT,
		    "test.kabispec:2: struct apf.enabled is unused: the kernel never reads it");
	check(r, "type.size", "struct apf", "tail-shrink-unused", "68", "64", NULL);
	evidence_is(r, "type.size", "struct apf", DIFF_EV_CONTRACT,
		    "test.kabispec:2: the bytes struct apf lost at its tail (68 -> 64) are padding or"
		    " unused: the kernel never touches them");
	/* unused elements carved into unused and gated members */
	check(r, "type.array.bound", "struct ctrl.data", "array-shrink-unused",
	      "long long unsigned int[2]", "long long unsigned int[1]", NULL);
	evidence_is(r, "type.array.bound", "struct ctrl.data", DIFF_EV_CONTRACT,
		    "test.kabispec:3: struct ctrl.data is unused from element 1 on: the kernel never"
		    " touched the 1 element(s) it lost");
	check(r, "type.member.added", "struct ctrl.path_len", "member-added-unread", NULL,
	      "short unsigned int path_len at 24", NULL);
	evidence_is(r, "type.member.added", "struct ctrl.path_len", DIFF_EV_CONTRACT,
		    "test.kabispec:5: struct ctrl.path_len is read only when GATE_NEW is in play, and the old"
		    " headers define no such constant: old binaries cannot set it");
	check(r, "type.member.added", "struct ctrl.pad", "member-added-unread", NULL,
	      "short unsigned int pad at 26", NULL);
	check(r, "type.member.added", "struct ctrl.rsv", "member-added-unread", NULL,
	      "unsigned int rsv at 28", NULL);
	evidence_is(r, "type.member.added", "struct ctrl.rsv", DIFF_EV_CONTRACT,
		    "test.kabispec:4: struct ctrl.rsv is unused: the kernel never reads it");
	/* whole: the growth breaks by the contract, not for want of one */
	check(r, "type.size", "struct resp", "tail-growth-whole", "4", "16", NULL);
	check(r, "type.member.added", "struct resp.mask", "tail-growth-whole", NULL,
	      "long long unsigned int mask at 8", NULL);
	evidence_is(r, "type.size", "struct resp", DIFF_EV_CONTRACT,
		    "test.kabispec:6: struct resp is whole: copied at the kernel's size, whatever the"
		    " caller's length");
	ok(r && diff_result__find(r, "type.size", "struct resp") &&
	   !diff_result__find(r, "type.size", "struct resp")->rule->uncontracted,
	   "tail-growth-whole is breaking by the contract, not 'potentially'");
	/* a gated member in old padding */
	check(r, "type.member.added", "struct umem.meta_len", "member-added-unread", NULL,
	      "unsigned int meta_len at 12", NULL);
	check(r, "type.align", "struct resp", "type-align-unembedded", "4", "8", NULL);
	is_int(r ? (long)diff_result__count(r, DIFF__NR_CATEGORIES, DIFF_BREAKING) : -1, 6,
	       "contract: breaking are grown's x, moved cmd and size, and resp's growth");
	is_int(r ? (long)diff_result__count(r, DIFF__NR_CATEGORIES, DIFF_SOURCE) : -1, 4,
	       "contract: source are msg's array and size, wire's alignment, resp's alignment"
	       " (embedded nowhere)");
	diff_result__free(r);

	/* A gate the old headers had: old binaries may set it, the member is read. */
	gate = "GATE_OLD";
	r = pair("unread-old-gate", build_unread, &conf);
	check(r, "type.member.added", "struct ctrl.path_len", "member-added", NULL,
	      "short unsigned int path_len at 24", NULL);
	check(r, "type.member.added", "struct umem.meta_len", "padding-reuse-uncontracted", NULL,
	      "unsigned int meta_len at 12", NULL);
	diff_result__free(r);
	/* A gate no header defines: a slip of the contract's, not a fact. */
	gate = "GATE_NOWHERE";
	r = pair("unread-no-gate", build_unread, &conf);
	check(r, "type.member.added", "struct umem.meta_len", "padding-reuse-uncontracted", NULL,
	      "unsigned int meta_len at 12", NULL);
	diff_result__free(r);
	gate = "GATE_NEW";
	/* data[1] not unused: its bytes held data old binaries may use. */
	data_unused = false;
	r = pair("unread-data-used", build_unread, &conf);
	check(r, "type.array.bound", "struct ctrl.data", "array-bound", "long long unsigned int[2]",
	      "long long unsigned int[1]", NULL);
	check(r, "type.member.added", "struct ctrl.path_len", "member-added", NULL,
	      "short unsigned int path_len at 24", NULL);
	check(r, "type.member.added", "struct ctrl.rsv", "member-added", NULL, "unsigned int rsv at 28",
	      NULL);
	diff_result__free(r);
	data_unused = true;
}

int main(void)
{
	test_without_contract();
	test_with_contract();
	return tap_done();
}

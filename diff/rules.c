// SPDX-License-Identifier: GPL-2.0-only
/*
 * The verdict rules of diff/RULES.md, as data. The engine never decides a
 * verdict itself: it picks the rule whose condition holds and the verdict is
 * the rule's. Keep this table and RULES.md in the same order and wording
 * (tests/t-diff.c checks that every id here appears in RULES.md).
 */
#include "diff/diff_internal.h"

#include <string.h>

#define B DIFF_BREAKING
#define S DIFF_SOURCE
#define C DIFF_COMPATIBLE
#define I DIFF_INFO

static const struct diff_rule rules[] = {
	/* syscalls */
	{ "syscall-added", "syscall.added", C, false,
	  "a new syscall: old binaries never call it" },
	{ "syscall-removed", "syscall.removed", B, false,
	  "old binaries calling it get ENOSYS" },
	{ "syscall-removed-unimplemented", "syscall.removed: the old kernel did not implement it (its entry is a kernel/sys_ni.c stub, or the contract calls it unimplemented)", S, false,
	  "old binaries got ENOSYS already and still do; old source naming its number no longer builds" },
	{ "syscall-renumbered", "syscall.renumbered", B, false,
	  "old binaries call the old number, which now means something else or nothing" },
	{ "syscall-params-count", "syscall.param.count", B, false,
	  "old binaries pass the old number of arguments" },
	{ "syscall-param-type", "syscall.param.type, syscall.return.type: another size or layout", B, false,
	  "old binaries pass or expect the old type" },
	{ "syscall-param-renamed", "syscall.param.name", I, false,
	  "parameter names are not part of the binary interface" },
	/* types */
	{ "type-spelling", "*.type, syscall.param.type: the same type under another name (typedef)", I, false,
	  "same size, layout and representation; only the spelling changed" },
	{ "pointee-void", "syscall.param.type, syscall.return.type, type.member.type, ioctl.arg.type: a pointer whose pointee became or stopped being void", S, false,
	  "the same pointer is passed; void gives the pointee no size, so what the kernel reads or writes through it is its code's (and the contract's) business, not the type's; old source may need another cast" },
	{ "type-kind", "type.kind: struct <-> union, or another kind", B, false,
	  "every member's placement changes meaning" },
	{ "type-size", "type.size: a size change that is not a tail growth", B, false,
	  "old binaries copy the old number of bytes, or see members at other offsets" },
	{ "type-align", "type.align", B, false,
	  "the type's placement inside other types and arrays changes" },
	{ "tail-growth-extensible", "type.size, type.member.added: growth at the tail of a struct (or union) the contract calls extensible,"
	  " or of an anonymous struct/union embedded in one as an alternative of the union or the struct's last member", C, false,
	  "the kernel accepts the old, shorter size and treats the missing tail as zero" },
	{ "tail-growth-uncontracted", "type.size, type.member.added: growth at the tail, no contract", B, true,
	  "no contract says the struct is extensible, so old binaries may be refused or misread" },
	{ "member-removed", "type.member.removed", B, false,
	  "old binaries still read or write it" },
	{ "member-added", "type.member.added over bytes that held another member", B, false,
	  "old binaries put other data in those bytes" },
	{ "member-added-empty", "type.member.added that occupies no bytes (a flexible array, an empty struct)", I, false,
	  "no byte changes meaning: the member only names where variable-length data starts" },
	{ "member-added-alias", "type.member.added in a union, over bytes a kept member still covers", C, false,
	  "another name for the same bytes; the kept member is unchanged" },
	{ "padding-reuse", "type.member.added in bytes that were padding, the contract says padding must be zero", C, false,
	  "old binaries leave the bytes zero, which the kernel reads as 'not set'" },
	{ "padding-reuse-uncontracted", "type.member.added in bytes that were padding, no contract", B, true,
	  "nothing says old binaries zeroed the padding" },
	{ "padding-reuse-out", "type.member.added in bytes that were padding, a member the contract calls output-only (out)", C, false,
	  "the kernel writes it and never reads it: whatever old binaries left there is overwritten, not interpreted" },
	{ "reserved-reuse", "changes to a member the contract calls reserved (or whose name says reserved: reserved, resv, rsvd, rsv, spare, pad, padding, unused, with underscores and a number), within its bytes", C, false,
	  "old binaries must have left the reserved bytes zero" },
	{ "reserved-carved", "type.member.offset: a reserved member (contract, or a name that says reserved) whose remainder moved within its old bytes, the type's size kept", C, false,
	  "new members were carved out of its front; what is left is still reserved, and old binaries left all of it zero" },
	{ "member-renamed", "type.member.renamed: same offset, size and type", I, false,
	  "member names are not part of the binary interface" },
	{ "member-moved", "type.member.offset", B, false,
	  "old binaries read and write it at the old offset" },
	{ "member-type", "type.member.type: another size or layout", B, false,
	  "old binaries use the old representation" },
	{ "member-bitfield", "type.member.bitfield: bit position or width", B, false,
	  "old binaries mask and shift the old bits" },
	{ "array-bound", "type.array.bound, type.array.flexible: element count changed", B, false,
	  "old binaries copy the old number of elements" },
	{ "array-flexible-spelling", "type.array.flexible: [0] <-> [] (both without storage)", I, false,
	  "same layout: neither form occupies bytes" },
	{ "array-one-element", "type.array.flexible: [1] <-> [] as the last member of a struct whose size is unchanged", I, false,
	  "a one-element array is the old spelling of a flexible array; the struct's size and every offset stay" },
	{ "enumerator-added", "type.enumerator.added", C, false,
	  "a new value old binaries never pass" },
	{ "enumerator-removed", "type.enumerator.removed", B, false,
	  "old binaries still pass the value" },
	{ "enumerator-value", "type.enumerator.value", B, false,
	  "old binaries pass the old value" },
	{ "func-signature", "type.func.params: a function pointer's parameter count", B, false,
	  "callers and callees disagree on the arguments" },
	/* constants: judged by their role (contract, expression, naming convention) */
	{ "constant-added", "constant.added", C, false,
	  "old binaries never use it" },
	{ "constant-removed", "constant.removed: a constant no set of the contract lists", S, false,
	  "old binaries keep the value they were built with; old source that names it no longer builds" },
	{ "constant-removed-set-value", "constant.removed: a value of a flag set or enum of the contract", B, false,
	  "old binaries still pass it and the kernel no longer knows it (refused, or ignored)" },
	{ "constant-value", "constant.value: a flag or value (the contract lists it, or no role is known)", B, false,
	  "old binaries pass the old value" },
	{ "constant-value-unbuilt", "constant.value of a header none of whose ioctls the old kernel built code for", S, false,
	  "no old binary could use it with the old kernel; old source gets the new value" },
	{ "constant-count", "constant.value: a count or end sentinel (*_CNT, *_NR, *_END, *_LAST, a derived *_MAX)", I, false,
	  "the number of values known so far is no promise to binaries" },
	{ "constant-version-up", "constant.value: a version that went up", C, false,
	  "old binaries asked for or checked an older version, which newer ones support" },
	{ "constant-version-down", "constant.value: a version that went down", B, false,
	  "old binaries check for a version the kernel no longer claims" },
	{ "constant-version-major", "constant.value: a major version that went up", B, false,
	  "a new major version declares the interface incompatible with the old one" },
	{ "constant-minimum-up", "constant.value: the oldest accepted version went up", B, false,
	  "what old binaries or their data say they are is now refused" },
	{ "constant-minimum-down", "constant.value: the oldest accepted version went down", C, false,
	  "the kernel accepts more than before" },
	{ "constant-mask-grown", "constant.value: a mask that only gained bits", C, false,
	  "every bit old binaries could use is still in it" },
	{ "constant-mask-lost", "constant.value: a mask that lost bits", B, false,
	  "old binaries use a bit the kernel no longer counts as valid" },
	{ "constant-reserved-shrunk", "constant.value: a mask of reserved bits that only lost bits", C, false,
	  "bits were given a meaning; what old binaries left zero stays valid" },
	{ "constant-reserved-grown", "constant.value: a mask of reserved bits that gained bits", B, false,
	  "bits old binaries could set are now reserved" },
	/* ioctls */
	{ "ioctl-added", "ioctl.added", C, false,
	  "old binaries never send it" },
	{ "ioctl-removed", "ioctl.removed", B, false,
	  "old binaries send it and get ENOTTY" },
	{ "ioctl-removed-unbuilt", "ioctl.removed: no binary of the old kernel (read with its modules) defines its argument type, or any type of its header's ioctls", S, false,
	  "the old kernel had no code for it: old binaries got ENOTTY already; old source no longer builds" },
	{ "ioctl-removed-unimplemented", "ioctl.removed: the contract calls it unimplemented", S, false,
	  "the old kernel already failed it; old source no longer builds" },
	{ "ioctl-cmd", "ioctl.cmd: direction, size, type or number changed", B, false,
	  "old binaries send the old command number" },
	{ "ioctl-cmd-unbuilt", "ioctl.cmd of an ioctl whose header the old kernel built no code for", S, false,
	  "no old binary could use it with the old kernel; old source gets the new number" },
	{ "ioctl-size-tolerant", "ioctl.cmd: only the size changed, and the contract calls its family size tolerant", C, false,
	  "the dispatcher matches the command without its size, copies what old binaries send and zero-fills the rest" },
	{ "ioctl-arg-type", "ioctl.arg.type: another size or layout", B, false,
	  "old binaries pass the old argument" },
	/* observed: probe results of both kernels (diff/diff-probe.c) */
	{ "probe-flag-accepted", "probe.flag: a bit the old kernel refused (its rejecting errno) the new one accepts", C, false,
	  "old binaries never relied on it; new ones can use it" },
	{ "probe-flag-rejected", "probe.flag: a bit the old kernel accepted the new one refuses", B, false,
	  "old binaries passing it now fail" },
	{ "probe-call-implemented", "probe.errno: ENOSYS on the old kernel, another outcome on the new", C, false,
	  "a new syscall: old binaries never call it (or fall back on ENOSYS)" },
	{ "probe-now-succeeds", "probe.errno: a call that failed on the old kernel succeeds on the new", C, false,
	  "a restriction was lifted: what old binaries did still works" },
	{ "probe-errno-changed", "probe.errno, probe.flag: another errno (a bit refused with another one too), or a call that succeeded now fails", B, false,
	  "old binaries that test for the old errno, or relied on success, take another path" },
	{ "probe-errno-contracted", "probe.errno: another errno, each the one its kernel's contract expects for the arguments", I, false,
	  "the contract changed with the kernel: the contract diff judges that change" },
	{ "probe-deviation-gone", "probe.deviation: the old kernel answered a known deviation of the contract, the new one does not", C, false,
	  "the new kernel does what the contract says: programs written to it are unaffected" },
	{ "probe-flag-known", "probe.flag: a bit the old kernel refused as unknown is a flag of the new one, not refused as unknown (its own checks answer)", C, false,
	  "old binaries never passed it; new ones can use it" },
	{ "probe-deviation-accepts", "probe.deviation: the new kernel accepts, as a known deviation of the contract, what the old one refused", C, false,
	  "old binaries never relied on it being accepted" },
	{ "probe-deviation-new", "probe.deviation: the new kernel answers a known deviation of the contract the old one did not (a failure, or success where the old kernel succeeded too)", B, false,
	  "old binaries written to the contract get the deviation's answer" },
	/* contract versions: --old-spec/--new-spec (diff/diff-contract.c) */
	{ "errno-added", "syscall.errno.added, ioctl.errno.added: an errno (name and condition) the old contract did not list", C, false,
	  "a new failure, normally of an input old binaries do not pass (a new flag, a new size); they handle it as any failure" },
	{ "errno-removed", "syscall.errno.removed, ioctl.errno.removed: an errno (name and condition) the new contract no longer lists", B, false,
	  "old binaries that test for it to detect a condition (feature probing, a retry) no longer see it" },
	{ "set-value-added", "set.value.added: a value of a flag set or enum the old contract did not list", C, false,
	  "a new bit or value old binaries never pass" },
	{ "set-value-removed", "set.value.removed: a value of a flag set or enum the new contract no longer lists", B, false,
	  "old binaries still pass it" },
};

const struct diff_rule *diff_rules(size_t *n)
{
	*n = sizeof(rules) / sizeof(rules[0]);
	return rules;
}

const struct diff_rule *diff_rule_by_id(const char *id)
{
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (!strcmp(rules[i].id, id))
			return &rules[i];
	return NULL;
}

const char *diff_verdict_name(enum diff_verdict v)
{
	static const char *const names[] = { "info", "compatible", "source", "breaking" };

	return (unsigned)v < DIFF__NR_VERDICTS ? names[v] : "?";
}

const char *diff_evidence_name(enum diff_evidence e)
{
	static const char *const names[] = { "layout", "contract", "kernel", "probe", "convention" };

	return (unsigned)e < DIFF__NR_EVIDENCE ? names[e] : "?";
}

const char *diff_category_name(enum diff_category c)
{
	static const char *const names[] = { "syscalls", "types", "constants", "ioctls" };

	return (unsigned)c < DIFF__NR_CATEGORIES ? names[c] : "?";
}

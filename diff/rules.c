// SPDX-License-Identifier: GPL-2.0-only
/*
 * The verdict rules of diff/RULES.md, as data. The engine never decides a
 * verdict itself: it picks the rule whose condition holds and the verdict is
 * the rule's. Keep this table and RULES.md in the same order and wording
 * (tests/t-diff.c checks that each row here is RULES.md's row, in order).
 * A rule lists the kinds of change it judges, and a change cites a rule
 * only for one of them (diff_add()).
 */
#include "diff/diff.h"

#include <string.h>

#define B DIFF_BREAKING
#define S DIFF_SOURCE
#define C DIFF_COMPATIBLE
#define I DIFF_INFO

static const struct diff_rule rules[] = {
	/* syscalls */
	[DIFF_R_SYSCALL_ADDED] = { "syscall-added", { DIFF_K_SYSCALL_ADDED },
	  "syscall.added", C, false,
	  "a new syscall: old binaries never call it" },
	[DIFF_R_SYSCALL_REMOVED] = { "syscall-removed", { DIFF_K_SYSCALL_REMOVED },
	  "syscall.removed", B, false,
	  "old binaries calling it get ENOSYS" },
	[DIFF_R_SYSCALL_REMOVED_UNIMPLEMENTED] = { "syscall-removed-unimplemented", { DIFF_K_SYSCALL_REMOVED },
	  "syscall.removed: the old kernel did not implement it (its entry is a kernel/sys_ni.c stub, or the contract calls it unimplemented)", S, false,
	  "old binaries got ENOSYS already and still do; old source naming its number no longer builds" },
	[DIFF_R_SYSCALL_ABI_REMOVED] = { "syscall-abi-removed", { DIFF_K_SYSCALL_REMOVED },
	  "syscall.removed: every syscall of an ABI, the new kernel having no table or dispatcher for it (x32 without CONFIG_X86_X32_ABI)", B, false,
	  "programs of that ABI only: each syscall they make gets ENOSYS, those of the other ABIs lose nothing; one change for the ABI, not one per syscall" },
	[DIFF_R_SYSCALL_ABI_ADDED] = { "syscall-abi-added", { DIFF_K_SYSCALL_ADDED },
	  "syscall.added: every syscall of an ABI the old kernel had no table or dispatcher for", C, false,
	  "programs of that ABI could not run on the old kernel; nothing old calls it" },
	[DIFF_R_SYSCALL_RENUMBERED] = { "syscall-renumbered", { DIFF_K_SYSCALL_RENUMBERED },
	  "syscall.renumbered", B, false,
	  "old binaries call the old number, which now means something else or nothing" },
	[DIFF_R_SYSCALL_IMPLEMENTED] = { "syscall-implemented", { DIFF_K_SYSCALL_PARAM_COUNT },
	  "syscall.param.count: the old kernel's entry was a kernel/sys_ni.c stub, the new one implements the call", C, false,
	  "old binaries got ENOSYS from the stub and still work; the stub's parameters are no signature of the call" },
	[DIFF_R_SYSCALL_COMPILED_OUT] = { "syscall-compiled-out", { DIFF_K_SYSCALL_PARAM_COUNT },
	  "syscall.param.count: the new kernel's entry is a kernel/sys_ni.c stub (the call compiled out, its slot kept)", B, false,
	  "old binaries calling it get ENOSYS" },
	[DIFF_R_SYSCALL_PARAMS_COUNT] = { "syscall-params-count", { DIFF_K_SYSCALL_PARAM_COUNT },
	  "syscall.param.count", B, false,
	  "old binaries pass the old number of arguments" },
	[DIFF_R_SYSCALL_PARAM_TYPE] = { "syscall-param-type", { DIFF_K_SYSCALL_PARAM_TYPE, DIFF_K_SYSCALL_RETURN_TYPE },
	  "syscall.param.type, syscall.return.type: another size or layout", B, false,
	  "old binaries pass or expect the old type" },
	[DIFF_R_SYSCALL_PARAM_RENAMED] = { "syscall-param-renamed", { DIFF_K_SYSCALL_PARAM_NAME },
	  "syscall.param.name", I, false,
	  "parameter names are not part of the binary interface" },
	/* types */
	[DIFF_R_TYPE_SPELLING] = { "type-spelling",
	  { DIFF_K_SYSCALL_PARAM_TYPE, DIFF_K_SYSCALL_RETURN_TYPE, DIFF_K_IOCTL_ARG_TYPE,
	    DIFF_K_TYPE_MEMBER_TYPE },
	  "syscall.param.type, syscall.return.type, ioctl.arg.type, type.member.type:"
	  " the same type under another name (typedef), or an anonymous struct or union given a tag", I, false,
	  "same size, layout and representation; only the spelling changed" },
	[DIFF_R_INTEGER_SIGNEDNESS] = { "integer-signedness", { DIFF_K_SYSCALL_PARAM_TYPE, DIFF_K_SYSCALL_RETURN_TYPE, DIFF_K_IOCTL_ARG_TYPE, DIFF_K_TYPE_MEMBER_TYPE },
	  "syscall.param.type, syscall.return.type, ioctl.arg.type, type.member.type: the same integer type (or array of it) with the other signedness", S, false,
	  "the same bytes are passed; only values past the signed range read differently, and old source compares or prints them otherwise when rebuilt" },
	[DIFF_R_TYPE_WRAPPED] = { "type-wrapped", { DIFF_K_SYSCALL_PARAM_TYPE, DIFF_K_SYSCALL_RETURN_TYPE, DIFF_K_IOCTL_ARG_TYPE, DIFF_K_TYPE_MEMBER_TYPE },
	  "syscall.param.type, syscall.return.type, ioctl.arg.type, type.member.type: a struct of one member replaced by that member's type, or the reverse (guid_t -> __u8[16])", S, false,
	  "the same bytes at the same place; old source that names the struct or its member no longer builds" },
	[DIFF_R_ENUM_RENAMED] = { "enum-renamed", { DIFF_K_SYSCALL_PARAM_TYPE, DIFF_K_SYSCALL_RETURN_TYPE, DIFF_K_IOCTL_ARG_TYPE, DIFF_K_TYPE_MEMBER_TYPE },
	  "syscall.param.type, syscall.return.type, ioctl.arg.type, type.member.type: an enum replaced by an enum of another tag, of the same size, that keeps every old enumerator with its value (enum what -> enum proc_cn_event)", S, false,
	  "the same values in the same bytes; new enumerators are values old binaries never pass; old source that names the old tag no longer builds" },
	[DIFF_R_POINTEE_VOID] = { "pointee-void", { DIFF_K_SYSCALL_PARAM_TYPE, DIFF_K_SYSCALL_RETURN_TYPE, DIFF_K_TYPE_MEMBER_TYPE, DIFF_K_IOCTL_ARG_TYPE },
	  "syscall.param.type, syscall.return.type, type.member.type, ioctl.arg.type: a pointer whose pointee became or stopped being void", S, false,
	  "the same pointer is passed; void gives the pointee no size, so what the kernel reads or writes through it is its code's (and the contract's) business, not the type's; old source may need another cast" },
	[DIFF_R_TYPE_KIND] = { "type-kind", { DIFF_K_TYPE_KIND },
	  "type.kind: struct <-> union, or another kind", B, false,
	  "every member's placement changes meaning" },
	[DIFF_R_TYPE_KIND_LAYOUT] = { "type-kind-layout", { DIFF_K_TYPE_KIND },
	  "type.kind: a struct of one member <-> a union with it, the same size", I, false,
	  "a struct of one member at 0 is laid out as a union of it; the members are compared as usual" },
	[DIFF_R_TYPE_SIZE] = { "type-size", { DIFF_K_TYPE_SIZE },
	  "type.size: a size change that is not a tail growth", B, false,
	  "old binaries copy the old number of bytes, or see members at other offsets" },
	[DIFF_R_TYPE_ALIGN] = { "type-align", { DIFF_K_TYPE_ALIGN },
	  "type.align: not between a packed layout and one that only looks natural (DWARF states no packing)", B, false,
	  "the type's placement inside other types and arrays changes" },
	[DIFF_R_TYPE_ALIGN_PREFIX] = { "type-align-prefix", { DIFF_K_TYPE_ALIGN },
	  "type.align of a struct (or union) the contract calls prefix", S, false,
	  "the kernel copies it as the bytes of a length the caller gives, never as an element of"
	  " its own arrays or structs: old binaries keep their placement of it; rebuilt source that"
	  " embeds it places it anew" },
	[DIFF_R_TYPE_ALIGN_MESSAGE] = { "type-align-message", { DIFF_K_TYPE_ALIGN },
	  "type.align of a struct (or union) the contract calls message", S, false,
	  "the kernel reads the message as bytes at any address (from a socket, a buffer the caller sizes): old binaries send and receive the same bytes; rebuilt source that embeds it places it anew" },
	[DIFF_R_TYPE_ALIGN_UNEMBEDDED] = { "type-align-unembedded", { DIFF_K_TYPE_ALIGN },
	  "type.align of a named struct (or union) that no type of either kernel embeds (a member, an"
	  " array's element), both kernels read with their UAPI headers", S, false,
	  "an alignment places a type inside others and in nothing else: this one crosses only as the"
	  " bytes behind a pointer, which the kernel copies at any address, so old binaries keep their"
	  " placement of it; rebuilt source that embeds it in its own types places it anew" },
	[DIFF_R_TAIL_GROWTH_EXTENSIBLE] = { "tail-growth-extensible", { DIFF_K_TYPE_SIZE, DIFF_K_TYPE_MEMBER_ADDED },
	  "type.size, type.member.added: growth at the tail of a struct (or union) the contract calls extensible,"
	  " or of an anonymous struct/union embedded in one as an alternative of the union or the struct's last member", C, false,
	  "the kernel accepts the old, shorter size and treats the missing tail as zero" },
	[DIFF_R_TAIL_GROWTH_UNCONTRACTED] = { "tail-growth-uncontracted", { DIFF_K_TYPE_SIZE, DIFF_K_TYPE_MEMBER_ADDED },
	  "type.size, type.member.added: growth at the tail, no contract", B, true,
	  "no contract says the struct is extensible, so old binaries may be refused or misread" },
	[DIFF_R_TAIL_GROWTH_UNION] = { "tail-growth-union", { DIFF_K_TYPE_SIZE, DIFF_K_TYPE_MEMBER_ADDED },
	  "type.size, type.member.added: growth at the tail of a struct that every path embeds as an alternative of a union whose size did not change", C, false,
	  "the argument's size and every old member's offset stay: old binaries send and receive the same bytes, and the new members lie in the union's tail, bytes no old member covered" },
	[DIFF_R_TAIL_GROWTH_TOLERANT] = { "tail-growth-tolerant", { DIFF_K_TYPE_SIZE, DIFF_K_TYPE_MEMBER_ADDED },
	  "type.size, type.member.added: growth at the tail of a struct that every path passes as the argument of an ioctl of a family the contract calls size tolerant", C, false,
	  "the dispatcher copies the old, shorter argument old binaries send and zero-fills the new members" },
	[DIFF_R_TAIL_GROWTH_PREFIX] = { "tail-growth-prefix", { DIFF_K_TYPE_SIZE, DIFF_K_TYPE_MEMBER_ADDED },
	  "type.size, type.member.added: growth at the tail of a struct (or union) the contract calls prefix", C, false,
	  "the kernel copies no more than the length the caller gives, or the caller reads no more than"
	  " it knows: old binaries pass and get the old prefix, and the tail they do not send is not read"
	  " (zero-filled, or behind a flag or version they cannot set)" },
	[DIFF_R_TAIL_GROWTH_WHOLE] = { "tail-growth-whole", { DIFF_K_TYPE_SIZE, DIFF_K_TYPE_MEMBER_ADDED },
	  "type.size, type.member.added: growth at the tail of a struct (or union) the contract calls whole", B, false,
	  "the kernel copies its own, larger size whatever length the caller gave: it writes past the end of an old binary's buffer, or reads bytes an old binary never set" },
	[DIFF_R_TAIL_SHRINK_UNUSED] = { "tail-shrink-unused", { DIFF_K_TYPE_SIZE },
	  "type.size: a struct that shrank by bytes that were padding or members the contract calls unused, no other change of it breaking", C, false,
	  "the kernel never read nor wrote the bytes it lost: an old binary's larger copy only carries bytes nobody reads (an array of the struct is judged where the array is)" },
	[DIFF_R_MEMBER_REMOVED] = { "member-removed", { DIFF_K_TYPE_MEMBER_REMOVED },
	  "type.member.removed", B, false,
	  "old binaries still read or write it" },
	[DIFF_R_MEMBER_REMOVED_UNUSED] = { "member-removed-unused", { DIFF_K_TYPE_MEMBER_REMOVED },
	  "type.member.removed: a member the contract calls unused", C, false,
	  "the kernel never read nor wrote it: its bytes were the caller's own, and old binaries keep them to themselves" },
	[DIFF_R_MEMBER_ADDED] = { "member-added", { DIFF_K_TYPE_MEMBER_ADDED },
	  "type.member.added over bytes that held another member", B, false,
	  "old binaries put other data in those bytes" },
	[DIFF_R_MEMBER_ADDED_EMPTY] = { "member-added-empty", { DIFF_K_TYPE_MEMBER_ADDED },
	  "type.member.added that occupies no bytes (a flexible array, an empty struct)", I, false,
	  "no byte changes meaning: the member only names where variable-length data starts" },
	[DIFF_R_MEMBER_ADDED_ALIAS] = { "member-added-alias", { DIFF_K_TYPE_MEMBER_ADDED },
	  "type.member.added in a union, over bytes a kept member still covers", C, false,
	  "another name for the same bytes; the kept member is unchanged" },
	[DIFF_R_PADDING_REUSE] = { "padding-reuse", { DIFF_K_TYPE_MEMBER_ADDED },
	  "type.member.added in bytes that were padding, the contract says padding must be zero", C, false,
	  "old binaries leave the bytes zero, which the kernel reads as 'not set'" },
	[DIFF_R_PADDING_REUSE_UNCONTRACTED] = { "padding-reuse-uncontracted", { DIFF_K_TYPE_MEMBER_ADDED },
	  "type.member.added in bytes that were padding, no contract", B, true,
	  "nothing says old binaries zeroed the padding" },
	[DIFF_R_PADDING_REUSE_OUT] = { "padding-reuse-out", { DIFF_K_TYPE_MEMBER_ADDED, DIFF_K_TYPE_MEMBER_RENAMED },
	  "type.member.added, type.member.renamed: a member the contract calls output-only (out), in bytes that were padding (or a member whose name says padding only)", C, false,
	  "the kernel writes it and never reads it: whatever old binaries left there is overwritten, not interpreted" },
	[DIFF_R_PADDING_NAMED] = { "padding-named", { DIFF_K_TYPE_MEMBER_ADDED, DIFF_K_TYPE_MEMBER_REMOVED },
	  "type.member.added, type.member.removed: a member that is padding itself (the contract calls"
	  " it reserved, or it has no kind and its name says reserved), added in bytes that were"
	  " padding, or removed with no new member in its bytes", I, false,
	  "the bytes stay padding: a name gives them no meaning, and the kernel reads what old"
	  " binaries left there no more than before" },
	[DIFF_R_MEMBER_ADDED_UNREAD] = { "member-added-unread", { DIFF_K_TYPE_MEMBER_ADDED, DIFF_K_TYPE_MEMBER_RENAMED },
	  "type.member.added, type.member.renamed: a member in bytes that were padding (or a member whose name says padding only) or members the contract calls unused, which the new kernel does not read from old binaries: the contract calls it unused, output-only (out, over unused members), or read only when a UAPI constant the old headers lack is in play (when)", C, false,
	  "whatever old binaries left in those bytes is not interpreted: they cannot set a flag or issue a command their headers do not have" },
	[DIFF_R_RESERVED_REUSE] = { "reserved-reuse",
	  { DIFF_K_TYPE_MEMBER_ADDED, DIFF_K_TYPE_MEMBER_REMOVED, DIFF_K_TYPE_MEMBER_RENAMED,
	    DIFF_K_TYPE_MEMBER_TYPE, DIFF_K_TYPE_MEMBER_BITFIELD, DIFF_K_TYPE_ARRAY_BOUND,
	    DIFF_K_TYPE_ARRAY_FLEXIBLE },
	  "type.member.added, type.member.removed, type.member.renamed, type.member.type,"
	  " type.member.bitfield, type.array.bound, type.array.flexible: a change to a member"
	  " the contract calls reserved (or whose name says reserved space: reserved, resvd, resv,"
	  " rsvd, rsv, spare, unused; or padding: pad, padding, __align; with underscores and a"
	  " number), within its bytes; for a name that says padding only, no new member or name"
	  " of a meaning of its own",
	  C, false,
	  "old binaries must have left the reserved bytes zero; what is still padding has no meaning" },
	[DIFF_R_RESERVED_CARVED] = { "reserved-carved", { DIFF_K_TYPE_MEMBER_OFFSET },
	  "type.member.offset: a reserved member (contract, or a name that says reserved) whose remainder moved within its old bytes, the type's size kept", C, false,
	  "new members were carved out of its front; what is left is still reserved, and old binaries left all of it zero" },
	[DIFF_R_PADDING_MEMBER_REUSE_UNCONTRACTED] = { "padding-member-reuse-uncontracted",
	  { DIFF_K_TYPE_MEMBER_ADDED, DIFF_K_TYPE_MEMBER_RENAMED },
	  "type.member.added, type.member.renamed: a member (or a new name) of a meaning of its own"
	  " in the bytes of a member whose name says padding only (pad, padding, __align, with"
	  " underscores and a number), the contract describing neither", B, true,
	  "a name that says padding makes the compiler's hole explicit and promises nothing about"
	  " its value: as for unnamed padding, nothing says old binaries zeroed it, or that the old"
	  " kernel refused them when they did not" },
	[DIFF_R_MEMBER_RENAMED] = { "member-renamed", { DIFF_K_TYPE_MEMBER_RENAMED },
	  "type.member.renamed: same offset, size and type", I, false,
	  "member names are not part of the binary interface" },
	[DIFF_R_MEMBER_MOVED] = { "member-moved", { DIFF_K_TYPE_MEMBER_OFFSET },
	  "type.member.offset", B, false,
	  "old binaries read and write it at the old offset" },
	[DIFF_R_MEMBER_TYPE] = { "member-type", { DIFF_K_TYPE_MEMBER_TYPE },
	  "type.member.type: another size or layout", B, false,
	  "old binaries use the old representation" },
	[DIFF_R_MEMBER_BITFIELD] = { "member-bitfield", { DIFF_K_TYPE_MEMBER_BITFIELD },
	  "type.member.bitfield: bit position or width", B, false,
	  "old binaries mask and shift the old bits" },
	[DIFF_R_ARRAY_BOUND] = { "array-bound", { DIFF_K_TYPE_ARRAY_BOUND, DIFF_K_TYPE_ARRAY_FLEXIBLE },
	  "type.array.bound, type.array.flexible: element count changed", B, false,
	  "old binaries copy the old number of elements" },
	[DIFF_R_ARRAY_SHRINK_UNUSED] = { "array-shrink-unused", { DIFF_K_TYPE_ARRAY_BOUND },
	  "type.array.bound: an array that lost elements the contract calls unused, at the same offset", C, false,
	  "the kernel never read nor wrote the elements it lost; what their bytes hold now is judged on its own" },
	[DIFF_R_ARRAY_FLEXIBLE_SPELLING] = { "array-flexible-spelling", { DIFF_K_TYPE_ARRAY_FLEXIBLE },
	  "type.array.flexible: [0] <-> [] (both without storage)", I, false,
	  "same layout: neither form occupies bytes" },
	[DIFF_R_ARRAY_FLEXIBLE_ELEMENT] = { "array-flexible-element", { DIFF_K_TYPE_ARRAY_FLEXIBLE },
	  "type.array.flexible: a flexible array ([] or [0]) whose element type changed", S, false,
	  "neither occupies bytes: the data behind it is the same bytes, sized elsewhere; old source indexing it reads other elements when rebuilt" },
	[DIFF_R_ARRAY_ONE_ELEMENT] = { "array-one-element", { DIFF_K_TYPE_ARRAY_FLEXIBLE },
	  "type.array.flexible: [1] <-> [] as the last member of a struct whose size is unchanged", I, false,
	  "a one-element array is the old spelling of a flexible array; the struct's size and every offset stay" },
	[DIFF_R_ARRAY_ONE_ELEMENT_MESSAGE] = { "array-one-element-message", { DIFF_K_TYPE_ARRAY_FLEXIBLE, DIFF_K_TYPE_SIZE },
	  "type.array.flexible, type.size: [1] <-> [] as the last member of a struct the contract calls message, the size changing by no more than that element", S, false,
	  "the caller's length, not the C size, says how long the message is: old binaries send the same bytes; rebuilt source that computes a length from the struct's size gets another one" },
	[DIFF_R_ENUMERATOR_ADDED] = { "enumerator-added", { DIFF_K_TYPE_ENUMERATOR_ADDED },
	  "type.enumerator.added", C, false,
	  "a new value old binaries never pass" },
	[DIFF_R_ENUMERATOR_REMOVED] = { "enumerator-removed", { DIFF_K_TYPE_ENUMERATOR_REMOVED },
	  "type.enumerator.removed", B, false,
	  "old binaries still pass the value" },
	[DIFF_R_ENUMERATOR_VALUE] = { "enumerator-value", { DIFF_K_TYPE_ENUMERATOR_VALUE },
	  "type.enumerator.value", B, false,
	  "old binaries pass the old value" },
	[DIFF_R_ENUMERATOR_RENAMED] = { "enumerator-renamed", { DIFF_K_TYPE_ENUMERATOR_RENAMED },
	  "type.enumerator.renamed: removed, its value given to one new name in the same enum, the old name still a constant of that value (a #define, or an enumerator of another enum), neither a count or end marker (`__*`, `*MAX*`, `*_LAST`, `*_CNT`, `*_COUNT`, `*_NR`, `*_NUM`, `*_END`)", I, false,
	  "the value is the same and the old name still compiles: neither binaries nor sources see a difference" },
	[DIFF_R_ENUMERATOR_COUNT] = { "enumerator-count", { DIFF_K_TYPE_ENUMERATOR_REMOVED, DIFF_K_TYPE_ENUMERATOR_VALUE },
	  "type.enumerator.removed, type.enumerator.value: a count or end marker: named like one (`__*`, `*MAX*`, `NUM_*`, `*_NUM_*`, `*_LAST`, `*_CNT`, `*_COUNT`, `*_NR`, `*_NUM`, `*_END`, `*_NBITS`, `*_SIZE`) and no enumerator not named so has a greater value", I, false,
	  "it counts the values known so far, which is no promise to binaries; one that leaves the enum (6.12's MAX_BPF_LINK_TYPE became a #define) removes no value old binaries pass" },
	[DIFF_R_HEADER_KERNEL_MISMATCH] = { "header-kernel-mismatch", { DIFF_K_TYPE_HEADER_KERNEL },
	  "type.header-kernel: the new kernel's DWARF lays out a struct or union otherwise than the UAPI header that declares it, compiled as user space compiles it (the size, a member's offset, size or bit-field, a member only one side has), the kernel's type declared in that same header of its tree (include/uapi, arch/*/include/uapi), a syscall or ioctl reaching it, and the old kernel without the same difference", B, false,
	  "programs are built from the header: they pass and read the header's layout where the kernel uses its own" },
	[DIFF_R_HEADER_KERNEL_KEPT] = { "header-kernel-mismatch-kept", { DIFF_K_TYPE_HEADER_KERNEL },
	  "type.header-kernel: the same difference, which the old kernel had too", I, false,
	  "no change between the two kernels: binaries built from the header met it on the old kernel already (a defect of both)" },
	[DIFF_R_HEADER_KERNEL_UNREACHED] = { "header-kernel-mismatch-unreached", { DIFF_K_TYPE_HEADER_KERNEL },
	  "type.header-kernel: a difference in a type no syscall or ioctl of the new kernel reaches", I, false,
	  "nothing known passes it between user space and the kernel (a kernel-side copy, or an interface kabi-diff does not see)" },
	[DIFF_R_ENUMERATOR_REMOVED_HEADER] = { "enumerator-removed-header", { DIFF_K_TYPE_ENUMERATOR_REMOVED },
	  "type.enumerator.removed of an enum that only headers reach (no syscall or ioctl of either"
	  " kernel), its value given to no other enumerator", S, false,
	  "as for a constant removed: old binaries keep the value they were built with and the new"
	  " headers give it no other meaning; old source that names it no longer builds" },
	[DIFF_R_TYPE_UNBUILT] = { "type-unbuilt",
	  { DIFF_K_TYPE_KIND, DIFF_K_TYPE_SIZE, DIFF_K_TYPE_ALIGN, DIFF_K_TYPE_MEMBER_ADDED,
	    DIFF_K_TYPE_MEMBER_REMOVED, DIFF_K_TYPE_MEMBER_OFFSET, DIFF_K_TYPE_MEMBER_TYPE,
	    DIFF_K_TYPE_MEMBER_BITFIELD, DIFF_K_TYPE_ARRAY_BOUND, DIFF_K_TYPE_ARRAY_FLEXIBLE,
	    DIFF_K_TYPE_ENUMERATOR_REMOVED, DIFF_K_TYPE_ENUMERATOR_VALUE, DIFF_K_TYPE_FUNC_PARAMS },
	  "type.kind, type.size, type.align, type.member.added, type.member.removed,"
	  " type.member.offset, type.member.type, type.member.bitfield, type.array.bound,"
	  " type.array.flexible, type.enumerator.removed, type.enumerator.value, type.func.params:"
	  " a change its layout calls breaking, of a type that only headers reach (no syscall or ioctl"
	  " of either kernel), each a header none of whose ioctls the old kernel built code for", S, false,
	  "no old binary could pass it to the old kernel; old source gets the new layout" },
	[DIFF_R_HEADER_TYPE_REMOVED] = { "header-type-removed", { DIFF_K_TYPE_REMOVED },
	  "type.removed: a named struct, union or enum the old headers declare and no header of"
	  " the new ones does, its old header compiling on its own in the new tree (or gone from it)",
	  S, false,
	  "user space names it in source only: old binaries keep the layout they were built with"
	  " (a syscall or ioctl that passes it is judged on its own path); old source that names it"
	  " no longer builds" },
	[DIFF_R_HEADER_COMPILE_FAILED] = { "header-compile-failed", { DIFF_K_HEADER_COMPILE },
	  "header.compile: a header that compiles on its own in the old tree and not in the new one"
	  " (the note is the compiler's first error); its types that no other new header declares"
	  " are not compared (the report's coverage lists them)", S, false,
	  "user space can no longer include it: old source that does no longer builds; old binaries"
	  " do not read headers" },
	[DIFF_R_FUNC_SIGNATURE] = { "func-signature", { DIFF_K_TYPE_FUNC_PARAMS },
	  "type.func.params: a function pointer's parameter count", B, false,
	  "callers and callees disagree on the arguments" },
	/* constants: judged by their role (contract, expression, naming convention) */
	[DIFF_R_CONSTANT_ADDED] = { "constant-added", { DIFF_K_CONSTANT_ADDED },
	  "constant.added", C, false,
	  "old binaries never use it" },
	[DIFF_R_CONSTANT_REMOVED] = { "constant-removed", { DIFF_K_CONSTANT_REMOVED },
	  "constant.removed: a constant no set of the contract lists", S, false,
	  "old binaries keep the value they were built with; old source that names it no longer builds" },
	[DIFF_R_CONSTANT_REMOVED_SET_VALUE] = { "constant-removed-set-value", { DIFF_K_CONSTANT_REMOVED },
	  "constant.removed: a value of a flag set or enum of the contract", B, false,
	  "old binaries still pass it and the kernel no longer knows it (refused, or ignored)" },
	[DIFF_R_CONSTANT_REMOVED_MODULE] = { "constant-removed-module", { DIFF_K_CONSTANT_REMOVED },
	  "constant.removed: its header's serving code left with modules the new kernel lacks"
	  " (\"Removed modules\")", B, false,
	  "old binaries still pass the value and no code of the new kernel answers it" },
	[DIFF_R_HEADER_UNSERVED] = { "header-unserved", { DIFF_K_HEADER_UNSERVED },
	  "header.unserved: a header the new headers still define, every binary of the old kernel"
	  " that included it a module the new kernel lacks, none of the new kernel including it"
	  " (\"Removed modules\")", B, false,
	  "its constants and ioctls are still there to build with, and nothing in the new kernel"
	  " answers them" },
	[DIFF_R_SYSCALL_NUMBER_KEPT] = { "syscall-number-kept", { DIFF_K_CONSTANT_REMOVED },
	  "constant.removed: a __NR_ number the new kernel's own table still serves under that name"
	  " (__NR_syscalls: has that many slots)", C, false,
	  "old binaries call the number, which the new kernel still serves; the name may only have left the header"
	  " tree (arm64 since 6.11 spells its numbers in asm/unistd_64.h, generated at build time)" },
	[DIFF_R_SYSCALL_NUMBER_UNSERVED] = { "syscall-number-unserved", { DIFF_K_CONSTANT_REMOVED },
	  "constant.removed: a __NR_ number neither kernel's table serves", I, false,
	  "old binaries calling it got ENOSYS from the old kernel already" },
	[DIFF_R_CONSTANT_VALUE] = { "constant-value", { DIFF_K_CONSTANT_VALUE },
	  "constant.value: a flag or value (the contract lists it, or no role is known)", B, false,
	  "old binaries pass the old value" },
	[DIFF_R_CONSTANT_VALUE_UNBUILT] = { "constant-value-unbuilt", { DIFF_K_CONSTANT_VALUE },
	  "constant.value of a header none of whose ioctls the old kernel built code for", S, false,
	  "no old binary could use it with the old kernel; old source gets the new value" },
	[DIFF_R_CONSTANT_COUNT] = { "constant-count", { DIFF_K_CONSTANT_VALUE },
	  "constant.value: a count or end sentinel (`*_CNT`, `*_NR`, `*_END`, `*_LAST`, a derived `*_MAX`)", I, false,
	  "the number of values known so far is no promise to binaries" },
	[DIFF_R_CONSTANT_VERSION_UP] = { "constant-version-up", { DIFF_K_CONSTANT_VALUE },
	  "constant.value: a version that went up", C, false,
	  "old binaries asked for or checked an older version, which newer ones support" },
	[DIFF_R_CONSTANT_VERSION_DOWN] = { "constant-version-down", { DIFF_K_CONSTANT_VALUE },
	  "constant.value: a version that went down", B, false,
	  "old binaries check for a version the kernel no longer claims" },
	[DIFF_R_CONSTANT_VERSION_MAJOR] = { "constant-version-major", { DIFF_K_CONSTANT_VALUE },
	  "constant.value: a major version that went up", B, false,
	  "a new major version declares the interface incompatible with the old one" },
	[DIFF_R_CONSTANT_MINIMUM_UP] = { "constant-minimum-up", { DIFF_K_CONSTANT_VALUE },
	  "constant.value: the oldest accepted version went up", B, false,
	  "what old binaries or their data say they are is now refused" },
	[DIFF_R_CONSTANT_MINIMUM_DOWN] = { "constant-minimum-down", { DIFF_K_CONSTANT_VALUE },
	  "constant.value: the oldest accepted version went down", C, false,
	  "the kernel accepts more than before" },
	[DIFF_R_CONSTANT_MASK_GROWN] = { "constant-mask-grown", { DIFF_K_CONSTANT_VALUE },
	  "constant.value: a mask that only gained bits", C, false,
	  "every bit old binaries could use is still in it" },
	[DIFF_R_CONSTANT_MASK_LOST] = { "constant-mask-lost", { DIFF_K_CONSTANT_VALUE },
	  "constant.value: a mask that lost bits", B, false,
	  "old binaries use a bit the kernel no longer counts as valid" },
	[DIFF_R_CONSTANT_RESERVED_SHRUNK] = { "constant-reserved-shrunk", { DIFF_K_CONSTANT_VALUE },
	  "constant.value: a mask of reserved bits that only lost bits", C, false,
	  "bits were given a meaning; what old binaries left zero stays valid" },
	[DIFF_R_CONSTANT_RESERVED_GROWN] = { "constant-reserved-grown", { DIFF_K_CONSTANT_VALUE },
	  "constant.value: a mask of reserved bits that gained bits", B, false,
	  "bits old binaries could set are now reserved" },
	[DIFF_R_CONSTANT_HARDWARE] = { "constant-hardware", { DIFF_K_CONSTANT_VALUE },
	  "constant.value: the contract calls it a fact of hardware (a register's offset or size) that no syscall or ioctl passes", S, false,
	  "the kernel neither takes nor gives it: old binaries behave as before on the new kernel; old source rebuilt gets the corrected value" },
	[DIFF_R_CONSTANT_RENUMBERED] = { "constant-renumbered", { DIFF_K_CONSTANT_VALUE },
	  "constant.value: an enumerator whose old value the enum that continues its old one gives to a name new to it", S, false,
	  "old binaries pass the old number, which the new headers still define under the new name; old source rebuilt gets the new number" },
	[DIFF_R_CONSTANT_NOW_ENUMERATOR] = { "constant-now-enumerator", { DIFF_K_CONSTANT_DEFINITION },
	  "constant.definition: a #define (or an enumerator of another enum) the new headers make an enumerator (of a named or an anonymous enum) of the same value", I, false,
	  "a program sees the same name with the same value and builds and runs as before; only `#ifdef NAME` no longer sees it" },
	[DIFF_R_CONSTANT_NOW_MACRO] = { "constant-now-macro", { DIFF_K_CONSTANT_DEFINITION },
	  "constant.definition: an enumerator the new headers make a #define of the same value", I, false,
	  "a program sees the same name with the same value and builds and runs as before; `#ifdef NAME` now sees it" },
	/* ioctls */
	[DIFF_R_IOCTL_ADDED] = { "ioctl-added", { DIFF_K_IOCTL_ADDED },
	  "ioctl.added", C, false,
	  "old binaries never send it" },
	[DIFF_R_IOCTL_REMOVED] = { "ioctl-removed", { DIFF_K_IOCTL_REMOVED },
	  "ioctl.removed", B, false,
	  "old binaries send it and get ENOTTY" },
	[DIFF_R_IOCTL_REMOVED_UNBUILT] = { "ioctl-removed-unbuilt", { DIFF_K_IOCTL_REMOVED },
	  "ioctl.removed: no binary of the old kernel (read with its modules) defines its argument type (for a pointer argument, `_IOWR(M, 1, atreq_t *)`, what it points to), or any type of its header's ioctls", S, false,
	  "the old kernel had no code for it: old binaries got ENOTTY already; old source no longer builds" },
	[DIFF_R_IOCTL_REMOVED_UNIMPLEMENTED] = { "ioctl-removed-unimplemented", { DIFF_K_IOCTL_REMOVED },
	  "ioctl.removed: the contract calls it unimplemented", S, false,
	  "the old kernel already failed it; old source no longer builds" },
	[DIFF_R_IOCTL_CMD] = { "ioctl-cmd", { DIFF_K_IOCTL_CMD },
	  "ioctl.cmd: direction, size, type or number changed", B, false,
	  "old binaries send the old command number" },
	[DIFF_R_IOCTL_CMD_UNBUILT] = { "ioctl-cmd-unbuilt", { DIFF_K_IOCTL_CMD },
	  "ioctl.cmd of an ioctl whose header the old kernel built no code for", S, false,
	  "no old binary could use it with the old kernel; old source gets the new number" },
	[DIFF_R_IOCTL_SIZE_TOLERANT] = { "ioctl-size-tolerant", { DIFF_K_IOCTL_CMD },
	  "ioctl.cmd: only the size changed, and the contract calls its family size tolerant", C, false,
	  "the dispatcher matches the command without its size, copies what old binaries send and zero-fills the rest" },
	[DIFF_R_IOCTL_ARG_TYPE] = { "ioctl-arg-type", { DIFF_K_IOCTL_ARG_TYPE },
	  "ioctl.arg.type: another size or layout", B, false,
	  "old binaries pass the old argument" },
	/* i386 programs on x86_64: the 32-bit header views (diff/diff-ia32.c) */
	[DIFF_R_IOCTL_CMD_IA32] = { "ioctl-cmd-ia32", { DIFF_K_IOCTL_IA32 },
	  "ioctl.ia32: the command number i386 programs compile changed (its argument's i386 size), the x86_64 number did not", B, false,
	  "old i386 binaries send the old number; the x86_64 report cannot show it" },
	[DIFF_R_IOCTL_IA32_UNBUILT] = { "ioctl-ia32-unbuilt", { DIFF_K_IOCTL_IA32 },
	  "ioctl.ia32 of an ioctl whose header the old kernel built no code for", S, false,
	  "no old binary could use it with the old kernel; old i386 source gets the new number or layout" },
	/* function-like ioctl macros: EVIOCGNAME(len) (diff/diff-families.c) */
	[DIFF_R_IOCTL_FAMILY_ADDED] = { "ioctl-family-added", { DIFF_K_IOCTL_FAMILY_ADDED },
	  "ioctl.family.added", C, false,
	  "old binaries never send its commands" },
	[DIFF_R_IOCTL_FAMILY_REMOVED] = { "ioctl-family-removed", { DIFF_K_IOCTL_FAMILY_REMOVED },
	  "ioctl.family.removed", B, false,
	  "old binaries computed their commands from it and send them; old source no longer builds" },
	[DIFF_R_IOCTL_FAMILY_CHANGED] = { "ioctl-family-changed", { DIFF_K_IOCTL_FAMILY_CHANGED },
	  "ioctl.family.changed: its parameters, direction, type, nr or size formula", B, false,
	  "old binaries send the commands the old formula gave" },
	/* observed: probe results of both kernels (diff/diff-probe.c) */
	[DIFF_R_PROBE_FLAG_ACCEPTED] = { "probe-flag-accepted", { DIFF_K_PROBE_FLAG },
	  "probe.flag: a bit the old kernel refused (its rejecting errno) the new one accepts", C, false,
	  "old binaries never relied on it; new ones can use it" },
	[DIFF_R_PROBE_FLAG_REJECTED] = { "probe-flag-rejected", { DIFF_K_PROBE_FLAG },
	  "probe.flag: a bit the old kernel accepted the new one refuses", B, false,
	  "old binaries passing it now fail" },
	[DIFF_R_PROBE_CALL_IMPLEMENTED] = { "probe-call-implemented", { DIFF_K_PROBE_ERRNO },
	  "probe.errno: ENOSYS on the old kernel, another outcome on the new", C, false,
	  "a new syscall: old binaries never call it (or fall back on ENOSYS)" },
	[DIFF_R_PROBE_NOW_SUCCEEDS] = { "probe-now-succeeds", { DIFF_K_PROBE_ERRNO },
	  "probe.errno: a call that failed on the old kernel succeeds on the new", C, false,
	  "a restriction was lifted: what old binaries did still works" },
	[DIFF_R_PROBE_ERRNO_CHANGED] = { "probe-errno-changed", { DIFF_K_PROBE_ERRNO },
	  "probe.errno: another errno (of a flag case too: a bit refused with another one), or a call"
	  " that succeeded now fails", B, false,
	  "old binaries that test for the old errno, or relied on success, take another path" },
	[DIFF_R_PROBE_ERRNO_CONTRACTED] = { "probe-errno-contracted", { DIFF_K_PROBE_ERRNO },
	  "probe.errno: another errno, each the one its kernel's contract expects for the arguments", I, false,
	  "the contract changed with the kernel: the contract diff judges that change" },
	[DIFF_R_PROBE_DEVIATION_GONE] = { "probe-deviation-gone", { DIFF_K_PROBE_DEVIATION },
	  "probe.deviation: the old kernel answered a known deviation of the contract, the new one does not", C, false,
	  "the new kernel does what the contract says: programs written to it are unaffected" },
	[DIFF_R_PROBE_FLAG_KNOWN] = { "probe-flag-known", { DIFF_K_PROBE_FLAG },
	  "probe.flag: a bit the old kernel refused as unknown is a flag of the new one, not refused as unknown (its own checks answer)", C, false,
	  "old binaries never passed it; new ones can use it" },
	[DIFF_R_PROBE_DEVIATION_ACCEPTS] = { "probe-deviation-accepts", { DIFF_K_PROBE_DEVIATION },
	  "probe.deviation: the new kernel accepts, as a known deviation of the contract, what the old one refused", C, false,
	  "old binaries never relied on it being accepted" },
	[DIFF_R_PROBE_DEVIATION_NEW] = { "probe-deviation-new", { DIFF_K_PROBE_DEVIATION },
	  "probe.deviation: the new kernel answers a known deviation of the contract the old one did not (a failure, or success where the old kernel succeeded too)", B, false,
	  "old binaries written to the contract get the deviation's answer" },
	[DIFF_R_PROBE_FS_DIFFERS] = { "probe-fs-differs", { DIFF_K_PROBE_DEVIATION },
	  "probe.deviation: a case that meets a known deviation of a file system (`on tmpfs`) answered otherwise, the kernels probed with their files on different file systems", I, false,
	  "the file systems differ, not necessarily the kernels: probe both on the same one to compare" },
	/* contract versions: --old-spec/--new-spec (diff/diff-contract.c) */
	[DIFF_R_PROBE_SIZE_CHANGED] = { "probe-size-changed", { DIFF_K_PROBE_ERRNO, DIFF_K_PROBE_FLAG },
	  "probe.errno, probe.flag: a case that passes a struct through a pointer parameter with more"
	  " bytes than the smaller of its sizes in the two kernels, which differ (its buffer's bytes,"
	  " no more than the contract's `len` parameter of it says)", I, false,
	  "past the smaller size, one kernel reads members where the other reads the tail it does not"
	  " know: the case asks the kernels two questions, and the struct's change is its layout's to"
	  " judge (and the contract's)" },
	[DIFF_R_ERRNO_ADDED] = { "errno-added", { DIFF_K_SYSCALL_ERRNO_ADDED, DIFF_K_IOCTL_ERRNO_ADDED },
	  "syscall.errno.added, ioctl.errno.added: an errno (name and condition) the old contract did not list", C, false,
	  "a new failure, normally of an input old binaries do not pass (a new flag, a new size); they handle it as any failure" },
	[DIFF_R_ERRNO_REMOVED] = { "errno-removed", { DIFF_K_SYSCALL_ERRNO_REMOVED, DIFF_K_IOCTL_ERRNO_REMOVED },
	  "syscall.errno.removed, ioctl.errno.removed: an errno (name and condition) the new contract no longer lists", B, false,
	  "old binaries that test for it to detect a condition (feature probing, a retry) no longer see it" },
	[DIFF_R_SET_VALUE_ADDED] = { "set-value-added", { DIFF_K_SET_VALUE_ADDED },
	  "set.value.added: a value of a flag set or enum the old contract did not list", C, false,
	  "a new bit or value old binaries never pass" },
	[DIFF_R_SET_VALUE_REMOVED] = { "set-value-removed", { DIFF_K_SET_VALUE_REMOVED },
	  "set.value.removed: a value of a flag set or enum the new contract no longer lists", B, false,
	  "old binaries still pass it" },
	/* the vDSO */
	[DIFF_R_VDSO_IMAGE_ADDED] = { "vdso-image-added", { DIFF_K_VDSO_IMAGE_ADDED },
	  "vdso.image.added", C, false,
	  "a vDSO for an ABI that had none: its processes find the entry points instead of making the syscalls" },
	[DIFF_R_VDSO_IMAGE_REMOVED] = { "vdso-image-removed", { DIFF_K_VDSO_IMAGE_REMOVED },
	  "vdso.image.removed", B, false,
	  "processes of that ABI get no vDSO: C libraries fall back to syscalls, callers of its signal trampolines or entry points fail" },
	[DIFF_R_VDSO_SONAME] = { "vdso-soname-changed", { DIFF_K_VDSO_SONAME },
	  "vdso.soname", B, false,
	  "the dynamic linker and C libraries know the vDSO by its soname, and versioned lookups name it as their base" },
	[DIFF_R_VDSO_SYMBOL_ADDED] = { "vdso-symbol-added", { DIFF_K_VDSO_SYMBOL_ADDED },
	  "vdso.symbol.added: a name, an alias, or a name at a version node it did not have, its old nodes kept", C, false,
	  "an entry point old binaries never look up" },
	[DIFF_R_VDSO_SYMBOL_REMOVED] = { "vdso-symbol-removed", { DIFF_K_VDSO_SYMBOL_REMOVED },
	  "vdso.symbol.removed", B, false,
	  "a lookup by the old name fails: C libraries fall back to the slower syscall, other callers (a runtime, a signal trampoline's users) fail" },
	[DIFF_R_VDSO_SYMBOL_VERSION] = { "vdso-symbol-version", { DIFF_K_VDSO_SYMBOL_VERSION },
	  "vdso.symbol.version: the name is no longer at a version node it had", B, false,
	  "a lookup by name and the old node fails, as for a removed name" },
	[DIFF_R_VDSO_SYMBOL_BINDING] = { "vdso-symbol-binding", { DIFF_K_VDSO_SYMBOL_BINDING },
	  "vdso.symbol.binding: another binding (global, weak) or symbol type", I, false,
	  "a versioned lookup finds a defined name whatever its binding or type" },
};

/* By enum diff_kind; DIFF__NR_CATEGORIES: where the type sits. */
static const struct {
	const char *name;
	enum diff_category cat;
} kinds[] = {
	[DIFF_K_SYSCALL_ADDED] = { "syscall.added", DIFF_CAT_SYSCALL },
	[DIFF_K_SYSCALL_REMOVED] = { "syscall.removed", DIFF_CAT_SYSCALL },
	[DIFF_K_SYSCALL_RENUMBERED] = { "syscall.renumbered", DIFF_CAT_SYSCALL },
	[DIFF_K_SYSCALL_PARAM_COUNT] = { "syscall.param.count", DIFF_CAT_SYSCALL },
	[DIFF_K_SYSCALL_PARAM_TYPE] = { "syscall.param.type", DIFF_CAT_SYSCALL },
	[DIFF_K_SYSCALL_RETURN_TYPE] = { "syscall.return.type", DIFF_CAT_SYSCALL },
	[DIFF_K_SYSCALL_PARAM_NAME] = { "syscall.param.name", DIFF_CAT_SYSCALL },
	[DIFF_K_TYPE_KIND] = { "type.kind", DIFF_CAT_TYPE },
	[DIFF_K_TYPE_SIZE] = { "type.size", DIFF_CAT_TYPE },
	[DIFF_K_TYPE_ALIGN] = { "type.align", DIFF_CAT_TYPE },
	[DIFF_K_TYPE_MEMBER_ADDED] = { "type.member.added", DIFF_CAT_TYPE },
	[DIFF_K_TYPE_MEMBER_REMOVED] = { "type.member.removed", DIFF_CAT_TYPE },
	[DIFF_K_TYPE_MEMBER_RENAMED] = { "type.member.renamed", DIFF_CAT_TYPE },
	[DIFF_K_TYPE_MEMBER_OFFSET] = { "type.member.offset", DIFF_CAT_TYPE },
	[DIFF_K_TYPE_MEMBER_TYPE] = { "type.member.type", DIFF_CAT_TYPE },
	[DIFF_K_TYPE_MEMBER_BITFIELD] = { "type.member.bitfield", DIFF_CAT_TYPE },
	[DIFF_K_TYPE_ARRAY_BOUND] = { "type.array.bound", DIFF__NR_CATEGORIES },
	[DIFF_K_TYPE_ARRAY_FLEXIBLE] = { "type.array.flexible", DIFF__NR_CATEGORIES },
	[DIFF_K_TYPE_ENUMERATOR_ADDED] = { "type.enumerator.added", DIFF_CAT_TYPE },
	[DIFF_K_TYPE_ENUMERATOR_REMOVED] = { "type.enumerator.removed", DIFF_CAT_TYPE },
	[DIFF_K_TYPE_ENUMERATOR_VALUE] = { "type.enumerator.value", DIFF_CAT_TYPE },
	[DIFF_K_TYPE_ENUMERATOR_RENAMED] = { "type.enumerator.renamed", DIFF_CAT_TYPE },
	[DIFF_K_TYPE_HEADER_KERNEL] = { "type.header-kernel", DIFF_CAT_TYPE },
	[DIFF_K_TYPE_FUNC_PARAMS] = { "type.func.params", DIFF_CAT_TYPE },
	[DIFF_K_TYPE_REMOVED] = { "type.removed", DIFF_CAT_TYPE },
	[DIFF_K_HEADER_COMPILE] = { "header.compile", DIFF_CAT_TYPE },
	[DIFF_K_HEADER_UNSERVED] = { "header.unserved", DIFF_CAT_CONSTANT },
	[DIFF_K_CONSTANT_ADDED] = { "constant.added", DIFF_CAT_CONSTANT },
	[DIFF_K_CONSTANT_REMOVED] = { "constant.removed", DIFF_CAT_CONSTANT },
	[DIFF_K_CONSTANT_VALUE] = { "constant.value", DIFF_CAT_CONSTANT },
	[DIFF_K_CONSTANT_DEFINITION] = { "constant.definition", DIFF_CAT_CONSTANT },
	[DIFF_K_IOCTL_ADDED] = { "ioctl.added", DIFF_CAT_IOCTL },
	[DIFF_K_IOCTL_REMOVED] = { "ioctl.removed", DIFF_CAT_IOCTL },
	[DIFF_K_IOCTL_CMD] = { "ioctl.cmd", DIFF_CAT_IOCTL },
	[DIFF_K_IOCTL_ARG_TYPE] = { "ioctl.arg.type", DIFF_CAT_IOCTL },
	[DIFF_K_IOCTL_IA32] = { "ioctl.ia32", DIFF_CAT_IOCTL },
	[DIFF_K_IOCTL_FAMILY_ADDED] = { "ioctl.family.added", DIFF_CAT_IOCTL },
	[DIFF_K_IOCTL_FAMILY_REMOVED] = { "ioctl.family.removed", DIFF_CAT_IOCTL },
	[DIFF_K_IOCTL_FAMILY_CHANGED] = { "ioctl.family.changed", DIFF_CAT_IOCTL },
	[DIFF_K_PROBE_ERRNO] = { "probe.errno", DIFF_CAT_SYSCALL },
	[DIFF_K_PROBE_FLAG] = { "probe.flag", DIFF_CAT_SYSCALL },
	[DIFF_K_PROBE_DEVIATION] = { "probe.deviation", DIFF_CAT_SYSCALL },
	[DIFF_K_SYSCALL_ERRNO_ADDED] = { "syscall.errno.added", DIFF_CAT_SYSCALL },
	[DIFF_K_SYSCALL_ERRNO_REMOVED] = { "syscall.errno.removed", DIFF_CAT_SYSCALL },
	[DIFF_K_IOCTL_ERRNO_ADDED] = { "ioctl.errno.added", DIFF_CAT_IOCTL },
	[DIFF_K_IOCTL_ERRNO_REMOVED] = { "ioctl.errno.removed", DIFF_CAT_IOCTL },
	[DIFF_K_SET_VALUE_ADDED] = { "set.value.added", DIFF_CAT_CONSTANT },
	[DIFF_K_SET_VALUE_REMOVED] = { "set.value.removed", DIFF_CAT_CONSTANT },
	[DIFF_K_VDSO_IMAGE_ADDED] = { "vdso.image.added", DIFF_CAT_VDSO },
	[DIFF_K_VDSO_IMAGE_REMOVED] = { "vdso.image.removed", DIFF_CAT_VDSO },
	[DIFF_K_VDSO_SONAME] = { "vdso.soname", DIFF_CAT_VDSO },
	[DIFF_K_VDSO_SYMBOL_ADDED] = { "vdso.symbol.added", DIFF_CAT_VDSO },
	[DIFF_K_VDSO_SYMBOL_REMOVED] = { "vdso.symbol.removed", DIFF_CAT_VDSO },
	[DIFF_K_VDSO_SYMBOL_VERSION] = { "vdso.symbol.version", DIFF_CAT_VDSO },
	[DIFF_K_VDSO_SYMBOL_BINDING] = { "vdso.symbol.binding", DIFF_CAT_VDSO },
};

_Static_assert(sizeof(rules) / sizeof(rules[0]) == DIFF__NR_RULES, "a rule without a row");
_Static_assert(sizeof(kinds) / sizeof(kinds[0]) == DIFF__NR_KINDS, "a kind without a row");

const char *diff_kind_name(enum diff_kind k)
{
	return k > DIFF_K_NONE && k < DIFF__NR_KINDS ? kinds[k].name : "?";
}

enum diff_category diff_kind_category(enum diff_kind k)
{
	return k > DIFF_K_NONE && k < DIFF__NR_KINDS ? kinds[k].cat : DIFF__NR_CATEGORIES;
}

const struct diff_rule *diff_rule(enum diff_rule_id r)
{
	return &rules[r];
}

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
	static const char *const names[] = { "syscalls", "types", "constants", "ioctls", "vdso" };

	return (unsigned)c < DIFF__NR_CATEGORIES ? names[c] : "?";
}

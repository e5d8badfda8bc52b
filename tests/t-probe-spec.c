// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe/spec.c: a fixture contract converted into probe cases against a
 * small .kabi built with the kdb write API (syscall table, UAPI constants,
 * one struct layout). Checks the exact cases: the arguments chosen for each
 * errno condition (one bad value, everything else the harmless baseline),
 * the flag cases with their expectations from "unknown reject|ignore" and
 * from the call's conditions, and the skip rules (never-probed calls,
 * calls the kernel lacks, fds of a kind the probe has none of, errnos newer
 * than the kernel).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "db/kdb-uapi.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/model.h"
#include "probe/probe.h"
#include "spec/spec.h"
#include "tests/tap.h"

static const char fixture[] =
	"fdkind dir \"a directory\";\n"
	"fdkind file \"a file\";\n"
	"fdkind epoll \"an epoll fd\";\n"
	"flags tflags { unknown reject; T_A, T_B; T_NEW since 9.0; }\n"
	"flags oflags { unknown ignore; O_X = 0x10; }\n"
	"struct how extensible { size HOW_V0 = 24; flags: flags tflags; }\n"
	"syscall tcall(dfd: fd dir or AT_FDCWD, path: path, how: ptr in struct how,\n"
	"              usize: len how) -> fd file {\n"
	"	errno E2BIG \"too big\" when usize > PAGE_SIZE;\n"
	"	errno EINVAL \"too small\" when usize < HOW_V0;\n"
	"	errno EINVAL \"unknown flag\" when how.flags & ~tflags;\n"
	"	errno ENOENT \"no such file\";\n"
	"	errno EXDEV \"newer\" when usize == 7 since 9.0;\n"
	"}\n"
	"syscall ocall(fd: fd file, flags: flags oflags) -> 0 {\n"
	"	errno EBADF \"bad fd\" when fd > 0x7fffffff;\n"
	"	errno EINVAL \"both\" when flags & 0x100 && flags & 0x200;\n"
	"}\n"
	"syscall kill(pid: pid, sig: int) -> 0 { errno EINVAL \"bad\" when sig > 64; }\n"
	"syscall absent(x: int) -> 0 { errno EINVAL \"x\" when x == 1; }\n"
	"syscall evfd(fd: fd epoll) -> 0 { errno EINVAL \"x\" when fd == 1; }\n"
	/* fallocate's shape: 64-bit ints (loff_t in DWARF) and a baseline (len 0) that
	 * meets a condition, so every case must carry a len that does not. */
	"flags fmode { unknown reject; F_KEEP = 1, F_PUNCH = 2; }\n"
	"syscall falloc(fd: fd file, mode: flags fmode, offset: int, len: int) -> 0 {\n"
	"	errno EINVAL \"bad range\"\n"
	"		when offset > 0x7fffffffffffffff || len == 0 || len > 0x7fffffffffffffff;\n"
	"	errno EOPNOTSUPP \"unknown mode\" when mode & ~fmode;\n"
	"}\n"
	/* The probe's own objects: a timer, a mapping, a pipe end, iovec-like buffers. */
	"idkind timer \"a timer\";\n"
	"idkind key \"a key the probe has none of\";\n"
	"fdkind pipe \"a pipe\";\n"
	"struct vec { base: ptr inout void; blen: len base; }\n"
	"syscall tset(t: id timer, v: ptr in struct vec[], n: count v,\n"
	"             o: ptr out struct how optional) -> 0 {\n"
	"	errno EINVAL \"no such timer\" when t == 1234567;\n"
	"}\n"
	"syscall mprot(start: addr mapped, len: len start, n: int nonzero,\n"
	"              w: fd pipe or file writable, r: fd file or pipe) -> 0 {\n"
	"	errno EINVAL \"unaligned\" when start & (PAGE_SIZE - 1);\n"
	"}\n"
	"syscall kcall(k: id key) -> 0;\n"
	/* splice's shape: a non-zero length the flag conditions need. */
	"flags sflags { unknown reject; S_A = 1; }\n"
	"syscall spl(fd: fd file, len: int nonzero, flags: flags sflags) -> count {\n"
	"	errno EINVAL \"unknown flag\" when len != 0 && flags & ~sflags;\n"
	"	errno EBADF \"huge\" when len > 0x7fffffff;\n"
	"}\n"
	/* Known deviations, for the releases they hold for (the kernel is 6.0.1). */
	"flags dflags { unknown reject; D_DIRECT = 1, D_B = 2, D_OLD = 4; }\n"
	"syscall dcall(fd: fd file, flags: flags dflags) -> 0 {\n"
	"	errno EINVAL \"unknown flag\" when flags & ~dflags;\n"
	"	deviation EINVAL \"the probe's filesystem refuses D_DIRECT\" when flags & D_DIRECT\n"
	"		until 6.1;\n"
	"	deviation ok \"bit 7 kept for compatibility\" when flags & 0x80 since 5.0;\n"
	"	deviation EPERM \"newer only\" when flags & D_B since 7.0;\n"
	"	deviation EAGAIN \"older only\" when flags & D_OLD until 6.0;\n"
	/* ... and for the file systems they hold on (the first that holds wins). */
	"	deviation ENOSPC \"tmpfs's\" when flags & 0x100 on tmpfs;\n"
	"	deviation EROFS \"ext4's\" when flags & 0x100 on ext4;\n"
	"	deviation EBUSY \"both's\" when flags & 0x200 on ext4, tmpfs;\n"
	"	deviation EIO \"ext4 only\" when flags & 0x400 on ext4;\n"
	"}\n"
	/* A flag whose constant the .kabi lacks (extracted without --uapi). */
	"flags uflags { unknown reject; T_A, U_MISSING; U_LATER since 9.0; }\n"
	"syscall ucall(flags: flags uflags) -> 0 {\n"
	"	errno EINVAL \"unknown flag\" when flags & ~uflags;\n"
	"}\n";

/* The deviations of dcall's bits 8, 9 and 10 as "OUTCOME FS|..." ("-": none) on @fs. */
static void fs_deviations(const struct probe_set *set, const char *want, const char *what)
{
	static const char *const ids[] = { "dcall.flags.bit8", "dcall.flags.bit9", "dcall.flags.bit10" };
	char got[128] = "";
	size_t i, n = 0;

	for (i = 0; set && i < 3; i++) {
		long k = probe_set__find(set, ids[i]);
		const struct probe_case *c = k >= 0 ? probe_set__case(set, (size_t)k) : NULL;

		n += (size_t)snprintf(got + n, sizeof(got) - n, "%s%s%s%s", i ? "|" : "",
				      c && c->deviation ? c->deviation : "-",
				      c && c->deviation_fs ? " " : "",
				      c && c->deviation_fs ? c->deviation_fs : "");
	}
	is_str(got, want, what);
}

static int build_db(const char *path)
{
	static const struct kd_constant consts[] = {
		{ .name = "T_A", .value = 1, .ctype = "int", .expr = "1", .file = "t.h", .line = 1 },
		{ .name = "T_B", .value = 4, .ctype = "int", .expr = "4", .file = "t.h", .line = 2 },
	};
	static const struct { long nr; const char *name; } calls[] = {
		{ 500, "tcall" }, { 501, "ocall" }, { 62, "kill" }, { 502, "evfd" },
		{ 285, "falloc" }, { 3, "close" }, { 257, "openat" }, { 319, "memfd_create" },
		{ 503, "tset" }, { 504, "mprot" }, { 505, "kcall" }, { 506, "spl" },
		{ 507, "dcall" }, { 508, "ucall" },
	};
	struct kd_member vm[] = {
		{ .name = "base", .type = 6, .offset = 0 },
		{ .name = "blen", .type = 1, .offset = 8 },
	};
	struct kd_type vptr = { .id = 6, .kind = KD_KIND_POINTER, .size = 8, .align = 8 };
	struct kd_type vec = { .id = 7, .kind = KD_KIND_STRUCT, .name = "vec", .size = 16,
			       .align = 8, .nr_members = 2, .members = vm };
	static const struct { const char *name; int64_t type; const char *text; } falloc[] = {
		{ "fd", 3, "int" }, { "mode", 3, "int" }, { "offset", 5, "loff_t" },
		{ "len", 5, "loff_t" },
	};
	struct kd_member m[] = {
		{ .name = "flags", .type = 1, .offset = 0 },
		{ .name = "mode", .type = 1, .offset = 8 },
		{ .name = "resolve", .type = 1, .offset = 16 },
	};
	struct kd_type u64 = { .id = 1, .kind = KD_KIND_BASE, .name = "__u64", .size = 8,
			       .align = 8 };
	struct kd_type how = { .id = 2, .kind = KD_KIND_STRUCT, .name = "how", .size = 24,
			       .align = 8, .nr_members = 3, .members = m };
	struct kd_type i32 = { .id = 3, .kind = KD_KIND_BASE, .name = "int", .size = 4, .align = 4 };
	struct kd_type s64 = { .id = 4, .kind = KD_KIND_BASE, .name = "long long int", .size = 8,
			       .align = 8 };
	struct kd_type loff = { .id = 5, .kind = KD_KIND_TYPEDEF, .name = "loff_t", .ref = 4,
				.size = 8, .align = 8 };
	struct kdb *db = NULL;
	int64_t fid = 0;
	size_t i;
	int err;

	err = kdb__create(path, &db);
	if (!err)
		err = kdb__set_meta(db, "release", "6.0.1-test");
	if (!err)
		err = kdb__put_type(db, &u64);
	if (!err)
		err = kdb__put_type(db, &how);
	if (!err)
		err = kdb__put_type(db, &i32);
	if (!err)
		err = kdb__put_type(db, &s64);
	if (!err)
		err = kdb__put_type(db, &loff);
	if (!err)
		err = kdb__put_type(db, &vptr);
	if (!err)
		err = kdb__put_type(db, &vec);
	if (!err)
		err = kdb__put_constants(db, consts, 2);
	if (!err)
		err = kdb__put_function(db, "sys_falloc", 3, "dwarf", "f.c", 1, &fid);
	for (i = 0; !err && i < sizeof(falloc) / sizeof(falloc[0]); i++)
		err = kdb__put_param(db, fid, (int)i, falloc[i].name, falloc[i].type, falloc[i].text);
	for (i = 0; !err && i < sizeof(calls) / sizeof(calls[0]); i++) {
		struct kd_syscall sc = { .abi = "x64", .nr = calls[i].nr, .name = calls[i].name,
					 .implemented = true };

		sc.func_id = !strcmp(calls[i].name, "falloc") ? fid : 0;
		err = kdb__put_syscall(db, &sc);
	}
	if (!err)
		err = kdb__commit(db);
	kdb__free(db);
	return err;
}

/* Case @id of @set, or NULL. */
static const struct probe_case *case_of(const struct probe_set *set, const char *id)
{
	long i = probe_set__find(set, id);

	return i >= 0 ? probe_set__case(set, (size_t)i) : NULL;
}

/* "id call(args) -> expectation" of case @id, or "" when absent. */
static const char *show(const struct probe_set *set, const char *id, struct kd_buf *b)
{
	const struct probe_case *c = case_of(set, id);

	kd_buf_reset(b);
	if (!c)
		return "";
	kd_buf_addf(b, "%s(", c->call);
	probe_case__format_args(c, b);
	kd_buf_addf(b, ") %s %s %s", probe_case_kind_name(c->kind), probe_expect_name(c->expect),
		    c->expect_errno ? c->expect_errno : "-");
	return b->s;
}

/* A case of a set as show() prints it ("" where the set has none), and why. */
struct expect_case {
	const char *id, *shown, *what;
};

static void check_cases(const struct probe_set *set, const struct expect_case *e, size_t n,
			struct kd_buf *b)
{
	for (; n; n--, e++)
		is_str(show(set, e->id, b), e->shown, e->what);
}
#define CHECK_CASES(set, table) check_cases(set, table, sizeof(table) / sizeof((table)[0]), &b)

/* Errno conditions: exactly one value off the baseline. */
static const struct expect_case errno_cases[] = {
	{ "tcall.E2BIG",
	  "tcall(-100, \"/kabi-probe-nonexistent\", buf[24]{0:8=0x0}, 0x1001) errno errno E2BIG",
	  "usize > PAGE_SIZE: usize 4097" },
	{ "tcall.EINVAL",
	  "tcall(-100, \"/kabi-probe-nonexistent\", buf[24]{0:8=0x0}, 23) errno errno EINVAL",
	  "usize < HOW_V0 (the spec's size name): usize 23" },
	{ "tcall.EINVAL.2",
	  "tcall(-100, \"/kabi-probe-nonexistent\", buf[24]{0:8=0x8}, 24) errno errno EINVAL",
	  "how.flags & ~tflags: the bit above T_B at offset 0 of the buffer" },
	{ "tcall.EXDEV", "", "EXDEV (since 9.0) not probed" },
	{ "tcall.ENOENT", "", "ENOENT without a condition not probed" },
	{ "ocall.EBADF",
	  "ocall(0xffffffff80000000, 0) errno errno EBADF",
	  "fd > 0x7fffffff: fd 0x80000000 sign-extended" },
	{ "ocall.EINVAL",
	  "ocall(fd:file, 768) errno errno EINVAL",
	  "flags & 0x100 && flags & 0x200: both bits" },
};

/* Flag cases: a field of a struct argument, and an int parameter. */
static const struct expect_case flag_cases[] = {
	{ "tcall.flags.T_A",
	  "tcall(-100, \"/kabi-probe-nonexistent\", buf[24]{0:8=0x1}, 24) flag accept EINVAL",
	  "T_A alone: accepted" },
	{ "tcall.flags.T_B",
	  "tcall(-100, \"/kabi-probe-nonexistent\", buf[24]{0:8=0x4}, 24) flag accept EINVAL",
	  "T_B alone: accepted" },
	{ "tcall.flags.T_NEW", "", "T_NEW (since 9.0) is not a flag here" },
	{ "tcall.flags.unknown",
	  "tcall(-100, \"/kabi-probe-nonexistent\", buf[24]{0:8=0x8}, 24) unknown-flag errno EINVAL",
	  "the bit above T_B: rejected (unknown reject)" },
	{ "tcall.flags.bit1",
	  "tcall(-100, \"/kabi-probe-nonexistent\", buf[24]{0:8=0x2}, 24) unknown-flag errno EINVAL",
	  "an unused bit below: rejected" },
	{ "tcall.flags.bit63",
	  "tcall(-100, \"/kabi-probe-nonexistent\", buf[24]{0:8=0x8000000000000000}, 24) "
	  "unknown-flag errno EINVAL",
	  "bit 63 of the u64 field" },
	{ "ocall.flags.O_X",
	  "ocall(fd:file, 16) flag accept EINVAL",
	  "O_X (explicit value) alone: accepted" },
	{ "ocall.flags.unknown",
	  "ocall(fd:file, 32) unknown-flag accept EINVAL",
	  "unknown ignore: an unknown bit is not rejected" },
	{ "ocall.flags.bit31",
	  "ocall(fd:file, 0x80000000) unknown-flag accept EINVAL",
	  "the int parameter is 32 bits wide" },
	{ "ocall.flags.bit32", "", "no bit 32 for an int" },
};

/*
 * Conditions on plain ints, 64 bits wide as DWARF says (loff_t): the
 * baseline's len 0 meets EINVAL, so it moves to the smallest value that
 * does not (1), and every other case keeps that len.
 */
static const struct expect_case int64_cases[] = {
	{ "falloc.EINVAL",
	  "falloc(fd:file, 0, 0x8000000000000000, 1) errno errno EINVAL",
	  "offset > 0x7fffffffffffffff: a 64-bit offset, not a sign-extended int" },
	{ "falloc.EOPNOTSUPP",
	  "falloc(fd:file, 4, 0, 1) errno errno EOPNOTSUPP",
	  "unknown mode bit, with the baseline's len 1" },
	{ "falloc.mode.F_PUNCH",
	  "falloc(fd:file, 2, 0, 1) flag accept EOPNOTSUPP",
	  "a flag alone with len 1, not the len 0 EINVAL would answer; rejection is EOPNOTSUPP" },
	{ "falloc.mode.bit31",
	  "falloc(fd:file, 0x80000000, 0, 1) unknown-flag errno EOPNOTSUPP",
	  "mode is an int (32 bits)" },
};

/*
 * The probe's objects: its timer, its page with the page's length, a
 * non-zero int, the pipe's write end for a writable "pipe or file",
 * the first kind it has for "file or pipe", one element of an array
 * whose pointer field points into the data area with a length, and an
 * optional pointer no condition looks into: NULL. Then a non-zero length
 * kept by every case, so the flag checks are reached.
 */
static const struct expect_case object_cases[] = {
	{ "tset.EINVAL",
	  "tset(0x12d687, buf[256]{0:8=data+0x1000,8:8=0x40}, 1, 0) errno errno EINVAL",
	  "a timer id no timer has; the vec's base and blen set; one element; o NULL" },
	{ "mprot.EINVAL",
	  "mprot(map+4095, 0x1000, 1, fd:pipe-w, fd:file) errno errno EINVAL",
	  "an unaligned address inside the probe's page" },
	{ "spl.EINVAL",
	  "spl(fd:file, 1, 2) errno errno EINVAL",
	  "len != 0 && flags & ~sflags: len 1, the bit above S_A" },
	{ "spl.EBADF",
	  "spl(fd:file, 0xffffffff80000000, 0) errno errno EBADF",
	  "len > 0x7fffffff: 0x80000000, an int (32 bits) sign-extended" },
	{ "spl.flags.S_A",
	  "spl(fd:file, 1, 1) flag accept EINVAL",
	  "S_A alone, with len 1" },
	{ "spl.flags.bit5",
	  "spl(fd:file, 1, 32) unknown-flag errno EINVAL",
	  "an unused bit with len 1 meets the condition: EINVAL" },
};

/* A flag set with a member that has no value here. */
static const struct expect_case unvalued_cases[] = {
	{ "ucall.flags.T_A", "", "no flag case of uflags" },
	{ "ucall.EINVAL", "", "flags & ~uflags not evaluable: no case" },
};

/* The built-in cases of memfd_create on the fixture kernel (6.0.1). */
static const struct expect_case builtin_cases[] = {
	{ "memfd_create.flags.MFD_ALLOW_SEALING",
	  "memfd_create(\"kabi-probe\", 2) flag accept EINVAL",
	  "MFD_ALLOW_SEALING is a flag" },
	{ "memfd_create.flags.MFD_EXEC", "", "MFD_EXEC (6.3) is not a flag of 6.0.1" },
	{ "memfd_create.flags.unknown",
	  "memfd_create(\"kabi-probe\", 8) unknown-flag errno EINVAL",
	  "its bit, and MFD_NOEXEC_SEAL's, are unused bits there" },
};
int main(void)
{
	struct kd_buf b = KD_BUF_INIT;
	char *path = tap_tmp_path("probe-spec.kabi");
	struct probe_spec_stats st;
	struct probe_set *set = NULL, *copy = NULL;
	struct spec *s = NULL;
	struct kdb *db = NULL;
	const struct probe_case *c;
	long i;
	int err;

	is_int(build_db(path), 0, "fixture DB built");
	is_int(kdb__open(path, &db), 0, "fixture DB opened");
	is_int(spec__new(&s), 0, "spec");
	err = spec__parse_buffer(s, "fixture.kabispec", fixture, strlen(fixture));
	is_int(err ? err : spec__resolve(s), 0, "fixture spec parses and resolves");
	is_int(probe_set__new(&set), 0, "set");
	if (!db || !s || !set)
		return tap_done();
	is_int(probe__add_spec(set, s, db, "tmpfs", &st), 0, "converted");

	/* The calls: five probed; kill never, absent not in the table, evfd has no epoll fd. */
	is_int(st.calls, 12, "12 syscalls in the spec");
	is_int(st.calls_probed, 8, "8 probed");
	is_int(st.calls_skipped, 1, "kill is never probed");
	is_int(st.calls_absent, 1, "absent is not in the table");
	is_int(st.calls_unprobeable, 2, "evfd: no fd of kind epoll; kcall: no key");
	is_int(st.errnos_newer, 1, "EXDEV since 9.0 is newer than 6.0.1");
	is_int(st.errno_cases, 12, "12 errno cases");
	is_int(st.flag_cases, 192,
	       "192 flag cases: 2 + 62 unused bits of u64, 1 + 31, 2 + 30, 1 + 31 and 3 + 29 of int");
	is_int((long)probe_set__count(set), 204, "204 cases in all");
	ok(probe__spec_skip("kill") && probe__spec_skip("reboot") && !probe__spec_skip("openat2"),
	   "skip rule: kill and reboot never, openat2 yes");

	/* Errno conditions: exactly one value off the baseline. */
	CHECK_CASES(set, errno_cases);
	c = case_of(set, "tcall.EINVAL.2");
	is_str(c ? c->origin : NULL, "fixture.kabispec:11", "origin: file and line of the errno");
	is_str(c ? c->what : NULL, "how.flags & ~tflags: unknown flag", "what: condition and text");
	ok(c && c->ret_fd, "tcall returns an fd: closed after the case");

	/* Flag cases: a field of a struct argument, and an int parameter. */
	CHECK_CASES(set, flag_cases);

	/* Conditions on plain ints, 64 bits wide (loff_t). */
	CHECK_CASES(set, int64_cases);

	/* The probe's objects; a non-zero length kept by every case. */
	CHECK_CASES(set, object_cases);

	/* Known deviations: marked on the cases that meet them, for their releases. */
	c = case_of(set, "dcall.flags.D_DIRECT");
	is_str(c ? c->deviation : NULL, "EINVAL", "D_DIRECT: the deviation holds until 6.1");
	is_str(c ? c->deviation_why : NULL,
	       "the probe's filesystem refuses D_DIRECT (fixture.kabispec:49)",
	       "its reason with the contract line");
	is_str(c ? probe_expect_name(c->expect) : NULL, "accept", "the expectation stays the contract's");
	c = case_of(set, "dcall.flags.bit7");
	is_str(c ? c->deviation : NULL, "ok", "bit 7: the deviation 'ok' (since 5.0)");
	c = case_of(set, "dcall.flags.D_B");
	ok(c && !c->deviation, "D_B: its deviation is since 7.0, none on 6.0.1");
	c = case_of(set, "dcall.flags.D_OLD");
	ok(c && !c->deviation, "D_OLD: its deviation ended with 6.0, none on 6.0.1");
	c = case_of(set, "dcall.EINVAL");
	ok(c && !c->deviation, "dcall.EINVAL (the bit above D_OLD): no deviation");
	ok(case_of(set, "dcall.flags.bit7") && !case_of(set, "dcall.flags.bit7")->deviation_fs,
	   "bit 7's deviation holds on any file system: no deviation_fs");
	fs_deviations(set, "ENOSPC tmpfs|EBUSY tmpfs|-",
		      "on tmpfs: the deviations 'on tmpfs' (the first of bit 8's), none 'on ext4' only");
	probe_set__free(set);
	set = NULL;
	is_int(probe_set__new(&set), 0, "another set");
	if (set)
		is_int(probe__add_spec(set, s, db, "ext4", NULL), 0, "converted for ext4");
	fs_deviations(set, "EROFS ext4|EBUSY ext4|EIO ext4",
		      "on ext4: the deviations 'on ext4', each with the fs it holds on");

	/*
	 * A flag set with a member that has no value here: neither expanded
	 * (its flags would be probed as unknown bits) nor used in a condition
	 * (the mask would be partial); U_LATER (since 9.0) does not count.
	 */
	is_int(st.sets_unvalued, 1, "uflags not expanded: U_MISSING has no value");
	CHECK_CASES(set, unvalued_cases);

	/* Merging: ids already present are kept, the others added. */
	is_int(probe_set__new(&copy), 0, "second set");
	if (copy) {
		struct probe_case x = *probe_set__case(set, 0);

		x.id = "extra.case";
		is_int(probe_set__add(copy, &x), 0, "one case of its own");
		is_int(probe_set__merge(copy, set), 204, "merge adds the 204 cases");
		is_int(probe_set__merge(copy, set), 0, "merging again adds none");
		is_int((long)probe_set__count(copy), 205, "205 cases");
	}
	probe_set__free(copy);

	/* Built-in cases: only calls of this kernel's table, flags not newer than it. */
	copy = NULL;
	is_int(probe_set__new(&copy), 0, "a set for the built-in cases");
	if (copy) {
		size_t absent = 0, n = probe_set__count(copy);
		bool only_table = true;

		is_int(probe__add_builtin(copy, db, &absent), 0, "built-in cases for the fixture kernel");
		n = probe_set__count(copy);
		for (i = 0; i < (long)n; i++) {
			const char *call = probe_set__case(copy, (size_t)i)->call;

			only_table = only_table && (!strcmp(call, "close") || !strcmp(call, "openat") ||
						    !strcmp(call, "memfd_create"));
		}
		ok(only_table && n > 0, "only close, openat and memfd_create (%zu cases)", n);
		ok(absent > 50, "the other built-in calls are counted absent (%zu)", absent);
		is_int(probe_set__find(copy, "cachestat.null"), -1, "no case for cachestat");
		CHECK_CASES(copy, builtin_cases);
		c = case_of(copy, "close.badfd");
		ok(c && c->nr == 3, "numbered as the table says");
	}
	probe_set__free(copy);

	/* A flag set the contract expanded replaces the built-in one whole. */
	copy = NULL;
	c = case_of(set, "ocall.flags.O_X");
	if (c && !probe_set__new(&copy)) {
		struct probe_case x = *c, y = x;

		x.id = "ocall.flags.O_OLD";
		y.id = "other.flags.O_Y";
		y.subject = "other.flags";
		is_int(probe_set__add(copy, &x) || probe_set__add(copy, &y), 0, "two built-in flags");
		is_int(probe_set__merge(set, copy), 1, "merge: only the flag of a set the contract lacks");
		ok(probe_set__find(set, "ocall.flags.O_OLD") < 0 &&
		   probe_set__find(set, "other.flags.O_Y") >= 0, "ocall.flags.O_OLD left out");
	}
	probe_set__free(copy);
	probe_set__free(set);
	spec__free(s);
	kdb__free(db);
	free(path);
	kd_buf_release(&b);
	return tap_done();
}

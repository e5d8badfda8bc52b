// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe/ without QEMU: case sets and flag expansion, the result parser on
 * clean, garbled, truncated and panicking consoles (exact counts and
 * values), the cpio writer checked by cpio(1) itself, and the generated
 * program built static and run on this host with harmless cases ("--host"),
 * its output parsed back; a run stored into a .kabi (probe/store.c) and read
 * back row by row.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>

#include "db/kdb.h"
#include "db/kdb-probe.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "probe/probe.h"
#include "probe/probe_internal.h"
#include "tests/tap.h"

/* Append one protocol line with its CRC, as the probe prints it. */
static void line(struct kd_buf *b, const char *text)
{
	kd_buf_addf(b, "%s %08x\r\n", text, (unsigned)probe_crc32(text, strlen(text)));
}

static struct probe_set *small_set(void)
{
	struct probe_set *set;
	struct probe_case c = { .call = "close", .nr = 3, .nr_args = 1,
				.args = { { .kind = PROBE_ARG_INT, .value = (uint64_t)-1 } },
				.kind = PROBE_CASE_ERRNO, .expect = PROBE_EXPECT_ERRNO,
				.expect_errno = "EBADF" };

	if (probe_set__new(&set))
		return NULL;
	c.id = "close.badfd";
	probe_set__add(set, &c);
	c.id = "dup.badfd";
	c.call = "dup";
	c.nr = 32;
	probe_set__add(set, &c);
	c.id = "read.badptr";
	c.call = "read";
	c.nr = 0;
	c.nr_args = 3;
	c.args[0] = (struct probe_arg){ .kind = PROBE_ARG_FD, .value = PROBE_FD_FILE };
	c.args[1] = (struct probe_arg){ .kind = PROBE_ARG_BADPTR };
	c.args[2] = (struct probe_arg){ .kind = PROBE_ARG_INT, .value = 16 };
	c.expect_errno = "EFAULT";
	probe_set__add(set, &c);
	return set;
}

static void test_set(void)
{
	static const struct probe_flag flags[] = { { "FA", 1, NULL }, { "FB", 4, NULL } };
	struct probe_flagset fs = {
		.name = "eventfd2.flags", .call = "eventfd2", .nr = 290, .nr_args = 2,
		.args = { { .kind = PROBE_ARG_INT }, { .kind = PROBE_ARG_INT } },
		.arg = 1, .patch = -1, .width_bits = 8, .reject_errno = "EINVAL",
		.nr_flags = 2, .flags = flags, .origin = "test",
	};
	struct probe_case bad = { .id = "bad id", .call = "x", .nr = 1 };
	struct probe_set *set = small_set();
	const struct probe_case *c;
	struct kd_buf b = KD_BUF_INIT;

	is_int(probe_set__count(set), 3, "three cases");
	kd_log_set_level(KD_LOG_QUIET);
	is_int(probe_set__add(set, probe_set__case(set, 0)), -EEXIST, "a taken id is refused");
	is_int(probe_set__add(set, &bad), -EINVAL, "an id with a space is refused");
	kd_log_set_level(KD_LOG_WARN);

	is_int(probe_set__add_flags(set, &fs), 0, "flag set expanded");
	/* 2 defined bits + the 6 other bits of 8. */
	is_int(probe_set__count(set), 3 + 8, "one case per bit");
	c = probe_set__case(set, 3);
	is_str(c->id, "eventfd2.flags.FA", "defined bit first");
	is_int(c->args[1].value, 1, "FA's value in the flags argument");
	is_int(c->expect, PROBE_EXPECT_ACCEPT, "a defined bit is expected accepted");
	is_int(probe_set__find(set, "eventfd2.flags.bit1"), 5, "bit 1 is unknown (between FA and FB)");
	c = probe_set__case(set, (size_t)probe_set__find(set, "eventfd2.flags.unknown"));
	is_int(c->args[1].value, 8, "the headline unknown bit is the one above FB");
	is_int(c->expect, PROBE_EXPECT_ERRNO, "unknown bits rejected");
	is_str(c->expect_errno, "EINVAL", "with EINVAL");
	is_int(probe_set__find(set, "eventfd2.flags.bit7"), 10, "last bit of the width");
	is_int(probe_set__find(set, "eventfd2.flags.bit8"), -1, "nothing beyond the width");

	probe_case__format_args(probe_set__case(set, 2), &b);
	is_str(b.s, "fd:file, badptr, 16", "arguments printed");
	probe_set__free(set);
	kd_buf_release(&b);

	set = NULL;
	is_int(probe_set__new(&set), 0, "an empty set");
	is_int(probe__add_builtin(set, NULL, NULL), 0, "built-in cases");
	ok(probe_set__count(set) >= 300, "at least 300 built-in cases (%zu)", probe_set__count(set));
	ok(probe_set__find(set, "cachestat.null") >= 0 && probe_set__find(set, "openat.flags.unknown") >= 0 &&
	   probe_set__find(set, "openat2.resolve.unknown") >= 0, "the headline cases are built in");
	probe_set__free(set);
}

static void test_parse(void)
{
	struct probe_set *set = small_set();
	struct kd_buf con = KD_BUF_INIT, bad = KD_BUF_INIT;
	struct probe_run run;
	struct probe_result r = { PROBE_ST_RET, -1, 9 };

	/* Firmware escapes before the first line, kernel noise between. */
	kd_buf_adds(&con, "\x1b[?7l\x1b[2J");
	line(&con, "KABI-PROBE-BEGIN 3 6.1.0-47-amd64 tmpfs");
	kd_buf_adds(&con, "[    3.1] random: crng init done\n");
	line(&con, "KABI-PROBE 0 close.badfd ret -1 9");
	line(&con, "KABI-PROBE 1 dup.badfd timeout 0 0");
	line(&con, "KABI-PROBE 2 read.badptr ret -1 14");
	line(&con, "KABI-PROBE-END 3 12");
	is_int(probe__parse(set, con.s, &run), 0, "clean console parsed");
	is_str(run.release, "6.1.0-47-amd64", "release");
	is_str(run.fs, "tmpfs", "the file system of the probe's file");
	is_int(run.nr_results, 3, "three results");
	is_int(run.nr_bad_lines, 0, "no bad line");
	ok(run.complete && !run.panic, "complete, no panic");
	is_int(run.results[0].status, PROBE_ST_RET, "case 0 returned");
	is_int(run.results[0].err, 9, "EBADF");
	is_int(run.results[1].status, PROBE_ST_TIMEOUT, "case 1 timed out");
	is_int(run.results[2].err, 14, "EFAULT");
	ok(run.elapsed_s > 0.0119 && run.elapsed_s < 0.0121, "elapsed 12 ms");
	ok(probe__matches(probe_set__case(set, 0), &r), "EBADF matches");
	ok(!probe__matches(probe_set__case(set, 2), &r), "EBADF is not EFAULT");
	probe_run__release(&run);

	/* A checksum off by one digit, a cut line, a foreign id, a repeat, a panic. */
	line(&bad, "KABI-PROBE-BEGIN 3 6.12.107 ext4");
	kd_buf_adds(&bad, "KABI-PROBE 0 close.badfd ret -1 22 00000000\n");
	kd_buf_adds(&bad, "KABI-PROBE 1 dup.bad");
	kd_buf_adds(&bad, "\n");
	line(&bad, "KABI-PROBE 1 other.case ret -1 9");
	line(&bad, "KABI-PROBE 2 read.badptr ret -1 14");
	line(&bad, "KABI-PROBE 2 read.badptr ret 0 0");
	line(&bad, "KABI-PROBE 2 read.badptr ret 5 3");
	kd_buf_adds(&bad, "[    4.2] Kernel panic - not syncing: Attempted to kill init!\n");
	is_int(probe__parse(set, bad.s, &run), 0, "damaged console parsed");
	is_int(run.nr_results, 1, "one valid result");
	is_int(run.nr_bad_lines, 4, "bad checksum, cut line, foreign id, ret with errno");
	ok(!run.complete, "no end line");
	ok(run.panic, "panic seen");
	is_int(run.results[0].status, PROBE_ST_MISSING, "case 0 missing");
	is_int(run.results[2].ret, -1, "the first of two lines for case 2 stands");
	probe_run__release(&run);

	kd_log_set_level(KD_LOG_QUIET);
	is_int(probe__parse(set, "no probe here\n", &run), -KD_EFORMAT, "no start line");
	kd_buf_reset(&bad);
	line(&bad, "KABI-PROBE-BEGIN 4 6.1 tmpfs");
	is_int(probe__parse(set, bad.s, &run), -EPROTO, "another number of cases");
	kd_buf_reset(&bad);
	line(&bad, "KABI-PROBE-BEGIN 3 6.1");
	is_int(probe__parse(set, bad.s, &run), -KD_EFORMAT, "a start line without the file system");
	kd_log_set_level(KD_LOG_WARN);

	kd_buf_reset(&bad);
	probe__tail("a\nb\nc\nd\n\n", 2, &bad);
	is_str(bad.s, "  c\n  d\n", "last two console lines");
	kd_buf_release(&con);
	kd_buf_release(&bad);
	probe_set__free(set);
}

/*
 * The probe's C program for @set written as tap_tmpdir()/NAME.c and built
 * static as NAME; the program's path, NULL (reported) when it did not build.
 */
static char *build_probe(const struct probe_set *set, const char *name)
{
	struct kd_buf src = KD_BUF_INIT, file = KD_BUF_INIT;
	char *c_path, *bin = tap_tmp_path("%s", name);

	probe__gen_c(set, &src);
	kd_buf_addf(&file, "%s.c", name);
	c_path = tap_write_tmp(file.s, src.s);
	is_int(c_path && bin ? probe__build(NULL, NULL, c_path, bin) : -1, 0, "static build");
	if (!c_path) {
		free(bin);
		bin = NULL;
	}
	free(c_path);
	kd_buf_release(&src);
	kd_buf_release(&file);
	return bin;
}

static void test_cpio(void)
{
	struct probe_cpio *a;
	char *path, *out;
	int gz;

	if (system("command -v cpio >/dev/null 2>&1")) {
		tap_skip("cpio(1) not installed (make probe-deps)");
		return;
	}
	for (gz = 0; gz < 2; gz++) {
		/* "zcat|cat 'ARCHIVE' | " before each cpio command. */
		const char *cat = gz ? "zcat" : "cat";

		path = tap_tmp_path("t%d.cpio", gz);
		is_int(probe_cpio__new(path, gz, &a), 0, gz ? "gzip archive" : "plain archive");
		probe_cpio__add_dir(a, "dev", 0755);
		probe_cpio__add_chardev(a, "dev/console", 0600, 5, 1);
		probe_cpio__add_file(a, "init", 0755, "hello", 5);
		probe_cpio__add_file(a, "odd-name.txt", 0644, "123456", 6);
		is_int(probe_cpio__finish(a), 0, "archive finished");
		out = tap_output("%s '%s' | cpio -t --quiet 2>&1", cat, path);
		is_str(out, "dev\ndev/console\ninit\nodd-name.txt\n", "cpio -t lists the entries");
		free(out);
		out = tap_output("%s '%s' | cpio -tv --quiet 2>&1 | awk '{print $1}'", cat, path);
		is_str(out, "drwxr-xr-x\ncrw-------\n-rwxr-xr-x\n-rw-r--r--\n", "modes and types");
		free(out);
		out = tap_output("%s '%s' | cpio -i --to-stdout --quiet odd-name.txt 2>&1", cat, path);
		is_str(out, "123456", "file content extracted");
		free(out);
		free(path);
	}
}

static void test_gen_host(void)
{
	struct kd_buf src = KD_BUF_INIT;
	struct probe_set *set = small_set();
	struct probe_run run;
	char *out, *bin;

	probe__gen_c(set, &src);
	ok(strstr(src.s, "{ \"read.badptr\", 0, 3, 0, { { A_FD, 0x1ULL, 0, 0, 0 }, "
			 "{ A_BAD, 0x0ULL, 0, 0, 0 }, { A_INT, 0x10ULL, 0, 0, 0 } } },") != NULL,
	   "case table row");
	ok(strstr(src.s, "static const int ncases = 3;") != NULL, "case count");
	bin = build_probe(set, "probe");
	out = bin ? tap_output("'%s' 2>&1; echo rc=$?", bin) : NULL;
	ok(out && strstr(out, "this program is /init of a test VM") && strstr(out, "rc=2"),
	   "refuses to run outside a VM without --host");
	free(out);
	out = bin ? tap_output("'%s' --host", bin) : NULL;
	is_int(probe__parse(set, out ? out : "", &run), 0, "host output parsed");
	ok(run.complete && run.nr_results == 3 && run.nr_bad_lines == 0, "complete, 3 results");
	{
		/* The probe's file is in the host's TMPDIR: its file system, as the runtime names it. */
		static const struct { unsigned long magic; const char *name; } names[] = {
			{ 0x01021994UL, "tmpfs" }, { 0x858458f6UL, "ramfs" }, { 0xef53UL, "ext4" },
			{ 0x58465342UL, "xfs" }, { 0x9123683eUL, "btrfs" },
		};
		const char *tmp = getenv("TMPDIR");
		struct statfs sf;
		char want[32] = "unknown";
		size_t k;

		if (statfs(tmp && *tmp ? tmp : "/tmp", &sf) == 0) {
			snprintf(want, sizeof(want), "0x%lx", (unsigned long)sf.f_type);
			for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
				if ((unsigned long)sf.f_type == names[k].magic)
					snprintf(want, sizeof(want), "%s", names[k].name);
		}
		is_str(run.fs, want, "the file system of the probe's file on the host");
	}
	if (run.results) {
		ok(probe__matches(probe_set__case(set, 0), &run.results[0]), "close(-1): EBADF");
		ok(probe__matches(probe_set__case(set, 1), &run.results[1]), "dup(-1): EBADF");
		ok(probe__matches(probe_set__case(set, 2), &run.results[2]), "read to badptr: EFAULT");
	}
	probe_run__release(&run);
	free(out);
	free(bin);
	kd_buf_release(&src);
	probe_set__free(set);
}

#define A_I(v) { .kind = PROBE_ARG_INT, .value = (uint64_t)(v) }
#define A_FD(f) { .kind = PROBE_ARG_FD, .value = (f) }
#define A_B(n) { .kind = PROBE_ARG_BUF, .value = (n) }

/*
 * The probe's own objects on the host: its mapping, its timer, a data
 * area behind a struct iovec, and the repairs between cases (the file
 * rewound, the pipe drained, a deleted timer remade, the mapping fresh).
 */
static void test_objects_host(void)
{
	static const struct {
		const char *id;
		long nr;
		int nargs;
		struct probe_arg a[3];
		long long want;		/* ret; -E for an errno */
	} cases[] = {
		{ "mprotect.ro", 10, 3, { { .kind = PROBE_ARG_MAP }, A_I(4096), A_I(1) }, 0 },
		{ "mprotect.unaligned", 10, 3, { { .kind = PROBE_ARG_MAP, .value = 1 }, A_I(4096),
		  A_I(1) }, -EINVAL },
		{ "timer_gettime", 224, 2, { A_FD(PROBE_ID_TIMER), A_B(32) }, 0 },
		{ "timer_delete", 226, 1, { A_FD(PROBE_ID_TIMER) }, 0 },
		{ "timer_gettime.remade", 224, 2, { A_FD(PROBE_ID_TIMER), A_B(32) }, 0 },
		{ "readv", 19, 3, { A_FD(PROBE_FD_FILE), { .kind = PROBE_ARG_BUF, .value = 16,
		  .nr_patches = 2, .patches = { { 0, 8, 4096, true }, { 8, 8, 64, false } } },
		  A_I(1) }, 64 },
		{ "lseek.rewound", 8, 3, { A_FD(PROBE_FD_FILE), A_I(0), A_I(1) }, 0 },
		{ "write.pipe", 1, 3, { A_FD(PROBE_FD_PIPE_W), A_B(16), A_I(16) }, 16 },
		{ "read.drained", 0, 3, { A_FD(PROBE_FD_PIPE_R), A_B(16), A_I(16) }, -EAGAIN },
	};
	struct kd_buf src = KD_BUF_INIT;
	struct probe_set *set = NULL;
	struct probe_run run;
	size_t i;
	char *out, *bin;

	if (probe_set__new(&set))
		return;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct probe_case c = { .id = cases[i].id, .call = cases[i].id, .nr = cases[i].nr,
					.nr_args = cases[i].nargs, .expect = PROBE_EXPECT_ANY };

		memcpy(c.args, cases[i].a, sizeof(cases[i].a));
		is_int(probe_set__add(set, &c), 0, c.id);
	}
	probe_case__format_args(probe_set__case(set, 5), &src);
	is_str(src.s, "fd:file, buf[16]{0:8=data+0x1000,8:8=0x40}, 1", "an address patch printed");
	kd_buf_reset(&src);
	probe_case__format_args(probe_set__case(set, 1), &src);
	is_str(src.s, "map+1, 0x1000, 1", "the mapping plus an offset printed");
	bin = build_probe(set, "objects");
	out = bin ? tap_output("'%s' --host", bin) : NULL;
	is_int(probe__parse(set, out ? out : "", &run), 0, "host output parsed");
	ok(out && !strstr(out, "KABI-PROBE-WARN"), "every object restored after each case");
	for (i = 0; run.results && i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct probe_result *r = &run.results[i];
		long long got = r->ret < 0 ? -(long long)r->err : r->ret;

		is_int(got, cases[i].want, cases[i].id);
	}
	probe_run__release(&run);
	free(out);
	free(bin);
	kd_buf_release(&src);
	probe_set__free(set);
}

/* One stored row, copied out of the walk. */
struct stored {
	char id[32], args[48], status[16], errno_name[16];
	bool matches;
	int64_t ret;
};

struct stored_rows {
	struct stored row[3];
	size_t n;
};

static int collect(const struct kdb_probe_row *r, void *ctx)
{
	struct stored_rows *rows = ctx;
	struct stored *s;

	if (rows->n >= 3)
		return -E2BIG;
	s = &rows->row[rows->n++];
	snprintf(s->id, sizeof(s->id), "%s", r->id);
	snprintf(s->args, sizeof(s->args), "%s", r->args);
	snprintf(s->status, sizeof(s->status), "%s", r->status);
	snprintf(s->errno_name, sizeof(s->errno_name), "%s", r->errno_name ? r->errno_name : "-");
	s->matches = r->matches;
	s->ret = r->ret;
	return 0;
}

static void test_store(void)
{
	struct probe_result results[3] = {
		{ .status = PROBE_ST_RET, .ret = -1, .err = EBADF },	/* as expected */
		{ .status = PROBE_ST_RET, .ret = 0 },			/* EBADF expected */
		{ .status = PROBE_ST_TIMEOUT },
	};
	struct probe_run run = { .release = (char *)"6.1.0-test", .fs = (char *)"tmpfs",
				 .nr_cases = 3, .nr_results = 3,
				 .complete = true, .results = results };
	struct probe_set *set = small_set();
	struct stored_rows got = { 0 };
	struct stored *rows = got.row;
	struct kd_buf path = KD_BUF_INIT;
	struct kdb *db = NULL;
	/* The meta rows of a probe run, the test's name their key. */
	static const struct { const char *key, *value; } meta[] = {
		{ "probe_cases", "3" }, { "probe_mismatches", "2" }, { "probe_release", "6.1.0-test" },
		{ "probe_kernel", "/boot/vmlinuz-test" }, { "probe_fs", "tmpfs" },
	};
	size_t mismatches = 99, i;

	kd_buf_addf(&path, "%s/store.kabi", tap_tmpdir());
	is_int(kdb__create(path.s, &db), 0, "store: a new .kabi");
	is_int(probe__store(db, set, &run, "/boot/vmlinuz-test", &mismatches, NULL), 0, "store: the run");
	is_int(mismatches, 2, "store: 2 mismatches (a success and a timeout)");
	is_int(kdb__commit(db), 0, "store: committed");
	kdb__free(db);
	db = NULL;
	is_int(kdb__open(path.s, &db), 0, "store: reopened");
	is_int(kdb__foreach_probe(db, collect, &got), 0, "store: rows walked");
	is_int(got.n, 3, "store: 3 rows");
	is_str(rows[0].id, "close.badfd", "row 0 id");
	is_str(rows[0].args, "-1", "row 0 args");
	is_str(rows[0].status, "ret", "row 0 status");
	is_str(rows[0].errno_name, "EBADF", "row 0 errno");
	ok(rows[0].matches, "row 0 matches");
	is_str(rows[1].id, "dup.badfd", "row 1 id");
	is_str(rows[1].errno_name, "-", "row 1 succeeded: no errno");
	is_int(rows[1].ret, 0, "row 1 ret");
	ok(!rows[1].matches, "row 1 is a mismatch");
	is_str(rows[2].id, "read.badptr", "row 2 id");
	is_str(rows[2].args, "fd:file, badptr, 16", "row 2 args");
	is_str(rows[2].status, "timeout", "row 2 status");
	ok(!rows[2].matches, "row 2 is a mismatch");
	for (i = 0; i < sizeof(meta) / sizeof(meta[0]); i++) {
		char *v = NULL;

		kdb__get_meta(db, meta[i].key, &v);
		is_str(v, meta[i].value, meta[i].key);
		free(v);
	}
	kdb__free(db);
	kd_buf_release(&path);
	probe_set__free(set);
}

/*
 * A child that floods its output (a guest flooding the console kept 3.8 GB
 * in 8 s) is killed at the cap: -KD_ELIMIT, exactly the cap kept.
 */
static void test_run_cmd_cap(void)
{
	char *flood[] = { "yes", "kabi-diff", NULL };
	char *few[] = { "printf", "abc\\n", NULL };
	struct kd_buf out = KD_BUF_INIT;
	int rc;

	rc = probe_run_cmd(flood, &out, 60, 1u << 20);
	is_int(rc, -KD_ELIMIT, "a flooding child: killed at the cap, -KD_ELIMIT");
	is_int(out.len, 1u << 20, "  exactly 1 MiB kept");
	ok(!strncmp(out.s, "kabi-diff\nkabi-diff\n", 20), "  its first bytes");
	kd_buf_reset(&out);
	rc = probe_run_cmd(few, &out, 60, 4);
	is_int(rc, 0, "4 bytes under a cap of 4: exit 0");
	is_str(out.s, "abc\n", "  all kept");
	kd_buf_reset(&out);
	rc = probe_run_cmd(few, &out, 60, 3);
	is_int(rc, -KD_ELIMIT, "4 bytes over a cap of 3: -KD_ELIMIT");
	is_str(out.s, "abc", "  3 kept");
	kd_buf_release(&out);
}

/* The VM and the compiler by the .kabi's architecture (probe/machine.c). */
static void test_machine(void)
{
	const struct probe_machine *x86 = probe__machine(NULL), *arm = probe__machine("arm64");
	struct kd_buf args = KD_BUF_INIT;
	size_t i;

	is_str(x86 ? x86->arch : "", "x86_64", "no arch: x86_64");
	is_str(x86 ? x86->qemu : "", "qemu-system-x86_64", "x86_64: qemu-system-x86_64");
	for (i = 0; x86 && x86->args[i]; i++)
		kd_buf_addf(&args, "%s%s", i ? " " : "", x86->args[i]);
	is_str(args.s, "-cpu qemu64,+rdrand",
	       "x86_64: QEMU's default machine, its default CPU with RDRAND (the random pool seeded at boot)");
	kd_buf_reset(&args);
	is_str(x86 ? x86->console : "", "ttyS0", "x86_64: the 8250 UART");
	is_str(arm ? arm->qemu : "", "qemu-system-aarch64", "arm64: qemu-system-aarch64");
	for (i = 0; arm && arm->args[i]; i++)
		kd_buf_addf(&args, "%s%s", i ? " " : "", arm->args[i]);
	is_str(args.s, "-M virt -cpu max,pauth-impdef=on", "arm64: the virt board, the max CPU");
	is_str(arm ? arm->console : "", "ttyAMA0", "arm64: the PL011 UART");
	is_str(arm ? arm->qemu_deb : "", "qemu-system-arm", "arm64: Debian's package of its QEMU");
	is_int(probe__machine("riscv64") == NULL, 1, "riscv64: no machine");
	is_int(probe__machine("") == NULL, 1, "an empty arch: no machine");
#if defined(__x86_64__)
	is_str(probe__default_cc("x86_64"), "cc", "x86_64 on an x86_64 host: cc");
	is_str(probe__default_cc("arm64"), "aarch64-linux-gnu-gcc", "arm64 on x86_64: the cross compiler");
#elif defined(__aarch64__)
	is_str(probe__default_cc("arm64"), "cc", "arm64 on an arm64 host: cc");
	is_str(probe__default_cc("x86_64"), "x86_64-linux-gnu-gcc", "x86_64 on arm64: the cross compiler");
#endif
	is_str(probe__default_cc("riscv64"), "cc", "an arch without a machine: cc");
	kd_buf_release(&args);
}

int main(void)
{
	test_machine();
	test_run_cmd_cap();
	test_set();
	test_parse();
	test_cpio();
	test_gen_host();
	test_objects_host();
	test_store();
	return tap_done();
}

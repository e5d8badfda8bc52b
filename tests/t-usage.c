// SPDX-License-Identifier: GPL-2.0-only
/*
 * extract/input/usage.h and lib/usage.h (diff --for): what an strace log
 * gives, line shape by line shape (pids, times, -y fds with commas,
 * resumed calls, syscall_0xNNN, ioctl commands as names, "A or B",
 * numbers, verbose numbers, _IOC(...)), and what it refuses; a seccomp
 * profile's allowed syscalls and ioctl argument filters; an ELF binary
 * (this test program) read by content; the sets sorted and unique; and
 * every reader failing cleanly at each allocation (ASan: no leak).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extract/input/usage.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/usage.h"
#include "tests/tap.h"

/* "a b c" of @n names. */
static const char *joined(struct kd_buf *b, char *const *names, size_t n)
{
	size_t i;

	kd_buf_reset(b);
	for (i = 0; i < n; i++)
		if (kd_buf_addf(b, "%s%s", i ? " " : "", names[i]))
			return "(out of memory)";
	return b->s;
}

static const char *cmds(struct kd_buf *b, const struct kd_usage *u)
{
	size_t i;

	kd_buf_reset(b);
	for (i = 0; i < u->nr_ioctl_cmds; i++)
		if (kd_buf_addf(b, "%s%#x", i ? " " : "", u->ioctl_cmds[i]))
			return "(out of memory)";
	return b->s;
}

static const char strace_log[] =
	"1234  execve(\"./a\", [\"a\"], 0x7ffd /* 3 vars */) = 0\n"
	"[pid  1235] 12:00:01.123456 openat(AT_FDCWD, \"/x\", O_RDONLY) = 3\n"
	"1236 1700000000.5 ioctl(3</dev/a,b>, TCGETS, {c_iflag=0}) = 0\n"
	"ioctl(4, SNDCTL_TMR_TIMEBASE or TCGETS, 0x7ffd) = -1 ENOTTY\n"
	"ioctl(5, 0x5413 /* TIOCGWINSZ */, {ws_row=24}) = 0\n"
	"ioctl(6, _IOC(_IOC_READ|_IOC_WRITE, 0x64, 0xa0, 0x10), 0x1) = 0\n"
	"ioctl(7, 21505, 0) = 0\n"
	"ioctl(8, _IOC(_IOC_BOGUS, 1, 2, 3), 0) = 0\n"
	"ioctl(9 <unfinished ...>\n"
	"1234  <... ioctl resumed>, 0) = 0\n"
	"syscall_0x1c5(1, 2) = -1 ENOSYS\n"
	"restart_syscall(<... resuming interrupted read ...>) = 0\n"
	"  > /usr/lib/libc.so.6(read+0x12) [0x1234]\n"
	"--- SIGCHLD {si_signo=SIGCHLD} ---\n"
	"+++ exited with 0 +++\n"
	"1234  read(3, \"\", 4096) = 0\n";

static void test_strace(void)
{
	struct kd_usage u = KD_USAGE_INIT;
	struct kd_buf b = KD_BUF_INIT;
	char *p = tap_write_tmp("a.log", strace_log);

	is_int(usage__read(p, &u), 0, "strace log read");
	is_str(u.label, "strace log", "  its kind");
	is_str(joined(&b, u.syscalls, u.nr_syscalls), "execve ioctl openat read restart_syscall",
	       "  syscalls: sorted, unique, resumed and interrupted calls too");
	is_int(u.nr_syscall_nrs == 1 ? u.syscall_nrs[0] : -1, 0x1c5, "  syscall_0x1c5: a number");
	is_str(joined(&b, u.ioctls, u.nr_ioctls), "SNDCTL_TMR_TIMEBASE TCGETS",
	       "  ioctl names, each of 'A or B', past a -y fd with a comma");
	is_str(cmds(&b, &u), "0x5401 0x5413 0xc01064a0",
	       "  ioctl numbers: decimal, hex with its comment, _IOC(READ|WRITE, 0x64, 0xa0, 0x10)");
	ok(u.abi == NULL && u.unseen && strstr(u.unseen, "vDSO") && !u.imports_are_candidates,
	   "  no ABI; what a log cannot show: the vDSO's calls");
	ok(kd_usage_has_syscall(&u, "openat") && !kd_usage_has_syscall(&u, "open") &&
	   kd_usage_has_ioctl_cmd(&u, 0x5413) && !kd_usage_has_ioctl_cmd(&u, 0x5414),
	   "  lookups");
	kd_usage_release(&u);
	free(p);

	kd_log_set_level(KD_LOG_QUIET);
	p = tap_write_tmp("empty.log", "");
	is_int(usage__read(p, &u), -KD_EFORMAT, "an empty file: no call, refused");
	kd_usage_release(&u);
	free(p);
	p = tap_write_tmp("prose.log", "Dear reader,\n(this is no log)\n");
	is_int(usage__read(p, &u), -KD_EFORMAT, "prose: refused");
	kd_usage_release(&u);
	free(p);
	kd_log_set_level(KD_LOG_WARN);
	kd_buf_release(&b);
}

static const char profile[] =
	"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [\n"
	" {\"names\": [\"read\", \"ioctl\"], \"action\": \"SCMP_ACT_ALLOW\",\n"
	"  \"args\": [{\"index\": 1, \"value\": 21505, \"op\": \"SCMP_CMP_EQ\"},\n"
	"           {\"index\": 1, \"value\": 99, \"op\": \"SCMP_CMP_NE\"},\n"
	"           {\"index\": 0, \"value\": 7, \"op\": \"SCMP_CMP_EQ\"}]},\n"
	" {\"name\": \"write\", \"action\": \"SCMP_ACT_LOG\"},\n"
	" {\"names\": [\"kexec_load\"], \"action\": \"SCMP_ACT_KILL\"}]}\n";

static void test_seccomp(void)
{
	struct kd_usage u = KD_USAGE_INIT;
	struct kd_buf b = KD_BUF_INIT;
	char *p = tap_write_tmp("p.json", profile);
	static const char *const bad[] = {
		"{\"defaultAction\": \"SCMP_ACT_ALLOW\"}",
		"{\"defaultAction\": 1}",
		"[1, 2]",
		"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": {}}",
		"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"names\": [1], \"action\": \"SCMP_ACT_ALLOW\"}]}",
		"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"names\": [\"ioctl\"], \"action\": \"SCMP_ACT_ALLOW\", \"args\": [{\"index\": \"1\"}]}]}",
		"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultAction\": \"SCMP_ACT_ALLOW\"}",
		"{\"defaultAction\": \"SCMP_ACT_ERRNO\"",
	};
	size_t i;

	is_int(usage__read(p, &u), 0, "seccomp profile read");
	is_str(u.label, "seccomp profile", "  its kind");
	is_str(joined(&b, u.syscalls, u.nr_syscalls), "ioctl read write",
	       "  the syscalls it lets through (ALLOW, LOG), not those it kills");
	is_str(cmds(&b, &u), "0x5401", "  the ioctl command of an EQ filter on argument 1, no other");
	kd_usage_release(&u);
	free(p);
	kd_log_set_level(KD_LOG_QUIET);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		p = tap_write_tmp("bad.json", bad[i]);
		is_int(usage__read(p, &u), -KD_EFORMAT, bad[i]);
		kd_usage_release(&u);
		free(p);
	}
	kd_log_set_level(KD_LOG_WARN);
	kd_buf_release(&b);
}

static void test_elf(void)
{
	struct kd_usage u = KD_USAGE_INIT;

	is_int(usage__read("/proc/self/exe", &u), 0, "this test program read as an ELF binary");
	is_str(u.label, "ELF binary", "  its kind");
	ok(kd_usage_has_syscall(&u, "read") || kd_usage_has_syscall(&u, "open") ||
	   kd_usage_has_syscall(&u, "write"), "  its imports: read, open or write among them");
	ok(u.imports_are_candidates && u.unseen, "  imports are candidates; it says what it cannot see");
	kd_usage_release(&u);
}

/* @path read with an allocation failing at each step: a clean failure, then success. */
static void oom(const char *what, const char *path)
{
	int n, failures = 0;

	kd_log_set_level(KD_LOG_QUIET);
	for (n = 0; n < 100000; n++) {
		struct kd_usage u = KD_USAGE_INIT;
		int err;

		kd_mem_fail_after(n);
		err = usage__read(path, &u);
		kd_mem_fail_after(-1);
		kd_usage_release(&u);
		if (!err)
			break;
		failures += err == -ENOMEM;
	}
	kd_log_set_level(KD_LOG_WARN);
	ok(n > 0 && failures == n, "%s: out of memory at each of %d allocations, then read", what, n);
}

static void test_oom(void)
{
	char *log = tap_write_tmp("oom.log", strace_log), *json = tap_write_tmp("oom.json", profile);

	oom("strace log", log);
	oom("seccomp profile", json);
	oom("ELF binary", "/proc/self/exe");
	free(log);
	free(json);
}

int main(void)
{
	test_strace();
	test_seccomp();
	test_elf();
	test_oom();
	return tap_done();
}

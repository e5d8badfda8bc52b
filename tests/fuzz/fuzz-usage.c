// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz harness of diff --for's readers (extract/input/usage.h): the input
 * is one file, read by content as an ELF binary, a seccomp profile or an
 * strace log (seeds: a log of every line shape, a profile with an ioctl
 * filter, a tiny ELF, see make-corpus.sh), then looked up as the diff
 * does. Any file must be refused in one line or read, never crash.
 */
#include "tests/fuzz/fuzz-common.h"
#include "tests/fuzz/harness.h"

#include "extract/input/usage.h"
#include "lib/usage.h"

int fuzz_usage_one(const uint8_t *data, size_t size)
{
	struct kd_buf path = KD_BUF_INIT;
	struct kd_usage u = KD_USAGE_INIT;
	size_t i, total = 0;

	fuzz_path(&path, "fuzz.for");
	fuzz_write(path.s, data, size);
	if (usage__read(path.s, &u) == 0) {
		for (i = 0; i < u.nr_syscalls; i++)
			total += kd_usage_has_syscall(&u, u.syscalls[i]) + strlen(u.syscalls[i]);
		for (i = 0; i < u.nr_ioctls; i++)
			total += kd_usage_has_ioctl(&u, u.ioctls[i]);
		for (i = 0; i < u.nr_ioctl_cmds; i++)
			total += kd_usage_has_ioctl_cmd(&u, u.ioctl_cmds[i]);
		if (total == (size_t)-1)
			abort();
	}
	kd_usage_release(&u);
	kd_buf_release(&path);
	return 0;
}

FUZZ_ENTRY(fuzz_usage_one)

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running the probe's helpers (the compiler, gzip, QEMU) as child
 * processes: output captured into a kd_buf, a wall-clock timeout after
 * which the child (and only it, by its pid) is killed, and exit statuses
 * turned into return codes. No shell is involved: arguments are passed as
 * they are, so paths with spaces or quotes need no care.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "probe/probe_internal.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int probe_run_cmd(char *const argv[], struct kd_buf *out, unsigned timeout_s, size_t max_out)
{
	double deadline = now_s() + timeout_s;
	int p[2], status, err = 0, timed_out = 0, flooded = 0;
	size_t written = 0;
	char chunk[8192];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(p[0]);
		close(p[1]);
		return err;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		if (null >= 0)
			dup2(null, 0);
		dup2(p[1], 1);
		dup2(p[1], 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		int wait_ms = -1;
		ssize_t n;

		if (timeout_s) {
			double left = deadline - now_s();

			if (left <= 0) {
				timed_out = 1;
				break;
			}
			wait_ms = (int)(left * 1000) + 1;
		}
		n = poll(&pfd, 1, wait_ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			continue;
		n = read(p[0], chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (out && !err)
			err = kd_buf_add(out, chunk, (size_t)n < max_out - written ? (size_t)n :
					 max_out - written);
		if ((size_t)n > max_out - written) {
			flooded = 1;
			break;
		}
		written += (size_t)n;
	}
	if (timed_out || flooded)
		kill(pid, SIGKILL);
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (timed_out)
		return -ETIMEDOUT;
	if (flooded)
		return -KD_ELIMIT;
	if (err)
		return err;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	if (WEXITSTATUS(status) == 127)
		return -ENOENT;
	return WEXITSTATUS(status);
}

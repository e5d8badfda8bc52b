// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/child.c, the one child-process runner (issue 28): exit statuses and
 * signals decoded once; stdout and stderr captured apart, to a file, to a
 * pipe, or cut at a cap (the group killed); stdin from a file; the working
 * directory and environment; the limits the child really gets (CPU,
 * address space, file size); a missing
 * program refused before anything runs; the child leading a process group
 * whose every member -- a grandchild in the background too -- dies at the
 * time limit, on kd_child_kill() and on kd_child_kill_all() (what the
 * fatal-signal handler calls).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/buf.h"
#include "lib/child.h"
#include "tests/tap.h"

#define SH(script) ((char *const[]){ "sh", "-c", (script), NULL })

/* Is @pid gone (no process, or a zombie waiting for PID 1)? Waits up to 2 s. */
static bool gone(long pid)
{
	int tries;

	for (tries = 0; tries < 200; tries++) {
		char path[64], state = 0;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
		f = fopen(path, "r");
		if (!f)
			return true;
		/* "PID (COMM) STATE ...": sleep's COMM has no ')' of its own. */
		if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1)
			state = 0;
		fclose(f);
		if (state == 'Z' || state == 'X')
			return true;
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	}
	return false;
}

static void test_exit_and_capture(void)
{
	struct kd_buf out = KD_BUF_INIT, err = KD_BUF_INIT;
	struct kd_child_conf conf = {
		.argv = SH("echo to-out; echo to-err >&2; exit 3"),
		.out = { KD_CHILD_CAPTURE, NULL, &out, 4096 },
		.err = { KD_CHILD_CAPTURE, NULL, &err, 4096 },
	};
	struct kd_child_status st = { 0 };
	struct kd_buf why = KD_BUF_INIT;

	is_int(kd_child_run(&conf, &st), 0, "run: 0");
	is_int(st.end, KD_CHILD_EXITED, "  ended by exiting");
	is_int(st.code, 3, "  exit status 3");
	ok(!kd_child_succeeded(&st), "  not a success");
	is_str(out.s, "to-out\n", "  stdout captured");
	is_str(err.s, "to-err\n", "  stderr captured apart");
	kd_child_describe(&st, 0, &why);
	is_str(why.s, "exit status 3", "  described");
	kd_buf_release(&out);
	kd_buf_release(&err);
	kd_buf_release(&why);

	conf = (struct kd_child_conf){ .argv = SH("kill -TERM $$") };
	is_int(kd_child_run(&conf, &st), 0, "a child killed by a signal: run 0");
	is_int(st.end, KD_CHILD_SIGNALLED, "  ended by a signal");
	is_int(st.code, SIGTERM, "  SIGTERM");

	conf = (struct kd_child_conf){ .argv = (char *const[]){ "kabi-no-such-program", NULL } };
	is_int(kd_child_run(&conf, &st), -ENOENT, "a missing program: -ENOENT, nothing runs");
	conf = (struct kd_child_conf){ .argv = (char *const[]){ "/nonexistent/cc", NULL } };
	is_int(kd_child_run(&conf, &st), -ENOENT, "a missing path: -ENOENT");
}

static void test_streams(void)
{
	char *in = tap_write_tmp("child-in.txt", "from a file\n");
	char *outf = tap_tmp_path("child-out.txt"), *dir = tap_tmp_path("child-cwd");
	struct kd_buf out = KD_BUF_INIT, text = KD_BUF_INIT;
	struct kd_child_conf conf = {
		.argv = SH("cat; pwd >&2"),
		.cwd = dir,
		.in = { KD_CHILD_FILE, in, NULL, 0 },
		.out = { KD_CHILD_FILE, outf, NULL, 0 },
		.err = { KD_CHILD_CAPTURE, NULL, &out, 4096 },
	};
	struct kd_child_status st;
	struct kd_child c;
	char buf[64];
	ssize_t n;

	mkdir(dir, 0700);
	is_int(kd_child_run(&conf, &st), 0, "stdin from a file, stdout to a file, another cwd");
	ok(kd_child_succeeded(&st), "  exit 0");
	kd_buf_read_file(&text, outf);
	is_str(text.s, "from a file\n", "  the file's text went through");
	ok(out.s && !strncmp(out.s, dir, strlen(dir)) && !strcmp(out.s + strlen(dir), "\n"),
	   "  it ran in the directory asked (%.*s)", out.s ? (int)strcspn(out.s, "\n") : 0,
	   out.s ? out.s : "");

	conf = (struct kd_child_conf){ .argv = SH("echo piped"), .out = { KD_CHILD_PIPE } };
	is_int(kd_child_start(&c, &conf), 0, "stdout to a pipe: started");
	n = read(c.out_fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	is_str(buf, "piped\n", "  read from the caller's end");
	is_int(kd_child_wait(&c, &st), 0, "  waited");
	ok(kd_child_succeeded(&st) && c.out_fd < 0, "  exit 0, the pipe closed");

	kd_buf_reset(&out);
	conf = (struct kd_child_conf){ .argv = SH("yes"), .out = { KD_CHILD_CAPTURE, NULL, &out, 1000 } };
	is_int(kd_child_run(&conf, &st), 0, "endless output, a cap of 1000 bytes");
	is_int(st.end, KD_CHILD_FLOODED, "  stopped as flooded");
	is_int(out.len, 1000, "  exactly the cap kept");
	free(in);
	free(outf);
	free(dir);
	kd_buf_release(&out);
	kd_buf_release(&text);
}

/* The caller feeds stdin through the pipe; stderr merged into the captured stdout. */
static void test_stdin_and_merge(void)
{
	struct kd_buf out = KD_BUF_INIT;
	struct kd_child_conf conf = {
		.argv = SH("tr a-z A-Z; echo to-err >&2; echo to-out"),
		.in = { KD_CHILD_PIPE },
		.out = { KD_CHILD_CAPTURE, NULL, &out, 4096 },
		.err = { KD_CHILD_TO_STDOUT },
	};
	struct kd_child_status st;
	struct kd_child c;

	is_int(kd_child_start(&c, &conf), 0, "stdin a pipe, stderr to stdout: started");
	ok(c.in_fd >= 0 && write(c.in_fd, "fed\n", 4) == 4, "  fed 4 bytes");
	kd_child_close_pipe(&c, 0);
	ok(c.in_fd < 0, "  its stdin closed: the end of its input");
	is_int(kd_child_wait(&c, &st), 0, "  waited");
	ok(kd_child_succeeded(&st), "  exit 0");
	is_str(out.s, "FED\nto-err\nto-out\n", "  what it read, then both streams in order");
	kd_child_close_pipe(&c, 0);

	kd_buf_reset(&out);
	conf = (struct kd_child_conf){
		.argv = (char *const[]){ "printf", "abc\\n", NULL },
		.out = { KD_CHILD_CAPTURE, NULL, &out, 3 },
	};
	is_int(kd_child_run(&conf, &st), 0, "4 bytes of output, a cap of 3");
	is_int(st.end, KD_CHILD_FLOODED, "  flooded, even when it exited on its own");
	is_str(out.s, "abc", "  the first 3 kept");
	kd_buf_reset(&out);
	conf.out.cap = 4;
	is_int(kd_child_run(&conf, &st), 0, "the same under a cap of 4");
	ok(kd_child_succeeded(&st), "  exit 0");
	is_str(out.s, "abc\n", "  all kept");

	{
		char *path = tap_write_tmp("child-fd.txt", "unlinked\n");
		int fd = path ? open(path, O_RDONLY) : -1;

		if (path)
			unlink(path);
		kd_buf_reset(&out);
		conf = (struct kd_child_conf){
			.argv = SH("cat"),
			.in = { .kind = KD_CHILD_FD, .fd = fd },
			.out = { KD_CHILD_CAPTURE, NULL, &out, 4096 },
		};
		is_int(kd_child_run(&conf, &st), 0, "stdin from the caller's descriptor of an unlinked file");
		is_str(out.s, "unlinked\n", "  its text read");
		ok(fd >= 0 && fcntl(fd, F_GETFD) >= 0, "  the caller's descriptor still open");
		if (fd >= 0)
			close(fd);
		free(path);
	}

	conf = (struct kd_child_conf){ .argv = SH("exit 255") };
	is_int(kd_child_run(&conf, &st), 0, "exit 255");
	ok(st.end == KD_CHILD_EXITED && st.code == 255, "  decoded as exited, 255");
	conf = (struct kd_child_conf){ .argv = SH("kill -KILL $$") };
	is_int(kd_child_run(&conf, &st), 0, "a child killed by SIGKILL");
	ok(st.end == KD_CHILD_SIGNALLED && st.code == SIGKILL, "  decoded as signalled, SIGKILL");
	conf = (struct kd_child_conf){ .argv = SH("exec sleep 5"), .timeout_ms = 100 };
	is_int(kd_child_run(&conf, &st), 0, "sleep 5 with 0.1 s to live");
	is_int(st.end, KD_CHILD_TIMED_OUT, "  timed out");
	kd_buf_release(&out);
}

static void test_limits(void)
{
	struct kd_buf out = KD_BUF_INIT;
	char *const env[] = { "KD_CHILD_T=given", NULL };
	struct kd_child_conf conf = {
		.argv = SH("ulimit -t; ulimit -v; cut -d' ' -f5 /proc/$$/stat; echo $$;"
			   " awk '/^Max file size/ { print $4 }' /proc/$$/limits; echo $KD_CHILD_T"),
		.envp = env,
		.out = { KD_CHILD_CAPTURE, NULL, &out, 4096 },
		.cpu_seconds = 7,
		.address_space = 256ull << 20,
		.file_size = 1 << 20,
	};
	struct kd_child_status st;
	long cpu = 0, vm = 0, pgid = 0, pid = -1, fsize = 0;
	char given[16] = "";

	is_int(kd_child_run(&conf, &st), 0, "limits: run");
	ok(out.s && sscanf(out.s, "%ld %ld %ld %ld %ld %15s", &cpu, &vm, &pgid, &pid, &fsize,
			   given) == 6, "  read back");
	is_int(cpu, 7, "  7 CPU seconds");
	is_int(vm, 256 * 1024, "  256 MiB of address space");
	is_int(fsize, 1 << 20, "  1 MiB per file written");
	is_int(pgid, pid, "  the child leads a process group of its own");
	is_str(given, "given", "  the environment given, not the caller's");
	kd_buf_release(&out);
}

/* A shell that leaves a grandchild running; the grandchild's pid from its first line. */
static long start_family(struct kd_child *c, struct kd_buf *out, unsigned timeout_ms)
{
	struct kd_child_conf conf = {
		.argv = SH("sleep 300 & echo $!; wait"),
		.out = { KD_CHILD_CAPTURE, NULL, out, 4096 },
		.timeout_ms = timeout_ms,
	};
	int tries;

	if (kd_child_start(c, &conf))
		return -1;
	for (tries = 0; tries < 500 && !strchr(out->s ? out->s : "", '\n'); tries++) {
		struct kd_child_status st;

		if (kd_child_poll(c, &st))
			return -1;
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	}
	return out->s ? strtol(out->s, NULL, 10) : -1;
}

static void test_group_killed(void)
{
	struct kd_buf out = KD_BUF_INIT, why = KD_BUF_INIT;
	struct kd_child_status st;
	struct kd_child c;
	long grandchild;

	grandchild = start_family(&c, &out, 300);
	ok(grandchild > 0, "a child with a grandchild in the background, 0.3 s to live");
	is_int(kd_child_wait(&c, &st), 0, "  waited");
	is_int(st.end, KD_CHILD_TIMED_OUT, "  stopped at the time limit");
	kd_child_describe(&st, 300, &why);
	is_str(why.s, "stopped at its time limit (0.3 s)", "  described");
	ok(grandchild > 0 && gone(grandchild), "  its grandchild died with it (its process group)");

	kd_buf_reset(&out);
	grandchild = start_family(&c, &out, 0);
	kd_child_kill(&c, &st);
	is_int(st.end, KD_CHILD_KILLED, "kd_child_kill(): stopped");
	ok(grandchild > 0 && gone(grandchild), "  the grandchild too");

	kd_buf_reset(&out);
	grandchild = start_family(&c, &out, 0);
	kd_child_kill_all();
	is_int(kd_child_wait(&c, &st), 0, "kd_child_kill_all(), as the signal handler calls it");
	is_int(st.end, KD_CHILD_SIGNALLED, "  the child was killed");
	is_int(st.code, SIGKILL, "  by SIGKILL");
	ok(grandchild > 0 && gone(grandchild), "  and its grandchild");
	kd_buf_release(&out);
	kd_buf_release(&why);
}

int main(void)
{
	test_exit_and_capture();
	test_streams();
	test_stdin_and_merge();
	test_limits();
	test_group_killed();
	return tap_done();
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one way kabi-diff runs another program (issue 28). The program gets
 * an argv (no shell: arguments need no quoting), standard streams that are
 * each /dev/null, a file, a pipe to the caller or a buffer captured up to a
 * cap (stderr also merged into stdout), an optional working directory, a wall-clock timeout and CPU and
 * address-space limits. It leads a process group of its own and every kill
 * goes to the whole group: a compiler driver killed at its time limit
 * takes its cc1 with it instead of leaving it to PID 1. The groups running
 * are registered, so that kd_child_kill_all() (from the fatal-signal
 * handler of lib/tmpfile.c) stops them all when kabi-diff itself is
 * stopped. How the program ended is decoded once, into struct
 * kd_child_status.
 *
 * A child also gets SIGKILL when the thread that started it ends (Linux's
 * parent-death signal): start children from a thread that outlives them.
 */
#ifndef KD_CHILD_H
#define KD_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct kd_buf;

enum kd_child_stream {
	KD_CHILD_NULL,		/* /dev/null */
	KD_CHILD_FILE,		/* @path: read (stdin), or created 0600 and truncated */
	KD_CHILD_PIPE,		/* a pipe; the caller's end in kd_child.in_fd/out_fd/err_fd */
	KD_CHILD_CAPTURE,	/* stdout, stderr: appended to @buf, at most @cap bytes */
	KD_CHILD_TO_STDOUT,	/* stderr only: wherever stdout goes, interleaved as written (2>&1) */
	KD_CHILD_FD,		/* @fd, the caller's (kept open): an unlinked file, or 2 to inherit stderr */
};

struct kd_child_io {
	enum kd_child_stream kind;
	const char *path;	/* KD_CHILD_FILE */
	struct kd_buf *buf;	/* KD_CHILD_CAPTURE */
	size_t cap;		/* KD_CHILD_CAPTURE: past it the group is killed (KD_CHILD_FLOODED) */
	int fd;			/* KD_CHILD_FD */
};

struct kd_child_conf {
	char *const *argv;	/* NULL-terminated; argv[0] a path, or a name searched in $PATH */
	char *const *envp;	/* its environment, NULL-terminated; NULL: the caller's */
	const char *cwd;	/* the child's working directory; NULL: the caller's */
	struct kd_child_io in, out, err;	/* zeroed: /dev/null */
	unsigned timeout_ms;	/* wall clock from the start; 0: none */
	unsigned cpu_seconds;	/* RLIMIT_CPU of each process of the group; 0: inherited */
	uint64_t address_space;	/* RLIMIT_AS (bytes) of each process of the group; 0: inherited */
	uint64_t file_size;	/* RLIMIT_FSIZE (bytes): each file it writes; 0: inherited */
};

enum kd_child_end {
	KD_CHILD_EXITED,	/* code: the exit status */
	KD_CHILD_SIGNALLED,	/* code: the signal that ended it (a CPU limit: SIGXCPU or SIGKILL) */
	KD_CHILD_TIMED_OUT,	/* killed at timeout_ms */
	KD_CHILD_FLOODED,	/* killed when a capture passed its cap */
	KD_CHILD_KILLED,	/* killed by kd_child_kill() */
};

struct kd_child_status {
	enum kd_child_end end;
	int code;
};

/* A running child; fields are the caller's to read, not to write. */
struct kd_child {
	pid_t pid;		/* and process group; 0 when none runs */
	int in_fd, out_fd, err_fd;	/* the caller's ends of KD_CHILD_PIPE streams (closed by the reap), else -1 */
	/* private */
	struct kd_child_io out, err;
	int capture_fd[2];	/* read ends of stdout/stderr captures, else -1 */
	uint64_t deadline_ns;	/* CLOCK_MONOTONIC; 0: none */
	bool flooded;
};

/*
 * Start @conf's program. 0, or a negative errno: -ENOENT when it cannot be
 * found or executed (nothing runs then), -EMFILE when more than
 * KD_CHILD_MAX_RUNNING children run at once. @c is then kd_child_poll()ed
 * or kd_child_wait()ed until it ended, or kd_child_kill()ed.
 */
#define KD_CHILD_MAX_RUNNING 64
int kd_child_start(struct kd_child *c, const struct kd_child_conf *conf);
/*
 * Has @c ended? 1 with *st filled (the child reaped, the rest of its
 * group killed), 0 while it runs (captures read on; past the timeout or a
 * cap the group is killed here), or a negative errno.
 */
int kd_child_poll(struct kd_child *c, struct kd_child_status *st);
/*
 * Close the caller's end of @c's KD_CHILD_PIPE @stream (0, 1 or 2) before
 * the reap does: on stdin the end of what the child is fed (a child
 * reading to EOF then goes on), on stdout or stderr a reader that gives up
 * (a child still writing gets SIGPIPE). Fine when there is none.
 */
void kd_child_close_pipe(struct kd_child *c, int stream);
/* kd_child_poll() until it ends. 0 with *st, or a negative errno. */
int kd_child_wait(struct kd_child *c, struct kd_child_status *st);
/* Kill @c's group and reap it (error paths); a @c not running is fine. */
void kd_child_kill(struct kd_child *c, struct kd_child_status *st);
/* Start, wait: 0 with *st, or a negative errno from kd_child_start(). */
int kd_child_run(const struct kd_child_conf *conf, struct kd_child_status *st);

/* Did it exit with status 0? */
bool kd_child_succeeded(const struct kd_child_status *st);
/*
 * @st in words, appended to @b: "exit status 1", "killed by signal 9
 * (Killed)", "stopped at its time limit (2.5 s)", "stopped: more output
 * than the 1048576 bytes kept". @timeout_ms as given to the child.
 */
int kd_child_describe(const struct kd_child_status *st, unsigned timeout_ms, struct kd_buf *b);

/*
 * SIGKILL every process group running; async-signal-safe, for a fatal
 * signal's handler (the groups are reaped by no one then: the process is
 * about to die).
 */
void kd_child_kill_all(void);

#endif

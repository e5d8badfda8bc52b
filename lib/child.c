// SPDX-License-Identifier: GPL-2.0-only
/*
 * Child processes; see child.h. Between fork() and exec() the child makes
 * only async-signal-safe calls: the caller may be one thread of a busy
 * process. The program is found in $PATH before the fork for the same
 * reason, and an exec that fails is reported through a close-on-exec pipe,
 * so that a missing program is an error of kd_child_start() rather than an
 * exit status to guess at.
 */
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "mem.h"

/* The process groups running: a slot is 0 (free), -1 (being started) or a pgid. */
static _Atomic pid_t running[KD_CHILD_MAX_RUNNING];

static int claim_slot(void)
{
	int i;

	for (i = 0; i < KD_CHILD_MAX_RUNNING; i++) {
		pid_t free_slot = 0;

		if (atomic_compare_exchange_strong(&running[i], &free_slot, -1))
			return i;
	}
	return -1;
}

static void release_pid(pid_t pid)
{
	int i;

	for (i = 0; i < KD_CHILD_MAX_RUNNING; i++) {
		pid_t p = pid;

		if (atomic_compare_exchange_strong(&running[i], &p, 0))
			return;
	}
}

void kd_child_kill_all(void)
{
	int i;

	for (i = 0; i < KD_CHILD_MAX_RUNNING; i++) {
		pid_t pid = atomic_load(&running[i]);

		if (pid > 0)
			kill(-pid, SIGKILL);
	}
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* @name as an executable path: itself when it has a slash, else searched in $PATH. */
static char *find_program(const char *name)
{
	const char *path = getenv("PATH"), *p;

	if (strchr(name, '/'))
		return access(name, X_OK) ? NULL : kd_strdup(name);
	for (p = path && *path ? path : "/usr/bin:/bin";;) {
		size_t n = strcspn(p, ":");
		struct kd_buf b = KD_BUF_INIT;

		if (n && !kd_buf_addf(&b, "%.*s/%s", (int)n, p, name) && !access(b.s, X_OK))
			return kd_buf_detach(&b);
		kd_buf_release(&b);
		if (!p[n])
			return NULL;
		p += n + 1;
	}
}

/*
 * The two ends of one standard stream: *child_fd for the child (dup2'ed
 * onto @target), *parent_fd kept here (a pipe's other end), else -1.
 */
static int open_stream(const struct kd_child_io *io, int target, int *child_fd, int *parent_fd)
{
	int p[2];

	*child_fd = *parent_fd = -1;
	switch (io->kind) {
	case KD_CHILD_NULL:
		*child_fd = open("/dev/null", (target ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
		break;
	case KD_CHILD_FILE:
		if (!io->path)
			return -EINVAL;
		*child_fd = target ? open(io->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) :
				     open(io->path, O_RDONLY | O_CLOEXEC);
		break;
	case KD_CHILD_FD:
		/* The child's own descriptor of it: the caller's stays open, each closed once. */
		*child_fd = io->fd < 0 ? -1 : fcntl(io->fd, F_DUPFD_CLOEXEC, 0);
		if (io->fd < 0)
			return -EBADF;
		break;
	case KD_CHILD_CAPTURE:
		if (!target || !io->buf)
			return -EINVAL;
		/* fall through */
	case KD_CHILD_PIPE:
		if (pipe2(p, O_CLOEXEC) < 0)
			return -errno;
		*child_fd = target ? p[1] : p[0];
		*parent_fd = target ? p[0] : p[1];
		if (io->kind == KD_CHILD_CAPTURE && fcntl(*parent_fd, F_SETFL, O_NONBLOCK) < 0) {
			int err = -errno;

			close(p[0]);
			close(p[1]);
			*child_fd = *parent_fd = -1;
			return err;
		}
		break;
	default:
		return -EINVAL;
	}
	return *child_fd < 0 ? -errno : 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* The child's side of the fork: never returns. */
static void __attribute__((noreturn)) exec_child(const struct kd_child_conf *conf,
						 const char *path, const int fds[3], int status_fd,
						 pid_t parent)
{
	sigset_t none;
	int err, i;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setpgid(0, 0);
	/* Started just as kabi-diff died, before it could register the group. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(127);
	if (conf->cpu_seconds) {
		struct rlimit cpu = { conf->cpu_seconds, conf->cpu_seconds + 5 };

		setrlimit(RLIMIT_CPU, &cpu);
	}
	if (conf->address_space) {
		struct rlimit as = { conf->address_space, conf->address_space };

		setrlimit(RLIMIT_AS, &as);
	}
	if (conf->file_size) {
		struct rlimit fsize = { conf->file_size, conf->file_size };

		setrlimit(RLIMIT_FSIZE, &fsize);
	}
	for (i = 0; i < 3; i++)
		if (dup2(fds[i], i) < 0)
			goto fail;
	if (conf->cwd && chdir(conf->cwd) < 0)
		goto fail;
	if (conf->envp)
		execve(path, conf->argv, conf->envp);
	else
		execv(path, conf->argv);
fail:
	err = errno;
	if (write(status_fd, &err, sizeof(err)) < 0)
		err = 0;
	_exit(127);
}

int kd_child_start(struct kd_child *c, const struct kd_child_conf *conf)
{
	const struct kd_child_io *io[3] = { &conf->in, &conf->out, &conf->err };
	int child_fd[3] = { -1, -1, -1 }, parent_fd[3] = { -1, -1, -1 }, status[2] = { -1, -1 };
	int i, slot, exec_errno = 0, err = 0;
	sigset_t stop, saved;
	char *path = NULL;
	ssize_t n;
	pid_t pid;

	memset(c, 0, sizeof(*c));
	c->in_fd = c->out_fd = c->err_fd = c->capture_fd[0] = c->capture_fd[1] = -1;
	if (!conf->argv || !conf->argv[0])
		return -EINVAL;
	path = find_program(conf->argv[0]);
	if (!path)
		return errno == ENOMEM ? -ENOMEM : -ENOENT;
	for (i = 0; !err && i < 3; i++) {
		if (i == 2 && io[i]->kind == KD_CHILD_TO_STDOUT) {
			/* Its own descriptor of stdout's file or pipe: each is closed once. */
			child_fd[i] = fcntl(child_fd[1], F_DUPFD_CLOEXEC, 0);
			err = child_fd[i] < 0 ? -errno : 0;
		} else {
			err = open_stream(io[i], i, &child_fd[i], &parent_fd[i]);
		}
	}
	if (!err && pipe2(status, O_CLOEXEC) < 0)
		err = -errno;
	slot = err ? -1 : claim_slot();
	if (!err && slot < 0)
		err = -EMFILE;
	if (err)
		goto out;
	/*
	 * A fatal signal between fork() and the registration would leave the
	 * child out of kd_child_kill_all(): this thread takes none meanwhile.
	 */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stop, &saved);
	{
		pid_t parent = getpid();

		pid = fork();
		if (pid == 0) {
			close(status[0]);
			exec_child(conf, path, child_fd, status[1], parent);
		}
	}
	if (pid > 0) {
		setpgid(pid, pid);	/* the child does it too: whichever runs first */
		atomic_store(&running[slot], pid);
	} else {
		err = -errno;
		atomic_store(&running[slot], 0);
	}
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (err)
		goto out;
	close_fd(&status[1]);
	while ((n = read(status[0], &exec_errno, sizeof(exec_errno))) < 0 && errno == EINTR)
		;
	if (n > 0) {
		/* The exec failed: nothing ran. */
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		release_pid(pid);
		err = exec_errno == ENOMEM ? -ENOMEM : exec_errno == ENOENT ||
		      exec_errno == EACCES || exec_errno == ENOEXEC ? -ENOENT : -exec_errno;
		goto out;
	}
	c->pid = pid;
	c->out = conf->out;
	c->err = conf->err;
	c->deadline_ns = conf->timeout_ms ? now_ns() + conf->timeout_ms * (uint64_t)1000000 : 0;
	c->in_fd = parent_fd[0];
	if (conf->out.kind == KD_CHILD_CAPTURE)
		c->capture_fd[0] = parent_fd[1];
	else
		c->out_fd = parent_fd[1];
	if (conf->err.kind == KD_CHILD_CAPTURE)
		c->capture_fd[1] = parent_fd[2];
	else
		c->err_fd = parent_fd[2];
	parent_fd[0] = parent_fd[1] = parent_fd[2] = -1;
out:
	for (i = 0; i < 3; i++) {
		close_fd(&child_fd[i]);
		close_fd(&parent_fd[i]);
	}
	close_fd(&status[0]);
	close_fd(&status[1]);
	free(path);
	return err;
}

/* Read what the captures hold now (@until_eof: until their writers are gone). */
static void drain(struct kd_child *c, bool until_eof)
{
	const struct kd_child_io *io[2] = { &c->out, &c->err };
	char chunk[8192];
	int i;

	for (i = 0; i < 2; i++) {
		int idle_ms = 0;

		while (c->capture_fd[i] >= 0) {
			struct kd_buf *b = io[i]->buf;
			ssize_t n = read(c->capture_fd[i], chunk, sizeof(chunk));

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && errno == EAGAIN) {
				struct pollfd p = { .fd = c->capture_fd[i], .events = POLLIN };

				/* The group is dead when draining to EOF: a second is plenty. */
				if (!until_eof || idle_ms >= 1000 || poll(&p, 1, 100) < 0)
					break;
				idle_ms += 100;
				continue;
			}
			if (n <= 0) {
				close_fd(&c->capture_fd[i]);
				break;
			}
			if (b->len + (size_t)n > io[i]->cap) {
				size_t room = io[i]->cap > b->len ? io[i]->cap - b->len : 0;

				(void)kd_buf_add(b, chunk, room);
				c->flooded = true;
				close_fd(&c->capture_fd[i]);
				break;
			}
			(void)kd_buf_add(b, chunk, (size_t)n);
		}
	}
}

/* Reap @c's leader (its group killed first), close its streams, decode how it ended. */
static int reap(struct kd_child *c, enum kd_child_end forced, bool force, struct kd_child_status *st)
{
	int status = 0;

	/* The leader is not reaped yet, so its pid cannot name another group. */
	kill(-c->pid, SIGKILL);
	while (waitpid(c->pid, &status, 0) < 0) {
		if (errno != EINTR) {
			int err = -errno;

			release_pid(c->pid);
			c->pid = 0;
			return err;
		}
	}
	release_pid(c->pid);
	c->pid = 0;
	drain(c, true);
	close_fd(&c->capture_fd[0]);
	close_fd(&c->capture_fd[1]);
	close_fd(&c->in_fd);
	close_fd(&c->out_fd);
	close_fd(&c->err_fd);
	if (force)
		*st = (struct kd_child_status){ forced, 0 };
	else if (c->flooded)
		*st = (struct kd_child_status){ KD_CHILD_FLOODED, 0 };
	else if (WIFSIGNALED(status))
		*st = (struct kd_child_status){ KD_CHILD_SIGNALLED, WTERMSIG(status) };
	else
		*st = (struct kd_child_status){ KD_CHILD_EXITED, WEXITSTATUS(status) };
	return 0;
}

int kd_child_poll(struct kd_child *c, struct kd_child_status *st)
{
	siginfo_t info;
	int err;

	if (!c->pid)
		return -ECHILD;
	memset(&info, 0, sizeof(info));
	drain(c, false);
	if (c->flooded)
		err = reap(c, KD_CHILD_FLOODED, true, st);
	else if (waitid(P_PID, (id_t)c->pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno == EINTR ? 0 : -errno;
	else if (info.si_pid)
		err = reap(c, KD_CHILD_EXITED, false, st);
	else if (c->deadline_ns && now_ns() >= c->deadline_ns)
		err = reap(c, KD_CHILD_TIMED_OUT, true, st);
	else
		return 0;
	return err ? err : 1;
}

void kd_child_close_pipe(struct kd_child *c, int stream)
{
	close_fd(stream == 0 ? &c->in_fd : stream == 1 ? &c->out_fd : &c->err_fd);
}

int kd_child_wait(struct kd_child *c, struct kd_child_status *st)
{
	long nap_us = 500;

	for (;;) {
		struct pollfd p[2];
		nfds_t n = 0;
		int r = kd_child_poll(c, st);

		if (r)
			return r < 0 ? r : 0;
		if (c->capture_fd[0] >= 0)
			p[n++] = (struct pollfd){ .fd = c->capture_fd[0], .events = POLLIN };
		if (c->capture_fd[1] >= 0)
			p[n++] = (struct pollfd){ .fd = c->capture_fd[1], .events = POLLIN };
		/* Output wakes us at once; the exit within 10 ms (a short program sooner). */
		if (n) {
			poll(p, n, (int)(nap_us / 1000) + 1);
		} else {
			struct timespec ts = { 0, nap_us * 1000 };

			nanosleep(&ts, NULL);
		}
		if (nap_us < 10000)
			nap_us *= 2;
	}
}

void kd_child_kill(struct kd_child *c, struct kd_child_status *st)
{
	struct kd_child_status ignored;

	if (c->pid)
		(void)reap(c, KD_CHILD_KILLED, true, st ? st : &ignored);
	else if (st)
		*st = (struct kd_child_status){ KD_CHILD_KILLED, 0 };
}

int kd_child_run(const struct kd_child_conf *conf, struct kd_child_status *st)
{
	struct kd_child c;
	int err = kd_child_start(&c, conf);

	return err ? err : kd_child_wait(&c, st);
}

bool kd_child_succeeded(const struct kd_child_status *st)
{
	return st->end == KD_CHILD_EXITED && st->code == 0;
}

int kd_child_describe(const struct kd_child_status *st, unsigned timeout_ms, struct kd_buf *b)
{
	switch (st->end) {
	case KD_CHILD_EXITED:
		return kd_buf_addf(b, "exit status %d", st->code);
	case KD_CHILD_SIGNALLED:
		return kd_buf_addf(b, "killed by signal %d (%s)", st->code, strsignal(st->code));
	case KD_CHILD_TIMED_OUT:
		return kd_buf_addf(b, "stopped at its time limit (%u.%u s)", timeout_ms / 1000,
				   timeout_ms % 1000 / 100);
	case KD_CHILD_FLOODED:
		return kd_buf_adds(b, "stopped: more output than it may give");
	case KD_CHILD_KILLED:
		return kd_buf_adds(b, "stopped");
	}
	return kd_buf_adds(b, "ended");
}

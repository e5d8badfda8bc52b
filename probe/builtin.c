// SPDX-License-Identifier: GPL-2.0-only
/*
 * The built-in probe cases: what kabi-diff probes without a spec, so that
 * the pipeline runs end to end and two kernels can be compared on facts a
 * spec would state. Two tables: errno conditions (one call with arguments
 * that trigger one errno) and flag sets (expanded to one case per defined
 * bit and per unused bit of the argument, see probe_set__add_flags()).
 *
 * Every case is argument validation: bad fds, bad flags, faulting or NULL
 * pointers, sizes below a struct's first version or above a page. None
 * creates a process, maps over memory, signals anyone or touches a disk;
 * fds that a successful case returns are closed by the probe (ret_fd).
 * Syscall numbers are x86_64's (arch/x86/entry/syscalls/syscall_64.tbl),
 * written out rather than taken from the host's headers, which may be
 * older than the kernels probed. Values of flags are the UAPI headers'.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "lib/arch.h"
#include "probe/probe_internal.h"

#define I(v)	{ .kind = PROBE_ARG_INT, .value = (uint64_t)(v) }
#define S(s)	{ .kind = PROBE_ARG_STR, .str = (s) }
#define B(n)	{ .kind = PROBE_ARG_BUF, .value = (n) }
#define BP(n, off, w, v) { .kind = PROBE_ARG_BUF, .value = (n), .nr_patches = 1, \
			   .patches = { { (off), (w), (uint64_t)(v), false } } }
#define BAD	{ .kind = PROBE_ARG_BADPTR }
#define FD(f)	{ .kind = PROBE_ARG_FD, .value = (f) }
#define FDROOT	FD(PROBE_FD_ROOT)
#define FDFILE	FD(PROBE_FD_FILE)
#define PIPER	FD(PROBE_FD_PIPE_R)
#define PIPEW	FD(PROBE_FD_PIPE_W)

#define AT_FDCWD -100
#define NOENT "/kabi-probe-nonexistent"
#define NOENT2 "/kabi-probe-nonexistent-2"

struct errno_case {
	const char *id;
	const char *call;
	long nr;
	int nr_args;
	struct probe_arg args[PROBE_MAX_ARGS];
	const char *err;	/* expected errno; NULL: only record */
	const char *what;
};

static const struct errno_case errno_cases[] = {
	/* Syscalls added after 6.1: ENOSYS there. */
	{ "cachestat.null", "cachestat", 451, 6, { I(0), I(0), I(0), I(0), I(0), I(0) },
	  "EFAULT", "syscall 451 (cachestat, 6.5) with NULL arguments faults on the range" },
	{ "fchmodat2.nonexistent", "fchmodat2", 452, 4, { I(AT_FDCWD), S(NOENT), I(0644), I(0) },
	  "ENOENT", "syscall 452 (fchmodat2, 6.6) on a missing path" },
	/* Bad fds. */
	{ "close.badfd", "close", 3, 1, { I(-1) }, "EBADF", "close(-1)" },
	{ "read.badfd", "read", 0, 3, { I(-1), B(16), I(16) }, "EBADF", "read(-1)" },
	{ "write.badfd", "write", 1, 3, { I(-1), B(16), I(16) }, "EBADF", "write(-1)" },
	{ "fstat.badfd", "fstat", 5, 2, { I(-1), B(144) }, "EBADF", "fstat(-1)" },
	{ "lseek.badfd", "lseek", 8, 3, { I(-1), I(0), I(0) }, "EBADF", "lseek(-1)" },
	{ "fsync.badfd", "fsync", 74, 1, { I(-1) }, "EBADF", "fsync(-1)" },
	{ "dup.badfd", "dup", 32, 1, { I(-1) }, "EBADF", "dup(-1)" },
	{ "dup2.badfd", "dup2", 33, 2, { I(-1), I(100) }, "EBADF", "dup2(-1, 100)" },
	{ "dup3.badfd", "dup3", 292, 3, { I(-1), I(100), I(0) }, "EBADF", "dup3(-1, 100, 0)" },
	{ "dup3.same", "dup3", 292, 3, { FDFILE, FDFILE, I(0) }, "EINVAL", "dup3 onto itself" },
	{ "fchdir.badfd", "fchdir", 81, 1, { I(-1) }, "EBADF", "fchdir(-1)" },
	{ "ftruncate.badfd", "ftruncate", 77, 2, { I(-1), I(0) }, "EBADF", "ftruncate(-1)" },
	{ "getdents64.badfd", "getdents64", 217, 3, { I(-1), B(4096), I(4096) }, "EBADF",
	  "getdents64(-1)" },
	{ "ioctl.badfd", "ioctl", 16, 3, { I(-1), I(0x5401), B(64) }, "EBADF", "ioctl(-1, TCGETS)" },
	{ "fcntl.badfd", "fcntl", 72, 3, { I(-1), I(1), I(0) }, "EBADF", "fcntl(-1, F_GETFD)" },
	{ "accept4.badfd", "accept4", 288, 4, { I(-1), I(0), I(0), I(0) }, "EBADF", "accept4(-1)" },
	{ "epoll_ctl.badfd", "epoll_ctl", 233, 4, { I(-1), I(1), I(0), B(16) }, "EBADF",
	  "epoll_ctl(-1)" },
	{ "pidfd_getfd.badfd", "pidfd_getfd", 438, 3, { I(-1), I(0), I(0) }, "EBADF",
	  "pidfd_getfd(-1)" },
	{ "timerfd_settime.badfd", "timerfd_settime", 286, 4, { I(-1), I(0), B(32), I(0) },
	  "EBADF", "timerfd_settime(-1)" },
	/* fds of the wrong kind. */
	{ "read.dir", "read", 0, 3, { FDROOT, B(16), I(16) }, "EISDIR", "read on a directory" },
	{ "write.rdonly", "write", 1, 3, { FDROOT, B(16), I(1) }, "EBADF",
	  "write on a read-only fd" },
	{ "read.pipe-empty", "read", 0, 3, { PIPER, B(16), I(1) }, "EAGAIN",
	  "read on an empty non-blocking pipe" },
	{ "pread64.pipe", "pread64", 17, 4, { PIPER, B(16), I(1), I(0) }, "ESPIPE",
	  "pread64 on a pipe" },
	{ "lseek.pipe", "lseek", 8, 3, { PIPER, I(0), I(0) }, "ESPIPE", "lseek on a pipe" },
	{ "lseek.whence", "lseek", 8, 3, { FDFILE, I(0), I(99) }, "EINVAL", "lseek whence 99" },
	{ "getdents64.file", "getdents64", 217, 3, { FDFILE, B(4096), I(4096) }, "ENOTDIR",
	  "getdents64 on a file" },
	{ "fchdir.file", "fchdir", 81, 1, { FDFILE }, "ENOTDIR", "fchdir to a file" },
	{ "ioctl.file-tcgets", "ioctl", 16, 3, { FDFILE, I(0x5401), B(64) }, "ENOTTY",
	  "TCGETS on a regular file" },
	{ "fcntl.badcmd", "fcntl", 72, 3, { FDFILE, I(9999), I(0) }, "EINVAL", "fcntl cmd 9999" },
	{ "accept4.file", "accept4", 288, 4, { FDFILE, I(0), I(0), I(0) }, "ENOTSOCK",
	  "accept4 on a file" },
	{ "sendto.file", "sendto", 44, 6, { FDFILE, B(16), I(1), I(0), I(0), I(0) }, "ENOTSOCK",
	  "sendto on a file" },
	{ "splice.same-pipe", "splice", 275, 6, { PIPER, I(0), PIPEW, I(0), I(1), I(0) },
	  "EINVAL", "splice from a pipe into itself" },
	{ "tee.same-pipe", "tee", 276, 4, { PIPER, PIPEW, I(1), I(0) }, "EINVAL",
	  "tee from a pipe into itself" },
	{ "fallocate.pipe", "fallocate", 285, 4, { PIPEW, I(0), I(0), I(1) }, "ESPIPE",
	  "fallocate on a pipe" },
	{ "fallocate.zero-len", "fallocate", 285, 4, { FDFILE, I(0), I(0), I(0) }, "EINVAL",
	  "fallocate of length 0" },
	{ "sync_file_range.pipe", "sync_file_range", 277, 4, { PIPER, I(0), I(0), I(0) },
	  "ESPIPE", "sync_file_range on a pipe" },
	{ "inotify_add_watch.file", "inotify_add_watch", 254, 3, { FDFILE, S("/"), I(0xfff) },
	  "EINVAL", "inotify_add_watch on a non-inotify fd" },
	/* Faulting and NULL pointers. */
	{ "read.badptr", "read", 0, 3, { FDFILE, BAD, I(16) }, "EFAULT",
	  "read into an unmapped page" },
	{ "write.badptr", "write", 1, 3, { PIPEW, BAD, I(16) }, "EFAULT",
	  "write from an unmapped page" },
	{ "fstat.null", "fstat", 5, 2, { FDFILE, I(0) }, "EFAULT", "fstat to NULL" },
	{ "openat.null-path", "openat", 257, 4, { I(AT_FDCWD), I(0), I(0), I(0) }, "EFAULT",
	  "openat with a NULL path" },
	{ "openat.empty-path", "openat", 257, 4, { I(AT_FDCWD), S(""), I(0), I(0) }, "ENOENT",
	  "openat with an empty path" },
	{ "openat.nonexistent", "openat", 257, 4, { I(AT_FDCWD), S(NOENT), I(0), I(0) },
	  "ENOENT", "openat of a missing path" },
	{ "statx.null-buf", "statx", 332, 5, { I(AT_FDCWD), S("/"), I(0), I(0x7ff), I(0) },
	  "EFAULT", "statx into NULL" },
	{ "statx.null-path", "statx", 332, 5, { I(AT_FDCWD), I(0), I(0), I(0x7ff), B(256) },
	  "EFAULT", "statx with a NULL path and no AT_EMPTY_PATH" },
	{ "pipe2.null", "pipe2", 293, 2, { I(0), I(0) }, "EFAULT", "pipe2 into NULL" },
	{ "uname.null", "uname", 63, 1, { I(0) }, "EFAULT", "uname into NULL" },
	{ "getrandom.badptr", "getrandom", 318, 3, { BAD, I(16), I(4) }, "EFAULT",
	  "getrandom into an unmapped page" },
	{ "memfd_create.null", "memfd_create", 319, 2, { I(0), I(0) }, "EFAULT",
	  "memfd_create with a NULL name" },
	{ "clock_gettime.null", "clock_gettime", 228, 2, { I(1), I(0) }, "EFAULT",
	  "clock_gettime into NULL (the syscall, not the vDSO)" },
	{ "nanosleep.badptr", "nanosleep", 35, 2, { BAD, I(0) }, "EFAULT",
	  "nanosleep from an unmapped page" },
	{ "io_uring_setup.null", "io_uring_setup", 425, 2, { I(1), I(0) }, "EFAULT",
	  "io_uring_setup with NULL params" },
	{ "clone3.badptr", "clone3", 435, 2, { BAD, I(88) }, "EFAULT",
	  "clone3 with clone_args in an unmapped page" },
	{ "sched_setattr.badptr", "sched_setattr", 314, 3, { I(0), BAD, I(0) }, "EFAULT",
	  "sched_setattr from an unmapped page" },
	/* Sizes of size-versioned structs. */
	{ "openat2.size0", "openat2", 437, 4, { I(AT_FDCWD), S("/"), B(24), I(0) }, "EINVAL",
	  "openat2 with usize 0" },
	{ "openat2.size23", "openat2", 437, 4, { I(AT_FDCWD), S("/"), B(24), I(23) }, "EINVAL",
	  "openat2 with usize 23 (< OPEN_HOW_SIZE_VER0)" },
	{ "openat2.size24", "openat2", 437, 4, { I(AT_FDCWD), S("/"), B(24), I(24) }, NULL,
	  "openat2 with usize 24 opens /" },
	{ "openat2.size32-zero-tail", "openat2", 437, 4, { I(AT_FDCWD), S("/"), B(32), I(32) },
	  NULL, "openat2 with a larger struct whose tail is zero" },
	{ "openat2.size32-tail", "openat2", 437, 4,
	  { I(AT_FDCWD), S("/"), BP(32, 24, 8, 1), I(32) }, "E2BIG",
	  "openat2 with a non-zero byte past the known struct" },
	{ "openat2.size-page+1", "openat2", 437, 4, { I(AT_FDCWD), S("/"), B(8192), I(4097) },
	  "E2BIG", "openat2 with usize above a page" },
	{ "openat2.null-how", "openat2", 437, 4, { I(AT_FDCWD), S("/"), I(0), I(24) }, "EFAULT",
	  "openat2 with a NULL open_how" },
	{ "openat2.mode-without-creat", "openat2", 437, 4,
	  { I(AT_FDCWD), S("/"), BP(24, 8, 8, 0644), I(24) }, "EINVAL",
	  "openat2 with a mode but neither O_CREAT nor O_TMPFILE" },
	{ "openat2.flags-high", "openat2", 437, 4,
	  { I(AT_FDCWD), S("/"), BP(24, 0, 8, 1ULL << 32), I(24) }, "EINVAL",
	  "openat2 with a flag above 32 bits" },
	{ "clone3.size0", "clone3", 435, 2, { B(128), I(0) }, "EINVAL", "clone3 with size 0" },
	{ "clone3.size63", "clone3", 435, 2, { B(128), I(63) }, "EINVAL",
	  "clone3 with size 63 (< CLONE_ARGS_SIZE_VER0)" },
	{ "clone3.size-page+1", "clone3", 435, 2, { B(8192), I(4097) }, "E2BIG",
	  "clone3 with size above a page" },
	{ "clone3.flags-unknown", "clone3", 435, 2, { BP(88, 0, 8, 1ULL << 63), I(88) },
	  "EINVAL", "clone3 with an unknown flag bit 63" },
	{ "clone3.exit-signal", "clone3", 435, 2, { BP(88, 32, 8, 0x100), I(88) }, "EINVAL",
	  "clone3 with exit_signal 256" },
	{ "sched_setattr.size-short", "sched_setattr", 314, 3, { I(0), BP(64, 0, 4, 1), I(0) },
	  "E2BIG", "sched_setattr with attr.size 1 (< SCHED_ATTR_SIZE_VER0)" },
	{ "sched_setattr.flags", "sched_setattr", 314, 3, { I(0), BP(64, 0, 4, 48), I(1) },
	  "EINVAL", "sched_setattr with flags 1" },
	{ "sched_setattr.null", "sched_setattr", 314, 3, { I(0), I(0), I(0) }, "EINVAL",
	  "sched_setattr with a NULL attr" },
	{ "sched_getattr.size-short", "sched_getattr", 315, 4, { I(0), B(64), I(47), I(0) },
	  "EINVAL", "sched_getattr with size 47 (< SCHED_ATTR_SIZE_VER0)" },
	{ "perf_event_open.size-short", "perf_event_open", 298, 5,
	  { BP(128, 4, 4, 1), I(0), I(-1), I(-1), I(0) }, "E2BIG",
	  "perf_event_open with attr.size 1 (< PERF_ATTR_SIZE_VER0)" },
	{ "mount_setattr.size-short", "mount_setattr", 442, 5,
	  { I(-1), S(""), I(0x1000), B(32), I(8) }, "EINVAL",
	  "mount_setattr with size 8 (< MOUNT_ATTR_SIZE_VER0)" },
	/* Values out of range. */
	{ "epoll_create.size0", "epoll_create", 213, 1, { I(0) }, "EINVAL", "epoll_create(0)" },
	{ "epoll_wait.maxevents0", "epoll_wait", 232, 4, { I(-1), B(16), I(0), I(0) }, "EINVAL",
	  "epoll_wait with maxevents 0 (checked before the fd)" },
	{ "timerfd_create.clock", "timerfd_create", 283, 2, { I(-1), I(0) }, "EINVAL",
	  "timerfd_create with clock -1" },
	{ "clock_nanosleep.clock", "clock_nanosleep", 230, 4, { I(-1), I(0), B(16), I(0) },
	  "EINVAL", "clock_nanosleep with clock -1" },
	{ "nanosleep.nsec", "nanosleep", 35, 2, { BP(16, 8, 8, 1000000000), I(0) }, "EINVAL",
	  "nanosleep with tv_nsec 1e9" },
	{ "mmap.len0", "mmap", 9, 6, { I(0), I(0), I(1), I(0x22), I(-1), I(0) }, "EINVAL",
	  "mmap of length 0" },
	{ "mmap.no-type", "mmap", 9, 6, { I(0), I(4096), I(1), I(0x20), I(-1), I(0) }, "EINVAL",
	  "mmap without MAP_PRIVATE or MAP_SHARED" },
	{ "mprotect.unaligned", "mprotect", 10, 3, { I(1), I(4096), I(1) }, "EINVAL",
	  "mprotect of an unaligned address" },
	{ "madvise.unaligned", "madvise", 28, 3, { I(1), I(4096), I(0) }, "EINVAL",
	  "madvise of an unaligned address" },
	{ "madvise.advice", "madvise", 28, 3, { B(4096), I(4096), I(12345) }, "EINVAL",
	  "madvise with advice 12345" },
	{ "tgkill.tgid0", "tgkill", 234, 3, { I(0), I(1), I(0) }, "EINVAL", "tgkill with tgid 0" },
	{ "getcwd.size0", "getcwd", 79, 2, { B(16), I(0) }, "ERANGE", "getcwd with size 0" },
	{ "socket.family", "socket", 41, 3, { I(12345), I(1), I(0) }, "EAFNOSUPPORT",
	  "socket of family 12345" },
	{ "getrandom.insecure-random", "getrandom", 318, 3, { B(16), I(16), I(6) }, "EINVAL",
	  "getrandom with GRND_INSECURE|GRND_RANDOM" },
	{ "memfd_create.long-name", "memfd_create", 319, 2, { S(
	  "kabi-probe-long-name-0123456789012345678901234567890123456789012345678901234567890"
	  "12345678901234567890123456789012345678901234567890123456789012345678901234567890"
	  "12345678901234567890123456789012345678901234567890123456789012345678901234567890"
	  "12345678901234567890"),
	  I(0) }, "EINVAL", "memfd_create with a 262-byte name (> MFD_NAME_MAX_LEN, 249)" },
	{ "pidfd_open.pid0", "pidfd_open", 434, 2, { I(0), I(0) }, "EINVAL", "pidfd_open(0)" },
	{ "waitid.idtype", "waitid", 247, 5, { I(99), I(0), I(0), I(4), I(0) }, "EINVAL",
	  "waitid with idtype 99" },
	{ "close_range.reversed", "close_range", 436, 3, { I(200), I(100), I(0) }, "EINVAL",
	  "close_range with first > last" },
	{ "rt_sigaction.sigkill", "rt_sigaction", 13, 4, { I(9), B(32), I(0), I(8) }, "EINVAL",
	  "rt_sigaction on SIGKILL" },
	{ "rt_sigaction.sigsetsize", "rt_sigaction", 13, 4, { I(10), I(0), I(0), I(7) },
	  "EINVAL", "rt_sigaction with sigsetsize 7" },
	{ "rt_sigprocmask.sigsetsize", "rt_sigprocmask", 14, 4, { I(0), I(0), I(0), I(7) },
	  "EINVAL", "rt_sigprocmask with sigsetsize 7" },
	{ "futex.value-mismatch", "futex", 202, 6, { B(8), I(0), I(1), I(0), I(0), I(0) },
	  "EAGAIN", "FUTEX_WAIT on a word that differs from the value" },
	{ "futex.op", "futex", 202, 6, { B(8), I(99), I(0), I(0), I(0), I(0) }, "ENOSYS",
	  "futex op 99" },
	{ "prctl.option", "prctl", 157, 5, { I(99999), I(0), I(0), I(0), I(0) }, "EINVAL",
	  "prctl option 99999" },
	{ "arch_prctl.code", "arch_prctl", 158, 2, { I(0x9999), I(0) }, "EINVAL",
	  "arch_prctl code 0x9999" },
	{ "syslog.type", "syslog", 103, 3, { I(9999), I(0), I(0) }, "EINVAL", "syslog type 9999" },
	{ "bpf.cmd", "bpf", 321, 3, { I(9999), B(16), I(16) }, "EINVAL", "bpf command 9999" },
	{ "io_uring_setup.entries0", "io_uring_setup", 425, 2, { I(0), B(120) }, "EINVAL",
	  "io_uring_setup with 0 entries" },
	{ "process_madvise.flags", "process_madvise", 440, 5, { I(-1), I(0), I(0), I(20), I(1) },
	  "EINVAL", "process_madvise with flags 1 (checked before the fd)" },
	{ "landlock_create_ruleset.version", "landlock_create_ruleset", 444, 3,
	  { I(0), I(0), I(1) }, NULL, "landlock ABI version (or EOPNOTSUPP when not enabled)" },
	{ "faccessat.mode", "faccessat", 269, 3, { I(AT_FDCWD), S("/"), I(99) }, "EINVAL",
	  "faccessat with mode 99" },
	{ "mkdirat.exists", "mkdirat", 258, 3, { I(AT_FDCWD), S("/"), I(0755) }, "EEXIST",
	  "mkdirat of /" },
	{ "unlinkat.nonexistent", "unlinkat", 263, 3, { I(AT_FDCWD), S(NOENT), I(0) }, "ENOENT",
	  "unlinkat of a missing path" },
	{ "renameat.nonexistent", "renameat", 264, 4,
	  { I(AT_FDCWD), S(NOENT), I(AT_FDCWD), S(NOENT2) }, "ENOENT",
	  "renameat of a missing path" },
};

#define O(name, v) { #name, (v), NULL }
/* A flag added in release @since (mainline, the commit that added it to the UAPI). */
#define OS(name, v, since) { #name, (v), since }

static const struct probe_flag open_flags[] = {
	O(O_WRONLY, 01), O(O_RDWR, 02), O(O_CREAT, 0100), O(O_EXCL, 0200), O(O_NOCTTY, 0400),
	O(O_TRUNC, 01000), O(O_APPEND, 02000), O(O_NONBLOCK, 04000), O(O_DSYNC, 010000),
	O(FASYNC, 020000), O(O_DIRECT, 040000), O(O_LARGEFILE, 0100000),
	O(O_DIRECTORY, 0200000), O(O_NOFOLLOW, 0400000), O(O_NOATIME, 01000000),
	O(O_CLOEXEC, 02000000), O(O_SYNC, 04010000), O(O_PATH, 010000000),
	/* O_TMPFILE wants a writable access mode; probed with O_RDWR. */
	O(O_TMPFILE, 020200002),
};
static const struct probe_flag resolve_flags[] = {
	O(RESOLVE_NO_XDEV, 1), O(RESOLVE_NO_MAGICLINKS, 2), O(RESOLVE_NO_SYMLINKS, 4),
	O(RESOLVE_BENEATH, 8), O(RESOLVE_IN_ROOT, 0x10), OS(RESOLVE_CACHED, 0x20, "5.12"),
};
static const struct probe_flag cloexec_nonblock[] = {
	O(O_NONBLOCK, 04000), O(O_CLOEXEC, 02000000),
};
static const struct probe_flag cloexec_only[] = { O(O_CLOEXEC, 02000000) };
static const struct probe_flag pipe2_flags[] = {
	O(O_NONBLOCK, 04000), O(O_CLOEXEC, 02000000), O(O_DIRECT, 040000),
	OS(O_NOTIFICATION_PIPE, 0200, "5.8"),
};
static const struct probe_flag eventfd_flags[] = {
	O(EFD_SEMAPHORE, 1), O(EFD_NONBLOCK, 04000), O(EFD_CLOEXEC, 02000000),
};
static const struct probe_flag memfd_flags[] = {
	O(MFD_CLOEXEC, 1), O(MFD_ALLOW_SEALING, 2), O(MFD_HUGETLB, 4),
	OS(MFD_NOEXEC_SEAL, 8, "6.3"), OS(MFD_EXEC, 0x10, "6.3"),
};
static const struct probe_flag rename_flags[] = {
	O(RENAME_NOREPLACE, 1), O(RENAME_EXCHANGE, 2), O(RENAME_WHITEOUT, 4),
};
static const struct probe_flag statx_flags[] = {
	O(AT_SYMLINK_NOFOLLOW, 0x100), O(AT_NO_AUTOMOUNT, 0x800), O(AT_EMPTY_PATH, 0x1000),
	O(AT_STATX_FORCE_SYNC, 0x2000), O(AT_STATX_DONT_SYNC, 0x4000),
};
static const struct probe_flag faccessat2_flags[] = {
	O(AT_SYMLINK_NOFOLLOW, 0x100), O(AT_EACCESS, 0x200), O(AT_EMPTY_PATH, 0x1000),
};
static const struct probe_flag unlinkat_flags[] = { O(AT_REMOVEDIR, 0x200) };
static const struct probe_flag linkat_flags[] = {
	O(AT_SYMLINK_FOLLOW, 0x400), O(AT_EMPTY_PATH, 0x1000),
};
static const struct probe_flag utimensat_flags[] = {
	O(AT_SYMLINK_NOFOLLOW, 0x100), O(AT_EMPTY_PATH, 0x1000),
};
static const struct probe_flag execveat_flags[] = {
	O(AT_SYMLINK_NOFOLLOW, 0x100), O(AT_EMPTY_PATH, 0x1000),
};
static const struct probe_flag getrandom_flags[] = {
	O(GRND_NONBLOCK, 1), O(GRND_RANDOM, 2), OS(GRND_INSECURE, 4, "5.6"),
};
static const struct probe_flag mlock2_flags[] = { O(MLOCK_ONFAULT, 1) };
static const struct probe_flag msync_flags[] = {
	O(MS_ASYNC, 1), O(MS_INVALIDATE, 2), O(MS_SYNC, 4),
};
static const struct probe_flag close_range_flags[] = {
	O(CLOSE_RANGE_UNSHARE, 2), OS(CLOSE_RANGE_CLOEXEC, 4, "5.11"),
};
static const struct probe_flag pidfd_open_flags[] = {
	OS(PIDFD_THREAD, 0200, "6.9"), O(PIDFD_NONBLOCK, 04000),
};
static const struct probe_flag pidfd_signal_flags[] = {
	OS(PIDFD_SIGNAL_THREAD, 1, "6.9"), OS(PIDFD_SIGNAL_THREAD_GROUP, 2, "6.9"),
	OS(PIDFD_SIGNAL_PROCESS_GROUP, 4, "6.9"),
};
static const struct probe_flag sync_file_range_flags[] = {
	O(SYNC_FILE_RANGE_WAIT_BEFORE, 1), O(SYNC_FILE_RANGE_WRITE, 2),
	O(SYNC_FILE_RANGE_WAIT_AFTER, 4),
};
static const struct probe_flag waitid_flags[] = {
	O(WNOHANG, 1), O(WSTOPPED, 2), O(WEXITED, 4), O(WCONTINUED, 8),
	O(WNOWAIT, 0x1000000), O(__WNOTHREAD, 0x20000000), O(__WALL, 0x40000000),
	O(__WCLONE, 0x80000000),
};
static const struct probe_flag wait4_flags[] = {
	O(WNOHANG, 1), O(WUNTRACED, 2), O(WCONTINUED, 8), O(__WNOTHREAD, 0x20000000),
	O(__WALL, 0x40000000), O(__WCLONE, 0x80000000),
};
static const struct probe_flag clock_nanosleep_flags[] = { O(TIMER_ABSTIME, 1) };
static const struct probe_flag timerfd_settime_flags[] = {
	O(TFD_TIMER_ABSTIME, 1), O(TFD_TIMER_CANCEL_ON_SET, 2),
};
static const struct probe_flag socket_type_flags[] = {
	/* The low four bits are the socket type, not flags. */
	O(SOCK_TYPE_BIT0, 1), O(SOCK_TYPE_BIT1, 2), O(SOCK_TYPE_BIT2, 4), O(SOCK_TYPE_BIT3, 8),
	O(SOCK_NONBLOCK, 04000), O(SOCK_CLOEXEC, 02000000),
};
static const struct probe_flag fsopen_flags[] = { O(FSOPEN_CLOEXEC, 1) };
static const struct probe_flag fspick_flags[] = {
	O(FSPICK_CLOEXEC, 1), O(FSPICK_SYMLINK_NOFOLLOW, 2), O(FSPICK_NO_AUTOMOUNT, 4),
	O(FSPICK_EMPTY_PATH, 8),
};
static const struct probe_flag open_tree_flags[] = {
	O(OPEN_TREE_CLONE, 1), O(AT_SYMLINK_NOFOLLOW, 0x100), O(AT_NO_AUTOMOUNT, 0x800),
	O(AT_EMPTY_PATH, 0x1000), O(AT_RECURSIVE, 0x8000), O(OPEN_TREE_CLOEXEC, 02000000),
};
static const struct probe_flag userfaultfd_flags[] = {
	OS(UFFD_USER_MODE_ONLY, 1, "5.11"), O(O_NONBLOCK, 04000), O(O_CLOEXEC, 02000000),
};
static const struct probe_flag landlock_flags[] = {
	O(LANDLOCK_CREATE_RULESET_VERSION, 1), OS(LANDLOCK_CREATE_RULESET_ERRATA, 2, "6.15"),
};
static const struct probe_flag io_uring_flags[] = {
	O(IORING_SETUP_IOPOLL, 1), O(IORING_SETUP_SQPOLL, 2), O(IORING_SETUP_SQ_AFF, 4),
	O(IORING_SETUP_CQSIZE, 8), O(IORING_SETUP_CLAMP, 0x10), O(IORING_SETUP_ATTACH_WQ, 0x20),
	O(IORING_SETUP_R_DISABLED, 0x40), OS(IORING_SETUP_SUBMIT_ALL, 0x80, "5.18"),
	OS(IORING_SETUP_COOP_TASKRUN, 0x100, "5.19"), OS(IORING_SETUP_TASKRUN_FLAG, 0x200, "5.19"),
	OS(IORING_SETUP_SQE128, 0x400, "5.19"), OS(IORING_SETUP_CQE32, 0x800, "5.19"),
	OS(IORING_SETUP_SINGLE_ISSUER, 0x1000, "6.0"), OS(IORING_SETUP_DEFER_TASKRUN, 0x2000, "6.1"),
	OS(IORING_SETUP_NO_MMAP, 0x4000, "6.5"), OS(IORING_SETUP_REGISTERED_FD_ONLY, 0x8000, "6.5"),
	OS(IORING_SETUP_NO_SQARRAY, 0x10000, "6.6"),
};

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define SET(nm, call, nr, n, argi, patchi, width, ignored, err, retfd, flags, ...) \
	{ nm, call, nr, n, { __VA_ARGS__ }, argi, patchi, width, ignored, err, retfd, \
	  N(flags), flags, "builtin" }

static const struct probe_flagset flag_sets[] = {
	SET("openat.flags", "openat", 257, 4, 2, -1, 32, true, "EINVAL", true, open_flags,
	    I(AT_FDCWD), S("/"), I(0), I(0)),
	SET("openat2.flags", "openat2", 437, 4, 2, 0, 64, false, "EINVAL", true, open_flags,
	    I(AT_FDCWD), S("/"), BP(24, 0, 8, 0), I(24)),
	SET("openat2.resolve", "openat2", 437, 4, 2, 0, 64, false, "EINVAL", true, resolve_flags,
	    I(AT_FDCWD), S("/"), BP(24, 16, 8, 0), I(24)),
	SET("pipe2.flags", "pipe2", 293, 2, 1, -1, 32, false, "EINVAL", false, pipe2_flags,
	    B(8), I(0)),
	SET("eventfd2.flags", "eventfd2", 290, 2, 1, -1, 32, false, "EINVAL", true,
	    eventfd_flags, I(0), I(0)),
	SET("epoll_create1.flags", "epoll_create1", 291, 1, 0, -1, 32, false, "EINVAL", true,
	    cloexec_only, I(0)),
	SET("signalfd4.flags", "signalfd4", 289, 4, 3, -1, 32, false, "EINVAL", true,
	    cloexec_nonblock, I(-1), B(8), I(8), I(0)),
	SET("timerfd_create.flags", "timerfd_create", 283, 2, 1, -1, 32, false, "EINVAL", true,
	    cloexec_nonblock, I(1), I(0)),
	SET("inotify_init1.flags", "inotify_init1", 294, 1, 0, -1, 32, false, "EINVAL", true,
	    cloexec_nonblock, I(0)),
	SET("dup3.flags", "dup3", 292, 3, 2, -1, 32, false, "EINVAL", true, cloexec_only,
	    FDFILE, I(100), I(0)),
	/* On a file: flags are checked before the socket (ENOTSOCK), not the fd. */
	SET("accept4.flags", "accept4", 288, 4, 3, -1, 32, false, "EINVAL", false,
	    cloexec_nonblock, FDFILE, I(0), I(0), I(0)),
	SET("socket.type", "socket", 41, 3, 1, -1, 32, false, "EINVAL", true,
	    socket_type_flags, I(1), I(1), I(0)),
	SET("memfd_create.flags", "memfd_create", 319, 2, 1, -1, 32, false, "EINVAL", true,
	    memfd_flags, S("kabi-probe"), I(0)),
	SET("renameat2.flags", "renameat2", 316, 5, 4, -1, 32, false, "EINVAL", false,
	    rename_flags, I(AT_FDCWD), S(NOENT), I(AT_FDCWD), S(NOENT2), I(0)),
	SET("statx.flags", "statx", 332, 5, 2, -1, 32, false, "EINVAL", false, statx_flags,
	    I(AT_FDCWD), S("/"), I(0), I(0x7ff), B(256)),
	SET("faccessat2.flags", "faccessat2", 439, 4, 3, -1, 32, false, "EINVAL", false,
	    faccessat2_flags, I(AT_FDCWD), S("/"), I(0), I(0)),
	SET("unlinkat.flags", "unlinkat", 263, 3, 2, -1, 32, false, "EINVAL", false,
	    unlinkat_flags, I(AT_FDCWD), S(NOENT), I(0)),
	SET("linkat.flags", "linkat", 265, 5, 4, -1, 32, false, "EINVAL", false, linkat_flags,
	    I(AT_FDCWD), S(NOENT), I(AT_FDCWD), S(NOENT2), I(0)),
	SET("utimensat.flags", "utimensat", 280, 4, 3, -1, 32, false, "EINVAL", false,
	    utimensat_flags, I(AT_FDCWD), S(NOENT), I(0), I(0)),
	SET("execveat.flags", "execveat", 322, 5, 4, -1, 32, false, "EINVAL", false,
	    execveat_flags, I(AT_FDCWD), S(NOENT), I(0), I(0), I(0)),
	SET("getrandom.flags", "getrandom", 318, 3, 2, -1, 32, false, "EINVAL", false,
	    getrandom_flags, B(16), I(16), I(1)),
	SET("mlock2.flags", "mlock2", 325, 3, 2, -1, 32, false, "EINVAL", false, mlock2_flags,
	    B(4096), I(4096), I(0)),
	SET("msync.flags", "msync", 26, 3, 2, -1, 32, false, "EINVAL", false, msync_flags,
	    B(4096), I(4096), I(0)),
	SET("close_range.flags", "close_range", 436, 3, 2, -1, 32, false, "EINVAL", false,
	    close_range_flags, I(100), I(200), I(0)),
	SET("pidfd_open.flags", "pidfd_open", 434, 2, 1, -1, 32, false, "EINVAL", true,
	    pidfd_open_flags, I(1), I(0)),
	SET("pidfd_send_signal.flags", "pidfd_send_signal", 424, 4, 3, -1, 32, false, "EINVAL",
	    false, pidfd_signal_flags, I(-1), I(0), I(0), I(0)),
	SET("sync_file_range.flags", "sync_file_range", 277, 4, 3, -1, 32, false, "EINVAL",
	    false, sync_file_range_flags, FDFILE, I(0), I(0), I(0)),
	SET("waitid.options", "waitid", 247, 5, 3, -1, 32, false, "EINVAL", false,
	    waitid_flags, I(0), I(0), B(128), I(5), I(0)),
	SET("wait4.options", "wait4", 61, 4, 2, -1, 32, false, "EINVAL", false, wait4_flags,
	    I(-1), I(0), I(1), I(0)),
	SET("clock_nanosleep.flags", "clock_nanosleep", 230, 4, 1, -1, 32, true, "EINVAL",
	    false, clock_nanosleep_flags, I(1), I(0), B(16), I(0)),
	SET("timerfd_settime.flags", "timerfd_settime", 286, 4, 1, -1, 32, false, "EINVAL",
	    false, timerfd_settime_flags, I(-1), I(0), B(32), I(0)),
	SET("fsopen.flags", "fsopen", 430, 2, 1, -1, 32, false, "EINVAL", true, fsopen_flags,
	    S("tmpfs"), I(0)),
	SET("fspick.flags", "fspick", 433, 3, 2, -1, 32, false, "EINVAL", true, fspick_flags,
	    I(AT_FDCWD), S(NOENT), I(0)),
	SET("open_tree.flags", "open_tree", 428, 3, 2, -1, 32, false, "EINVAL", true,
	    open_tree_flags, I(AT_FDCWD), S(NOENT), I(0)),
	SET("userfaultfd.flags", "userfaultfd", 323, 1, 0, -1, 32, false, "EINVAL", true,
	    userfaultfd_flags, I(0)),
	SET("landlock_create_ruleset.flags", "landlock_create_ruleset", 444, 3, 2, -1, 32, false,
	    "EINVAL", false, landlock_flags, I(0), I(0), I(0)),
	SET("io_uring_setup.flags", "io_uring_setup", 425, 2, 1, 0, 32, false, "EINVAL", true,
	    io_uring_flags, I(1), BP(120, 8, 4, 0)),
};

struct table_nr {
	const char *name, *abi;
	long nr;
};

static int on_native(const struct kd_syscall *sc, void *ctx)
{
	struct table_nr *t = ctx;

	if (!strcmp(sc->abi, t->abi) && sc->implemented && sc->name && !strcmp(sc->name, t->name))
		t->nr = (long)sc->nr;
	return 0;
}

/*
 * The number of @call in @db's native table (x64, arm64), -1 when it has
 * no such call; @nr, x86_64's, without @db.
 */
static long table_nr(struct kdb *db, const char *abi, const char *call, long nr)
{
	struct table_nr t = { call, abi, -1 };

	if (!db)
		return nr;
	return kdb__foreach_syscall_named(db, call, on_native, &t) ? -1 : t.nr;
}

/*
 * The open flags whose values arm64 defines apart from asm-generic's
 * (arch/arm64/include/uapi/asm/fcntl.h; O_TMPFILE holds O_DIRECTORY, and
 * is probed with O_RDWR as above). The tables above are x86_64's.
 */
static const struct probe_flag arm64_open_flags[] = {
	O(O_DIRECTORY, 040000), O(O_NOFOLLOW, 0100000), O(O_DIRECT, 0200000),
	O(O_LARGEFILE, 0400000), O(O_TMPFILE, 020040002),
};

static uint64_t flag_value(const struct kd_arch *arch, const struct probe_flag *f)
{
	size_t i;

	if (strcmp(arch->name, "arm64"))
		return f->value;
	for (i = 0; i < N(arm64_open_flags); i++)
		if (!strcmp(arm64_open_flags[i].name, f->name))
			return arm64_open_flags[i].value;
	return f->value;
}

static int add_flag_set(struct probe_set *set, const struct kd_arch *arch, const char *release,
			const struct probe_flagset *proto, long nr)
{
	struct probe_flag flags[32];
	struct probe_flagset fs = *proto;
	size_t i;

	if (proto->nr_flags > N(flags))
		return -EINVAL;
	fs.nr = nr;
	fs.nr_flags = 0;
	for (i = 0; i < proto->nr_flags; i++)
		if (probe_release_at_least(release, proto->flags[i].since)) {
			flags[fs.nr_flags] = proto->flags[i];
			flags[fs.nr_flags++].value = flag_value(arch, &proto->flags[i]);
		}
	fs.flags = flags;
	return probe_set__add_flags(set, &fs);
}

int probe__add_builtin(struct probe_set *set, struct kdb *db, size_t *absent)
{
	const struct kd_arch *arch = kdb__arch(db);
	const char *abi = arch->native_abi;
	char *release = NULL;
	size_t i, dummy;
	long nr;
	int err = 0;

	if (db && kdb__get_meta(db, "release", &release))
		release = NULL;
	if (!absent)
		absent = &dummy;
	*absent = 0;
	for (i = 0; i < N(errno_cases); i++) {
		const struct errno_case *e = &errno_cases[i];
		struct probe_case c = {
			.id = e->id, .call = e->call, .nr = e->nr, .nr_args = e->nr_args,
			.kind = PROBE_CASE_ERRNO,
			.expect = e->err ? PROBE_EXPECT_ERRNO : PROBE_EXPECT_ANY,
			.expect_errno = e->err, .what = e->what, .origin = "builtin",
			/* A case that may succeed could return an fd. */
			.ret_fd = !e->err,
		};

		nr = table_nr(db, abi, e->call, e->nr);
		if (nr < 0) {
			++*absent;
			continue;
		}
		c.nr = nr;
		memcpy(c.args, e->args, sizeof(c.args));
		err = probe_set__add(set, &c);
		if (err)
			goto out;
	}
	for (i = 0; i < N(flag_sets); i++) {
		nr = table_nr(db, abi, flag_sets[i].call, flag_sets[i].nr);
		if (nr < 0) {
			++*absent;
			continue;
		}
		err = add_flag_set(set, arch, release, &flag_sets[i], nr);
		if (err)
			goto out;
	}
out:
	free(release);
	return err;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probe: the contract executed on a running kernel. A probe run turns a
 * list of cases (one syscall with concrete arguments and what the contract
 * expects of it) into a C program, builds it static, packs it as /init of
 * a cpio newc initramfs, boots the kernel under QEMU, and parses the one
 * result line per case that the program prints on the serial console.
 *
 * The case list is neutral on purpose: a syscall number, up to six
 * arguments with concrete values (integers, strings, zero-filled buffers
 * with a few patched fields, an unmapped pointer, a ready-made fd) and an
 * expectation. The built-in list (probe__add_builtin) and, later, the
 * spec's machine-readable errno conditions and flag sets are converted to
 * it; nothing below knows where a case came from.
 *
 * Stages: probe_set (cases) -> probe__gen_c (C text) -> probe__build
 * (static binary) -> probe__pack (initramfs) -> probe__boot (console text)
 * -> probe__parse (results). Everything returns 0 or a negative code and
 * reports through kd_err(); nothing prints or exits.
 */
#ifndef KD_PROBE_H
#define KD_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct kd_buf;

/* --- cases ---------------------------------------------------------------- */
#define PROBE_MAX_ARGS 6
#define PROBE_MAX_PATCHES 8

enum probe_arg_kind {
	PROBE_ARG_INT,		/* value: the register's 64 bits */
	PROBE_ARG_STR,		/* pointer to the NUL-terminated string str */
	PROBE_ARG_BUF,		/* pointer to value bytes, zero but for patches (writable) */
	PROBE_ARG_BADPTR,	/* an address that faults (a PROT_NONE page) */
	PROBE_ARG_FD,		/* one of the objects the probe makes first: enum probe_fd */
	PROBE_ARG_MAP,		/* the probe's mapping (PROBE_MAP_BYTES, mapped afresh for
				 * the case) plus value bytes (int64_t) */
};

/*
 * What the probe program makes before the cases (value of PROBE_ARG_FD),
 * and checks or remakes after each case: fds, and ids of other objects.
 */
enum probe_fd {
	PROBE_FD_ROOT,		/* open("/", O_RDONLY|O_DIRECTORY) */
	PROBE_FD_FILE,		/* a regular file, read-write, 4096 bytes, offset 0 */
	PROBE_FD_PIPE_R,	/* read end of a pipe (empty, O_NONBLOCK) */
	PROBE_FD_PIPE_W,	/* write end of that pipe */
	PROBE_ID_TIMER,		/* a POSIX timer (CLOCK_MONOTONIC, SIGEV_NONE), disarmed */
	PROBE_FD__COUNT
};

/* Bytes of the mapping PROBE_ARG_MAP points into (private, anonymous, read-write). */
#define PROBE_MAP_BYTES 4096
/* Bytes of the data area address patches point into (zeroed for each case). */
#define PROBE_DATA_BYTES 65536

struct probe_patch {
	uint32_t offset;	/* bytes into the buffer */
	uint32_t width;		/* 1, 2, 4 or 8 bytes, little endian */
	uint64_t value;		/* addr: bytes into the data area */
	bool addr;		/* the value is the address of the probe's data area + value */
};

struct probe_arg {
	enum probe_arg_kind kind;
	uint64_t value;		/* INT: the value; BUF: size in bytes (<= 65536); FD: enum probe_fd */
	const char *str;	/* STR only */
	size_t nr_patches;	/* BUF only */
	struct probe_patch patches[PROBE_MAX_PATCHES];
};

enum probe_expect {
	PROBE_EXPECT_ANY,	/* only record */
	PROBE_EXPECT_OK,	/* ret >= 0 */
	PROBE_EXPECT_ERRNO,	/* ret == -1 with errno == expect_errno */
	PROBE_EXPECT_ACCEPT,	/* not rejected: anything but errno == expect_errno */
};

/* What a case is about, for reports and for the kind of verdict. */
enum probe_case_kind {
	PROBE_CASE_ERRNO,	/* an errno condition */
	PROBE_CASE_FLAG,	/* a defined flag bit alone: accepted or rejected */
	PROBE_CASE_UNKNOWN_FLAG, /* a bit of no known flag: rejected or ignored */
};

struct probe_case {
	const char *id;		/* unique, [A-Za-z0-9._+-]: "openat2.resolve.bit5" */
	const char *call;	/* "openat2" */
	long nr;		/* x86_64 syscall number */
	int nr_args;
	struct probe_arg args[PROBE_MAX_ARGS];
	enum probe_case_kind kind;
	enum probe_expect expect;
	const char *expect_errno; /* "EINVAL" for ERRNO/ACCEPT; NULL otherwise */
	bool ret_fd;		/* a success returns an fd: the probe closes it */
	const char *what;	/* one line of text */
	const char *origin;	/* "builtin", "spec/fs.kabispec:12" */
	/*
	 * What the case is one of, NULL when alone: the flag set a FLAG or
	 * UNKNOWN_FLAG case expands ("openat2.flags"; its id is the subject,
	 * a dot and the flag's name or "bitN" or "unknown").
	 */
	const char *subject;
	/*
	 * A known deviation of the contract the arguments meet on this
	 * kernel's release (spec `deviation`): the outcome it answers instead
	 * ("EINVAL", or "ok"), and why, with the contract line. NULL: none.
	 */
	const char *deviation;
	const char *deviation_why;
	/*
	 * The deviation holds only on some file systems (`on FS`) and the
	 * probe's files are on this one ("tmpfs", "ext4"); NULL: any.
	 */
	const char *deviation_fs;
};

/*
 * The arguments of @c as a readable list appended to @b:
 * -100, "/", buf[24]{16:8=0x40}, 24, badptr, fd:file.
 */
int probe_case__format_args(const struct probe_case *c, struct kd_buf *b);
/* "errno", "flag", "unknown-flag"; "any", "ok", "errno", "accept". */
const char *probe_case_kind_name(enum probe_case_kind k);
const char *probe_expect_name(enum probe_expect e);

/* A list of cases. Owns copies of every string of its cases. */
struct probe_set;

/* *out: free with probe_set__free(). */
int probe_set__new(struct probe_set **out);
void probe_set__free(struct probe_set *set);
/* Copy @c (strings included) into @set; -EEXIST when its id is taken, -EINVAL on a bad case. */
int probe_set__add(struct probe_set *set, const struct probe_case *c);
size_t probe_set__count(const struct probe_set *set);
const struct probe_case *probe_set__case(const struct probe_set *set, size_t i);
/* Index of the case @id, or -1. */
long probe_set__find(const struct probe_set *set, const char *id);

/*
 * A flag set as the probe sees it: the call, the argument (or the field of
 * a buffer argument) that takes the flags, the base value around it, the
 * defined bits, and whether other bits are rejected or ignored.
 * probe_set__add_flags() expands it to one case per defined bit and one per
 * bit of @width_bits that no flag uses (the lowest above the highest known
 * bit is the case "NAME.unknown"; the others are "NAME.bitN").
 */
struct probe_flag {
	const char *name;	/* "O_CREAT" */
	uint64_t value;
	const char *since;	/* first release with it (built-in tables), NULL: always */
};

struct probe_flagset {
	const char *name;	/* "openat.flags": prefix of the case ids */
	const char *call;
	long nr;
	int nr_args;
	struct probe_arg args[PROBE_MAX_ARGS];	/* the base call */
	int arg;		/* which argument holds the flags */
	int patch;		/* -1: the INT argument itself; else the patch of a BUF argument */
	unsigned width_bits;	/* 32 or 64 */
	bool unknown_ignored;	/* unknown bits are ignored (openat) or rejected */
	const char *reject_errno; /* "EINVAL" */
	bool ret_fd;
	size_t nr_flags;
	const struct probe_flag *flags;
	const char *origin;
};

int probe_set__add_flags(struct probe_set *set, const struct probe_flagset *fs);

struct kdb;
/*
 * The built-in cases, independent of any spec: argument validation of
 * about sixty calls (bad fds, bad flags, NULL or faulting pointers, short
 * sizes), openat/openat2 unknown bits, and the flag sets of about thirty
 * calls. Safe only: nothing a case does outlives it or harms the
 * throwaway VM. With @db (the .kabi of the kernel to probe; may be NULL)
 * only calls its x86_64 table implements get cases, numbered as the table
 * says, and a built-in flag newer than its release (struct
 * probe_flag.since) is probed as an unused bit: that kernel cannot know
 * it. Skipped calls are counted in *@absent (may be NULL).
 */
int probe__add_builtin(struct probe_set *set, struct kdb *db, size_t *absent);

/* --- cases from the contract (probe/spec.c) ------------------------------ */
struct spec;
struct kdb;

struct probe_spec_stats {
	size_t calls;			/* syscalls the spec declares */
	size_t calls_probed;
	size_t calls_skipped;		/* never probed: probe__spec_skip() */
	size_t calls_absent;		/* not in this kernel's x86_64 table */
	size_t calls_unprobeable;	/* an fd kind the probe has no fd of, > 6 parameters */
	size_t errno_cases;		/* one per errno condition made true */
	size_t flag_cases;		/* flag bits alone and unused bits */
	size_t errnos_newer;		/* "since" after this kernel */
	size_t errnos_unevaluable;	/* a name the probe cannot set or the DB lacks */
	size_t errnos_unsolved;		/* no values found that make exactly it true */
	size_t duplicates;		/* ids already in the set (kept the first) */
	size_t sets_unvalued;		/* flag sets not expanded: a member without a value
					 * here (a .kabi extracted without --uapi) */
};

/*
 * Convert the syscalls of @s into cases for the kernel of @db (its syscall
 * table, UAPI constants and struct layouts): one case per errno whose
 * condition can be made true alone with harmless values, and the flag
 * cases of every flag parameter and flag field of a struct argument.
 * Cases whose id is already in @set are left out (counted). @fs is the
 * file system the probe's files will be on ("tmpfs", "ext4"): a deviation
 * qualified with `on` marks the cases only on its file systems. @st may be NULL.
 */
int probe__add_spec(struct probe_set *set, const struct spec *s, struct kdb *db,
		    const char *fs, struct probe_spec_stats *st);
/* Is @call never probed from a spec (it could end, fork, signal, remap...)? */
bool probe__spec_skip(const char *call);
/*
 * Add the cases of @src whose ids @dst lacks, except those of a flag set
 * (subject) @dst already has cases of: the contract's expansion of a flag
 * set knows which bits this kernel has, so it replaces the built-in one
 * whole. Returns how many were added, or a negative code.
 */
long probe_set__merge(struct probe_set *dst, const struct probe_set *src);

/* --- the contract against the kernel (probe/report.c) ---------------------- */
/*
 * A stored case whose result misses its expectation, or that meets a known
 * deviation of the contract; strings live until the callback returns.
 */
struct probe_mismatch {
	const char *rule;	/* probe.errno-mismatch, probe.flag-rejected, probe.unknown-accepted,
				 * probe.unknown-rejected, probe.no-result; not counted:
				 * probe.known-deviation (the kernel answered the deviation),
				 * probe.deviation-not-seen (it answered as the contract
				 * expects) (probe/README.md) */
	bool counted;		/* a mismatch (not a known deviation, seen or not) */
	const char *deviation_why; /* the known deviation's reason, NULL: none */
	const char *case_id, *call, *args;
	const char *expected;	/* "EINVAL", "not EINVAL", "ok" */
	const char *observed;	/* "EOPNOTSUPP", "ok", "timeout" */
	const char *what, *origin, *release;
};
typedef int (*probe_mismatch_fn)(const struct probe_mismatch *m, void *ctx);
/*
 * Walk the probe results stored in @db (case id order) and call @cb (may
 * be NULL) for each mismatch and each case with a known deviation.
 * Returns the count of mismatches (known deviations, seen or not, are not
 * counted), 0 when @db holds no probe, or a negative code (also a
 * non-zero return of @cb).
 */
long probe__mismatches(struct kdb *db, probe_mismatch_fn cb, void *ctx);
/* The same, one line per mismatch and a count line written to @f; -EIO on a write error. */
long probe__mismatches_fprintf(struct kdb *db, FILE *f);
struct kd_json;
/* The same as a JSON array (rule, case, call, args, expected, observed, origin) in @w. */
long probe__mismatches_json(struct kdb *db, struct kd_json *w);

/* --- generating and building ------------------------------------------- */
/* Append the complete C source of the probe program for @set to @out. */
int probe__gen_c(const struct probe_set *set, struct kd_buf *out);
/*
 * Compile @c_path to a static binary @bin_path for @arch (NULL: x86_64)
 * with @cc (NULL: probe__default_cc(@arch)) and -static -O2. Compiler
 * output goes to the error message on failure.
 */
int probe__build(const char *cc, const char *arch, const char *c_path, const char *bin_path);

/* --- cpio newc ------------------------------------------------------------ */
struct probe_cpio;
/* Start an archive written to @path (gzip'ed when @gzip, through gzip -1). */
int probe_cpio__new(const char *path, bool gzip, struct probe_cpio **out);
int probe_cpio__add_dir(struct probe_cpio *a, const char *name, unsigned mode);
int probe_cpio__add_file(struct probe_cpio *a, const char *name, unsigned mode,
			 const void *data, size_t len);
int probe_cpio__add_chardev(struct probe_cpio *a, const char *name, unsigned mode,
			    unsigned major, unsigned minor);
/* Write the trailer and close; *a is freed whatever the result. */
int probe_cpio__finish(struct probe_cpio *a);
/* Abandon (the partial file is left to the caller to remove). NULL is fine. */
void probe_cpio__free(struct probe_cpio *a);

/* --- the initramfs (probe/pack.c) ----------------------------------------- */
struct probe_fs;
/*
 * The initramfs of a probe: /dev, /dev/console, /init = @init_bin, and
 * with @fs (may be NULL) its ext4 image and modules (probe__pack_fs()).
 */
int probe__pack(const char *init_bin, const char *cpio_path, bool gzip,
		const struct probe_fs *fs);

/* --- --fs ext4 (probe/fs.c) ------------------------------------------------ */
#define PROBE_FS_MODULES_MAX 8

/* An ext4 image for the probe's objects and the modules that mount it. */
struct probe_fs {
	char *image;				/* made by mke2fs in the work directory */
	char *modules[PROBE_FS_MODULES_MAX];	/* found in the modules tree, or NULL */
	bool stripped[PROBE_FS_MODULES_MAX];	/* modules[i] is a stripped copy in the work dir */
	char *compressed[PROBE_FS_MODULES_MAX];	/* a .ko.xz/.ko.zst of it seen, for the message */
};

/*
 * Make @dir/fs.img (mke2fs -t ext4 -b 4096, 8 MiB) and find the modules ext4 on
 * a loop device needs (ext4, jbd2, mbcache, crc16, crc32c_generic, loop)
 * under @modules_dir, copied to @dir without DWARF by the objcopy of
 * @arch (NULL: x86_64); one missing is taken as built in. Returns 0 with
 * @fs filled (probe_fs__release()), or a negative code reported.
 */
int probe__fs_prepare(const char *dir, const char *arch, const char *modules_dir /* NULL: none */,
		      struct probe_fs *fs);
/*
 * The file system a probe puts its files on without --fs: "ext4" where
 * this machine can make and the kernel mount it (mke2fs on PATH; ext4
 * and loop uncompressed in @modules_dir, or built in: @boot_support, meta
 * boot_support's words, may be NULL), else "tmpfs" with why in @why.
 * *fs is static. Returns 0 or -ENOMEM.
 */
int probe__fs_choose(const char *modules_dir, const char *boot_support, const char **fs,
		     struct kd_buf *why);
/* Remove the image and free @fs. */
void probe_fs__release(struct probe_fs *fs);
/* Add /fs.img, /kabi-mod/NAME.ko and the list /kabi-fs to @a. */
int probe__pack_fs(struct probe_cpio *a, const struct probe_fs *fs);

/* --- booting -------------------------------------------------------------- */
/* The VM of one architecture (probe/machine.c). */
struct probe_machine {
	const char *arch;		/* meta "arch": "x86_64", "arm64" */
	const char *qemu;		/* "qemu-system-aarch64" */
	const char *const *args;	/* machine and CPU: "-M", "virt", "-cpu", "max" */
	const char *console;		/* the kernel's serial console: "ttyAMA0" */
	const char *qemu_deb;		/* Debian's package of that QEMU */
	const char *cross_cc;		/* Debian's cross compiler: "aarch64-linux-gnu-gcc" */
	const char *cross_debs;		/* its packages, with the static libc */
};

/* The machine for @arch (NULL: x86_64), or NULL when the probe has none. */
const struct probe_machine *probe__machine(const char *arch);
/*
 * The compiler that builds the probe for @arch: "cc" when this program
 * runs on that architecture, else Debian's cross compiler. Static storage.
 */
const char *probe__default_cc(const char *arch);

struct probe_boot_conf {
	const char *arch;	/* the kernel's: NULL: "x86_64"; picks probe__machine() */
	const char *qemu;	/* NULL: the machine's ("qemu-system-x86_64") */
	const char *accel;	/* NULL: "tcg" */
	unsigned memory_mb;	/* 0: 512 */
	unsigned timeout_s;	/* 0: 60; the whole boot */
	const char *append;	/* extra kernel command line, may be NULL */
	const char *fs;		/* the probe's objects on: NULL, "tmpfs": the initramfs;
				 * "ext4": an image made by mke2fs (probe/fs.c) */
	const char *modules_dir; /* "ext4": the kernel's modules tree */
};

/*
 * Boot @kernel with @initrd; *console receives everything the serial port
 * printed (also on failure, for the message). Returns 0 when QEMU exited
 * on its own, -ETIMEDOUT when it was killed after the timeout, -ENOENT
 * when QEMU is missing, -EIO for another QEMU failure.
 */
int probe__boot(const struct probe_boot_conf *conf, const char *kernel,
		const char *initrd, struct kd_buf *console);

/* --- results ------------------------------------------------------------- */
enum probe_status {
	PROBE_ST_MISSING,	/* no valid line for this case */
	PROBE_ST_RET,		/* the call returned: ret, err */
	PROBE_ST_TIMEOUT,	/* the per-case alarm fired */
	PROBE_ST_SIGNAL,	/* a signal hit the probe during the case: err = signo */
};

struct probe_result {
	enum probe_status status;
	int64_t ret;
	int err;		/* errno when ret == -1, 0 otherwise; signo for SIGNAL */
};

struct probe_run {
	char *release;		/* uname -r inside the VM */
	char *fs;		/* the file system of the probe's file: "tmpfs", "ext4", "0x..." */
	size_t nr_cases;	/* as announced by the probe */
	size_t nr_results;	/* valid result lines */
	size_t nr_bad_lines;	/* lines with the prefix that failed the checksum or syntax */
	bool complete;		/* the end line was seen */
	bool panic;		/* "Kernel panic" in the console */
	double elapsed_s;	/* the probe's own time for all cases */
	struct probe_result *results;	/* nr_cases of them, by case index */
};

/*
 * Parse @console against @set (ids must match the announced cases).
 * *run is filled (free with probe_run__release()); errors: -KD_EFORMAT
 * when no probe start line is found, -EPROTO when the program announced
 * another number of cases than @set has.
 */
int probe__parse(const struct probe_set *set, const char *console, struct probe_run *run);
void probe_run__release(struct probe_run *run);

/* CRC-32 (IEEE 802.3, the zlib one) of @len bytes. */
uint32_t probe_crc32(const void *data, size_t len);

/* Does @r satisfy @c's expectation? */
bool probe__matches(const struct probe_case *c, const struct probe_result *r);
/* Did @r answer @c's known deviation (c->deviation: an errno name, or ok)? */
bool probe__deviates(const struct probe_case *c, const struct probe_result *r);
/* "EINVAL" for 22 (glibc's names), "E123" when unnamed; static storage. */
const char *probe_errno_name(int err, char tmp[16]);
/* "ok", "EINVAL", "timeout", "signal 11", "missing": the observed outcome. */
int probe_result__format(const struct probe_result *r, struct kd_buf *b);

/* The last @n lines of @console into @b, each indented by two spaces. */
int probe__tail(const char *console, int n, struct kd_buf *b);

/* --- the whole run ---------------------------------------------------------- */
struct probe_timing {
	double gen_build_s;	/* generate C and compile it static */
	double pack_s;		/* write the initramfs */
	double boot_s;		/* QEMU's wall time: boot, cases, power-off */
	double cases_s;		/* the cases alone, as the probe measured them */
};

/*
 * Before booting @kernel (@arch; a vmlinux when @elf, with a PVH entry
 * when @pvh): can the probe boot it, and was the kernel @db describes
 * built with what the probe needs (meta boot_support: serial console,
 * initramfs, ELF binaries, power off)? Returns 0, or a negative code with
 * the cause reported naming @kernel or @db_path.
 */
int probe__check_kernel(struct kdb *db, const char *db_path, const char *kernel,
			const char *arch, bool elf, bool pvh);

/*
 * Generate, build, pack, boot @kernel and parse: *run holds one result per
 * case of @set (free with probe_run__release()). A boot that fails (QEMU
 * error, wrong arch, no console output, panic, timeout) or results that
 * are incomplete are an error reported with the last console lines; then
 * *run is empty. @cc: the compiler (NULL: "cc"); @gzip: compress the
 * initramfs. Work files live in a private directory under $TMPDIR,
 * removed at the end; KD_PROBE_KEEP=1 keeps it and says where.
 */
int probe__run(const struct probe_set *set, const struct probe_boot_conf *conf,
	       const char *cc, bool gzip, const char *kernel, struct probe_run *run,
	       struct probe_timing *timing);

/*
 * Store @run (the results of @set's cases on @kernel, the image booted)
 * into @db, replacing any earlier probe: one row per case, and the run in
 * meta. *mismatches receives the number of cases whose result missed its
 * expectation and was not their known deviation; *known (may be NULL) the
 * number of known deviations seen. Open @db with kdb__open_update() and
 * commit it after.
 */
int probe__store(struct kdb *db, const struct probe_set *set, const struct probe_run *run,
		 const char *kernel, size_t *mismatches, size_t *known);

#endif

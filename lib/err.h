/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one diagnostic path of kabi-diff. Libraries report through
 * kd_err()/kd_warn()/kd_info() and return a negative code; only the CLI
 * decides where messages go (kd_log_set_sink) and what the exit status is.
 * Messages are one line, without the trailing newline, and name the input:
 * "vmlinuz: not an ELF file (compressed kernel?); use the debug vmlinux".
 *
 * Return codes: 0 or a count on success, a negative errno or one of the
 * KD_E* codes below (all beyond the errno range) on failure.
 */
#ifndef KD_ERR_H
#define KD_ERR_H

enum kd_errcode {
	KD_EFORMAT = 4096,	/* input is not what it claims (not ELF, bad DWARF) */
	KD_ENOTKERNEL,		/* ELF, but not a kernel image */
	KD_ENODEBUG,		/* no DWARF in the input */
	KD_EUNSUPPORTED,	/* valid but unsupported (arch, class, version) */
	KD_ESCHEMA,		/* DB of another schema version */
	KD_ELIMIT,		/* a resource bound was hit */
	KD_ESYNTAX,		/* spec or header syntax error(s) */
	KD_EUSAGE,		/* bad command line */
	KD_ENOTREG,		/* a FIFO, a device, a directory where a regular file must be */
	KD_ESAMEFILE,		/* an output that is one of the inputs */
};

/*
 * KD_LOG_PROGRESS and KD_LOG_STATUS are not severities: the caller has
 * decided to show progress (a terminal, no -q), so only KD_LOG_QUIET drops
 * them. A progress message is a line ("extracting X into Y"); a status
 * replaces the previous status in place ("[12/4022] ext4.ko"), an empty
 * one clears it.
 */
enum kd_level {
	KD_LOG_QUIET = -1, KD_LOG_ERR, KD_LOG_WARN, KD_LOG_INFO, KD_LOG_DEBUG,
	KD_LOG_PROGRESS, KD_LOG_STATUS,
};

typedef void (*kd_log_sink_fn)(enum kd_level level, const char *msg, void *ctx);

void kd_log_set_sink(kd_log_sink_fn fn, void *ctx);
/* Messages above @level are dropped (default KD_LOG_WARN; KD_LOG_QUIET drops all). */
void kd_log_set_level(enum kd_level level);
enum kd_level kd_log_level(void);
/*
 * Progress and status messages of this process start with @prefix
 * ("old: "; NULL: none): a two-sided diff extracts both kernels, in
 * children that may run at once, and each line must say which side it is
 * about. A child forked after this keeps its parent's prefix. @prefix is
 * not copied: it must outlive its use.
 */
void kd_log_set_progress_prefix(const char *prefix);

/*
 * While capturing, this thread's messages are appended to @b (one per
 * line) instead of going to the sink: a worker reading one of thousands of
 * inputs turns its errors into a report rather than printing them.
 * kd_log_capture(NULL) ends the capture.
 */
struct kd_buf;
void kd_log_capture(struct kd_buf *b);

void kd_log(enum kd_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define kd_err(...)   kd_log(KD_LOG_ERR, __VA_ARGS__)
#define kd_warn(...)  kd_log(KD_LOG_WARN, __VA_ARGS__)
#define kd_info(...)  kd_log(KD_LOG_INFO, __VA_ARGS__)
#define kd_debug(...) kd_log(KD_LOG_DEBUG, __VA_ARGS__)
#define kd_progress(...) kd_log(KD_LOG_PROGRESS, __VA_ARGS__)
#define kd_status(...) kd_log(KD_LOG_STATUS, __VA_ARGS__)

/* A short description of a return code (errno or KD_E*). */
const char *kd_strerror(int err);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Diagnostic routing. The default sink writes "kabi-diff: msg" to stderr,
 * which is what a library used outside the CLI (tests) wants.
 */
#include "err.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"

/* A status line is on the terminal: a message printed now would be glued to it. */
static bool status_shown;

static void default_sink(enum kd_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level == KD_LOG_STATUS) {
		fprintf(stderr, "\r\033[K%s", msg);	/* in place; "" clears the line */
		status_shown = *msg;
		return;
	}
	/* The line goes above the status, which the next status update redraws. */
	if (status_shown)
		fputs("\r\033[K", stderr);
	status_shown = false;
	fprintf(stderr, "kabi-diff: %s%s\n", level == KD_LOG_WARN ? "warning: " : "", msg);
}

static kd_log_sink_fn sink = default_sink;
static void *sink_ctx;
static enum kd_level max_level = KD_LOG_WARN;
static _Thread_local struct kd_buf *capture;
static const char *progress_prefix;

void kd_log_set_progress_prefix(const char *prefix)
{
	progress_prefix = prefix;
}

void kd_log_capture(struct kd_buf *b)
{
	capture = b;
}

void kd_log_set_sink(kd_log_sink_fn fn, void *ctx)
{
	sink = fn ? fn : default_sink;
	sink_ctx = ctx;
}

void kd_log_set_level(enum kd_level level)
{
	max_level = level;
}

enum kd_level kd_log_level(void)
{
	return max_level;
}

void kd_log(enum kd_level level, const char *fmt, ...)
{
	struct kd_buf b = KD_BUF_INIT;
	size_t head = 0;	/* the prefix's length */
	va_list ap;

	if (capture && level <= KD_LOG_WARN) {
		va_start(ap, fmt);
		if (capture->len)
			(void)kd_buf_addc(capture, '\n');
		(void)kd_buf_vaddf(capture, fmt, ap);
		va_end(ap);
		return;
	}
	if (level >= KD_LOG_PROGRESS ? max_level == KD_LOG_QUIET : level > max_level)
		return;
	if (level >= KD_LOG_PROGRESS && progress_prefix && !kd_buf_adds(&b, progress_prefix))
		head = b.len;
	va_start(ap, fmt);
	if (kd_buf_vaddf(&b, fmt, ap))
		kd_buf_reset(&b);
	va_end(ap);
	/* An empty status clears the line: no prefix to leave there. */
	if (level == KD_LOG_STATUS && b.len == head)
		kd_buf_reset(&b);
	/* Formatting can only fail for lack of memory; say that rather than nothing. */
	sink(level, b.len || level == KD_LOG_STATUS ? b.s : "out of memory", sink_ctx);
	kd_buf_release(&b);
}

const char *kd_strerror(int err)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case KD_EFORMAT:	return "malformed input";
	case KD_ENOTKERNEL:	return "not a kernel image";
	case KD_ENODEBUG:	return "no debug information";
	case KD_EUNSUPPORTED:	return "unsupported input";
	case KD_ESCHEMA:	return "unsupported database schema";
	case KD_ELIMIT:		return "resource limit reached";
	case KD_ESYNTAX:	return "syntax error";
	case KD_EUSAGE:		return "usage error";
	case KD_ENOTREG:	return "not a regular file";
	case KD_ESAMEFILE:	return "it is also an input; write the output elsewhere";
	default:		return strerror(err);
	}
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A tiny TAP harness for the unit tests (tests/t-<module>.c). Each check
 * prints "ok N - what" or "not ok N - what" with the values it compared;
 * tap_done() prints the plan and returns the exit status.
 */
#ifndef KD_TAP_H
#define KD_TAP_H

#include <stdint.h>

void tap_ok(int cond, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void tap_eq_int(int64_t got, int64_t want, const char *file, int line, const char *what);
void tap_eq_str(const char *got, const char *want, const char *file, int line, const char *what);
void tap_skip(const char *why);
int tap_done(void);
/* Directory of fixtures and a scratch directory for this test run. */
const char *tap_srcdir(void);
const char *tap_tmpdir(void);

/*
 * Set-up shared by the tests; each returns malloc'ed text (free it) or
 * NULL, and reports what failed as a failed check.
 */
/* DIR/NAME, NAME formatted; tap_tmpdir()/NAME and tap_srcdir()/NAME. */
char *tap_path(const char *dir, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define tap_tmp_path(...) tap_path(tap_tmpdir(), __VA_ARGS__)
#define tap_src_path(...) tap_path(tap_srcdir(), __VA_ARGS__)
/* tap_tmpdir()/NAME created (or truncated) holding @text; its path. */
char *tap_write_tmp(const char *name, const char *text);
/* What the shell command (formatted) writes to its standard output. */
char *tap_output(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* tap_tmpdir()/NAME, a directory with a link to each of @files (NULL-
 * terminated) of tap_srcdir()/FROM: a chosen part of a fixture directory. */
char *tap_link_dir(const char *name, const char *from, const char *const *files);

#define ok(cond, ...)		tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, what)	tap_eq_int((int64_t)(got), (int64_t)(want), __FILE__, __LINE__, what)
#define is_str(got, want, what)	tap_eq_str((got), (want), __FILE__, __LINE__, what)

#endif

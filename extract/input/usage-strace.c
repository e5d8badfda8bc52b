// SPDX-License-Identifier: GPL-2.0-only
/*
 * An strace log as what a program uses: every line that shows a call,
 *   1234  openat(AT_FDCWD, "/etc/passwd", O_RDONLY) = 3
 *   [pid  1234] 12:00:01.5 ioctl(3</dev/tty>, TCGETS, {...}) = 0
 *   <... read resumed>"", 4096) = 0
 *   syscall_0x1c5(...) = -1 ENOSYS
 * gives its syscall; an ioctl gives its command as strace spelt it: a
 * name (several, "A or B", where numbers collide: each is a candidate),
 * a number (hex or decimal, perhaps with its name in a comment, -X
 * verbose), or _IOC(DIR, TYPE, NR, SIZE), encoded as asm-generic does
 * (x86, arm64). Signals, exits and stack traces are no calls. Only the
 * first LINE_MAX_BYTES of a line are read: the name and the first two
 * arguments are there, and a hostile log cannot make a line cost memory.
 */
#include "extract/input/usage.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/str.h"
#include "lib/usage.h"

#define LINE_MAX_BYTES 65536

static const char unseen[] =
	"the calls the vDSO answers without entering the kernel (clock_gettime, gettimeofday,"
	" time, getcpu, getrandom), and what the traced run did not do";

static bool is_ident(int c)
{
	return isalnum(c) || c == '_';
}

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Skip what strace puts before a call: a pid ("1234 ", "[pid 1234] "), times. */
static const char *skip_prefix(const char *p)
{
	p = skip_space(p);
	if (kd_starts_with(p, "[pid")) {
		const char *e = strchr(p, ']');

		if (!e)
			return p;
		p = skip_space(e + 1);
	}
	/* A pid, then -t/-tt/-ttt/-r times: digits, ':' and '.', each followed by space. */
	while (isdigit((unsigned char)*p)) {
		const char *q = p;

		while (isdigit((unsigned char)*q) || *q == ':' || *q == '.')
			q++;
		if (*q != ' ' && *q != '\t')
			break;
		p = skip_space(q);
	}
	return p;
}

/* An unsigned number, hex or decimal; *end past it. False when none. */
static bool number(const char *p, const char **end, unsigned long long *v)
{
	char *e;

	if (!isdigit((unsigned char)*p))
		return false;
	errno = 0;
	*v = strtoull(p, &e, 0);
	if (errno || e == p)
		return false;
	*end = e;
	return true;
}

/* _IOC(_IOC_READ|_IOC_WRITE, 0x64, 0xa0, 0x10): the command it encodes. */
static bool ioc_macro(const char *p, uint32_t *cmd)
{
	unsigned long long dir = 0, type, nr, size, v;
	const char *e;

	p = skip_space(p + 5);	/* "_IOC(" */
	for (;;) {
		if (kd_starts_with(p, "_IOC_NONE"))
			p += 9;
		else if (kd_starts_with(p, "_IOC_READ"))
			dir |= 2, p += 9;
		else if (kd_starts_with(p, "_IOC_WRITE"))
			dir |= 1, p += 10;
		else if (number(p, &e, &v) && v <= 3)
			dir |= v, p = e;
		else
			return false;
		if (*p != '|')
			break;
		p++;
	}
	if (*p != ',' || !number(skip_space(p + 1), &e, &type) || *e != ',' ||
	    !number(skip_space(e + 1), &e, &nr) || *e != ',' ||
	    !number(skip_space(e + 1), &e, &size) || *skip_space(e) != ')' ||
	    type > 0xff || nr > 0xff || size > 0x3fff)
		return false;
	*cmd = (uint32_t)(dir << 30 | size << 16 | type << 8 | nr);
	return true;
}

/* The command of "ioctl(" at @p: the second argument. 0, or -ENOMEM. */
static int ioctl_cmd(const char *p, struct kd_usage *u)
{
	unsigned long long v;
	const char *e;
	int depth = 0;

	/* The fd, perhaps decorated by -y: "3</dev/pts/0>", which may hold a comma. */
	for (; *p && (depth || *p != ','); p++) {
		if (*p == '<')
			depth++;
		else if (*p == '>' && depth)
			depth--;
		else if (*p == ')' && !depth)
			return 0;	/* resumed or cut short: no command here */
	}
	if (*p != ',')
		return 0;
	p = skip_space(p + 1);
	if (kd_starts_with(p, "_IOC(")) {
		uint32_t cmd;

		return ioc_macro(p, &cmd) ? kd_usage_add_ioctl_cmd(u, cmd) : 0;
	}
	if (number(p, &e, &v))
		return v <= UINT32_MAX ? kd_usage_add_ioctl_cmd(u, (uint32_t)v) : 0;
	/* NAME, or "A or B or C" where strace knows several names for the number. */
	for (;;) {
		for (e = p; is_ident((unsigned char)*e); e++)
			;
		if (e == p || isdigit((unsigned char)*p))
			return 0;
		if (kd_usage_add_ioctl(u, p, (size_t)(e - p)))
			return -ENOMEM;
		if (!kd_starts_with(e, " or "))
			return 0;
		p = e + 4;
	}
}

/*
 * One line: its call, if it shows one. Returns 1 when it did, 0 when it
 * is no call, -ENOMEM.
 */
static int strace_line(const char *line, struct kd_usage *u)
{
	const char *p = skip_prefix(line), *e;
	unsigned long long nr;

	if (kd_starts_with(p, "<... ")) {
		/* "<... NAME resumed>": its start was another line, the name is here. */
		p += 5;
		for (e = p; is_ident((unsigned char)*e); e++)
			;
		if (e == p || !kd_starts_with(e, " resumed>"))
			return 0;
		return kd_usage_add_syscall(u, p, (size_t)(e - p)) ? -ENOMEM : 1;
	}
	if (!isalpha((unsigned char)*p) && *p != '_')
		return 0;	/* "+++ exited", "--- SIGCHLD", " > stack frame" */
	for (e = p; is_ident((unsigned char)*e); e++)
		;
	if (*e != '(')
		return 0;
	if (kd_starts_with(p, "syscall_") && number(p + 8, &e, &nr) && *e == '(') {
		/* A number strace has no name for. */
		return nr <= INT32_MAX && kd_usage_add_syscall_nr(u, (int64_t)nr) ? -ENOMEM : 1;
	}
	if (kd_usage_add_syscall(u, p, (size_t)(e - p)))
		return -ENOMEM;
	if ((size_t)(e - p) == 5 && kd_starts_with(p, "ioctl") && ioctl_cmd(e + 1, u))
		return -ENOMEM;
	return 1;
}

int usage__read_strace(const char *path, struct kd_usage *u)
{
	struct kd_buf line = KD_BUF_INIT;
	long calls = 0, lineno = 0;
	struct stat st;
	FILE *f;
	int c, fd, err = 0;

	/* O_NONBLOCK: a FIFO is refused below, not waited on. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	f = fd < 0 ? NULL : fdopen(fd, "r");
	if (!f) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		kd_err("%s: %s", path, kd_strerror(err));
		return err;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		kd_err("%s: not a regular file", path);
		fclose(f);
		return -KD_ENOTREG;
	}
	do {
		c = getc(f);
		if (c != '\n' && c != EOF) {
			if (line.len < LINE_MAX_BYTES)
				err = kd_buf_addc(&line, (char)c);
			continue;
		}
		lineno++;
		if (line.len) {
			if (memchr(line.s, '\0', line.len)) {
				kd_err("%s:%ld: not an strace log (a NUL byte)", path, lineno);
				err = -KD_EFORMAT;
				break;
			}
			err = strace_line(line.s, u);
			calls += err > 0;
			err = err < 0 ? err : 0;
		}
		kd_buf_reset(&line);
	} while (!err && c != EOF);
	if (!err && ferror(f)) {
		kd_err("%s: read error", path);
		err = -EIO;
	} else if (err == -ENOMEM) {
		kd_err("out of memory");
	} else if (!err && !calls) {
		kd_err("%s: not an strace log, a seccomp profile or an ELF binary (no call in it)", path);
		err = -KD_EFORMAT;
	}
	fclose(f);
	kd_buf_release(&line);
	if (!err) {
		u->unseen = unseen;
		u->label = kd_strdup("strace log");
		err = u->label ? 0 : -ENOMEM;
		if (err)
			kd_err("out of memory");
	}
	return err;
}

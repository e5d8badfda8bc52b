// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-diff show: ioctl families (function-like ioctl macros), as formulas
 * (`show K ioctl EVIOCGNAME`) and evaluated for arguments a program would
 * pass (`show K ioctl 'EVIOCGNAME(64)'`): the command number the macro
 * gives, as the C compiler computes it from the headers.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/show.h"
#include "db/kdb-uapi.h"
#include "extract/uapi/uapi.h"
#include "lib/buf.h"
#include "lib/err.h"

static int print_family(const struct kd_ioctl_family *f, void *ctx)
{
	struct show_ctx *s = ctx;

	s->count++;
	fprintf(s->f, "ioctl family %s(%s): _IOC(%s, %s, %s, %s)\n", f->name, f->params, f->dir,
		f->type, f->nr, f->size);
	if (f->file)
		fprintf(s->f, "  defined at %s:%d\n", f->file, f->line);
	fprintf(s->f, "  its commands: show K.kabi ioctl '%s(NUMBER...)'\n", f->name);
	return 0;
}

int show_family_row(const struct kd_ioctl_family *f, void *ctx)
{
	struct show_ctx *s = ctx;

	s->count++;
	fprintf(s->f, "%-10s  %-4s %s(%s): _IOC(%s, %s, %s, %s)\n", "family", "", f->name, f->params,
		f->dir, f->type, f->nr, f->size);
	return 0;
}

struct family_call {
	struct show_ctx *s;
	const char *call;	/* as the user wrote it */
	int64_t argv[UAPI_FAMILY_MAX_PARAMS];
	int argc;
	bool said;		/* the parse error is reported already */
};

/* _IOC's direction bits of the word or formula @dir. */
static int dir_bits(const struct kd_ioctl_family *f, const struct family_call *c, uint64_t *v)
{
	static const char *const words[] = { "none", "w", "r", "rw" };
	uint64_t i;

	for (i = 0; i < 4; i++)
		if (!strcmp(f->dir, words[i])) {
			*v = i;
			return 0;
		}
	return uapi__family_eval(f->dir, f->params, c->argv, c->argc, v);
}

static int print_call(const struct kd_ioctl_family *f, void *ctx)
{
	struct family_call *c = ctx;
	const char *names[] = { "dir", "type", "nr", "size" };
	const char *formulas[] = { f->dir, f->type, f->nr, f->size };
	uint64_t v[4], cmd;
	int i, err = 0;

	c->s->count++;
	for (i = 0; !err && i < 4; i++)
		err = i ? uapi__family_eval(formulas[i], f->params, c->argv, c->argc, &v[i])
			: dir_bits(f, c, &v[i]);
	if (err) {
		kd_err("%s: the %s of %s(%s), '%s', is no constant for these arguments", c->call,
		       names[i - 1], f->name, f->params, formulas[i - 1]);
		return -EINVAL;
	}
	/* As _IOC() computes it: the fields shifted and or'ed in an unsigned int. */
	cmd = (uint32_t)(v[0] << 30 | v[1] << 8 | v[2] | v[3] << 16);
	fprintf(c->s->f, "ioctl %s: 0x%08" PRIx64 "\n", c->call, cmd);
	fprintf(c->s->f, "  family     %s(%s): _IOC(%s, %s, %s, %s)\n", f->name, f->params, f->dir,
		f->type, f->nr, f->size);
	fprintf(c->s->f, "  direction  %" PRIu64 ", type 0x%02" PRIx64 ", nr 0x%02" PRIx64
		", size %" PRIu64 "\n", v[0], v[1], v[2], v[3]);
	if (f->file)
		fprintf(c->s->f, "  defined at %s:%d\n", f->file, f->line);
	return 0;
}

static int take_value(const struct kd_constant *k, void *ctx)
{
	*(int64_t *)ctx = k->value;
	return 0;
}

/*
 * One argument at @p, up to its ',' or ')': a number, or the name of an
 * integer constant of the .kabi, as a program writes EVIOCGBIT(EV_KEY, 64).
 * *@end past it; -EINVAL for neither, after saying so.
 */
static int parse_arg(struct family_call *c, const char *p, const char **end, int64_t *v)
{
	struct kd_buf word = KD_BUF_INIT;
	char *num_end;
	int err;

	while (*p == ' ')
		p++;
	errno = 0;
	*v = strtoll(p, &num_end, 0);
	if (!errno && num_end != p && (isspace((unsigned char)*num_end) || *num_end == ',' ||
				       *num_end == ')')) {
		*end = num_end;
		return 0;
	}
	*end = p + strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
	if (*end == p || isdigit((unsigned char)*p))
		return -EINVAL;
	err = kd_buf_add(&word, p, (size_t)(*end - p));
	if (!err)
		err = kdb__get_constant(c->s->db, word.s, take_value, v);
	if (err == -ENOENT) {
		kd_err("%s: %s is neither a number nor a constant of the .kabi", c->call, word.s);
		c->said = true;
		err = -EINVAL;
	}
	kd_buf_release(&word);
	return err;
}

/* NAME(ARG, ...) into @name and c->argv; -EINVAL when it is not that shape. */
static int parse_call(const char *text, struct kd_buf *name, struct family_call *c)
{
	const char *open = strchr(text, '('), *p, *end;
	int err;

	if (!open)
		return -EINVAL;
	err = kd_buf_add(name, text, (size_t)(open - text));
	for (p = open + 1, c->argc = 0; !err; p = end + 1) {
		if (c->argc == UAPI_FAMILY_MAX_PARAMS)
			return -EINVAL;
		err = parse_arg(c, p, &end, &c->argv[c->argc++]);
		if (err)
			return err;
		while (*end == ' ')
			end++;
		if (*end == ')')
			return end[1] ? -EINVAL : 0;
		if (*end != ',')
			return -EINVAL;
	}
	return err;
}

int show_family(struct show_ctx *s, const char *name, bool *shown)
{
	struct kd_buf base = KD_BUF_INIT;
	struct family_call c = { .s = s, .call = name };
	int err;

	*shown = false;
	if (!strchr(name, '('))
		err = kdb__foreach_ioctl_family(s->db, name, print_family, s);
	else if ((err = parse_call(name, &base, &c)) == -EINVAL && !c.said)
		kd_err("%s: not a call of an ioctl family with numbers or constants, as 'EVIOCGNAME(64)'",
		       name);
	else if (!err)
		err = kdb__foreach_ioctl_family(s->db, base.s, print_call, &c);
	*shown = s->count > 0;
	kd_buf_release(&base);
	return err;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The probe's case list: a growable array of struct probe_case that owns a
 * copy of every string, checks ids (unique, shell- and protocol-safe) and
 * arguments, and expands a flag set into its per-bit cases. Strings are
 * copied so that cases converted from a spec may outlive it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "probe/probe_internal.h"

struct probe_set {
	struct probe_case *cases;
	size_t n, cap;
};

int probe_set__new(struct probe_set **out)
{
	*out = kd_calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

static void case_release(struct probe_case *c)
{
	int i;

	free((char *)c->id);
	free((char *)c->call);
	free((char *)c->expect_errno);
	free((char *)c->what);
	free((char *)c->origin);
	free((char *)c->subject);
	free((char *)c->deviation);
	free((char *)c->deviation_why);
	free((char *)c->deviation_fs);
	for (i = 0; i < c->nr_args; i++)
		free((char *)c->args[i].str);
}

void probe_set__free(struct probe_set *set)
{
	size_t i;

	if (!set)
		return;
	for (i = 0; i < set->n; i++)
		case_release(&set->cases[i]);
	free(set->cases);
	free(set);
}

size_t probe_set__count(const struct probe_set *set)
{
	return set->n;
}

const struct probe_case *probe_set__case(const struct probe_set *set, size_t i)
{
	return i < set->n ? &set->cases[i] : NULL;
}

long probe_set__find(const struct probe_set *set, const char *id)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (!strcmp(set->cases[i].id, id))
			return (long)i;
	return -1;
}

static bool id_ok(const char *id)
{
	const char *p;

	if (!id || !*id || strlen(id) > 120)
		return false;
	for (p = id; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("._+-", *p)))
			return false;
	return true;
}

static int check_case(const struct probe_case *c)
{
	int i;
	size_t j;

	if (!id_ok(c->id)) {
		kd_err("probe: bad case id '%s' (letters, digits, '._+-', at most 120)",
		       c->id ? c->id : "");
		return -EINVAL;
	}
	if (!c->call || c->nr < 0 || c->nr_args < 0 || c->nr_args > PROBE_MAX_ARGS) {
		kd_err("probe: case %s: bad call, number or argument count", c->id);
		return -EINVAL;
	}
	if ((c->expect == PROBE_EXPECT_ERRNO || c->expect == PROBE_EXPECT_ACCEPT) &&
	    (!c->expect_errno || c->expect_errno[0] != 'E')) {
		kd_err("probe: case %s: expectation without an errno name", c->id);
		return -EINVAL;
	}
	if (c->deviation && strcmp(c->deviation, "ok") && c->deviation[0] != 'E') {
		kd_err("probe: case %s: a deviation is an errno name or ok", c->id);
		return -EINVAL;
	}
	for (i = 0; i < c->nr_args; i++) {
		const struct probe_arg *a = &c->args[i];

		if ((a->kind == PROBE_ARG_STR && !a->str) ||
		    (a->kind == PROBE_ARG_MAP &&
		     ((int64_t)a->value < -(int64_t)PROBE_MAP_BYTES ||
		      (int64_t)a->value > (int64_t)PROBE_MAP_BYTES)) ||
		    (a->kind == PROBE_ARG_BUF && (a->value == 0 || a->value > 65536)) ||
		    (a->kind == PROBE_ARG_FD && a->value >= PROBE_FD__COUNT) ||
		    a->nr_patches > PROBE_MAX_PATCHES ||
		    (a->kind != PROBE_ARG_BUF && a->nr_patches)) {
			kd_err("probe: case %s: bad argument %d", c->id, i);
			return -EINVAL;
		}
		for (j = 0; j < a->nr_patches; j++) {
			const struct probe_patch *p = &a->patches[j];

			if ((p->width != 1 && p->width != 2 && p->width != 4 && p->width != 8) ||
			    (uint64_t)p->offset + p->width > a->value ||
			    (p->addr && (p->width != 8 || p->value >= PROBE_DATA_BYTES))) {
				kd_err("probe: case %s: argument %d: patch outside the buffer",
				       c->id, i);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* kd_strdup that keeps NULL as NULL and reports whether a copy failed. */
static int dup_opt(const char *s, const char **out)
{
	*out = NULL;
	if (!s)
		return 0;
	*out = kd_strdup(s);
	return *out ? 0 : -ENOMEM;
}

int probe_set__add(struct probe_set *set, const struct probe_case *c)
{
	struct probe_case copy;
	int i, err;

	err = check_case(c);
	if (err)
		return err;
	if (probe_set__find(set, c->id) >= 0) {
		kd_err("probe: duplicate case id %s", c->id);
		return -EEXIST;
	}
	if (KD_GROW(set->cases, set->cap, set->n + 1))
		return -ENOMEM;
	copy = *c;
	copy.id = copy.call = copy.expect_errno = copy.what = copy.origin = copy.subject = NULL;
	copy.deviation = copy.deviation_why = copy.deviation_fs = NULL;
	for (i = 0; i < copy.nr_args; i++)
		copy.args[i].str = NULL;
	err = dup_opt(c->id, &copy.id);
	if (!err)
		err = dup_opt(c->call, &copy.call);
	if (!err)
		err = dup_opt(c->expect_errno, &copy.expect_errno);
	if (!err)
		err = dup_opt(c->what ? c->what : "", &copy.what);
	if (!err)
		err = dup_opt(c->origin ? c->origin : "builtin", &copy.origin);
	if (!err)
		err = dup_opt(c->subject, &copy.subject);
	if (!err)
		err = dup_opt(c->deviation, &copy.deviation);
	if (!err)
		err = dup_opt(c->deviation_why, &copy.deviation_why);
	if (!err)
		err = dup_opt(c->deviation_fs, &copy.deviation_fs);
	for (i = 0; !err && i < copy.nr_args; i++)
		err = dup_opt(c->args[i].str, &copy.args[i].str);
	if (err) {
		case_release(&copy);
		return err;
	}
	set->cases[set->n++] = copy;
	return 0;
}

static int add_bit_case(struct probe_set *set, const struct probe_flagset *fs,
			uint64_t bit, const char *flag_name, bool unknown, bool headline)
{
	struct kd_buf id = KD_BUF_INIT, what = KD_BUF_INIT;
	struct probe_case c = { 0 };
	unsigned n;
	int err;

	for (n = 0; n < 64 && !(bit >> n & 1); n++)
		;
	c.call = fs->call;
	c.nr = fs->nr;
	c.nr_args = fs->nr_args;
	memcpy(c.args, fs->args, sizeof(c.args));
	if (fs->patch < 0)
		c.args[fs->arg].value |= bit;
	else
		c.args[fs->arg].patches[fs->patch].value |= bit;
	c.ret_fd = fs->ret_fd;
	c.origin = fs->origin;
	c.subject = fs->name;
	if (unknown) {
		c.kind = PROBE_CASE_UNKNOWN_FLAG;
		c.expect = fs->unknown_ignored ? PROBE_EXPECT_ACCEPT : PROBE_EXPECT_ERRNO;
		err = headline ? kd_buf_addf(&id, "%s.unknown", fs->name)
			       : kd_buf_addf(&id, "%s.bit%u", fs->name, n);
		if (!err)
			err = kd_buf_addf(&what, "%s: unknown bit %u (0x%llx) %s", fs->name, n,
					  (unsigned long long)bit,
					  fs->unknown_ignored ? "ignored" : "rejected");
	} else {
		c.kind = PROBE_CASE_FLAG;
		c.expect = PROBE_EXPECT_ACCEPT;
		err = kd_buf_addf(&id, "%s.%s", fs->name, flag_name);
		if (!err)
			err = kd_buf_addf(&what, "%s: %s alone is accepted", fs->name, flag_name);
	}
	c.expect_errno = fs->reject_errno ? fs->reject_errno : "EINVAL";
	c.id = id.s;
	c.what = what.s;
	if (!err)
		err = probe_set__add(set, &c);
	kd_buf_release(&id);
	kd_buf_release(&what);
	return err;
}

int probe_set__add_flags(struct probe_set *set, const struct probe_flagset *fs)
{
	uint64_t known = 0, width_mask, above;
	unsigned width = fs->width_bits ? fs->width_bits : 32, b;
	size_t i;
	int err;

	if (fs->arg < 0 || fs->arg >= fs->nr_args || width > 64 ||
	    (fs->patch >= 0 && (size_t)fs->patch >= fs->args[fs->arg].nr_patches)) {
		kd_err("probe: flag set %s: bad flags argument", fs->name);
		return -EINVAL;
	}
	width_mask = width == 64 ? ~0ULL : (1ULL << width) - 1;
	for (i = 0; i < fs->nr_flags; i++) {
		uint64_t v = fs->flags[i].value;

		known |= v;
		/* A flag of several bits (O_TMPFILE, O_SYNC) is probed as a whole. */
		if (!v)
			continue;
		err = add_bit_case(set, fs, v, fs->flags[i].name, false, false);
		if (err)
			return err;
	}
	/* The lowest free bit above the highest known one is the headline. */
	above = 0;
	for (b = width; b-- > 0;)
		if (known >> b & 1) {
			above = b + 1 < width ? 1ULL << (b + 1) : 0;
			break;
		}
	if (!known)
		above = 1;
	for (b = 0; b < width; b++) {
		uint64_t bit = 1ULL << b;

		if ((known & bit) || !(width_mask & bit))
			continue;
		err = add_bit_case(set, fs, bit, NULL, true, bit == above);
		if (err)
			return err;
	}
	return 0;
}

bool probe_release_at_least(const char *release, const char *since)
{
	const char *a = release, *b = since;

	if (!release || !since)
		return true;
	while (*b) {
		char *ea, *eb;
		long x = strtol(a, &ea, 10), y = strtol(b, &eb, 10);

		if (x != y)
			return x > y;
		if (*eb != '.')
			return true;
		b = eb + 1;
		a = *ea == '.' ? ea + 1 : "";
	}
	return true;
}

const char *probe_case_kind_name(enum probe_case_kind k)
{
	return k == PROBE_CASE_FLAG ? "flag" : k == PROBE_CASE_UNKNOWN_FLAG ? "unknown-flag"
									 : "errno";
}

const char *probe_expect_name(enum probe_expect e)
{
	static const char *const names[] = { "any", "ok", "errno", "accept" };

	return (unsigned)e < 4 ? names[e] : "any";
}

int probe_case__format_args(const struct probe_case *c, struct kd_buf *b)
{
	static const char *const fd_names[] = {
		"fd:root", "fd:file", "fd:pipe-r", "fd:pipe-w", "id:timer",
	};
	int i, err = 0;
	size_t j;

	for (i = 0; !err && i < c->nr_args; i++) {
		const struct probe_arg *a = &c->args[i];

		if (i)
			err = kd_buf_adds(b, ", ");
		if (err)
			break;
		switch (a->kind) {
		case PROBE_ARG_INT:
			err = (int64_t)a->value < 0 && (int64_t)a->value > -4096
				? kd_buf_addf(b, "%lld", (long long)a->value)
				: a->value < 4096 ? kd_buf_addf(b, "%llu", (unsigned long long)a->value)
				: kd_buf_addf(b, "0x%llx", (unsigned long long)a->value);
			break;
		case PROBE_ARG_STR:
			err = strlen(a->str) > 40
				? kd_buf_addf(b, "\"%.32s...\"(%zu)", a->str, strlen(a->str))
				: kd_buf_addf(b, "\"%s\"", a->str);
			break;
		case PROBE_ARG_BUF:
			err = kd_buf_addf(b, "buf[%llu]", (unsigned long long)a->value);
			for (j = 0; !err && j < a->nr_patches; j++)
				err = kd_buf_addf(b, "%s%u:%u=%s0x%llx", j ? "," : "{",
						  a->patches[j].offset, a->patches[j].width,
						  a->patches[j].addr ? "data+" : "",
						  (unsigned long long)a->patches[j].value);
			if (!err && a->nr_patches)
				err = kd_buf_addc(b, '}');
			break;
		case PROBE_ARG_BADPTR:
			err = kd_buf_adds(b, "badptr");
			break;
		case PROBE_ARG_FD:
			err = kd_buf_adds(b, fd_names[a->value]);
			break;
		case PROBE_ARG_MAP:
			err = a->value ? kd_buf_addf(b, "map%+lld", (long long)a->value)
				       : kd_buf_adds(b, "map");
			break;
		}
	}
	return err;
}

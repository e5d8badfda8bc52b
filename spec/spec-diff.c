// SPDX-License-Identifier: GPL-2.0-only
/*
 * Two contract versions compared (spec/spec-diff.h): the errnos of every
 * call both declare, keyed by name and canonical condition, and the own
 * values of every set both declare, keyed by name.
 */
#include "spec/spec-diff.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/find.h"
#include "lib/mem.h"
#include "spec/spec.h"

struct acc {
	struct kd_contract_change *v;
	size_t n, cap;
};

static int add(struct acc *a, const char *kind, const char *name, const char *subject,
	       const char *ov, const char *nv)
{
	struct kd_contract_change *c;

	if (KD_GROW(a->v, a->cap, a->n + 1))
		return -ENOMEM;
	c = &a->v[a->n];
	c->kind = kd_strdup(kind);
	c->name = kd_strdup(name);
	c->subject = kd_strdup(subject);
	c->old_value = ov ? kd_strdup(ov) : NULL;
	c->new_value = nv ? kd_strdup(nv) : NULL;
	a->n++;		/* counted first, so that spec_changes__free() sees it */
	if (!c->kind || !c->name || !c->subject || (ov && !c->old_value) || (nv && !c->new_value))
		return -ENOMEM;
	return 0;
}

/* "EINVAL" or "EINVAL when how.flags & ~open_how_flags" into @b (reset first). */
static int errno_key(const struct spec_errno *e, struct kd_buf *b)
{
	kd_buf_reset(b);
	if (kd_buf_adds(b, e->name))
		return -ENOMEM;
	if (e->when && (kd_buf_adds(b, " when ") || spec_expr__format(e->when, b)))
		return -ENOMEM;
	return 0;
}

/* Mark in @used the first unused errno of @c keyed @key; false when none. */
static int match_errno(const struct spec_call *c, const char *key, bool *used, bool *found,
		       struct kd_buf *tmp)
{
	size_t i;
	int err;

	*found = false;
	for (i = 0; i < c->nr_errnos; i++) {
		if (used[i])
			continue;
		err = errno_key(&c->errnos[i], tmp);
		if (err)
			return err;
		if (!strcmp(tmp->s, key)) {
			used[i] = *found = true;
			return 0;
		}
	}
	return 0;
}

/*
 * The errnos of @side (not @used: no partner on the other side) as changes
 * "KIND.errno.added" of call @name when @side is the new kernel's call
 * (@added), else "KIND.errno.removed"; the errno's words are the new or old value.
 */
static int add_unpaired(struct acc *a, const char *kind, const char *name,
			const struct spec_call *side, const bool *used, bool added)
{
	struct kd_buf key = KD_BUF_INIT, subj = KD_BUF_INIT, k = KD_BUF_INIT;
	size_t i;
	int err = 0;

	for (i = 0; i < side->nr_errnos && !err; i++) {
		const char *text = side->errnos[i].text;

		if (used[i])
			continue;
		err = errno_key(&side->errnos[i], &key);
		kd_buf_reset(&subj);
		kd_buf_reset(&k);
		if (!err && (kd_buf_addf(&subj, "%s %s", name, key.s) ||
			     kd_buf_addf(&k, "%s.errno.%s", kind, added ? "added" : "removed")))
			err = -ENOMEM;
		if (!err)
			err = add(a, k.s, name, subj.s, added ? NULL : text, added ? text : NULL);
	}
	kd_buf_release(&key);
	kd_buf_release(&subj);
	kd_buf_release(&k);
	return err;
}

static int diff_call(struct acc *a, const struct spec_call *o, const struct spec_call *n)
{
	const char *kind = n->kind == SPEC_SYSCALL ? "syscall" : "ioctl";
	struct kd_buf key = KD_BUF_INIT, tmp = KD_BUF_INIT;
	bool *used_o = kd_calloc(o->nr_errnos + 1, sizeof(bool));
	bool *used_n = kd_calloc(n->nr_errnos + 1, sizeof(bool));
	size_t i;
	bool found;
	int err = used_o && used_n ? 0 : -ENOMEM;

	/* Pairs first (in the new order), then what is left on each side. */
	for (i = 0; i < n->nr_errnos && !err; i++) {
		err = errno_key(&n->errnos[i], &key);
		if (!err)
			err = match_errno(o, key.s, used_o, &found, &tmp);
		if (!err && found)
			used_n[i] = true;
	}
	if (!err)
		err = add_unpaired(a, kind, n->name, n, used_n, true);
	if (!err)
		err = add_unpaired(a, kind, n->name, o, used_o, false);
	free(used_o);
	free(used_n);
	kd_buf_release(&key);
	kd_buf_release(&tmp);
	return err;
}

static const struct spec_value *find_value(const struct spec_set *s, const char *name)
{
	return KD_FIND_NAMED(const struct spec_value, s->values, s->nr_values, name, name);
}

/* "= EXPR" for an explicit value, else the UAPI name, into @b. */
static int value_text(const struct spec_value *v, struct kd_buf *b)
{
	kd_buf_reset(b);
	if (!v->value)
		return kd_buf_adds(b, v->name);
	if (kd_buf_adds(b, "= "))
		return -ENOMEM;
	return spec_expr__format(v->value, b);
}

static int diff_set(struct acc *a, const struct spec_set *o, const struct spec_set *n)
{
	struct kd_buf subj = KD_BUF_INIT, val = KD_BUF_INIT;
	size_t i;
	int err = 0;

	for (i = 0; i < n->nr_values + o->nr_values && !err; i++) {
		bool added = i < n->nr_values;
		const struct spec_value *v = added ? &n->values[i] : &o->values[i - n->nr_values];

		if (find_value(added ? o : n, v->name))
			continue;
		kd_buf_reset(&subj);
		err = kd_buf_addf(&subj, "%s.%s", n->name, v->name);
		if (!err)
			err = value_text(v, &val);
		if (!err)
			err = add(a, added ? "set.value.added" : "set.value.removed", n->name, subj.s,
				  added ? NULL : val.s, added ? val.s : NULL);
	}
	kd_buf_release(&subj);
	kd_buf_release(&val);
	return err;
}

int spec__diff(const struct spec *old, const struct spec *new, struct kd_contract_change **out,
	       size_t *n)
{
	struct acc a = { 0 };
	size_t i;
	int err = 0;

	*out = NULL;
	*n = 0;
	for (i = 0; i < spec__nr_calls(new) && !err; i++) {
		const struct spec_call *c = spec__call(new, i);
		const struct spec_call *o = c->kind == SPEC_SYSCALL ? spec__find_syscall(old, c->name) :
					    spec__find_ioctl(old, c->name);

		if (o)
			err = diff_call(&a, o, c);
	}
	for (i = 0; i < spec__nr_sets(new) && !err; i++) {
		const struct spec_set *s = spec__set(new, i);
		const struct spec_set *o = spec__find_set(old, s->name);

		if (o)
			err = diff_set(&a, o, s);
	}
	if (err) {
		spec_changes__free(a.v, a.n);
		return err;
	}
	*out = a.v;
	*n = a.n;
	return 0;
}

void spec_changes__free(struct kd_contract_change *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(c[i].kind);
		free(c[i].name);
		free(c[i].subject);
		free(c[i].old_value);
		free(c[i].new_value);
	}
	free(c);
}

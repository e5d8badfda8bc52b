// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cross-file checks of a loaded spec, run once every file is parsed (a
 * file may use a flag set another file defines): duplicate declarations,
 * "extends" chains, the names behind fd kinds, flag sets, enums and
 * len/count targets, ioctl shapes, struct size lists; and the
 * classification of expression names into parameters, flag-set masks and
 * UAPI constants. Every problem is reported with the position of the name
 * that is wrong and, where one is close, a did-you-mean.
 */
#include "spec/spec_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"
#include "lib/mem.h"

struct resolver {
	struct spec *s;
	const char **set_names, **fdkind_names, **idkind_names;
	int oom;
};

static void rerr_hint(struct resolver *r, const struct spec_loc *loc, const char *best,
		      const char *fmt, const char *a, const char *b)
{
	struct kd_buf m = KD_BUF_INIT;

	if (kd_buf_addf(&m, fmt, a, b) || add_hint(&m, best))
		r->oom = -ENOMEM;
	spec_error(r->s, loc, "%s", m.s);
	kd_buf_release(&m);
}

static const struct spec_set *find_set(const struct spec *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nr_sets; i++)
		if (!strcmp(s->sets[i].name, name))
			return &s->sets[i];
	return NULL;
}

static bool has_fdkind(const struct spec *s, const char *name)
{
	return spec__is_fdkind(s, name);
}

static bool has_idkind(const struct spec *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nr_idkinds; i++)
		if (!strcmp(s->idkinds[i].name, name))
			return true;
	return false;
}

/* Names of @n sibling params/fields, for hints (NULL-terminated, malloc'ed). */
static const char **sibling_names(struct resolver *r, const void *base, size_t n, size_t stride,
				  size_t name_off)
{
	const char **v = kd_calloc(n + 1, sizeof(*v));
	size_t i;

	if (!v) {
		r->oom = -ENOMEM;
		return NULL;
	}
	for (i = 0; i < n; i++)
		v[i] = *(const char *const *)((const char *)base + i * stride + name_off);
	return v;
}

/* Is @path (maybe "how.flags") rooted in one of @names? */
static bool rooted_in(const char *path, const char *const *names)
{
	size_t len = strcspn(path, ".");

	for (; names && *names; names++)
		if (strlen(*names) == len && !strncmp(*names, path, len))
			return true;
	return false;
}

static void classify(struct resolver *r, const struct spec_expr *ce, const char *const *locals)
{
	struct spec_expr *e = (struct spec_expr *)ce;	/* the spec owns its nodes */
	const struct spec_set *set;

	if (!e)
		return;
	if (e->op != SPEC_EX_NAME) {
		classify(r, e->a, locals);
		classify(r, e->b, locals);
		return;
	}
	if (rooted_in(e->name, locals)) {
		e->ref = SPEC_REF_PARAM;
	} else if ((set = find_set(r->s, e->name))) {
		e->ref = SPEC_REF_SET;
		if (set->kind == SPEC_SET_ENUM)
			spec_error(r->s, &e->loc, "enum '%s' has no mask; name its values instead",
				   e->name);
	} else {
		e->ref = SPEC_REF_CONST;
	}
}

/* @owner: "syscall 'read'" or "struct 'clone_args'", for messages. */
static void resolve_arg(struct resolver *r, const struct spec_arg *a, const char *owner,
			const void *sibs, size_t nr_sibs, size_t stride, const char *const *names)
{
	const struct spec_set *set;
	size_t i;

	classify(r, a->lo, NULL);
	classify(r, a->hi, NULL);
	if (a->nonzero && a->kind != SPEC_K_INT && a->kind != SPEC_K_LEN && a->kind != SPEC_K_COUNT)
		spec_error(r->s, &a->mod_loc, "'nonzero' applies to int, len and count, not to %s",
			   spec_kind_name(a->kind));
	if (a->mapped && a->kind != SPEC_K_ADDR)
		spec_error(r->s, &a->mod_loc, "'mapped' applies to addr, not to %s",
			   spec_kind_name(a->kind));
	switch (a->kind) {
	case SPEC_K_FD:
		if (a->ref && !has_fdkind(r->s, a->ref))
			rerr_hint(r, &a->ref_loc, did_you_mean(a->ref, r->fdkind_names, (size_t)-1),
				  "unknown fd kind '%s'%s", a->ref, "");
		break;
	case SPEC_K_ID:
		if (!has_idkind(r->s, a->ref))
			rerr_hint(r, &a->ref_loc, did_you_mean(a->ref, r->idkind_names, (size_t)-1),
				  "unknown id kind '%s'%s", a->ref, "");
		break;
	case SPEC_K_FLAGS:
	case SPEC_K_ENUM:
		set = find_set(r->s, a->ref);
		if (!set)
			rerr_hint(r, &a->ref_loc, did_you_mean(a->ref, r->set_names, (size_t)-1),
				  a->kind == SPEC_K_FLAGS ? "unknown flag set '%s'%s" : "unknown enum '%s'%s",
				  a->ref, "");
		else if ((set->kind == SPEC_SET_FLAGS) != (a->kind == SPEC_K_FLAGS))
			spec_error(r->s, &a->ref_loc, "'%s' is %s, not %s", a->ref,
				   set->kind == SPEC_SET_FLAGS ? "a flag set" : "an enum",
				   a->kind == SPEC_K_FLAGS ? "a flag set" : "an enum");
		break;
	case SPEC_K_LEN:
	case SPEC_K_COUNT:
		for (i = 0; i < nr_sibs; i++) {
			const char *name = names[i];

			if (!strcmp(name, a->ref))
				break;
		}
		if (i == nr_sibs) {
			rerr_hint(r, &a->ref_loc, did_you_mean(a->ref, names, nr_sibs),
				  "'%s' names nothing in %s", a->ref, owner);
		} else if (a->kind == SPEC_K_COUNT) {
			const struct spec_arg *t = (const struct spec_arg *)((const char *)sibs +
						    i * stride);

			if (t->kind != SPEC_K_PTR || !t->array)
				spec_error(r->s, &a->ref_loc,
					   "'count %s': '%s' is not an array ('ptr DIR TYPE[]')",
					   a->ref, a->ref);
		}
		break;
	default:
		break;
	}
}

static void resolve_call(struct resolver *r, struct spec_call *c)
{
	struct kd_buf owner = KD_BUF_INIT;
	const char **names;
	size_t i;

	names = sibling_names(r, c->params, c->nr_params, sizeof(*c->params),
			      offsetof(struct spec_param, name));
	if (!names)
		return;
	if (kd_buf_addf(&owner, "%s '%s'", c->kind == SPEC_SYSCALL ? "syscall" : "ioctl", c->name))
		r->oom = -ENOMEM;
	for (i = 0; i < c->nr_params; i++)
		resolve_arg(r, &c->params[i].arg, owner.s, &c->params[0].arg, c->nr_params,
			    sizeof(*c->params), names);
	if (c->ret_ref && !has_fdkind(r->s, c->ret_ref))
		rerr_hint(r, &c->ret_ref_loc, did_you_mean(c->ret_ref, r->fdkind_names, (size_t)-1),
			  "unknown fd kind '%s'%s", c->ret_ref, "");
	for (i = 0; i < c->nr_errnos; i++)
		classify(r, c->errnos[i].when, names);
	for (i = 0; i < c->nr_deviations; i++)
		classify(r, c->deviations[i].when, names);
	kd_buf_release(&owner);
	free(names);
}

static void resolve_struct(struct resolver *r, struct spec_struct *st)
{
	struct kd_buf owner = KD_BUF_INIT;
	const char **names;
	size_t i, j;

	names = sibling_names(r, st->fields, st->nr_fields, sizeof(*st->fields),
			      offsetof(struct spec_field, name));
	if (!names)
		return;
	if (kd_buf_addf(&owner, "%s '%s'", st->is_union ? "union" : "struct", st->name))
		r->oom = -ENOMEM;
	for (i = 0; i < st->nr_fields; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(st->fields[j].name, st->fields[i].name)) {
				spec_error(r->s, &st->fields[i].loc, "duplicate field '%s' in %s",
					   st->fields[i].name, owner.s);
				break;
			}
		if (st->fields[i].has_arg)
			resolve_arg(r, &st->fields[i].arg, owner.s, &st->fields[0].arg,
				    st->nr_fields, sizeof(*st->fields), names);
	}
	if (st->extensible && !st->nr_sizes)
		spec_error(r->s, &st->loc, "extensible %s needs its known sizes ('size NAME = BYTES;')",
			   owner.s);
	for (i = 1; i < st->nr_sizes; i++)
		if (st->sizes[i].size <= st->sizes[i - 1].size)
			spec_error(r->s, &st->sizes[i].loc,
				   "sizes of %s must grow in the order written (%llu after %llu)",
				   owner.s, (unsigned long long)st->sizes[i].size,
				   (unsigned long long)st->sizes[i - 1].size);
	if (st->min_size >= 0 && st->nr_sizes && (uint64_t)st->min_size > st->sizes[0].size)
		spec_error(r->s, &st->loc, "minsize %lld of %s is above its first size %llu",
			   (long long)st->min_size, owner.s, (unsigned long long)st->sizes[0].size);
	kd_buf_release(&owner);
	free(names);
}

static void resolve_set(struct resolver *r, struct spec_set *set)
{
	const struct spec_set *base = set, *b;
	size_t i, j, hops = 0;

	if (set->extends) {
		b = find_set(r->s, set->extends);
		if (!b)
			rerr_hint(r, &set->loc, did_you_mean(set->extends, r->set_names, (size_t)-1),
				  "'%s' extends unknown set '%s'", set->name, set->extends);
		else if (b->kind != set->kind)
			spec_error(r->s, &set->loc, "'%s' cannot extend '%s': one is a flag set, the other an enum",
				   set->name, set->extends);
	}
	while (base && base->extends && hops <= r->s->nr_sets) {
		base = find_set(r->s, base->extends);
		hops++;
	}
	if (hops > r->s->nr_sets)
		spec_error(r->s, &set->loc, "'%s' extends itself (a cycle of 'extends')", set->name);
	for (i = 0; i < set->nr_values; i++) {
		classify(r, set->values[i].value, NULL);
		for (j = 0; j < i; j++)
			if (!strcmp(set->values[j].name, set->values[i].name)) {
				spec_error(r->s, &set->values[i].loc, "duplicate value '%s' in '%s'",
					   set->values[i].name, set->name);
				break;
			}
	}
}

/* Report the second of two declarations of the same name. */
#define CHECK_DUPS(arr, n, what_fn)							\
	for (i = 1; i < (n); i++)							\
		for (j = 0; j < i; j++)							\
			if (!strcmp((arr)[i].name, (arr)[j].name) && what_fn(&(arr)[i], &(arr)[j])) { \
				spec_error(s, &(arr)[i].loc, "duplicate %s '%s' (first at %s:%d:%d)", \
					   what_name(&(arr)[i]), (arr)[i].name, (arr)[j].loc.file, \
					   (arr)[j].loc.line, (arr)[j].loc.col);	\
				break;							\
			}

static bool same_call_kind(const struct spec_call *a, const struct spec_call *b)
{
	return a->kind == b->kind;
}
static bool always(const void *a, const void *b)
{
	(void)a;
	(void)b;
	return true;
}
static const char *call_what(const struct spec_call *c)
{
	return c->kind == SPEC_SYSCALL ? "syscall" : "ioctl";
}
static const char *set_what(const struct spec_set *c)
{
	return c->kind == SPEC_SET_FLAGS ? "flag set" : "enum";
}
static const char *struct_what(const struct spec_struct *c)
{
	return c->is_union ? "union" : "struct";
}
static const char *fdkind_what(const struct spec_fdkind *c)
{
	(void)c;
	return "fd kind";
}
static const char *idkind_what(const struct spec_fdkind *c)
{
	(void)c;
	return "id kind";
}
static const char *constant_what(const struct spec_constant *c)
{
	(void)c;
	return "constant";
}
static const char *family_what(const struct spec_family *c)
{
	(void)c;
	return "family";
}

int spec__resolve(struct spec *s)
{
	struct resolver r = { .s = s };
	size_t errors = s->nr_errors, i, j;
	int err = 0;

	r.set_names = sibling_names(&r, s->sets, s->nr_sets, sizeof(*s->sets),
				    offsetof(struct spec_set, name));
	r.fdkind_names = sibling_names(&r, s->fdkinds, s->nr_fdkinds, sizeof(*s->fdkinds),
				       offsetof(struct spec_fdkind, name));
	r.idkind_names = sibling_names(&r, s->idkinds, s->nr_idkinds, sizeof(*s->idkinds),
				       offsetof(struct spec_fdkind, name));
	if (r.oom)
		goto out;
#define what_name call_what
	CHECK_DUPS(s->calls, s->nr_calls, same_call_kind)
#undef what_name
#define what_name set_what
	CHECK_DUPS(s->sets, s->nr_sets, always)
#undef what_name
#define what_name struct_what
	CHECK_DUPS(s->structs, s->nr_structs, always)
#undef what_name
#define what_name fdkind_what
	CHECK_DUPS(s->fdkinds, s->nr_fdkinds, always)
#undef what_name
#define what_name idkind_what
	CHECK_DUPS(s->idkinds, s->nr_idkinds, always)
#undef what_name
#define what_name constant_what
	CHECK_DUPS(s->constants, s->nr_constants, always)
#undef what_name
#define what_name family_what
	CHECK_DUPS(s->families, s->nr_families, always)
#undef what_name
	for (i = 0; i < s->nr_sets; i++)
		resolve_set(&r, &s->sets[i]);
	for (i = 0; i < s->nr_calls; i++)
		resolve_call(&r, &s->calls[i]);
	for (i = 0; i < s->nr_structs; i++)
		resolve_struct(&r, &s->structs[i]);
out:
	free(r.set_names);
	free(r.fdkind_names);
	free(r.idkind_names);
	if (r.oom)
		err = r.oom;
	else if (s->nr_errors > errors)
		err = -KD_ESYNTAX;
	return err;
}

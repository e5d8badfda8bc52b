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
#include "lib/find.h"
#include "lib/hash.h"
#include "lib/hashmap.h"
#include "lib/mem.h"

struct resolver {
	struct spec *s;
	const char **set_names, **fdkind_names, **idkind_names;
	struct kd_hashmap sets;	/* kd_hash_str(name) -> index in s->sets + 1 */
	struct kd_hashmap values;	/* resolve_set(): one set's value names -> index + 1 */
	int oom;
};

static void rerr_hint(struct resolver *r, const struct spec_loc *loc, const char *best,
		      const char *fmt, const char *a, const char *b)
{
	if (spec_error_hint(r->s, loc, best, fmt, a, b))
		r->oom = -ENOMEM;
}
/* The first set declared as @name, through the name index (a scan made extends chains cubic). */
static const struct spec_set *find_set(const struct resolver *r, const char *name)
{
	size_t pos = KD_HASHMAP_FIRST;
	uint64_t v;

	while ((v = kd_hashmap_next(&r->sets, kd_hash_str(KD_HASH_SEED, name), &pos)))
		if (!strcmp(r->s->sets[v - 1].name, name))
			return &r->s->sets[v - 1];
	return NULL;
}

/*
 * Index @n elements of @stride bytes whose name (a const char *) is at
 * @name_off: report the second of two of the same name for which @same()
 * holds, and fill @index (name -> index + 1, first declaration only) when
 * given. Linear: 100,000 sets were 5*10^9 comparisons pairwise.
 */
struct dup_kind {
	size_t stride, name_off, loc_off;
	bool (*same)(const void *, const void *);	/* NULL: the name alone */
	const char *(*what)(const void *);	/* NULL: @noun for every element */
	const char *noun;
};

static int check_dups(struct spec *s, const void *base, size_t n, const struct dup_kind *k,
		      struct kd_hashmap *index)
{
	struct kd_hashmap own = KD_HASHMAP_INIT, *m = index ? index : &own;
	const char *name, *other;
	const struct spec_loc *loc, *first;
	size_t i, pos;
	uint64_t h, v;
	int err = kd_hashmap_reserve(m, n);

	for (i = 0; !err && i < n; i++) {
		const char *el = (const char *)base + i * k->stride;

		memcpy(&name, el + k->name_off, sizeof(name));
		h = kd_hash_str(KD_HASH_SEED, name);
		pos = KD_HASHMAP_FIRST;
		while ((v = kd_hashmap_next(m, h, &pos))) {
			const char *prev = (const char *)base + (v - 1) * k->stride;

			memcpy(&other, prev + k->name_off, sizeof(other));
			if (!strcmp(name, other) && (!k->same || k->same(el, prev)))
				break;
		}
		if (!v) {
			kd_hashmap_insert_at(m, pos, h, i + 1);
			continue;
		}
		loc = (const struct spec_loc *)(el + k->loc_off);
		first = (const struct spec_loc *)((const char *)base + (v - 1) * k->stride + k->loc_off);
		spec_error(s, loc, "duplicate %s '%s' (first at %s:%d:%d)", k->what ? k->what(el) : k->noun, name,
			   first->file, first->line, first->col);
	}
	kd_hashmap_release(&own);
	return err;
}

static bool has_fdkind(const struct spec *s, const char *name)
{
	return spec__is_fdkind(s, name);
}

static bool has_idkind(const struct spec *s, const char *name)
{
	return KD_FIND_NAMED(const struct spec_fdkind, s->idkinds, s->nr_idkinds, name, name);
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
	} else if ((set = find_set(r, e->name))) {
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
		set = find_set(r, a->ref);
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
		const struct spec_field *f = &st->fields[i];

		for (j = 0; j < i; j++)
			if (!strcmp(st->fields[j].name, f->name) &&
			    st->fields[j].from_elem == f->from_elem) {
				spec_error(r->s, &f->loc, "duplicate field '%s' in %s", f->name, owner.s);
				break;
			}
		/* unused: the kernel never touches it, which every other word contradicts. */
		if (f->unused && (f->reserved || f->out || f->has_arg || f->nr_gates))
			spec_error(r->s, &f->loc, "field '%s' of %s is unused (the kernel never reads"
				   " or writes it): no kind, 'reserved', 'out' or 'when' with it",
				   f->name, owner.s);
		if (f->from_elem >= 0 && !f->unused)
			spec_error(r->s, &f->loc, "'%s[%lld]' of %s: elements from an index on can only"
				   " be 'unused'", f->name, (long long)f->from_elem, owner.s);
		if (f->has_arg)
			resolve_arg(r, &st->fields[i].arg, owner.s, &st->fields[0].arg,
				    st->nr_fields, sizeof(*st->fields), names);
	}
	/* extensible says more (sizes, E2BIG): both on one struct is a slip. */
	if (st->extensible && st->prefix)
		spec_error(r->s, &st->loc, "%s is extensible or prefix, not both", owner.s);
	/* extensible's sizes are what copy_struct_from_user() takes; a message's are not. */
	if (st->extensible && st->message)
		spec_error(r->s, &st->loc, "%s is extensible or message, not both", owner.s);
	/* whole: the kernel's size whatever the caller's, which the others deny. */
	if (st->whole && (st->extensible || st->prefix || st->message))
		spec_error(r->s, &st->loc, "%s is whole: not extensible, prefix or message", owner.s);
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
	const struct spec_set *base = set, *b, *chain[SPEC_MAX_EXTENDS + 2];
	size_t i, j, hops = 0;
	bool cycle = false;

	if (set->extends) {
		b = find_set(r, set->extends);
		if (!b)
			rerr_hint(r, &set->loc, did_you_mean(set->extends, r->set_names, (size_t)-1),
				  "'%s' extends unknown set '%s'", set->name, set->extends);
		else if (b->kind != set->kind)
			spec_error(r->s, &set->loc, "'%s' cannot extend '%s': one is a flag set, the other an enum",
				   set->name, set->extends);
	}
	chain[0] = set;
	while (base && base->extends && hops <= SPEC_MAX_EXTENDS) {
		base = find_set(r, base->extends);
		chain[++hops] = base;
	}
	if (hops > SPEC_MAX_EXTENDS) {
		for (i = 0; i <= hops && !cycle; i++)
			for (j = 0; j < i && !cycle; j++)
				cycle = chain[i] == chain[j];
		if (cycle)
			spec_error(r->s, &set->loc, "'%s' extends itself (a cycle of 'extends')", set->name);
		else
			spec_error(r->s, &set->loc, "'%s' extends a chain of more than %d sets",
				   set->name, SPEC_MAX_EXTENDS);
	}
	if (kd_hashmap_reserve(&r->values, set->nr_values)) {
		r->oom = -ENOMEM;
		return;
	}
	for (i = 0; i < set->nr_values; i++) {
		uint64_t h = kd_hash_str(KD_HASH_SEED, set->values[i].name), v;
		size_t pos = KD_HASHMAP_FIRST;

		classify(r, set->values[i].value, NULL);
		while ((v = kd_hashmap_next(&r->values, h, &pos)) &&
		       strcmp(set->values[v - 1].name, set->values[i].name))
			;
		if (v)
			spec_error(r->s, &set->values[i].loc, "duplicate value '%s' in '%s'",
				   set->values[i].name, set->name);
		else
			kd_hashmap_insert_at(&r->values, pos, h, i + 1);
	}
	kd_hashmap_clear(&r->values);
}

/*
 * Explicit values that divide by zero through a name (`A = 0; B = 1 / A;`):
 * a name in a value's expression that is another explicit value of the
 * spec is evaluated as that value (so far as it is made of numbers and such
 * names), and a divisor that comes to 0 is an error at the value, as a
 * literal `1 / 0` is at parse time. Names left are UAPI constants, known
 * only with a kernel: spec__store() and check hold those.
 */
struct div_ctx {
	struct resolver *r;
	struct kd_hashmap by_name;	/* explicit value name -> index in vals + 1 */
	const struct spec_value **vals;
	/* Each value evaluated once (A2 = A1 + A1 ... would be 2^n): 0 not yet, 1 under way, 2 done. */
	unsigned char *state;
	int *err;
	uint64_t *val;
	size_t nr_vals;
	int depth;
};

static int eval_explicit(const char *name, uint64_t *out, void *ctx)
{
	struct div_ctx *d = ctx;
	size_t pos = KD_HASHMAP_FIRST;
	uint64_t v;
	int err;

	while ((v = kd_hashmap_next(&d->by_name, kd_hash_str(KD_HASH_SEED, name), &pos)) &&
	       strcmp(d->vals[v - 1]->name, name))
		;
	if (!v)
		return -ENOENT;		/* a UAPI constant: unknown here */
	v--;
	if (d->state[v] == 2) {
		*out = d->val[v];
		return d->err[v] == -EDOM ? -ENOENT : d->err[v];	/* reported at that value */
	}
	if (d->state[v] == 1 || d->depth >= SPEC_MAX_EXPR_DEPTH)
		return -ELOOP;		/* a cycle (A = B; B = A) or a long chain: unknown */
	d->state[v] = 1;
	d->depth++;
	err = spec_expr__eval(d->vals[v]->value, eval_explicit, d, out);
	d->depth--;
	d->state[v] = 2;
	d->err[v] = err;
	d->val[v] = err ? 0 : *out;
	return err == -EDOM ? -ENOENT : err;
}

static void check_divisions(struct resolver *r)
{
	struct div_ctx d = { .r = r };
	size_t i, j, n = 0;
	uint64_t out;

	for (i = 0; i < r->s->nr_sets; i++)
		for (j = 0; j < r->s->sets[i].nr_values; j++)
			n += r->s->sets[i].values[j].value != NULL;
	if (!n)
		return;
	d.vals = kd_calloc(n, sizeof(*d.vals));
	d.state = kd_calloc(n, sizeof(*d.state));
	d.err = kd_calloc(n, sizeof(*d.err));
	d.val = kd_calloc(n, sizeof(*d.val));
	if (!d.vals || !d.state || !d.err || !d.val || kd_hashmap_reserve(&d.by_name, n)) {
		r->oom = -ENOMEM;
		goto out;
	}
	for (i = 0; i < r->s->nr_sets; i++)
		for (j = 0; j < r->s->sets[i].nr_values; j++) {
			const struct spec_value *v = &r->s->sets[i].values[j];
			uint64_t h = kd_hash_str(KD_HASH_SEED, v->name), k;
			size_t pos = KD_HASHMAP_FIRST;

			if (!v->value)
				continue;
			while ((k = kd_hashmap_next(&d.by_name, h, &pos)) && strcmp(d.vals[k - 1]->name, v->name))
				;
			d.vals[d.nr_vals++] = v;
			if (!k)		/* the first of a name (a duplicate is an error of its own) */
				kd_hashmap_insert_at(&d.by_name, pos, h, d.nr_vals);
		}
	for (i = 0; i < d.nr_vals; i++) {
		int err = d.state[i] == 2 ? d.err[i] : 0;

		if (d.state[i] != 2) {
			d.state[i] = 1;
			err = spec_expr__eval(d.vals[i]->value, eval_explicit, &d, &out);
			d.state[i] = 2;
			d.err[i] = err;
			d.val[i] = err ? 0 : out;
		}
		if (err == -EDOM)
			spec_error(r->s, &d.vals[i]->loc,
				   "'%s' divides by zero (a value it names is 0)", d.vals[i]->name);
	}
out:
	free(d.vals);
	free(d.state);
	free(d.err);
	free(d.val);
	kd_hashmap_release(&d.by_name);
}

static bool same_call_kind(const void *a, const void *b)
{
	return ((const struct spec_call *)a)->kind == ((const struct spec_call *)b)->kind;
}
static const char *call_what(const void *c)
{
	return ((const struct spec_call *)c)->kind == SPEC_SYSCALL ? "syscall" : "ioctl";
}
static const char *set_what(const void *c)
{
	return ((const struct spec_set *)c)->kind == SPEC_SET_FLAGS ? "flag set" : "enum";
}
static const char *struct_what(const void *c)
{
	return ((const struct spec_struct *)c)->is_union ? "union" : "struct";
}
#define DUP_KIND(type, same, what, noun) \
	{ sizeof(type), offsetof(type, name), offsetof(type, loc), same, what, noun }

static const struct dup_kind call_dups = DUP_KIND(struct spec_call, same_call_kind, call_what, NULL);
static const struct dup_kind set_dups = DUP_KIND(struct spec_set, NULL, set_what, NULL);
static const struct dup_kind struct_dups = DUP_KIND(struct spec_struct, NULL, struct_what, NULL);
static const struct dup_kind fdkind_dups = DUP_KIND(struct spec_fdkind, NULL, NULL, "fd kind");
static const struct dup_kind idkind_dups = DUP_KIND(struct spec_fdkind, NULL, NULL, "id kind");
static const struct dup_kind constant_dups = DUP_KIND(struct spec_constant, NULL, NULL, "constant");
static const struct dup_kind family_dups = DUP_KIND(struct spec_family, NULL, NULL, "family");
static const struct dup_kind vdso_dups = {
	sizeof(struct spec_vdso), offsetof(struct spec_vdso, abi), offsetof(struct spec_vdso, loc),
	NULL, NULL, "vdso block"
};

int spec__resolve(struct spec *s)
{
	struct resolver r = { .s = s };
	size_t errors = s->nr_errors, i;
	int err = 0;

	r.set_names = sibling_names(&r, s->sets, s->nr_sets, sizeof(*s->sets),
				    offsetof(struct spec_set, name));
	r.fdkind_names = sibling_names(&r, s->fdkinds, s->nr_fdkinds, sizeof(*s->fdkinds),
				       offsetof(struct spec_fdkind, name));
	r.idkind_names = sibling_names(&r, s->idkinds, s->nr_idkinds, sizeof(*s->idkinds),
				       offsetof(struct spec_fdkind, name));
	if (r.oom)
		goto out;
	r.oom = check_dups(s, s->calls, s->nr_calls, &call_dups, NULL);
	if (!r.oom)
		r.oom = check_dups(s, s->sets, s->nr_sets, &set_dups, &r.sets);
	if (!r.oom)
		r.oom = check_dups(s, s->structs, s->nr_structs, &struct_dups, NULL);
	if (!r.oom)
		r.oom = check_dups(s, s->fdkinds, s->nr_fdkinds, &fdkind_dups, NULL);
	if (!r.oom)
		r.oom = check_dups(s, s->idkinds, s->nr_idkinds, &idkind_dups, NULL);
	if (!r.oom)
		r.oom = check_dups(s, s->constants, s->nr_constants, &constant_dups, NULL);
	if (!r.oom)
		r.oom = check_dups(s, s->families, s->nr_families, &family_dups, NULL);
	if (!r.oom)
		r.oom = check_dups(s, s->vdsos, s->nr_vdsos, &vdso_dups, NULL);
	if (r.oom)
		goto out;
	for (i = 0; i < s->nr_sets; i++)
		resolve_set(&r, &s->sets[i]);
	check_divisions(&r);
	for (i = 0; i < s->nr_calls; i++)
		resolve_call(&r, &s->calls[i]);
	for (i = 0; i < s->nr_structs; i++)
		resolve_struct(&r, &s->structs[i]);
out:
	free(r.set_names);
	free(r.fdkind_names);
	free(r.idkind_names);
	kd_hashmap_release(&r.sets);
	kd_hashmap_release(&r.values);
	if (r.oom)
		err = r.oom;
	else if (s->nr_errors > errors)
		err = -KD_ESYNTAX;
	return err;
}

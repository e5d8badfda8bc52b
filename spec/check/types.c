// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-diff check, C types: can the kernel's C type of a parameter or
 * member carry the kind the spec gives it (a pointer for ptr/path/string,
 * an integer for the rest, the pointee the spec names), and do the spec's
 * structs exist with the sizes, size constants and members it states.
 * Types are read by id through the DB API, typedefs and qualifiers peeled.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "db/type-cache.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/model.h"
#include "lib/typegraph.h"
#include "spec/check/check_internal.h"

/* --- types ----------------------------------------------------------------- */

static int add_typedef_name(const struct kd_type *t, void *ctx)
{
	if (t->kind != KD_KIND_TYPEDEF || !t->name)
		return 0;
	return kd_buf_adds(ctx, t->name) || kd_buf_addc(ctx, '\n') ? -ENOMEM : 0;
}

/*
 * Follow typedefs and qualifiers from @id. *out: the first other type (in
 * the check's type cache), NULL for void, a missing type or a chain too
 * long. When @names is given, the typedef names met on the way are
 * appended to it, each followed by '\n'.
 */
static int peel(struct ck *c, int64_t id, const struct kd_type **out, struct kd_buf *names)
{
	int err;

	err = kd_type_strip_visit(id, type_cache__lookup, c->types,
				  names ? add_typedef_name : NULL, names, out);
	if (!err && *out && kd_kind_is_qualifier((*out)->kind))
		*out = NULL;
	if (!err && (err = type_cache__error(c->types)) == -ENOENT)
		err = 0;	/* a missing type reads as void, as it did */
	return err;
}

/* Sizes of the scalar spellings a spec may use as a pointee; 0: unknown. */
int64_t scalar_size(const char *n)
{
	static const struct { const char *name; int64_t size; } tab[] = {
		{ "char", 1 }, { "signed char", 1 }, { "unsigned char", 1 },
		{ "short", 2 }, { "unsigned short", 2 }, { "int", 4 }, { "unsigned int", 4 },
		{ "unsigned", 4 }, { "long", 8 }, { "unsigned long", 8 }, { "long long", 8 },
		{ "unsigned long long", 8 }, { "size_t", 8 }, { "loff_t", 8 }, { "off_t", 8 },
		{ "pid_t", 4 }, { "uid_t", 4 }, { "gid_t", 4 }, { "umode_t", 2 },
		{ "__u8", 1 }, { "__s8", 1 }, { "u8", 1 }, { "s8", 1 },
		{ "__u16", 2 }, { "__s16", 2 }, { "u16", 2 }, { "s16", 2 },
		{ "__u32", 4 }, { "__s32", 4 }, { "u32", 4 }, { "s32", 4 },
		{ "__u64", 8 }, { "__s64", 8 }, { "u64", 8 }, { "s64", 8 },
		{ "__aligned_u64", 8 }, { "__kernel_ulong_t", 8 }, { "__kernel_long_t", 8 },
	};
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(tab[i].name, n))
			return tab[i].size;
	return 0;
}

static bool line_in(const char *lines, const char *name)
{
	size_t n = strlen(name);

	for (; *lines; lines = strchr(lines, '\n') + 1)
		if (!strncmp(lines, name, n) && lines[n] == '\n')
			return true;
	return false;
}

/* The final (peeled) type as the spec would name it ("struct open_how", "int"). */
static int spell_final(const struct kd_type *t, struct kd_buf *b)
{
	kd_buf_reset(b);
	if (!t)
		return kd_buf_adds(b, "void");
	switch (t->kind) {
	case KD_KIND_STRUCT: return kd_buf_addf(b, "struct %s", t->name ? t->name : "(anonymous)");
	case KD_KIND_UNION: return kd_buf_addf(b, "union %s", t->name ? t->name : "(anonymous)");
	case KD_KIND_ENUM: return kd_buf_addf(b, "enum %s", t->name ? t->name : "(anonymous)");
	case KD_KIND_BASE: return kd_buf_adds(b, t->name ? t->name : "?");
	default: return kd_buf_adds(b, kd_kind_name(t->kind));
	}
}

/*
 * Does the pointee @id match the spec's C type @ref? Yes when @ref is void
 * (the spec says nothing) or the pointee is void (the spec is more precise
 * than the kernel's void __user *), when @ref names the pointee or one of
 * the typedefs on the way to it, or when both are scalars of one size
 * ("__u64" for "unsigned long long"). Otherwise *why gets the pointee.
 */
static int pointee_matches(struct ck *c, int64_t id, const char *ref, bool *match)
{
	const struct kd_type *t = NULL;
	int64_t rs;
	int err;

	*match = true;
	if (!strcmp(ref, "void") || !id)
		return 0;
	kd_buf_reset(&c->tmp);
	err = peel(c, id, &t, &c->tmp);
	if (err || !t)
		return err;
	if (ref[strlen(ref) - 1] == '*') {
		/* "char *": the pointee is a pointer to what the rest names */
		char *inner = kd_strndup(ref, strlen(ref) - 1);
		size_t n = inner ? strlen(inner) : 0;

		while (n && inner[n - 1] == ' ')
			inner[--n] = '\0';
		if (!inner)
			err = -ENOMEM;
		else if (t->kind != KD_KIND_POINTER || !n)
			*match = false;
		else
			err = pointee_matches(c, t->ref, inner, match);
		free(inner);
		goto out;
	}
	if (line_in(c->tmp.s, ref))
		goto out;
	err = spell_final(t, &c->tmp);
	if (err || !strcmp(c->tmp.s, ref))
		goto out;
	rs = scalar_size(ref);
	if (rs && (t->kind == KD_KIND_BASE || t->kind == KD_KIND_ENUM) && t->size == rs)
		goto out;
	*match = false;
out:
	return err;
}

/*
 * Check kind @a against the C type @type_id (@type_text when only the text
 * is known). Sets *bad and writes the disagreement into c->msg's scratch
 * @why when the type cannot carry the kind.
 */
int kind_vs_type(struct ck *c, const struct spec_arg *a, int64_t type_id,
			const char *type_text, bool field, struct kd_buf *why, bool *bad)
{
	const struct kd_type *t = NULL;
	bool is_ptr, match;
	int err = 0;

	*bad = false;
	kd_buf_reset(why);
	if (a->kind == SPEC_K_ADDR || a->kind == SPEC_K_UNUSED)
		return 0;
	if (type_id) {
		err = peel(c, type_id, &t, NULL);
		if (err)
			return err;
		is_ptr = t && t->kind == KD_KIND_POINTER;
	} else {
		is_ptr = type_text && strchr(type_text, '*');
	}
	switch (a->kind) {
	case SPEC_K_PTR:
	case SPEC_K_PATH:
	case SPEC_K_STRING:
		/* UAPI structs carry user pointers as __u64 (__aligned_u64). */
		if (field && !is_ptr && t && (t->kind == KD_KIND_BASE || t->kind == KD_KIND_ENUM) &&
		    t->size >= 8)
			break;
		if (!is_ptr) {
			*bad = true;
			err = kd_buf_adds(why, field ? "it is neither a pointer nor a 64-bit integer" :
					  "it is not a pointer");
			break;
		}
		if (a->kind != SPEC_K_PTR || !a->ref || !t)
			break;
		err = pointee_matches(c, t->ref, a->ref, &match);
		if (!err && !match) {
			*bad = true;
			err = kd_buf_addf(why, "it points to another type than %s", a->ref);
		}
		break;
	default:
		if (is_ptr) {
			*bad = true;
			err = kd_buf_adds(why, "it is a pointer");
		}
		break;
	}
	return err;
}

/* "ptr in struct open_how", "flags open_flags", "fd". */
int kind_text(const struct spec_arg *a, struct kd_buf *b)
{
	kd_buf_reset(b);
	if (kd_buf_adds(b, spec_kind_name(a->kind)))
		return -ENOMEM;
	if (a->kind == SPEC_K_PTR && kd_buf_addf(b, " %s", spec_dir_name(a->dir)))
		return -ENOMEM;
	if (a->ref && kd_buf_addf(b, " %s%s", a->ref, a->array ? "[]" : ""))
		return -ENOMEM;
	return 0;
}

/* --- structs --------------------------------------------------------------- */

/*
 * Find member @name of aggregate @t, looking into anonymous members too.
 * *type receives the member's type id; *found whether it exists.
 */
static int find_member(struct ck *c, const struct kd_type *t, const char *name, size_t len,
		       int64_t *type, bool *found, int depth)
{
	size_t i;
	int err;

	*found = false;
	for (i = 0; i < t->nr_members; i++) {
		const struct kd_member *m = &t->members[i];
		const struct kd_type *inner = NULL;

		if (m->name) {
			if (strlen(m->name) == len && !strncmp(m->name, name, len)) {
				*type = m->type;
				*found = true;
				return 0;
			}
			continue;
		}
		if (depth >= KD_TYPE_MAX_HOPS)
			continue;
		err = peel(c, m->type, &inner, NULL);
		if (err)
			return err;
		if (inner && (inner->kind == KD_KIND_STRUCT || inner->kind == KD_KIND_UNION))
			err = find_member(c, inner, name, len, type, found, depth + 1);
		if (err || *found)
			return err;
	}
	return 0;
}

/* Resolve the dotted @path in @t; *type: the member's type id, 0 with *found false. */
static int find_path(struct ck *c, const struct kd_type *t, const char *path, int64_t *type,
		     bool *found)
{
	const struct kd_type *at = t;
	int err = 0;

	*found = false;
	for (;;) {
		const char *dot = strchr(path, '.');
		size_t len = dot ? (size_t)(dot - path) : strlen(path);

		err = find_member(c, at, path, len, type, found, 0);
		if (err || !*found || !dot)
			break;
		err = peel(c, *type, &at, NULL);
		if (err)
			break;
		*found = false;
		if (!at || (at->kind != KD_KIND_STRUCT && at->kind != KD_KIND_UNION))
			break;
		path = dot + 1;
	}
	return err;
}

static int check_struct_sizes(struct ck *c, const struct spec_struct *st, int64_t size)
{
	size_t i;
	bool listed = false;
	int err = 0;

	kd_buf_reset(&c->tmp);
	for (i = 0; i < st->nr_sizes; i++) {
		listed |= (int64_t)st->sizes[i].size == size;
		err = kd_buf_addf(&c->tmp, "%s%llu", i ? ", " : "",
				  (unsigned long long)st->sizes[i].size);
		if (err)
			return err;
	}
	if (st->nr_sizes && !listed)
		err = finding(c, CHECK_R_STRUCT_SIZE, &st->loc, c->subj.s,
			      "%lld bytes in the kernel; the spec lists %s", (long long)size, c->tmp.s);
	for (i = 0; !err && listed && i < st->nr_sizes; i++) {
		const struct spec_size *sz = &st->sizes[i];

		if (sz->since && !after_kernel(c, sz->since) && (int64_t)sz->size > size)
			err = finding(c, CHECK_R_STRUCT_SIZE, &sz->loc, c->subj.s,
				      "%lld bytes in the kernel; the spec says %llu since %s",
				      (long long)size, (unsigned long long)sz->size, sz->since);
	}
	if (!err && st->min_size > size)
		err = finding(c, CHECK_R_STRUCT_SIZE, &st->loc, c->subj.s,
			      "%lld bytes in the kernel, below the spec's minsize %lld",
			      (long long)size, (long long)st->min_size);
	for (i = 0; !err && c->r->has_uapi && i < st->nr_sizes; i++) {
		const struct spec_size *sz = &st->sizes[i];
		const struct kconst *k;

		if (!sz->name || after_kernel(c, sz->since))
			continue;
		k = find_const(c, sz->name);
		if (!k)
			err = finding(c, CHECK_R_STRUCT_SIZE_CONSTANT, &sz->loc, c->subj.s,
				      "%s is not defined by the UAPI headers", sz->name);
		else if (k->value != sz->size)
			err = finding(c, CHECK_R_STRUCT_SIZE_CONSTANT, &sz->loc, c->subj.s,
				      "%s is %llu in the UAPI headers; the spec says %llu", sz->name,
				      (unsigned long long)k->value, (unsigned long long)sz->size);
	}
	return err;
}

/* Does the spec mention member @name of @st (itself, or a dotted path into it)? */
static bool field_listed(const struct spec_struct *st, const char *name)
{
	size_t i, len = strlen(name);

	for (i = 0; i < st->nr_fields; i++) {
		const char *f = st->fields[i].name;

		if (!strncmp(f, name, len) && (f[len] == '\0' || f[len] == '.'))
			return true;
	}
	return false;
}

/*
 * struct-field-unlisted: each named member of @t (members of anonymous
 * structs and unions by their own names, as the spec writes them) that
 * @st does not mention. A struct the spec describes member by member
 * should say what every member is: a reserved member left out (as
 * perf_event_attr's __reserved_3 was) is one the diff cannot know is
 * reserved, nor check cannot hold against the kernel.
 */
static int check_unlisted(struct ck *c, const struct spec_struct *st, const struct kd_type *t,
			  int64_t base, int depth)
{
	struct kd_buf sub = KD_BUF_INIT;
	size_t i;
	int err = 0;

	for (i = 0; !err && i < t->nr_members; i++) {
		const struct kd_member *m = &t->members[i];
		const struct kd_type *inner = NULL;

		if (m->name) {
			if (field_listed(st, m->name))
				continue;
			kd_buf_reset(&sub);
			err = kd_buf_addf(&sub, "%s.%s", c->subj.s, m->name);
			if (!err)
				err = finding(c, CHECK_R_STRUCT_FIELD_UNLISTED, &st->loc, sub.s,
					      "a member of the kernel's layout (at byte %lld) the spec"
					      " does not mention", (long long)(base + m->offset));
			continue;
		}
		if (depth >= KD_TYPE_MAX_HOPS)
			continue;
		err = peel(c, m->type, &inner, NULL);
		if (!err && inner && (inner->kind == KD_KIND_STRUCT || inner->kind == KD_KIND_UNION))
			err = check_unlisted(c, st, inner, base + m->offset, depth + 1);
	}
	kd_buf_release(&sub);
	return err;
}

/*
 * Does the contract describe @st as one that crosses outside typed
 * arguments (a prefix or a message, members unused or read behind a
 * flag)? Such a struct lives in a module or only in the headers.
 */
static bool crosses_untyped(const struct spec_struct *st)
{
	size_t i;

	if (st->prefix || st->message || st->whole)
		return true;
	for (i = 0; i < st->nr_fields; i++)
		if (st->fields[i].unused || st->fields[i].nr_gates)
			return true;
	return false;
}

int check_struct(struct ck *c, const struct spec_struct *st)
{
	const char *tag = st->is_union ? "union" : "struct";
	struct kd_buf why = KD_BUF_INIT, kt = KD_BUF_INIT, sub = KD_BUF_INIT;
	struct kd_type *t = NULL;
	int64_t *ids = NULL;
	int n, i, err;

	if (after_kernel(c, st->since))
		return 0;
	kd_buf_reset(&c->subj);
	if (kd_buf_addf(&c->subj, "%s %s", tag, st->name))
		return -ENOMEM;
	n = kdb__find_types(c->db, tag, st->name, &ids);
	if (n < 0)
		return n;
	for (i = 0, err = 0; i < n && !t && !err; i++) {
		err = kdb__get_type(c->db, ids[i], &t);
		if (!err && (t->flags & KD_TYPE_DECLARATION)) {
			kd_type__free(t);
			t = NULL;
		}
	}
	free(ids);
	if (err)
		return err;
	if (!t)
		return finding(c, CHECK_R_STRUCT_MISSING, &st->loc, c->subj.s,
			       crosses_untyped(st) ? "in neither the kernel's DWARF nor its header"
			       " views (a prefix struct, a message, or one whose members are unused"
			       " or gated, crosses outside typed arguments: extract with --modules"
			       " and --uapi)" :
			       "not among the types the kernel's syscalls and ioctls reach");
	err = check_struct_sizes(c, st, t->size);
	for (size_t f = 0; !err && f < st->nr_fields; f++) {
		const struct spec_field *fl = &st->fields[f];
		int64_t type = 0;
		bool found, bad;

		/* A field outside [since, until) is not the kernel's to have. */
		if (after_kernel(c, fl->since) || (fl->until && c->has_rel && !after_kernel(c, fl->until)))
			continue;
		kd_buf_reset(&sub);
		err = kd_buf_addf(&sub, "%s.%s", c->subj.s, fl->name);
		if (!err)
			err = find_path(c, t, fl->name, &type, &found);
		if (err)
			break;
		if (!found) {
			err = finding(c, CHECK_R_STRUCT_FIELD_MISSING, &fl->loc, sub.s,
				      "no such member in the kernel's layout");
			continue;
		}
		/* A gate the headers lack makes the diff's `when` fact never hold. */
		for (size_t g = 0; !err && c->r->has_uapi && g < fl->nr_gates; g++)
			if (!find_const(c, fl->gates[g]))
				err = finding(c, CHECK_R_STRUCT_FIELD_GATE, &fl->loc, sub.s,
					      "%s is not defined by the UAPI headers", fl->gates[g]);
		if (!fl->has_arg || fl->arg.kind == SPEC_K_LEN || fl->arg.kind == SPEC_K_COUNT)
			continue;
		err = kind_vs_type(c, &fl->arg, type, NULL, true, &why, &bad);
		if (!err && bad)
			err = kind_text(&fl->arg, &kt);
		if (!err && bad)
			err = finding(c, CHECK_R_STRUCT_FIELD_TYPE, &fl->loc, sub.s, "spec: %s; kernel: %s",
				      kt.s, why.s);
	}
	/* Only a struct the spec describes member by member: one it gives
	 * sizes alone is not a list of its members. */
	if (!err && st->nr_fields)
		err = check_unlisted(c, st, t, 0, 0);
	kd_type__free(t);
	kd_buf_release(&why);
	kd_buf_release(&kt);
	kd_buf_release(&sub);
	return err;
}

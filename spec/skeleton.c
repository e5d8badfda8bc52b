// SPDX-License-Identifier: GPL-2.0-only
/*
 * `kabi-diff spec init`: skeleton syscall entries guessed from the C types
 * of an extracted kernel (spec/skeleton.h). The guesses, in order:
 * pid_t/uid_t/gid_t by typedef; an integer named fd or *fd is an fd; a
 * const char * named like a path (path, filename, name, dir...) is a path,
 * one named *buf* a ptr in char, another const char * a string; a pointer is ptr in (const pointee) or
 * inout to its pointee, spelled as the spec's ctype; a size_t-like integer
 * named len/count/size/... right after a pointer is that pointer's len; an
 * integer named *flags is an int with a TODO note naming the flag set to
 * write; addr/start/brk are addresses; everything else is an int.
 */
#include "spec/skeleton.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "db/type-cache.h"
#include "lib/arch.h"
#include "lib/buf.h"
#include "lib/mem.h"
#include "lib/model.h"
#include "lib/str.h"
#include "lib/typegraph.h"
#include "spec/spec.h"

struct skel {
	struct kdb *db;
	struct type_cache *types;	/* of db */
	const struct spec *except;
	struct kd_buf *out;
	char **seen;
	size_t nr_seen, cap_seen;
	size_t count;
	struct kd_buf params, notes, ctype;
};

/* What a parameter's C type is, once typedefs and qualifiers are peeled. */
struct ctype_info {
	bool is_ptr;
	bool pointee_const;	/* const on the way from the pointer to the pointee */
	bool pointee_char;
	char typedef_name[32];	/* the first typedef met (pid_t), "" when none */
};

/* What peel() notes on the way. */
struct peeled {
	bool *is_const;
	char *tdname;
	size_t tdlen;
};

static int note_qualifier(const struct kd_type *x, void *ctx)
{
	struct peeled *p = ctx;

	if (x->kind == KD_KIND_CONST && p->is_const)
		*p->is_const = true;
	if (x->kind == KD_KIND_TYPEDEF && p->tdname && !*p->tdname && x->name &&
	    strlen(x->name) < p->tdlen)
		memcpy(p->tdname, x->name, strlen(x->name) + 1);
	return 0;
}

/*
 * Peel @id; *t the first other type (in the type cache; NULL: void, a
 * missing type, a chain too long); *is_const whether a const was met; the
 * first typedef's name into @tdname (may be NULL).
 */
static int peel(struct skel *s, int64_t id, const struct kd_type **t, bool *is_const,
		char *tdname, size_t tdlen)
{
	struct peeled p = { .is_const = is_const, .tdname = tdname, .tdlen = tdlen };
	int err;

	if (is_const)
		*is_const = false;
	kd_type_strip_visit(id, type_cache__lookup, s->types, note_qualifier, &p, t);
	if (*t && kd_kind_is_qualifier((*t)->kind))
		*t = NULL;
	err = type_cache__error(s->types);
	return err == -ENOENT ? 0 : err;	/* a missing type reads as void */
}

/* The spec ctype of the pointee @id into s->ctype ("struct open_how", "char *"). */
static int spell_pointee(struct skel *s, int64_t id, struct ctype_info *ci)
{
	const struct kd_type *t = NULL;
	int depth, err = 0;

	kd_buf_reset(&s->ctype);
	for (depth = 0; depth < 4; depth++) {
		err = peel(s, id, &t, depth ? NULL : &ci->pointee_const, NULL, 0);
		if (err)
			return err;
		if (!t || t->kind != KD_KIND_POINTER)
			break;
		id = t->ref;
		t = NULL;
	}
	if (!t)
		err = kd_buf_adds(&s->ctype, "void");
	else if ((t->kind == KD_KIND_STRUCT || t->kind == KD_KIND_UNION || t->kind == KD_KIND_ENUM) &&
		 t->name)
		err = kd_buf_addf(&s->ctype, "%s %s", t->kind == KD_KIND_STRUCT ? "struct" :
				  t->kind == KD_KIND_UNION ? "union" : "enum", t->name);
	else if (t->kind == KD_KIND_BASE && t->name)
		err = kd_buf_adds(&s->ctype, t->name);
	else
		err = kd_buf_adds(&s->ctype, "void");	/* arrays, functions, anonymous types */
	ci->pointee_char = depth == 0 && t && t->kind == KD_KIND_BASE && t->name &&
			   strstr(t->name, "char");
	while (!err && depth-- > 0)
		err = kd_buf_adds(&s->ctype, " *");
	return err;
}

static bool name_is(const char *n, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(n, *list))
			return true;
	return false;
}

static bool path_like(const char *n)
{
	return strstr(n, "path") || strstr(n, "file") || strstr(n, "dir") ||
	       kd_ends_with(n, "name") || !strcmp(n, "special");
}

/* One parameter "NAME: KIND" into s->params; @prev_ptr: the last pointer param or NULL. */
static int add_param(struct skel *s, const char *sys, const struct kd_param *p, size_t pos,
		     const char **prev_ptr, char **names)
{
	static const char *const lens[] = { "len", "count", "size", "usize", "nbytes", "bufsiz",
					    "addrlen", "optlen", "sigsetsize", "size_t", NULL };
	static const char *const addrs[] = { "addr", "start", "brk", "new_addr", "old_addr", NULL };
	struct ctype_info ci = { 0 };
	const struct kd_type *t = NULL;
	const char *name = names[pos];
	int err;

	err = peel(s, p->type_id, &t, NULL, ci.typedef_name, sizeof(ci.typedef_name));
	if (err)
		return err;
	ci.is_ptr = t ? t->kind == KD_KIND_POINTER : p->type_text && strchr(p->type_text, '*');
	err = kd_buf_addf(&s->params, "%s%s: ", pos ? ", " : "", name);
	if (!err && ci.is_ptr && t)
		err = spell_pointee(s, t->ref, &ci);
	if (err)
		goto out;
	if (ci.is_ptr) {
		if (ci.pointee_char && ci.pointee_const && path_like(name))
			err = kd_buf_adds(&s->params, "path");
		else if (ci.pointee_char && ci.pointee_const && !strstr(name, "buf"))
			err = kd_buf_adds(&s->params, "string");
		else
			err = kd_buf_addf(&s->params, "ptr %s %s", ci.pointee_const ? "in" : "inout",
					  t ? s->ctype.s : "void");
		*prev_ptr = name;
	} else if (!strcmp(ci.typedef_name, "pid_t")) {
		err = kd_buf_adds(&s->params, "pid");
	} else if (!strcmp(ci.typedef_name, "uid_t")) {
		err = kd_buf_adds(&s->params, "uid");
	} else if (!strcmp(ci.typedef_name, "gid_t")) {
		err = kd_buf_adds(&s->params, "gid");
	} else if (!strcmp(name, "fd") || kd_ends_with(name, "fd")) {
		err = kd_buf_adds(&s->params, "fd");
	} else if (*prev_ptr && (name_is(name, lens) || kd_ends_with(name, "len"))) {
		err = kd_buf_addf(&s->params, "len %s", *prev_ptr);
		*prev_ptr = NULL;
	} else if (name_is(name, addrs)) {
		err = kd_buf_adds(&s->params, "addr");
	} else {
		err = kd_buf_adds(&s->params, "int");
		if (!err && kd_ends_with(name, "flags"))
			err = kd_buf_addf(&s->notes, "\tnote \"TODO: %s is a flag set"
					  " (flags %s_%s).\";\n", name, sys,
					  !strcmp(name, "flags") ? "flags" : name);
	}
out:
	return err;
}

static int on_syscall(const struct kd_syscall *sc, void *ctx)
{
	struct skel *s = ctx;
	struct kd_function *f = NULL;
	const char *prev_ptr = NULL;
	char **names = NULL;
	size_t i;
	int err;

	if (!sc->name || !sc->implemented || !sc->func_id)
		return 0;
	if (s->except && spec__find_syscall(s->except, sc->name))
		return 0;
	for (i = 0; i < s->nr_seen; i++)
		if (!strcmp(s->seen[i], sc->name))
			return 0;
	err = KD_GROW(s->seen, s->cap_seen, s->nr_seen + 1);
	if (err || !(s->seen[s->nr_seen] = kd_strdup(sc->name)))
		return -ENOMEM;
	s->nr_seen++;
	err = kdb__get_function_by_id(s->db, sc->func_id, &f);
	if (err)
		return err;
	names = kd_calloc(f->nr_params ? f->nr_params : 1, sizeof(*names));
	if (!names) {
		err = -ENOMEM;
		goto out;
	}
	/* Unnamed parameters get argN; parameter names must be unique. */
	for (i = 0; i < f->nr_params; i++) {
		struct kd_buf b = KD_BUF_INIT;

		if (f->params[i].name && *f->params[i].name)
			err = kd_buf_adds(&b, f->params[i].name);
		else
			err = kd_buf_addf(&b, "arg%zu", i);
		if (err || !(names[i] = kd_buf_detach(&b))) {
			kd_buf_release(&b);
			err = -ENOMEM;
			goto out;
		}
	}
	kd_buf_reset(&s->params);
	kd_buf_reset(&s->notes);
	for (i = 0; i < f->nr_params && !err; i++)
		err = add_param(s, sc->name, &f->params[i], i, &prev_ptr, names);
	if (!err)
		err = kd_buf_addf(s->out, "syscall %s(%s) -> int", sc->name, s->params.s);
	if (!err)
		err = s->notes.len ? kd_buf_addf(s->out, " {\n%s}\n", s->notes.s) :
		      kd_buf_adds(s->out, ";\n");
	if (!err)
		s->count++;
out:
	for (i = 0; names && i < f->nr_params; i++)
		free(names[i]);
	free(names);
	kd_function__free(f);
	return err;
}

int spec__skeleton(struct kdb *db, const struct spec *except, struct kd_buf *out,
		   size_t *count)
{
	struct skel s = { .db = db, .except = except, .out = out, .params = KD_BUF_INIT,
			  .notes = KD_BUF_INIT, .ctype = KD_BUF_INIT };
	size_t i;
	int err;

	err = type_cache__new(db, &s.types);
	if (!err)
		err = kdb__foreach_syscall(db, kdb__arch(db)->native_abi, on_syscall, &s);
	if (count)
		*count = s.count;
	for (i = 0; i < s.nr_seen; i++)
		free(s.seen[i]);
	free(s.seen);
	type_cache__free(s.types);
	kd_buf_release(&s.params);
	kd_buf_release(&s.notes);
	kd_buf_release(&s.ctype);
	return err;
}

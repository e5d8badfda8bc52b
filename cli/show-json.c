// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-diff show --format json: the items of `show` as JSON, for scripts
 * that would otherwise parse the pahole-like text (issue 29). The same
 * lookups as the text printers; the values as the .kabi holds them
 * (offsets in bytes, a bit-field's bit offset inside its storage unit).
 * Names found are counted in s->count, so that "not found" is the text
 * command's error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/show.h"
#include "db/kdb-compat.h"
#include "db/kdb-kernel.h"
#include "db/kdb-uapi.h"
#include "lib/buf.h"
#include "lib/cdecl.h"
#include "lib/json.h"
#include "lib/model.h"

/* "null" for an unknown value (a size of -1, a slot without a number). */
static void kint_or_null(struct kd_json *w, const char *key, int64_t v, bool known)
{
	kd_json_key(w, key);
	if (known)
		kd_json_int(w, v);
	else
		kd_json_null(w);
}

/* The C spelling of type @id, "" when it cannot be written. */
static const char *type_text(struct show_ctx *s, int64_t id, struct kd_buf *b)
{
	kd_buf_reset(b);
	return kd_cdecl(b, id, "", type_cache__lookup, s->tc) ? "" : b->s;
}

static int json_slot(const struct kd_syscall *sc, void *ctx)
{
	struct show_ctx *s = ctx;
	struct kd_buf sig = KD_BUF_INIT;
	int err = sc->func_id ? show_signature(s, sc->func_id, &sig) : 0;

	kd_json_object(s->json, false);
	kd_json_kstr(s->json, "abi", sc->abi);
	kint_or_null(s->json, "nr", sc->nr, sc->nr >= 0);
	kd_json_kstr(s->json, "name", sc->name);
	kd_json_kstr(s->json, "entry", sc->entry);
	kd_json_kbool(s->json, "implemented", sc->implemented);
	kd_json_kstr(s->json, "signature", sc->func_id && !err ? sig.s : NULL);
	kd_json_end(s->json);
	kd_buf_release(&sig);
	s->count++;
	return err;
}

static int json_slot_of_named(const struct kd_syscall *sc, void *ctx)
{
	struct show_ctx *s = ctx;

	if (!s->count++ || (!s->func_id && sc->func_id))
		s->func_id = sc->func_id;
	kd_json_object(s->json, false);
	kd_json_kstr(s->json, "abi", sc->abi);
	kint_or_null(s->json, "nr", sc->nr, sc->nr >= 0);
	kd_json_kstr(s->json, "entry", sc->entry);
	kd_json_end(s->json);
	return 0;
}

/* syscall NAME: {"name", "slots": [...], "signature", "params": [...], "source", ...}. */
static int json_syscall(struct show_ctx *s, const char *name)
{
	struct kd_buf b = KD_BUF_INIT;
	struct kd_function *fn = NULL;
	size_t i;
	int err;

	kd_json_object(s->json, true);
	kd_json_kstr(s->json, "name", name);
	kd_json_key(s->json, "slots");
	kd_json_array(s->json, false);
	err = kdb__foreach_syscall_named(s->db, name, json_slot_of_named, s);
	kd_json_end(s->json);
	if (!err && s->func_id)
		err = kdb__get_function_by_id(s->db, s->func_id, &fn);
	if (!err && fn)
		err = show_signature(s, s->func_id, &b);
	kd_json_kstr(s->json, "signature", fn && !err ? b.s : NULL);
	kd_json_key(s->json, "params");
	kd_json_array(s->json, false);
	for (i = 0; fn && !err && i < fn->nr_params; i++) {
		kd_json_object(s->json, false);
		kd_json_kstr(s->json, "name", fn->params[i].name);
		kd_json_kstr(s->json, "type", fn->params[i].type_text);
		kd_json_end(s->json);
	}
	kd_json_end(s->json);
	kd_json_kstr(s->json, "source", fn ? fn->source : NULL);
	kd_json_kstr(s->json, "decl_file", fn ? fn->decl_file : NULL);
	kint_or_null(s->json, "decl_line", fn ? fn->decl_line : 0, fn && fn->decl_line);
	kd_json_end(s->json);
	kd_function__free(fn);
	kd_buf_release(&b);
	return err;
}

/* One layout: {"kind", "name", "size", "align", "members" or "enumerators", ...}. */
static void json_layout(struct show_ctx *s, const struct kd_type *t)
{
	struct kd_buf b = KD_BUF_INIT;
	size_t i;

	kd_json_object(s->json, true);
	kd_json_kstr(s->json, "kind", kd_kind_name(t->kind));
	kd_json_kstr(s->json, "name", t->name);
	kint_or_null(s->json, "size", t->size, t->size >= 0);
	kint_or_null(s->json, "align", t->align, t->align > 0);
	kd_json_kbool(s->json, "packed", t->flags & KD_TYPE_PACKED);
	if (t->kind == KD_KIND_TYPEDEF)
		kd_json_kstr(s->json, "type", type_text(s, t->ref, &b));
	if (t->kind == KD_KIND_STRUCT || t->kind == KD_KIND_UNION) {
		kd_json_key(s->json, "members");
		kd_json_array(s->json, true);
		for (i = 0; i < t->nr_members; i++) {
			const struct kd_member *m = &t->members[i];
			const struct kd_type *mt = type_cache__get(s->tc, m->type);

			kd_json_object(s->json, false);
			kd_json_kstr(s->json, "name", m->name);
			kd_json_kstr(s->json, "type", type_text(s, m->type, &b));
			kd_json_kint(s->json, "offset", m->offset);
			kint_or_null(s->json, "size", mt ? mt->size : -1, mt && mt->size >= 0);
			if (m->bit_size) {
				kd_json_kint(s->json, "bit_offset", m->bit_offset);
				kd_json_kint(s->json, "bit_size", m->bit_size);
			}
			kd_json_end(s->json);
		}
		kd_json_end(s->json);
	}
	if (t->kind == KD_KIND_ENUM) {
		kd_json_key(s->json, "enumerators");
		kd_json_array(s->json, true);
		for (i = 0; i < t->nr_enumerators; i++) {
			kd_json_object(s->json, false);
			kd_json_kstr(s->json, "name", t->enumerators[i].name);
			kd_json_kint(s->json, "value", t->enumerators[i].value);
			kd_json_end(s->json);
		}
		kd_json_end(s->json);
	}
	kd_json_kstr(s->json, "decl_file", t->decl_file);
	kint_or_null(s->json, "decl_line", t->decl_line, t->decl_line > 0);
	kd_json_end(s->json);
	kd_buf_release(&b);
}

/* @abi NULL: the native layouts; else that compat ABI's header view. */
static int json_types(struct show_ctx *s, const char *abi, const char *kind, const char *name)
{
	int64_t *ids = NULL;
	int n, i;

	n = abi ? kdb__find_compat_types(s->db, abi, kind, name, &ids) :
		  kdb__find_types(s->db, kind, name, &ids);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		const struct kd_type *t = type_cache__get(s->tc, ids[i]);

		if (t)
			json_layout(s, t);
	}
	s->count += n;
	free(ids);
	return type_cache__error(s->tc);
}

static int json_problem(const struct kd_problem *p, void *ctx)
{
	struct show_ctx *s = ctx;

	kd_json_object(s->json, false);
	kd_json_kstr(s->json, "stage", p->stage);
	kd_json_kstr(s->json, "input", p->input);
	kd_json_kstr(s->json, "location", p->location);
	kd_json_kstr(s->json, "message", p->message);
	kd_json_end(s->json);
	s->count++;
	return 0;
}

static int json_constant(const struct kd_constant *c, void *ctx)
{
	struct show_ctx *s = ctx;

	kd_json_object(s->json, false);
	kd_json_kstr(s->json, "name", c->name);
	kd_json_kint(s->json, "value", c->value);
	kd_json_kstr(s->json, "ctype", c->ctype);
	kd_json_kstr(s->json, "expr", c->expr);
	kd_json_kstr(s->json, "file", c->file);
	kint_or_null(s->json, "line", c->line, c->line > 0);
	kd_json_end(s->json);
	s->count++;
	return 0;
}

static int json_ioctl(const struct kd_ioctl *io, void *ctx)
{
	struct show_ctx *s = ctx;
	char *module = NULL;
	int err = io->module_id ? kdb__get_module_name(s->db, io->module_id, &module) : 0;

	kd_json_object(s->json, false);
	kd_json_kstr(s->json, "name", io->name);
	kint_or_null(s->json, "cmd", io->cmd, io->has_cmd);
	kd_json_kstr(s->json, "dir", io->dir);
	kd_json_kint(s->json, "type", io->type_char);
	kd_json_kint(s->json, "nr", io->nr);
	kd_json_kstr(s->json, "argument", io->arg_type_text);
	kint_or_null(s->json, "size", io->size, io->has_size);
	kd_json_kstr(s->json, "module", module);
	kd_json_kstr(s->json, "source", io->source ? io->source : "macro");
	kd_json_kstr(s->json, "file", io->file);
	kint_or_null(s->json, "line", io->line, io->line > 0);
	kd_json_end(s->json);
	free(module);
	s->count++;
	return err;
}

/* A function-like ioctl macro: its fields as values or formulas, all strings. */
static int json_family(const struct kd_ioctl_family *f, void *ctx)
{
	struct show_ctx *s = ctx;

	kd_json_object(s->json, false);
	kd_json_kstr(s->json, "name", f->name);
	kd_json_kstr(s->json, "family", f->params);
	kd_json_kstr(s->json, "dir", f->dir);
	kd_json_kstr(s->json, "type", f->type);
	kd_json_kstr(s->json, "nr", f->nr);
	kd_json_kstr(s->json, "size", f->size);
	kd_json_kstr(s->json, "file", f->file);
	kint_or_null(s->json, "line", f->line, f->line > 0);
	kd_json_end(s->json);
	s->count++;
	return 0;
}

static int count_slot(const struct kd_syscall *sc, void *ctx)
{
	(void)sc;
	((struct show_ctx *)ctx)->count++;
	return 0;
}

/* info: the identity's keys (null when absent) and the tables' row counts. */
static int json_info(struct show_ctx *s)
{
	int i, err = 0;

	kd_json_object(s->json, true);
	for (i = 0; !err && show_info_keys[i]; i++) {
		char *v = NULL;

		err = kdb__get_meta(s->db, show_info_keys[i], &v);
		kd_json_kstr(s->json, show_info_keys[i], v);
		free(v);
	}
	kd_json_key(s->json, "rows");
	kd_json_object(s->json, false);
	for (i = 0; show_info_tables[i]; i++)
		kd_json_kint(s->json, show_info_tables[i], kdb__count(s->db, show_info_tables[i]));
	kd_json_end(s->json);
	kd_json_end(s->json);
	return err;
}

/*
 * @abi names a compat ABI's header view for the type and ioctl items (the
 * caller passes NULL for the native one): the same objects, that ABI's
 * layouts, sizes and numbers.
 */
int show_json_item(struct show_ctx *s, const char *what, const char *name, const char *module,
		   const char *abi)
{
	int err;

	if (abi && !strcmp(what, "ioctls"))
		return kdb__foreach_compat_ioctl(s->db, abi, NULL, json_ioctl, s);
	if (abi && !strcmp(what, "ioctl")) {
		err = kdb__foreach_compat_ioctl(s->db, abi, name, json_ioctl, s);
		return err == -ENOENT ? 0 : err;	/* not found: the caller says so */
	}
	if (!strcmp(what, "info"))
		return json_info(s);
	if (!strcmp(what, "syscalls"))
		return kdb__foreach_syscall(s->db, abi, json_slot, s);
	if (!strcmp(what, "problems"))
		return kdb__foreach_problem(s->db, json_problem, s);
	if (!strcmp(what, "ioctls")) {
		err = kdb__foreach_ioctl(s->db, module, json_ioctl, s);
		/* The families after the commands: they belong to no module. */
		return err || module ? err : kdb__foreach_ioctl_family(s->db, NULL, json_family, s);
	}
	if (!strcmp(what, "syscall")) {
		if (kdb__foreach_syscall_named(s->db, name, count_slot, s) || !s->count)
			return 0;	/* not found: the caller says so */
		s->count = 0;
		return json_syscall(s, name);
	}
	if (!strcmp(what, "vdso"))
		return show_vdso_json(s, abi, name);
	if (!strcmp(what, "ioctl")) {
		err = kdb__get_ioctl(s->db, name, json_ioctl, s);
		return err == -ENOENT ? kdb__foreach_ioctl_family(s->db, name, json_family, s) : err;
	}
	if (!strcmp(what, "const"))
		return kdb__get_constant(s->db, name, json_constant, s);
	return json_types(s, abi, strcmp(what, "type") ? what : NULL, name);
}

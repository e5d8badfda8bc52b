// SPDX-License-Identifier: GPL-2.0-only
/*
 * A spec into a .kabi and back. spec__store() writes the model into the
 * spec_* tables through the DB API (spec/ never sees SQL): relational rows
 * for queries and joins with the extracted kernel, plus every file's text
 * and hash so that the DB records exactly which contract it holds.
 * spec__load_db() rebuilds the model by parsing those texts again, so the
 * tables never need to carry every detail of the AST.
 */
#include "spec/spec_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-uapi.h"
#include "db/kdb-spec.h"
#include "lib/err.h"

struct store {
	struct kdb *db;
	struct kd_buf a, b, c;	/* scratch for canonical texts */
};

/* Canonical text of @e into @b (reset first); NULL when @e is NULL. */
static const char *expr_text(struct kd_buf *b, const struct spec_expr *e, int *err)
{
	kd_buf_reset(b);
	if (!e)
		return NULL;
	if (spec_expr__format(e, b))
		*err = -ENOMEM;
	return b->s;
}

static int get_const(const struct kd_constant *c, void *ctx)
{
	*(uint64_t *)ctx = (uint64_t)c->value;
	return 0;
}

/* Names in explicit values are UAPI constants of the DB. */
static int lookup_const(const char *name, uint64_t *value, void *ctx)
{
	return kdb__get_constant(ctx, name, get_const, value) ? -ENOENT : 0;
}

static int store_arg(struct store *st, const char *owner_kind, const char *owner, int pos,
		     const char *name, const struct spec_arg *a, bool reserved, bool out,
		     const char *since, int line)
{
	struct kdb_spec_arg row = {
		.owner_kind = owner_kind, .owner = owner, .pos = pos, .name = name,
		.reserved = reserved, .out_only = out, .since = since, .line = line,
	};
	size_t i;
	int err = 0;

	if (a) {
		row.kind = spec_kind_name(a->kind);
		row.ref = a->ref;
		row.dir = a->kind == SPEC_K_PTR ? spec_dir_name(a->dir) : NULL;
		row.is_array = a->array;
		row.optional = a->optional;
		row.range_lo = expr_text(&st->a, a->lo, &err);
		row.range_hi = expr_text(&st->b, a->hi, &err);
		kd_buf_reset(&st->c);
		for (i = 0; i < a->nr_specials; i++)
			if ((i && kd_buf_addc(&st->c, ' ')) || kd_buf_adds(&st->c, a->specials[i]))
				err = -ENOMEM;
		row.specials = a->nr_specials ? st->c.s : NULL;
	}
	return err ? err : kdb__put_spec_arg(st->db, &row);
}

static int store_set(struct store *st, const struct spec_set *set)
{
	struct kdb_spec_set row = {
		.name = set->name, .kind = set->kind == SPEC_SET_FLAGS ? "flags" : "enum",
		.extends = set->extends,
		.unknown = set->unknown == SPEC_UNKNOWN_IGNORE ? "ignore" : "reject",
		.since = set->since, .file = set->loc.file, .line = set->loc.line,
	};
	size_t i;
	int err;

	err = kdb__put_spec_set(st->db, &row);
	for (i = 0; !err && i < set->nr_values; i++) {
		const struct spec_value *v = &set->values[i];
		struct kdb_spec_value vr = {
			.set = set->name, .idx = (int)i, .name = v->name, .grp = v->group,
			.grp_mask = v->group >= 0 ? set->groups[v->group].mask : NULL,
			.since = v->since, .line = v->loc.line,
		};
		uint64_t val;

		if (v->value) {
			vr.expr = expr_text(&st->a, v->value, &err);
			vr.value_source = "explicit";
			int rc = spec_value__eval(v, lookup_const, st->db, &val);

			if (rc == -KD_ESYNTAX)
				return rc;
			if (!rc) {
				vr.has_value = true;
				vr.value = (int64_t)val;
			}
		} else if (!kdb__get_constant(st->db, v->name, get_const, &val)) {
			vr.value_source = "uapi";
			vr.has_value = true;
			vr.value = (int64_t)val;
		}
		if (!err)
			err = kdb__put_spec_value(st->db, &vr);
	}
	return err;
}

static int store_call(struct store *st, const struct spec_call *c)
{
	const char *kind = c->kind == SPEC_SYSCALL ? "syscall" : "ioctl";
	struct kdb_spec_call row = {
		.kind = kind, .name = c->name, .ret = spec_ret_name(c->ret),
		.ret_fd_kind = c->ret_ref, .since = c->since, .file = c->loc.file,
		.line = c->loc.line,
	};
	struct kd_buf notes = KD_BUF_INIT;
	size_t i;
	int err = 0;

	if (c->kind == SPEC_IOCTL) {
		row.fd_kind = c->fd_kind;
		row.dir = spec_dir_name(c->dir);
		row.arg_type = c->arg_type;
	}
	for (i = 0; !err && i < c->nr_notes; i++)
		if ((i && kd_buf_addc(&notes, '\n')) || kd_buf_adds(&notes, c->notes[i]))
			err = -ENOMEM;
	row.notes = c->nr_notes ? notes.s : NULL;
	if (!err)
		err = kdb__put_spec_call(st->db, &row);
	for (i = 0; !err && i < c->nr_params; i++)
		err = store_arg(st, kind, c->name, (int)i, c->params[i].name, &c->params[i].arg,
				false, false, NULL, c->params[i].loc.line);
	for (i = 0; !err && i < c->nr_errnos; i++) {
		const struct spec_errno *e = &c->errnos[i];
		struct kdb_spec_errno er = {
			.call_kind = kind, .call_name = c->name, .idx = (int)i,
			.errno_name = e->name, .text = e->text, .since = e->since,
			.line = e->loc.line,
		};

		er.cond = expr_text(&st->a, e->when, &err);
		if (!err)
			err = kdb__put_spec_errno(st->db, &er);
	}
	kd_buf_release(&notes);
	return err;
}

static int store_struct(struct store *st, const struct spec_struct *s)
{
	struct kdb_spec_struct row = {
		.name = s->name, .is_union = s->is_union, .extensible = s->extensible,
		.padding_zero = s->padding_zero, .min_size = s->min_size, .since = s->since,
		.file = s->loc.file, .line = s->loc.line,
	};
	size_t i;
	int err;

	err = kdb__put_spec_struct(st->db, &row);
	for (i = 0; !err && i < s->nr_sizes; i++) {
		struct kdb_spec_size sz = {
			.struct_name = s->name, .idx = (int)i, .name = s->sizes[i].name,
			.size = (int64_t)s->sizes[i].size, .since = s->sizes[i].since,
		};

		err = kdb__put_spec_size(st->db, &sz);
	}
	for (i = 0; !err && i < s->nr_fields; i++) {
		const struct spec_field *f = &s->fields[i];

		err = store_arg(st, "struct", s->name, (int)i, f->name, f->has_arg ? &f->arg : NULL,
				f->reserved, f->out, f->since, f->loc.line);
	}
	return err;
}

int spec__store(const struct spec *s, struct kdb *db)
{
	struct store st = { .db = db, .a = KD_BUF_INIT, .b = KD_BUF_INIT, .c = KD_BUF_INIT };
	struct kd_buf names = KD_BUF_INIT;
	size_t i;
	int err;

	err = kdb__clear_spec(db);
	for (i = 0; !err && i < s->nr_files; i++) {
		const struct spec_file *f = &s->files[i];
		struct kdb_spec_file row = {
			.name = f->name, .path = f->path, .hash = f->hash_hex,
			.bytes = (int64_t)f->bytes, .text = s->texts[i],
		};

		err = kdb__put_spec_file(db, (int)i, &row);
		if (!err && ((i && kd_buf_addc(&names, ' ')) || kd_buf_adds(&names, f->name)))
			err = -ENOMEM;
	}
	if (!err)
		err = kdb__set_meta(db, "spec_hash", s->hash_hex);
	if (!err)
		err = kdb__set_meta(db, "spec_files", names.s);
	for (i = 0; !err && i < s->nr_fdkinds; i++) {
		const struct spec_fdkind *k = &s->fdkinds[i];
		struct kdb_spec_fdkind row = { .name = k->name, .text = k->text,
					       .file = k->loc.file, .line = k->loc.line };

		err = kdb__put_spec_fdkind(db, &row);
	}
	for (i = 0; !err && i < s->nr_sets; i++)
		err = store_set(&st, &s->sets[i]);
	for (i = 0; !err && i < s->nr_calls; i++)
		err = store_call(&st, &s->calls[i]);
	for (i = 0; !err && i < s->nr_structs; i++)
		err = store_struct(&st, &s->structs[i]);
	/* The contract's ioctls that the headers give only a number (TCGETS). */
	if (!err && (err = kdb__add_number_ioctls(db)) > 0)
		err = 0;
	kd_buf_release(&names);
	kd_buf_release(&st.a);
	kd_buf_release(&st.b);
	kd_buf_release(&st.c);
	return err;
}

static int parse_stored(const struct kdb_spec_file *f, void *ctx)
{
	struct spec *s = ctx;
	int err;

	err = spec__parse_buffer(s, f->name, f->text, strlen(f->text));
	return err == -KD_ESYNTAX ? 0 : err;	/* counted; all files are parsed */
}

int spec__load_db(struct kdb *db, struct spec **out)
{
	struct spec *s = NULL;
	int err;

	*out = NULL;
	err = spec__new(&s);
	if (err)
		return err;
	s->no_includes = true;	/* every included file is stored too */
	err = kdb__foreach_spec_file(db, parse_stored, s);
	if (!err && !s->nr_files)
		err = -ENOENT;
	if (!err)
		err = spec__resolve(s);
	if (!err && s->nr_errors)
		err = -KD_ESYNTAX;
	if (err) {
		spec__free(s);
		return err;
	}
	*out = s;
	return 0;
}

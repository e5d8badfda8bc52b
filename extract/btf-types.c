// SPDX-License-Identifier: GPL-2.0-only
/*
 * BTF -> kd_type, into the table the DWARF reader fills, in the form that
 * reader gives: a struct's members with byte offsets and bitfields as
 * absolute bits (type-layout.c settles their storage units), an array per
 * dimension, an enum over its underlying base type, function types with
 * unnamed parameters. Where BTF says less than DWARF the gap is fixed
 * here, once:
 * - an enum has a size and a signedness, not DWARF's underlying type: the
 *   base type gcc would name (unsigned int, int, ...) stands in for it;
 * - `T x[]` and `T x[0]` are both 0 elements: the last member of a struct
 *   is taken for a flexible array, any other for [0];
 * - btf_type_tag ("user") is not a C type: looked through;
 * - no declaration lines, no explicit alignment (`__aligned`): alignment
 *   is the natural one, as type-layout.c computes it without DW_AT_alignment.
 * The ids of hostile BTF are checked here (libbpf checks the format, not
 * every reference).
 */
#include "extract/btf_internal.h"
#include "extract/named_internal.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/str.h"

struct name_ent {
	const char *name;	/* libbpf's string */
	unsigned kind;
	unsigned id;
};

struct synth_base {
	const char *name;
	int64_t id;
};

struct xbtf {
	struct kelf *k;
	struct xtable *xt;
	struct btf *btf;
	unsigned nr;		/* btf__type_cnt(): ids 1..nr-1 */
	int64_t *map;		/* BTF id -> table id, 0 not yet asked for */
	unsigned *todo;
	size_t nr_todo, todo_cap;
	struct name_ent *names;	/* sorted by name, kind */
	size_t nr_names;
	struct synth_base synth[16];
	size_t nr_synth;
};

/* libbpf's diagnostics go the one way every message goes. */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	struct kd_buf b = KD_BUF_INIT;

	(void)level;
	if (!kd_buf_vaddf(&b, fmt, ap)) {
		while (b.len && b.s[b.len - 1] == '\n')
			b.s[--b.len] = '\0';
		kd_debug("libbpf: %s", b.s);
	}
	kd_buf_release(&b);
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	const struct name_ent *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int index_names(struct xbtf *b)
{
	unsigned i;

	b->names = kd_calloc(b->nr ? b->nr : 1, sizeof(*b->names));
	if (!b->names)
		return -ENOMEM;
	for (i = 1; i < b->nr; i++) {
		const struct btf_type *t = btf__type_by_id(b->btf, i);
		const char *name = t ? btf__name_by_offset(b->btf, t->name_off) : NULL;

		if (!name || !*name)
			continue;
		b->names[b->nr_names++] = (struct name_ent){ name, btf_kind(t), i };
	}
	if (b->nr_names)
		qsort(b->names, b->nr_names, sizeof(*b->names), cmp_name);
	return 0;
}

unsigned xbtf_find(const struct xbtf *b, const char *name, unsigned kind)
{
	size_t lo = 0, hi = b->nr_names;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(b->names[mid].name, name);

		if (c < 0 || (!c && b->names[mid].kind < kind))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < b->nr_names && !strcmp(b->names[lo].name, name) && b->names[lo].kind == kind)
		return b->names[lo].id;
	return 0;
}

int xbtf_new(struct kelf *k, struct xtable *xt, struct xbtf **out)
{
	struct kelf_section *s = kelf_section_by_name(k, ".BTF");
	const unsigned char *data;
	struct xbtf *b;
	int err;

	*out = NULL;
	if (!s) {
		kd_err("%s: no .BTF section: the kernel was built without CONFIG_DEBUG_INFO_BTF",
		       k->path);
		return -KD_ENODEBUG;
	}
	data = kelf_section_data(k, s);
	if (!data)
		return -KD_EFORMAT;
	if (s->size > UINT32_MAX) {
		kd_err("%s: .BTF of %zu bytes is larger than BTF can be", k->path, s->size);
		return -KD_EFORMAT;
	}
	b = kd_calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->k = k;
	b->xt = xt;
	libbpf_set_print(libbpf_print);
	b->btf = btf__new(data, (__u32)s->size);
	if (!b->btf) {
		err = errno ? -errno : -KD_EFORMAT;
		kd_err("%s: unreadable .BTF: %s", k->path,
		       err == -ENOMEM ? "out of memory" : "libbpf refuses it (damaged or of an unknown version)");
		if (err != -ENOMEM)
			err = -KD_EFORMAT;
		goto fail;
	}
	b->nr = btf__type_cnt(b->btf);
	b->map = kd_calloc(b->nr ? b->nr : 1, sizeof(*b->map));
	if (!b->map) {
		err = -ENOMEM;
		goto fail;
	}
	err = index_names(b);
	if (err)
		goto fail;
	*out = b;
	return 0;
fail:
	xbtf_free(b);
	return err;
}

void xbtf_free(struct xbtf *b)
{
	if (!b)
		return;
	btf__free(b->btf);
	free(b->map);
	free(b->todo);
	free(b->names);
	free(b);
}

const struct btf *xbtf_btf(const struct xbtf *b)
{
	return b->btf;
}

/* BTF type @id, or NULL with a problem row when it is no type of this BTF. */
static const struct btf_type *type_at(struct xbtf *b, unsigned id)
{
	const struct btf_type *t = id && id < b->nr ? btf__type_by_id(b->btf, id) : NULL;

	if (!t)
		xt_problem(b->xt, 0, "BTF refers to type %u, which it does not have", id);
	return t;
}

int xbtf_type(struct xbtf *b, unsigned btf_id, int64_t *id)
{
	const struct btf_type *t;
	int hops, err;

	*id = 0;
	/* btf_type_tag("user") qualifies a pointee for BPF; C has no such type. */
	for (hops = 0; btf_id; hops++) {
		if (!(t = type_at(b, btf_id)) || hops > 16)
			return 0;
		if (btf_kind(t) != BTF_KIND_TYPE_TAG)
			break;
		btf_id = t->type;
	}
	if (!btf_id)
		return 0;
	if (b->map[btf_id]) {
		*id = b->map[btf_id];
		return 0;
	}
	err = KD_GROW(b->todo, b->todo_cap, b->nr_todo + 1);
	if (!err)
		err = xt_new(b->xt, KD_KIND_VOID, id);
	if (err)
		return err;
	b->map[btf_id] = *id;
	b->todo[b->nr_todo++] = btf_id;
	return 0;
}

int xbtf_synth(struct xbtf *b, enum kd_kind kind, int64_t ref, int64_t *id)
{
	struct xtype *x;
	int err = xt_new(b->xt, kind, id);

	if (err)
		return err;
	x = xt_get(b->xt, *id);
	x->t.ref = ref;
	if (kind == KD_KIND_POINTER)
		x->t.size = 8;
	return 0;
}

/* The base type gcc names @name, of @size bytes: BTF's own, else one made here. */
static int synth_base(struct xbtf *b, const char *name, int64_t size, bool is_signed, int64_t *id)
{
	unsigned bid = xbtf_find(b, name, BTF_KIND_INT);
	struct xtype *x;
	size_t i;
	int err;

	if (bid)
		return xbtf_type(b, bid, id);
	for (i = 0; i < b->nr_synth; i++)
		if (!strcmp(b->synth[i].name, name)) {
			*id = b->synth[i].id;
			return 0;
		}
	err = xt_new(b->xt, KD_KIND_BASE, id);
	if (err)
		return err;
	x = xt_get(b->xt, *id);
	x->t.size = size;
	x->t.flags = is_signed ? KD_TYPE_SIGNED : 0;
	if (!(x->t.name = kd_strdup(name)))
		return -ENOMEM;
	if (b->nr_synth < sizeof(b->synth) / sizeof(b->synth[0]))
		b->synth[b->nr_synth++] = (struct synth_base){ name, *id };
	return 0;
}

static const char *const base_names[2][4] = {
	{ "unsigned char", "short unsigned int", "unsigned int", "long unsigned int" },
	{ "signed char", "short int", "int", "long int" },
};

int xbtf_base_type(struct xbtf *b, const char *name, int64_t *id)
{
	static const int64_t sizes[4] = { 1, 2, 4, 8 };
	size_t s, i;

	for (s = 0; s < 2; s++)
		for (i = 0; i < 4; i++)
			if (!strcmp(base_names[s][i], name))
				return synth_base(b, name, sizes[i], s, id);
	*id = 0;
	return xbtf_find(b, name, BTF_KIND_INT) ? xbtf_type(b, xbtf_find(b, name, BTF_KIND_INT), id) : 0;
}

/* An enum's underlying type as gcc gives it: by size and sign. */
static int enum_base(struct xbtf *b, int64_t size, bool is_signed, int64_t *id)
{
	int i = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : -1;

	*id = 0;
	if (i < 0)
		return 0;
	return synth_base(b, base_names[is_signed][i], size, is_signed, id);
}

static int set_name(struct xbtf *b, struct xtype *x, const struct btf_type *t)
{
	const char *name = btf__name_by_offset(b->btf, t->name_off);

	if (!name || !*name)
		return 0;
	x->t.name = kd_strdup(name);
	return x->t.name ? 0 : -ENOMEM;
}

static int read_members(struct xbtf *b, int64_t id, const struct btf_type *t)
{
	const struct btf_member *m = btf_members(t);
	unsigned i, n = btf_vlen(t);
	bool kflag = btf_kflag(t);
	int err;

	for (i = 0; i < n; i++, m++) {
		const char *name = btf__name_by_offset(b->btf, m->name_off);
		uint32_t bits = kflag ? BTF_MEMBER_BIT_OFFSET(m->offset) : m->offset;
		uint32_t width = kflag ? BTF_MEMBER_BITFIELD_SIZE(m->offset) : 0;
		const struct btf_type *mt = m->type < b->nr ? btf__type_by_id(b->btf, m->type) : NULL;
		struct kd_member *km;
		struct xtype *x;
		int64_t type;

		err = xbtf_type(b, m->type, &type);
		if (err)
			return err;
		/* Without kflag a bitfield is an int member narrower than its type. */
		if (!kflag && mt && btf_kind(mt) == BTF_KIND_INT &&
		    BTF_INT_BITS(*(const uint32_t *)(mt + 1)) < mt->size * 8u)
			width = BTF_INT_BITS(*(const uint32_t *)(mt + 1));
		if (!width && bits % 8) {
			xt_problem(b->xt, 0, "member %s of %s lies at bit %u, inside a byte; left out",
				   name && *name ? name : "(anonymous)",
				   xt_get(b->xt, id)->t.name ? xt_get(b->xt, id)->t.name : "(anonymous)",
				   bits);
			continue;
		}
		x = xt_get(b->xt, id);
		err = kd_grow_array((void **)&x->t.members, &x->members_cap, x->t.nr_members + 1,
				    sizeof(*km));
		if (err)
			return err;
		km = &x->t.members[x->t.nr_members];
		memset(km, 0, sizeof(*km));
		if (name && *name && !(km->name = kd_strdup(name)))
			return -ENOMEM;
		x->t.nr_members++;
		km->type = type;
		if (width) {
			km->bit_size = (int)width;
			km->bit_offset = (int)bits;
			km->offset = XT_BITFIELD_PENDING;
		} else {
			km->offset = bits / 8;
		}
	}
	return 0;
}

/* A struct's last member of 0 elements is taken for a flexible array (see the head). */
static void mark_flexible(struct xbtf *b, int64_t id)
{
	struct xtype *x = xt_get(b->xt, id), *last;

	if (!x->t.nr_members)
		return;
	last = xt_get(b->xt, x->t.members[x->t.nr_members - 1].type);
	if (last && last->t.kind == KD_KIND_ARRAY && last->t.count == 0)
		last->t.count = KD_ARRAY_FLEXIBLE;
}

static int read_enum(struct xbtf *b, int64_t id, const struct btf_type *t)
{
	unsigned i, n = btf_vlen(t);
	bool is64 = btf_kind(t) == BTF_KIND_ENUM64, is_signed = btf_kflag(t);
	struct xtype *x;
	int64_t ref;
	int err;

	for (i = 0; !is_signed && i < n; i++)
		is_signed = is64 ? (int64_t)btf_enum64_value(btf_enum64(t) + i) < 0 :
				   btf_enum(t)[i].val < 0;
	err = enum_base(b, t->size, is_signed, &ref);
	if (err)
		return err;
	x = xt_get(b->xt, id);
	x->t.ref = ref;
	x->t.enumerators = kd_calloc(n ? n : 1, sizeof(*x->t.enumerators));
	if (!x->t.enumerators)
		return -ENOMEM;
	x->enumerators_cap = n ? n : 1;
	for (i = 0; i < n; i++) {
		struct kd_enumerator *e = &x->t.enumerators[i];
		const char *name = btf__name_by_offset(b->btf, is64 ? btf_enum64(t)[i].name_off :
							       btf_enum(t)[i].name_off);

		e->name = kd_strdup(name && *name ? name : "?");
		if (!e->name)
			return -ENOMEM;
		x->t.nr_enumerators++;
		if (is64)
			e->value = (int64_t)btf_enum64_value(btf_enum64(t) + i);
		else
			e->value = is_signed ? (int64_t)btf_enum(t)[i].val :
					       (int64_t)(uint32_t)btf_enum(t)[i].val;
	}
	return 0;
}

static int read_proto(struct xbtf *b, int64_t id, const struct btf_type *t)
{
	const struct btf_param *p = btf_params(t);
	unsigned i, n = btf_vlen(t);
	int64_t ref;
	int err = xbtf_type(b, t->type, &ref);

	if (err)
		return err;
	xt_get(b->xt, id)->t.ref = ref;
	for (i = 0; i < n; i++, p++) {
		struct xtype *x;
		int64_t type;

		if (!p->type && i + 1 == n) {
			xt_get(b->xt, id)->t.flags |= KD_TYPE_VARIADIC;
			break;
		}
		err = xbtf_type(b, p->type, &type);
		if (err)
			return err;
		x = xt_get(b->xt, id);
		err = kd_grow_array((void **)&x->t.members, &x->members_cap, x->t.nr_members + 1,
				    sizeof(struct kd_member));
		if (err)
			return err;
		memset(&x->t.members[x->t.nr_members], 0, sizeof(struct kd_member));
		x->t.members[x->t.nr_members].type = type;
		x->t.members[x->t.nr_members].offset = -1;
		x->t.nr_members++;
	}
	return 0;
}

static int read_type(struct xbtf *b, unsigned bid)
{
	const struct btf_type *t = btf__type_by_id(b->btf, bid);
	int64_t id = b->map[bid], ref;
	struct xtype *x = xt_get(b->xt, id);
	int err;

	err = set_name(b, x, t);
	if (err)
		return err;
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		x->t.kind = KD_KIND_BASE;
		x->t.size = t->size;
		if (BTF_INT_ENCODING(*(const uint32_t *)(t + 1)) & BTF_INT_SIGNED)
			x->t.flags |= KD_TYPE_SIGNED;
		break;
	case BTF_KIND_FLOAT:
		x->t.kind = KD_KIND_BASE;
		x->t.size = t->size;
		x->t.flags |= KD_TYPE_SIGNED;
		break;
	case BTF_KIND_PTR:
		x->t.kind = KD_KIND_POINTER;
		x->t.size = 8;
		err = xbtf_type(b, t->type, &ref);
		if (!err)
			xt_get(b->xt, id)->t.ref = ref;
		break;
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(t);

		x->t.kind = KD_KIND_ARRAY;
		x->t.count = a->nelems;
		err = xbtf_type(b, a->type, &ref);
		if (!err)
			xt_get(b->xt, id)->t.ref = ref;
		break;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		x->t.kind = btf_kind(t) == BTF_KIND_STRUCT ? KD_KIND_STRUCT : KD_KIND_UNION;
		x->t.size = t->size;
		err = read_members(b, id, t);
		break;
	case BTF_KIND_FWD:
		x->t.kind = btf_kflag(t) ? KD_KIND_UNION : KD_KIND_STRUCT;
		x->t.flags |= KD_TYPE_DECLARATION;
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		x->t.kind = KD_KIND_ENUM;
		x->t.size = t->size;
		err = read_enum(b, id, t);
		break;
	case BTF_KIND_FUNC_PROTO:
		x->t.kind = KD_KIND_FUNC;
		err = read_proto(b, id, t);
		break;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
		x->t.kind = btf_kind(t) == BTF_KIND_TYPEDEF ? KD_KIND_TYPEDEF :
			    btf_kind(t) == BTF_KIND_CONST ? KD_KIND_CONST :
			    btf_kind(t) == BTF_KIND_VOLATILE ? KD_KIND_VOLATILE : KD_KIND_RESTRICT;
		err = xbtf_type(b, t->type, &ref);
		if (!err)
			xt_get(b->xt, id)->t.ref = ref;
		break;
	default:	/* FUNC, VAR, DATASEC, DECL_TAG: no C type of a value */
		xt_problem(b->xt, 0, "BTF kind %u (type %u) used as a type", btf_kind(t), bid);
		x->t.kind = KD_KIND_BASE;
		if (!x->t.name && !(x->t.name = kd_strdup("?")))
			err = -ENOMEM;
		break;
	}
	return err;
}

int xbtf_drain(struct xbtf *b)
{
	size_t i;
	int err;

	while (b->nr_todo) {
		err = read_type(b, b->todo[--b->nr_todo]);
		if (err)
			return err;
	}
	/* After every member is known: the flexible arrays. */
	for (i = 0; i < b->xt->n; i++)
		if (b->xt->v[i].t.kind == KD_KIND_STRUCT)
			mark_flexible(b, (int64_t)i + 1);
	return 0;
}

int xbtf_find_named(struct xbtf *b, const struct name_set *set, int64_t *found)
{
	size_t i, n = name_set_count(set);
	int err = 0, nr = 0;

	for (i = 0; !err && i < n; i++) {
		const char *spelling = name_set_at(set, i), *name = spelling;
		unsigned id = 0;

		if (found[i]) {
			nr++;
			continue;
		}
		if (kd_skip_prefix(spelling, "struct ", &name))
			id = xbtf_find(b, name, BTF_KIND_STRUCT);
		else if (kd_skip_prefix(spelling, "union ", &name))
			id = xbtf_find(b, name, BTF_KIND_UNION);
		else if (kd_skip_prefix(spelling, "enum ", &name))
			id = xbtf_find(b, name, BTF_KIND_ENUM) ?: xbtf_find(b, name, BTF_KIND_ENUM64);
		else
			id = xbtf_find(b, name, BTF_KIND_TYPEDEF);
		if (!id)
			continue;
		err = xbtf_type(b, id, &found[i]);
		nr += !err;
	}
	return err ? err : nr;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Syscall signatures without DWARF. BTF keeps a FUNC only for functions
 * the compiler emitted out of line; SYSCALL_DEFINEn's __do_sys_NAME is
 * usually inlined, so most syscalls have none (about a quarter do on
 * 6.12), and __se_sys_NAME takes every argument as a long. The rest come
 * from ftrace's metadata, which CONFIG_FTRACE_SYSCALLS keeps in the image
 * for every SYSCALL_DEFINE: __syscall_meta__NAME, a struct
 * syscall_metadata whose nb_args, types[] and args[] give the parameters
 * as the source spells them. Its layout is read from BTF itself, and each
 * type string is parsed and resolved against BTF into the same type a
 * DWARF signature has. COMPAT_SYSCALL_DEFINE has no metadata: a compat
 * function without a FUNC has no signature (a coverage gap, counted).
 */
#include "extract/btf_internal.h"

#include <bpf/btf.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/str.h"

/* A C type as ftrace spells it ("const char *", "struct open_how *") as a table id; 0 unknown. */
static int xbtf_parse_type(struct xbtf *b, const char *text, int64_t *id);

#define META_MAX_ARGS 6		/* syscalls take at most six */
#define META_STR_MAX 256

static int add_param(struct xfunc *f, size_t *cap, const char *name)
{
	int err = KD_GROW(f->params, *cap, f->nr_params + 1);

	if (err)
		return err;
	memset(&f->params[f->nr_params], 0, sizeof(f->params[0]));
	if (name && *name && !(f->params[f->nr_params].name = kd_strdup(name)))
		return -ENOMEM;
	f->nr_params++;
	return 0;
}

/* Is BTF type @id "const struct pt_regs *"? (type tags looked through) */
static bool is_pt_regs_pointer(const struct btf *btf, unsigned id)
{
	const struct btf_type *t;
	bool pointer = false;
	int hops;

	for (hops = 0; hops < 8 && (t = btf__type_by_id(btf, id)); hops++) {
		switch (btf_kind(t)) {
		case BTF_KIND_PTR:
			if (pointer)
				return false;
			pointer = true;
			break;
		case BTF_KIND_CONST:
		case BTF_KIND_TYPE_TAG:
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_FWD: {
			const char *n = btf__name_by_offset(btf, t->name_off);

			return pointer && n && !strcmp(n, "pt_regs");
		}
		default:
			return false;
		}
		id = t->type;
	}
	return false;
}

/* The signature of BTF FUNC @func_id. */
static int from_func(struct xbtf *b, struct xfunc *f, unsigned func_id)
{
	const struct btf *btf = xbtf_btf(b);
	const struct btf_type *fn = btf__type_by_id(btf, func_id);
	const struct btf_type *proto = fn ? btf__type_by_id(btf, fn->type) : NULL;
	const struct btf_param *p;
	size_t cap = 0;
	unsigned i;
	int err;

	if (!proto || btf_kind(proto) != BTF_KIND_FUNC_PROTO)
		return 0;	/* not found: the metadata may answer */
	err = xbtf_type(b, proto->type, &f->ret);
	p = btf_params(proto);
	/*
	 * SYSCALL_DEFINE0's __do_sys_ keeps its ignored pt_regs parameter: no
	 * arguments, and pt_regs is not queued, as with DWARF.
	 */
	if (btf_vlen(proto) == 1 && is_pt_regs_pointer(btf, p->type))
		p++, i = 1;
	else
		i = 0;
	for (; !err && i < btf_vlen(proto); i++, p++) {
		if (!p->type)
			break;	/* variadic: no syscall is */
		err = add_param(f, &cap, btf__name_by_offset(btf, p->name_off));
		if (!err)
			err = xbtf_type(b, p->type, &f->params[f->nr_params - 1].type);
	}
	if (!err) {
		f->source = "btf";
		f->found = true;
	}
	return err;
}

/* Byte offset of member @name of struct @sid, -1 when it has none (or a bitfield). */
static int64_t member_offset(const struct btf *btf, unsigned sid, const char *name)
{
	const struct btf_type *t = btf__type_by_id(btf, sid);
	const struct btf_member *m;
	unsigned i;

	if (!t || btf_kind(t) != BTF_KIND_STRUCT)
		return -1;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = btf__name_by_offset(btf, m->name_off);
		uint32_t bits = btf_kflag(t) ? BTF_MEMBER_BIT_OFFSET(m->offset) : m->offset;

		if (n && !strcmp(n, name))
			return btf_member_bitfield_size(t, i) || bits % 8 ? -1 : (int64_t)bits / 8;
	}
	return -1;
}

struct meta_layout {
	int64_t nb_args, types, args;	/* byte offsets in struct syscall_metadata */
	bool known;
};

static void meta_layout(struct xbtf *b, struct meta_layout *l)
{
	unsigned sid = xbtf_find(b, "syscall_metadata", BTF_KIND_STRUCT);

	memset(l, 0, sizeof(*l));
	if (!sid)
		return;
	l->nb_args = member_offset(xbtf_btf(b), sid, "nb_args");
	l->types = member_offset(xbtf_btf(b), sid, "types");
	l->args = member_offset(xbtf_btf(b), sid, "args");
	l->known = l->nb_args >= 0 && l->types >= 0 && l->args >= 0;
}

/* A C string at @addr, bounded. */
static const char *string_at(struct kelf *k, uint64_t addr)
{
	const char *p = (const char *)kelf_read_addr(k, addr, 1);
	size_t i;

	for (i = 0; p && i < META_STR_MAX; i++) {
		const char *q = (const char *)kelf_read_addr(k, addr + i, 1);

		if (!q)
			return NULL;
		if (!*q)
			return p;
	}
	return NULL;
}

/* The parameters of ftrace's metadata for @f; f->found stays false when there is none. */
static int from_metadata(struct xbtf *b, struct kelf *k, const struct meta_layout *l,
			 struct xfunc *f)
{
	struct kd_buf sym = KD_BUF_INIT;
	const struct kelf_symbol *meta;
	const unsigned char *p;
	uint64_t types, args;
	size_t cap = 0;
	int32_t nb;
	int i, err = 0;

	if (!l->known || !kd_starts_with(f->name, "sys_"))
		return 0;
	err = kd_buf_addf(&sym, "__syscall_meta_%s", f->name + 3);
	if (err)
		return err;
	meta = kelf_symbol_by_name(k, sym.s);
	kd_buf_release(&sym);
	if (!meta)
		return 0;
	p = kelf_read_addr(k, meta->addr + (uint64_t)l->nb_args, 4);
	if (!p)
		return 0;
	memcpy(&nb, p, 4);
	if (nb < 0 || nb > META_MAX_ARGS)
		return 0;	/* no syscall's: not metadata to trust */
	if (nb && ((err = kelf_read_word(k, meta->addr + (uint64_t)l->types, &types, meta->name)) ||
		   (err = kelf_read_word(k, meta->addr + (uint64_t)l->args, &args, meta->name))))
		return err;
	for (i = 0; i < nb; i++) {
		uint64_t ta, aa;
		const char *ts, *as;
		struct xparam *xp;

		if ((err = kelf_read_word(k, types + 8 * (uint64_t)i, &ta, meta->name)) ||
		    (err = kelf_read_word(k, args + 8 * (uint64_t)i, &aa, meta->name)))
			return err;
		ts = string_at(k, ta);
		as = string_at(k, aa);
		if (!ts || !as)
			return 0;	/* unreadable: no signature rather than half of one */
		err = add_param(f, &cap, as);
		if (err)
			return err;
		xp = &f->params[f->nr_params - 1];
		err = xbtf_parse_type(b, ts, &xp->type);
		if (!err && !xp->type && !(xp->type_text = kd_strdup(ts)))
			err = -ENOMEM;
		if (err)
			return err;
	}
	/* SYSCALL_DEFINE returns long; the metadata does not say so. */
	err = xbtf_base_type(b, "long int", &f->ret);
	if (!err) {
		f->source = "metadata";
		f->found = true;
	}
	return err;
}

/* Drop a half-read signature (an unreadable metadata string after some parameters). */
static void reset_func(struct xfunc *f)
{
	size_t i;

	for (i = 0; i < f->nr_params; i++) {
		free(f->params[i].name);
		free(f->params[i].type_text);
	}
	free(f->params);
	f->params = NULL;
	f->nr_params = 0;
	f->ret = 0;
}

int xbtf_read_signatures(struct xsyscalls *s, struct xbtf *b, struct kelf *k,
			 size_t *from_func_n, size_t *from_meta_n)
{
	struct kd_buf name = KD_BUF_INIT;
	struct meta_layout l;
	size_t i;
	int err = 0;

	*from_func_n = *from_meta_n = 0;
	meta_layout(b, &l);
	for (i = 0; !err && i < s->nr_funcs; i++) {
		struct xfunc *f = &s->funcs[i];
		unsigned id;

		kd_buf_reset(&name);
		if ((err = kd_buf_addf(&name, "__do_%s", f->name)))
			break;
		id = xbtf_find(b, name.s, BTF_KIND_FUNC);
		if (id && (err = from_func(b, f, id)))
			break;
		if (f->found) {
			(*from_func_n)++;
			continue;
		}
		reset_func(f);
		err = from_metadata(b, k, &l, f);
		if (!err && f->found)
			(*from_meta_n)++;
		else if (!err)
			reset_func(f);
	}
	kd_buf_release(&name);
	return err;
}

/* --- the C type of a metadata string ------------------------------------- */

/* Words of a type spelling: identifiers and '*'; attributes dropped. */
struct words {
	char *v[16];
	int n;
};

static int split(char *s, struct words *w)
{
	char *p = s, *a;

	/* __user is __attribute__((btf_type_tag("user"))) where the compiler has it. */
	while ((a = strstr(p, "__attribute__((")) != NULL) {
		int depth = 0;
		char *q = a + strlen("__attribute__");

		for (; *q; q++) {
			depth += *q == '(';
			depth -= *q == ')';
			if (!depth)
				break;
		}
		if (!*q)
			return -1;
		memset(a, ' ', (size_t)(q - a + 1));
		p = q + 1;
	}
	w->n = 0;
	for (p = s; *p;) {
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (w->n == (int)(sizeof(w->v) / sizeof(w->v[0])))
			return -1;
		if (*p == '*') {
			w->v[w->n++] = "*";
			*p++ = '\0';
			continue;
		}
		if (!isalpha((unsigned char)*p) && *p != '_')
			return -1;	/* (, [: function pointers and arrays are left as text */
		w->v[w->n++] = p;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		if (*p == '*') {
			/* "char*": keep the star for the next word */
			memmove(p + 1, p, strlen(p) + 1);
			*p++ = '\0';
		} else if (*p) {
			*p++ = '\0';
		}
	}
	return 0;
}

/* gcc's name for a base type spelled with keywords in any order ("unsigned long"). */
static const char *base_name(char **v, int n)
{
	int i, longs = 0, is_short = 0, is_char = 0, is_unsigned = 0, is_signed = 0, is_int = 0;

	for (i = 0; i < n; i++) {
		if (!strcmp(v[i], "long"))
			longs++;
		else if (!strcmp(v[i], "short"))
			is_short = 1;
		else if (!strcmp(v[i], "char"))
			is_char = 1;
		else if (!strcmp(v[i], "unsigned"))
			is_unsigned = 1;
		else if (!strcmp(v[i], "signed"))
			is_signed = 1;
		else if (!strcmp(v[i], "int"))
			is_int = 1;
		else
			return NULL;
	}
	if (is_char)
		return is_unsigned ? "unsigned char" : is_signed ? "signed char" : "char";
	if (is_short)
		return is_unsigned ? "short unsigned int" : "short int";
	if (longs == 1)
		return is_unsigned ? "long unsigned int" : "long int";
	if (longs == 2)
		return is_unsigned ? "long long unsigned int" : "long long int";
	if (is_int || is_unsigned || is_signed)
		return is_unsigned ? "unsigned int" : "int";
	return NULL;
}

static bool is_qual(const char *w)
{
	return !strcmp(w, "const") || !strcmp(w, "volatile") || !strcmp(w, "restrict");
}

static int xbtf_parse_type(struct xbtf *b, const char *text, int64_t *id)
{
	char *copy = kd_strdup(text);
	struct words w;
	char *base[8];
	int i, nb = 0, err = 0;
	bool is_const = false, is_volatile = false;
	unsigned bid = 0;
	int64_t cur = 0;

	*id = 0;
	if (!copy)
		return -ENOMEM;
	if (split(copy, &w) || !w.n)
		goto out;
	/* The specifiers before the first '*': qualifiers and the base type. */
	for (i = 0; i < w.n && strcmp(w.v[i], "*"); i++) {
		if (!strcmp(w.v[i], "const"))
			is_const = true;
		else if (!strcmp(w.v[i], "volatile"))
			is_volatile = true;
		else if (nb < 8)
			base[nb++] = w.v[i];
		else
			goto out;
	}
	if (nb == 2 && (!strcmp(base[0], "struct") || !strcmp(base[0], "union") ||
			!strcmp(base[0], "enum"))) {
		unsigned kind = base[0][0] == 's' ? BTF_KIND_STRUCT :
				base[0][0] == 'u' ? BTF_KIND_UNION : BTF_KIND_ENUM;

		bid = xbtf_find(b, base[1], kind);
		if (!bid && kind == BTF_KIND_ENUM)
			bid = xbtf_find(b, base[1], BTF_KIND_ENUM64);
		if (!bid && kind != BTF_KIND_ENUM)
			bid = xbtf_find(b, base[1], BTF_KIND_FWD);
		if (!bid)
			goto out;
		err = xbtf_type(b, bid, &cur);
	} else if (nb == 1 && !strcmp(base[0], "void")) {
		cur = 0;
	} else if (nb == 1 && !base_name(base, nb)) {
		bid = xbtf_find(b, base[0], BTF_KIND_TYPEDEF);
		if (!bid)
			bid = xbtf_find(b, base[0], BTF_KIND_INT);	/* _Bool */
		if (!bid)
			goto out;
		err = xbtf_type(b, bid, &cur);
	} else {
		const char *bn = nb ? base_name(base, nb) : NULL;

		if (!bn)
			goto out;
		err = xbtf_base_type(b, bn, &cur);
		if (!err && !cur)
			goto out;
	}
	if (!err && is_volatile)
		err = xbtf_synth(b, KD_KIND_VOLATILE, cur, &cur);
	if (!err && is_const)
		err = xbtf_synth(b, KD_KIND_CONST, cur, &cur);
	for (; !err && i < w.n; i++) {
		if (!strcmp(w.v[i], "*"))
			err = xbtf_synth(b, KD_KIND_POINTER, cur, &cur);
		else if (is_qual(w.v[i]))
			err = xbtf_synth(b, !strcmp(w.v[i], "const") ? KD_KIND_CONST :
				   !strcmp(w.v[i], "volatile") ? KD_KIND_VOLATILE : KD_KIND_RESTRICT,
				   cur, &cur);
		else
			goto out;	/* a declarator name or something unparsed */
	}
	if (!err)
		*id = cur;
out:
	free(copy);
	return err;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The operators of constant expressions whose value is a fact of a type:
 * sizeof, __alignof__ / _Alignof, offsetof, a member's address through a
 * null pointer under an integer cast (nilfs2_ondisk.h's NILFS_SB_BYTES)
 * and a cast to __typeof__ (const.h's __ALIGN_KERNEL). Plain C types are
 * sized here from the ABI; a struct, union, enum or typedef of the
 * headers is asked of the sizer's callbacks: the header view, as user
 * space's compiler laid it out. See eval_internal.h.
 */
#include "extract/uapi/eval_internal.h"

#include <string.h>

#include "lib/buf.h"

/* size_t as the expression has it (in #if every value is uintmax_t). */
static int size_type(const struct ep *p)
{
	return p->e->pp ? UC_ULLONG : UC_ULONG;
}

/*
 * The bytes of the string literals at p->i, concatenated as adjacent
 * literals are, with the terminating NUL: sizeof("user.") is 6 (xattr.h's
 * XATTR_USER_PREFIX_LEN); L"" and U"" count 4 bytes a character, u"" 2.
 */
static int string_bytes(struct ep *p, uint64_t *bytes)
{
	char prefix = 0;
	uint64_t chars = 0;

	for (; p->i < p->n && p->t[p->i].kind == UT_STRING; p->i++) {
		const struct utok *t = &p->t[p->i];
		const char *s = memchr(t->s, '"', t->len), *end = t->s + t->len - 1;
		char this = s && s > t->s ? (s - t->s == 2 ? '8' : *t->s) : 0;

		if (!s || end <= s || *end != '"' || (prefix && this && this != prefix))
			return fail(p, "bad string literal");
		prefix = this ? this : prefix;
		for (s++; s < end; chars++) {
			if (*s++ != '\\' || s >= end)
				continue;
			if (*s == 'x')
				for (s++; s < end && strchr("0123456789abcdefABCDEF", *s); s++)
					;
			else if (*s >= '0' && *s <= '7')
				for (int k = 0; k < 3 && s < end && *s >= '0' && *s <= '7'; k++)
					s++;
			else
				s++;
		}
	}
	*bytes = (chars + 1) * (prefix == 'L' || prefix == 'U' ? 4 : prefix == 'u' ? 2 : 1);
	return 0;
}

/*
 * sizeof ( EXPR ), p->i past "(": string literals by their bytes, a typedef
 * name the reader's own typedef table lacks but the sizer knows (coff.h's
 * AOUTHDR), else an integer expression by its type's size (sigcontext.h's
 * sizeof(FP_XSTATE_MAGIC2), 0x46505845U: 4). The operand is evaluated: an
 * identifier it cannot resolve fails rather than sizing as a 0.
 */
static int sizeof_expression(struct ep *p, struct uval *out)
{
	const struct usize_ans *a = NULL;
	uint64_t bytes = 0;
	struct uval v = { 0 };
	bool lone_name = p->i + 1 < p->n && p->t[p->i].kind == UT_IDENT &&
			 utok_is(&p->t[p->i + 1], ")") && p->e->sizer &&
			 !usizer_size(p->e->sizer, p->t + p->i, 1, &a);
	int err;

	if (p->i < p->n && p->t[p->i].kind == UT_STRING) {
		err = string_bytes(p, &bytes);
	} else if (lone_name && a->known) {
		bytes = (uint64_t)a->info.size;
		p->i++;
		err = 0;
	} else {
		err = uep_expr(p, &v);
		/* A lone name, no constant either: maybe a type this view cannot
		 * size (privcmd.h's sizeof(domid_t), a typedef of a header that
		 * does not compile alone), as an unsized struct is: an ioctl
		 * keeps its row; a constant's problem names the identifier. */
		if (err && lone_name)
			p->e->unknown_size = true;
		bytes = !v.narrow ? (uint64_t)uctype_width(v.t) / 8 : strstr(v.narrow, "short") ? 2 : 1;
	}
	if (err)
		return err;
	if (!at(p, ")"))
		return fail(p, "unbalanced parentheses");
	p->i++;
	*out = (struct uval){ bytes, size_type(p), NULL };
	return 0;
}

int uep_sizeof(struct ep *p, struct uval *out)
{
	const struct usize_ans *a;
	size_t end;
	int err;

	if (!at(p, "("))
		return fail(p, "sizeof of an expression without parentheses");
	p->i++;
	if (!uep_starts_type(p))
		return sizeof_expression(p, out);
	end = uep_type_end(p);
	if (end >= p->n)
		return fail(p, "unbalanced parentheses");
	if (!p->e->sizer)
		return fail(p, "sizeof here");
	err = usizer_size(p->e->sizer, p->t + p->i, end - p->i, &a);
	if (err)
		return err == -EINVAL ? fail(p, "bad type") : err;
	p->i = end + 1;
	if (!a->known) {
		p->e->unknown_size = true;
		return fail(p, "sizeof of a type of unknown size");
	}
	out->v = (uint64_t)a->info.size;
	out->t = size_type(p);
	return 0;
}


/* A hard error of a callback ends the scan, as the sizer's do. */
static int callback_error(struct ep *p, int r)
{
	if (p->e->sizer && !p->e->sizer->hard_error)
		p->e->sizer->hard_error = r;
	return r;
}

static bool ilp32(const struct ep *p)
{
	return p->e->arch && p->e->arch->ilp32;
}

/*
 * A plain type's alignment as gcc gives it: its size, but on i386 a
 * long double is 4-aligned, and an 8-byte scalar 4-aligned by _Alignof
 * (the ABI's, in a struct) while __alignof__ answers the preferred 8.
 */
static int64_t plain_align(const struct ep *p, const struct ptype *pt, bool preferred)
{
	if (pt->size == 12 || (ilp32(p) && !strcmp(pt->name, "long double")))
		return 4;
	if (!strcmp(pt->name, "long double"))
		return 16;
	if (ilp32(p) && pt->size == 8 && !preferred)
		return 4;
	return pt->size;
}

/* The type name t[@from, @to) as the callbacks spell it ("struct iw_point"); 0 or -ENOMEM. */
static int type_text_of(struct ep *p, size_t from, size_t to, struct kd_buf *b)
{
	int err = utype_text(b, p->t + from, to - from);

	return err ? callback_error(p, err) : 0;
}

int uep_alignof(struct ep *p, bool preferred, struct uval *out)
{
	struct kd_buf text = KD_BUF_INIT;
	struct ptype pt;
	size_t end;
	int64_t align = 0;
	int err = 0, r;

	if (!at(p, "("))
		return fail(p, "__alignof__ of an expression without parentheses");
	p->i++;
	if (!uep_starts_type(p))
		return fail(p, "__alignof__ of an expression");
	end = uep_type_end(p);
	if (end >= p->n)
		return fail(p, "unbalanced parentheses");
	if (utok_is(&p->t[end - 1], "*")) {
		align = ilp32(p) ? 4 : 8;
	} else if (plain_type(p->e->arch, p->t + p->i, end - p->i, &pt) ||
		   uep_int_type(p, p->t + p->i, end - p->i, &pt)) {
		align = plain_align(p, &pt, preferred);
	} else if (p->e->sizer && p->e->sizer->align_cb) {
		err = type_text_of(p, p->i, end, &text);
		r = err ? 0 : p->e->sizer->align_cb(text.s, &align, p->e->sizer->ctx);
		if (r < 0)
			err = callback_error(p, r);
		else if (!err && !r)
			align = 0;
	}
	kd_buf_release(&text);
	if (err)
		return err;
	if (align <= 0) {
		p->e->unknown_size = true;
		return fail(p, "__alignof__ of a type of unknown layout");
	}
	p->i = end + 1;
	*out = (struct uval){ (uint64_t)align, size_type(p), NULL };
	return 0;
}

/*
 * A member designator t[p->i...] into @b ("dirent.name", "v[2]"): a
 * name, then ".name" or "[constant]" while they follow, up to @end.
 * 0 with p->i past it, or -EINVAL.
 */
static int designator(struct ep *p, size_t end, struct kd_buf *b)
{
	int err = 0;

	if (p->i >= end || p->t[p->i].kind != UT_IDENT)
		return fail(p, "offsetof of no member name");
	while (!err && p->i < end) {
		const struct utok *t = &p->t[p->i];

		if (t->kind == UT_IDENT && (!b->len || utok_is(&p->t[p->i - 1], "."))) {
			err = kd_buf_add(b, t->s, t->len);
			p->i++;
		} else if (at(p, ".") && p->i + 1 < end && p->t[p->i + 1].kind == UT_IDENT) {
			err = kd_buf_addc(b, '.');
			p->i++;
		} else if (at(p, "[")) {
			size_t close = p->i + 1;
			struct uval v;
			int depth = 0;

			for (; close < end && !(utok_is(&p->t[close], "]") && !depth); close++)
				depth += utok_is(&p->t[close], "[") - utok_is(&p->t[close], "]");
			if (close >= end)
				return fail(p, "unbalanced brackets");
			{
				struct ep sub = { .e = p->e, .t = p->t + p->i + 1, .n = close - p->i - 1,
						  .skip = p->skip, .depth = p->depth };

				err = sub.n ? uep_expr(&sub, &v) : fail(p, "an empty index");
				if (!err && sub.i != sub.n)
					err = fail(p, "junk in an index");
			}
			if (!err && !uctype_unsigned(v.t) && (int64_t)v.v < 0)
				err = fail(p, "a negative index");
			if (!err)
				err = kd_buf_addf(b, "[%llu]", (unsigned long long)v.v);
			p->i = close + 1;
		} else {
			break;
		}
	}
	if (err == -ENOMEM)
		return callback_error(p, err);
	return err;
}

/* The offset of the designator at p->i (up to @end) in type t[@from, @to): 0 with *offset. */
static int member_offset(struct ep *p, size_t from, size_t to, size_t end, int64_t *offset)
{
	struct kd_buf type = KD_BUF_INIT, member = KD_BUF_INIT;
	int err = 0, r = 0;

	if (!p->e->sizer || !p->e->sizer->offset_cb)
		err = fail(p, "offsetof here");
	if (!err)
		err = type_text_of(p, from, to, &type);
	if (!err)
		err = designator(p, end, &member);
	if (!err) {
		r = p->e->sizer->offset_cb(type.s, member.s, offset, p->e->sizer->ctx);
		if (r < 0)
			err = callback_error(p, r);
	}
	kd_buf_release(&type);
	kd_buf_release(&member);
	if (!err && !r) {
		p->e->unknown_size = true;
		err = fail(p, "offsetof of a member of unknown layout");
	}
	return err;
}

int uep_offsetof(struct ep *p, size_t open, size_t close, struct uval *out)
{
	size_t comma = open + 1;
	int64_t offset = 0;
	int depth = 0, err;

	for (; comma < close && !(utok_is(&p->t[comma], ",") && !depth); comma++)
		depth += utok_is(&p->t[comma], "(") - utok_is(&p->t[comma], ")");
	if (comma >= close || comma == open + 1)
		return fail(p, "offsetof without a type and a member");
	p->i = comma + 1;
	err = member_offset(p, open + 1, comma, close, &offset);
	if (err)
		return err;
	if (p->i != close)
		return fail(p, "junk in an offsetof member");
	p->i = close + 1;
	*out = (struct uval){ (uint64_t)offset, size_type(p), NULL };
	return 0;
}

int uep_member_address(struct ep *p, struct uval *out, bool *matched)
{
	size_t start = p->i, outer, end;
	int64_t offset = 0;
	struct uval zero;
	int err;

	*matched = false;
	/* & ( ( TYPE * ) 0 ) -> MEMBER */
	if (start + 3 >= p->n || !utok_is(&p->t[start + 1], "(") || !utok_is(&p->t[start + 2], "("))
		return 0;
	p->i = start + 3;
	end = uep_starts_type(p) ? uep_type_end(p) : p->n;
	outer = uep_close_paren(p, start + 1);
	if (end >= outer || outer + 2 >= p->n || end - 1 <= start + 3 ||
	    !utok_is(&p->t[end - 1], "*") || !utok_is(&p->t[outer + 1], "->")) {
		p->i = start;
		return 0;
	}
	*matched = true;
	{
		struct ep sub = { .e = p->e, .t = p->t + end + 1, .n = outer - end - 1,
				  .skip = p->skip, .depth = p->depth };

		err = sub.n ? uep_expr(&sub, &zero) : fail(p, "a member address of no pointer");
		if (!err && (sub.i != sub.n || zero.v))
			err = fail(p, "a member address of a pointer other than null");
	}
	if (err)
		return err;
	p->i = outer + 2;
	err = member_offset(p, start + 3, end - 1, p->n, &offset);
	if (err)
		return err;
	/* The address as an integer of a pointer's width: the cast converts it. */
	*out = (struct uval){ (uint64_t)offset, ilp32(p) ? UC_UINT : UC_ULONG, NULL };
	return 0;
}

bool uep_is_typeof(const struct utok *t)
{
	return t->kind == UT_IDENT &&
	       (utok_is(t, "__typeof__") || utok_is(t, "__typeof") || utok_is(t, "typeof"));
}

/* The ptype of the value @v, as a cast to __typeof__(v) needs it. */
static struct ptype ptype_of_value(const struct ep *p, const struct uval *v)
{
	if (v->narrow) {
		bool is_signed = !strcmp(v->narrow, "char") ?
				 !p->e->arch || p->e->arch->char_signed :
				 !strstr(v->narrow, "unsigned") && strcmp(v->narrow, "_Bool");

		return (struct ptype){ v->narrow, strstr(v->narrow, "short") ? 2 : 1, is_signed,
				       UC_INT, true };
	}
	return (struct ptype){ uval_type(v), uctype_width(v->t) / 8, !uctype_unsigned(v->t), v->t,
			       true };
}

int uep_typeof(struct ep *p, struct ptype *pt)
{
	size_t open = p->i + 1, close;
	struct uval v;
	int err;

	if (open >= p->n || !utok_is(&p->t[open], "("))
		return fail(p, "__typeof__ without parentheses");
	close = uep_close_paren(p, open);
	if (close >= p->n)
		return fail(p, "unbalanced parentheses");
	p->i = open + 1;
	if (uep_starts_type(p)) {
		if (!uep_int_type(p, p->t + p->i, close - p->i, pt) || !pt->integer)
			return fail(p, "cast to a non-integer type");
	} else {
		struct ep sub = { .e = p->e, .t = p->t + open + 1, .n = close - open - 1,
				  .skip = p->skip, .depth = p->depth };

		err = sub.n ? uep_expr(&sub, &v) : fail(p, "__typeof__ of nothing");
		if (!err && sub.i != sub.n)
			err = fail(p, "junk in __typeof__");
		if (err)
			return err;
		*pt = ptype_of_value(p, &v);
	}
	p->i = close + 1;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Two types of a slot that differ in spelling only, or in how they say the
 * same bytes: the judgements diff-types.c makes before it calls a change
 * of type a change of layout (type-spelling, integer-signedness,
 * type-wrapped, enum-renamed). g[0] is the old side's type graph, g[1]
 * the new one's.
 */
#include "diff/type-walk.h"

#include <string.h>

#include "lib/str.h"
#include "lib/typegraph.h"

bool dt_same_name(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/*
 * The same aggregate in the same place: the same tag, or an anonymous one
 * that got a tag (sound/asequencer.h's data union became
 * union snd_seq_event_data): old source never named it, its layout is
 * compared member by member as usual.
 */
bool dt_same_tag(const char *a, const char *b)
{
	return dt_same_name(a, b) || (!a && b);
}

static bool equivalent(const struct tgraph *g, int64_t a, int64_t b, int depth)
{
	const struct kd_type *ta = tgraph_strip(&g[0], a), *tb = tgraph_strip(&g[1], b);

	if (!ta || !tb)
		return !ta && !tb;
	if (ta->kind != tb->kind || depth > 16)
		return false;
	switch (ta->kind) {
	case KD_KIND_POINTER:
		return equivalent(g, ta->ref, tb->ref, depth + 1);
	case KD_KIND_ARRAY:
		return ta->count == tb->count && equivalent(g, ta->ref, tb->ref, depth + 1);
	case KD_KIND_STRUCT:
	case KD_KIND_UNION:
		return dt_same_tag(ta->name, tb->name);
	case KD_KIND_ENUM:
		return dt_same_name(ta->name, tb->name);
	case KD_KIND_BASE:
		/*
		 * Plain char's signedness is the compiler's choice, not the ABI's:
		 * Linux 6.2 builds with -funsigned-char, user space keeps x86's
		 * signed char. Same name, same size: the same C type.
		 */
		if (ta->name && tb->name && !strcmp(ta->name, "char") && !strcmp(tb->name, "char"))
			return ta->size == tb->size;
		return ta->hash == tb->hash;
	default:
		return ta->hash == tb->hash;
	}
}

/* An integer's C name without "signed"/"unsigned": "unsigned int" -> "int". */
static void int_core(const char *name, char *out, size_t n)
{
	size_t o = 0;
	const char *p = name;

	while (*p && o + 1 < n) {
		if (kd_starts_with(p, "unsigned ")) {
			p += 9;
		} else if (kd_starts_with(p, "signed ")) {
			p += 7;
		} else if (!strcmp(p, "unsigned")) {
			p += 8;
		} else {
			out[o++] = *p++;
			continue;
		}
	}
	while (o && out[o - 1] == ' ')
		o--;
	out[o] = 0;
}

static bool sign_only(const struct tgraph *g, int64_t a, int64_t b, int depth)
{
	const struct kd_type *ta = tgraph_strip(&g[0], a), *tb = tgraph_strip(&g[1], b);
	char ca[64], cb[64];

	if (!ta || !tb || ta->kind != tb->kind || depth > 8)
		return false;
	if (ta->kind == KD_KIND_ARRAY)
		return ta->count == tb->count && sign_only(g, ta->ref, tb->ref, depth + 1);
	if (ta->kind != KD_KIND_BASE || ta->size != tb->size || !ta->name || !tb->name ||
	    ((ta->flags ^ tb->flags) & KD_TYPE_SIGNED) == 0)
		return false;
	int_core(ta->name, ca, sizeof(ca));
	int_core(tb->name, cb, sizeof(cb));
	return !strcmp(ca, cb) || (!strcmp(ca, "char") && !strcmp(cb, "char"));
}

/*
 * @wrapper, a type of side @side, is a struct of one member at 0 of the
 * type and size of @other, a type of the other side (guid_t -> __u8[16]).
 */
static bool wraps(const struct tgraph *g, int side, int64_t wrapper, int64_t other)
{
	const struct kd_type *t = tgraph_strip(&g[side], wrapper);
	int64_t inner;

	if (!t || t->kind != KD_KIND_STRUCT || t->nr_members != 1 || t->members[0].offset != 0 ||
	    t->members[0].bit_size || t->size != tgraph_size(&g[!side], other))
		return false;
	inner = t->members[0].type;
	if (tgraph_size(&g[side], inner) != t->size)
		return false;
	return side == 0 ? equivalent(g, inner, other, 0) : equivalent(g, other, inner, 0);
}

/*
 * Old enum @ta and new @tb of other tags, the same size, each old
 * enumerator in the new one with its value (enum what -> enum
 * proc_cn_event): the same values in the same bytes, under a new name.
 */
bool dt_enum_renamed(const struct kd_type *ta, const struct kd_type *tb)
{
	size_t i, j;

	if (!ta || !tb || ta->kind != KD_KIND_ENUM || tb->kind != KD_KIND_ENUM ||
	    ta->size != tb->size || ta->size <= 0 || !ta->nr_enumerators)
		return false;
	for (i = 0; i < ta->nr_enumerators; i++) {
		for (j = 0; j < tb->nr_enumerators; j++)
			if (ta->enumerators[i].value == tb->enumerators[j].value &&
			    ta->enumerators[i].name && tb->enumerators[j].name &&
			    !strcmp(ta->enumerators[i].name, tb->enumerators[j].name))
				break;
		if (j == tb->nr_enumerators)
			return false;
	}
	return true;
}

bool dt_equivalent(const struct tgraph *g, int64_t a, int64_t b)
{
	return equivalent(g, a, b, 0);
}

bool dt_sign_only(const struct tgraph *g, int64_t a, int64_t b)
{
	return sign_only(g, a, b, 0);
}

bool dt_wrapped(const struct tgraph *g, int64_t a, int64_t b)
{
	return wraps(g, 0, a, b) || wraps(g, 1, b, a);
}

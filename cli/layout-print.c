// SPDX-License-Identifier: GPL-2.0-only
/*
 * The layout printer behind `kabi-diff show`. Its member lines end in the
 * same "offset size" comment pahole prints, so the two can be compared
 * line by line (tests/t0140-pahole-oracle.sh does).
 */
#include "cli/layout-print.h"

#include <inttypes.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/cdecl.h"

#define MAX_NEST 32

static void indent(FILE *f, int level)
{
	while (level-- > 0)
		fputc('\t', f);
}

static int64_t type_size(struct type_cache *tc, int64_t id)
{
	const struct kd_type *t = type_cache__get(tc, id);

	return t ? t->size : -1;
}

static bool is_anonymous_aggregate(const struct kd_type *t)
{
	return t && !t->name && (t->kind == KD_KIND_STRUCT || t->kind == KD_KIND_UNION);
}

static void print_members(struct type_cache *tc, const struct kd_type *t, int64_t base,
			  int level, FILE *f);

static void print_member(struct type_cache *tc, const struct kd_member *m, int64_t abs,
			 int level, FILE *f)
{
	const struct kd_type *mt = type_cache__get(tc, m->type);
	struct kd_buf line = KD_BUF_INIT;
	int64_t size = type_size(tc, m->type);
	int width;

	indent(f, level);
	if (is_anonymous_aggregate(mt) && level < MAX_NEST) {
		/* Kept as a node of its own, printed in place as C would write it. */
		fprintf(f, "%s {\n", mt->kind == KD_KIND_UNION ? "union" : "struct");
		print_members(tc, mt, abs, level + 1, f);
		indent(f, level);
		(void)kd_buf_addf(&line, "}%s%s;", m->name ? " " : "", m->name ? m->name : "");
	} else {
		(void)kd_cdecl(&line, m->type, m->name ? m->name : "", type_cache__lookup, tc);
		if (m->bit_size)
			(void)kd_buf_addf(&line, ":%d", m->bit_size);
		(void)kd_buf_addc(&line, ';');
	}
	/* Keep the comments in one column whatever the nesting (tabs are 8 wide). */
	width = level > 5 ? 8 : 48 - 8 * (level - 1);
	if (m->bit_size)
		fprintf(f, "%-*s /* %5" PRId64 ":%2d %4" PRId64 " */\n", width, line.s, abs,
			m->bit_offset, size);
	else
		fprintf(f, "%-*s /* %5" PRId64 " %5" PRId64 " */\n", width, line.s, abs, size);
	kd_buf_release(&line);
}

/* @a + @b saturated: a .kabi may hold any offset and size. */
static int64_t add_sat(int64_t a, int64_t b)
{
	int64_t r;

	return __builtin_add_overflow(a, b, &r) ? (b > 0 ? INT64_MAX : INT64_MIN) : r;
}

static void print_members(struct type_cache *tc, const struct kd_type *t, int64_t base,
			  int level, FILE *f)
{
	int64_t end = 0;	/* bytes covered so far (structs only) */
	size_t i;

	for (i = 0; i < t->nr_members; i++) {
		const struct kd_member *m = &t->members[i];
		int64_t size = type_size(tc, m->type), m_end;

		if (t->kind == KD_KIND_STRUCT && !m->bit_size && m->offset > end) {
			indent(f, level);
			fprintf(f, "/* XXX %" PRId64 " byte%s hole */\n", m->offset - end,
				m->offset - end == 1 ? "" : "s");
		}
		print_member(tc, m, add_sat(base, m->offset), level, f);
		if (m->bit_size)
			m_end = add_sat(m->offset, ((int64_t)m->bit_offset + m->bit_size + 7) / 8);
		else
			m_end = add_sat(m->offset, size > 0 ? size : 0);
		if (m_end > end)
			end = m_end;
	}
	if (t->kind == KD_KIND_STRUCT && t->size > end && level == 1) {
		indent(f, level);
		fprintf(f, "/* padding: %" PRId64 " */\n", t->size - end);
	}
}

static void print_enum(const struct kd_type *t, FILE *f)
{
	size_t i;

	fprintf(f, "enum %s {\n", t->name ? t->name : "");
	for (i = 0; i < t->nr_enumerators; i++) {
		if (t->flags & KD_TYPE_SIGNED)
			fprintf(f, "\t%s = %" PRId64 ",\n", t->enumerators[i].name, t->enumerators[i].value);
		else
			fprintf(f, "\t%s = %" PRIu64 ",\n", t->enumerators[i].name,
				(uint64_t)t->enumerators[i].value);
	}
	fprintf(f, "};\t/* size: %" PRId64 ", enumerators: %zu */\n", t->size, t->nr_enumerators);
}

int layout__fprintf(struct type_cache *tc, const struct kd_type *t, FILE *f)
{
	struct kd_buf b = KD_BUF_INIT;
	int err = 0;

	switch (t->kind) {
	case KD_KIND_STRUCT:
	case KD_KIND_UNION:
		fprintf(f, "%s %s {\n", kd_kind_name(t->kind), t->name ? t->name : "");
		if (t->flags & KD_TYPE_DECLARATION) {
			fprintf(f, "\t/* declaration only: no layout in this kernel's DWARF */\n};\n");
			break;
		}
		print_members(tc, t, 0, 1, f);
		fprintf(f, "\n\t/* size: %" PRId64 ", align: %" PRId64 ", members: %zu%s */\n",
			t->size, t->align, t->nr_members,
			(t->flags & KD_TYPE_PACKED) ? ", packed" : "");
		fprintf(f, "};\n");
		break;
	case KD_KIND_ENUM:
		print_enum(t, f);
		break;
	default:
		err = kd_cdecl(&b, t->id, "", type_cache__lookup, tc);
		if (err)
			break;
		if (t->kind == KD_KIND_TYPEDEF) {
			kd_buf_reset(&b);
			err = kd_cdecl(&b, t->ref, t->name, type_cache__lookup, tc);
			fprintf(f, "typedef %s;\t/* size: %" PRId64 " */\n", b.s, t->size);
		} else {
			fprintf(f, "%s\t/* %s, size: %" PRId64 " */\n", b.s, kd_kind_name(t->kind), t->size);
		}
		break;
	}
	if (t->decl_file)
		fprintf(f, "/* declared at %s:%d */\n", t->decl_file, t->decl_line);
	kd_buf_release(&b);
	return err;
}

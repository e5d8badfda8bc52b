// SPDX-License-Identifier: GPL-2.0-only
/*
 * The header view of the types; see header_types_internal.h. Only
 * declarations in a header of the tree are roots (their DW_AT_decl_file is
 * include-relative: the compiler ran with the tree's directories mapped
 * away); glibc's types come in only when a UAPI type uses one (struct
 * input_event's struct timeval), as any type reachable from a root. A
 * decl_file is what the line map says, which a header's #line sets to any
 * text: a name one of the tree's line directives made up is given back to
 * the file that wrote it (line_names_internal.h), never taken for glibc's.
 *
 * The C library's structs, unions and enums are no roots, but their sizes
 * are kept apart (header_view__libc_sizeof()): IW_EV_ADDR_LEN is
 * `IW_EV_LCP_LEN + sizeof(struct sockaddr)`, glibc's struct sockaddr; a
 * header tree read alone could not evaluate it while a kernel's
 * extraction took the kernel's DWARF layout, and the two compared as an
 * added constant (issue 29: like with like).
 */
#include "extract/header_types_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb-compat.h"
#include "db/kdb-uapi.h"
#include "db/type-cache.h"
#include "extract/uapi/line_names_internal.h"
#include "extract/uapi/uapi_internal.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"

struct hv_entry {
	int64_t type_id;	/* DB id */
	int64_t size;		/* bytes, -1 unknown */
	const char *file;	/* where the first layout was declared */
	int line;
	bool conflict_reported;
};

struct hv_enumerator {
	int64_t value;
	const char *ctype;	/* kdb__enumerator_ctype() */
	bool ambiguous;		/* two enums of the headers give the name two values */
};

struct header_view {
	struct kd_arena arena;
	struct umap names;	/* "struct x", "union y", "enum z", "t" -> struct hv_entry * */
	struct umap enumerators;	/* name -> struct hv_enumerator * */
	struct umap libc;	/* the C library's "struct x" -> int64_t * size (bytes) */
	struct type_cache *layouts;	/* the DB's rows, for members and alignments */
};

/* One declaration a header makes, in CU and DIE order. */
struct top {
	int64_t id;		/* table id */
	char *file;		/* include-relative */
	int line;		/* where in @file */
};

struct reader {
	const char *abi;	/* a compat user ABI ("ia32"), NULL: the native view */
	struct header_view *hv;
	struct xtable *xt;
	const struct utree *tree;
	struct uline_names *lines;	/* file names the tree's line directives make up */
	struct top *tops;
	size_t nr_tops, cap_tops;
};

static const char *tag_prefix(Dwarf_Half tag)
{
	switch (tag) {
	case DW_TAG_structure_type:	return "struct ";
	case DW_TAG_union_type:		return "union ";
	case DW_TAG_enumeration_type:	return "enum ";
	case DW_TAG_typedef:		return "";
	default:			return NULL;
	}
}

/* A relative path without "." or ".." segments: a name a header of the tree can have. */
static bool plain_relative(const char *path)
{
	const char *seg = path;

	if (!*path || *path == '/' || *path == '<')
		return false;
	for (;;) {
		size_t len = strcspn(seg, "/");

		if ((len == 1 && seg[0] == '.') || (len == 2 && seg[0] == '.' && seg[1] == '.'))
			return false;
		if (!seg[len])
			return true;
		seg += len + 1;
	}
}

/* Is @name (include-relative) a file of the tree? */
static int tree_file(const struct utree *tree, const char *name, bool *yes)
{
	char *path = NULL, *display = NULL;
	int err = utree__resolve(tree, name, &path, &display);

	*yes = !err;
	free(path);
	free(display);
	return err == -ENOENT ? 0 : err;
}

/*
 * The header of the tree that declares what DWARF places at *@file:*@line:
 * DWARF's own name when it is one of the tree's; the file whose line
 * directive made that name up, at its physical line; none (*@file freed,
 * NULL) for the C library's and the compiler's files. Another relative
 * name stays: it is compared under it, wherever that points.
 */
static int declaring_header(struct reader *rd, char **file, int *line)
{
	const char *header;
	int at = 0, made_up = uline_names__find(rd->lines, *file, *line, &header, &at);
	bool in_tree = false;
	char *copy;
	int err;

	if (made_up && plain_relative(*file)) {
		err = tree_file(rd->tree, *file, &in_tree);
		if (err)
			return err;
	}
	if (made_up && !in_tree) {
		copy = kd_strdup(header);
		if (!copy)
			return -ENOMEM;
		free(*file);
		*file = copy;
		*line = at;
	} else if (!made_up && ((*file)[0] == '/' || (*file)[0] == '<')) {
		free(*file);
		*file = NULL;
	}
	return 0;
}

/* A struct, union or enum of the C library: its size, by its tag and name. */
static int libc_size(struct header_view *hv, struct kdwarf *d, Dwarf_Die die, Dwarf_Half tag,
		     const char *name)
{
	struct kd_buf key = KD_BUF_INIT;
	Dwarf_Unsigned size;
	int64_t *v;
	char *k;
	int err;

	if (!die_udata(d, die, DW_AT_byte_size, &size) || size > INT64_MAX)
		return 0;
	err = kd_buf_addf(&key, "%s%s", tag_prefix(tag), name);
	if (!err && !umap_get(&hv->libc, key.s, key.len)) {
		v = kd_arena_alloc(&hv->arena, sizeof(*v));
		k = kd_arena_strndup(&hv->arena, key.s, key.len);
		err = v && k ? umap_put(&hv->libc, k, key.len, v) : -ENOMEM;
		if (!err)
			*v = (int64_t)size;
	}
	kd_buf_release(&key);
	return err;
}

static int on_top_die(Dwarf_Die die, void *ctx)
{
	struct reader *rd = ctx;
	struct kdwarf *d = rd->xt->dwarf;
	Dwarf_Half tag = die_tag(d, die);
	Dwarf_Unsigned decl_line;
	const char *name;
	char *file;
	int64_t id;
	int line, err;

	if (!tag_prefix(tag) || die_flag(d, die, DW_AT_declaration))
		return 0;
	name = die_name(d, die);
	/* Unnamed structs and unions are reached through their typedefs; unnamed enums are roots. */
	if (!name && tag != DW_TAG_enumeration_type)
		return 0;
	file = xt_decl_file(rd->xt, die);
	if (!file)
		return 0;
	line = die_udata(d, die, DW_AT_decl_line, &decl_line) && decl_line <= INT_MAX ? (int)decl_line : 0;
	err = declaring_header(rd, &file, &line);
	if (!err && !file && name && tag != DW_TAG_typedef)
		err = libc_size(rd->hv, d, die, tag, name);
	if (err || !file) {
		free(file);	/* libc's, or the compiler's own */
		return err;
	}
	err = KD_GROW(rd->tops, rd->cap_tops, rd->nr_tops + 1);
	if (!err)
		err = xt_type_of_die(rd->xt, die_offset(d, die), &id);
	if (err) {
		free(file);
		return err;
	}
	rd->tops[rd->nr_tops++] = (struct top){ id, file, line };
	return 0;
}

static int on_cu(Dwarf_Die cu, void *ctx)
{
	struct reader *rd = ctx;

	return kdwarf_for_each_child(rd->xt->dwarf, cu, on_top_die, rd, "reading the headers' DWARF");
}

static int key_of(struct kd_buf *b, const struct kd_type *t)
{
	const char *tag = t->kind == KD_KIND_STRUCT ? "struct " : t->kind == KD_KIND_UNION ? "union " :
			  t->kind == KD_KIND_ENUM ? "enum " : "";

	kd_buf_reset(b);
	return kd_buf_addf(b, "%s%s", tag, t->name);
}

/* Index the enumerators of the headers' enums, named or not. */
static int index_enumerators(struct header_view *hv, struct reader *rd)
{
	size_t i, j;

	for (i = 0; i < rd->nr_tops; i++) {
		const struct xtype *x = xt_get(rd->xt, rd->tops[i].id);

		if (!x || x->t.kind != KD_KIND_ENUM)
			continue;
		for (j = 0; j < x->t.nr_enumerators; j++) {
			const struct kd_enumerator *en = &x->t.enumerators[j];
			size_t len = strlen(en->name);
			struct hv_enumerator *e = umap_get(&hv->enumerators, en->name, len);
			char *key;

			if (e) {
				e->ambiguous |= e->value != en->value;
				continue;
			}
			e = kd_arena_alloc(&hv->arena, sizeof(*e));
			key = kd_arena_strndup(&hv->arena, en->name, len);
			if (!e || !key || umap_put(&hv->enumerators, key, len, e))
				return -ENOMEM;
			*e = (struct hv_enumerator){
				en->value,
				kdb__enumerator_ctype(en->value, x->t.size, x->t.flags & KD_TYPE_SIGNED),
				false,
			};
		}
	}
	return 0;
}

/* Index the named declarations; a second layout of one name is a problem. */
static int index_names(struct header_view *hv, struct reader *rd, struct kdb *db,
		       struct header_view_stats *stats)
{
	struct kd_buf key = KD_BUF_INIT;
	size_t i;
	int err = 0;

	for (i = 0; !err && i < rd->nr_tops; i++) {
		const struct xtype *x = xt_get(rd->xt, rd->tops[i].id);
		int64_t canon = xt_canon(rd->xt, rd->tops[i].id);
		struct hv_entry *e;

		if (!x || !x->t.name)
			continue;
		err = key_of(&key, &x->t);
		if (err)
			break;
		e = umap_get(&hv->names, key.s, key.len);
		if (e) {
			/*
			 * Another layout of the same size is what libc-compat.h makes of
			 * <linux/in6.h> after glibc's <netinet/in.h> (glibc's in6_addr):
			 * no number changes. Another size is a problem.
			 */
			if (e->type_id != canon && e->size != x->t.size && !e->conflict_reported) {
				e->conflict_reported = true;
				stats->conflicts++;
				err = kdb__put_problem(db, "uapi", rd->tops[i].file, rd->tops[i].file,
						       "%s%s%s: another size than in %s:%d (depending on what"
						       " was included before; sizes are taken from %s)",
						       rd->abi ? rd->abi : "", rd->abi ? ": " : "", key.s,
						       e->file, e->line, e->file);
			}
			continue;
		}
		e = kd_arena_alloc(&hv->arena, sizeof(*e));
		if (!e) {
			err = -ENOMEM;
			break;
		}
		*e = (struct hv_entry){ .type_id = canon, .size = x->t.size,
					.file = kd_arena_strndup(&hv->arena, rd->tops[i].file,
							       strlen(rd->tops[i].file)),
					.line = rd->tops[i].line };
		{
			char *k = kd_arena_strndup(&hv->arena, key.s, key.len);

			err = k && e->file ? umap_put(&hv->names, k, key.len, e) : -ENOMEM;
		}
	}
	kd_buf_release(&key);
	return err;
}

struct declared {
	int64_t id;		/* DB id */
	const char *file;
	int line;
};

static int cmp_declared(const void *pa, const void *pb)
{
	const struct declared *a = pa, *b = pb;
	int d = strcmp(a->file, b->file);

	if (d)
		return d;
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return a->line - b->line;
}

/* uapi_types: one row per (type, header), with the line of its first declaration there. */
static int write_declared(struct reader *rd, struct kdb *db, struct header_view_stats *stats)
{
	struct declared *v = kd_calloc(rd->nr_tops + 1, sizeof(*v));
	size_t i;
	int err = 0;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < rd->nr_tops; i++) {
		const struct xtype *x = xt_get(rd->xt, rd->tops[i].id);

		v[i] = (struct declared){ xt_canon(rd->xt, rd->tops[i].id), rd->tops[i].file,
					  x ? rd->tops[i].line : 0 };
	}
	if (rd->nr_tops)
		qsort(v, rd->nr_tops, sizeof(*v), cmp_declared);
	for (i = 0; !err && i < rd->nr_tops; i++) {
		/* Several CUs declare the same type in the same header: one row. */
		if (!v[i].id || (i && v[i - 1].id == v[i].id && !strcmp(v[i - 1].file, v[i].file)))
			continue;
		err = rd->abi ? kdb__put_compat_type(db, rd->abi, v[i].id, v[i].file, v[i].line) :
		      kdb__put_uapi_type(db, v[i].id, v[i].file, v[i].line);
		if (!err)
			stats->declared++;
	}
	free(v);
	return err;
}

/*
 * A compat view's rows that no other view has (ids past @last, the last
 * before it was written): native readers skip them (compat_only_types).
 */
static int write_compat_only(struct xtable *xt, struct kdb *db, const char *abi, int64_t last)
{
	size_t i;
	int err = 0;

	for (i = 0; !err && i < xt->n; i++)
		if (xt->v[i].canon > last)
			err = kdb__put_compat_only(db, abi, xt->v[i].canon);
	return err;
}

int header_view__read(struct kdb *db, struct type_sink *sink, const char *object,
		      const struct utree *tree, const struct kd_arch *abi, struct header_view **out,
		      struct header_view_stats *stats)
{
	int64_t last = type_sink_last_id(sink);
	struct header_view *hv = NULL;
	struct reader rd = { 0 };
	struct xtable xt = { 0 };
	struct kelf *k = NULL;
	struct kdwarf *d = NULL;
	size_t i;
	int err;

	*out = NULL;
	memset(stats, 0, sizeof(*stats));
	hv = kd_calloc(1, sizeof(*hv));
	if (!hv)
		return -ENOMEM;
	err = abi ? kelf_open_abi(object, abi, &k) : kelf_open(object, &k);
	if (err)
		goto out;
	/* Headers that declare no type at all (only macros) give no DWARF. */
	if (!kelf_section_by_name(k, ".debug_info"))
		goto out;
	err = kdwarf_open(k, &d);
	/* Problems name the headers, not the cache file that holds their objects. */
	if (!err)
		err = xtable_init(&xt, d, db, abi ? "UAPI headers (compiled, compat ABI)" :
				  "UAPI headers (compiled)");
	if (err)
		goto out;
	xt.declarations_expected = true;
	xt.view = KD_VIEW_HEADERS;
	rd.xt = &xt;
	rd.abi = abi ? abi->name : NULL;
	/* i386: long long and double are 4-aligned in a struct (and so __u64 there). */
	if (abi && abi->ilp32)
		xt.max_scalar_align = 4;
	rd.hv = hv;
	rd.tree = tree;
	err = tree ? uline_names__scan(tree, &rd.lines) : 0;
	/* The tree's troubles are the native view's to report, once. */
	for (i = 0; !err && !abi && i < uline_names__nr_problems(rd.lines); i++)
		err = kdb__put_problem(db, "uapi", NULL, NULL, "%s", uline_names__problem(rd.lines, i));
	if (!err)
		err = kdwarf_for_each_cu(d, on_cu, &rd);
	if (!err)
		err = xt_complete(&xt);
	if (!err)
		err = xt_write(&xt, sink, &stats->types);
	if (!err && abi)
		err = write_compat_only(&xt, db, abi->name, last);
	if (!err)
		err = write_declared(&rd, db, stats);
	if (!err)
		err = index_names(hv, &rd, db, stats);
	if (!err)
		err = index_enumerators(hv, &rd);
	if (!err)
		err = type_cache__new(db, &hv->layouts);
out:
	for (i = 0; i < rd.nr_tops; i++)
		free(rd.tops[i].file);
	free(rd.tops);
	uline_names__free(rd.lines);
	xtable_release(&xt);
	kdwarf_close(d);
	kelf_close(k);
	if (err) {
		header_view__free(hv);
		return err;
	}
	*out = hv;
	return 0;
}

void header_view__free(struct header_view *hv)
{
	if (!hv)
		return;
	umap_release(&hv->names);
	umap_release(&hv->enumerators);
	umap_release(&hv->libc);
	type_cache__free(hv->layouts);
	kd_arena_release(&hv->arena);
	free(hv);
}

int header_view__sizeof(const struct header_view *hv, const char *type_text,
			struct uapi_type_info *info)
{
	const struct hv_entry *e;

	if (!hv)
		return 0;
	e = umap_get(&hv->names, type_text, strlen(type_text));
	if (!e || e->size < 0)
		return 0;
	info->size = e->size;
	info->type_id = e->type_id;
	return 1;
}

int header_view__libc_sizeof(const struct header_view *hv, const char *type_text,
			     struct uapi_type_info *info)
{
	const int64_t *size = hv ? umap_get(&hv->libc, type_text, strlen(type_text)) : NULL;

	if (!size)
		return 0;
	info->size = *size;
	info->type_id = 0;
	return 1;
}

int header_view__enumerator(const struct header_view *hv, const char *name, size_t len,
			    int64_t *value, const char **ctype)
{
	const struct hv_enumerator *e = hv ? umap_get(&hv->enumerators, name, len) : NULL;

	if (!e || e->ambiguous)
		return 0;
	*value = e->value;
	*ctype = e->ctype;
	return 1;
}

struct type_cache *header_view__layouts(const struct header_view *hv)
{
	return hv ? hv->layouts : NULL;
}

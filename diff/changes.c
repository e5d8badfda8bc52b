// SPDX-License-Identifier: GPL-2.0-only
/*
 * The result's change list: diff_add() and the evidence, cause and
 * impacts the comparisons give each change; the order changes are
 * reported in; freeing the result; the diff_result__*() accessors of
 * diff.h, and the exit status bits.
 */
#include "diff/changes.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/str.h"

/* Where the facts of a change come from, until a rule names better evidence. */
static const char *const default_evidence[DIFF__NR_CATEGORIES] = {
	[DIFF_CAT_SYSCALL] = "the syscall tables and DWARF signatures of both kernels",
	[DIFF_CAT_TYPE] = "the layouts of both kernels (DWARF)",
	[DIFF_CAT_CONSTANT] = "the UAPI headers of both kernels",
	[DIFF_CAT_IOCTL] = "the UAPI headers (command numbers) and DWARF of both kernels",
	[DIFF_CAT_VDSO] = "the vDSO images both vmlinux embed (dynamic symbols, version definitions)",
};
/* The same for two header trees (no kernel, no DWARF of one: the headers compiled). */
static const char *const headers_evidence[DIFF__NR_CATEGORIES] = {
	[DIFF_CAT_SYSCALL] = "the syscall numbers of both header trees",
	[DIFF_CAT_TYPE] = "the layouts both header trees declare, compiled as user space compiles them",
	[DIFF_CAT_CONSTANT] = "the #defines and enumerators of both header trees",
	[DIFF_CAT_IOCTL] = "the UAPI headers of both trees (command numbers, argument layouts as"
			   " compiled)",
	[DIFF_CAT_VDSO] = "the vDSO images of both kernels",	/* header trees have none */
};

const char *diff_default_evidence(enum diff_category cat)
{
	return default_evidence[cat];
}

/*
 * The finding a change belongs to, until the engine names another: a
 * type's changes are one finding per named aggregate (the changes of
 * "union bpf_attr.link_create" belong to "union bpf_attr"), the rest one
 * per thing they are about.
 */
static char *default_cause(enum diff_category cat, const char *name)
{
	const char *dot = cat == DIFF_CAT_TYPE ? strchr(name, '.') : NULL;

	return dot ? kd_strndup(name, (size_t)(dot - name)) : kd_strdup(name);
}

int diff_add(struct diff_result *r, const struct diff_new *n, size_t *idx)
{
	const struct diff_rule *rule = (unsigned)n->rule < DIFF__NR_RULES ? diff_rule(n->rule) : NULL;
	enum diff_kind kind = n->kind ? n->kind : rule ? rule->kinds[0] : DIFF_K_NONE;
	const char *name = n->name, *subject = n->subject, *old_value = n->old_value,
		   *new_value = n->new_value, *note = n->note;
	enum diff_category cat = diff_kind_category(kind);
	struct diff_change *c;
	size_t k;
	int err;

	for (k = 0; rule && k < DIFF_RULE_MAX_KINDS && rule->kinds[k] != kind; k++)
		;
	if (!rule || kind == DIFF_K_NONE || k == DIFF_RULE_MAX_KINDS) {
		kd_err("diff: internal error: rule %s does not judge a change of kind %s",
		       rule ? rule->id : "?", diff_kind_name(kind));
		return -EINVAL;
	}
	if (cat == DIFF__NR_CATEGORIES)
		cat = n->in;
	if ((unsigned)cat >= DIFF__NR_CATEGORIES) {
		kd_err("diff: internal error: a change of kind %s in no category", diff_kind_name(kind));
		return -EINVAL;
	}
	err = KD_GROW(r->changes, r->cap_changes, r->nr_changes + 1);
	if (err)
		return err;
	c = &r->changes[r->nr_changes];
	memset(c, 0, sizeof(*c));
	c->kind = diff_kind_name(kind);
	c->category = cat;
	c->rule = rule;
	c->name = kd_strdup(name);
	c->subject = kd_strdup(subject);
	c->old_value = old_value ? kd_strdup(old_value) : NULL;
	c->new_value = new_value ? kd_strdup(new_value) : NULL;
	c->note = note ? kd_strdup(note) : NULL;
	c->evidence_kind = !kd_starts_with(c->kind, "probe.") ? DIFF_EV_LAYOUT : DIFF_EV_PROBE;
	c->evidence = kd_strdup(c->evidence_kind == DIFF_EV_PROBE ?
				"the probe results of both kernels (kabi-diff probe)" :
				r->headers_only ? headers_evidence[cat] : default_evidence[cat]);
	c->cause = default_cause(cat, name);
	r->nr_changes++;	/* owned from here on: freed with the result */
	if (!c->name || !c->subject || (old_value && !c->old_value) ||
	    (new_value && !c->new_value) || (note && !c->note) || !c->evidence || !c->cause)
		return -ENOMEM;
	if (idx)
		*idx = r->nr_changes - 1;
	return 0;
}

int diff_evidence(struct diff_result *r, size_t idx, enum diff_evidence kind, const char *fmt, ...)
{
	struct diff_change *c = &r->changes[idx];
	struct kd_buf b = KD_BUF_INIT;
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = kd_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (err) {
		kd_buf_release(&b);
		return err;
	}
	free(c->evidence);
	c->evidence = kd_buf_detach(&b);
	c->evidence_kind = kind;
	return c->evidence ? 0 : -ENOMEM;
}

int diff_cause(struct diff_result *r, size_t idx, const char *cause)
{
	char *s = kd_strdup(cause);

	if (!s)
		return -ENOMEM;
	free(r->changes[idx].cause);
	r->changes[idx].cause = s;
	return 0;
}

int diff_add_impact(struct diff_result *r, size_t idx, const char *root, const char *path)
{
	struct diff_change *c = &r->changes[idx];
	struct diff_impact *im;
	size_t i;

	for (i = 0; i < c->nr_impacts; i++)
		if (!strcmp(c->impacts[i].root, root))
			return 0;
	im = kd_realloc_array(c->impacts, c->nr_impacts + 1, sizeof(*im));
	if (!im)
		return -ENOMEM;
	c->impacts = im;
	im = &c->impacts[c->nr_impacts];
	im->root = kd_strdup(root);
	im->path = kd_strdup(path);
	c->nr_impacts++;
	return im->root && im->path ? 0 : -ENOMEM;
}

static int cmp_impact(const void *pa, const void *pb)
{
	const struct diff_impact *a = pa, *b = pb;

	return strcmp(a->root, b->root);
}

static int cmp_change(const void *pa, const void *pb)
{
	const struct diff_change *a = pa, *b = pb;
	int d;

	if (a->category != b->category)
		return (int)a->category - (int)b->category;
	if ((d = strcmp(a->name, b->name)) || (d = strcmp(a->subject, b->subject)) ||
	    (d = strcmp(a->kind, b->kind)) || (d = kd_strcmp_null(a->old_value, b->old_value)))
		return d;
	return kd_strcmp_null(a->new_value, b->new_value);
}

void diff_result_sort(struct diff_result *r)
{
	size_t i;

	for (i = 0; i < r->nr_changes; i++)
		if (r->changes[i].nr_impacts > 1)
			qsort(r->changes[i].impacts, r->changes[i].nr_impacts,
			      sizeof(struct diff_impact), cmp_impact);
	if (r->nr_changes > 1)
		qsort(r->changes, r->nr_changes, sizeof(*r->changes), cmp_change);
}

void diff_change_release(struct diff_change *c)
{
	size_t j;

	for (j = 0; j < c->nr_impacts; j++) {
		free(c->impacts[j].root);
		free(c->impacts[j].path);
	}
	free(c->impacts);
	free(c->name);
	free(c->subject);
	free(c->old_value);
	free(c->new_value);
	free(c->note);
	free(c->evidence);
	free(c->cause);
	free(c->suppressed);
	free(c->decl_file);
}

void diff_for_free(struct diff_for *df)
{
	size_t i;

	if (!df)
		return;
	for (i = 0; i < df->nr_unknown; i++)
		free(df->unknown[i]);
	free(df->unknown);
	for (i = 0; i < df->nr_names; i++)
		free(df->names[i]);
	free(df->names);
	free(df->file);
	free(df->kind);
	free(df);
}

/* The modules the new kernel lacks, what each served (diff-modules.c). */
static void removed_modules_free(struct diff_result *r)
{
	size_t i, j;

	for (i = 0; i < r->nr_removed_modules; i++) {
		struct diff_module_removed *e = &r->removed_modules[i].pub;

		for (j = 0; j < e->nr_headers; j++)
			free(e->headers[j]);
		for (j = 0; j < e->nr_served; j++)
			free(e->served[j]);
		for (j = 0; j < e->nr_shared; j++)
			free(e->shared[j]);
		free(e->headers);
		free(e->served);
		free(e->shared);
		free(e->name);
		free(e->path);
		free(e->description);
	}
	free(r->removed_modules);
}

void diff_result__free(struct diff_result *r)
{
	size_t i, j;

	if (!r)
		return;
	for (i = 0; i < r->nr_changes; i++)
		diff_change_release(&r->changes[i]);
	free(r->changes);
	diff_for_free(r->usage);
	for (i = 0; i < 2; i++) {
		free(r->meta[i].path);
		free(r->meta[i].kabi);
		free(r->meta[i].release);
		free(r->meta[i].build_id);
		free(r->meta[i].arch);
		free(r->meta[i].constants);
	}
	free(r->contract_source);
	for (i = 0; i < r->nr_unmatched; i++)
		free(r->unmatched[i]);
	free(r->unmatched);
	for (i = 0; i < r->nr_uncompared; i++) {
		for (j = 0; j < r->uncompared[i].nr_types; j++)
			free((char *)r->uncompared[i].types[j]);
		free((void *)r->uncompared[i].types);
		free((char *)r->uncompared[i].header);
		free((char *)r->uncompared[i].why);
	}
	free(r->uncompared);
	removed_modules_free(r);
	free(r);
}

/* --- accessors ------------------------------------------------------------ */

size_t diff_result__nr_changes(const struct diff_result *r)
{
	return r->nr_changes;
}

const struct diff_change *diff_result__change(const struct diff_result *r, size_t i)
{
	return i < r->nr_changes ? &r->changes[i] : NULL;
}

const struct diff_change *diff_result__find(const struct diff_result *r, const char *kind,
					    const char *subject)
{
	size_t i;

	for (i = 0; i < r->nr_changes; i++)
		if (!strcmp(r->changes[i].kind, kind) && !strcmp(r->changes[i].subject, subject))
			return &r->changes[i];
	return NULL;
}

size_t diff_result__count(const struct diff_result *r, enum diff_category cat,
			  enum diff_verdict v)
{
	size_t i, n = 0;

	for (i = 0; i < r->nr_changes; i++) {
		const struct diff_change *c = &r->changes[i];

		if (!c->suppressed && c->rule->verdict == v &&
		    (cat == DIFF__NR_CATEGORIES || c->category == cat))
			n++;
	}
	return n;
}

size_t diff_result__count_suppressed(const struct diff_result *r, enum diff_category cat)
{
	size_t i, n = 0;

	for (i = 0; i < r->nr_changes; i++)
		if (r->changes[i].suppressed &&
		    (cat == DIFF__NR_CATEGORIES || r->changes[i].category == cat))
			n++;
	return n;
}

const char *diff_result__meta(const struct diff_result *r, bool new_side, const char *key)
{
	const struct diff_side_meta *m = &r->meta[new_side ? 1 : 0];

	if (!strcmp(key, "path"))
		return m->path;
	if (!strcmp(key, "kabi"))
		return m->kabi;
	if (!strcmp(key, "release"))
		return m->release;
	if (!strcmp(key, "build_id"))
		return m->build_id;
	if (!strcmp(key, "uapi_constants"))
		return m->constants;
	return NULL;
}

size_t diff_result__nr_uncompared(const struct diff_result *r)
{
	return r->nr_uncompared;
}

const struct diff_uncompared *diff_result__uncompared(const struct diff_result *r, size_t i)
{
	return i < r->nr_uncompared ? &r->uncompared[i] : NULL;
}

size_t diff_result__nr_unmatched(const struct diff_result *r)
{
	return r->nr_unmatched;
}

const char *diff_result__unmatched(const struct diff_result *r, size_t i)
{
	return i < r->nr_unmatched ? r->unmatched[i] : NULL;
}

bool diff_result__has_contract(const struct diff_result *r)
{
	return r->has_contract;
}

const char *diff_result__contract_source(const struct diff_result *r)
{
	return r->contract_source;
}

int diff_result__exit_bits(const struct diff_result *r)
{
	int bits = 0;
	size_t i;

	for (i = 0; i < r->nr_changes; i++) {
		if (r->changes[i].suppressed)
			continue;
		bits |= DIFF_EXIT_CHANGES;
		if (r->changes[i].rule->verdict == DIFF_BREAKING)
			bits |= DIFF_EXIT_BREAKING;
		else if (r->changes[i].rule->verdict == DIFF_SOURCE)
			bits |= DIFF_EXIT_SOURCE;
	}
	return bits;
}

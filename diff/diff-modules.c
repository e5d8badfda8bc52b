// SPDX-License-Identifier: GPL-2.0-only
/*
 * Modules the old kernel had and the new one lacks, and what only their
 * code served. A removed module is a removed feature: the report lists
 * each one (its .modinfo description, the UAPI headers its code includes)
 * whatever else changed, and a constant or ioctl whose header lost every
 * binary that served it is breaking, with the modules named.
 *
 * Which code serves a header is read from the binaries themselves: the
 * UAPI headers in the line tables of each binary's compilation units
 * (extract/binary-headers.c). That list misses a header a unit uses only
 * for #define values (md's personalities never name a type of
 * linux/raid/md_u.h), so two facts decide, conservatively:
 *
 * - unserved: every binary of the old kernel that includes the header is
 *   a module the new kernel lacks, and no binary of the new kernel
 *   includes it (act_ipt.ko and linux/tc_act/tc_ipt.h). What the header
 *   defines has nothing left to answer it.
 * - plugins gone: a name the new headers no longer define, in a header
 *   vmlinux does not include, whose module server the new kernel still
 *   has but not the modules built on that server (multipath.ko, faulty.ko
 *   depend on md_mod, which includes md_u.h): the name left with them.
 *
 * A header vmlinux or a remaining module still includes is served: nothing
 * is concluded from it (beyond the second case, for names the new headers
 * dropped). Without modules on both sides nothing is concluded at all.
 */
#include "diff/diff_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb-diff.h"
#include "lib/mem.h"
#include "lib/str.h"

/* By name. */
static int dmod_cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct dmod *)a)->name, ((const struct dmod *)b)->name);
}

static int diff_removed_module_cmp(const void *a, const void *b)
{
	return strcmp(((const struct diff_removed_module *)a)->pub.name,
		      ((const struct diff_removed_module *)b)->pub.name);
}

/* The most modules an evidence line names; the report's section has them all. */
#define EVIDENCE_MODULES 6

/* modprobe's spelling: '-' and '_' alike. */
static char *module_key(const char *name)
{
	char *s = kd_strdup(name ? name : ""), *p;

	for (p = s; p && *p; p++)
		if (*p == '-')
			*p = '_';
	return s;
}

static int add_module(const struct kdb_module *m, void *ctx)
{
	struct dmod_side *s = ctx;
	struct dmod *d;
	int err = KD_GROW(s->mods, s->cap_mods, s->nr_mods + 1);

	if (err)
		return err;
	d = &s->mods[s->nr_mods];
	memset(d, 0, sizeof(*d));
	d->id = m->id;
	d->name = module_key(m->name);
	d->depends = module_key(m->depends);
	d->path = kd_strdup(m->path ? m->path : "");
	d->description = m->description ? kd_strdup(m->description) : NULL;
	s->nr_mods++;
	if (!d->name || !d->depends || !d->path || (m->description && !d->description))
		return -ENOMEM;
	return 0;
}

/* Module index of @id in @s (rows come by id), -1 when none. */
static long module_by_id(const struct dmod_side *s, int64_t id)
{
	size_t lo = 0, hi = s->nr_mods;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->mods[mid].id == id)
			return (long)mid;
		if (s->mods[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int add_header(const struct kdb_binary_header *h, void *ctx)
{
	struct dmod_side *s = ctx;
	struct dmod_header *d;
	long mod = h->module_id ? module_by_id(s, h->module_id) : -1;
	int err;

	if (h->module_id && mod < 0)
		return 0;	/* a dangling id: the guard's business, not a server */
	err = KD_GROW(s->hdrs, s->cap_hdrs, s->nr_hdrs + 1);
	if (err)
		return err;
	d = &s->hdrs[s->nr_hdrs];
	d->mod = mod;
	d->header = kd_strdup(h->header ? h->header : "");
	if (!d->header)
		return -ENOMEM;
	s->nr_hdrs++;
	return 0;
}

/* The first row of header @file in @s (rows come sorted by header), or nr_hdrs. */
static size_t first_row(const struct dmod_side *s, const char *file)
{
	size_t lo = 0, hi = s->nr_hdrs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(s->hdrs[mid].header, file) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The module named @key of the new side (sorted by name by then), or NULL. */
static const struct dmod *new_module(const struct dmod_side *n, const char *key)
{
	struct dmod k = { .name = (char *)key };

	return bsearch(&k, n->mods, n->nr_mods, sizeof(*n->mods), dmod_cmp_name);
}

/* The result's entry of each module the new kernel lacks, with its headers. */
static int list_removed(struct diff_run *run)
{
	struct dmod_side *o = &run->mods.side[0], *n = &run->mods.side[1];
	struct diff_result *r = run->e.r;
	size_t i, j;
	int err = 0;

	/* By name, for lookups; the header rows keep pointing by index. */
	for (i = 0; i < n->nr_mods; i++)
		n->mods[i].index = i;
	qsort(n->mods, n->nr_mods, sizeof(*n->mods), dmod_cmp_name);
	for (i = 0; !err && i < o->nr_mods; i++) {
		struct dmod *m = &o->mods[i];
		struct diff_module_removed *e;
		struct diff_removed_module *re;

		m->removed = !bsearch(m, n->mods, n->nr_mods, sizeof(*n->mods), dmod_cmp_name);
		if (!m->removed)
			continue;
		err = KD_GROW(r->removed_modules, r->cap_removed_modules, r->nr_removed_modules + 1);
		if (err)
			break;
		re = &r->removed_modules[r->nr_removed_modules++];
		memset(re, 0, sizeof(*re));
		e = &re->pub;
		m->entry = (long)(r->nr_removed_modules - 1);
		e->name = kd_strdup(m->name);
		e->path = kd_strdup(m->path);
		e->description = m->description ? kd_strdup(m->description) : NULL;
		if (!e->name || !e->path || (m->description && !e->description))
			err = -ENOMEM;
	}
	/* Each removed module's headers, from the header-sorted rows. */
	for (j = 0; !err && j < o->nr_hdrs; j++) {
		const struct dmod_header *h = &o->hdrs[j];
		struct diff_removed_module *re;
		struct diff_module_removed *e;
		char *copy = NULL;

		if (h->mod < 0 || !o->mods[h->mod].removed)
			continue;
		re = &r->removed_modules[o->mods[h->mod].entry];
		e = &re->pub;
		err = kd_grow_array((void **)&e->headers, &re->cap_headers, e->nr_headers + 1,
				    sizeof(*e->headers));
		if (!err && !(copy = kd_strdup(h->header)))
			err = -ENOMEM;
		if (!err)
			e->headers[e->nr_headers++] = copy;
	}
	if (!err && r->nr_removed_modules)
		qsort(r->removed_modules, r->nr_removed_modules, sizeof(*r->removed_modules),
		      diff_removed_module_cmp);
	/* Entries moved: find them again by name when a verdict names them. */
	for (i = 0; !err && i < o->nr_mods; i++)
		o->mods[i].entry = -1;
	return err;
}

int diff_modules_load(struct diff_run *run)
{
	struct diff_modules *m = &run->mods;
	int side, err = 0;

	for (side = 0; !err && side < 2; side++) {
		err = kdb__foreach_module(run->db[side], add_module, &m->side[side]);
		if (!err)
			err = kdb__foreach_binary_header(run->db[side], add_header, &m->side[side]);
	}
	if (err)
		return err;
	/* Both kernels read with their modules: else absence says nothing. */
	if (!m->side[0].nr_mods || !m->side[1].nr_mods)
		return 0;
	err = list_removed(run);
	/* The schema version says binary_headers was written with the modules. */
	m->compared = !err;
	return err;
}

void diff_modules_release(struct diff_modules *m)
{
	size_t i;
	int side;

	for (side = 0; side < 2; side++) {
		struct dmod_side *s = &m->side[side];

		for (i = 0; i < s->nr_mods; i++) {
			free(s->mods[i].name);
			free(s->mods[i].depends);
			free(s->mods[i].path);
			free(s->mods[i].description);
		}
		free(s->mods);
		for (i = 0; i < s->nr_hdrs; i++)
			free(s->hdrs[i].header);
		free(s->hdrs);
	}
	memset(m, 0, sizeof(*m));
}

/* Does @depends (comma-separated keys) list @key? */
static bool depends_on(const char *depends, const char *key)
{
	size_t klen = strlen(key);

	while (*depends) {
		size_t len = strcspn(depends, ",");

		if (len == klen && !strncmp(depends, key, len))
			return true;
		depends += len + (depends[len] == ',');
	}
	return false;
}

/* Does a binary of side @s include @file (only vmlinux counts when @vmlinux)? */
static bool included_by(const struct dmod_side *s, const char *file, bool vmlinux)
{
	size_t i;

	for (i = first_row(s, file); i < s->nr_hdrs && !strcmp(s->hdrs[i].header, file); i++)
		if (!vmlinux || s->hdrs[i].mod < 0)
			return true;
	return false;
}

/* Append a copy of @s to @v unless it is its last entry already. */
static int record(char ***v, size_t *n, size_t *cap, const char *s)
{
	int err;

	if (*n && !strcmp((*v)[*n - 1], s))
		return 0;
	err = kd_grow_array((void **)v, cap, *n + 1, sizeof(**v));
	if (!err && !((*v)[*n] = kd_strdup(s)))
		err = -ENOMEM;
	if (!err)
		(*n)++;
	return err;
}

/*
 * A module named as evidence: "act_ipt (Iptables target actions)". Its
 * entry records @subject as served by removed code (@sure), or as served
 * by one of the modules named, which the binaries do not tell apart.
 */
static int name_module(struct diff_run *run, const struct dmod *m, const char *subject,
		       bool sure, size_t nth, struct kd_buf *why)
{
	struct diff_result *r = run->e.r;
	struct diff_removed_module key = { .pub.name = m->name }, *re;
	struct diff_module_removed *e;
	int err = 0;

	if (nth < EVIDENCE_MODULES)
		err = kd_buf_addf(why, "%s%s%s%s%s", nth ? ", " : "", m->name,
				  m->description ? " (\"" : "", m->description ? m->description : "",
				  m->description ? "\")" : "");
	re = bsearch(&key, r->removed_modules, r->nr_removed_modules, sizeof(key),
		     diff_removed_module_cmp);
	if (err || !re || !subject)
		return err;
	e = &re->pub;
	if (sure)
		return record(&e->served, &e->nr_served, &re->cap_served, subject);
	return record(&e->shared, &e->nr_shared, &re->cap_shared, subject);
}

static int more(struct kd_buf *why, size_t n)
{
	return n > EVIDENCE_MODULES ? kd_buf_addf(why, " and %zu more", n - EVIDENCE_MODULES) : 0;
}

/* Case 1 of the header comment: 1 with @why, 0 not so. */
static int unserved(struct diff_run *run, const char *file, const char *subject, struct kd_buf *why)
{
	const struct dmod_side *o = &run->mods.side[0], *n = &run->mods.side[1];
	size_t i, first = first_row(o, file), count = 0;
	int err;

	if (included_by(n, file, false))
		return 0;
	for (i = first; i < o->nr_hdrs && !strcmp(o->hdrs[i].header, file); i++) {
		if (o->hdrs[i].mod < 0 || !o->mods[o->hdrs[i].mod].removed)
			return 0;
		count++;
	}
	if (!count)
		return 0;
	err = kd_buf_addf(why, "only module%s ", count == 1 ? "" : "s");
	for (i = first; !err && i < first + count; i++)
		err = name_module(run, &o->mods[o->hdrs[i].mod], subject, true, i - first, why);
	if (!err)
		err = more(why, count);
	if (!err)
		err = kd_buf_addf(why, " of the old kernel included %s, and the new kernel lacks %s;"
				  " no binary of the new kernel (vmlinux, %zu module%s) includes it",
				  file, count == 1 ? "it" : "them", n->nr_mods, n->nr_mods == 1 ? "" : "s");
	return err ? err : 1;
}

/* Case 2: the removed modules built on a module that still serves @file. */
static int plugins_gone(struct diff_run *run, const char *file, const char *subject,
			struct kd_buf *why)
{
	const struct dmod_side *o = &run->mods.side[0], *n = &run->mods.side[1];
	size_t i, j, first = first_row(o, file), count = 0;
	const struct dmod *server = NULL;
	int err = 0;

	if (included_by(o, file, true))
		return 0;	/* vmlinux's: no module owns it */
	for (i = first; !server && i < o->nr_hdrs && !strcmp(o->hdrs[i].header, file); i++) {
		const struct dmod *s = &o->mods[o->hdrs[i].mod];
		const struct dmod *now = new_module(n, s->name);
		size_t k;

		if (s->removed || !now)
			continue;
		/* The server still includes the header in the new kernel. */
		for (k = first_row(n, file); k < n->nr_hdrs && !strcmp(n->hdrs[k].header, file); k++)
			if (n->hdrs[k].mod == (long)now->index)
				break;
		if (k == n->nr_hdrs || strcmp(n->hdrs[k].header, file))
			continue;
		for (j = 0; j < o->nr_mods; j++)
			count += o->mods[j].removed && depends_on(o->mods[j].depends, s->name);
		if (count)
			server = s;
	}
	if (!server)
		return 0;
	err = kd_buf_addf(why, "%s is included by %s, not by vmlinux; of the modules built on %s"
			  " (.modinfo depends), the new kernel lacks ", file, server->name,
			  server->name);
	for (i = 0, j = 0; !err && i < o->nr_mods; i++)
		if (o->mods[i].removed && depends_on(o->mods[i].depends, server->name))
			err = name_module(run, &o->mods[i], subject, count == 1, j++, why);
	if (!err)
		err = more(why, count);
	if (!err)
		err = kd_buf_adds(why, ": the name left the header with them");
	return err ? err : 1;
}

int diff_modules_gone(struct diff_run *run, const char *file, const char *subject,
		      bool removed_item, struct kd_buf *why)
{
	int found;

	kd_buf_reset(why);
	if (!run->mods.compared || !file)
		return 0;
	found = unserved(run, file, subject, why);
	if (found || !removed_item)
		return found;
	kd_buf_reset(why);
	return plugins_gone(run, file, subject, why);
}

int diff_modules_finish(struct diff_run *run)
{
	struct diff_result *r = run->e.r;
	size_t i, j, k;

	/* Served subjects in name order, each once. */
	for (i = 0; i < r->nr_removed_modules; i++) {
		struct diff_module_removed *e = &r->removed_modules[i].pub;
		char **v[2] = { e->served, e->shared };
		size_t *n[2] = { &e->nr_served, &e->nr_shared };

		for (int l = 0; l < 2; l++) {
			if (*n[l])
				qsort(v[l], *n[l], sizeof(*v[l]), kd_strcmp_ptr);
			for (j = k = 0; j < *n[l]; j++) {
				if (k && !strcmp(v[l][k - 1], v[l][j]))
					free(v[l][j]);
				else
					v[l][k++] = v[l][j];
			}
			*n[l] = k;
		}
	}
	return 0;
}

size_t diff_result__nr_removed_modules(const struct diff_result *r)
{
	return r->nr_removed_modules;
}

const struct diff_module_removed *diff_result__removed_module(const struct diff_result *r, size_t i)
{
	return i < r->nr_removed_modules ? &r->removed_modules[i].pub : NULL;
}

/*
 * header.unserved: each header of the old binaries whose every includer
 * is gone (case 1) while the new headers still define it, so nothing of it
 * looks removed. Its constants and ioctls are not repeated one by one: the
 * header is the finding.
 */
int diff_modules_unserved_headers(struct diff_run *run)
{
	const struct dmod_side *o = &run->mods.side[0];
	struct kd_buf why = KD_BUF_INIT, ov = KD_BUF_INIT, note = KD_BUF_INIT;
	size_t i, j, idx;
	int err = 0;

	for (i = 0; !err && run->mods.compared && i < o->nr_hdrs; i = j) {
		const char *file = o->hdrs[i].header;
		int64_t nc = 0, ni = 0;
		int found;

		for (j = i + 1; j < o->nr_hdrs && !strcmp(o->hdrs[j].header, file); j++)
			;
		err = kdb__header_defines(run->db[1], file, &nc, &ni);
		if (err < 0 || (!err && !nc && !ni))
			continue;	/* an error, or gone from the new headers: judged by name */
		err = 0;
		kd_buf_reset(&why);
		found = unserved(run, file, file, &why);
		if (found <= 0) {
			err = found;
			continue;
		}
		kd_buf_reset(&ov);
		kd_buf_reset(&note);
		for (size_t k = i; !err && k < j; k++)
			err = kd_buf_addf(&ov, "%s%s", k > i ? ", " : "", o->mods[o->hdrs[k].mod].name);
		if (!err && !nc && !ni)
			err = kd_buf_adds(&note, "the new headers still declare its types");
		else if (!err)
			err = kd_buf_addf(&note, "the new headers still define %lld constant%s and %lld"
					  " ioctl%s in it", (long long)nc, nc == 1 ? "" : "s",
					  (long long)ni, ni == 1 ? "" : "s");
		if (!err)
			err = diff_add(run->e.r, &(struct diff_new){
					.rule = DIFF_R_HEADER_UNSERVED, .name = file, .subject = file,
					.old_value = ov.s, .new_value = "none", .note = note.s }, &idx);
		if (!err)
			err = diff_evidence(run->e.r, idx, DIFF_EV_KERNEL, "%s", why.s);
		if (!err)
			err = diff_cause(run->e.r, idx, file);
	}
	kd_buf_release(&why);
	kd_buf_release(&ov);
	kd_buf_release(&note);
	return err;
}

bool diff_modules_included(const struct diff_run *run, const char *file)
{
	return run->mods.compared && file && included_by(&run->mods.side[0], file, false);
}

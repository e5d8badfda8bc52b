// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ioctls of the UAPI headers, each row of the SQL join (db/kdb-diff.c)
 * judged with what the old kernel's binary shows: an ioctl whose argument
 * type no built code uses (neither vmlinux nor any of its modules defines
 * it), or all of whose header's ioctls are so, was never served by that
 * kernel; a module named after a header that is gone in the new kernel
 * takes the header's ioctls with it. Those facts are loaded here for the
 * constants too (diff-constants.c).
 */
#include "diff/diff_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb-uapi.h"
#include "lib/mem.h"
#include "lib/str.h"

/* --- facts ------------------------------------------------------------- */

static bool has_module(const struct diff_facts *k, int side, const char *name)
{
	return k->nr_modules[side] &&
	       bsearch(&name, k->modules[side], k->nr_modules[side], sizeof(char *), kd_strcmp_ptr);
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static bool is_built_id(const struct diff_facts *k, int64_t id)
{
	return k->nr_built_ids && bsearch(&id, k->built_ids, k->nr_built_ids, sizeof(id), cmp_id);
}

/*
 * The type an argument spelled as a pointer points to, when @io's header
 * declares it: linux/cm4000_cs.h's _IOWR(CM_IOC_MAGIC, 1, atreq_t *) sizes
 * the command by the pointer (its arg_type is none), yet the driver's
 * handler copies what it points to, so whether any binary defines that
 * tells whether the old kernel served it. The caller strips the typedef:
 * cm4000_cs.ko's DWARF has struct atreq and no atreq_t (extract searched
 * the binaries for both). 0 when there is none.
 */
static int64_t pointee_type(const struct diff_run *run, const struct kd_ioctl *io)
{
	const char *text = io->arg_type_text, *end;
	struct kd_buf name = KD_BUF_INIT;
	bool tag = false;
	int64_t id = 0;

	if (!text || !io->file)
		return 0;
	end = text + strlen(text);
	if (end - text < 3 || strcmp(end - 2, " *"))
		return 0;	/* not one pointer ("int", "struct x **": nothing to find) */
	end -= 2;
	if (kd_starts_with(text, "struct ") || kd_starts_with(text, "union ") || kd_starts_with(text, "enum ")) {
		text = strchr(text, ' ') + 1;
		tag = true;
	}
	if (memchr(text, ' ', (size_t)(end - text)) || memchr(text, '*', (size_t)(end - text)))
		return 0;	/* "unsigned char *", "const x *": a base type or qualified */
	if (kd_buf_addf(&name, "%.*s", (int)(end - text), text) ||
	    kdb__uapi_type_named(run->db[0], io->file, name.s, tag, &id))
		id = 0;
	kd_buf_release(&name);
	return id;
}

/*
 * Did the old kernel build code that uses @io's argument type? 1 yes, 0 no
 * (a struct, union or enum argument no binary of the old kernel defines),
 * -1 cannot tell (no argument, a plain C type, or the old kernel was read
 * without its modules).
 */
static int ioctl_built(const struct diff_run *run, const struct kd_ioctl *io)
{
	const struct kd_type *t;
	int64_t id;

	if (!run->k.nr_modules[0])
		return -1;
	if (!io->arg_type && io->arg_type_text && !io->size_trusted)
		return 0;
	id = io->arg_type ? io->arg_type : pointee_type(run, io);
	if (!id)
		return -1;
	t = tgraph_strip(&run->e.g[0], id);
	if (!t || (t->kind != KD_KIND_STRUCT && t->kind != KD_KIND_UNION && t->kind != KD_KIND_ENUM))
		return -1;
	return is_built_id(&run->k, t->id) || is_built_id(&run->k, id);
}

int diff_ioctl_built(const struct diff_run *run, const struct kd_ioctl *io)
{
	return ioctl_built(run, io);
}

struct ioctl_row {
	char *file;
	int built;
};

struct rows {
	struct ioctl_row *v;
	size_t n, cap;
	const struct diff_run *run;
};

static int collect_ioctl(const struct kd_ioctl *io, void *ctx)
{
	struct rows *r = ctx;
	int err;

	if (!io->file)
		return 0;
	err = KD_GROW(r->v, r->cap, r->n + 1);
	if (err)
		return err;
	r->v[r->n].built = ioctl_built(r->run, io);
	if (!(r->v[r->n].file = kd_strdup(io->file)))
		return -ENOMEM;
	r->n++;
	return 0;
}

static int cmp_row(const void *a, const void *b)
{
	return strcmp(((const struct ioctl_row *)a)->file, ((const struct ioctl_row *)b)->file);
}

/* Per header of the old kernel: how many ioctls have a typed argument, how many were built. */
static int load_headers(struct diff_run *run)
{
	struct rows r = { .run = run };
	struct diff_facts *k = &run->k;
	size_t i;
	int err;

	err = kdb__foreach_ioctl(run->db[0], NULL, collect_ioctl, &r);
	if (!err && r.n)
		qsort(r.v, r.n, sizeof(*r.v), cmp_row);
	for (i = 0; !err && i < r.n; i++) {
		struct diff_header *h;

		if (!k->nr_headers || strcmp(k->headers[k->nr_headers - 1].file, r.v[i].file)) {
			err = KD_GROW(k->headers, k->cap_headers, k->nr_headers + 1);
			if (err)
				break;
			h = &k->headers[k->nr_headers++];
			memset(h, 0, sizeof(*h));
			h->file = r.v[i].file;
			r.v[i].file = NULL;
		}
		h = &k->headers[k->nr_headers - 1];
		h->typed += r.v[i].built >= 0;
		h->built += r.v[i].built > 0;
	}
	for (i = 0; i < r.n; i++)
		free(r.v[i].file);
	free(r.v);
	return err;
}

int diff_facts_load(struct diff_run *run)
{
	struct diff_facts *k = &run->k;
	int side, err = 0;

	for (side = 0; !err && side < 2; side++)
		err = kdb__module_names(run->db[side], &k->modules[side], &k->nr_modules[side]);
	if (!err)
		err = kdb__built_type_ids(run->db[0], &k->built_ids, &k->nr_built_ids);
	if (!err)
		err = load_headers(run);
	return err;
}

void diff_facts_release(struct diff_facts *k)
{
	size_t i;
	int side;

	for (side = 0; side < 2; side++) {
		for (i = 0; i < k->nr_modules[side]; i++)
			free(k->modules[side][i]);
		free(k->modules[side]);
	}
	for (i = 0; i < k->nr_headers; i++)
		free(k->headers[i].file);
	free(k->headers);
	free(k->built_ids);
	memset(k, 0, sizeof(*k));
}

static const struct diff_header *find_header(const struct diff_facts *k, const char *file)
{
	size_t lo = 0, hi = k->nr_headers;

	while (file && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int d = strcmp(k->headers[mid].file, file);

		if (!d)
			return &k->headers[mid];
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * The module named after header @file ("linux/cm4000_cs.h": cm4000_cs; a
 * DRM driver's "drm/i810_drm.h": i810 too) in kernel @side, copied into
 * @b; false when none.
 */
static bool header_module(const struct diff_facts *k, int side, const char *file, struct kd_buf *b)
{
	const char *base = file ? strrchr(file, '/') : NULL, *dot;
	size_t len;
	char *p;

	base = base ? base + 1 : file;
	if (!base)
		return false;
	dot = strrchr(base, '.');
	len = dot ? (size_t)(dot - base) : strlen(base);
	kd_buf_reset(b);
	if (kd_buf_addf(b, "%.*s", (int)len, base))
		return false;
	for (p = b->s; *p; p++)
		if (*p == '-')
			*p = '_';
	if (has_module(k, side, b->s))
		return true;
	if (b->len > 4 && !strcmp(b->s + b->len - 4, "_drm")) {
		b->s[b->len -= 4] = '\0';
		return has_module(k, side, b->s);
	}
	return false;
}

/*
 * Was no ioctl of header @file served by the old kernel? True when the
 * old kernel was read with its modules, at least one of the header's
 * ioctls takes a struct, union or enum, none of those types is defined by
 * any of its binaries, no module is named after the header and no
 * binary's line tables name it (diff-modules.c).
 */
bool diff_header_unbuilt(const struct diff_run *run, const char *file, struct kd_buf *scratch)
{
	const struct diff_header *h = find_header(&run->k, file);

	return h && h->typed && !h->built && !header_module(&run->k, 0, file, scratch) &&
	       !diff_modules_included(run, file);
}

/* --- verdicts ------------------------------------------------------------ */

int diff_judge(struct diff_judged *j, enum diff_rule_id rule, enum diff_evidence ev,
	       const char *fmt, ...)
{
	va_list ap;
	int err;

	j->rule = rule;
	j->ev = ev;
	kd_buf_reset(&j->text);
	va_start(ap, fmt);
	err = kd_buf_vaddf(&j->text, fmt, ap);
	va_end(ap);
	return err;
}

/* --- ioctls --------------------------------------------------------------- */

static int cmp_text(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/*
 * What differs between two ioctl numbers, "dir w -> rw, size 24 -> 32". A
 * size one side could not find (its argument type in no DWARF it read: a
 * problem row there) is no difference: the inputs differ, not the ioctl.
 */
static int ioctl_why(struct kd_buf *b, const struct kd_ioctl *o, const struct kd_ioctl *n)
{
	int err = 0;

	/* A plain number (TCGETS) holds no direction or size: only the argument's layout moved. */
	bool plain = (o->source && !strcmp(o->source, "number")) ||
		     (n->source && !strcmp(n->source, "number"));

	kd_buf_reset(b);
	if (!plain && cmp_text(o->dir, n->dir))
		err = kd_buf_addf(b, "%sdir %s -> %s", b->len ? ", " : "", o->dir, n->dir);
	if (!err && !plain && o->has_size && n->has_size && o->size != n->size)
		err = kd_buf_addf(b, "%ssize %" PRId64 " -> %" PRId64, b->len ? ", " : "",
				  o->size, n->size);
	if (!err && o->type_char != n->type_char)
		err = kd_buf_addf(b, "%stype 0x%02x -> 0x%02x", b->len ? ", " : "", o->type_char,
				  n->type_char);
	if (!err && o->nr != n->nr)
		err = kd_buf_addf(b, "%snr %d -> %d", b->len ? ", " : "", o->nr, n->nr);
	return err;
}

static bool only_size_changed(const struct kd_ioctl *o, const struct kd_ioctl *n)
{
	return !cmp_text(o->dir, n->dir) && o->type_char == n->type_char && o->nr == n->nr;
}

/*
 * A command number that changed only because its argument's size did
 * belongs to the finding of that argument's type ("struct drm_syncobj_wait"):
 * the struct's changes and the numbers they moved are read together.
 */
int diff_header_cause(struct diff_run *run, size_t idx, const char *file, bool always)
{
	struct kd_buf b = KD_BUF_INIT;
	char *user = NULL;
	int err, i;

	for (i = 1, err = 0; !err && !user && i >= 0; i--)
		if (run->db[i])
			err = kdb__outside_user(run->db[i], file, &user);
	if (!err && !user)
		return always ? diff_cause(run->e.r, idx, file) : 0;
	if (!err)
		err = kd_buf_addf(&b, "%s (outside include/uapi; used by %s)", file, user);
	if (!err)
		err = diff_cause(run->e.r, idx, b.s);
	kd_buf_release(&b);
	free(user);
	return err;
}

static int ioctl_cause(struct diff_run *run, size_t idx, const struct kd_ioctl *o,
		       const struct kd_ioctl *n)
{
	const struct kd_type *t = n->arg_type ? tgraph_strip(&run->e.g[1], n->arg_type) : NULL;
	struct kd_buf b = KD_BUF_INIT;
	int err;

	if (!t || !t->name || (t->kind != KD_KIND_STRUCT && t->kind != KD_KIND_UNION) ||
	    !only_size_changed(o, n))
		return n->file ? diff_header_cause(run, idx, n->file, false) : 0;
	err = kd_buf_addf(&b, "%s %s", t->kind == KD_KIND_STRUCT ? "struct" : "union", t->name);
	if (!err)
		err = diff_cause(run->e.r, idx, b.s);
	kd_buf_release(&b);
	return err;
}

/* The rule and evidence of an ioctl the new kernel's headers no longer define. */
static int judge_removed(struct diff_run *run, const struct kd_ioctl *o, struct diff_judged *j)
{
	const struct diff_contract *c = run->e.conf->contract;
	struct diff_where w = { 0 };
	struct kd_buf mod = KD_BUF_INIT;
	int built = ioctl_built(run, o), err;
	size_t len = o->arg_type_text ? strlen(o->arg_type_text) : 0;
	bool pointer = len > 2 && !strcmp(o->arg_type_text + len - 2, " *");

	if (c && c->unimplemented && c->unimplemented(c->ctx, true, o->name, &w))
		return diff_judge(j, DIFF_R_IOCTL_REMOVED_UNIMPLEMENTED, DIFF_EV_CONTRACT,
			     "%s:%d: %s is unimplemented: the old kernel already failed it", w.file,
			     w.line, o->name);
	if (built == 0) {
		err = diff_judge(j, DIFF_R_IOCTL_REMOVED_UNBUILT, DIFF_EV_KERNEL,
			    "no binary of the old kernel (vmlinux and %zu modules) defines %s%s:"
			    " no code served %s", run->k.nr_modules[0],
			    pointer ? "what its argument points to, " : "", o->arg_type_text, o->name);
	} else if ((err = diff_modules_gone(run, o->file, o->name, true, &j->text))) {
		j->rule = DIFF_R_IOCTL_REMOVED;
		j->ev = DIFF_EV_KERNEL;
		err = err < 0 ? err : 0;
	} else if (header_module(&run->k, 0, o->file, &mod)) {
		bool gone = !has_module(&run->k, 1, mod.s) && run->k.nr_modules[1];

		err = diff_judge(j, DIFF_R_IOCTL_REMOVED, DIFF_EV_KERNEL, "module %s (named after %s) is in"
			    " the old kernel%s", mod.s, o->file,
			    gone ? " and not in the new one" : "");
	} else if (built < 0 && diff_header_unbuilt(run, o->file, &mod)) {
		err = diff_judge(j, DIFF_R_IOCTL_REMOVED_UNBUILT, DIFF_EV_KERNEL,
			    "no binary of the old kernel (vmlinux and %zu modules) defines a"
			    " type of %s's ioctls: none of them was served",
			    run->k.nr_modules[0], o->file);
	} else if (built > 0) {
		err = diff_judge(j, DIFF_R_IOCTL_REMOVED, DIFF_EV_KERNEL, "the old kernel's binaries define"
			    " %s (%s); the new headers do not define %s",
			    pointer ? "what its argument points to" : "its argument type",
			    o->arg_type_text, o->name);
	} else if (!run->k.nr_modules[0]) {
		/*
		 * Most ioctls are a driver's, and a driver is mostly a module:
		 * without them, absence from vmlinux says nothing, and the
		 * reader must know the verdict stands on the headers alone.
		 */
		err = diff_judge(j, DIFF_R_IOCTL_REMOVED, DIFF_EV_LAYOUT, "%s is in %s of the old headers"
			    " only; the old kernel was read without its modules, so whether its"
			    " code served %s is not known (extract it with --modules to decide)",
			    o->name, o->file ? o->file : "a header", o->name);
	} else {
		err = diff_judge(j, DIFF_R_IOCTL_REMOVED, DIFF_EV_LAYOUT, "%s is in %s of the old headers only",
			    o->name, o->file ? o->file : "a header");
	}
	kd_buf_release(&mod);
	return err;
}

static int judge_cmd(struct diff_run *run, const struct kd_ioctl *o, const struct kd_ioctl *n,
		     struct diff_judged *j)
{
	const struct diff_contract *c = run->e.conf->contract;
	struct diff_where w = { 0 };
	struct kd_buf mod = KD_BUF_INIT;
	int err;

	if (only_size_changed(o, n) && c && c->size_tolerant &&
	    c->size_tolerant(c->ctx, n->name, n->type_char, n->file, &w))
		return diff_judge(j, DIFF_R_IOCTL_SIZE_TOLERANT, DIFF_EV_CONTRACT, "%s:%d: the ioctls of type"
			     " 0x%02x%s%s are size tolerant", w.file, w.line, n->type_char,
			     n->file ? " in " : "", n->file ? n->file : "");
	if (ioctl_built(run, o) == 0 || (ioctl_built(run, o) < 0 && diff_header_unbuilt(run, o->file, &mod)))
		err = diff_judge(j, DIFF_R_IOCTL_CMD_UNBUILT, DIFF_EV_KERNEL, "no binary of the old kernel"
			    " (vmlinux and %zu modules) defines a type of %s's ioctls: none of them"
			    " was served", run->k.nr_modules[0], o->file ? o->file : "its header");
	else
		err = diff_judge(j, DIFF_R_IOCTL_CMD, DIFF_EV_LAYOUT, "%s",
			    "the command numbers of both kernels' headers");
	kd_buf_release(&mod);
	return err;
}

int diff_on_ioctl(const struct kdb_ioctl_pair *p, void *ctx)
{
	struct diff_run *run = ctx;
	const struct kd_ioctl *o = p->old, *n = p->new;
	const char *name = o ? o->name : n->name;
	struct diff_judged j = { .text = KD_BUF_INIT };
	struct kd_buf why = KD_BUF_INIT;
	size_t root, idx;
	int err = 0;

	kd_buf_reset(&run->ov);
	kd_buf_reset(&run->nv);
	if (o && o->has_cmd)
		err = kd_buf_addf(&run->ov, "0x%08" PRIx32, o->cmd);
	if (!err && n && n->has_cmd)
		err = kd_buf_addf(&run->nv, "0x%08" PRIx32, n->cmd);
	if (err)
		goto out;
	if (!o || !n) {
		if (o)
			err = judge_removed(run, o, &j);
		if (!err)
			err = diff_add(run->e.r, &(struct diff_new){
					.rule = o ? j.rule : DIFF_R_IOCTL_ADDED, .name = name,
					.subject = name, .old_value = o ? run->ov.s : NULL,
					.new_value = n ? run->nv.s : NULL }, &idx);
		if (!err && o)
			err = diff_evidence(run->e.r, idx, j.ev, "%s", j.text.s);
		if (!err)
			err = diff_add_impact(run->e.r, idx, name, name);
		if (!err && (o ? o : n)->file)
			err = diff_header_cause(run, idx, (o ? o : n)->file, true);
		goto out;
	}
	err = dt_root(&run->e, name, &root);
	if (!err)
		err = ioctl_why(&why, o, n);
	/* An unknown number (unsized argument) reads "?" in the report. */
	if (!err && !o->has_cmd)
		err = kd_buf_adds(&run->ov, "?");
	if (!err && !n->has_cmd)
		err = kd_buf_adds(&run->nv, "?");
	if (!err && ((o->has_cmd && n->has_cmd && o->cmd != n->cmd) || why.len)) {
		err = judge_cmd(run, o, n, &j);
		if (!err)
			err = diff_add(run->e.r, &(struct diff_new){
					.rule = j.rule, .name = name, .subject = name,
					.old_value = run->ov.s, .new_value = run->nv.s,
					.note = why.len ? why.s : NULL }, &idx);
		if (!err)
			err = diff_evidence(run->e.r, idx, j.ev, "%s", j.text.s);
		if (!err)
			err = dt_own(&run->e, root, idx);
		if (!err)
			err = ioctl_cause(run, idx, o, n);
	}
	if (err)
		goto out;
	if (o->arg_type && n->arg_type) {
		const struct diff_contract *c = run->e.conf->contract;

		err = dt_ioctl_arg(&run->e, root, name, o->arg_type, n->arg_type,
				   c && c->size_tolerant &&
				   c->size_tolerant(c->ctx, n->name, n->type_char, n->file, NULL));
	} else if (cmp_text(o->arg_type_text, n->arg_type_text)) {
		err = diff_add(run->e.r, &(struct diff_new){
				.rule = DIFF_R_IOCTL_ARG_TYPE, .name = name, .subject = name,
				.old_value = o->arg_type_text, .new_value = n->arg_type_text,
				.note = "types known by their text only" }, &idx);
		if (!err)
			err = dt_own(&run->e, root, idx);
	}
out:
	kd_buf_release(&why);
	kd_buf_release(&j.text);
	return err;
}

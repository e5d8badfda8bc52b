// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel vs header, within one kernel: a struct or union that a UAPI
 * header declares (compiled as user space compiles it: the header view)
 * and that the kernel's own DWARF lays out otherwise, the kernel's row
 * declared in that same header of the kernel tree (kdb__header_kernel_pairs()).
 * Programs are built from the header; the kernel runs its own layout:
 * each difference (the size, a member's offset, size or bit-field, a
 * member only one side has) is a change of its own, of the new kernel.
 * The same difference in the old kernel is no change between the two.
 * An old side that is a header tree has no kernel layouts: whether its
 * kernel had the difference is unknown, so a kernel against its own
 * headers read alone found "breaking" changes in struct sockaddr (the C
 * library's, which the headers use, against the kernel's). Such types
 * are listed as not compared instead (issue 29).
 *
 * Members are compared flattened (anonymous structs and unions lifted to
 * absolute bit positions) and matched by name; a named member's own
 * layout is its type's business (its own pair when a header declares it).
 * A member only one side has is a difference when the other side puts a
 * member of its own (one the first lacks) in its bytes: the bytes mean
 * different things. One over the other side's padding (asound.h's
 * kernel-only pad3 where user space has implicit padding), an alias of
 * members both have (media.h's user-space-only alsa, v4l, fb, dvb in a
 * union beside raw[184]; videodev2.h's ctrl_class beside which) or one
 * that takes no bytes (asound.h's __pad1[0]) lays nothing out otherwise.
 */
#include "diff/diff_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb-diff.h"
#include "lib/buf.h"
#include "lib/find.h"
#include "lib/mem.h"

#define MAX_FLAT 4096	/* members of one flattened type; more: the rest not compared */
#define MAX_DEPTH 16	/* anonymous aggregates inside each other */

struct flat {
	const char *name;
	int64_t bit;		/* absolute position in bits */
	int64_t bits;		/* width: bit-field width, or 8 * the member type's size (-8: unknown) */
	bool bitfield;
};

struct flat_list {
	struct flat v[MAX_FLAT];
	size_t n;
};

static void flatten(const struct tgraph *g, const struct kd_type *t, int64_t base,
		    struct flat_list *l, int depth)
{
	size_t i;

	for (i = 0; i < t->nr_members && l->n < MAX_FLAT; i++) {
		const struct kd_member *m = &t->members[i];
		const struct kd_type *mt = tgraph_strip(g, m->type);
		int64_t at = base + m->offset * 8 + m->bit_offset;

		if (!m->name) {
			if (mt && (mt->kind == KD_KIND_STRUCT || mt->kind == KD_KIND_UNION) &&
			    depth < MAX_DEPTH)
				flatten(g, mt, at, l, depth + 1);
			continue;
		}
		l->v[l->n++] = (struct flat){ .name = m->name, .bit = at,
					      .bits = m->bit_size ? m->bit_size : tgraph_size(g, m->type) * 8,
					      .bitfield = m->bit_size != 0 };
	}
}

static const struct flat *find(const struct flat_list *l, const char *name)
{
	return KD_FIND_NAMED(const struct flat, l->v, l->n, name, name);
}

/* Does a member of @l that @other lacks cover any bit of @f? */
static bool clashes(const struct flat *f, const struct flat_list *l, const struct flat_list *other)
{
	size_t i;

	if (f->bits <= 0)
		return false;
	for (i = 0; i < l->n; i++) {
		const struct flat *y = &l->v[i];

		if (y->bits > 0 && y->bit < f->bit + f->bits && f->bit < y->bit + y->bits &&
		    !find(other, y->name))
			return true;
	}
	return false;
}

static int describe(struct kd_buf *b, const struct flat *f)
{
	kd_buf_reset(b);
	if (!f)
		return kd_buf_adds(b, "absent");
	if (f->bitfield || f->bit % 8)
		return kd_buf_addf(b, "at bit %" PRId64 ", %" PRId64 " bits", f->bit, f->bits);
	if (f->bits < 0)
		return kd_buf_addf(b, "at %" PRId64 ", size unknown", f->bit / 8);
	return kd_buf_addf(b, "at %" PRId64 ", %" PRId64 " bytes", f->bit / 8, f->bits / 8);
}

/* One difference of one kernel: "struct foo.m" | header's | kernel's. */
struct mismatch {
	char *subject, *header, *kernel;
};

struct mismatches {
	struct mismatch *v;
	size_t n, cap;
};

static int add(struct mismatches *ms, const char *subject, const char *header, const char *kernel)
{
	struct mismatch *m;
	int err = KD_GROW(ms->v, ms->cap, ms->n + 1);

	if (err)
		return err;
	m = &ms->v[ms->n];
	m->subject = kd_strdup(subject);
	m->header = kd_strdup(header);
	m->kernel = kd_strdup(kernel);
	ms->n++;
	return m->subject && m->header && m->kernel ? 0 : -ENOMEM;
}

static void release(struct mismatches *ms)
{
	size_t i;

	for (i = 0; i < ms->n; i++) {
		free(ms->v[i].subject);
		free(ms->v[i].header);
		free(ms->v[i].kernel);
	}
	free(ms->v);
	*ms = (struct mismatches){ 0 };
}

/* The differences of @h (header view) and @k (kernel) into @ms, under @disp ("struct foo"). */
static int compare(const struct tgraph *g, const char *disp, const struct kd_type *h,
		   const struct kd_type *k, struct mismatches *ms)
{
	struct flat_list *lh = kd_calloc(1, sizeof(*lh)), *lk = kd_calloc(1, sizeof(*lk));
	struct kd_buf subj = KD_BUF_INIT, a = KD_BUF_INIT, b = KD_BUF_INIT;
	size_t i;
	int err = lh && lk ? 0 : -ENOMEM;

	if (!err && h->size != k->size) {
		err = kd_buf_addf(&a, "%" PRId64 " bytes", h->size);
		if (!err)
			err = kd_buf_addf(&b, "%" PRId64 " bytes", k->size);
		if (!err)
			err = add(ms, disp, a.s, b.s);
	}
	if (!err) {
		flatten(g, h, 0, lh, 0);
		flatten(g, k, 0, lk, 0);
	}
	for (i = 0; !err && i < lh->n; i++) {
		const struct flat *x = &lh->v[i], *y = find(lk, x->name);

		if (y ? x->bit == y->bit && x->bits == y->bits && x->bitfield == y->bitfield :
			!clashes(x, lk, lh))
			continue;
		kd_buf_reset(&subj);
		err = kd_buf_addf(&subj, "%s.%s", disp, x->name);
		if (!err)
			err = describe(&a, x);
		if (!err)
			err = describe(&b, y);
		if (!err)
			err = add(ms, subj.s, a.s, b.s);
	}
	for (i = 0; !err && i < lk->n; i++) {
		if (find(lh, lk->v[i].name) || !clashes(&lk->v[i], lh, lk))
			continue;
		kd_buf_reset(&subj);
		err = kd_buf_addf(&subj, "%s.%s", disp, lk->v[i].name);
		if (!err)
			err = describe(&a, NULL);
		if (!err)
			err = describe(&b, &lk->v[i]);
		if (!err)
			err = add(ms, subj.s, a.s, b.s);
	}
	free(lh);
	free(lk);
	kd_buf_release(&subj);
	kd_buf_release(&a);
	kd_buf_release(&b);
	return err;
}

struct walk {
	const struct tgraph *g;
	struct diff_result *r;		/* NULL: collect only (the old kernel) */
	bool untold;			/* the old side is a header tree: not compared */
	const struct mismatches *old;	/* the old kernel's, for "kept" */
	struct mismatches ms;
	struct kd_buf disp, ev;
};

static bool in_old(const struct mismatches *old, const struct mismatch *m)
{
	size_t i;

	for (i = 0; old && i < old->n; i++)
		if (!strcmp(old->v[i].subject, m->subject) && !strcmp(old->v[i].header, m->header) &&
		    !strcmp(old->v[i].kernel, m->kernel))
			return true;
	return false;
}

#define UNTOLD_WHY "kernel vs header: the old side is a header tree, with no kernel" \
	" layouts to tell whether its kernel differed from its headers as the new one does"

/* @disp of header @file differs from its kernel's layout: not compared. */
static int untold(struct diff_result *r, const char *file, const char *disp)
{
	size_t i, entry = 0;

	for (i = 0; i < r->nr_uncompared && !entry; i++)
		if (r->uncompared[i].header && !strcmp(r->uncompared[i].header, file) &&
		    !strcmp(r->uncompared[i].why, UNTOLD_WHY))
			entry = i + 1;
	if (!entry && !(entry = diff_uncompared_add(r, file, UNTOLD_WHY)))
		return -ENOMEM;
	return diff_uncompared_add_type(&r->uncompared[entry - 1], disp);
}

static int on_pair(const struct kdb_header_kernel_pair *p, void *ctx)
{
	struct walk *w = ctx;
	const struct kd_type *h = tgraph_get(w->g, p->header_id), *k = tgraph_get(w->g, p->kernel_id);
	size_t first = w->ms.n, i;
	int err;

	if (!h || !k)
		return 0;
	kd_buf_reset(&w->disp);
	err = kd_buf_addf(&w->disp, "%s %s", p->kind, p->name);
	if (!err)
		err = compare(w->g, w->disp.s, h, k, &w->ms);
	if (!err && w->r && w->untold)
		return w->ms.n > first ? untold(w->r, p->file, w->disp.s) : 0;
	for (i = first; !err && w->r && i < w->ms.n; i++) {
		const struct mismatch *m = &w->ms.v[i];
		enum diff_rule_id rule = !p->reached ? DIFF_R_HEADER_KERNEL_UNREACHED :
					 in_old(w->old, m) ? DIFF_R_HEADER_KERNEL_KEPT :
					 DIFF_R_HEADER_KERNEL_MISMATCH;
		size_t idx;

		err = diff_add(w->r, &(struct diff_new){ .rule = rule, .name = w->disp.s,
				.subject = m->subject, .old_value = m->header, .new_value = m->kernel,
				.note = "old: the header's layout, new: the kernel's" }, &idx);
		if (!err)
			err = diff_evidence(w->r, idx, DIFF_EV_KERNEL,
					    "the new kernel's DWARF (%s:%d) against its header %s compiled"
					    " as user space compiles it%s", p->decl_file, p->decl_line,
					    p->file, !p->reached ? "; no syscall or ioctl reaches it" :
					    rule == DIFF_R_HEADER_KERNEL_KEPT ?
					    "; the old kernel has the same difference" : "");
		if (!err) {
			kd_buf_reset(&w->ev);
			err = kd_buf_addf(&w->ev, "%s (header vs kernel)", w->disp.s);
		}
		if (!err)
			err = diff_cause(w->r, idx, w->ev.s);
		if (!err) {
			kd_buf_reset(&w->ev);
			err = kd_buf_addf(&w->ev, "%s -> %s", p->file, w->disp.s);
		}
		if (!err)
			err = diff_add_impact(w->r, idx, p->file, w->ev.s);
	}
	return err;
}

int diff_header_kernel(struct diff_result *r, struct kdb *old, const struct tgraph *g_old,
		       struct kdb *new, const struct tgraph *g_new)
{
	struct walk wo = { .g = g_old, .disp = KD_BUF_INIT, .ev = KD_BUF_INIT };
	struct walk wn = { .g = g_new, .r = r, .old = &wo.ms, .disp = KD_BUF_INIT,
			   .ev = KD_BUF_INIT };
	int err;

	wn.untold = !diff_result__coverage(r, false)->vmlinux;
	err = kdb__header_kernel_pairs(old, on_pair, &wo);

	if (!err)
		err = kdb__header_kernel_pairs(new, on_pair, &wn);
	release(&wo.ms);
	release(&wn.ms);
	kd_buf_release(&wo.disp);
	kd_buf_release(&wo.ev);
	kd_buf_release(&wn.disp);
	kd_buf_release(&wn.ev);
	return err;
}

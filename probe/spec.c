// SPDX-License-Identifier: GPL-2.0-only
/*
 * The contract turned into probe cases. For every syscall of the spec that
 * the kernel's table has and that is safe to call (see probe__spec_skip()),
 * each parameter gets a harmless baseline value (AT_FDCWD or a ready-made
 * fd, an existing or a missing path, a zeroed buffer of the struct's first
 * size, 0 for flags, the first value of an enum, a pid no process can
 * have), and every errno whose `when` condition evaluates becomes a case:
 * a small search over candidate values taken from the condition's own
 * constants (c, c+1, c-1, the bit above c's highest, ...) changes one or
 * two variables until that condition is true and every other condition of
 * the call is false; the spec's expression evaluator is the judge, so the
 * search may be naive but never produces a case that does not meet its
 * condition. Flag parameters and flag fields of struct arguments expand
 * through probe_set__add_flags() (each bit alone, every unused bit), and a
 * flag case that makes one of the call's conditions true expects that
 * errno instead of "accepted". Constants come from the .kabi (UAPI headers
 * of this kernel), struct field offsets and widths from its DWARF types.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "db/type-cache.h"
#include "lib/arch.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/model.h"
#include "lib/str.h"
#include "probe/probe.h"
#include "probe/conv_internal.h"
#include "spec/spec.h"

/* --- the search ------------------------------------------------------------ */
#define ALL ((size_t)-1)

/* Is errno @j's condition not true (false or not evaluable), ignoring @target's errno name? */
static bool others_false(struct conv *cv, size_t target)
{
	const struct spec_call *c = cv->call;
	size_t j;

	for (j = 0; j < c->nr_errnos; j++) {
		if (!c->errnos[j].when || j == target ||
		    (target != ALL && !strcmp(c->errnos[j].name, c->errnos[target].name)))
			continue;
		if (conv_truth(cv, c->errnos[j].when) == 1)
			return false;
	}
	return true;
}

static bool goal(struct conv *cv, size_t target)
{
	return (target == ALL || conv_truth(cv, cv->call->errnos[target].when) == 1) &&
	       others_false(cv, target);
}

struct cands {
	uint64_t v[MAX_CANDS];
	size_t n;
};

static void cand_add(struct cands *cs, uint64_t v)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (cs->v[i] == v)
			return;
	if (cs->n < MAX_CANDS)
		cs->v[cs->n++] = v;
}

/* The constants of @e: numbers and UAPI constants into @k, flag set masks into @m. */
static void consts_of(struct conv *cv, const struct spec_expr *e, struct cands *k,
		      struct cands *m)
{
	uint64_t v;

	if (!e)
		return;
	if (e->op == SPEC_EX_NUM)
		cand_add(k, e->num);
	else if (e->op == SPEC_EX_NAME && e->ref != SPEC_REF_PARAM && !conv_lookup(e->name, &v, cv))
		cand_add(e->ref == SPEC_REF_SET ? m : k, v);
	consts_of(cv, e->a, k, m);
	consts_of(cv, e->b, k, m);
}

static void vars_of(struct conv *cv, const struct spec_expr *e, bool *vars)
{
	if (!e)
		return;
	if (e->op == SPEC_EX_NAME && e->ref == SPEC_REF_PARAM) {
		struct conv_slot *sl = conv_find_slot(cv, e->name);

		if (sl)
			vars[sl - cv->slots] = true;
	}
	vars_of(cv, e->a, vars);
	vars_of(cv, e->b, vars);
}

/* The lowest bit above the highest bit of @v (0 when none fits in 64). */
static uint64_t bit_above(uint64_t v)
{
	int b = 63;

	if (!v)
		return 1;
	while (!(v >> b & 1))
		b--;
	return b == 63 ? 0 : 1ULL << (b + 1);
}

/*
 * Values worth trying for slot @sl, in order: for a flag set's mask, the
 * bit above its highest bit, then its lowest free bit; for a plain
 * constant c: c, c + 1, c - 1, the bit above c, c's lowest bit; the OR of
 * two constants (two flags together); last 0 and 1.
 */
/* Magnitude of @v as a signed value of the slot's width: 1 and -1 are small. */
static uint64_t magnitude(const struct conv_slot *sl, uint64_t v)
{
	int64_t x = (int64_t)conv_reg(sl, v);

	return x < 0 ? 0 - (uint64_t)x : (uint64_t)x;
}

static void cands_for(const struct conv_slot *sl, const struct cands *k, const struct cands *m,
		      bool small_first, struct cands *out)
{
	struct cands all = { .n = 0 };
	size_t i, j;

	for (i = 0; i < m->n; i++) {
		uint64_t free_bits = ~m->v[i] & sl->mask;

		cand_add(&all, bit_above(m->v[i]));
		cand_add(&all, free_bits & -free_bits);
	}
	for (i = 0; i < k->n; i++) {
		uint64_t v = k->v[i];

		cand_add(&all, v);
		cand_add(&all, v + 1);
		cand_add(&all, v - 1);
		cand_add(&all, bit_above(v));
		cand_add(&all, v & -v);
	}
	for (i = 0; i < k->n; i++)
		for (j = i + 1; j < k->n; j++)
			cand_add(&all, k->v[i] | k->v[j]);
	cand_add(&all, 0);
	cand_add(&all, 1);
	out->n = 0;
	/* Into the probe's mapping first: start + 1 rather than the address 1. */
	for (i = 0; sl->kind == SL_MAP && i < all.n; i++)
		if (all.v[i] && all.v[i] < PROBE_MAP_BYTES)
			cand_add(out, sl->base + all.v[i]);
	for (i = 0; i < all.n; i++) {
		uint64_t v = all.v[i] & sl->mask;
		int32_t fd = (int32_t)(uint32_t)v;

		if (v == sl->base)
			continue;
		/* A pointer only becomes NULL; an fd only a number no open fd has. */
		if ((sl->kind == SL_PTR && v) || (sl->kind == SL_FD && fd >= 0 && fd < 1024))
			continue;
		cand_add(out, v);
	}
	/*
	 * Moving a baseline off a condition wants the most harmless value that
	 * does it (a length of 1, not 2^63 - 1): smallest first, stable.
	 */
	for (i = 1; small_first && i < out->n; i++)
		for (j = i; j > 0 && magnitude(sl, out->v[j]) < magnitude(sl, out->v[j - 1]); j--) {
			uint64_t t = out->v[j];

			out->v[j] = out->v[j - 1];
			out->v[j - 1] = t;
		}
}

static void reset(struct conv *cv)
{
	size_t i;

	for (i = 0; i < cv->nr_slots; i++)
		cv->slots[i].cur = cv->slots[i].base;
}

/*
 * Make errno @target's condition true and the others false (@target ALL:
 * every condition false) by changing at most two slots. On success the
 * slots' cur hold the values.
 */
static bool search(struct conv *cv, size_t target)
{
	const struct spec_call *c = cv->call;
	struct cands k = { .n = 0 }, m = { .n = 0 }, cs[MAX_SLOTS];
	bool vars[MAX_SLOTS] = { false };
	size_t a, b, i, j, e;

	reset(cv);
	if (goal(cv, target))
		return true;
	for (e = 0; e < c->nr_errnos; e++)
		if (target == ALL ? conv_truth(cv, c->errnos[e].when) == 1 : e == target) {
			vars_of(cv, c->errnos[e].when, vars);
			consts_of(cv, c->errnos[e].when, &k, &m);
		}
	for (a = 0; a < cv->nr_slots; a++)
		if (vars[a])
			cands_for(&cv->slots[a], &k, &m, target == ALL, &cs[a]);
	for (a = 0; a < cv->nr_slots; a++)
		for (i = 0; vars[a] && i < cs[a].n; i++) {
			cv->slots[a].cur = cs[a].v[i];
			if (goal(cv, target))
				return true;
			cv->slots[a].cur = cv->slots[a].base;
		}
	for (a = 0; a < cv->nr_slots; a++)
		for (b = a + 1; vars[a] && b < cv->nr_slots; b++)
			for (i = 0; vars[b] && i < cs[a].n; i++)
				for (j = 0; j < cs[b].n; j++) {
					cv->slots[a].cur = cs[a].v[i];
					cv->slots[b].cur = cs[b].v[j];
					if (goal(cv, target))
						return true;
					reset(cv);
				}
	reset(cv);
	return false;
}

/* The case's arguments: the baseline with the slots' current values. */
static void apply(struct conv *cv, struct probe_case *pc)
{
	size_t i;

	memcpy(pc->args, cv->base.args, sizeof(pc->args));
	pc->nr_args = cv->base.nr_args;
	for (i = 0; i < cv->nr_slots; i++) {
		const struct conv_slot *sl = &cv->slots[i];
		struct probe_arg *a = &pc->args[sl->arg];

		if (sl->cur == sl->base)
			continue;
		if (sl->patch >= 0)
			a->patches[sl->patch].value = sl->cur & sl->mask;
		else if (sl->kind == SL_MAP && sl->cur - MAP_BASE + PROBE_MAP_BYTES <= 2 * PROBE_MAP_BYTES)
			*a = (struct probe_arg){ .kind = PROBE_ARG_MAP, .value = sl->cur - MAP_BASE };
		else
			*a = (struct probe_arg){ .kind = PROBE_ARG_INT, .value = conv_reg(sl, sl->cur) };
	}
}

/* --- cases ------------------------------------------------------------------ */
/*
 * The first known deviation of the call whose condition the slots' current
 * values meet on this kernel's release ([since, until)) and the probe's
 * file system (`on FS`, when given): @pc gets its outcome and its reason
 * with the contract line (in @why).
 */
static int mark_deviation(struct conv *cv, struct probe_case *pc, struct kd_buf *why)
{
	const struct spec_call *c = cv->call;
	size_t j;

	pc->deviation = pc->deviation_why = pc->deviation_fs = NULL;
	for (j = 0; j < c->nr_deviations; j++) {
		const struct spec_deviation *d = &c->deviations[j];

		if ((d->fs && !(d->fs & cv->fs_bit)) || (d->since && !probe_release_at_least(cv->release, d->since)) ||
		    (d->until && probe_release_at_least(cv->release, d->until)) ||
		    conv_truth(cv, d->when) != 1)
			continue;
		kd_buf_reset(why);
		if (kd_buf_addf(why, "%s (%s:%d)", d->text, d->loc.file, d->loc.line))
			return -ENOMEM;
		pc->deviation = d->outcome;
		pc->deviation_why = why->s;
		pc->deviation_fs = d->fs ? cv->fs : NULL;
		return 0;
	}
	return 0;
}

static int add_case(struct conv *cv, struct probe_case *pc)
{
	if (probe_set__find(cv->set, pc->id) >= 0) {
		cv->st->duplicates++;
		return 0;
	}
	return probe_set__add(cv->set, pc);
}

static int errno_cases(struct conv *cv, const char *origin_file)
{
	const struct spec_call *c = cv->call;
	struct kd_buf id = KD_BUF_INIT, what = KD_BUF_INIT, origin = KD_BUF_INIT;
	struct kd_buf why = KD_BUF_INIT;
	size_t j, k;
	int err = 0;

	for (j = 0; !err && j < c->nr_errnos; j++) {
		const struct spec_errno *e = &c->errnos[j];
		struct probe_case pc = cv->base;
		unsigned dup = 1;

		if (!e->when)
			continue;
		if (e->since && !probe_release_at_least(cv->release, e->since)) {
			cv->st->errnos_newer++;
			continue;
		}
		if (conv_truth(cv, e->when) < 0) {
			cv->st->errnos_unevaluable++;
			continue;
		}
		if (!search(cv, j)) {
			cv->st->errnos_unsolved++;
			continue;
		}
		apply(cv, &pc);
		err = mark_deviation(cv, &pc, &why);
		reset(cv);
		if (err)
			break;
		for (k = 0; k < j; k++)
			dup += !strcmp(c->errnos[k].name, e->name) && c->errnos[k].when;
		kd_buf_reset(&id);
		kd_buf_reset(&what);
		kd_buf_reset(&origin);
		err = dup > 1 ? kd_buf_addf(&id, "%s.%s.%u", c->name, e->name, dup)
			      : kd_buf_addf(&id, "%s.%s", c->name, e->name);
		if (!err)
			err = spec_expr__format(e->when, &what);
		if (!err)
			err = kd_buf_addf(&what, ": %s", e->text ? e->text : "");
		if (!err)
			err = kd_buf_addf(&origin, "%s:%d", origin_file, e->loc.line);
		if (err)
			break;
		pc.id = id.s;
		pc.what = what.s;
		pc.origin = origin.s;
		pc.kind = PROBE_CASE_ERRNO;
		pc.expect = PROBE_EXPECT_ERRNO;
		pc.expect_errno = e->name;
		err = add_case(cv, &pc);
		cv->st->errno_cases += !err;
	}
	kd_buf_release(&id);
	kd_buf_release(&what);
	kd_buf_release(&origin);
	kd_buf_release(&why);
	return err;
}

/* The errno the call's conditions name for a bit outside @set ("EINVAL" by default). */
static const char *reject_errno(struct conv *cv, const char *set)
{
	size_t j;

	for (j = 0; j < cv->call->nr_errnos; j++) {
		const struct spec_expr *e = cv->call->errnos[j].when;
		const struct spec_expr *stack[64];
		int n = 0;

		if (e)
			stack[n++] = e;
		while (n) {
			e = stack[--n];
			if (e->op == SPEC_EX_NOT && e->a->op == SPEC_EX_NAME &&
			    !strcmp(e->a->name, set))
				return cv->call->errnos[j].name;
			if (e->a && n < 63)
				stack[n++] = e->a;
			if (e->b && n < 63)
				stack[n++] = e->b;
		}
	}
	return "EINVAL";
}

/*
 * Flag cases of slot @sl, which takes bits of flag set @setname: every bit
 * alone and every unused bit, expanded by probe_set__add_flags() into a
 * scratch set, then each checked against the call's conditions.
 */
static int flag_cases(struct conv *cv, struct conv_slot *sl, const char *name, const char *setname,
		      const char *origin)
{
	const struct spec_set *set = spec__find_set(cv->s, setname);
	const struct spec_value **vals = NULL;
	struct probe_flag *flags = NULL;
	struct probe_set *tmp = NULL;
	struct probe_flagset fs = { 0 };
	struct kd_buf why = KD_BUF_INIT;
	size_t i, nf = 0;
	long n, v;
	int err;

	if (!set || set->kind != SPEC_SET_FLAGS || (set->since && !probe_release_at_least(cv->release, set->since)))
		return 0;
	/*
	 * A flag this kernel has without a value here (no UAPI headers in the
	 * .kabi) would be probed as an unknown bit: leave the set to the
	 * built-in cases.
	 */
	if (!conv_set_complete(cv, set)) {
		cv->st->sets_unvalued++;
		return 0;
	}
	n = spec__set_values(cv->s, set, &vals);
	if (n < 0)
		return (int)n;
	flags = kd_calloc((size_t)n + 1, sizeof(*flags));
	err = flags ? probe_set__new(&tmp) : -ENOMEM;
	for (v = 0; !err && v < n; v++) {
		uint64_t x;

		if (conv_member_value(cv, vals[v], &x) && (x & sl->mask) == x)
			flags[nf++] = (struct probe_flag){ vals[v]->name, x, NULL };
	}
	if (err)
		goto out;
	fs.name = name;
	fs.call = cv->call->name;
	fs.nr = cv->base.nr;
	fs.nr_args = cv->base.nr_args;
	memcpy(fs.args, cv->base.args, sizeof(fs.args));
	fs.arg = sl->arg;
	fs.patch = sl->patch;
	fs.width_bits = sl->mask == ~0ULL ? 64 : (unsigned)__builtin_popcountll(sl->mask);
	fs.unknown_ignored = set->unknown == SPEC_UNKNOWN_IGNORE;
	fs.reject_errno = reject_errno(cv, setname);
	fs.ret_fd = cv->base.ret_fd;
	fs.nr_flags = nf;
	fs.flags = flags;
	fs.origin = origin;
	if (fs.patch < 0)
		fs.args[fs.arg].value = 0;
	err = probe_set__add_flags(tmp, &fs);
	for (i = 0; !err && i < probe_set__count(tmp); i++) {
		struct probe_case pc = *probe_set__case(tmp, i);
		const struct probe_arg *a = &pc.args[sl->arg];
		size_t j;

		sl->cur = sl->patch < 0 ? a->value : a->patches[sl->patch].value;
		/* A bit that meets a condition of the call is expected to fail so. */
		for (j = 0; j < cv->call->nr_errnos; j++)
			if (cv->call->errnos[j].when && conv_truth(cv, cv->call->errnos[j].when) == 1 &&
			    (!cv->call->errnos[j].since ||
			     probe_release_at_least(cv->release, cv->call->errnos[j].since))) {
				pc.expect = PROBE_EXPECT_ERRNO;
				pc.expect_errno = cv->call->errnos[j].name;
				break;
			}
		err = mark_deviation(cv, &pc, &why);
		reset(cv);
		if (!err)
			err = add_case(cv, &pc);
		cv->st->flag_cases += !err;
	}
out:
	kd_buf_release(&why);
	probe_set__free(tmp);
	free(flags);
	free(vals);
	return err;
}

static int call_flag_cases(struct conv *cv, const char *origin)
{
	const struct spec_call *c = cv->call;
	struct kd_buf name = KD_BUF_INIT, fname = KD_BUF_INIT;
	size_t i, f;
	int err = 0;

	for (i = 0; !err && i < c->nr_params; i++) {
		const struct spec_param *p = &c->params[i];
		const struct spec_struct *st;

		if (p->arg.kind == SPEC_K_FLAGS) {
			kd_buf_reset(&name);
			err = kd_buf_addf(&name, "%s.%s", c->name, p->name);
			if (!err)
				err = flag_cases(cv, &cv->slots[i], name.s, p->arg.ref, origin);
			continue;
		}
		if (p->arg.kind != SPEC_K_PTR || !p->arg.ref || p->arg.dir == SPEC_DIR_OUT ||
		    !kd_starts_with(p->arg.ref, "struct ") ||
		    !(st = spec__find_struct(cv->s, p->arg.ref + 7)))
			continue;
		for (f = 0; !err && f < st->nr_fields; f++) {
			const struct spec_field *fd = &st->fields[f];
			struct conv_slot *sl;

			if (!fd->has_arg || fd->arg.kind != SPEC_K_FLAGS || fd->out)
				continue;
			kd_buf_reset(&fname);
			kd_buf_reset(&name);
			err = kd_buf_addf(&fname, "%s.%s", p->name, fd->name);
			if (err)
				break;
			sl = conv_field_slot(cv, fname.s);
			if (!sl)
				continue;
			/* "openat2.flags" as the built-in cases call it, unless a parameter has that name. */
			err = spec_call__param(c, fd->name)
			      ? kd_buf_addf(&name, "%s.%s.%s", c->name, p->name, fd->name)
			      : kd_buf_addf(&name, "%s.%s", c->name, fd->name);
			if (!err)
				err = flag_cases(cv, sl, name.s, fd->arg.ref, origin);
		}
	}
	kd_buf_release(&name);
	kd_buf_release(&fname);
	return err;
}

/* --- the whole spec ------------------------------------------------------------ */
struct table_slot {
	const char *abi;	/* the kernel's native ABI: "x64", "arm64" */
	long nr;
	int64_t func_id;
};

static int on_syscall_nr(const struct kd_syscall *sc, void *ctx)
{
	struct table_slot *t = ctx;

	if (!strcmp(sc->abi, t->abi) && sc->implemented) {
		t->nr = (long)sc->nr;
		t->func_id = sc->func_id;
	}
	return 0;
}

static int convert_call(struct conv *cv)
{
	const struct spec_call *c = cv->call;
	struct table_slot slot = { kdb__arch(cv->db)->native_abi, -1, 0 };
	size_t i;
	int err;

	cv->st->calls++;
	if (probe__spec_skip(c->name)) {
		cv->st->calls_skipped++;
		return 0;
	}
	err = kdb__foreach_syscall_named(cv->db, c->name, on_syscall_nr, &slot);
	if (err)
		return err;
	if (slot.nr < 0) {
		cv->st->calls_absent++;
		return 0;
	}
	conv_param_widths(cv, slot.func_id);
	kd_buf_reset(&cv->tmp);
	err = conv_build_base(cv);
	if (err < 0)
		return err;
	if (err) {
		kd_debug("probe: %s not probed: %s", c->name, cv->tmp.s);
		cv->st->calls_unprobeable++;
		return 0;
	}
	cv->st->calls_probed++;
	cv->base.call = c->name;
	cv->base.nr = slot.nr;
	cv->base.ret_fd = c->ret == SPEC_RET_FD;
	/* A baseline that meets a condition is moved off it, when two changes can. */
	if (!others_false(cv, ALL) && search(cv, ALL)) {
		struct probe_case moved = cv->base;

		/* apply() writes only the slots that differ from their base: first. */
		apply(cv, &moved);
		memcpy(cv->base.args, moved.args, sizeof(cv->base.args));
		for (i = 0; i < cv->nr_slots; i++)
			cv->slots[i].base = cv->slots[i].cur;
	}
	err = errno_cases(cv, c->loc.file);
	if (!err) {
		kd_buf_reset(&cv->tmp);
		err = kd_buf_addf(&cv->tmp, "%s:%d", c->loc.file, c->loc.line);
	}
	return err ? err : call_flag_cases(cv, cv->tmp.s);
}

int probe__add_spec(struct probe_set *set, const struct spec *s, struct kdb *db,
		    const char *fs, struct probe_spec_stats *st)
{
	struct probe_spec_stats dummy;
	struct conv cv = { .set = set, .s = s, .db = db, .tmp = KD_BUF_INIT,
			   .fs = fs ? fs : "tmpfs", .fs_bit = spec_fs_bit(fs ? fs : "tmpfs") };
	size_t i;
	int err;

	if (!st)
		st = &dummy;
	memset(st, 0, sizeof(*st));
	cv.st = st;
	err = type_cache__new(db, &cv.types);
	if (!err)
		err = kdb__get_meta(db, "release", &cv.release);
	for (i = 0; !err && i < spec__nr_calls(s); i++) {
		cv.call = spec__call(s, i);
		if (cv.call->kind == SPEC_SYSCALL)
			err = convert_call(&cv);
		conv_slots_clear(&cv);
	}
	/* A type the DB lacks reads as absent; a failed query fails the conversion. */
	if (!err)
		err = cv.db_err;
	if (!err && type_cache__error(cv.types) != -ENOENT)
		err = type_cache__error(cv.types);
	type_cache__free(cv.types);
	for (i = 0; i < cv.nr_consts; i++)
		free(cv.consts[i].name);
	free(cv.consts);
	free(cv.release);
	kd_buf_release(&cv.tmp);
	return err;
}

/* Has one of the first @n cases of @set the subject @subject? */
static bool subject_among(const struct probe_set *set, size_t n, const char *subject)
{
	size_t i;

	for (i = 0; subject && i < n; i++) {
		const struct probe_case *c = probe_set__case(set, i);

		if (c->subject && !strcmp(c->subject, subject))
			return true;
	}
	return false;
}

long probe_set__merge(struct probe_set *dst, const struct probe_set *src)
{
	size_t i, n0 = probe_set__count(dst);
	long added = 0;
	int err;

	for (i = 0; i < probe_set__count(src); i++) {
		const struct probe_case *c = probe_set__case(src, i);

		if (probe_set__find(dst, c->id) >= 0 || subject_among(dst, n0, c->subject))
			continue;
		err = probe_set__add(dst, c);
		if (err)
			return err;
		added++;
	}
	return added;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-diff check, flag sets and enums: values named after UAPI constants
 * the headers do not define, and constants of a set's family the set lacks
 * (the family rule, spec/check/CHECK.md). The families of every set are
 * computed once, so a constant is judged by the most specific family that claims it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/model.h"
#include "lib/str.h"
#include "spec/check/check_internal.h"

/* --- flag sets -------------------------------------------------------------- */

/* The value of @v in this kernel; false when unknown. */
static bool value_of(struct ck *c, const struct spec_value *v, uint64_t *out)
{
	const struct kconst *k;

	if (v->value)
		return !spec_expr__eval(v->value, lookup_const, c, out);
	k = find_const(c, v->name);
	if (!k)
		return false;
	*out = k->value;
	return true;
}

static bool is_member(const struct spec_value *const *vals, long n, const char *name)
{
	long i;

	for (i = 0; i < n; i++)
		if (!strcmp(vals[i]->name, name))
			return true;
	return false;
}

/*
 * The family rule (spec/check/CHECK.md): the UAPI-named values a set declares
 * itself are grouped by their first word ("O_", "RESOLVE_"); a group's
 * family prefix is the longest common prefix of its names, cut after its
 * last '_' ("FAN_MARK_ADD", "FAN_MARK_REMOVE" -> "FAN_MARK_"). Computed
 * once for every set, so that a constant belongs to the most specific
 * family: STATX_ATTR_DAX is not of statx_mask's STATX_ when another set's
 * family is STATX_ATTR_.
 */
static int add_families(struct ck *c, const struct spec_set *set)
{
	size_t i, j, wlen, plen;
	int err;

	for (i = 0; i < set->nr_values; i++) {
		const char *first = set->values[i].name, *us;

		if (set->values[i].value || first[0] == '_' || !(us = strchr(first, '_')))
			continue;
		wlen = (size_t)(us - first) + 1;
		for (j = 0; j < i; j++)
			if (!set->values[j].value && !strncmp(set->values[j].name, first, wlen))
				break;
		if (j < i)
			continue;	/* the group's first value made it */
		plen = strlen(first);
		for (j = i; j < set->nr_values; j++) {
			const char *o = set->values[j].name;
			size_t m = 0;

			if (set->values[j].value || strncmp(o, first, wlen))
				continue;
			while (m < plen && o[m] == first[m])
				m++;
			plen = m;
		}
		while (plen > wlen && first[plen - 1] != '_')
			plen--;
		if (plen < 2 || first[plen - 1] != '_')
			continue;
		err = KD_GROW(c->fams, c->cap_fams, c->nr_fams + 1);
		if (err)
			return err;
		c->fams[c->nr_fams].set = set;
		c->fams[c->nr_fams].prefix = kd_strndup(first, plen);
		c->fams[c->nr_fams].word = wlen;
		if (!c->fams[c->nr_fams].prefix)
			return -ENOMEM;
		c->nr_fams++;
	}
	return 0;
}

static int add_name(struct ck *c, const char *name)
{
	int err = KD_GROW(c->named, c->cap_named, c->nr_named + 1);

	if (!err)
		c->named[c->nr_named++] = name;
	return err;
}

/* Every constant the spec names (values, masks, sizes), and every family. */
int collect_names(struct ck *c)
{
	size_t i, j;
	int err = 0;

	for (i = 0; i < spec__nr_sets(c->s) && !err; i++) {
		const struct spec_set *set = spec__set(c->s, i);

		for (j = 0; j < set->nr_values && !err; j++)
			err = add_name(c, set->values[j].name);
		for (j = 0; j < set->nr_groups && !err; j++)
			if (set->groups[j].mask)
				err = add_name(c, set->groups[j].mask);
		if (!err)
			err = add_families(c, set);
	}
	for (i = 0; i < spec__nr_structs(c->s) && !err; i++) {
		const struct spec_struct *st = spec__struct(c->s, i);

		for (j = 0; j < st->nr_sizes && !err; j++)
			if (st->sizes[j].name)
				err = add_name(c, st->sizes[j].name);
	}
	if (!err && c->nr_named > 1)
		qsort(c->named, c->nr_named, sizeof(*c->named), kd_strcmp_ptr);
	return err;
}

static bool named_in_spec(const struct ck *c, const char *name)
{
	return c->nr_named && bsearch(&name, c->named, c->nr_named, sizeof(*c->named), kd_strcmp_ptr);
}

/* Does a family more specific than @plen bytes claim @name? */
static bool more_specific(const struct ck *c, const char *name, size_t plen)
{
	size_t i, n;

	for (i = 0; i < c->nr_fams; i++) {
		n = strlen(c->fams[i].prefix);
		if (n > plen && !strncmp(name, c->fams[i].prefix, n))
			return true;
	}
	return false;
}

/* Is @k defined in a header that defines a member of family @fam? */
static bool in_family_file(struct ck *c, const struct family *fam,
			   const struct spec_value *const *vals, long n, const struct kconst *k)
{
	long j;

	for (j = 0; j < n; j++) {
		const struct kconst *m;

		if (vals[j]->value || strncmp(vals[j]->name, fam->prefix, fam->word))
			continue;
		m = find_const(c, vals[j]->name);
		if (m && !strcmp(m->file, k->file))
			return true;
	}
	return false;
}

/* Does @k say something the set cannot (a bit outside it, a value it lacks)? */
static bool carries_new(struct ck *c, const struct spec_set *set,
			const struct spec_value *const *vals, long n, uint64_t all_bits,
			const struct kconst *k)
{
	uint64_t v;
	long j;

	if (set->kind == SPEC_SET_FLAGS)
		return !k->is_signed_neg && k->value && (k->value & ~all_bits);
	for (j = 0; j < n; j++)
		if (value_of(c, vals[j], &v) && v == k->value)
			return false;
	return true;
}

/*
 * A constant of the headers is of family @fam when its name starts with
 * the prefix, no more specific family claims it, and it is defined in a
 * header that defines a member of the family. One the set lacks is of
 * interest when the spec names it nowhere else (as another set's value, a
 * mask, a size) and its value says something the spec cannot: for a flag
 * set, a bit outside the OR of the set's values and of every value of the
 * family in any flag set of the spec (so zero and negative values, masks
 * and aliases never are); for an enum, a value no member has. They are
 * reported only when the set claims the family, naming at least two of its
 * constants and at least as many as it lacks: pipe2's four O_* flags are a
 * deliberate subset, open's O_* set is the family.
 */
static int check_family(struct ck *c, const struct family *fam,
			const struct spec_value *const *vals, long n, uint64_t all_bits)
{
	const struct kconst *k, *lo = NULL, *end = c->consts + c->nr_consts;
	size_t plen = strlen(fam->prefix), members = 0, lacking = 0, ci;
	int pass, err = 0;

	for (ci = 0; ci < c->nr_consts && !lo; ci++)
		if (!strncmp(c->consts[ci].name, fam->prefix, plen))
			lo = &c->consts[ci];
	/* Bits the spec's sets give the family anywhere (AT_* flags of every set). */
	for (ci = 0; ci < spec__nr_sets(c->s); ci++) {
		const struct spec_set *o = spec__set(c->s, ci);
		size_t vi;

		for (vi = 0; o->kind == SPEC_SET_FLAGS && vi < o->nr_values; vi++) {
			if (o->values[vi].value || strncmp(o->values[vi].name, fam->prefix, plen))
				continue;
			k = find_const(c, o->values[vi].name);
			if (k && !k->is_signed_neg)
				all_bits |= k->value;
		}
	}
	for (pass = 0; lo && pass < 2 && !err; pass++) {
		if (pass == 1 && (!lacking || members < 2 || members < lacking))
			break;
		for (k = lo; k < end && !err && !strncmp(k->name, fam->prefix, plen); k++) {
			if (more_specific(c, k->name, plen) || !in_family_file(c, fam, vals, n, k))
				continue;
			if (is_member(vals, n, k->name)) {
				members += pass == 0;
				continue;
			}
			if (named_in_spec(c, k->name) ||
			    !carries_new(c, fam->set, vals, n, all_bits, k))
				continue;
			if (pass == 0) {
				lacking++;
				continue;
			}
			kd_buf_reset(&c->subj);
			err = kd_buf_addf(&c->subj, "%s.%s", fam->set->name, k->name);
			if (!err)
				err = finding(c, CHECK_R_FLAG_UNLISTED, &fam->set->loc, c->subj.s,
					      "%s (%#llx, %s) is of the family %s* but not in the set",
					      k->name, (unsigned long long)k->value, k->file,
					      fam->prefix);
		}
	}
	return err;
}

/*
 * An explicit value that divides by zero through a constant of this kernel
 * is an error, as at spec load (spec_value__eval() says which); checked
 * before any rule so that value_of() never meets it.
 */
static int check_divisions(const struct spec_set *set, struct ck *c)
{
	uint64_t v;
	size_t k;

	for (k = 0; k < set->nr_values; k++)
		if (set->values[k].value &&
		    spec_value__eval(&set->values[k], lookup_const, c, &v) == -KD_ESYNTAX)
			return -KD_ESYNTAX;
	return 0;
}

int check_set(struct ck *c, const struct spec_set *set)
{
	const struct spec_value **vals = NULL;
	uint64_t all = 0, v;
	long n, i;
	size_t k;
	int err = 0;

	if (after_kernel(c, set->since))
		return 0;
	err = check_divisions(set, c);
	for (k = 0; k < set->nr_values && !err; k++) {
		const struct spec_value *sv = &set->values[k];

		if (sv->value || after_kernel(c, sv->since) || find_const(c, sv->name))
			continue;
		kd_buf_reset(&c->subj);
		err = kd_buf_addf(&c->subj, "%s.%s", set->name, sv->name);
		if (!err)
			err = finding(c, CHECK_R_FLAG_UNDEFINED, &sv->loc, c->subj.s,
				      "%s is not defined by the UAPI headers", sv->name);
	}
	if (err)
		return err;
	n = spec__set_values(c->s, set, &vals);
	if (n < 0)
		return (int)n;
	for (i = 0; i < n; i++)
		if (value_of(c, vals[i], &v))
			all |= v;
	for (i = 0; i < (long)set->nr_groups; i++) {
		const struct kconst *m = set->groups[i].mask ? find_const(c, set->groups[i].mask) : NULL;

		if (m)
			all |= m->value;
	}
	for (k = 0; k < c->nr_fams && !err; k++)
		if (c->fams[k].set == set)
			err = check_family(c, &c->fams[k], vals, n, all);
	free(vals);
	return err;
}

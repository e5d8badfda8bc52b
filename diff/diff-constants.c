// SPDX-License-Identifier: GPL-2.0-only
/*
 * Constants of the UAPI headers, each row of the SQL join (db/kdb-diff.c)
 * judged with what decides whether old binaries notice: what a constant
 * is for (its role): a value changing breaks, a mask may grow, a version
 * may go up, a count says nothing; the role comes from the contract
 * ("constant NAME: ROLE;"), else from the header's expression (an OR of
 * values is a mask), else from the kernel's naming conventions
 * (*_VERSION, *_MAX, *_RESERVED), which the contract overrides. A removed
 * constant breaks only binaries the kernel then refuses: one the contract
 * lists in a set of values.
 */
#include "diff/diff_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb-uapi.h"
#include "lib/buf.h"
#include "lib/str.h"
#include "lib/typegraph.h"

static const char *const role_names[] = {
	[DIFF_ROLE_NONE] = "value", [DIFF_ROLE_VALUE] = "value", [DIFF_ROLE_MASK] = "mask",
	[DIFF_ROLE_VERSION] = "version", [DIFF_ROLE_MINIMUM] = "minimum version",
	[DIFF_ROLE_COUNT] = "count or end sentinel", [DIFF_ROLE_RESERVED] = "reserved bits",
	[DIFF_ROLE_HARDWARE] = "a fact of hardware no syscall or ioctl passes",
};

static bool ends_with_any(const char *s, const char *const *suffixes)
{
	for (; *suffixes; suffixes++)
		if (kd_ends_with(s, *suffixes))
			return true;
	return false;
}

/* A literal number, maybe parenthesized ("42", "(0x10)", "1U"): no other name in it. */
static bool is_literal(const char *expr)
{
	const char *p;

	if (!expr)
		return false;
	for (p = expr; *p; p++)
		if (*p == '_' || ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z' &&
				  !strchr("xXuUlLabcdefABCDEF", *p)))
			return false;
	return true;
}

/*
 * Is @expr an OR of two or more terms at its top level ("(A | B | C)")?
 * Parentheses around the whole are looked through; '|' inside nested
 * parentheses does not count.
 */
static int top_level_ors(const char *expr)
{
	const char *p, *end;
	int depth = 0, ors = 0;

	if (!expr)
		return 0;
	while (*expr == ' ')
		expr++;
	end = expr + strlen(expr);
	while (end > expr && end[-1] == ' ')
		end--;
	/* Strip one pair of parentheses around the whole: the '(' closed by the last ')'. */
	if (end > expr && *expr == '(' && end[-1] == ')') {
		for (p = expr; p < end; p++) {
			depth += *p == '(';
			depth -= *p == ')';
			if (!depth)
				break;
		}
		if (p == end - 1) {
			expr++;
			end--;
		}
		depth = 0;
	}
	for (p = expr; p < end; p++) {
		depth += *p == '(';
		depth -= *p == ')';
		if (!depth && *p == '|' && p[1] != '|' && (p == expr || p[-1] != '|'))
			ors++;
	}
	return ors;
}

/*
 * The role the kernel's naming conventions give @name (defined as
 * @expr), DIFF_ROLE_NONE when none; *what says which convention.
 */
static enum diff_role role_by_name(const char *name, const char *expr, const char **what)
{
	static const char *const counts[] = {
		"_CNT", "_COUNT", "_NR", "_NUM", "_END", "_LAST", NULL
	};
	static const char *const reserved[] = {
		"_RESERVED", "_RSVD", "_RESERVED_MASK", "_RESERVED_BITS", NULL
	};
	static const char *const masks[] = { "_MASK", "_ALL", "_VALID_FLAGS", NULL };

	if (ends_with_any(name, reserved)) {
		*what = "*_RESERVED, *_RSVD: reserved bits";
		return DIFF_ROLE_RESERVED;
	}
	if (kd_ends_with(name, "VERSION_MIN") || strstr(name, "MIN_VERSION") || kd_ends_with(name, "_ABI_MIN")) {
		*what = "*_VERSION_MIN, *_MIN_VERSION: the oldest version accepted";
		return DIFF_ROLE_MINIMUM;
	}
	if (strstr(name, "VERSION") || strstr(name, "_ABI_MAJOR") || strstr(name, "_ABI_MINOR") ||
	    strstr(name, "_ABI_PATCH")) {
		*what = "*VERSION*, *_ABI_MAJOR/MINOR/PATCH: a version";
		return DIFF_ROLE_VERSION;
	}
	if (ends_with_any(name, counts)) {
		*what = "*_CNT, *_COUNT, *_NR, *_NUM, *_END, *_LAST: a count or end sentinel";
		return DIFF_ROLE_COUNT;
	}
	/* *_MAX is a sentinel when it is derived (__IFLA_MAX - 1), a limit (PATH_MAX) when literal. */
	if (kd_ends_with(name, "_MAX") && (kd_starts_with(name, "__") || (expr && !is_literal(expr)))) {
		*what = "*_MAX derived from another name: an end sentinel";
		return DIFF_ROLE_COUNT;
	}
	if (ends_with_any(name, masks)) {
		*what = "*_MASK, *_ALL, *_VALID_FLAGS: a mask";
		return DIFF_ROLE_MASK;
	}
	return DIFF_ROLE_NONE;
}

/* The constant's 64 bits as its C type reads them, for comparisons. */
static bool is_unsigned(const struct kd_constant *c)
{
	return c->ctype && kd_starts_with(c->ctype, "unsigned");
}

static int cmp_values(const struct kd_constant *a, const struct kd_constant *b)
{
	if (is_unsigned(a) || is_unsigned(b))
		return (uint64_t)a->value < (uint64_t)b->value ? -1 : (uint64_t)a->value > (uint64_t)b->value;
	return a->value < b->value ? -1 : a->value > b->value;
}

static int format_constant(struct kd_buf *b, const struct kd_constant *c)
{
	kd_buf_reset(b);
	if (is_unsigned(c))
		return kd_buf_addf(b, "%" PRIu64, (uint64_t)c->value);
	return kd_buf_addf(b, "%" PRId64, c->value);
}

/* The rule of a constant whose value changed, by its role. */
static enum diff_rule_id role_rule(enum diff_role role, const char *name, const struct kd_constant *o,
			     const struct kd_constant *n)
{
	uint64_t a = (uint64_t)o->value, b = (uint64_t)n->value;
	int up = cmp_values(n, o);

	switch (role) {
	case DIFF_ROLE_COUNT:
		return DIFF_R_CONSTANT_COUNT;
	case DIFF_ROLE_VERSION:
		if (up > 0 && (strstr(name, "MAJOR")))
			return DIFF_R_CONSTANT_VERSION_MAJOR;
		return up > 0 ? DIFF_R_CONSTANT_VERSION_UP : DIFF_R_CONSTANT_VERSION_DOWN;
	case DIFF_ROLE_MINIMUM:
		return up > 0 ? DIFF_R_CONSTANT_MINIMUM_UP : DIFF_R_CONSTANT_MINIMUM_DOWN;
	case DIFF_ROLE_MASK:
		return (a & ~b) ? DIFF_R_CONSTANT_MASK_LOST : DIFF_R_CONSTANT_MASK_GROWN;
	case DIFF_ROLE_RESERVED:
		return (b & ~a) ? DIFF_R_CONSTANT_RESERVED_GROWN : DIFF_R_CONSTANT_RESERVED_SHRUNK;
	case DIFF_ROLE_HARDWARE:
		return DIFF_R_CONSTANT_HARDWARE;
	default:
		return DIFF_R_CONSTANT_VALUE;
	}
}

static bool is_enumerator(const struct kd_constant *c)
{
	return c && c->source && !strcmp(c->source, "enumerator");
}

/* How @c is defined: its #define's body, or the enum it is an enumerator of. */
static int definition(struct kd_buf *b, const struct kd_constant *c, const char *enum_name)
{
	if (!is_enumerator(c))
		return kd_buf_addf(b, "#define %s", c->expr ? c->expr : "");
	if (enum_name)
		return kd_buf_addf(b, "enumerator of enum %s", enum_name);
	return kd_buf_adds(b, "enumerator of an anonymous enum");
}

/*
 * An enumerator's change that the comparison of its named enum, which both
 * sides' headers declare, reports (diff-enum.c) and that says nothing more
 * as a constant: removed from the enum, added to it, another value there,
 * or leaving it for a #define (or another enum) of the same value as a
 * rename (the enum's report says the old name stays a constant). A name
 * that leaves or joins with its value kept and no rename, or with another
 * value, is a constant's change: how it is defined, or its value.
 * *@yes: the answer. 0 or a negative code.
 */
static int reported_by_enum(struct diff_run *run, const struct kdb_constant_pair *p, bool *yes)
{
	const struct kd_constant *o = p->old, *n = p->new;
	const struct kd_type *ta, *tb;
	int64_t id = 0;
	int err;

	*yes = false;
	if (!o)
		*yes = p->new_enum && p->new_enum_in_old;
	if (!o || !p->old_enum || !p->old_enum_in_new)
		return 0;
	if (!n || (p->new_enum && !strcmp(p->new_enum, p->old_enum))) {
		*yes = true;
		return 0;
	}
	if (o->value != n->value)
		return 0;
	err = kdb__other_header_enum(run->db[0], p->old_enum, &id);
	ta = tgraph_get(&run->e.g[0], o->enum_type);
	tb = id ? tgraph_get(&run->e.g[1], id) : NULL;
	if (!err && ta && tb)
		*yes = dt_enumerator_renamed(&run->e, ta, tb, o->value);
	return err;
}

/* The evidence of an enumerator the new headers no longer define. */
static int enumerator_removed(struct diff_run *run, const struct kdb_constant_pair *p,
			      struct diff_judged *j)
{
	const struct kd_constant *o = p->old;
	struct kd_buf what = KD_BUF_INIT;
	char *successor = NULL;
	int err = definition(&what, o, p->old_enum);

	/* Where the value went: a rename or a reuse, the headers cannot say which. */
	if (!err)
		err = kdb__enumerator_successor(run->db[0], o->enum_type, o->value, &successor);
	if (!err)
		err = diff_judge(j, DIFF_R_CONSTANT_REMOVED, DIFF_EV_LAYOUT,
				 "%s, an %s in %s, is in the old headers only%s%s%s%s; the contract lists"
				 " it in no set", o->name, what.s, o->file ? o->file : "a header",
				 successor ? "; the enum that continues it gives its value " : "",
				 successor ? run->ov.s : "", successor ? " to " : "",
				 successor ? successor : "");
	free(successor);
	kd_buf_release(&what);
	return err;
}

/*
 * An enumerator of another value, no role known: renumbered when the enum
 * that continues its old one gives its old value to a name new to it
 * (6.12's snmp.h: IPSTATS_MIB_OUTPKTS 5 -> 37, and 5 is now
 * IPSTATS_MIB_OUTREQUESTS): the number old binaries pass is still
 * defined, as for an enumerator removed whose value another name took;
 * otherwise a value that changed.
 */
static int value_renamed(struct diff_run *run, const struct kdb_constant_pair *p,
			 struct diff_judged *j)
{
	char *successor = NULL;
	int err = kdb__enumerator_successor(run->db[0], p->old->enum_type, p->old->value, &successor);

	if (!err && successor)
		err = diff_judge(j, DIFF_R_CONSTANT_RENUMBERED, DIFF_EV_LAYOUT, "the enum that"
				 " continues %s's gives its old value %s to %s, a name new to it",
				 p->old->name, run->ov.s, successor);
	else if (!err)
		err = diff_judge(j, DIFF_R_CONSTANT_VALUE, DIFF_EV_LAYOUT, "%s", "the UAPI headers of"
				 " both kernels; no role known (contract, expression or name)");
	free(successor);
	return err;
}

/* A count or end marker of the enum it is an enumerator of, on either side. */
static const struct kd_constant *enum_end_marker(const struct diff_run *run,
						 const struct kdb_constant_pair *p)
{
	const struct kd_constant *c[2] = { p->old, p->new };
	int side;

	for (side = 0; side < 2; side++)
		if (is_enumerator(c[side]) &&
		    dt_enum_end_marker(tgraph_get(&run->e.g[side], c[side]->enum_type), c[side]->name))
			return c[side];
	return NULL;
}

/* A constant the new headers lack: a set's value, a syscall number, a module's, an enumerator. */
static int judge_removed(struct diff_run *run, const struct kdb_constant_pair *p,
			 const struct diff_constant_fact *fact, struct diff_judged *j)
{
	const struct kd_constant *o = p->old;
	const char *name = o->name;
	int err;

	if (fact->set)
		return diff_judge(j, DIFF_R_CONSTANT_REMOVED_SET_VALUE, DIFF_EV_CONTRACT,
			     "%s:%d: %s is a value of %s (unknown values %s)", fact->set_where.file,
			     fact->set_where.line, name, fact->set,
			     fact->set_rejects ? "refused" : "ignored");
	/* A syscall number: the kernels' own tables know better than the headers. */
	err = nr_removed_rule(&run->nr, o, &j->rule, &j->text);
	if (err) {
		j->ev = DIFF_EV_KERNEL;
		return err < 0 ? err : 0;
	}
	/* The code that answered it is gone with its modules. */
	err = diff_modules_gone(run, o->file, name, true, &j->text);
	if (err) {
		j->rule = DIFF_R_CONSTANT_REMOVED_MODULE;
		j->ev = DIFF_EV_KERNEL;
		return err < 0 ? err : 0;
	}
	if (is_enumerator(o))
		return enumerator_removed(run, p, j);
	return diff_judge(j, DIFF_R_CONSTANT_REMOVED, DIFF_EV_LAYOUT,
		     "%s is in %s of the old headers only; the contract lists it in no set",
		     name, o->file ? o->file : "a header");
}

/*
 * A value changed that neither the contract nor the kernel's binaries
 * judge: by the name's role, an end marker, an OR of values, else a plain
 * value.
 */
static int judge_by_convention(struct diff_run *run, const struct kdb_constant_pair *p,
			       struct diff_judged *j)
{
	const struct kd_constant *o = p->old, *n = p->new, *marker;
	const char *name = o->name, *what = NULL;
	enum diff_role role = role_by_name(name, o->expr, &what);
	int ors;

	if (role == DIFF_ROLE_RESERVED || role == DIFF_ROLE_MINIMUM || role == DIFF_ROLE_VERSION)
		return diff_judge(j, role_rule(role, name, o, n), DIFF_EV_CONVENTION, "the name %s: %s",
			     name, what);
	marker = enum_end_marker(run, p);
	if (marker)
		return diff_judge(j, DIFF_R_CONSTANT_COUNT, DIFF_EV_CONVENTION, "naming convention: %s is"
				  " named like a count or end marker and its value %s ends its enum in"
				  " the %s headers", name, marker == o ? run->ov.s : run->nv.s,
				  marker == o ? "old" : "new");
	ors = top_level_ors(o->expr) < top_level_ors(n->expr) ? top_level_ors(o->expr) :
	      top_level_ors(n->expr);
	if (ors)
		return diff_judge(j, role_rule(DIFF_ROLE_MASK, name, o, n), DIFF_EV_LAYOUT,
			     "both headers define %s as an OR of values (%d and %d terms): a mask", name,
			     top_level_ors(o->expr) + 1, top_level_ors(n->expr) + 1);
	if (role)
		return diff_judge(j, role_rule(role, name, o, n), DIFF_EV_CONVENTION, "the name %s: %s",
			     name, what);
	if (is_enumerator(o))
		return value_renamed(run, p, j);
	return diff_judge(j, DIFF_R_CONSTANT_VALUE, DIFF_EV_LAYOUT, "%s",
		     "the UAPI headers of both kernels; no role known (contract, expression or name)");
}

static int judge_constant(struct diff_run *run, const struct kdb_constant_pair *p,
			  struct diff_judged *j)
{
	const struct diff_contract *c = run->e.conf->contract;
	const struct kd_constant *o = p->old, *n = p->new;
	const char *name = o ? o->name : n->name;
	struct diff_constant_fact fact = { 0 };
	struct kd_buf mod = KD_BUF_INIT;
	int err;

	if (c && c->constant)
		c->constant(c->ctx, name, &fact);
	if (!o)
		return diff_judge(j, DIFF_R_CONSTANT_ADDED, DIFF_EV_LAYOUT, "%s", "the UAPI headers of both kernels");
	if (!n)
		return judge_removed(run, p, &fact, j);
	/* The same value, defined otherwise: the same thing to a program. */
	if (o->value == n->value)
		return diff_judge(j, is_enumerator(n) ? DIFF_R_CONSTANT_NOW_ENUMERATOR :
				  DIFF_R_CONSTANT_NOW_MACRO, DIFF_EV_LAYOUT,
				  "both headers give %s the value %s: %s defines it in the old, %s in the new",
				  name, run->ov.s, o->file ? o->file : "a header",
				  n->file ? n->file : "a header");
	if (fact.role)
		return diff_judge(j, role_rule(fact.role, name, o, n), DIFF_EV_CONTRACT, "%s:%d: %s: %s",
			     fact.role_where.file, fact.role_where.line, name, role_names[fact.role]);
	if (fact.set)
		return diff_judge(j, DIFF_R_CONSTANT_VALUE, DIFF_EV_CONTRACT, "%s:%d: %s is a value of %s",
			     fact.set_where.file, fact.set_where.line, name, fact.set);
	/* A header whose ioctls no code of the old kernel served. */
	if (diff_header_unbuilt(run, o->file, &mod)) {
		err = diff_judge(j, DIFF_R_CONSTANT_VALUE_UNBUILT, DIFF_EV_KERNEL,
			    "no binary of the old kernel (vmlinux and %zu modules) defines a type of"
			    " %s's ioctls: nothing in it was served", run->k.nr_modules[0], o->file);
		kd_buf_release(&mod);
		return err;
	}
	kd_buf_release(&mod);
	return judge_by_convention(run, p, j);
}

/*
 * The note of a change of both sides: "EXPR -> EXPR" for two #defines,
 * what each side is when one is an enumerator; none for two enumerators.
 */
static int definitions_note(struct kd_buf *b, const struct kdb_constant_pair *p)
{
	int err;

	if (!p->old || !p->new || (is_enumerator(p->old) && is_enumerator(p->new)))
		return 0;
	if (!is_enumerator(p->old) && !is_enumerator(p->new))
		return p->old->expr && p->new->expr ?
		       kd_buf_addf(b, "%s -> %s", p->old->expr, p->new->expr) : 0;
	err = definition(b, p->old, p->old_enum);
	if (!err)
		err = kd_buf_adds(b, " -> ");
	return err ? err : definition(b, p->new, p->new_enum);
}

int diff_on_constant(const struct kdb_constant_pair *p, void *ctx)
{
	struct diff_run *run = ctx;
	const char *name = p->old ? p->old->name : p->new->name, *file;
	bool redefined = p->old && p->new && p->old->value == p->new->value;
	struct diff_judged j = { .text = KD_BUF_INIT };
	size_t idx;
	bool by_enum;
	int err = reported_by_enum(run, p, &by_enum);

	if (err || by_enum)
		return err;
	kd_buf_reset(&run->ov);
	kd_buf_reset(&run->nv);
	kd_buf_reset(&run->subj);
	if (p->old)
		err = format_constant(&run->ov, p->old);
	if (!err && p->new)
		err = format_constant(&run->nv, p->new);
	if (!err)
		err = judge_constant(run, p, &j);
	/* A definition changed: old and new say how, the note keeps the value. */
	if (!err && redefined) {
		err = kd_buf_addf(&run->subj, "value %s kept", run->ov.s);
		kd_buf_reset(&run->ov);
		kd_buf_reset(&run->nv);
		if (!err)
			err = definition(&run->ov, p->old, p->old_enum);
		if (!err)
			err = definition(&run->nv, p->new, p->new_enum);
	}
	if (!err && !redefined)
		err = definitions_note(&run->subj, p);
	if (!err)
		err = diff_add(run->e.r, &(struct diff_new){
				.rule = j.rule, .name = name, .subject = name,
				.old_value = p->old ? run->ov.s : NULL,
				.new_value = p->new ? run->nv.s : NULL,
				.note = run->subj.len ? run->subj.s : NULL }, &idx);
	if (!err && j.rule != DIFF_R_CONSTANT_ADDED)
		err = diff_evidence(run->e.r, idx, j.ev, "%s", j.text.s);
	file = p->old && p->old->file ? p->old->file : p->new ? p->new->file : NULL;
	if (!err && file)
		err = diff_header_cause(run, idx, file, true);
	kd_buf_release(&j.text);
	return err;
}

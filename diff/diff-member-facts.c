// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the contract and the naming convention say about a struct and its
 * members, as diff-types.c's rules ask it: reserved space (a contract line
 * or a name such as __reserved_3), output-only members, and the facts that
 * make growth at the tail compatible (extensible, size tolerant, prefix),
 * messages, members the kernel never touches (unused) or reads only behind
 * a flag or command (when), with the evidence each verdict names; and
 * whether a kernel's headers define a constant (diff_constant(): a
 * `when` gate here, an enumerator's alias in diff-enum.c).
 */
#include "diff/type-walk.h"

#include <string.h>

#include "db/kdb-uapi.h"
#include "lib/str.h"

static int constant_value(const struct kd_constant *c, void *ctx)
{
	if (ctx)
		*(int64_t *)ctx = c->value;
	return 0;
}

bool diff_constant(struct kdb *db, const char *name, int64_t *value)
{
	return db && name && !kdb__get_constant(db, name, constant_value, value);
}

/*
 * What a member's name says of its bytes: reserved space (reserved,
 * resvd, resv, rsvd, rsv, spare, unused: set aside for later, which user
 * space is told to leave zero), padding (pad, padding; __align of
 * linux/sed-opal.h: the compiler's hole made explicit, which promises
 * nothing about its value), or nothing; after leading underscores and
 * before an optional '_' and number (__reserved_3, rsvd0, __spare3, pad2).
 */
enum resv_word { RESV_WORD_NONE, RESV_WORD_RESERVED, RESV_WORD_PADDING };

static enum resv_word reserved_word(const char *name)
{
	static const struct {
		const char *word;
		enum resv_word says;
	} words[] = {
		{ "reserved", RESV_WORD_RESERVED }, { "resvd", RESV_WORD_RESERVED },
		{ "resv", RESV_WORD_RESERVED }, { "rsvd", RESV_WORD_RESERVED },
		{ "rsv", RESV_WORD_RESERVED }, { "spare", RESV_WORD_RESERVED },
		{ "padding", RESV_WORD_PADDING }, { "pad", RESV_WORD_PADDING },
		{ "unused", RESV_WORD_RESERVED },
	};
	const char *p = name, *q;
	size_t i, n;

	/* __align (linux/sed-opal.h): explicit padding; a plain "align" may be a value. */
	if (kd_starts_with(name, "__align") && (!name[7] || (name[7] >= '0' && name[7] <= '9')))
		return RESV_WORD_PADDING;
	while (*p == '_')
		p++;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		n = strlen(words[i].word);
		if (strncmp(p, words[i].word, n))
			continue;
		q = p + n;
		if (*q == '_' && q[1])
			q++;
		while (*q >= '0' && *q <= '9')
			q++;
		if (!*q)
			return words[i].says;
	}
	return RESV_WORD_NONE;
}

/*
 * Is member @member of @type (NULL: anonymous) reserved space? The contract
 * first; a member it describes otherwise is not (a "pad" with a kind is no
 * padding); else the naming convention. *why says who decided.
 */
bool dt_member_reserved(const struct diff_engine *e, const char *type, const char *member,
			struct dt_resv_why *why)
{
	const struct diff_contract *c = e->conf->contract;
	struct diff_where w = { NULL, 0 };

	enum resv_word word;

	*why = (struct dt_resv_why){ false, DIFF_EV_LAYOUT, { NULL, 0 }, false };
	if (!member)
		return false;
	if (c && c->is_reserved && type && c->is_reserved(c->ctx, type, member, &w)) {
		*why = (struct dt_resv_why){ true, DIFF_EV_CONTRACT, w, false };
		return true;
	}
	if (c && c->describes && type && c->describes(c->ctx, type, member, NULL))
		return false;
	word = reserved_word(member);
	if (word == RESV_WORD_NONE)
		return false;
	*why = (struct dt_resv_why){ true, DIFF_EV_CONVENTION, { NULL, 0 },
				     word == RESV_WORD_PADDING };
	return true;
}

/* Name what made change @idx (about @owner's member @member) a reserved-space one. */
int dt_resv_evidence(struct diff_engine *e, size_t idx, const char *owner, const char *member,
		     const struct dt_resv_why *why)
{
	if (!why || !why->is)
		return 0;
	if (why->kind == DIFF_EV_CONTRACT)
		return diff_evidence(e->r, idx, DIFF_EV_CONTRACT, "%s:%d: %s.%s is reserved",
				     why->where.file ? why->where.file : "contract", why->where.line,
				     owner, member);
	/* A name is weak evidence: the report says it is all there is. */
	return diff_evidence(e->r, idx, DIFF_EV_CONVENTION,
			     "the name %s says %s, by the naming convention only: no contract line or"
			     " kernel fact says the kernel zero-checks or ignores %s.%s", member,
			     why->padding ? "padding, which promises nothing about its value" :
			     "reserved space", owner, member);
}

bool dt_contract_reserved(const struct diff_engine *e, const char *type, const char *member)
{
	const struct diff_contract *c = e->conf->contract;

	return c && c->is_reserved && type && c->is_reserved(c->ctx, type, member, NULL);
}

static bool contract_extensible(const struct diff_engine *e, const char *type)
{
	const struct diff_contract *c = e->conf->contract;

	return c && c->is_extensible && type && c->is_extensible(c->ctx, type, NULL);
}

/* The contract calls member @member of @type output-only (written by the kernel only). */
bool dt_contract_out(const struct diff_engine *e, const char *type, const char *member,
		     struct diff_where *where)
{
	const struct diff_contract *c = e->conf->contract;

	return c && c->is_out && type && member && c->is_out(c->ctx, type, member, where);
}

/* The contract calls @type prefix (copied no further than the caller's length); *@where: its line. */
bool dt_contract_prefix(const struct diff_engine *e, const char *type, struct diff_where *where)
{
	const struct diff_contract *c = e->conf->contract;

	return c && c->is_prefix && type && c->is_prefix(c->ctx, type, where);
}

bool dt_contract_message(const struct diff_engine *e, const char *type, struct diff_where *where)
{
	const struct diff_contract *c = e->conf->contract;

	return c && c->is_message && type && c->is_message(c->ctx, type, where);
}

/* The contract calls @type whole (copied at the kernel's size); *@where: its line. */
static bool contract_whole(const struct diff_engine *e, const char *type, struct diff_where *where)
{
	const struct diff_contract *c = e->conf->contract;

	return c && c->is_whole && type && c->is_whole(c->ctx, type, where);
}

bool dt_contract_unused(const struct diff_engine *e, const char *type, const char *member,
			int64_t *from, struct diff_where *where)
{
	const struct diff_contract *c = e->conf->contract;
	int64_t f = 0;

	if (!c || !c->is_unused || !type || !member || !c->is_unused(c->ctx, type, member, &f, where))
		return false;
	if (from)
		*from = f;
	return true;
}

/*
 * The gates of @member, when both sides' headers were read, none of them
 * is in the old ones and each is in the new: old binaries cannot name one.
 */
static bool gated_new(const struct diff_engine *e, const char *owner, const char *type,
		      const char *member, struct kd_buf *why)
{
	const struct diff_contract *c = e->conf->contract;
	const char *const *gates = NULL;
	struct diff_where w = { NULL, 0 };
	size_t i, n = 0;

	if (!c || !c->gates || !c->gates(c->ctx, type, member, &gates, &n, &w) || !n ||
	    !e->r->coverage[0].headers || !e->r->coverage[1].headers)
		return false;
	for (i = 0; i < n; i++)
		if (diff_constant(e->old_db, gates[i], NULL) || !diff_constant(e->new_db, gates[i], NULL))
			return false;
	kd_buf_reset(why);
	if (kd_buf_addf(why, "%s:%d: %s.%s is read only when ", w.file ? w.file : "contract", w.line,
			owner, member))
		return false;
	for (i = 0; i < n; i++)
		if (kd_buf_addf(why, "%s%s", i ? (i + 1 < n ? ", " : " or ") : "", gates[i]))
			return false;
	return !kd_buf_addf(why, " is in play, and the old headers define %s: old binaries cannot"
			    " set %s", n > 1 ? "none of them" : "no such constant",
			    n > 1 ? "any" : "it");
}

bool dt_member_unread(const struct diff_engine *e, size_t node, const char *type,
		      const char *member, bool out_counts, struct kd_buf *why)
{
	const char *owner = e->nodes[node].display;
	struct diff_where w = { NULL, 0 };
	int64_t from = 0;

	if (!type || !member)
		return false;
	if (dt_contract_unused(e, type, member, &from, &w) && !from) {
		kd_buf_reset(why);
		return !kd_buf_addf(why, "%s:%d: %s.%s is unused: the kernel never reads it",
				    w.file ? w.file : "contract", w.line, owner, member);
	}
	if (out_counts && dt_contract_out(e, type, member, &w)) {
		kd_buf_reset(why);
		return !kd_buf_addf(why, "%s:%d: %s.%s is output-only (out): the kernel writes it",
				    w.file ? w.file : "contract", w.line, owner, member);
	}
	return gated_new(e, owner, type, member, why);
}

enum diff_rule_id dt_padding_member_rule(const struct diff_engine *e, size_t node,
					 const char *old_type, const char *new_type, const char *name,
					 struct diff_where *out_where, struct kd_buf *why)
{
	struct dt_resv_why w;

	if (dt_member_reserved(e, old_type, name, &w))
		return DIFF_R_RESERVED_REUSE;
	if (dt_contract_out(e, old_type, name, out_where))
		return DIFF_R_PADDING_REUSE_OUT;
	if (dt_member_unread(e, node, new_type, name, false, why))
		return DIFF_R_MEMBER_ADDED_UNREAD;
	return DIFF_R_PADDING_MEMBER_REUSE_UNCONTRACTED;
}

int dt_meaning_evidence(struct diff_engine *e, size_t idx, size_t node, enum diff_rule_id rule,
			const char *name, const struct diff_where *ow, const struct kd_buf *why)
{
	if (rule == DIFF_R_MEMBER_ADDED_UNREAD)
		return diff_evidence(e->r, idx, DIFF_EV_CONTRACT, "%s",
				     why->s ? why->s : "");
	if (rule == DIFF_R_PADDING_REUSE_OUT)
		return diff_evidence(e->r, idx, DIFF_EV_CONTRACT,
				     "%s:%d: %s.%s is output-only (out): the kernel writes it",
				     ow->file ? ow->file : "contract", ow->line,
				     e->nodes[node].display, name);
	return 0;
}

/* Is node @node's type @t extensible: by the contract, or inherited when anonymous? */
bool dt_node_extensible(const struct diff_engine *e, size_t node, const struct kd_type *t)
{
	return t->name ? contract_extensible(e, t->name) : e->nodes[node].anon_ext > 0;
}

/* The rule of a growth at the tail of node @node's type @t. */
enum diff_rule_id dt_tail_rule(const struct diff_engine *e, size_t node, const struct kd_type *t)
{
	if (dt_node_extensible(e, node, t))
		return DIFF_R_TAIL_GROWTH_EXTENSIBLE;
	if (e->nodes[node].tolerant > 0)
		return DIFF_R_TAIL_GROWTH_TOLERANT;
	if (dt_contract_prefix(e, t->name, NULL))
		return DIFF_R_TAIL_GROWTH_PREFIX;
	if (contract_whole(e, t->name, NULL))
		return DIFF_R_TAIL_GROWTH_WHOLE;
	return e->nodes[node].union_alt > 0 ? DIFF_R_TAIL_GROWTH_UNION : DIFF_R_TAIL_GROWTH_UNCONTRACTED;
}

/* The evidence of change @idx, a growth of @type the contract calls prefix. */
static int prefix_evidence(struct diff_engine *e, size_t idx, size_t node, const char *type)
{
	struct diff_where w = { NULL, 0 };

	(void)dt_contract_prefix(e, type, &w);
	return diff_evidence(e->r, idx, DIFF_EV_CONTRACT,
			     "%s:%d: %s is prefix: copied no further than the caller's length",
			     w.file ? w.file : "contract", w.line, e->nodes[node].display);
}

/* The evidence of change @idx, a growth of @type the contract calls whole. */
static int whole_evidence(struct diff_engine *e, size_t idx, size_t node, const char *type)
{
	struct diff_where w = { NULL, 0 };

	(void)contract_whole(e, type, &w);
	return diff_evidence(e->r, idx, DIFF_EV_CONTRACT,
			     "%s:%d: %s is whole: copied at the kernel's size, whatever the caller's"
			     " length", w.file ? w.file : "contract", w.line, e->nodes[node].display);
}

/* The evidence of change @idx, a growth judged by the ioctls' size-tolerant family. */
static int tolerant_evidence(struct diff_engine *e, size_t idx, size_t node)
{
	return diff_evidence(e->r, idx, DIFF_EV_CONTRACT,
			     "every ioctl that passes %s is of a family the contract calls size tolerant",
			     e->nodes[node].display);
}

int dt_struct_fact_evidence(struct diff_engine *e, size_t idx, size_t node, enum diff_rule_id rule,
			    const char *type)
{
	switch (rule) {
	case DIFF_R_TAIL_GROWTH_TOLERANT: return tolerant_evidence(e, idx, node);
	case DIFF_R_TAIL_GROWTH_PREFIX:
	case DIFF_R_TYPE_ALIGN_PREFIX: return prefix_evidence(e, idx, node, type);
	case DIFF_R_TAIL_GROWTH_WHOLE: return whole_evidence(e, idx, node, type);
	default: return 0;
	}
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recursive-descent parser of .kabispec declarations (grammar in
 * spec/FORMAT.md): include, fdkind, flags/enum sets, struct/union
 * annotations, syscalls and ioctls (constants and families in
 * parse-facts.c, the vDSO in parse-vdso.c). Keywords are contextual, so a
 * parameter may be called "flags" or "size".
 *
 * Errors never stop the file. A bad statement inside a block is skipped
 * up to its ';' and the block goes on; a bad declaration header is skipped
 * to the end of the declaration. A declaration keyword in column 1 always
 * starts a new declaration, which also recovers from a missing '}'.
 * Declarations parsed with statement errors are still added, so that
 * references to them do not cascade into more errors.
 */
#include "spec/spec_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mem.h"

/* The words a declaration starts with (decl_parsers[] follows their order). */
static const char *const spec_decl_keywords[] = {
	"include", "fdkind", "idkind", "flags", "enum", "struct", "union", "syscall", "ioctl",
	"constant", "family", "vdso", NULL
};

static const char *const spec_kind_names[] = {
	[SPEC_K_INT] = "int", [SPEC_K_FD] = "fd", [SPEC_K_PATH] = "path",
	[SPEC_K_STRING] = "string", [SPEC_K_PTR] = "ptr", [SPEC_K_ADDR] = "addr",
	[SPEC_K_LEN] = "len", [SPEC_K_COUNT] = "count", [SPEC_K_FLAGS] = "flags",
	[SPEC_K_ENUM] = "enum", [SPEC_K_PID] = "pid", [SPEC_K_UID] = "uid",
	[SPEC_K_GID] = "gid", [SPEC_K_UNUSED] = "unused", [SPEC_K_ID] = "id",
	[SPEC_K__COUNT] = NULL
};

const char *const spec_ret_names[] = {
	[SPEC_RET_ZERO] = "0", [SPEC_RET_FD] = "fd", [SPEC_RET_COUNT] = "count",
	[SPEC_RET_ADDR] = "addr", [SPEC_RET_INT] = "int", [SPEC_RET_PID] = "pid",
	[SPEC_RET_NORETURN] = "noreturn", [SPEC_RET__COUNT] = NULL
};

static const char *const dir_names[] = { "none", "in", "out", "inout", NULL };

const char *spec_kind_name(enum spec_kind k)
{
	return (unsigned)k < SPEC_K__COUNT ? spec_kind_names[k] : "?";
}

const char *spec_dir_name(enum spec_dir d)
{
	return (unsigned)d <= SPEC_DIR_INOUT ? dir_names[d] : "?";
}

const char *spec_ret_name(enum spec_ret r)
{
	return (unsigned)r < SPEC_RET__COUNT ? spec_ret_names[r] : "?";
}

/* Words that end an optional trailing identifier. */
bool is_modifier(const struct token *t)
{
	return tok_is(t, "since") || tok_is(t, "optional") || tok_is(t, "or") || tok_is(t, "when") ||
	       tok_is(t, "nonzero") || tok_is(t, "mapped") || tok_is(t, "readable") ||
	       tok_is(t, "writable");
}

static bool is_decl_start(const struct token *t)
{
	size_t i;

	if (t->kind != T_IDENT || t->col != 1)
		return false;
	for (i = 0; spec_decl_keywords[i]; i++)
		if (!strcmp(t->text, spec_decl_keywords[i]))
			return true;
	return false;
}

/* Skip the rest of a statement of a block whose inside has depth @d. */
static void skip_stmt(struct parser *p, int d)
{
	for (;;) {
		const struct token *t = peek(p);

		if (t->kind == T_EOF || is_decl_start(t) || (tok_is(t, "}") && t->depth < d))
			return;
		p->pos++;
		if (t->kind == T_PUNCT && !strcmp(t->text, ";") && t->depth <= d)
			return;
	}
}

/* Skip the rest of the declaration that started at token @start. */
static void skip_decl(struct parser *p, size_t start)
{
	int d = p->toks[start].depth;

	for (;;) {
		const struct token *t = peek(p);

		if (t->kind == T_EOF || (p->pos != start && is_decl_start(t)))
			return;
		p->pos++;
		if (t->kind == T_PUNCT && t->depth <= d && (!strcmp(t->text, ";") || !strcmp(t->text, "}"))) {
			if (!strcmp(t->text, "}") && tok_is(peek(p), ";"))
				p->pos++;
			return;
		}
	}
}

char *pstrdup(struct parser *p, const char *s)
{
	char *d = kd_arena_strdup(&p->s->arena, s);

	if (!d && s)
		p->oom = -ENOMEM;
	return d;
}

/* Move a temporary array into the arena (the temporary is freed). */
void *to_arena(struct parser *p, void *tmp, size_t n, size_t size)
{
	void *d = NULL;

	if (n) {
		d = kd_arena_alloc_array(&p->s->arena, n, size);
		if (d)
			memcpy(d, tmp, n * size);
		else
			p->oom = -ENOMEM;
	}
	free(tmp);
	return d;
}

int ident(struct parser *p, const char **out, const char *what)
{
	const struct token *t = peek(p);

	if (t->kind != T_IDENT)
		return perr(p, t, "expected %s, found %s", what, tok_desc(p, t));
	p->pos++;
	*out = t->text;
	return 0;
}

int opt_since(struct parser *p, const char **since)
{
	const struct token *t;

	if (!tok_is(peek(p), "since"))
		return 0;
	p->pos++;
	t = peek(p);
	if (t->kind == T_VERSION) {
		p->pos++;
		*since = t->text;
		return 0;
	}
	return perr(p, t, "expected a kernel version after 'since' (like 5.6), found %s",
		    tok_desc(p, t));
}

/* Append the text of each token from the current one that @want accepts to @b, one space apart. */
static int join_words(struct parser *p, struct kd_buf *b, bool (*want)(const struct token *))
{
	while (want(peek(p))) {
		if ((b->len && kd_buf_addc(b, ' ')) || kd_buf_adds(b, peek(p)->text)) {
			p->oom = -ENOMEM;
			return -1;
		}
		p->pos++;
	}
	return 0;
}

static bool is_string(const struct token *t)
{
	return t->kind == T_STRING;
}

/* A word of a C type name ("unsigned", "long", "struct", "foo"). */
static bool is_ctype_word(const struct token *t)
{
	return t->kind == T_IDENT && !is_modifier(t);
}

/* One or more adjacent strings, concatenated. */
int strings(struct parser *p, const char **out, const char *what)
{
	struct kd_buf b = KD_BUF_INIT;
	int err;

	if (!is_string(peek(p)))
		return perr(p, peek(p), "expected %s (a \"string\"), found %s", what, tok_desc(p, peek(p)));
	err = join_words(p, &b, is_string);
	if (!err)
		*out = pstrdup(p, b.s);
	kd_buf_release(&b);
	return err;
}

/* --- kinds --------------------------------------------------------------- */
static int parse_ctype(struct parser *p, struct spec_arg *a)
{
	struct kd_buf b = KD_BUF_INIT;
	const struct token *t = peek(p);
	int err;

	if (!is_ctype_word(t))
		return perr(p, t, "expected the pointed-to C type after 'ptr %s', found %s",
			    spec_dir_name(a->dir), tok_desc(p, t));
	a->ref_loc = tok_loc(p, t);
	err = join_words(p, &b, is_ctype_word);
	while (!err && tok_is(peek(p), "*")) {
		if (kd_buf_adds(&b, b.s[b.len - 1] == '*' ? "*" : " *")) {
			p->oom = -ENOMEM;
			err = -1;
		} else {
			p->pos++;
		}
	}
	if (!err && accept_tok(p, "[")) {
		err = expect(p, "]", "after '[' (an array of unstated length)");
		a->array = !err;
	}
	if (!err)
		a->ref = pstrdup(p, b.s);
	kd_buf_release(&b);
	return err;
}

/* After 'fd': its kind, the special values it may be instead ('or AT_FDCWD'), its access. */
static int parse_fd(struct parser *p, struct spec_arg *a)
{
	const char *const *specials = NULL;
	size_t nr = 0, cap = 0;

	if (peek(p)->kind == T_IDENT && !is_modifier(peek(p))) {
		a->ref_loc = tok_loc(p, peek(p));
		a->ref = peek(p)->text;
		p->pos++;
	}
	while (tok_is(peek(p), "or")) {
		const char *name;

		p->pos++;
		if (ident(p, &name, "a special value after 'or' (like AT_FDCWD)") ||
		    P_GROW(p, specials, cap, nr + 1)) {
			free((void *)specials);
			return -1;
		}
		((const char **)specials)[nr++] = name;
	}
	a->nr_specials = nr;
	a->specials = to_arena(p, (void *)specials, nr, sizeof(*specials));
	if (tok_is(peek(p), "readable") || tok_is(peek(p), "writable")) {
		a->access = peek(p)->text[0] == 'r' ? SPEC_ACCESS_READ : SPEC_ACCESS_WRITE;
		p->pos++;
	}
	return 0;
}

/* After 'ptr': the direction, then the C type it points to. */
static int parse_ptr(struct parser *p, struct spec_arg *a)
{
	const struct token *t = peek(p);
	int k;

	for (k = SPEC_DIR_IN; k <= SPEC_DIR_INOUT; k++)
		if (tok_is(t, dir_names[k]))
			break;
	if (k > SPEC_DIR_INOUT)
		return perr_hint(p, t, dir_names + 1, 3,
				 "expected a direction (in, out, inout) after 'ptr', found %s",
				 tok_desc(p, t));
	p->pos++;
	a->dir = (enum spec_dir)k;
	return parse_ctype(p, a) ? -1 : 0;
}

/* What follows kind @a->kind's name: a range, a handle's kind, a direction, a reference. */
static int parse_kind_args(struct parser *p, struct spec_arg *a)
{
	switch (a->kind) {
	case SPEC_K_INT:
		if (accept_tok(p, "in") &&
		    (!(a->lo = parse_expr(p)) || expect(p, "..", "in the range 'int in LO..HI'") ||
		     !(a->hi = parse_expr(p))))
			return -1;
		return 0;
	case SPEC_K_FD:
		return parse_fd(p, a);
	case SPEC_K_PTR:
		return parse_ptr(p, a);
	case SPEC_K_LEN:
	case SPEC_K_COUNT:
		a->ref_loc = tok_loc(p, peek(p));
		return ident(p, &a->ref, a->kind == SPEC_K_LEN ?
			     "the name of the parameter whose length this is" :
			     "the name of the array parameter whose element count this is") ? -1 : 0;
	case SPEC_K_FLAGS:
	case SPEC_K_ENUM:
		a->ref_loc = tok_loc(p, peek(p));
		return ident(p, &a->ref, a->kind == SPEC_K_FLAGS ? "the name of a flag set" :
			     "the name of an enum") ? -1 : 0;
	case SPEC_K_ID:
		a->ref_loc = tok_loc(p, peek(p));
		return ident(p, &a->ref, "the name of an id kind (idkind)") ? -1 : 0;
	default:
		return 0;
	}
}

/* Modifiers, each at most once; resolve.c checks which kinds take them. */
static int parse_modifiers(struct parser *p, struct spec_arg *a)
{
	for (;;) {
		bool *flag = tok_is(peek(p), "optional") ? &a->optional
			   : tok_is(peek(p), "nonzero") ? &a->nonzero
			   : tok_is(peek(p), "mapped") ? &a->mapped : NULL;

		if (!flag)
			return 0;
		if (*flag)
			return perr(p, peek(p), "'%s' given twice", peek(p)->text);
		*flag = true;
		a->mod_loc = tok_loc(p, peek(p));
		p->pos++;
	}
}

int parse_kind(struct parser *p, struct spec_arg *a)
{
	const struct token *t = peek(p);
	int k;

	memset(a, 0, sizeof(*a));
	if (t->kind != T_IDENT) {
		return perr(p, t, "expected a kind (int, fd, path, ptr, len, flags, enum, ...), found %s",
			    tok_desc(p, t));
	}
	for (k = 0; k < SPEC_K__COUNT; k++)
		if (!strcmp(t->text, spec_kind_names[k]))
			break;
	if (k == SPEC_K__COUNT)
		return perr_hint(p, t, spec_kind_names, SPEC_K__COUNT, "unknown kind '%s'", t->text);
	p->pos++;
	a->kind = (enum spec_kind)k;
	return parse_kind_args(p, a) ? -1 : parse_modifiers(p, a);
}

/* --- sets ---------------------------------------------------------------- */
struct set_build {
	struct spec_value *values;
	size_t nr_values, cap_values;
	struct spec_group *groups;
	size_t nr_groups, cap_groups;
};

static int parse_value(struct parser *p, struct set_build *sb, int group)
{
	const struct token *t = peek(p);
	struct spec_value v = { .group = group, .loc = tok_loc(p, t) };

	if (ident(p, &v.name, "a constant name"))
		return -1;
	if (accept_tok(p, "=")) {
		if (!(v.value = parse_expr(p)))
			return -1;
	}
	if (opt_since(p, &v.since))
		return -1;
	return P_PUSH(p, sb->values, sb->cap_values, sb->nr_values, v);
}

static int parse_set_stmt(struct parser *p, struct spec_set *set, struct set_build *sb)
{
	const struct token *t = peek(p);
	int group = -1;

	if (tok_is(t, "unknown") && peek2(p)->kind == T_IDENT) {
		const struct token *w = peek2(p);

		p->pos += 2;
		if (!strcmp(w->text, "reject") || !strcmp(w->text, "ignore")) {
			set->unknown = w->text[0] == 'r' ? SPEC_UNKNOWN_REJECT : SPEC_UNKNOWN_IGNORE;
		} else {
			return perr(p, w, "expected 'reject' or 'ignore' after 'unknown', found %s",
				    tok_desc(p, w));
		}
		return expect(p, ";", "after the 'unknown' policy");
	}
	if (tok_is(t, "exclusive") && peek2(p)->kind == T_IDENT) {
		struct spec_group g = { .loc = tok_loc(p, t) };

		if (set->kind != SPEC_SET_FLAGS)
			return perr(p, t, "'exclusive' groups belong in flag sets, not in enums");
		p->pos++;
		group = (int)sb->nr_groups;
		if (P_PUSH(p, sb->groups, sb->cap_groups, sb->nr_groups, g))
			return -1;
	}
	for (;;) {
		if (parse_value(p, sb, group))
			return -1;
		if (!accept_tok(p, ","))
			break;
	}
	if (group >= 0 && accept_tok(p, "mask")) {
		if (ident(p, &sb->groups[group].mask, "the mask constant of the group"))
			return -1;
	}
	return expect(p, ";", group >= 0 ? "after the exclusive group" : "after the values");
}

/* A block "{ stmt* }": calls @stmt per statement, recovering at each ';'. */
int parse_block(struct parser *p, const char *what, const char *name,
		       int (*stmt)(struct parser *, void *), void *ctx)
{
	const struct token *open = peek(p);
	int d, errs = 0;

	if (expect(p, "{", "to open the body"))
		return -1;
	d = open->depth + 1;
	for (;;) {
		const struct token *t = peek(p);

		if (tok_is(t, "}")) {
			p->pos++;
			break;
		}
		if (t->kind == T_EOF || is_decl_start(t)) {
			perr(p, t, "expected '}' to close '%s %s' (opened at line %d), found %s",
			     what, name, open->line, tok_desc(p, t));
			return -1;
		}
		if (tok_is(t, ";")) {	/* an empty statement is harmless */
			p->pos++;
			continue;
		}
		if (stmt(p, ctx)) {
			errs++;
			if (p->oom)
				return -1;
			skip_stmt(p, d);
		}
	}
	accept_tok(p, ";");
	return errs ? 1 : 0;
}

struct set_ctx {
	struct spec_set *set;
	struct set_build sb;
};

static int set_stmt(struct parser *p, void *ctx)
{
	struct set_ctx *c = ctx;

	return parse_set_stmt(p, c->set, &c->sb);
}

static int parse_set(struct parser *p, const struct token *kw)
{
	struct set_ctx c = { 0 };
	struct spec_set set = { .kind = kw->text[0] == 'f' ? SPEC_SET_FLAGS : SPEC_SET_ENUM,
				.loc = tok_loc(p, kw) };
	int rc;

	if (ident(p, &set.name, set.kind == SPEC_SET_FLAGS ? "the name of the flag set" :
		  "the name of the enum"))
		return -1;
	if (accept_tok(p, "extends")) {
		if (ident(p, &set.extends, "the name of the base set after 'extends'"))
			return -1;
	}
	if (opt_since(p, &set.since))
		return -1;
	c.set = &set;
	rc = parse_block(p, kw->text, set.name, set_stmt, &c);
	if (rc < 0 && !c.sb.nr_values)
		goto fail;
	set.nr_values = c.sb.nr_values;
	set.values = to_arena(p, c.sb.values, c.sb.nr_values, sizeof(*c.sb.values));
	set.nr_groups = c.sb.nr_groups;
	set.groups = to_arena(p, c.sb.groups, c.sb.nr_groups, sizeof(*c.sb.groups));
	if (P_PUSH(p, p->s->sets, p->s->cap_sets, p->s->nr_sets, set))
		return -1;
	return rc < 0 ? -1 : 0;
fail:
	free(c.sb.values);
	free(c.sb.groups);
	return -1;
}

/* --- small declarations and the file ------------------------------------ */
/* "fdkind NAME [TEXT];" and "idkind NAME [TEXT];". */
static int parse_fdkind(struct parser *p, const struct token *kw)
{
	struct spec_fdkind k = { .loc = tok_loc(p, kw) };
	bool id = kw->text[0] == 'i';

	if (ident(p, &k.name, id ? "the id kind's name" : "the fd kind's name"))
		return -1;
	if (peek(p)->kind == T_STRING && strings(p, &k.text, "a description"))
		return -1;
	if (expect(p, ";", id ? "after the id kind" : "after the fd kind"))
		return -1;
	if (id ? KD_GROW(p->s->idkinds, p->s->cap_idkinds, p->s->nr_idkinds + 1)
	       : KD_GROW(p->s->fdkinds, p->s->cap_fdkinds, p->s->nr_fdkinds + 1)) {
		p->oom = -ENOMEM;
		return -1;
	}
	if (id)
		p->s->idkinds[p->s->nr_idkinds++] = k;
	else
		p->s->fdkinds[p->s->nr_fdkinds++] = k;
	return 0;
}

static int parse_include(struct parser *p, const struct token *kw)
{
	const struct token *t = peek(p);
	struct spec_loc loc = tok_loc(p, kw);
	int err;

	if (t->kind != T_STRING)
		return perr(p, t, "expected the file name (a \"string\") after 'include', found %s",
			    tok_desc(p, t));
	p->pos++;
	if (expect(p, ";", "after the include"))
		return -1;
	err = spec_include(p->s, &loc, p->file, t->text);
	if (err == -ENOMEM)
		p->oom = err;
	return 0;
}

/* The parser of each of spec_decl_keywords, in its order. */
static int (*const decl_parsers[])(struct parser *, const struct token *) = {
	parse_include, parse_fdkind, parse_fdkind, parse_set, parse_set, parse_struct, parse_struct,
	parse_call, parse_call, parse_constant, parse_family, parse_vdso,
};
_Static_assert(sizeof(decl_parsers) / sizeof(decl_parsers[0]) + 1 ==
	       sizeof(spec_decl_keywords) / sizeof(spec_decl_keywords[0]),
	       "a parser for each declaration keyword");

int spec_parse_tokens(struct parser *p)
{
	while (peek(p)->kind != T_EOF) {
		const struct token *t = peek(p);
		size_t start = p->pos;
		int rc = -1;

		size_t i;

		for (i = 0; spec_decl_keywords[i] && !tok_is(t, spec_decl_keywords[i]); i++)
			;
		if (spec_decl_keywords[i]) {
			p->pos++;
			rc = decl_parsers[i](p, t);
		} else {
			perr_hint(p, t, spec_decl_keywords, (size_t)-1,
				  "expected a declaration (syscall, ioctl, flags, enum, struct, union,"
				  " constant, family, vdso, fdkind, idkind, include), found %s", tok_desc(p, t));
		}
		if (p->oom)
			return p->oom;
		if (rc)
			skip_decl(p, start);
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The parser of "vdso ABI { ... }": what the vDSO of one ABI promises,
 * the version nodes its image defines ("version LINUX_2.6;") and the
 * entry points it exports at a node ("__vdso_clock_gettime@LINUX_2.6
 * since 2.6.23;"). Grammar in spec/FORMAT.md. A version node is written
 * as the image spells it, a name and dot-separated numbers; the lexer
 * reads "LINUX_2.6.39" as a name, a dot and a version, so the parser
 * joins the tokens back when nothing separates them. Everything a block
 * can get wrong on its own (an ABI no architecture has, a node written
 * twice or used without its "version" line) is reported here; a second
 * block for one ABI by spec__resolve().
 */
#include "spec/spec_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/arch.h"
#include "lib/mem.h"

struct vdso_build {
	struct spec_vdso *v;
	size_t cap_versions, cap_entries;
};

/* Does token @b start right where token @a ends (no space, same line)? */
static bool touches(const struct token *a, const struct token *b)
{
	return a->line == b->line && a->col + (int)strlen(a->text) == b->col;
}

static bool digits_and_dots(const char *s)
{
	return *s && strspn(s, "0123456789.") == strlen(s);
}

/* NODE: a name, then numbers each after a dot, without spaces ("LINUX_2.6.39"). */
static int parse_node(struct parser *p, const char **out, const char *what)
{
	const struct token *t = peek(p), *last = t;
	struct kd_buf b = KD_BUF_INIT;
	int err = 0;

	if (t->kind != T_IDENT)
		return perr(p, t, "expected %s (a version node: LINUX_2.6), found %s", what,
			    tok_desc(p, t));
	p->pos++;
	if (kd_buf_adds(&b, t->text))
		goto oom;
	while (tok_is(peek(p), ".")) {
		const struct token *dot = peek(p), *num = peek2(p);

		if (!touches(last, dot) || !touches(dot, num) ||
		    (num->kind != T_NUMBER && num->kind != T_VERSION) || !digits_and_dots(num->text)) {
			err = perr(p, dot, "malformed version node '%s.': a name and numbers joined by"
				   " dots, without spaces (LINUX_2.6.39)", b.s);
			goto out;
		}
		if (kd_buf_addc(&b, '.') || kd_buf_adds(&b, num->text))
			goto oom;
		p->pos += 2;
		last = num;
	}
	*out = pstrdup(p, b.s);
	goto out;
oom:
	p->oom = -ENOMEM;
	err = -1;
out:
	kd_buf_release(&b);
	return err;
}

static int vdso_stmt(struct parser *p, void *ctx)
{
	struct vdso_build *vb = ctx;
	struct spec_vdso *v = vb->v;
	const struct token *t = peek(p);

	if (tok_is(t, "version") && !tok_is(peek2(p), "@")) {
		struct spec_vdso_version ver = { .loc = tok_loc(p, t) };

		p->pos++;
		if (parse_node(p, &ver.node, "the node after 'version'") || opt_since(p, &ver.since) ||
		    expect(p, ";", "after the version node"))
			return -1;
		return P_PUSH(p, v->versions, vb->cap_versions, v->nr_versions, ver);
	}
	if (t->kind == T_IDENT) {
		struct spec_vdso_entry e = { .name = t->text, .loc = tok_loc(p, t) };

		p->pos++;
		if (expect(p, "@", "and the version node after the entry point's name (NAME@LINUX_2.6)") ||
		    parse_node(p, &e.node, "the entry point's version node") || opt_since(p, &e.since) ||
		    expect(p, ";", "after the entry point"))
			return -1;
		return P_PUSH(p, v->entries, vb->cap_entries, v->nr_entries, e);
	}
	return perr(p, t, "expected 'version NODE' or an entry point NAME@NODE, found %s",
		    tok_desc(p, t));
}

/* The ABIs of every architecture (lib/arch.h), NULL-terminated, in the arena; NULL: no memory. */
static const char **abi_names(struct parser *p)
{
	const struct kd_arch *a;
	const char **names = NULL;
	size_t nr = 0, cap = 0, i;

	for (i = 0; (a = kd_arch__nth(i)); i++) {
		char *compat = pstrdup(p, a->compat_abis), *q;

		if (!compat || P_PUSH(p, names, cap, nr, a->native_abi))
			goto fail;
		for (q = compat; *q; ) {
			size_t n = strcspn(q, ",");

			if (P_PUSH(p, names, cap, nr, q))
				goto fail;
			q += n;
			if (*q)
				*q++ = 0;
		}
	}
	if (P_PUSH(p, names, cap, nr, NULL))
		goto fail;
	return to_arena(p, names, nr, sizeof(*names));
fail:
	free(names);
	p->oom = -ENOMEM;
	return NULL;
}

static int check_abi(struct parser *p, const struct token *t)
{
	const char **names;

	if (kd_arch__has_abi(NULL, t->text))
		return 0;
	names = abi_names(p);
	if (!names)
		return -1;
	return perr_hint(p, t, names, (size_t)-1, "unknown ABI '%s' (a vDSO is of x64, ia32, x32,"
			 " arm64 or aarch32)", t->text);
}

/* Nodes and entries written twice, and entries at a node the block does not declare. */
static void check_block(struct parser *p, const struct spec_vdso *v)
{
	const char **nodes = NULL;
	size_t i, j, cap = 0, nr = 0;

	for (i = 0; i < v->nr_versions; i++) {
		for (j = 0; j < i && strcmp(v->versions[j].node, v->versions[i].node); j++)
			;
		if (j < i)
			spec_error(p->s, &v->versions[i].loc, "version '%s' written twice in vdso %s"
				   " (first at line %d)", v->versions[i].node, v->abi,
				   v->versions[j].loc.line);
		else if (P_PUSH(p, nodes, cap, nr, v->versions[i].node))
			goto out;
	}
	if (P_PUSH(p, nodes, cap, nr, NULL))
		goto out;
	for (i = 0; i < v->nr_entries; i++) {
		const struct spec_vdso_entry *e = &v->entries[i];

		for (j = 0; j < i && (strcmp(v->entries[j].name, e->name) ||
				      strcmp(v->entries[j].node, e->node)); j++)
			;
		if (j < i) {
			spec_error(p->s, &e->loc, "entry point %s@%s written twice in vdso %s"
				   " (first at line %d)", e->name, e->node, v->abi, v->entries[j].loc.line);
			continue;
		}
		for (j = 0; nodes[j] && strcmp(nodes[j], e->node); j++)
			;
		if (!nodes[j] && spec_error_hint(p->s, &e->loc, did_you_mean(e->node, nodes, (size_t)-1),
						 "%s@%s: vdso %s declares no version '%s' (write"
						 " 'version %s;' in the block)", e->name, e->node,
						 v->abi, e->node, e->node))
			p->oom = -ENOMEM;
	}
out:
	free(nodes);
}

/* vdso ABI [since V] { version NODE [since V]; NAME@NODE [since V]; ... } */
int parse_vdso(struct parser *p, const struct token *kw)
{
	struct spec_vdso v = { .loc = tok_loc(p, kw) };
	struct vdso_build vb = { .v = &v };
	const struct token *t = peek(p);
	int rc;

	if (ident(p, &v.abi, "the ABI whose vDSO this is (x64, arm64, ...)"))
		return -1;
	if (check_abi(p, t) || opt_since(p, &v.since))
		return -1;
	rc = parse_block(p, "vdso", v.abi, vdso_stmt, &vb);
	if (rc < 0 && !v.nr_versions && !v.nr_entries)
		goto fail;
	check_block(p, &v);
	v.versions = to_arena(p, v.versions, v.nr_versions, sizeof(*v.versions));
	v.entries = to_arena(p, v.entries, v.nr_entries, sizeof(*v.entries));
	if (P_PUSH(p, p->s->vdsos, p->s->cap_vdsos, p->s->nr_vdsos, v))
		return -1;
	return rc < 0 ? -1 : 0;
fail:
	free(v.versions);
	free(v.entries);
	return -1;
}

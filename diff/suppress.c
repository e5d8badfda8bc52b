// SPDX-License-Identifier: GPL-2.0-only
/*
 * Suppressions: a maintainer's record of reviewed, accepted changes. One
 * entry per line, "RULE-GLOB NAME-GLOB REASON..." (a space inside a glob is
 * written "\ ", or matched with '?'), where the reason is
 * mandatory (an accepted break must say why). Matching changes are marked,
 * never dropped: reports count them apart and print them with the reason,
 * and they no longer set the exit status bits. A malformed file is an
 * error naming FILE:LINE, not a silently shorter list; an entry that
 * matches no change is kept in the result (diff_result__unmatched()): a
 * stale or mistyped entry is said, not silently ignored. The file is
 * committed in the merge request a CI gate judges: it is read as the spec
 * reader reads its files (a regular file, capped; doc/LIMITS.md).
 */
#include "diff/changes.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"

/*
 * A suppressions file is a reviewed change per line: 1 MiB holds some
 * 10,000 entries, each matched against every change of the diff.
 */
#define SUPPRESSIONS_MAX_KB 1024
#define STR_(x) #x
#define STR(x) STR_(x)

struct suppression {
	char *rule, *name, *reason;
	int line;
};

struct diff_suppressions {
	struct suppression *v;
	size_t n, cap;
	char *path;
};

void diff_suppressions__free(struct diff_suppressions *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		free(s->v[i].rule);
		free(s->v[i].name);
		free(s->v[i].reason);
	}
	free(s->v);
	free(s->path);
	free(s);
}

/*
 * Next whitespace-separated word of *p, NUL-terminated in place; NULL at
 * the end. "\ " does not end a word (names like "struct\ open_how"; fnmatch
 * reads the backslash as an escape).
 */
static char *word(char **p)
{
	char *s = *p, *w;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return NULL;
	w = s;
	while (*s && !(isspace((unsigned char)*s) && (s == w || s[-1] != '\\')))
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return w;
}

/* Could @w be a rule id of RULES.md (lower-case words joined by '-', not too long)? */
static bool rule_shaped(const char *w)
{
	size_t n = strspn(w, "abcdefghijklmnopqrstuvwxyz0123456789-");

	return n && !w[n] && n <= 64;
}

static int parse_line(struct diff_suppressions *s, const char *path, int lineno, char *line)
{
	char *p = line, *rule, *name, *reason, *end;
	struct suppression *e;
	int err;

	line[strcspn(line, "\r\n")] = '\0';
	rule = word(&p);
	if (!rule || rule[0] == '#')
		return 0;
	name = word(&p);
	while (isspace((unsigned char)*p))
		p++;
	reason = p;
	for (end = reason + strlen(reason); end > reason && isspace((unsigned char)end[-1]); end--)
		;
	*end = '\0';
	if (!name || !*reason) {
		kd_err("%s:%d: expected 'RULE NAME REASON...' (the reason is mandatory)", path, lineno);
		return -KD_ESYNTAX;
	}
	if (!strpbrk(rule, "*?[") && !diff_rule_by_id(rule)) {
		/* A link to another file must not have its lines quoted into a CI log. */
		if (rule_shaped(rule))
			kd_err("%s:%d: unknown rule '%s' (see diff/RULES.md)", path, lineno, rule);
		else
			kd_err("%s:%d: not a rule id (see diff/RULES.md)", path, lineno);
		return -KD_ESYNTAX;
	}
	err = KD_GROW(s->v, s->cap, s->n + 1);
	if (err)
		return err;
	e = &s->v[s->n];
	e->rule = kd_strdup(rule);
	e->name = kd_strdup(name);
	e->reason = kd_strdup(reason);
	e->line = lineno;
	s->n++;
	return e->rule && e->name && e->reason ? 0 : -ENOMEM;
}

/*
 * The file's text: a regular file of at most SUPPRESSIONS_MAX_KB (a link to
 * /dev/zero read until memory ran out, a FIFO hung the run), as the spec
 * reader reads its files.
 */
static int read_suppressions(const char *path, struct kd_buf *b)
{
	int err = kd_buf_read_regular(b, path, (size_t)SUPPRESSIONS_MAX_KB << 10);

	if (err == -KD_ELIMIT)
		kd_err("%s: cannot read: larger than " STR(SUPPRESSIONS_MAX_KB) " KiB, the limit of"
		       " a suppressions file", path);
	else if (err)
		kd_err("%s: cannot read: %s", path, kd_strerror(err));
	return err;
}

/* The line of the first NUL byte of @b, or 0: parsed as a C string, the rest would go unread. */
static int nul_line(const struct kd_buf *b)
{
	const char *nul = memchr(b->s, '\0', b->len), *p;
	int line = 1;

	if (!nul)
		return 0;
	for (p = b->s; p < nul; p++)
		line += *p == '\n';
	return line;
}

int diff_suppressions__load(const char *path, struct diff_suppressions **out)
{
	struct diff_suppressions *s = NULL;
	struct kd_buf text = KD_BUF_INIT;
	char *line, *next;
	int lineno = 0, err;

	*out = NULL;
	err = read_suppressions(path, &text);
	if (err)
		goto out;
	lineno = nul_line(&text);
	if (lineno) {
		kd_err("%s:%d: a NUL byte: not a text file", path, lineno);
		err = -KD_ESYNTAX;
		goto out;
	}
	s = kd_calloc(1, sizeof(*s));
	if (!s || !(s->path = kd_strdup(path))) {
		err = -ENOMEM;
		goto out;
	}
	for (line = text.s; !err && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		err = parse_line(s, path, ++lineno, line);
	}
out:
	kd_buf_release(&text);
	if (err) {
		diff_suppressions__free(s);
		return err;
	}
	*out = s;
	return 0;
}

static bool name_matches(const struct suppression *e, const struct diff_change *c)
{
	size_t i;

	if (!fnmatch(e->name, c->name, 0) || !fnmatch(e->name, c->subject, 0))
		return true;
	for (i = 0; i < c->nr_impacts; i++)
		if (!fnmatch(e->name, c->impacts[i].root, 0))
			return true;
	return false;
}

static int note_unmatched(struct diff_result *r, const struct diff_suppressions *s,
			  const struct suppression *e)
{
	struct kd_buf b = KD_BUF_INIT;
	char **v;
	int err;

	v = kd_realloc_array(r->unmatched, r->nr_unmatched + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	r->unmatched = v;
	err = kd_buf_addf(&b, "%s:%d: %s %s", s->path, e->line, e->rule, e->name);
	if (err) {
		kd_buf_release(&b);
		return err;
	}
	v[r->nr_unmatched++] = kd_buf_detach(&b);
	return v[r->nr_unmatched - 1] ? 0 : -ENOMEM;
}

long diff_result__suppress(struct diff_result *r, const struct diff_suppressions *s)
{
	bool *used = kd_calloc(s->n + 1, sizeof(*used));
	size_t i, j;
	long n = 0;
	int err = 0;

	if (!used)
		return -ENOMEM;
	for (i = 0; !err && i < r->nr_changes; i++) {
		struct diff_change *c = &r->changes[i];

		/* Every entry that matches counts as used, not only the first. */
		for (j = 0; j < s->n; j++) {
			if (fnmatch(s->v[j].rule, c->rule->id, 0) || !name_matches(&s->v[j], c))
				continue;
			used[j] = true;
			if (c->suppressed)
				continue;
			c->suppressed = kd_strdup(s->v[j].reason);
			if (!c->suppressed) {
				err = -ENOMEM;
				break;
			}
			n++;
		}
	}
	for (j = 0; !err && j < s->n; j++)
		if (!used[j])
			err = note_unmatched(r, s, &s->v[j]);
	free(used);
	return err ? err : n;
}

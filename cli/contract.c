// SPDX-License-Identifier: GPL-2.0-only
/*
 * The contract of check, diff and probe, by the one policy of
 * cli/contract.h: --spec DIR, --no-spec, the one stored in the .kabi, the
 * default. The default is the installed spec directory, else the source
 * tree's spec/contract/ next to the running binary, unless $KABI_DIFF_SPEC
 * names another directory or "none". The installed one is found from the
 * running binary too, BINDIR/../share/kabi-diff/spec as `make install`
 * lays it out: a prefix compiled in made `make install PREFIX=...`
 * recompile and relink the in-tree binary (racing a `make check` that
 * ran it), and a staged DESTDIR install is found where it lands. A
 * directory counts only when it holds a *.kabispec, so an empty one left
 * by an old install does not hide the source tree's contract. cli_contract_setup() wires a contract (and
 * the differences of two versions) into a diff.
 */
#include "cli/contract.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "spec/spec-diff.h"
#include "spec/spec.h"

static bool holds_spec(const char *dir)
{
	struct dirent *e;
	bool found = false;
	DIR *d = opendir(dir);
	size_t n;

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		n = strlen(e->d_name);
		found = e->d_name[0] != '.' && n > 9 && !strcmp(e->d_name + n - 9, ".kabispec");
	}
	closedir(d);
	return found;
}

/* dirname(/proc/self/exe) + @rest into @b. */
static int beside_binary(struct kd_buf *b, const char *rest)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return -ENOENT;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	return kd_buf_addf(b, "%s%s", exe, rest);
}

int cli_contract_default_dir(char **dir)
{
	struct kd_buf b = KD_BUF_INIT;
	const char *env = getenv("KABI_DIFF_SPEC");
	int i;

	*dir = NULL;
	if (env) {
		if (!*env || !strcmp(env, "none"))
			return 0;
		*dir = kd_strdup(env);
		return *dir ? 0 : -ENOMEM;
	}
	/* Installed (BINDIR/../share/kabi-diff/spec), else the source tree's. */
	for (i = 0; i < 2; i++) {
		kd_buf_reset(&b);
		if (!beside_binary(&b, i ? "/spec/contract" : "/../share/kabi-diff/spec") &&
		    holds_spec(b.s)) {
			/* Reports name PREFIX/share/..., not PREFIX/bin/../share/... */
			*dir = realpath(b.s, NULL);
			kd_buf_release(&b);
			return *dir ? 0 : -errno;
		}
	}
	kd_buf_release(&b);
	return 0;
}

int cli_contract_load(const char *dir, struct spec **out)
{
	int err = spec__load_dir(dir, out);

	/* spec__load_dir() reported each cause; a syntax error gets a summary. */
	if (err == -KD_ESYNTAX)
		kd_err("%s: the spec has errors", dir);
	return err;
}

int cli_contract_resolve(const char *dir, bool none, struct kdb *db, const char *db_name,
			 struct spec **out, char **source, bool *installed)
{
	struct kd_buf b = KD_BUF_INIT;
	char *def = NULL;
	int err = 0;

	*out = NULL;
	*source = NULL;
	*installed = false;
	if (none)
		return 0;
	if (dir) {
		err = cli_contract_load(dir, out);
		if (!err)
			err = kd_buf_adds(&b, dir);
	} else if (db && (err = spec__load_db(db, out)) != -ENOENT) {
		/* spec__load_db() reported its errors */
		if (!err)
			err = kd_buf_addf(&b, "the contract stored in %s", db_name);
	} else {
		err = cli_contract_default_dir(&def);
		if (!err && def)
			err = cli_contract_load(def, out);
		if (!err && def)
			err = kd_buf_adds(&b, def);
		*installed = def != NULL;
		free(def);
	}
	if (!err && *out && !(*source = kd_buf_detach(&b)))
		err = -ENOMEM;
	kd_buf_release(&b);
	if (err) {
		spec__free(*out);
		*out = NULL;
	}
	return err;
}

/* "SOURCE (N files, spec hash H)[ (installed)]" as cc->source */
static int label(struct cli_contract *cc, const char *source, bool installed)
{
	struct kd_buf b = KD_BUF_INIT;

	if (kd_buf_addf(&b, "%s (%zu files, spec hash %s)%s", source, spec__nr_files(cc->spec),
			spec__hash_hex(cc->spec), installed ? " (installed)" : "")) {
		kd_buf_release(&b);
		return -ENOMEM;
	}
	cc->source = kd_buf_detach(&b);
	return cc->source ? 0 : -ENOMEM;
}

/* --- the contract's answers to the diff (struct diff_contract) ----------- */

static void where_of(struct diff_where *w, const struct spec_loc *loc)
{
	if (w)
		*w = (struct diff_where){ loc->file, loc->line };
}

/*
 * The answer of a contract question: @yes, and where the spec says so
 * (@loc into @w) when it does. Every c_* predicate below answers through it.
 */
static bool said_at(struct diff_where *w, const struct spec_loc *loc, bool yes)
{
	if (yes)
		where_of(w, loc);
	return yes;
}

static bool c_extensible(void *ctx, const char *name, struct diff_where *where)
{
	const struct spec_struct *st = spec__find_struct(ctx, name);

	return st && said_at(where, &st->loc, st->extensible);
}

static bool c_prefix(void *ctx, const char *name, struct diff_where *where)
{
	const struct spec_struct *st = spec__find_struct(ctx, name);

	return st && said_at(where, &st->loc, st->prefix);
}

static bool c_message(void *ctx, const char *name, struct diff_where *where)
{
	const struct spec_struct *st = spec__find_struct(ctx, name);

	return st && said_at(where, &st->loc, st->message);
}

static bool c_whole(void *ctx, const char *name, struct diff_where *where)
{
	const struct spec_struct *st = spec__find_struct(ctx, name);

	return st && said_at(where, &st->loc, st->whole);
}

static bool c_unused(void *ctx, const char *name, const char *member, int64_t *from,
		     struct diff_where *where)
{
	const struct spec_struct *st = spec__find_struct(ctx, name);
	const struct spec_field *f = st ? spec_struct__unused(st, member) : NULL;

	if (!f)
		return false;
	*from = f->from_elem < 0 ? 0 : f->from_elem;
	return said_at(where, &f->loc, true);
}

static bool c_gates(void *ctx, const char *name, const char *member, const char *const **gates,
		    size_t *nr, struct diff_where *where)
{
	const struct spec_struct *st = spec__find_struct(ctx, name);
	const struct spec_field *f = st ? spec_struct__field(st, member) : NULL;

	if (!f || !f->nr_gates)
		return false;
	*gates = f->gates;
	*nr = f->nr_gates;
	return said_at(where, &f->loc, true);
}

static bool c_reserved(void *ctx, const char *name, const char *member, struct diff_where *where)
{
	const struct spec_struct *st = spec__find_struct(ctx, name);
	const struct spec_field *f;

	if (!st)
		return false;
	if (!member)
		return said_at(where, &st->loc, st->padding_zero);
	f = spec_struct__field(st, member);
	return f && said_at(where, &f->loc, f->reserved);
}

static bool c_out(void *ctx, const char *name, const char *member, struct diff_where *where)
{
	const struct spec_struct *st = spec__find_struct(ctx, name);
	const struct spec_field *f = st && member ? spec_struct__field(st, member) : NULL;

	if (f && f->out)
		return said_at(where, &f->loc, true);
	return st && said_at(where, &st->loc, st->out && !(f && f->has_arg && !f->out));
}

static bool c_describes(void *ctx, const char *name, const char *member, struct diff_where *where)
{
	const struct spec_struct *st = spec__find_struct(ctx, name);
	const struct spec_field *f = st && member ? spec_struct__field(st, member) : NULL;

	return f && said_at(where, &f->loc, true);
}

static const enum diff_role role_of[SPEC_ROLE__COUNT] = {
	[SPEC_ROLE_VALUE] = DIFF_ROLE_VALUE, [SPEC_ROLE_MASK] = DIFF_ROLE_MASK,
	[SPEC_ROLE_VERSION] = DIFF_ROLE_VERSION, [SPEC_ROLE_MINIMUM] = DIFF_ROLE_MINIMUM,
	[SPEC_ROLE_COUNT] = DIFF_ROLE_COUNT, [SPEC_ROLE_RESERVED] = DIFF_ROLE_RESERVED,
	[SPEC_ROLE_HARDWARE] = DIFF_ROLE_HARDWARE,
};

static bool c_constant(void *ctx, const char *name, struct diff_constant_fact *fact)
{
	const struct spec *s = ctx;
	const struct spec_constant *c = spec__find_constant(s, name);
	size_t i, j;

	memset(fact, 0, sizeof(*fact));
	if (c) {
		fact->role = role_of[c->role];
		where_of(&fact->role_where, &c->loc);
	}
	/* A value of a set, its own (not inherited): the set that lists it. */
	for (i = 0; !fact->set && i < spec__nr_sets(s); i++) {
		const struct spec_set *set = spec__set(s, i);

		for (j = 0; j < set->nr_values; j++)
			if (!strcmp(set->values[j].name, name)) {
				fact->set = set->name;
				fact->set_rejects = set->unknown == SPEC_UNKNOWN_REJECT;
				where_of(&fact->set_where, &set->values[j].loc);
				break;
			}
	}
	return c || fact->set;
}

static bool c_size_tolerant(void *ctx, const char *ioctl, int type, const char *header,
			    struct diff_where *where)
{
	const struct spec_family *f = spec__find_family(ctx, type, header);

	(void)ioctl;
	return f && said_at(where, &f->size_tolerant_loc, f->size_tolerant);
}

static bool c_unimplemented(void *ctx, bool ioctl, const char *name, struct diff_where *where)
{
	const struct spec_call *c = ioctl ? spec__find_ioctl(ctx, name) : spec__find_syscall(ctx, name);

	return c && said_at(where, &c->unimplemented_loc, c->unimplemented);
}

static bool c_length_of(void *ctx, const char *call, const char *param, const char **len,
			struct diff_where *where)
{
	const struct spec_call *c = spec__find_syscall(ctx, call);
	size_t i;

	for (i = 0; c && i < c->nr_params; i++)
		if (c->params[i].arg.kind == SPEC_K_LEN && c->params[i].arg.ref &&
		    !strcmp(c->params[i].arg.ref, param)) {
			*len = c->params[i].name;
			return said_at(where, &c->params[i].loc, true);
		}
	return false;
}

static bool c_vdso_promise(void *ctx, const char *abi, const char *name, const char *node,
			   struct diff_where *where)
{
	const struct spec_vdso *v = spec__find_vdso(ctx, abi);
	const struct spec_vdso_entry *e = v && name ? spec_vdso__entry(v, name, node) : NULL;

	if (v && !name)
		return said_at(where, &v->loc, true);
	return e && said_at(where, &e->loc, true);
}

int cli_contract_setup(struct cli_contract *cc, const char *dir, bool none, const char *old_dir,
		       const char *new_dir, struct kdb *new_db, const char *new_name,
		       struct diff_conf *conf)
{
	char *source = NULL;
	bool installed;
	int err = 0;

	memset(cc, 0, sizeof(*cc));
	if ((old_dir != NULL) != (new_dir != NULL)) {
		kd_err("--old-spec and --new-spec go together");
		return -EINVAL;
	}
	if (old_dir) {
		err = cli_contract_load(old_dir, &cc->old_spec);
		if (!err)
			err = cli_contract_load(new_dir, &cc->new_spec);
		if (!err)
			err = spec__diff(cc->old_spec, cc->new_spec, &cc->changes, &cc->nr_changes);
		if (err)
			return err;
		conf->contract_changes = cc->changes;
		conf->nr_contract_changes = cc->nr_changes;
	}
	err = cli_contract_resolve(dir ? dir : new_dir, none, new_db, new_name, &cc->spec, &source,
				   &installed);
	if (!err && cc->spec)
		err = label(cc, source, installed);
	free(source);
	if (err || !cc->spec)
		return err;
	cc->contract.is_extensible = c_extensible;
	cc->contract.is_prefix = c_prefix;
	cc->contract.is_message = c_message;
	cc->contract.is_whole = c_whole;
	cc->contract.is_unused = c_unused;
	cc->contract.gates = c_gates;
	cc->contract.is_reserved = c_reserved;
	cc->contract.is_out = c_out;
	cc->contract.describes = c_describes;
	cc->contract.constant = c_constant;
	cc->contract.size_tolerant = c_size_tolerant;
	cc->contract.unimplemented = c_unimplemented;
	cc->contract.length_of = c_length_of;
	cc->contract.vdso_promise = c_vdso_promise;
	cc->contract.ctx = cc->spec;
	cc->contract.source = cc->source;
	conf->contract = &cc->contract;
	return 0;
}

void cli_contract_release(struct cli_contract *cc)
{
	spec__free(cc->spec);
	spec__free(cc->old_spec);
	spec__free(cc->new_spec);
	spec_changes__free(cc->changes, cc->nr_changes);
	free(cc->source);
	memset(cc, 0, sizeof(*cc));
}

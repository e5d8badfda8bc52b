// SPDX-License-Identifier: GPL-2.0-only
/*
 * The spec handle: loading files and directories (with include and its
 * cycle/duplicate rules), the record of which files with which content
 * hashes make up the contract, and the read-only accessors the diff and
 * check stages use. Parsing proper is in lex.c, parse*.c and resolve.c.
 */
#include "spec/spec_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/find.h"
#include "lib/hash.h"
#include "lib/mem.h"
#include "lib/str.h"

int spec__new(struct spec **out)
{
	struct spec *s = kd_calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	snprintf(s->hash_hex, sizeof(s->hash_hex), "%016" PRIx64, (uint64_t)KD_HASH_SEED);
	*out = s;
	return 0;
}

void spec__free(struct spec *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_files; i++)
		free(s->reals[i]);
	free(s->reals);
	free(s->texts);
	free(s->files);
	free(s->calls);
	free(s->sets);
	free(s->structs);
	free(s->fdkinds);
	free(s->idkinds);
	free(s->constants);
	free(s->families);
	free(s->vdsos);
	free(s->root);
	free(s->include_root);
	kd_arena_release(&s->arena);
	free(s);
}

static bool spec_has_file(const struct spec *s, const char *path)
{
	char *real = realpath(path, NULL);
	bool found = false;
	size_t i;

	for (i = 0; i < s->nr_files && !found; i++)
		found = !strcmp(s->files[i].path, path) ||
			(real && s->reals[i] && !strcmp(real, s->reals[i]));
	free(real);
	return found;
}

static int spec_add_file(struct spec *s, const char *path, const char *name, const char *text,
		  size_t len, const char **text_out)
{
	struct spec_file *f;
	uint64_t h = KD_HASH_SEED;
	char *copy, *real = NULL;
	size_t i;

	if (KD_GROW(s->files, s->cap_files, s->nr_files + 1) ||
	    KD_GROW(s->texts, s->cap_texts, s->nr_files + 1) ||
	    KD_GROW(s->reals, s->cap_reals, s->nr_files + 1))
		return -ENOMEM;
	copy = kd_arena_strndup(&s->arena, text, len);
	f = &s->files[s->nr_files];
	memset(f, 0, sizeof(*f));
	f->path = kd_arena_strdup(&s->arena, path);
	f->name = kd_arena_strdup(&s->arena, name);
	if (!copy || !f->path || !f->name)
		return -ENOMEM;
	real = realpath(path, NULL);	/* NULL for a buffer without a file: fine */
	f->bytes = len;
	f->hash = kd_hash_bytes(KD_HASH_SEED, text, len);
	snprintf(f->hash_hex, sizeof(f->hash_hex), "%016" PRIx64, f->hash);
	s->texts[s->nr_files] = copy;
	s->reals[s->nr_files] = real;
	s->nr_files++;
	for (i = 0; i < s->nr_files; i++) {
		h = kd_hash_str(h, s->files[i].name);
		h = kd_hash_u64(h, s->files[i].hash);
	}
	snprintf(s->hash_hex, sizeof(s->hash_hex), "%016" PRIx64, h);
	*text_out = copy;
	return 0;
}

/* Parse @text as @path (shown in messages) named @name in the spec. */
static int parse_text(struct spec *s, const char *path, const char *name, const char *text,
		      size_t len)
{
	struct parser p = { .s = s };
	size_t errors = s->nr_errors;
	const char *copy;
	int err;

	err = spec_add_file(s, path, name, text, len, &copy);
	if (err)
		return err;
	p.file = s->files[s->nr_files - 1].path;
	err = spec_lex(s, p.file, copy, len, &p.toks, &p.n);
	if (err)
		return err;
	err = spec_parse_tokens(&p);
	free(p.toks);
	if (err)
		return err;
	return s->nr_errors > errors ? -KD_ESYNTAX : 0;
}

static int set_include_root(struct spec *s, const char *first_file);

/* @path relative to the loaded directory, for spec_file.name. */
static const char *rel_name(const struct spec *s, const char *path)
{
	size_t n = s->root ? strlen(s->root) : 0;

	if (n && !strncmp(path, s->root, n) && path[n] == '/')
		return path + n + 1;
	return path;
}

int spec__parse_buffer(struct spec *s, const char *name, const char *text, size_t len)
{
	int err = set_include_root(s, name);

	return err ? err : parse_text(s, name, rel_name(s, name), text, len);
}

#define STR_(x) #x
#define STR(x) STR_(x)

/* Why read_spec() refused a file, in words. */
static const char *read_error(int err)
{
	return err == -KD_ELIMIT ? "larger than " STR(SPEC_MAX_FILE_MB) " MiB, the limit of a spec file" :
	       kd_strerror(err);
}

/*
 * A spec file's text: a regular file of at most SPEC_MAX_FILE_MB (a FIFO
 * hung the reader, /dev/zero read until out of memory).
 */
static int read_spec(const char *path, struct kd_buf *b)
{
	return kd_buf_read_regular(b, path, (size_t)SPEC_MAX_FILE_MB << 20);
}

int spec__parse_file(struct spec *s, const char *path)
{
	struct kd_buf b = KD_BUF_INIT;
	int err;

	if (spec_has_file(s, path))
		return 0;
	err = set_include_root(s, path);
	if (err)
		return err;
	err = read_spec(path, &b);
	if (err) {
		kd_err("%s: cannot read: %s", path, read_error(err));
		goto out;
	}
	err = parse_text(s, path, rel_name(s, path), b.s, b.len);
out:
	kd_buf_release(&b);
	return err;
}

/*
 * Where includes must stay: the loaded directory, else the directory of
 * the first file parsed; links resolved. Returns 0 or -ENOMEM.
 */
static int set_include_root(struct spec *s, const char *first_file)
{
	char *copy, *real;

	if (s->include_root)
		return 0;
	copy = kd_strdup(s->root ? s->root : first_file);
	if (!copy)
		return -ENOMEM;
	real = realpath(s->root ? copy : dirname(copy), NULL);
	free(copy);
	if (!real)
		return errno == ENOMEM ? -ENOMEM : 0;	/* then every include is refused */
	s->include_root = kd_strdup(real);
	free(real);
	return s->include_root ? 0 : -ENOMEM;
}

/*
 * Is @path, links resolved, below the include root? 1 yes, 0 no (or it
 * does not exist), -ENOMEM.
 */
static int inside_root(const struct spec *s, const char *path)
{
	char *real;
	size_t n;
	int in;

	if (!s->include_root)
		return 0;
	real = realpath(path, NULL);
	if (!real)
		return errno == ENOMEM ? -ENOMEM : 0;
	n = strlen(s->include_root);
	in = !strncmp(real, s->include_root, n) && (real[n] == '/' || n == 1);
	free(real);
	return in;
}

/*
 * Includes stay in the spec directory: a spec from anyone could name
 * /etc/shadow or ~/.config/gh/hosts.yml, and the parse error would quote
 * its first word in a CI log. An absolute path, and a path that leaves
 * the directory ('..', a link) are errors that quote only the include
 * line.
 */
int spec_include(struct spec *s, const struct spec_loc *loc, const char *from, const char *rel)
{
	struct kd_buf path = KD_BUF_INIT, text = KD_BUF_INIT;
	const char *slash = strrchr(from, '/');
	int err, in;

	if (s->no_includes)
		return 0;
	if (rel[0] == '/') {
		spec_error(s, loc, "cannot include '%s': an absolute path; includes stay in the"
			   " spec directory", rel);
		return 0;
	}
	if (slash)
		err = kd_buf_add(&path, from, (size_t)(slash - from + 1));
	else
		err = 0;
	if (!err)
		err = kd_buf_adds(&path, rel);
	if (err)
		goto out;
	if (spec_has_file(s, path.s))
		goto out;
	if (s->include_depth >= SPEC_MAX_INCLUDE_DEPTH) {
		spec_error(s, loc, "includes nested too deeply (more than %d levels)",
			   SPEC_MAX_INCLUDE_DEPTH);
		goto out;
	}
	in = inside_root(s, path.s);
	if (in < 0) {
		err = in;
		goto out;
	}
	if (!in && !access(path.s, F_OK)) {
		spec_error(s, loc, "cannot include '%s': outside the spec directory; includes stay"
			   " in it", rel);
		goto out;
	}
	err = read_spec(path.s, &text);
	if (err) {
		spec_error(s, loc, "cannot include '%s': %s", path.s, read_error(err));
		err = err == -ENOMEM ? err : 0;
		goto out;
	}
	s->include_depth++;
	err = parse_text(s, path.s, rel_name(s, path.s), text.s, text.len);
	s->include_depth--;
	if (err == -KD_ESYNTAX)
		err = 0;	/* counted; the including file goes on */
out:
	kd_buf_release(&path);
	kd_buf_release(&text);
	return err;
}

static bool is_spec_name(const char *n)
{
	size_t len = strlen(n), ext = strlen(".kabispec");

	return n[0] != '.' && len > ext && !strcmp(n + len - ext, ".kabispec");
}

/*
 * A *.kabispec of the directory may link elsewhere (a user's directory of
 * links to the starter contract), but only to a *.kabispec: a link to
 * /etc/shadow would get its first word quoted in a parse error.
 */
static int check_link(struct spec *s, const char *path)
{
	char *real;
	int in = inside_root(s, path), err = 0;

	if (in)
		return in < 0 ? in : 0;
	real = realpath(path, NULL);
	if (!real)
		return errno == ENOMEM ? -ENOMEM : 0;	/* the read says why */
	if (!is_spec_name(basename(real))) {
		kd_err("%s: links to a file not named *.kabispec outside the spec directory", path);
		err = -KD_EFORMAT;
	}
	free(real);
	return err;
}

int spec__load_dir(const char *dir, struct spec **out)
{
	struct spec *s = NULL;
	char **names = NULL;
	size_t nr = 0, cap = 0, i, len;
	struct dirent *de;
	DIR *d = NULL;
	int err, rc = 0;

	*out = NULL;
	err = spec__new(&s);
	if (err)
		goto out;
	len = strlen(dir);
	while (len > 1 && dir[len - 1] == '/')
		len--;
	s->root = kd_strndup(dir, len);
	if (!s->root) {
		err = -ENOMEM;
		goto out;
	}
	err = set_include_root(s, NULL);
	if (err)
		goto out;
	d = opendir(s->root);
	if (!d) {
		err = -errno;
		kd_err("%s: cannot open the spec directory: %s", dir, kd_strerror(err));
		goto out;
	}
	while ((de = readdir(d))) {
		if (!is_spec_name(de->d_name))
			continue;
		if (KD_GROW(names, cap, nr + 1) || !(names[nr] = kd_strdup(de->d_name))) {
			err = -ENOMEM;
			goto out;
		}
		nr++;
	}
	if (!nr) {
		kd_err("%s: no *.kabispec files", dir);
		err = -ENOENT;
		goto out;
	}
	qsort(names, nr, sizeof(*names), kd_strcmp_ptr);
	for (i = 0; i < nr; i++) {
		struct kd_buf path = KD_BUF_INIT;

		err = kd_buf_addf(&path, "%s/%s", s->root, names[i]);
		if (!err)
			err = check_link(s, path.s);
		if (!err)
			err = spec__parse_file(s, path.s);
		kd_buf_release(&path);
		if (err == -KD_ESYNTAX)
			rc = err;
		else if (err)
			goto out;
	}
	err = spec__resolve(s);
	if (!err)
		err = rc;
out:
	if (d)
		closedir(d);
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	if (err) {
		spec__free(s);
		return err;
	}
	*out = s;
	return 0;
}

size_t spec__nr_errors(const struct spec *s)
{
	return s->nr_errors;
}

/* --- accessors ----------------------------------------------------------- */
size_t spec__nr_files(const struct spec *s) { return s->nr_files; }
size_t spec__nr_calls(const struct spec *s) { return s->nr_calls; }
size_t spec__nr_sets(const struct spec *s) { return s->nr_sets; }
size_t spec__nr_structs(const struct spec *s) { return s->nr_structs; }
size_t spec__nr_fdkinds(const struct spec *s) { return s->nr_fdkinds; }
size_t spec__nr_idkinds(const struct spec *s) { return s->nr_idkinds; }

const struct spec_file *spec__file(const struct spec *s, size_t i)
{
	return i < s->nr_files ? &s->files[i] : NULL;
}

const char *spec__file_text(const struct spec *s, size_t i)
{
	return i < s->nr_files ? s->texts[i] : NULL;
}

const char *spec__hash_hex(const struct spec *s)
{
	return s->hash_hex;
}

const struct spec_call *spec__call(const struct spec *s, size_t i)
{
	return i < s->nr_calls ? &s->calls[i] : NULL;
}

static const struct spec_call *find_call(const struct spec *s, enum spec_call_kind k,
					 const char *name)
{
	size_t i;

	for (i = 0; i < s->nr_calls; i++)
		if (s->calls[i].kind == k && !strcmp(s->calls[i].name, name))
			return &s->calls[i];
	return NULL;
}

const struct spec_call *spec__find_syscall(const struct spec *s, const char *name)
{
	return find_call(s, SPEC_SYSCALL, name);
}

const struct spec_call *spec__find_ioctl(const struct spec *s, const char *name)
{
	return find_call(s, SPEC_IOCTL, name);
}

const struct spec_param *spec_call__param(const struct spec_call *c, const char *name)
{
	return KD_FIND_NAMED(const struct spec_param, c->params, c->nr_params, name, name);
}

const struct spec_set *spec__set(const struct spec *s, size_t i)
{
	return i < s->nr_sets ? &s->sets[i] : NULL;
}

const struct spec_set *spec__find_set(const struct spec *s, const char *name)
{
	return KD_FIND_NAMED(const struct spec_set, s->sets, s->nr_sets, name, name);
}

long spec__set_values(const struct spec *s, const struct spec_set *set,
		      const struct spec_value ***values)
{
	const struct spec_set *chain[SPEC_MAX_EXTENDS + 1];
	const struct spec_value **v = NULL;
	size_t depth = 0, n = 0, i, k;

	/* Base first; a cycle or an unknown base ends the chain (resolve reported it). */
	while (set && depth < sizeof(chain) / sizeof(chain[0])) {
		for (i = 0; i < depth && chain[i] != set; i++)
			;
		if (i < depth)
			break;
		chain[depth++] = set;
		n += set->nr_values;
		set = set->extends ? spec__find_set(s, set->extends) : NULL;
	}
	v = kd_calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	n = 0;
	while (depth--)
		for (k = 0; k < chain[depth]->nr_values; k++)
			v[n++] = &chain[depth]->values[k];
	*values = v;
	return (long)n;
}

const struct spec_struct *spec__struct(const struct spec *s, size_t i)
{
	return i < s->nr_structs ? &s->structs[i] : NULL;
}

const struct spec_struct *spec__find_struct(const struct spec *s, const char *name)
{
	return KD_FIND_NAMED(const struct spec_struct, s->structs, s->nr_structs, name, name);
}

const struct spec_field *spec_struct__field(const struct spec_struct *st, const char *name)
{
	size_t i;

	for (i = 0; name && i < st->nr_fields; i++)
		if (st->fields[i].from_elem < 0 && !strcmp(st->fields[i].name, name))
			return &st->fields[i];
	return NULL;
}

const struct spec_field *spec_struct__unused(const struct spec_struct *st, const char *name)
{
	const struct spec_field *best = NULL;
	size_t i;

	for (i = 0; name && i < st->nr_fields; i++) {
		const struct spec_field *f = &st->fields[i];

		if (f->unused && !strcmp(f->name, name) &&
		    (!best || (f->from_elem < 0 ? 0 : f->from_elem) < (best->from_elem < 0 ? 0 : best->from_elem)))
			best = f;
	}
	return best;
}

const struct spec_fdkind *spec__fdkind(const struct spec *s, size_t i)
{
	return i < s->nr_fdkinds ? &s->fdkinds[i] : NULL;
}

const struct spec_fdkind *spec__idkind(const struct spec *s, size_t i)
{
	return i < s->nr_idkinds ? &s->idkinds[i] : NULL;
}

bool spec__is_fdkind(const struct spec *s, const char *name)
{
	return KD_FIND_NAMED(const struct spec_fdkind, s->fdkinds, s->nr_fdkinds, name, name);
}

const struct spec_constant *spec__find_constant(const struct spec *s, const char *name)
{
	return KD_FIND_NAMED(const struct spec_constant, s->constants, s->nr_constants, name, name);
}

const struct spec_family *spec__find_family(const struct spec *s, int type, const char *header)
{
	size_t i;

	for (i = 0; i < s->nr_families; i++) {
		const struct spec_family *f = &s->families[i];

		if (f->has_type && f->type != (uint64_t)type)
			continue;
		if (f->header && (!header || fnmatch(f->header, header, 0)))
			continue;
		return f;
	}
	return NULL;
}

size_t spec__nr_vdsos(const struct spec *s)
{
	return s->nr_vdsos;
}

const struct spec_vdso *spec__vdso(const struct spec *s, size_t i)
{
	return i < s->nr_vdsos ? &s->vdsos[i] : NULL;
}

const struct spec_vdso *spec__find_vdso(const struct spec *s, const char *abi)
{
	return KD_FIND_NAMED(const struct spec_vdso, s->vdsos, s->nr_vdsos, abi, abi);
}

const struct spec_vdso_entry *spec_vdso__entry(const struct spec_vdso *v, const char *name,
					       const char *node)
{
	size_t i;

	for (i = 0; v && i < v->nr_entries; i++)
		if (!strcmp(v->entries[i].name, name) && !strcmp(v->entries[i].node, node))
			return &v->entries[i];
	return NULL;
}

bool spec__is_extensible(void *ctx, const char *name)
{
	const struct spec_struct *st = spec__find_struct(ctx, name);

	return st && st->extensible;
}

bool spec__is_reserved(void *ctx, const char *name, const char *member)
{
	const struct spec_struct *st = spec__find_struct(ctx, name);
	const struct spec_field *f;

	if (!st)
		return false;
	if (!member)
		return st->padding_zero;
	f = spec_struct__field(st, member);
	return f && f->reserved;
}

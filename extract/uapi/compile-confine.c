// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a header may make the compiler read: the files of the header tree,
 * the work directory (the units, a source tree's generated wrappers) and
 * the compiler's own system include directories (the C library's
 * <sys/socket.h>), each by its real path, so that neither "../.." nor a
 * link in the tree leads out. The tree's own preprocessor (cpp.c) never
 * leaves the tree; gcc follows `#include "/any/path"` anywhere, and what
 * it read then went into the .kabi: quoted in its first error (a token
 * file's content in a problem row, redteam R30) or compiled into a layout
 * (an enumerator whose value is another file's bytes).
 *
 * gcc cannot be told to refuse such a path, so a unit is judged after the
 * fact by its dependency file (-MD: every file it read): one outside is a
 * failure that names the file and nothing of its content, and the unit's
 * object is not used. A unit that ended in a fatal error has no
 * dependency file; its diagnostics then show no error located in a file
 * outside (compile-diag.c asks uapi_cc_outside()).
 */
#include "extract/uapi/compile_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lib/arena.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/str.h"

/* The words of every refusal: the header tree and the compiler's directories. */
#define OUTSIDE "a file outside the header tree and the compiler's include directories"

/* A compiler asked where it looks: seconds, bytes of its answer kept. */
#define ASK_SECONDS 30
#define ASK_MAX (1u << 20)

static int allow(struct cc_state *s, const char *dir, size_t len)
{
	struct kd_buf b = KD_BUF_INIT;
	char *real;
	int err = kd_buf_add(&b, dir, len);

	if (err)
		return err;
	real = realpath(b.s, NULL);
	kd_buf_release(&b);
	if (!real)
		return errno == ENOMEM ? -ENOMEM : 0;	/* a directory that is not there holds nothing */
	err = KD_GROW(s->allowed, s->cap_allowed, s->nr_allowed + 1);
	if (!err) {
		s->allowed[s->nr_allowed] = kd_arena_strdup(&s->arena, real);
		err = s->allowed[s->nr_allowed] ? 0 : -ENOMEM;
	}
	if (!err)
		s->nr_allowed++;
	free(real);
	return err;
}

/*
 * The compiler's system include directories, as `gcc -E -v` lists them
 * for this architecture's flags (a cross compiler has its own), without
 * the tree's -I options.
 */
static int system_dirs(struct cc_state *s)
{
	struct kd_buf text = KD_BUF_INIT, why = KD_BUF_INIT;
	const char *const *f;
	struct kd_child_status st;
	const char *p;
	char *argv[16];
	bool in_list = false;
	size_t n = 0;
	int err;

	argv[n++] = s->cc;
	for (f = s->conf->arch->flags; f && *f && n < 8; f++)
		argv[n++] = (char *)*f;
	argv[n++] = "-E";
	argv[n++] = "-v";
	argv[n++] = "-xc";
	argv[n++] = "-o";
	argv[n++] = "/dev/null";
	argv[n++] = "/dev/null";
	argv[n] = NULL;
	err = kd_child_run(&(struct kd_child_conf){
				   .argv = argv,
				   .envp = s->env,
				   .cwd = s->r->workdir,
				   .err = { KD_CHILD_CAPTURE, NULL, &text, ASK_MAX },
				   .timeout_ms = ASK_SECONDS * 1000u,
				   .cpu_seconds = ASK_SECONDS,
				   .address_space = s->limits.address_space,
			   }, &st);
	if (err) {
		kd_err("%s: cannot run: %s", s->cc, kd_strerror(err));
		goto out;
	}
	if (!kd_child_succeeded(&st)) {
		kd_child_describe(&st, ASK_SECONDS * 1000u, &why);
		kd_err("%s: asked for its include directories: %s", s->cc, why.s);
		err = -EIO;
		goto out;
	}
	/* "#include <...> search starts here:", one directory a line, "End of search list." */
	for (p = text.s; !err && p && *p;) {
		size_t len = strcspn(p, "\n");

		if (kd_starts_with(p, "#include "))
			in_list = true;
		else if (kd_starts_with(p, "End of search list."))
			in_list = false;
		else if (in_list && *p == ' ')
			err = allow(s, p + 1, len - 1);
		p += len;
		if (*p)
			p++;
	}
out:
	kd_buf_release(&text);
	kd_buf_release(&why);
	return err;
}

int uapi_cc_confine_init(struct cc_state *s)
{
	int i, err = 0;

	for (i = 0; !err && i < s->tree->nr_dirs; i++)
		err = allow(s, s->tree->dirs[i], strlen(s->tree->dirs[i]));
	if (!err)
		err = allow(s, s->r->workdir, strlen(s->r->workdir));
	if (!err)
		err = system_dirs(s);
	return err;
}

bool uapi_cc_outside(struct cc_state *s, const char *path, size_t len)
{
	struct kd_buf b = KD_BUF_INIT;
	char *real = NULL, *key;
	void *known;
	bool out = true;
	size_t i;

	/* Not files: "<command-line>", "<built-in>". */
	if (len && path[0] == '<')
		return false;
	known = umap_get(&s->confined, path, len);
	if (known)
		return known == (void *)2;
	/* As the compiler named it: relative to its working directory unless absolute. */
	if (!(path[0] == '/' ? kd_buf_add(&b, path, len) :
	      kd_buf_addf(&b, "%s/%.*s", s->r->workdir, (int)len, path)))
		real = realpath(b.s, NULL);
	for (i = 0; real && out && i < s->nr_allowed; i++) {
		size_t n = strlen(s->allowed[i]);

		/* "/" itself is a tree's directory only when the caller said so. */
		if (!strncmp(real, s->allowed[i], n) && (real[n] == '/' || !real[n] || n == 1))
			out = false;
	}
	free(real);
	kd_buf_release(&b);
	/* Unresolvable (gone, ENOMEM): outside, so that nothing of it is shown. */
	key = kd_arena_strndup(&s->arena, path, len);
	if (key)
		(void)umap_put(&s->confined, key, len, out ? (void *)2 : (void *)1);
	return out;
}

struct first_outside {
	struct cc_state *s;
	struct kd_buf *why;
};

static int check_dep(const char *path, void *ctx)
{
	struct first_outside *f = ctx;
	size_t len = strlen(path);
	const char *d;

	if (f->why->len || !uapi_cc_outside(f->s, path, len))
		return 0;
	d = uapi_cc_display_path(f->s->prefixes, path, &len);
	return kd_buf_addf(f->why, "it reads %.*s, " OUTSIDE, (int)len, d);
}

int uapi_cc_unit_confined(struct cc_state *s, const char *dep_path, struct kd_buf *why)
{
	struct first_outside f = { s, why };
	char *text = uapi_cc_read_text(dep_path);
	int err;

	if (!text)
		return -ENOENT;
	err = uapi_cc_parse_deps(text, check_dep, &f);
	free(text);
	return err ? err : why->len ? 1 : 0;
}

int uapi_cc_hidden_error(const char *const *prefixes, const char *path, size_t len,
			 struct kd_buf *out)
{
	const char *d = uapi_cc_display_path(prefixes, path, &len);

	return kd_buf_addf(out, "an error in %.*s, " OUTSIDE " (not shown)", (int)len, d);
}

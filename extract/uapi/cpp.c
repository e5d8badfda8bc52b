// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAPI reader: the directive half of a C preprocessor, emulating gcc for
 * the tree's architecture's user space (x86_64: __x86_64__, arm64:
 * __aarch64__ and __CHAR_UNSIGNED__; __LP64__ for both; i386 programs on
 * x86_64, the "ia32" user ABI: __i386__ and __ILP32__; __KERNEL__ never).
 * One translation unit is "#include <root>": directives run in order,
 * #if/#ifdef/#elif/#else/#endif select, #define/#undef change the macro
 * table, #include reads other headers (cached, so each file is read and
 * tokenized once per scan). What is wrong in a header (an unbalanced #if,
 * a missing kernel header, #error) is reported once per file through the
 * problem callback and the unit goes on.
 */
#include "extract/uapi/uapi_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mem.h"

#define MAX_INCLUDE_DEPTH 64
/*
 * Inclusions per unit (guarded repeats count). Depth alone does not bound
 * the work: a header that includes itself twice without a guard runs 2^64
 * times. A real root header includes a few dozen files.
 */
#define MAX_INCLUDES 4096

/* gcc -E -dM for each target's user space, the part headers test: its own... */
static const char predefined_x86_64[] =
	"#define __x86_64__ 1\n#define __x86_64 1\n#define __amd64__ 1\n#define __amd64 1\n";
static const char predefined_arm64[] =
	"#define __aarch64__ 1\n#define __AARCH64EL__ 1\n#define __ARM_64BIT_STATE 1\n"
	"#define __ARM_ARCH 8\n#define __ARM_ARCH_8A 1\n#define __CHAR_UNSIGNED__ 1\n";
/* i386 (gcc -m32): ILP32, and glibc's <bits/wordsize.h> tests __x86_64__ alone. */
static const char predefined_ia32[] =
	"#define __i386__ 1\n#define __i386 1\n#define i386 1\n#define __i686__ 1\n"
	"#define __ILP32__ 1\n#define _ILP32 1\n"
	"#define __SIZEOF_LONG__ 4\n#define __SIZEOF_POINTER__ 4\n#define __SIZEOF_SIZE_T__ 4\n"
	"#define __LONG_MAX__ 0x7fffffffL\n";
/* ...what the 64-bit ones have (LP64)... */
static const char predefined_lp64[] =
	"#define __SIZEOF_LONG__ 8\n#define __SIZEOF_POINTER__ 8\n#define __SIZEOF_SIZE_T__ 8\n"
	"#define __LP64__ 1\n#define _LP64 1\n#define __LONG_MAX__ 0x7fffffffffffffffL\n";
/* ...and what all of them have (little-endian, gcc 12). */
static const char predefined[] =
	"#define __linux__ 1\n#define __linux 1\n#define __unix__ 1\n#define __unix 1\n"
	"#define __gnu_linux__ 1\n#define __ELF__ 1\n"
	"#define __GNUC__ 12\n#define __GNUC_MINOR__ 2\n#define __GNUC_PATCHLEVEL__ 0\n"
	"#define __STDC__ 1\n#define __STDC_VERSION__ 201710L\n#define __STDC_HOSTED__ 1\n"
	"#define __CHAR_BIT__ 8\n#define __SIZEOF_INT__ 4\n"
	"#define __SIZEOF_LONG_LONG__ 8\n#define __SIZEOF_SHORT__ 2\n"
	"#define __SIZEOF_FLOAT__ 4\n#define __SIZEOF_DOUBLE__ 8\n"
	"#define __ORDER_LITTLE_ENDIAN__ 1234\n#define __ORDER_BIG_ENDIAN__ 4321\n"
	"#define __ORDER_PDP_ENDIAN__ 3412\n#define __BYTE_ORDER__ __ORDER_LITTLE_ENDIAN__\n"
	"#define __SCHAR_MAX__ 0x7f\n#define __SHRT_MAX__ 0x7fff\n#define __INT_MAX__ 0x7fffffff\n"
	"#define __LONG_LONG_MAX__ 0x7fffffffffffffffLL\n";
/*
 * A source tree (Debian's -common too) still has the sparse annotations
 * headers_install deletes: (__force __poll_t)0x00000001 is what user space
 * reads as (__poll_t)0x00000001. Empty macros delete them the same way
 * (compile-run.c gives the compiler the same prelude).
 */
static const char predefined_source[] =
	"#define __user\n#define __force\n#define __iomem\n#define __attribute_const__\n";

static char missing_file;	/* cache value of a name that resolves nowhere */

struct ucpp {
	const struct utree *tree;
	ucpp_problem_fn problem;
	void *pctx;
	struct kd_arena arena;	/* cache keys */
	struct umap files;	/* requested name -> struct ufile * or &missing_file */
	struct ufile **owned;
	size_t nr_owned, cap_owned;
	struct ufile *builtin;
	struct umap names;	/* macro name -> pool index + 1 */
	struct umacro *pool;	/* this unit's macros, definition order */
	size_t nr_pool, cap_pool;
	struct umap reported;	/* missing include names already reported */
	int depth;
	int nr_includes;	/* in this unit, up to MAX_INCLUDES */
	uint32_t unit;		/* units run so far: ufile.unit of the files the last one read */
};

struct cond {
	int line;
	bool parent_active, active, taken, seen_else;
};

/* The open conditionals of a file, innermost last. */
struct conds {
	struct cond *v;
	size_t n, cap;
};

static void problem(struct ucpp *cpp, struct ufile *f, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void problem(struct ucpp *cpp, struct ufile *f, int line, const char *fmt, ...)
{
	struct kd_buf b = KD_BUF_INIT;
	va_list ap;

	if (f && f->reported)
		return;
	va_start(ap, fmt);
	if (!kd_buf_vaddf(&b, fmt, ap))
		cpp->problem(f, line, b.s, cpp->pctx);
	va_end(ap);
	kd_buf_release(&b);
}

struct ucpp *ucpp__new(const struct utree *tree, ucpp_problem_fn fn, void *ctx)
{
	struct ucpp *cpp = kd_calloc(1, sizeof(*cpp));
	struct kd_buf text = KD_BUF_INIT;
	bool arm64 = tree->arch && !strcmp(tree->arch->name, "arm64");
	bool ilp32 = tree->arch && tree->arch->ilp32;

	if (!cpp)
		return NULL;
	cpp->tree = tree;
	cpp->problem = fn;
	cpp->pctx = ctx;
	if (kd_buf_adds(&text, ilp32 ? predefined_ia32 : arm64 ? predefined_arm64 : predefined_x86_64) ||
	    (!ilp32 && kd_buf_adds(&text, predefined_lp64)) ||
	    kd_buf_adds(&text, predefined) ||
	    (tree->source_layout && kd_buf_adds(&text, predefined_source)) ||
	    ufile__from_text(text.s, "<built-in>", &cpp->builtin)) {
		kd_buf_release(&text);
		free(cpp);
		return NULL;
	}
	kd_buf_release(&text);
	return cpp;
}

void ucpp__free(struct ucpp *cpp)
{
	size_t i;

	if (!cpp)
		return;
	for (i = 0; i < cpp->nr_owned; i++)
		ufile__free(cpp->owned[i]);
	free(cpp->owned);
	ufile__free(cpp->builtin);
	umap_release(&cpp->files);
	umap_release(&cpp->names);
	umap_release(&cpp->reported);
	free(cpp->pool);
	kd_arena_release(&cpp->arena);
	free(cpp);
}

size_t ucpp__nr_macros(const struct ucpp *cpp)
{
	return cpp->nr_pool;
}

const struct umacro *ucpp__macro(const struct ucpp *cpp, size_t i)
{
	return cpp->pool[i].dead ? NULL : &cpp->pool[i];
}

const struct umacro *ucpp__lookup(const struct ucpp *cpp, const char *name, size_t len)
{
	uintptr_t idx = (uintptr_t)umap_get(&cpp->names, name, len);

	if (!idx || cpp->pool[idx - 1].dead)
		return NULL;
	return &cpp->pool[idx - 1];
}

size_t ucpp__nr_files(const struct ucpp *cpp)
{
	return cpp->nr_owned;
}

const struct ufile *ucpp__file_at(const struct ucpp *cpp, size_t i)
{
	return cpp->owned[i];
}

bool ucpp__in_unit(const struct ucpp *cpp, const struct ufile *f)
{
	return f && f->unit == cpp->unit;
}

static const struct utok va_args_tok = { .s = "__VA_ARGS__", .len = 11, .kind = UT_IDENT };

static int do_define(struct ucpp *cpp, struct ufile *f, int line, const struct utok *t, size_t n)
{
	struct umacro m = { .file = f == cpp->builtin ? NULL : f, .line = line };
	uintptr_t idx;
	size_t i = 2;

	if (n < 2 || t[1].kind != UT_IDENT) {
		problem(cpp, f, line, "#define without a macro name");
		return 0;
	}
	m.name = t[1].s;
	m.nlen = t[1].len;
	if (n > 2 && utok_is(&t[2], "(") && !t[2].space) {
		m.funclike = true;
		m.params = &t[3];
		for (i = 3; i < n && !utok_is(&t[i], ")"); i++) {
			if (utok_is(&t[i], ","))
				continue;
			if (utok_is(&t[i], "...")) {
				m.variadic = true;	/* __VA_ARGS__: see uexpand */
				m.nparams++;
				continue;
			}
			if (t[i].kind != UT_IDENT) {
				problem(cpp, f, line, "#define %.*s: bad parameter list", (int)m.nlen, m.name);
				return 0;
			}
			if (i + 1 < n && utok_is(&t[i + 1], "..."))
				m.variadic = true;	/* GNU named variadic: name... */
			m.nparams++;
		}
		if (i == n) {
			problem(cpp, f, line, "#define %.*s: unterminated parameter list", (int)m.nlen, m.name);
			return 0;
		}
		i++;
	}
	m.body = &t[i];
	m.nbody = (uint32_t)(n - i);
	idx = (uintptr_t)umap_get(&cpp->names, m.name, m.nlen);
	if (idx) {
		cpp->pool[idx - 1] = m;
		return 0;
	}
	if (KD_GROW(cpp->pool, cpp->cap_pool, cpp->nr_pool + 1))
		return -ENOMEM;
	cpp->pool[cpp->nr_pool++] = m;
	return umap_put(&cpp->names, m.name, m.nlen, (void *)(uintptr_t)cpp->nr_pool);
}

const struct utok *umacro_param(const struct umacro *m, int j)
{
	const struct utok *p = m->params;
	int k = 0;

	for (;; p++) {
		if (utok_is(p, ","))
			continue;
		if (k == j)
			return utok_is(p, "...") ? &va_args_tok : p;
		k++;
	}
}

static int run_file(struct ucpp *cpp, struct ufile *f);

/* Is the first component of @name a directory the tree knows (a kernel header)? */
static bool is_kernel_name(const struct ucpp *cpp, const char *name)
{
	const char *slash = strchr(name, '/');
	size_t i;

	if (!slash)
		return false;
	if (slash - name == 3 && !memcmp(name, "asm", 3))
		return true;
	for (i = 0; i < cpp->tree->nr_roots; i++)
		if (!strncmp(cpp->tree->roots[i], name, (size_t)(slash - name) + 1))
			return true;
	return false;
}

static int find_file(struct ucpp *cpp, const char *name, struct ufile **out)
{
	void *hit = umap_get(&cpp->files, name, strlen(name));
	char *path = NULL, *display = NULL, *key;
	struct ufile *f = NULL;
	int err;

	*out = NULL;
	if (hit) {
		*out = hit == &missing_file ? NULL : hit;
		return 0;
	}
	key = kd_arena_strndup(&cpp->arena, name, strlen(name));
	if (!key)
		return -ENOMEM;
	err = utree__resolve(cpp->tree, name, &path, &display);
	if (err == -ENOENT && ulibc_header(name)) {
		/* A C library header the tree does not have: the stand-in of libc.c. */
		err = ufile__from_text(ulibc_header(name), name, &f);
		if (err)
			goto out;
		f->libc = true;
	} else if (err == -ENOENT) {
		return umap_put(&cpp->files, key, strlen(key), &missing_file);
	} else if (err) {
		return err;
	} else {
		err = ufile__load(path, display, &f);
		if (err == -ENOMEM)
			goto out;
		if (err) {	/* unreadable: like missing, reported by the caller */
			err = umap_put(&cpp->files, key, strlen(key), &missing_file);
			goto out;
		}
	}
	err = KD_GROW(cpp->owned, cpp->cap_owned, cpp->nr_owned + 1);
	if (err)
		goto out;
	cpp->owned[cpp->nr_owned++] = f;
	*out = f;
	err = umap_put(&cpp->files, key, strlen(key), f);
	f = NULL;
out:
	ufile__free(f);
	free(path);
	free(display);
	return err;
}

static int do_include(struct ucpp *cpp, struct ufile *f, int line, const struct utok *t, size_t n)
{
	struct kd_buf name = KD_BUF_INIT;
	struct ufile *inc = NULL;
	size_t i;
	int err = 0;

	if (n >= 2 && t[1].kind == UT_STRING && t[1].s[0] == '"') {
		/* "x.h": beside the including header first, then the search path. */
		const char *slash = f->name ? strrchr(f->name, '/') : NULL;

		if (slash)
			err = kd_buf_addf(&name, "%.*s/", (int)(slash - f->name), f->name);
		if (!err)
			err = kd_buf_add(&name, t[1].s + 1, t[1].len - 2);
		if (!err)
			err = find_file(cpp, name.s, &inc);
		if (!err && !inc) {
			kd_buf_reset(&name);
			err = kd_buf_add(&name, t[1].s + 1, t[1].len - 2);
		}
	} else if (n >= 3 && utok_is(&t[1], "<")) {
		for (i = 2; i < n && !utok_is(&t[i], ">") && !err; i++)
			err = kd_buf_add(&name, t[i].s, t[i].len);
	} else {
		problem(cpp, f, line, "#include form not understood (computed include?)");
		goto out;
	}
	if (!err && !inc)
		err = find_file(cpp, name.s, &inc);
	if (err)
		goto out;
	/* headers_install deletes these lines; a source tree still has them. */
	if (!inc && cpp->tree->source_layout &&
	    (!strcmp(name.s, "linux/compiler.h") || !strcmp(name.s, "linux/compiler_types.h")))
		goto out;
	if (!inc) {
		if (is_kernel_name(cpp, name.s) && !umap_get(&cpp->reported, name.s, name.len)) {
			char *key = kd_arena_strndup(&cpp->arena, name.s, name.len);

			if (!key) {
				err = -ENOMEM;
				goto out;
			}
			err = umap_put(&cpp->reported, key, name.len, key);
			problem(cpp, f, line, "#include <%s>: not in the tree (generated at build time?)",
				name.s);
		}
		goto out;
	}
	if (cpp->depth >= MAX_INCLUDE_DEPTH) {
		problem(cpp, f, line, "#include <%s>: nested too deeply", name.s);
		goto out;
	}
	if (cpp->nr_includes >= MAX_INCLUDES) {
		if (cpp->nr_includes++ == MAX_INCLUDES)
			problem(cpp, f, line, "#include <%s>: more than %d inclusions from one header"
				" (include loop?); the rest are skipped", name.s, MAX_INCLUDES);
		goto out;
	}
	cpp->nr_includes++;
	cpp->depth++;
	err = run_file(cpp, inc);
	cpp->depth--;
out:
	kd_buf_release(&name);
	return err;
}

/* Value of the #if/#elif expression @t[0..n). Errors are problems; false then. */
static int eval_if(struct ucpp *cpp, struct ufile *f, int line, const struct utok *t, size_t n,
		   bool *result)
{
	struct kd_arena arena = KD_ARENA_INIT;
	struct uexpand x = { .cpp = cpp, .arena = &arena, .in_if = true };
	struct ueval e = { .pp = true, .arch = cpp->tree->arch };
	struct utoks out = { 0 };
	struct uval v;
	int err;

	*result = false;
	err = uexpand(&x, t, n, &out);
	if (err == -EINVAL) {
		problem(cpp, f, line, "#if: %s", x.error);
		err = 0;
		goto out;
	}
	if (err)
		goto out;
	if (ueval(&e, out.v, out.n, &v)) {
		problem(cpp, f, line, "#if: %s", e.error);
		goto out;
	}
	*result = v.v != 0;
out:
	utoks_release(&out);
	uexpand_release(&x);
	kd_arena_release(&arena);
	return err;
}

/* #if, #ifdef, #ifndef (line @l, tokens @t): a level, active when its parent is and it holds. */
static int open_cond(struct ucpp *cpp, struct ufile *f, const struct uline *l,
		     const struct utok *t, struct conds *s)
{
	bool active = !s->n || s->v[s->n - 1].active, value = false;
	int err = 0;

	if (active && utok_is(&t[0], "if")) {
		err = eval_if(cpp, f, l->lineno, t + 1, l->n - 1, &value);
	} else if (active && (l->n < 2 || t[1].kind != UT_IDENT)) {
		problem(cpp, f, l->lineno, "#%.*s without a name", (int)t[0].len, t[0].s);
	} else if (active) {
		value = ucpp__lookup(cpp, t[1].s, t[1].len) != NULL;
		if (utok_is(&t[0], "ifndef"))
			value = !value;
	}
	if (!err)
		err = KD_GROW(s->v, s->cap, s->n + 1);
	if (err)
		return err;
	s->v[s->n++] = (struct cond){ .line = l->lineno, .parent_active = active,
				      .active = active && value, .taken = value };
	return 0;
}

/* #elif, #else: the innermost level's next branch, taken when no branch before it was. */
static int next_branch(struct ucpp *cpp, struct ufile *f, const struct uline *l,
		       const struct utok *t, struct conds *s)
{
	struct cond *c = s->n ? &s->v[s->n - 1] : NULL;
	bool is_else = utok_is(&t[0], "else"), value = false;
	int err;

	if (!c || c->seen_else) {
		problem(cpp, f, l->lineno, "#%s without #if", is_else ? "else" : "elif");
		return 0;
	}
	if (is_else) {
		c->seen_else = true;
		value = true;
	} else if (c->parent_active && !c->taken) {
		err = eval_if(cpp, f, l->lineno, t + 1, l->n - 1, &value);
		if (err)
			return err;
	}
	c->active = c->parent_active && !c->taken && value;
	c->taken = c->taken || value;
	return 0;
}

/* A directive of an active region other than a conditional one. */
static int do_directive(struct ucpp *cpp, struct ufile *f, const struct uline *l,
			const struct utok *t)
{
	int err = 0;

	if (utok_is(&t[0], "define")) {
		err = do_define(cpp, f, l->lineno, t, l->n);
	} else if (utok_is(&t[0], "undef")) {
		uintptr_t idx = l->n > 1 ? (uintptr_t)umap_get(&cpp->names, t[1].s, t[1].len) : 0;

		if (idx)
			cpp->pool[idx - 1].dead = true;
	} else if (utok_is(&t[0], "include") || utok_is(&t[0], "include_next")) {
		err = do_include(cpp, f, l->lineno, t, l->n);
	} else if (utok_is(&t[0], "error")) {
		struct kd_buf msg = KD_BUF_INIT;

		err = utoks_text(&msg, t + 1, l->n - 1);
		if (!err)
			problem(cpp, f, l->lineno, "#error %s", msg.s);
		kd_buf_release(&msg);
	} else if (!utok_is(&t[0], "pragma") && !utok_is(&t[0], "warning") &&
		   !utok_is(&t[0], "line") && !utok_is(&t[0], "ident") &&
		   t[0].kind != UT_NUMBER) {
		problem(cpp, f, l->lineno, "unknown directive #%.*s", (int)t[0].len, t[0].s);
	}
	return err;
}

static int run_file(struct ucpp *cpp, struct ufile *f)
{
	struct conds s = { 0 };
	size_t li;
	int err = 0;

	f->unit = cpp->unit;
	for (li = 0; !err && li < f->nr_lines; li++) {
		const struct uline *l = &f->lines[li];
		/* f->toks is NULL in a file without tokens (then l->n is 0). */
		const struct utok *t = l->n ? f->toks + l->first : NULL;

		if (!l->n)
			continue;	/* the null directive */
		if (utok_is(&t[0], "if") || utok_is(&t[0], "ifdef") || utok_is(&t[0], "ifndef"))
			err = open_cond(cpp, f, l, t, &s);
		else if (utok_is(&t[0], "elif") || utok_is(&t[0], "else"))
			err = next_branch(cpp, f, l, t, &s);
		else if (utok_is(&t[0], "endif") && !s.n)
			problem(cpp, f, l->lineno, "#endif without #if");
		else if (utok_is(&t[0], "endif"))
			s.n--;
		else if (!s.n || s.v[s.n - 1].active)
			err = do_directive(cpp, f, l, t);
	}
	while (!err && s.n)
		problem(cpp, f, s.v[--s.n].line, "#if without #endif");
	if (f != cpp->builtin)
		f->reported = true;
	free(s.v);
	return err;
}

const struct ufile *ucpp__file(const struct ucpp *cpp, const char *name)
{
	void *hit = umap_get(&cpp->files, name, strlen(name));

	return hit && hit != &missing_file ? hit : NULL;
}

int ucpp__run(struct ucpp *cpp, const char *root)
{
	return ucpp__run_after(cpp, NULL, root);
}

int ucpp__run_after(struct ucpp *cpp, const char *first, const char *root)
{
	struct ufile *f = NULL;
	int err;

	umap_clear(&cpp->names);
	cpp->unit++;
	cpp->nr_pool = 0;
	cpp->depth = 0;
	cpp->nr_includes = 0;
	err = run_file(cpp, cpp->builtin);
	if (err)
		return err;
	if (first) {
		err = find_file(cpp, first, &f);
		if (!err && f)
			err = run_file(cpp, f);
		if (err)
			return err;
	}
	err = find_file(cpp, root, &f);
	if (err)
		return err;
	if (!f) {
		problem(cpp, NULL, 0, "%s: cannot read", root);
		return 0;
	}
	return run_file(cpp, f);
}

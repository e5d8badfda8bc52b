/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to spec/: the spec handle, the arena its strings and expression
 * nodes live in, the token stream of one file, the parser state, and the
 * helpers shared by the lexer, the parsers and the resolver.
 */
#ifndef KD_SPEC_INTERNAL_H
#define KD_SPEC_INTERNAL_H

#include <stdarg.h>

#include "lib/arena.h"
#include "lib/buf.h"
#include "spec/spec.h"

struct spec {
	struct kd_arena arena;		/* strings, expressions: freed with the spec */
	size_t nr_files, cap_files;
	struct spec_file *files;
	const char **texts;		/* parallel to files: the content (arena) */
	size_t cap_texts;
	char **reals;			/* parallel to files: realpath() or NULL (malloc'ed) */
	size_t cap_reals;
	char *root;			/* the loaded directory, for spec_file.name */
	char *include_root;		/* includes stay below it (realpath of root, or of the first file's directory) */
	size_t nr_calls, cap_calls;
	struct spec_call *calls;
	size_t nr_sets, cap_sets;
	struct spec_set *sets;
	size_t nr_structs, cap_structs;
	struct spec_struct *structs;
	size_t nr_fdkinds, cap_fdkinds;
	struct spec_fdkind *fdkinds;
	size_t nr_idkinds, cap_idkinds;
	struct spec_fdkind *idkinds;
	size_t nr_constants, cap_constants;
	struct spec_constant *constants;
	size_t nr_families, cap_families;
	struct spec_family *families;
	size_t nr_vdsos, cap_vdsos;
	struct spec_vdso *vdsos;
	size_t nr_errors;
	int include_depth;
	bool no_includes;		/* re-parsing texts stored in a DB */
	char hash_hex[17];
};

/* Closest of @cands (NULL-terminated or @n entries) to @word, or NULL if none is close. */
const char *did_you_mean(const char *word, const char *const *cands, size_t n);
/* Report "FILE:LINE:COL: msg" through kd_err() and count it; with
 * " (did you mean 'BEST'?)" appended when @best is not NULL. 0, or -ENOMEM
 * when the message could not be built whole. */
int spec_error_hint(struct spec *s, const struct spec_loc *loc, const char *best,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
#define spec_error(s, loc, ...) ((void)spec_error_hint(s, loc, NULL, __VA_ARGS__))

/* --- tokens --- */
enum tok_kind {
	T_EOF = 0,
	T_IDENT,
	T_NUMBER,
	T_VERSION,	/* 5.6, 2.6.16 */
	T_STRING,
	T_PUNCT,	/* text holds the operator: "{", "..", "->", "<=" */
};

struct token {
	enum tok_kind kind;
	const char *text;	/* arena; identifier, operator, unescaped string, version */
	uint64_t num;
	int line, col;
	int depth;		/* brace depth; '{' and its '}' share the outer depth */
};

/* Tokenize; lexical errors are reported and skipped. *toks: malloc'ed. */
int spec_lex(struct spec *s, const char *file, const char *text, size_t len,
	     struct token **toks, size_t *n);

struct parser {
	struct spec *s;
	const char *file;
	struct token *toks;
	size_t n, pos;
	int oom;		/* -ENOMEM seen */
	int expr_depth;
};

static inline const struct token *peek(const struct parser *p)
{
	return &p->toks[p->pos];
}
static inline const struct token *peek2(const struct parser *p)
{
	return &p->toks[p->pos + 1 < p->n ? p->pos + 1 : p->n - 1];
}
bool tok_is(const struct token *t, const char *punct_or_word);
struct spec_loc tok_loc(const struct parser *p, const struct token *t);
/*
 * Report at @t ("expected X, found Y") and return -1; perr_hint() adds a
 * did-you-mean hint when @t is an identifier close to one of @cands
 * (NULL-terminated or @n entries): "expected A, B or C, found X (did you
 * mean 'B'?)". -ENOMEM in p->oom when the message could not be built.
 */
int perr_hint(struct parser *p, const struct token *t, const char *const *cands, size_t n,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define perr(p, t, ...) perr_hint(p, t, NULL, 0, __VA_ARGS__)
/* Consume @what or report "expected 'what' ..." */
int expect(struct parser *p, const char *what, const char *context);
/* Consume @what (a word or punctuation, as tok_is) when it comes next: true. */
bool accept_tok(struct parser *p, const char *what);
/* A word that sets a flag where it stands ("reserved", "out", "extensible", "prefix"). */
struct word_flag {
	const char *word;
	bool *flag;
};
/* Consume the words of @flags that come next, in any order, setting each one's flag. */
void accept_flags(struct parser *p, const struct word_flag *flags, size_t n);
/*
 * Room for @need elements in @arr (KD_GROW): 0, or -1 with -ENOMEM in
 * p->oom, which ends the parse. P_PUSH appends @val to @arr of @nr
 * elements the same way. Every list the parser builds grows through these.
 */
int parser_grow(struct parser *p, void **arr, size_t *cap, size_t need, size_t size);
#define P_GROW(p, arr, cap, need) \
	parser_grow((p), (void **)&(arr), &(cap), (need), sizeof(*(arr)))
#define P_PUSH(p, arr, cap, nr, val) \
	(P_GROW(p, arr, cap, (nr) + 1) ? -1 : ((arr)[(nr)++] = (val), 0))
/* "'foo'", "end of file", "\"string\"" — for messages (arena). */
const char *tok_desc(struct parser *p, const struct token *t);

#define SPEC_MAX_EXPR_DEPTH 64	/* parentheses and unary operators */
/*
 * Operators on any path from an expression's root to a leaf: a chain
 * "1 + 1 + ... + 1" is parsed by a loop but nests to the left, and every
 * walk over the tree (resolve, format, eval, store) recurses.
 */
#define SPEC_MAX_EXPR_TREE 256
#define SPEC_MAX_INCLUDE_DEPTH 16
#define SPEC_MAX_EXTENDS 64	/* sets an 'extends' chain may cross (spec__set_values() follows as many) */
#define SPEC_MAX_FILE_MB 16	/* a spec file larger than this is refused */

/* parse-expr.c: a full expression; NULL after reporting an error. */
struct spec_expr *parse_expr(struct parser *p);

/* parse.c: the file, and helpers shared with parse-call.c. Each returns 0
 * or reports at the current token and returns -1. */
int spec_parse_tokens(struct parser *p);
bool is_modifier(const struct token *t);
int ident(struct parser *p, const char **out, const char *what);
int opt_since(struct parser *p, const char **since);
int strings(struct parser *p, const char **out, const char *what);
int parse_kind(struct parser *p, struct spec_arg *a);
char *pstrdup(struct parser *p, const char *s);
/* Move a temporary kd_malloc'ed array into the arena (the temporary is freed). */
void *to_arena(struct parser *p, void *tmp, size_t n, size_t size);
/* "{ stmt* }" calling @stmt per statement and recovering at each ';'.
 * Returns 0, 1 when statements had errors, -1 when the block is broken. */
int parse_block(struct parser *p, const char *what, const char *name,
		int (*stmt)(struct parser *, void *), void *ctx);
/* parse-call.c: after the keyword @kw. */
int parse_struct(struct parser *p, const struct token *kw);
int parse_call(struct parser *p, const struct token *kw);
/* parse-facts.c: "constant ...;" and "family NAME { ... }", after the keyword. */
int parse_constant(struct parser *p, const struct token *kw);
int parse_family(struct parser *p, const struct token *kw);
/* parse-vdso.c: "vdso ABI { ... }", after the keyword. */
int parse_vdso(struct parser *p, const struct token *kw);

/* spec.c: read and parse @rel relative to the directory of @from. */
int spec_include(struct spec *s, const struct spec_loc *loc, const char *from, const char *rel);

/* errnos.c: known Linux errno names, NULL-terminated. */
extern const char *const spec_errno_names[];
/* The names a `returns` clause may give, for did-you-mean. */
extern const char *const spec_ret_names[];

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to the UAPI reader (extract/uapi/): tokens, the per-file cache
 * of directive lines, the macro table of one translation unit, macro
 * expansion and the constant-expression evaluator. The preprocessor only
 * looks at directive lines: constants and ioctls are #defines, and #if
 * decides which ones exist; declarations between them are never parsed.
 */
#ifndef KD_UAPI_INTERNAL_H
#define KD_UAPI_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "extract/uapi/uapi.h"
#include "lib/arena.h"
#include "lib/buf.h"
#include "lib/hashmap.h"

/* --- string-keyed map (keys not owned) over lib/hashmap.h ------------ */
struct umap_ent {
	const char *key;
	size_t klen;
	void *val;
};
struct umap {
	struct kd_hashmap idx;	/* hash of the key -> index + 1 into e */
	struct umap_ent *e;
	size_t n, cap;
};
void *umap_get(const struct umap *m, const char *key, size_t klen);
/* Insert or replace. 0 or -ENOMEM. */
int umap_put(struct umap *m, const char *key, size_t klen, void *val);
void umap_clear(struct umap *m);	/* keep the storage */
void umap_release(struct umap *m);

/* --- tokens ------------------------------------------------------------ */
enum ut_kind { UT_IDENT, UT_NUMBER, UT_CHAR, UT_STRING, UT_PUNCT, UT_IOCTL };

struct umacro;
struct uhide {			/* a hide set: macros not to expand again */
	const struct umacro *m;
	const struct uhide *next;
	uint32_t len;		/* macros in the set, this one included */
};

struct utok {
	const char *s;		/* not NUL-terminated */
	uint32_t len;
	uint8_t kind;		/* enum ut_kind */
	bool space;		/* white space before it */
	const struct uhide *hide;
	uint32_t ioctl;		/* UT_IOCTL: index into uexpand.ioctls */
};

struct utoks {
	struct utok *v;
	size_t n, cap;
};
int utoks_push(struct utoks *t, const struct utok *tok);
void utoks_release(struct utoks *t);
bool utok_is(const struct utok *t, const char *s);	/* same spelling */
/* Tokenize @len bytes of cleaned text (no comments, no newlines). */
int ulex(const char *s, size_t len, struct utoks *out);
/* Append the spelling of @n tokens with single spaces where the source had any. */
int utoks_text(struct kd_buf *b, const struct utok *t, size_t n);

/* A header, loaded once: its directive lines, tokenized. */
struct uline {
	int lineno;		/* physical line of the '#' */
	uint32_t first, n;	/* tokens after the '#' */
};
struct ufile {
	char *name;		/* include-relative: "linux/fs.h" */
	char *path;		/* on disk */
	char *text;		/* comment-free text the tokens point into */
	int *line_starts;	/* physical line where each line of text begins */
	size_t nr_text_lines;
	struct utok *toks;
	size_t nr_toks;
	struct uline *lines;
	size_t nr_lines;
	bool reported;		/* problems of this file were reported once */
	bool libc;		/* a C library header (libc.c): its macros are not the tree's */
	uint32_t unit;		/* the last unit that read it (ucpp__in_unit()) */
};
/* Physical line (1-based) of byte @off of f->text. */
int ufile__line_at(const struct ufile *f, size_t off);
/* *out: ufile__free(). -errno when unreadable. */
int ufile__load(const char *path, const char *name, struct ufile **out);
int ufile__from_text(const char *text, const char *name, struct ufile **out);
void ufile__free(struct ufile *f);

/*
 * The text the preprocessor reads for C library header @name ("sys/ioctl.h",
 * "limits.h") when the tree has none, or NULL when it knows no such header.
 */
const char *ulibc_header(const char *name);

/* --- user ABI outside include/uapi (outside.c) -------------------------- */
struct uoutside {
	const char *path;	/* in a kernel source tree: "fs/xfs/libxfs/xfs_fs.h" */
	const char *user;	/* the user-space program that uses it: "xfsprogs" */
};
/* The @i-th header of the list, or NULL past its end. */
const struct uoutside *uoutside__nth(size_t i);

/* --- the tree: where includes resolve --------------------------------- */
struct utree {
	const struct kd_arch *arch;	/* whose headers (arch/ARCH/include/uapi) and view */
	char *dirs[3];		/* search order: arch uapi, generic uapi (source) or DIR */
	int nr_dirs;
	bool source_layout;	/* asm/X.h may resolve to asm-generic/X.h */
	char **roots;		/* include-relative names of the headers to scan */
	size_t nr_roots;
	/*
	 * A kernel source tree (include/ beside fs/ and drivers/): its top,
	 * and the headers of uoutside__nth() it has, scanned after the roots
	 * by their source-tree path (for #defines only: they are not compiled).
	 */
	struct utree_src {
		char *top;
		size_t nr_outside;
		const struct uoutside *outside[];
	} *src;			/* NULL: no source tree */
	/* Directories the walk could not read ("path: reason"), problems for the caller. */
	char **unreadable;
	size_t nr_unreadable, cap_unreadable;
	/* Directories walked, by device and inode: a symlink loop is walked once. */
	struct utree_seen { dev_t dev; ino_t ino; } *seen;
	size_t nr_seen, cap_seen;
};
/* Directories nest at most this deep below a tree's top. */
#define UTREE_MAX_DEPTH 64
int utree__open(const char *dir, const struct kd_arch *arch, struct utree *t);
/*
 * The architecture a source-layout tree (include/uapi beside
 * arch/ARCH/include/uapi, as utree__open() finds them) has headers for:
 * x86_64 when it has x86's (Debian's -common has every architecture's),
 * else the first supported one it has; NULL for an installed tree (linux/
 * and asm/ already of one architecture) or one with none.
 */
const struct kd_arch *utree__guess_arch(const char *dir);
void utree__release(struct utree *t);
/* Find @name (<...> form). *path and *display malloc'ed. -ENOENT when absent. */
int utree__resolve(const struct utree *t, const char *name, char **path, char **display);

/* --- the preprocessor ---------------------------------------------------- */
struct umacro {
	const char *name;
	uint32_t nlen;
	bool funclike, variadic, dead;
	int nparams;
	const struct utok *params;	/* identifiers; __VA_ARGS__ last when variadic */
	const struct utok *body;
	uint32_t nbody;
	const struct ufile *file;	/* NULL: predefined */
	int line;
};

struct ucpp;
typedef void (*ucpp_problem_fn)(const struct ufile *f, int line, const char *msg, void *ctx);

struct ucpp *ucpp__new(const struct utree *tree, ucpp_problem_fn problem, void *ctx);
void ucpp__free(struct ucpp *cpp);
/* Run one translation unit: the predefined macros, then #include <@root>. */
int ucpp__run(struct ucpp *cpp, const char *root);
/* The live macros after the last run, in definition order. */
size_t ucpp__nr_macros(const struct ucpp *cpp);
const struct umacro *ucpp__macro(const struct ucpp *cpp, size_t i);
const struct umacro *ucpp__lookup(const struct ucpp *cpp, const char *name, size_t len);
size_t ucpp__nr_files(const struct ucpp *cpp);
/* File @i (< ucpp__nr_files()) of every unit run so far, in the order first read. */
const struct ufile *ucpp__file_at(const struct ucpp *cpp, size_t i);
/* Did the last unit read @f (so that its declarations are in scope after it)? */
bool ucpp__in_unit(const struct ucpp *cpp, const struct ufile *f);
/* Parameter @j of @m (the variadic "..." reads as __VA_ARGS__). */
const struct utok *umacro_param(const struct umacro *m, int j);

/*
 * The file @name (include-relative) as the last unit read it (the root of
 * ucpp__run() included), or NULL.
 */
const struct ufile *ucpp__file(const struct ucpp *cpp, const char *name);
/*
 * Run a unit that includes @first before @root (NULL: ucpp__run()): what a
 * program that writes #include <sys/ioctl.h> before <sound/asound.h> sees.
 */
int ucpp__run_after(struct ucpp *cpp, const char *first, const char *root);

/* --- declarations (enums.c, typedefs.c) ------------------------------------ */
/*
 * The tokens of @f's declarations: its text with directive lines blanked
 * (*text, which the tokens point into; free() it and utoks_release() @t).
 */
int udecl_lex(const struct ufile *f, char **text, struct utoks *t);
/* The index of the '}' closing the '{' at t[@open], or @n when unterminated. */
size_t udecl_body_end(const struct utok *t, size_t open, size_t n);
/* One enumerator with an initializer: its name, the initializer's tokens, its line. */
typedef int (*uenum_fn)(const struct utok *name, const struct utok *init, size_t n, int line,
			void *ctx);
/* Call @fn for each enumerator with an initializer of @f's enum bodies; stops at non-zero. */
int uenum_scan(const struct ufile *f, uenum_fn fn, void *ctx);
/* One typedef of a tagged type to a plain name: typedef struct atreq { ... } atreq_t; */
typedef int (*utypedef_fn)(const struct utok *name, const struct utok *keyword, const struct utok *tag,
			   void *ctx);
/* Call @fn for each such typedef of @f (also under a false #if); stops at non-zero. */
int utypedef_scan(const struct ufile *f, utypedef_fn fn, void *ctx);
/* A typedef of names only: typedef int __bitwise __kernel_rwf_t; (@spec: int __bitwise). */
typedef int (*uplain_typedef_fn)(const struct utok *name, const struct utok *spec, size_t n,
				 void *ctx);
/* utypedef_scan(), and @plain (may be NULL) for each typedef of names only. */
int utypedef_scan_all(const struct ufile *f, utypedef_fn fn, uplain_typedef_fn plain, void *ctx);

/* --- expansion ------------------------------------------------------------ */
enum uio_dir { UIO_NONE = 0, UIO_WRITE = 1, UIO_READ = 2, UIO_RW = 3 };

struct uioctl_call {		/* an _IO/_IOR/_IOW/_IOWR/_IOC met while expanding */
	bool ioc;		/* _IOC(dir, type, nr, size) rather than _IOx(type, nr, T) */
	int dir;		/* _IOx only */
	struct utoks args[4];	/* expanded arguments */
};

/*
 * Bounds of one expansion, so that hostile headers cost bounded time and
 * memory: how many macros deep expansions nest (a hide set's size: each
 * step looks the next macro up in it), and how many tokens an expansion
 * may grow to (24 self-doubling macros reach 2^24).
 */
#define UEXPAND_MAX_NEST	256
#define UEXPAND_MAX_TOKENS	65536
#define UEXPAND_XSTR(x)		#x
#define UEXPAND_STR(x)		UEXPAND_XSTR(x)

struct uexpand {
	struct ucpp *cpp;
	struct kd_arena *arena;	/* pasted tokens, hide sets */
	bool in_if;		/* #if: `defined` is an operator */
	bool ioctls;		/* turn _IOx calls into UT_IOCTL tokens */
	/* The macro whose body this is: its name is never expanded again (a body
	 * is rescanned with its macro hidden, C11 6.10.3.4p2), so pkt_sched.h's
	 * #define __TC_MQPRIO_MODE_MAX (__TC_MQPRIO_MODE_MAX - 1) names the
	 * enumerator. NULL: the tokens are no macro's body. */
	const struct umacro *self;
	struct uioctl_call *calls;
	size_t nr_calls, cap_calls;
	const char *error;	/* why expansion failed */
	bool limit;		/* ... because it hit a bound above */
};
/* Macro-expand @n tokens into @out (appended). 0, -ENOMEM, or -EINVAL with x->error. */
int uexpand(struct uexpand *x, const struct utok *in, size_t n, struct utoks *out);
void uexpand_release(struct uexpand *x);

/* --- evaluation ----------------------------------------------------------- */
enum uctype { UC_INT, UC_UINT, UC_LONG, UC_ULONG, UC_LLONG, UC_ULLONG };

struct uval {
	uint64_t v;		/* bits; sign-extended to 64 for signed types */
	int t;			/* enum uctype */
	const char *narrow;	/* "unsigned char"... when a cast to a type narrower than int gave it */
};
/* The C type of @v as _Generic sees it. */
const char *uval_type(const struct uval *v);
/* @v (64 bits, two's complement) of the C type named @ctype ("unsigned
 * int", "unsigned char"...); @ctype must outlive the value. */
struct uval uval_of_ctype(uint64_t v, const char *ctype);
/* ctypes.c: the widths and conversions of the enum uctype types. */
bool uctype_unsigned(int t);
int uctype_width(int t);	/* 32 or 64 bits */
int uctype_common(int a, int b);	/* the usual arithmetic conversions' type */
/* The bits of @v as a value of type @t (truncated, sign-extended). */
struct uval uval_conv(struct uval v, int t);

/* Size of a type for sizeof/_IOx: plain types here, the rest asked of the caller. */
struct usizer {
	const struct kd_arch *arch;	/* plain types' sizes and signedness */
	uapi_sizeof_fn cb;
	uapi_enumerator_fn enum_cb;	/* enumerators as constants (NULL: unknown) */
	uapi_offsetof_fn offset_cb;	/* offsetof() and &((T *)0)->m (NULL: unknown) */
	uapi_alignof_fn align_cb;	/* __alignof__ of a tagged or typedef'd type */
	void *ctx;
	struct umap cache;	/* type text -> struct usize_ans * */
	struct umap tags;	/* typedef name -> its tag ("struct atreq"), of the headers read so far */
	struct umap typedefs;	/* typedef name -> struct utypedef_decl * (typedefs of names only) */
	struct kd_arena *arena;
	int hard_error;		/* a negative code from cb */
};
/* One typedef of names only; the declarations of one name chained, first read first. */
struct utypedef_decl {
	const struct ufile *file;
	const char *spelling;	/* "int __bitwise", as written */
	struct utypedef_decl *next;
};
struct usize_ans {
	bool known, trusted;
	struct uapi_type_info info;
};
/* Normalized spelling of a type name: "struct foo", "char *", "__u8[16]". */
int utype_text(struct kd_buf *b, const struct utok *t, size_t n);
/* 0 with *ans filled (ans->known false when unknown), or a negative code. */
int usizer_size(struct usizer *sz, const struct utok *t, size_t n, const struct usize_ans **ans);

/* Parentheses, unary operators, casts and ?: recurse; a header may nest them 30,000 deep. */
#define UEVAL_MAX_DEPTH 256

struct ueval {
	const struct kd_arch *arch;	/* char signedness, typedef sizes; NULL: x86_64 */
	bool pp;			/* #if: identifiers are 0, arithmetic in intmax_t */
	struct usizer *sizer;		/* NULL: sizeof is not a constant */
	const struct uexpand *x;	/* for UT_IOCTL tokens */
	/*
	 * An identifier left after expansion: its value, 1, or 0 when not
	 * known (NULL: none is). The constants of other headers of the tree.
	 */
	int (*ident)(const struct utok *t, struct uval *out, void *ctx);
	void *ident_ctx;
	const char *error;
	const struct utok *unknown;	/* the identifier that failed it, or NULL */
	bool unknown_size;		/* failed because a sizeof was unknown */
	bool limit;			/* failed at UEVAL_MAX_DEPTH */
};
/* Evaluate a whole expression. 0 with *out, -EINVAL (e->error says why). */
int ueval(struct ueval *e, const struct utok *t, size_t n, struct uval *out);
/* Command number of ioctl call @i. 0, or -EINVAL (e->error; e->unknown_size). */
int ueval_ioctl(struct ueval *e, size_t i, struct uval *dir, struct uval *type,
		struct uval *nr, struct usize_ans *size, struct uval *cmd);

/* --- ioctl families (families.c) ------------------------------------------ */
/* A function-like macro that is an ioctl: each field a value, or its formula as text. */
struct ufamily_fields {
	struct kd_buf params;	/* "len", "a,b" */
	struct kd_buf dir;	/* none | r | w | rw, or a formula */
	struct kd_buf type, nr, size;
};
/*
 * Whether the function-like macro @m is an ioctl family, with @x set for
 * ioctls (x->ioctls) and @e to evaluate what does not depend on a
 * parameter: 1 with *@f filled (ufamily_fields_release()), 0 when not
 * one, 2 when it calls an _IO* macro the unit does not define (to be read
 * again after <sys/ioctl.h>), or a negative code.
 */
int ufamily_read(struct ueval *e, struct uexpand *x, const struct umacro *m,
		 struct ufamily_fields *f);
void ufamily_fields_release(struct ufamily_fields *f);

/* A plain C type: its size, signedness and the value type a cast to it gives. */
struct ptype {
	const char *name;
	int size;	/* bytes */
	bool is_signed;
	int t;		/* value type after a cast (and integer promotion) */
	bool integer;
};
/*
 * A type named by keywords ("unsigned long int") or a known typedef
 * (types.c), as @arch's C ABI has it (NULL: x86_64).
 */
bool plain_type(const struct kd_arch *arch, const struct utok *t, size_t n, struct ptype *out);
/*
 * plain_type(), or else a typedef of names only that a header the last
 * unit of @cpp read declares (typedef int __bitwise __kernel_rwf_t;), its
 * spelling macro-expanded in that unit (__bitwise is empty for user space)
 * and resolved in turn, as the compiler of that unit sees the name. A name
 * those headers typedef two ways (under #if) resolves to nothing. On
 * ENOMEM: false, and sz->hard_error set.
 */
bool utypedef_plain(struct usizer *sz, struct ucpp *cpp, const struct utok *t, size_t n,
		    struct ptype *out);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to extract/: the UAPI headers as user space compiles them. Every
 * header of a tree goes through the system C compiler for the kernel's
 * architecture, each header a translation unit of its own (what it gives
 * alone is its outcome and its layouts), with -g and unused types kept,
 * a dozen units per compiler run; the objects are linked into one ELF
 * file whose DWARF the type reader (extract/header-types.c) turns
 * into the header view of the types. Headers that cannot be compiled are
 * failures with the compiler's reason, never dropped silently; so are
 * headers that make the compiler read outside the tree and its own
 * include directories (compile-confine.c). Every
 * compiler runs under limits of time and memory, and the header view as a
 * whole under a time budget (doc/LIMITS.md).
 *
 * The result is cached by a content hash of the header tree and of the
 * compiler (compile-cache.c): a second run over the same tree costs no
 * compilation. Missing that, each header's unit is cached by the files
 * its compile read (compile-cache-unit.c): a tree that differs in a few
 * headers compiles those and the headers including them, then links all.
 */
#ifndef KD_UAPI_COMPILE_H
#define KD_UAPI_COMPILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/digest.h"

struct kd_arch;
struct utree;

/*
 * How one architecture's user space is compiled: its compiler (the host's
 * gcc, or Debian's cross compiler <triplet>-gcc for another architecture),
 * target flags, and the headers that are another ABI's view.
 */
struct uapi_cc_arch {
	const char *name;		/* "x86_64": meta.arch */
	const char *cc;			/* compiler: a name searched in PATH, or a path */
	const char *const *flags;	/* target selection, NULL-terminated: { "-m64", NULL } */
	/* Headers of other ABIs of the same arch directory, never roots: asm/unistd_32.h. */
	const char *const *not_roots;
	/* Compile <sys/types.h> first: without the C library of this ABI no header is tried. */
	bool check_libc;
	char cc_buf[128];		/* storage of cc */
};

/* The settings for @arch (lib/arch.h; NULL: x86_64); $KABI_DIFF_CC names the compiler. */
void uapi_cc_arch_init(struct uapi_cc_arch *out, const struct kd_arch *arch);
/* Is @name (include-relative) a header @arch never compiles or scans on its own? */
bool uapi_cc_arch_skips(const struct uapi_cc_arch *arch, const char *name);

struct uapi_cc_conf {
	const struct uapi_cc_arch *arch;
	int jobs;			/* compilers at once; 0: the number of CPUs */
	bool use_cache;			/* $XDG_CACHE_HOME/kabi-diff/uapi/ */
	bool progress;			/* a line on stderr when compiling */
};

struct uapi_cc_failure {
	char *header;			/* include-relative: "linux/coda.h" */
	char *message;			/* the compiler's first error, paths tree-relative */
};

struct uapi_cc_result {
	char *object;			/* ELF with the headers' DWARF; NULL when none compiled */
	bool cached;			/* taken from the cache */
	size_t nr_headers;		/* roots compiled (or tried) */
	size_t nr_compiled;		/* of which compiled */
	size_t nr_runs;			/* compiler runs (0 when cached) */
	size_t nr_cached;		/* roots taken from the unit cache, not compiled */
	size_t nr_units;		/* roots given to the compiler (not cached) */
	struct uapi_cc_failure *failures;
	size_t nr_failures;
	char *workdir;			/* removed by uapi_cc_result__free() */
	char *not_compiled;		/* why nothing was compiled (no compiler), else NULL */
};

/*
 * Compile every root of @tree. Header trouble becomes failures, a missing
 * compiler r->not_compiled; a full disk or ENOMEM is an error (reported
 * with kd_err).
 * *out: uapi_cc_result__free(). Returns 0 or a negative code.
 */
int uapi_cc__compile(const struct utree *tree, const struct uapi_cc_conf *conf,
		     struct uapi_cc_result **out);
void uapi_cc_result__free(struct uapi_cc_result *r);

/*
 * The same in a thread of its own, so the compilers run while the caller
 * reads vmlinux. @tree and @conf must stay valid until uapi_cc__finish(),
 * which joins the thread and hands over the result (or the error). A job
 * that was started must be finished, also on the caller's error paths.
 */
struct uapi_cc_job;
int uapi_cc__start(const struct utree *tree, const struct uapi_cc_conf *conf,
		   struct uapi_cc_job **out);
int uapi_cc__finish(struct uapi_cc_job *job, struct uapi_cc_result **out);

/* --- the cache (compile-cache.c) ----------------------------------------- */
struct uapi_cc_cache;

/*
 * Look @tree up in the cache: *hit true with @r filled (failures, counts,
 * and the object copied into r->workdir, which uapi_cc_result__free()
 * removes) when an entry for this tree, compiler and flags exists and
 * every file the compiler read then is unchanged in @tree. @cache (free
 * with uapi_cc_cache__free(); it refers to @tree, @conf and @cc_path) keeps
 * the key for uapi_cc_cache__store(); it is NULL when the tree cannot be
 * cached (no cache directory, an oversized tree), which is not an error.
 */
int uapi_cc_cache__lookup(const struct utree *tree, const struct uapi_cc_conf *conf,
			  const char *cc_path, struct uapi_cc_cache **cache, struct uapi_cc_result *r,
			  bool *hit);
/*
 * Store @r (a copy of its object; r->object stays the caller's) with the
 * dependency files @deps (every file the compiler read, as its dependency
 * files name them), unless the tree changed since the lookup. A failure to
 * store is a warning, not an error.
 */
int uapi_cc_cache__store(struct uapi_cc_cache *cache, struct uapi_cc_result *r,
			 char *const *deps, size_t nr_deps);
void uapi_cc_cache__free(struct uapi_cc_cache *cache);

/* What an entry is keyed and verified by (compile-cache-key.c). */
struct stat;

/*
 * The content hash and size of what @fd holds, read to its end but no
 * further than @max + 1 bytes (-KD_ELIMIT past @max; @max below
 * UINT64_MAX); what is read is also written to @copy_fd unless that is -1.
 * The hash does not depend on how the reads were split.
 */
int uapi_cc_hash_fd(int fd, uint64_t max, int copy_fd, uint64_t *hash, uint64_t *size);
/* The same of the regular file @path; larger than @max: -KD_ELIMIT, unread. */
int uapi_cc_file_hash(const char *path, uint64_t max, uint64_t *hash, uint64_t *size);
/*
 * The cache key (a SHA-256, 64 hex digits) of @tree as it is now,
 * compiled by @cc_path (which says it is @version) for @conf's
 * architecture; "" when the tree is past the cache's bounds (compiled, not
 * cached). 0, -ENOMEM or -EIO (the digest failed).
 */
#define UAPI_CC_KEY_SIZE (KD_DIGEST_HEX_LEN + 1)
int uapi_cc_tree_key(const struct utree *tree, const struct uapi_cc_conf *conf, const char *cc_path,
		     const char *version, char key[UAPI_CC_KEY_SIZE]);

/* A cache entry's index (compile-cache-index.c), as parsed from KEY.idx or to be written. */
struct kd_buf;

struct uapi_cc_dep {
	uint64_t hash, size;		/* of the file's content; size in bytes */
	int dir;			/* the tree's directory @path is under, -1: absolute */
	char *path;			/* relative to that directory, else absolute */
};

struct uapi_cc_index {
	size_t nr_headers, nr_compiled;
	bool has_object;
	uint64_t object_hash, object_size;	/* of KEY.so; size in bytes */
	struct uapi_cc_dep *deps;
	size_t nr_deps, cap_deps;
	struct uapi_cc_failure *failures;
	size_t nr_failures, cap_failures;
};

/*
 * Parse the @len bytes of @text (any bytes: the cache is shared) into @ix,
 * which uapi_cc_index__release() frees. 1 when it is an index of this
 * format, 0 when it is not (@ix then empty), -ENOMEM.
 */
int uapi_cc_index__parse(const char *text, size_t len, struct uapi_cc_index *ix);
/*
 * Append @ix's text to @out: what uapi_cc_index__parse() reads back, given
 * paths, headers and messages that uapi_cc_index__storable() accepts,
 * headers and paths not empty, absolute paths starting with '/' and
 * relative ones not. 0 or -ENOMEM.
 */
int uapi_cc_index__format(const struct uapi_cc_index *ix, struct kd_buf *out);
/* Append a dependency (@path copied) to @ix. 0 or -ENOMEM. */
int uapi_cc_index__add_dep(struct uapi_cc_index *ix, uint64_t hash, uint64_t size, int dir,
			   const char *path);
/* Can @s be one field of an index line (no tab, newline or carriage return)? */
bool uapi_cc_index__storable(const char *s);
void uapi_cc_index__release(struct uapi_cc_index *ix);

/* --- shared by compile*.c --------------------------------------------------- */
#include "lib/buf.h"

/* The contents of @path, NUL-terminated (malloc'ed); NULL when unreadable. */
char *uapi_cc_read_text(const char *path);
/* Write @text to @path. 0 or -errno. */
int uapi_cc_write_text(const char *path, const char *text);
/* @cc as an absolute path (searched in PATH when it has no slash), malloc'ed; NULL: none. */
char *uapi_cc_find_program(const char *cc);
/*
 * Run @argv (a compiler asked for its version or its settings) and return
 * its standard output in *out (malloc'ed), read through a pipe (no file),
 * under the limits of one compiler run. A non-zero exit status is -EIO.
 */
int uapi_cc_run_capture(char *const *argv, char **out);
/*
 * A source tree's headers are not what headers_install writes: write into
 * @wrap the asm/ wrappers Kbuild would generate (every asm-generic header
 * the arch lacks), empty <linux/compiler*.h> and kabi-prelude.h, which
 * defines away the annotations headers_install strips.
 */
int uapi_cc_write_wrappers(const struct utree *tree, const char *wrap);
/*
 * The work directories are $TMPDIR/kabi-uapi.XXXXXX, made by
 * kd_tmpdir_create() and registered for removal on a fatal signal, so
 * that a stopped kabi-diff leaves none behind.
 */
#define UAPI_CC_WORKDIR "kabi-uapi."

/* What the diagnostics of a run say about one of its units. */
struct uapi_cc_unit_diag {
	struct kd_buf first;		/* its first error, paths tree-relative */
	struct kd_buf where;		/* the file of that error, as the compiler named it */
	bool fatal;			/* a fatal error ended the unit */
};
/* @path made tree-relative ("linux/coda.h") when it is under one of @prefixes. */
const char *uapi_cc_display_path(const char *const *prefixes, const char *path, size_t *len);
/*
 * Tie each error of a run's diagnostics @text to the unit (@units: their
 * file names, as given to the compiler) whose line 1 it came through:
 * diag[k] for units[k]. @other receives the first error, or the first
 * message of a program about itself ("cc1: out of memory ..."), tied to
 * no unit. Paths under one of @prefixes (NULL-terminated) are shown
 * relative to it; an error in a file @outside() says is outside the tree
 * is shown by that file's name only. 0 or -ENOMEM.
 */
int uapi_cc_unit_errors(const char *text, const char *const *units, size_t nr_units,
			const char *const *prefixes,
			bool (*outside)(void *ctx, const char *path, size_t len), void *ctx,
			struct uapi_cc_unit_diag *diag, struct kd_buf *other);
/*
 * Call @add with every prerequisite of a make dependency file's text, as
 * the compiler wrote it: relative to its working directory unless absolute.
 */
int uapi_cc_parse_deps(const char *text, int (*add)(const char *path, void *ctx), void *ctx);

/* --- the driver's state, shared by compile.c and compile-alone.c ---------- */
#include <sys/types.h>
#include <time.h>

#include "extract/uapi/uapi_internal.h"
#include "lib/child.h"

/* What the compilers of a tree may use besides time and memory (doc/LIMITS.md). */
#define UAPI_CC_MAX_DIAG (16u << 20)		/* a run's messages kept (bytes) */
#define UAPI_CC_MAX_FILE (64ull << 20)		/* each file a compiler writes (bytes) */
#define UAPI_CC_MAX_OBJECTS (512ull << 20)	/* the objects linked, all together (bytes) */

/* The bounds of time and memory (doc/LIMITS.md); $KABI_DIFF_TEST_UAPI_LIMITS lowers them. */
struct uapi_cc_limits {
	unsigned cpu_seconds;		/* each compiler process */
	unsigned run_seconds;		/* wall clock of one run of units */
	unsigned budget_seconds;	/* wall clock of every run of a tree */
	uint64_t address_space;		/* each compiler process: the total over the jobs / jobs */
};

struct cc_state {
	const struct utree *tree;
	const struct uapi_cc_conf *conf;
	struct uapi_cc_result *r;
	char *cc;			/* absolute path */
	char *wrap;			/* source layout: generated asm/ wrappers, prelude */
	char **base_argv;		/* cc, flags, include options (owned strings) */
	size_t nr_base, cap_base;
	const char **names;		/* roots to compile */
	size_t nr_names;
	size_t units_per_run;
	struct uapi_cc_limits limits;
	uint64_t budget_end_ns;		/* CLOCK_MONOTONIC: no run starts or goes on past it */
	char **env;			/* the compilers' environment: TMPDIR is the work directory */
	char **objects;			/* compiled units, linked in the end */
	size_t nr_objects, cap_objects;
	uint64_t object_bytes;		/* their sizes, all together */
	char **deps;			/* files the compiler read (from -MD), in arena */
	size_t nr_deps, cap_deps;
	struct umap dep_set;
	struct kd_arena arena;
	const char *prefixes[8];	/* shown tree-relative in messages: the tree's dirs, wrap */
	const char **allowed;		/* real paths a header may read under (compile-confine.c) */
	size_t nr_allowed, cap_allowed;
	struct umap confined;		/* path as the compiler named it -> 1 inside, 2 outside */
	size_t cap_failures;
	bool *unit_cached;		/* [h]: taken from the unit cache (compile-cache-unit.c) */
	char unit_salt[UAPI_CC_KEY_SIZE];	/* the tree's layout and generated wrappers */
};

struct batch {
	size_t *hdr;			/* indices into names */
	size_t n;
};

struct run {
	struct batch b;
	struct kd_child child;		/* .pid 0: not running */
	struct kd_buf diag;		/* the compiler's messages (stderr) */
};

/* Record @header as not compiled, with @message. */
int uapi_cc_add_failure(struct cc_state *s, const char *header, const char *message);
/* Record header @h (index into names) as not compiled: the time budget ran out. */
int uapi_cc_add_over_budget(struct cc_state *s, size_t h);
/*
 * Start one compiler for @run's headers, each its own translation unit
 * (compile-alone.c), with -g into an object per header.
 */
int uapi_cc_alone_start(struct cc_state *s, struct run *run);
/*
 * Read how @run ended (@st) into objects and failures; the headers it did
 * not get to go back to @queue. @over: the budget ran out, they fail.
 */
int uapi_cc_alone_finish(struct cc_state *s, struct run *run, const struct kd_child_status *st,
			 bool over, struct batch *queue, size_t *nr_queue);


/* A file a unit read (@path as its dependency file names it), kept for the tree's entry. */
int uapi_cc_note_dep(struct cc_state *s, const char *path);

/* --- the cache of units (compile-cache-unit.c) ----------------------------- */
/*
 * Take every root of s->names whose unit entry's recorded inputs are all
 * unchanged in the tree: its object copied to the work directory as the
 * compiler would have written it (h<N>.o), or its failure, and
 * s->unit_cached[h] set. 0 or -ENOMEM; a damaged entry is a miss.
 */
int uapi_cc_units_lookup(struct uapi_cc_cache *c, struct cc_state *s);
/* Store the units compiled in this run that finished (a dependency file). 0 or -ENOMEM. */
int uapi_cc_units_store(struct uapi_cc_cache *c, struct cc_state *s);

/* Shared by compile-cache.c and compile-cache-unit.c. */
/*
 * An entry of a cache directory by its file name: KEY.idx's key length,
 * 0 when @name is none; *@stale set for an entry of an older format.
 */
typedef size_t (*uapi_cc_entry_key_fn)(const char *name, bool *stale);
/*
 * Keep the @keep most recently written entries of @dir, those @key calls
 * stale counting as oldest: each KEY.idx goes with its KEY@obj_ext.
 */
void uapi_cc_prune(const char *dir, size_t keep, uapi_cc_entry_key_fn key, const char *obj_ext);
/* The cache directory $XDG_CACHE_HOME/kabi-diff/uapi, or NULL. */
const char *uapi_cc_cache__dir(const struct uapi_cc_cache *c);
/* What the compiler said its version is. */
const char *uapi_cc_cache__version(const struct uapi_cc_cache *c);
/* The text of the index @path into @text, empty when unusable (warned). 0 or -ENOMEM. */
int uapi_cc_read_index(const char *path, struct kd_buf *text);
/* Is the file @d names, resolved in @tree, what the index says? 1, 0 or -ENOMEM. */
int uapi_cc_dep_unchanged(const struct utree *tree, const struct uapi_cc_dep *d);
/* Record in @ix the file the compiler read as @path (see compile-cache.c). 1, 0, -ENOMEM. */
int uapi_cc_index_add_path(const struct utree *tree, struct uapi_cc_index *ix, const char *path);
/* Copy the regular file @src to @dest atomically, with its hash and size. 0 or -errno. */
int uapi_cc_publish_file(const char *src, const char *dest, uint64_t *hash, uint64_t *size);

/* --- what a header may read (compile-confine.c) ---------------------------- */
/* The directories: the tree's, the work directory, the compiler's system ones. 0 or -errno. */
int uapi_cc_confine_init(struct cc_state *s);
/* Is the file @path (@len bytes, as the compiler named it) outside them? */
bool uapi_cc_outside(struct cc_state *s, const char *path, size_t len);
/*
 * Did the unit whose dependency file is @dep_path read a file outside?
 * 1 with @why ("it reads FILE, a file outside ..."), 0, -ENOENT (no such
 * dependency file) or -ENOMEM.
 */
int uapi_cc_unit_confined(struct cc_state *s, const char *dep_path, struct kd_buf *why);
/* "an error in FILE, a file outside ... (not shown)" into @out. 0 or -ENOMEM. */
int uapi_cc_hidden_error(const char *const *prefixes, const char *path, size_t len,
			 struct kd_buf *out);

#endif

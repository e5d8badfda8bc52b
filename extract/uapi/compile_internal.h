/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to extract/: the UAPI headers as user space compiles them. Every
 * header of a tree goes through the system C compiler for the kernel's
 * architecture: first each header alone (its outcome), then those that
 * compile alone with -g and unused types kept, a few dozen headers per
 * compiler run; the objects are linked into one ELF file whose DWARF the
 * type reader (extract/uapi/header-types.c) turns into the header view of
 * the types. Headers that cannot be compiled are failures with the
 * compiler's reason, never dropped silently.
 *
 * The result is cached by a content hash of the header tree and of the
 * compiler (compile-cache.c): a second run over the same tree costs no
 * compilation.
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

/* @path opened read-only, never blocking (a FIFO): the fd, -KD_ENOTREG unless a regular file. */
int uapi_cc_open_regular(const char *path, int flags, struct stat *st);
/*
 * The content hash and size of what @fd holds, read to its end but no
 * further than @max + 1 bytes (-KD_ELIMIT past @max; @max below
 * UINT64_MAX); what is read is also written to @copy_fd unless that is -1.
 * The hash does not depend on how the reads were split.
 */
int uapi_cc_hash_fd(int fd, uint64_t max, int copy_fd, uint64_t *hash, uint64_t *size);
/* The same of the regular file @path; larger than @max: -KD_ELIMIT, unread. */
int uapi_cc_file_hash(const char *path, uint64_t max, uint64_t *hash, uint64_t *size);
/* Write all @n bytes. 0 or -errno. */
int uapi_cc_write_all(int fd, const void *data, size_t n);
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
struct kd_buf;

/* The contents of @path, NUL-terminated (malloc'ed); NULL when unreadable. */
char *uapi_cc_read_text(const char *path);
/* Write @text to @path. 0 or -errno. */
int uapi_cc_write_text(const char *path, const char *text);
/* @cc as an absolute path (searched in PATH when it has no slash), malloc'ed; NULL: none. */
char *uapi_cc_find_program(const char *cc);
/*
 * Start @argv (argv[0] an absolute path; NULL-terminated) with stdout and
 * stderr into the files @out and @err (NULL: /dev/null), under CPU and
 * address-space limits. The pid, or -errno.
 */
int uapi_cc_spawn(char *const *argv, const char *out, const char *err);
/* Wait for @pid at most @seconds (then kill it); *status as waitpid() gives it. */
int uapi_cc_wait(int pid, int seconds, int *status);
/*
 * Run @argv and return its standard output in *out (malloc'ed). A non-zero
 * exit status is -EIO.
 */
int uapi_cc_run_capture(char *const *argv, char **out);
/*
 * A source tree's headers are not what headers_install writes: write into
 * @wrap the asm/ wrappers Kbuild would generate (every asm-generic header
 * the arch lacks), empty <linux/compiler*.h> and kabi-prelude.h, which
 * defines away the annotations headers_install strips.
 */
int uapi_cc_write_wrappers(const struct utree *tree, const char *wrap);
/* rm -r @dir (NULL is fine). */
void uapi_cc_remove_tree(const char *dir);
/*
 * Read the diagnostics of a failed batch (@src its file name): bad[i] is
 * set for each #include line (1-based, up to @nr_lines) an error came
 * through. @first_line1 receives the first error that came through line 1,
 * @first_any the first of the others; paths under one of @prefixes
 * (NULL-terminated) are shown relative to it. Returns the lines marked.
 */
size_t uapi_cc_parse_errors(const char *text, const char *src, const char *const *prefixes,
			    bool *bad, size_t nr_lines, struct kd_buf *first_line1,
			    struct kd_buf *first_any);
/*
 * Call @add with every prerequisite of a make dependency file's text, as
 * the compiler wrote it: relative to its working directory unless absolute.
 */
int uapi_cc_parse_deps(const char *text, int (*add)(const char *path, void *ctx), void *ctx);

/* --- the driver's state, shared by compile.c and compile-alone.c ---------- */
#include <sys/types.h>
#include <time.h>

#include "extract/uapi/uapi_internal.h"

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
	bool *alone_ok;			/* per names[]: compiles on its own (the first pass) */
	bool alone;			/* the first pass runs: one translation unit per header */
	size_t batch_headers;		/* headers per compiler run */
	char **objects;			/* compiled batches */
	size_t nr_objects, cap_objects;
	char **deps;			/* files the compiler read (from -MD), in arena */
	size_t nr_deps, cap_deps;
	struct umap dep_set;
	struct kd_arena arena;
	const char *prefixes[8];	/* shown tree-relative in messages: the tree's dirs, wrap */
	size_t cap_failures;
	int next_id;			/* batch file numbers */
};

struct batch {
	size_t *hdr;			/* indices into names */
	size_t n;
};

struct run {
	struct batch b;
	pid_t pid;
	int id;
	struct timespec start;
};

/* "WORKDIR/b<id>.<ext>" into @b (reset first). */
int uapi_cc_run_path(const struct cc_state *s, int id, const char *ext, struct kd_buf *b);
/* Start the compiler @argv for @run, its stderr into @errf; counted in nr_runs. */
int uapi_cc_launch(struct cc_state *s, struct run *run, char *const *argv, const char *errf);
/* Record @header as not compiling, with @message. */
int uapi_cc_add_failure(struct cc_state *s, const char *header, const char *message);
/* Record every file a dependency file (@path, written by -MD) names, for the cache. */
int uapi_cc_add_deps(struct cc_state *s, const char *path);
/* Queue @run's headers again as two halves (a run that failed without saying where). */
int uapi_cc_split(const struct run *run, struct batch *queue, size_t *nr_queue);
/*
 * The first pass (compile-alone.c): start one compiler for @run's headers,
 * each its own translation unit (-fsyntax-only); read its outcome into
 * s->alone_ok and the failures, requeueing what it did not get to.
 */
int uapi_cc_alone_start(struct cc_state *s, struct run *run);
int uapi_cc_alone_finish(struct cc_state *s, struct run *run, int status, struct batch *queue,
			 size_t *nr_queue);

#endif

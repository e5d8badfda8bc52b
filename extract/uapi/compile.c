// SPDX-License-Identifier: GPL-2.0-only
/*
 * The UAPI headers through the system C compiler; see compile_internal.h.
 *
 * Every header is a translation unit of its own (compile-alone.c): its
 * outcome and its layouts are what it gives alone, as the kernel's header
 * test compiles it, whatever the other headers of the tree do. Units go a
 * dozen to a compiler run, @jobs runs at a time; a run stopped on a header
 * (a limit) gives that header a failure and starts another with the units
 * it did not get to, so every run settles at least one header and the
 * number of runs is at most the number of headers plus the first runs.
 *
 * A tree is untrusted input, so the compilers are bounded: each process a
 * few CPU seconds, an address space that is a share of one total over the
 * jobs, and a size for each file it writes; each run a wall-clock limit;
 * all the runs of a tree a time budget, past which the headers not yet
 * compiled are failures. Each run is a process group, killed whole (gcc's
 * cc1 with it), and the work directory and the compilers are registered
 * with the fatal-signal cleanup (lib/tmpfile.c, lib/child.c).
 *
 * The objects are linked into one shared object: its DWARF needs no
 * relocation, so libdwarf reads it like a vmlinux, from the mapping.
 */
#include "extract/uapi/compile_internal.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "extract/uapi/uapi_internal.h"
#include "lib/arena.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/path.h"
#include "lib/str.h"
#include "lib/tmpfile.h"

/* Units per compiler run: fewer driver starts against more work lost to one stop. */
#define UNITS_PER_RUN 16
/* Each compiler process: CPU seconds (a header that includes itself 2^60 times). */
#define RUN_CPU_SECONDS 30
/* One run's wall clock (a header that includes a FIFO and waits). */
#define RUN_WALL_SECONDS 120
/* Every run of a tree: a wall-clock budget (N headers that each wait out RUN_WALL_SECONDS). */
#define BUDGET_SECONDS 900
/*
 * The address space of all compilers at once (#include </dev/zero>): each
 * process gets its share, at most 4 GiB and at least 1 GiB, so at most 8
 * run at once.
 */
#define MEMORY_TOTAL (8ull << 30)
#define MEMORY_PER_PROCESS_MAX (4ull << 30)
#define MEMORY_PER_PROCESS_MIN (1ull << 30)

extern char **environ;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* --- the compiler's command line ------------------------------------------- */

static int arg(struct cc_state *s, const char *fmt, const char *a, const char *b)
{
	struct kd_buf buf = KD_BUF_INIT;
	int err = KD_GROW(s->base_argv, s->cap_base, s->nr_base + 2);

	if (!err)
		err = kd_buf_addf(&buf, fmt, a, b);
	if (err) {
		kd_buf_release(&buf);
		return -ENOMEM;
	}
	s->base_argv[s->nr_base++] = kd_buf_detach(&buf);
	s->base_argv[s->nr_base] = NULL;
	return s->base_argv[s->nr_base - 1] ? 0 : -ENOMEM;
}

static int base_command(struct cc_state *s)
{
	const char *const *f;
	size_t i;
	int err;

	err = arg(s, "%s%s", s->cc, "");
	for (f = s->conf->arch->flags; !err && f && *f; f++)
		err = arg(s, "%s%s", *f, "");
	if (!err)
		err = arg(s, "%s%s", "-g", "");
	if (!err)
		err = arg(s, "%s%s", "-fno-eliminate-unused-debug-types", "");
	if (!err)
		err = arg(s, "%s%s", "-fPIC", "");
	if (!err)
		err = arg(s, "%s%s", "-w", "");
	if (!err)
		err = arg(s, "%s%s", "-fdiagnostics-plain-output", "");
	if (!err)
		err = arg(s, "%s%s", "-fmax-errors=200", "");
	/* The compiler runs in the work directory: the tree's directories by their real paths. */
	for (i = 0; !err && s->prefixes[i] && s->prefixes[i] != s->wrap; i++) {
		err = arg(s, "-I%s%s", s->prefixes[i], "");
		/* DW_AT_decl_file include-relative: "linux/input.h", whatever the tree's path. */
		if (!err)
			err = arg(s, "-ffile-prefix-map=%s/=%s", s->prefixes[i], "");
	}
	if (!err && s->wrap) {
		err = arg(s, "-I%s%s", s->wrap, "");
		if (!err)
			err = arg(s, "-ffile-prefix-map=%s/=%s", s->wrap, "");
		if (!err)
			err = arg(s, "%s%s", "-include", "");
		if (!err)
			err = arg(s, "%s/kabi-prelude.h%s", s->wrap, "");
	}
	return err;
}

/*
 * The compilers' environment: the caller's, but TMPDIR is the work
 * directory, so that what gcc writes there (its .s files) goes with it
 * when a compiler is killed or kabi-diff is stopped.
 */
static int compiler_env(struct cc_state *s)
{
	size_t n = 0, i, size;
	char **env;

	while (environ && environ[n])
		n++;
	env = kd_arena_alloc_array(&s->arena, n + 2, sizeof(*env));
	if (!env)
		return -ENOMEM;
	for (i = 0, n = 0; environ && environ[i]; i++)
		if (!kd_starts_with(environ[i], "TMPDIR="))
			env[n++] = environ[i];
	size = strlen(s->r->workdir) + sizeof("TMPDIR=");
	env[n] = kd_arena_alloc(&s->arena, size);
	if (!env[n])
		return -ENOMEM;
	snprintf(env[n++], size, "TMPDIR=%s", s->r->workdir);
	env[n] = NULL;
	s->env = env;
	return 0;
}

/* The bounds of this tree's compilers, for @jobs at once (which may lower it). */
static void set_limits(struct cc_state *s, int *jobs)
{
	const char *env = getenv("KABI_DIFF_TEST_UAPI_LIMITS");
	unsigned cpu, run, budget;

	if (*jobs > (int)(MEMORY_TOTAL / MEMORY_PER_PROCESS_MIN))
		*jobs = (int)(MEMORY_TOTAL / MEMORY_PER_PROCESS_MIN);
	s->limits = (struct uapi_cc_limits){
		.cpu_seconds = RUN_CPU_SECONDS,
		.run_seconds = RUN_WALL_SECONDS,
		.budget_seconds = BUDGET_SECONDS,
		.address_space = MEMORY_TOTAL / (uint64_t)*jobs < MEMORY_PER_PROCESS_MAX ?
				 MEMORY_TOTAL / (uint64_t)*jobs : MEMORY_PER_PROCESS_MAX,
	};
	/* The tests' knob, "CPU RUN BUDGET" seconds: only ever lower. */
	if (env && sscanf(env, "%u %u %u", &cpu, &run, &budget) == 3) {
		if (cpu && cpu < s->limits.cpu_seconds)
			s->limits.cpu_seconds = cpu;
		if (run && run < s->limits.run_seconds)
			s->limits.run_seconds = run;
		if (budget && budget < s->limits.budget_seconds)
			s->limits.budget_seconds = budget;
	}
}

/* --- runs ----------------------------------------------------------------- */

int uapi_cc_add_failure(struct cc_state *s, const char *header, const char *message)
{
	struct uapi_cc_failure *f;
	int err = KD_GROW(s->r->failures, s->cap_failures, s->r->nr_failures + 1);

	if (err)
		return err;
	f = &s->r->failures[s->r->nr_failures];
	f->header = kd_strdup(header);
	f->message = kd_strdup(message);
	if (!f->header || !f->message) {
		free(f->header);
		free(f->message);
		return -ENOMEM;
	}
	s->r->nr_failures++;
	return 0;
}

int uapi_cc_add_over_budget(struct cc_state *s, size_t h)
{
	struct kd_buf why = KD_BUF_INIT;
	int err = kd_buf_addf(&why, "the header view's time budget (%u s for all the"
			      " compiler runs of a tree) ran out", s->limits.budget_seconds);

	if (!err)
		err = uapi_cc_add_failure(s, s->names[h], why.s);
	kd_buf_release(&why);
	return err;
}

/*
 * Queue the @n headers not taken from the unit cache (@cached[h] false)
 * as runs of @per, the first run on top (taken first).
 */
static int queue_runs(struct batch *queue, size_t *nr_queue, size_t n, const bool *cached,
		      size_t per)
{
	size_t i = 0, first = *nr_queue;

	while (i < n) {
		size_t len = 0;
		size_t *h = kd_malloc_array(per, sizeof(*h));

		if (!h)
			return -ENOMEM;
		for (; i < n && len < per; i++)
			if (!cached || !cached[i])
				h[len++] = i;
		if (!len) {
			free(h);
			break;
		}
		queue[(*nr_queue)++] = (struct batch){ h, len };
	}
	for (i = 0; i < (*nr_queue - first) / 2; i++) {
		struct batch t = queue[first + i];

		queue[first + i] = queue[*nr_queue - 1 - i];
		queue[*nr_queue - 1 - i] = t;
	}
	return 0;
}

/* The budget ran out: the runs are stopped, the headers not compiled fail. */
static int stop_all(struct cc_state *s, struct run *runs, int jobs, struct batch *queue,
		    size_t *nr_queue)
{
	struct kd_child_status st;
	size_t i, k;
	int err = 0;

	for (i = 0; i < (size_t)jobs; i++) {
		if (!runs[i].child.pid)
			continue;
		kd_child_kill(&runs[i].child, &st);
		if (!err)
			err = uapi_cc_alone_finish(s, &runs[i], &st, true, queue, nr_queue);
	}
	while (*nr_queue) {
		struct batch b = queue[--*nr_queue];

		for (k = 0; !err && k < b.n; k++)
			err = uapi_cc_add_over_budget(s, b.hdr[k]);
		free(b.hdr);
	}
	return err;
}

/* Run every header's unit, @jobs compilers at a time, within the budget. */
static int run_all(struct cc_state *s, int jobs)
{
	struct batch *queue;
	struct run *runs;
	size_t nr_queue = 0, i, running = 0;
	int err = 0;

	/* Each header is in at most one queued batch, and a batch holds at least one. */
	queue = kd_calloc(s->nr_names + 2, sizeof(*queue));
	runs = kd_calloc((size_t)jobs, sizeof(*runs));
	if (!queue || !runs) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < (size_t)jobs; i++)
		runs[i].diag = (struct kd_buf)KD_BUF_INIT;
	err = queue_runs(queue, &nr_queue, s->nr_names, s->unit_cached, s->units_per_run);
	while (!err) {
		bool settled = false;

		if (now_ns() >= s->budget_end_ns) {
			err = stop_all(s, runs, jobs, queue, &nr_queue);
			break;
		}
		for (i = 0; !err && i < (size_t)jobs && nr_queue; i++) {
			if (runs[i].child.pid)
				continue;
			runs[i].b = queue[--nr_queue];
			err = uapi_cc_alone_start(s, &runs[i]);
			if (err) {
				free(runs[i].b.hdr);
				runs[i].b.hdr = NULL;
			} else {
				running++;
			}
		}
		if (err || !running)
			break;
		for (i = 0; !err && i < (size_t)jobs; i++) {
			struct kd_child_status st;
			int r;

			if (!runs[i].child.pid)
				continue;
			r = kd_child_poll(&runs[i].child, &st);
			if (r < 0) {
				kd_err("%s: waiting for the compiler: %s", s->cc, kd_strerror(r));
				err = r;
			} else if (r) {
				running--;
				settled = true;
				err = uapi_cc_alone_finish(s, &runs[i], &st,
							   st.end == KD_CHILD_TIMED_OUT &&
							   now_ns() >= s->budget_end_ns, queue, &nr_queue);
			}
		}
		if (!settled && !err)
			nanosleep(&(struct timespec){ 0, 2 * 1000 * 1000 }, NULL);
	}
out:
	for (i = 0; runs && i < (size_t)jobs; i++) {
		kd_child_kill(&runs[i].child, NULL);
		free(runs[i].b.hdr);
		kd_buf_release(&runs[i].diag);
	}
	while (queue && nr_queue)
		free(queue[--nr_queue].hdr);
	free(queue);
	free(runs);
	if (err == -ENOMEM)
		kd_err("out of memory compiling the UAPI headers");
	return err;
}

/* Link the objects into one shared object (DWARF with its relocations applied). */
static int link_objects(struct cc_state *s, const char *dest)
{
	struct kd_buf diag = KD_BUF_INIT, why = KD_BUF_INIT;
	const char *const *f;
	struct kd_child_status st;
	char **argv;
	size_t n = 0, i;
	int err;

	argv = kd_calloc(s->nr_objects + 16, sizeof(*argv));
	if (!argv) {
		err = -ENOMEM;
		goto out;
	}
	argv[n++] = s->cc;
	for (f = s->conf->arch->flags; f && *f; f++)
		argv[n++] = (char *)*f;
	argv[n++] = "-shared";
	argv[n++] = "-nostdlib";
	argv[n++] = "-Wl,--allow-multiple-definition";
	argv[n++] = "-o";
	argv[n++] = (char *)dest;
	for (i = 0; i < s->nr_objects; i++)
		argv[n++] = s->objects[i];
	argv[n] = NULL;
	s->r->nr_runs++;
	/* Alone now: the whole memory, and room for every object's bytes. */
	err = kd_child_run(&(struct kd_child_conf){
				   .argv = argv,
				   .envp = s->env,
				   .cwd = s->r->workdir,
				   .err = { KD_CHILD_CAPTURE, NULL, &diag, UAPI_CC_MAX_DIAG },
				   .timeout_ms = s->limits.run_seconds * 1000u,
				   .cpu_seconds = s->limits.cpu_seconds * 4,
				   .address_space = MEMORY_TOTAL / 2,
				   .file_size = 2 * UAPI_CC_MAX_OBJECTS,
			   }, &st);
	if (err) {
		kd_err("%s: cannot run: %s", s->cc, kd_strerror(err));
	} else if (!kd_child_succeeded(&st)) {
		kd_child_describe(&st, s->limits.run_seconds * 1000u, &why);
		kd_err("%s: linking the compiled UAPI headers failed (%s): %.*s", s->cc, why.s,
		       (int)strcspn(diag.s, "\n"), diag.s);
		err = -EIO;
	}
out:
	free(argv);
	kd_buf_release(&diag);
	kd_buf_release(&why);
	return err;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Names an #include line can carry: no quoting trouble, no '>' or newline. */
static bool safe_name(const char *name)
{
	const char *p;

	for (p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      strchr("_-+./,@", *p)))
			return false;
	return *name && name[0] != '/';
}

static int list_roots(struct cc_state *s)
{
	size_t i;
	int err = 0;

	s->names = kd_calloc(s->tree->nr_roots + 1, sizeof(*s->names));
	if (!s->names)
		return -ENOMEM;
	for (i = 0; !err && i < s->tree->nr_roots; i++) {
		const char *name = s->tree->roots[i];

		if (uapi_cc_arch_skips(s->conf->arch, name))
			continue;
		s->r->nr_headers++;
		if (safe_name(name))
			s->names[s->nr_names++] = name;
		else
			err = uapi_cc_add_failure(s, name, "not compiled: the file name has characters an"
					  " #include line cannot carry");
	}
	if (s->nr_names)
		qsort(s->names, s->nr_names, sizeof(*s->names), cmp_name);
	return err;
}

static int cmp_object(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_failure(const void *a, const void *b)
{
	const struct uapi_cc_failure *x = a, *y = b;

	return strcmp(x->header, y->header);
}

/* Units per compiler run; $KABI_DIFF_UAPI_BATCH for the tests: the outcome must not depend on it. */
static size_t units_per_run(void)
{
	const char *env = getenv("KABI_DIFF_UAPI_BATCH");
	long n = env && *env ? strtol(env, NULL, 10) : 0;

	return n >= 1 && n <= 4096 ? (size_t)n : UNITS_PER_RUN;
}

/* The work directory, registered for removal on a fatal signal. */
static int make_workdir(struct cc_state *s)
{
	int err = kd_tmpdir_create(NULL, UAPI_CC_WORKDIR, &s->r->workdir);

	if (err && err != -ENOMEM)
		kd_err("cannot create a directory to compile the UAPI headers in: %s", kd_strerror(err));
	return err;
}

/* The tree's directories by their real paths (the compiler runs elsewhere), and the wrappers. */
static int tree_dirs(struct cc_state *s)
{
	int i;

	for (i = 0; i < s->tree->nr_dirs && i < 6; i++) {
		char *real = realpath(s->tree->dirs[i], NULL);

		s->prefixes[i] = kd_arena_strdup(&s->arena, real ? real : s->tree->dirs[i]);
		free(real);
		if (!s->prefixes[i])
			return -ENOMEM;
	}
	s->prefixes[i] = s->wrap;
	return 0;
}

/*
 * Can @s->cc compile a program for this ABI at all? gcc -m32 without
 * the C library's 32-bit headers (Debian: libc6-dev-i386) has no <sys/types.h>: every header that reaches
 * the C library would fail, and the view would say those types are gone.
 * 1 yes, 0 no (s->r->not_compiled says why), or a negative code.
 */
static int libc_usable(struct cc_state *s)
{
	char *argv[12], *out = NULL;
	struct kd_buf why = KD_BUF_INIT;
	const char *const *f;
	size_t n = 0;
	int err;

	argv[n++] = s->cc;
	for (f = s->conf->arch->flags; f && *f && n < 4; f++)
		argv[n++] = (char *)*f;
	argv[n++] = "-fsyntax-only";
	argv[n++] = "-include";
	argv[n++] = "sys/types.h";
	argv[n++] = "-xc";
	argv[n++] = "/dev/null";
	argv[n] = NULL;
	err = uapi_cc_run_capture(argv, &out);
	free(out);
	if (err != -EIO)
		return err ? err : 1;
	err = kd_buf_addf(&why, "%s %s: cannot compile for %s user space (no C library for it;"
			  " Debian: apt-get install libc6-dev-i386)", s->cc,
			  s->conf->arch->flags && s->conf->arch->flags[0] ? s->conf->arch->flags[0] : "",
			  s->conf->arch->name);
	s->r->not_compiled = err ? NULL : kd_buf_detach(&why);
	kd_buf_release(&why);
	return s->r->not_compiled ? 0 : -ENOMEM;
}

/*
 * Is the result settled before any header is compiled: no compiler (the
 * types come from DWARF only), every header as the cache has it (*@cache:
 * the cache, NULL when not used), or no C library for this ABI? 1 yes, 0
 * no, or a negative code.
 */
static int settled_early(struct cc_state *s, struct uapi_cc_cache **cache)
{
	const struct uapi_cc_conf *conf = s->conf;
	bool hit = false;
	int err;

	s->cc = uapi_cc_find_program(conf->arch->cc);
	if (!s->cc) {
		struct kd_buf why = KD_BUF_INIT;

		err = kd_buf_addf(&why, "%s: C compiler not found (Debian: apt-get install gcc, or set"
				  " KABI_DIFF_CC): the headers' types come from the kernel's DWARF only",
				  conf->arch->cc);
		s->r->not_compiled = kd_buf_detach(&why);
		return err || !s->r->not_compiled ? -ENOMEM : 1;
	}
	if (conf->use_cache) {
		err = uapi_cc_cache__lookup(s->tree, conf, s->cc, cache, s->r, &hit);
		if (err || hit)
			return err ? err : 1;
	}
	if (conf->arch->check_libc) {
		err = libc_usable(s);
		if (err <= 0)
			return err < 0 ? err : 1;
	}
	return 0;
}

/* The work directory, the wrappers of a source tree, the command line and the headers to compile. */
static int prepare_runs(struct cc_state *s)
{
	int err = make_workdir(s);

	if (err)
		return err;
	if (s->tree->source_layout) {
		s->wrap = kd_path_join(s->r->workdir, "wrap");
		err = !s->wrap ? -ENOMEM : mkdir(s->wrap, 0700) ? -errno : 0;
		if (!err)
			err = uapi_cc_write_wrappers(s->tree, s->wrap);
		if (err)
			return err;
	}
	err = tree_dirs(s);
	if (!err)
		err = compiler_env(s);
	if (!err)
		err = uapi_cc_confine_init(s);
	if (!err)
		err = base_command(s);
	return err ? err : list_roots(s);
}

/* The headers the cache (may be NULL) does not have, @jobs runs at a time; then cached. */
static int compile_units(struct cc_state *s, struct uapi_cc_cache *cache, int jobs)
{
	uint64_t start;
	int err = 0;

	/* Headers whose every input is as a cached unit recorded it are not compiled. */
	if (cache && s->nr_names)
		err = uapi_cc_units_lookup(cache, s);
	if (err)
		return err;
	/* Named by the view's ABI: the i386 view compiles beside the native one. */
	if (s->conf->progress && s->nr_names > s->r->nr_cached)
		kd_progress("compiling %zu of %zu UAPI headers for %s, %zu cached (%s, %d at a time)",
			s->nr_names - s->r->nr_cached, s->nr_names, s->conf->arch->name,
			s->r->nr_cached, s->cc, jobs);
	s->units_per_run = units_per_run();
	start = now_ns();
	s->budget_end_ns = start + s->limits.budget_seconds * 1000000000ull;
	s->r->nr_units = s->nr_names - s->r->nr_cached;
	if (s->r->nr_units)
		err = run_all(s, jobs);
	if (!err && s->conf->progress && s->r->nr_units) {
		double secs = (double)(now_ns() - start) / 1e9;

		kd_progress("compiled %zu UAPI headers for %s in %.1f s (%.0f a second)",
			s->r->nr_units, s->conf->arch->name, secs, secs > 0 ? (double)s->r->nr_units / secs : 0.0);
	}
	if (!err && cache && s->nr_names)
		err = uapi_cc_units_store(cache, s);
	return err;
}

/* The failures sorted, the objects linked into s->r->object. */
static int link_result(struct cc_state *s)
{
	struct kd_buf dest = KD_BUF_INIT;
	int err;

	/* In the order of the names, whichever compiler finished first. */
	if (s->r->nr_failures)
		qsort(s->r->failures, s->r->nr_failures, sizeof(*s->r->failures), cmp_failure);
	if (!s->nr_objects)
		return 0;
	/* In the order of the headers: the first declaration of a name answers sizeof. */
	qsort(s->objects, s->nr_objects, sizeof(*s->objects), cmp_object);
	err = kd_buf_addf(&dest, "%s/headers.so", s->r->workdir);
	if (!err)
		err = link_objects(s, dest.s);
	if (!err) {
		s->r->object = kd_buf_detach(&dest);
		err = s->r->object ? 0 : -ENOMEM;
	}
	kd_buf_release(&dest);
	return err;
}

/* Everything @s holds, its result too unless handed out. */
static void cc_state_release(struct cc_state *s)
{
	size_t i;

	uapi_cc_result__free(s->r);
	for (i = 0; i < s->nr_base; i++)
		free(s->base_argv[i]);
	free(s->base_argv);
	for (i = 0; i < s->nr_objects; i++)
		free(s->objects[i]);
	free(s->objects);
	free(s->deps);
	umap_release(&s->dep_set);
	umap_release(&s->confined);
	free(s->allowed);
	kd_arena_release(&s->arena);
	free(s->names);
	free(s->unit_cached);
	free(s->wrap);
	free(s->cc);
}

int uapi_cc__compile(const struct utree *tree, const struct uapi_cc_conf *conf,
		     struct uapi_cc_result **out)
{
	struct cc_state s = { .tree = tree, .conf = conf };
	struct uapi_cc_cache *cache = NULL;
	int jobs = conf->jobs > 0 ? conf->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	int err;

	*out = NULL;
	s.r = kd_calloc(1, sizeof(*s.r));
	if (!s.r)
		return -ENOMEM;
	if (jobs < 1)
		jobs = 1;
	set_limits(&s, &jobs);
	err = settled_early(&s, &cache);
	if (err > 0)
		goto done;
	if (!err)
		err = prepare_runs(&s);
	if (!err)
		err = compile_units(&s, cache, jobs);
	if (!err)
		err = link_result(&s);
	if (err)
		goto fail;
	if (cache)
		uapi_cc_cache__store(cache, s.r, s.deps, s.nr_deps);
done:
	*out = s.r;
	s.r = NULL;
	err = 0;
fail:
	if (err == -ENOMEM)
		kd_err("out of memory compiling the UAPI headers");
	uapi_cc_cache__free(cache);
	cc_state_release(&s);
	return err;
}

void uapi_cc_result__free(struct uapi_cc_result *r)
{
	size_t i;

	if (!r)
		return;
	kd_tmpdir_remove(r->workdir);
	free(r->object);
	free(r->not_compiled);
	for (i = 0; i < r->nr_failures; i++) {
		free(r->failures[i].header);
		free(r->failures[i].message);
	}
	free(r->failures);
	free(r);
}

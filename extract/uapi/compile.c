// SPDX-License-Identifier: GPL-2.0-only
/*
 * The UAPI headers through the system C compiler; see compile.h.
 *
 * First every header alone (compile-alone.c): what a header gives on its
 * own, as the kernel's header test compiles it, is its outcome; a header
 * that fails alone is a failure with the compiler's first error, whatever
 * an earlier header of a batch would have supplied. Then the headers that
 * compile alone, for their DWARF: a translation unit per batch of headers
 * ("#include <linux/a.h>" lines), compiled with -g
 * -fno-eliminate-unused-debug-types: one compiler start reads dozens of
 * headers, where one per header would cost ~40 ms each with -g.
 * Headers that compile alone can still clash inside a batch (glibc's
 * <sys/time.h> against <linux/time.h>; big- against little-endian
 * byteorder). The compiler's diagnostics say which #include line of the
 * batch each error came through; those headers leave the batch for a
 * later one and the rest is compiled again. An error through the batch's
 * first line cannot be a clash -- nothing came before it -- so that header
 * does not compile alone: a failure with the compiler's first error. A
 * compiler that dies without a diagnostic (a signal, the time limit)
 * splits its batch in halves until the header that does it is alone.
 * Every run either completes a batch or takes a header out of it, so the
 * number of runs is at most the number of headers plus the batches.
 *
 * The objects are linked into one shared object: its DWARF needs no
 * relocation, so libdwarf reads it like a vmlinux, from the mapping.
 */
#include "extract/uapi/compile_internal.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "extract/uapi/uapi_internal.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/path.h"

/* Headers per compiler run: fewer starts against fewer clashes to untangle. */
#define BATCH_HEADERS 64
/* One compiler run's wall-clock seconds (a header that includes a FIFO). */
#define RUN_WALL_SECONDS 300

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
	int i, err;

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
	for (i = 0; !err && i < s->tree->nr_dirs; i++) {
		err = arg(s, "-I%s%s", s->tree->dirs[i], "");
		/* DW_AT_decl_file include-relative: "linux/input.h", whatever the tree's path. */
		if (!err)
			err = arg(s, "-ffile-prefix-map=%s/=%s", s->tree->dirs[i], "");
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

/* --- batches -------------------------------------------------------------- */

int uapi_cc_run_path(const struct cc_state *s, int id, const char *ext, struct kd_buf *b)
{
	kd_buf_reset(b);
	return kd_buf_addf(b, "%s/b%d.%s", s->r->workdir, id, ext);
}

int uapi_cc_launch(struct cc_state *s, struct run *run, char *const *argv, const char *errf)
{
	int err = 0;

	clock_gettime(CLOCK_MONOTONIC, &run->start);
	run->pid = uapi_cc_spawn(argv, NULL, errf);
	s->r->nr_runs++;
	if (run->pid < 0) {
		err = (int)run->pid;
		run->pid = 0;
		kd_err("%s: cannot run: %s", s->cc, kd_strerror(err));
	}
	return err;
}

static int start_batch(struct cc_state *s, struct run *run)
{
	struct kd_buf src = KD_BUF_INIT, obj = KD_BUF_INIT, errf = KD_BUF_INIT, dep = KD_BUF_INIT,
		      text = KD_BUF_INIT;
	char **argv = NULL;
	size_t i, n = 0;
	int err;

	run->id = s->next_id++;
	if (s->alone)
		return uapi_cc_alone_start(s, run);
	err = uapi_cc_run_path(s, run->id, "c", &src);
	if (!err)
		err = uapi_cc_run_path(s, run->id, "o", &obj);
	if (!err)
		err = uapi_cc_run_path(s, run->id, "err", &errf);
	if (!err)
		err = uapi_cc_run_path(s, run->id, "d", &dep);
	for (i = 0; !err && i < run->b.n; i++)
		err = kd_buf_addf(&text, "#include <%s>\n", s->names[run->b.hdr[i]]);
	if (err)
		goto out;
	err = uapi_cc_write_text(src.s, text.s);
	if (err) {
		kd_err("%s: cannot write: %s", src.s, kd_strerror(err));
		goto out;
	}
	argv = kd_calloc(s->nr_base + 10, sizeof(*argv));
	if (!argv) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < s->nr_base; i++)
		argv[n++] = s->base_argv[i];
	argv[n++] = "-MD";
	argv[n++] = "-MF";
	argv[n++] = dep.s;
	argv[n++] = "-c";
	argv[n++] = "-o";
	argv[n++] = obj.s;
	argv[n++] = src.s;
	argv[n] = NULL;
	err = uapi_cc_launch(s, run, argv, errf.s);
out:
	free(argv);
	kd_buf_release(&src);
	kd_buf_release(&obj);
	kd_buf_release(&errf);
	kd_buf_release(&dep);
	kd_buf_release(&text);
	return err;
}

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

/* Record one file the compiler read (from a batch's dependency file). */
static int add_dep(const char *path, void *ctx)
{
	struct cc_state *s = ctx;
	size_t len = strlen(path), wlen = strlen(s->r->workdir);
	char *key;

	/* The batch files and the generated wrappers are made from the tree. */
	if (!strncmp(path, s->r->workdir, wlen) && path[wlen] == '/')
		return 0;
	if (umap_get(&s->dep_set, path, len))
		return 0;
	key = kd_arena_strndup(&s->arena, path, len);
	if (!key || KD_GROW(s->deps, s->cap_deps, s->nr_deps + 1))
		return -ENOMEM;
	s->deps[s->nr_deps++] = key;
	return umap_put(&s->dep_set, key, len, key);
}

int uapi_cc_add_deps(struct cc_state *s, const char *path)
{
	char *text = uapi_cc_read_text(path);
	int err = text ? uapi_cc_parse_deps(text, add_dep, s) : -EIO;

	free(text);
	return err;
}

int uapi_cc_split(const struct run *run, struct batch *queue, size_t *nr_queue)
{
	struct batch keep = { NULL, run->b.n - run->b.n / 2 };

	keep.hdr = kd_malloc(keep.n * sizeof(*keep.hdr));
	if (!keep.hdr) {
		free(run->b.hdr);
		return -ENOMEM;
	}
	memcpy(keep.hdr, run->b.hdr + run->b.n / 2, keep.n * sizeof(*keep.hdr));
	queue[(*nr_queue)++] = (struct batch){ run->b.hdr, run->b.n / 2 };
	queue[(*nr_queue)++] = keep;
	return 0;
}

static int finish_batch(struct cc_state *s, struct run *run, int status, struct batch *queue,
			size_t *nr_queue, struct batch *evicted)
{
	struct kd_buf errf = KD_BUF_INIT, obj = KD_BUF_INIT, first1 = KD_BUF_INIT,
		      first = KD_BUF_INIT, srcname = KD_BUF_INIT;
	struct batch keep = { 0 };
	char *text = NULL;
	bool *bad = NULL;
	size_t i, marked;
	int err;

	err = uapi_cc_run_path(s, run->id, "o", &obj);
	if (!err && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		err = KD_GROW(s->objects, s->cap_objects, s->nr_objects + 1);
		if (!err) {
			s->objects[s->nr_objects] = kd_buf_detach(&obj);
			err = s->objects[s->nr_objects] ? 0 : -ENOMEM;
		}
		if (!err) {
			s->nr_objects++;
			s->r->nr_compiled += run->b.n;
			err = uapi_cc_run_path(s, run->id, "d", &obj);
		}
		if (!err)
			err = uapi_cc_add_deps(s, obj.s);
		free(run->b.hdr);
		goto out;
	}
	if (!err)
		err = uapi_cc_run_path(s, run->id, "err", &errf);
	if (!err)
		err = uapi_cc_run_path(s, run->id, "c", &srcname);
	if (err)
		goto out;
	text = uapi_cc_read_text(errf.s);
	bad = kd_calloc(run->b.n, sizeof(*bad));
	if (!text || !bad) {
		err = -ENOMEM;
		goto out;
	}
	marked = uapi_cc_parse_errors(text, srcname.s, s->prefixes, bad, run->b.n, &first1, &first);
	if (!marked) {
		/* No error tied to a line: killed, a crash, or trouble outside the headers. */
		const char *why = first.len ? first.s :
				  WIFSIGNALED(status) ? "the compiler was killed (time or memory limit)" :
				  "the compiler failed without a diagnostic";

		if (run->b.n == 1 || first.len) {
			for (i = 0; !err && i < run->b.n; i++)
				err = uapi_cc_add_failure(s, s->names[run->b.hdr[i]], why);
			free(run->b.hdr);
			goto out;
		}
		err = uapi_cc_split(run, queue, nr_queue);
		goto out;
	}
	keep.hdr = kd_malloc(run->b.n * sizeof(*keep.hdr));
	if (!keep.hdr) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; !err && i < run->b.n; i++) {
		if (!bad[i])
			keep.hdr[keep.n++] = run->b.hdr[i];
		else if (i == 0)
			err = uapi_cc_add_failure(s, s->names[run->b.hdr[i]],
					  first1.len ? first1.s : "does not compile");
		else
			evicted->hdr[evicted->n++] = run->b.hdr[i];
	}
	free(run->b.hdr);
	if (err || !keep.n)
		free(keep.hdr);
	else
		queue[(*nr_queue)++] = keep;
out:
	run->b.hdr = NULL;
	free(text);
	free(bad);
	kd_buf_release(&errf);
	kd_buf_release(&obj);
	kd_buf_release(&first1);
	kd_buf_release(&first);
	kd_buf_release(&srcname);
	return err;
}

static int cmp_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* Queue @n headers as batches of @per, last batch on top (taken first). */
static int queue_batches(struct batch *queue, size_t *nr_queue, const size_t *hdr, size_t n,
			 size_t per)
{
	size_t i, first = *nr_queue;

	for (i = 0; i < n; i += per) {
		size_t len = n - i < per ? n - i : per;
		size_t *h = kd_malloc(len * sizeof(*h));

		if (!h)
			return -ENOMEM;
		memcpy(h, hdr + i, len * sizeof(*h));
		queue[(*nr_queue)++] = (struct batch){ h, len };
	}
	/* The queue is a stack: reverse so the first batch starts first. */
	for (i = 0; i < (*nr_queue - first) / 2; i++) {
		struct batch t = queue[first + i];

		queue[first + i] = queue[*nr_queue - 1 - i];
		queue[*nr_queue - 1 - i] = t;
	}
	return 0;
}

/* Run every batch to completion, @jobs compilers at a time. */
static int run_batches(struct cc_state *s, int jobs)
{
	struct batch *queue;
	struct batch evicted = { 0 };
	struct run *runs;
	size_t nr_queue = 0, i, running = 0;
	int err = 0;

	/* Each header is in at most one queued batch, and a batch holds at least one. */
	queue = kd_calloc(s->nr_names + 2, sizeof(*queue));
	runs = kd_calloc((size_t)jobs, sizeof(*runs));
	evicted.hdr = kd_calloc(s->nr_names + 1, sizeof(*evicted.hdr));
	if (!queue || !runs || !evicted.hdr) {
		err = -ENOMEM;
		goto out;
	}
	/* The second pass compiles the headers that compile alone. */
	for (i = 0; i < s->nr_names; i++)
		if (s->alone || s->alone_ok[i])
			evicted.hdr[evicted.n++] = i;
	for (;;) {
		/*
		 * A round ends when its batches are done; the headers it evicted
		 * form the next one. Rounds keep the batches, and so the result,
		 * the same whatever order the compilers finish in.
		 */
		if (!nr_queue && !running && evicted.n) {
			qsort(evicted.hdr, evicted.n, sizeof(*evicted.hdr), cmp_index);
			err = queue_batches(queue, &nr_queue, evicted.hdr, evicted.n,
					    s->batch_headers);
			evicted.n = 0;
			if (err)
				break;
		}
		for (i = 0; !err && i < (size_t)jobs && nr_queue; i++) {
			if (runs[i].pid)
				continue;
			runs[i].b = queue[--nr_queue];
			err = start_batch(s, &runs[i]);
			if (err) {
				free(runs[i].b.hdr);
				runs[i].b.hdr = NULL;
			} else {
				running++;
			}
		}
		if (err || !running)
			break;
		for (;;) {
			struct timespec nap = { 0, 2 * 1000 * 1000 }, now;
			bool done = false;

			for (i = 0; i < (size_t)jobs && !done; i++) {
				int status;
				pid_t r;

				if (!runs[i].pid)
					continue;
				r = waitpid(runs[i].pid, &status, WNOHANG);
				clock_gettime(CLOCK_MONOTONIC, &now);
				if (r == 0 && now.tv_sec - runs[i].start.tv_sec > RUN_WALL_SECONDS) {
					kill(runs[i].pid, SIGKILL);
					continue;
				}
				if (r == 0 || (r < 0 && errno == EINTR))
					continue;
				runs[i].pid = 0;
				running--;
				done = true;
				if (r < 0) {
					err = -errno;
					free(runs[i].b.hdr);
					runs[i].b.hdr = NULL;
				} else {
					err = s->alone ? uapi_cc_alone_finish(s, &runs[i], status, queue,
									      &nr_queue) :
						finish_batch(s, &runs[i], status, queue, &nr_queue, &evicted);
				}
			}
			if (done || err)
				break;
			nanosleep(&nap, NULL);
		}
		if (err)
			break;
	}
out:
	/* On an error, let the running compilers finish rather than leave zombies. */
	for (i = 0; runs && i < (size_t)jobs; i++) {
		if (runs[i].pid) {
			int status;

			kill(runs[i].pid, SIGKILL);
			while (waitpid(runs[i].pid, &status, 0) < 0 && errno == EINTR)
				;
		}
		free(runs[i].b.hdr);
	}
	while (queue && nr_queue)
		free(queue[--nr_queue].hdr);
	free(queue);
	free(runs);
	free(evicted.hdr);
	if (err == -ENOMEM)
		kd_err("out of memory compiling the UAPI headers");
	return err;
}

/* Link the batch objects into one shared object (DWARF with its relocations applied). */
static int link_objects(struct cc_state *s, const char *dest)
{
	struct kd_buf errf = KD_BUF_INIT;
	const char *const *f;
	char **argv;
	size_t n = 0, i;
	int status = 0, err;
	pid_t pid;

	argv = kd_calloc(s->nr_objects + 16, sizeof(*argv));
	if (!argv || kd_buf_addf(&errf, "%s/link.err", s->r->workdir)) {
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
	pid = uapi_cc_spawn(argv, NULL, errf.s);
	s->r->nr_runs++;
	err = pid < 0 ? (int)pid : uapi_cc_wait(pid, RUN_WALL_SECONDS, &status);
	if (!err && (!WIFEXITED(status) || WEXITSTATUS(status))) {
		char *text = uapi_cc_read_text(errf.s);

		kd_err("%s: linking the compiled UAPI headers failed: %.*s", s->cc,
		       text ? (int)strcspn(text, "\n") : 0, text ? text : "");
		free(text);
		err = -EIO;
	}
out:
	free(argv);
	kd_buf_release(&errf);
	return err;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Names a batch line can carry: no quoting trouble, no '>' or newline. */
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

/* Headers per compiler run; $KABI_DIFF_UAPI_BATCH for the tests: the outcome must not depend on it. */
static size_t batch_headers(void)
{
	const char *env = getenv("KABI_DIFF_UAPI_BATCH");
	long n = env && *env ? strtol(env, NULL, 10) : 0;

	return n >= 1 && n <= 4096 ? (size_t)n : BATCH_HEADERS;
}

int uapi_cc__compile(const struct utree *tree, const struct uapi_cc_conf *conf,
		     struct uapi_cc_result **out)
{
	struct cc_state s = { .tree = tree, .conf = conf };
	struct uapi_cc_cache *cache = NULL;
	struct kd_buf dest = KD_BUF_INIT;
	const char *tmp = getenv("TMPDIR");
	int jobs = conf->jobs > 0 ? conf->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	bool hit = false;
	size_t i;
	int err;

	*out = NULL;
	s.r = kd_calloc(1, sizeof(*s.r));
	if (!s.r)
		return -ENOMEM;
	if (jobs < 1)
		jobs = 1;
	s.cc = uapi_cc_find_program(conf->arch->cc);
	if (!s.cc) {
		struct kd_buf why = KD_BUF_INIT;

		err = kd_buf_addf(&why, "%s: C compiler not found (Debian: apt-get install gcc, or set"
				  " KABI_DIFF_CC): the headers' types come from the kernel's DWARF only",
				  conf->arch->cc);
		s.r->not_compiled = kd_buf_detach(&why);
		if (err || !s.r->not_compiled) {
			err = -ENOMEM;
			goto fail;
		}
		goto done;
	}
	if (conf->use_cache) {
		err = uapi_cc_cache__lookup(tree, conf, s.cc, &cache, s.r, &hit);
		if (err)
			goto fail;
		if (hit)
			goto done;
	}
	err = kd_buf_addf(&dest, "%s/kabi-uapi.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (err)
		goto fail;
	s.r->workdir = kd_buf_detach(&dest);
	if (!s.r->workdir || !mkdtemp(s.r->workdir)) {
		err = s.r->workdir ? -errno : -ENOMEM;
		kd_err("cannot create a directory to compile the UAPI headers in: %s", kd_strerror(err));
		free(s.r->workdir);
		s.r->workdir = NULL;
		goto fail;
	}
	if (tree->source_layout) {
		s.wrap = kd_path_join(s.r->workdir, "wrap");
		err = !s.wrap ? -ENOMEM : mkdir(s.wrap, 0700) ? -errno : 0;
		if (!err)
			err = uapi_cc_write_wrappers(tree, s.wrap);
		if (err)
			goto fail;
	}
	for (i = 0; i < (size_t)tree->nr_dirs && i < 6; i++)
		s.prefixes[i] = tree->dirs[i];
	s.prefixes[i] = s.wrap;
	err = base_command(&s);
	if (!err)
		err = list_roots(&s);
	if (err)
		goto fail;
	if (conf->progress && s.nr_names)
		kd_progress("compiling %zu UAPI headers (%s, %d at a time)",
			s.nr_names, s.cc, jobs);
	s.batch_headers = batch_headers();
	s.alone_ok = kd_calloc(s.nr_names + 1, sizeof(*s.alone_ok));
	if (!s.alone_ok) {
		err = -ENOMEM;
		goto fail;
	}
	/* First every header alone, then those that compile alone in batches. */
	s.alone = true;
	if (s.nr_names)
		err = run_batches(&s, jobs);
	s.alone = false;
	if (!err && s.nr_names)
		err = run_batches(&s, jobs);
	if (err)
		goto fail;
	/* In the order of the names, whichever compiler finished first. */
	if (s.r->nr_failures)
		qsort(s.r->failures, s.r->nr_failures, sizeof(*s.r->failures), cmp_failure);
	if (s.nr_objects) {
		/* In the order the batches started, whichever compiler finished first. */
		qsort(s.objects, s.nr_objects, sizeof(*s.objects), cmp_object);
		err = kd_buf_addf(&dest, "%s/headers.so", s.r->workdir);
		if (!err)
			err = link_objects(&s, dest.s);
		if (err)
			goto fail;
		s.r->object = kd_buf_detach(&dest);
		if (!s.r->object) {
			err = -ENOMEM;
			goto fail;
		}
	}
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
	uapi_cc_result__free(s.r);
	for (i = 0; i < s.nr_base; i++)
		free(s.base_argv[i]);
	free(s.base_argv);
	for (i = 0; i < s.nr_objects; i++)
		free(s.objects[i]);
	free(s.objects);
	free(s.deps);
	umap_release(&s.dep_set);
	kd_arena_release(&s.arena);
	free(s.names);
	free(s.alone_ok);
	free(s.wrap);
	free(s.cc);
	kd_buf_release(&dest);
	return err;
}

void uapi_cc_result__free(struct uapi_cc_result *r)
{
	size_t i;

	if (!r)
		return;
	uapi_cc_remove_tree(r->workdir);
	free(r->workdir);
	free(r->object);
	free(r->not_compiled);
	for (i = 0; i < r->nr_failures; i++) {
		free(r->failures[i].header);
		free(r->failures[i].message);
	}
	free(r->failures);
	free(r);
}

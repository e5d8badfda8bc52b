// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel modules: which .ko defines each ioctl argument type, and its
 * layout. A distribution ships ~4,000 modules with ~1 GB of DWARF, and only
 * a few hundred define a type any ioctl names, so each module is first
 * tested with a scan of its .debug_str for the wanted names; only modules
 * that mention one get their DWARF read (with relocations applied by
 * libdwarf, as a .ko is relocatable). Workers read modules in parallel and
 * hand finished type tables to the calling thread, which writes them in
 * path order.
 */
#include "extract/modules_internal.h"
#include "extract/binary_headers_internal.h"
#include "extract/fops_internal.h"
#include "extract/ioctl_immediates_internal.h"

#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "extract/extract.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/eta.h"
#include "lib/mem.h"
#include "lib/str.h"

struct mod_job {
	char *path;		/* as the modules table records it */
	char *file;		/* a streamed module's spool file (removed once read), else NULL */
	int64_t file_bytes;	/* its size */
	uint64_t read_pos, read_total;	/* a streamed module: the feed's position once read */
	char *name;		/* from .modinfo, else the file name */
	char *depends;		/* .modinfo's comma-separated dependencies */
	char *description;	/* .modinfo's, NULL when none */
	struct binary_headers headers;	/* the UAPI headers its code was compiled with */
	struct fops_list fops;	/* its file_operations objects */
	uint32_t *cmds;		/* ioctl numbers of its code, when a compat_ioctl is compat_ptr_ioctl */
	size_t nr_cmds;
	bool done;
	int err;
	char *errmsg;		/* what went wrong, for the problems table */
	bool parsed;
	struct xtable xt;	/* valid when parsed */
	int64_t *found;		/* per wanted name: table id in xt, 0 none */
};

/* Modules above this size are read one at a time (see read_module). */
#define BIG_MODULE_BYTES (64u << 20)

/*
 * Streamed modules handed over and not yet read stay below this many bytes
 * of spool (one module larger than that still passes, alone or not).
 */
#define SPOOL_BUDGET_BYTES (128 << 20)

/*
 * Jobs are appended as the feed (or the directory listing) provides them;
 * the workers take them in order, the calling thread writes them in order.
 * One condition variable for every change of state.
 */
struct pool {
	pthread_mutex_t lock;
	pthread_mutex_t big_lock;
	pthread_cond_t cond;
	size_t next, n, cap;
	struct mod_job **jobs;
	bool all_listed;	/* no job will be added */
	bool stop;		/* the writer failed: take no more jobs */
	int feed_err;
	int64_t spooled, spooled_peak;	/* bytes of spool files not yet read */
	const struct extract_modules_feed *feed;
	const struct name_set *wanted;
};

/* --- listing ------------------------------------------------------------- */

static struct {
	char **paths;
	size_t n, cap;
	char **unreadable;	/* directories nftw could not read (FTW_DNR) */
	size_t nr_unreadable, cap_unreadable;
	int err;
} listing;

bool extract__is_module_path(const char *path)
{
	static const char *const suffixes[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz", NULL };
	size_t len = strlen(path), i;

	for (i = 0; suffixes[i]; i++) {
		size_t sl = strlen(suffixes[i]);

		if (len > sl && !strcmp(path + len - sl, suffixes[i]))
			return true;
	}
	return false;
}

/* Append a copy of @path to @v (@n of @cap): 0, or 1 (stop the walk) with listing.err. */
static int list_add(char ***v, size_t *cap, size_t *n, const char *path)
{
	if (kd_grow_array((void **)v, cap, *n + 1, sizeof(**v)) || !((*v)[*n] = kd_strdup(path))) {
		listing.err = -ENOMEM;
		return 1;
	}
	(*n)++;
	return 0;
}

static int list_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	/* A directory, FIFO or dangling link named *.ko is listed too: reading it
	 * fails and it becomes a problem row rather than vanishing. So does a
	 * directory that cannot be read: its modules would vanish silently. */
	if (flag == FTW_DNR)
		return list_add(&listing.unreadable, &listing.cap_unreadable, &listing.nr_unreadable,
				path);
	if (!extract__is_module_path(path))
		return 0;
	return list_add(&listing.paths, &listing.cap, &listing.n, path);
}

static void release_unreadable(void)
{
	while (listing.nr_unreadable)
		free(listing.unreadable[--listing.nr_unreadable]);
	free(listing.unreadable);
	listing.unreadable = NULL;
	listing.cap_unreadable = 0;
}

/* nftw has no context argument, hence the file-static listing (one caller at a time). */
static int list_modules(const char *dir, char ***paths, size_t *n)
{
	struct stat st;

	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		kd_err("%s: not a directory of modules: %s", dir,
		       errno ? strerror(errno) : "not a directory");
		return -ENOTDIR;
	}
	memset(&listing, 0, sizeof(listing));
	if (nftw(dir, list_one, 32, FTW_PHYS) < 0 && !listing.err) {
		kd_err("%s: %s", dir, strerror(errno));
		listing.err = -errno;
	}
	if (listing.err) {
		while (listing.n)
			free(listing.paths[--listing.n]);
		free(listing.paths);
		release_unreadable();
		return listing.err;
	}
	if (listing.n)	/* qsort(NULL, 0, ...) is undefined */
		qsort(listing.paths, listing.n, sizeof(char *), kd_strcmp_ptr);
	*paths = listing.paths;
	*n = listing.n;
	return 0;
}

/* --- one module ----------------------------------------------------------- */

/* The value of @key in .modinfo ("name", "depends"), malloc'ed, or NULL. */
static char *modinfo(struct kelf *k, const char *key)
{
	struct kelf_section *s = kelf_section_by_name(k, ".modinfo");
	size_t klen = strlen(key);
	const char *p, *end;

	if (!s || !(p = (const char *)kelf_section_data(k, s)))
		return NULL;
	end = p + s->size;
	while (p < end) {
		size_t len = strnlen(p, (size_t)(end - p));

		if (len > klen && !strncmp(p, key, klen) && p[klen] == '=')
			return kd_strndup(p + klen + 1, len - klen - 1);
		p += len + 1;
	}
	return NULL;
}

static char *file_module_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strcspn(base, ".");
	return kd_strndup(base, len);
}

/* Does a file_operations of @f hand 32-bit calls to its native handler? */
static bool fops_use_compat_ptr(const struct fops_list *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->v[i].compat && !strcmp(f->v[i].compat, "compat_ptr_ioctl"))
			return true;
	return false;
}

static int read_module(struct pool *pool, struct mod_job *job)
{
	size_t nr = name_set_count(pool->wanted);
	struct kelf *k = NULL;
	struct kdwarf *d = NULL;
	bool big = false;
	int err;

	err = kelf_open_as(job->file ? job->file : job->path, job->path, &k);
	if (err)
		goto out;
	job->name = modinfo(k, "name");
	job->depends = modinfo(k, "depends");
	job->description = modinfo(k, "description");
	if (k->ehdr.e_type != ET_REL) {
		kd_err("%s: not a kernel module (ELF type %u, expected relocatable)", job->path,
		       k->ehdr.e_type);
		err = -KD_EFORMAT;
		goto out;
	}
	/*
	 * libdwarf holds a relocated copy of a module's DWARF while it is read:
	 * ~450 MB for amdgpu.ko. Two of those at once would double the peak, so
	 * the few very large modules take turns.
	 */
	if (k->file_size > BIG_MODULE_BYTES) {
		pthread_mutex_lock(&pool->big_lock);
		big = true;
	}
	/*
	 * Every module's line tables, wanted names or not: which UAPI headers
	 * its code includes is what says, once it is gone, what it alone
	 * served (diff/diff-modules.c). A module without DWARF that defines
	 * no wanted type is listed with no headers rather than failed.
	 */
	err = kdwarf_open(k, &d);
	if (err) {
		if (!kelf_mentions_any(k, pool->wanted))
			err = 0;
		goto out;
	}
	err = binary_headers__read(d, &job->headers);
	/* Every module's too: which driver serves an ioctl, and how for 32-bit callers. */
	if (!err)
		err = fops__read(d, &job->fops);
	if (!err && fops_use_compat_ptr(&job->fops))
		err = ioctl_immediates__read(k, &job->cmds, &job->nr_cmds);
	if (err || !kelf_mentions_any(k, pool->wanted))
		goto out;
	job->found = kd_calloc(nr ? nr : 1, sizeof(*job->found));
	err = job->found ? xtable_init(&job->xt, d, NULL, job->path) : -ENOMEM;
	if (err)
		goto out;
	job->parsed = true;
	err = xt_find_named(&job->xt, pool->wanted, job->found);
	if (err < 0)
		goto out;
	err = xt_complete(&job->xt);
out:
	if (job->parsed)
		xtable_detach_dwarf(&job->xt);
	kdwarf_close(d);
	if (big)
		pthread_mutex_unlock(&pool->big_lock);
	kelf_close(k);
	return err < 0 ? err : 0;
}

/* A streamed module's spool file is removed as soon as it is read. */
static void drop_spool(struct pool *pool, struct mod_job *job)
{
	if (!job->file)
		return;
	unlink(job->file);
	free(job->file);
	job->file = NULL;
	pthread_mutex_lock(&pool->lock);
	pool->spooled -= job->file_bytes;
	pthread_cond_broadcast(&pool->cond);
	pthread_mutex_unlock(&pool->lock);
}

static void *worker(void *arg)
{
	struct pool *pool = arg;

	for (;;) {
		struct kd_buf msgs = KD_BUF_INIT;
		struct mod_job *job;
		int err;

		pthread_mutex_lock(&pool->lock);
		while (pool->next == pool->n && !pool->all_listed && !pool->stop)
			pthread_cond_wait(&pool->cond, &pool->lock);
		if (pool->next == pool->n || pool->stop) {
			pthread_mutex_unlock(&pool->lock);
			return NULL;
		}
		job = pool->jobs[pool->next++];
		pthread_mutex_unlock(&pool->lock);

		kd_log_capture(&msgs);
		err = read_module(pool, job);
		kd_log_capture(NULL);
		drop_spool(pool, job);

		pthread_mutex_lock(&pool->lock);
		job->err = err;
		if (err)
			job->errmsg = msgs.len ? kd_buf_detach(&msgs) : kd_strdup(kd_strerror(err));
		job->done = true;
		pthread_cond_broadcast(&pool->cond);
		pthread_mutex_unlock(&pool->lock);
		kd_buf_release(&msgs);
	}
}

/* Append a job for @path (taken), @file (taken, may be NULL) of @bytes. Under the lock. */
static int add_job(struct pool *pool, char *path, char *file, int64_t bytes)
{
	struct mod_job *job = kd_calloc(1, sizeof(*job));
	int err = job ? KD_GROW(pool->jobs, pool->cap, pool->n + 1) : -ENOMEM;

	if (err) {
		free(job);
		free(path);
		if (file)
			unlink(file);
		free(file);
		return err;
	}
	job->path = path;
	job->file = file;
	job->file_bytes = bytes;
	pool->jobs[pool->n++] = job;
	pool->spooled += bytes;
	if (pool->spooled > pool->spooled_peak)
		pool->spooled_peak = pool->spooled;
	pthread_cond_broadcast(&pool->cond);
	return 0;
}

/*
 * The feed's thread: asks for the next module while the spool is within
 * its budget, until the feed ends or the writer stops.
 */
static void *feeder(void *arg)
{
	struct pool *pool = arg;
	int err = 0;

	for (;;) {
		char *name = NULL, *file = NULL;
		uint64_t pos = 0, total = 0;
		struct stat st;
		int r;

		pthread_mutex_lock(&pool->lock);
		while (pool->spooled >= SPOOL_BUDGET_BYTES && !pool->stop)
			pthread_cond_wait(&pool->cond, &pool->lock);
		r = pool->stop;
		pthread_mutex_unlock(&pool->lock);
		if (r)
			break;
		r = pool->feed->next(pool->feed->ctx, &name, &file);
		if (r <= 0) {
			err = r;
			break;
		}
		if (stat(file, &st) < 0) {
			err = -errno;
			kd_err("%s: %s: %s", pool->feed->what, file, strerror(errno));
			unlink(file);
			free(file);
			free(name);
			break;
		}
		if (pool->feed->position)
			pos = pool->feed->position(pool->feed->ctx, &total);
		pthread_mutex_lock(&pool->lock);
		err = add_job(pool, name, file, (int64_t)st.st_size);
		if (!err) {
			pool->jobs[pool->n - 1]->read_pos = pos;
			pool->jobs[pool->n - 1]->read_total = total;
		}
		pthread_mutex_unlock(&pool->lock);
		if (err)
			break;
	}
	pthread_mutex_lock(&pool->lock);
	pool->feed_err = err;
	pool->all_listed = true;
	pthread_cond_broadcast(&pool->cond);
	pthread_mutex_unlock(&pool->lock);
	return NULL;
}

/* --- which module owns a type ------------------------------------------- */

/*
 * amdgpu.ko defines struct drm_mode_create_dumb as much as drm.ko does, and
 * sorts first. The owner is the module the others build on: among the
 * modules defining a name, drop those that depend on another one of them.
 */
struct owner_cand {
	size_t name_idx;
	struct named_type where;
	char *module, *depends;
	char *path;		/* the module's: candidates are weighed in path order */
};

struct owners {
	size_t n, cap;
	struct owner_cand *v;
};

static int owners_add(struct owners *o, size_t idx, const struct named_type *where,
		      const char *module, const char *depends, const char *path)
{
	struct owner_cand *c;
	int err = KD_GROW(o->v, o->cap, o->n + 1);

	if (err)
		return err;
	c = &o->v[o->n];
	c->name_idx = idx;
	c->where = *where;
	c->module = kd_strdup(module ? module : "");
	c->depends = kd_strdup(depends ? depends : "");
	c->path = kd_strdup(path);
	if (!c->module || !c->depends || !c->path) {
		free(c->module);
		free(c->depends);
		free(c->path);
		return -ENOMEM;
	}
	o->n++;
	return 0;
}

/* Module names compare with '-' and '_' alike, as modprobe does. */
static bool same_module(const char *a, size_t alen, const char *b)
{
	size_t i;

	if (strlen(b) != alen)
		return false;
	for (i = 0; i < alen; i++) {
		char x = a[i] == '-' ? '_' : a[i], y = b[i] == '-' ? '_' : b[i];

		if (x != y)
			return false;
	}
	return true;
}

static bool depends_on(const char *depends, const char *module)
{
	while (*depends) {
		size_t len = strcspn(depends, ",");

		if (same_module(depends, len, module))
			return true;
		depends += len + (depends[len] == ',');
	}
	return false;
}

static int cmp_cand(const void *a, const void *b)
{
	const struct owner_cand *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	return c ? c : (x->name_idx > y->name_idx) - (x->name_idx < y->name_idx);
}

static void owners_choose(struct owners *o, struct named_type *out)
{
	size_t i, j;

	/* Path order, not reading order: a package streams its modules in its own. */
	if (o->n)
		qsort(o->v, o->n, sizeof(*o->v), cmp_cand);

	for (i = 0; i < o->n; i++) {
		const struct owner_cand *c = &o->v[i];
		bool builds_on_another = false;

		if (out[c->name_idx].type_id)
			continue;	/* an earlier, independent candidate won */
		for (j = 0; j < o->n && !builds_on_another; j++)
			builds_on_another = j != i && o->v[j].name_idx == c->name_idx &&
					    depends_on(c->depends, o->v[j].module);
		if (!builds_on_another)
			out[c->name_idx] = c->where;
	}
	/* Dependency cycles: fall back to path order. */
	for (i = 0; i < o->n; i++)
		if (!out[o->v[i].name_idx].type_id)
			out[o->v[i].name_idx] = o->v[i].where;
}

static void owners_release(struct owners *o)
{
	size_t i;

	for (i = 0; i < o->n; i++) {
		free(o->v[i].module);
		free(o->v[i].depends);
		free(o->v[i].path);
	}
	free(o->v);
}

/* --- writing, in path order ---------------------------------------------- */

static const char *basename_of(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

static int write_module(struct kdb *db, struct type_sink *sink, struct pool *pool,
			struct mod_job *job, struct owners *owners, struct modules_stats *stats)
{
	size_t nr = name_set_count(pool->wanted), i;
	int64_t module_id, written = 0;
	int err;

	if (job->err) {
		stats->failed++;
		/* The message names the file already; keep only the cause. */
		return kdb__put_problem(db, "modules", job->path, NULL, "%s", job->errmsg);
	}
	if (!job->name)
		job->name = file_module_name(job->path);
	err = kdb__put_module(db, job->name ? job->name : basename_of(job->path), job->path,
			      job->description, job->depends, &module_id);
	for (i = 0; !err && i < job->headers.n; i++)
		err = kdb__put_binary_header(db, module_id, job->headers.names[i]);
	for (i = 0; !err && i < job->fops.n; i++)
		err = kdb__put_fops(db, module_id, job->fops.v[i].name, job->fops.v[i].unlocked,
				    job->fops.v[i].compat);
	for (i = 0; !err && i < job->nr_cmds; i++)
		err = kdb__put_binary_ioctl_cmd(db, module_id, job->cmds[i]);
	if (!err && job->fops.problem)
		err = kdb__put_problem(db, "modules", job->path, NULL, "%s", job->fops.problem);
	if (err || !job->parsed)
		return err;
	stats->parsed++;
	err = xtable_attach_db(&job->xt, db);
	if (!err)
		err = xt_write(&job->xt, sink, &written);
	stats->types += written;
	for (i = 0; !err && i < job->xt.n; i++) {
		const struct xtype *x = &job->xt.v[i];

		if (x->t.kind == KD_KIND_STRUCT || x->t.kind == KD_KIND_UNION ||
		    x->t.kind == KD_KIND_ENUM)
			err = kdb__put_type_origin(db, x->canon, module_id);
	}
	for (i = 0; !err && i < nr; i++) {
		struct named_type cand;

		if (!job->found[i])
			continue;
		cand.type_id = xt_canon(&job->xt, job->found[i]);
		cand.size = xt_get(&job->xt, job->found[i])->t.size;
		cand.module_id = module_id;
		err = owners_add(owners, i, &cand, job->name, job->depends, job->path);
	}
	return err;
}

static void release_job(struct mod_job *job)
{
	if (!job)
		return;
	if (job->parsed)
		xtable_release(&job->xt);
	if (job->file)
		unlink(job->file);
	free(job->file);
	free(job->found);
	free(job->errmsg);
	free(job->name);
	free(job->depends);
	free(job->description);
	binary_headers__release(&job->headers);
	fops__release(&job->fops);
	free(job->cmds);
	free(job->path);
	free(job);
}

static int nr_workers(int jobs)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (jobs <= 0)
		jobs = cpus > 0 ? (int)cpus : 1;
	return jobs > 64 ? 64 : jobs;
}

/* The modules of directory @dir, as jobs (all listed at once). */
static int list_jobs(struct kdb *db, struct pool *pool, const char *dir,
		     struct modules_stats *stats)
{
	char **paths = NULL;
	size_t i, n = 0;
	int err = list_modules(dir, &paths, &n);

	if (err)
		return err;
	for (i = 0; !err && i < listing.nr_unreadable; i++)
		err = kdb__put_problem(db, "modules", listing.unreadable[i], NULL,
				       "directory not readable; the modules in it are left out");
	stats->failed += (int64_t)listing.nr_unreadable;
	release_unreadable();
	if (!err && !n)
		kd_warn("%s: no kernel modules (*.ko) found", dir);
	for (i = 0; i < n; i++) {
		if (!err)
			err = add_job(pool, paths[i], NULL, 0);
		else
			free(paths[i]);
	}
	free(paths);
	pool->all_listed = true;
	return err;
}

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

/*
 * The status line for job @i: out of the total for a directory; for
 * streamed modules, whose number is known only at the end, how much of
 * the packages is read, the estimate from the bytes read since the
 * first module (*@base: that position, set at the first call).
 */
static void show_progress(const struct pool *pool, const struct mod_job *job, size_t i,
			  const struct timespec *start, uint64_t *base)
{
	const char *name = basename_of(job->path);
	long left;

	if (pool->feed) {
		if (!i)
			*base = job->read_pos;
		if (!job->read_total || job->read_pos > job->read_total || job->read_pos < *base) {
			kd_status("[%zu] %s", i + 1, name);
			return;
		}
		left = kd_eta_seconds(job->read_pos - *base, job->read_total - *base,
				      seconds_since(start));
		if (left >= 0)
			kd_status("[%zu] %s, %d%% of the packages read, ~%ld s left", i + 1, name,
				  (int)(job->read_pos * 100 / job->read_total), left);
		else
			kd_status("[%zu] %s, %d%% of the packages read", i + 1, name,
				  (int)(job->read_pos * 100 / job->read_total));
		return;
	}
	left = kd_eta_seconds(i + 1, pool->n, seconds_since(start));
	if (left >= 0)
		kd_status("[%zu/%zu] %s, ~%ld s left", i + 1, pool->n, name, left);
	else
		kd_status("[%zu/%zu] %s", i + 1, pool->n, name);
}

int modules__extract(struct kdb *db, struct type_sink *sink, const char *dir,
		     const struct extract_modules_feed *feed, const struct name_set *wanted,
		     struct named_type *out, int jobs, bool progress, struct modules_stats *stats)
{
	struct pool pool = { .wanted = wanted, .feed = feed };
	struct owners owners = { 0 };
	const char *what = feed ? feed->what : dir;
	pthread_t threads[64], feed_thread;
	struct timespec start;
	uint64_t stream_base = 0;
	bool feeding = false;
	size_t i;
	int started = 0, nthreads, err;

	memset(stats, 0, sizeof(*stats));
	clock_gettime(CLOCK_MONOTONIC, &start);
	pthread_mutex_init(&pool.lock, NULL);
	pthread_mutex_init(&pool.big_lock, NULL);
	pthread_cond_init(&pool.cond, NULL);
	if (!feed) {
		err = list_jobs(db, &pool, dir, stats);
		if (err)
			goto out;
	} else {
		err = pthread_create(&feed_thread, NULL, feeder, &pool) ? -EAGAIN : 0;
		feeding = !err;
	}
	nthreads = nr_workers(jobs);
	if (!feed && (size_t)nthreads > pool.n)
		nthreads = pool.n ? (int)pool.n : 1;
	for (started = 0; !err && started < nthreads && (feed || pool.n); started++)
		if (pthread_create(&threads[started], NULL, worker, &pool))
			break;
	if (err || ((feed || pool.n) && !started)) {
		kd_err("%s: cannot start worker threads", what);
		err = -EAGAIN;
	}
	for (i = 0; !err; i++) {
		struct mod_job *job;

		pthread_mutex_lock(&pool.lock);
		while (i == pool.n && !pool.all_listed)
			pthread_cond_wait(&pool.cond, &pool.lock);
		if (i == pool.n) {
			err = pool.feed_err;
			pthread_mutex_unlock(&pool.lock);
			break;
		}
		job = pool.jobs[i];
		while (!job->done)
			pthread_cond_wait(&pool.cond, &pool.lock);
		pool.jobs[i] = NULL;
		pthread_mutex_unlock(&pool.lock);
		stats->scanned++;
		if (progress)
			show_progress(&pool, job, i, &start, &stream_base);
		err = write_module(db, sink, &pool, job, &owners, stats);
		release_job(job);
	}
	if (progress && i)
		kd_status("%s", "");
	/* On failure the workers and the feed stop at their next job. */
	pthread_mutex_lock(&pool.lock);
	pool.stop = err != 0;
	pthread_cond_broadcast(&pool.cond);
	pthread_mutex_unlock(&pool.lock);
	while (started > 0)
		pthread_join(threads[--started], NULL);
	if (feeding)
		pthread_join(feed_thread, NULL);
	stats->spooled_peak = pool.spooled_peak;
	if (!err && feed && feed->report)
		kd_progress("%s: %" PRId64 " modules streamed, at most %.1f MB of them on disk at once",
			    feed->name ? feed->name : what, stats->scanned, pool.spooled_peak / 1e6);
	if (!err)
		owners_choose(&owners, out);
out:
	pthread_mutex_destroy(&pool.lock);
	pthread_mutex_destroy(&pool.big_lock);
	pthread_cond_destroy(&pool.cond);
	owners_release(&owners);
	for (i = 0; i < pool.n; i++)
		release_job(pool.jobs[i]);
	free(pool.jobs);
	return err;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The inputs of kabi-diff diff. A .kabi (recognized by content) is opened
 * as it is; a vmlinux, or a kernel directory (kernel-input.c), is
 * extracted into the cache $XDG_CACHE_HOME/kabi-diff/ under a name made of
 * its build-id and of a key of everything it was built from: this
 * kabi-diff's version and schema, the vmlinux's content (its digest
 * remembered by file identity: file-digest.h), and when headers or
 * modules were read too, their fingerprint (BUILD-ID[-um]-KEY.kabi). A build-id alone is not trusted: another
 * image can carry it. A hit is verified: the entry's meta must name the
 * same build-id, tool version and key, or it is extracted again.
 *
 * Extractions run in child processes: two kernels extract side by side on
 * two cores (the cold diff costs one extraction, not two), and each starts
 * from a fresh process, so no state of one extraction can reach the other.
 * (libdwarf 20210528 crashes in dwarf_object_init_b() on a vmlinux opened
 * after modules were read through its own ELF loader in the same process.)
 * Readers of modules already use every CPU: those extract one at a time.
 */
#include "extract/input/diff-inputs.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "extract/input/cache.h"
#include "extract/input/file-digest.h"
#include "extract/input/kernel-input.h"
#include "extract/input/package.h"
#include "db/kdb.h"
#include "extract/build-id.h"
#include "extract/extract.h"
#include "lib/arch.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/hash.h"
#include "lib/mem.h"
#include "lib/path.h"
#include "lib/tmpfile.h"

/* A reference file holds a path, a build-id and a key: a few hundred bytes. */
#define REF_MAX_KIB 16
#define REF_MAX_BYTES ((size_t)REF_MAX_KIB << 10)
#define KEY_NAME_DIGITS 32	/* of the key's hex, in an entry's file name */

struct input {
	const char *arg;
	const char *label;	/* a header tree's meta.release; NULL: arg */
	const char *side;	/* "old: " or "new: ", which starts its progress lines */
	char *name;		/* the label or arg as progress lines name it (kd_input_short()) */
	struct kernel_input ki;
	struct extract_conf conf;
	struct kd_buf path;	/* the cache file */
	char *build_id;
	char key[KD_DIGEST_HEX_LEN + 1];	/* cache_key(), hex */
	pid_t pid;		/* the extracting child, 0 none */
	struct timespec start;
	struct kpkg *pkg;	/* packages being read (their directory removed at the end) */
	bool from_packages;
	uint64_t pkg_hash;	/* packages: their paths and identities */
	struct kd_buf pkg_ref;	/* packages: the cache entry naming their .kabi */
};

/* The cache directory, created if needed. */
static int cache_dir(struct kd_buf *dir)
{
	return kcache__dir(dir, true);
}

/* Does meta @key of @db hold @want? */
static bool meta_is(struct kdb *db, const char *key, const char *want)
{
	char *have = NULL;
	bool yes = !kdb__get_meta(db, key, &have) && have && !strcmp(have, want);

	free(have);
	return yes;
}

/*
 * A cached .kabi at @path that opens and says it was built by this
 * kabi-diff from the kernel @build_id (NULL: from a header tree alone),
 * from inputs of key @key.
 */
static bool cache_hit(const char *path, const char *build_id, bool btf, const char *key,
		      struct kdb **db)
{
	enum kd_level level = kd_log_level();
	bool ok;

	if (access(path, R_OK) < 0)
		return false;
	kd_log_set_level(KD_LOG_QUIET);	/* a stale cache entry is re-extracted, not an error */
	/* One build-id, two extractions: the debug vmlinux's (DWARF) and the bootable image's (BTF). */
	ok = !kdb__open(path, db) &&
	     (build_id ? meta_is(*db, "build_id", build_id) : meta_is(*db, "input", "headers")) &&
	     (!build_id || meta_is(*db, "input", "btf") == btf) &&
	     meta_is(*db, "tool_version", extract__tool_version()) && meta_is(*db, "cache_key", key);
	kd_log_set_level(level);
	if (!ok) {
		kdb__free(*db);
		*db = NULL;
	} else {
		/* When it was last used, for `cache prune --older-than` (best effort). */
		(void)utimensat(AT_FDCWD, path, NULL, 0);
	}
	return ok;
}

/* Feed @d each vDSO debug image extract would read, by content. */
static int vdso_content(const struct extract_conf *conf, const char *cdir, struct kd_digest *d)
{
	char hex[KD_DIGEST_HEX_LEN + 1];
	struct kd_buf path = KD_BUF_INIT;
	char *dir = NULL;
	struct stat st;
	size_t i;
	int err;

	if (!conf->vmlinux)
		return 0;
	err = extract__vdso_dir(conf, &dir);
	for (i = 0; !err && dir && extract__vdso_files[i]; i++) {
		kd_buf_reset(&path);
		err = kd_buf_addf(&path, "%s/%s", dir, extract__vdso_files[i]);
		if (err || stat(path.s, &st) < 0)
			continue;
		kd_digest__str(d, extract__vdso_files[i]);
		/* Not a regular file: extract does not read it either; its kind is the record. */
		if (!S_ISREG(st.st_mode)) {
			kd_digest__u64(d, (uint64_t)(st.st_mode & S_IFMT));
			continue;
		}
		err = kfile_digest__get(cdir, path.s, hex);
		if (!err)
			kd_digest__str(d, hex);
	}
	kd_buf_release(&path);
	free(dir);
	return err;
}

/*
 * The key of @in's extraction (@in->key): SHA-256 of this kabi-diff and
 * its schema, the vmlinux's content, the headers' and modules'
 * fingerprint, the vDSO's debug images. Contents, not paths: a kernel
 * unpacked from its packages and the same kernel's directory share an
 * entry; and a digest, as a cache answers a key's match without looking
 * further (lib/digest.h).
 */
static int cache_key(struct input *in, const char *cdir)
{
	const struct extract_conf *conf = &in->conf;
	bool modules = conf->modules_dir || conf->modules_feed;
	char hex[KD_DIGEST_HEX_LEN + 1];
	struct kd_digest *d;
	int err = kd_digest__new(&d);

	if (err) {
		kd_err("out of memory");
		return err;
	}
	kd_digest__str(d, extract__tool_version());
	kd_digest__u64(d, KDB_SCHEMA_VERSION);
	if (!conf->vmlinux) {
		kd_digest__str(d, "headers");	/* a header tree alone: its fingerprint below */
		kd_digest__str(d, conf->uapi_arch ? conf->uapi_arch->name : "x86_64");
	} else {
		err = kfile_digest__get(cdir, conf->vmlinux, hex);
		if (!err)
			kd_digest__str(d, hex);
	}
	kd_digest__u64(d, (uint64_t)!!conf->uapi_dir << 1 | modules);
	if (!err && (conf->uapi_dir || modules))
		err = kernel_input__fingerprint(&in->ki, d);
	if (!err)
		err = vdso_content(conf, cdir, d);
	/* Streamed modules: those of these packages. */
	if (conf->modules_feed)
		kd_digest__u64(d, in->pkg_hash);
	if (!err && kd_digest__final(d, NULL, in->key)) {
		kd_err("SHA-256 failed");
		err = -EIO;
	}
	kd_digest__free(d);
	return err;
}

/*
 * The cache file for @in: the build-id, what else is read, and the key's
 * first 128 bits, enough to tell entries apart; a hit checks the whole key.
 */
static int cache_path(struct input *in)
{
	bool modules = in->conf.modules_dir || in->conf.modules_feed;
	struct kd_buf dir = KD_BUF_INIT;
	int err = cache_dir(&dir);

	if (!err)
		err = cache_key(in, dir.s);
	if (!err)
		err = kd_buf_addf(&in->path, "%s/%s-%s%s%s%.*s.kabi", dir.s,
				  in->build_id ? in->build_id : "headers",
				  in->conf.uapi_dir ? "u" : "", modules ? "m" : "",
				  in->conf.uapi_dir || modules ? "-" : "", KEY_NAME_DIGITS, in->key);
	kd_buf_release(&dir);
	return err;
}

/* Before the entry is committed: the key it is verified by on a hit. */
static int store_key(struct kdb *db, void *ctx)
{
	return kdb__set_meta(db, "cache_key", ctx);
}

/* A miss: the child extracts into @in's cache path and stores the key before committing. */
static int into_cache(struct input *in)
{
	in->conf.output = in->path.s;
	in->conf.before_commit = store_key;
	in->conf.before_commit_ctx = in->key;
	return 0;
}

/*
 * CACHE/pkg-HASH.ref's three lines (remember_packages()) into @ref, @line
 * pointing into it; @ref left empty when there is no usable one. The
 * cache may be shared: anything but a regular file of at most
 * REF_MAX_BYTES is not opened blocking, not read and not used. 0 or -ENOMEM.
 */
static int read_ref(const char *path, struct kd_buf *ref, char *line[3])
{
	int err = kd_buf_read_regular(ref, path, REF_MAX_BYTES), i;
	char *p = ref->s, *nl;

	if (err == -KD_ENOTREG)
		kd_warn("%s: not a regular file; the cache entry is not used", path);
	else if (err == -KD_ELIMIT)
		kd_warn("%s: larger than %d KiB, the limit of a package cache reference; the cache"
			" entry is not used", path, REF_MAX_KIB);
	if (err == -ENOMEM)
		return err;
	for (i = 0; !err && i < 3; i++) {
		nl = strchr(p, '\n');
		if (!nl) {
			err = -EINVAL;
			break;
		}
		*nl = '\0';
		line[i] = p;
		p = nl + 1;
	}
	if (err || *p || strlen(ref->s) + strlen(line[1]) + strlen(line[2]) + 3 != ref->len)
		kd_buf_reset(ref);
	return 0;
}

/*
 * Packages (a.deb,b.deb): the same files (path and identity:
 * kernel_input__file_identity()) were read before when CACHE/pkg-HASH.ref
 * names a cached .kabi of the build-id and key it records; then that is
 * opened and nothing is read. Else their vmlinux and headers are written
 * into CACHE/.kabi-unpack-XXXXXX, *dir, read as a directory, and their
 * modules streamed to the extraction.
 */
static int prepare_packages(struct input *in, bool quiet, struct kdb **db, const char **dir)
{
	struct kd_buf cdir = KD_BUF_INIT, ref = KD_BUF_INIT;
	char *copy = kd_strdup(in->arg), *save = NULL, *p, *line[3];
	uint64_t h = KD_HASH_SEED;
	int err = copy ? cache_dir(&cdir) : -ENOMEM;

	in->from_packages = true;
	for (p = copy && !err ? strtok_r(copy, ",", &save) : NULL; p; p = strtok_r(NULL, ",", &save)) {
		char *real = realpath(p, NULL);
		struct stat sb;

		if (!real || stat(real, &sb) < 0) {
			err = -errno;
			kd_err("%s: %s", p, strerror(errno));
			free(real);
			break;
		}
		h = kd_hash_str(h, real);
		h = kd_hash_u64(h, kernel_input__file_identity(&sb));
		free(real);
	}
	free(copy);
	in->pkg_hash = h;
	if (!err)
		err = kd_buf_addf(&in->pkg_ref, "%s/pkg-%016" PRIx64 ".ref", cdir.s, h);
	if (err)
		goto out;
	err = read_ref(in->pkg_ref.s, &ref, line);
	if (err)
		goto out;
	if (ref.len && cache_hit(line[0], line[1], false, line[2], db)) {
		if (!quiet)
			kd_progress("%s: cached as %s", in->name, kd_path_short(line[0], NULL));
		goto out;
	}
	if (!quiet)
		kd_progress("%s: reading the packages", in->name);
	err = kpkg__open(in->arg, cdir.s, !quiet, &in->pkg);
	if (err)
		goto out;
	*dir = kpkg__dir(in->pkg);
	in->conf.modules_feed = kpkg__modules_feed(in->pkg);
out:
	kd_buf_release(&cdir);
	kd_buf_release(&ref);
	return err;
}

/* Record that @in's packages are cached as @in->path (best effort). */
static void remember_packages(struct input *in)
{
	struct kd_buf text = KD_BUF_INIT;

	if (in->pkg_ref.len && in->build_id &&
	    !kd_buf_addf(&text, "%s\n%s\n%s\n", in->path.s, in->build_id, in->key))
		(void)kd_write_file_atomic(in->pkg_ref.s, text.s, text.len, KD_WRITE_CACHE);
	kd_buf_release(&text);
}

/*
 * Open @in as a DB if it is one or is cached (*@db set), else prepare its
 * extraction (*@db NULL, @in->conf ready).
 */
static int prepare(struct input *in, bool quiet, struct kdb **db)
{
	const char *dir = NULL;
	int err;

	*db = NULL;
	kd_log_set_progress_prefix(in->side);
	if (kdb__is_db_file(in->arg))
		return kdb__open(in->arg, db);
	if (kpkg__is_package_list(in->arg)) {
		err = prepare_packages(in, quiet, db, &dir);
		if (err || *db)
			return err;
	} else if (kd_is_dir(in->arg)) {
		dir = in->arg;
	}
	in->conf.vmlinux = in->arg;
	if (dir) {
		err = kernel_input__probe(dir, &in->ki);
		if (err)
			return err;
		in->conf.vmlinux = in->ki.vmlinux;
		in->conf.uapi_dir = in->ki.uapi_dir;
		in->conf.modules_dir = in->ki.modules_dir;
		in->conf.vdso_dir = in->ki.vdso_dir;
	}
	if (dir && !in->ki.vmlinux) {
		/* A header tree alone: keyed by its headers' fingerprint. */
		in->conf.label = in->label ? in->label : in->arg;
		in->conf.uapi_arch = in->ki.arch;
		err = cache_path(in);
		if (err || cache_hit(in->path.s, NULL, false, in->key, db))
			return err;
		if (!quiet)
			kd_progress("reading the UAPI header tree %s into %s", in->name,
				    kd_path_short(in->path.s, NULL));
		return into_cache(in);
	}
	err = extract__build_id(in->conf.vmlinux, &in->build_id);
	if (err)
		return err;
	if (!in->build_id) {
		kd_err("%s: no GNU build-id to key the cache; run 'kabi-diff extract %s' and diff"
		       " the .kabi", in->conf.vmlinux, in->conf.vmlinux);
		return -KD_EFORMAT;
	}
	err = cache_path(in);
	if (err || cache_hit(in->path.s, in->build_id,
				    extract__is_boot_image(in->conf.vmlinux), in->key, db))
		return err;
	/* Where the parts are, inside the input as given (dir): not three long paths again. */
	if (!quiet && in->ki.vmlinux)
		kd_progress("%s (%s): vmlinux %s, UAPI headers %s, modules %s",
			in->name, in->ki.layout, kd_path_short(in->ki.vmlinux, dir),
			in->ki.uapi_dir ? kd_path_short(in->ki.uapi_dir, dir) : "none",
			in->conf.modules_feed ? "streamed from the packages" :
			in->ki.modules_dir ? kd_path_short(in->ki.modules_dir, dir) : "none");
	if (!quiet)
		kd_progress("extracting %s into %s", in->name, kd_path_short(in->path.s, NULL));
	return into_cache(in);
}

/* Start @in's extraction in a child process. */
static int start(struct input *in)
{
	kd_log_set_progress_prefix(in->side);	/* the child's lines too */
	fflush(NULL);	/* nothing buffered may be written twice */
	clock_gettime(CLOCK_MONOTONIC, &in->start);
	in->pid = fork();
	if (in->pid < 0) {
		int err = -errno;

		kd_err("cannot start a process: %s", strerror(errno));
		in->pid = 0;
		return err;
	}
	if (in->pid == 0) {
		struct extract_stats stats;

		/* The child's whole life: errors are already on stderr. */
		_exit(extract__run(&in->conf, &stats) ? 1 : 0);
	}
	return 0;
}

/* Wait for @in's child; then open what it wrote. */
static int finish(struct input *in, bool quiet, struct kdb **db)
{
	struct timespec end;
	int status, err = 0;

	kd_log_set_progress_prefix(in->side);
	while (waitpid(in->pid, &status, 0) < 0) {
		if (errno != EINTR) {
			err = -errno;
			kd_err("waiting for the extraction of %s: %s", in->arg, strerror(errno));
			in->pid = 0;
			return err;
		}
	}
	in->pid = 0;
	if (WIFSIGNALED(status)) {
		kd_err("%s: the extraction died of signal %d (%s)", in->arg, WTERMSIG(status),
		       strsignal(WTERMSIG(status)));
		return -EIO;
	}
	if (WEXITSTATUS(status))
		return -EIO;	/* the child said why */
	clock_gettime(CLOCK_MONOTONIC, &end);
	if (!quiet)
		kd_progress("extracted %s in %.1f s", in->name,
			(double)(end.tv_sec - in->start.tv_sec) + (end.tv_nsec - in->start.tv_nsec) / 1e9);
	return kdb__open(in->path.s, db);
}

int diff_inputs__open(const char *const args[2], const char *const labels[2], bool quiet,
		      struct kdb *db[2], const char *names[2])
{
	struct input in[2] = { { .arg = args[0], .side = "old: ", .path = KD_BUF_INIT,
				 .pkg_ref = KD_BUF_INIT },
			       { .arg = args[1], .side = "new: ", .path = KD_BUF_INIT,
				 .pkg_ref = KD_BUF_INIT } };
	bool side_by_side;
	int i, err = 0;

	db[0] = db[1] = NULL;
	for (i = 0; labels && i < 2; i++)
		in[i].label = labels[i];
	for (i = 0; i < 2; i++)
		if (!(in[i].name = kd_input_short(in[i].label ? in[i].label : in[i].arg))) {
			kd_err("out of memory");
			err = -ENOMEM;
			goto out;
		}
	err = prepare(&in[0], quiet, &db[0]);
	if (names)
		names[0] = names[1] = NULL;
	/*
	 * Packages whose modules are streamed extract alone anyway: OLD is
	 * extracted and its unpacked area removed before NEW's packages are
	 * read, so the disk holds one vmlinux at a time, not two.
	 */
	if (!err && !db[0] && in[0].conf.modules_feed) {
		in[0].conf.progress = !quiet && isatty(STDERR_FILENO);
		in[0].conf.phases = !quiet;
		err = start(&in[0]);
		if (!err)
			err = finish(&in[0], quiet, &db[0]);
		kpkg__close(in[0].pkg);
		in[0].pkg = NULL;
	}
	if (!err)
		err = prepare(&in[1], quiet, &db[1]);
	if (err)
		goto out;
	for (i = 0; names && i < 2; i++)
		names[i] = in[i].conf.label;	/* set for a header tree alone only */
	/* Progress lines of two children would overwrite each other: only for one. */
	side_by_side = !db[0] && !db[1] && !in[0].conf.modules_dir && !in[1].conf.modules_dir &&
		       !in[0].conf.modules_feed && !in[1].conf.modules_feed;
	for (i = 0; i < 2; i++) {
		in[i].conf.progress = !quiet && isatty(STDERR_FILENO) && !(side_by_side && i == 1);
		in[i].conf.phases = !quiet;	/* whole lines: two children's may alternate */
	}
	for (i = 0; !err && i < 2; i++) {
		if (db[i] || (i == 1 && !db[0] && !strcmp(in[0].path.s, in[1].path.s)))
			continue;	/* cached, or the same kernel twice: extracted once */
		err = start(&in[i]);
		if (!err && !side_by_side)
			err = finish(&in[i], quiet, &db[i]);
		if (!side_by_side) {
			/* Its vmlinux and headers are no longer needed: less disk for the other. */
			kpkg__close(in[i].pkg);
			in[i].pkg = NULL;
		}
	}
	for (i = 0; i < 2; i++) {
		int e = in[i].pid ? finish(&in[i], quiet, &db[i]) : 0;

		if (!err)
			err = e;
	}
	if (!err && !db[1])
		err = kdb__open(in[1].path.s, &db[1]);
	for (i = 0; !err && i < 2; i++)
		if (in[i].from_packages)
			remember_packages(&in[i]);
out:
	kd_log_set_progress_prefix(NULL);
	for (i = 0; i < 2; i++) {
		free(in[i].name);
		kpkg__close(in[i].pkg);
		kd_buf_release(&in[i].pkg_ref);
		kernel_input__release(&in[i].ki);
		kd_buf_release(&in[i].path);
		free(in[i].build_id);
	}
	return err;
}

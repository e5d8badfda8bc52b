// SPDX-License-Identifier: GPL-2.0-only
/*
 * extract__run(): a vmlinux into a .kabi, in this order:
 *   1. ELF checks and the syscall tables (fails fast on a non-kernel),
 *   2. DWARF: signatures from the CUs of the entry points, and with --uapi
 *      the types the headers name, then every type reachable from them
 *      (a worklist, read once per DIE),
 *   3. layout settling, structural dedup, and the DB write,
 *   4. with --modules, the named types vmlinux lacks, from the modules;
 *      with --uapi, the constants and ioctls, sized from those types,
 *   5. identity metadata and the vDSO images (vdso.c),
 *   6. with --uapi, the 32-bit programs' header view (uapi/compat.c), the
 *      last types written, then an atomic commit.
 * Any error leaves no output behind (kdb__free discards the temp file).
 */
#include "version.h"
#include "extract/extract.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "db/kdb-uapi.h"
#include "extract/binary_headers_internal.h"
#include "extract/fops_internal.h"
#include "extract/boot_internal.h"
#include "extract/btf_internal.h"
#include "extract/ioctl_types_internal.h"
#include "extract/syscalls_internal.h"
#include "extract/header_job_internal.h"
#include "extract/uapi/uapi.h"
#include "extract/vdso_internal.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/path.h"
#include "lib/str.h"

int extract_write_identity(struct kdb *db, struct kelf *k, int dwarf_version, const char *input)
{
	const struct kelf_symbol *banner = kelf_symbol_by_name(k, "linux_banner");
	struct kd_buf b = KD_BUF_INIT;
	char *build_id = kelf_build_id(k), *abs = realpath(input, NULL);
	int err = 0;

	if (banner && banner->size > 0 && banner->size < 4096) {
		const char *p = (const char *)kelf_read_addr(k, banner->addr, banner->size);

		if (p) {
			size_t n = strnlen(p, banner->size);

			while (n && (p[n - 1] == '\n' || p[n - 1] == ' '))
				n--;
			err = kd_buf_add(&b, p, n);
			if (!err)
				err = kdb__set_meta(db, "version", b.s);
			if (!err && kd_starts_with(b.s, "Linux version ")) {
				const char *r = b.s + 14;
				char *rel = kd_strndup(r, strcspn(r, " "));

				err = rel ? kdb__set_meta(db, "release", rel) : -ENOMEM;
				free(rel);
			}
		}
	}
	if (!err)
		err = kdb__set_meta(db, "arch", k->arch->name);
	if (!err && build_id)
		err = kdb__set_meta(db, "build_id", build_id);
	kd_buf_reset(&b);
	if (!err && dwarf_version && !(err = kd_buf_addf(&b, "%d", dwarf_version)))
		err = kdb__set_meta(db, "dwarf_version", b.s);
	if (!err)
		err = kdb__set_meta(db, "source_path", abs ? abs : input);
	if (!err)
		err = kdb__set_meta(db, "tool_version", extract__tool_version());
	kd_buf_reset(&b);
	if (!err && !(err = kd_buf_addf(&b, "%d", KDB_SCHEMA_VERSION)))
		err = kdb__set_meta(db, "schema_version", b.s);
	kd_buf_release(&b);
	free(build_id);
	free(abs);
	return err;
}

int extract_write_origins(struct xtable *xt, struct kdb *db)
{
	size_t i;
	int err = 0;

	for (i = 0; !err && i < xt->n; i++) {
		enum kd_kind k = xt->v[i].t.kind;

		if (k == KD_KIND_STRUCT || k == KD_KIND_UNION || k == KD_KIND_ENUM)
			err = kdb__put_type_origin(db, xt->v[i].canon, 0);
	}
	return err;
}

/*
 * With the modules: the UAPI headers vmlinux's code includes, every CU's,
 * so that a header a removed module included is known to be still served
 * by vmlinux (diff/diff-modules.c).
 */
static int write_vmlinux_headers(struct kdwarf *d, struct kdb *db)
{
	struct binary_headers h = { 0 };
	size_t i;
	int err = binary_headers__read(d, &h);

	for (i = 0; !err && i < h.n; i++)
		err = kdb__put_binary_header(db, 0, h.names[i]);
	binary_headers__release(&h);
	return err;
}

/* With the modules: vmlinux's file_operations objects, as each module's (fops.c). */
static int write_vmlinux_fops(struct kdwarf *d, struct kdb *db)
{
	struct fops_list f = { 0 };
	size_t i;
	int err = fops__read(d, &f);

	for (i = 0; !err && i < f.n; i++)
		err = kdb__put_fops(db, 0, f.v[i].name, f.v[i].unlocked, f.v[i].compat);
	if (!err && f.problem)
		err = kdb__put_problem(db, "modules", d->elf->path, NULL, "%s", f.problem);
	fops__release(&f);
	return err;
}

/* Seconds from @a to @b. */
static double elapsed(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

const char *extract__tool_version(void)
{
	return KD_VERSION;
}

/* The identity of a .kabi read from headers alone: no build-id, no DWARF. */
static int write_header_identity(struct kdb *db, const struct extract_conf *conf,
				 const struct header_job *hj)
{
	char *abs = realpath(conf->uapi_dir, NULL);
	struct kd_buf b = KD_BUF_INIT;
	int err = kdb__set_meta(db, "release", conf->label ? conf->label : conf->uapi_dir);

	if (!err)
		err = kdb__set_meta(db, "arch", hj->arch.name);
	if (!err)
		err = kdb__set_meta(db, "source_path", abs ? abs : conf->uapi_dir);
	if (!err)
		err = kdb__set_meta(db, "input", "headers");
	if (!err)
		err = kdb__set_meta(db, "tool_version", KD_VERSION);
	if (!err && !(err = kd_buf_addf(&b, "%d", KDB_SCHEMA_VERSION)))
		err = kdb__set_meta(db, "schema_version", b.s);
	kd_buf_release(&b);
	free(abs);
	return err;
}

/*
 * Headers alone (no vmlinux): the header view, constants and ioctls of
 * @conf->uapi_dir, compiled for @conf->uapi_arch's user space (by default
 * the one the tree has, x86_64 first: utree__guess_arch()); no syscall, no kernel
 * layout. Same commit discipline as a kernel's extraction.
 */
static int extract_headers(const struct extract_conf *conf, struct extract_stats *stats)
{
	struct extract_conf hconf = *conf;
	struct ioctl_types it = { 0 };
	struct header_job hj = { 0 };
	struct type_sink *sink = NULL;
	struct kdb *db = NULL;
	int err;

	memset(stats, 0, sizeof(*stats));
	if (!conf->uapi_dir) {
		kd_err("nothing to extract: no vmlinux and no UAPI header tree");
		return -KD_EUSAGE;
	}
	hconf.modules_dir = NULL;	/* module types answer a kernel's ioctls, not a header tree's */
	hconf.modules_feed = NULL;
	if (!hconf.uapi_arch)
		hconf.uapi_arch = utree__guess_arch(conf->uapi_dir);
	conf = &hconf;
	err = header_job__start(&hj, conf, conf->uapi_arch);
	if (!err)
		err = kdb__create(conf->output, &db);
	if (!err)
		err = type_sink_new(&sink);
	if (!err)
		err = extract_uapi(conf, conf->uapi_arch, &it, &hj, db, sink, stats);
	if (!err)
		err = header_job__compat(&hj, db, sink, stats);
	if (!err)
		err = write_header_identity(db, conf, &hj);
	if (!err && conf->before_commit)
		err = conf->before_commit(db, conf->before_commit_ctx);
	if (!err)
		err = kdb__commit(db);
	header_job__release(&hj);
	type_sink_free(sink);
	kdb__free(db);
	return err;
}

int extract__vdso_dir(const struct extract_conf *conf, char **out)
{
	struct kd_buf b = KD_BUF_INIT;
	const char *slash = strrchr(conf->vmlinux, '/');
	struct stat st;

	*out = NULL;
	if (conf->vdso_dir)
		return (*out = kd_strdup(conf->vdso_dir)) ? 0 : -ENOMEM;
	if (kd_buf_addf(&b, "%.*svdso", slash ? (int)(slash - conf->vmlinux + 1) : 0, conf->vmlinux))
		return -ENOMEM;
	if (!stat(b.s, &st) && S_ISDIR(st.st_mode))
		*out = kd_buf_detach(&b);
	kd_buf_release(&b);
	return 0;
}

/* One vmlinux's extraction: what extract__run() holds from phase to phase. */
struct kx {
	const struct extract_conf *conf;
	struct extract_stats *stats;
	struct ioctl_types it;
	struct header_job hj;
	struct xsyscalls sys;
	struct xtable xt;
	struct kelf *k;
	struct kdwarf *d;
	struct kdb *db;
	struct type_sink *sink;
	char *vdir;
};

/* 1. The ELF and its syscall tables (fails fast on a non-kernel), then the DWARF's dispatchers. */
static int open_kernel(struct kx *x)
{
	int err = kelf_open(x->conf->vmlinux, &x->k);

	if (!err)
		err = kelf_load_symbols(x->k);
	if (!err)
		err = xsyscalls_read_tables(&x->sys, x->k);
	if (!err)
		err = kdwarf_open(x->k, &x->d);
	return err ? err : xsyscalls_read_dispatchers(&x->sys, x->k, x->d);
}

/* With --uapi, the types the headers' ioctls name and the header job; with --modules alone, none. */
static int start_uapi(struct kx *x)
{
	const struct extract_conf *conf = x->conf;
	int err;

	if (conf->uapi_dir) {
		err = ioctl_types__collect(&x->it, conf->uapi_dir, x->k->arch);
		return err ? err : header_job__start(&x->hj, conf, x->k->arch);
	}
	if (!conf->modules_dir && !conf->modules_feed)
		return 0;
	kd_warn("%s: --modules without --uapi: no ioctl types to look for; modules are only"
		" listed", conf->modules_feed ? conf->modules_feed->what : conf->modules_dir);
	return name_set_new(&x->it.wanted);
}

/* The output DB, the type table over the DWARF and the sink the types go through. */
static int open_output(struct kx *x)
{
	int err = kdb__create(x->conf->output, &x->db);

	if (!err)
		err = xtable_init(&x->xt, x->d, x->db, x->conf->vmlinux);
	return err ? err : type_sink_new(&x->sink);
}

/* 2-3. The signatures and the types they and the headers reach, settled and written. */
static int write_layouts(struct kx *x)
{
	const struct extract_conf *conf = x->conf;
	bool modules = conf->modules_dir || conf->modules_feed;
	int64_t nr_types = 0;
	int err;

	if (conf->progress || conf->phases)
		kd_progress("reading the syscall signatures of %s", kd_path_short(conf->vmlinux, NULL));
	err = xsyscalls_read_signatures(&x->sys, &x->xt, x->k);
	if (!err && conf->uapi_dir)
		err = ioctl_types__find_vmlinux(&x->it, &x->xt);
	if (!err)
		err = xt_complete(&x->xt);
	if (!err)
		err = xt_write(&x->xt, x->sink, &nr_types);
	if (!err)
		err = extract_write_origins(&x->xt, x->db);
	if (!err && modules)
		err = write_vmlinux_headers(x->d, x->db);
	if (!err && modules)
		err = write_vmlinux_fops(x->d, x->db);
	if (!err)
		err = xsyscalls_write(&x->sys, &x->xt, x->db);
	x->stats->types = nr_types;
	return err;
}

/* 4-5. The modules' types, the constants and ioctls; the identity. */
static int write_uapi_identity(struct kx *x)
{
	int err = 0;

	if (x->it.wanted) {
		if (x->it.where)
			ioctl_types__resolve_vmlinux(&x->it, &x->xt);
		err = extract_uapi(x->conf, x->k->arch, &x->it, &x->hj, x->db, x->sink, x->stats);
	}
	if (!err)
		err = extract_write_identity(x->db, x->k, x->d->version, x->conf->vmlinux);
	return err ? err : extract_boot_support(x->db, x->k);
}

/*
 * 5. The vDSO images, and their DWARF when a vdso/ directory is found.
 * $KABI_DIFF_BENCH_VDSO=off, a knob of bench/run only: the extraction
 * without its vDSO pass (no meta "vdso": the diff compares none), so
 * that `make bench` can set what the pass costs against the rest.
 */
static int read_vdso(struct kx *x)
{
	const char *knob = getenv("KABI_DIFF_BENCH_VDSO");
	struct timespec t0, t1;
	int err;

	if (knob && !strcmp(knob, "off"))
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = extract_vdso(x->db, x->k, x->conf->vmlinux, &x->stats->problems);
	if (!err && !(err = extract__vdso_dir(x->conf, &x->vdir)) && x->vdir)
		err = extract_vdso_dwarf(x->db, x->sink, x->vdir, x->k->arch, &x->stats->problems);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	x->stats->vdso_seconds = elapsed(&t0, &t1);
	return err;
}

/* 6. The 32-bit header view, the caller's last word, the commit; then the counts. */
static int commit(struct kx *x)
{
	const struct extract_conf *conf = x->conf;
	size_t i;
	int err = 0;

	if (conf->uapi_dir)
		err = header_job__compat(&x->hj, x->db, x->sink, x->stats);
	if (!err && conf->before_commit)
		err = conf->before_commit(x->db, conf->before_commit_ctx);
	if (!err)
		err = kdb__commit(x->db);
	if (err)
		return err;
	x->stats->syscalls = (int64_t)x->sys.nr_slots;
	for (i = 0; i < x->sys.nr_funcs; i++)
		x->stats->functions += x->sys.funcs[i].found;
	x->stats->problems += x->xt.nr_problems;
	return 0;
}

static void kx_release(struct kx *x)
{
	free(x->vdir);
	header_job__release(&x->hj);
	ioctl_types__release(&x->it);
	xtable_release(&x->xt);
	type_sink_free(x->sink);
	xsyscalls_release(&x->sys);
	kdb__free(x->db);
	kdwarf_close(x->d);
	kelf_close(x->k);
}

int extract__run(const struct extract_conf *conf, struct extract_stats *stats)
{
	struct kx x = { .conf = conf, .stats = stats };
	int err;

	if (!conf->vmlinux)
		return extract_headers(conf, stats);
	if (extract__is_boot_image(conf->vmlinux))
		return extract_btf(conf, stats);	/* no DWARF: BTF and System.map */
	memset(stats, 0, sizeof(*stats));
	err = open_kernel(&x);
	if (!err)
		err = start_uapi(&x);
	if (!err)
		err = open_output(&x);
	if (!err)
		err = write_layouts(&x);
	if (!err)
		err = write_uapi_identity(&x);
	if (!err)
		err = read_vdso(&x);
	if (!err)
		err = commit(&x);
	kx_release(&x);
	return err;
}

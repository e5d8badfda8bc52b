// SPDX-License-Identifier: GPL-2.0-only
/*
 * extract__run() for a bootable image: the bzImage's ELF, System.map for
 * its symbols, BTF for the types. The steps are the DWARF path's, each
 * through the same code where the answer is the same: the syscall tables
 * (syscall-table.c, over System.map), the type table, layout settling,
 * dedup and the DB write (type-*.c), the rows of the syscalls
 * (syscalls-write.c). What BTF cannot say is written down as meta
 * "coverage_gaps", which `show info` and the diff's coverage line print,
 * so a difference from a DWARF extraction is never a silent one.
 */
#include "extract/btf_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "extract/boot_internal.h"
#include "extract/extract.h"
#include "extract/header_job_internal.h"
#include "extract/ioctl_types_internal.h"
#include "extract/vdso_internal.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/path.h"
#include "lib/str.h"

bool extract__is_boot_image(const char *path)
{
	unsigned char head[0x210];
	ssize_t n = kd_read_head(path, head, sizeof(head));

	return n > 0 && (bzimage_is(head, (size_t)n) || arm64_image_is(path, head, (size_t)n));
}

/*
 * System.map beside @image: System.map-RELEASE for /boot/vmlinuz-RELEASE
 * (Debian's /boot), else System.map in the same directory. Malloc'ed, or
 * NULL with the places looked at reported.
 */
static char *find_system_map(const char *image)
{
	char *copy = kd_strdup(image), *dir, *base;
	struct kd_buf a = KD_BUF_INIT, b = KD_BUF_INIT;
	char *found = NULL;

	if (!copy)
		return NULL;
	base = strrchr(copy, '/');
	dir = base ? copy : ".";
	if (base)
		*base++ = '\0';
	else
		base = copy;
	if (kd_starts_with(base, "vmlinuz-") &&
	    !kd_buf_addf(&a, "%s/System.map-%s", *dir ? dir : "/", base + 8) &&
	    !access(a.s, R_OK))
		found = kd_buf_detach(&a);
	if (!found && !kd_buf_addf(&b, "%s/System.map", *dir ? dir : "/") && !access(b.s, R_OK))
		found = kd_buf_detach(&b);
	if (!found)
		kd_err("%s: no System.map beside the image (%s%sSystem.map); give it with"
		       " --system-map", image, a.len ? a.s : "", a.len ? " or " : "");
	kd_buf_release(&a);
	kd_buf_release(&b);
	free(copy);
	return found;
}

int boot_image_open_elf(const char *path, const char *map, struct kelf **out)
{
	unsigned char head[0x210];
	ssize_t n = kd_read_head(path, head, sizeof(head));
	char *found;
	int err;

	*out = NULL;
	if (n > 0 && bzimage_is(head, (size_t)n))
		return bzimage_open_elf(path, out);
	/* An arm64 Image has no section headers: System.map says where its parts are. */
	found = map ? kd_strdup(map) : find_system_map(path);
	if (!found)
		return map ? -ENOMEM : -ENOENT;
	err = arm64_image_open_elf(path, found, out);
	free(found);
	return err;
}

/* Does System.map belong to this image? linux_banner must be where it says. */
static int check_map(struct kelf *k, const char *map)
{
	const struct kelf_symbol *s = kelf_symbol_by_name(k, "linux_banner");
	const char *p = s ? (const char *)kelf_read_addr(k, s->addr, 14) : NULL;

	if (!p || memcmp(p, "Linux version ", 14)) {
		kd_err("%s: does not belong to %s (no linux_banner at its address)", map, k->path);
		return -KD_EFORMAT;
	}
	return 0;
}

/*
 * kernel/sys_ni.c's COND_SYSCALL stubs are weak: where the call is built
 * the linker keeps the strong entry point, so a weak entry System.map
 * still lists ("W") is the stub, answering ENOSYS. (DWARF says the same
 * by the stub's declaration file.)
 */
static void mark_stubs(struct xsyscalls *s)
{
	size_t i;

	for (i = 0; i < s->nr_slots; i++)
		if (s->slots[i].entry && s->slots[i].entry->bind == STB_WEAK)
			s->slots[i].implemented = false;
}

/*
 * A stub's function, as DWARF describes it: declared in kernel/sys_ni.c
 * (where COND_SYSCALL puts it; BTF has no line), no arguments, long. The
 * diff's rules on compiled-out and removed calls read that file name.
 */
static int stub_funcs(struct xsyscalls *s, struct xbtf *b)
{
	size_t i;
	int err = 0;

	for (i = 0; !err && i < s->nr_slots; i++) {
		struct xfunc *f = s->slots[i].func ? xsyscalls_func(s, s->slots[i].func) : NULL;

		if (!f || f->found || !s->slots[i].entry || s->slots[i].entry->bind != STB_WEAK)
			continue;
		f->decl_file = kd_strdup("kernel/sys_ni.c");
		if (!f->decl_file)
			return -ENOMEM;
		err = xbtf_base_type(b, "long int", &f->ret);
		f->source = "btf";
		f->found = true;
	}
	return err;
}

/* What this extraction could not know, as one line (meta coverage_gaps). */
static int write_gaps(struct kdb *db, const struct xsyscalls *s, size_t from_func,
		      size_t from_meta)
{
	struct kd_buf g = KD_BUF_INIT;
	size_t i, none = 0;
	int err;

	for (i = 0; i < s->nr_funcs; i++)
		none += !s->funcs[i].found;
	err = kd_buf_addf(&g, "BTF: no declaration files or lines; no explicit alignment"
			  " (natural alignment computed); [] and [0] arrays told apart by"
			  " position; compat signatures only where BTF keeps __do_compat_sys_; signatures: %zu from BTF"
			  " functions, %zu from ftrace metadata, %zu without", from_func, from_meta,
			  none);
	if (!err)
		err = kdb__set_meta(db, "coverage_gaps", g.s);
	kd_buf_release(&g);
	return err;
}

/* One bootable image's extraction: what extract_btf() holds from step to step. */
struct bx {
	const struct extract_conf *conf;
	struct extract_stats *stats;
	struct ioctl_types it;
	struct header_job hj;
	struct xsyscalls sys;
	struct xtable xt;
	struct type_sink *sink;
	struct xbtf *b;
	struct kelf *k;
	struct kdb *db;
	char *map, *vdir;
	size_t from_func, from_meta;	/* signatures from BTF functions, from ftrace metadata */
};

/* The image's ELF with System.map's symbols; the header job; the syscall tables. */
static int open_image(struct bx *x)
{
	const struct extract_conf *conf = x->conf;
	int err = boot_image_open_elf(conf->vmlinux, x->map, &x->k);

	if (!err)
		err = kelf_load_system_map(x->k, x->map);
	if (!err)
		err = check_map(x->k, x->map);
	/* The headers compile while BTF is read, as on the DWARF path. */
	if (!err && conf->uapi_dir) {
		err = ioctl_types__collect(&x->it, conf->uapi_dir, x->k->arch);
		if (!err)
			err = header_job__start(&x->hj, conf, x->k->arch);
	}
	if (!err)
		err = xsyscalls_read_tables(&x->sys, x->k);
	if (!err)	/* no DWARF: the dispatched ABIs' entry points by name */
		err = xsyscalls_read_dispatchers(&x->sys, x->k, NULL);
	if (!err)
		mark_stubs(&x->sys);
	return err;
}

/* The output DB, the type table (no DWARF), the BTF reader and the type sink. */
static int open_output(struct bx *x)
{
	int err = kdb__create(x->conf->output, &x->db);

	if (!err)
		err = xtable_init(&x->xt, NULL, x->db, x->conf->vmlinux);
	if (err)
		return err;
	xtable_detach_dwarf(&x->xt);	/* no DWARF: no source-file names to keep */
	err = xbtf_new(x->k, &x->xt, &x->b);
	return err ? err : type_sink_new(&x->sink);
}

/* The signatures and the types they and the headers reach, from BTF; settled and written. */
static int write_layouts(struct bx *x)
{
	int64_t nr_types = 0;
	int err;

	if (x->conf->progress || x->conf->phases)
		kd_progress("reading the syscall signatures of %s from BTF",
			    kd_path_short(x->conf->vmlinux, NULL));
	err = xbtf_read_signatures(&x->sys, x->b, x->k, &x->from_func, &x->from_meta);
	if (!err)
		err = stub_funcs(&x->sys, x->b);
	/* The ioctl argument types vmlinux defines, as the DWARF path finds them by name. */
	if (!err && x->conf->uapi_dir) {
		int found = xbtf_find_named(x->b, x->it.wanted, x->it.vm_found);

		err = found < 0 ? found : 0;
	}
	if (!err)
		err = xbtf_drain(x->b);
	if (!err)
		err = xt_complete(&x->xt);
	if (!err)
		err = xt_write(&x->xt, x->sink, &nr_types);
	if (!err)
		err = extract_write_origins(&x->xt, x->db);
	if (!err)
		err = xsyscalls_write(&x->sys, &x->xt, x->db);
	x->stats->types = nr_types;
	return err;
}

/* The constants and ioctls, the identity and what BTF cannot say, the vDSO. */
static int write_rest(struct bx *x)
{
	const struct extract_conf *conf = x->conf;
	int err = 0;

	if (x->it.wanted) {
		ioctl_types__resolve_vmlinux(&x->it, &x->xt);
		err = extract_uapi(conf, x->k->arch, &x->it, &x->hj, x->db, x->sink, x->stats);
	}
	if (!err)
		err = extract_write_identity(x->db, x->k, 0, conf->vmlinux);
	if (!err)
		err = kdb__set_meta(x->db, "input", "btf");
	if (!err)
		err = write_gaps(x->db, &x->sys, x->from_func, x->from_meta);
	if (!err)
		err = extract_boot_support(x->db, x->k);
	/* The vDSO images are in the image's ELF as in vmlinux; their debug images where given. */
	if (!err)
		err = extract_vdso(x->db, x->k, conf->vmlinux, &x->stats->problems);
	if (!err && !(err = extract__vdso_dir(conf, &x->vdir)) && x->vdir)
		err = extract_vdso_dwarf(x->db, x->sink, x->vdir, x->k->arch, &x->stats->problems);
	return err;
}

/* The 32-bit header view, the caller's last word, the commit; then the counts. */
static int commit(struct bx *x)
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

static void bx_release(struct bx *x)
{
	header_job__release(&x->hj);
	ioctl_types__release(&x->it);
	xbtf_free(x->b);
	xtable_release(&x->xt);
	type_sink_free(x->sink);
	xsyscalls_release(&x->sys);
	kdb__free(x->db);
	kelf_close(x->k);
	free(x->map);
	free(x->vdir);
}

int extract_btf(const struct extract_conf *conf, struct extract_stats *stats)
{
	struct bx x = { .conf = conf, .stats = stats };
	int err;

	memset(stats, 0, sizeof(*stats));
	if (conf->modules_dir || conf->modules_feed) {
		kd_err("%s: --modules is not read with a bootable image yet (their split BTF);"
		       " extract the image with --uapi alone", conf->vmlinux);
		return -KD_EUNSUPPORTED;
	}
	x.map = conf->system_map ? kd_strdup(conf->system_map) : find_system_map(conf->vmlinux);
	if (!x.map)
		return conf->system_map ? -ENOMEM : -ENOENT;
	err = open_image(&x);
	if (!err)
		err = open_output(&x);
	if (!err)
		err = write_layouts(&x);
	if (!err)
		err = write_rest(&x);
	if (!err)
		err = commit(&x);
	bx_release(&x);
	return err;
}

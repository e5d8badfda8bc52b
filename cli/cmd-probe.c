// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-diff probe: boot a kernel under QEMU with a generated probe as
 * /init, record what each case's syscall really returned, and store cases
 * and results in the kernel's .kabi (tables probe_cases, probe_results).
 * The probe runs first and the DB is updated only on success, through
 * kdb__open_update(): a failed boot leaves the .kabi untouched.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/builtin.h"
#include "cli/contract.h"
#include "cli/parse-options.h"
#include "db/kdb.h"
#include "extract/image.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "probe/probe.h"
#include "spec/spec.h"

static const struct cli_command probe_cmd = {
	.name = "probe",
	.head = "usage: kabi-diff probe K.kabi --kernel VMLINUZ [options]\n"
		"\n"
		"Boot VMLINUZ (the bootable image of the kernel K.kabi was extracted from)\n"
		"under QEMU with a generated static probe as /init, run every case (one\n"
		"syscall with concrete arguments: bad fds, bad flags, faulting pointers,\n"
		"short sizes; each flag bit alone), and store what the kernel returned\n"
		"in K.kabi. The VM is of the kernel's architecture: x86_64 needs\n"
		"qemu-system-x86_64 and cc with a static libc; arm64 qemu-system-aarch64\n"
		"(QEMU's virt board, the max CPU) and aarch64-linux-gnu-gcc with a static\n"
		"libc.\n"
		"\n",
	.help_col = 25,
	.tail = "\n"
		"Before booting, the image is checked: the kernel K.kabi describes (build-id,\n"
		"or a bzImage's release and build), bootable by QEMU, and built with a serial\n"
		"console, initramfs, ELF binaries and a way to power off (probe/README.md).\n"
		"\n"
		"A case whose arguments meet a known deviation of the contract\n"
		"('deviation' in spec/FORMAT.md) and that the kernel answered so is\n"
		"printed KNOWN, with the reason, and is not a mismatch.\n"
		"\n"
		"Exit status: 0 every case as expected or a known deviation, 1 error\n"
		"(nothing stored), 2 usage error, 4 results stored with mismatches.\n",
};

struct probe_opts {
	const char *db_path, *kernel, *spec, *cc;
	const char *fs;			/* the probe's files' file system, as chosen */
	struct probe_boot_conf boot;
	int timeout_s, fs_given;	/* --timeout; --fs, of fs_names (-1: none) */
	bool gzip, list, verbose, quiet, no_builtin, no_spec;
};

static const char *const fs_names[] = { "tmpfs", "ext4", NULL };

static int list_cases(const struct probe_set *set)
{
	struct kd_buf args = KD_BUF_INIT;
	size_t i;
	int err = 0;

	for (i = 0; !err && i < probe_set__count(set); i++) {
		const struct probe_case *c = probe_set__case(set, i);

		kd_buf_reset(&args);
		err = probe_case__format_args(c, &args);
		if (!err)
			printf("%-44s %s(%s) -> %s%s\n", c->id, c->call, args.s,
			       c->expect == PROBE_EXPECT_ACCEPT ? "not " : "",
			       c->expect_errno ? c->expect_errno : probe_expect_name(c->expect));
	}
	kd_buf_release(&args);
	return err ? KD_EXIT_ERROR : KD_EXIT_OK;
}

static void print_results(const struct probe_set *set, const struct probe_run *run,
			  bool all)
{
	struct kd_buf got = KD_BUF_INIT;
	size_t i;

	for (i = 0; i < probe_set__count(set); i++) {
		const struct probe_case *c = probe_set__case(set, i);
		const struct probe_result *r = &run->results[i];
		bool ok = probe__matches(c, r), known = !ok && probe__deviates(c, r);

		if (ok && !all)
			continue;
		kd_buf_reset(&got);
		if (probe_result__format(r, &got))
			break;
		printf("  %-44s %-10s expected %s%s%s\n", c->id, got.s,
		       c->expect == PROBE_EXPECT_ACCEPT ? "not " : "",
		       c->expect_errno ? c->expect_errno : probe_expect_name(c->expect),
		       ok ? "" : known ? "  KNOWN" : "  MISMATCH");
		if (known)
			printf("  %-44s known deviation: %s\n", "", c->deviation_why);
	}
	kd_buf_release(&got);
}

/*
 * The cases: the contract's (--spec DIR, else the one stored in the DB),
 * then the built-in cases whose ids the contract did not take.
 */
static int build_set(const struct probe_opts *o, struct probe_set **out)
{
	struct probe_spec_stats st = { 0 };
	struct probe_set *set = NULL, *builtin = NULL;
	struct spec *s = NULL;
	struct kdb *db = NULL;
	char *source = NULL;
	size_t absent = 0;
	long added = 0;
	int err;

	err = probe_set__new(&set);
	if (!err && o->db_path)
		err = kdb__open(o->db_path, &db);
	if (!err && db) {
		/* The policy of cli/contract.h, as check and diff. */
		bool installed;

		err = cli_contract_resolve(o->spec, o->no_spec, db, o->db_path, &s, &source,
					   &installed);
	} else if (!err && o->spec) {
		kd_warn("probe: --spec needs K.kabi (constants, syscall numbers); ignored");
	}
	if (!err && s)
		err = probe__add_spec(set, s, db, o->fs, &st);
	if (!err && !o->no_builtin) {
		err = probe_set__new(&builtin);
		if (!err)
			err = probe__add_builtin(builtin, db, &absent);
		added = err ? 0 : probe_set__merge(set, builtin);
		err = added < 0 ? (int)added : err;
	}
	if (!err && s)
		kd_info("probe: contract %s: %zu of %zu syscalls probed (%zu never probed, %zu not in "
			"this kernel, %zu without a usable fd), %zu errno + %zu flag cases; %zu "
			"conditions not evaluable, %zu unsolved, %zu newer; %ld built-in cases",
			source, st.calls_probed, st.calls, st.calls_skipped, st.calls_absent,
			st.calls_unprobeable, st.errno_cases, st.flag_cases, st.errnos_unevaluable,
			st.errnos_unsolved, st.errnos_newer, added);
	else if (!err && db)
		kd_info("probe: no contract, %ld built-in cases", added);
	if (!err && absent)
		kd_info("probe: %zu built-in call%s or flag set%s for syscalls this kernel lacks: "
			"not probed", absent, absent == 1 ? "" : "s", absent == 1 ? "" : "s");
	free(source);
	probe_set__free(builtin);
	spec__free(s);
	kdb__free(db);
	if (err) {
		probe_set__free(set);
		set = NULL;
	}
	*out = set;
	return err;
}

/*
 * Where the probe's files will be (o->fs, and o->boot.fs for the boot),
 * and how that was decided, in @choice: "--fs ext4", "default", or why
 * the default is not ext4 here. @modules holds the modules tree's path.
 */
static int choose_fs(struct probe_opts *o, const char *boot_support, struct kd_buf *modules,
		     struct kd_buf *choice)
{
	struct kd_buf why = KD_BUF_INIT;
	int err = 0;

	if (!o->boot.modules_dir) {
		/* fetch's layout: RELEASE/vmlinuz next to RELEASE/modules. */
		const char *slash = strrchr(o->kernel, '/');

		err = slash ? kd_buf_addf(modules, "%.*s/modules", (int)(slash - o->kernel), o->kernel)
			    : kd_buf_adds(modules, "modules");
		o->boot.modules_dir = modules->s;
	}
	if (!err && o->boot.fs) {
		o->fs = o->boot.fs;
		err = kd_buf_addf(choice, "--fs %s", o->fs);
	} else if (!err) {
		err = probe__fs_choose(o->boot.modules_dir, boot_support, &o->fs, &why);
		if (!err)
			err = why.len ? kd_buf_addf(choice, "default; not ext4: %s", why.s)
				      : kd_buf_adds(choice, "default");
		/* Said before the boot: the contract's deviations of tmpfs will be the ones taken. */
		if (!err && why.len)
			kd_warn("probe: the probe's files on tmpfs, not ext4: %s", why.s);
		/* The initramfs's tmpfs needs nothing; a check of it would refuse a ramfs root. */
		o->boot.fs = strcmp(o->fs, "ext4") ? NULL : o->fs;
		/* ext4 built in, and no tree: nothing to load. */
		if (o->boot.fs && access(o->boot.modules_dir, F_OK) < 0)
			o->boot.modules_dir = NULL;
	}
	kd_buf_release(&why);
	return err;
}

static int parse_opts(int argc, char **argv, struct probe_opts *o)
{
	const struct cli_option opts[] = {
		{ CLI_STRING('k', "kernel", &o->kernel, "VMLINUZ", "the image to boot (required):"
			     " x86_64: the bzImage,\nor the vmlinux when it has a PVH entry"
			     " (CONFIG_PVH):\nno decompression, a shorter boot under TCG;\narm64:"
			     " the uncompressed Image (Debian's vmlinuz)") },
		{ CLI_STRING(0, "spec", &o->spec, "DIR", "the contract whose cases to run (default:"
			     " the one\nstored in K.kabi, else $KABI_DIFF_SPEC, else the\ninstalled"
			     " one, as for check and diff);\nits errno conditions and flag sets become"
			     " cases,\nand the built-in cases it does not replace run too") },
		{ CLI_FLAG(0, "no-spec", &o->no_spec, "no contract: the built-in cases only") },
		{ CLI_FLAG(0, "no-builtin", &o->no_builtin, "only the contract's cases") },
		{ CLI_INT('t', "timeout", &o->timeout_s, "S", 1, 3600, "--timeout: seconds, 1..3600",
			  "kill QEMU after S seconds (default 120)") },
		{ CLI_STRING(0, "accel", &o->boot.accel, "A", "QEMU accelerator: tcg (default) or kvm") },
		{ CLI_STRING(0, "cc", &o->cc, "CC", "compiler for the probe (default cc, or the"
			     " cross\ncompiler of the kernel's architecture)") },
		{ CLI_FLAG(0, "gzip", &o->gzip, "gzip the initramfs") },
		{ CLI_CHOICE(0, "fs", &o->fs_given, "FS", fs_names, "--fs: tmpfs or ext4",
			     "where the probe's directory and file live: ext4\n(an image made by mke2fs,"
			     " mounted by the probe\nthrough a loop device; the modules it needs"
			     " are\nloaded from --modules) or tmpfs (the initramfs).\nDefault: ext4"
			     " when mke2fs is on PATH and the\nkernel has ext4 and loop built in or in"
			     " the\nmodules tree, else tmpfs (the run says why)") },
		{ CLI_STRING(0, "modules", &o->boot.modules_dir, "DIR", "the kernel's modules tree for"
			     " ext4 (default:\n'modules' next to the image, as fetch lays it out)") },
		{ CLI_FLAG('l', "list", &o->list, "print the cases and exit, without booting\n(K.kabi"
			   " optional: without it, no contract)") },
		{ CLI_FLAG('v', "verbose", &o->verbose, "print every result, not only mismatches"
			   " and\nknown deviations") },
		{ CLI_FLAG('q', "quiet", &o->quiet, "print nothing but errors") },
		{ CLI_HELP() },
		{ CLI_END },
	};
	int argi, status = cli_parse(&probe_cmd, opts, argc, argv, &argi);

	if (status != CLI_PARSED)
		return status;
	o->boot.timeout_s = (unsigned)o->timeout_s;
	if (o->fs_given >= 0)
		o->boot.fs = fs_names[o->fs_given];
	if (o->list) {
		if (argc - argi > 1)
			return cli_usage_error("probe", "--list takes at most one K.kabi");
		o->db_path = argc > argi ? argv[argi] : NULL;
		return CLI_PARSED;
	}
	if (argc - argi != 1)
		return cli_usage_error("probe", "expected one K.kabi");
	o->db_path = argv[argi];
	if (!o->kernel)
		return cli_usage_error("probe", "--kernel VMLINUZ is required");
	if (o->boot.modules_dir && o->boot.fs && !strcmp(o->boot.fs, "tmpfs"))
		return cli_usage_error("probe", "--modules is for ext4, not --fs tmpfs");
	return CLI_PARSED;
}

int cmd_probe(int argc, char **argv)
{
	struct probe_opts o = { .timeout_s = 120, .fs_given = -1 };
	struct probe_set *set = NULL;
	struct probe_run run = { 0 };
	struct probe_timing t = { 0 };
	struct kimage_id image = { 0 };
	struct kd_buf modules = KD_BUF_INIT, fs_choice = KD_BUF_INIT;
	struct kdb *db = NULL;
	char *release = NULL, *support = NULL;
	size_t mismatches = 0, known = 0;
	int rc, err;

	rc = parse_opts(argc, argv, &o);
	if (rc != CLI_PARSED)
		return rc;
	if (o.quiet)
		kd_log_set_level(KD_LOG_ERR);
	if (o.list) {
		/* No boot: the file system asked for, else the initramfs's. */
		o.fs = o.boot.fs ? o.boot.fs : "tmpfs";
		err = build_set(&o, &set);
		rc = err ? KD_EXIT_ERROR : list_cases(set);
		probe_set__free(set);
		return rc;
	}
	/* Refuse a bad DB or image before a boot of many seconds. */
	err = kdb__open(o.db_path, &db);
	if (err)
		goto fail;
	if (kdb__get_meta(db, "release", &release))
		release = NULL;
	err = extract__image_check(db, o.db_path, o.kernel, &image);
	if (!err)
		err = probe__check_kernel(db, o.db_path, o.kernel, image.arch,
					  image.kind == KIMAGE_ELF, image.pvh);
	o.boot.arch = image.arch;	/* static storage (lib/arch.h) */
	kimage_id_release(&image);
	if (!err && kdb__get_meta(db, "boot_support", &support))
		support = NULL;
	kdb__free(db);
	db = NULL;
	if (!err)
		err = choose_fs(&o, support, &modules, &fs_choice);
	if (err)
		goto fail;
	err = build_set(&o, &set);
	if (err)
		goto fail;
	kd_info("probe: booting %s with %zu cases, the probe's files on %s (%s)", o.kernel,
		probe_set__count(set), o.fs, fs_choice.s);
	err = probe__run(set, &o.boot, o.cc, o.gzip, o.kernel, &run, &t);
	if (err)
		goto fail;
	if (release && strcmp(release, run.release))
		kd_warn("%s: extracted from %s, but the booted kernel is %s", o.db_path, release,
			run.release);
	if (strcmp(o.fs, run.fs ? run.fs : "unknown"))
		kd_warn("%s: the probe's files were on %s, not %s: the contract's deviations of %s"
			" were taken", o.kernel, run.fs ? run.fs : "an unknown file system", o.fs, o.fs);
	err = kdb__open_update(o.db_path, &db);
	if (!err)
		err = probe__store(db, set, &run, o.kernel, &mismatches, &known);
	if (!err)
		err = kdb__set_meta(db, "probe_fs_choice", fs_choice.s);
	if (!err)
		err = kdb__commit(db);
	if (err)
		goto fail;
	if (!o.quiet) {
		printf("%s: %zu cases, %zu as expected, %zu mismatches, %zu known deviations "
		       "(build %.2f s, boot %.2f s, cases %.2f s; the probe's file on %s: %s)\n",
		       run.release, probe_set__count(set),
		       probe_set__count(set) - mismatches - known, mismatches, known,
		       t.gen_build_s, t.boot_s, t.cases_s, run.fs ? run.fs : "unknown",
		       fs_choice.s);
		print_results(set, &run, o.verbose);
	}
	rc = mismatches ? KD_EXIT_CHANGES : KD_EXIT_OK;
	goto out;
fail:
	if (err == -ENOMEM)
		kd_err("probe: out of memory");
	rc = KD_EXIT_ERROR;
out:
	kd_buf_release(&modules);
	kd_buf_release(&fs_choice);
	free(release);
	free(support);
	kdb__free(db);
	probe_run__release(&run);
	probe_set__free(set);
	return rc;
}

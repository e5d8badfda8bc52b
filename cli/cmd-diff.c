// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-diff diff (and the headline form `kabi-diff OLD NEW`): compare two
 * kernels' user-space ABI and print the annotated report. Each input is a
 * .kabi (recognized by content), a vmlinux, or a kernel directory (vmlinux
 * plus optional modules and UAPI headers); the last two are extracted on
 * the fly into a cache keyed by the build-id and by what else was read, so
 * that a second run costs only the diff (extract/input/).
 * The exit status carries abidiff's bits (4 changes, 8 breaking changes) and
 * kabi-diff's own 16 for source-level changes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "version.h"
#include "cli/builtin.h"
#include "cli/contract.h"
#include "cli/output.h"
#include "cli/output-check.h"
#include "extract/input/diff-inputs.h"
#include "extract/input/git-tree.h"
#include "extract/input/package.h"
#include "extract/input/usage.h"
#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "diff/diff.h"
#include "lib/arch.h"
#include "lib/buf.h"
#include "lib/mem.h"
#include "lib/err.h"
#include "lib/tmpfile.h"
#include "lib/usage.h"

static const char diff_usage[] =
	"usage: kabi-diff OLD NEW [options]\n"
	"       kabi-diff diff OLD NEW [options]\n"
	"       kabi-diff --old PKG... --new PKG... [options]   (each --old/--new: one package)\n"
	"       kabi-diff --git [-C REPO] [--arch ARCH] REV1 REV2 [options]   (or REV1..REV2)\n"
	"\n"
	"Compare two kernels' user-space ABI: syscalls, the types they reach,\n"
	"constants and ioctls. Every change gets a verdict from a rule of\n"
	"diff/RULES.md and the syscalls/ioctls it reaches. OLD and NEW are .kabi\n"
	"databases, vmlinux images with DWARF, or kernel directories: a build tree\n"
	"(vmlinux, *.ko below, include/uapi + arch/x86/include/uapi or usr/include),\n"
	"DIR/{vmlinux,modules/,include/}, or an unpacked debug package\n"
	"(usr/lib/debug/boot/vmlinux-*, usr/lib/debug/lib/modules/); with headers\n"
	"and modules the diff covers constants and ioctls too. A side can be a UAPI\n"
	"header tree alone (headers_install's linux/ and asm/, a source tree, an\n"
	"include/ with uapi/): its types as user space compiles them, constants and\n"
	"ioctls, no syscall; cached as headers-u-HASH.kabi. A side can also be\n"
	"distribution packages, comma-separated (A-dbg.deb,A-headers-common.deb;\n"
	"kernel-debuginfo.rpm,kernel-headers.rpm), or one per --old/--new, which a\n"
	"shell glob can give (--old A-dbg_*.deb --old A-headers_*.deb --new ...):\n"
	"read as streams, only the\n"
	"vmlinux and the UAPI headers unpacked, the modules (with headers) passed to\n"
	"the extraction a few at a time (at most ~128 MB waiting on disk). An input is\n"
	"extracted once into $XDG_CACHE_HOME/kabi-diff/ (default ~/.cache/kabi-diff),\n"
	"named BUILD-ID-KEY.kabi, or BUILD-ID-[u][m]-KEY.kabi with headers (u) or\n"
	"modules (m); KEY covers this kabi-diff's version, the vmlinux file and the\n"
	"headers' content, and is verified on every hit. Only what both sides cover\n"
	"is compared (constants and ioctls need UAPI headers on both sides, syscalls\n"
	"two kernel images); the report says what each side covered and what was not\n"
	"compared, and names the inputs as given.\n"
	"\n"
	"With --git, OLD and NEW are two revisions of a kernel git repository (the\n"
	"current directory, or -C REPO): their UAPI headers (include/uapi and\n"
	"arch/x86/include/uapi, or --arch arm64: arch/arm64/include/uapi with the\n"
	"asm-generic headers of include/uapi) are read as committed, from the object\n"
	"store (no filter, hook or other program the repository configures runs),\n"
	"never from the work tree, and compared as header trees compiled for that\n"
	"architecture (arm64: with aarch64-linux-gnu-gcc, or $KABI_DIFF_CC).\n"
	"\n"
	"      --old PKG, --new PKG one package of the old or the new kernel, instead of\n"
	"                           OLD and NEW (repeated: all --old form the old kernel)\n"
	"      --git                OLD and NEW are git revisions (REV1 REV2 or REV1..REV2)\n"
	"  -C, --repo REPO          with --git: the repository (default: .)\n"
	"      --arch ARCH          with --git: the architecture, x86_64 (default) or arm64\n"
	"  -f, --format FMT         text (default), json, md or sarif (SARIF 2.1.0)\n"
	"  -o, --output FILE        write the report to FILE (atomically; '-': stdout)\n"
	"      --review             Markdown for a review comment: at most 60,000 characters,\n"
	"                           breaking findings first, saying what it left out\n"
	"  -s, --suppressions FILE  accept reviewed changes: lines 'RULE NAME REASON...'\n"
	"      --for FILE           only what one program uses: FILE an strace -f log, a\n"
	"                           seccomp profile (JSON) or an ELF binary; the report\n"
	"                           and the exit status speak of its syscalls and ioctls\n"
	"      --only breaking      list breaking changes only (the summary stays whole\n"
	"                           and says how many changes were left out)\n"
	"      --stat               the summary only (counts per category and verdict),\n"
	"                           no change listed; text or Markdown\n"
	"      --full               text: list every change, also of the source-level,\n"
	"                           compatible, info and suppressed findings (one line per\n"
	"                           finding otherwise)\n"
	"      --color[=WHEN]       auto (default: on a terminal), always or never\n"
	"      --abi ABI            compare only this ABI's syscalls and vDSO (x64, ia32, x32;\n"
	"                           arm64, aarch32)\n"
	"      --spec DIR           the contract for verdicts (default: the one stored in\n"
	"                           NEW's .kabi, else $KABI_DIFF_SPEC=DIR|none, else the\n"
	"                           installed one)\n"
	"      --no-spec            no contract: verdicts from layout alone\n"
	"      --old-spec DIR --new-spec DIR\n"
	"                           also compare two contract versions (errnos, flag-set\n"
	"                           values); the new one judges unless --spec is given\n"
	"  -q, --quiet              no progress messages\n"
	"  -h, --help               this text\n"
	"\n"
	"Verdicts (diff/RULES.md): breaking (binaries built for OLD misbehave on NEW),\n"
	"source (binaries keep working, rebuilding old source fails or changes meaning),\n"
	"compatible, info. Each change names the evidence that decided it.\n"
	"\n"
	"Exit status: 0 no change, 1 error, 2 usage error; otherwise the OR of\n"
	"4 (changes), 8 (breaking changes) and 16 (source-level changes): 4, 12, 20\n"
	"or 28. Suppressed changes do not count.\n";

static int stop_at_first(const struct kd_syscall *sc, void *ctx)
{
	(void)sc;
	(void)ctx;
	return 1;
}

/* Has @db a syscall slot of @abi? (A typo compared no syscalls at all.) */
static bool has_abi(struct kdb *db, const char *abi)
{
	return kdb__foreach_syscall(db, abi, stop_at_first, NULL) == 1;
}

struct report_job {
	const struct diff_result *r;
	const struct report_conf *rc;
};

static int print_report(FILE *f, void *ctx)
{
	const struct report_job *job = ctx;

	return report__fprintf(job->r, job->rc, f);
}

/*
 * One package of --old or --new, added to the side's comma-separated list
 * (the form diff_inputs__open() reads): each a package on its own, a path
 * with a comma of its own refused (it would split).
 */
static int add_package(struct kd_buf *list, const char *opt, const char *pkg)
{
	if (strchr(pkg, ',')) {
		kd_err("%s %s: one package per %s (a comma in a path is not supported)", opt, pkg, opt);
		return -EINVAL;
	}
	if (!kpkg__is_package(pkg)) {
		if (access(pkg, F_OK))
			kd_err("%s %s: %s", opt, pkg, kd_strerror(-errno));
		else
			kd_err("%s %s: not a .deb or .rpm package", opt, pkg);
		return -EINVAL;
	}
	if (kd_buf_addf(list, "%s%s", list->len ? "," : "", pkg)) {
		kd_err("out of memory");
		return -ENOMEM;
	}
	return 0;
}

static int run_diff(int argc, char **argv, struct kd_buf pkgs[2])
{
	enum { OPT_GIT = 300, OPT_ARCH, OPT_OLD, OPT_NEW, OPT_REVIEW, OPT_FOR, OPT_STAT, OPT_ONLY = 256, OPT_FULL, OPT_COLOR, OPT_ABI, OPT_SPEC, OPT_NO_SPEC, OPT_OLD_SPEC, OPT_NEW_SPEC };
	static const struct option opts[] = {
		{ "git", no_argument, NULL, OPT_GIT },
		{ "old", required_argument, NULL, OPT_OLD },
		{ "new", required_argument, NULL, OPT_NEW },
		{ "repo", required_argument, NULL, 'C' },
		{ "arch", required_argument, NULL, OPT_ARCH },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "suppressions", required_argument, NULL, 's' },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "review", no_argument, NULL, OPT_REVIEW },
		{ "for", required_argument, NULL, OPT_FOR },
		{ "stat", no_argument, NULL, OPT_STAT },
		{ "full", no_argument, NULL, OPT_FULL },
		{ "color", optional_argument, NULL, OPT_COLOR },
		{ "colour", optional_argument, NULL, OPT_COLOR },
		{ "abi", required_argument, NULL, OPT_ABI },
		{ "spec", required_argument, NULL, OPT_SPEC },
		{ "no-spec", no_argument, NULL, OPT_NO_SPEC },
		{ "old-spec", required_argument, NULL, OPT_OLD_SPEC },
		{ "new-spec", required_argument, NULL, OPT_NEW_SPEC },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_conf rc = { .format = REPORT_TEXT, .tool_version = KD_VERSION };
	struct diff_conf conf = { 0 };
	struct cli_contract cc = { 0 };
	const char *spec_dir = NULL, *old_spec = NULL, *new_spec = NULL;
	bool no_spec = false;
	struct diff_suppressions *sup = NULL;
	struct diff_result *r = NULL;
	struct kdb *db[2] = { NULL, NULL };
	const char *output = NULL, *sup_path = NULL, *color = "auto", *repo = NULL, *for_path = NULL;
	struct kd_usage usage = KD_USAGE_INIT;
	const char *args[2], *revs[2] = { NULL, NULL }, *side[2] = { NULL, NULL };
	char *git_dirs[2] = { NULL, NULL }, *range = NULL;
	bool quiet = false, git = false, format_given = false;
	const struct kd_arch *arch = NULL;
	int i, c, status = KD_EXIT_ERROR;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":C:f:o:s:qh", opts, NULL)) != -1) {
		switch (c) {
		case OPT_GIT: git = true; break;
		case OPT_OLD:
		case OPT_NEW:
			if (add_package(&pkgs[c == OPT_NEW], c == OPT_NEW ? "--new" : "--old", optarg))
				goto out;
			break;
		case 'C': repo = optarg; break;
		case OPT_ARCH:
			arch = kd_arch__by_name(optarg);
			if (!arch)
				return cli_usage_error("diff", "diff: --arch %s: not a supported"
						       " architecture (%s)", optarg, kd_arch__supported());
			break;
		case 'f':
			if (report_format_from_name(optarg) < 0)
				return cli_usage_error("diff", "diff: unknown format '%s'", optarg);
			rc.format = report_format_from_name(optarg);
			format_given = true;
			break;
		case 'o': output = optarg; break;
		case 's': sup_path = optarg; break;
		case OPT_ONLY:
			if (strcmp(optarg, "breaking"))
				return cli_usage_error("diff", "diff: --only takes 'breaking'");
			rc.only_breaking = true;
			break;
		case OPT_FULL: rc.full = true; break;
		case OPT_REVIEW: rc.max_bytes = REPORT_REVIEW_BYTES; break;
		case OPT_FOR: for_path = optarg; break;
		case OPT_STAT: rc.stat = true; break;
		case OPT_COLOR:
			color = optarg ? optarg : "always";
			if (strcmp(color, "auto") && strcmp(color, "always") && strcmp(color, "never"))
				return cli_usage_error("diff", "diff: --color takes auto, always or never");
			break;
		case OPT_ABI: conf.abi = optarg; break;
		case OPT_SPEC: spec_dir = optarg; break;
		case OPT_NO_SPEC: no_spec = true; break;
		case OPT_OLD_SPEC: old_spec = optarg; break;
		case OPT_NEW_SPEC: new_spec = optarg; break;
		case 'q': quiet = true; break;
		case 'h': fputs(diff_usage, stdout); return KD_EXIT_OK;
		default: return cli_bad_option("diff", c, argv, opts);
		}
	}
	if (rc.max_bytes) {
		if (format_given && rc.format != REPORT_MD)
			return cli_usage_error("diff", "diff: --review is Markdown (-f md)");
		rc.format = REPORT_MD;
	}
	if (rc.stat && (rc.format == REPORT_JSON || rc.format == REPORT_SARIF))
		return cli_usage_error("diff", "diff: --stat is a text or Markdown summary (JSON has"
				       " .summary)");
	if (rc.stat && rc.max_bytes)
		return cli_usage_error("diff", "diff: --stat and --review exclude each other");
	if (repo && !git)
		return cli_usage_error("diff", "diff: -C REPO goes with --git");
	if (arch && !git)
		return cli_usage_error("diff", "diff: --arch goes with --git (other inputs"
				       " say their architecture)");
	side[0] = argv[optind];		/* argv[argc] is NULL */
	side[1] = optind < argc ? argv[optind + 1] : NULL;
	if (pkgs[0].len || pkgs[1].len) {
		if (git || !pkgs[0].len || !pkgs[1].len || optind != argc) {
			status = cli_usage_error("diff", git ? "diff: --old/--new and --git exclude each other" :
						 optind != argc ? "diff: --old/--new replace OLD and NEW" :
						 "diff: --old PKG and --new PKG go together");
			goto out;
		}
		side[0] = pkgs[0].s;
		side[1] = pkgs[1].s;
	} else if (git && optind + 1 == argc && strstr(argv[optind], "..")) {
		/* REV1..REV2 as git log spells a range (REV1...REV2 is not a pair). */
		char *dots;

		range = kd_strdup(argv[optind]);
		if (!range) {
			kd_err("out of memory");
			return KD_EXIT_ERROR;
		}
		dots = strstr(range, "..");
		*dots = '\0';
		revs[0] = range;
		revs[1] = dots + 2;
		if (!*revs[0] || !*revs[1] || strstr(revs[1], "..") || *revs[1] == '.') {
			free(range);
			return cli_usage_error("diff", "diff: --git takes REV1..REV2 or REV1 REV2");
		}
	} else if (optind + 2 != argc) {
		return cli_usage_error("diff", git ? "diff: --git takes REV1..REV2 or REV1 REV2" :
				       "diff: expected OLD and NEW, got %d arguments", argc - optind);
	} else if (git) {
		revs[0] = argv[optind];
		revs[1] = argv[optind + 1];
	}
	if ((old_spec != NULL) != (new_spec != NULL))
		return cli_usage_error("diff", "diff: --old-spec and --new-spec go together");
	if (output && !strcmp(output, "-"))
		output = NULL;	/* standard output */
	rc.color = !strcmp(color, "always") ||
		   (!strcmp(color, "auto") && !output && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
	if (quiet)
		kd_log_set_level(KD_LOG_ERR);
	if (output) {
		/* Git revisions are no files: the suppressions and contracts may be the output. */
		const char *inputs[] = { git ? NULL : side[0], git ? NULL : side[1],
					 sup_path, spec_dir, old_spec, new_spec, for_path };

		if (cli_output_check(output, inputs, sizeof(inputs) / sizeof(inputs[0])))
			goto out;
	}
	if (sup_path && diff_suppressions__load(sup_path, &sup))
		goto out;
	/* Before the kernels are read: a bad file costs no extraction. */
	if (for_path && usage__read(for_path, &usage))
		goto out;
	if (git) {
		for (i = 0; i < 2; i++) {
			/* Registered there: removed on a signal too. */
			if (git_tree__export(repo ? repo : ".", revs[i], arch, kd_tmpdir_parent(),
					     &git_dirs[i]))
				goto out;
			args[i] = git_dirs[i];
		}
	} else {
		args[0] = side[0];
		args[1] = side[1];
	}
	if (diff_inputs__open(args, git ? revs : NULL, quiet, db, conf.release))
		goto out;
	if (conf.abi && !has_abi(db[0], conf.abi) && !has_abi(db[1], conf.abi)) {
		status = cli_usage_error("diff", "diff: --abi %s: neither kernel has syscalls of"
					 " that ABI", conf.abi);
		goto out;
	}
	if (cli_contract_setup(&cc, spec_dir, no_spec, old_spec, new_spec, db[1],
			       git ? revs[1] : side[1], &conf))
		goto out;
	conf.input[0] = side[0];	/* reports name what the user gave, not a cache file */
	conf.input[1] = side[1];
	if (diff__run(db[0], db[1], &conf, &r))
		goto out;
	if (sup && diff_result__suppress(r, sup) < 0) {
		kd_err("out of memory");
		goto out;
	}
	for (size_t i = 0; i < diff_result__nr_unmatched(r); i++)
		kd_warn("%s: this suppression matches no change", diff_result__unmatched(r, i));
	/* After the suppressions, which are matched against the whole diff. */
	if (for_path && diff_result__restrict(r, &usage, for_path, db[0], db[1]))
		goto out;
	/* Source lines only SARIF points at: one lookup per change. */
	if (rc.format == REPORT_SARIF && diff_result__locate(r, db[0], db[1])) {
		kd_err("diff: cannot read the declarations of the changes");
		goto out;
	}
	if (cli_write_output(output, print_report, &(struct report_job){ r, &rc }))
		goto out;
	status = diff_result__exit_bits(r);
out:
	for (i = 0; i < 2; i++)
		kd_tmpdir_remove(git_dirs[i]);
	free(range);
	diff_result__free(r);
	kdb__free(db[0]);
	kdb__free(db[1]);
	diff_suppressions__free(sup);
	kd_usage_release(&usage);
	cli_contract_release(&cc);
	return status;
}

int cmd_diff(int argc, char **argv)
{
	struct kd_buf pkgs[2] = { KD_BUF_INIT, KD_BUF_INIT };
	int status = run_diff(argc, argv, pkgs);

	kd_buf_release(&pkgs[0]);
	kd_buf_release(&pkgs[1]);
	return status;
}

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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "version.h"
#include "cli/builtin.h"
#include "cli/contract.h"
#include "cli/output.h"
#include "cli/output-check.h"
#include "cli/parse-options.h"
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
#include "lib/str.h"
#include "lib/err.h"
#include "lib/tmpfile.h"
#include "lib/usage.h"

static const struct cli_command diff_cmd = {
	.name = "diff",
	.head =
		"usage: kabi-diff OLD NEW [options]\n"
		"       kabi-diff diff OLD NEW [options]\n"
		"       kabi-diff --old PKG... --new PKG... [options]   (each --old/--new: one package)\n"
		"       kabi-diff --git [-C REPO] [--arch ARCH] REV1 REV2 [options]   (or REV1..REV2; REV: REV^..REV; none: HEAD..work tree)\n"
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
		"\n",
	.help_col = 27,
	.tail =
		"\n"
		"Verdicts (diff/RULES.md): breaking (binaries built for OLD misbehave on NEW),\n"
		"source (binaries keep working, rebuilding old source fails or changes meaning),\n"
		"compatible, info. Each change names the evidence that decided it.\n"
		"\n"
		"Exit status: 0 no change, 1 error, 2 usage error; otherwise the OR of\n"
		"4 (changes), 8 (breaking changes) and 16 (source-level changes): 4, 12, 20\n"
		"or 28. Suppressed changes do not count.\n",
};

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

/* What the command line of diff says. */
struct diff_opts {
	struct report_conf rc;
	struct cli_list pkgs[2];	/* --old, --new */
	const char *output, *sup_path, *repo, *for_path, *abi;
	const char *full_report, *full_url;	/* --full-report, --full-report-url */
	const char *spec_dir, *old_spec, *new_spec;
	const struct kd_arch *arch;
	int only;			/* -1, or 0: breaking */
	int color;			/* of color_names */
	bool git, review, no_spec, quiet, format_given;
};

static const char *const color_names[] = { "auto", "always", "never", NULL };
enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

static int format_option(const struct cli_command *cmd, const struct cli_option *opt,
			 const char *arg)
{
	struct diff_opts *o = opt->value;
	int format = report_format_from_name(arg);

	if (format < 0)
		return cli_usage_error(cmd->name, "diff: unknown format '%s'", arg);
	o->rc.format = format;
	o->format_given = true;
	return 0;
}

/* The packages of each side as diff_inputs__open() reads them, a comma-separated list. */
static int package_lists(const struct diff_opts *o, struct kd_buf pkgs[2])
{
	size_t i;
	int s;

	for (s = 0; s < 2; s++)
		for (i = 0; i < o->pkgs[s].n; i++)
			if (add_package(&pkgs[s], s ? "--new" : "--old", o->pkgs[s].v[i]))
				return -EINVAL;
	return 0;
}

/* Do @a and @b name one file: the same name, or an existing file's two names? */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return true;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * --full-report FILE [--full-report-url URL]: the review's rest, in the
 * same run. A usage error unless with --review (without it -o is the
 * whole report already), and the URL an http(s) one: it becomes a link
 * in a comment, where another scheme (javascript:) has no business.
 */
static int check_full_report(const struct diff_opts *o)
{
	const char *url = o->full_url;

	if (o->full_report && !o->review)
		return cli_usage_error("diff", "diff: --full-report goes with --review (without it,"
				       " -o writes the whole report)");
	if (url && !o->full_report)
		return cli_usage_error("diff", "diff: --full-report-url goes with --full-report");
	if (o->full_report && (!*o->full_report || !strcmp(o->full_report, "-")))
		return cli_usage_error("diff", "diff: --full-report takes a file name");
	if (o->full_report && o->output && same_file(o->full_report, o->output))
		return cli_usage_error("diff", "diff: --full-report %s: also the -o file",
				       o->full_report);
	if (url && !kd_starts_with(url, "https://") && !kd_starts_with(url, "http://"))
		return cli_usage_error("diff", "diff: --full-report-url %s: not an http:// or"
				       " https:// URL", url);
	return 0;
}

/*
 * May -o's @output (NULL: stdout) and --full-report's file be written?
 * Neither over an input, nor one over the other under another name.
 */
static int check_outputs(const struct diff_opts *o, const char *const side[2], bool git,
			 const char *output)
{
	/* Git revisions are no files: the suppressions and contracts may be the output. */
	const char *files[] = { git ? NULL : side[0], git ? NULL : side[1], o->sup_path,
				o->spec_dir, o->old_spec, o->new_spec, o->for_path, NULL };
	size_t n = sizeof(files) / sizeof(files[0]);

	files[n - 1] = o->full_report;	/* the last slot: the other output */
	if (output && cli_output_check(output, files, n))
		return -1;
	files[n - 1] = output;
	if (o->full_report && cli_output_check(o->full_report, files, n))
		return -1;
	return 0;
}

/*
 * The whole Markdown report, uncut, to --full-report's file: the same
 * result as the review, so that the note's count of what was left out is
 * exactly what the file adds.
 */
static int write_full_report(const struct diff_opts *o, const struct diff_result *r,
			     const struct report_conf *review)
{
	struct report_conf whole = *review;

	whole.max_bytes = 0;
	whole.whole_name = whole.whole_url = NULL;
	return cli_write_output(o->full_report, print_report, &(struct report_job){ r, &whole });
}

/* diff with the options parsed, @args its @nr operands. */
static int run_diff(struct diff_opts *o, int nr, char **args)
{
	struct report_conf rc = o->rc;
	struct diff_conf conf = { .abi = o->abi };
	struct kd_buf pkgs[2] = { KD_BUF_INIT, KD_BUF_INIT };
	struct cli_contract cc = { 0 };
	struct diff_suppressions *sup = NULL;
	struct diff_result *r = NULL;
	struct kdb *db[2] = { NULL, NULL };
	const char *output = o->output;
	struct kd_usage usage = KD_USAGE_INIT;
	const char *inputs[2], *revs[2] = { NULL, NULL }, *side[2] = { NULL, NULL };
	char *git_dirs[2] = { NULL, NULL }, *range = NULL;
	bool git = o->git, worktree = false;
	int i, status = KD_EXIT_ERROR;

	if (package_lists(o, pkgs))
		goto out;
	rc.only_breaking = o->only == 0;
	if (o->review)
		rc.max_bytes = REPORT_REVIEW_BYTES;
	if (rc.max_bytes) {
		if (o->format_given && rc.format != REPORT_MD) {
			status = cli_usage_error("diff", "diff: --review is Markdown (-f md)");
			goto out;
		}
		rc.format = REPORT_MD;
	}
	if (check_full_report(o)) {
		status = KD_EXIT_USAGE;
		goto out;
	}
	rc.whole_name = o->full_report;
	rc.whole_url = o->full_url;
	if (rc.stat && (rc.format == REPORT_JSON || rc.format == REPORT_SARIF)) {
		status = cli_usage_error("diff", "diff: --stat is a text or Markdown summary (JSON has"
					 " .summary)");
		goto out;
	}
	if (rc.stat && rc.max_bytes) {
		status = cli_usage_error("diff", "diff: --stat and --review exclude each other");
		goto out;
	}
	if (o->repo && !git) {
		status = cli_usage_error("diff", "diff: -C REPO goes with --git");
		goto out;
	}
	if (o->arch && !git) {
		status = cli_usage_error("diff", "diff: --arch goes with --git (other inputs"
					 " say their architecture)");
		goto out;
	}
	side[0] = nr > 0 ? args[0] : NULL;
	side[1] = nr > 1 ? args[1] : NULL;
	if (pkgs[0].len || pkgs[1].len) {
		if (git || !pkgs[0].len || !pkgs[1].len || nr) {
			status = cli_usage_error("diff", git ? "diff: --old/--new and --git exclude each other" :
						 nr ? "diff: --old/--new replace OLD and NEW" :
						 "diff: --old PKG and --new PKG go together");
			goto out;
		}
		side[0] = pkgs[0].s;
		side[1] = pkgs[1].s;
	} else if (git && nr == 1 && strstr(args[0], "..")) {
		/* REV1..REV2 as git log spells a range (REV1...REV2 is not a pair). */
		char *dots;

		range = kd_strdup(args[0]);
		if (!range) {
			kd_err("out of memory");
			goto out;
		}
		dots = strstr(range, "..");
		*dots = '\0';
		revs[0] = range;
		revs[1] = dots + 2;
		if (!*revs[0] || !*revs[1] || strstr(revs[1], "..") || *revs[1] == '.') {
			status = cli_usage_error("diff", "diff: --git takes REV1..REV2, REV1 REV2, REV or nothing");
			goto out;
		}
	} else if (git && nr == 0) {
		/* No revision, as check-uapi.sh takes it: the work tree against HEAD. */
		revs[0] = "HEAD";
		revs[1] = "work tree";
		worktree = true;
	} else if (git && nr == 1) {
		/* One revision, as check-uapi.sh takes it: what that commit changed. */
		struct kd_buf parent = KD_BUF_INIT;

		if (kd_buf_addf(&parent, "%s^", args[0]) || !(range = kd_buf_detach(&parent))) {
			kd_buf_release(&parent);
			kd_err("out of memory");
			goto out;
		}
		revs[0] = range;
		revs[1] = args[0];
	} else if (nr != 2) {
		status = cli_usage_error("diff", git ? "diff: --git takes REV1..REV2, REV1 REV2, REV or nothing" :
					 "diff: expected OLD and NEW, got %d arguments", nr);
		goto out;
	} else if (git) {
		revs[0] = args[0];
		revs[1] = args[1];
	}
	if ((o->old_spec != NULL) != (o->new_spec != NULL)) {
		status = cli_usage_error("diff", "diff: --old-spec and --new-spec go together");
		goto out;
	}
	if (output && !strcmp(output, "-"))
		output = NULL;	/* standard output */
	rc.color = o->color == COLOR_ALWAYS ||
		   (o->color == COLOR_AUTO && !output && isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
	if (o->quiet)
		kd_log_set_level(KD_LOG_ERR);
	if (check_outputs(o, side, git, output))
		goto out;
	if (o->sup_path && diff_suppressions__load(o->sup_path, &sup))
		goto out;
	/* Before the kernels are read: a bad file costs no extraction. */
	if (o->for_path && usage__read(o->for_path, &usage))
		goto out;
	if (git) {
		for (i = 0; i < 2; i++) {
			/* Registered there: removed on a signal too. */
			const char *repo = o->repo ? o->repo : ".";

			if (i == 1 && worktree ?
			    git_tree__export_worktree(repo, o->arch, kd_tmpdir_parent(), &git_dirs[i]) :
			    git_tree__export(repo, revs[i], o->arch, kd_tmpdir_parent(), &git_dirs[i]))
				goto out;
			inputs[i] = git_dirs[i];
		}
	} else {
		inputs[0] = side[0];
		inputs[1] = side[1];
	}
	if (diff_inputs__open(inputs, git ? revs : NULL, o->quiet, db, conf.release))
		goto out;
	if (conf.abi && !has_abi(db[0], conf.abi) && !has_abi(db[1], conf.abi)) {
		status = cli_usage_error("diff", "diff: --abi %s: neither kernel has syscalls of"
					 " that ABI", conf.abi);
		goto out;
	}
	if (cli_contract_setup(&cc, o->spec_dir, o->no_spec, o->old_spec, o->new_spec, db[1],
			       git ? revs[1] : side[1], &conf))
		goto out;
	/* Reports name what the user gave, not a cache file: a revision each, for --git. */
	conf.input[0] = git ? revs[0] : side[0];
	conf.input[1] = git ? revs[1] : side[1];
	if (diff__run(db[0], db[1], &conf, &r))
		goto out;
	if (sup && diff_result__suppress(r, sup) < 0) {
		kd_err("out of memory");
		goto out;
	}
	for (size_t i = 0; i < diff_result__nr_unmatched(r); i++)
		kd_warn("%s: this suppression matches no change", diff_result__unmatched(r, i));
	/* After the suppressions, which are matched against the whole diff. */
	if (o->for_path && diff_result__restrict(r, &usage, o->for_path, db[0], db[1]))
		goto out;
	/* Source lines only SARIF points at: one lookup per change. */
	if (rc.format == REPORT_SARIF && diff_result__locate(r, db[0], db[1])) {
		kd_err("diff: cannot read the declarations of the changes");
		goto out;
	}
	/* The whole report first: the review's note names it, so it must exist. */
	if (o->full_report && write_full_report(o, r, &rc))
		goto out;
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
	kd_buf_release(&pkgs[0]);
	kd_buf_release(&pkgs[1]);
	return status;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { .rc = { .format = REPORT_TEXT, .tool_version = KD_VERSION },
			       .only = -1, .color = COLOR_AUTO };
	static const char *const only_names[] = { "breaking", NULL };
	const struct cli_option opts[] = {
		{ CLI_LIST(0, "old", &o.pkgs[0], "PKG", "one package of the old or the new kernel,"
			   " instead of\nOLD and NEW (repeated: all --old form the old kernel)"),
		  .left = "--old PKG, --new PKG" },
		{ CLI_LIST(0, "new", &o.pkgs[1], "PKG", NULL), .flags = CLI_HIDDEN },
		{ CLI_FLAG(0, "git", &o.git, "OLD and NEW are git revisions (REV1 REV2, REV1..REV2, REV for REV^..REV, none for HEAD against the work tree)") },
		{ CLI_STRING('C', "repo", &o.repo, "REPO", "with --git: the repository (default: .)") },
		{ CLI_CALLBACK(0, "arch", &o.arch, "ARCH", cli_opt_arch, "with --git: the architecture,"
			       " x86_64 (default) or arm64") },
		{ CLI_CALLBACK('f', "format", &o, "FMT", format_option, "text (default), json, md or"
			       " sarif (SARIF 2.1.0)") },
		{ CLI_STRING('o', "output", &o.output, "FILE", "write the report to FILE (atomically;"
			     " '-': stdout)") },
		{ CLI_FLAG(0, "review", &o.review, "Markdown for a review comment: at most 60,000"
			   " characters,\nbreaking findings first, saying what it left out") },
		{ CLI_STRING(0, "full-report", &o.full_report, "FILE", "with --review: also the whole"
			     " report, uncut, to FILE\n(atomically; the review's note names it)") },
		{ CLI_STRING(0, "full-report-url", &o.full_url, "URL", "with --full-report: the note"
			     " links FILE to URL\n(where the CI job keeps it; http or https)") },
		{ CLI_STRING('s', "suppressions", &o.sup_path, "FILE", "accept reviewed changes: lines"
			     " 'RULE NAME REASON...'") },
		{ CLI_STRING(0, "for", &o.for_path, "FILE", "only what one program uses: FILE an strace"
			     " -f log, a\nseccomp profile (JSON) or an ELF binary; the report\nand the"
			     " exit status speak of its syscalls and ioctls") },
		{ CLI_CHOICE(0, "only", &o.only, "breaking", only_names, "diff: --only takes 'breaking'",
			     "list breaking changes only (the summary stays whole\nand says how many"
			     " changes were left out)") },
		{ CLI_FLAG(0, "stat", &o.rc.stat, "the summary only (counts per category and verdict),"
			   "\nno change listed; text or Markdown") },
		{ CLI_FLAG(0, "full", &o.rc.full, "text: list every change, also of the source-level,"
			   "\ncompatible, info and suppressed findings (one line per\nfinding otherwise)") },
		{ CLI_CHOICE(0, "color", &o.color, "WHEN", color_names, "diff: --color takes auto, always"
			     " or never", "auto (default: on a terminal), always or never"),
		  .flags = CLI_OPTARG, .def = "always" },
		{ CLI_CHOICE(0, "colour", &o.color, "WHEN", color_names, "diff: --color takes auto, always"
			     " or never", NULL), .flags = CLI_OPTARG | CLI_HIDDEN, .def = "always" },
		{ CLI_STRING(0, "abi", &o.abi, "ABI", "compare only this ABI's syscalls and vDSO (x64,"
			     " ia32, x32;\narm64, aarch32)") },
		{ CLI_STRING(0, "spec", &o.spec_dir, "DIR", "the contract for verdicts (default: the one"
			     " stored in\nNEW's .kabi, else $KABI_DIFF_SPEC=DIR|none, else the\ninstalled"
			     " one)") },
		{ CLI_FLAG(0, "no-spec", &o.no_spec, "no contract: verdicts from layout alone") },
		{ CLI_STRING(0, "old-spec", &o.old_spec, "DIR", "\nalso compare two contract versions"
			     " (errnos, flag-set\nvalues); the new one judges unless --spec is given"),
		  .left = "--old-spec DIR --new-spec DIR" },
		{ CLI_STRING(0, "new-spec", &o.new_spec, "DIR", NULL), .flags = CLI_HIDDEN },
		{ CLI_FLAG('q', "quiet", &o.quiet, "no progress messages") },
		{ CLI_HELP() },
		{ CLI_END },
	};
	int argi, status = cli_parse(&diff_cmd, opts, argc, argv, &argi);

	if (status == CLI_PARSED)
		status = run_diff(&o, argc - argi, argv + argi);
	cli_list_release(&o.pkgs[0]);
	cli_list_release(&o.pkgs[1]);
	return status;
}

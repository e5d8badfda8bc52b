/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which contract a command uses. One policy for check, diff and probe
 * (cli_contract_resolve()), the first that applies:
 *   1. --no-spec: none;
 *   2. --spec DIR (diff: else --new-spec DIR);
 *   3. the contract stored in the .kabi (extract --spec, spec load); a
 *      diff asks the new kernel's;
 *   4. the default one: $KABI_DIFF_SPEC, a directory or "none" (or empty)
 *      for no contract (the test suites use it so that layout-only
 *      verdicts stay what they test); else the one installed with the tool
 *      (BINDIR/../share/kabi-diff/spec, `make install`); else, for a
 *      kabi-diff run from its source tree, that tree's spec/contract/;
 *   5. none (check refuses to run without one).
 */
#ifndef KD_CLI_CONTRACT_H
#define KD_CLI_CONTRACT_H

#include <stdbool.h>
#include <stddef.h>

#include "diff/diff.h"

struct spec;

/*
 * The default contract directory. *dir: malloc'ed (caller frees), NULL
 * when there is none. Returns 0 or -ENOMEM.
 */
int cli_contract_default_dir(char **dir);

/*
 * Load the contract of @dir, reporting errors as "DIR: ..." through
 * kd_err(). Returns 0 or a negative code. *out: spec__free().
 */
int cli_contract_load(const char *dir, struct spec **out);

struct kdb;

/*
 * The contract of a command by the policy above: none when @none
 * (--no-spec), else @dir (--spec), else the one stored in @db (may be NULL; @db_name
 * names it in *source), else the default. *out: spec__free(), NULL when
 * there is none. *source (malloc'ed, caller frees; NULL with no contract):
 * "DIR" or "the contract stored in K.kabi"; *installed: it is the default
 * one (step 4). Errors are reported. Returns 0 or a negative code.
 */
int cli_contract_resolve(const char *dir, bool none, struct kdb *db, const char *db_name,
			 struct spec **out, char **source, bool *installed);

/* The contract of one diff run: what struct diff_conf points into. */
struct cli_contract {
	struct spec *spec, *old_spec, *new_spec;
	struct diff_contract contract;
	struct kd_contract_change *changes;	/* spec__diff() of old_spec and new_spec */
	size_t nr_changes;
	char *source;				/* "DIR (N files, spec hash H)" */
};

/*
 * Load the contract of a diff into @cc and point @conf at it, by the
 * policy above: @dir, else (unless @none) the new contract @new_dir, else
 * the one stored in @new_db (@new_name), else the default one; with
 * @old_dir and @new_dir also their differences. Errors are reported.
 * Returns 0 or a negative code; release @cc with cli_contract_release().
 */
int cli_contract_setup(struct cli_contract *cc, const char *dir, bool none, const char *old_dir,
		       const char *new_dir, struct kdb *new_db, const char *new_name,
		       struct diff_conf *conf);
void cli_contract_release(struct cli_contract *cc);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which contract a command uses when none is named: the one installed with
 * the tool (KD_DATADIR/spec, `make install`), or, for a kabi-diff run from
 * its source tree, that tree's spec/contract/. $KABI_DIFF_SPEC overrides
 * both: a directory, or "none" (or empty) for no contract (the test suites
 * use it so that layout-only verdicts stay what they test).
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

/* The contract of one diff run: what struct diff_conf points into. */
struct cli_contract {
	struct spec *spec, *old_spec, *new_spec;
	struct diff_contract contract;
	struct kd_contract_change *changes;	/* spec__diff() of old_spec and new_spec */
	size_t nr_changes;
	char *source;				/* "DIR (N files, spec hash H)" */
};

/*
 * Load the contract of a diff into @cc and point @conf at it: @dir, else
 * (unless @none) the new contract @new_dir, else the default one; with
 * @old_dir and @new_dir also their differences. Errors are reported.
 * Returns 0 or a negative code; release @cc with cli_contract_release().
 */
int cli_contract_setup(struct cli_contract *cc, const char *dir, bool none, const char *old_dir,
		       const char *new_dir, struct diff_conf *conf);
void cli_contract_release(struct cli_contract *cc);

#endif

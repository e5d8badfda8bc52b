/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which contract a command uses when none is named: the one installed with
 * the tool (KD_DATADIR/spec, `make install`), or, for a kabi-diff run from
 * its source tree, that tree's spec/. $KABI_DIFF_SPEC overrides both: a
 * directory, or "none" (or empty) for no contract (the test suites use it
 * so that layout-only verdicts stay what they test).
 */
#ifndef KD_CLI_CONTRACT_H
#define KD_CLI_CONTRACT_H

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

#endif

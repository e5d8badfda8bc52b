// SPDX-License-Identifier: GPL-2.0-only
/*
 * A syscall ABI one kernel has and the other lacks: Debian's cloud flavour
 * is built without CONFIG_X86_X32_ABI, so its x86_64 kernel has no
 * x32_sys_call() (nor x32_sys_call_table) and no x32 vDSO. Every x32
 * syscall is gone, and programs of the other ABIs lose nothing: that is
 * one change, "the x32 ABI is gone: breaking for x32 programs only", not
 * one syscall-removed per call (RULES.md, syscall-abi-removed). What an
 * ABI's syscalls are is the extractor's business (its table, or the calls
 * its dispatcher makes); here an ABI is one the syscalls table names.
 */
#include "diff/diff_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mem.h"

int diff_abis_load(struct diff_run *run)
{
	struct diff_abis *a = &run->abis;
	int side, n;

	for (side = 0; side < 2; side++) {
		n = kdb__names(run->db[side], "abi", NULL, &a->names[side]);
		if (n < 0)
			return n;
		a->nr[side] = n;
		a->calls[side] = kd_calloc(n ? (size_t)n : 1, sizeof(*a->calls[side]));
		if (!a->calls[side])
			return -ENOMEM;
	}
	return 0;
}

void diff_abis_release(struct diff_abis *a)
{
	int side;

	for (side = 0; side < 2; side++) {
		kdb__names_free(a->names[side], a->nr[side]);
		free(a->calls[side]);
	}
	memset(a, 0, sizeof(*a));
}

static int index_of(const struct diff_abis *a, int side, const char *abi)
{
	int i;

	for (i = 0; i < a->nr[side]; i++)
		if (!strcmp(a->names[side][i], abi))
			return i;
	return -1;
}

bool diff_abi_lone(struct diff_run *run, int side, const char *abi, bool count)
{
	struct diff_abis *a = &run->abis;
	int i = index_of(a, side, abi);

	/* A side that has no ABI at all (a header tree) lacks nothing. */
	if (i < 0 || !a->nr[!side] || index_of(a, !side, abi) >= 0)
		return false;
	if (count)
		a->calls[side][i]++;
	return true;
}

int diff_abi_cause(struct kd_buf *b, const char *abi)
{
	kd_buf_reset(b);
	return kd_buf_addf(b, "%s ABI", abi);
}

static int abi_change(struct diff_run *run, int side, const char *abi, size_t calls)
{
	struct diff_result *r = run->e.r;
	struct kd_buf *name = &run->subj, *val = &run->ov, *note = &run->nv;
	size_t idx;
	int err;

	kd_buf_reset(val);
	kd_buf_reset(note);
	err = diff_abi_cause(name, abi);
	if (!err)
		err = kd_buf_addf(val, "%zu syscalls", calls);
	if (!err && side == 0)
		err = kd_buf_addf(note, "the %s ABI is gone: breaking for %s programs only (none of its"
				  " %zu syscalls is listed one by one)", abi, abi, calls);
	else if (!err)
		err = kd_buf_addf(note, "the %s ABI is new: %zu syscalls %s programs could not make"
				  " before", abi, calls, abi);
	if (!err)
		err = diff_add(r, &(struct diff_new){
				.rule = side == 0 ? DIFF_R_SYSCALL_ABI_REMOVED : DIFF_R_SYSCALL_ABI_ADDED,
				.name = name->s, .subject = name->s,
				.old_value = side == 0 ? val->s : NULL,
				.new_value = side == 0 ? NULL : val->s, .note = note->s }, &idx);
	if (!err)
		err = diff_evidence(r, idx, DIFF_EV_KERNEL, "the %s kernel has %s syscalls (a table or"
				    " a dispatcher of them), the %s one none", side == 0 ? "old" : "new",
				    abi, side == 0 ? "new" : "old");
	return err;
}

int diff_abis_changes(struct diff_run *run)
{
	const struct diff_abis *a = &run->abis;
	int side, i, err = 0;

	for (side = 0; !err && side < 2; side++)
		for (i = 0; !err && i < a->nr[side]; i++)
			if (a->calls[side][i])
				err = abi_change(run, side, a->names[side][i], a->calls[side][i]);
	return err;
}

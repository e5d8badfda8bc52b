// SPDX-License-Identifier: GPL-2.0-only
/*
 * check's text report (spec/check/CHECK.md): the header naming the kernel
 * and the contract, one line per finding (FILE:LINE: RULE: SUBJECT:
 * MESSAGE, the kernel's release for what the spec does not mention), the
 * coverage line and the count.
 */
#include "spec/check/check.h"

#include <stdio.h>

void spec_check__fprintf(const struct spec_check *r, const struct spec_check_report *rep, FILE *f)
{
	size_t i, n = spec_check__nr_findings(r), specified, total;

	fprintf(f, "check: %s (%s) against %s (%zu files, spec hash %s)\n",
		spec_check__release(r), rep->kabi, rep->contract, rep->spec_files, rep->spec_hash);
	if (!spec_check__has_uapi(r))
		fprintf(f, "note: %s holds no UAPI constants (extract --uapi DIR):"
			" flag sets, size constants and ioctls not checked\n", rep->kabi);
	if (spec_check__vdso_unchecked(r))
		fprintf(f, "note: %s holds no vDSO (extracted without a vmlinux):"
			" the contract's vdso blocks not checked\n", rep->kabi);
	for (i = 0; i < n; i++) {
		const struct spec_finding *x = spec_check__finding(r, i);

		if (x->file)
			fprintf(f, "%s:%d: ", x->file, x->line);
		else
			fprintf(f, "%s: ", spec_check__release(r));
		fprintf(f, "%s: %s: %s\n", x->rule, x->subject, x->message);
	}
	spec_check__coverage(r, &specified, &total);
	fprintf(f, "coverage: %zu/%zu syscalls specified\n", specified, total);
	if (n)
		fprintf(f, "%zu finding%s\n", n, n == 1 ? "" : "s");
	else
		fprintf(f, "no findings\n");
}

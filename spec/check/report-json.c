// SPDX-License-Identifier: GPL-2.0-only
/*
 * check's JSON report (spec/check/CHECK.md): the members kernel, contract,
 * uapi, vdso (was it read), coverage and findings (rule, file, line, subject, message; file
 * and line null for what the spec does not mention), written into the
 * caller's open object so that the probe's mismatches can follow.
 */
#include "spec/check/check.h"

#include "lib/json.h"

void spec_check__json(const struct spec_check *r, const struct spec_check_report *rep,
		      struct kd_json *w)
{
	size_t i, n = spec_check__nr_findings(r), specified, total;

	spec_check__coverage(r, &specified, &total);
	kd_json_key(w, "kernel");
	kd_json_object(w, false);
	kd_json_kstr(w, "release", spec_check__release(r));
	kd_json_kstr(w, "path", rep->kabi);
	kd_json_end(w);
	kd_json_key(w, "contract");
	kd_json_object(w, false);
	kd_json_kstr(w, "source", rep->contract);
	kd_json_kuint(w, "files", rep->spec_files);
	kd_json_kstr(w, "hash", rep->spec_hash);
	kd_json_end(w);
	kd_json_kbool(w, "uapi", spec_check__has_uapi(r));
	kd_json_kbool(w, "vdso", spec_check__has_vdso(r));
	kd_json_key(w, "coverage");
	kd_json_object(w, false);
	kd_json_kuint(w, "specified", specified);
	kd_json_kuint(w, "total", total);
	kd_json_end(w);
	kd_json_key(w, "findings");
	kd_json_array(w, true);
	for (i = 0; i < n; i++) {
		const struct spec_finding *x = spec_check__finding(r, i);

		kd_json_object(w, false);
		kd_json_kstr(w, "rule", x->rule);
		kd_json_kstr(w, "file", x->file);
		kd_json_key(w, "line");
		if (x->file)
			kd_json_int(w, x->line);
		else
			kd_json_null(w);
		kd_json_kstr(w, "subject", x->subject);
		kd_json_kstr(w, "message", x->message);
		kd_json_end(w);
	}
	kd_json_end(w);
}

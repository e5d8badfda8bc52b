// SPDX-License-Identifier: GPL-2.0-only
/*
 * The probe program's C source: the fixed runtime (runtime.c) around a
 * generated table of cases and buffer patches, and its static build. The
 * table is data, not code, so that a thousand cases compile in well under
 * a second; strings are emitted as C literals with every byte outside
 * printable ASCII escaped, so no case can break the program's syntax.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "probe/probe_internal.h"

static int add_c_string(struct kd_buf *b, const char *s)
{
	int err = kd_buf_addc(b, '"');

	for (; !err && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			err = kd_buf_addf(b, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f || c == '?')
			err = kd_buf_addf(b, "\\%03o", c);	/* '?': no trigraphs */
		else
			err = kd_buf_addc(b, (char)c);
	}
	return err ? err : kd_buf_addc(b, '"');
}

static const char *const arg_kind_c[] = {
	[PROBE_ARG_INT] = "A_INT", [PROBE_ARG_STR] = "A_STR", [PROBE_ARG_BUF] = "A_BUF",
	[PROBE_ARG_BADPTR] = "A_BAD", [PROBE_ARG_FD] = "A_FD", [PROBE_ARG_MAP] = "A_MAP",
};

/* All patches of all cases in one array; case args refer to them by index. */
static int gen_patches(const struct probe_set *set, struct kd_buf *out)
{
	size_t i, j, n = 0;
	int a, err;

	err = kd_buf_adds(out, "\nstatic const struct ppatch patches[] = {\n");
	for (i = 0; !err && i < probe_set__count(set); i++) {
		const struct probe_case *c = probe_set__case(set, i);

		for (a = 0; !err && a < c->nr_args; a++)
			for (j = 0; !err && j < c->args[a].nr_patches; j++, n++) {
				const struct probe_patch *p = &c->args[a].patches[j];

				err = kd_buf_addf(out, "\t{ %u, %u, %d, 0x%llxULL },\n", p->offset,
						  p->width, p->addr, (unsigned long long)p->value);
			}
	}
	/* C forbids an empty initializer list. */
	if (!err && !n)
		err = kd_buf_adds(out, "\t{ 0, 0, 0, 0 },\n");
	return err ? err : kd_buf_adds(out, "};\n");
}

static int gen_case(const struct probe_case *c, size_t *patch_idx, struct kd_buf *out)
{
	int a, err;

	err = kd_buf_adds(out, "\t{ ");
	if (!err)
		err = add_c_string(out, c->id);
	if (!err)
		err = kd_buf_addf(out, ", %ld, %d, %d, {", c->nr, c->nr_args, c->ret_fd);
	for (a = 0; !err && a < c->nr_args; a++) {
		const struct probe_arg *g = &c->args[a];

		err = kd_buf_addf(out, "%s{ %s, 0x%llxULL, ", a ? ", " : " ",
				  arg_kind_c[g->kind], (unsigned long long)g->value);
		if (!err && g->kind == PROBE_ARG_STR)
			err = add_c_string(out, g->str);
		else if (!err)
			err = kd_buf_adds(out, "0");
		if (!err)
			err = kd_buf_addf(out, ", %zu, %zu }", *patch_idx, g->nr_patches);
		*patch_idx += g->nr_patches;
	}
	if (!err && !c->nr_args)
		err = kd_buf_adds(out, " { 0, 0, 0, 0, 0 }");
	return err ? err : kd_buf_adds(out, " } },\n");
}

int probe__gen_c(const struct probe_set *set, struct kd_buf *out)
{
	size_t i, patch_idx = 0;
	int err;

	err = kd_buf_adds(out, probe_runtime_head);
	if (!err)
		err = gen_patches(set, out);
	if (!err)
		err = kd_buf_adds(out, "\nstatic const struct pcase cases[] = {\n");
	for (i = 0; !err && i < probe_set__count(set); i++)
		err = gen_case(probe_set__case(set, i), &patch_idx, out);
	if (!err && !probe_set__count(set))
		err = kd_buf_adds(out, "\t{ \"none\", -1, 0, 0, { { 0, 0, 0, 0, 0 } } },\n");
	if (!err)
		err = kd_buf_addf(out, "};\nstatic const int ncases = %zu;\n",
				  probe_set__count(set));
	return err ? err : kd_buf_adds(out, probe_runtime_tail);
}

int probe__build(const char *cc, const char *arch, const char *c_path, const char *bin_path)
{
	const struct probe_machine *m = probe__machine(arch);
	char *argv[] = { (char *)(cc ? cc : probe__default_cc(arch)), "-static", "-O2", "-w",
			 "-o", (char *)bin_path, (char *)c_path, NULL };
	/* Which packages to name: the cross compiler's, or the host's libc6-dev. */
	bool cross = m && !strcmp(argv[0], m->cross_cc);
	const char *debs = cross ? m->cross_debs : "libc6-dev";
	struct kd_buf log = KD_BUF_INIT;
	int rc;

	rc = probe_run_cmd(argv, &log, 300, PROBE_MAX_CC_LOG);
	if (rc == -ENOENT) {
		kd_err("probe: cannot run the compiler '%s'%s%s%s", argv[0],
		       cross ? " (Debian: " : "", cross ? debs : "", cross ? ")" : "");
	} else if (rc) {
		bool no_libc = strstr(log.s, "cannot find -lc") != NULL;

		/* A missing libc.a is the usual reason: say so. */
		kd_err("probe: '%s -static' failed on %s (exit %d)%s%s%s: %.600s", argv[0], c_path,
		       rc, no_libc ? "; static libc missing (Debian: " : "", no_libc ? debs : "",
		       no_libc ? ")" : "", log.s);
		rc = rc < 0 ? rc : -EIO;
	}
	kd_buf_release(&log);
	return rc;
}

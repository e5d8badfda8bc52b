// SPDX-License-Identifier: GPL-2.0-only
/*
 * The first pass over the UAPI headers: does each header compile on its
 * own, as the kernel's own header test (usr/include/Makefile) compiles it?
 * Inside a batch an earlier header can supply what a later one lacks
 * (linux/sctp.h takes MSG_FIN from a <sys/socket.h> some other header
 * included), so a header's outcome there depends on its neighbours, and
 * the neighbours change whenever the tree gains a header. Only what a
 * header gives alone is the same in every tree.
 *
 * Each header is a translation unit of its own, checked with
 * -fsyntax-only; one compiler driver takes a batch of them (the driver
 * goes on after a unit fails), so the cost is one cc1 start per header
 * (~25 ms on the 2-core machine, the parse itself ~1.5 ms), not one
 * driver per header. A header that fails here is a failure with the
 * compiler's first error and never enters a batch of the second pass; the
 * second pass (compile.c) compiles the others for their DWARF.
 */
#include "extract/uapi/compile_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/path.h"

/* "WORKDIR/a<id>_<k>.<ext>": unit @k of run @id; -MD writes the .d next to it. */
static int unit_path(const struct cc_state *s, int id, size_t k, const char *ext,
		     struct kd_buf *b)
{
	kd_buf_reset(b);
	return kd_buf_addf(b, "%s/a%d_%zu.%s", s->r->workdir, id, k, ext);
}

int uapi_cc_alone_start(struct cc_state *s, struct run *run)
{
	struct kd_buf errf = KD_BUF_INIT, dir = KD_BUF_INIT, path = KD_BUF_INIT,
		      text = KD_BUF_INIT;
	char **argv, **units;
	size_t i, n = 0;
	int err;

	argv = kd_calloc(s->nr_base + 8 + run->b.n, sizeof(*argv));
	units = kd_calloc(run->b.n + 1, sizeof(*units));
	err = argv && units ? 0 : -ENOMEM;
	if (!err)
		err = uapi_cc_run_path(s, run->id, "err", &errf);
	if (!err)
		err = kd_buf_addf(&dir, "%s/", s->r->workdir);
	for (i = 0; !err && i < run->b.n; i++) {
		kd_buf_reset(&text);
		err = unit_path(s, run->id, i, "c", &path);
		if (!err)
			err = kd_buf_addf(&text, "#include <%s>\n", s->names[run->b.hdr[i]]);
		if (err)
			break;
		err = uapi_cc_write_text(path.s, text.s);
		if (err) {
			kd_err("%s: cannot write: %s", path.s, kd_strerror(err));
			break;
		}
		units[i] = kd_buf_detach(&path);
		err = units[i] ? 0 : -ENOMEM;
	}
	if (err)
		goto out;
	for (i = 0; i < s->nr_base; i++)
		argv[n++] = s->base_argv[i];
	argv[n++] = "-fsyntax-only";
	argv[n++] = "-MD";
	argv[n++] = "-dumpdir";
	argv[n++] = dir.s;
	for (i = 0; i < run->b.n; i++)
		argv[n++] = units[i];
	argv[n] = NULL;
	err = uapi_cc_launch(s, run, argv, errf.s);
out:
	for (i = 0; units && i < run->b.n; i++)
		free(units[i]);
	free(units);
	free(argv);
	kd_buf_release(&errf);
	kd_buf_release(&dir);
	kd_buf_release(&path);
	kd_buf_release(&text);
	return err;
}

enum unit_outcome { UNIT_OK, UNIT_FAILED, UNIT_NOT_RUN };

/*
 * Unit @k of @run: an error through its line 1 is UNIT_FAILED (@msg the
 * first such error); no error is UNIT_OK when the driver succeeded
 * (@ok) or the unit's dependency file exists; else UNIT_NOT_RUN: the
 * driver stopped before it (a compiler killed). A compiler that writes no
 * dependency file there (no -dumpdir) still gets every header checked:
 * the units of a failed run are tried again in fewer. @other receives the
 * first error that came through no line of this unit.
 */
static int unit_outcome(const struct cc_state *s, const struct run *run, size_t k, bool ok,
			const char *text, struct kd_buf *dep, struct kd_buf *msg,
			struct kd_buf *other, enum unit_outcome *out)
{
	bool bad = false;
	int err;

	kd_buf_reset(msg);
	kd_buf_reset(other);
	err = unit_path(s, run->id, k, "c", dep);
	if (!err && text && *text)
		uapi_cc_parse_errors(text, dep->s, s->prefixes, &bad, 1, msg, other);
	if (!err)
		err = unit_path(s, run->id, k, "d", dep);
	*out = bad ? UNIT_FAILED : ok || kd_is_file(dep->s) ? UNIT_OK : UNIT_NOT_RUN;
	return err;
}

int uapi_cc_alone_finish(struct cc_state *s, struct run *run, int status, struct batch *queue,
			 size_t *nr_queue)
{
	struct kd_buf errf = KD_BUF_INIT, dep = KD_BUF_INIT, msg = KD_BUF_INIT,
		      other = KD_BUF_INIT;
	struct batch again = { 0 };
	bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0, any_failed = false;
	char *text = NULL;
	size_t k;
	int err;

	err = uapi_cc_run_path(s, run->id, "err", &errf);
	if (!err && !ok) {
		text = uapi_cc_read_text(errf.s);
		err = text ? 0 : -ENOMEM;
	}
	again.hdr = kd_malloc((run->b.n + 1) * sizeof(*again.hdr));
	if (!err && !again.hdr)
		err = -ENOMEM;
	for (k = 0; !err && k < run->b.n; k++) {
		size_t h = run->b.hdr[k];
		enum unit_outcome o;

		err = unit_outcome(s, run, k, ok, text, &dep, &msg, &other, &o);
		if (err)
			break;
		/* A failed unit's reads count too (a C library that gains a declaration). */
		if (o != UNIT_NOT_RUN && kd_is_file(dep.s))
			err = uapi_cc_add_deps(s, dep.s);
		if (!err && o == UNIT_FAILED)
			err = uapi_cc_add_failure(s, s->names[h], msg.len ? msg.s : "does not compile");
		any_failed |= o == UNIT_FAILED;
		if (o == UNIT_OK)
			s->alone_ok[h] = true;
		else if (o == UNIT_NOT_RUN)
			again.hdr[again.n++] = h;
	}
	if (err)
		goto out;
	if (!ok && !any_failed && !again.n) {
		/* It failed on no unit's line (the prelude?): none of them compiled. */
		for (k = 0; !err && k < run->b.n; k++) {
			s->alone_ok[run->b.hdr[k]] = false;
			err = uapi_cc_add_failure(s, s->names[run->b.hdr[k]], other.len ? other.s :
						  "the compiler failed without a diagnostic");
		}
	} else if (again.n && again.n < run->b.n) {
		/* The ones it did not get to, in a run of their own (fewer than before). */
		queue[(*nr_queue)++] = again;
		again.hdr = NULL;
	} else if (again.n == 1) {
		/* Killed, or failed without a word, on this header alone. */
		err = uapi_cc_add_failure(s, s->names[again.hdr[0]], other.len ? other.s :
					  WIFSIGNALED(status) ?
					  "the compiler was killed (time or memory limit)" :
					  "the compiler failed without a diagnostic");
	} else if (again.n) {
		/* Nothing came out: halve until the header that does it is alone. */
		err = uapi_cc_split(run, queue, nr_queue);
		run->b.hdr = NULL;
	}
out:
	free(again.hdr);
	free(run->b.hdr);
	run->b.hdr = NULL;
	free(text);
	kd_buf_release(&errf);
	kd_buf_release(&dep);
	kd_buf_release(&msg);
	kd_buf_release(&other);
	return err;
}

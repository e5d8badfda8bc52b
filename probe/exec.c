// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running the probe's helpers (the compiler, gzip, QEMU) through
 * lib/child.c: stdout and stderr in one capture, a wall-clock timeout,
 * and how the helper ended turned into the return codes the probe's
 * callers test (probe_internal.h).
 */
#include <errno.h>
#include <limits.h>

#include "lib/buf.h"
#include "lib/child.h"
#include "lib/err.h"
#include "probe/probe_internal.h"

int probe_run_cmd(char *const argv[], struct kd_buf *out, unsigned timeout_s, size_t max_out)
{
	/* A helper's output nobody wants is still counted against the cap. */
	struct kd_buf discard = KD_BUF_INIT;
	struct kd_child_status st;
	int err;

	err = kd_child_run(&(struct kd_child_conf){
				   .argv = argv,
				   .out = { KD_CHILD_CAPTURE, NULL, out ? out : &discard,
					    (out ? out->len : 0) + max_out },
				   .err = { KD_CHILD_TO_STDOUT },
				   .timeout_ms = timeout_s < UINT_MAX / 1000 ? timeout_s * 1000u :
									      UINT_MAX,
			   }, &st);
	kd_buf_release(&discard);
	if (err)
		return err;	/* -ENOENT: not found or not executable */
	switch (st.end) {
	case KD_CHILD_TIMED_OUT:
		return -ETIMEDOUT;
	case KD_CHILD_FLOODED:
		return -KD_ELIMIT;
	case KD_CHILD_SIGNALLED:
		return 128 + st.code;
	case KD_CHILD_EXITED:
		return st.code == 127 ? -ENOENT : st.code;
	default:
		return -EIO;
	}
}

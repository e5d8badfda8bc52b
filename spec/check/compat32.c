// SPDX-License-Identifier: GPL-2.0-only
/*
 * The 32-bit ABI within one kernel (issue 27, CHECK.md
 * "ioctl-compat-broken"): an i386 program's ioctl whose argument has
 * another layout than x86_64's carries another command number (the size
 * is part of it). A driver whose compat_ioctl is compat_ptr_ioctl passes
 * that number and the 32-bit struct to its native handler unchanged,
 * which either does not know the number or reads the struct with the
 * 64-bit layout. That is a finding; what other drivers do (ENOTTY, a
 * translation, a binary with several file_operations) is information,
 * in `show K compat-ioctls`. The spec says nothing of it: the finding
 * is the kernel's own.
 */
#include "spec/check/check_internal.h"

#include <inttypes.h>
#include <string.h>

#include "db/kdb-compat.h"

static int on_serving(const struct kdb_compat_serving *v, void *ctx)
{
	struct ck *c = ctx;

	if (kdb__compat_handling(v) != KDB_COMPAT_PTR)
		return 0;
	return finding(c, CHECK_R_IOCTL_COMPAT_BROKEN, NULL, v->ioctl,
		       "%s %s: %s.compat_ioctl = compat_ptr_ioctl: 32-bit callers broken: the"
		       " 64-bit layout applied to the 32-bit struct (%s: %" PRId64 " bytes, 0x%08x;"
		       " ia32: %" PRId64 " bytes, 0x%08x)",
		       strcmp(v->binary, "vmlinux") ? "module" : "binary", v->binary, v->fops, v->file,
		       v->native_size, v->native_cmd, v->compat_size, v->compat_cmd);
}

int check_compat32(struct ck *c)
{
	int has = kdb__has_compat_view(c->db, "ia32");

	if (has <= 0)
		return has;
	return kdb__foreach_compat_serving(c->db, "ia32", on_serving, c);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-diff show ... --abi ia32: the compat user ABI's header view (the
 * UAPI headers compiled for i386 programs; db/kdb-compat.h): the ioctls
 * with that ABI's sizes and numbers (a type's layout: cmd-show.c's printer).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/show.h"
#include "db/kdb-compat.h"
#include "db/kdb-kernel.h"
#include "lib/arch.h"
#include "lib/err.h"

int show_compat_check(struct show_ctx *s, const char *path, const char *abi, bool *native)
{
	char *arch = NULL, *note = NULL;
	const struct kd_arch *a;
	int err, has;

	*native = false;
	err = kdb__get_meta(s->db, "arch", &arch);
	a = arch ? kd_arch__by_name(arch) : NULL;
	free(arch);
	if (err)
		return err;
	if (a && !strcmp(a->native_abi, abi)) {
		*native = true;	/* --abi x64: the native view, as without --abi */
		return 0;
	}
	has = kdb__has_compat_view(s->db, abi);
	if (has < 0)
		return has;
	if (has)
		return 0;
	err = kdb__get_meta(s->db, "uapi_compat", &note);
	if (!err)
		kd_err("%s: no header view of ABI '%s'%s%s%s", path, abi, note ? " (" : "",
		       note ? note : " (extracted without --uapi, or by a kabi-diff without"
		       " 32-bit header views)", note ? ")" : "");
	free(note);
	return err ? err : -ENOENT;
}

struct compat_ioctl_ctx {
	struct show_ctx *s;
	const char *abi;
};

static int print_compat_ioctl(const struct kd_ioctl *io, void *ctx)
{
	struct compat_ioctl_ctx *c = ctx;
	struct show_ctx *s = c->s;
	const struct kd_type *t;

	s->count++;
	fprintf(s->f, "ioctl %s (%s): ", io->name, c->abi);
	if (io->has_cmd)
		fprintf(s->f, "0x%08" PRIx32 "\n", io->cmd);
	else
		fprintf(s->f, "command number unknown (argument size unknown)\n");
	fprintf(s->f, "  direction  %s\n  type       0x%02x\n  nr         %d (0x%02x)\n", io->dir,
		io->type_char, io->nr, io->nr);
	if (io->arg_type_text)
		fprintf(s->f, "  argument   %s\n", io->arg_type_text);
	if (io->has_size)
		fprintf(s->f, "  size       %" PRId64 " bytes (%s)\n", io->size,
			io->arg_type ? "the ia32 header view" : "a plain C type");
	if (io->file)
		fprintf(s->f, "  defined    %s:%d\n", io->file, io->line);
	t = io->arg_type ? type_cache__strip(s->tc, io->arg_type) : NULL;
	if (t && (t->kind == KD_KIND_STRUCT || t->kind == KD_KIND_UNION)) {
		fprintf(s->f, "\n");
		return layout__fprintf(s->tc, t, s->f);
	}
	return 0;
}

int show_compat_ioctl(struct show_ctx *s, const char *abi, const char *name)
{
	struct compat_ioctl_ctx c = { s, abi };
	int err = kdb__foreach_compat_ioctl(s->db, abi, name, print_compat_ioctl, &c);

	return err == -ENOENT ? 0 : err;
}

int show_compat_ioctls(struct show_ctx *s, const char *abi)
{
	return kdb__foreach_compat_ioctl(s->db, abi, NULL, show_ioctl_row, s);
}

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
#include "lib/json.h"
#include "lib/mem.h"

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

/* --- show compat-ioctls: what each driver does for 32-bit callers ----------- */

static const char *const handling_names[] = {
	[KDB_COMPAT_UNSERVED] = "unserved",
	[KDB_COMPAT_AMBIGUOUS] = "ambiguous",
	[KDB_COMPAT_ENOTTY] = "enotty",
	[KDB_COMPAT_PTR] = "broken",
	[KDB_COMPAT_PADDING] = "size-only",
	[KDB_COMPAT_NATIVE_TRANSLATED] = "native-translated",
	[KDB_COMPAT_UNSEEN] = "unseen",
	[KDB_COMPAT_TRANSLATED] = "translated",
};

struct serving_ctx {
	struct show_ctx *s;
	const char *abi;
	const char *last;	/* the ioctl of the last heading, a copy */
	char *last_copy;
	bool modules;		/* were modules read */
};

static int serving_json(struct serving_ctx *c, const struct kdb_compat_serving *v)
{
	struct kd_json *w = c->s->json;

	kd_json_object(w, false);
	kd_json_kstr(w, "ioctl", v->ioctl);
	kd_json_kstr(w, "file", v->file);
	kd_json_kuint(w, "native_cmd", v->native_cmd);
	kd_json_kint(w, "native_size", v->native_size);
	kd_json_kstr(w, "abi", c->abi);
	kd_json_kuint(w, "compat_cmd", v->compat_cmd);
	kd_json_kint(w, "compat_size", v->compat_size);
	kd_json_kstr(w, "binary", v->binary);
	kd_json_kstr(w, "fops", v->fops);
	kd_json_kstr(w, "compat_ioctl", v->compat_ioctl);
	kd_json_kint(w, "nr_fops", v->nr_fops);
	kd_json_kstr(w, "handling", handling_names[kdb__compat_handling(v)]);
	kd_json_end(w);
	return 0;
}

static int print_serving(const struct kdb_compat_serving *v, void *ctx)
{
	struct serving_ctx *c = ctx;
	FILE *f = c->s->f;

	c->s->count++;
	if (c->s->json)
		return serving_json(c, v);
	if (!c->last || strcmp(c->last, v->ioctl)) {
		free(c->last_copy);
		c->last = c->last_copy = kd_strdup(v->ioctl);
		if (!c->last)
			return -ENOMEM;
		fprintf(f, "%s  0x%08x (%" PRId64 " bytes), %s 0x%08x (%" PRId64 " bytes)  %s\n",
			v->ioctl, v->native_cmd, v->native_size, c->abi, v->compat_cmd,
			v->compat_size, v->file);
	}
	switch (kdb__compat_handling(v)) {
	case KDB_COMPAT_UNSERVED:
		fprintf(f, "  %s\n", c->modules ?
			"no binary read includes the header and defines a file_operations with an unlocked_ioctl" :
			"the serving binary cannot be told: no modules read (extract --modules)");
		break;
	case KDB_COMPAT_AMBIGUOUS:
		fprintf(f, "  %s: %d file_operations (%d compat_ptr_ioctl, %d NULL): which one serves it"
			" is not known\n", v->binary, v->nr_fops, v->nr_ptr, v->nr_null);
		break;
	case KDB_COMPAT_ENOTTY:
		fprintf(f, "  %s: %s: 32-bit callers get ENOTTY\n", v->binary, v->fops);
		break;
	case KDB_COMPAT_PTR:
		fprintf(f, "  %s: %s: 32-bit callers broken: the 64-bit layout applied to the 32-bit"
			" struct\n", v->binary, v->fops);
		break;
	case KDB_COMPAT_PADDING:
		fprintf(f, "  %s: %s: compat_ptr_ioctl, the members at the same offsets (only the"
			" tail padding differs): served if the handler ignores the size\n", v->binary,
			v->fops);
		break;
	case KDB_COMPAT_NATIVE_TRANSLATED:
		fprintf(f, "  %s: %s: compat_ptr_ioctl, translated in the native handler (0x%08x is"
			" in its code)\n", v->binary, v->fops, v->compat_cmd);
		break;
	case KDB_COMPAT_UNSEEN:
		fprintf(f, "  %s: %s: compat_ptr_ioctl, but neither number is in its code: it may not"
			" serve the ioctl\n", v->binary, v->fops);
		break;
	case KDB_COMPAT_TRANSLATED:
		fprintf(f, "  %s: %s: translated by %s\n", v->binary, v->fops, v->compat_ioctl);
		break;
	}
	return 0;
}

int show_compat_serving(struct show_ctx *s, const char *path, const char *abi)
{
	struct serving_ctx c = { .s = s, .abi = abi };
	bool native = false;
	int err = show_compat_check(s, path, abi, &native);

	if (!err && native) {
		kd_err("%s: compat-ioctls: '%s' is the kernel's own ABI; name a compat one (ia32)", path,
		       abi);
		err = -EINVAL;
	}
	if (!err)
		err = kdb__has_modules(s->db);
	if (err < 0)
		return err;
	c.modules = err > 0;
	err = kdb__foreach_compat_serving(s->db, abi, print_serving, &c);
	free(c.last_copy);
	return err;
}

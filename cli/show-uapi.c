// SPDX-License-Identifier: GPL-2.0-only
/* kabi-diff show: ioctl commands and constants read from the UAPI headers. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/show.h"
#include "db/kdb-kernel.h"
#include "db/kdb-uapi.h"
#include "lib/err.h"
#include "lib/str.h"

static const char *dir_macro(const char *dir)
{
	if (!strcmp(dir, "rw"))
		return "_IOWR";
	if (!strcmp(dir, "r"))
		return "_IOR";
	if (!strcmp(dir, "w"))
		return "_IOW";
	return "_IO";
}

static void print_char(FILE *f, int c)
{
	if (c >= 0x20 && c < 0x7f && c != '\'')
		fprintf(f, "'%c' (0x%02x)", c, c);
	else
		fprintf(f, "0x%02x", c);
}

/* "  defined at FILE:LINE", and for a header outside include/uapi, who uses it. */
static int print_defined(struct show_ctx *s, const char *label, const char *file, int line)
{
	char *user = NULL;
	int err = kdb__outside_user(s->db, file, &user);

	if (err)
		return err;
	fprintf(s->f, "  %s %s:%d%s%s%s\n", label, file, line,
		user ? " (outside include/uapi; used by " : "", user ? user : "", user ? ")" : "");
	free(user);
	return 0;
}

static int print_ioctl(const struct kd_ioctl *io, void *ctx)
{
	struct show_ctx *s = ctx;
	char *module = NULL;
	int err = 0;

	s->count++;
	if (io->module_id)
		kdb__get_module_name(s->db, io->module_id, &module);
	bool number = io->source && !strcmp(io->source, "number");

	fprintf(s->f, "ioctl %s: ", io->name);
	if (io->has_cmd)
		fprintf(s->f, "0x%08" PRIx32 "%s\n", io->cmd,
			number ? " (a plain number: it encodes no direction and no size)" :
			io->source && !strcmp(io->source, "enumerator") ? " (an enumerator)" : "");
	else
		fprintf(s->f, "command number unknown (argument size unknown)\n");
	if (number)
		fprintf(s->f, "  direction  %s (the contract's)\n  type       ", io->dir);
	else
		fprintf(s->f, "  direction  %s (%s)\n  type       ", io->dir, dir_macro(io->dir));
	print_char(s->f, io->type_char);
	fprintf(s->f, "\n  nr         %d (0x%02x)\n", io->nr, io->nr);
	if (io->arg_type_text)
		fprintf(s->f, "  argument   %s%s\n", io->arg_type_text,
			number ? " (the contract's)" : "");
	if (number && !io->arg_type && io->arg_type_text)
		fprintf(s->f, "  size       unknown: no header and no DWARF of this kernel has %s\n",
			io->arg_type_text);
	if (io->has_size && io->arg_type) {
		bool kernel = false;
		char *header = NULL;

		err = kdb__type_views(s->db, io->arg_type, &kernel, &header);
		if (err)
			goto out;
		if (header)
			fprintf(s->f, "  size       %" PRId64 " bytes (header view, %s%s%s%s)\n", io->size,
				header, kernel ? "; the kernel's DWARF agrees: " : "",
				kernel ? (module ? "module " : "vmlinux") : "", kernel && module ? module : "");
		else
			fprintf(s->f, "  size       %" PRId64 " bytes (from DWARF, %s%s)\n", io->size,
				module ? "module " : "vmlinux", module ? module : "");
		free(header);
	} else if (io->has_size) {
		fprintf(s->f, "  size       %" PRId64 " bytes (%s)\n", io->size,
			io->size_trusted ? "a plain C type" : "from the header only: not verified");
	}
	if (io->file)
		err = print_defined(s, "defined   ", io->file, io->line);
	if (err)
		return err;
	if (io->arg_type) {
		const struct kd_type *t = type_cache__strip(s->tc, io->arg_type);

		if (t && (t->kind == KD_KIND_STRUCT || t->kind == KD_KIND_UNION)) {
			fprintf(s->f, "\n");
			err = layout__fprintf(s->tc, t, s->f);
		}
	}
out:
	free(module);
	return err;
}

int show_views(struct show_ctx *s, int64_t type_id)
{
	bool kernel = false;
	char *header = NULL;
	int err;

	/* Extracted without --uapi: one view only, nothing to tell apart. */
	if (kdb__count(s->db, "uapi_types") <= 0)
		return 0;
	err = kdb__type_views(s->db, type_id, &kernel, &header);
	if (err)
		return err;
	if (header && kernel)
		fprintf(s->f, "/* header view (%s) and kernel DWARF: the same layout */\n", header);
	else if (header)
		fprintf(s->f, "/* header view: %s */\n", header);
	else if (kernel)
		fprintf(s->f, "/* kernel DWARF (no header declares this layout) */\n");
	free(header);
	return 0;
}

int show_ioctl_row(const struct kd_ioctl *io, void *ctx)
{
	struct show_ctx *s = ctx;

	s->count++;
	if (io->has_cmd)
		fprintf(s->f, "0x%08" PRIx32, io->cmd);
	else
		fprintf(s->f, "%-10s", "?");
	fprintf(s->f, "  %-4s %-40s %s\n", io->dir, io->name,
		io->arg_type_text ? io->arg_type_text : "");
	return 0;
}

static int print_constant(const struct kd_constant *c, void *ctx)
{
	struct show_ctx *s = ctx;
	bool is_unsigned = c->ctype && kd_starts_with(c->ctype, "unsigned");

	s->count++;
	if (is_unsigned)
		fprintf(s->f, "%s = %" PRIu64 " (0x%" PRIx64 ", %s)\n", c->name, (uint64_t)c->value,
			(uint64_t)c->value, c->ctype);
	else
		fprintf(s->f, "%s = %" PRId64 " (0x%" PRIx64 ", %s)\n", c->name, c->value,
			(uint64_t)c->value, c->ctype ? c->ctype : "int");
	if (c->expr)
		fprintf(s->f, "  #define %s %s\n", c->name, c->expr);
	if (c->file) {
		int err = print_defined(s, "defined at", c->file, c->line);

		if (err)
			return err;
	}
	if (c->enum_type) {
		const struct kd_type *t = type_cache__get(s->tc, c->enum_type);
		/* An enumerator's own row, or a #define that an enumerator shares the name of. */
		const char *what = c->source && !strcmp(c->source, "enumerator") ? "an" : "also an";

		if (t && t->name)
			fprintf(s->f, "  %s enumerator of enum %s\n", what, t->name);
		else if (t)
			fprintf(s->f, "  %s enumerator of an anonymous enum\n", what);
	}
	return 0;
}

int show_ioctl(struct show_ctx *s, const char *name)
{
	int err = strchr(name, '(') ? -ENOENT : kdb__get_ioctl(s->db, name, print_ioctl, s);
	bool shown;

	if (err != -ENOENT)
		return err;
	/* Not an object-like ioctl: a function-like one, or a call of one. */
	err = show_family(s, name, &shown);
	return err == -ENOENT ? 0 : err;
}

int show_ioctls(struct show_ctx *s, const char *module)
{
	int err = kdb__foreach_ioctl(s->db, module, show_ioctl_row, s);

	/* The families after the commands: they belong to no module's DWARF. */
	if (!err && !module)
		err = kdb__foreach_ioctl_family(s->db, NULL, show_family_row, s);
	return err;
}

int show_constant(struct show_ctx *s, const char *name)
{
	int err = kdb__get_constant(s->db, name, print_constant, s);

	return err == -ENOENT ? 0 : err;
}

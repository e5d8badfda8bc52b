// SPDX-License-Identifier: GPL-2.0-only
/* kabi-diff show: read a .kabi back as text. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/builtin.h"
#include "cli/parse-options.h"
#include "cli/show.h"
#include "db/kdb-compat.h"
#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "db/kdb-vdso.h"
#include "lib/arch.h"
#include "lib/buf.h"
#include "lib/cdecl.h"
#include "lib/err.h"
#include "lib/json.h"
#include "lib/plain.h"
#include "lib/str.h"

static const struct cli_command show_cmd = {
	.name = "show",
	.head = "usage: kabi-diff show KERNEL.kabi WHAT [NAME] [options]\n"
		"\n",
	.help_col = 23,
	.tail = "\n"
		"A NAME with * ? or [...] is a glob (quote it): every name of that kind it\n"
		"matches. A name not in the file is an error suggesting the nearest one.\n",
};

/* Wide enough for every ABI name of the kernel's arch (unknown arch: of any). */
static int abi_width(struct kdb *db)
{
	char *arch = NULL;
	int w;

	kdb__get_meta(db, "arch", &arch);
	w = kd_arch__abi_width(kd_arch__by_name(arch));
	free(arch);
	return w < 5 ? 5 : w;	/* x86_64's columns as they always were */
}

const char *const show_info_keys[] = {
	"release", "version", "arch", "build_id", "dwarf_version", "source_path",
	"tool_version", "schema_version", "spec_hash", "uapi_headers", "uapi_constants",
	"uapi_outside", "uapi_compat", "vdso",
	"input", "coverage_gaps", NULL,
};
const char *const show_info_tables[] = {
	"syscalls", "functions", "types", "constants", "ioctls", "ioctl_families", "modules", "vdso_images",
	"vdso_symbols", "problems", NULL,
};

static int print_info(struct show_ctx *s)
{
	const char *const *keys = show_info_keys, *const *tables = show_info_tables;
	int i, err;

	for (i = 0; keys[i]; i++) {
		char *v;

		err = kdb__get_meta(s->db, keys[i], &v);
		if (err)
			return err;
		if (v)
			fprintf(s->f, "%-15s %s%s\n", keys[i], v,
				!strcmp(keys[i], "vdso") && !strcmp(v, KDB_VDSO_NAMES) ?
				" (from the vmlinux: names, versions and symbol types; no signatures)" : "");
		free(v);
	}
	for (i = 0; tables[i]; i++)
		fprintf(s->f, "%-15s %" PRId64 "\n", tables[i], kdb__count(s->db, tables[i]));
	return 0;
}

int show_signature(struct show_ctx *s, int64_t func_id, struct kd_buf *b)
{
	struct kd_function *fn;
	size_t i;
	int err;

	err = kdb__get_function_by_id(s->db, func_id, &fn);
	if (err)
		return err;
	/* ftrace metadata does not record the return type; syscalls return long. */
	if (!fn->ret_type && !strcmp(fn->source, "metadata"))
		err = kd_buf_adds(b, "long");
	else
		err = kd_cdecl(b, fn->ret_type, "", type_cache__lookup, s->tc);
	/* A vDSO entry point's row is "vdso:ABI:NAME": the C name is the last part. */
	if (!err)
		err = kd_buf_addf(b, " %s(", kd_starts_with(fn->name, "vdso:") && strrchr(fn->name, ':') ?
				  strrchr(fn->name, ':') + 1 : fn->name);
	for (i = 0; !err && i < fn->nr_params; i++) {
		/* A hostile file may spell a type "" (a base type named by one NUL byte). */
		const char *tt = fn->params[i].type_text ? fn->params[i].type_text : "";
		size_t n = strlen(tt);

		err = kd_buf_addf(b, "%s%s%s%s", i ? ", " : "", tt,
				  fn->params[i].name && !(n && tt[n - 1] == '*') ? " " : "",
				  fn->params[i].name ? fn->params[i].name : "");
	}
	if (!err)
		err = kd_buf_adds(b, fn->nr_params ? ")" : "void)");
	kd_function__free(fn);
	return err;
}

static int print_slot(const struct kd_syscall *sc, void *ctx)
{
	struct show_ctx *s = ctx;
	struct kd_buf sig = KD_BUF_INIT;
	int err = 0;

	if ((s->slots == SLOTS_NUMBERED && sc->nr < 0) ||
	    (s->slots == SLOTS_IMPLEMENTED && !sc->implemented))
		return 0;

	if (sc->func_id)
		err = show_signature(s, sc->func_id, &sig);
	if (sc->nr >= 0)
		fprintf(s->f, "%-*s %4" PRId64 "  ", s->abi_width, sc->abi, sc->nr);
	else
		fprintf(s->f, "%-*s    -  ", s->abi_width, sc->abi);
	if (!sc->implemented)
		fprintf(s->f, "%-24s %s\n", sc->name ? sc->name : "-", "(not implemented)");
	else
		fprintf(s->f, "%-24s %s\n", sc->name, sc->func_id ? sig.s : "(no signature)");
	kd_buf_release(&sig);
	s->count++;
	return err;
}

/* The struct/union/enum a parameter leads to through pointers, typedefs, arrays. */
static const struct kd_type *pointee_aggregate(struct type_cache *tc, int64_t id)
{
	const struct kd_type *t;
	int hops;

	for (hops = 0; hops < 16; hops++) {
		t = type_cache__strip(tc, id);
		if (!t)
			return NULL;
		if (t->kind == KD_KIND_POINTER || t->kind == KD_KIND_ARRAY) {
			id = t->ref;
			continue;
		}
		return (t->kind == KD_KIND_STRUCT || t->kind == KD_KIND_UNION ||
			t->kind == KD_KIND_ENUM) ? t : NULL;
	}
	return NULL;
}

static int note_syscall_slot(const struct kd_syscall *sc, void *ctx)
{
	struct show_ctx *s = ctx;

	fprintf(s->f, "%-*s %s: ", s->abi_width, sc->abi, sc->name);
	if (sc->nr >= 0)
		fprintf(s->f, "nr %" PRId64 ", ", sc->nr);
	fprintf(s->f, "entry %s\n", sc->entry ? sc->entry : "-");
	if (!s->count++ || (!s->func_id && sc->func_id))
		s->func_id = sc->func_id;
	return 0;
}

/* The signature behind a syscall and the layout of every struct it takes. */
int show_function_detail(struct show_ctx *s)
{
	struct kd_buf sig = KD_BUF_INIT;
	struct kd_function *fn;
	size_t i;
	int err;

	if (!s->func_id) {
		fprintf(s->f, "\n(no signature: see 'show problems')\n");
		return 0;
	}
	err = kdb__get_function_by_id(s->db, s->func_id, &fn);
	if (err)
		return err;
	err = show_signature(s, s->func_id, &sig);
	if (!err) {
		fprintf(s->f, "\n%s\n  from %s%s%s", sig.s, fn->source,
			fn->decl_file ? ", " : "", fn->decl_file ? fn->decl_file : "");
		if (fn->decl_line)
			fprintf(s->f, ":%d", fn->decl_line);
		fprintf(s->f, "\n");
	}
	kd_buf_release(&sig);
	for (i = 0; !err && i < fn->nr_params; i++) {
		const struct kd_type *t = pointee_aggregate(s->tc, fn->params[i].type_id);

		if (!t)
			continue;
		fprintf(s->f, "\n/* %s */\n", fn->params[i].name ? fn->params[i].name : "?");
		err = layout__fprintf(s->tc, t, s->f);
	}
	kd_function__free(fn);
	return err;
}

/* @abi NULL: the native layouts and their views; else that compat ABI's header view. */
static int print_named_types(struct show_ctx *s, const char *abi, const char *kind,
			     const char *name)
{
	int64_t *ids = NULL;
	int n, i, err = 0;

	n = abi ? kdb__find_compat_types(s->db, abi, kind, name, &ids) :
		  kdb__find_types(s->db, kind, name, &ids);
	if (n < 0)
		return n;
	for (i = 0; i < n && !err; i++) {
		const struct kd_type *t = type_cache__get(s->tc, ids[i]);

		if (!t)
			continue;
		if (n > 1)
			fprintf(s->f, "%s/* %s %s: layout %d of %d */\n", i ? "\n" : "",
				kind ? kind : kd_kind_name(t->kind), name, i + 1, n);
		if (abi)
			fprintf(s->f, "/* %s header view */\n", abi);
		else
			err = show_views(s, ids[i]);
		if (!err)
			err = layout__fprintf(s->tc, t, s->f);
	}
	s->count += n;
	free(ids);
	return err;
}

static int print_problem(const struct kd_problem *p, void *ctx)
{
	struct show_ctx *s = ctx;

	fprintf(s->f, "%s: %s%s%s: %s\n", p->stage, p->input ? p->input : "",
		p->location ? ": " : "", p->location ? p->location : "", p->message);
	s->count++;
	return 0;
}

/* Items --abi takes to a compat ABI's header view (cli/show-compat.c). */
static bool is_compat_item(const char *what)
{
	static const char *const items[] = {
		"struct", "union", "enum", "type", "ioctl", "ioctls", NULL,
	};
	size_t i;

	for (i = 0; items[i]; i++)
		if (!strcmp(items[i], what))
			return true;
	return false;
}

/*
 * The items of show_usage and whether each takes a NAME: checked before the
 * file is opened, so that a typo is a usage error naming the item (exit 2)
 * whatever the file, not "'constants' needs a NAME".
 */
enum item_arity { ITEM_UNKNOWN, ITEM_BARE, ITEM_NAMED, ITEM_OPTIONAL };

static enum item_arity item_arity(const char *what)
{
	static const char *const bare[] = {
		"info", "syscalls", "problems", "ioctls", "compat-ioctls", NULL,
	};
	static const char *const named[] = {
		"syscall", "ioctl", "const", "struct", "union", "enum", "type", NULL,
	};
	size_t i;

	if (!strcmp(what, "vdso"))
		return ITEM_OPTIONAL;
	for (i = 0; bare[i]; i++)
		if (!strcmp(what, bare[i]))
			return ITEM_BARE;
	for (i = 0; named[i]; i++)
		if (!strcmp(what, named[i]))
			return ITEM_NAMED;
	return ITEM_UNKNOWN;
}

/*
 * "; did you mean 'NAME'?" when a name of @what in the file is near
 * @name, else @otherwise, for the message of a name not found.
 */
static const char *did_you_mean(struct show_ctx *s, const char *what, const char *name,
				const char *otherwise, char **hint)
{
	struct kd_buf b = KD_BUF_INIT;
	char *near = NULL;

	*hint = NULL;
	if (kdb__nearest_name(s->db, what, name, &near) || !near)
		return otherwise;
	if (!kd_buf_addf(&b, "; did you mean '%s'?", near))
		*hint = kd_buf_detach(&b);
	kd_buf_release(&b);
	free(near);
	return *hint ? *hint : otherwise;
}

struct slot_counts {
	long numbered, entries, stubs;	/* table slots; entry points without a number, of them stubs */
};

static int count_slot(const struct kd_syscall *sc, void *ctx)
{
	struct slot_counts *c = ctx;

	if (sc->nr >= 0)
		c->numbered++;
	else
		c->stubs += !sc->implemented, c->entries++;
	return 0;
}

/*
 * show syscalls --abi ABI: the slots its table numbers. An ABI without a
 * table in the binary (6.1.87+ and 6.9+ call the ia32 and x32 entry
 * points from a switch, not an array) has its entry points only, without
 * numbers, among them the sys_ni.c stubs of calls the kernel does not
 * build, other architectures' too (s390_ipc, spu_run): those are left
 * out, and a first line says why the others have no number.
 */
static int show_abi_slots(struct show_ctx *s, const char *abi)
{
	struct slot_counts c = { 0, 0, 0 };
	int err = kdb__foreach_syscall(s->db, abi, count_slot, &c);

	if (err)
		return err;
	if (c.numbered) {
		s->slots = SLOTS_NUMBERED;
		err = kdb__foreach_syscall(s->db, abi, print_slot, s);
		if (!err && c.entries)
			fprintf(s->f, "# %s: %ld entry point%s without a number in its table not listed\n",
				abi, c.entries, c.entries == 1 ? "" : "s");
		return err;
	}
	if (c.entries)
		fprintf(s->f, "# %s: no syscall table in this kernel (its entry points are called from a"
			" switch, not an array): %ld entry points without numbers, which every syscall gets"
			" whether the %s switch calls it or not; %ld stub%s of calls it does not build"
			" (kernel/sys_ni.c, other architectures' too) not listed\n", abi, c.entries - c.stubs, abi,
			c.stubs, c.stubs == 1 ? "" : "s");
	s->slots = SLOTS_IMPLEMENTED;
	return kdb__foreach_syscall(s->db, abi, print_slot, s);
}

/* No syscalls of ABI @abi: which the kernel has instead, for the message. */
static void no_abi(struct show_ctx *s, const char *path, const char *abi)
{
	struct kd_buf b = KD_BUF_INIT;
	char **abis;
	int n, i;

	n = kdb__names(s->db, "abi", NULL, &abis);
	for (i = 0; i < n; i++)
		kd_buf_addf(&b, "%s%s", i ? ", " : "", abis[i]);
	if (n > 0)
		kd_err("%s: no syscalls of ABI '%s' (this kernel has %s)", path, abi, b.s);
	else
		kd_err("%s: no syscalls of ABI '%s' (this kernel has no syscall table)", path, abi);
	kdb__names_free(abis, n);
	kd_buf_release(&b);
}

/*
 * One item of `show`: printed to s->f (as text, or as JSON into s->json),
 * and the exit status; *err a negative code on a failure already
 * reported, or 0. Found nothing: an empty list is no error, a name or a
 * filter that matches nothing is, said in one line.
 */
static int show_item(struct show_ctx *s, const char *path, const char *what, const char *name,
		     const char *module, const char *abi, int *err)
{
	const char *kind = strcmp(what, "type") ? what : NULL;
	char *hint = NULL;

	if (!strcmp(what, "compat-ioctls"))
		*err = show_compat_serving(s, path, abi ? abi : "ia32");
	else if (s->json)
		*err = show_json_item(s, what, name, module, abi);
	else if (abi && !strcmp(what, "ioctls"))
		*err = show_compat_ioctls(s, abi);
	else if (abi && !strcmp(what, "ioctl"))
		*err = show_compat_ioctl(s, abi, name);
	else if (!strcmp(what, "info"))
		*err = print_info(s);
	else if (!strcmp(what, "syscalls") && abi)
		*err = show_abi_slots(s, abi);
	else if (!strcmp(what, "syscalls"))
		*err = kdb__foreach_syscall(s->db, abi, print_slot, s);
	else if (!strcmp(what, "problems"))
		*err = kdb__foreach_problem(s->db, print_problem, s);
	else if (!strcmp(what, "ioctls"))
		*err = show_ioctls(s, module);
	else if (!strcmp(what, "vdso"))
		*err = name ? show_vdso_entry(s, abi, name) : show_vdso(s, abi);
	else if (!strcmp(what, "syscall")) {
		*err = kdb__foreach_syscall_named(s->db, name, note_syscall_slot, s);
		if (!*err && s->count)
			*err = show_function_detail(s);
	} else if (!strcmp(what, "ioctl"))
		*err = show_ioctl(s, name);
	else if (!strcmp(what, "const"))
		*err = show_constant(s, name);
	else	/* struct, union, enum, type; with @abi, its header view */
		*err = print_named_types(s, abi, kind, name);
	if (*err)
		return KD_EXIT_ERROR;
	if (s->count || !strcmp(what, "info") || !strcmp(what, "problems") ||
	    !strcmp(what, "compat-ioctls") ||
	    (!strcmp(what, "syscalls") && !abi) || (!strcmp(what, "ioctls") && !module))
		return KD_EXIT_OK;
	if (!strcmp(what, "vdso") && !name && !abi)
		return KD_EXIT_OK;	/* no vDSO read: an empty list */
	if (abi && name && strcmp(what, "vdso"))
		kd_err("%s: no %s named '%s' in the %s header view", path, what, name, abi);
	else if (!strcmp(what, "syscalls"))
		no_abi(s, path, abi);
	else if (!strcmp(what, "vdso") && name)
		kd_err("%s: no vDSO entry point named '%s'%s%s", path, name,
		       abi ? " in ABI " : "", abi ? abi : "");
	else if (!strcmp(what, "vdso"))
		kd_err("%s: no vDSO image of ABI '%s'", path, abi);
	else if (!strcmp(what, "ioctls"))
		kd_err("%s: no ioctls whose argument type comes from module '%s'", path, module);
	else if (!strcmp(what, "syscall"))
		kd_err("%s: no syscall named '%s'%s", path, name, did_you_mean(s, what, name, "", &hint));
	else if (!strcmp(what, "ioctl") || !strcmp(what, "const"))
		kd_err("%s: no %s named '%s'%s", path, what, name,
		       kdb__count(s->db, "constants") > 0 ? did_you_mean(s, what, name, "", &hint) :
		       " (extracted without --uapi: no constants or ioctls)");
	else
		kd_err("%s: no %s named '%s'%s", path, what, name,
		       did_you_mean(s, what, name, " (only types reachable from syscalls and"
				    " ioctls are recorded)", &hint));
	free(hint);
	return KD_EXIT_ERROR;
}

/*
 * `show K struct 'v4l2_*'`: every name of @what the glob matches, one
 * after the other, each as if named alone.
 */
static int show_glob(struct show_ctx *s, const char *path, const char *what, const char *glob,
		     int *err)
{
	char **names;
	int n, i, rc = KD_EXIT_OK;

	*err = 0;
	n = kdb__names(s->db, what, glob, &names);
	if (n < 0) {
		*err = n;
		return KD_EXIT_ERROR;
	}
	if (!n) {
		kd_err("%s: no %s matches '%s'", path, what, glob);
		return KD_EXIT_ERROR;
	}
	for (i = 0; i < n && !*err && rc == KD_EXIT_OK; i++) {
		if (i && !s->json)
			fputc('\n', s->f);
		s->count = 0;
		s->func_id = 0;
		rc = show_item(s, path, what, names[i], NULL, NULL, err);
	}
	kdb__names_free(names, n);
	return rc;
}

int cmd_show(int argc, char **argv)
{
	const char *path, *what, *name = NULL, *abi = NULL, *module = NULL, *format = "text";
	/* The items are the table's text lines; --abi and --module are said in theirs. */
	const struct cli_option opts[] = {
		{ CLI_TEXT("info", "identity of the kernel and what the file holds") },
		{ CLI_TEXT("syscalls [--abi A]", "the syscall tables (A: x64, ia32, x32; arm64, aarch32)") },
		{ CLI_TEXT("syscall NAME", "a syscall's numbers, signature and argument layouts") },
		{ CLI_TEXT("struct NAME", "a struct's layout (offsets, sizes, holes), like pahole") },
		{ CLI_TEXT("union NAME | enum NAME | type NAME", NULL) },
		{ CLI_TEXT("ioctl NAME", "an ioctl command: number, direction, type, nr, size, layout") },
		{ CLI_TEXT("ioctls [--module M]", "every ioctl command (of module M)") },
		{ CLI_TEXT("struct, union, enum, type, ioctl, ioctls with --abi ia32: as i386 programs",
			   "\ncompile the headers (x86_64; the 32-bit header view)") },
		{ CLI_TEXT("compat-ioctls [--abi ia32]", "the ioctls whose i386 number differs, each\n"
			   "with the drivers that serve it and their compat_ioctl") },
		{ CLI_TEXT("const NAME", "a UAPI constant: value, C type, definition") },
		{ CLI_TEXT("problems", "what the extractor could not resolve") },
		{ CLI_TEXT(NULL, "\n") },
		{ CLI_STRING('f', "format", &format, "FMT", "text (default) or json: info an object,"
			     " every other\nitem a list (a NAME's layouts, a glob's matches)") },
		{ CLI_STRING(0, "abi", &abi, "A", NULL), .flags = CLI_HIDDEN },
		{ CLI_STRING(0, "module", &module, "M", NULL), .flags = CLI_HIDDEN },
		{ CLI_HELP(), .flags = CLI_HIDDEN },
		{ CLI_END },
	};
	struct show_ctx s = { .f = stdout };
	struct kd_json json;
	int err = 0, argi, nr, rc;
	char *text = NULL;
	size_t text_len = 0;

	rc = cli_parse(&show_cmd, opts, argc, argv, &argi);
	if (rc != CLI_PARSED)
		return rc;
	rc = KD_EXIT_OK;
	nr = argc - argi;
	if (nr < 2)
		return cli_usage_error("show", "show: expected KERNEL.kabi and what to show");
	if (nr > 3)
		return cli_usage_error("show", "show: unexpected argument '%s'", argv[argi + 3]);
	path = argv[argi];
	what = argv[argi + 1];
	if (nr == 3)
		name = argv[argi + 2];
	if (item_arity(what) == ITEM_UNKNOWN)
		return cli_usage_error("show", "show: unknown item '%s'", what);
	if (name && item_arity(what) == ITEM_BARE)
		return cli_usage_error("show", "show: '%s' takes no NAME (got '%s')", what, name);
	if (!name && item_arity(what) == ITEM_NAMED)
		return cli_usage_error("show", "show: '%s' needs a NAME", what);
	if (strcmp(format, "text") && strcmp(format, "json"))
		return cli_usage_error("show", "show: unknown format '%s' (text or json)", format);
	if (kdb__open(path, &s.db))
		return KD_EXIT_ERROR;
	if (type_cache__new(s.db, &s.tc)) {
		kdb__free(s.db);
		return KD_EXIT_ERROR;
	}
	/*
	 * Everything shown is the file's text (names, the release, values):
	 * written at the end with its control characters as \xNN, so that no
	 * escape sequence of a hostile .kabi reaches the terminal.
	 */
	s.f = open_memstream(&text, &text_len);
	if (!s.f) {
		kd_err("out of memory");
		type_cache__free(s.tc);
		kdb__free(s.db);
		return KD_EXIT_ERROR;
	}
	s.abi_width = abi_width(s.db);
	if (abi && is_compat_item(what)) {
		bool native = false;

		err = show_compat_check(&s, path, abi, &native);
		if (!err && !native && name && strpbrk(name, "*?[")) {
			kd_err("%s: --abi %s: a compat ABI's header view is shown one name at a time",
			       path, abi);
			err = -EINVAL;
		}
		if (native)
			abi = NULL;
		if (err) {
			fclose(s.f);
			free(text);
			type_cache__free(s.tc);
			kdb__free(s.db);
			return KD_EXIT_ERROR;
		}
	}
	if (!strcmp(format, "json")) {
		/* info is one object; every other item a list, a NAME's layouts and a glob's matches too. */
		kd_json_init(&json, s.f);
		s.json = &json;
		if (strcmp(what, "info"))
			kd_json_array(s.json, true);
	}
	if (name && strpbrk(name, "*?["))
		rc = show_glob(&s, path, what, name, &err);
	else
		rc = show_item(&s, path, what, name, module, abi, &err);
	if (err || type_cache__error(s.tc))
		rc = KD_EXIT_ERROR;
	if (s.json && strcmp(what, "info"))
		kd_json_end(s.json);
	if (fclose(s.f)) {
		kd_err("out of memory");
		rc = KD_EXIT_ERROR;
	} else if (s.json && rc != KD_EXIT_OK) {
		/* Nothing found, or a failure: no half a document. */
	} else if ((s.json ? fwrite(text, 1, text_len, stdout) != text_len :
		    kd_fwrite_plain(stdout, text, text_len)) || fflush(stdout)) {
		kd_err("standard output: write error");
		rc = KD_EXIT_ERROR;
	}
	free(text);
	type_cache__free(s.tc);
	kdb__free(s.db);
	return rc;
}

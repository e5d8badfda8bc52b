// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-diff show K.kabi vdso [--abi A]: each vDSO image of the kernel, its
 * version definitions and its entry points, one line per exported name
 * as a dynamic linker resolves it (name@@NODE, or name@NODE for a hidden
 * version), the names at one address marked as aliases of the first
 * (strong) one; show K.kabi vdso NAME: that entry point in each image,
 * with its signature and layouts when the image's DWARF was read.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/show.h"
#include "db/kdb-vdso.h"
#include "lib/buf.h"
#include "lib/json.h"
#include "lib/mem.h"

struct vdso_show {
	struct show_ctx *s;
	const char *abi;	/* the image being listed */
	struct kd_buf versions;
	/* The previous symbol of the image: aliases share its address. */
	uint64_t prev_value;
	char *prev_name;
};

static int add_version(const struct kd_vdso_version *v, void *ctx)
{
	struct kd_buf *b = ctx;

	return kd_buf_addf(b, " %s%s%s%s%s", v->name, v->flags & 1 ? " (base)" : "",
			   v->flags & 2 ? " (weak)" : "", v->parents ? " < " : "",
			   v->parents ? v->parents : "");
}

static int print_symbol(const struct kd_vdso_symbol *sym, void *ctx)
{
	struct vdso_show *vs = ctx;
	struct kd_buf name = KD_BUF_INIT;
	bool alias = vs->prev_name && sym->value && sym->value == vs->prev_value;
	int err;

	/* A version definition's own symbol, as readelf shows it: its name alone. */
	if (sym->version && !strcmp(sym->name, sym->version) && !sym->value)
		err = kd_buf_adds(&name, sym->name);
	else
		err = kd_buf_addf(&name, "%s%s%s", sym->name,
				  !sym->version ? "" : sym->hidden ? "@" : "@@",
				  sym->version ? sym->version : "");
	if (err)
		goto out;
	fprintf(vs->s->f, "  %-36s %-6s %-6s 0x%-6" PRIx64 " %5" PRIu64, name.s, sym->bind,
		sym->type, sym->value, sym->size);
	if (alias)
		fprintf(vs->s->f, "  alias of %s", vs->prev_name);
	fputc('\n', vs->s->f);
	vs->s->count++;
	if (!alias) {
		free(vs->prev_name);
		vs->prev_name = kd_strdup(sym->name);
		vs->prev_value = sym->value;
		if (!vs->prev_name)
			err = -ENOMEM;
	}
out:
	kd_buf_release(&name);
	return err;
}

static int print_image(const struct kd_vdso_image *im, void *ctx)
{
	struct vdso_show *vs = ctx;
	int err;

	fprintf(vs->s->f, "%s%s: %s (%s, ELF%d, %" PRId64 " bytes%s%s)\n", vs->s->count ? "\n" : "",
		im->abi, im->soname ? im->soname : "(no soname)", im->symbol, im->elf_class,
		im->size, im->build_id ? ", build-id " : "", im->build_id ? im->build_id : "");
	kd_buf_reset(&vs->versions);
	err = kdb__foreach_vdso_version(vs->s->db, im->abi, add_version, &vs->versions);
	if (err)
		return err;
	fprintf(vs->s->f, "  versions:%s\n", vs->versions.len ? vs->versions.s : " (none)");
	free(vs->prev_name);
	vs->prev_name = NULL;
	vs->s->count++;
	return kdb__foreach_vdso_symbol(vs->s->db, im->abi, print_symbol, vs);
}

int show_vdso(struct show_ctx *s, const char *abi)
{
	struct vdso_show vs = { .s = s, .versions = KD_BUF_INIT };
	int err = kdb__foreach_vdso_image(s->db, abi, print_image, &vs);

	free(vs.prev_name);
	kd_buf_release(&vs.versions);
	return err;
}

struct entry_show {
	struct show_ctx *s;
	const char *name;
};

static int print_entry(const struct kd_vdso_symbol *sym, void *ctx)
{
	struct entry_show *es = ctx;
	struct show_ctx *s = es->s;
	int seen = s->count;

	if (strcmp(sym->name, es->name))
		return 0;
	fprintf(s->f, "%s%s: %s%s%s (%s %s)\n", seen ? "\n" : "", sym->abi, sym->name,
		!sym->version ? "" : sym->hidden ? "@" : "@@", sym->version ? sym->version : "",
		sym->bind, sym->type);
	s->count++;
	s->func_id = sym->func_id;
	if (sym->func_id)
		return show_function_detail(s);
	if (!strcmp(sym->type, "func"))
		fprintf(s->f, "  (no signature: none was read for this image; the 64-bit debug images"
			" give them, extract --vdso DIR)\n");
	return 0;
}

int show_vdso_entry(struct show_ctx *s, const char *abi, const char *name)
{
	struct entry_show es = { .s = s, .name = name };

	return kdb__foreach_vdso_symbol(s->db, abi, print_entry, &es);
}

struct entry_json {
	struct show_ctx *s;
	const char *name;	/* NULL: every symbol */
};

static int json_symbol(const struct kd_vdso_symbol *sym, void *ctx)
{
	struct entry_json *ej = ctx;
	struct show_ctx *s = ej->s;
	struct kd_buf sig = KD_BUF_INIT;
	int err = 0;

	if (ej->name && strcmp(sym->name, ej->name))
		return 0;
	if (sym->func_id)
		err = show_signature(s, sym->func_id, &sig);
	kd_json_object(s->json, false);
	kd_json_kstr(s->json, "abi", sym->abi);
	kd_json_kstr(s->json, "name", sym->name);
	kd_json_kstr(s->json, "version", sym->version);
	kd_json_kbool(s->json, "hidden", sym->hidden);
	kd_json_kstr(s->json, "bind", sym->bind);
	kd_json_kstr(s->json, "type", sym->type);
	kd_json_kint(s->json, "value", (int64_t)sym->value);
	kd_json_kint(s->json, "size", (int64_t)sym->size);
	kd_json_kstr(s->json, "signature", sym->func_id && !err ? sig.s : NULL);
	kd_json_end(s->json);
	kd_buf_release(&sig);
	s->count++;
	return err;
}

int show_vdso_json(struct show_ctx *s, const char *abi, const char *name)
{
	struct entry_json ej = { .s = s, .name = name };

	return kdb__foreach_vdso_symbol(s->db, abi, json_symbol, &ej);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vDSO against the contract's "vdso ABI { ... }" blocks
 * (spec/check/CHECK.md, the vdso-* rules): each version node the block
 * lists must be defined by the kernel's image of that ABI, and each entry
 * point exported at its node, since a C library looks it up by both
 * (dlvsym). A block is held only to a kernel that runs that ABI: an ABI
 * of another architecture is not this kernel's, and a compat ABI whose
 * syscall table the extraction did not find (no IA32_EMULATION) is not
 * run at all, so its missing image is no finding. What the contract dates
 * later than the kernel's release (since) may be absent.
 */
#include "spec/check/check_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "db/kdb-vdso.h"
#include "lib/arch.h"
#include "lib/mem.h"

/* One image's version nodes and (name, node) pairs, copied out of the DB. */
struct image {
	bool found;
	char *symbol;		/* where extract found it: vdso_image_64 */
	char **nodes;
	size_t nr_nodes, cap_nodes;
	struct export {
		char *name, *node;	/* a NULL node: unversioned */
	} *exps;
	size_t nr_exps, cap_exps;
};

static void image_release(struct image *im)
{
	size_t i;

	for (i = 0; i < im->nr_nodes; i++)
		free(im->nodes[i]);
	for (i = 0; i < im->nr_exps; i++) {
		free(im->exps[i].name);
		free(im->exps[i].node);
	}
	free(im->nodes);
	free(im->exps);
	free(im->symbol);
	memset(im, 0, sizeof(*im));
}

static int on_image(const struct kd_vdso_image *row, void *ctx)
{
	struct image *im = ctx;

	im->found = true;
	im->symbol = kd_strdup(row->symbol ? row->symbol : "?");
	return im->symbol ? 0 : -ENOMEM;
}

static int on_version(const struct kd_vdso_version *row, void *ctx)
{
	struct image *im = ctx;
	char *node;

	if (KD_GROW(im->nodes, im->cap_nodes, im->nr_nodes + 1) || !(node = kd_strdup(row->name)))
		return -ENOMEM;
	im->nodes[im->nr_nodes++] = node;
	return 0;
}

static int on_symbol(const struct kd_vdso_symbol *row, void *ctx)
{
	struct image *im = ctx;
	char *name, *node = NULL;

	if (KD_GROW(im->exps, im->cap_exps, im->nr_exps + 1))
		return -ENOMEM;
	name = kd_strdup(row->name);
	if (row->version)
		node = kd_strdup(row->version);
	if (!name || (row->version && !node)) {
		free(name);
		free(node);
		return -ENOMEM;
	}
	im->exps[im->nr_exps].name = name;
	im->exps[im->nr_exps++].node = node;
	return 0;
}

static int load_image(struct ck *c, const char *abi, struct image *im)
{
	int err = kdb__foreach_vdso_image(c->db, abi, on_image, im);

	if (!err && im->found)
		err = kdb__foreach_vdso_version(c->db, abi, on_version, im);
	if (!err && im->found)
		err = kdb__foreach_vdso_symbol(c->db, abi, on_symbol, im);
	return err;
}

static int stop_at_first(const struct kd_syscall *sc, void *ctx)
{
	(void)sc;
	(void)ctx;
	return 1;
}

/* Does the kernel run processes of @abi: its native ABI, or a compat table that was read? */
static int runs_abi(struct ck *c, const char *abi)
{
	int rc;

	if (!strcmp(abi, kdb__arch(c->db)->native_abi))
		return 1;
	rc = kdb__foreach_syscall(c->db, abi, stop_at_first, NULL);
	return rc < 0 ? rc : rc > 0;
}

static bool has_node(const struct image *im, const char *node)
{
	size_t i;

	for (i = 0; i < im->nr_nodes; i++)
		if (!strcmp(im->nodes[i], node))
			return true;
	return false;
}

/* The nodes @im exports @name at, space-separated, into @b (reset first); "" when none. */
static int nodes_of(const struct image *im, const char *name, struct kd_buf *b)
{
	size_t i;

	kd_buf_reset(b);
	for (i = 0; i < im->nr_exps; i++)
		if (!strcmp(im->exps[i].name, name) &&
		    ((b->len && kd_buf_addc(b, ' ')) ||
		     kd_buf_adds(b, im->exps[i].node ? im->exps[i].node : "(unversioned)")))
			return -ENOMEM;
	return 0;
}

static bool exports(const struct image *im, const char *name, const char *node)
{
	size_t i;

	for (i = 0; i < im->nr_exps; i++)
		if (!strcmp(im->exps[i].name, name) && im->exps[i].node &&
		    !strcmp(im->exps[i].node, node))
			return true;
	return false;
}

static const struct spec_vdso_version *version_of(const struct spec_vdso *v, const char *node)
{
	size_t i;

	for (i = 0; i < v->nr_versions; i++)
		if (!strcmp(v->versions[i].node, node))
			return &v->versions[i];
	return NULL;
}

static int check_entries(struct ck *c, const struct spec_vdso *v, const struct image *im)
{
	size_t i;
	int err = 0;

	for (i = 0; i < v->nr_versions && !err; i++) {
		const struct spec_vdso_version *ver = &v->versions[i];

		if (after_kernel(c, ver->since) || has_node(im, ver->node))
			continue;
		kd_buf_reset(&c->subj);
		err = kd_buf_addf(&c->subj, "%s (%s)", ver->node, v->abi);
		if (!err)
			err = finding(c, CHECK_R_VDSO_VERSION_MISSING, &ver->loc, c->subj.s,
				      "the kernel's %s image (%s) defines no version node %s",
				      v->abi, im->symbol, ver->node);
	}
	for (i = 0; i < v->nr_entries && !err; i++) {
		const struct spec_vdso_entry *e = &v->entries[i];
		const struct spec_vdso_version *ver = version_of(v, e->node);

		if (after_kernel(c, e->since) || (ver && after_kernel(c, ver->since)) ||
		    exports(im, e->name, e->node))
			continue;
		kd_buf_reset(&c->subj);
		err = kd_buf_addf(&c->subj, "%s@%s (%s)", e->name, e->node, v->abi);
		if (!err)
			err = nodes_of(im, e->name, &c->tmp);
		if (!err && c->tmp.len)
			err = finding(c, CHECK_R_VDSO_ENTRY_MISSING, &e->loc, c->subj.s,
				      "the kernel's %s image exports %s at %s, not at %s", v->abi,
				      e->name, c->tmp.s, e->node);
		else if (!err)
			err = finding(c, CHECK_R_VDSO_ENTRY_MISSING, &e->loc, c->subj.s,
				      "not exported by the kernel's %s image (%s)", v->abi, im->symbol);
	}
	return err;
}

int check_vdso(struct ck *c)
{
	const struct kd_arch *arch = kdb__arch(c->db);
	char *read = NULL;
	size_t i;
	int err = kdb__get_meta(c->db, "vdso", &read);

	if (err)
		return err;
	c->r->has_vdso = read != NULL;
	c->r->vdso_unchecked = !read && spec__nr_vdsos(c->s);
	free(read);
	for (i = 0; c->r->has_vdso && i < spec__nr_vdsos(c->s) && !err; i++) {
		const struct spec_vdso *v = spec__vdso(c->s, i);
		struct image im = { 0 };
		int runs;

		if (!kd_arch__has_abi(arch, v->abi) || after_kernel(c, v->since))
			continue;
		err = load_image(c, v->abi, &im);
		if (!err && im.found)
			err = check_entries(c, v, &im);
		else if (!err && (runs = runs_abi(c, v->abi)) < 0)
			err = runs;
		else if (!err && runs) {
			kd_buf_reset(&c->subj);
			err = kd_buf_addf(&c->subj, "vdso %s", v->abi);
			if (!err)
				err = finding(c, CHECK_R_VDSO_IMAGE_MISSING, &v->loc, c->subj.s,
					      "the kernel runs %s processes but embeds no vDSO image"
					      " for them", v->abi);
		}
		image_release(&im);
	}
	return err;
}

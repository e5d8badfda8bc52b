// SPDX-License-Identifier: GPL-2.0-only
/*
 * Removed __NR_ constants against the kernels' own syscall tables. A
 * syscall number is a header's spelling of a slot of the kernel's table,
 * and both tables are in the .kabi: a __NR_NAME the new headers lack is
 * no break while the new kernel still serves that number as NAME, nor
 * when neither kernel served it (sys_ni_syscall: ENOSYS before and
 * after). arm64 since 6.11 spells its numbers in asm/unistd_64.h,
 * generated at build time and absent from the headers package: every
 * name leaves the header tree, every number stays in the kernel.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb-kernel.h"
#include "db/kdb-uapi.h"
#include "diff/diff_internal.h"
#include "lib/arch.h"
#include "lib/mem.h"
#include "lib/str.h"

struct nr_side {
	struct nr_tables *t;
	int side;
};

static int keep_slot(const struct kd_syscall *sc, void *ctx)
{
	struct nr_side *ns = ctx;
	struct nr_tables *t = ns->t;
	int i = ns->side;
	char *name = NULL;

	if (sc->nr < 0)
		return 0;
	if (sc->nr >= t->size[i])
		t->size[i] = sc->nr + 1;
	if (!sc->implemented || !sc->name)
		return 0;
	if (KD_GROW(t->slot[i], t->cap[i], t->nr[i] + 1) || !(name = kd_strdup(sc->name)))
		return -ENOMEM;
	t->slot[i][t->nr[i]++] = (struct nr_slot){ sc->nr, name };
	return 0;
}

void nr_tables_init(struct nr_tables *t, struct kdb *old, struct kdb *new, const char *arch_name)
{
	const struct kd_arch *arch = arch_name ? kd_arch__by_name(arch_name) : NULL;

	memset(t, 0, sizeof(*t));
	t->db[0] = old;
	t->db[1] = new;
	t->abi = arch ? arch->native_abi : NULL;
}

/* Read both tables, once: only a diff that removes a __NR_ constant needs them. */
static int load(struct nr_tables *t)
{
	int i, err = 0;

	for (i = 0; !err && i < 2; i++)
		err = kdb__foreach_syscall(t->db[i], t->abi, keep_slot, &(struct nr_side){ t, i });
	t->loaded = true;
	return err;
}

void nr_tables_release(struct nr_tables *t)
{
	size_t j;
	int i;

	for (i = 0; i < 2; i++) {
		for (j = 0; j < t->nr[i]; j++)
			free(t->slot[i][j].name);
		free(t->slot[i]);
	}
	memset(t, 0, sizeof(*t));
}

static const struct nr_slot *served(const struct nr_tables *t, int side, int64_t nr)
{
	size_t j;

	for (j = 0; j < t->nr[side]; j++)
		if (t->slot[side][j].nr == nr)
			return &t->slot[side][j];
	return NULL;
}

/* A rule applies: 1, or the error of writing its evidence. */
static int as_hit(int err)
{
	return err ? err : 1;
}

int nr_removed_rule(struct nr_tables *t, const struct kd_constant *c, enum diff_rule_id *rule,
		    struct kd_buf *why)
{
	const struct nr_slot *s;
	const char *name = c->name;
	bool generic;
	int err;

	kd_buf_reset(why);
	generic = kd_starts_with(name, "__NR3264_");
	if (generic)
		name += 9;
	else if (kd_starts_with(name, "__NR_"))
		name += 5;
	else
		return 0;
	if (!t->abi)
		return 0;	/* no table to read the number against */
	if (!t->loaded && (err = load(t)))
		return err;
	if (!strcmp(c->name, "__NR_syscalls")) {
		/* The table's size: old binaries bound their numbers by it. */
		if (t->size[1] < c->value)
			return 0;
		*rule = DIFF_R_SYSCALL_NUMBER_KEPT;
		return as_hit(kd_buf_addf(why, "the new kernel's %s table has %" PRId64 " slots",
					  t->abi, t->size[1]));
	}
	/* asm-generic's __NR3264_NAME is the slot of the 64-bit call (fstatat: newfstatat). */
	s = served(t, 1, c->value);
	if (s && (generic || !strcmp(s->name, name))) {
		*rule = DIFF_R_SYSCALL_NUMBER_KEPT;
		return as_hit(kd_buf_addf(why, "the new kernel's %s table has %s at %" PRId64,
					  t->abi, s->name, s->nr));
	}
	if (!s && !served(t, 0, c->value)) {
		*rule = DIFF_R_SYSCALL_NUMBER_UNSERVED;
		return as_hit(kd_buf_addf(why, "neither kernel's %s table serves %" PRId64, t->abi,
					  c->value));
	}
	return 0;
}

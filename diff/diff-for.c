// SPDX-License-Identifier: GPL-2.0-only
/*
 * diff --for FILE: the result restricted to what one program uses
 * (lib/usage.h, read by extract/input/usage.h), libabigail abicompat's
 * question "is this program still compatible?". First the program's
 * syscalls and ioctls are resolved against both kernels: syscall numbers
 * through the tables of its ABI, ioctl command numbers through the
 * headers' ioctls (each name a kernel gives that number). Then a change
 * is kept when it is about one of them (a syscall of that ABI, an ioctl,
 * the __NR_ constant of a used syscall) or one of them reaches it (an
 * impact root: the struct a used syscall passes); every other change is
 * left out and counted, so the exit status and the summary speak of the
 * program alone. Constants no used syscall or ioctl names and types only
 * headers reach cannot be tied to a program and are left out too.
 * A vDSO entry point is the call its name says (__vdso_clock_gettime,
 * arm64's __kernel_clock_gettime, the alias clock_gettime): a program
 * that uses that call uses the entry point, and a whole image's change
 * reaches a program that uses any of the vDSO's calls.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb-kernel.h"
#include "db/kdb-uapi.h"
#include "db/kdb-vdso.h"
#include "diff/changes.h"
#include "lib/arch.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/str.h"
#include "lib/usage.h"

struct resolve {
	const struct kd_usage *u;
	struct kd_usage *used;	/* names only: the program's syscalls and ioctls */
	const char *abi;
	bool found;
	int side;		/* the kernel whose tables are read */
	bool *nr_found;		/* per syscall number: the old kernel has it */
	uint32_t *cmds_known;	/* the program's command numbers some kernel defines */
	size_t nr_cmds_known, cap_cmds_known;
	struct kd_usage vdso;	/* syscalls: the calls either kernel's vDSO answers */
};

/*
 * The call a vDSO symbol or change subject names: "__vdso_getcpu@LINUX_2.6
 * (x64)" -> "getcpu", into @buf. NULL when it is none (too long for a
 * name of a call, or empty).
 */
static const char *vdso_call(const char *s, char *buf, size_t size)
{
	size_t n;

	if (kd_starts_with(s, "__vdso_"))
		s += 7;
	else if (kd_starts_with(s, "__kernel_"))
		s += 9;
	n = strcspn(s, "@ (");
	if (!n || n >= size)
		return NULL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return buf;
}

static int vdso_symbol(const struct kd_vdso_symbol *sym, void *ctx)
{
	struct kd_usage *vdso = ctx;
	char buf[128];	/* a lookup key: longer names are no calls */
	const char *call = vdso_call(sym->name, buf, sizeof(buf));

	return call ? kd_usage_add_syscall(vdso, call, strlen(call)) : 0;
}

static int found_slot(const struct kd_syscall *sc, void *ctx)
{
	struct resolve *rs = ctx;

	if (!sc->name || (rs->abi && strcmp(sc->abi, rs->abi)))
		return 0;
	rs->found = true;
	return 1;
}

/* A slot of @rs->abi whose number the program uses: its name is used. */
static int numbered_slot(const struct kd_syscall *sc, void *ctx)
{
	struct resolve *rs = ctx;
	size_t i;

	if (!sc->name || sc->nr < 0)
		return 0;
	for (i = 0; i < rs->u->nr_syscall_nrs; i++) {
		if (rs->u->syscall_nrs[i] != sc->nr || (rs->side && rs->nr_found[i]))
			continue;
		rs->nr_found[i] |= !rs->side;
		return kd_usage_add_syscall(rs->used, sc->name, strlen(sc->name));
	}
	return 0;
}

static int numbered_ioctl(const struct kd_ioctl *io, void *ctx)
{
	struct resolve *rs = ctx;
	size_t i;

	if (!io->has_cmd || !kd_usage_has_ioctl_cmd(rs->u, io->cmd))
		return 0;
	/* The new kernel's name only for a number the old one does not define. */
	for (i = 0; rs->side && i < rs->nr_cmds_known; i++)
		if (rs->cmds_known[i] == io->cmd)
			return 0;
	if (KD_GROW(rs->cmds_known, rs->cap_cmds_known, rs->nr_cmds_known + 1))
		return -ENOMEM;
	rs->cmds_known[rs->nr_cmds_known++] = io->cmd;
	return kd_usage_add_ioctl(rs->used, io->name, strlen(io->name));
}

static int add_unknown(struct diff_for *df, const char *name)
{
	char *s;

	if (KD_GROW(df->unknown, df->cap_unknown, df->nr_unknown + 1))
		return -ENOMEM;
	s = kd_strdup(name);
	if (!s)
		return -ENOMEM;
	df->unknown[df->nr_unknown++] = s;
	return 0;
}

/* The program's syscalls and ioctls as both kernels name them, into @rs->used. */
static int resolve(struct resolve *rs, struct diff_for *df, struct kdb *db[2])
{
	const struct kd_usage *u = rs->u;
	size_t i, j;
	int side, err = 0;

	for (side = 0; !err && side < 2; side++)
		err = kdb__foreach_vdso_symbol(db[side], NULL, vdso_symbol, &rs->vdso);
	if (err)
		return err;
	kd_usage_finish(&rs->vdso);
	for (i = 0; !err && i < u->nr_syscalls; i++) {
		rs->found = kd_usage_has_syscall(&rs->vdso, u->syscalls[i]);
		for (side = 0; !err && !rs->found && side < 2; side++)
			err = kdb__foreach_syscall_named(db[side], u->syscalls[i], found_slot, rs);
		if (err < 0)
			break;
		err = 0;
		if (rs->found)
			err = kd_usage_add_syscall(rs->used, u->syscalls[i], strlen(u->syscalls[i]));
		else if (!u->imports_are_candidates)
			err = add_unknown(df, u->syscalls[i]);
	}
	/*
	 * Numbers are the old kernel's, the one the program was built for and
	 * traced on: a number the new kernel gives another syscall is that
	 * syscall's removal, not a use of the new one. Only a number the old
	 * kernel lacks is looked up in the new one.
	 */
	if (!err && u->nr_syscall_nrs && rs->abi) {
		rs->nr_found = kd_calloc(u->nr_syscall_nrs, sizeof(*rs->nr_found));
		if (!rs->nr_found)
			return -ENOMEM;
	}
	for (side = 0; !err && side < 2 && rs->nr_found; side++) {
		rs->side = side;
		err = kdb__foreach_syscall(db[side], rs->abi, numbered_slot, rs);
	}
	for (side = 0; !err && side < 2 && u->nr_ioctl_cmds; side++) {
		rs->side = side;
		err = kdb__foreach_ioctl(db[side], NULL, numbered_ioctl, rs);
	}
	for (i = 0; !err && i < u->nr_ioctls; i++)
		err = kd_usage_add_ioctl(rs->used, u->ioctls[i], strlen(u->ioctls[i]));
	if (err)
		return err;
	kd_usage_finish(rs->used);
	/* Numbers no kernel defines: an ELF's candidates are noise, a log's are calls. */
	for (i = 0; !u->imports_are_candidates && i < u->nr_ioctl_cmds; i++) {
		for (j = 0; j < rs->nr_cmds_known && rs->cmds_known[j] != u->ioctl_cmds[i]; j++)
			;
		df->nr_unknown_cmds += j == rs->nr_cmds_known;
	}
	df->nr_syscalls = rs->used->nr_syscalls;
	df->nr_ioctls = rs->used->nr_ioctls + df->nr_unknown_cmds;
	return 0;
}

/* "openat2 (x64)": is the ABI in parentheses @abi (or none given)? */
static bool abi_matches(const char *subject, const char *abi)
{
	const char *p = strstr(subject, " (");
	size_t n = strlen(subject);

	if (!abi || !p || subject[n - 1] != ')')
		return true;
	return (size_t)(subject + n - 1 - (p + 2)) == strlen(abi) && !strncmp(p + 2, abi, strlen(abi));
}

/* Is @name, or the call of the vDSO entry point it names, a used syscall? */
static bool uses_call(const struct kd_usage *used, const char *name)
{
	char buf[128];
	const char *call = vdso_call(name, buf, sizeof(buf));

	return kd_usage_has_syscall(used, name) || (call && kd_usage_has_syscall(used, call));
}

static bool uses_root(const struct kd_usage *used, const char *root)
{
	if (kd_starts_with(root, "ioctl "))
		root += 6;
	return uses_call(used, root) || kd_usage_has_ioctl(used, root);
}

/* Does the program use any call a vDSO answers? */
static bool uses_vdso(const struct kd_usage *used, const struct kd_usage *vdso)
{
	size_t i;

	for (i = 0; i < vdso->nr_syscalls; i++)
		if (kd_usage_has_syscall(used, vdso->syscalls[i]))
			return true;
	return false;
}

static bool change_used(const struct diff_change *c, const struct kd_usage *used,
			const struct kd_usage *vdso, const char *abi)
{
	size_t i;

	switch (c->category) {
	case DIFF_CAT_SYSCALL:
		if (uses_call(used, c->name) && abi_matches(c->subject, abi))
			return true;
		break;
	case DIFF_CAT_VDSO:
		/* "vdso x64": a whole image; else an entry point, "__vdso_time@LINUX_2.6 (x64)". */
		if (!strcmp(c->subject, c->name) ?
		    uses_vdso(used, vdso) && (!abi || !strcmp(c->subject + strlen("vdso "), abi)) :
		    uses_call(used, c->subject) && abi_matches(c->subject, abi))
			return true;
		break;
	case DIFF_CAT_IOCTL:
		if (kd_usage_has_ioctl(used, c->name))
			return true;
		break;
	case DIFF_CAT_CONSTANT:
		if ((kd_starts_with(c->name, "__NR_") && kd_usage_has_syscall(used, c->name + 5)) ||
		    kd_usage_has_ioctl(used, c->name))
			return true;
		break;
	default:
		break;
	}
	for (i = 0; i < c->nr_impacts; i++)
		if (uses_root(used, c->impacts[i].root))
			return true;
	return false;
}

/* The used names, syscalls then ioctls, for the JSON report. */
static int keep_names(struct diff_for *df, const struct kd_usage *used)
{
	size_t i, n = used->nr_syscalls + used->nr_ioctls;

	df->names = kd_calloc(n ? n : 1, sizeof(*df->names));
	if (!df->names)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		df->names[i] = kd_strdup(i < used->nr_syscalls ? used->syscalls[i] :
					 used->ioctls[i - used->nr_syscalls]);
		if (!df->names[i])
			return -ENOMEM;
		df->nr_names++;
	}
	return 0;
}

int diff_result__restrict(struct diff_result *r, const struct kd_usage *u, const char *file,
			  struct kdb *old, struct kdb *new)
{
	const struct kd_arch *arch = kd_arch__by_name(r->meta[1].arch ? r->meta[1].arch : "");
	struct kd_usage used = KD_USAGE_INIT;
	struct resolve rs = { .u = u, .used = &used };
	struct kdb *db[2] = { old, new };
	struct diff_for *df;
	size_t i, n;
	int err;

	df = kd_calloc(1, sizeof(*df));
	if (!df || !(df->file = kd_strdup(file)) ||
	    !(df->kind = kd_strdup(u->label ? u->label : "program"))) {
		diff_for_free(df);
		kd_err("out of memory");
		return -ENOMEM;
	}
	df->unseen = u->unseen;
	/* Numbers are of the binary's ABI; a log's, of the kernel's own. */
	rs.abi = u->abi ? u->abi : arch ? arch->native_abi : NULL;
	err = resolve(&rs, df, db);
	if (!err)
		err = keep_names(df, &used);
	if (err) {
		if (err == -ENOMEM)
			kd_err("out of memory");
		goto out;
	}
	for (i = n = 0; i < r->nr_changes; i++) {
		struct diff_change *c = &r->changes[i];

		if (change_used(c, &used, &rs.vdso, u->abi)) {
			r->changes[n++] = *c;
			continue;
		}
		if (c->suppressed)
			df->left_out_suppressed++;
		else
			df->left_out[c->rule->verdict]++;
		diff_change_release(c);
	}
	r->nr_changes = n;
	r->usage = df;
	df = NULL;
out:
	diff_for_free(df);
	free(rs.cmds_known);
	free(rs.nr_found);
	kd_usage_release(&rs.vdso);
	kd_usage_release(&used);
	return err;
}

const struct diff_for *diff_result__for(const struct diff_result *r)
{
	return r->usage;
}

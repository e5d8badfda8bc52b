/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to diff/: one run of the comparison (struct diff_run, the state
 * diff__run() holds for its passes) and the passes the driver calls in
 * turn, with what they share: the facts of each kernel's binaries, the
 * syscall tables, the modules. The result they fill is changes.h's, the
 * type walk they hand slots to is type-walk.h's; see diff/README.md.
 */
#ifndef KD_DIFF_INTERNAL_H
#define KD_DIFF_INTERNAL_H

#include <stdint.h>

#include "db/kdb-diff.h"
#include "diff/changes.h"
#include "diff/diff.h"
#include "diff/tgraph.h"
#include "diff/type-walk.h"
#include "lib/buf.h"
#include "lib/model.h"

struct kdb;
/* Changes between two contract versions (diff-contract.c): conf->contract_changes. */
int diff_contract_changes(struct diff_result *r, const struct diff_conf *conf);

/* A UAPI header of the old kernel and how much of its ioctls' code was built. */
struct diff_header {
	char *file;		/* include name: "drm/i810_drm.h" */
	unsigned typed;		/* ioctls whose argument is a struct, union or enum */
	unsigned built;		/* of those, the ones whose type a kernel binary defines */
};

/* What each kernel's binary shows beyond the compared items (diff-uapi.c). */
struct diff_facts {
	char **modules[2];	/* module names, sorted */
	size_t nr_modules[2];
	int64_t *built_ids;	/* old: ids of types a kernel binary defines, sorted */
	size_t nr_built_ids;
	struct diff_header *headers;	/* old: sorted by file */
	size_t nr_headers, cap_headers;
};

struct kd_constant;
/* The native syscall tables of both kernels (diff-nr.c): implemented slots. */
struct nr_slot {
	int64_t nr;
	char *name;
};
struct nr_tables {
	struct kdb *db[2];		/* [0] old, [1] new */
	const char *abi;		/* the arch's native ABI; NULL: arch unknown, no tables */
	bool loaded;			/* read on the first removed __NR_ constant */
	struct nr_slot *slot[2];
	size_t nr[2], cap[2];
	int64_t size[2];		/* slots, implemented or not */
};
void nr_tables_init(struct nr_tables *t, struct kdb *old, struct kdb *new, const char *arch);
void nr_tables_release(struct nr_tables *t);
/*
 * Does the removal of constant @c have a rule of its own because the
 * tables explain it? 1 (*rule: DIFF_R_SYSCALL_NUMBER_KEPT or _UNSERVED,
 * the evidence in @why), 0 no, or a negative code.
 */
int nr_removed_rule(struct nr_tables *t, const struct kd_constant *c, enum diff_rule_id *rule,
		    struct kd_buf *why);

/* One module of one kernel (diff-modules.c). */
struct dmod {
	int64_t id;
	char *name, *depends;	/* '-' read as '_', as modprobe does */
	char *path, *description;
	bool removed;		/* old side: the new kernel has no module of that name */
	long entry;		/* while listing: its result entry */
	size_t index;		/* new side: its index before the sort by name */
};
/* A binary compiled with a UAPI header. */
struct dmod_header {
	char *header;		/* "linux/tc_act/tc_ipt.h" */
	long mod;		/* index into the side's mods (as loaded), -1: vmlinux */
};
struct dmod_side {
	struct dmod *mods;	/* by id; the new side's by name once loaded */
	size_t nr_mods, cap_mods;
	struct dmod_header *hdrs;	/* by header */
	size_t nr_hdrs, cap_hdrs;
};
struct diff_modules {
	struct dmod_side side[2];
	bool compared;		/* both sides were read with their modules */
};

/* One diff__run(): the engine, both DBs, the facts and scratch buffers. */
/*
 * diff-abi.c: the syscall ABIs one kernel has and the other lacks (the
 * cloud flavour builds no x32): one change for the ABI, not one per call.
 */
struct diff_abis {
	char **names[2];	/* each kernel's syscall ABIs, sorted */
	int nr[2];
	size_t *calls[2];	/* per name: syscalls left to the ABI's change */
};

struct diff_run {
	struct diff_engine e;
	struct kdb *db[2];
	int64_t (*done)[2];	/* function pairs already compared */
	size_t nr_done, cap_done;
	struct kd_buf subj, ov, nv;
	struct diff_facts k;
	struct nr_tables nr;	/* removed __NR_ constants are read against them */
	struct diff_modules mods;	/* diff-modules.c */
	struct diff_abis abis;		/* diff-abi.c */
};

/* Read both kernels' syscall ABIs. 0 or negative. */
int diff_abis_load(struct diff_run *run);
void diff_abis_release(struct diff_abis *a);
/*
 * Is @abi an ABI of kernel @side (0 old, 1 new) that the other kernel
 * lacks? Then its syscalls are not judged one by one: @count adds one to
 * the ABI's change (diff_abis_changes()).
 */
bool diff_abi_lone(struct diff_run *run, int side, const char *abi, bool count);
/* One syscall-abi-removed or -added change per such ABI whose syscalls were counted. */
int diff_abis_changes(struct diff_run *run);
/* The finding of ABI @abi's change ("x32 ABI"), for what else it takes away. */
int diff_abi_cause(struct kd_buf *b, const char *abi);

/*
 * diff-modules.c: the modules of both kernels and the UAPI headers their
 * binaries include; the result's removed modules. 0 or negative.
 */
int diff_modules_load(struct diff_run *run);
void diff_modules_release(struct diff_modules *m);
/*
 * Did header @file's serving code leave with modules the new kernel lacks
 * (RULES.md "Removed modules")? 1 with the evidence in @why (the modules
 * named, each recording @subject, may be NULL, as what it served), 0 no,
 * or negative. @removed_item: the name judged is one the new headers no
 * longer define, which a removed module built on the header's server
 * also explains.
 */
int diff_modules_gone(struct diff_run *run, const char *file, const char *subject,
		      bool removed_item, struct kd_buf *why);
/* header.unserved changes (constants compared): headers kept, served no more. */
int diff_modules_unserved_headers(struct diff_run *run);
/* Does a binary of the old kernel include UAPI header @file (its line tables say so)? */
bool diff_modules_included(const struct diff_run *run, const char *file);
/* Sort what each removed module served. */
int diff_modules_finish(struct diff_run *run);

/*
 * diff-header-types.c: after the syscalls and ioctls, every named type
 * both header views declare, from its header; a type the kernel's paths
 * compared is not compared again. Then the impacts (dt_impacts()), and
 * the rules of changes only headers reach (type-unbuilt, an enumerator's).
 */
int diff_header_types(struct diff_run *run);
/*
 * diff-provenance.c, after the impacts: the evidence of every type change
 * whose evidence is still @dflt (the layouts'), from where each side's
 * row was read (header view, vmlinux's or a module's DWARF).
 */
int diff_layout_sources(struct diff_run *run, const char *dflt);

/*
 * diff-header-lost.c: after diff_header_types(), the old header views'
 * types the new ones lack: removed (header-type-removed), or not compared
 * because their header stopped compiling (header-compile-failed, and the
 * result's uncompared entries).
 */
int diff_header_lost(struct diff_run *run);

/*
 * Observed changes (diff-probe.c): the probe results of the old kernel and
 * of the new one attached to it as "other", one change per case whose
 * outcome differs (types loaded: the cases' structs are sized by them).
 */
int diff_probe(struct diff_run *run);
/*
 * diff-syscalls.c: the signatures @fo (old) and @fn (new) of the entry
 * point @name compared by the syscalls' rules (parameter count, names,
 * types and the layouts they reach); each pair once.
 */
int diff_compare_signatures(struct diff_run *run, const char *name, int64_t fo, int64_t fn);
/* diff-syscalls.c: the row callback of the syscall tables (@ctx: the run). */
int diff_on_syscall(const struct kdb_syscall_pair *p, void *ctx);
/* diff-vdso.c: the vDSO images and their exported names (the vdso-* rules). */
int diff_vdso(struct diff_run *run);
struct kdb_probe_pair;
/*
 * Does case @p pass a struct, through a pointer parameter of its call,
 * with more bytes than the smaller of its sizes in the two kernels, which
 * differ (diff-probe-size.c)? *@changed: the answer, *@why its evidence.
 */
int diff_probe_size_changed(const struct diff_run *run, const struct kdb_probe_pair *p,
			    struct kd_buf *why, bool *changed);

/* diff-coverage.c: what each side covers, hence which categories are compared. */
void diff_coverage_load(struct diff_result *r, struct kdb *old, struct kdb *new);

/* A verdict with its evidence, before it becomes a change (diff-uapi.c, diff-constants.c). */
struct diff_judged {
	enum diff_rule_id rule;
	enum diff_evidence ev;
	struct kd_buf text;
};
/* Set @j's rule, evidence kind and text. 0 or -ENOMEM. */
int diff_judge(struct diff_judged *j, enum diff_rule_id rule, enum diff_evidence ev,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* diff-uapi.c: load the facts (after the types), then the row callbacks. */
int diff_facts_load(struct diff_run *run);
void diff_facts_release(struct diff_facts *k);
int diff_on_ioctl(const struct kdb_ioctl_pair *p, void *ctx);
/* diff-families.c: one function-like ioctl macro of either side. */
struct kdb_ioctl_family_pair;
int diff_on_ioctl_family(const struct kdb_ioctl_family_pair *p, void *ctx);
/*
 * Did the old kernel serve native ioctl @io? 1 a binary of it defines the
 * argument type, 0 none does, -1 cannot tell (diff-uapi.c).
 */
int diff_ioctl_built(const struct diff_run *run, const struct kd_ioctl *io);
/*
 * The ioctls judged for i386 programs (diff-ia32.c): each one whose i386
 * number or i386 argument layout changed while the x86_64 ones did not,
 * when both kernels have the 32-bit header view. 0 or a negative code.
 */
int diff_ia32(struct diff_run *run);
/*
 * The finding of change @idx, defined in header @file: the header, and for
 * one of the user ABI a source tree keeps outside include/uapi (meta
 * uapi_outside of either kernel), "FILE (outside include/uapi; used by
 * USER)". @always false: only for such a header (the change keeps its own
 * finding otherwise). 0 or a negative code.
 */
int diff_header_cause(struct diff_run *run, size_t idx, const char *file, bool always);
/* diff-constants.c: the row callback of constants. */
int diff_on_constant(const struct kdb_constant_pair *p, void *ctx);
/*
 * Was no ioctl of header @file served by the old kernel (read with its
 * modules: a typed ioctl, no binary defining any of their types, no module
 * named after it)? @scratch is working space.
 */
bool diff_header_unbuilt(const struct diff_run *run, const char *file, struct kd_buf *scratch);

/*
 * What was not compared (diff-header-lost.c): a new entry, its strings
 * owned by the result, @header NULL for "the header views' types"; its
 * index + 1, or 0 on ENOMEM. Then a type under it ("struct b_t"): 0 or
 * -ENOMEM.
 */
size_t diff_uncompared_add(struct diff_result *r, const char *header, const char *why);
int diff_uncompared_add_type(struct diff_uncompared *u, const char *subject);

/*
 * Kernel vs header (diff-header-kernel.c): each difference between the new
 * kernel's DWARF and its compiled UAPI headers, judged against the old
 * kernel's own differences. An old side with no kernel (a header tree)
 * has none to judge them against: the new kernel's types that differ
 * from its headers are listed as not compared, one entry per header.
 */
int diff_header_kernel(struct diff_result *r, struct kdb *old, const struct tgraph *g_old,
		       struct kdb *new, const struct tgraph *g_new);

#endif

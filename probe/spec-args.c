// SPDX-License-Identifier: GPL-2.0-only
/*
 * The baseline arguments of a syscall from its spec, for probe/spec.c:
 * every parameter gets a harmless value (AT_FDCWD or one of the probe's
 * fds, "/" for calls that only look a path up and a missing path for the
 * others, a zeroed buffer of the struct's first size, 0 for flags, the
 * first value of an enum, a pid no process can have, -1 for ids) and a
 * slot the errno conditions can name; fields a condition names ("how.flags")
 * become patches of the struct's buffer at their DWARF offset. Also the
 * list of calls never probed, and constants: this kernel's UAPI values
 * from the DB, PAGE_SIZE, and the struct sizes the spec names.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "db/kdb-uapi.h"
#include "db/type-cache.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/model.h"
#include "lib/str.h"
#include "lib/typegraph.h"
#include "probe/conv_internal.h"

/*
 * Calls never probed, whatever the spec says: a case runs with the
 * condition's values, and should the kernel not refuse them as the spec
 * promises, the call would really happen. So: nothing that ends, forks,
 * replaces or signals a process, changes credentials, limits, namespaces,
 * mounts, time or the machine, maps or unmaps memory, closes or replaces
 * the probe's fds, touches its signal mask or alarm (the per-case timeout),
 * or only sleeps.
 */
static const char *const skip_calls[] = {
	"acct", "adjtimex", "alarm", "arch_prctl", "brk", "capset", "chroot", "clock_adjtime",
	"clock_nanosleep", "clock_settime", "clone", "clone3", "close", "close_range",
	"delete_module", "dup2", "dup3", "epoll_pwait", "epoll_pwait2", "epoll_wait",
	"execve", "execveat", "exit", "exit_group", "finit_module", "fork", "fsconfig",
	"fsmount", "futex", "futex_wait", "futex_waitv", "init_module", "io_destroy",
	"io_getevents", "io_pgetevents", "ioperm", "iopl", "kexec_file_load", "kexec_load",
	"kill", "mmap", "mount", "mount_setattr", "move_mount", "mremap", "msgrcv",
	"munmap", "nanosleep", "pause", "personality", "pidfd_send_signal", "pivot_root",
	"pkey_mprotect", "poll", "ppoll", "prctl", "prlimit64", "process_vm_writev",
	"pselect6", "ptrace", "quotactl", "quotactl_fd", "reboot", "remap_file_pages",
	"rseq", "rt_sigaction", "rt_sigprocmask", "rt_sigqueueinfo", "rt_sigreturn",
	"rt_sigsuspend", "rt_sigtimedwait", "rt_tgsigqueueinfo", "sched_setaffinity",
	"sched_setattr", "sched_setparam", "sched_setscheduler", "seccomp", "select",
	"semop", "semtimedop", "set_robust_list", "set_tid_address", "setdomainname",
	"setfsgid", "setfsuid", "setgid", "setgroups", "sethostname", "setitimer",
	"setns", "setpgid", "setpriority", "setregid", "setresgid", "setresuid",
	"setreuid", "setrlimit", "setsid", "settimeofday", "setuid", "shmat", "shmdt",
	"sigaltstack", "swapoff", "swapon", "sync", "syncfs", "syslog", "tgkill", "tkill",
	"umount2", "unshare", "vfork", "vhangup", "wait4", "waitid",
};

/* Calls that only look a path up: they get "/"; every other call gets a missing path. */
static const char *const lookup_calls[] = {
	"access", "faccessat", "faccessat2", "fanotify_mark", "fspick", "getxattr",
	"inotify_add_watch", "lgetxattr", "listxattr", "llistxattr", "lstat", "name_to_handle_at",
	"newfstatat", "open", "open_tree", "openat", "openat2", "readlink", "readlinkat", "stat",
	"statfs", "statx", "chdir",
};

static bool conv_in_list(const char *const *list, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

bool probe__spec_skip(const char *call)
{
	return conv_in_list(skip_calls, N(skip_calls), call);
}

/* --- constants ----------------------------------------------------------- */
static int on_const(const struct kd_constant *c, void *ctx)
{
	*(uint64_t *)ctx = (uint64_t)c->value;
	return 0;
}

/* The value of UAPI constant @name in this kernel; false when it has none. */
static bool const_value(struct conv *cv, const char *name, uint64_t *v)
{
	struct cval *c;
	size_t i;
	int err;

	for (i = 0; i < cv->nr_consts; i++)
		if (!strcmp(cv->consts[i].name, name)) {
			*v = cv->consts[i].value;
			return cv->consts[i].found;
		}
	if (KD_GROW(cv->consts, cv->cap_consts, cv->nr_consts + 1))
		return false;
	c = &cv->consts[cv->nr_consts];
	c->name = kd_strdup(name);
	if (!c->name)
		return false;
	cv->nr_consts++;
	c->value = 0;
	err = kdb__get_constant(cv->db, name, on_const, &c->value);
	c->found = !err;
	/* Not UAPI, but what x86_64 and Debian's arm64 kernels (4K pages) have. */
	if (!c->found && !strcmp(name, "PAGE_SIZE")) {
		c->value = 4096;
		c->found = true;
	}
	/*
	 * A flag or enum value the spec defines with a number ("O_X = 0x10"):
	 * a literal only, so that values naming each other cannot loop.
	 */
	for (i = 0; !c->found && i < spec__nr_sets(cv->s); i++) {
		const struct spec_set *set = spec__set(cv->s, i);
		size_t j;

		for (j = 0; j < set->nr_values && !c->found; j++)
			if (!strcmp(set->values[j].name, name) && set->values[j].value &&
			    set->values[j].value->op == SPEC_EX_NUM) {
				c->value = set->values[j].value->num;
				c->found = true;
			}
	}
	/* A struct size the spec names ("size OPEN_HOW_SIZE_VER0 = 24"). */
	for (i = 0; !c->found && i < spec__nr_structs(cv->s); i++) {
		const struct spec_struct *st = spec__struct(cv->s, i);
		size_t j;

		for (j = 0; j < st->nr_sizes && !c->found; j++)
			if (st->sizes[j].name && !strcmp(st->sizes[j].name, name)) {
				c->value = st->sizes[j].size;
				c->found = true;
			}
	}
	*v = c->value;
	return c->found;
}

/* The value of a set member: explicit, or the UAPI constant; false when unknown here. */
bool conv_member_value(struct conv *cv, const struct spec_value *v, uint64_t *out)
{
	if (v->since && !probe_release_at_least(cv->release, v->since))
		return false;
	if (v->value)
		return spec_expr__eval(v->value, conv_lookup, cv, out) == 0;
	return const_value(cv, v->name, out);
}

/* Is @v newer than the kernel probed (so that it has no value here, rightly)? */
static bool member_newer(const struct conv *cv, const struct spec_value *v)
{
	return v->since && !probe_release_at_least(cv->release, v->since);
}

bool conv_set_complete(struct conv *cv, const struct spec_set *set)
{
	const struct spec_value **vals = NULL;
	long n = spec__set_values(cv->s, set, &vals), i;
	bool all = n >= 0;
	uint64_t v;

	for (i = 0; all && i < n; i++)
		all = member_newer(cv, vals[i]) || conv_member_value(cv, vals[i], &v);
	free(vals);
	return all;
}

/*
 * OR of the bits of flag set @set; false when a member this kernel has
 * has no value here (a .kabi extracted without its UAPI headers): a
 * partial mask would call a real flag an unknown bit.
 */
static bool set_mask(struct conv *cv, const struct spec_set *set, uint64_t *mask)
{
	const struct spec_value **vals = NULL;
	long n = spec__set_values(cv->s, set, &vals), i;
	bool all = n >= 0;
	uint64_t v;

	*mask = 0;
	for (i = 0; all && i < n; i++) {
		if (conv_member_value(cv, vals[i], &v))
			*mask |= v;
		else
			all = member_newer(cv, vals[i]);
	}
	free(vals);
	return all;
}

int conv_lookup(const char *name, uint64_t *value, void *ctx)
{
	struct conv *cv = ctx;
	const struct spec_set *set;
	size_t i;

	for (i = 0; i < cv->nr_slots; i++)
		if (!strcmp(cv->slots[i].name, name)) {
			*value = cv->slots[i].cur & cv->slots[i].mask;
			return 0;
		}
	if (cv->call && (strchr(name, '.') || spec_call__param(cv->call, name)))
		return -ENOENT;	/* a parameter or field the probe cannot set */
	set = spec__find_set(cv->s, name);
	if (set)
		return set->kind == SPEC_SET_FLAGS && set_mask(cv, set, value) ? 0 : -ENOENT;
	return const_value(cv, name, value) ? 0 : -ENOENT;
}

/* 1 true, 0 false, -1 not evaluable. */
int conv_truth(struct conv *cv, const struct spec_expr *e)
{
	uint64_t v;

	return !e || spec_expr__eval(e, conv_lookup, cv, &v) ? -1 : v != 0;
}

/* --- layout from the kernel's DWARF ----------------------------------------- */
void conv_param_widths(struct conv *cv, int64_t func_id)
{
	struct kd_function *f = NULL;
	size_t i;

	memset(cv->widths, 0, sizeof(cv->widths));
	if (!func_id || kdb__get_function_by_id(cv->db, func_id, &f))
		return;
	for (i = 0; f->nr_params == cv->call->nr_params && i < f->nr_params &&
		    i < PROBE_MAX_ARGS; i++) {
		const struct kd_type *t = kd_type_strip(f->params[i].type_id, type_cache__lookup,
							cv->types);

		if (!t || kd_kind_is_qualifier(t->kind))
			continue;
		if ((t->kind == KD_KIND_BASE || t->kind == KD_KIND_ENUM ||
		     t->kind == KD_KIND_POINTER) &&
		    (t->size == 1 || t->size == 2 || t->size == 4 || t->size == 8))
			cv->widths[i] = (unsigned)t->size;
	}
	kd_function__free(f);
}

/*
 * The struct or union a C spelling ("struct open_how") names, from the
 * type cache; NULL when absent (a failed query is kept in cv->db_err).
 */
static const struct kd_type *find_aggregate(struct conv *cv, const char *ctype)
{
	const char *kind = kd_starts_with(ctype, "struct ") ? "struct"
			 : kd_starts_with(ctype, "union ") ? "union" : NULL;
	const struct kd_type *t = NULL;
	int64_t *ids = NULL;
	int n, i;

	if (!kind || strchr(ctype, '*') || strchr(ctype, '['))
		return NULL;
	n = kdb__find_types(cv->db, kind, ctype + strlen(kind) + 1, &ids);
	if (n < 0 && !cv->db_err)
		cv->db_err = n;
	/* The first definition with members (declarations have none). */
	for (i = 0; i < n && !t; i++) {
		t = type_cache__get(cv->types, ids[i]);
		if (t && (!t->nr_members || t->size <= 0))
			t = NULL;
	}
	free(ids);
	return t;
}

/* Offset and width (1, 2, 4, 8 bytes) of member @path ("a.b") of @ctype. */
static bool field_layout(struct conv *cv, const char *ctype, const char *path,
			 uint32_t *off, uint32_t *width)
{
	const struct kd_type *t = find_aggregate(cv, ctype);
	const char *p = path;
	bool ok = false;

	*off = 0;
	while (t && *p) {
		size_t len = strcspn(p, "."), i;
		const struct kd_member *m = NULL;
		const struct kd_type *mt;

		for (i = 0; i < t->nr_members && !m; i++)
			if (t->members[i].name && strlen(t->members[i].name) == len &&
			    !strncmp(t->members[i].name, p, len))
				m = &t->members[i];
		if (!m || m->bit_size)
			break;
		mt = kd_type_strip(m->type, type_cache__lookup, cv->types);
		if (!mt || kd_kind_is_qualifier(mt->kind))
			break;
		*off += (uint32_t)m->offset;
		t = mt;
		p += len;
		if (*p == '.') {
			p++;
			continue;
		}
		ok = (t->kind == KD_KIND_BASE || t->kind == KD_KIND_ENUM ||
		      t->kind == KD_KIND_POINTER) &&
		     (t->size == 1 || t->size == 2 || t->size == 4 || t->size == 8);
		*width = ok ? (uint32_t)t->size : 0;
		break;
	}
	return ok;
}

/* Bytes of the buffer passed for a pointer to @ctype: the first size of an extensible struct. */
static uint64_t buf_size(struct conv *cv, const char *ctype)
{
	const char *name = kd_starts_with(ctype, "struct ") ? ctype + 7
			 : kd_starts_with(ctype, "union ") ? ctype + 6 : NULL;
	const struct spec_struct *st = name ? spec__find_struct(cv->s, name) : NULL;
	const struct kd_type *t;
	uint64_t size = 256;

	if (st && st->extensible && st->nr_sizes)
		return st->sizes[0].size;
	t = name ? find_aggregate(cv, ctype) : NULL;
	if (t)
		size = (uint64_t)t->size;
	else if (st && st->min_size > 0)
		size = (uint64_t)st->min_size;
	else if (st && st->nr_sizes)
		size = st->sizes[st->nr_sizes - 1].size;
	return size && size <= 65536 ? size : 256;
}

/* --- the baseline of a call ---------------------------------------------------- */
static struct conv_slot *add_slot(struct conv *cv, const char *name, int arg, int patch,
			     int kind, unsigned width, uint64_t base)
{
	struct conv_slot *sl;

	if (cv->nr_slots == MAX_SLOTS)
		return NULL;
	sl = &cv->slots[cv->nr_slots];
	sl->name = kd_strdup(name);
	if (!sl->name)
		return NULL;
	cv->nr_slots++;
	sl->arg = arg;
	sl->patch = patch;
	sl->kind = kind;
	sl->mask = width >= 8 ? ~0ULL : (1ULL << (width * 8)) - 1;
	sl->base = sl->cur = base & sl->mask;
	return sl;
}

/* @v as the register carries it: a 32-bit value sign-extended (-100 stays -100). */
uint64_t conv_reg(const struct conv_slot *sl, uint64_t v)
{
	v &= sl->mask;
	if (sl->mask == 0xffffffffu && (v & 0x80000000u))
		v |= ~0xffffffffULL;
	return v;
}

struct conv_slot *conv_find_slot(struct conv *cv, const char *name)
{
	size_t i;

	for (i = 0; i < cv->nr_slots; i++)
		if (!strcmp(cv->slots[i].name, name))
			return &cv->slots[i];
	return NULL;
}

/* A slot for field @name ("how.flags") of a struct argument: a patch of its buffer. */
struct conv_slot *conv_field_slot(struct conv *cv, const char *name)
{
	const struct spec_param *p;
	struct probe_arg *a;
	struct kd_buf pname = KD_BUF_INIT;
	size_t dot = strcspn(name, ".");
	uint32_t off, width;
	struct conv_slot *sl = conv_find_slot(cv, name);
	long i;

	if (sl || !name[dot])
		return sl;
	if (kd_buf_addf(&pname, "%.*s", (int)dot, name))
		return NULL;
	p = spec_call__param(cv->call, pname.s);
	kd_buf_release(&pname);
	if (!p || p->arg.kind != SPEC_K_PTR || !p->arg.ref)
		return NULL;
	i = p - cv->call->params;
	a = &cv->base.args[i];
	if (a->kind != PROBE_ARG_BUF || a->nr_patches == PROBE_MAX_PATCHES ||
	    !field_layout(cv, p->arg.ref, name + dot + 1, &off, &width) || off + width > a->value)
		return NULL;
	a->patches[a->nr_patches] = (struct probe_patch){ off, width, 0, false };
	return add_slot(cv, name, (int)i, (int)a->nr_patches++, SL_INT, width, 0);
}

static void field_slots_of(struct conv *cv, const struct spec_expr *e)
{
	if (!e)
		return;
	if (e->op == SPEC_EX_NAME && e->ref == SPEC_REF_PARAM && strchr(e->name, '.'))
		conv_field_slot(cv, e->name);
	field_slots_of(cv, e->a);
	field_slots_of(cv, e->b);
}

/*
 * The fd the probe passes for @a: its first kind the probe has an fd of
 * (the kind, then the other kinds named with "or"); a pipe's write end
 * when the fd must be writable. Returns -1 when the probe has none.
 */
static int pick_fd(struct conv *cv, const struct spec_arg *a, uint64_t *fd)
{
	size_t i;

	for (i = 0; i <= a->nr_specials; i++) {
		const char *k = i ? a->specials[i - 1] : a->ref;

		if (i && !spec__is_fdkind(cv->s, k))
			continue;	/* a special value, not a kind */
		if (!k || !strcmp(k, "file"))
			*fd = PROBE_FD_FILE;
		else if (!strcmp(k, "dir"))
			*fd = PROBE_FD_ROOT;
		else if (!strcmp(k, "pipe"))
			*fd = a->access == SPEC_ACCESS_WRITE ? PROBE_FD_PIPE_W : PROBE_FD_PIPE_R;
		else
			continue;
		return 0;
	}
	return -1;
}

/*
 * A buffer of struct @ctype (one element of an array) whose spec gives a
 * pointer field and a "len" field for it (struct iovec: iov_base and
 * iov_len) points it at a page of the probe's data area, with a length
 * of DATA_LEN: a read or write of nothing would return before the checks.
 */
static void point_fields(struct conv *cv, const char *ctype, struct probe_arg *pa, unsigned argi)
{
	const struct spec_struct *st = kd_starts_with(ctype, "struct ") ? spec__find_struct(cv->s, ctype + 7)
				       : NULL;
	size_t f;

	for (f = 0; st && f < st->nr_fields; f++) {
		const struct spec_field *lf = &st->fields[f];
		const struct spec_field *pf = lf->has_arg && lf->arg.kind == SPEC_K_LEN
					      ? spec_struct__field(st, lf->arg.ref) : NULL;
		uint32_t poff, pw, loff, lw;

		if (!pf || !pf->has_arg || pf->arg.kind != SPEC_K_PTR || pf->out ||
		    pa->nr_patches + 2 > PROBE_MAX_PATCHES ||
		    !field_layout(cv, ctype, pf->name, &poff, &pw) || pw != 8 ||
		    !field_layout(cv, ctype, lf->name, &loff, &lw) ||
		    poff + pw > pa->value || loff + lw > pa->value)
			continue;
		pa->patches[pa->nr_patches++] = (struct probe_patch){ poff, 8, 4096ULL * argi, true };
		pa->patches[pa->nr_patches++] = (struct probe_patch){ loff, lw, DATA_LEN, false };
	}
}

static bool has_special(const struct spec_arg *a, const char *name)
{
	size_t i;

	for (i = 0; i < a->nr_specials; i++)
		if (!strcmp(a->specials[i], name))
			return true;
	return false;
}

/* First known value of enum @name. */
static uint64_t enum_first(struct conv *cv, const char *name)
{
	const struct spec_set *set = spec__find_set(cv->s, name);
	const struct spec_value **vals = NULL;
	long n = set ? spec__set_values(cv->s, set, &vals) : 0, i;
	uint64_t v = 0;

	for (i = 0; i < n; i++)
		if (conv_member_value(cv, vals[i], &v))
			break;
	free(vals);
	return i < n ? v : 0;
}

void conv_slots_clear(struct conv *cv)
{
	size_t i;

	for (i = 0; i < cv->nr_slots; i++)
		free(cv->slots[i].name);
	cv->nr_slots = 0;
}

/*
 * Parameter @i, a handle: an fd of the kind it names (AT_FDCWD when it
 * may be), or a timer id. *@slp: its slot (NULL: too many). 1: the call
 * cannot be probed (reason in cv->tmp).
 */
static int handle_base(struct conv *cv, size_t i, struct conv_slot **slp)
{
	const struct spec_param *p = &cv->call->params[i];
	const struct spec_arg *a = &p->arg;
	struct probe_arg *pa = &cv->base.args[i];

	if (a->kind == SPEC_K_FD && has_special(a, "AT_FDCWD")) {
		*slp = add_slot(cv, p->name, (int)i, -1, SL_FD, 4, (uint64_t)-100);
		return 0;
	}
	if (a->kind == SPEC_K_FD) {
		if (pick_fd(cv, a, &pa->value))
			return kd_buf_addf(&cv->tmp, "%s: no fd of kind %s", p->name, a->ref) ? -ENOMEM : 1;
		pa->kind = PROBE_ARG_FD;
		/* A symbolic number: the case replaces it only by one no fd has. */
		*slp = add_slot(cv, p->name, (int)i, -1, SL_FD, 4, 3 + pa->value);
		return 0;
	}
	if (strcmp(a->ref, "timer"))
		return kd_buf_addf(&cv->tmp, "%s: no id of kind %s", p->name, a->ref) ? -ENOMEM : 1;
	pa->kind = PROBE_ARG_FD;
	pa->value = PROBE_ID_TIMER;
	/* Timer ids count from 0: a case replaces it by one above any in use. */
	*slp = add_slot(cv, p->name, (int)i, -1, SL_FD, cv->widths[i] ? cv->widths[i] : 4, 0);
	return 0;
}

/* Parameter @i, a pointer: a mapped address, a string, a buffer. Its slot (NULL: too many). */
static struct conv_slot *pointer_base(struct conv *cv, size_t i)
{
	const struct spec_param *p = &cv->call->params[i];
	const struct spec_arg *a = &p->arg;
	struct probe_arg *pa = &cv->base.args[i];
	struct conv_slot *sl;

	switch (a->kind) {
	case SPEC_K_ADDR:
		if (!a->mapped)
			return add_slot(cv, p->name, (int)i, -1, SL_INT, cv->widths[i] ? cv->widths[i] : 8, 0);
		/* The probe's page; conditions see it at MAP_BASE. */
		pa->kind = PROBE_ARG_MAP;
		pa->value = 0;
		return add_slot(cv, p->name, (int)i, -1, SL_MAP, 8, MAP_BASE);
	case SPEC_K_PATH:
	case SPEC_K_STRING:
		pa->kind = PROBE_ARG_STR;
		pa->str = a->kind == SPEC_K_STRING ? "kabi-probe"
			: conv_in_list(lookup_calls, N(lookup_calls), cv->call->name) ? "/" : NOENT_PATH;
		return add_slot(cv, p->name, (int)i, -1, SL_PTR, 8, 1);
	default:	/* SPEC_K_PTR */
		pa->kind = PROBE_ARG_BUF;
		pa->value = a->ref && !a->array ? buf_size(cv, a->ref) : 256;
		sl = add_slot(cv, p->name, (int)i, -1, SL_PTR, 8, 1);
		if (sl && a->ref)
			point_fields(cv, a->ref, pa, (unsigned)i);
		return sl;
	}
}

/* Parameter @i, a number: the value a call does the least with. Its slot (NULL: too many). */
static struct conv_slot *scalar_base(struct conv *cv, size_t i)
{
	const struct spec_param *p = &cv->call->params[i];
	const struct spec_arg *a = &p->arg;
	/* The C type's width; without DWARF, a plain int's. */
	unsigned w = cv->widths[i] ? cv->widths[i] : 4;
	uint64_t v = 0;

	switch (a->kind) {
	case SPEC_K_ENUM:
		v = enum_first(cv, a->ref);
		break;
	case SPEC_K_INT:
		if (a->lo && spec_expr__eval(a->lo, conv_lookup, cv, &v))
			v = 0;
		if (a->nonzero && !v)
			v = 1;
		break;
	case SPEC_K_FLAGS:
		break;
	case SPEC_K_PID:
		v = PID_NONE;
		break;
	case SPEC_K_UID:
	case SPEC_K_GID:
		v = 0xffffffffu;
		break;
	default:	/* addr, len and count (lengths_base()), unused */
		w = cv->widths[i] ? cv->widths[i] : 8;
		break;
	}
	return add_slot(cv, p->name, (int)i, -1, SL_INT, w, v);
}

/* Parameter @i's base value and slot, by its kind; 1: the call cannot be probed. */
static int param_base(struct conv *cv, size_t i)
{
	const struct spec_arg *a = &cv->call->params[i].arg;
	struct probe_arg *pa = &cv->base.args[i];
	struct conv_slot *sl = NULL;
	int err = 0;

	pa->kind = PROBE_ARG_INT;
	switch (a->kind) {
	case SPEC_K_FD:
	case SPEC_K_ID:
		err = handle_base(cv, i, &sl);
		break;
	case SPEC_K_ADDR:
	case SPEC_K_PATH:
	case SPEC_K_STRING:
	case SPEC_K_PTR:
		sl = pointer_base(cv, i);
		break;
	default:
		sl = scalar_base(cv, i);
		break;
	}
	if (err)
		return err;
	if (!sl)
		return kd_buf_adds(&cv->tmp, "too many parameters") ? -ENOMEM : 1;
	pa->value = pa->kind == PROBE_ARG_INT ? conv_reg(sl, sl->base) : pa->value;
	return 0;
}

/*
 * A length is that of the buffer (or mapped range) it describes; a
 * count, of the one element an array buffer is filled for.
 */
static void lengths_base(struct conv *cv)
{
	const struct spec_call *c = cv->call;
	size_t i;

	for (i = 0; i < c->nr_params; i++) {
		const struct spec_param *p = &c->params[i];
		bool len = p->arg.kind == SPEC_K_LEN, count = p->arg.kind == SPEC_K_COUNT;
		const struct spec_param *t = (len || count) && p->arg.ref
					     ? spec_call__param(c, p->arg.ref) : NULL;
		const struct probe_arg *ta = t ? &cv->base.args[t - c->params] : NULL;
		struct conv_slot *sl = conv_find_slot(cv, p->name);

		if (!ta || !sl)
			continue;
		if (count)
			sl->base = ta->kind == PROBE_ARG_BUF ? 1 : 0;
		else
			sl->base = ta->kind == PROBE_ARG_BUF ? ta->value
				 : ta->kind == PROBE_ARG_STR ? strlen(ta->str) + 1
				 : ta->kind == PROBE_ARG_MAP ? PROBE_MAP_BYTES : 0;
		if (p->arg.nonzero && !sl->base)
			sl->base = 1;
		sl->cur = sl->base;
		cv->base.args[i].value = conv_reg(sl, sl->base);
	}
}

/*
 * An optional pointer is NULL ("none": the call does the least), unless
 * a condition names one of its fields: then it points to its buffer.
 */
static void optional_base(struct conv *cv)
{
	const struct spec_call *c = cv->call;
	size_t i, k;

	for (i = 0; i < c->nr_params; i++) {
		const struct spec_arg *a = &c->params[i].arg;
		struct conv_slot *sl = conv_find_slot(cv, c->params[i].name);
		bool fields = false;

		if (!a->optional || a->kind != SPEC_K_PTR || !sl)
			continue;
		for (k = 0; k < cv->nr_slots; k++)
			fields = fields || (cv->slots[k].arg == (int)i && cv->slots[k].patch >= 0);
		if (fields)
			continue;
		sl->base = sl->cur = 0;
		cv->base.args[i] = (struct probe_arg){ .kind = PROBE_ARG_INT, .value = 0 };
	}
}

/*
 * Fill cv->base and the slots; 1: the call cannot be probed (reason in
 * cv->tmp). Each parameter by its kind, then the lengths and counts of
 * the buffers, the fields the conditions name, the optional pointers.
 */
int conv_build_base(struct conv *cv)
{
	const struct spec_call *c = cv->call;
	size_t i, j;
	int err;

	conv_slots_clear(cv);
	memset(cv->base.args, 0, sizeof(cv->base.args));
	if (c->nr_params > PROBE_MAX_ARGS)
		return kd_buf_adds(&cv->tmp, "more than six parameters") ? -ENOMEM : 1;
	cv->base.nr_args = (int)c->nr_params;
	for (i = 0; i < c->nr_params; i++) {
		err = param_base(cv, i);
		if (err)
			return err;
	}
	lengths_base(cv);
	for (j = 0; j < c->nr_errnos; j++)
		field_slots_of(cv, c->errnos[j].when);
	for (j = 0; j < c->nr_deviations; j++)
		field_slots_of(cv, c->deviations[j].when);
	optional_base(cv);
	return 0;
}

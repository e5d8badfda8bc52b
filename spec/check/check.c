// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-diff check: hold one extracted kernel against a contract and list
 * where they disagree (spec/check/CHECK.md). Everything is read through the DB
 * API: the native syscall table (x64, arm64) and signatures, the types by id and name, the
 * UAPI constants (loaded once, sorted by name, for the flag-set families)
 * and the ioctls. "since" is honoured: what the spec dates after the
 * kernel's release may be absent without a finding.
 */
#include "spec/check/check_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/type-cache.h"
#include "db/kdb-kernel.h"
#include "db/kdb-uapi.h"
#include "lib/arch.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/find.h"
#include "lib/mem.h"
#include "lib/model.h"
#include "lib/str.h"
#include "spec/spec.h"

static const struct spec_check_rule rules[] = {
	[CHECK_R_SYSCALL_MISSING] = { "syscall-missing",
	  "a syscall of the spec that the kernel's native table (x64, arm64) lacks or leaves unimplemented" },
	[CHECK_R_SYSCALL_PARAMS_COUNT] = { "syscall-params-count",
	  "the spec's parameter count differs from the kernel's signature" },
	[CHECK_R_SYSCALL_PARAM_NAME] = { "syscall-param-name",
	  "a parameter has another name in the kernel (same position)" },
	[CHECK_R_SYSCALL_PARAM_TYPE] = { "syscall-param-type",
	  "the kind cannot be carried by the kernel's C type (a pointer kind on an integer, an integer kind on a pointer, another pointee)" },
	[CHECK_R_STRUCT_MISSING] = { "struct-missing",
	  "a struct of the spec that none of the kernel's syscalls or ioctls reaches" },
	[CHECK_R_STRUCT_SIZE] = { "struct-size",
	  "the struct's size in DWARF is not one the spec lists, or is below a size or minsize it states" },
	[CHECK_R_STRUCT_SIZE_CONSTANT] = { "struct-size-constant",
	  "a named size (OPEN_HOW_SIZE_VER0) undefined in the UAPI headers or of another value" },
	[CHECK_R_STRUCT_FIELD_MISSING] = { "struct-field-missing",
	  "a member the spec annotates is not in the kernel's layout" },
	[CHECK_R_STRUCT_FIELD_TYPE] = { "struct-field-type",
	  "an annotated member's kind cannot be carried by its C type" },
	[CHECK_R_STRUCT_FIELD_UNLISTED] = { "struct-field-unlisted",
	  "a member of the kernel's layout of a struct the spec describes member by member, which the spec does not mention" },
	[CHECK_R_STRUCT_FIELD_GATE] = { "struct-field-gate",
	  "a constant that gates a member (when) and that the UAPI headers do not define" },
	[CHECK_R_FLAG_UNDEFINED] = { "flag-undefined",
	  "a set value named after a UAPI constant that the headers do not define" },
	[CHECK_R_FLAG_UNLISTED] = { "flag-unlisted",
	  "the headers define a constant of the set's family with a value the set lacks" },
	[CHECK_R_IOCTL_MISSING] = { "ioctl-missing",
	  "an ioctl of the spec that the UAPI headers do not define" },
	[CHECK_R_IOCTL_DIR] = { "ioctl-dir",
	  "the spec's direction differs from the _IOC_DIR of the command number" },
	[CHECK_R_IOCTL_ARG_TYPE] = { "ioctl-arg-type",
	  "the spec's argument type differs from the command's" },
	[CHECK_R_IOCTL_ARG_UNKNOWN] = { "ioctl-arg-unknown",
	  "the spec's argument type (a struct, union, enum or typedef) is in no header view and no DWARF of the kernel" },
	[CHECK_R_VDSO_IMAGE_MISSING] = { "vdso-image-missing",
	  "a vDSO the spec describes (vdso ABI) that the kernel does not embed, though it runs that ABI's processes" },
	[CHECK_R_VDSO_VERSION_MISSING] = { "vdso-version-missing",
	  "a version node the spec lists that the kernel's image of that ABI does not define" },
	[CHECK_R_VDSO_ENTRY_MISSING] = { "vdso-entry-missing",
	  "an entry point the spec lists that the kernel's image does not export at that version node" },
	[CHECK_R_IOCTL_COMPAT_BROKEN] = { "ioctl-compat-broken",
	  "an ioctl whose i386 command number differs from the native one, served by a binary whose one file_operations has compat_ioctl = compat_ptr_ioctl" },
	[CHECK_R_SYSCALL_UNSPECIFIED] = { "syscall-unspecified",
	  "a syscall of the kernel's native table (x64, arm64) with no spec entry" },
};

_Static_assert(sizeof(rules) / sizeof(rules[0]) == CHECK__NR_RULES, "a rule without a row");

const struct spec_check_rule *spec_check_rules(size_t *n)
{
	*n = sizeof(rules) / sizeof(rules[0]);
	return rules;
}

/* --- findings ------------------------------------------------------------ */

static size_t file_index(const struct ck *c, const char *path, const char **name)
{
	size_t i;

	for (i = 0; path && i < spec__nr_files(c->s); i++)
		if (!strcmp(spec__file(c->s, i)->path, path)) {
			*name = spec__file(c->s, i)->name;
			return i;
		}
	*name = NULL;
	return SIZE_MAX;
}

int finding(struct ck *c, enum spec_check_rule_id rule, const struct spec_loc *loc,
	    const char *subject, const char *fmt, ...)
{
	struct spec_check *r = c->r;
	struct item *it;
	va_list ap;
	int err;

	err = KD_GROW(r->items, r->cap, r->nr + 1);
	if (err)
		return err;
	it = &r->items[r->nr];
	memset(it, 0, sizeof(*it));
	it->f.rule = rules[rule].id;
	it->file_idx = file_index(c, loc ? loc->file : NULL, &it->f.file);
	it->f.line = loc ? loc->line : 0;
	it->seq = r->nr;
	kd_buf_reset(&c->msg);
	va_start(ap, fmt);
	err = kd_buf_vaddf(&c->msg, fmt, ap);
	va_end(ap);
	if (err)
		return err;
	it->f.subject = kd_strdup(subject);
	it->f.message = kd_strdup(c->msg.s);
	if (!it->f.subject || !it->f.message) {
		free(it->f.subject);
		free(it->f.message);
		return -ENOMEM;
	}
	r->nr++;
	return 0;
}

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->file_idx != y->file_idx)
		return x->file_idx < y->file_idx ? -1 : 1;
	if (x->f.line != y->f.line)
		return x->f.line < y->f.line ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* --- versions ------------------------------------------------------------ */

static void parse_version(const char *v, unsigned out[3])
{
	int i;

	for (i = 0; i < 3; i++)
		out[i] = 0;
	for (i = 0; i < 3 && v && *v >= '0' && *v <= '9'; i++) {
		out[i] = (unsigned)strtoul(v, (char **)&v, 10);
		if (*v != '.')
			break;
		v++;
	}
}

/* Is @since later than the kernel's release (so absence is expected)? */
bool after_kernel(const struct ck *c, const char *since)
{
	unsigned v[3];
	int i;

	if (!since || !c->has_rel)
		return false;
	parse_version(since, v);
	for (i = 0; i < 3; i++)
		if (v[i] != c->rel[i])
			return v[i] > c->rel[i];
	return false;
}

/* --- kernel data ----------------------------------------------------------- */

static int on_const(const struct kd_constant *k, void *ctx)
{
	struct ck *c = ctx;
	struct kconst *e;
	int err;

	err = KD_GROW(c->consts, c->cap_consts, c->nr_consts + 1);
	if (err)
		return err;
	e = &c->consts[c->nr_consts];
	e->name = kd_strdup(k->name);
	e->file = kd_strdup(k->file ? k->file : "");
	e->value = (uint64_t)k->value;
	e->is_signed_neg = k->value < 0 && !kd_starts_with(k->ctype, "unsigned");
	if (!e->name || !e->file) {
		free(e->name);
		free(e->file);
		return -ENOMEM;
	}
	c->nr_consts++;
	return 0;
}

static int cmp_const_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct kconst *)elem)->name);
}

const struct kconst *find_const(const struct ck *c, const char *name)
{
	if (!c->nr_consts)
		return NULL;
	return bsearch(name, c->consts, c->nr_consts, sizeof(*c->consts), cmp_const_name);
}

int lookup_const(const char *name, uint64_t *value, void *ctx)
{
	const struct kconst *k = find_const(ctx, name);

	if (!k)
		return -ENOENT;
	*value = k->value;
	return 0;
}

static int on_syscall(const struct kd_syscall *sc, void *ctx)
{
	struct ck *c = ctx;
	size_t i;
	int err;

	if (!sc->name)
		return 0;
	for (i = 0; i < c->nr_sys; i++)
		if (!strcmp(c->sys[i].name, sc->name)) {
			c->sys[i].implemented |= sc->implemented;
			if (!c->sys[i].func_id)
				c->sys[i].func_id = sc->func_id;
			return 0;
		}
	err = KD_GROW(c->sys, c->cap_sys, c->nr_sys + 1);
	if (err)
		return err;
	c->sys[c->nr_sys].name = kd_strdup(sc->name);
	if (!c->sys[c->nr_sys].name)
		return -ENOMEM;
	c->sys[c->nr_sys].func_id = sc->func_id;
	c->sys[c->nr_sys].implemented = sc->implemented;
	c->nr_sys++;
	return 0;
}

static const struct ksys *find_sys(const struct ck *c, const char *name)
{
	return KD_FIND_NAMED(const struct ksys, c->sys, c->nr_sys, name, name);
}

/* --- syscalls -------------------------------------------------------------- */

static int check_syscall(struct ck *c, const struct spec_call *sc)
{
	struct kd_buf why = KD_BUF_INIT, kt = KD_BUF_INIT;
	struct kd_function *f = NULL;
	const struct ksys *k = find_sys(c, sc->name);
	size_t i, n;
	bool bad;
	int err = 0;

	if (!k || !k->implemented) {
		if (!after_kernel(c, sc->since))
			err = finding(c, CHECK_R_SYSCALL_MISSING, &sc->loc, sc->name, "%s %s syscall table",
				      k ? "not implemented in the kernel's" : "not in the kernel's", c->abi);
		return err;
	}
	if (!k->func_id)
		return 0;	/* no signature known: nothing to compare */
	err = kdb__get_function_by_id(c->db, k->func_id, &f);
	if (err)
		return err == -ENOENT ? 0 : err;
	if (f->nr_params != sc->nr_params) {
		err = finding(c, CHECK_R_SYSCALL_PARAMS_COUNT, &sc->loc, sc->name,
			      "the spec has %zu parameters, the kernel %zu", sc->nr_params, f->nr_params);
		goto out;
	}
	n = sc->nr_params;
	for (i = 0; i < n && !err; i++) {
		const struct spec_param *p = &sc->params[i];
		const struct kd_param *kp = &f->params[i];

		kd_buf_reset(&c->subj);
		err = kd_buf_addf(&c->subj, "%s(%s)", sc->name, p->name);
		if (err)
			break;
		if (kp->name && strcmp(kp->name, p->name)) {
			err = finding(c, CHECK_R_SYSCALL_PARAM_NAME, &p->loc, c->subj.s,
				      "parameter %zu is '%s' in the kernel", i + 1, kp->name);
			if (err)
				break;
		}
		err = kind_vs_type(c, &p->arg, kp->type_id, kp->type_text, false, &why, &bad);
		if (!err && bad)
			err = kind_text(&p->arg, &kt);
		if (!err && bad)
			err = finding(c, CHECK_R_SYSCALL_PARAM_TYPE, &p->loc, c->subj.s,
				      "spec: %s; kernel: %s (%s)", kt.s, kp->type_text, why.s);
	}
out:
	kd_function__free(f);
	kd_buf_release(&why);
	kd_buf_release(&kt);
	return err;
}

/* --- ioctls ------------------------------------------------------------------ */

struct ioctl_row {
	bool found;
	char dir[5];
	char *arg;
	int64_t size;
	bool has_size;
};

static int on_ioctl(const struct kd_ioctl *io, void *ctx)
{
	struct ioctl_row *row = ctx;

	row->found = true;
	snprintf(row->dir, sizeof(row->dir), "%s", io->dir);
	row->arg = io->arg_type_text ? kd_strdup(io->arg_type_text) : NULL;
	row->has_size = io->has_size;
	row->size = io->size;
	return io->arg_type_text && !row->arg ? -ENOMEM : 0;
}

static const char *ioc_dir(enum spec_dir d)
{
	static const char *const dirs[] = { "none", "w", "r", "rw" };

	return dirs[d];
}

/*
 * Does the kernel's DB have the type @text names ("struct loop_config",
 * "__kernel_fd_set")? Plain C types (int, __u32, pointers, arrays) are
 * never looked up: 1 for them.
 */
static int arg_type_known(struct ck *c, const char *text)
{
	static const char *const tags[] = { "struct", "union", "enum" };
	const char *kind = "typedef", *name = text;
	int64_t *ids = NULL;
	size_t i;
	int n;

	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		size_t len = strlen(tags[i]);

		if (!strncmp(text, tags[i], len) && text[len] == ' ') {
			kind = tags[i];
			name = text + len + 1;
		}
	}
	if (strpbrk(name, "*[ ") || (name == text && scalar_size(text)))
		return 1;
	n = kdb__find_types(c->db, kind, name, &ids);
	free(ids);
	return n < 0 ? n : n > 0;
}

static int check_ioctl(struct ck *c, const struct spec_call *sc)
{
	struct ioctl_row row = { 0 };
	const char *want = ioc_dir(sc->dir);
	int err;

	err = kdb__get_ioctl(c->db, sc->name, on_ioctl, &row);
	if (err == -ENOENT || (!err && !row.found)) {
		/* A plain number (TCGETS 0x5401) encodes no direction: nothing to compare. */
		err = after_kernel(c, sc->since) || find_const(c, sc->name) ? 0 :
		      finding(c, CHECK_R_IOCTL_MISSING, &sc->loc, sc->name,
			      "not among the ioctls the UAPI headers define");
		goto out;
	}
	if (err)
		goto out;
	if (strcmp(row.dir, want))
		err = finding(c, CHECK_R_IOCTL_DIR, &sc->loc, sc->name,
			      "the spec's direction is %s (_IOC_DIR %s); the command's is %s",
			      spec_dir_name(sc->dir), want, row.dir);
	if (!err && sc->arg_type && row.arg && strcmp(sc->arg_type, row.arg)) {
		int64_t rs = scalar_size(sc->arg_type);
		size_t n = strlen(sc->arg_type);
		bool array = sc->nr_params > 1 && sc->params[1].arg.array;

		/* "ptr out char[]" is the command's char[256] */
		if (array && !strncmp(row.arg, sc->arg_type, n) && row.arg[n] == '[')
			goto out;
		if (!(rs && row.has_size && rs == row.size && scalar_size(row.arg)))
			err = finding(c, CHECK_R_IOCTL_ARG_TYPE, &sc->loc, sc->name,
				      "the spec's argument is %s; the command's is %s",
				      sc->arg_type, row.arg);
	}
	if (!err && sc->arg_type) {
		int known = arg_type_known(c, sc->arg_type);

		if (known < 0)
			err = known;
		else if (!known)
			err = finding(c, CHECK_R_IOCTL_ARG_UNKNOWN, &sc->loc, sc->name,
				      "the spec's argument type %s is in no compiled header and no DWARF"
				      " of this kernel: its layout cannot be checked or compared",
				      sc->arg_type);
	}
out:
	free(row.arg);
	return err;
}

/* --- the run --------------------------------------------------------------- */

static int check_all(struct ck *c)
{
	size_t i;
	int err = 0;

	for (i = 0; i < spec__nr_calls(c->s) && !err; i++) {
		const struct spec_call *sc = spec__call(c->s, i);

		if (sc->kind == SPEC_SYSCALL)
			err = check_syscall(c, sc);
		else if (c->r->has_uapi)
			err = check_ioctl(c, sc);
	}
	for (i = 0; i < spec__nr_structs(c->s) && !err; i++)
		err = check_struct(c, spec__struct(c->s, i));
	for (i = 0; i < spec__nr_sets(c->s) && !err && c->r->has_uapi; i++)
		err = check_set(c, spec__set(c->s, i));
	if (!err)
		err = check_vdso(c);
	if (!err && c->r->has_uapi)
		err = check_compat32(c);
	for (i = 0; i < c->nr_sys && !err; i++) {
		if (!c->sys[i].implemented)
			continue;
		c->r->total++;
		if (spec__find_syscall(c->s, c->sys[i].name)) {
			c->r->specified++;
			continue;
		}
		err = finding(c, CHECK_R_SYSCALL_UNSPECIFIED, NULL, c->sys[i].name, "no spec entry");
	}
	return err;
}

int spec__check(const struct spec *s, struct kdb *db, struct spec_check **out)
{
	struct ck c = { .s = s, .db = db, .subj = KD_BUF_INIT, .msg = KD_BUF_INIT,
			.tmp = KD_BUF_INIT };
	size_t i;
	int err;

	*out = NULL;
	c.r = kd_calloc(1, sizeof(*c.r));
	if (!c.r)
		return -ENOMEM;
	err = type_cache__new(db, &c.types);
	if (!err)
		err = kdb__get_meta(db, "release", &c.r->release);
	if (!err && c.r->release) {
		parse_version(c.r->release, c.rel);
		c.has_rel = c.rel[0] > 0;
	}
	if (!err)
		err = kdb__foreach_constant(db, on_const, &c);
	c.r->has_uapi = c.nr_consts > 0;
	/* The kernel's own table: an arm64 kernel has no x64 rows. */
	c.abi = kdb__arch(db)->native_abi;
	if (!err)
		err = kdb__foreach_syscall(db, c.abi, on_syscall, &c);
	if (!err)
		err = collect_names(&c);
	if (!err)
		err = check_all(&c);
	if (!err && c.r->nr > 1)
		qsort(c.r->items, c.r->nr, sizeof(*c.r->items), cmp_item);
	for (i = 0; i < c.nr_consts; i++) {
		free(c.consts[i].name);
		free(c.consts[i].file);
	}
	free(c.consts);
	for (i = 0; i < c.nr_sys; i++)
		free(c.sys[i].name);
	free(c.sys);
	for (i = 0; i < c.nr_fams; i++)
		free(c.fams[i].prefix);
	free(c.fams);
	free(c.named);
	type_cache__free(c.types);
	kd_buf_release(&c.subj);
	kd_buf_release(&c.msg);
	kd_buf_release(&c.tmp);
	if (err) {
		if (err != -KD_ESYNTAX)	/* a spec error is reported where it is found */
			kd_err("check: %s", kd_strerror(err));
		spec_check__free(c.r);
		return err;
	}
	*out = c.r;
	return 0;
}

void spec_check__free(struct spec_check *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr; i++) {
		free(r->items[i].f.subject);
		free(r->items[i].f.message);
	}
	free(r->items);
	free(r->release);
	free(r);
}

size_t spec_check__nr_findings(const struct spec_check *r)
{
	return r->nr;
}

const struct spec_finding *spec_check__finding(const struct spec_check *r, size_t i)
{
	return i < r->nr ? &r->items[i].f : NULL;
}

void spec_check__coverage(const struct spec_check *r, size_t *specified, size_t *total)
{
	*specified = r->specified;
	*total = r->total;
}

bool spec_check__has_uapi(const struct spec_check *r)
{
	return r->has_uapi;
}

bool spec_check__has_vdso(const struct spec_check *r)
{
	return r->has_vdso;
}

bool spec_check__vdso_unchecked(const struct spec_check *r)
{
	return r->vdso_unchecked;
}

const char *spec_check__release(const struct spec_check *r)
{
	return r->release ? r->release : "?";
}

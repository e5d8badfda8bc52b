// SPDX-License-Identifier: GPL-2.0-only
/*
 * Whether a probe case asks both kernels the same question. A case passes
 * the same arguments to each (db/kdb-probe.c pairs them by their text),
 * but the bytes of a struct it passes through a pointer mean what each
 * kernel's layout says: when the struct's size changed (open_how growing
 * from 24 to 32 bytes), bytes past the smaller size are the tail one
 * kernel does not know (refused when non-zero: E2BIG) and members of the
 * other (judged by their own checks: EINVAL). The case's outcome then
 * changes with the struct, which the layout diff judges, not with the
 * call. The bytes a case passes are its buffer's, bounded by the value of
 * the parameter the contract calls the buffer's `len`.
 */
#include "diff/diff_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "db/kdb-probe.h"
#include "lib/str.h"

/*
 * Argument @i of a case's readable list (probe_case__format_args(): ", "
 * between arguments, a string in quotes, maybe followed by "(LENGTH)"):
 * *start and *len, or false when there is no such argument. A string is
 * taken to end at a quote followed by ',', '(' or the end.
 */
static bool arg_at(const char *args, size_t i, const char **start, size_t *len)
{
	const char *p = args, *q;

	for (;;) {
		q = p;
		if (*q == '"') {
			for (q++; *q && !(*q == '"' && (q[1] == ',' || q[1] == '(' || !q[1])); q++)
				;
			if (*q)
				q++;
		}
		q = strstr(q, ", ");
		if (!i) {
			*start = p;
			*len = q ? (size_t)(q - p) : strlen(p);
			return *len > 0;
		}
		if (!q)
			return false;
		p = q + 2;
		i--;
	}
}

/* The bytes of a "buf[N]..." argument: N, or -1 when it is no buffer. */
static int64_t buffer_bytes(const char *a, size_t len)
{
	char *end;
	unsigned long long n;

	if (len < 6 || !kd_starts_with(a, "buf["))
		return -1;
	n = strtoull(a + 4, &end, 10);
	return end > a + 4 && *end == ']' && n <= INT64_MAX ? (int64_t)n : -1;
}

/* An integer argument ("-100", "24", "0x1000") as the kernel's size_t sees it; false: none. */
static bool int_arg(const char *a, size_t len, uint64_t *v)
{
	char buf[32], *end, *digits;

	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, a, len);
	buf[len] = 0;
	/* probe_case__format_args(): decimal, negative decimal, or 0x hex. */
	digits = buf + (buf[0] == '-' || kd_starts_with(buf, "0x") ? 1 + (buf[0] != '-') : 0);
	*v = buf[0] == '-' ? (uint64_t)strtoll(buf, &end, 10) :
	     digits > buf ? strtoull(digits, &end, 16) : strtoull(buf, &end, 10);
	return end > digits && !*end;
}

struct sig_find {
	const char *abi;
	int64_t func;
};

static int first_func(const struct kd_syscall *sc, void *ctx)
{
	struct sig_find *f = ctx;

	if (sc->func_id > 0 && (!f->abi || !strcmp(sc->abi, f->abi))) {
		f->func = sc->func_id;
		return 1;
	}
	return 0;
}

/* Syscall @call's signature in @db (its native table's, when @abi), or NULL. */
static int signature(struct kdb *db, const char *abi, const char *call, struct kd_function **out)
{
	struct sig_find f = { abi, 0 };
	int err = kdb__foreach_syscall_named(db, call, first_func, &f);

	*out = NULL;
	if (err < 0)
		return err;
	if (!f.func)
		return 0;
	err = kdb__get_function_by_id(db, f.func, out);
	return err == -ENOENT ? 0 : err;
}

/* The named struct or union a parameter of type @id points to, or NULL. */
static const struct kd_type *pointee(const struct tgraph *g, int64_t id)
{
	const struct kd_type *t = tgraph_strip(g, id);

	if (!t || t->kind != KD_KIND_POINTER)
		return NULL;
	t = tgraph_strip(g, t->ref);
	return t && (t->kind == KD_KIND_STRUCT || t->kind == KD_KIND_UNION) && t->name &&
	       t->size > 0 ? t : NULL;
}

/*
 * Does case @p pass, as parameter @i of @f, more bytes of the struct
 * whose old and new layouts are @t than the smaller of their sizes?
 * *@crosses: the answer, @why its evidence.
 */
static int param_crosses(const struct diff_run *run, const struct kdb_probe_pair *p,
			 const struct kd_function *f, size_t i, const struct kd_type *t[2],
			 struct kd_buf *why, bool *crosses)
{
	const struct diff_contract *c = run->e.conf->contract;
	const char *a, *len_name = NULL, *l;
	size_t alen, llen, j;
	int64_t bytes, small = t[0]->size < t[1]->size ? t[0]->size : t[1]->size;
	uint64_t v;

	*crosses = false;
	if (!arg_at(p->args, i, &a, &alen) || (bytes = buffer_bytes(a, alen)) < 0)
		return 0;
	/* The length the caller says: the kernel copies no more than it. */
	if (c && c->length_of && f->params[i].name &&
	    c->length_of(c->ctx, p->call, f->params[i].name, &len_name, NULL))
		for (j = 0; j < f->nr_params; j++)
			if (f->params[j].name && !strcmp(f->params[j].name, len_name) &&
			    arg_at(p->args, j, &l, &llen) && int_arg(l, llen, &v) && v < (uint64_t)bytes)
				bytes = (int64_t)v;
	if (bytes <= small)
		return 0;
	*crosses = true;
	kd_buf_reset(why);
	return kd_buf_addf(why, "%s %s is %" PRId64 " bytes in the old kernel and %" PRId64
			   " in the new; the case passes %" PRId64 " bytes of it (%s = %.*s%s%s): past"
			   " %" PRId64 ", one kernel reads members where the other reads the tail it"
			   " does not know", kd_kind_name(t[0]->kind), t[0]->name, t[0]->size,
			   t[1]->size, bytes, f->params[i].name ? f->params[i].name : "?", (int)alen, a,
			   len_name ? ", length " : "", len_name ? len_name : "", small);
}

int diff_probe_size_changed(const struct diff_run *run, const struct kdb_probe_pair *p,
			    struct kd_buf *why, bool *changed)
{
	struct kd_function *f[2] = { NULL, NULL };
	size_t i;
	int err = 0;

	*changed = false;
	if (!p->call || !p->args)
		return 0;
	for (i = 0; !err && i < 2; i++)
		err = signature(run->db[i], run->nr.abi, p->call, &f[i]);
	for (i = 0; !err && f[0] && f[1] && !*changed && i < f[0]->nr_params && i < f[1]->nr_params;
	     i++) {
		const struct kd_type *t[2] = { pointee(&run->e.g[0], f[0]->params[i].type_id),
					       pointee(&run->e.g[1], f[1]->params[i].type_id) };

		if (t[0] && t[1] && !strcmp(t[0]->name, t[1]->name) && t[0]->size != t[1]->size)
			err = param_crosses(run, p, f[0], i, t, why, changed);
	}
	kd_function__free(f[0]);
	kd_function__free(f[1]);
	return err;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The starter contract in spec/: the whole directory loads with zero
 * errors, and it keeps the coverage the contract issue promised: at least
 * 60 syscalls fully annotated (a kind on every parameter, a return kind,
 * and at least one errno whose condition is machine-readable), at least 40
 * ioctls with their fd kind, and every size-versioned syscall present and
 * fully annotated, with its struct annotated (extensible with known sizes,
 * or reserved/out-only fields where the struct is not size-versioned).
 * Counts are printed as TAP comments so that a regression shows its size.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/buf.h"
#include "spec/spec.h"
#include "tests/tap.h"

/* A parameter says something beyond its C type. */
static bool param_annotated(const struct spec_param *p)
{
	const struct spec_arg *a = &p->arg;

	switch (a->kind) {
	case SPEC_K_PTR:
		return a->dir != SPEC_DIR_NONE && a->ref && *a->ref;
	case SPEC_K_LEN:
	case SPEC_K_COUNT:
	case SPEC_K_FLAGS:
	case SPEC_K_ENUM:
		return a->ref != NULL;
	default:
		return (unsigned)a->kind < SPEC_K__COUNT;
	}
}

static size_t nr_when(const struct spec_call *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->nr_errnos; i++)
		n += c->errnos[i].when != NULL;
	return n;
}

static bool fully_annotated(const struct spec_call *c)
{
	size_t i;

	if (!nr_when(c))
		return false;
	for (i = 0; i < c->nr_params; i++)
		if (!param_annotated(&c->params[i]))
			return false;
	return true;
}

static bool has_reserved_or_out(const struct spec_struct *st)
{
	size_t i;

	for (i = 0; i < st->nr_fields; i++)
		if (st->fields[i].reserved || st->fields[i].out)
			return true;
	return false;
}

/* A size-versioned syscall and the struct that carries its versions. */
static const struct {
	const char *call, *st;
	bool extensible;	/* size-versioned through the size argument */
	size_t min_sizes;	/* known sizes the spec must list */
} versioned[] = {
	{ "openat2", "open_how", true, 1 },
	{ "clone3", "clone_args", true, 3 },
	{ "sched_setattr", "sched_attr", true, 2 },
	{ "sched_getattr", "sched_attr", true, 2 },
	{ "perf_event_open", "perf_event_attr", true, 9 },
	{ "bpf", "bpf_attr", true, 0 },
	{ "mount_setattr", "mount_attr", true, 1 },
	{ "statx", "statx", false, 0 },
	{ "io_uring_setup", "io_uring_params", false, 0 },
	{ "landlock_create_ruleset", "landlock_ruleset_attr", true, 1 },
	{ "futex_waitv", "futex_waitv", false, 0 },
};

static void test_versioned(const struct spec *s)
{
	size_t i;

	for (i = 0; i < sizeof(versioned) / sizeof(versioned[0]); i++) {
		const struct spec_call *c = spec__find_syscall(s, versioned[i].call);
		const struct spec_struct *st = spec__find_struct(s, versioned[i].st);

		ok(c && fully_annotated(c), "%s is present and fully annotated", versioned[i].call);
		ok(st != NULL, "struct %s is annotated", versioned[i].st);
		if (!st)
			continue;
		if (versioned[i].extensible)
			ok(st->extensible && st->nr_sizes >= versioned[i].min_sizes,
			   "%s is extensible with at least %zu known sizes (has %zu)",
			   versioned[i].st, versioned[i].min_sizes, st->nr_sizes);
		else
			ok(has_reserved_or_out(st), "%s marks its reserved or out-only fields",
			   versioned[i].st);
	}
}

/*
 * The prefix structs (prefix.kabispec): copied no further than the caller's
 * length, read in the sources; output-only where the kernel only writes.
 * bnxt_re_srq_resp is copied whole whatever the caller's length: never one.
 */
static void test_prefix(const struct spec *s)
{
	static const struct { const char *st; bool out; } prefix[] = {
		{ "tcp_info", true }, { "mptcp_info", true }, { "bpf_link_info", false },
		{ "bpf_map_info", true }, { "drm_amdgpu_info_device", true },
		{ "vfio_device_info", false }, { "ublk_params", false },
		{ "bnxt_re_cq_resp", true }, { "bnxt_re_qp_req", false },
		{ "bpf_sock_ops", false }, { "virtio_blk_config", false },
	};
	const struct spec_struct *st;
	size_t i;

	for (i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++) {
		st = spec__find_struct(s, prefix[i].st);
		ok(st && st->prefix && !st->extensible && st->out == prefix[i].out,
		   "%s is prefix%s", prefix[i].st, prefix[i].out ? " out" : "");
	}
	st = spec__find_struct(s, "bnxt_re_srq_resp");
	ok(st && !st->prefix && st->whole,
	   "bnxt_re_srq_resp is whole, not prefix (bnxt_re_create_srq copies sizeof(resp))");
}

/* Field @member of struct @st, or NULL. */
static const struct spec_field *field_of(const struct spec *s, const char *st, const char *member)
{
	const struct spec_struct *t = spec__find_struct(s, st);

	return t ? spec_struct__field(t, member) : NULL;
}

static bool version_is(const char *v, const char *want)
{
	return v && want ? !strcmp(v, want) : v == want;
}

/*
 * Padding-named members whose reuse the naming convention alone would
 * call potentially breaking (diff/RULES.md, "Reserved space"), and what
 * the sources say of them: the old kernel refused them non-zero or wrote
 * them zero (reserved), or the new member is read only behind a flag the
 * old headers lack (when). snd_pcm_info.sync: 6.1's snd_pcm_info()
 * clears the record and never writes it; 6.11 renamed it pad1.
 */
static void test_padding_facts(const struct spec *s)
{
	static const struct {
		const char *st, *member;
		bool reserved, unused;
		const char *gate, *since, *until;
	} facts[] = {
		{ "snd_pcm_info", "sync", true, false, NULL, NULL, "6.11" },
		{ "snd_pcm_info", "pad1", true, false, NULL, "6.11", NULL },
		{ "snd_pcm_info", "reserved", true, false, NULL, NULL, NULL },
		{ "io_uring_getevents_arg", "pad", true, false, NULL, NULL, "6.12" },
		{ "io_uring_sync_cancel_reg", "pad", true, false, NULL, NULL, NULL },
		{ "io_uring_sync_cancel_reg", "opcode", false, false, "IORING_ASYNC_CANCEL_OP", "6.6",
		  NULL },
		{ "fuse_open_out", "padding", false, true, NULL, NULL, "6.9" },
		{ "fuse_open_out", "backing_id", false, false, "FOPEN_PASSTHROUGH", "6.9", NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		const struct spec_field *f = field_of(s, facts[i].st, facts[i].member);

		ok(f && f->reserved == facts[i].reserved && f->unused == facts[i].unused &&
		   (facts[i].gate ? f->nr_gates == 1 && !strcmp(f->gates[0], facts[i].gate) :
		    !f->nr_gates) && version_is(f->since, facts[i].since) &&
		   version_is(f->until, facts[i].until),
		   "%s.%s: %s%s%s", facts[i].st, facts[i].member,
		   facts[i].reserved ? "reserved" : facts[i].unused ? "unused" : "when ",
		   facts[i].gate ? facts[i].gate : "",
		   facts[i].until ? " until its rename" : facts[i].since ? " since it came" : "");
	}
}

int main(void)
{
	struct kd_buf dir = KD_BUF_INIT;
	struct spec *s = NULL;
	size_t i, nr_sys = 0, nr_full = 0, nr_ioctl = 0, nr_ioctl_kind = 0, nr_errnos = 0;
	size_t nr_when_total = 0;
	int err;

	kd_buf_addf(&dir, "%s/../spec/contract", tap_srcdir());
	err = spec__load_dir(dir.s, &s);
	is_int(err, 0, "spec/contract/ loads");
	ok(s != NULL, "a spec came back");
	if (s)
		is_int(spec__nr_errors(s), 0, "with zero errors");
	if (!s)
		goto out;

	for (i = 0; i < spec__nr_calls(s); i++) {
		const struct spec_call *c = spec__call(s, i);

		if (c->kind == SPEC_IOCTL) {
			nr_ioctl++;
			nr_ioctl_kind += c->fd_kind != NULL;
			continue;
		}
		nr_sys++;
		nr_errnos += c->nr_errnos;
		nr_when_total += nr_when(c);
		nr_full += fully_annotated(c);
	}
	printf("# %zu syscalls, %zu fully annotated; %zu errnos, %zu with a condition;"
	       " %zu ioctls; %zu sets; %zu structs\n", nr_sys, nr_full, nr_errnos, nr_when_total,
	       nr_ioctl, spec__nr_sets(s), spec__nr_structs(s));
	ok(nr_full >= 60, "at least 60 syscalls fully annotated (%zu)", nr_full);
	ok(nr_ioctl >= 40, "at least 40 ioctls (%zu)", nr_ioctl);
	is_int(nr_ioctl_kind, nr_ioctl, "every ioctl names its fd kind");
	/* 6.12 implements 358 x86_64 syscalls; 6.1 had lookup_dcookie too. */
	ok(nr_sys >= 359, "an entry, at least a skeleton, for every x86_64 syscall (%zu)", nr_sys);
	test_versioned(s);
	test_padding_facts(s);
	test_prefix(s);
out:
	spec__free(s);
	kd_buf_release(&dir);
	return tap_done();
}

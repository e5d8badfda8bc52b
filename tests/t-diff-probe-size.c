// SPDX-License-Identifier: GPL-2.0-only
/*
 * diff/diff-probe-size.c: a probe case that passes a struct through a
 * pointer with more bytes than the smaller of its two sizes asks the two
 * kernels different questions when the struct's size changed (openat2's
 * "usize 32, a non-zero byte at 24": the old kernel's unknown tail, E2BIG,
 * the new kernel's member, EINVAL). Such a case is probe-size-changed
 * (info), with the sizes as evidence, whichever way the struct went; one
 * that stays within the smaller size (its buffer, or the length the
 * contract's `len` parameter gives) is compared as before, as is every
 * case of a struct whose size did not change.
 */
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-probe.h"
#include "diff/diff.h"
#include "tests/tap.h"
#include "tests/diff-fixture.h"

struct row {
	const char *id, *kind, *args, *old_err, *new_err;	/* NULL: the call succeeded */
};

static const struct row rows[] = {
	{ "openat2.size32-tail", "errno", "-100, \"/\", buf[32]{24:8=0x1}, 32", "E2BIG", "EINVAL" },
	/* A path with ", " in it: the arguments are still found. */
	{ "openat2.comma", "errno", "-100, \"/a, b\", buf[32]{24:8=0x1}, 32", "E2BIG", "EINVAL" },
	/* A length of more than 31 characters (a hostile .kabi) is not read: the buffer counts. */
	{ "openat2.long-len", "errno", "-100, \"/\", buf[32]{24:8=0x1}, 00000000000000000000000000000000024",
	  "E2BIG", "EINVAL" },
	/* usize 24: the byte at 24 is not passed, whatever the buffer holds. */
	{ "openat2.size24-tail", "errno", "-100, \"/\", buf[32]{24:8=0x1}, 24", NULL, "EINVAL" },
	{ "openat2.flags.O_NEW", "flag", "-100, \"/\", buf[24]{0:8=0x1}, 24", "EINVAL", NULL },
	{ "openat2.flags.bit40", "unknown-flag", "-100, \"/\", buf[32]{0:8=0x10000000000}, 32",
	  "EINVAL", NULL },
};

/* A kernel whose struct open_how is @how_size bytes (24 or 32), probed with rows' outcomes. */
static int build(const char *path, int64_t how_size, bool is_new)
{
	struct kb *k = calloc(1, sizeof(*k));
	size_t i;
	int err;

	if (!k)
		return -ENOMEM;
	k->is_new = is_new;
	err = kdb__create(path, &k->db);
	if (!err)
		err = kdb__set_meta(k->db, "release", is_new ? "2.0" : "1.0");
	if (!err) {
		int64_t u64 = base(k, "long long unsigned int", 8), i32 = base(k, "int", 4);
		int64_t chr = base(k, "char", 1), sz = base(k, "long unsigned int", 8);
		int64_t l64 = base(k, "long int", 8);
		struct kd_member m[] = {
			{ .name = "flags", .type = u64, .offset = 0 },
			{ .name = "mode", .type = u64, .offset = 8 },
			{ .name = "resolve", .type = u64, .offset = 16 },
			{ .name = "ext", .type = u64, .offset = 24 },
		};
		int64_t how = agg(k, KD_KIND_STRUCT, "open_how", how_size, 8, m, how_size / 8);

		sys(k, 437, "openat2", l64, 4, "dfd", i32, "filename", ptr(k, chr), "how", ptr(k, how),
		    "usize", sz);
		err = k->err;
	}
	if (!err)
		err = kdb__clear_probe(k->db);
	for (i = 0; !err && i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *e = is_new ? rows[i].new_err : rows[i].old_err;
		struct kdb_probe_row r = {
			.id = rows[i].id, .call = "openat2", .nr = 437, .kind = rows[i].kind,
			.args = rows[i].args, .what = "", .origin = "test:1",
			/* A flag bit's case expects it not refused with EINVAL. */
			.expect = strcmp(rows[i].kind, "errno") ? "accept" : "any",
			.expect_errno = strcmp(rows[i].kind, "errno") ? "EINVAL" : NULL,
			.status = "ret", .ret = e ? -1 : 3, .err = e ? 1 : 0, .errno_name = e,
			.matches = true, .release = is_new ? "2.0" : "1.0",
		};

		err = kdb__put_probe(k->db, &r);
	}
	if (!err)
		err = kdb__commit(k->db);
	kdb__free(k->db);
	free(k);
	return err;
}

static bool says_len(void *ctx, const char *call, const char *param, const char **len,
		     struct diff_where *where)
{
	(void)ctx;
	(void)where;
	*len = "usize";
	return !strcmp(call, "openat2") && !strcmp(param, "how");
}

/* "subject rule kind" of every probe change, joined by "; ". */
static char *probe_changes(const struct diff_result *r)
{
	struct kd_buf b = KD_BUF_INIT;
	size_t i;

	kd_buf_adds(&b, "");
	for (i = 0; r && i < diff_result__nr_changes(r); i++) {
		const struct diff_change *c = diff_result__change(r, i);

		if (!strncmp(c->kind, "probe.", 6))
			kd_buf_addf(&b, "%s%s %s %s", b.len ? "; " : "", c->subject, c->rule->id, c->kind);
	}
	return kd_buf_detach(&b);
}

static void sizes(int64_t old_size, int64_t new_size, const struct diff_conf *conf,
		  const char *want, const char *what)
{
	char *p[2] = { tap_tmp_path("size-old.kabi"), tap_tmp_path("size-new.kabi") };
	struct kd_buf t = KD_BUF_INIT, ev = KD_BUF_INIT;
	struct diff_result *r = NULL;
	char *got;

	kd_buf_addf(&t, "%s: built", what);
	is_int(build(p[0], old_size, false) || build(p[1], new_size, true), 0, t.s);
	r = diff_paths(p[0], p[1], conf, NULL);
	got = probe_changes(r);
	is_str(got, want, what);
	if (old_size != new_size) {
		const struct diff_change *c = r ? diff_result__find(r, "probe.errno",
								    "openat2.size32-tail") : NULL;

		kd_buf_addf(&ev, "struct open_how is %lld bytes in the old kernel and %lld in the new;"
			    " the case passes 32 bytes of it (how = buf[32]{24:8=0x1}%s): past 24,"
			    " one kernel reads members where the other reads the tail it does not know",
			    (long long)old_size, (long long)new_size, conf ? ", length usize" : "");
		kd_buf_reset(&t);
		kd_buf_addf(&t, "%s: the sizes are the evidence", what);
		is_str(c ? c->evidence : NULL, ev.s, t.s);
		is_str(c ? diff_evidence_name(c->evidence_kind) : NULL, "layout", "  of kind layout");
		is_str(c ? diff_verdict_name(c->rule->verdict) : NULL, "info", "  info");
	}
	free(got);
	kd_buf_release(&t);
	kd_buf_release(&ev);
	diff_result__free(r);
	free(p[0]);
	free(p[1]);
}

int main(void)
{
	static const struct diff_contract len = { .length_of = says_len, .source = "test" };
	struct diff_conf with = { .contract = &len };

	sizes(24, 32, &with,
	      "openat2.comma probe-size-changed probe.errno; "
	      "openat2.flags.O_NEW probe-flag-accepted probe.flag; "
	      "openat2.flags.bit40 probe-size-changed probe.flag; "
	      "openat2.long-len probe-size-changed probe.errno; "
	      "openat2.size24-tail probe-errno-changed probe.errno; "
	      "openat2.size32-tail probe-size-changed probe.errno",
	      "open_how 24 -> 32: past 24 bytes not comparable; within usize 24 compared");
	sizes(32, 24, &with,
	      "openat2.comma probe-size-changed probe.errno; "
	      "openat2.flags.O_NEW probe-flag-accepted probe.flag; "
	      "openat2.flags.bit40 probe-size-changed probe.flag; "
	      "openat2.long-len probe-size-changed probe.errno; "
	      "openat2.size24-tail probe-errno-changed probe.errno; "
	      "openat2.size32-tail probe-size-changed probe.errno",
	      "open_how 32 -> 24: the same, the other way");
	/* Without the contract the buffer alone says what is passed: 32 bytes. */
	sizes(24, 32, NULL,
	      "openat2.comma probe-size-changed probe.errno; "
	      "openat2.flags.O_NEW probe-flag-accepted probe.flag; "
	      "openat2.flags.bit40 probe-size-changed probe.flag; "
	      "openat2.long-len probe-size-changed probe.errno; "
	      "openat2.size24-tail probe-size-changed probe.errno; "
	      "openat2.size32-tail probe-size-changed probe.errno",
	      "no contract: the buffer's 32 bytes");
	sizes(24, 24, &with,
	      "openat2.comma probe-errno-changed probe.errno; "
	      "openat2.flags probe-flag-accepted probe.flag; "
	      "openat2.long-len probe-errno-changed probe.errno; "
	      "openat2.size24-tail probe-errno-changed probe.errno; "
	      "openat2.size32-tail probe-errno-changed probe.errno",
	      "open_how 24 in both: every case compared (both bits one change)");
	return tap_done();
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * spec/ and db/kdb-spec.c: a spec stored in a new .kabi reads back (files
 * with content hashes, values filled from the kernel's UAPI constants,
 * errnos with canonical conditions, struct annotations), re-parses from
 * the DB alone to the same spec, and replaces the spec of an existing DB
 * through kdb__open_update() without touching the kernel's data.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/kdb.h"
#include "db/kdb-uapi.h"
#include "db/kdb-spec.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "spec/spec.h"
#include "tests/tap.h"

/* spec/contract/fs.kabispec and process.kabispec only, as a directory load would. */
static int load_mine(struct spec **out)
{
	static const char *const files[] = { "fs.kabispec", "process.kabispec", NULL };
	char *dir = tap_link_dir("mine-db", "fixtures/spec/starter", files);
	int err = dir ? spec__load_dir(dir, out) : -ENOMEM;

	free(dir);
	return err;
}

/* --- the DB ------------------------------------------------------------- */
struct seen {
	int n;
	struct kd_buf text;
};

static int see_file(const struct kdb_spec_file *f, void *ctx)
{
	struct seen *x = ctx;

	x->n++;
	kd_buf_addf(&x->text, "%s %s %lld|", f->name, f->hash, (long long)f->bytes);
	return 0;
}

static int see_value(const struct kdb_spec_value *v, void *ctx)
{
	struct seen *x = ctx;

	x->n++;
	kd_buf_addf(&x->text, "%s=%s%lld/%s/%d;", v->name, v->has_value ? "" : "?",
		    (long long)v->value, v->value_source ? v->value_source : "-", v->grp);
	return 0;
}

static int see_errno(const struct kdb_spec_errno *e, void *ctx)
{
	struct seen *x = ctx;

	x->n++;
	if (e->idx == 3)
		kd_buf_addf(&x->text, "%s [%s] %s", e->errno_name, e->cond ? e->cond : "", e->text);
	return 0;
}

static int see_struct(const struct kdb_spec_struct *st, void *ctx)
{
	struct seen *x = ctx;

	x->n++;
	kd_buf_addf(&x->text, "%s ext=%d pad=%d min=%lld", st->name, st->extensible,
		    st->padding_zero, (long long)st->min_size);
	return 0;
}

static void test_db(void)
{
	char *db_path = tap_tmp_path("spec.kabi");
	struct kd_constant consts[] = {
		{ .name = "O_RDONLY", .value = 0, .ctype = "int" },
		{ .name = "O_WRONLY", .value = 1, .ctype = "int" },
		{ .name = "O_RDWR", .value = 2, .ctype = "int" },
		{ .name = "O_CREAT", .value = 0100, .ctype = "int" },
	};
	struct seen x = { 0, KD_BUF_INIT };
	struct spec *s = NULL, *back = NULL;
	struct kdb *db = NULL;
	char *hash = NULL;
	int err;

	err = load_mine(&s);
	if (!err)
		err = kdb__create(db_path, &db);
	if (!err)
		err = kdb__put_constants(db, consts, 4);
	if (!err)
		err = spec__store(s, db);
	is_int(err, 0, "spec stored in a new DB");
	if (!err)
		err = kdb__commit(db);
	kdb__free(db);
	db = NULL;
	is_int(err, 0, "DB committed");
	err = kdb__open(db_path, &db);
	is_int(err, 0, "DB opened");
	if (err)
		goto out;
	kdb__get_meta(db, "spec_hash", &hash);
	is_str(hash, spec__hash_hex(s), "meta spec_hash is the spec's hash");
	kdb__foreach_spec_file(db, see_file, &x);
	is_int(x.n, 2, "two spec files recorded");
	{
		struct kd_buf want = KD_BUF_INIT;
		size_t i;

		for (i = 0; i < spec__nr_files(s); i++)
			kd_buf_addf(&want, "%s %s %zu|", spec__file(s, i)->name, spec__file(s, i)->hash_hex,
				    spec__file(s, i)->bytes);
		is_str(x.text.s, want.s, "files with their content hashes and sizes");
		kd_buf_release(&want);
	}
	x.n = 0;
	kd_buf_reset(&x.text);
	kdb__foreach_spec_value(db, "open_flags", see_value, &x);
	is_int(x.n, 20, "open_flags: 20 values stored");
	ok(!strncmp(x.text.s, "O_RDONLY=0/uapi/0;O_WRONLY=1/uapi/0;O_RDWR=2/uapi/0;O_CREAT=64/uapi/-1;"
		    "O_EXCL=?0/-/-1;", 71), "values resolved from the DB's UAPI constants, groups kept");
	x.n = 0;
	kd_buf_reset(&x.text);
	kdb__foreach_spec_errno(db, "syscall", "openat2", see_errno, &x);
	is_int(x.n, 13, "openat2: 13 errnos stored");
	is_str(x.text.s, "EINVAL [how.flags & ~open_how_flags] how.flags has a bit outside the known open flags",
	       "errno with its canonical condition");
	x.n = 0;
	kd_buf_reset(&x.text);
	is_int(kdb__get_spec_struct(db, "clone_args", see_struct, &x), 0, "struct annotation found");
	is_str(x.text.s, "clone_args ext=1 pad=0 min=-1", "struct annotation read back");
	is_int(kdb__get_spec_struct(db, "stat", see_struct, &x), -ENOENT, "absent struct: -ENOENT");
	err = spec__load_db(db, &back);
	is_int(err, 0, "spec re-parsed from the DB");
	if (!err) {
		is_str(spec__hash_hex(back), spec__hash_hex(s), "same hash after the round trip");
		ok(spec__nr_calls(back) > 0 && spec__nr_calls(back) == spec__nr_calls(s) &&
		   spec__nr_sets(back) == spec__nr_sets(s) && spec__nr_structs(back) == spec__nr_structs(s),
		   "same declarations after the round trip");
		is_str(spec__file(back, 1)->name, "process.kabispec", "file names kept");
	}
	kdb__free(db);
	db = NULL;

	/* an existing DB updated in place (kabi-diff spec load K.kabi DIR) */
	{
		struct spec *fx = NULL;
		char *fx_path = tap_src_path("fixtures/spec/all.kabispec");

		err = spec__new(&fx);
		if (!err)
			err = spec__parse_file(fx, fx_path);
		if (!err)
			err = spec__resolve(fx);
		if (!err)
			err = kdb__open_update(db_path, &db);
		if (!err)
			err = spec__store(fx, db);
		if (!err)
			err = kdb__commit(db);
		kdb__free(db);
		db = NULL;
		is_int(err, 0, "spec replaced in an existing DB");
		if (!kdb__open(db_path, &db)) {
			struct spec *again = NULL;

			ok(!spec__load_db(db, &again) && spec__nr_calls(again) == 13 &&
			   !spec__find_syscall(again, "openat"), "the new spec's calls only");
			spec__free(again);
			is_int(kdb__count(db, "constants"), 4, "the kernel's data untouched");
			free(hash);
			hash = NULL;
			kdb__get_meta(db, "spec_hash", &hash);
			is_str(hash, spec__hash_hex(fx), "meta spec_hash updated");
		}
		spec__free(fx);
		free(fx_path);
	}
out:
	kd_buf_release(&x.text);
	free(hash);
	kdb__free(db);
	spec__free(back);
	spec__free(s);
	free(db_path);
}

int main(void)
{
	test_db();
	return tap_done();
}

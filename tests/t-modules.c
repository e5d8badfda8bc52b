// SPDX-License-Identifier: GPL-2.0-only
/*
 * extract/modules.c on relocatable fixture modules compiled at test time:
 * DWARF relocations applied (member names and offsets right), .modinfo
 * names, identical types across modules stored once, different layouts
 * stored twice, and bad files listed as problems without stopping the run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "extract/modules_internal.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "tests/tap.h"

static int sh(const char *fmt, const char *a, const char *b)
{
	struct kd_buf cmd = KD_BUF_INIT;
	int rc;

	kd_buf_addf(&cmd, fmt, a, b);
	rc = system(cmd.s);
	kd_buf_release(&cmd);
	return rc;
}

static int count_problem(const struct kd_problem *p, void *ctx)
{
	int *n = ctx;

	if (!strcmp(p->stage, "modules") && strstr(p->input, "bad.ko") &&
	    strstr(p->message, "not an ELF file"))
		*n += 1;
	if (!strcmp(p->stage, "modules") && strstr(p->input, "packed.ko.xz") &&
	    strstr(p->message, "xz-compressed"))
		*n += 10;
	return 0;
}

int main(void)
{
	static const char *const names[] = {
		"struct fxmod_create", "struct fxmod_query", "union fxmod_value", "struct absent_type",
	};
	struct kd_buf mods = KD_BUF_INIT;
	char *dbpath = tap_tmp_path("modules.kabi");
	struct named_type out[4] = { { 0 } };
	struct modules_stats stats;
	struct type_sink *sink = NULL;
	struct name_set *set = NULL;
	struct kd_type *t = NULL;
	struct kdb *db = NULL;
	int64_t *ids = NULL;
	int n, problems = 0;
	size_t i;

	kd_buf_addf(&mods, "%s/mods", tap_tmpdir());
	sh("rm -rf %s && mkdir -p %s/sub", mods.s, mods.s);
	ok(!sh("gcc -g -O2 -c -DFXMOD_NAME='\"fxmod\"' %s/fixtures/module.c -o %s/fxmod.ko",
	       tap_srcdir(), mods.s), "build fixture module 1");
	ok(!sh("gcc -g -O2 -c -DFXMOD_V2 -DFXMOD_NAME='\"fxmod2\"' %s/fixtures/module.c"
	       " -o %s/sub/fxmod2.ko", tap_srcdir(), mods.s), "build fixture module 2");
	/* Sorts first, defines the same types, but builds on fxmod: not their owner. */
	ok(!sh("gcc -g -O2 -c -DFXMOD_NAME='\"aaa\"' -DFXMOD_DEPENDS='\"fxmod\"' %s/fixtures/module.c"
	       " -o %s/aaa.ko", tap_srcdir(), mods.s), "build fixture module 3");
	sh("echo not a module > %s/bad.ko; printf '\\3757zXZ\\0' > %s/packed.ko.xz", mods.s, mods.s);

	ok(!kdb__create(dbpath, &db) && !type_sink_new(&sink) && !name_set_new(&set), "set up");
	for (i = 0; i < 4; i++)
		name_set_add(set, names[i]);
	is_int(modules__extract(db, sink, mods.s, NULL, set, out, 2, false, &stats), 0, "modules__extract");
	is_int(stats.scanned, 5, "5 module files seen");
	is_int(stats.failed, 2, "2 unreadable (not ELF, compressed)");
	is_int(stats.parsed, 3, "3 modules parsed");
	is_int(out[0].size, 32, "struct fxmod_create: 32 bytes");
	is_int(out[0].module_id, 2, "owned by fxmod (id 2), not by aaa (id 1), which depends on it");
	is_int(out[1].size, 32, "struct fxmod_query from module 1: 32 bytes");
	is_int(out[2].size, 8, "union fxmod_value: 8 bytes");
	is_int(out[3].type_id, 0, "an absent type stays unresolved");
	is_int(kdb__commit(db), 0, "commit");
	kdb__free(db);
	db = NULL;

	ok(!kdb__open(dbpath, &db), "reopen");
	n = kdb__find_types(db, "struct", "fxmod_create", &ids);
	is_int(n, 1, "identical struct in three modules: one row");
	if (n == 1 && !kdb__get_type(db, ids[0], &t)) {
		static const char *const want[] = { "height", "width", "bpp", "flags", "handle",
						    "pitch", "size" };
		static const int64_t offs[] = { 0, 4, 8, 12, 16, 20, 24 };
		int good = t->nr_members == 7;

		for (i = 0; good && i < 7; i++)
			good = t->members[i].name && !strcmp(t->members[i].name, want[i]) &&
			       t->members[i].offset == offs[i];
		ok(good, "relocations applied: 7 members with the right names and offsets");
		kd_type__free(t);
	}
	free(ids);
	n = kdb__find_types(db, "struct", "fxmod_query", &ids);
	is_int(n, 2, "different layouts of one name: two rows");
	free(ids);
	is_int(kdb__count(db, "modules"), 3, "modules table lists the readable modules");
	kdb__foreach_problem(db, count_problem, &problems);
	is_int(problems, 11, "bad.ko and packed.ko.xz listed in problems with their cause");

	kdb__free(db);
	type_sink_free(sink);
	name_set_free(set);
	kd_buf_release(&mods);
	free(dbpath);
	return tap_done();
}

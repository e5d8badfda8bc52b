// SPDX-License-Identifier: GPL-2.0-only
/*
 * spec/: every construct of the language parses into exactly the expected
 * model (tests/fixtures/spec/all.kabispec), expressions parse with the
 * documented precedence and evaluate, every error message has its exact
 * text and position and all errors of a file are reported, hostile input
 * (random bytes, truncations, deep nesting, allocation failures) never
 * crashes. The DB round trip is tests/t-spec-db.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "spec/spec.h"
#include "tests/tap.h"

static char *expr_str(const struct spec_expr *e)
{
	struct kd_buf b = KD_BUF_INIT;

	if (e)
		spec_expr__format(e, &b);
	else
		kd_buf_adds(&b, "(none)");
	return kd_buf_detach(&b);
}

#define is_expr(e, want, what) do {		\
		char *s_ = expr_str(e);		\
		is_str(s_, want, what);		\
		free(s_);			\
	} while (0)

/* Parse @text as "t.kabispec", resolve, and return the captured errors. */
static char *errors_of(const char *text, int *rc, size_t *nr)
{
	struct kd_buf log = KD_BUF_INIT;
	struct spec *s;
	int err;

	if (spec__new(&s))
		return NULL;
	kd_log_capture(&log);
	err = spec__parse_buffer(s, "t.kabispec", text, strlen(text));
	if (err != -ENOMEM) {
		int r = spec__resolve(s);

		if (!err)
			err = r;
	}
	kd_log_capture(NULL);
	if (rc)
		*rc = err;
	if (nr)
		*nr = spec__nr_errors(s);
	spec__free(s);
	return kd_buf_detach(&log);
}

static void check_errors(const char *text, const char *want, const char *what)
{
	int rc;
	char *got = errors_of(text, &rc, NULL);

	is_str(got, want, what);
	if (*want)
		is_int(rc, -KD_ESYNTAX, "  ... and the parse fails with KD_ESYNTAX");
	free(got);
}

/* --- the starter contract ------------------------------------------------ */
/*
 * This engineer's two files of spec/contract/, read as spec__load_dir() would
 * (names relative to spec/contract/); the whole directory is tests/t-spec-starter.c's.
 */
static char *mine_dir;

static const char *const mine_files[] = { "fs.kabispec", "process.kabispec", NULL };

static int load_mine(struct spec **out)
{
	return spec__load_dir(mine_dir, out);
}

static void test_starter(void)
{
	const struct spec_call *c;
	const struct spec_struct *st;
	const struct spec_set *set;
	const struct spec_value **vals = NULL;
	struct spec *s = NULL;
	long n;
	int err;

	err = load_mine(&s);
	is_int(err, 0, "the first starter contract (fs, process; frozen in tests/fixtures/spec/starter) loads without errors");
	if (err)
		goto out;
	is_int(spec__nr_files(s), 2, "two files");
	is_str(spec__file(s, 0)->name, "fs.kabispec", "file name relative to the directory (fs)");
	is_str(spec__file(s, 1)->name, "process.kabispec", "file name relative to the directory (process)");
	is_int(strlen(spec__hash_hex(s)), 16, "spec hash has 16 hex digits");
	c = spec__find_syscall(s, "openat2");
	ok(c != NULL, "openat2 is specified");
	if (c) {
		is_int(c->nr_params, 4, "openat2 has 4 params");
		is_int(c->params[2].arg.kind, SPEC_K_PTR, "openat2 how is a pointer");
		is_int(c->params[2].arg.dir, SPEC_DIR_IN, "  ... read by the kernel");
		is_str(c->params[2].arg.ref, "struct open_how", "  ... to struct open_how");
		is_int(c->params[3].arg.kind, SPEC_K_LEN, "usize is a length");
		is_str(c->params[3].arg.ref, "how", "  ... of how");
		is_str(c->since, "5.6", "openat2 since 5.6");
		is_int(c->ret, SPEC_RET_FD, "openat2 returns an fd");
		is_expr(c->errnos[3].when, "how.flags & ~open_how_flags", "openat2 unknown flags condition");
		is_int(c->errnos[3].when->b->a->ref, SPEC_REF_SET, "open_how_flags names the flag set");
		is_int(c->errnos[3].when->a->ref, SPEC_REF_PARAM, "how.flags names the parameter");
		is_int(c->errnos[0].when->b->ref, SPEC_REF_CONST, "PAGE_SIZE names a constant");
	}
	st = spec__find_struct(s, "open_how");
	ok(st && st->extensible && st->nr_sizes == 1 && st->sizes[0].size == 24 &&
	   !strcmp(st->sizes[0].name, "OPEN_HOW_SIZE_VER0"), "open_how extensible, VER0 = 24");
	st = spec__find_struct(s, "clone_args");
	ok(st && st->extensible && st->nr_sizes == 3 && st->sizes[0].size == 64 &&
	   st->sizes[1].size == 80 && st->sizes[2].size == 88, "clone_args: 64, 80, 88");
	ok(spec__is_extensible(s, "clone_args") && !spec__is_extensible(s, "stat"),
	   "is_extensible answers for the diff");

	set = spec__find_set(s, "open_how_flags");
	n = set ? spec__set_values(s, set, &vals) : -1;
	is_int(n, 20, "open_how_flags inherits the 20 values of open_flags");
	if (n > 0) {
		is_str(vals[0]->name, "O_RDONLY", "  ... base first");
		is_int(vals[0]->group, 0, "  ... O_RDONLY in the access-mode group");
	}
	ok(set && set->unknown == SPEC_UNKNOWN_REJECT &&
	   spec__find_set(s, "open_flags")->unknown == SPEC_UNKNOWN_IGNORE,
	   "openat ignores unknown bits, openat2 rejects them");
	ok(spec__find_syscall(s, "close") && spec__find_syscall(s, "read") &&
	   spec__find_syscall(s, "write") && spec__find_syscall(s, "openat") &&
	   spec__find_syscall(s, "clone3"), "openat, close, read, write, clone3 are specified");
out:
	free(vals);
	spec__free(s);
}

/* --- every construct, exact values (tests/fixtures/spec/all.kabispec) ---- */
static void test_all_constructs(void)
{
	char *path = tap_src_path("fixtures/spec/all.kabispec");
	const struct spec_call *c;
	const struct spec_struct *st;
	const struct spec_set *set;
	const struct spec_arg *a;
	struct spec *s = NULL;
	int err;

	if (spec__new(&s))
		goto out;
	err = spec__parse_file(s, path);
	if (!err)
		err = spec__resolve(s);
	is_int(err, 0, "all.kabispec parses and resolves");
	is_int(spec__nr_files(s), 2, "include read once, the include cycle skipped");
	is_int(spec__nr_fdkinds(s), 3, "three fd kinds (two from the included file)");
	is_str(spec__fdkind(s, 0)->name, "dir", "fdkind name");
	is_str(spec__fdkind(s, 0)->text, "a directory", "fdkind text");
	ok(spec__fdkind(s, 1)->text == NULL, "fdkind without text");

	set = spec__find_set(s, "mode_bits");
	ok(set && set->kind == SPEC_SET_FLAGS && set->unknown == SPEC_UNKNOWN_IGNORE &&
	   set->nr_values == 6 && set->nr_groups == 1, "mode_bits: flags, ignore, 6 values, 1 group");
	if (set && set->nr_values == 6) {
		is_str(set->groups[0].mask, "M_MASK", "group mask");
		is_int(set->values[0].group, 0, "M_A in group 0");
		ok(set->values[0].value == NULL, "M_A value from the UAPI");
		is_expr(set->values[1].value, "2", "M_B = 0x2");
		is_expr(set->values[2].value, "1 << 2", "M_C = 1 << 2");
		is_str(set->values[2].since, "4.1", "M_C since 4.1");
		is_int(set->values[2].group, 0, "M_C in group 0");
		is_int(set->values[3].group, -1, "M_D in no group");
		is_str(set->values[4].name, "M_E", "comma list: M_E");
		is_str(set->values[4].since, "5.0", "  ... since 5.0");
		is_str(set->values[5].name, "M_F", "comma list: M_F");
		is_int(set->values[2].loc.line, 6, "value line");
		is_int(set->values[2].loc.col, 28, "value column");
	}
	set = spec__find_set(s, "more_bits");
	ok(set && !strcmp(set->extends, "mode_bits") && !strcmp(set->since, "6.0") &&
	   set->unknown == SPEC_UNKNOWN_REJECT, "more_bits extends mode_bits since 6.0, reject");
	set = spec__find_set(s, "whence");
	ok(set && set->kind == SPEC_SET_ENUM && set->nr_values == 4 &&
	   set->unknown == SPEC_UNKNOWN_REJECT, "enum whence: 4 values, reject by default");

	st = spec__find_struct(s, "thing");
	ok(st && st->extensible && st->padding_zero && st->min_size == 8 && !st->is_union &&
	   !strcmp(st->since, "5.10"), "struct thing: extensible, padding zero, minsize 8, since");
	if (st && st->nr_sizes == 2 && st->nr_fields == 7) {
		ok(!strcmp(st->sizes[0].name, "THING_V0") && st->sizes[0].size == 16 &&
		   !strcmp(st->sizes[0].since, "5.10"), "size THING_V0 = 16 since 5.10");
		ok(!st->sizes[1].name && st->sizes[1].size == 24 && !st->sizes[1].since, "size 24");
		ok(st->fields[0].has_arg && st->fields[0].arg.kind == SPEC_K_FLAGS &&
		   !strcmp(st->fields[0].arg.ref, "more_bits"), "field flags: flags more_bits");
		is_expr(st->fields[1].arg.lo, "0", "field mode: range lo");
		is_expr(st->fields[1].arg.hi, "511", "field mode: range hi (0777)");
		ok(st->fields[2].reserved && !st->fields[2].has_arg && !st->fields[2].out,
		   "field __pad: reserved");
		ok(st->fields[3].out && st->fields[3].arg.kind == SPEC_K_PTR &&
		   st->fields[3].arg.dir == SPEC_DIR_OUT && !strcmp(st->fields[3].arg.ref, "u64"),
		   "field result: out ptr out u64");
		ok(!strcmp(st->fields[4].name, "inner.x") && st->fields[4].reserved &&
		   st->fields[4].out && !strcmp(st->fields[4].since, "6.1"),
		   "field inner.x: out reserved (either order) since 6.1");
		ok(st->fields[5].arg.array && st->fields[5].arg.optional &&
		   !strcmp(st->fields[5].arg.ref, "char"), "field buf: ptr in char[] optional");
		ok(st->fields[6].arg.kind == SPEC_K_COUNT && !strcmp(st->fields[6].arg.ref, "buf"),
		   "field nbuf: count buf");
	} else {
		ok(0, "struct thing has 2 sizes and 7 fields");
	}
	ok(spec__is_reserved(s, "thing", "__pad") && spec__is_reserved(s, "thing", NULL) &&
	   !spec__is_reserved(s, "thing", "mode") && !spec__is_reserved(s, "nope", "x"),
	   "is_reserved: fields and padding");
	st = spec__find_struct(s, "thing_u");
	ok(st && st->is_union && !st->extensible && st->min_size == -1, "union thing_u");

	c = spec__find_syscall(s, "do_all");
	ok(c && c->nr_params == 13 && c->ret == SPEC_RET_FD && !strcmp(c->ret_ref, "dev") &&
	   !strcmp(c->since, "4.20"), "do_all: 13 params, -> fd dev since 4.20");
	if (c && c->nr_params == 13) {
		static const enum spec_kind kinds[] = {
			SPEC_K_FD, SPEC_K_PATH, SPEC_K_STRING, SPEC_K_PTR, SPEC_K_LEN, SPEC_K_FLAGS,
			SPEC_K_ENUM, SPEC_K_INT, SPEC_K_ADDR, SPEC_K_PID, SPEC_K_UID, SPEC_K_GID,
			SPEC_K_UNUSED,
		};
		size_t i, same = 0;

		for (i = 0; i < 13; i++)
			same += c->params[i].arg.kind == kinds[i];
		is_int(same, 13, "every parameter kind");
		a = &c->params[0].arg;
		ok(!strcmp(a->ref, "dir") && a->nr_specials == 2 && !strcmp(a->specials[0], "AT_FDCWD") &&
		   !strcmp(a->specials[1], "AT_OTHER"), "fd dir or AT_FDCWD or AT_OTHER");
		is_int(a->ref_loc.col, 24, "fd kind column");
		a = &c->params[3].arg;
		ok(a->dir == SPEC_DIR_INOUT && !strcmp(a->ref, "struct thing"), "ptr inout struct thing");
		is_str(c->params[4].arg.ref, "t", "len t");
		is_str(c->params[6].arg.ref, "whence", "enum whence");
		is_expr(c->params[7].arg.lo, "-1", "int in -1..MAX_N: lo");
		is_expr(c->params[7].arg.hi, "MAX_N", "int in -1..MAX_N: hi");
		ok(c->params[8].arg.optional, "addr optional");
		ok(c->nr_errnos == 3 && !strcmp(c->errnos[0].name, "EINVAL") &&
		   !strcmp(c->errnos[0].text, "unknown bits in f") &&
		   !strcmp(c->errnos[0].since, "4.21"), "errno EINVAL: text joined, since");
		is_expr(c->errnos[0].when, "f & ~mode_bits", "errno condition");
		is_expr(c->errnos[2].when, "(none)", "errno without a condition");
		is_int(c->errnos[1].loc.line, 44, "errno line");
		ok(c->nr_notes == 2 && !strcmp(c->notes[1], "second note"), "notes");
	}
	c = spec__find_syscall(s, "probed");
	ok(c && c->nr_params == 6 && c->nr_deviations == 4, "probed: 6 params, 4 deviations");
	if (c && c->nr_params == 6 && c->nr_deviations == 4) {
		const struct spec_deviation *d = c->deviations;

		ok(c->params[0].arg.kind == SPEC_K_ID && !strcmp(c->params[0].arg.ref, "tmr"),
		   "id tmr");
		ok(c->params[1].arg.kind == SPEC_K_ADDR && c->params[1].arg.mapped &&
		   !c->params[1].arg.optional, "addr mapped");
		ok(c->params[2].arg.kind == SPEC_K_LEN && !strcmp(c->params[2].arg.ref, "start"),
		   "len of an addr");
		ok(c->params[3].arg.nonzero && c->params[3].arg.optional, "int nonzero optional");
		a = &c->params[4].arg;
		ok(!strcmp(a->ref, "pipe") && a->nr_specials == 1 && !strcmp(a->specials[0], "dev") &&
		   a->access == SPEC_ACCESS_WRITE && spec__is_fdkind(s, a->specials[0]) &&
		   !spec__is_fdkind(s, "AT_FDCWD"), "fd pipe or dev writable: another fd kind");
		ok(c->params[5].arg.access == SPEC_ACCESS_READ, "fd dir readable");
		ok(!strcmp(d[0].outcome, "ok") && !d[0].since && !strcmp(d[0].until, "6.2") &&
		   !strcmp(d[0].text, "n = 3 works on old kernels"), "deviation ok ... until 6.2");
		is_expr(d[0].when, "n == 3", "deviation condition");
		ok(!strcmp(d[1].outcome, "EPERM") && !strcmp(d[1].since, "5.1") &&
		   !strcmp(d[1].until, "6.10.1") && !strcmp(d[1].text, "a reason in two strings"),
		   "deviation EPERM ... since 5.1 until 6.10.1");
		is_expr(d[1].when, "(n == 5) && (len > 0)", "a condition naming two parameters");
		is_int(d[1].loc.line, 59, "deviation line");
		is_int(d[0].fs, 0, "a deviation without 'on' holds on any file system");
		ok(d[2].fs == (SPEC_FS_EXT4 | SPEC_FS_TMPFS) && !strcmp(d[2].since, "5.2") &&
		   !d[2].until, "deviation ... on ext4, tmpfs since 5.2");
		is_expr(d[2].when, "n == 7", "the condition stops before 'on'");
		is_int(d[3].fs, SPEC_FS_TMPFS, "deviation ... on tmpfs");
		ok(spec_fs_bit("ext4") == SPEC_FS_EXT4 && spec_fs_bit("tmpfs") == SPEC_FS_TMPFS &&
		   !spec_fs_bit("ext3") && !spec_fs_bit(NULL), "spec_fs_bit");
	}
	ok(spec__nr_idkinds(s) == 1 && !strcmp(spec__idkind(s, 0)->name, "tmr") &&
	   !strcmp(spec__idkind(s, 0)->text, "a timer"), "idkind tmr");
	c = spec__find_syscall(s, "nothing");
	ok(c && c->nr_params == 0 && c->ret == SPEC_RET_ZERO && !c->nr_errnos, "syscall nothing() -> 0;");
	ok(spec__find_syscall(s, "gone")->ret == SPEC_RET_NORETURN &&
	   spec__find_syscall(s, "cnt")->ret == SPEC_RET_COUNT &&
	   spec__find_syscall(s, "where")->ret == SPEC_RET_ADDR &&
	   spec__find_syscall(s, "num")->ret == SPEC_RET_INT &&
	   spec__find_syscall(s, "proc")->ret == SPEC_RET_PID, "every return kind");
	c = spec__find_ioctl(s, "THING_GET");
	ok(c && c->kind == SPEC_IOCTL && !strcmp(c->fd_kind, "dev") && c->dir == SPEC_DIR_OUT &&
	   !strcmp(c->arg_type, "struct thing") && c->nr_errnos == 1, "ioctl THING_GET: dev, out");
	ok(spec__find_ioctl(s, "THING_SET")->dir == SPEC_DIR_IN, "ioctl THING_SET: in");
	ok(spec__find_ioctl(s, "THING_RW")->dir == SPEC_DIR_INOUT, "ioctl THING_RW: inout");
	c = spec__find_ioctl(s, "THING_RESET");
	ok(c && c->dir == SPEC_DIR_NONE && !c->fd_kind && !c->arg_type, "ioctl THING_RESET: none, any fd");
	c = spec__find_ioctl(s, "THING_VAL");
	ok(c && c->dir == SPEC_DIR_NONE && c->ret == SPEC_RET_INT, "ioctl THING_VAL: value argument");
	ok(!spec__find_syscall(s, "THING_GET") && !spec__find_ioctl(s, "do_all"),
	   "syscalls and ioctls are separate name spaces");
out:
	spec__free(s);
	free(path);
}

/* --- expressions --------------------------------------------------------- */
static int lookup(const char *name, uint64_t *v, void *ctx)
{
	(void)ctx;
	if (!strcmp(name, "PAGE_SIZE"))
		*v = 4096;
	else if (!strcmp(name, "size"))
		*v = 5000;
	else if (!strcmp(name, "zero"))
		*v = 0;
	else
		return -ENOENT;
	return 0;
}

/* A divisor of numbers only that is 0 is an error where it is written. */
/* `prefix`, in either order with `out`, and a struct without it. */
static void test_prefix(void)
{
	static const char text[] = "struct p out prefix { a: out; }\nstruct q prefix { }\nstruct r { b: out; }\n";
	const struct spec_struct *st;
	struct spec *s = NULL;
	int rc = -1;

	if (!spec__new(&s))
		rc = spec__parse_buffer(s, "p.kabispec", text, strlen(text));
	if (!rc)
		rc = spec__resolve(s);
	is_int(rc, 0, "prefix structs parse and resolve");
	st = s ? spec__find_struct(s, "p") : NULL;
	ok(st && st->prefix && st->out && !st->extensible && st->nr_fields == 1,
	   "struct p out prefix: both words, its field");
	st = s ? spec__find_struct(s, "q") : NULL;
	ok(st && st->prefix && !st->out && !st->nr_fields, "struct q prefix { }: an empty body");
	st = s ? spec__find_struct(s, "r") : NULL;
	ok(st && !st->prefix, "struct r: not prefix");
	spec__free(s);
}

/* `message`, `unused` (a member, or its elements from N on), `when` gates and `until`. */
static void test_unread_facts(void)
{
	static const char text[] =
		"struct m message { }\n"
		"struct c {\n\tdata[1]: unused;\n\tdata: int;\n\tlen: when G_A, G_B since 6.5;\n"
		"\told: unused until 6.12;\n}\n";
	const struct spec_struct *st;
	const struct spec_field *f;
	struct spec *s = NULL;
	int rc = -1;

	if (!spec__new(&s))
		rc = spec__parse_buffer(s, "u.kabispec", text, strlen(text));
	if (!rc)
		rc = spec__resolve(s);
	is_int(rc, 0, "message, unused, when and until parse and resolve");
	st = s ? spec__find_struct(s, "m") : NULL;
	ok(st && st->message && !st->prefix && !st->whole && !st->nr_fields, "struct m message { }");
	st = s ? spec__find_struct(s, "c") : NULL;
	f = st ? spec_struct__unused(st, "data") : NULL;
	ok(f && f->from_elem == 1 && f->unused && !f->has_arg, "data[1]: unused, from element 1");
	f = st ? spec_struct__field(st, "data") : NULL;
	ok(f && f->from_elem == -1 && f->has_arg && !f->unused, "data: the whole member's line");
	f = st ? spec_struct__field(st, "len") : NULL;
	ok(f && f->nr_gates == 2 && !strcmp(f->gates[0], "G_A") && !strcmp(f->gates[1], "G_B") &&
	   f->since && !strcmp(f->since, "6.5") && !f->has_arg, "len: when G_A, G_B since 6.5");
	f = st ? spec_struct__unused(st, "old") : NULL;
	ok(f && f->from_elem == -1 && f->until && !strcmp(f->until, "6.12"), "old: unused until 6.12");
	ok(st && !spec_struct__unused(st, "len"), "len is not unused");
	spec__free(s);
}

/* "vdso ABI { version NODE; NAME@NODE; }": the model, and -ENOMEM at every allocation. */
static const char vdso_text[] =
	"vdso arm64 since 3.7 {\n\tversion LINUX_2.6.39;\n"
	"\t__kernel_clock_gettime@LINUX_2.6.39;\n\t__kernel_getrandom@LINUX_2.6.39 since 6.12;\n}\n"
	"vdso ia32 { version LINUX_2.5; version LINUX_2.6 since 2.6.18;\n"
	"\t__kernel_vsyscall@LINUX_2.5; version@LINUX_2.6; }\n";

static int load_vdso(struct spec **out)
{
	int rc = spec__new(out);

	if (!rc)
		rc = spec__parse_buffer(*out, "v.kabispec", vdso_text, strlen(vdso_text));
	if (!rc)
		rc = spec__resolve(*out);
	return rc;
}

static void test_vdso(void)
{
	const struct spec_vdso *v;
	const struct spec_vdso_entry *e;
	struct spec *s = NULL;
	int n, rc = load_vdso(&s), failures = 0, wrong = 0;

	is_int(rc, 0, "vdso blocks parse and resolve");
	is_int(s ? (int)spec__nr_vdsos(s) : -1, 2, "two blocks");
	v = s ? spec__find_vdso(s, "arm64") : NULL;
	ok(v && v->since && !strcmp(v->since, "3.7") && v->loc.line == 1 && v->nr_versions == 1 &&
	   !strcmp(v->versions[0].node, "LINUX_2.6.39") && v->nr_entries == 2,
	   "vdso arm64 since 3.7: one node (the lexer's name, dot and version joined), two entries");
	e = v ? spec_vdso__entry(v, "__kernel_getrandom", "LINUX_2.6.39") : NULL;
	ok(e && e->since && !strcmp(e->since, "6.12") && e->loc.line == 4 && e->loc.col == 2,
	   "__kernel_getrandom@LINUX_2.6.39 since 6.12, at 4:2");
	ok(v && !spec_vdso__entry(v, "__kernel_getrandom", "LINUX_2.6"), "  not at another node");
	v = s ? spec__find_vdso(s, "ia32") : NULL;
	ok(v && v->nr_versions == 2 && !strcmp(v->versions[1].node, "LINUX_2.6") &&
	   v->versions[1].since && !strcmp(v->versions[1].since, "2.6.18") &&
	   spec_vdso__entry(v, "version", "LINUX_2.6") && !v->since,
	   "vdso ia32: two nodes, an entry point named 'version'");
	ok(s && !spec__find_vdso(s, "x64"), "no x64 block");
	spec__free(s);

	kd_log_set_level(KD_LOG_QUIET);
	for (n = 0; n < 5000; n++) {
		s = NULL;
		kd_mem_fail_after(n);
		rc = load_vdso(&s);
		kd_mem_fail_after(-1);
		spec__free(s);
		if (!rc)
			break;
		failures++;
		wrong += rc != -ENOMEM;
	}
	kd_log_set_level(KD_LOG_WARN);
	ok(failures > 10 && !rc && !wrong, "vdso blocks: -ENOMEM at each of %d allocations, then loaded",
	   failures);
}

static void test_division_by_zero(void)
{
	static const char *const bad[] = { "1 / 0", "0 && 1 / 0", "5 % (3 - 3)", "4 / (1 & 2)" };
	static const char *const fine[] = { "1 / 1", "5 % (4 - 3)", "1 / size", "4 / -1" };
	struct kd_buf text = KD_BUF_INIT;
	size_t i;

	for (i = 0; i < 8; i++) {
		const char *in = i < 4 ? bad[i] : fine[i - 4];
		struct spec *s = NULL;
		int rc;

		kd_buf_reset(&text);
		kd_buf_addf(&text, "syscall x() -> 0 { errno EINVAL \"w\" when %s; }\n", in);
		if (spec__new(&s))
			break;
		rc = spec__parse_buffer(s, "z.kabispec", text.s, text.len);
		ok(rc == (i < 4 ? -KD_ESYNTAX : 0), "'%s': %s (rc %d)", in,
		   i < 4 ? "division by zero" : "parses", rc);
		spec__free(s);
	}
	kd_buf_release(&text);
}

static void test_expressions(void)
{
	static const struct {
		const char *in, *canon;
		int rc;		/* 0: evaluates to val; else the error */
		uint64_t val;
	} cases[] = {
		{ "1 + 2 * 3", "1 + (2 * 3)", 0, 7 },
		{ "(1 + 2) * 3", "(1 + 2) * 3", 0, 9 },
		{ "6 & 3 == 2", "(6 & 3) == 2", 0, 1 },		/* & binds tighter than == */
		{ "1 | 2 ^ 3 & 4", "1 | (2 ^ (3 & 4))", 0, 3 },
		{ "1 << 4 + 1", "1 << (4 + 1)", 0, 32 },
		{ "~0 >> 60", "~0 >> 60", 0, 15 },
		{ "!0 && 2 > 1 || 0", "(!0 && (2 > 1)) || 0", 0, 1 },
		{ "size > PAGE_SIZE", "size > PAGE_SIZE", 0, 1 },
		{ "size < 24", "size < 24", 0, 0 },
		{ "7 % 4 - 10 / 5", "(7 % 4) - (10 / 5)", 0, 1 },
		{ "-1", "-1", 0, UINT64_MAX },
		{ "0x1000 | 0b11 | 017", "(0x1000 | 3) | 15", 0, 0x100f },
		{ "1UL << 63", "1 << 63", 0, 1ULL << 63 },
		{ "a->b.c != 0", "a.b.c != 0", -ENOENT, 0 },
		{ "1 / zero", "1 / zero", -EDOM, 0 },	/* a literal 0: test_division_by_zero() */
		{ "0 && 1 / zero", "0 && (1 / zero)", 0, 0 },	/* short-circuit */
	};
	struct kd_buf text = KD_BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct spec_call *c;
		struct spec *s = NULL;
		uint64_t v = 0;
		int rc;

		kd_buf_reset(&text);
		kd_buf_addf(&text, "fdkind k;\nsyscall x() -> 0 { errno EINVAL \"w\" when %s; }\n",
			    cases[i].in);
		if (spec__new(&s))
			break;
		rc = spec__parse_buffer(s, "e.kabispec", text.s, text.len);
		c = spec__find_syscall(s, "x");
		if (rc || !c || c->nr_errnos != 1) {
			ok(0, "expression '%s' parses (rc %d)", cases[i].in, rc);
		} else {
			is_expr(c->errnos[0].when, cases[i].canon, cases[i].in);
			rc = spec_expr__eval(c->errnos[0].when, lookup, NULL, &v);
			ok(rc == cases[i].rc && (rc || v == cases[i].val),
			   "  ... evaluates to %llu (rc %d)", (unsigned long long)v, rc);
		}
		spec__free(s);
	}
	{	/* the tree itself, not just its printing */
		struct spec *s = NULL;
		const struct spec_expr *e;
		const char *t = "syscall x(how: int) -> 0 { errno EINVAL \"w\" when how.flags & ~SET; }";

		if (!spec__new(&s) && !spec__parse_buffer(s, "e.kabispec", t, strlen(t))) {
			e = spec__find_syscall(s, "x")->errnos[0].when;
			ok(e->op == SPEC_EX_AND && e->a->op == SPEC_EX_NAME && !strcmp(e->a->name, "how.flags") &&
			   e->b->op == SPEC_EX_NOT && e->b->a->op == SPEC_EX_NAME &&
			   !strcmp(e->b->a->name, "SET") && !e->b->b, "AST of how.flags & ~SET");
			ok(e->loc.line == 1 && e->loc.col == 60 && e->a->loc.col == 50,
			   "operators and operands carry their positions");
			is_str(spec_expr_op_name(SPEC_EX_LE), "<=", "operator names");
		} else {
			ok(0, "AST test parses");
		}
		spec__free(s);
	}
	{	/* a pointed-to C type: its words one space apart, the stars together */
		struct spec *s = NULL;
		const char *t = "syscall y(argv: ptr in const char * *, st: ptr out struct  stat[],\n"
				"          why: ptr in void) -> 0 { note \"a\" \"b\"; }";
		const struct spec_call *c;

		if (!spec__new(&s) && !spec__parse_buffer(s, "c.kabispec", t, strlen(t)) &&
		    (c = spec__find_syscall(s, "y")) && c->nr_params == 3) {
			is_str(c->params[0].arg.ref, "const char **", "ptr in const char * *: 'const char **'");
			ok(!c->params[0].arg.array, "  not an array");
			is_str(c->params[1].arg.ref, "struct stat", "ptr out struct  stat[]: 'struct stat'");
			ok(c->params[1].arg.array, "  an array of unstated length");
			is_str(c->params[2].arg.ref, "void", "ptr in void");
			is_str(c->nr_notes == 1 ? c->notes[0] : NULL, "a b", "adjacent strings joined by one space");
		} else {
			ok(0, "C types parse");
		}
		spec__free(s);
	}
	kd_buf_release(&text);
}

/* --- error messages: exact text and position --------------------------- */
static void test_errors(void)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "flags open_flags { O_A; }\nsyscall s(f: flags open_flgs) -> 0;\n",
		  "t.kabispec:2:20: unknown flag set 'open_flgs' (did you mean 'open_flags'?)" },
		{ "sycall x() -> 0;\n",
		  "t.kabispec:1:1: expected a declaration (syscall, ioctl, flags, enum, struct, union,"
		  " constant, family, vdso, fdkind, idkind, include), found 'sycall' (did you mean 'syscall'?)" },
		{ "syscall x(a: flag f) -> 0;\n",
		  "t.kabispec:1:14: unknown kind 'flag' (did you mean 'flags'?)" },
		{ "syscall x() -> 0 { errno EINAVL \"w\"; }\n",
		  "t.kabispec:1:26: unknown errno 'EINAVL' (did you mean 'EINVAL'?)" },
		{ "syscall x() { }\n",
		  "t.kabispec:1:13: expected '->' and the return kind of syscall 'x', found '{'" },
		{ "syscall x() -> cout;\n",
		  "t.kabispec:1:16: expected a return kind (0, fd, count, addr, int, pid, noreturn),"
		  " found 'cout' (did you mean 'count'?)" },
		{ "syscall x() -> 0 since five;\n",
		  "t.kabispec:1:24: expected a kernel version after 'since' (like 5.6), found 'five'" },
		{ "syscall x() -> 0 { note \"open\n}\n",
		  "t.kabispec:1:25: unterminated string\n"
		  "t.kabispec:2:1: expected the note (a \"string\"), found '}'" },
		{ "fdkind a $;\n",
		  "t.kabispec:1:10: unexpected character '$'" },
		{ "flags f { A = 0x; B = 99999999999999999999; }\n",
		  "t.kabispec:1:15: malformed number '0x'\n"
		  "t.kabispec:1:23: number '99999999999999999999' does not fit in 64 bits" },
		{ "fdkind dir;\nsyscall x(d: fd dri) -> 0;\n",
		  "t.kabispec:2:17: unknown fd kind 'dri' (did you mean 'dir'?)" },
		{ "syscall read(buf: ptr out void, n: len bfu) -> count;\n",
		  "t.kabispec:1:40: 'bfu' names nothing in syscall 'read' (did you mean 'buf'?)" },
		{ "syscall x(p: ptr in int, n: count p) -> 0;\n",
		  "t.kabispec:1:35: 'count p': 'p' is not an array ('ptr DIR TYPE[]')" },
		{ "enum whence { A; }\nsyscall x(f: flags whence) -> 0;\n",
		  "t.kabispec:2:20: 'whence' is an enum, not a flag set" },
		{ "flags f { A; }\nsyscall x(f: enum f) -> 0;\n",
		  "t.kabispec:2:19: 'f' is a flag set, not an enum" },
		{ "syscall x() -> 0;\nsyscall x() -> 0;\nioctl x(f: fd);\n",
		  "t.kabispec:2:1: duplicate syscall 'x' (first at t.kabispec:1:1)" },
		{ "syscall x() -> 0 {\n\terrno EIO \"a\";\nsyscall y() -> 0;\n",
		  "t.kabispec:3:1: expected '}' to close 'syscall x' (opened at line 1), found 'syscall'" },
		{ "struct s prefix extensible { size 24; }\n",
		  "t.kabispec:1:1: struct 's' is extensible or prefix, not both" },
		{ "struct s message extensible { size 24; }\n",
		  "t.kabispec:1:1: struct 's' is extensible or message, not both" },
		{ "struct s whole prefix { }\n",
		  "t.kabispec:1:1: struct 's' is whole: not extensible, prefix or message" },
		{ "struct s { a: unused out; b: unused when X; c[2]: out; d[1]: unused; d[1]: unused; }\n",
		  "t.kabispec:1:12: field 'a' of struct 's' is unused (the kernel never reads or writes it):"
		  " no kind, 'reserved', 'out' or 'when' with it\n"
		  "t.kabispec:1:27: field 'b' of struct 's' is unused (the kernel never reads or writes it):"
		  " no kind, 'reserved', 'out' or 'when' with it\n"
		  "t.kabispec:1:45: 'c[2]' of struct 's': elements from an index on can only be 'unused'\n"
		  "t.kabispec:1:70: duplicate field 'd' in struct 's'" },
		{ "struct s { a[x]: unused; b: when ; }\n",
		  "t.kabispec:1:14: expected an element index after '[', found 'x'\n"
		  "t.kabispec:1:34: expected a UAPI constant (a flag or command) after 'when', found ';'" },
		{ "struct s extensible { a: int; }\n",
		  "t.kabispec:1:1: extensible struct 's' needs its known sizes ('size NAME = BYTES;')" },
		{ "struct s extensible { size 24; size 16; minsize 30; }\n",
		  "t.kabispec:1:32: sizes of struct 's' must grow in the order written (16 after 24)\n"
		  "t.kabispec:1:1: minsize 30 of struct 's' is above its first size 24" },
		{ "struct s { sise 24; a; b: ; }\n",
		  "t.kabispec:1:12: expected a field ('name: ...'), 'size', 'minsize' or 'padding',"
		  " found 'sise' (did you mean 'size'?)\n"
		  "t.kabispec:1:21: expected a field ('name: ...'), 'size', 'minsize' or 'padding', found 'a'\n"
		  "t.kabispec:1:27: field 'b' says nothing: give a kind, 'reserved', 'out', 'unused' or 'when'" },
		{ "syscall x(a: ptr ot int) -> 0;\n",
		  "t.kabispec:1:18: expected a direction (in, out, inout) after 'ptr', found 'ot'"
		  " (did you mean 'out'?)" },
		{ "syscall x(a: int, a: int) -> 0;\n",
		  "t.kabispec:1:19: duplicate parameter 'a'" },
		{ "syscall x() -> 0 { errno EINVAL \"w\" when ; }\n",
		  "t.kabispec:1:42: expected an expression, found ';'" },
		{ "syscall x() -> 0 { errno EINVAL \"w\" when 1 < 2 < 3; }\n",
		  "t.kabispec:1:48: comparisons do not chain; use parentheses or '&&'" },
		{ "enum w { A; }\nsyscall x() -> 0 { errno EINVAL \"w\" when 1 & w; }\n",
		  "t.kabispec:2:46: enum 'w' has no mask; name its values instead" },
		{ "ioctl X(a: int);\n",
		  "t.kabispec:1:1: ioctl 'X' takes (fd: fd KIND) or (fd: fd KIND, arg: KIND)" },
		{ "flags a extends b { A; }\n",
		  "t.kabispec:1:1: 'a' extends unknown set 'b'" },
		{ "flags a extends b { A; }\nflags b extends a { B; }\n",
		  "t.kabispec:1:1: 'a' extends itself (a cycle of 'extends')\n"
		  "t.kabispec:2:1: 'b' extends itself (a cycle of 'extends')" },
		{ "flags a { unknown maybe; A, A; }\n",
		  "t.kabispec:1:19: expected 'reject' or 'ignore' after 'unknown', found 'maybe'\n"
		  "t.kabispec:1:29: duplicate value 'A' in 'a'" },
		{ "enum e { exclusive A, B; }\n",
		  "t.kabispec:1:10: 'exclusive' groups belong in flag sets, not in enums" },
		{ "include \"missing.kabispec\";\n",
		  "t.kabispec:1:1: cannot include 'missing.kabispec': No such file or directory" },
		{ "syscall x() -> 0 { erno EIO \"a\"; }\n",
		  "t.kabispec:1:20: expected 'errno', 'note', 'deviation' or 'unimplemented', found 'erno'"
		  " (did you mean 'errno'?)" },
		{ "syscall x() -> 0 { deviaton EIO \"a\"; }\n",
		  "t.kabispec:1:20: expected 'errno', 'note', 'deviation' or 'unimplemented', found 'deviaton'"
		  " (did you mean 'deviation'?)" },
		{ "syscall x(a: int) -> 0 { deviation EINVAL \"why\"; }\n",
		  "t.kabispec:1:48: expected 'when' and the inputs the deviation concerns, found ';'" },
		{ "syscall x(a: int) -> 0 { deviation EINAVL \"why\" when a; }\n",
		  "t.kabispec:1:36: unknown errno 'EINAVL' (did you mean 'EINVAL'?)" },
		{ "syscall x(a: int) -> 0 { deviation ok \"why\" when a on ext3; }\n",
		  "t.kabispec:1:55: unknown file system 'ext3' (the probe's are tmpfs and ext4)"
		  " (did you mean 'ext4'?)" },
		{ "syscall x(a: int) -> 0 { deviation ok \"why\" when a on tmpfs, tmpfs; }\n",
		  "t.kabispec:1:62: file system 'tmpfs' named twice" },
		{ "syscall x(a: int) -> 0 { deviation ok \"why\" when a on; }\n",
		  "t.kabispec:1:54: expected a file system (tmpfs, ext4), found ';'" },
		{ "syscall x(a: int) -> 0 { deviation ok \"why\" when a until six; }\n",
		  "t.kabispec:1:58: expected a kernel version after 'until' (like 6.6), found 'six'" },
		{ "idkind timer;\nsyscall x(t: id timr) -> 0;\n",
		  "t.kabispec:2:17: unknown id kind 'timr' (did you mean 'timer'?)" },
		{ "idkind t;\nidkind t;\n",
		  "t.kabispec:2:1: duplicate id kind 't' (first at t.kabispec:1:1)" },
		{ "fdkind t;\nfdkind t;\n",
		  "t.kabispec:2:1: duplicate fd kind 't' (first at t.kabispec:1:1)" },
		{ "constant C: count;\nconstant C: mask;\n",
		  "t.kabispec:2:10: duplicate constant 'C' (first at t.kabispec:1:10)" },
		{ "syscall x(p: path nonzero, a: int mapped) -> 0;\n",
		  "t.kabispec:1:19: 'nonzero' applies to int, len and count, not to path\n"
		  "t.kabispec:1:35: 'mapped' applies to addr, not to int" },
		{ "syscall x(a: int nonzero nonzero) -> 0;\n",
		  "t.kabispec:1:26: 'nonzero' given twice" },
		{ "syscall x(a: int in 1 2) -> 0;\n",
		  "t.kabispec:1:23: expected '..' in the range 'int in LO..HI', found '2'" },
		{ "# only a comment\n\n", "" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kd_buf what = KD_BUF_INIT;
		const char *nl = strchr(cases[i].in, '\n');

		kd_buf_addf(&what, "error: %.*s", nl ? (int)(nl - cases[i].in) : 40, cases[i].in);
		check_errors(cases[i].in, cases[i].want, what.s);
		kd_buf_release(&what);
	}
}

/* One file, many errors: each declaration and each statement recovers. */
static void test_multiple_errors(void)
{
	static const char text[] =
		"fdkind dir;\n"						/* 1 */
		"syscall a(x: fd dri) -> 0;\n"				/* 2: unknown fd kind */
		"syscall b(x: int) -> 0 {\n"				/* 3 */
		"\terrno EINAVL \"typo\";\n"				/* 4: unknown errno */
		"\terrno EIO \"fine\";\n"				/* 5 */
		"\terrno EIO \"bad\" when (1 + ;\n"			/* 6: bad expression */
		"\terrno EPERM \"fine too\";\n"			/* 7 */
		"}\n"							/* 8 */
		"struct s { a: flags nope; b: int }\n"			/* 9: unknown set, missing ';' */
		"garbage here;\n"					/* 10 */
		"flags f { A; }\n"					/* 11: parsed after all that */
		"syscall c(y: flags f) -> 0;\n";			/* 12 */
	static const char want[] =
		"t.kabispec:4:8: unknown errno 'EINAVL' (did you mean 'EINVAL'?)\n"
		"t.kabispec:6:28: expected an expression, found ';'\n"
		"t.kabispec:9:34: expected ';' after the field, found '}'\n"
		"t.kabispec:10:1: expected a declaration (syscall, ioctl, flags, enum, struct, union,"
		" constant, family, vdso, fdkind, idkind, include), found 'garbage'\n"
		"t.kabispec:2:17: unknown fd kind 'dri' (did you mean 'dir'?)\n"
		"t.kabispec:9:21: unknown flag set 'nope'";
	size_t nr = 0;
	int rc = 0;
	char *got = errors_of(text, &rc, &nr);
	struct spec *s = NULL;

	is_str(got, want, "every error of the file, in order (parse, then resolve)");
	is_int(nr, 6, "six errors counted");
	is_int(rc, -KD_ESYNTAX, "KD_ESYNTAX");
	free(got);
	/* the valid parts are still there */
	if (!spec__new(&s)) {
		kd_log_set_level(KD_LOG_QUIET);
		kd_log_capture(NULL);
		{
			struct kd_buf sink = KD_BUF_INIT;

			kd_log_capture(&sink);
			spec__parse_buffer(s, "t.kabispec", text, strlen(text));
			kd_log_capture(NULL);
			kd_buf_release(&sink);
		}
		kd_log_set_level(KD_LOG_WARN);
		ok(spec__find_syscall(s, "b") && spec__find_syscall(s, "b")->nr_errnos == 2,
		   "syscall b kept its two good errnos");
		ok(spec__find_syscall(s, "c") && spec__find_set(s, "f"), "declarations after the errors parsed");
	}
	spec__free(s);
}

/* --- hostile input --------------------------------------------------------- */
/*
 * Parse and resolve @text with the diagnostics captured. Returns the first
 * failing step's code (0 when both succeed); *said: whether anything was
 * reported, so that a failure without a message is caught too.
 */
static int parse_quietly(const char *text, size_t len, bool *said)
{
	struct kd_buf sink = KD_BUF_INIT;
	struct spec *s = NULL;
	int rc;

	*said = false;
	rc = spec__new(&s);
	if (rc)
		return rc;
	kd_log_capture(&sink);
	rc = spec__parse_buffer(s, "g.kabispec", text, len);
	if (rc != -ENOMEM) {
		int rrc = spec__resolve(s);

		if (!rc)
			rc = rrc;
	}
	kd_log_capture(NULL);
	*said = sink.len > 0;
	kd_buf_release(&sink);
	spec__free(s);
	return rc;
}

/*
 * A parse of hostile text ends in success or a reported syntax error,
 * nothing else: counts the other outcomes into *odd.
 */
static void expect_parsed_or_syntax(int rc, bool said, int *syntax, int *odd)
{
	if (rc == -KD_ESYNTAX && said)
		(*syntax)++;
	else if (rc != 0)
		(*odd)++;
}

static char *read_file(const char *path, size_t *len)
{
	struct kd_buf b = KD_BUF_INIT;

	if (kd_buf_read_file(&b, path)) {
		kd_buf_release(&b);
		return NULL;
	}
	*len = b.len;
	return kd_buf_detach(&b);
}

static void test_garbage(void)
{
	static const char alphabet[] = "syscall flags { } ( ) ; : , -> .. when errno \"x\" 0x1 5.6 ~&|<>=!# \n\t";
	char *path = tap_src_path("fixtures/spec/all.kabispec");
	unsigned long long seed = 0x243f6a8885a308d3ULL;
	struct kd_buf b = KD_BUF_INIT;
	size_t len = 0, i, k;
	char *text = read_file(path, &len);
	int rc, syntax = 0, odd = 0;
	bool said;

	ok(text != NULL, "fixture read for truncation");
	for (i = 0; text && i < len; i++) {		/* every proper truncation */
		rc = parse_quietly(text, i, &said);
		expect_parsed_or_syntax(rc, said, &syntax, &odd);
	}
	ok(text && odd == 0 && syntax > (int)len / 2,
	   "every truncation of all.kabispec: parsed, or a reported syntax error (%d of %zu)", syntax, len);
	syntax = odd = 0;
	for (i = 0; i < 300; i++) {			/* random bytes, random tokens */
		kd_buf_reset(&b);
		for (k = 0; k < 200 + i * 7; k++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			if (i & 1)
				kd_buf_addc(&b, (char)(seed >> 56));
			else
				kd_buf_addc(&b, alphabet[(seed >> 33) % (sizeof(alphabet) - 1)]);
		}
		rc = parse_quietly(b.s, b.len, &said);
		expect_parsed_or_syntax(rc, said, &syntax, &odd);
	}
	ok(odd == 0 && syntax == 300, "300 random byte and token soups: each a reported syntax error (%d, %d other)",
	   syntax, odd);
	kd_buf_reset(&b);
	kd_buf_adds(&b, "syscall x() -> 0 { errno EIO \"x\" when ");
	for (k = 0; k < 100000; k++)
		kd_buf_addc(&b, '(');
	kd_buf_adds(&b, "1; }");
	{
		char *got = errors_of(b.s, NULL, NULL);

		ok(got && strstr(got, "t.kabispec:1:103: expression nested too deeply (more than 64 levels)"),
		   "100000 parentheses: one clear error, no stack overflow");
		free(got);
	}
	kd_buf_reset(&b);
	for (k = 0; k < 100000; k++)
		kd_buf_adds(&b, k % 2 ? "~" : "{");
	rc = parse_quietly(b.s, b.len, &said);
	ok(rc == -KD_ESYNTAX && said, "100000 braces and tildes: a reported syntax error (rc %d)", rc);
	kd_buf_reset(&b);
	kd_buf_adds(&b, "syscall x() -> 0 { errno EIO \"x\" when ");
	for (k = 0; k < 100000; k++)
		kd_buf_adds(&b, "~");
	kd_buf_adds(&b, "1; }");
	rc = parse_quietly(b.s, b.len, &said);
	ok(rc == -KD_ESYNTAX && said, "100000 unary operators: a reported syntax error (rc %d)", rc);
	rc = parse_quietly("\0\0\0syscall\0", 11, &said);
	ok(rc == -KD_ESYNTAX && said, "NUL bytes: a reported syntax error (rc %d)", rc);
	kd_buf_release(&b);
	free(text);
	free(path);
}

/* Every allocation failure while loading the starter contract fails cleanly. */
static void test_oom(void)
{
	int n, rc = -1, failures = 0, wrong = 0;

	kd_log_set_level(KD_LOG_QUIET);
	for (n = 0; n < 20000; n++) {
		struct kd_buf sink = KD_BUF_INIT;
		struct spec *s = NULL;

		kd_log_capture(&sink);
		kd_mem_fail_after(n);
		rc = load_mine(&s);
		kd_mem_fail_after(-1);
		kd_log_capture(NULL);
		kd_buf_release(&sink);
		spec__free(s);
		if (!rc)
			break;
		failures++;
		if (rc != -ENOMEM)
			wrong++;
	}
	kd_log_set_level(KD_LOG_WARN);
	ok(failures > 50, "allocation failures injected at %d points", failures);
	is_int(rc, 0, "with enough memory the load succeeds");
	is_int(wrong, 0, "each failure returned -ENOMEM");
}

int main(void)
{
	mine_dir = tap_link_dir("mine", "fixtures/spec/starter", mine_files);
	test_starter();
	test_all_constructs();
	test_expressions();
	test_division_by_zero();
	test_errors();
	test_prefix();
	test_unread_facts();
	test_vdso();
	test_multiple_errors();
	test_garbage();
	test_oom();
	free(mine_dir);
	return tap_done();
}

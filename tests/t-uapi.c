// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the UAPI header reader (extract/uapi*.c): the expression
 * evaluator's C semantics, the fixture trees in tests/fixtures/uapi (both
 * layouts) with exact values and command numbers, and the .kabi round
 * trip. The compiled-probe comparison lives in tests/uapi-probe.sh, which
 * uses this program's dump mode:
 *
 *   t-uapi --dump DIR [--sizes FILE] [--arch x86_64|arm64]
 *
 * prints one tab-separated line per constant, ioctl and problem; FILE
 * holds "TYPE<TAB>SIZE" lines and stands in for DWARF as the sizeof source.
 */
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/kdb.h"
#include "db/kdb-kernel.h"
#include "db/kdb-uapi.h"
#include "extract/uapi/uapi.h"
#include "extract/uapi/uapi_internal.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/find.h"
#include "tests/tap.h"

/* --- dump mode ------------------------------------------------------------ */
struct sizes {
	char **names;
	int64_t *sizes;
	size_t n;
};

static int sizes_cb(const char *type, struct uapi_type_info *info, void *ctx)
{
	const struct sizes *sz = ctx;
	size_t i;

	for (i = 0; i < sz->n; i++)
		if (!strcmp(sz->names[i], type)) {
			info->size = sz->sizes[i];
			return 1;
		}
	return 0;
}

static int load_sizes(const char *path, struct sizes *sz)
{
	char line[4096];
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t');
		void *p;

		if (!tab)
			continue;
		*tab = 0;
		p = realloc(sz->names, (sz->n + 1) * sizeof(*sz->names));
		if (!p)
			break;
		sz->names = p;
		p = realloc(sz->sizes, (sz->n + 1) * sizeof(*sz->sizes));
		if (!p)
			break;
		sz->sizes = p;
		sz->names[sz->n] = strdup(line);
		sz->sizes[sz->n++] = strtoll(tab + 1, NULL, 10);
	}
	fclose(f);
	return 0;
}

static bool ctype_unsigned(const char *ctype)
{
	return !strncmp(ctype, "unsigned", 8);
}

static int dump(const char *dir, const char *sizes_path, const char *arch_name)
{
	const struct kd_arch *arch = arch_name ? kd_arch__by_name(arch_name) : NULL;
	struct sizes sz = { 0 };
	struct uapi_result *r = NULL;
	size_t i;
	int err;

	if (sizes_path && load_sizes(sizes_path, &sz)) {
		fprintf(stderr, "%s: cannot read\n", sizes_path);
		return 2;
	}
	if (arch_name && !arch) {
		fprintf(stderr, "%s: unknown architecture\n", arch_name);
		return 2;
	}
	err = uapi__scan(dir, arch, &(struct uapi_lookup){ .size = sizes_cb, .ctx = &sz }, &r);
	if (err) {
		fprintf(stderr, "%s: %s\n", dir, kd_strerror(err));
		return 1;
	}
	for (i = 0; i < r->nr_consts; i++) {
		const struct kd_constant *c = &r->consts[i];

		if (ctype_unsigned(c->ctype))
			printf("const\t%s\t%" PRIu64, c->name, (uint64_t)c->value);
		else
			printf("const\t%s\t%" PRId64, c->name, c->value);
		printf("\t%s\t%s\t%s:%d\n", c->ctype, r->const_roots[i], c->file, c->line);
	}
	for (i = 0; i < r->nr_ioctls; i++) {
		const struct kd_ioctl *io = &r->ioctls[i];

		printf("ioctl\t%s\t", io->name);
		if (io->has_cmd)
			printf("%" PRIu32, io->cmd);
		else
			printf("-");
		printf("\t%s\t%d\t%d\t", io->dir, io->type_char, io->nr);
		if (io->has_size)
			printf("%" PRId64, io->size);
		else
			printf("-");
		printf("\t%d\t%s\t%s\t%s:%d\n", io->size_trusted, io->arg_type_text ? io->arg_type_text : "",
		       r->ioctl_roots[i], io->file, io->line);
	}
	for (i = 0; i < r->nr_problems; i++)
		printf("problem\t%s\t%s\n", r->problems[i].location ? r->problems[i].location : "",
		       r->problems[i].message);
	printf("stats\theaders=%" PRId64 " constants=%" PRId64 " ioctls=%" PRId64 " unsized=%" PRId64
	       " skipped=%" PRId64 " problems=%" PRId64 "\n", r->stats.headers, r->stats.constants,
	       r->stats.ioctls, r->stats.ioctls_unsized, r->stats.skipped, r->stats.problems);
	uapi_result__free(r);
	for (i = 0; i < sz.n; i++)
		free(sz.names[i]);
	free(sz.names);
	free(sz.sizes);
	return 0;
}


/* --- the evaluator alone ---------------------------------------------------- */
static const struct {
	const char *expr;
	uint64_t value;
	const char *ctype;
} exprs[] = {
	{ "0x40", 64, "int" },
	{ "(1U << 31)", 2147483648u, "unsigned int" },
	{ "~0", (uint64_t)-1, "int" },
	{ "-1UL", UINT64_MAX, "unsigned long" },
	{ "-1LL", (uint64_t)-1, "long long" },
	{ "0xffffffff", 4294967295u, "unsigned int" },
	{ "4294967295", 4294967295u, "long" },
	{ "0x7fffffffffffffff", INT64_MAX, "long" },
	{ "0x8000000000000000", 1ULL << 63, "unsigned long" },
	{ "1 << 31", (uint64_t)(int64_t)INT32_MIN, "int" },
	{ "'\\x80'", (uint64_t)-128, "int" },
	{ "'\\0'", 0, "int" },
	{ "'\\177'", 127, "int" },
	{ "('a' << 8) | 'b'", 0x6162, "int" },
	{ "(unsigned short)-1", 65535, "unsigned short" },
	{ "~(unsigned short)0", (uint64_t)-1, "int" },
	{ "~(unsigned short)0xffff", (uint64_t)-65536, "int" },
	{ "(char)200", (uint64_t)-56, "char" },
	{ "(long)1 + 1U", 2, "long" },
	{ "1U + -2", 4294967295u, "unsigned int" },
	{ "1UL > -1", 0, "int" },
	{ "1L > -1", 1, "int" },
	{ "0 ? 1U : -1", 4294967295u, "unsigned int" },
	{ "1 ? 2 : (1 / 0)", 2, "int" },
	{ "-5 / 2 * 2 + -5 % 2", (uint64_t)-5, "int" },
	{ "(unsigned int)-1 >> 28", 15, "unsigned int" },
	{ "-1 >> 28", (uint64_t)-1, "int" },
	{ "!5 + !0", 1, "int" },
	{ "3 & 6 ^ 1 | 8", 11, "int" },
	{ "1 + 2 * 3 << 1", 14, "int" },
	{ "(1, 2)", 2, "int" },
	{ "sizeof(unsigned long long)", 8, "unsigned long" },
	{ "sizeof(char *)", 8, "unsigned long" },
	{ "sizeof(__u16[3])", 6, "unsigned long" },
	{ "(__u64)1 << 40", 1ULL << 40, "unsigned long long" },
	{ "0b101", 5, "int" },
	/* <linux/swab.h>'s shape: the builtin picks the arm, the call is never evaluated. */
	{ "(__u16)(__builtin_constant_p(0x8000) ? (__u16)((0x8000 & 0xff) << 8 | 0x8000 >> 8)"
	  " : __fswab16(0x8000))", 0x80, "unsigned short" },
	{ "__builtin_constant_p(1 + 2)", 1, "int" },
	{ "__builtin_constant_p(nothing)", 0, "int" },
	{ "__builtin_constant_p(f(1))", 0, "int" },
	{ "__builtin_constant_p(1 / 0)", 0, "int" },
	{ "0 ? unknown_name : 3", 3, "int" },
	{ "__builtin_bswap16(0x1234)", 0x3412, "unsigned short" },
	{ "__builtin_bswap32(0x12345678)", 0x78563412, "unsigned int" },
	{ "__builtin_bswap64(1)", 1ULL << 56, "unsigned long" },
};

static const char *const bad_exprs[] = {
	"1 / 0", "1 << 32", "1 << -1", "\"str\"", "foo + 1", "(void *)0", "1 +", "(1", "1.5",
	"sizeof(struct nowhere)", "099", "0x1g", "f(1)", "1 ? f(1) : 0", "1 ? unknown_name : 0",
	"__builtin_constant_p(1", "__builtin_bswap16(1 2)",
};

/* utypedef_scan(): "name=keyword tag;" for each typedef of a tag to a plain name. */
static int on_typedef(const struct utok *name, const struct utok *keyword, const struct utok *tag,
		      void *ctx)
{
	return kd_buf_addf(ctx, "%.*s=%.*s %.*s;", (int)name->len, name->s, (int)keyword->len,
			   keyword->s, (int)tag->len, tag->s);
}

static void typedefs_are(const char *text, const char *want, const char *what)
{
	struct kd_buf b = KD_BUF_INIT;
	struct ufile *f = NULL;
	int err = ufile__from_text(text, "linux/t.h", &f);

	if (!err)
		err = kd_buf_addf(&b, "%s", "");
	if (!err)
		err = utypedef_scan(f, on_typedef, &b);
	is_int(err, 0, what);
	is_str(b.s, want, what);
	kd_buf_release(&b);
	ufile__free(f);
}

static void test_typedefs(void)
{
	typedefs_are("typedef struct atreq {\n\t__s32 atr_len;\n\tunsigned char atr[64];\n} atreq_t;\n"
		     "typedef struct ptsreq { struct { int x; } in; } ptsreq_t, *pptsreq_t, ptsv_t[2];\n",
		     "atreq_t=struct atreq;ptsreq_t=struct ptsreq;",
		     "cm4000_cs.h's typedefs: a plain name of each tag, not its pointer or array");
	typedefs_are("typedef union u u_t;\ntypedef enum e { A = 1 } e_t;\n#if 0\ntypedef struct h h_t;\n#endif\n"
		     "typedef struct { int a; } anon_t;\ntypedef int i_t;\nstruct s { int a; };\n",
		     "u_t=union u;e_t=enum e;h_t=struct h;",
		     "declarations of a tag, under a false #if too; no tag or no tagged type: nothing");
	typedefs_are("typedef struct x { int a; ", "", "an unterminated body ends the scan");
	typedefs_are("typedef struct x y typedef struct z { } w;", "w=struct z;",
		     "a typedef without its ';' names nothing");
}

static int eval_str(const char *s, bool pp, struct uval *v, const char **why)
{
	struct kd_arena arena = KD_ARENA_INIT;
	struct usizer sz = { .arena = &arena };
	struct ueval e = { .pp = pp, .sizer = &sz };
	struct utoks t = { 0 };
	int err;

	err = ulex(s, strlen(s), &t);
	if (!err)
		err = ueval(&e, t.v, t.n, v);
	*why = e.error;
	utoks_release(&t);
	umap_release(&sz.cache);
	kd_arena_release(&arena);
	return err;
}

static void test_eval(void)
{
	struct uval v;
	const char *why;
	size_t i;

	for (i = 0; i < sizeof(exprs) / sizeof(*exprs); i++) {
		int err = eval_str(exprs[i].expr, false, &v, &why);

		ok(!err && v.v == exprs[i].value && !strcmp(uval_type(&v), exprs[i].ctype),
		   "%s = %llu (%s), got %llu (%s)%s%s", exprs[i].expr,
		   (unsigned long long)exprs[i].value, exprs[i].ctype, (unsigned long long)v.v,
		   err ? "-" : uval_type(&v), why ? ": " : "", why ? why : "");
	}
	for (i = 0; i < sizeof(bad_exprs) / sizeof(*bad_exprs); i++)
		ok(eval_str(bad_exprs[i], false, &v, &why) == -EINVAL && why,
		   "'%s' is not a constant (%s)", bad_exprs[i], why ? why : "no reason");
	/* #if arithmetic is intmax_t: no 32-bit wrap, identifiers are 0. */
	ok(!eval_str("(1 << 31) > 0", true, &v, &why) && v.v == 1, "#if: 1 << 31 is positive");
	ok(!eval_str("UNDEFINED_NAME == 0", true, &v, &why) && v.v == 1, "#if: identifiers are 0");
	ok(!eval_str("-1 < 0U", true, &v, &why) && v.v == 0, "#if: -1 < 0U is false (unsigned)");
}

/* --- the fixture trees ------------------------------------------------------ */
static int fixture_sizes(const char *type, struct uapi_type_info *info, void *ctx)
{
	int *calls = ctx;

	(*calls)++;
	if (!strcmp(type, "struct fx_args")) {
		info->size = 16;
		info->type_id = 7;
		return 1;
	}
	if (!strcmp(type, "struct fx_big")) {
		info->size = 100;
		info->module_id = 3;
		return 1;
	}
	return 0;
}

static const struct {
	const char *name;
	uint64_t value;
	const char *ctype;
	const char *file;
	int line;
} want_consts[] = {
	{ "FX_HEX", 64, "int", "linux/fx.h", 15 },
	{ "FX_OCT", 493, "int", "linux/fx.h", 16 },
	{ "FX_DEC", (uint64_t)-42, "int", "linux/fx.h", 17 },
	{ "FX_BIT31", 2147483648u, "unsigned int", "linux/fx.h", 18 },
	{ "FX_INT_MIN_WRAP", (uint64_t)(int64_t)INT32_MIN, "int", "linux/fx.h", 19 },
	{ "FX_NOT0", (uint64_t)-1, "int", "linux/fx.h", 20 },
	{ "FX_MINUS1UL", UINT64_MAX, "unsigned long", "linux/fx.h", 21 },
	{ "FX_ALL_ULL", UINT64_MAX, "unsigned long long", "linux/fx.h", 22 },
	{ "FX_BIG_HEX", UINT64_MAX, "unsigned long", "linux/fx.h", 23 },
	{ "FX_HEX_UINT", 2147483648u, "unsigned int", "linux/fx.h", 24 },
	{ "FX_DEC_LONG", 2147483648u, "long", "linux/fx.h", 25 },
	{ "FX_LONG_NEG", (uint64_t)(int64_t)INT32_MIN, "long", "linux/fx.h", 26 },
	{ "FX_LL", 5, "long long", "linux/fx.h", 27 },
	{ "FX_CHAR", 100, "int", "linux/fx.h", 28 },
	{ "FX_CHAR_NL", 10, "int", "linux/fx.h", 29 },
	{ "FX_CHAR_HEX", (uint64_t)-1, "int", "linux/fx.h", 30 },
	{ "FX_CHAR_SHIFT", 25600, "int", "linux/fx.h", 31 },
	{ "FX_FLAGS", 5, "int", "linux/fx.h", 32 },
	{ "FX_CONT", 21, "int", "linux/fx.h", 35 },
	{ "FX_COMMENT", 7, "int", "linux/fx.h", 39 },
	{ "FX_CAST_INT", (uint64_t)-1, "int", "linux/fx.h", 40 },
	{ "FX_CAST_U32", 4294967295u, "unsigned int", "linux/fx.h", 41 },
	{ "FX_CAST_U8", 255, "unsigned char", "linux/fx.h", 42 },
	{ "FX_CAST_S16", (uint64_t)-32768, "short", "linux/fx.h", 43 },
	{ "FX_CAST_UL", UINT64_MAX, "unsigned long", "linux/fx.h", 44 },
	{ "FX_BITUL5", 32, "unsigned long", "linux/fx.h", 45 },
	{ "FX_BITULL63", 1ULL << 63, "unsigned long long", "linux/fx.h", 46 },
	{ "FX_TERNARY", 10, "unsigned int", "linux/fx.h", 47 },
	{ "FX_CMP", 1, "int", "linux/fx.h", 48 },
	{ "FX_LOGIC", 0, "int", "linux/fx.h", 49 },
	{ "FX_DIV", (uint64_t)-3, "int", "linux/fx.h", 50 },
	{ "FX_MOD", (uint64_t)-1, "int", "linux/fx.h", 51 },
	{ "FX_SHR_NEG", (uint64_t)-4, "int", "linux/fx.h", 52 },
	{ "FX_MIX", 2, "long", "linux/fx.h", 53 },
	{ "FX_MIX2", 2, "unsigned long long", "linux/fx.h", 54 },
	{ "FX_MIX3", 0, "int", "linux/fx.h", 55 },
	{ "FX_SIZEOF", 16, "unsigned long", "linux/fx.h", 56 },
	{ "FX_SIZEOF_INT", 4, "unsigned long", "linux/fx.h", 57 },
	{ "FX_BITS_LONG", 64, "int", "linux/fx.h", 58 },
	{ "FX_ALIAS", 64, "int", "linux/fx.h", 59 },
	{ "FX_WORD", 8, "int", "linux/fx.h", 62 },
	{ "FX_X86_64", 1, "int", "linux/fx.h", 70 },
	{ "FX_NESTED", 2, "int", "linux/fx.h", 82 },
	{ "FX_USE_FUNC", 42, "int", "linux/fx.h", 94 },
	{ "FX_IOCTL_BASE", 70, "int", "linux/fx.h", 107 },
	{ "FX_ARCH", 0x86, "int", "asm/fx_arch.h", 5 },
	{ "__BITS_PER_LONG", 64, "int", "asm/bitsperlong.h", 6 },
	{ "_IOC_READ", 2, "unsigned int", "asm-generic/ioctl.h", 29 },
	{ "_IOC_DIRSHIFT", 30, "int", "asm-generic/ioctl.h", 20 },
	{ "IOC_OUT", 2147483648u, "unsigned int", "asm-generic/ioctl.h", 44 },
	{ "FX_BAD_BEFORE", 1, "int", "linux/fx_bad.h", 3 },
	{ "FX_BAD_INSIDE", 2, "int", "linux/fx_bad.h", 5 },
	{ "FX_BAD_AFTER", 3, "int", "linux/fx_bad.h", 10 },
};

static const char *const absent[] = {
	"FX_KERNEL_ONLY", "FX_DEAD", "FX_GONE", "FX_STRING", "FX_FUNC", "FX_UNKNOWN", "FX_PTR",
	"FX_EMPTY", "FX_LINUX_FX_H", "_IOR", "FX_IO",
};

static const struct {
	const char *name, *dir;
	int type, nr;
	int64_t size;	/* -1: unknown */
	int64_t cmd;	/* -1: unknown */
	const char *arg;
	int line;
} want_ioctls[] = {
	{ "FX_IOC_NONE", "none", 'F', 1, 0, 0x4601, NULL, 111 },
	{ "FX_IOC_GET", "r", 'F', 2, 16, 0x80104602, "struct fx_args", 112 },
	{ "FX_IOC_SET", "w", 'F', 3, 16, 0x40104603, "struct fx_args", 113 },
	{ "FX_IOC_XCHG", "rw", 'F', 4, 100, 0xc0644604, "struct fx_big", 114 },
	{ "FX_IOC_INT", "w", 'F', 5, 4, 0x40044605, "int", 115 },
	{ "FX_IOC_ULONG", "r", 'F', 6, 8, 0x80084606, "unsigned long", 116 },
	{ "FX_IOC_U32", "r", 'F', 7, 4, 0x80044607, "__u32", 117 },
	{ "FX_IOC_PTR", "w", 'F', 8, 8, 0x40084608, "char *", 118 },
	{ "FX_IOC_ARR", "r", 'F', 9, 16, 0x80104609, "__u8[16]", 119 },
	{ "FX_IOC_RAW", "rw", 'F', 10, 24, 0xc018460a, NULL, 120 },
	{ "FX_IOC_RAWSZ", "r", 'F', 11, 16, 0x8010460b, NULL, 121 },
	{ "FX_IOC_NESTED", "none", 'F', 12, 0, 0x460c, NULL, 122 },
	{ "FX_IOC_UNSIZED", "r", 'F', 13, -1, -1, "struct fx_unknown_to_dwarf", 123 },
	{ "FX_IOC_ALIAS", "r", 'F', 2, 16, 0x80104602, "struct fx_args", 124 },
	{ "FX_IOC_PAREN", "r", 'F', 14, 16, 0x8010460e, "struct fx_args", 125 },
	{ "FX_ARCH_IOC", "none", 'A', 6, 0, 0x4106, NULL, 6 },
};

static const struct kd_constant *find_const(const struct uapi_result *r, const char *name)
{
	return KD_FIND_NAMED(const struct kd_constant, r->consts, r->nr_consts, name, name);
}

static const struct kd_ioctl *find_ioctl(const struct uapi_result *r, const char *name)
{
	return KD_FIND_NAMED(const struct kd_ioctl, r->ioctls, r->nr_ioctls, name, name);
}

static bool has_problem(const struct uapi_result *r, const char *loc, const char *msg)
{
	size_t i;

	for (i = 0; i < r->nr_problems; i++)
		if (r->problems[i].location && !strcmp(r->problems[i].location, loc) &&
		    strstr(r->problems[i].message, msg))
			return true;
	return false;
}

static void check_ioctl(const struct uapi_result *r, size_t i, const char *tree)
{
	const struct kd_ioctl *io = find_ioctl(r, want_ioctls[i].name);
	bool sized = want_ioctls[i].size >= 0;

	ok(io, "%s: ioctl %s found", tree, want_ioctls[i].name);
	if (!io)
		return;
	ok(!strcmp(io->dir, want_ioctls[i].dir) && io->type_char == want_ioctls[i].type &&
	   io->nr == want_ioctls[i].nr, "%s: %s dir %s type %d nr %d (got %s %d %d)", tree,
	   io->name, want_ioctls[i].dir, want_ioctls[i].type, want_ioctls[i].nr, io->dir,
	   io->type_char, io->nr);
	ok(io->has_size == sized && (!sized || io->size == want_ioctls[i].size) &&
	   io->size_trusted == sized && io->has_cmd == sized &&
	   (!sized || io->cmd == (uint32_t)want_ioctls[i].cmd),
	   "%s: %s size %lld cmd %#llx (got %s%lld, %s%#x)", tree, io->name,
	   (long long)want_ioctls[i].size, (long long)want_ioctls[i].cmd, io->has_size ? "" : "none ",
	   (long long)io->size, io->has_cmd ? "" : "none ", io->cmd);
	ok(want_ioctls[i].arg ? io->arg_type_text && !strcmp(io->arg_type_text, want_ioctls[i].arg)
	   : !io->arg_type_text, "%s: %s argument type '%s' (got '%s')", tree, io->name,
	   want_ioctls[i].arg ? want_ioctls[i].arg : "", io->arg_type_text ? io->arg_type_text : "");
	is_int(io->line, want_ioctls[i].line, "ioctl line");
}

static void test_tree(const char *rel, bool source)
{
	struct kd_buf dir = KD_BUF_INIT;
	struct uapi_result *r = NULL;
	int calls = 0, err;
	size_t i;

	kd_buf_addf(&dir, "%s/fixtures/uapi/%s", tap_srcdir(), rel);
	err = uapi__scan(dir.s, NULL, &(struct uapi_lookup){ .size = fixture_sizes, .ctx = &calls }, &r);
	is_int(err, 0, "scan succeeds");
	if (err)
		goto out;
	for (i = 0; i < sizeof(want_consts) / sizeof(*want_consts); i++) {
		const struct kd_constant *c = find_const(r, want_consts[i].name);

		ok(c && (uint64_t)c->value == want_consts[i].value && !strcmp(c->ctype, want_consts[i].ctype) &&
		   !strcmp(c->file, want_consts[i].file) && c->line == want_consts[i].line,
		   "%s: %s = %llu (%s) at %s:%d; got %llu (%s) at %s:%d", rel, want_consts[i].name,
		   (unsigned long long)want_consts[i].value, want_consts[i].ctype, want_consts[i].file,
		   want_consts[i].line, c ? (unsigned long long)c->value : 0ULL, c ? c->ctype : "-",
		   c ? c->file : "-", c ? c->line : 0);
	}
	for (i = 0; i < sizeof(absent) / sizeof(*absent); i++)
		ok(!find_const(r, absent[i]) && !find_ioctl(r, absent[i]), "%s: no %s", rel, absent[i]);
	for (i = 0; i < sizeof(want_ioctls) / sizeof(*want_ioctls); i++)
		check_ioctl(r, i, rel);
	ok(find_const(r, "FX_SRC_ONLY") ? source : !source, "%s: FX_SRC_ONLY %s", rel,
	   source ? "present" : "absent");
	is_str(find_const(r, "FX_CONT")->expr, "(FX_A | FX_B | 0x10)", "expr: continuation lines joined, comment dropped");
	is_int(r->stats.constants, (int64_t)r->nr_consts, "stats: constants");
	is_int(r->stats.ioctls, 16, "stats: ioctls");
	is_int(r->stats.ioctls_unsized, 1, "stats: one ioctl without size");
	is_int(r->stats.skipped, 3, "stats: skipped FX_STRING, FX_UNKNOWN, FX_PTR");
	is_int(calls, 3, "sizeof callback asked once per type (fx_args, fx_big, fx_unknown_to_dwarf)");
	ok(has_problem(r, "linux/fx_bad.h:7", "#endif without #if"), "%s: problem at fx_bad.h:7", rel);
	ok(has_problem(r, "linux/fx_bad.h:9", "#if without #endif"), "%s: problem at fx_bad.h:9", rel);
	ok(has_problem(r, "linux/fx_bad.h:8", "asm/fx_generated.h"), "%s: missing include reported", rel);
	ok(has_problem(r, "linux/fx.h:123", "struct fx_unknown_to_dwarf"), "%s: unsized ioctl reported", rel);
	/* No silent hole: each macro that is no constant is a problem row saying why. */
	ok(has_problem(r, "linux/fx.h:89", "FX_STRING: not an integer constant (string)"),
	   "%s: FX_STRING is a string", rel);
	ok(has_problem(r, "linux/fx.h:91", "FX_UNKNOWN: not an integer constant: FX_NOT_DEFINED_ANYWHERE"
		       " is defined neither by the header, what it includes, nor as a constant of the tree"),
	   "%s: FX_UNKNOWN names the identifier", rel);
	ok(has_problem(r, "linux/fx.h:92", "FX_PTR: not an integer constant: cast to a non-integer type"),
	   "%s: FX_PTR is a pointer", rel);
	is_int(r->nr_problems, 7, "no other problems (compiler.h dropped in source trees)");
	is_int(find_ioctl(r, "FX_IOC_GET")->arg_type, 7, "type id from the callback");
	is_int(find_ioctl(r, "FX_IOC_XCHG")->module_id, 3, "module id from the callback");
out:
	uapi_result__free(r);
	kd_buf_release(&dir);
}

/* The source tree as aarch64 user space sees it: arch/arm64, unsigned char and wchar_t. */
static void test_arm64_tree(void)
{
	static const struct {
		const char *name;
		uint64_t value;
		const char *ctype, *file;
	} want[] = {
		{ "FX_ARCH", 0xa64, "int", "asm/fx_arch.h" },
		{ "FX_AARCH64", 1, "int", "asm/fx_arch.h" },
		{ "FX_CHAR_UNSIGNED", 1, "int", "asm/fx_arch.h" },
		{ "FX_CAST_CHAR", 200, "char", "asm/fx_arch.h" },
		{ "FX_CHAR_CMP", 1, "int", "asm/fx_arch.h" },
		{ "FX_WCHAR", 0xffffffff, "unsigned int", "asm/fx_arch.h" },
		{ "FX_OLD_DEV", 4, "unsigned long", "asm/fx_arch.h" },
		{ "FX_CHAR_HEX", 255, "int", "linux/fx.h" },		/* -1 on x86_64 */
		{ "FX_X86_64", (uint64_t)-1, "int", "linux/fx.h" },
		{ "FX_WORD", 8, "int", "linux/fx.h" },
	};
	struct kd_buf dir = KD_BUF_INIT;
	struct uapi_result *r = NULL;
	const struct kd_ioctl *io;
	int calls = 0, err;
	size_t i;

	kd_buf_addf(&dir, "%s/fixtures/uapi/source/include", tap_srcdir());
	err = uapi__scan(dir.s, kd_arch__by_name("arm64"),
			 &(struct uapi_lookup){ .size = fixture_sizes, .ctx = &calls }, &r);
	is_int(err, 0, "arm64: scan succeeds");
	if (err)
		goto out;
	for (i = 0; i < sizeof(want) / sizeof(*want); i++) {
		const struct kd_constant *c = find_const(r, want[i].name);

		ok(c && (uint64_t)c->value == want[i].value && !strcmp(c->ctype, want[i].ctype) &&
		   !strcmp(c->file, want[i].file), "arm64: %s = %llu (%s) in %s; got %llu (%s) in %s",
		   want[i].name, (unsigned long long)want[i].value, want[i].ctype, want[i].file,
		   c ? (unsigned long long)c->value : 0ULL, c ? c->ctype : "-", c ? c->file : "-");
	}
	io = find_ioctl(r, "FX_IOC_OLD_DEV");
	ok(io && io->cmd == 0x80044102 && io->size == 4, "arm64: _IOR('A', 2, __kernel_old_dev_t) is"
	   " 0x80044102 (4 bytes)");
	ok(find_const(r, "FX_SRC_ONLY") != NULL, "arm64: the generic headers are read too");
	uapi_result__free(r);
	r = NULL;
	/* The same tree for x86_64: its own asm/ and signed char. */
	err = uapi__scan(dir.s, kd_arch__by_name("x86_64"),
			 &(struct uapi_lookup){ .size = fixture_sizes, .ctx = &calls }, &r);
	ok(!err && find_const(r, "FX_ARCH") && find_const(r, "FX_ARCH")->value == 0x86 &&
	   (int64_t)find_const(r, "FX_CHAR_HEX")->value == -1 && !find_const(r, "FX_AARCH64"),
	   "x86_64 view of the same tree: arch/x86 and signed char");
out:
	uapi_result__free(r);
	kd_buf_release(&dir);
}

/*
 * Heap bytes in use (glibc's main arena). A leak on an error path shows
 * here without a sanitizer: under ASan, whose allocator glibc does not
 * see, it stays 0 and LeakSanitizer reports the leak itself.
 */
static size_t heap_in_use(void)
{
	return mallinfo2().uordblks;
}

static void test_not_a_tree(void)
{
	struct kd_buf dir = KD_BUF_INIT;
	struct uapi_result *r = NULL;
	size_t before;
	int i, bad = 0;

	kd_log_set_level(KD_LOG_QUIET);
	kd_buf_addf(&dir, "%s/fixtures/uapi", tap_srcdir());
	is_int(uapi__scan(dir.s, NULL, NULL, &r), -KD_EFORMAT, "a directory that is no UAPI tree");
	ok(!r, "no result");
	is_int(uapi__scan("/nonexistent/kabi", NULL, NULL, &r), -ENOTDIR, "a missing directory");
	/* The refusals free what they allocate (a missing directory leaked 81 bytes of heap a scan). */
	before = heap_in_use();
	for (i = 0; i < 100; i++) {
		bad += uapi__scan(dir.s, NULL, NULL, &r) != -KD_EFORMAT || r;
		bad += uapi__scan("/nonexistent/kabi", kd_arch__by_name("arm64"), NULL, &r) != -ENOTDIR || r;
	}
	is_int(bad, 0, "100 more refusals of each");
	is_int((int64_t)(heap_in_use() - before), 0, "  heap in use after them: unchanged (bytes)");
	kd_log_set_level(KD_LOG_WARN);
	kd_buf_release(&dir);
}

/* --- into a .kabi and back ----------------------------------------------------- */
static int got_const(const struct kd_constant *c, void *ctx)
{
	struct kd_constant *out = ctx;

	out->value = c->value;
	out->line = c->line;
	out->enum_type = c->enum_type;
	out->ctype = !strcmp(c->ctype, "unsigned long") ? "unsigned long" : "other";
	is_str(c->file, "linux/fx.h", "db: file");
	return 0;
}

static int got_ioctl(const struct kd_ioctl *io, void *ctx)
{
	int *n = ctx;

	if (!strcmp(io->name, "FX_IOC_XCHG")) {
		is_str(io->dir, "rw", "db: ioctl dir");
		ok(io->has_cmd && io->cmd == 0xc0644604u, "db: ioctl cmd %#x", io->cmd);
		ok(io->has_size && io->size == 100 && io->size_trusted, "db: ioctl size");
		is_str(io->arg_type_text, "struct fx_big", "db: ioctl type text");
	}
	if (!strcmp(io->name, "FX_IOC_UNSIZED"))
		ok(!io->has_size && !io->has_cmd && !io->size_trusted, "db: unsized ioctl has NULL size and cmd");
	(*n)++;
	return 0;
}

static void test_db(void)
{
	struct kd_buf dir = KD_BUF_INIT, path = KD_BUF_INIT;
	struct uapi_stats st = { 0 };
	struct kd_enumerator en = { .name = "FX_HEX", .value = 64 };
	struct kd_type t = { .id = 1, .kind = KD_KIND_ENUM, .name = "fx_enum", .size = 4, .align = 4,
			     .nr_enumerators = 1, .enumerators = &en };
	struct kd_constant c = { 0 };
	struct kdb *db = NULL;
	int calls = 0, n = 0;

	kd_buf_addf(&dir, "%s/fixtures/uapi/installed", tap_srcdir());
	kd_buf_addf(&path, "%s/uapi.kabi", tap_tmpdir());
	if (kdb__create(path.s, &db)) {
		ok(0, "create %s", path.s);
		goto out;
	}
	is_int(uapi__extract(db, dir.s, NULL, &(struct uapi_lookup){ .size = fixture_sizes, .ctx = &calls }, &st), 0, "extract into a DB");
	is_int(st.ioctls, 16, "extract stats: ioctls");
	is_int(kdb__put_type(db, &t), 0, "an enum with an enumerator FX_HEX");
	is_int(kdb__link_constants_to_enums(db), 1, "one constant linked to an enumerator");
	is_int(kdb__commit(db), 0, "commit");
	kdb__free(db);
	db = NULL;
	if (kdb__open(path.s, &db)) {
		ok(0, "reopen");
		goto out;
	}
	is_int(kdb__count(db, "constants"), st.constants, "constants rows");
	is_int(kdb__count(db, "ioctls"), 16, "ioctls rows");
	is_int(kdb__count(db, "problems"), st.problems, "problems rows");
	is_int(kdb__get_constant(db, "FX_MINUS1UL", got_const, &c), 0, "get FX_MINUS1UL");
	ok((uint64_t)c.value == UINT64_MAX, "db: -1UL read back as 18446744073709551615 via ctype");
	is_str(c.ctype, "unsigned long", "db: ctype");
	is_int(c.enum_type, 0, "db: FX_MINUS1UL is no enumerator");
	is_int(c.line, 21, "db: line");
	is_int(kdb__get_constant(db, "FX_NOPE", got_const, &c), -ENOENT, "get an absent constant");
	is_int(kdb__get_ioctl(db, "FX_IOC_XCHG", got_ioctl, &n), 0, "get FX_IOC_XCHG");
	is_int(kdb__get_ioctl(db, "FX_IOC_UNSIZED", got_ioctl, &n), 0, "get FX_IOC_UNSIZED");
	n = 0;
	is_int(kdb__foreach_ioctl(db, NULL, got_ioctl, &n), 0, "walk ioctls");
	is_int(n, 16, "walk saw every ioctl");
	c.enum_type = 0;
	is_int(kdb__get_constant(db, "FX_HEX", got_const, &c), 0, "get FX_HEX");
	is_int(c.enum_type, 1, "db: FX_HEX linked to the enum with that enumerator");
out:
	kdb__free(db);
	kd_buf_release(&dir);
	kd_buf_release(&path);
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--dump")) {
		const char *sizes = NULL, *arch = NULL;
		int i;

		for (i = 3; i + 1 < argc; i += 2) {
			if (!strcmp(argv[i], "--sizes"))
				sizes = argv[i + 1];
			else if (!strcmp(argv[i], "--arch"))
				arch = argv[i + 1];
		}
		return dump(argv[2], sizes, arch);
	}
	test_eval();
	test_typedefs();
	test_tree("installed", false);
	test_tree("source/include", true);
	test_tree("source", true);
	test_arm64_tree();
	test_not_a_tree();
	test_db();
	return tap_done();
}

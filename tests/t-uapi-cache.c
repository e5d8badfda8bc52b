// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the UAPI compile cache's parts (issue 25, R29): the
 * dependency file reader keeps relative names, the index parser refuses
 * whatever it would not write and reads back what it writes, files are
 * hashed without blocking and within a bound, and a tree's key covers
 * dot-files and directories reached through links (each walked once, a
 * loop too) while staying the same for a copy of the tree elsewhere. A
 * hit's private copy of the object is removed when a fatal signal stops
 * the process (redteam R40: its directory was not registered). Pruning
 * keeps the newest entries, stale ones first out, each object with its index.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "extract/uapi/compile_internal.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/tmpfile.h"
#include "tests/tap.h"

/* --- dependency files ------------------------------------------------------------ */

static int collect(const char *path, void *ctx)
{
	struct kd_buf *b = ctx;

	return kd_buf_addf(b, "[%s]", path);
}

static void test_parse_deps(void)
{
	struct kd_buf got = KD_BUF_INIT;

	is_int(uapi_cc_parse_deps("/w/b0.o: /w/b0.c t/linux/a.h \\\n t/linux/../../side.h \\\n"
				  " /usr/include/stdc-predef.h t/linux/two\\ words.h\n", collect, &got),
	       0, "parse_deps: 0");
	is_str(got.s, "[/w/b0.c][t/linux/a.h][t/linux/../../side.h][/usr/include/stdc-predef.h]"
		      "[t/linux/two words.h]",
	       "  every prerequisite, relative ones too (a tree given by a relative path), none dropped");
	kd_buf_release(&got);
}

/* --- the index ------------------------------------------------------------------- */

static const char good_index[] =
	"kabi-diff uapi-cc 2\n"
	"headers 3\n"
	"compiled 2\n"
	"object 00000000deadbeef 1568152\n"
	"dep 3c34673a31f7cfb2 2462 /usr/include/stdc-predef.h\n"
	"tdep 7ad2e572923e1abf 1875 0 linux/types.h\n"
	"tdep 0123456789abcdef 12 1 linux/../../side.h\n"
	"fail linux/bad.h\tlinux/bad.h:1:10: fatal error: x.h: No such file or directory\n";

/* Parse @text (@len bytes); the result, and @ix filled when 1. */
static int parse(const char *text, size_t len, struct uapi_cc_index *ix)
{
	return uapi_cc_index__parse(text, len, ix);
}

static void test_index(void)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "kabi-diff uapi-cc 1\nheaders 3\ncompiled 2\nobject no\n", "the format before" },
		{ "kabi-diff uapi-cc 2\nheaders 3\ncompiled 2\n", "no object line" },
		{ "kabi-diff uapi-cc 2\nobject no\nobject no\n", "two object lines" },
		{ "kabi-diff uapi-cc 2\nobject no", "no newline at the end" },
		{ "kabi-diff uapi-cc 2\nobject no\n\n", "an empty line" },
		{ "kabi-diff uapi-cc 2\nobject no\nwhat 1\n", "an unknown line" },
		{ "kabi-diff uapi-cc 2\nheaders 2\ncompiled 3\nobject no\n", "more compiled than headers" },
		{ "kabi-diff uapi-cc 2\nheaders 99999999999999999999\nobject no\n", "a count past 64 bits" },
		{ "kabi-diff uapi-cc 2\nheaders -1\nobject no\n", "a negative count" },
		{ "kabi-diff uapi-cc 2\nheaders 1x\nobject no\n", "a count with a tail" },
		{ "kabi-diff uapi-cc 2\nobject DEADBEEF00000000 5\n", "a hash in capitals" },
		{ "kabi-diff uapi-cc 2\nobject deadbeef 5\n", "a hash of 8 digits" },
		{ "kabi-diff uapi-cc 2\nobject yes\n", "the object of format 1" },
		{ "kabi-diff uapi-cc 2\nobject no\ndep 3c34673a31f7cfb2 2 usr/x.h\n", "a relative dep" },
		{ "kabi-diff uapi-cc 2\nobject no\ntdep 3c34673a31f7cfb2 2 0 /x.h\n", "an absolute tdep" },
		{ "kabi-diff uapi-cc 2\nobject no\ntdep 3c34673a31f7cfb2 2 64 x.h\n", "a tdep's directory 64" },
		{ "kabi-diff uapi-cc 2\nobject no\ntdep 3c34673a31f7cfb2 2 0 \n", "a tdep without a name" },
		{ "kabi-diff uapi-cc 2\nobject no\nfail linux/a.h\n", "a failure without a message" },
		{ "kabi-diff uapi-cc 2\nobject no\nfail \tmessage\n", "a failure without a header" },
		{ "kabi-diff uapi-cc 2\nobject no\nfail a.h\tb\tc\n", "a failure of three fields" },
		{ "kabi-diff uapi-cc 2\r\nobject no\r\n", "CRLF" },
	};
	struct uapi_cc_index ix;
	struct kd_buf out = KD_BUF_INIT;
	char with_nul[] = "kabi-diff uapi-cc 2\nobject no\ndep 3c34673a31f7cfb2 2 /x\0y\n";
	size_t i, refused = 0;

	is_int(parse(good_index, strlen(good_index), &ix), 1, "index: a valid one parses");
	is_int(ix.nr_headers * 100 + ix.nr_compiled * 10 + ix.nr_failures, 321,
	       "  3 headers, 2 compiled, 1 failure");
	ok(ix.has_object && ix.object_hash == 0xdeadbeef && ix.object_size == 1568152,
	   "  the object's hash and size");
	ok(ix.nr_deps == 3 && ix.deps[0].dir == -1 && ix.deps[1].dir == 0 && ix.deps[2].dir == 1 &&
	   !strcmp(ix.deps[2].path, "linux/../../side.h") && ix.deps[2].size == 12,
	   "  an absolute dependency and two of the tree's directories");
	is_int(uapi_cc_index__format(&ix, &out), 0, "  formatted again: 0");
	is_str(out.s, good_index, "  the same text");
	uapi_cc_index__release(&ix);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = parse(bad[i].text, strlen(bad[i].text), &ix);

		if (rc != 0)
			printf("# %s: %d\n", bad[i].why, rc);
		refused += rc == 0 && !ix.deps && !ix.failures;
	}
	is_int(refused, sizeof(bad) / sizeof(bad[0]), "index: every damaged one refused, nothing kept");
	is_int(parse(with_nul, sizeof(with_nul) - 1, &ix), 0, "index: a NUL byte inside: refused");
	is_int(parse("", 0, &ix), 0, "index: an empty file: refused");
	kd_buf_release(&out);
}

/* --- file hashes ----------------------------------------------------------------- */

static void test_file_hash(void)
{
	char *path = tap_write_tmp("hash-me", "0123456789"), *fifo = tap_tmp_path("fifo");
	uint64_t h1 = 0, h2 = 1, n = 0;

	is_int(uapi_cc_file_hash(path, 10, &h1, &n), 0, "file_hash: 10 bytes, at most 10: 0");
	is_int(n, 10, "  its size");
	is_int(uapi_cc_file_hash(path, UINT64_MAX - 1, &h2, &n), 0, "  again with no bound");
	ok(h1 == h2, "  the same hash");
	is_int(uapi_cc_file_hash(path, 9, &h1, &n), -KD_ELIMIT, "  at most 9: -KD_ELIMIT");
	ok(!mkfifo(fifo, 0600), "a FIFO");
	is_int(uapi_cc_file_hash(fifo, 10, &h1, &n), -KD_ENOTREG, "file_hash of a FIFO: -KD_ENOTREG, not blocked");
	is_int(uapi_cc_file_hash("/dev/zero", 10, &h1, &n), -KD_ENOTREG, "file_hash of /dev/zero: -KD_ENOTREG");
	free(path);
	free(fifo);
}

/* --- the key of a tree ---------------------------------------------------------- */

/* The key of the installed tree @dir (under tap_tmpdir()), or "" on trouble. */
static void key_of(const char *dir, char key[UAPI_CC_KEY_SIZE])
{
	struct uapi_cc_arch arch;
	struct uapi_cc_conf conf = { .arch = &arch };
	struct utree t = { 0 };
	char *path = tap_tmp_path("%s", dir);

	key[0] = '\0';
	uapi_cc_arch_init(&arch, NULL);
	if (!path || utree__open(path, NULL, &t) || uapi_cc_tree_key(&t, &conf, "/usr/bin/gcc", "12", key))
		key[0] = '\0';
	utree__release(&t);
	free(path);
}

/* Run the shell command @cmd in tap_tmpdir(); did it succeed? */
static bool sh(const char *cmd)
{
	char *out = tap_output("cd '%s' && %s && echo done", tap_tmpdir(), cmd);
	bool done = out && strstr(out, "done");

	free(out);
	return done;
}

static void test_tree_key(void)
{
	char base[UAPI_CC_KEY_SIZE], k[UAPI_CC_KEY_SIZE], again[UAPI_CC_KEY_SIZE];

	ok(sh("mkdir -p k/linux k/asm out1 out2 && echo '#define X 1' >k/asm/x.h &&"
	      " printf '#include \".inner.h\"\\n' >k/linux/a.h && echo 'struct s { int a; };' >out1/x.h &&"
	      " echo 'struct s { long a; };' >out2/x.h"), "a tree, and two directories beside it");
	key_of("k", base);
	is_int(strlen(base), 64, "tree key: 64 hex digits (a SHA-256)");
	ok(sh("echo 'struct hid { int a; };' >k/linux/.inner.h"), "a dot-file added");
	key_of("k", k);
	ok(*k && strcmp(k, base), "  another key");
	strcpy(base, k);
	ok(sh("echo 'struct hid { int b; };' >k/linux/.inner.h"), "the dot-file changed, same size");
	key_of("k", k);
	ok(*k && strcmp(k, base), "  another key");
	ok(sh("mkdir k/.hidden && echo 'x' >k/.hidden/h.h"), "a dot-directory added");
	key_of("k", base);
	ok(*base && strcmp(k, base), "  another key");
	ok(sh("ln -s ../../out1 k/linux/sub"), "linux/sub a link to a directory outside the tree");
	key_of("k", k);
	ok(sh("rm k/linux/sub && ln -s ../../out2 k/linux/sub"), "  then to another, same size, other content");
	key_of("k", again);
	ok(*k && *again && strcmp(k, again) && strcmp(k, base), "  three different keys");
	ok(sh("rm k/linux/sub && ln -s ../../out2/x.h k/linux/file-link"), "a link to a file outside");
	key_of("k", k);
	ok(sh("cp out2/x.h k/linux/file-link.tmp && rm k/linux/file-link && mv k/linux/file-link.tmp k/linux/file-link"),
	   "  replaced by a copy of that file");
	key_of("k", again);
	is_str(again, k, "  the same key: what the compiler reads by that name is the same");
	ok(sh("ln -s . k/linux/loop && ln -s .. k/asm/up"), "a link to its own directory and one up");
	key_of("k", k);
	ok(*k && strcmp(k, again), "  walked once each: a key, another one");
	ok(sh("rm k/linux/loop && ln -s /nonexistent k/linux/loop"), "  the loop made a dangling link");
	key_of("k", again);
	ok(*again && strcmp(k, again), "  another key");
	ok(sh("mkfifo k/linux/fifo.h"), "a FIFO in the tree");
	key_of("k", k);
	ok(*k && strcmp(k, again), "  not read: another key");
	ok(sh("cp -a k copy"), "a copy of the tree elsewhere");
	key_of("copy", again);
	is_str(again, k, "  the same key");
}

/* --- a hit stopped by a signal ---------------------------------------------------- */

/*
 * In a child: compile @tree (the cache warm) and report the result's
 * work directory on @fd, then die of SIGTERM as kabi-diff would.
 */
static void __attribute__((noreturn)) hit_then_die(const char *tree, int fd)
{
	struct uapi_cc_arch arch;
	struct uapi_cc_conf conf = { .arch = &arch, .jobs = 1, .use_cache = true };
	struct uapi_cc_result *r = NULL;
	struct utree t = { 0 };

	uapi_cc_arch_init(&arch, NULL);
	kd_tmpfile_install_signal_cleanup();
	if (utree__open(tree, NULL, &t) || uapi_cc__compile(&t, &conf, &r) || !r->cached ||
	    !r->workdir)
		_exit(3);
	if (write(fd, r->workdir, strlen(r->workdir)) < 0)
		_exit(4);
	close(fd);
	raise(SIGTERM);
	_exit(5);
}

static void test_hit_on_signal(void)
{
	struct uapi_cc_arch arch;
	struct uapi_cc_conf conf = { .arch = &arch, .jobs = 1, .use_cache = true };
	struct uapi_cc_result *r = NULL;
	struct utree t = { 0 };
	char *tree = tap_tmp_path("hit"), *tmp = tap_tmp_path("hit-tmp"), *cache = tap_tmp_path("hit-cache");
	char dir[4096] = "";
	int p[2] = { -1, -1 }, status = 0;
	ssize_t n = 0;
	pid_t pid;

	ok(sh("mkdir -p hit/linux hit/asm hit-tmp hit-cache && echo '#define X 1' >hit/asm/x.h &&"
	      " echo 'struct h { int a; };' >hit/linux/h.h"), "signal on a cache hit: a tree");
	setenv("XDG_CACHE_HOME", cache, 1);
	setenv("TMPDIR", tmp, 1);
	uapi_cc_arch_init(&arch, NULL);
	ok(!utree__open(tree, NULL, &t) && !uapi_cc__compile(&t, &conf, &r) && r && !r->cached &&
	   r->nr_compiled == 2, "  compiled and stored");
	uapi_cc_result__free(r);
	utree__release(&t);
	ok(!pipe(p), "  a pipe");
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		hit_then_die(tree, p[1]);
	}
	close(p[1]);
	while (pid > 0 && n >= 0 && (size_t)n < sizeof(dir) - 1) {
		ssize_t k = read(p[0], dir + n, sizeof(dir) - 1 - (size_t)n);

		if (k <= 0)
			break;
		n += k;
	}
	close(p[0]);
	ok(pid > 0 && waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) &&
	   WTERMSIG(status) == SIGTERM, "  the child hit the cache and died of SIGTERM");
	ok(n > 0 && !strncmp(dir, tmp, strlen(tmp)), "  its copy of the object was under $TMPDIR");
	ok(n > 0 && access(dir, F_OK) && errno == ENOENT, "  and is gone");
	unsetenv("TMPDIR");
	unsetenv("XDG_CACHE_HOME");
	free(tree);
	free(tmp);
	free(cache);
}

/* --- pruning --------------------------------------------------------------------- */

/* Test entries: aN.idx (with aN.obj), and sN.idx stale. */
static size_t test_key(const char *name, bool *stale)
{
	size_t len = strlen(name);

	if (len != 6 || strcmp(name + 2, ".idx") || (name[0] != 'a' && name[0] != 's'))
		return 0;
	*stale = name[0] == 's';
	return 2;
}

static void test_prune(void)
{
	char *out;

	/* a1 oldest ... a4 newest; s1 newest of all but stale; x9.idx is no entry. */
	ok(sh("mkdir pr && cd pr && for e in a1 a2 a3 a4 s1; do touch $e.idx $e.obj; done && touch x9.idx &&"
	      " touch -d '2020-01-01 00:00:01' a1.idx && touch -d '2020-01-01 00:00:02' a2.idx &&"
	      " touch -d '2020-01-01 00:00:03' a3.idx && touch -d '2020-01-01 00:00:04' a4.idx"),
	   "prune: a directory of 5 entries, one stale, and a file that is none");
	out = tap_tmp_path("pr");
	uapi_cc_prune(out, 2, test_key, ".obj");
	free(out);
	out = tap_output("cd '%s/pr' && ls | tr '\\n' ' '", tap_tmpdir());
	is_str(out, "a3.idx a3.obj a4.idx a4.obj x9.idx ",
	       "  keep 2: the newest two kept, the stale one pruned first, each object with its index");
	free(out);
}

int main(void)
{
	test_parse_deps();
	test_index();
	test_file_hash();
	test_tree_key();
	test_hit_on_signal();
	test_prune();
	return tap_done();
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/: kd_buf invariants, whole files read into a kd_buf, the hash map
 * (100,000 keys, shared hashes in insertion order, growth, out of memory), the
 * type graph (strip: every qualifier, restrict too, the hop bound, the
 * visitor; the structural hash: what it covers, pointees by name), the arena
 * (alignment, zeroing, large and impossible requests, out of memory), array
 * growth bounds, the search by name (first match, NULL names, no match),
 * the progress estimate (none too early, rounded up),
 * C declarator printing, SHA-256 digests (known vectors, split updates,
 * reset after final), and the removal of a temporary tree (wide, links
 * not followed, deeper than PATH_MAX).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/arena.h"
#include "lib/buf.h"
#include "lib/cdecl.h"
#include "lib/digest.h"
#include "lib/eta.h"
#include "lib/find.h"
#include "lib/hashmap.h"
#include "lib/json.h"
#include "lib/mem.h"
#include "lib/path.h"
#include "lib/str.h"
#include "lib/plain.h"
#include "lib/err.h"
#include "lib/tmpfile.h"
#include "lib/typegraph.h"
#include "tests/tap.h"

static void test_buf(void)
{
	struct kd_buf b = KD_BUF_INIT;
	char *s;
	int i;

	is_str(b.s, "", "an initialized buffer is an empty string");
	kd_buf_addf(&b, "%s-%d", "x", 42);
	kd_buf_addc(&b, '!');
	is_str(b.s, "x-42!", "addf and addc append");
	is_int(b.len, 5, "length tracks");
	for (i = 0; i < 1000; i++)
		kd_buf_adds(&b, "0123456789");
	is_int(b.len, 10005, "grows past many reallocations");
	kd_buf_reset(&b);
	is_str(b.s, "", "reset empties");
	kd_buf_adds(&b, "kept");
	s = kd_buf_detach(&b);
	is_str(s, "kept", "detach hands the string over");
	is_str(b.s, "", "and leaves the buffer empty");
	free(s);
	kd_mem_fail_after(0);
	is_int(kd_buf_adds(&b, "no memory"), -ENOMEM, "allocation failure reported");
	kd_mem_fail_after(-1);
	is_str(b.s, "", "and the buffer is still valid");
	kd_buf_release(&b);
}

/* A file of 200,000 bytes (three reads of 64 KiB and a short one), a NUL inside. */
static void test_read_file(void)
{
	struct kd_buf b = KD_BUF_INIT, path = KD_BUF_INIT;
	size_t i, bad = 0;
	FILE *f;

	kd_buf_addf(&path, "%s/read-file", tap_tmpdir());
	f = fopen(path.s, "wb");
	for (i = 0; f && i < 200000; i++)
		fputc(i == 1000 ? 0 : 'a' + (int)(i % 26), f);
	ok(f && !fclose(f), "a 200,000-byte file written");
	kd_buf_adds(&b, "head:");
	is_int(kd_buf_read_file(&b, path.s), 0, "read_file: 0");
	is_int(b.len, 5 + 200000, "read_file appends every byte");
	for (i = 0; i < 200000; i++)
		bad += (unsigned char)b.s[5 + i] != (i == 1000 ? 0 : 'a' + i % 26);
	is_int(bad, 0, "  each byte in place, the NUL too");
	ok(!strncmp(b.s, "head:abc", 8) && b.s[b.len] == '\0', "  after what was there, NUL-terminated");
	kd_buf_reset(&b);
	is_int(kd_buf_read_file(&b, "/nonexistent/x"), -ENOENT, "read_file of a missing file: -ENOENT");
	is_int(b.len, 0, "  nothing appended");
	is_int(kd_buf_read_file(&b, tap_tmpdir()), -EIO, "read_file of a directory: -EIO");
	kd_buf_release(&b);
	kd_buf_release(&path);
}

/* A cache's file is replaced whatever stands there; kd_tmpfile_create() refuses the same. */
static void test_tmpfile_cache(void)
{
	struct kd_buf dest = KD_BUF_INIT;
	char *tmp = NULL, text[8] = "";
	struct stat st;
	FILE *f;
	int fd;

	kd_buf_addf(&dest, "%s/cache-entry", tap_tmpdir());
	ok(!mkfifo(dest.s, 0644), "a FIFO where a cache file goes");
	is_int(kd_tmpfile_create(dest.s, &tmp), -KD_ENOTREG, "kd_tmpfile_create: -KD_ENOTREG");
	fd = kd_tmpfile_create_cache(dest.s, &tmp);
	ok(fd >= 0 && write(fd, "entry", 5) == 5 && !close(fd) && !kd_tmpfile_commit(tmp, dest.s),
	   "kd_tmpfile_create_cache: created and committed");
	free(tmp);
	f = fopen(dest.s, "r");
	ok(!lstat(dest.s, &st) && S_ISREG(st.st_mode) && f && fgets(text, sizeof(text), f) &&
	   !strcmp(text, "entry"), "  a regular file with the entry in place of the FIFO");
	if (f)
		fclose(f);
	unlink(dest.s);
	ok(!symlink("/dev/null", dest.s), "a link to a device where a cache file goes");
	fd = kd_tmpfile_create_cache(dest.s, &tmp);
	ok(fd >= 0 && !close(fd) && !kd_tmpfile_commit(tmp, dest.s) && !lstat(dest.s, &st) &&
	   S_ISREG(st.st_mode), "  replaced by a regular file, the device untouched");
	free(tmp);
	kd_buf_release(&dest);
}

/* kd_tmpdir_create/remove: a private directory named as asked, gone with its contents. */
static void test_tmpdir(void)
{
	char *dir = NULL, *file;
	struct stat st;
	size_t n;

	is_int(kd_tmpdir_create(tap_tmpdir(), "t-lib.", &dir), 0, "kd_tmpdir_create: 0");
	n = strlen(tap_tmpdir());
	ok(dir && !strncmp(dir, tap_tmpdir(), n) && !strncmp(dir + n, "/t-lib.", 7) &&
	   strlen(dir + n) == 13, "  named PARENT/PREFIX and six characters: %s", dir ? dir : "");
	ok(dir && !stat(dir, &st) && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700,
	   "  a directory only its owner may enter");
	file = dir ? kd_path_join(dir, "f") : NULL;
	ok(file && kd_write_file_atomic(file, "x", 1, 0) == 0, "  a file written in it");
	kd_tmpdir_remove(dir);
	ok(dir && stat(file, &st) < 0 && errno == ENOENT, "kd_tmpdir_remove: the directory and its file gone");
	free(file);
	kd_tmpdir_remove(NULL);
	is_int(kd_tmpdir_create("/nonexistent-kabi", "x.", &dir), -ENOENT,
	       "kd_tmpdir_create in a missing parent: -ENOENT");
	ok(!dir, "  and no name");
}

/* kd_write_file_atomic: the bytes in place, a FIFO refused or replaced, nothing left beside. */
static void test_write_atomic(void)
{
	struct kd_buf dest = KD_BUF_INIT, got = KD_BUF_INIT;
	struct stat st;
	char *left;

	kd_buf_addf(&dest, "%s/atomic", tap_tmpdir());
	is_int(kd_write_file_atomic(dest.s, "one\n", 4, 0), 0, "kd_write_file_atomic: 0");
	is_int(kd_write_file_atomic(dest.s, "two\0x", 5, 0), 0, "  rewritten: 0");
	ok(!kd_buf_read_file(&got, dest.s) && got.len == 5 && !memcmp(got.s, "two\0x", 5),
	   "  the file holds the second text, its NUL too");
	unlink(dest.s);
	ok(!mkfifo(dest.s, 0600), "a FIFO in its place");
	is_int(kd_write_file_atomic(dest.s, "x", 1, 0), -KD_ENOTREG, "  refused: -KD_ENOTREG");
	is_int(kd_write_file_atomic(dest.s, "x", 1, KD_WRITE_CACHE), 0,
	       "  with KD_WRITE_CACHE, replaced");
	ok(!lstat(dest.s, &st) && S_ISREG(st.st_mode) && st.st_size == 1, "  by a regular file");
	left = tap_output("ls -A %s | grep -c '^atomic\\.tmp'", tap_tmpdir());
	is_str(left, "0\n", "  no temporary file left");
	free(left);
	unlink(dest.s);
	kd_buf_release(&got);
	kd_buf_release(&dest);
}

/* kd_read_head: the first bytes of a regular file; a FIFO or a directory never read. */
static void test_read_head(void)
{
	char *path = tap_write_tmp("head", "\177ELF and more"), *short_path, head[8];
	struct kd_buf fifo = KD_BUF_INIT;

	is_int(kd_read_head(path, head, 4), 4, "kd_read_head: 4 bytes");
	ok(!memcmp(head, "\177ELF", 4), "  the magic");
	short_path = tap_write_tmp("short", "ab");
	is_int(kd_read_head(short_path, head, 8), 2, "a short file: what it has");
	free(short_path);
	is_int(kd_read_head(tap_tmpdir(), head, 4), -KD_ENOTREG, "a directory: -KD_ENOTREG");
	kd_buf_addf(&fifo, "%s/head-fifo", tap_tmpdir());
	ok(!mkfifo(fifo.s, 0600), "a FIFO");
	is_int(kd_read_head(fifo.s, head, 4), -KD_ENOTREG, "  -KD_ENOTREG, without blocking");
	is_int(kd_read_head("/nonexistent-kabi", head, 4), -ENOENT, "a missing file: -ENOENT");
	unlink(fifo.s);
	kd_buf_release(&fifo);
	free(path);
}

static void test_hashmap(void)
{
	struct kd_hashmap m = KD_HASHMAP_INIT;
	size_t i, pos, wrong = 0, n;
	uint64_t v, order[5];

	is_int(kd_hashmap_get(&m, 42), 0, "hashmap: empty map, absent key");
	for (i = 0; i < 100000; i++)
		if (kd_hashmap_put(&m, 0xb00000 + i * 8, i + 1))
			break;
	is_int(i, 100000, "hashmap: 100,000 keys put (DIE-like offsets)");
	is_int(m.n, 100000, "  100,000 entries");
	ok(m.cap >= 200000 && !(m.cap & (m.cap - 1)), "  at most half full, a power of two");
	for (i = 0; i < 100000; i++)
		wrong += kd_hashmap_get(&m, 0xb00000 + i * 8) != i + 1;
	is_int(wrong, 0, "  each found with its value");
	is_int(kd_hashmap_get(&m, 0xb00004), 0, "  a key between two is absent");
	is_int(kd_hashmap_put(&m, 0xb00000, 7), 0, "hashmap: put on a present key");
	is_int(kd_hashmap_get(&m, 0xb00000), 7, "  replaces its value");
	is_int(m.n, 100000, "  without a new entry");
	kd_hashmap_clear(&m);
	is_int(kd_hashmap_get(&m, 0xb00008), 0, "hashmap: clear empties");

	/* Five keys of one hash, told apart by the caller: insertion order. */
	for (i = 0; i < 5; i++) {
		is_int(kd_hashmap_reserve(&m, 1), 0, "hashmap: reserve");
		for (pos = KD_HASHMAP_FIRST, n = 0; kd_hashmap_next(&m, 99, &pos); n++)
			;
		is_int(n, i, "  the walk sees the entries of the hash so far");
		kd_hashmap_insert_at(&m, pos, 99, 100 + i);
		kd_hashmap_put(&m, i, 1);	/* other hashes in between */
	}
	for (i = 0; i < 500; i++)	/* grow: entries move */
		kd_hashmap_put(&m, 1000 + i, 1);
	for (pos = KD_HASHMAP_FIRST, n = 0; n < 5 && (v = kd_hashmap_next(&m, 99, &pos)); n++)
		order[n] = v;
	ok(n == 5 && order[0] == 100 && order[1] == 101 && order[2] == 102 && order[3] == 103 &&
	   order[4] == 104, "hashmap: a shared hash walks in insertion order, also after growth");
	kd_hashmap_release(&m);
	ok(!m.e && !m.n && !m.cap, "hashmap: empty after release");

	kd_mem_fail_after(0);
	is_int(kd_hashmap_put(&m, 1, 1), -ENOMEM, "hashmap: put when out of memory: -ENOMEM");
	kd_mem_fail_after(-1);
	ok(!m.e && !m.n, "  the map unchanged");
	is_int(kd_hashmap_reserve(&m, SIZE_MAX / 2), -ENOMEM, "hashmap: an impossible reserve: -ENOMEM");
	kd_hashmap_release(&m);
}

/* A store of types for the type-graph tests: id = index. */
static struct kd_type tg[90];

static const struct kd_type *tg_lookup(int64_t id, void *ctx)
{
	(void)ctx;
	return id > 0 && id < 90 && tg[id].id ? &tg[id] : NULL;
}

static int tg_hash_calls;	/* how often a hash asked for another type's */

static uint64_t tg_hash(int64_t id, void *ctx)
{
	const struct kd_type *t = tg_lookup(id, ctx);

	tg_hash_calls++;
	return t ? kd_type_hash(t, KD_VIEW_KERNEL, tg_lookup, tg_hash, ctx) : 0;
}

static int tg_visit(const struct kd_type *t, void *ctx)
{
	struct kd_buf *b = ctx;

	return kd_buf_addf(b, "%s ", kd_kind_name(t->kind));
}

static void test_typegraph(void)
{
	static const enum kd_kind quals[] = { KD_KIND_TYPEDEF, KD_KIND_CONST, KD_KIND_VOLATILE,
					      KD_KIND_RESTRICT, KD_KIND_ATOMIC };
	struct kd_member m = { .name = (char *)"x", .type = 1, .offset = 0 };
	struct kd_type a, b;
	struct kd_buf seen = KD_BUF_INIT;
	const struct kd_type *t;
	uint64_t h1, h2;
	int i;

	tg[1] = (struct kd_type){ .id = 1, .kind = KD_KIND_BASE, .name = (char *)"int", .size = 4 };
	for (i = 0; i < 5; i++)		/* 2..6: typedef const volatile restrict atomic */
		tg[2 + i] = (struct kd_type){ .id = 2 + i, .kind = quals[i], .ref = 1 + i };
	t = kd_type_strip(6, tg_lookup, NULL);
	ok(t && t->id == 1, "strip: typedef, const, volatile, restrict, _Atomic down to int");
	kd_type_strip_visit(6, tg_lookup, NULL, tg_visit, &seen, &t);
	is_str(seen.s, "atomic restrict volatile const typedef ", "  the visitor sees each, outermost first");
	ok(!kd_type_strip(0, tg_lookup, NULL), "strip of void is NULL");
	tg[7] = (struct kd_type){ .id = 7, .kind = KD_KIND_CONST, .ref = 50 };
	ok(!kd_type_strip(7, tg_lookup, NULL), "strip to a missing type is NULL");
	for (i = 10; i < 80; i++)	/* 70 typedefs in a chain over int */
		tg[i] = (struct kd_type){ .id = i, .kind = KD_KIND_TYPEDEF, .ref = i == 10 ? 1 : i - 1 };
	t = kd_type_strip(79, tg_lookup, NULL);
	ok(t && t->id == 79 - KD_TYPE_MAX_HOPS, "strip stops after KD_TYPE_MAX_HOPS (%d) hops",
	   KD_TYPE_MAX_HOPS);
	t = kd_type_strip(10 + KD_TYPE_MAX_HOPS - 1, tg_lookup, NULL);
	ok(t && t->id == 1, "  a chain of exactly KD_TYPE_MAX_HOPS typedefs is followed");

	/* The hash: what it covers. */
	a = (struct kd_type){ .kind = KD_KIND_STRUCT, .name = (char *)"s", .size = 4, .align = 4,
			      .nr_members = 1, .members = &m };
	b = a;
	h1 = kd_type_hash(&a, KD_VIEW_KERNEL, tg_lookup, tg_hash, NULL);
	is_int(kd_type_hash(&b, KD_VIEW_KERNEL, tg_lookup, tg_hash, NULL), h1,
	       "hash: equal structs, equal hashes");
	b.align = 8;
	ok(kd_type_hash(&b, KD_VIEW_KERNEL, tg_lookup, tg_hash, NULL) != h1, "hash: alignment counts");
	b = a;
	m.offset = 1;
	ok(kd_type_hash(&b, KD_VIEW_KERNEL, tg_lookup, tg_hash, NULL) != h1, "hash: a member offset counts");
	m.offset = 0;
	m.type = 2;	/* typedef of int instead of int */
	ok(kd_type_hash(&b, KD_VIEW_KERNEL, tg_lookup, tg_hash, NULL) != h1, "hash: a member's type counts");
	m.type = 1;
	b.count = 9;	/* not an array: the count is not part of it */
	is_int(kd_type_hash(&b, KD_VIEW_KERNEL, tg_lookup, tg_hash, NULL), h1,
	       "hash: a count only counts for arrays");
	/* Pointers to a named struct hash its name, not its layout. */
	tg[8] = (struct kd_type){ .id = 8, .kind = KD_KIND_STRUCT, .name = (char *)"n", .size = 4 };
	tg[9] = (struct kd_type){ .id = 9, .kind = KD_KIND_STRUCT, .name = (char *)"n", .size = 8 };
	a = (struct kd_type){ .kind = KD_KIND_POINTER, .size = 8, .ref = 8 };
	b = (struct kd_type){ .kind = KD_KIND_POINTER, .size = 8, .ref = 9 };
	h1 = kd_type_hash(&a, KD_VIEW_KERNEL, tg_lookup, tg_hash, NULL);
	is_int(kd_type_hash(&b, KD_VIEW_KERNEL, tg_lookup, tg_hash, NULL), h1,
	       "hash: pointers to one struct name are one");
	tg[9].name = NULL;
	h2 = kd_type_hash(&b, KD_VIEW_KERNEL, tg_lookup, tg_hash, NULL);
	ok(h2 != h1, "hash: a pointer to an anonymous struct hashes its layout");
	tg[9].size = 4;
	ok(kd_type_hash(&b, KD_VIEW_KERNEL, tg_lookup, tg_hash, NULL) != h2, "  which then counts");
	/* The header view's pointer to struct n is not the kernel's, to a declaration or not. */
	tg[9] = (struct kd_type){ .id = 9, .kind = KD_KIND_STRUCT, .name = (char *)"n", .size = -1,
				  .flags = KD_TYPE_DECLARATION };
	h2 = kd_type_hash(&a, KD_VIEW_HEADERS, tg_lookup, tg_hash, NULL);
	ok(h2 != h1, "hash: a header view's pointer to struct n is not the kernel's");
	is_int(kd_type_hash(&b, KD_VIEW_HEADERS, tg_lookup, tg_hash, NULL), h2,
	       "  one with its declaration's (the table then leads it to a definition it has)");
	a.ref = 1;
	is_int(kd_type_hash(&a, KD_VIEW_HEADERS, tg_lookup, tg_hash, NULL),
	       kd_type_hash(&a, KD_VIEW_KERNEL, tg_lookup, tg_hash, NULL),
	       "  an int * is the same in both views (no name, no layout of its own)");
	/* const struct n *: the name through the qualifier (what breaks a self-referencing cycle). */
	tg[8] = (struct kd_type){ .id = 8, .kind = KD_KIND_STRUCT, .name = (char *)"n", .size = 4 };
	tg[9] = (struct kd_type){ .id = 9, .kind = KD_KIND_STRUCT, .name = (char *)"n", .size = 8 };
	tg[80] = (struct kd_type){ .id = 80, .kind = KD_KIND_CONST, .ref = 8 };
	tg[81] = (struct kd_type){ .id = 81, .kind = KD_KIND_CONST, .ref = 9 };
	a = (struct kd_type){ .kind = KD_KIND_POINTER, .size = 8, .ref = 80 };
	b = (struct kd_type){ .kind = KD_KIND_POINTER, .size = 8, .ref = 81 };
	tg_hash_calls = 0;
	h1 = kd_type_hash(&a, KD_VIEW_KERNEL, tg_lookup, tg_hash, NULL);
	is_int(kd_type_hash(&b, KD_VIEW_KERNEL, tg_lookup, tg_hash, NULL), h1,
	       "hash: pointers to const struct n, whatever its layout, are one");
	is_int(tg_hash_calls, 0, "  the pointee is not hashed: a cycle through it ends there");
	b.ref = 8;
	ok(kd_type_hash(&b, KD_VIEW_KERNEL, tg_lookup, tg_hash, NULL) != h1,
	   "  not the hash of a pointer to struct n without const");
	kd_buf_release(&seen);
}

static void test_arena(void)
{
	struct kd_arena a = KD_ARENA_INIT;
	unsigned char *p[1000], *big;
	size_t i, misaligned = 0, dirty = 0;
	char *s;

	for (i = 0; i < 1000; i++) {
		p[i] = kd_arena_alloc(&a, 1 + i % 100);
		if (!p[i])
			break;
		misaligned += (uintptr_t)p[i] % 16 != 0;
		dirty += p[i][0] != 0 || p[i][i % 100] != 0;
		memset(p[i], 0xff, 1 + i % 100);
	}
	is_int(i, 1000, "arena: 1000 allocations (several blocks)");
	is_int(misaligned, 0, "  each 16-byte aligned");
	is_int(dirty, 0, "  each zeroed");
	big = kd_arena_alloc(&a, 200000);
	ok(big && big[0] == 0 && big[199999] == 0, "arena: 200,000 bytes in a block of their own");
	ok(!kd_arena_alloc(&a, SIZE_MAX - 8), "arena: SIZE_MAX - 8 bytes is NULL, not a wrap");
	s = kd_arena_strndup(&a, "abcdef", 3);
	is_str(s, "abc", "arena: strndup");
	ok(!kd_arena_strdup(&a, NULL), "arena: strdup(NULL) is NULL");
	kd_arena_release(&a);
	ok(!a.head, "arena: empty after release");
	kd_mem_fail_after(0);
	ok(!kd_arena_alloc(&a, 8), "arena: NULL when out of memory");
	kd_mem_fail_after(-1);
	s = kd_arena_strdup(&a, "again");
	is_str(s, "again", "arena: usable after a failure");
	kd_arena_release(&a);
}

static void test_grow(void)
{
	size_t cap = 0;
	int *v = NULL;

	is_int(KD_GROW(v, cap, 10), 0, "grow to 10");
	ok(cap >= 10, "capacity at least the need (%zu)", cap);
	is_int(kd_grow_array((void **)&v, &cap, SIZE_MAX / 2, sizeof(int)), -ENOMEM,
	       "an overflowing size is refused");
	free(v);
}

static void test_find_named(void)
{
	/* name not first, so that the offset is used; a char * name too */
	struct named { int v; char *name; } a[] = {
		{ 1, "a" }, { 2, NULL }, { 3, "b" }, { 4, "b" },
	};
	const struct named *f;

	f = KD_FIND_NAMED(const struct named, a, 4, name, "b");
	is_int(f ? f->v : 0, 3, "find_named: the first of two matches");
	f = KD_FIND_NAMED(const struct named, a, 4, name, "a");
	is_int(f ? f->v : 0, 1, "find_named: the first element");
	ok(!KD_FIND_NAMED(const struct named, a, 4, name, "c"), "find_named: no match: NULL");
	ok(!KD_FIND_NAMED(const struct named, a, 2, name, "b"), "find_named: only @n elements");
	ok(!KD_FIND_NAMED(const struct named, a, 4, name, NULL), "find_named: a NULL name: NULL");
}

/*
 * 1 int, 2 char, 3 const char, 4 pointer to 3, 5 struct s, 6 pointer to 5,
 * 7 array[4] of 1, 8 func(int, struct s *) returning void, 9 pointer to 8,
 * 10 pointer to 7, 11 flexible array of 2, 12 const pointer to 2.
 */
static struct kd_member params[] = { { .type = 1 }, { .type = 6 } };
static const struct kd_type types[] = {
	{ 0 },
	{ .id = 1, .kind = KD_KIND_BASE, .name = "int" },
	{ .id = 2, .kind = KD_KIND_BASE, .name = "char" },
	{ .id = 3, .kind = KD_KIND_CONST, .ref = 2 },
	{ .id = 4, .kind = KD_KIND_POINTER, .ref = 3 },
	{ .id = 5, .kind = KD_KIND_STRUCT, .name = "s" },
	{ .id = 6, .kind = KD_KIND_POINTER, .ref = 5 },
	{ .id = 7, .kind = KD_KIND_ARRAY, .ref = 1, .count = 4 },
	{ .id = 8, .kind = KD_KIND_FUNC, .nr_members = 2, .members = params },
	{ .id = 9, .kind = KD_KIND_POINTER, .ref = 8 },
	{ .id = 10, .kind = KD_KIND_POINTER, .ref = 7 },
	{ .id = 11, .kind = KD_KIND_ARRAY, .ref = 2, .count = KD_ARRAY_FLEXIBLE },
	{ .id = 12, .kind = KD_KIND_CONST, .ref = 13 },
	{ .id = 13, .kind = KD_KIND_POINTER, .ref = 2 },
};

static const struct kd_type *lookup(int64_t id, void *ctx)
{
	(void)ctx;
	return id > 0 && id < (int64_t)(sizeof(types) / sizeof(types[0])) ? &types[id] : NULL;
}

static void cdecl_is(int64_t id, const char *decl, const char *want)
{
	struct kd_buf b = KD_BUF_INIT;

	kd_cdecl(&b, id, decl, lookup, NULL);
	is_str(b.s, want, want);
	kd_buf_release(&b);
}

static void test_cdecl(void)
{
	cdecl_is(4, "", "const char *");
	cdecl_is(4, "filename", "const char *filename");
	cdecl_is(6, "how", "struct s *how");
	cdecl_is(7, "v", "int v[4]");
	cdecl_is(9, "cb", "void (*cb)(int, struct s *)");
	cdecl_is(9, "", "void (*)(int, struct s *)");
	cdecl_is(10, "p", "int (*p)[4]");
	cdecl_is(11, "name", "char name[]");
	cdecl_is(12, "p", "char * const p");
	cdecl_is(0, "x", "void x");
}

/* kd_plain(), kd_fwrite_plain(): control characters as \xNN, UTF-8 kept. */
static void test_plain(void)
{
	struct kd_buf b = KD_BUF_INIT;
	const char *clean = "struct caf\xc3\xa9 *";
	char *mem = NULL;
	size_t len = 0;
	FILE *f;

	ok(kd_plain(&b, clean) == clean, "clean text (UTF-8 included) returned as it is");
	is_str(kd_plain(&b, "a\033[2Jb\r\x7f"), "a\\x1b[2Jb\\x0d\\x7f", "ESC, CR, DEL escaped");
	is_str(kd_plain(&b, "x\xc2\x9b" "31m\xc2\xa0"), "x\\xc2\\x9b31m\xc2\xa0",
	       "U+009B (CSI) escaped, U+00A0 kept");
	is_str(kd_plain(&b, NULL), "", "NULL: empty");
	f = open_memstream(&mem, &len);
	if (f) {
		ok(!kd_fwrite_plain(f, "l1\n\tl2\033]0;t\007\0z\xc2", 15), "kd_fwrite_plain: 0");
		fclose(f);
		is_int(len, 24, "  24 bytes written");
		ok(len == 24 && !memcmp(mem, "l1\n\tl2\\x1b]0;t\\x07\\x00z\xc2", 24),
		   "  newline and tab kept, ESC, BEL, NUL escaped, a last 0xc2 kept");
	}
	free(mem);
	kd_buf_release(&b);
}

/* kd_remove_tree: everything below goes, what a link points to stays. */
static void test_remove_tree(void)
{
	struct kd_buf top = KD_BUF_INIT, p = KD_BUF_INIT, keep = KD_BUF_INIT;
	struct stat st;
	int i, made = 0;

	kd_buf_addf(&top, "%s/tree", tap_tmpdir());
	kd_buf_addf(&keep, "%s/keep", tap_tmpdir());
	mkdir(keep.s, 0755);
	kd_buf_addf(&p, "%s/file", keep.s);
	fclose(fopen(p.s, "w"));
	mkdir(top.s, 0755);
	/* 300 files: more than one getdents64 buffer of names. */
	for (i = 0; i < 300; i++) {
		FILE *f;

		kd_buf_reset(&p);
		kd_buf_addf(&p, "%s/a-rather-long-file-name-to-fill-the-buffer-%03d", top.s, i);
		f = fopen(p.s, "w");
		made += f && !fclose(f);
	}
	kd_buf_reset(&p);
	kd_buf_adds(&p, top.s);
	for (i = 0; i < 10; i++) {	/* 10 levels down */
		kd_buf_adds(&p, "/d");
		made += !mkdir(p.s, 0755);
	}
	kd_buf_adds(&p, "/link");
	made += !symlink(keep.s, p.s);
	is_int(made, 311, "a tree of 300 files, 10 levels and a link to a directory outside");
	is_int(kd_remove_tree(top.s), 0, "kd_remove_tree: 0");
	ok(lstat(top.s, &st) < 0 && errno == ENOENT, "  the tree is gone");
	kd_buf_reset(&p);
	kd_buf_addf(&p, "%s/file", keep.s);
	ok(!stat(p.s, &st), "  the link's target is left alone");
	is_int(kd_remove_tree(top.s), 0, "kd_remove_tree of a missing directory: 0");
	kd_buf_release(&top);
	kd_buf_release(&p);
	kd_buf_release(&keep);
}

/*
 * kd_remove_tree at any depth: a chain of 300 directories (beyond the 48
 * levels it once stopped at, and with a path longer than PATH_MAX), each
 * holding a file, made with openat so no path is ever that long.
 */
static void test_remove_deep_tree(void)
{
	struct kd_buf top = KD_BUF_INIT;
	struct stat st;
	int fd, i, made = 0;

	kd_buf_addf(&top, "%s/deep", tap_tmpdir());
	fd = mkdir(top.s, 0755) ? -1 : open(top.s, O_RDONLY | O_DIRECTORY);
	for (i = 0; fd >= 0 && i < 300; i++) {
		int file = openat(fd, "file", O_WRONLY | O_CREAT | O_EXCL, 0644), sub;

		if (file >= 0)
			close(file);
		sub = mkdirat(fd, "a-directory-of-20-ch", 0755) ? -1 :
		      openat(fd, "a-directory-of-20-ch", O_RDONLY | O_DIRECTORY);
		close(fd);
		fd = sub;
		made += file >= 0 && sub >= 0;
	}
	if (fd >= 0)
		close(fd);
	is_int(made, 300, "a chain of 300 directories, 6,300 bytes of path, a file in each");
	is_int(kd_remove_tree(top.s), 0, "kd_remove_tree: 0");
	ok(lstat(top.s, &st) < 0 && errno == ENOENT, "  the whole chain is gone");
	kd_buf_release(&top);
}

/* Written by @fn into a memory stream, as a string (caller frees). */
static char *json_text(void (*fn)(struct kd_json *w))
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	struct kd_json w;

	if (!f)
		return NULL;
	kd_json_init(&w, f);
	fn(&w);
	fclose(f);
	return s;
}

static void json_escapes(struct kd_json *w)
{
	kd_json_array(w, false);
	kd_json_string(w, "q\"b\\n\nt\tr\rc\x01\x1f e\xc3\xa9");
	kd_json_string(w, NULL);
	kd_json_string(w, "");
	kd_json_end(w);
}

static void json_nested(struct kd_json *w)
{
	kd_json_object(w, true);
	kd_json_kstr(w, "name", "x");
	kd_json_kint(w, "n", -3);
	kd_json_kuint(w, "u", UINT64_MAX);
	kd_json_kbool(w, "ok", true);
	kd_json_key(w, "none");
	kd_json_null(w);
	kd_json_key(w, "list");
	kd_json_array(w, true);
	kd_json_object(w, false);
	kd_json_kint(w, "a", 1);
	kd_json_key(w, "b");
	kd_json_array(w, false);
	kd_json_int(w, 2);
	kd_json_int(w, 3);
	kd_json_end(w);
	kd_json_end(w);
	kd_json_object(w, false);
	kd_json_end(w);
	kd_json_end(w);
	kd_json_key(w, "empty");
	kd_json_array(w, true);
	kd_json_end(w);
	kd_json_end(w);
}

static void json_too_deep(struct kd_json *w)
{
	int i;

	for (i = 0; i < KD_JSON_MAX_DEPTH + 2; i++) {
		kd_json_object(w, false);
		kd_json_key(w, "k");
	}
	kd_json_int(w, 1);
	for (i = 0; i < KD_JSON_MAX_DEPTH + 2; i++)
		kd_json_end(w);
}

static void test_json(void)
{
	char *s = json_text(json_escapes);
	struct kd_buf want = KD_BUF_INIT;
	int i;

	is_str(s, "[\"q\\\"b\\\\n\\nt\\tr\\rc\\u0001\\u001f e\xc3\xa9\", null, \"\"]\n",
	       "json: escapes (quote, backslash, \\n \\t \\r, other controls \\u00XX, UTF-8 as is), null");
	free(s);
	s = json_text(json_nested);
	is_str(s, "{\n  \"name\": \"x\",\n  \"n\": -3,\n  \"u\": 18446744073709551615,\n"
	       "  \"ok\": true,\n  \"none\": null,\n  \"list\": [\n    {\"a\": 1, \"b\": [2, 3]},\n"
	       "    {}\n  ],\n  \"empty\": []\n}\n", "json: objects and arrays, in lines and inline");
	free(s);
	s = json_text(json_too_deep);
	for (i = 0; i < KD_JSON_MAX_DEPTH; i++)
		kd_buf_adds(&want, "{\"k\": ");
	kd_buf_adds(&want, "null");
	for (i = 0; i < KD_JSON_MAX_DEPTH; i++)
		kd_buf_adds(&want, "}");
	kd_buf_adds(&want, "\n");
	is_str(s, want.s, "json: a container past the maximum depth is null, the rest stays valid");
	free(s);
	kd_buf_release(&want);
}

static void test_digest(void)
{
	char hex[KD_DIGEST_HEX_LEN + 1];
	unsigned char raw[KD_DIGEST_BYTES];
	struct kd_digest *d;

	if (kd_digest__new(&d)) {
		ok(0, "digest: new");
		return;
	}
	kd_digest__update(d, "abc", 3);
	is_int(kd_digest__final(d, raw, hex), 0, "digest: final");
	is_str(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	       "  SHA-256(\"abc\"), FIPS 180-2's vector");
	ok(raw[0] == 0xba && raw[31] == 0xad, "  the raw bytes are the hex's");
	is_int(kd_digest__final(d, NULL, hex), 0, "digest: final right after a final");
	is_str(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	       "  is SHA-256 of nothing: final resets");
	kd_digest__update(d, "a", 1);
	kd_digest__update(d, "", 0);
	kd_digest__update(d, "bc", 2);
	kd_digest__final(d, NULL, hex);
	is_str(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	       "digest: split updates give the same digest");
	kd_digest__str(d, "ab");
	kd_digest__str(d, "c");
	kd_digest__final(d, NULL, hex);
	ok(strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") != 0,
	   "digest: strings keep their NUL, \"ab\",\"c\" is not \"abc\"");
	kd_digest__free(d);
	kd_digest__free(NULL);
}

/* The progress estimate: the rate so far on what remains, none too early. */
static void test_eta(void)
{
	is_int(kd_eta_seconds(100, 4000, 10.0), 390, "eta: 100 of 4000 in 10 s: 390 s left");
	is_int(kd_eta_seconds(3, 4000, 10.0), -1, "eta: under 2 percent done: none");
	is_int(kd_eta_seconds(1000, 4000, 1.5), -1, "eta: under 2 s: none");
	is_int(kd_eta_seconds(4000, 4000, 60.0), -1, "eta: all done: none");
	is_int(kd_eta_seconds(0, 0, 60.0), -1, "eta: no total: none");
	is_int(kd_eta_seconds(999, 1000, 10.0), 1, "eta: a fraction of a second left rounds up to 1");
}

static void test_str(void)
{
	const char *names[] = { "vmlinux", "", "asm", "Kbuild" }, *rest = "unset";

	ok(kd_starts_with("struct stat", "struct "), "starts_with: a prefix");
	ok(!kd_starts_with("struct", "struct "), "  not when the string is shorter");
	ok(kd_starts_with("x", ""), "  \"\" begins every string");
	ok(kd_skip_prefix("asm/ioctl.h", "asm/", &rest) && !strcmp(rest, "ioctl.h"),
	   "skip_prefix: true, and what follows");
	rest = "unset";
	ok(!kd_skip_prefix("asm-generic/x.h", "asm/", &rest) && !strcmp(rest, "unset"),
	   "  false: *rest untouched");
	ok(kd_skip_prefix("a", "a", NULL), "  @rest may be NULL");
	ok(kd_ends_with("fxmod.ko", ".ko") && !kd_ends_with("ko", ".ko") && kd_ends_with("", ""),
	   "ends_with: a suffix, not a longer one, \"\" of \"\"");
	ok(!kd_ends_with("a.ko.xz", ".ko"), "  only at the end");
	is_int(kd_strcmp_null(NULL, ""), 0, "strcmp_null: NULL is \"\"");
	ok(kd_strcmp_null(NULL, "a") < 0 && kd_strcmp_null("a", NULL) > 0, "  and sorts first");
	qsort(names, 4, sizeof(names[0]), kd_strcmp_ptr);
	is_str(names[0], "", "strcmp_ptr sorts an array of strings");
	is_str(names[1], "Kbuild", "  in strcmp order");
	is_str(names[3], "vmlinux", "  to the end");
}

static void input_short_is(const char *arg, const char *want)
{
	char *got = kd_input_short(arg);

	is_str(got, want, arg);
	free(got);
}

/* Progress lines name a long input by its last components (issue 29). */
static void test_input_short(void)
{
	input_short_is("A", "A");
	input_short_is("builds/a-long-directory-name-for-the-ci/", "builds/a-long-directory-name-for-the-ci/");
	input_short_is("builds/a-long-directory-name-for-the-ci/x", "x");
	input_short_is("/home/ci/builds/0123456789/linux-6.12.107/", "linux-6.12.107");
	input_short_is("/srv/pool/main/l/linux/a-dbg_6.12.deb,/srv/pool/main/l/linux/b-common_6.12.deb",
		       "a-dbg_6.12.deb,b-common_6.12.deb");
	input_short_is("/srv/pool/main/l/linux/a-dbg_6.12.deb,b.deb,///////////////////", "a-dbg_6.12.deb,b.deb,/");
}

static char sunk[256];

static void sink(enum kd_level level, const char *msg, void *ctx)
{
	(void)ctx;
	snprintf(sunk, sizeof(sunk), "%s %s", level == KD_LOG_PROGRESS ? "progress" :
		 level == KD_LOG_STATUS ? "status" : level == KD_LOG_ERR ? "error" : "other", msg);
}

/* A side's prefix on progress and status lines, never on errors or a clearing status. */
static void test_progress_prefix(void)
{
	kd_log_set_sink(sink, NULL);
	kd_log_set_progress_prefix("old: ");
	kd_progress("extracting %s", "A");
	is_str(sunk, "progress old: extracting A", "a progress line gets the side");
	kd_status("[%d/%d] x.ko", 1, 2);
	is_str(sunk, "status old: [1/2] x.ko", "a status too");
	kd_status("%s", "");
	is_str(sunk, "status ", "an empty status stays empty: it clears the line");
	kd_err("%s: bad", "A");
	is_str(sunk, "error A: bad", "an error does not (it names its file)");
	kd_log_set_progress_prefix(NULL);
	kd_progress("done");
	is_str(sunk, "progress done", "no prefix: as before");
	kd_log_set_sink(NULL, NULL);
}

int main(void)
{
	test_str();
	test_plain();
	test_digest();
	test_buf();
	test_read_file();
	test_tmpfile_cache();
	test_tmpdir();
	test_write_atomic();
	test_read_head();
	test_hashmap();
	test_typegraph();
	test_arena();
	test_grow();
	test_find_named();
	test_cdecl();
	test_remove_tree();
	test_remove_deep_tree();
	test_json();
	test_eta();
	test_input_short();
	test_progress_prefix();
	return tap_done();
}

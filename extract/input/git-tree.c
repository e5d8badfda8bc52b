// SPDX-License-Identifier: GPL-2.0-only
/*
 * git_tree__export(): the UAPI headers of a revision read from the object
 * store as the raw blobs that were committed. `git ls-tree -r -z
 * --full-tree REV -- include/uapi arch/ARCH/include/uapi` lists them, `git
 * cat-file --batch` gives their bytes, and each is written below a fresh
 * directory. Nothing the repository configures runs: no filter or textconv
 * (git archive applied the smudge filter its attributes select, a command
 * named in the repository's config, and exported that command's output
 * instead of what was committed), no hook, no fsmonitor, no transport (a
 * partial clone's fetch of a missing object). The work tree, the index and
 * HEAD are never read, so a dirty checkout or one on another branch gives
 * the same answer. Blobs are bounded as package members are
 * (unpack-limits.h): each declares its size before its bytes come.
 */
#include "extract/input/git-tree.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "extract/input/package.h"
#include "extract/input/unpack-limits.h"
#include "lib/arch.h"
#include "lib/buf.h"
#include "lib/child.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/str.h"
#include "lib/tmpfile.h"

/* Object ids: 40 hex digits (SHA-1) or 64 (SHA-256). */
#define OID_MAX_HEX 64
/* An ls-tree record (mode, type, id, path) or a cat-file header line. */
#define RECORD_MAX (64u << 10)
#define PIPE_BLOCK (64u << 10)

struct blob {
	char oid[OID_MAX_HEX + 1];
	char *path;
};

struct export {
	const char *repo, *rev, *arch_dir, *dir;
	struct kd_buf label;		/* "git REV", for the unpack limits' messages */
	struct blob *blobs;
	size_t nr_blobs, cap_blobs;
	bool in_uapi, in_arch;		/* a blob under each root */
	struct unpack_budget budget;
};

/* Buffered reading of a git's standard output. */
struct pipe_in {
	int fd;
	char *buf;
	size_t pos, len;
};

/*
 * What a header tree needs of a source tree (kernel-input.c's third
 * layout): include/uapi/ and @arch_dir/ ("arch/x86/include/uapi").
 */
static bool wanted(const char *name, const char *arch_dir, bool *arch)
{
	size_t n = strlen(name), a = strlen(arch_dir);

	*arch = !strncmp(name, arch_dir, a) && name[a] == '/';
	if (n < 3 || !kpkg__uapi_file(name))
		return false;
	return kd_starts_with(name, "include/uapi/") || *arch;
}

/*
 * Start git on @repo with @args, its standard input @in (-1: /dev/null),
 * its standard output a pipe that @in_pipe reads, its messages on
 * kabi-diff's stderr. Whatever the repository could name to run is
 * switched off first (see the file's comment). 0 or a negative errno
 * (-ENOENT: no git).
 */
static int start_git(const char *repo, const char *const *args, int in, struct kd_child *c,
		     struct pipe_in *in_pipe)
{
	const char *argv[24] = { "git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
				 "-c", "protocol.allow=never", "-C", repo };
	struct kd_child_conf conf = {
		.argv = (char *const *)argv,
		.in = { .kind = in >= 0 ? KD_CHILD_FD : KD_CHILD_NULL, .fd = in },
		.out = { .kind = KD_CHILD_PIPE },
		.err = { .kind = KD_CHILD_FD, .fd = STDERR_FILENO },
	};
	size_t n = 9;
	int err;

	while (*args && n < sizeof(argv) / sizeof(argv[0]) - 1)
		argv[n++] = *args++;
	argv[n] = NULL;
	err = kd_child_start(c, &conf);
	in_pipe->fd = err ? -1 : c->out_fd;
	in_pipe->pos = in_pipe->len = 0;
	return err;
}

/*
 * Stop reading git's output (git, if still writing, gets SIGPIPE) and wait
 * for it: its exit status, or -1 when it did not exit (a signal).
 */
static int wait_git(struct kd_child *c, struct pipe_in *in)
{
	struct kd_child_status st;

	kd_child_close_pipe(c, 1);
	in->fd = -1;
	in->pos = in->len = 0;
	if (kd_child_wait(c, &st))
		return -1;
	return st.end == KD_CHILD_EXITED ? st.code : -1;
}

/* More bytes in @in's buffer: > 0, 0 at the end, or -errno. */
static ssize_t fill(struct pipe_in *in)
{
	ssize_t n;

	if (in->pos < in->len)
		return (ssize_t)(in->len - in->pos);
	do
		n = read(in->fd, in->buf, PIPE_BLOCK);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	in->pos = 0;
	in->len = (size_t)n;
	return n;
}

/*
 * The next record of @in up to @delim (left out) into @rec: 1, 0 at the
 * end of the output, -KD_EFORMAT for a record cut short, -E2BIG for one
 * longer than RECORD_MAX, or -errno.
 */
static int read_record(struct pipe_in *in, char delim, struct kd_buf *rec)
{
	kd_buf_reset(rec);
	for (;;) {
		ssize_t n = fill(in);
		const char *end;
		size_t take;
		int err;

		if (n <= 0)
			return n < 0 ? (int)n : rec->len ? -KD_EFORMAT : 0;
		end = memchr(in->buf + in->pos, delim, (size_t)n);
		take = end ? (size_t)(end - (in->buf + in->pos)) : (size_t)n;
		if (rec->len + take > RECORD_MAX)
			return -E2BIG;
		err = kd_buf_add(rec, in->buf + in->pos, take);
		if (err)
			return err;
		in->pos += take + (end ? 1 : 0);
		if (end)
			return 1;
	}
}

/* One blob's bytes from cat-file's output: @left of them. */
struct blob_in {
	struct pipe_in *in;
	uint64_t left;
	const char *label, *path;
};

static ssize_t read_blob(void *ctx, void *buf, size_t len)
{
	struct blob_in *b = ctx;
	ssize_t n;

	if (!b->left)
		return 0;
	n = fill(b->in);
	if (n <= 0) {
		kd_err("%s: %s: git cat-file ended inside the blob%s%s", b->label, b->path,
		       n ? ": " : "", n ? strerror((int)-n) : "");
		return -KD_EFORMAT;
	}
	if ((uint64_t)n > b->left)
		n = (ssize_t)b->left;
	if ((size_t)n > len)
		n = (ssize_t)len;
	memcpy(buf, b->in->buf + b->in->pos, (size_t)n);
	b->in->pos += (size_t)n;
	b->left -= (uint64_t)n;
	return n;
}

/* One ls-tree record, "MODE TYPE OID\tPATH": kept when it is a wanted regular file. */
static int add_listed(struct export *x, char *rec)
{
	char *tab = strchr(rec, '\t'), *type, *oid, *path;
	bool arch;
	int err;

	if (!tab || !(type = strchr(rec, ' ')) || !(oid = strchr(type + 1, ' ')) || oid > tab ||
	    (size_t)(tab - oid - 1) > OID_MAX_HEX) {
		kd_err("%s: git ls-tree %s: cannot parse '%.80s'", x->repo, x->rev, rec);
		return -KD_EFORMAT;
	}
	*type++ = *oid++ = *tab = '\0';
	path = tab + 1;
	/* Links (120000) and submodules (160000) are no headers of this tree. */
	if (strcmp(type, "blob") || (strcmp(rec, "100644") && strcmp(rec, "100755")) ||
	    !wanted(path, x->arch_dir, &arch))
		return 0;
	if (!kpkg__safe_relative(path)) {
		kd_err("%s: %s: leaves the tree", x->label.s, path);
		return -KD_EFORMAT;
	}
	err = unpack__check_depth(x->label.s, path, path);
	if (err)
		return err;
	if (x->nr_blobs >= UNPACK_MAX_FILES) {
		kd_err("%s: %s: more than %d members written, the limit of one input", x->label.s, path,
		       UNPACK_MAX_FILES);
		return -KD_ELIMIT;
	}
	err = KD_GROW(x->blobs, x->cap_blobs, x->nr_blobs + 1);
	if (err)
		return err;
	memcpy(x->blobs[x->nr_blobs].oid, oid, (size_t)(tab - oid) + 1);
	if (!(x->blobs[x->nr_blobs].path = kd_strdup(path)))
		return -ENOMEM;
	x->nr_blobs++;
	x->in_arch |= arch;
	x->in_uapi |= !arch;
	return 0;
}

/* The blobs of the revision: git ls-tree's listing. */
static int list_blobs(struct export *x, struct pipe_in *in)
{
	const char *args[] = { "ls-tree", "-r", "-z", "--full-tree", x->rev, "--", "include/uapi",
			       x->arch_dir, NULL };
	struct kd_buf rec = KD_BUF_INIT;
	struct kd_child git;
	int err = start_git(x->repo, args, -1, &git, in), rc, status;

	if (err == -ENOENT) {
		kd_err("%s: cannot run git (is it installed?)", x->repo);
		return -EIO;
	}
	if (err) {
		kd_err("%s: cannot start git: %s", x->repo, kd_strerror(err));
		return err;
	}
	while ((rc = read_record(in, '\0', &rec)) > 0 && !err)
		err = add_listed(x, rec.s);
	if (!err && rc < 0) {
		kd_err("%s: git ls-tree %s: %s", x->repo, x->rev,
		       rc == -E2BIG ? "an entry longer than 64 KiB" :
		       rc == -KD_EFORMAT ? "its output ends inside an entry" : kd_strerror(rc));
		err = rc;
	}
	status = wait_git(&git, in);
	kd_buf_release(&rec);
	if (err)
		return err;
	if (status) {
		kd_err("%s: git ls-tree %s failed (git's message above): no such revision,"
		       " or not a git repository", x->repo, x->rev);
		return -EIO;
	}
	if (!x->in_uapi || !x->in_arch) {
		kd_err("%s: revision %s has no header under %s", x->repo, x->rev,
		       x->in_uapi ? x->arch_dir : "include/uapi");
		return -ENOENT;
	}
	return 0;
}

/* An unlinked file of the blobs' ids, one a line: cat-file's standard input. */
static int ids_file(const struct export *x)
{
	struct kd_buf b = KD_BUF_INIT;
	size_t i, off = 0;
	int fd, err = kd_buf_addf(&b, "%s/.ids-XXXXXX", x->dir);

	fd = err ? err : mkstemp(b.s);
	if (fd < 0) {
		if (!err)
			err = -errno;
		kd_buf_release(&b);
		return err;
	}
	unlink(b.s);
	kd_buf_reset(&b);
	for (i = 0; !err && i < x->nr_blobs; i++)
		err = kd_buf_addf(&b, "%s\n", x->blobs[i].oid);
	while (!err && off < b.len) {
		ssize_t w = write(fd, b.s + off, b.len - off);

		if (w < 0 && errno != EINTR)
			err = -errno;
		else if (w > 0)
			off += (size_t)w;
	}
	if (!err && lseek(fd, 0, SEEK_SET) < 0)
		err = -errno;
	kd_buf_release(&b);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/* Blob @i from cat-file's output (its header line read into @rec) into its file. */
static int write_blob(struct export *x, struct pipe_in *in, size_t i, struct kd_buf *rec)
{
	const struct blob *bl = &x->blobs[i];
	size_t oid_len = strlen(bl->oid);
	struct kd_buf path = KD_BUF_INIT;
	struct blob_in src = { in, 0, x->label.s, bl->path };
	char *end;
	int fd = -1, err;

	if (rec->len <= oid_len + 6 || memcmp(rec->s, bl->oid, oid_len) ||
	    !kd_starts_with(rec->s + oid_len, " blob ")) {
		kd_err("%s: %s: git cat-file answered '%.80s'", x->label.s, bl->path, rec->s);
		return -KD_EFORMAT;
	}
	errno = 0;
	src.left = strtoull(rec->s + oid_len + 6, &end, 10);
	if (errno || *end || src.left > INT64_MAX) {
		kd_err("%s: %s: git cat-file answered '%.80s'", x->label.s, bl->path, rec->s);
		return -KD_EFORMAT;
	}
	err = unpack__admit(&x->budget, x->label.s, bl->path, UNPACK_HEADER, (int64_t)src.left, x->dir);
	if (!err)
		err = kpkg__make_parents(x->dir, bl->path);
	if (!err)
		err = kd_buf_addf(&path, "%s/%s", x->dir, bl->path);
	if (!err) {
		fd = open(path.s, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		err = fd < 0 ? -errno : 0;
	}
	if (!err)
		err = unpack__copy(&x->budget, x->label.s, bl->path, UNPACK_HEADER, (int64_t)src.left,
				   read_blob, &src, fd);
	/* Each blob ends with a newline of cat-file's. */
	if (!err && (fill(in) <= 0 || in->buf[in->pos++] != '\n')) {
		kd_err("%s: %s: git cat-file's answer does not end as it should", x->label.s, bl->path);
		err = -KD_EFORMAT;
	}
	if (fd >= 0 && close(fd) < 0 && !err)
		err = -errno;
	if (err && err != -KD_EFORMAT && err != -KD_ELIMIT && err != -ENOSPC)
		kd_err("%s: cannot write: %s", path.len ? path.s : x->dir, kd_strerror(err));
	kd_buf_release(&path);
	return err;
}

/* Every listed blob's bytes, from one git cat-file --batch. */
static int write_blobs(struct export *x, struct pipe_in *in)
{
	const char *args[] = { "cat-file", "--batch", NULL };
	struct kd_buf rec = KD_BUF_INIT;
	int ids = ids_file(x), err = 0, rc, status;
	struct kd_child git;
	size_t i;

	if (ids < 0) {
		kd_err("%s: cannot write the list of blobs: %s", x->dir, kd_strerror(ids));
		return ids;
	}
	err = start_git(x->repo, args, ids, &git, in);
	close(ids);
	if (err) {
		kd_err("%s: cannot start git: %s", x->repo, kd_strerror(err));
		return err;
	}
	for (i = 0; !err && i < x->nr_blobs; i++) {
		rc = read_record(in, '\n', &rec);
		if (rc <= 0) {
			kd_err("%s: %s: git cat-file gave no answer", x->label.s, x->blobs[i].path);
			err = rc < 0 ? rc : -KD_EFORMAT;
		} else {
			err = write_blob(x, in, i, &rec);
		}
	}
	status = wait_git(&git, in);
	kd_buf_release(&rec);
	if (!err && status) {
		kd_err("%s: git cat-file failed on revision %s (git's message above)", x->repo, x->rev);
		err = -EIO;
	}
	return err;
}

static int export(struct export *x)
{
	struct pipe_in in = { .fd = -1, .buf = kd_malloc(PIPE_BLOCK) };
	int err;

	if (x->rev[0] == '-') {
		kd_err("%s: not a revision (starts with '-')", x->rev);
		err = -KD_EUSAGE;
	} else if (!in.buf || kd_buf_addf(&x->label, "git %s", x->rev)) {
		err = -ENOMEM;
	} else {
		err = list_blobs(x, &in);
		if (!err)
			err = write_blobs(x, &in);
	}
	free(in.buf);
	return err;
}

int git_tree__export(const char *repo, const char *rev, const struct kd_arch *arch,
		     const char *parent, char **dir)
{
	struct kd_buf arch_dir = KD_BUF_INIT;
	struct export x = { .repo = repo, .rev = rev, .label = KD_BUF_INIT };
	size_t i;
	int err;

	*dir = NULL;
	if (!arch)
		arch = kd_arch__by_name("x86_64");
	err = kd_buf_addf(&arch_dir, "arch/%s/include/uapi", arch->uapi_dir);
	if (err)
		goto out;
	err = kd_tmpdir_create(parent, ".kabi-git-", dir);
	if (err) {
		kd_err("%s: cannot create a directory for revision %s: %s", parent, rev,
		       kd_strerror(err));
		goto out;
	}
	x.arch_dir = arch_dir.s;
	x.dir = *dir;
	err = export(&x);
	if (err) {
		kd_tmpdir_remove(*dir);
		*dir = NULL;
	}
out:
	for (i = 0; i < x.nr_blobs; i++)
		free(x.blobs[i].path);
	free(x.blobs);
	kd_buf_release(&x.label);
	kd_buf_release(&arch_dir);
	return err;
}

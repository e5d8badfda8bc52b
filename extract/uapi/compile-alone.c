// SPDX-License-Identifier: GPL-2.0-only
/*
 * Each UAPI header compiled alone, as the kernel's own header test
 * (usr/include/Makefile) compiles it: a translation unit of its own whose
 * DWARF gives the header's layouts. A header shares nothing with the
 * others: neither what an earlier header would have supplied (linux/sctp.h
 * takes MSG_FIN from a <sys/socket.h> some other header included), nor
 * what one leaves behind without an error -- a `#pragma pack(1)` never
 * popped, a `#define int long`, an #ifndef that another header's macro
 * answers -- which in a shared unit changed the layouts of every header
 * after it. So what each header gives is the same in every tree.
 *
 * One compiler driver takes a run of units (-c with several inputs: one
 * object per unit, in the work directory, where the compiler runs); it
 * goes on after a unit fails, so the cost is one cc1 and as per header,
 * not one driver. A unit is done when it left an object, a dependency file
 * (cc1 writes it when it finishes the unit, failed or not) or a fatal
 * error. The driver handles the units in order, so when it was stopped
 * (its time limit, a cc1 killed by its CPU or memory limit: "Killed signal
 * terminated program cc1") the first unit not done after the last one
 * done is the one it was on: that header fails with the limit it hit, and
 * the units after it go to another run.
 */
#include "extract/uapi/compile_internal.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/arena.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/path.h"

static int uapi_cc_unit_path(const struct cc_state *s, size_t h, const char *ext, struct kd_buf *b)
{
	kd_buf_reset(b);
	return kd_buf_addf(b, "%s/h%zu.%s", s->r->workdir, h, ext);
}

int uapi_cc_alone_start(struct cc_state *s, struct run *run)
{
	struct kd_buf path = KD_BUF_INIT, text = KD_BUF_INIT;
	struct kd_child_conf conf = { 0 };
	char **argv, **units;
	uint64_t left_ms;
	struct timespec now;
	size_t i, n = 0;
	int err;

	kd_buf_reset(&run->diag);
	argv = kd_calloc(s->nr_base + 4 + run->b.n, sizeof(*argv));
	units = kd_calloc(run->b.n + 1, sizeof(*units));
	err = argv && units ? 0 : -ENOMEM;
	for (i = 0; !err && i < run->b.n; i++) {
		size_t h = run->b.hdr[i];

		kd_buf_reset(&text);
		err = kd_buf_addf(&text, "#include <%s>\n", s->names[h]);
		/* What an earlier run that was stopped may have left of this unit. */
		if (!err)
			err = uapi_cc_unit_path(s, h, "o", &path);
		if (!err)
			unlink(path.s);
		if (!err)
			err = uapi_cc_unit_path(s, h, "d", &path);
		if (!err)
			unlink(path.s);
		if (!err)
			err = uapi_cc_unit_path(s, h, "c", &path);
		if (err)
			break;
		err = uapi_cc_write_text(path.s, text.s);
		if (err) {
			kd_err("%s: cannot write: %s", path.s, kd_strerror(err));
			break;
		}
		units[i] = kd_buf_detach(&path);
		err = units[i] ? 0 : -ENOMEM;
	}
	if (err)
		goto out;
	for (i = 0; i < s->nr_base; i++)
		argv[n++] = s->base_argv[i];
	argv[n++] = "-c";
	argv[n++] = "-MD";
	for (i = 0; i < run->b.n; i++)
		argv[n++] = units[i];
	argv[n] = NULL;
	clock_gettime(CLOCK_MONOTONIC, &now);
	left_ms = (s->budget_end_ns - ((uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec)) /
		  1000000u;
	conf = (struct kd_child_conf){
		.argv = argv,
		.envp = s->env,
		.cwd = s->r->workdir,
		.err = { KD_CHILD_CAPTURE, NULL, &run->diag, UAPI_CC_MAX_DIAG },
		.timeout_ms = left_ms < s->limits.run_seconds * 1000ull ? (unsigned)left_ms + 1 :
			      s->limits.run_seconds * 1000u,
		.cpu_seconds = s->limits.cpu_seconds,
		.address_space = s->limits.address_space,
		.file_size = UAPI_CC_MAX_FILE,
	};
	s->r->nr_runs++;
	err = kd_child_start(&run->child, &conf);
	if (err)
		kd_err("%s: cannot run: %s", s->cc, kd_strerror(err));
out:
	for (i = 0; units && i < run->b.n; i++)
		free(units[i]);
	free(units);
	free(argv);
	kd_buf_release(&path);
	kd_buf_release(&text);
	return err;
}

/* An unsigned field of @w bytes at @p, in the file's byte order. */
static uint64_t elf_field(const unsigned char *p, size_t w, bool le)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < w; i++)
		v |= (uint64_t)p[le ? i : w - 1 - i] << (8 * i);
	return v;
}

/*
 * Is @path a whole ELF file -- its section headers, which the assembler
 * writes last, inside it? An assembler stopped in the middle leaves a part.
 * *size: the file's size.
 */
static bool whole_elf(const char *path, uint64_t *size)
{
	unsigned char h[sizeof(Elf64_Ehdr)];
	uint64_t shoff, end;
	struct stat st;
	bool le, wide;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	ssize_t n;

	*size = 0;
	if (fd < 0)
		return false;
	n = fstat(fd, &st) || !S_ISREG(st.st_mode) ? -1 : pread(fd, h, sizeof(h), 0);
	close(fd);
	if (n < (ssize_t)sizeof(Elf32_Ehdr) || memcmp(h, ELFMAG, SELFMAG))
		return false;
	wide = h[EI_CLASS] == ELFCLASS64;
	le = h[EI_DATA] == ELFDATA2LSB;
	if (wide && n < (ssize_t)sizeof(Elf64_Ehdr))
		return false;
	shoff = wide ? elf_field(h + offsetof(Elf64_Ehdr, e_shoff), 8, le) :
		       elf_field(h + offsetof(Elf32_Ehdr, e_shoff), 4, le);
	end = shoff + (wide ? elf_field(h + offsetof(Elf64_Ehdr, e_shentsize), 2, le) *
			      elf_field(h + offsetof(Elf64_Ehdr, e_shnum), 2, le) :
			      elf_field(h + offsetof(Elf32_Ehdr, e_shentsize), 2, le) *
			      elf_field(h + offsetof(Elf32_Ehdr, e_shnum), 2, le));
	*size = (uint64_t)st.st_size;
	return shoff && end > shoff && end <= *size;
}

/* How one unit of a run came out. */
struct unit {
	size_t h;			/* the header: index into names */
	bool object;			/* a whole object */
	uint64_t object_size;
	bool dep;			/* a dependency file: cc1 finished the unit */
	bool done;			/* object, dependency file or fatal error */
};

/* Why the unit the compiler was on when it stopped did not compile. */
static int stopped_why(const struct cc_state *s, const struct kd_child_status *st,
		       const char *diag, const struct kd_buf *other, struct kd_buf *why)
{
	if (st->end == KD_CHILD_TIMED_OUT)
		return kd_buf_addf(why, "the compiler was stopped at its time limit"
				   " (%u s for a run; a header that reads a FIFO or never ends)",
				   s->limits.run_seconds);
	if (st->end == KD_CHILD_FLOODED)
		return kd_buf_addf(why, "the compiler's messages passed %u MiB",
				   UAPI_CC_MAX_DIAG >> 20);
	if (strstr(diag, "signal terminated program"))
		return kd_buf_addf(why, "the compiler hit a limit (%u CPU seconds,"
				   " %llu MiB of address space per process): %s", s->limits.cpu_seconds,
				   (unsigned long long)(s->limits.address_space >> 20),
				   other->len ? other->s : "killed");
	if (st->end != KD_CHILD_EXITED) {
		int err = kd_buf_adds(why, "the compiler was ");

		return err ? err : kd_child_describe(st, 0, why);
	}
	return kd_buf_adds(why, other->len ? other->s : "the compiler failed without a diagnostic");
}

/* One file a unit read, kept for the cache unless it is the work directory's. */
int uapi_cc_note_dep(struct cc_state *s, const char *path)
{
	size_t len = strlen(path), wlen = strlen(s->r->workdir);
	char *key;

	/* The units and the generated wrappers are made from the tree. */
	if (!strncmp(path, s->r->workdir, wlen) && path[wlen] == '/')
		return 0;
	if (umap_get(&s->dep_set, path, len))
		return 0;
	key = kd_arena_strndup(&s->arena, path, len);
	if (!key || KD_GROW(s->deps, s->cap_deps, s->nr_deps + 1))
		return -ENOMEM;
	s->deps[s->nr_deps++] = key;
	return umap_put(&s->dep_set, key, len, key);
}

static int add_dep(const char *path, void *ctx)
{
	return uapi_cc_note_dep(ctx, path);
}

static int uapi_cc_unit_deps(struct cc_state *s, const char *path)
{
	char *text = uapi_cc_read_text(path);
	int err = text ? uapi_cc_parse_deps(text, add_dep, s) : -ENOENT;

	free(text);
	return err;
}

static bool outside(void *ctx, const char *path, size_t len)
{
	return uapi_cc_outside(ctx, path, len);
}

/* Unit @u's outcome into an object or a failure. */
static int settle(struct cc_state *s, const struct unit *u, const struct uapi_cc_unit_diag *d,
		  const struct kd_buf *other)
{
	struct kd_buf path = KD_BUF_INIT, why = KD_BUF_INIT;
	int err = 0, refused = 0;

	if (u->dep) {
		err = uapi_cc_unit_path(s, u->h, "d", &path);
		if (!err)
			err = uapi_cc_unit_deps(s, path.s);
		/* Read outside the tree: refused whatever came of it, its object unused. */
		if (!err) {
			refused = uapi_cc_unit_confined(s, path.s, &why);
			err = refused < 0 ? refused : 0;
		}
		if (err == -ENOENT)
			err = 0;
	}
	if (err)
		goto out;
	if (refused > 0) {
		;	/* @why names the file */
	} else if (u->object && !u->dep) {
		/* What it read cannot be checked: the object is not used. */
		err = kd_buf_adds(&why, "the compiler left no list of the files it read");
	} else if (u->object && s->object_bytes + u->object_size > UAPI_CC_MAX_OBJECTS) {
		err = kd_buf_addf(&why, "the header view's objects would pass %llu MiB",
				  (unsigned long long)(UAPI_CC_MAX_OBJECTS >> 20));
	} else if (u->object) {
		err = uapi_cc_unit_path(s, u->h, "o", &path);
		if (!err)
			err = KD_GROW(s->objects, s->cap_objects, s->nr_objects + 1);
		if (!err) {
			s->objects[s->nr_objects] = kd_buf_detach(&path);
			err = s->objects[s->nr_objects] ? 0 : -ENOMEM;
		}
		if (!err) {
			s->nr_objects++;
			s->object_bytes += u->object_size;
			s->r->nr_compiled++;
		}
		goto out;
	} else if (d->first.len) {
		err = kd_buf_adds(&why, d->first.s);
	} else {
		err = kd_buf_adds(&why, other->len ? other->s :
				  "the compiler gave neither an object nor an error");
	}
	if (!err)
		err = uapi_cc_add_failure(s, s->names[u->h], why.s);
	/* Disk: a refused object is not kept until the end. */
	if (!err && u->object && !uapi_cc_unit_path(s, u->h, "o", &path))
		unlink(path.s);
out:
	kd_buf_release(&path);
	kd_buf_release(&why);
	return err;
}

int uapi_cc_alone_finish(struct cc_state *s, struct run *run, const struct kd_child_status *st,
			 bool over, struct batch *queue, size_t *nr_queue)
{
	struct kd_buf path = KD_BUF_INIT, other = KD_BUF_INIT, why = KD_BUF_INIT;
	struct uapi_cc_unit_diag *diag = NULL;
	struct batch again = { 0 };
	struct unit *units = NULL;
	const char **names = NULL;
	bool stopped;
	size_t k, n = run->b.n, culprit = n;
	int err = 0;

	units = kd_calloc(n, sizeof(*units));
	diag = kd_calloc(n, sizeof(*diag));
	names = kd_calloc(n + 1, sizeof(*names));
	again.hdr = kd_malloc_array(n + 1, sizeof(*again.hdr));
	if (!units || !diag || !names || !again.hdr) {
		err = -ENOMEM;
		goto out;
	}
	for (k = 0; !err && k < n; k++) {
		diag[k] = (struct uapi_cc_unit_diag){ KD_BUF_INIT, KD_BUF_INIT, false };
		units[k].h = run->b.hdr[k];
		err = uapi_cc_unit_path(s, units[k].h, "c", &path);
		if (!err) {
			names[k] = kd_arena_strdup(&s->arena, path.s);
			err = names[k] ? 0 : -ENOMEM;
		}
	}
	if (!err)
		err = uapi_cc_unit_errors(run->diag.s, names, n, s->prefixes, outside, s, diag,
					  &other);
	for (k = 0; !err && k < n; k++) {
		err = uapi_cc_unit_path(s, units[k].h, "o", &path);
		units[k].object = !err && whole_elf(path.s, &units[k].object_size);
		if (!err)
			err = uapi_cc_unit_path(s, units[k].h, "d", &path);
		units[k].dep = !err && kd_is_file(path.s);
		units[k].done = units[k].object || units[k].dep || diag[k].fatal;
	}
	if (err)
		goto out;
	/* Stopped, the compiler was on the first unit not done after the last one done. */
	stopped = st->end != KD_CHILD_EXITED || strstr(run->diag.s, "signal terminated program");
	for (k = n; stopped && k > 0 && !units[k - 1].done; k--)
		culprit = k - 1;
	if (culprit < n && !over)
		err = stopped_why(s, st, run->diag.s, &other, &why);
	for (k = 0; !err && k < n; k++) {
		if (units[k].done)
			err = settle(s, &units[k], &diag[k], &other);
		else if (over)
			err = uapi_cc_add_over_budget(s, units[k].h);
		else if (k == culprit)
			err = uapi_cc_add_failure(s, s->names[units[k].h], why.s);
		else if (k > culprit)
			again.hdr[again.n++] = units[k].h;
		else
			err = settle(s, &units[k], &diag[k], &other);
	}
	if (!err && again.n) {
		queue[(*nr_queue)++] = again;
		again.hdr = NULL;
	}
out:
	for (k = 0; diag && k < n; k++) {
		kd_buf_release(&diag[k].first);
		kd_buf_release(&diag[k].where);
	}
	free(diag);
	free(units);
	free(names);
	free(again.hdr);
	free(run->b.hdr);
	run->b.hdr = NULL;
	kd_buf_release(&path);
	kd_buf_release(&other);
	kd_buf_release(&why);
	return err;
}

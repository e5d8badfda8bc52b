/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * extract: a kernel build (vmlinux with DWARF, optionally its modules and
 * UAPI header tree) into one .kabi database. The only stage that reads ELF
 * and DWARF; everything it finds goes through db/kdb.h.
 */
#ifndef KD_EXTRACT_H
#define KD_EXTRACT_H

#include <stdbool.h>
#include <stdint.h>

struct kd_arch;
struct kdb;

/*
 * Modules that come one at a time instead of from a directory: those of a
 * distribution package, streamed (extract/input/package.h). The reader
 * asks for the next one only while the files handed over and not yet read
 * stay within a disk budget, and removes each file once read; it writes
 * the modules in the order of their names, as it does a directory's.
 */
struct extract_modules_feed {
	/*
	 * The next module, written to a new file *@file (the reader removes
	 * it); *@name says where the module is in its package: the path the
	 * modules table records and the order modules are written in. Both
	 * malloc'ed, the reader frees them. Returns 1, 0 after the last
	 * module, or a negative code (reported). Called from one thread,
	 * not the caller's.
	 */
	int (*next)(void *ctx, char **name, char **file);
	/*
	 * Optional, for the time left: how far the reading is, as bytes of
	 * the packages read so far (return) of all it will read (*@total,
	 * 0 when unknown). Called from next's thread, right after it.
	 */
	uint64_t (*position)(void *ctx, uint64_t *total);
	void *ctx;
	const char *what;	/* for messages: where the modules come from */
	const char *name;	/* for progress lines: @what, short (NULL: @what) */
	bool report;		/* a line on stderr when done: how much spool was used */
};

struct extract_conf {
	const char *vmlinux;	/* NULL: headers alone (uapi_dir required, modules ignored) */
	const char *output;	/* the .kabi to write (atomically) */
	/* vmlinux may be a bootable image (bzImage): types from its BTF, symbols from */
	const char *system_map;	/* this System.map (NULL: the one beside the image) */
	const char *uapi_dir;	/* optional: UAPI header tree */
	const char *modules_dir;/* optional: directory of .ko files */
	const struct extract_modules_feed *modules_feed; /* optional, instead of modules_dir */
	const char *spec_dir;	/* optional: contract to load into the DB (see before_commit) */
	/* optional: the debug images of the vDSO (vdso64.so), for signatures;
	 * NULL: VMLINUX's sibling directory vdso/ when there is one */
	const char *vdso_dir;
	const char *label;	/* headers alone: meta.release (default: uapi_dir) */
	const struct kd_arch *uapi_arch; /* headers alone: their architecture (NULL: the tree's) */
	int jobs;		/* worker threads for modules; 0 = number of CPUs */
	bool progress;		/* progress line on stderr (caller decides: tty and not -q) */
	/*
	 * One line per phase (compiling the headers, reading the modules,
	 * the signatures) on stderr, a terminal or not: a CI log showed
	 * nothing for a minute per side. Through kd_progress(), which -q
	 * silences; false where two extractions would interleave them.
	 */
	bool phases;
	/*
	 * Called with the complete DB just before it is committed, so the
	 * caller can add what extract does not know about (the contract);
	 * a negative return aborts the extraction and nothing is written.
	 */
	int (*before_commit)(struct kdb *db, void *ctx);
	void *before_commit_ctx;
};

/* The version written as meta tool_version ("git describe" of the build). */
const char *extract__tool_version(void);

struct extract_stats {
	int64_t syscalls;	/* table slots, all ABIs */
	int64_t functions;	/* syscalls with a signature */
	int64_t types;
	int64_t constants;
	int64_t ioctls;
	int64_t modules;
	int64_t problems;
	double vdso_seconds;	/* wall time of the vDSO pass (images and debug images) */
};

/*
 * Extract @conf->vmlinux (and the optional inputs) into @conf->output.
 * On any error nothing is written and an existing output is untouched.
 * Returns 0 or a negative code (the cause was reported with kd_err()).
 *
 * Limitation: once libdwarf 20210528 has read a relocatable object (a
 * module, with --modules), a later extraction in the same process fails
 * inside libdwarf's own set-up (state it keeps across handles). A process
 * runs at most one extraction with modules, last; `kabi-diff diff`
 * extracts in child processes for that reason.
 */
int extract__run(const struct extract_conf *conf, struct extract_stats *stats);

/*
 * Is @path a bootable image (an x86 bzImage, an arm64 Image, raw, gzip'ed
 * or EFI zboot), read through BTF and System.map?
 */
bool extract__is_boot_image(const char *path);

/*
 * Where the vDSO's debug images are for @conf: its vdso_dir, else a
 * directory vdso/ beside the vmlinux (a kernel directory:
 * DIR/{vmlinux,vdso/}). *out malloc'ed, NULL when there is none.
 */
int extract__vdso_dir(const struct extract_conf *conf, char **out);
/* The debug images extract reads in a vDSO directory (NULL-terminated). */
extern const char *const extract__vdso_files[];

/* Is @path named like a kernel module (*.ko, or compressed: .ko.xz, .ko.zst, .ko.gz)? */
bool extract__is_module_path(const char *path);

#endif

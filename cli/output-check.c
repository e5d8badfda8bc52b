// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_output_check(): the inputs as their readers see them. A package
 * list is as many files. A directory is where kernel_input__probe(), the
 * UAPI tree walker, the modules lister and spec__load_dir() take files by
 * their names; an output of such a name inside it would be read as part
 * of the input, this run's when it is there already, the next run's
 * otherwise. "Inside" is decided on devices and inodes, each directory
 * from the output's up to the root against the input directory, so a
 * link or a bind mount to it is inside too.
 */
#include "cli/output-check.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "extract/extract.h"
#include "extract/input/package.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/str.h"
#include "lib/tmpfile.h"

/*
 * Is @name one an input directory's readers take: a kernel image (the
 * names kernel_input__probe() looks for), a module, a header or Kbuild
 * list, a contract file?
 */
static bool read_by_name(const char *name)
{
	return !strcmp(name, "vmlinux") || kd_starts_with(name, "vmlinux-") ||
	       extract__is_module_path(name) || kpkg__uapi_file(name) ||
	       (name[0] != '.' && kd_ends_with(name, ".kabispec"));
}

/* Is the directory @real (absolute, no links) @dir itself or below it? Edits @real. */
static bool below(char *real, const struct stat *dir)
{
	for (;;) {
		struct stat st;
		char *slash;

		if (!stat(real, &st) && st.st_dev == dir->st_dev && st.st_ino == dir->st_ino)
			return true;
		slash = strrchr(real, '/');
		if (!slash || !real[1])
			return false;	/* the root was the last to compare */
		if (slash == real)
			slash[1] = '\0';
		else
			slash[0] = '\0';
	}
}

/* The directory @dest is in, resolved (malloc'ed); NULL when there is none. */
static char *real_parent(const char *dest)
{
	const char *slash = strrchr(dest, '/');
	struct kd_buf parent = KD_BUF_INIT;
	char *real = NULL;

	if (!slash)
		return realpath(".", NULL);
	if (!kd_buf_add(&parent, dest, slash == dest ? 1 : (size_t)(slash - dest)))
		real = realpath(parent.s, NULL);
	kd_buf_release(&parent);
	return real;
}

/* Refuse @dest when it is inside one of the directories among @inputs. */
static int check_directories(const char *dest, const char *const *inputs, size_t n)
{
	const char *base = strrchr(dest, '/') ? strrchr(dest, '/') + 1 : dest;
	char *real, *walk;
	int err = 0;

	if (!read_by_name(base) || !(real = real_parent(dest)))
		return 0;	/* no input reads it, or no such directory (the write will say) */
	walk = kd_malloc(strlen(real) + 1);
	for (size_t i = 0; walk && !err && i < n; i++) {
		struct stat dir;

		if (!inputs[i] || stat(inputs[i], &dir) || !S_ISDIR(dir.st_mode))
			continue;
		memcpy(walk, real, strlen(real) + 1);
		if (below(walk, &dir)) {
			kd_err("%s: inside the input directory %s, where a file of that name is read"
			       " as part of the input; write the output elsewhere", dest, inputs[i]);
			err = -KD_ESAMEFILE;
		}
	}
	if (!walk) {
		kd_err("out of memory");
		err = -ENOMEM;
	}
	free(walk);
	free(real);
	return err;
}

int cli_output_check(const char *dest, const char *const *inputs, size_t n)
{
	const char **files = NULL;
	char **lists = NULL;
	size_t nr = 0, cap = 0, nr_lists = 0, cap_lists = 0, i;
	int err = 0;

	if (!strcmp(dest, "-"))
		return 0;
	/* "a.deb,b.deb": the packages, each compared on its own. */
	for (i = 0; !err && i < n; i++) {
		char *copy, *save = NULL, *p;

		if (!inputs[i] || !strchr(inputs[i], ',') || !kpkg__is_package_list(inputs[i])) {
			err = KD_GROW(files, cap, nr + 1);
			if (!err)
				files[nr++] = inputs[i];
			continue;
		}
		err = KD_GROW(lists, cap_lists, nr_lists + 1);
		if (!err && !(copy = lists[nr_lists++] = kd_strdup(inputs[i])))
			err = -ENOMEM;
		for (p = err ? NULL : strtok_r(copy, ",", &save); !err && p; p = strtok_r(NULL, ",", &save)) {
			err = KD_GROW(files, cap, nr + 1);
			if (!err)
				files[nr++] = p;
		}
	}
	if (err)
		kd_err("out of memory");
	else
		err = kd_output_check(dest, files, nr);
	if (!err)
		err = check_directories(dest, files, nr);
	for (i = 0; i < nr_lists; i++)
		free(lists[i]);
	free(lists);
	free(files);
	return err;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The default contract of check and diff (cli/contract.h): the installed
 * spec directory, else the source tree's spec/ next to the running binary,
 * unless $KABI_DIFF_SPEC names another directory or "none". A directory
 * counts only when it holds a *.kabispec, so an empty DATADIR left by an
 * old install does not hide the source tree's contract.
 */
#include "cli/contract.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "version.h"
#include "lib/buf.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "spec/spec.h"

static bool holds_spec(const char *dir)
{
	struct dirent *e;
	bool found = false;
	DIR *d = opendir(dir);
	size_t n;

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		n = strlen(e->d_name);
		found = e->d_name[0] != '.' && n > 9 && !strcmp(e->d_name + n - 9, ".kabispec");
	}
	closedir(d);
	return found;
}

/* dirname(/proc/self/exe) + "/spec" into @b. */
static int source_tree_spec(struct kd_buf *b)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return -ENOENT;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	return kd_buf_addf(b, "%s/spec", exe);
}

int cli_contract_default_dir(char **dir)
{
	struct kd_buf b = KD_BUF_INIT;
	const char *env = getenv("KABI_DIFF_SPEC");

	*dir = NULL;
	if (env) {
		if (!*env || !strcmp(env, "none"))
			return 0;
		*dir = kd_strdup(env);
		return *dir ? 0 : -ENOMEM;
	}
	if (holds_spec(KD_DATADIR "/spec")) {
		*dir = kd_strdup(KD_DATADIR "/spec");
		return *dir ? 0 : -ENOMEM;
	}
	if (!source_tree_spec(&b) && holds_spec(b.s)) {
		*dir = kd_buf_detach(&b);
		return *dir ? 0 : -ENOMEM;
	}
	kd_buf_release(&b);
	return 0;
}

int cli_contract_load(const char *dir, struct spec **out)
{
	int err = spec__load_dir(dir, out);

	/* spec__load_dir() reported each cause; a syntax error gets a summary. */
	if (err == -KD_ESYNTAX)
		kd_err("%s: the spec has errors", dir);
	return err;
}

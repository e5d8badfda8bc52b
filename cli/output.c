// SPDX-License-Identifier: GPL-2.0-only
#include "cli/output.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/tmpfile.h"

int cli_write_output(const char *dest, cli_print_fn print, void *ctx)
{
	char *tmp = NULL;
	FILE *f;
	int fd, err;

	if (!dest)
		return print(stdout, ctx);
	fd = kd_tmpfile_create(dest, &tmp);
	if (fd < 0) {
		kd_err("%s: cannot create: %s", dest, kd_strerror(fd));
		return fd;
	}
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		goto fail;
	}
	err = print(f, ctx);
	if (fclose(f) && !err)
		err = -EIO;
	if (err)
		goto fail;
	err = kd_tmpfile_commit(tmp, dest);
	if (err)
		kd_err("%s: cannot rename into place: %s", dest, kd_strerror(err));
	free(tmp);
	return err;
fail:
	kd_err("%s: write error: %s", dest, kd_strerror(err));
	kd_tmpfile_discard(tmp);
	free(tmp);
	return err;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Around the driver (compile.c): the architectures, files in and out, a
 * compiler asked a question (through lib/child.c, its answer read from a
 * pipe), a source tree's generated wrappers, and the thread a
 * compilation runs in.
 */
#include "extract/uapi/compile_internal.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "extract/uapi/uapi_internal.h"
#include "lib/arch.h"
#include "lib/buf.h"
#include "lib/child.h"
#include "lib/err.h"
#include "lib/mem.h"
#include "lib/path.h"

/* A compiler asked a question (its version): seconds, address space, bytes of answer kept. */
#define CAPTURE_SECONDS 30
#define CAPTURE_MEMORY (1ull << 30)
#define CAPTURE_MAX (1u << 20)

char *uapi_cc_read_text(const char *path)
{
	struct kd_buf b = KD_BUF_INIT;

	if (kd_buf_read_file(&b, path)) {
		kd_buf_release(&b);
		return NULL;
	}
	return kd_buf_detach(&b);
}

int uapi_cc_write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return -errno;
	if (fputs(text, f) == EOF)
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/* @cc as an absolute path: searched in PATH when it has no slash. */
char *uapi_cc_find_program(const char *cc)
{
	const char *path = getenv("PATH"), *p;

	if (strchr(cc, '/'))
		return access(cc, X_OK) ? NULL : kd_strdup(cc);
	for (p = path ? path : "/usr/bin:/bin"; ; ) {
		size_t n = strcspn(p, ":");
		struct kd_buf b = KD_BUF_INIT;

		if (n && !kd_buf_addf(&b, "%.*s/%s", (int)n, p, cc) && !access(b.s, X_OK))
			return kd_buf_detach(&b);
		kd_buf_release(&b);
		if (!p[n])
			return NULL;
		p += n + 1;
	}
}

int uapi_cc_run_capture(char *const *argv, char **out)
{
	struct kd_buf text = KD_BUF_INIT;
	struct kd_child_status st;
	int err;

	*out = NULL;
	err = kd_child_run(&(struct kd_child_conf){
				   .argv = argv,
				   .out = { KD_CHILD_CAPTURE, NULL, &text, CAPTURE_MAX },
				   .timeout_ms = CAPTURE_SECONDS * 1000u,
				   .cpu_seconds = CAPTURE_SECONDS,
				   .address_space = CAPTURE_MEMORY,
			   }, &st);
	if (!err && !kd_child_succeeded(&st))
		err = -EIO;
	if (!err) {
		*out = kd_buf_detach(&text);
		if (!*out)
			err = -ENOMEM;
	}
	kd_buf_release(&text);
	return err;
}

static const char *const x86_64_flags[] = { "-m64", NULL };
static const char *const x86_64_not_roots[] = {
	"asm/unistd_32.h", "asm/unistd_x32.h", "asm/posix_types_32.h", "asm/posix_types_x32.h",
	NULL,
};
/* i386 user space: the same tree, its own 32-bit headers, the 64-bit ones never roots. */
static const char *const ia32_flags[] = { "-m32", NULL };
static const char *const ia32_not_roots[] = {
	"asm/unistd_64.h", "asm/unistd_x32.h", "asm/posix_types_64.h", "asm/posix_types_x32.h",
	NULL,
};

void uapi_cc_arch_init(struct uapi_cc_arch *out, const struct kd_arch *arch)
{
	const struct kd_arch *host = kd_arch__host();
	const char *cc = getenv("KABI_DIFF_CC");

	memset(out, 0, sizeof(*out));
	if (!arch)
		arch = kd_arch__by_name("x86_64");
	out->name = arch->name;
	if (!strcmp(arch->name, "x86_64")) {
		out->flags = x86_64_flags;
		out->not_roots = x86_64_not_roots;
	} else if (!strcmp(arch->name, "ia32")) {
		out->flags = ia32_flags;
		out->not_roots = ia32_not_roots;
		/* gcc -m32 needs the C library's 32-bit headers (Debian: libc6-dev-i386), checked first. */
		out->check_libc = true;
		if (host == kd_arch__by_name("x86_64"))
			host = arch;	/* the host's gcc, -m32 */
	}
	/* The host's own compiler, or Debian's cross compiler for another arch. */
	if (cc && *cc)
		snprintf(out->cc_buf, sizeof(out->cc_buf), "%s", cc);
	else if (host == arch)
		snprintf(out->cc_buf, sizeof(out->cc_buf), "gcc");
	else
		snprintf(out->cc_buf, sizeof(out->cc_buf), "%s-gcc", arch->gcc_triplet);
	out->cc = out->cc_buf;
}

bool uapi_cc_arch_skips(const struct uapi_cc_arch *arch, const char *name)
{
	const char *const *p;

	for (p = arch->not_roots; p && *p; p++)
		if (!strcmp(*p, name))
			return true;
	return false;
}

/*
 * A source tree's headers are not what headers_install writes: generate
 * the asm/ wrappers Kbuild would (every asm-generic header the arch
 * lacks), empty <linux/compiler*.h> and the annotations it strips.
 */
int uapi_cc_write_wrappers(const struct utree *tree, const char *wrap)
{
	static const char prelude[] =
		"#define __user\n#define __force\n#define __iomem\n#define __attribute_const__\n"
		"#define __packed __attribute__((packed))\n";
	struct kd_buf p = KD_BUF_INIT, q = KD_BUF_INIT;
	struct dirent *de;
	DIR *d = NULL;
	int err = -ENOMEM;

	if (kd_buf_addf(&p, "%s/asm", wrap) || (mkdir(p.s, 0700) && errno != EEXIST))
		goto out;
	kd_buf_reset(&p);
	if (kd_buf_addf(&p, "%s/linux", wrap) || (mkdir(p.s, 0700) && errno != EEXIST))
		goto out;
	kd_buf_reset(&p);
	err = kd_buf_addf(&p, "%s/linux/compiler.h", wrap);
	if (!err)
		err = uapi_cc_write_text(p.s, "");
	kd_buf_reset(&p);
	if (!err)
		err = kd_buf_addf(&p, "%s/linux/compiler_types.h", wrap);
	if (!err)
		err = uapi_cc_write_text(p.s, "");
	kd_buf_reset(&p);
	if (!err)
		err = kd_buf_addf(&p, "%s/kabi-prelude.h", wrap);
	if (!err)
		err = uapi_cc_write_text(p.s, prelude);
	if (err)
		goto out;
	kd_buf_reset(&p);
	err = kd_buf_addf(&p, "%s/asm-generic", tree->dirs[1]);
	if (err)
		goto out;
	d = opendir(p.s);
	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len < 3 || strcmp(de->d_name + len - 2, ".h") || strchr(de->d_name, '\n'))
			continue;
		kd_buf_reset(&q);
		err = kd_buf_addf(&q, "%s/asm/%s", tree->dirs[0], de->d_name);
		if (err)
			goto out;
		if (kd_is_file(q.s))
			continue;	/* the arch has its own */
		kd_buf_reset(&q);
		err = kd_buf_addf(&q, "%s/asm/%s", wrap, de->d_name);
		if (err)
			goto out;
		kd_buf_reset(&p);
		err = kd_buf_addf(&p, "#include <asm-generic/%s>\n", de->d_name);
		if (!err)
			err = uapi_cc_write_text(q.s, p.s);
		if (err)
			goto out;
	}
	err = 0;
out:
	if (d)
		closedir(d);
	if (err == -ENOMEM)
		kd_err("out of memory");
	else if (err)
		kd_err("%s: cannot write: %s", wrap, kd_strerror(err));
	kd_buf_release(&p);
	kd_buf_release(&q);
	return err;
}

/* --- in a thread ------------------------------------------------------------ */

struct uapi_cc_job {
	pthread_t thread;
	const struct utree *tree;
	const struct uapi_cc_conf *conf;
	struct uapi_cc_result *result;
	int err;
};

static void *job_main(void *arg)
{
	struct uapi_cc_job *job = arg;

	job->err = uapi_cc__compile(job->tree, job->conf, &job->result);
	return NULL;
}

int uapi_cc__start(const struct utree *tree, const struct uapi_cc_conf *conf,
		   struct uapi_cc_job **out)
{
	struct uapi_cc_job *job = kd_calloc(1, sizeof(*job));
	int rc;

	*out = NULL;
	if (!job)
		return -ENOMEM;
	job->tree = tree;
	job->conf = conf;
	rc = pthread_create(&job->thread, NULL, job_main, job);
	if (rc) {
		free(job);
		kd_err("cannot start a thread: %s", strerror(rc));
		return -rc;
	}
	*out = job;
	return 0;
}

int uapi_cc__finish(struct uapi_cc_job *job, struct uapi_cc_result **out)
{
	int err;

	*out = NULL;
	if (!job)
		return -EINVAL;
	pthread_join(job->thread, NULL);
	err = job->err;
	if (!err)
		*out = job->result;
	else
		uapi_cc_result__free(job->result);
	free(job);
	return err;
}

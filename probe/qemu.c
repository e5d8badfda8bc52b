// SPDX-License-Identifier: GPL-2.0-only
/*
 * Booting a kernel under QEMU with the probe as init, on the machine of its
 * architecture (probe/machine.c). TCG by default: it
 * works everywhere, and KVM on some hosts aborts on an MSR (seen here with
 * -cpu host); --accel kvm is the caller's choice. The VM has no network,
 * no disk, no display and no monitor: its only output is the serial
 * console, which QEMU writes to its stdout, and its only way out is the
 * probe's power-off (-no-reboot turns a panic's reboot into an exit too).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/err.h"
#include "probe/probe_internal.h"

/* Room for the fixed arguments below and a machine's own. */
#define BOOT_ARGV_MAX 40

int probe__boot(const struct probe_boot_conf *conf, const char *kernel,
		const char *initrd, struct kd_buf *console)
{
	struct kd_buf append = KD_BUF_INIT, mem = KD_BUF_INIT;
	const struct probe_machine *m = probe__machine(conf ? conf->arch : NULL);
	const char *qemu, *accel = conf && conf->accel ? conf->accel : "tcg";
	unsigned timeout = conf && conf->timeout_s ? conf->timeout_s : 60;
	char *argv[BOOT_ARGV_MAX];
	size_t n = 0, i;
	int err;

	if (!m) {
		kd_err("%s: the probe has no QEMU machine for %s kernels", kernel, conf->arch);
		return -KD_EUNSUPPORTED;
	}
	qemu = conf && conf->qemu ? conf->qemu : m->qemu;
	err = kd_buf_addf(&append, "console=%s panic=-1 quiet", m->console);
	if (!err && conf && conf->append && *conf->append)
		err = kd_buf_addf(&append, " %s", conf->append);
	if (!err)
		err = kd_buf_addf(&mem, "%u", conf && conf->memory_mb ? conf->memory_mb : 512);
	if (!err) {
		const char *fixed[] = {
			"-accel", accel, "-m", mem.s, "-nodefaults", "-no-user-config",
			"-display", "none", "-serial", "stdio", "-monitor", "none", "-nic", "none",
			"-no-reboot", "-kernel", kernel, "-initrd", initrd, "-append", append.s,
		};

		argv[n++] = (char *)qemu;
		for (i = 0; m->args[i] && n < BOOT_ARGV_MAX - 1; i++)
			argv[n++] = (char *)m->args[i];
		for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]) && n < BOOT_ARGV_MAX - 1; i++)
			argv[n++] = (char *)fixed[i];
		argv[n] = NULL;
		err = probe_run_cmd(argv, console, timeout, (size_t)PROBE_MAX_CONSOLE_MB << 20);
		if (err == -ENOENT)
			kd_err("probe: cannot run %s (Debian: apt-get install %s)", qemu, m->qemu_deb);
		else if (err > 0)
			err = -EIO;	/* QEMU's own message is in @console */
	}
	kd_buf_release(&append);
	kd_buf_release(&mem);
	return err;
}

int probe__tail(const char *console, int n, struct kd_buf *b)
{
	const char *end = console + strlen(console), *p = end;
	int lines = 0, err = 0;

	/* Skip trailing newlines, then walk back over @n lines. */
	while (p > console && (p[-1] == '\n' || p[-1] == '\r'))
		p--;
	end = p;
	while (p > console && lines < n) {
		p--;
		if (*p == '\n' && ++lines == n) {
			p++;
			break;
		}
	}
	while (!err && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		size_t i;

		err = kd_buf_adds(b, "  ");
		/* Console bytes may be anything: keep printable ASCII only. */
		for (i = 0; !err && i < len; i++) {
			unsigned char c = (unsigned char)p[i];

			if (c >= 0x20 && c < 0x7f)
				err = kd_buf_addc(b, (char)c);
			else if (c == '\t')
				err = kd_buf_addc(b, ' ');
		}
		if (!err)
			err = kd_buf_addc(b, '\n');
		p += len + 1;
	}
	return err;
}

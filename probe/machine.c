// SPDX-License-Identifier: GPL-2.0-only
/*
 * The VM a kernel is probed in, chosen by the architecture its .kabi
 * records: which QEMU, which machine and CPU, which serial console, and
 * which compiler builds the static probe for it. x86_64 boots on QEMU's
 * default PC (8250 UART, ttyS0; power off through ACPI); arm64 on the
 * "virt" board (PL011 UART, ttyAMA0; power off through PSCI), with the
 * "max" CPU: every feature TCG emulates, so a call that depends on one
 * (BTI, pointer authentication, SVE) meets it. pauth-impdef=on (QEMU 6.0
 * and later) signs pointers with QEMU's cheap implementation-defined
 * algorithm instead of emulating QARMA5, which no kernel can tell apart:
 * a boot of Debian's 6.1.0-47-arm64 to /init took 4.7 s instead of 10.8
 * s here (2 cores, load 7).
 *
 * x86_64's CPU is QEMU's qemu64 with RDRAND (TCG emulates it): the kernel
 * seeds its random pool from it at boot (random.trust_cpu, Debian's
 * default), where a qemu64 without it left the probe waiting 1.3 to 2.2 s
 * for the pool (its blocking getrandom() before the cases; Debian
 * 6.1.0-47, load 9). Nothing else of the CPU changes: no protection keys,
 * as the contract's pkey deviation says.
 */
#include "probe/probe.h"

#include <stddef.h>
#include <string.h>

#include "lib/arch.h"

static const char *const x86_64_args[] = { "-cpu", "qemu64,+rdrand", NULL };
static const char *const arm64_args[] = { "-M", "virt", "-cpu", "max,pauth-impdef=on", NULL };

static const struct probe_machine machines[] = {
	{ "x86_64", "qemu-system-x86_64", x86_64_args, "ttyS0", "qemu-system-x86",
	  "x86_64-linux-gnu-gcc", "gcc-x86-64-linux-gnu libc6-dev-amd64-cross" },
	{ "arm64", "qemu-system-aarch64", arm64_args, "ttyAMA0", "qemu-system-arm",
	  "aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu libc6-dev-arm64-cross" },
};

const struct probe_machine *probe__machine(const char *arch)
{
	size_t i;

	for (i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
		if (!strcmp(machines[i].arch, arch ? arch : "x86_64"))
			return &machines[i];
	return NULL;
}

const char *probe__default_cc(const char *arch)
{
	const struct probe_machine *m = probe__machine(arch);
	const struct kd_arch *host = kd_arch__host();

	if (!m || (host && !strcmp(host->name, m->arch)))
		return "cc";
	return m->cross_cc;
}

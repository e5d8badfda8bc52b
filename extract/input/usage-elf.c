// SPDX-License-Identifier: GPL-2.0-only
/*
 * An ELF binary as what a program uses, as far as it is cheaply visible:
 * - its dynamic imports (undefined .dynsym functions), each a candidate
 *   syscall name: a libc wrapper named as its syscall (openat, ioctl,
 *   statx) is that syscall; the diff keeps only names a kernel has. A
 *   wrapper named otherwise (open() calling openat, stat() calling
 *   newfstatat) or a syscall reached inside the C library is not seen;
 * - in x86-64 and i386 code, the direct syscalls: `mov $N, %eax` (or
 *   `%rax`) at most 16 bytes before a `syscall` (x86-64) or `int $0x80`
 *   (i386) instruction, N a number of the binary's ABI; a number set
 *   further away, computed, or passed to libc's syscall() is not seen;
 * - in x86-64 code of a program that uses ioctl, its command immediates:
 *   `mov $CMD, %esi` (ioctl's second argument) with CMD shaped as a
 *   command; the diff keeps only numbers a kernel defines. A command
 *   loaded from memory, computed, or passed through a function of the
 *   program's own is not seen. Other architectures: imports only.
 * The bytes are scanned, not disassembled: a match inside another
 * instruction can add a number the program does not use (a false use
 * only widens the report).
 */
#include "extract/input/usage.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/mem.h"
#include "lib/usage.h"

#define LOOKBACK 16	/* bytes before a syscall instruction searched for its number */
#define MAX_SYSCALL_NR 4096	/* above: not a syscall number of any ABI */

static const char unseen_x86[] =
	"libc functions not named as their syscall, syscalls inside the C library,"
	" numbers and ioctl commands not moved as immediates next to their use";
static const char unseen_other[] =
	"libc functions not named as their syscall, syscalls inside the C library,"
	" direct syscalls and ioctl commands (code is scanned on x86 only)";

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Is @cmd shaped as an ioctl command (a type byte; no size without a direction)? */
static bool cmd_shaped(uint32_t cmd)
{
	return (cmd >> 8 & 0xff) && ((cmd >> 30) || !(cmd >> 16));
}

/* The undefined functions of .dynsym (@scn, strings in section @link). */
static int imports(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct kd_usage *u, bool *ioctl)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n;

	if (!d || !sh->sh_entsize)
		return 0;
	n = d->d_size / sh->sh_entsize;
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx != SHN_UNDEF ||
		    (GELF_ST_TYPE(sym.st_info) != STT_FUNC && GELF_ST_TYPE(sym.st_info) != STT_NOTYPE &&
		     GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC))
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		*ioctl |= !strcmp(name, "ioctl");
		if (kd_usage_add_syscall(u, name, strlen(name)))
			return -ENOMEM;
	}
	return 0;
}

/* Direct syscalls of @code: `mov $N, %eax` shortly before the trap. */
static int scan_syscalls(const unsigned char *code, size_t size, bool x86_64, struct kd_usage *u,
			 bool *ioctl)
{
	size_t i, j;

	for (i = LOOKBACK; i + 1 < size; i++) {
		if (!(x86_64 ? code[i] == 0x0f && code[i + 1] == 0x05 :
			       code[i] == 0xcd && code[i + 1] == 0x80))
			continue;
		for (j = i - 5; j + LOOKBACK >= i; j--) {
			uint32_t nr;

			if (code[j] == 0xb8)
				nr = le32(code + j + 1);	/* mov $imm32, %eax */
			else if (x86_64 && j >= 2 && code[j - 2] == 0x48 && code[j - 1] == 0xc7 &&
				 code[j] == 0xc0)
				nr = le32(code + j + 1);	/* mov $imm32, %rax */
			else
				continue;
			if (nr < MAX_SYSCALL_NR) {
				if (kd_usage_add_syscall_nr(u, nr))
					return -ENOMEM;
				*ioctl |= x86_64 && nr == 16;	/* x86-64's ioctl */
			}
			break;
		}
	}
	return 0;
}

/* ioctl command immediates of x86-64 @code: `mov $CMD, %esi`. */
static int scan_ioctl_cmds(const unsigned char *code, size_t size, struct kd_usage *u)
{
	size_t i;

	for (i = 0; i + 5 <= size; i++)
		if (code[i] == 0xbe && cmd_shaped(le32(code + i + 1)) &&
		    kd_usage_add_ioctl_cmd(u, le32(code + i + 1)))
			return -ENOMEM;
	return 0;
}

/* Each executable section's bytes through @pass (0: syscalls, 1: ioctl commands). */
static int scan_code(Elf *elf, bool x86_64, int pass, struct kd_usage *u, bool *ioctl)
{
	Elf_Scn *scn = NULL;
	int err = 0;

	while (!err && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			continue;
		err = pass ? scan_ioctl_cmds(d->d_buf, d->d_size, u) :
			     scan_syscalls(d->d_buf, d->d_size, x86_64, u, ioctl);
	}
	return err;
}

static const char *elf_abi(const GElf_Ehdr *eh)
{
	switch (eh->e_machine) {
	case EM_X86_64: return eh->e_ident[EI_CLASS] == ELFCLASS64 ? "x64" : "x32";
	case EM_386: return "ia32";
	case EM_AARCH64: return "arm64";
	case EM_ARM: return "aarch32";
	default: return NULL;
	}
}

int usage__read_elf(const char *path, struct kd_usage *u)
{
	Elf *elf = NULL;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	struct stat st;
	bool ioctl = false, x86;
	int fd, err = 0;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		kd_err("libelf: %s", elf_errmsg(-1));
		return -KD_EFORMAT;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		err = -errno;
		kd_err("%s: %s", path, kd_strerror(err));
		return err;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		kd_err("%s: not a regular file", path);
		err = -KD_ENOTREG;
		goto out;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		kd_err("%s: unreadable ELF file: %s", path, elf_errmsg(-1));
		err = -KD_EFORMAT;
		goto out;
	}
	if (elf_abi(&eh) && !(u->abi = kd_strdup(elf_abi(&eh))))
		goto nomem;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNSYM &&
		    (err = imports(elf, scn, &sh, u, &ioctl)))
			goto nomem;
	}
	x86 = eh.e_machine == EM_X86_64 || eh.e_machine == EM_386;
	if (x86 && (err = scan_code(elf, eh.e_machine == EM_X86_64, 0, u, &ioctl)))
		goto nomem;
	if (x86 && ioctl && eh.e_machine == EM_X86_64 && (err = scan_code(elf, true, 1, u, &ioctl)))
		goto nomem;
	u->unseen = x86 ? unseen_x86 : unseen_other;
	u->imports_are_candidates = true;
	if (!(u->label = kd_strdup("ELF binary")))
		goto nomem;
	goto out;
nomem:
	kd_err("out of memory");
	err = -ENOMEM;
out:
	elf_end(elf);
	close(fd);
	return err;
}

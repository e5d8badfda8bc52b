// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ioctl command numbers a binary's x86-64 code compares or moves as
 * 32-bit immediates. A driver whose compat_ioctl is compat_ptr_ioctl may
 * still translate in its native handler: `case CHIOGSTATUS32:` compiles
 * to a `cmp $0x40086308, %esi` (or a `mov` of it). When an i386 command
 * number whose layout differs is one of these, the driver knows it: the
 * diff and check say "translated in the native handler" rather than
 * "broken". The bytes are scanned, not disassembled, so a value found is
 * evidence and a value absent is not (a switch compiled to a jump table
 * holds offsets from a base; a number built at run time is not there).
 */
#include "extract/ioctl_immediates_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mem.h"

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* _IOR/_IOW/_IOWR shaped: a direction, a size and a type byte (the only numbers a layout changes). */
static bool sized_cmd(uint32_t v)
{
	return (v >> 30) && (v >> 16 & 0x3fff) && (v >> 8 & 0xff);
}

/*
 * Where an imm32 operand starts at @p (@left bytes on), 0 when no
 * pattern: cmp $imm32, %eax (3d); cmp $imm32, r32 (81 /7, register
 * form); mov $imm32, r32 (b8+r); each after an optional REX prefix.
 */
static size_t imm_at(const unsigned char *p, size_t left)
{
	size_t i = left > 1 && (p[0] & 0xf0) == 0x40 ? 1 : 0;

	if (left < i + 5)
		return 0;
	if (p[i] == 0x3d || (p[i] >= 0xb8 && p[i] <= 0xbf && !(i && (p[0] & 0x08))))
		return i + 1;	/* (REX.W b8+r is a 64-bit mov: not this) */
	if (p[i] == 0x81 && left >= i + 6 && (p[i + 1] & 0xf8) == 0xf8)
		return i + 2;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

int ioctl_immediates__scan(const unsigned char *code, size_t size, uint32_t **v, size_t *n,
			   size_t *cap)
{
	size_t j;

	for (j = 0; j < size; j++) {
		size_t at;
		uint32_t val;
		int err;

		/* movabs $imm64 (REX.W b8+r): its operand holds no b8 of its own. */
		if (size - j >= 10 && (code[j] & 0xf8) == 0x48 && code[j + 1] >= 0xb8 &&
		    code[j + 1] <= 0xbf) {
			j += 9;
			continue;
		}
		at = imm_at(code + j, size - j);
		if (!at || !sized_cmd(val = le32(code + j + at)))
			continue;
		err = KD_GROW(*v, *cap, *n + 1);
		if (err)
			return err;
		(*v)[(*n)++] = val;
		j += at + 3;	/* past the operand: a REX prefix is not read again as code */
	}
	return 0;
}

int ioctl_immediates__read(struct kelf *k, uint32_t **out, size_t *n)
{
	uint32_t *v = NULL;
	size_t nr = 0, cap = 0, i, o;
	int err = 0;

	*out = NULL;
	*n = 0;
	if (k->ehdr.e_machine != EM_X86_64)
		return 0;
	for (i = 0; !err && i < k->nr_sections; i++) {
		struct kelf_section *s = &k->sections[i];
		const unsigned char *code;

		if (s->shdr.sh_type != SHT_PROGBITS || !(s->shdr.sh_flags & SHF_EXECINSTR))
			continue;
		if (!(code = kelf_section_data(k, s)))
			continue;	/* unreadable code: no evidence, which is what absence says */
		err = ioctl_immediates__scan(code, s->size, &v, &nr, &cap);
	}
	if (err) {
		free(v);
		return err;
	}
	if (nr)
		qsort(v, nr, sizeof(*v), cmp_u32);
	for (i = 0, o = 0; i < nr; i++)
		if (!o || v[o - 1] != v[i])
			v[o++] = v[i];
	*out = v;
	*n = o;
	return 0;
}

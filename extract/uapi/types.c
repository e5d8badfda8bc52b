// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAPI reader: the C types a header can name in sizeof(), casts and
 * ioctl macros. Plain types (keywords, the kernel's __u32-style typedefs)
 * have their LP64 sizes here, the same on x86_64 and arm64 but for plain
 * char's signedness (unsigned on arm64) and __kernel_old_dev_t (x86_64's
 * asm/posix_types_64.h: unsigned long; asm-generic: unsigned int); i386
 * programs' (ILP32) where they differ;
 * struct, union and enum sizes come from DWARF through the caller's
 * callback, asked once per type.
 */
#include "extract/uapi/uapi_internal.h"

#include <errno.h>
#include <string.h>

#include "lib/mem.h"

/* --- plain C types: sizes and casts ------------------------------------ */


static const struct ptype plain_types[] = {
	{ "__u8", 1, false, UC_INT, true }, { "__s8", 1, true, UC_INT, true },
	{ "__u16", 2, false, UC_INT, true }, { "__s16", 2, true, UC_INT, true },
	{ "__le16", 2, false, UC_INT, true }, { "__be16", 2, false, UC_INT, true },
	{ "__sum16", 2, false, UC_INT, true },
	{ "__u32", 4, false, UC_UINT, true }, { "__s32", 4, true, UC_INT, true },
	{ "__le32", 4, false, UC_UINT, true }, { "__be32", 4, false, UC_UINT, true },
	{ "__wsum", 4, false, UC_UINT, true }, { "__poll_t", 4, false, UC_UINT, true },
	{ "__u64", 8, false, UC_ULLONG, true }, { "__s64", 8, true, UC_LLONG, true },
	{ "__le64", 8, false, UC_ULLONG, true }, { "__be64", 8, false, UC_ULLONG, true },
	{ "__aligned_u64", 8, false, UC_ULLONG, true }, { "__aligned_le64", 8, false, UC_ULLONG, true },
	{ "__aligned_be64", 8, false, UC_ULLONG, true },
	{ "uint8_t", 1, false, UC_INT, true }, { "int8_t", 1, true, UC_INT, true },
	{ "uint16_t", 2, false, UC_INT, true }, { "int16_t", 2, true, UC_INT, true },
	{ "uint32_t", 4, false, UC_UINT, true }, { "int32_t", 4, true, UC_INT, true },
	{ "uint64_t", 8, false, UC_ULONG, true }, { "int64_t", 8, true, UC_LONG, true },
	{ "size_t", 8, false, UC_ULONG, true }, { "ssize_t", 8, true, UC_LONG, true },
	{ "uintptr_t", 8, false, UC_ULONG, true }, { "intptr_t", 8, true, UC_LONG, true },
	{ "ptrdiff_t", 8, true, UC_LONG, true },
	{ "__kernel_long_t", 8, true, UC_LONG, true }, { "__kernel_ulong_t", 8, false, UC_ULONG, true },
	{ "__kernel_size_t", 8, false, UC_ULONG, true }, { "__kernel_ssize_t", 8, true, UC_LONG, true },
	{ "__kernel_ptrdiff_t", 8, true, UC_LONG, true }, { "__kernel_off_t", 8, true, UC_LONG, true },
	{ "__kernel_loff_t", 8, true, UC_LLONG, true }, { "__kernel_time_t", 8, true, UC_LONG, true },
	{ "__kernel_time64_t", 8, true, UC_LLONG, true }, { "__kernel_clock_t", 8, true, UC_LONG, true },
	{ "__kernel_old_time_t", 8, true, UC_LONG, true },
	{ "__kernel_suseconds_t", 8, true, UC_LONG, true }, { "__kernel_ino_t", 8, false, UC_ULONG, true },
	{ "__kernel_pid_t", 4, true, UC_INT, true }, { "__kernel_ipc_pid_t", 4, true, UC_INT, true },
	{ "__kernel_uid_t", 4, false, UC_UINT, true }, { "__kernel_gid_t", 4, false, UC_UINT, true },
	{ "__kernel_uid32_t", 4, false, UC_UINT, true }, { "__kernel_gid32_t", 4, false, UC_UINT, true },
	{ "__kernel_mode_t", 4, false, UC_UINT, true }, { "__kernel_daddr_t", 4, true, UC_INT, true },
	{ "__kernel_timer_t", 4, true, UC_INT, true }, { "__kernel_clockid_t", 4, true, UC_INT, true },
	{ "__kernel_key_t", 4, true, UC_INT, true }, { "__kernel_mqd_t", 4, true, UC_INT, true },
	{ "__kernel_old_uid_t", 2, false, UC_INT, true }, { "__kernel_old_gid_t", 2, false, UC_INT, true },
	{ "__kernel_old_dev_t", 8, false, UC_ULONG, true },
	{ "float", 4, true, 0, false }, { "double", 8, true, 0, false },
};

/*
 * i386 (arch->ilp32): what differs from the table above, as i386's
 * <asm/posix_types_32.h> and glibc's -m32 headers have it: long, pointers
 * and size_t 4 bytes, 16-bit uid/gid/mode/ipc pid/old dev.
 */
static const struct ptype ilp32_types[] = {
	{ "uint64_t", 8, false, UC_ULLONG, true }, { "int64_t", 8, true, UC_LLONG, true },
	{ "size_t", 4, false, UC_UINT, true }, { "ssize_t", 4, true, UC_INT, true },
	{ "uintptr_t", 4, false, UC_UINT, true }, { "intptr_t", 4, true, UC_INT, true },
	{ "ptrdiff_t", 4, true, UC_INT, true },
	{ "__kernel_long_t", 4, true, UC_LONG, true }, { "__kernel_ulong_t", 4, false, UC_ULONG, true },
	{ "__kernel_size_t", 4, false, UC_UINT, true }, { "__kernel_ssize_t", 4, true, UC_INT, true },
	{ "__kernel_ptrdiff_t", 4, true, UC_INT, true }, { "__kernel_off_t", 4, true, UC_LONG, true },
	{ "__kernel_time_t", 4, true, UC_LONG, true }, { "__kernel_clock_t", 4, true, UC_LONG, true },
	{ "__kernel_old_time_t", 4, true, UC_LONG, true },
	{ "__kernel_suseconds_t", 4, true, UC_LONG, true }, { "__kernel_ino_t", 4, false, UC_ULONG, true },
	{ "__kernel_mode_t", 2, false, UC_INT, true }, { "__kernel_ipc_pid_t", 2, false, UC_INT, true },
	{ "__kernel_uid_t", 2, false, UC_INT, true }, { "__kernel_gid_t", 2, false, UC_INT, true },
	{ "__kernel_old_dev_t", 2, false, UC_INT, true },
};

static bool x86_64(const struct kd_arch *arch)
{
	return !arch || !strcmp(arch->name, "x86_64");
}

/* A type named by keywords ("unsigned long int") or a known typedef. */
bool plain_type(const struct kd_arch *arch, const struct utok *t, size_t n, struct ptype *out)
{
	int longs = 0, sign = 0, chr = 0, shrt = 0, in = 0, bl = 0, other = 0;
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (utok_is(&t[i], "const") || utok_is(&t[i], "volatile"))
			continue;
		if (utok_is(&t[i], "long")) longs++;
		else if (utok_is(&t[i], "unsigned")) sign = 2;
		else if (utok_is(&t[i], "signed")) sign = 1;
		else if (utok_is(&t[i], "char")) chr++;
		else if (utok_is(&t[i], "short")) shrt++;
		else if (utok_is(&t[i], "int")) in++;
		else if (utok_is(&t[i], "_Bool")) bl++;
		else if (utok_is(&t[i], "double") && longs == 1) {
			*out = (struct ptype){ "long double", arch && arch->ilp32 ? 12 : 16, true, 0, false };
			return n == 2 || n == 3;
		} else {
			for (j = 0; arch && arch->ilp32 && j < sizeof(ilp32_types) / sizeof(*ilp32_types); j++)
				if (utok_is(&t[i], ilp32_types[j].name))
					break;
			if (arch && arch->ilp32 && j < sizeof(ilp32_types) / sizeof(*ilp32_types)) {
				if (other)
					return false;
				*out = ilp32_types[j];
				other = 1;
				continue;
			}
			for (j = 0; j < sizeof(plain_types) / sizeof(*plain_types); j++)
				if (utok_is(&t[i], plain_types[j].name))
					break;
			if (j == sizeof(plain_types) / sizeof(*plain_types) || other)
				return false;
			*out = plain_types[j];
			if (!strcmp(out->name, "__kernel_old_dev_t") && !x86_64(arch))
				*out = (struct ptype){ "__kernel_old_dev_t", 4, false, UC_UINT, true };
			other = 1;
		}
	}
	if (other)
		return !(longs || sign || chr || shrt || in || bl);
	if (bl)
		*out = (struct ptype){ "_Bool", 1, false, UC_INT, true };
	else if (chr)
		*out = (struct ptype){ sign == 2 ? "unsigned char" : sign ? "signed char" : "char",
				       1, sign == 1 || (!sign && (!arch || arch->char_signed)), UC_INT,
				       true };
	else if (shrt)
		*out = (struct ptype){ sign == 2 ? "unsigned short" : "short", 2, sign != 2, UC_INT, true };
	else if (longs == 1)
		*out = (struct ptype){ "long", arch && arch->ilp32 ? 4 : 8, sign != 2,
				       sign == 2 ? UC_ULONG : UC_LONG, true };
	else if (longs == 2)
		*out = (struct ptype){ "long long", 8, sign != 2, sign == 2 ? UC_ULLONG : UC_LLONG, true };
	else if (in || sign)
		*out = (struct ptype){ "int", 4, sign != 2, sign == 2 ? UC_UINT : UC_INT, true };
	else
		return false;
	return longs <= 2 && chr + shrt + bl <= 1 && in <= 1 && (!chr || !longs);
}

int utype_text(struct kd_buf *b, const struct utok *t, size_t n)
{
	size_t i;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		bool word = t[i].kind == UT_IDENT || t[i].kind == UT_NUMBER;
		bool prev_word = i && (t[i - 1].kind == UT_IDENT || t[i - 1].kind == UT_NUMBER);

		if (i && ((word && prev_word) || (utok_is(&t[i], "*") && prev_word)))
			err = kd_buf_addc(b, ' ');
		if (!err)
			err = kd_buf_add(b, t[i].s, t[i].len);
	}
	return err;
}

/*
 * _IOWR(CM_IOC_MAGIC, 1, atreq_t *): the number is the pointer's, but the
 * driver copies an atreq_t. Asking the caller for the pointee t[0..n) (a
 * name, or a tag and a name) has the kernel's binaries searched for it, and
 * for the tag a typedef names (struct atreq: cm4000_cs.ko's DWARF has no
 * atreq_t): which binary defines it tells the diff whether the command was
 * served.
 */
static int ask_pointee(struct usizer *sz, const struct utok *t, size_t n)
{
	const struct usize_ans *pointee;
	const char *tag;
	struct utoks tt = { 0 };
	int err = 0;

	while (n && (utok_is(&t[n - 1], "const") || utok_is(&t[n - 1], "volatile")))
		n--;
	while (n && (utok_is(&t[0], "const") || utok_is(&t[0], "volatile"))) {
		t++;
		n--;
	}
	if (n == 2 && t[1].kind == UT_IDENT &&
	    (utok_is(&t[0], "struct") || utok_is(&t[0], "union") || utok_is(&t[0], "enum")))
		return usizer_size(sz, t, n, &pointee);
	if (n != 1 || t[0].kind != UT_IDENT || utok_is(&t[0], "void"))
		return 0;
	err = usizer_size(sz, t, n, &pointee);
	tag = err ? NULL : umap_get(&sz->tags, t[0].s, t[0].len);
	if (tag)
		err = ulex(tag, strlen(tag), &tt);
	if (tag && !err)
		err = usizer_size(sz, tt.v, tt.n, &pointee);
	utoks_release(&tt);
	return err;
}

static int size_of(struct usizer *sz, const struct utok *t, size_t n, struct usize_ans *a)
{
	struct ptype p;
	size_t i;

	memset(a, 0, sizeof(*a));
	while (n && (utok_is(&t[n - 1], "const") || utok_is(&t[n - 1], "volatile")))
		n--;
	if (n && utok_is(&t[n - 1], "*")) {
		a->known = a->trusted = true;
		a->info.size = sz->arch && sz->arch->ilp32 ? 4 : 8;
		return ask_pointee(sz, t, n - 1);
	}
	if (n && utok_is(&t[n - 1], "]")) {
		const struct usize_ans *elem;
		struct ueval e = { .sizer = sz, .arch = sz->arch };
		struct uval count;
		int err;

		for (i = n - 1; i > 0 && !utok_is(&t[i], "["); i--)
			;
		if (!i || ueval(&e, t + i + 1, n - 2 - i, &count) || (int64_t)count.v < 0)
			return 0;
		err = usizer_size(sz, t, i, &elem);
		if (err || !elem->known)
			return err;
		*a = *elem;
		a->info.size = elem->info.size * (int64_t)count.v;
		a->info.type_id = 0;
		return 0;
	}
	if (plain_type(sz->arch, t, n, &p)) {
		a->known = a->trusted = true;
		a->info.size = p.size;
		return 0;
	}
	return 1;	/* ask the caller */
}

int usizer_size(struct usizer *sz, const struct utok *t, size_t n, const struct usize_ans **ans)
{
	struct kd_buf text = KD_BUF_INIT;
	struct usize_ans *a;
	char *key;
	int err, r;

	*ans = NULL;
	err = utype_text(&text, t, n);
	if (err)
		goto out;
	a = umap_get(&sz->cache, text.s, text.len);
	if (a) {
		*ans = a;
		goto out;
	}
	err = -ENOMEM;
	a = kd_arena_alloc(sz->arena, sizeof(*a));
	key = kd_arena_strndup(sz->arena, text.s, text.len);
	if (!a || !key)
		goto out;
	err = size_of(sz, t, n, a);
	if (err == 1) {
		err = 0;
		r = sz->cb ? sz->cb(key, &a->info, sz->ctx) : 0;
		if (r < 0) {
			sz->hard_error = r;
			err = r;
			goto out;
		}
		a->known = a->trusted = r > 0;
	}
	if (err)
		goto out;
	err = umap_put(&sz->cache, key, text.len, a);
	if (!err)
		*ans = a;
out:
	kd_buf_release(&text);
	return err;
}


// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAPI reader: the C library headers that the #ifndef __KERNEL__ branches
 * of the UAPI headers include, as far as the preprocessor needs them.
 * <linux/input.h>, <linux/auto_fs.h>, <linux/joystick.h>, <linux/uinput.h>
 * and <sound/asound.h> take _IOR() and friends from <sys/ioctl.h>, which
 * reaches the kernel's own <asm/ioctls.h> (glibc: bits/ioctls.h); without
 * it their ioctls would not evaluate. <limits.h>, <stdint.h> and
 * <endian.h> give the values glibc gives (the netfilter priorities are
 * INT_MIN and INT_MAX; asound.h tests __BYTE_ORDER). The rest declare
 * only types, which the compiled header view sizes: they are known, and
 * empty here. Macros of these files are the C library's, never constants
 * of the tree. Values are written with the compiler's predefined macros,
 * so they hold for every LP64 architecture the preprocessor emulates.
 */
#include "extract/uapi/uapi_internal.h"
#include "lib/find.h"

#include <string.h>

static const struct libc_header {
	const char *name;
	const char *text;
} libc_headers[] = {
	{ "sys/ioctl.h", "#include <asm/ioctls.h>\n" },
	{ "limits.h",
	  "#define CHAR_BIT __CHAR_BIT__\n"
	  "#define SCHAR_MAX __SCHAR_MAX__\n#define SCHAR_MIN (-SCHAR_MAX - 1)\n"
	  "#define UCHAR_MAX (SCHAR_MAX * 2 + 1)\n"
	  "#ifdef __CHAR_UNSIGNED__\n#define CHAR_MAX UCHAR_MAX\n#define CHAR_MIN 0\n"
	  "#else\n#define CHAR_MAX SCHAR_MAX\n#define CHAR_MIN SCHAR_MIN\n#endif\n"
	  "#define SHRT_MAX __SHRT_MAX__\n#define SHRT_MIN (-SHRT_MAX - 1)\n"
	  "#define USHRT_MAX (SHRT_MAX * 2 + 1)\n"
	  "#define INT_MAX __INT_MAX__\n#define INT_MIN (-INT_MAX - 1)\n"
	  "#define UINT_MAX (INT_MAX * 2U + 1U)\n"
	  "#define LONG_MAX __LONG_MAX__\n#define LONG_MIN (-LONG_MAX - 1L)\n"
	  "#define ULONG_MAX (LONG_MAX * 2UL + 1UL)\n"
	  "#define LLONG_MAX __LONG_LONG_MAX__\n#define LLONG_MIN (-LLONG_MAX - 1LL)\n"
	  "#define ULLONG_MAX (LLONG_MAX * 2ULL + 1ULL)\n" },
	{ "stdint.h",
	  "#define INT8_MIN (-128)\n#define INT8_MAX (127)\n#define UINT8_MAX (255)\n"
	  "#define INT16_MIN (-32767-1)\n#define INT16_MAX (32767)\n#define UINT16_MAX (65535)\n"
	  "#define INT32_MIN (-2147483647-1)\n#define INT32_MAX (2147483647)\n"
	  "#define UINT32_MAX (4294967295U)\n"
	  "#define INT64_MIN (-__INT64_C(9223372036854775807)-1)\n"
	  "#define INT64_MAX (__INT64_C(9223372036854775807))\n"
	  "#define UINT64_MAX (__UINT64_C(18446744073709551615))\n"
	  "#define __INT64_C(c) c ## L\n#define __UINT64_C(c) c ## UL\n"
	  "#define SIZE_MAX (18446744073709551615UL)\n" },
	{ "endian.h",
	  "#define __LITTLE_ENDIAN 1234\n#define __BIG_ENDIAN 4321\n#define __PDP_ENDIAN 3412\n"
	  "#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__\n#define __BYTE_ORDER __BIG_ENDIAN\n"
	  "#else\n#define __BYTE_ORDER __LITTLE_ENDIAN\n#endif\n"
	  "#define LITTLE_ENDIAN __LITTLE_ENDIAN\n#define BIG_ENDIAN __BIG_ENDIAN\n"
	  "#define PDP_ENDIAN __PDP_ENDIAN\n#define BYTE_ORDER __BYTE_ORDER\n" },
	/* Types only (sized by the compiled header view). */
	{ "stddef.h", "" }, { "stdlib.h", "" }, { "string.h", "" }, { "unistd.h", "" },
	{ "time.h", "" }, { "sys/types.h", "" }, { "sys/time.h", "" }, { "sys/socket.h", "" },
	{ "netinet/in.h", "" }, { "netinet/if_ether.h", "" }, { "stdbool.h", "" },
};

const char *ulibc_header(const char *name)
{
	const struct libc_header *h = KD_FIND_NAMED(const struct libc_header, libc_headers,
						   sizeof(libc_headers) / sizeof(libc_headers[0]),
						   name, name);

	return h ? h->text : NULL;
}

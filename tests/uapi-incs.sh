# SPDX-License-Identifier: GPL-2.0-only
# Sourced by tests/uapi-probe.sh and tests/ioctl-oracle.sh: the compiler's
# include path for a UAPI header tree, as user space sees the kernel's.
#
# uapi_incs DIR ARCH_DIR WORK: sets $incs, the compiler's flags. DIR with
# linux/ and asm/ is a headers_install tree: "-IDIR", $uapi_inc and
# $uapi_arch empty. Otherwise DIR is a source tree or a Debian
# linux-headers-*-common include/: $uapi_inc is its include directory (with
# uapi/), $uapi_arch its arch/ARCH_DIR/include/uapi, and WORK/wrap holds
# what Kbuild and headers_install would add: an asm/X.h including
# asm-generic/X.h for each generic header the arch lacks, an empty
# linux/compiler.h and compiler_types.h (headers_install deletes their
# includes), and a prelude defining away the annotations it strips.
uapi_incs() {
	uapi_inc= uapi_arch=
	if [ -d "$1/linux" ] && [ -d "$1/asm" ]; then
		incs="-I$1"
		return 0
	fi
	uapi_inc=$1; [ -d "$uapi_inc/uapi/linux" ] || uapi_inc=$1/include
	uapi_arch=$uapi_inc/arch/$2/include/uapi
	[ -d "$uapi_arch" ] || uapi_arch=$uapi_inc/../arch/$2/include/uapi
	mkdir -p "$3/wrap/asm" "$3/wrap/linux"
	for g in "$uapi_inc"/uapi/asm-generic/*.h; do
		b=$(basename "$g")
		[ -e "$uapi_arch/asm/$b" ] || echo "#include <asm-generic/$b>" >"$3/wrap/asm/$b"
	done
	: >"$3/wrap/linux/compiler.h"; : >"$3/wrap/linux/compiler_types.h"
	printf '%s\n' '#define __user' '#define __force' '#define __iomem' '#define __attribute_const__' \
		'#define __packed __attribute__((packed))' >"$3/wrap/kd-prelude.h"
	incs="-I$uapi_arch -I$uapi_inc/uapi -I$3/wrap -include $3/wrap/kd-prelude.h"
}

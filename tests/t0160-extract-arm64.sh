#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# extract on an arm64 kernel: the sample kernel cross-compiled for aarch64
# (aarch64-linux-gnu-gcc -g) and linked as arch/arm64 links vmlinux, so
# its sys_call_table and ftrace metadata arrays are zero in the file and
# filled from .rela.dyn (R_AARCH64_RELATIVE; without -Bsymbolic,
# R_AARCH64_ABS64 against the entry points). Checks the tables of both
# ABIs (arm64 and the AArch32 compat table), signatures, layouts equal to
# the x86_64 build's, and refusals of relocations the reader cannot compute.
. "$KD_SRCDIR/lib.sh"

need_aarch64_cc
# Only the builds below are for arm64 (fixture_db builds x86_64).
arm64_kernel() {
	KD_FIXTURE_ARCH=arm64 "$KD_SRCDIR/fixtures/build-kernel.sh" "$@"
}
scratch arm64

"$cc" -O2 -ffreestanding -fno-pic -c "$KD_SRCDIR/fixtures/meta.c" -o meta.o
arm64_kernel k -DKABI_META meta.o
ok $? "cross-compile and link the aarch64 sample kernel" || done_testing
is "$(readelf -h k | awk '/Machine:/ { $1 = ""; print substr($0, 2) } /Type:/ { print $2 }' | tr '\n' ' ')" \
	"DYN AArch64 " "ET_DYN, EM_AARCH64, as Debian's arm64 vmlinux"

# section FILE NAME|INDEX: "INDEX NAME TYPE ADDR OFF SIZE ..." of readelf -S.
section() {
	readelf -SW "$1" | sed -n 's/^ *\[ *\([0-9]*\)\] */\1 /p' | awk -v n="$2" '$1 == n || $2 == n'
}

# The table's words in the file: all zero (the loader fills them).
tab=$(readelf -sW k | awk '$8 == "sys_call_table" { print $2; exit }')
set -- $(section k "$(readelf -sW k | awk '$8 == "sys_call_table" { print $7; exit }')")
# (low 32 bits: shell arithmetic is signed 64-bit)
off=$(( 0x${tab#????????} - 0x${4#????????} + 0x$5 ))
is "$(od -An -v -tx1 -j "$off" -N 80 k | tr -d ' \n' | tr -d 0)" "" "sys_call_table is zero in the file"
is "$(readelf -rW k | grep -c R_AARCH64_RELATIVE)" "19" \
	"filled by 19 R_AARCH64_RELATIVE entries (9 + 6 table slots, 4 metadata pointers)"

"$KABI_DIFF" extract -q k -o k.kabi
is "$?" "0" "extract"
is "$(q k.kabi "SELECT value FROM meta WHERE key = 'arch'")" "arm64" "arch recorded"
is "$("$KABI_DIFF" show k.kabi info | grep '^arch')" "arch            arm64" "show info names the arch"
# check holds the spec against the arm64 table, not the x64 rows it lacks.
mkdir -p spec && printf 'syscall read(fd: fd, buf: ptr out void, count: len buf) -> count;\nsyscall fxgone() -> 0;\n' >spec/s.kabispec
"$KABI_DIFF" check k.kabi --spec spec >check.txt
is "$?|$(sed 1d check.txt | grep -v -e syscall-unspecified -e '^note: ')" "4|s.kabispec:2: syscall-missing: fxgone: not in the kernel's arm64 syscall table
coverage: 1/8 syscalls specified
8 findings" "check: the arm64 table's 8 implemented syscalls, read specified, fxgone missing from it"
is "$("$KABI_DIFF" spec init k.kabi | sed -n 's/^syscall \([a-z0-9_]*\)(.*/\1/p' | sort | tr '\n' ' ')" \
	"fxlegacy fxold fxstat getpid metaonly openat openat2 read " "spec init: a skeleton of the arm64 table's syscalls"
is "$(q k.kabi "SELECT abi, nr, ifnull(name, '-'), ifnull(entry, '-'), implemented FROM syscalls
	ORDER BY abi <> 'arm64', nr")" \
"arm64|0|read|__arm64_sys_read|1
arm64|1|-|__arm64_sys_ni_syscall|0
arm64|2|openat|__arm64_sys_openat|1
arm64|3|getpid|__arm64_sys_getpid|1
arm64|4|fxstat|__arm64_sys_fxstat|1
arm64|5|fxlegacy|__arm64_sys_fxlegacy|1
arm64|6|openat2|__arm64_sys_openat2|1
arm64|7|fxold|__arm64_sys_fxold|1
arm64|8|-|-|0
arm64|9|metaonly|__arm64_sys_metaonly|1
aarch32|0|-|__arm64_sys_ni_syscall|0
aarch32|1|getpid|__arm64_sys_getpid|1
aarch32|2|read|__arm64_sys_read|1
aarch32|3|fxstat|__arm64_compat_sys_fxstat|1
aarch32|4|-|__arm64_sys_ni_syscall|0
aarch32|5|ftruncate64|__arm64_compat_sys_aarch32_ftruncate64|1" \
	"both tables through the relocations: numbers, names, entries, empty and ni slots"

sig() {
	q k.kabi "SELECT group_concat(d, ', ') FROM (SELECT p.type_text || ' ' || p.name AS d
		FROM syscalls s JOIN params p ON p.func_id = s.func_id
		WHERE s.abi = '$1' AND s.name = '$2' ORDER BY p.pos)"
}
is "$(sig arm64 openat)" "int dfd, const char * filename, int flags, umode_t mode" "openat signature"
is "$(sig arm64 openat2)" "int dfd, const char * filename, struct open_how * how, size_t usize" "openat2 signature"
is "$(sig aarch32 fxstat)" "int fd, struct fx_stat * st" "compat signature from __do_compat_sys_fxstat"
is "$(sig aarch32 ftruncate64)" "unsigned int fd, __u32 __pad, __u32 lo, __u32 hi" "AArch32 wrapper's own signature"
is "$(q k.kabi "SELECT count(*) FROM syscalls s JOIN params p ON p.func_id = s.func_id WHERE s.name = 'getpid'")" \
	"0" "SYSCALL_DEFINE0: no parameters"
is "$(q k.kabi "SELECT group_concat(d, ', ') FROM (SELECT p.type_text || ' ' || p.name AS d
	FROM params p JOIN functions f ON f.id = p.func_id WHERE f.name = 'sys_metaonly' ORDER BY p.pos)")" \
	"unsigned int fd, const char * name" "metadata strings through relocated pointer arrays"
is "$(q k.kabi "SELECT count(*) FROM problems")" "0" "no problems"

# Layouts are the same C types on both LP64 ABIs: the x86_64 build's text.
x86=$(fixture_db v1-dwarf5 -gdwarf-5)
for s in fx_stat fx_bits fx_node open_how; do
	is "$("$KABI_DIFF" show k.kabi struct $s)" "$("$KABI_DIFF" show "$x86" struct $s)" \
		"struct $s: the same layout as on x86_64"
done

# diff of two arm64 builds: the x86_64 pair's report, ABI names aside.
arm64_kernel k1
arm64_kernel k2 -DKABI_V2
"$KABI_DIFF" extract -q k1 -o k1.kabi && "$KABI_DIFF" extract -q k2 -o k2.kabi
"$KABI_DIFF" diff --full k1.kabi k2.kabi >arm64.txt
is "$?" "12" "diff of two arm64 kernels: exit 12 (changes, breaking)"
x86_new=$(fixture_db v2-dwarf5 -DKABI_V2 -gdwarf-5)
"$KABI_DIFF" diff --full "$x86" "$x86_new" | sed -e 1d -e '/^build-id: /d' -e 's/ (x64): / (arm64): /' >x86.txt
sed -e 1d -e '/^build-id: /d' arm64.txt >arm64-body.txt
cmp -s x86.txt arm64-body.txt
ok $? "the same changes and verdicts as x86_64's pair ($(grep -c 'syscall\.\|type\.' x86.txt) lines)" ||
	diff -u x86.txt arm64-body.txt | sed 's/^/#   /' | head -20
msg=$("$KABI_DIFF" diff k1.kabi "$x86_new" 2>&1 >/dev/null)
is "$?|$msg" "1|kabi-diff: k1.kabi is an arm64 kernel and $x86_new an x86_64 one: kabi-diff compares two builds of one architecture" \
	"kernels of two architectures: refused in one line naming both"

# An arm64 module (aarch64-linux-gnu-gcc -g -c: ET_REL, its .debug_info
# relocated by R_AARCH64_ABS32/ABS64 entries libdwarf must apply) and the
# sample UAPI tree with an arch/arm64 beside arch/x86: arm64's header and
# the module's layout.
mkdir -p mods uapi/arch/arm64/include/uapi/asm
cp -R "$KD_SRCDIR/fixtures/kernel-uapi/uapi" "$KD_SRCDIR/fixtures/kernel-uapi/arch" uapi/
sed 's/0x100/0x200/' "$KD_SRCDIR/fixtures/kernel-uapi/arch/x86/include/uapi/asm/fxarch.h" \
	>uapi/arch/arm64/include/uapi/asm/fxarch.h
"$cc" -g -O2 -c -DFXMOD_NAME='"fxmod"' "$KD_SRCDIR/fixtures/module.c" -o mods/fxmod.ko
is "$(readelf -rW mods/fxmod.ko | awk '/^Relocation section .\.rela\.debug_info/ { s = 1; next }
	/^Relocation section/ { s = 0 } s && $3 ~ /^R_AARCH64_ABS/ { print $3 }' | sort -u | tr '\n' ' ')" \
	"R_AARCH64_ABS32 R_AARCH64_ABS64 " "the module's DWARF is relocated by AArch64 relocations"
"$KABI_DIFF" extract -q k --uapi uapi --modules mods -o km.kabi
is "$?" "0" "extract --uapi --modules of the arm64 kernel"
is "$(q km.kabi "SELECT i.name, ifnull(i.size, '-'), printf('0x%08x', i.cmd), ifnull(m.name, 'vmlinux')
	FROM ioctls i LEFT JOIN modules m ON m.id = i.module_id WHERE i.name = 'FXK_IOC_CREATE'")|$(q km.kabi \
	"SELECT name || '=' || value FROM constants WHERE name = 'FXK_ARCH_FLAG'")" \
	"FXK_IOC_CREATE|32|0xc0204601|fxmod|FXK_ARCH_FLAG=512" \
	"ioctl sized from the aarch64 module's DWARF; FXK_ARCH_FLAG from arch/arm64"
is "$("$KABI_DIFF" show km.kabi ioctl FXK_IOC_CREATE | grep -E '^[[:space:]]+__u(32|64) ' | tr '\t' ' ' | tr -s ' ')" \
" __u32 height; /* 0 4 */
 __u32 width; /* 4 4 */
 __u32 bpp; /* 8 4 */
 __u32 flags; /* 12 4 */
 __u32 handle; /* 16 4 */
 __u32 pitch; /* 20 4 */
 __u64 size; /* 24 8 */" "the module struct's members at their offsets (names through relocated .debug_str offsets)"
is "$("$KABI_DIFF" show km.kabi info | grep '^uapi_headers')" \
	"uapi_headers    arm64: uapi/arch/arm64/include/uapi uapi/uapi" "show info: the arm64 headers read"

# Without -Bsymbolic: R_AARCH64_ABS64 against the symbols, the same table.
KD_FIXTURE_SYMBOLIC=no arm64_kernel kabs -DKABI_META meta.o
ok $? "link without -Bsymbolic"
is "$(readelf -rW kabs | grep R_AARCH64_ABS64 | grep -c __arm64_)" "15" "table words relocated by R_AARCH64_ABS64"
"$KABI_DIFF" extract -q kabs -o kabs.kabi
is "$(q kabs.kabi "SELECT abi, nr, name, entry, implemented FROM syscalls ORDER BY abi, nr")" \
	"$(q k.kabi "SELECT abi, nr, name, entry, implemented FROM syscalls ORDER BY abi, nr")" \
	"S + A gives the same tables as B + A"

# A relocation type the reader does not compute, on a table word: refused.
set -- $(section k .rela.dyn)
rela=$5 nr=$1
idx=$(readelf -rW k | awk -v t="$tab" 'NR > 3 && $1 ~ /^[0-9a-f]+$/ { if ($1 == t) { print n; exit } n++ }')
cp k badtype
printf '\004\004' | dd of=badtype bs=1 seek=$(( 0x$rela + idx * 24 + 8 )) conv=notrunc 2>/dev/null
msg=$("$KABI_DIFF" extract badtype -o bad.kabi 2>&1 >/dev/null)
is "$?|$msg" "1|kabi-diff: badtype: sys_call_table: the word at 0x$tab is relocated by type 1028, which this reader does not compute" \
	"unknown relocation type: exit 1 and message"
[ ! -e bad.kabi ]
ok $? "no output written"

# .rela.dyn with a wrong entry size: a one-line error, not a misread.
shdr=$(readelf -hW k | awk '/Start of section headers/ { print $5 }')
cp k badent
printf '\020' | dd of=badent bs=1 seek=$(( shdr + nr * 64 + 56 )) conv=notrunc 2>/dev/null
msg=$("$KABI_DIFF" extract badent -o bad.kabi 2>&1 >/dev/null)
is "$?|$msg" "1|kabi-diff: badent: .rela.dyn: entries of 16 bytes, not 24" "bad .rela.dyn entry size"
done_testing

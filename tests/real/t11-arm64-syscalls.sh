#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The arm64 syscall tables of Debian's arm64 kernels, against the kernel's
# own tables read independently of kabi-diff's ELF code:
# - where each slot points: sys_call_table's and compat_sys_call_table's
#   addresses from System.map, the R_AARCH64_RELATIVE entries of .rela.dyn
#   that fill their words (readelf -r; the words are zero in the file), and
#   the __arm64_* symbol at each addend (System.map);
# - what each number is called: the __NR_* of the kernel's own
#   asm/unistd.h (arch/arm64/include/uapi + asm-generic/unistd.h of its
#   headers package) as aarch64-linux-gnu-gcc's preprocessor evaluates
#   them. A slot pointing at __arm64_sys_ni_syscall, or at a weak (W)
#   COND_SYSCALL stub of kernel/sys_ni.c, is not implemented.
#   Since 6.11 arm64's asm/unistd.h includes asm/unistd_64.h, generated
#   from scripts/syscall.tbl, which the headers package lacks; there the
#   tree's asm-generic/unistd.h is read with the __ARCH_WANT_ set that
#   6.1's arm64 asm/unistd.h defines (the generator's "renameat, rlimit,
#   memfd_secret" ABIs): if the numbering had moved, the comparison with
#   the binary's table would say so.
# The AArch32 names are the entry points' (no UAPI header of this tree
# numbers them: arm's unistd-eabi.h is generated); their entries and a few
# numbers of arch/arm64/include/asm/unistd32.h are checked.
. "$KD_SRCDIR/lib.sh"

cc=aarch64-linux-gnu-gcc
if ! command -v "$cc" >/dev/null 2>&1; then
	skip "no $cc (Debian: gcc-aarch64-linux-gnu; make deps installs it)"
	done_testing
fi

# slots MAP VMLINUX SYMBOL: "NR ENTRY" of every word of the table, from
# the relocations that fill it.
slots() {
	lo=$(awk -v s="$3" '$3 == s { print $1; exit }' "$1")
	size=$(readelf -sW "$2" | awk -v s="$3" '$8 == s { print $3; exit }')
	n=$((size / 8))
	# 16-digit hex strings compare as numbers; shell arithmetic is signed
	# 64-bit, so only the low 32 bits are computed.
	hi=$(printf '%s%08x' "${lo%????????}" $((0x${lo#????????} + n * 8)))
	readelf -rW "$2" | awk -v lo="$lo" -v hi="$hi" \
		'$3 == "R_AARCH64_RELATIVE" && ($1 "") >= lo && ($1 "") < hi { print $1, $4 }' |
	while read -r off add; do
		case $add in
		-*) a=$(printf '%016x' $((-0x${add#-}))) ;;
		*) a=$(printf '%016x' $((0x$add))) ;;
		esac
		echo "$(( (0x${off#????????} - 0x${lo#????????}) / 8 )) $a"
	done | awk 'NR == FNR { if ($3 ~ /^__arm64_/ && !($1 in sym)) sym[$1] = $3; next }
		{ print $1, ($2 in sym) ? sym[$2] : "?" $2 }' "$1" - | sort -n
	echo "$n" >"$3.count"
}

for r in $KD_REAL_ARM64; do
	if ! v=$(real_vmlinux "$r"); then
		skip "$r: not in ${KABI_KERNELS:-/root/.cache/kabi-kernels} (fetch: ../shared/kernels/fetch --headers $r)"
		continue
	fi
	k=$(dirname "$v")
	db=$(real_db "$r")
	ok $? "$r: extract" || continue
	is "$(q "$db" "SELECT value FROM meta WHERE key = 'arch'")" "arm64" "$r: arch arm64"

	# __NR_* -> number, as the compiler evaluates the kernel's headers.
	h=$k/include
	cpp="$cc -E -P -nostdinc -I$h/arch/arm64/include/uapi -I$h/uapi -x c -"
	if [ -e "$h/arch/arm64/include/uapi/asm/unistd_64.h" ] ||
	   grep -q 'asm-generic/unistd.h' "$h/arch/arm64/include/uapi/asm/unistd.h"; then
		echo '#include <asm/unistd.h>' >unistd.c
	else
		printf '#define %s\n' __ARCH_WANT_RENAMEAT __ARCH_WANT_NEW_STAT \
			__ARCH_WANT_SET_GET_RLIMIT __ARCH_WANT_TIME32_SYSCALLS \
			__ARCH_WANT_SYS_CLONE3 __ARCH_WANT_MEMFD_SECRET >unistd.c
		echo '#include <asm-generic/unistd.h>' >>unistd.c
	fi
	$cpp -dM <unistd.c | sed -n 's/^#define __NR_\([a-z0-9_]*\) .*/\1/p' | sort -u >nr-names.txt
	{ cat unistd.c; sed 's/.*/KDNR & __NR_&/' nr-names.txt; } | $cpp |
		awk '$1 == "KDNR"' | while read -r _ name val; do echo "$((val))|$name"; done |
		sort -t'|' -k1,1n >nr.txt
	is "$(grep -c . nr.txt)|$(grep '|openat2$' nr.txt)" "$(grep -c . nr-names.txt)|437|openat2" \
		"$r: every __NR_ evaluates (openat2 is 437)"

	slots "$k/System.map" "$v" sys_call_table >native.txt
	is "$(grep -c . native.txt)" "$(cat sys_call_table.count)" \
		"$r: one R_AARCH64_RELATIVE per sys_call_table word ($(cat sys_call_table.count))"
	# A weak entry (System.map "W") is kernel/sys_ni.c's COND_SYSCALL stub:
	# the call compiled out, its slot and name kept, not implemented.
	awk '$2 == "W" { print $3 }' "$k/System.map" >weak.txt
	awk -F'|' 'FILENAME == "weak.txt" { weak[$1] = 1; next } FILENAME == "nr.txt" { nm[$1] = $2; next }
		{ ni = ($2 == "__arm64_sys_ni_syscall"); impl = !ni && !($2 in weak)
		  print $1 "|" (ni ? "-" : nm[$1]) "|" $2 "|" impl }' weak.txt nr.txt FS=' ' native.txt >want.txt
	q "$db" "SELECT nr, ifnull(name, '-'), ifnull(entry, '-'), implemented
		FROM syscalls WHERE abi = 'arm64' ORDER BY nr" >got.txt
	# NR|NAME|ENTRY|IMPLEMENTED; want.txt the kernel's, got.txt kabi-diff's
	same_rows want.txt got.txt 400 \
		"$r: arm64 table equals the relocated sys_call_table named by asm/unistd.h ($(grep -c '|1$' want.txt) implemented)"

	slots "$k/System.map" "$v" compat_sys_call_table >compat.txt
	awk 'FILENAME == "weak.txt" { weak[$1] = 1; next }
		{ print $1 "|" $2 "|" ($2 != "__arm64_sys_ni_syscall" && !($2 in weak)) }' weak.txt compat.txt >want32.txt
	q "$db" "SELECT nr, ifnull(entry, '-'), implemented FROM syscalls WHERE abi = 'aarch32' ORDER BY nr" >got32.txt
	same_rows want32.txt got32.txt 400 \
		"$r: aarch32 table equals the relocated compat_sys_call_table ($(grep -c '|1$' want32.txt) implemented)"
	# arch/arm64/include/asm/unistd32.h: read 3, ioctl 54 (compat_sys_ioctl),
	# pread64 180 (compat_sys_aarch32_pread64), openat 322 (compat_sys_openat).
	is "$(q "$db" "SELECT group_concat(nr || ':' || name || ':' || entry, ' ') FROM (SELECT * FROM syscalls
		WHERE abi = 'aarch32' AND nr IN (3, 54, 180, 322) ORDER BY nr)")" \
		"3:read:__arm64_sys_read 54:ioctl:__arm64_compat_sys_ioctl 180:pread64:__arm64_compat_sys_aarch32_pread64 322:openat:__arm64_compat_sys_openat" \
		"$r: AArch32 numbers and names of unistd32.h"

	is "$("$KABI_DIFF" show "$db" syscall openat | sed -n '1,2p;4p')" \
"arm64   openat: nr 56, entry __arm64_sys_openat
aarch32 openat: nr 322, entry __arm64_compat_sys_openat
long int sys_openat(int dfd, const char *filename, int flags, umode_t mode)" "$r: show syscall openat"
	is "$(q "$db" "SELECT count(*) FROM syscalls s JOIN functions f ON f.id = s.func_id
		WHERE s.abi = 'arm64' AND s.implemented")" \
		"$(q "$db" "SELECT count(*) FROM syscalls WHERE abi = 'arm64' AND implemented")" \
		"$r: every implemented arm64 syscall has a signature"
	# kernel/sys_ni.c's weak COND_SYSCALL(geteuid16) stub is discarded (its
	# DWARF stays, at low_pc 0) for kernel/uid16.c's entry, whose code starts
	# 8 bytes after the symbol (patchable ftrace NOPs): the signature is the
	# real one's.
	is "$(q "$db" "SELECT f.decl_file FROM syscalls s JOIN functions f ON f.id = s.func_id
		WHERE s.abi = 'aarch32' AND s.name = 'geteuid16'")" "kernel/uid16.c" \
		"$r: geteuid16's signature is kernel/uid16.c's, not the discarded sys_ni.c stub's"
	for s in statx:256 open_how:24 clone_args:88 stat:128; do
		is "$(q "$db" "SELECT group_concat(size) FROM types
			WHERE kind = 'struct' AND name = '${s%:*}'")" "${s#*:}" \
			"$r: struct ${s%:*} is ${s#*:} bytes (asm-generic's stat on arm64)"
	done
done
done_testing

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The bootable image instead of the debug package: Debian's vmlinuz (fetch
# --image) with its System.map, extracted through BTF, against the DWARF
# extraction of the same kernel's debug vmlinux.
#
# Measured (6.1.0-47-amd64 and 6.12.107+deb12-amd64, kabi-diff's branch btf):
# - the syscall tables are equal, slot by slot (x64 numbers, ia32 entry
#   points, names, entries, implemented: COND_SYSCALL stubs are the weak
#   "W" entries of System.map);
# - every signature the image gives equals DWARF's (names and C types):
#   6.12: 498 of DWARF's 584 functions (132 BTF FUNC __do_sys_, 334 ftrace
#   metadata, 25 stubs, 7 vDSO entry points from the debug vdso/ beside the
#   image, as for vmlinux); 6.1: 486 of 572. The 86 missing on each are
#   compat_sys_* (COMPAT_SYSCALL_DEFINE has no ftrace metadata, and its
#   __do_compat_sys_ is inlined): a stated gap (meta coverage_gaps);
# - every named struct, union and enum the image reaches equals DWARF's
#   (size, members, offsets, bitfields, enumerators): 90 of 90 on 6.12, 85
#   of 85 on 6.1; DWARF reaches 17 more, each through a compat signature
#   only;
# - the diff 6.1 -> 6.12 from the two images gives the DWARF pair's
#   verdicts, finding by finding (without a contract 18 breaking, 3
#   source, 63 compatible, 3 info; before main's vDSO rows, with the
#   installed contract, 0, 3, 78, 3), only the kernel-evidence lines differ (no declaration lines);
# - extract from the image: 0.6-0.9 s and 50-80 MB (DWARF: ~1 s, ~250 MB),
#   from a 8-12 MB vmlinuz against a ~600 MB debug vmlinux.
# - 6.12.107+deb12-arm64 (Debian's raw Image, 44 MB, no section headers:
#   extract/arm64-image.c wraps it in an ELF System.map places): the
#   tables equal DWARF's (arm64 and the AArch32 compat table, the Image's
#   zeros relocated from .rela.dyn), 408 of DWARF's 494 signatures, every
#   one equal (the 86 missing: compat ones without ftrace metadata), 79
#   of 79 structs, unions and enums equal (DWARF reaches 93, through
#   compat signatures); 0.4 s, 100 MB. struct rseq's __aligned(32) is 8
#   from BTF (BTF states no alignment): not compared as a type.align.
. "$KD_SRCDIR/lib.sh"

K=${KABI_KERNELS:-/root/.cache/kabi-kernels}
export XDG_CACHE_HOME=$KD_TMPDIR/t19-cache
scratch t19

slots="SELECT abi || '|' || ifnull(nr, '-') || '|' || ifnull(name, '-') || '|' || ifnull(entry, '-') || '|' || implemented
	FROM syscalls ORDER BY 1"
sigs="SELECT f.name || '(' || ifnull((SELECT group_concat(d, ', ') FROM (SELECT ifnull(p.name, '?') || ':' || p.type_text AS d
	FROM params p WHERE p.func_id = f.id ORDER BY p.pos)), '') || ')' FROM functions f ORDER BY 1"
types="SELECT t.kind || ' ' || t.name || ' ' || t.size || ' {' || ifnull((SELECT group_concat(d, '; ') FROM
	(SELECT ifnull(m.name, '-') || '@' || m.offset || '.' || m.bit_offset || ':' || m.bit_size || ' ' || mt.kind || ' ' ||
	 ifnull(mt.name, '') AS d FROM members m JOIN types mt ON mt.id = m.member_type WHERE m.type_id = t.id ORDER BY m.idx)), '')
	|| '}{' || ifnull((SELECT group_concat(e.name || '=' || e.value, ',') FROM (SELECT * FROM enumerators e
	WHERE e.type_id = t.id ORDER BY e.idx) e), '') || '}'
	FROM types t WHERE t.kind IN ('struct', 'union', 'enum') AND t.name IS NOT NULL ORDER BY 1"
# rows QUERY DB: sorted, unique
rows() { q "$2" "$1" | LC_ALL=C sort -u; }
# count_common A B: lines of file A also in file B
common() { LC_ALL=C comm -12 "$1" "$2" | wc -l; }

for spec in "6.1.0-47-amd64 486 572 85 102" "6.12.107+deb12-amd64 498 584 90 107" \
	"6.12.107+deb12-arm64 408 494 79 93"; do
	set -- $spec
	r=$1
	if [ ! -r "$K/$r/vmlinuz" ] || ! dw=$(real_db "$r"); then
		skip "$r: no vmlinuz and vmlinux in $K (fetch --image $r)"
		continue
	fi
	/usr/bin/time -f '%e %M' -o time.txt "$KABI_DIFF" extract -q "$K/$r/vmlinuz" -o "$r.kabi"
	ok $? "$r: extract from vmlinuz with System.map beside it" || continue
	read -r secs kb < time.txt
	awk -v s="$secs" -v m="$kb" 'BEGIN { exit !(s <= 3 && m <= 200 * 1024) }'
	ok $? "$r:   ${secs} s, $((kb / 1024)) MB (at most 3 s on a shared machine, 200 MB)"
	for what in slots sigs types; do
		eval "rows \"\$$what\" \"$r.kabi\"" > btf.$what
		eval "rows \"\$$what\" \"$dw\"" > dwarf.$what
	done
	is "$(cat btf.slots)" "$(cat dwarf.slots)" "$r: syscall tables equal DWARF's"
	is "$(wc -l < btf.sigs)|$(common btf.sigs dwarf.sigs)|$(wc -l < dwarf.sigs)" "$2|$2|$3" \
		"$r: every signature from the image equals DWARF's ($2 of $3)"
	is "$(LC_ALL=C comm -13 btf.sigs dwarf.sigs | grep -vc '^compat_sys_')" "0" \
		"$r:   the ones missing are compat_sys_* (the stated gap)"
	is "$(wc -l < btf.types)|$(common btf.types dwarf.types)|$(wc -l < dwarf.types)" "$4|$4|$5" \
		"$r: every struct, union and enum from BTF equals DWARF's ($4; DWARF reaches $5)"
	is "$(q "$r.kabi" "SELECT value FROM meta WHERE key = 'input'")" "btf" "$r:   input btf"
	is "$(q "$r.kabi" "SELECT value FROM meta WHERE key = 'build_id'")" \
		"$(q "$dw" "SELECT value FROM meta WHERE key = 'build_id'")" "$r:   the debug vmlinux's build-id"
done

# The diff of the two images against the diff of the two debug vmlinuxes.
old=6.1.0-47-amd64 new=6.12.107+deb12-amd64
if [ -r $old.kabi ] && [ -r $new.kabi ] && dw0=$(real_db $old) && dw1=$(real_db $new); then
	"$KABI_DIFF" -q --full "$dw0" "$dw1" > dwarf.txt
	rc_dwarf=$?
	"$KABI_DIFF" -q --full $old.kabi $new.kabi > btf.txt
	is "$?" "$rc_dwarf" "$old -> $new: the images' diff exits as the DWARF pair's"
	findings() { sed -n '/^Source-level\|^Compatible\|^Breaking\|^Info/,$p' "$1" | grep -v 'evidence (kernel)'; }
	is "$(findings btf.txt)" "$(findings dwarf.txt)" "  the same findings and verdicts"
	is "$(sed -n '/breaking  source/,/^total/p' btf.txt | tail -1)" \
		"total               18       3          63      3           0" \
		"  without a contract: 18 breaking, 3 source, 63 compatible, 3 info"
else
	skip "the diff of the images: needs $old and $new"
fi
done_testing

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The same UAPI header tree read from a directory, from a linux-headers
# .deb and from git gives the same constants. asm-generic/Kbuild names the
# asm/ headers Kbuild generates: they are headers of the tree (roots), so a
# package or a git export that leaves it out has fewer roots than the same
# tree unpacked, and the compiler's batches of 64 headers (extract/uapi/
# compile.c) fall elsewhere. Before each header was first compiled alone
# (extract/uapi/compile-alone.c), a header that compiles only after another
# one (linux/sctp.h after any header that includes <sys/socket.h>: its
# SCTP_EOF = MSG_FIN) compiled or not with its batch: Debian's 6.12.107
# directory had 957 roots, the package 943, and 28 constants of
# linux/sctp.h (SCTP_DATA_IO_EVENT, MSG_NOTIFICATION...) only in the
# former (tests/real/t08). Fixture: the provider and that consumer are
# roots 84 and 85 (one batch) with the 20 wrappers of Kbuild, roots 64 and
# 65 (the consumer first of the second batch) without; the consumer fails
# alone in every read, with the same problem row, and a consumer that
# includes <sys/socket.h> itself gives its constants in every read.
. "$KD_SRCDIR/lib.sh"

export XDG_CACHE_HOME=$PWD/cache
KABI_DIFF_NO_UAPI_CACHE=1
export KABI_DIFF_NO_UAPI_CACHE
t=tree/include
mkdir -p $t/uapi/linux $t/uapi/asm-generic $t/arch/x86/include/uapi/asm
echo '#define FX_ARCH 1' >$t/arch/x86/include/uapi/asm/fxarch.h
: >$t/uapi/asm-generic/Kbuild
i=1
while [ $i -le 20 ]; do
	w=w$(printf %02d $i)
	echo "mandatory-y += $w.h" >>$t/uapi/asm-generic/Kbuild
	echo "#define FX_$w $i" >$t/uapi/asm-generic/$w.h
	i=$((i + 1))
done
i=0
while [ $i -lt 62 ]; do
	f=f$(printf %03d $i)
	echo "#define FX_$f $i" >$t/uapi/linux/$f.h
	i=$((i + 1))
done
printf '%s\n' '#include <sys/socket.h>' '#define FX_PROVIDER 1' >$t/uapi/linux/m1prov.h
cat >$t/uapi/linux/m2cons.h <<'EOF'
/* Like linux/sctp.h: MSG_FIN and struct sockaddr_storage are <sys/socket.h>'s. */
enum fx_sn_type {
	FX_SN_TYPE_BASE = (1 << 15),
	FX_DATA_IO_EVENT = FX_SN_TYPE_BASE,
#define FX_DATA_IO_EVENT FX_DATA_IO_EVENT
	FX_ASSOC_CHANGE,
#define FX_ASSOC_CHANGE FX_ASSOC_CHANGE
};
enum fx_sinfo_flags {
	FX_EOF = MSG_FIN,
#define FX_EOF FX_EOF
};
struct fx_paddr_change {
	struct sockaddr_storage spc_aaddr;
};
EOF
{ echo '#include <sys/socket.h>'; sed 's/FX_/FY_/g; s/fx_/fy_/g' $t/uapi/linux/m2cons.h; } >$t/uapi/linux/m3self.h
consts() {
	q "$1" "SELECT name, value FROM constants WHERE file IN ('linux/m2cons.h', 'linux/m3self.h') ORDER BY name
		; SELECT location, message FROM problems WHERE location = 'linux/m2cons.h'" | tr '\n' ' '
}
want="FY_ASSOC_CHANGE|32769 FY_DATA_IO_EVENT|32768 FY_EOF|512 FY_SN_TYPE_BASE|32768 linux/m2cons.h|does not compile on its own, so its types have no header view: linux/m2cons.h:10:18: error: ‘MSG_FIN’ undeclared here (not in a function) "

"$KABI_DIFF" extract -q --uapi $t -o dir.kabi 2>err.txt
is "$?" 0 "extract --uapi DIR: exit 0"
is "$(q dir.kabi "SELECT value FROM meta WHERE key = 'uapi_compiled'")" "85 of 86" \
	"  86 roots: asm/fxarch.h, the 20 asm/ wrappers of Kbuild, 65 in linux/; the consumer fails alone"
is "$(consts dir.kabi)" "$want" "  the constants of the consumer that compiles alone (the compiler's enumerators, each one a constant), the other's problem"

# A linux-headers .deb of the same tree (with a fixture kernel's -dbg .deb).
k=$(fixture_kernel v1-dwarf5 -gdwarf-5) || { ok 1 "fixture kernel"; done_testing; }
mkdeb() {
	mkdir -p "$3/DEBIAN" &&
	printf 'Package: %s\nVersion: 1\nArchitecture: amd64\nMaintainer: kabi-diff tests <t@example.org>\nDescription: fixture\n' \
		"$1" >"$3/DEBIAN/control" &&
	dpkg-deb --root-owner-group -Zxz --build "$3" "$2" >/dev/null
}
c=hdr/usr/src/linux-headers-6.99.1-common
mkdir -p dbg/usr/lib/debug/boot $c/include $c/arch/x86/include &&
cp "$k" dbg/usr/lib/debug/boot/vmlinux-6.99.1-amd64 && cp -R $t/uapi $c/include/ &&
cp -R $t/arch/x86/include/uapi $c/arch/x86/include/ &&
mkdeb linux-image-6.99.1-amd64-dbg dbg.deb dbg && mkdeb linux-headers-6.99.1-common hdr.deb hdr
ok $? "fixture .deb packages built with dpkg-deb"
"$KABI_DIFF" extract -q dbg.deb,hdr.deb -o deb.kabi 2>err.txt
is "$?" 0 "extract A-dbg.deb,A-headers.deb: exit 0"
is "$(q deb.kabi "SELECT value FROM meta WHERE key = 'uapi_compiled'")" "85 of 86" \
	"  the same 86 roots: Kbuild is unpacked with the headers"
is "$(consts deb.kabi)" "$want" "  the same constants, same values"

# git archive of the same tree (source layout: include/ and arch/ side by side).
if command -v git >/dev/null 2>&1; then
	GIT_CONFIG_NOSYSTEM=1 HOME=$PWD
	export GIT_CONFIG_NOSYSTEM HOME
	mkdir -p repo/include repo/arch/x86/include && cp -R $t/uapi repo/include/ &&
	cp -R $t/arch/x86/include/uapi repo/arch/x86/include/ &&
	git -C repo init -q && git -C repo add -A &&
	git -C repo -c user.name=t -c user.email=t@t commit -qm v1 && git -C repo tag v1 &&
	echo '#define FX_ZZZ 1' >repo/include/uapi/linux/zzz.h && git -C repo add -A &&
	git -C repo -c user.name=t -c user.email=t@t commit -qm v2 && git -C repo tag v2
	ok $? "fixture repository: v1, v2 (one header added, sorted last)"
	"$KABI_DIFF" --git -C repo v1..v2 -f json >git.json 2>err.txt
	is "$?" 4 "--git v1..v2: exit 4 (changes: one constant added)"
	is "$(jq -c '[.changes[] | [.kind, .subject]]' git.json)" '[["constant.added","FX_ZZZ"]]' \
		"  only FX_ZZZ added"
	is "$(find cache -name '*.kabi' | while read -r f; do
		q "$f" "SELECT value FROM meta WHERE key = 'uapi_compiled'"; done | sort | tr '\n' ' ')" \
		"85 of 86 86 of 87 " "  v1 has the 86 roots of the directory, v2 one more"
else
	skip "git is not installed"
fi

done_testing

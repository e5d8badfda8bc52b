#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# -o never replaces a part of an input (issue 25, R38), in the input forms
# where it did: a package of a list ("a.deb,b.deb" was compared as one
# path), the kernel image of an input directory, a header of --uapi, a
# module of --modules, a contract file of --spec, also reached through a
# link to the directory. Each: exit 1, one line naming the output, the
# file untouched. Other files in an input directory are fine: a CI gate
# writes its baseline and reports in the build tree it reads.
. "$KD_SRCDIR/lib.sh"

k1=$(fixture_kernel v1-dwarf5 -gdwarf-5) && k2=$(fixture_kernel v2-dwarf5 -gdwarf-5 -DKABI_V2) ||
	{ ok 1 "fixture kernels"; done_testing; }
export XDG_CACHE_HOME=$PWD/cache
uapi=$KD_SRCDIR/fixtures/kernel-uapi
same="it is also an input; write the output elsewhere"
inside="where a file of that name is read as part of the input; write the output elsewhere"

# mkdeb NAME ROOT: ROOT as NAME.deb.
mkdeb() {
	mkdir -p "$2/DEBIAN" &&
	printf 'Package: %s\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@example.org>\nDescription: t\n' \
		"$1" >"$2/DEBIAN/control" && dpkg-deb --root-owner-group -Zxz --build "$2" "$1.deb" >/dev/null
}
for v in 1 2; do
	eval k=\$k$v
	mkdir -p p$v/usr/lib/debug/boot && cp "$k" p$v/usr/lib/debug/boot/vmlinux-6.99.$v && mkdeb dbg$v p$v
	mkdir -p d$v/include && cp "$k" d$v/vmlinux && cp -R "$uapi/uapi" "$uapi/arch" d$v/include/
done
mkdir -p h/usr/include/linux && cp "$uapi/uapi/linux/"*.h h/usr/include/linux/ && mkdeb headers h
mkdir mods spec && gcc -g -O2 -c -DFXMOD_NAME='"fxmod"' "$KD_SRCDIR/fixtures/module.c" -o mods/fxmod.ko &&
	cp "$KD_SRCDIR/../spec/contract/"*.kabispec spec/ && ln -s d1 alias
ok $? "fixtures: two debug packages, a headers package, two kernel directories, modules, a contract"
for f in dbg1.deb dbg2.deb headers.deb d1/vmlinux d1/include/uapi/linux/fxkernel.h mods/fxmod.ko; do
	cp "$f" "$f.orig"
done

# refuses DESCRIPTION MESSAGE CMD...: exit 1, exactly MESSAGE on stderr, nothing on stdout.
refuses() {
	d=$1 m=$2; shift 2
	"$KABI_DIFF" "$@" >out.txt 2>err.txt
	is "$?|$(cat err.txt)|$(wc -c <out.txt)" "1|kabi-diff: $m|0" "$d"
}

refuses "extract a.deb,b.deb -o b.deb: refused" "dbg2.deb: $same" extract -q dbg1.deb,dbg2.deb -o dbg2.deb
refuses "diff a.deb,h.deb c.deb -o h.deb: refused" "headers.deb: $same" \
	dbg1.deb,headers.deb dbg2.deb -q -o headers.deb
refuses "diff D1 D2 -o D1/vmlinux: refused" "d1/vmlinux: inside the input directory d1, $inside" \
	d1 d2 -q -o d1/vmlinux
refuses "diff D1 D2 -o LINK-TO-D1/vmlinux: refused (another name of the directory)" \
	"alias/vmlinux: inside the input directory d1, $inside" d1 d2 -q -o alias/vmlinux
refuses "extract V --uapi DIR -o DIR/.../header.h: refused" \
	"d1/include/uapi/linux/fxkernel.h: inside the input directory d1/include, $inside" \
	extract -q "$k1" --uapi d1/include -o d1/include/uapi/linux/fxkernel.h
refuses "  also a header that is not there yet (the next run would read it)" \
	"d1/include/uapi/linux/new.h: inside the input directory d1/include, $inside" \
	extract -q "$k1" --uapi d1/include -o d1/include/uapi/linux/new.h
refuses "extract V --modules DIR -o DIR/x.ko: refused" \
	"mods/fxmod.ko: inside the input directory mods, $inside" \
	extract -q "$k1" --modules mods -o mods/fxmod.ko
refuses "diff --spec DIR -o DIR/x.kabispec: refused" \
	"spec/new.kabispec: inside the input directory spec, $inside" \
	d1 d2 -q --spec spec -o spec/new.kabispec
for f in dbg1.deb dbg2.deb headers.deb d1/vmlinux d1/include/uapi/linux/fxkernel.h mods/fxmod.ko; do
	cmp -s "$f" "$f.orig" || echo "# $f changed"
done >changed.txt
is "$(cat changed.txt)" "" "  no input was touched"
is "$(ls spec | grep -c new)" 0 "  nothing written"

# What kabi-gate does: its baseline and report in the build tree it reads.
"$KABI_DIFF" extract -q d1/vmlinux --uapi d1/include --modules d1 -o d1/base.kabi 2>err.txt
is "$?|$(cat err.txt)" "0|" "extract D/vmlinux --uapi D/include --modules D -o D/base.kabi: written"
"$KABI_DIFF" d1/base.kabi d2 -q -o d2/report.txt 2>err.txt
is "$?|$(cat err.txt)|$(head -c 10 d2/report.txt)" "12||kabi-diff:" "diff K D2 -o D2/report.txt: written"
done_testing

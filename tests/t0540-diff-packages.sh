#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Kernel packages as inputs, on fixture packages built here: Debian .deb
# (dpkg-deb --build) of a linux-image-*-dbg and a linux-headers-*-common,
# and RPM (rpmbuild) of a kernel-debuginfo and a kernel-headers. Only the
# needed members are written (never the package's other files; modules
# only with headers, streamed: the reading of a .deb stops at its first
# module and goes on from there, an RPM whose modules come before its
# vmlinux is read twice), a side of several packages (A.deb,B.deb), the same
# report as the kernel directories they came from, the second run answered
# from the cache, extract on packages, and bad packages refused.
. "$KD_SRCDIR/lib.sh"

export XDG_CACHE_HOME=$PWD/cache
k1=$(fixture_kernel v1-dwarf5 -gdwarf-5) && k2=$(fixture_kernel v2-dwarf5 -gdwarf-5 -DKABI_V2) ||
	{ ok 1 "fixture kernels"; done_testing; }
uapi=$KD_SRCDIR/fixtures/kernel-uapi
mod() { gcc -g -O2 -c -DFXMOD_NAME='"fxmod"' "$KD_SRCDIR/fixtures/module.c" -o "$1"; }

for v in 1 2; do
	eval k=\$k$v
	r=dbg$v rel=6.99.$v-amd64
	mkdir -p $r/usr/lib/debug/boot $r/usr/lib/debug/lib/modules/$rel/kernel/fx $r/usr/share/doc/big &&
	cp "$k" $r/usr/lib/debug/boot/vmlinux-$rel && mod $r/usr/lib/debug/lib/modules/$rel/kernel/fx/fxmod.ko &&
	head -c 2000000 /dev/urandom >$r/usr/share/doc/big/unneeded.bin &&
	ln -s ../../../../boot/vmlinux-$rel $r/usr/lib/debug/lib/modules/$rel/vmlinux-link &&
	mkdeb linux-image-$rel-dbg 6.99.$v $r
	h=hdr$v c=hdr$v/usr/src/linux-headers-6.99.$v-common
	mkdir -p $c/include $c/arch/x86/include $c/scripts && cp -R "$uapi/uapi" $c/include/uapi &&
	cp -R "$uapi/arch/x86/include/uapi" $c/arch/x86/include/uapi && echo 'echo not needed' >$c/scripts/x.sh &&
	mkdeb linux-headers-6.99.$v-common 6.99.$v $h
done
[ -f linux-image-6.99.1-amd64-dbg_6.99.1_amd64.deb ] && [ -f linux-headers-6.99.2-common_6.99.2_amd64.deb ]
ok $? "fixture .deb packages built with dpkg-deb"
D1=linux-image-6.99.1-amd64-dbg_6.99.1_amd64.deb D2=linux-image-6.99.2-amd64-dbg_6.99.2_amd64.deb
H1=linux-headers-6.99.1-common_6.99.1_amd64.deb H2=linux-headers-6.99.2-common_6.99.2_amd64.deb

"$KABI_DIFF" "$D1" "$D2" -f json >deb.json 2>deb.err
is "$?" 12 "kabi-diff A-dbg.deb B-dbg.deb: exit 12"
"$KABI_DIFF" "$k1" "$k2" -f json >vm.json 2>/dev/null
is "$(jq -c 'del(.old.path, .new.path, .old.kabi, .new.kabi)' deb.json)" "$(jq -c 'del(.old.path, .new.path, .old.kabi, .new.kabi)' vm.json)" \
	"  the report of the two vmlinux images"
is "$(grep -c 'wrote 1 of 12 members, .* (modules skipped: no UAPI headers package; the rest not read)$' deb.err)" 2 \
	"  one member of each package written (the vmlinux), the reading stopped at the module" || sed 's/^/# /' deb.err
ls cache/kabi-diff | grep -c unpack >unpack.count
is "$(cat unpack.count)" 0 "  the unpacked area is removed"

"$KABI_DIFF" "$D1" "$D2" -f json >deb2.json 2>deb2.err
is "$?:$(grep -c 'reading the packages' deb2.err):$(grep -c 'cached as' deb2.err)" "12:0:2" \
	"second run: answered from the cache, nothing read"
cmp -s deb.json deb2.json
ok $? "  the same report"
# The cache keys a vmlinux by content: the package's image as a directory is its entry.
mkdir vmdir1 && cp "$k1" vmdir1/vmlinux
entries=$(ls cache/kabi-diff/*.kabi | wc -l)
"$KABI_DIFF" vmdir1 "$D2" -f json >mix.json 2>mix.err
is "$?:$(grep -c ': extracting ' mix.err):$(ls cache/kabi-diff/*.kabi | wc -l)" "12:0:$entries" \
	"the .deb's vmlinux as a directory: answered from the package's entry, nothing extracted" ||
	sed 's/^/# /' mix.err
is "$(jq -c 'del(.old.path, .new.path, .old.kabi, .new.kabi)' mix.json)" \
	"$(jq -c 'del(.old.path, .new.path, .old.kabi, .new.kabi)' deb.json)" "  the same report"

# Several packages per side: headers first whatever the order.
"$KABI_DIFF" "$D1,$H1" "$H2,$D2" -f json >full.json 2>full.err
is "$?" 12 "kabi-diff A-dbg.deb,A-headers.deb B-headers.deb,B-dbg.deb: exit 12"
is "$(grep -c 'modules skipped' full.err)" 0 "  with headers the modules are read"
is "$(grep -c ': wrote 5 members, .*; the modules follow, streamed$' full.err)" 2 \
	"  vmlinux and 4 headers written, then the reading stops at the module" || sed 's/^/# /' full.err
is "$(grep -c ': wrote 6 of 36 members, .* (1 modules streamed: .* MB)$' full.err)" 2 \
	"  the module streamed from where the reading stopped (no second reading)"
is "$(grep -c ': 1 modules streamed, at most 0.0 MB of them on disk at once$' full.err)" 2 \
	"  the extraction took it from the spool"
is "$(sed -n 's/^kabi-diff: \([a-z]*: \)\(extracted [^ ]*\) in .*/\1\2/p; s/^kabi-diff: \([a-z]*: \)\(.*\): reading the packages$/\1read \2/p' full.err | tr '\n' ' ')" \
	"old: read $D1,$H1 old: extracted $D1,$H1 new: read $H2,$D2 new: extracted $H2,$D2 " \
	"  OLD extracted (and its vmlinux removed) before NEW's packages are read" || sed 's/^/# /' full.err
# On a terminal the streamed modules' line says how much of the packages is read.
if command -v script >/dev/null 2>&1; then
	XDG_CACHE_HOME=$PWD/cache-tty script -qec "'$KABI_DIFF' '$D1,$H1' '$H2,$D2' >/dev/null" /dev/null >tty.out
	tr '\r' '\n' <tty.out | sed 's/\x1b\[K//g' >tty.txt
	is "$(grep -oE '^(old|new): \[1\] fxmod\.ko, ([0-9]|[1-9][0-9]|100)% of the packages read$' tty.txt | cut -c1-4 | tr '\n' ' ')" "old: new: " \
		"  on a terminal: each streamed module with how much of its side's packages is read, the side first" ||
		grep -a 'fxmod\|modules' tty.txt | cat -A | sed 's/^/# /'
	grep -qE '^old: linux-image-6\.99\.1-amd64-dbg_6\.99\.1_amd64\.deb: [0-9]+% read \([0-9]+ of [0-9]+ MB\)$' tty.txt
	ok $? "  and while a package is read, how much of it is" || grep -a 'read' tty.txt | cat -A | sed 's/^/# /'
fi
# The same kernels as directories (the kernel cache layout).
for v in 1 2; do
	eval k=\$k$v
	mkdir -p dir$v/modules dir$v/include && cp "$k" dir$v/vmlinux && mod dir$v/modules/fxmod.ko &&
	cp -R "$uapi/uapi" "$uapi/arch" dir$v/include/
done
"$KABI_DIFF" dir1 dir2 -f json >dir.json 2>/dev/null
is "$(jq -c 'del(.old.path, .new.path, .old.kabi, .new.kabi)' full.json)" "$(jq -c 'del(.old.path, .new.path, .old.kabi, .new.kabi)' dir.json)" \
	"  the report of the kernel directories: constants, ioctls, modules"
is "$(jq '.summary.ioctls.breaking + .summary.constants.breaking' full.json)" 2 "  (FXK_IOC_HOW and FXK_HOW_SIZE follow struct open_how)"

# RPM: kernel-debuginfo (vmlinux and .ko.debug) and kernel-headers (usr/include).
if command -v rpmbuild >/dev/null 2>&1; then
	for v in 1 2; do
		eval k=\$k$v
		rel=6.99.$v-1.fc99.x86_64
		mkdir -p rd$v/usr/lib/debug/lib/modules/$rel/kernel/fx rh$v/usr/include &&
		cp "$k" rd$v/usr/lib/debug/lib/modules/$rel/vmlinux &&
		mod rd$v/usr/lib/debug/lib/modules/$rel/kernel/fx/fxmod.ko.debug &&
		cp -R "$uapi/uapi/linux" "$uapi/uapi/asm-generic" rh$v/usr/include/ &&
		cp -R "$uapi/arch/x86/include/uapi/asm" rh$v/usr/include/asm &&
		printf '#include <asm-generic/ioctl.h>\n' >rh$v/usr/include/asm/ioctl.h
		for p in debuginfo:rd$v headers:rh$v; do
			cat >spec <<EOF
Name: kernel-${p%%:*}
Version: 6.99.$v
Release: 1
Summary: fixture
License: GPL-2.0-only
BuildArch: x86_64
%description
fixture
%install
cp -a $PWD/${p#*:}/. %{buildroot}/
%files
/usr
EOF
			rpmbuild -bb --quiet --define "_topdir $PWD/rpmtop" --define "_rpmdir $PWD" \
				--define "__os_install_post %{nil}" --define "_build_id_links none" \
				--define "debug_package %{nil}" --define "_binary_payload w9.xzdio" spec >rpm.log 2>&1 ||
				sed 's/^/# /' rpm.log
		done
	done
	R1=x86_64/kernel-debuginfo-6.99.1-1.x86_64.rpm R2=x86_64/kernel-debuginfo-6.99.2-1.x86_64.rpm
	RH1=x86_64/kernel-headers-6.99.1-1.x86_64.rpm RH2=x86_64/kernel-headers-6.99.2-1.x86_64.rpm
	[ -f $R1 ] && [ -f $RH2 ]
	ok $? "fixture .rpm packages built with rpmbuild"
	"$KABI_DIFF" $R1 $R2 -f json >rpm.json 2>rpm.err
	is "$?" 12 "kabi-diff A-debuginfo.rpm B-debuginfo.rpm: exit 12"
	is "$(jq -c 'del(.old.path, .new.path, .old.kabi, .new.kabi)' rpm.json)" "$(jq -c 'del(.old.path, .new.path, .old.kabi, .new.kabi)' vm.json)" \
		"  the report of the two vmlinux images"
	"$KABI_DIFF" $R1,$RH1 $RH2,$R2 -f json >rpmfull.json 2>rpmfull.err
	is "$?" 12 "with kernel-headers: exit 12"
	is "$(jq -c '.summary' rpmfull.json)" "$(jq -c '.summary' dir.json)" \
		"  the same summary as the kernel directories (usr/include, .ko.debug modules)"
	is "$(grep -c '(1 modules streamed: .*; modules before the vmlinux: read twice)$' rpmfull.err)" 2 \
		"  the module comes before the vmlinux in the cpio: streamed from a second reading" ||
		sed 's/^/# /' rpmfull.err
else
	skip "rpmbuild not installed (make deps installs rpm)"
fi

# extract on packages.
"$KABI_DIFF" extract -q "$D2,$H2" -o e.kabi 2>e.err
is "$?" 0 "extract A-dbg.deb,A-headers.deb: exit 0"
is "$(cat e.err)" "" "  -q: nothing on stderr"
is "$(q e.kabi "SELECT (SELECT value FROM meta WHERE key = 'release'), (SELECT count(*) FROM ioctls), (SELECT count(*) FROM modules)")" \
	"6.99.2-fixture|5|1" "  the release, the ioctls and the module"
is "$(q e.kabi "SELECT name, path FROM modules")" \
	"fxmod|usr/lib/debug/lib/modules/6.99.2-amd64/kernel/fx/fxmod.ko" "  the module named by its path in the package"
is "$(ls -a | grep -c kabi-unpack)" 0 "  nothing left unpacked"
# Killed while extracting: the unpacked area goes with it.
KABI_DIFF_TEST_PAUSE=30 "$KABI_DIFF" extract -q "$D2,$H2" -o killed.kabi &
pid=$! n=0
while [ -z "$(ls killed.kabi.tmp.* 2>/dev/null)" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
is "$(ls -a | grep -c kabi-unpack)" 1 "extract killed with SIGTERM: the unpacked area exists while it runs"
sleep 0.5
kill -TERM $pid
wait $pid
is "$?" 143 "  it dies of the signal"
is "$(ls -a | grep -c kabi-unpack)" 0 "  and removes the unpacked area"
# -o -: the packages are unpacked where the .kabi is built ($TMPDIR), not in
# the current directory (it was dirname("-")).
mkdir -p tmp cwd
(cd cwd && TMPDIR=$PWD/../tmp KABI_DIFF_TEST_PAUSE=30 exec "$KABI_DIFF" extract -q "../$D2" -o - >../stdout.kabi) &
pid=$! n=0
while [ -z "$(ls -A tmp)" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
is "$(ls -A tmp | grep -c '^\.kabi-unpack-'):$(ls -A cwd | grep -c kabi-unpack)" "1:0" \
	"extract PKG -o -: unpacked in \$TMPDIR, not in the current directory"
kill -TERM $pid
wait $pid
is "$?:$(ls -A tmp)" "143:" "  killed: \$TMPDIR left empty"

# Bad packages.
printf '!<arch>\ndebian-binary   0           0     0     100644  4         `\n2.0\n' >bad.deb
"$KABI_DIFF" bad.deb "$D2" >/dev/null 2>err.txt
is "$?" 1 "a .deb without data.tar: exit 1"
is "$(grep -c 'bad.deb: a .deb without data.tar' err.txt)" 1 "  named"
mkdir -p novm/usr/share/doc && echo x >novm/usr/share/doc/x && mkdeb novm 1 novm
"$KABI_DIFF" novm_1_amd64.deb "$D2" >/dev/null 2>err.txt
is "$?" 1 "a package without a vmlinux: exit 1"
"$KABI_DIFF" "$D1,missing.deb" "$D2" >/dev/null 2>err.txt
is "$?" 1 "a missing package in a list: exit 1"
# Cut short: the nested data.tar has no reason of its own (it was "(null)"),
# the package's is given.
head -c 3000 "$D2" >trunc.deb
"$KABI_DIFF" trunc.deb "$D2" -q >/dev/null 2>err.txt
is "$?|$(cat err.txt)" "1|kabi-diff: trunc.deb: data.tar.xz: Truncated ar archive" \
	"a .deb cut inside its data.tar: exit 1, the reason in one line"

done_testing

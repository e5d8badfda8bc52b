#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Debian's kernel packages as inputs, end to end: `apt-get download` puts
# linux-image-*-dbg and linux-headers-*-common of 6.1.0-47 and 6.12.107
# into $KABI_KERNELS/debs (once), then `kabi-diff A.deb B.deb` and the
# same with the headers packages (A.deb,H.deb) run from a fresh cache. The
# report must equal the one of the already unpacked kernel directories;
# the disk the cache directory uses while reading is sampled every 0.2 s
# and printed next to the packages' unpacked size (below a quarter of it:
# the modules pass through the extractor's spool, never unpacked
# together); the second run is answered from the cache (nothing unpacked).
# Measured 2026-12-03 (2 shared cores under load), 6.1.0-47 -> 6.12.107:
#   unpacked: 5779.5 MB (6.1: 14887 members, 4022 modules of 5091.0 MB,
#   vmlinux 630.6 MB) and 6893.3 MB (6.12: 4229 modules of 6473.9 MB,
#   vmlinux 353.4 MB);
#   vmlinux only: peak disk 939 MiB (the two vmlinux), peak RSS 321 MiB,
#   each package read up to its first module, 169 s;
#   with headers: peak disk 951 MiB on the 6.1 side (vmlinux, headers,
#   spool of at most 354.7 MB: amdgpu.ko alone), 6.12's spool at most
#   594.7 MB; peak RSS 1193 MiB; exit 28.
#   After the libdwarf hook fix (f78664f), 6.12 with modules and headers
#   reads whole (it failed DW_DLE_SECTION_INDEX_BAD before). The 6.12 side
#   alone (extract of its -dbg and -common .deb): peak disk 915 MiB (13%
#   of the 6893.3 MB unpacked), peak RSS 1181 MiB, 863 s under a load of
#   ~15 (4229 modules streamed, at most 594.7 MB of them at once).
#   The report of the packages and of the kernel directories differed in
#   28 constants of linux/sctp.h (enum sctp_sn_type and friends): the
#   header compiles only after one that includes <sys/socket.h> (MSG_FIN),
#   so whether it has a header view depends on the batch the compiler
#   read it in (extract/uapi/compile.c): 6.1's packages had them and its
#   directory not, 6.12 the other way round. The packages' doing after
#   all: only *.h were unpacked, so asm-generic/Kbuild and with it the 14
#   asm/ wrapper roots were missing (6.12: 943 roots, the directory 957),
#   and the batches fell elsewhere. With Kbuild unpacked (extract/input/
#   package.c, kpkg__uapi_file) the
#   test passes whole: 14 ok in 2485 s under a load of ~12 (the same
#   summary and the same changes, one by one, as the kernel directories).
. "$KD_SRCDIR/lib.sh"

K=${KABI_KERNELS:-/root/.cache/kabi-kernels}
debs=$K/debs
old=6.1.0-47 new=6.12.107+deb12
mkdir -p "$debs" && cd "$debs" || { ok 1 "$debs"; done_testing; }
for p in linux-image-$old-amd64-dbg linux-headers-$old-common \
	 linux-image-$new-amd64-dbg linux-headers-$new-common; do
	ls "${p}"_*.deb >/dev/null 2>&1 || apt-get download -q "$p" >/dev/null 2>&1 ||
		{ skip "apt-get download $p failed (no network?)"; done_testing; }
done
cd - >/dev/null || exit 1
ls_one() { ls "$debs"/"$1"_*.deb | head -1; }
dbg0=$(ls_one linux-image-$old-amd64-dbg) dbg1=$(ls_one "linux-image-$new-amd64-dbg")
hdr0=$(ls_one linux-headers-$old-common) hdr1=$(ls_one "linux-headers-$new-common")

# rss NAME: NAME.rss in MiB (time(1) puts "Command exited with non-zero
# status N" first when it is not 0).
rss() { echo $(($(tail -1 "$1.rss" 2>/dev/null || echo 0) / 1024)); }
# sample DIR NAME PID: the disk DIR uses, sampled every 0.2 s while PID
# runs, the peak into NAME.peak (KB); PID's exit status into NAME.rc.
sample() {
	peak=0
	while kill -0 "$3" 2>/dev/null; do
		s=$(du -sk "$1" 2>/dev/null | cut -f1)
		[ "${s:-0}" -gt "$peak" ] && peak=$s
		sleep 0.2
	done
	wait "$3"
	echo "$?" >"$2.rc"
	echo "$peak" >"$2.peak"
}
# run NAME ARGS...: kabi-diff with a fresh cache, the cache's disk use
# sampled meanwhile; NAME.json, NAME.err, NAME.peak (KB), NAME.rss (the
# largest process's peak RSS, KB: /usr/bin/time).
run() {
	name=$1; shift
	export XDG_CACHE_HOME=$PWD/$name-cache
	rm -rf "$XDG_CACHE_HOME"; mkdir -p "$XDG_CACHE_HOME"
	$time -o "$name.rss" "$KABI_DIFF" "$@" -f json --no-spec >"$name.json" 2>"$name.err" &
	sample "$XDG_CACHE_HOME" "$name" $!
}
time=
[ -x /usr/bin/time ] && time="/usr/bin/time -f %M"
[ -n "$time" ] || skip "no /usr/bin/time (Debian: time): peak RSS not measured"
# unpacked SIZE of the packages of NAME.err's "wrote ... of X MB unpacked" lines
# (read whole: with headers).
unpacked() { sed -n 's/.* of \([0-9.]*\) MB unpacked.*/\1/p' "$1.err" | awk '{ s += $1 } END { printf "%.0f", s }'; }

# The 6.12 side alone (the larger one: 4229 modules) read from its
# packages by extract: peak disk of the output's directory (where the
# vmlinux, the headers and the spool go) and peak RSS.
mkdir -p new-side
start=$(date +%s)
$time -o new.rss "$KABI_DIFF" extract "$dbg1,$hdr1" -o new-side/new.kabi 2>new.err &
sample new-side new $!
is "$(cat new.rc)" 0 "extract $new's packages (-dbg, headers): exit 0"
echo "# $new side alone: peak disk $(($(cat new.peak) / 1024)) MB, peak RSS $(rss new) MiB, $(($(date +%s) - start)) s"
grep -E 'modules streamed|unpacked' new.err | sed 's/^/# /'
is "$(ls new-side)" new.kabi "  only the .kabi is left next to it"

start=$(date +%s)
run dbg "$dbg0" "$dbg1"
is "$(cat dbg.rc)" 28 "$old-dbg.deb -> $new-dbg.deb: exit 28 (changes, breaking, source-level)"
dbg_secs=$(($(date +%s) - start))
is "$(grep -c '(modules skipped: no UAPI headers package; the rest not read)$' dbg.err)" 2 \
	"  each package read up to its first module (the vmlinux comes first)"
if db0=$(real_db "$old-amd64") && db1=$(real_db "$new-amd64"); then
	"$KABI_DIFF" "$db0" "$db1" -f json --no-spec >ref.json
	is "$(jq -c '.summary, [.changes[] | [.kind, .subject, .old, .new]]' dbg.json)" \
		"$(jq -c '.summary, [.changes[] | [.kind, .subject, .old, .new]]' ref.json)" \
		"  the same report as the unpacked vmlinux pair"
fi
start=$(date +%s)
"$KABI_DIFF" "$dbg0" "$dbg1" -f json --no-spec >dbg2.json 2>dbg2.err
is "$?" 28 "second run: exit 28"
grep -q 'cached as' dbg2.err && ! grep -q 'reading the packages' dbg2.err
ok $? "  answered from the cache, nothing unpacked ($(($(date +%s) - start)) s)"

start=$(date +%s)
run full "$dbg0,$hdr0" "$dbg1,$hdr1"
is "$(cat full.rc)" 28 "with the headers packages: exit 28"
total=$(unpacked full)
echo "# vmlinux only: peak RSS $(rss dbg) MiB, with headers $(rss full) MiB"
echo "# vmlinux only: peak disk $(($(cat dbg.peak) / 1024)) MB while reading, packages unpacked $total MB, $dbg_secs s"
echo "# vmlinux, modules, headers: peak disk $(($(cat full.peak) / 1024)) MB while reading, packages unpacked $total MB, $(($(date +%s) - start)) s"
grep -E 'modules streamed' full.err | sed 's/^/# /'
[ "$(cat dbg.peak)" -lt $(( total * 1024 / 4 )) ]
ok $? "  vmlinux only: peak disk use below a quarter of the unpacked size (modules never written)"
[ "$(cat full.peak)" -lt $(( total * 1024 / 4 )) ]
ok $? "  with headers: peak disk use below a quarter of the unpacked size (modules streamed through the spool)"
is "$(grep -c 'modules streamed, at most' full.err)" 2 "  both sides' modules streamed"
is "$(jq '.summary.constants.breaking + .summary.ioctls.breaking + .summary.constants.compatible > 0' full.json)" \
	true "  the full directory-mode report: constants and ioctls compared"
if [ -d "$K/$old-amd64/include" ] && [ -d "$K/$new-amd64/include" ]; then
	XDG_CACHE_HOME=$PWD/dir-cache "$KABI_DIFF" "$K/$old-amd64" "$K/$new-amd64" -f json --no-spec >dir.json 2>/dev/null
	is "$(jq -c '.summary' full.json)" "$(jq -c '.summary' dir.json)" \
		"  the same summary as the kernel directories of the cache"
	is "$(jq -c '[.changes[] | [.kind, .subject, .old, .new]]' full.json | md5sum)" \
		"$(jq -c '[.changes[] | [.kind, .subject, .old, .new]]' dir.json | md5sum)" \
		"  the same changes, one by one"
fi

done_testing

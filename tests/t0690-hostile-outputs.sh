#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Outputs and caches (issue 12): -o never replaces a FIFO, a device (as
# root, -o /dev/null replaced the system's /dev/null) or a directory, nor
# one of the inputs under any name; '-' is standard output (it wrote a file
# named '-'); outputs get 0666 less the umask (they were 0600 whatever the
# umask) and a rewrite keeps the file's mode and owner. The diff's cache
# trusts no entry by build-id alone: another image carrying the same
# build-id is extracted (it gave "No changes", exit 0), an entry written by
# another kabi-diff version is extracted again.
. "$KD_SRCDIR/lib.sh"

k1=$(fixture_kernel v1-dwarf5 -gdwarf-5) && k2=$(fixture_kernel v2-dwarf5 -gdwarf-5 -DKABI_V2) &&
	old=$(fixture_db v1-dwarf5 -gdwarf-5) && new=$(fixture_db v2-dwarf5 -gdwarf-5 -DKABI_V2) ||
	{ ok 1 "fixtures"; done_testing; }
scratch hostile-outputs
export XDG_CACHE_HOME=$PWD/cache
cp "$old" a.kabi && cp "$new" b.kabi && cp "$k1" vmlinux

notreg="not a regular file; an output must be one ('-' for standard output)"
same="it is also an input; write the output elsewhere"

# refuses DESCRIPTION MESSAGE CMD...: exit 1, exactly MESSAGE on stderr, nothing on stdout.
refuses() {
	d=$1 m=$2; shift 2
	timeout 20 "$KABI_DIFF" "$@" >out.txt 2>err.txt
	is "$?|$(cat err.txt)|$(wc -c <out.txt)" "1|kabi-diff: $m|0" "$d"
}

mkfifo fifo
refuses "extract -o FIFO: refused, not opened" "fifo: $notreg" extract -q "$k1" -o fifo
refuses "diff -o FIFO: refused" "fifo: $notreg" diff a.kabi b.kabi -o fifo
refuses "spec init -o FIFO: refused" "fifo: $notreg" spec init a.kabi -o fifo
test -p fifo; ok $? "  the FIFO is still a FIFO"
# The test's own device node (as root): a regression must not replace /dev/null.
if mknod null-dev c 1 3 2>/dev/null; then
	refuses "extract -o a character device: refused" "null-dev: $notreg" extract -q "$k1" -o null-dev
	test -c null-dev; ok $? "  it is still a character device"
else
	skip "extract -o a character device: mknod needs root"
	skip "  it is still a character device"
fi
ln -s /dev/null null-link
refuses "diff -o a link to /dev/null: refused" "null-link: $notreg" diff a.kabi b.kabi -o null-link
test -L null-link; ok $? "  the link is still a link"
mkdir outdir
refuses "extract -o DIRECTORY: refused" "outdir: $notreg" extract -q "$k1" -o outdir

sum=$(cksum <vmlinux)
refuses "extract vmlinux -o vmlinux: refused" "vmlinux: $same" extract -q vmlinux -o vmlinux
refuses "  under another name (./vmlinux)" "./vmlinux: $same" extract -q vmlinux -o ./vmlinux
is "$(cksum <vmlinux)" "$sum" "  the input is untouched"
sum=$(cksum <a.kabi)
refuses "diff a.kabi b.kabi -o a.kabi: refused" "a.kabi: $same" diff a.kabi b.kabi -o a.kabi
ln a.kabi hard.kabi
refuses "  -o a hard link to the new side: refused" "hard.kabi: $same" diff b.kabi a.kabi -o hard.kabi
refuses "spec init a.kabi -o a.kabi: refused" "a.kabi: $same" spec init a.kabi -o a.kabi
is "$(cksum <a.kabi)" "$sum" "  the inputs are untouched"

"$KABI_DIFF" diff a.kabi b.kabi -o - >stdout.txt 2>err.txt
is "$?|$(cat err.txt)" "12|" "diff -o -: exit 12, nothing on stderr"
"$KABI_DIFF" diff a.kabi b.kabi >plain.txt 2>/dev/null
cmp -s stdout.txt plain.txt; ok $? "  the report on standard output"
"$KABI_DIFF" spec init a.kabi -o - >init.txt 2>/dev/null
is "$?|$("$KABI_DIFF" spec init a.kabi -o init-file.txt && cmp init.txt init-file.txt && echo same)" \
	"0|same" "spec init -o -: the contract on standard output"
"$KABI_DIFF" extract -q "$k1" -o - >piped.kabi 2>err.txt
is "$?|$(cat err.txt)" "0|" "extract -o - into a pipe: exit 0"
is "$(q piped.kabi "SELECT count(*) FROM types")" "$(q a.kabi "SELECT count(*) FROM types")" \
	"  standard output holds the .kabi"
test ! -e ./-; ok $? "  no file named '-'"

(umask 022 && "$KABI_DIFF" extract -q "$k1" -o u022.kabi && "$KABI_DIFF" diff a.kabi b.kabi -o r022.txt)
(umask 027 && "$KABI_DIFF" extract -q "$k1" -o u027.kabi && "$KABI_DIFF" spec init a.kabi -o s027.txt)
is "$(stat -c %a u022.kabi r022.txt u027.kabi s027.txt | tr '\n' ' ')" "644 644 640 640 " \
	"new outputs: 0666 less the umask (022, 027)"
cp plain.txt kept.txt && chmod 0604 kept.txt && chown 65534:65534 kept.txt
(umask 077 && "$KABI_DIFF" diff a.kabi b.kabi -o kept.txt)
is "$(stat -c %a-%u-%g kept.txt)|$(cmp -s kept.txt plain.txt; echo $?)" "604-65534-65534|0" \
	"a rewritten output keeps its mode and owner"
cp a.kabi kept.kabi && chmod 0664 kept.kabi
(umask 077 && "$KABI_DIFF" extract -q "$k2" -o kept.kabi)
is "$(stat -c %a kept.kabi)|$(q kept.kabi "SELECT count(*) FROM types")" \
	"664|$(q b.kabi "SELECT count(*) FROM types")" "  a rewritten .kabi too"

# Another image with the same build-id: its own extraction, its own report.
bid=0x5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed
s1=$(fixture_kernel same-id-v1 -gdwarf-5 "-Wl,--build-id=$bid") &&
	s2=$(fixture_kernel same-id-v2 -gdwarf-5 -DKABI_V2 "-Wl,--build-id=$bid") ||
	ok 1 "same build-id fixtures"
"$KABI_DIFF" "$s1" "$s2" -q >same.txt 2>err.txt
is "$?|$(cat err.txt)" "12|" "two images, one build-id: both extracted, breaking changes (exit 12)"
"$KABI_DIFF" "$s2" "$s1" -q >/dev/null 2>&1
is "$?" 12 "  again, from the cache, sides swapped: exit 12"
is "$(ls cache/kabi-diff | grep -c '^5eed.*\.kabi$')" 2 "  two entries under that build-id"

"$KABI_DIFF" "$k1" "$k2" >/dev/null 2>err.txt
"$KABI_DIFF" "$k1" "$k2" >/dev/null 2>err.txt
is "$(grep -c extracting err.txt)" 0 "a second diff: both sides from the cache"
entry=
for f in cache/kabi-diff/*.kabi; do
	[ "$(q "$f" "SELECT value FROM meta WHERE key = 'source_path'")" = "$k1" ] && entry=$f
done
q "$entry" "UPDATE meta SET value = 'v0.0-older' WHERE key = 'tool_version'"
"$KABI_DIFF" "$k1" "$k2" >/dev/null 2>err.txt
is "$?|$(grep -c extracting err.txt)" "12|1" "an entry written by another version: extracted again"
is "$(q "$entry" "SELECT value = 'v0.0-older' FROM meta WHERE key = 'tool_version'")" 0 \
	"  and replaced"

done_testing

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabi-diff cache list | prune: the extraction cache diff fills. Two
# entries made by a diff of the sample vmlinux pair, then planted ones: an
# extraction of another kabi-diff version, a package reference whose .kabi
# is gone, an interrupted extraction's directory two days old (stale), a
# temporary file of a running one, a file and a symlink that are not
# kabi-diff's. prune removes exactly the stale ones (-n: says so, removes
# nothing), --older-than what was not used for that long (a cache hit
# counts as a use), --all every entry of kabi-diff but a fresh temporary;
# the others stay, the symlink's target too.
. "$KD_SRCDIR/lib.sh"

k1=$(fixture_kernel v1-dwarf5 -gdwarf-5) && k2=$(fixture_kernel v2-dwarf5 -gdwarf-5 -DKABI_V2) ||
	{ ok 1 "fixture kernels"; done_testing; }
export XDG_CACHE_HOME=$PWD/c
C=$XDG_CACHE_HOME/kabi-diff

"$KABI_DIFF" cache list >list.txt
is "$?:$(cat list.txt)" "0:cache: $C (0 entries, 0.0 kB)" "no cache yet: zero entries, exit 0"

"$KABI_DIFF" "$k1" "$k2" -q >/dev/null
is "$?" 12 "a diff of two vmlinux fills the cache"
# e1: V1's entry, e2: V2's.
for f in "$C"/*.kabi; do
	case $(q "$f" "SELECT value FROM meta WHERE key = 'release'") in
	6.99.1-fixture) e1=${f##*/} ;; *) e2=${f##*/} ;;
	esac
done
"$KABI_DIFF" cache list >list.txt
is "$(sed 1d list.txt | sed 's/^ *[0-9.]* kB    0d  //' | grep '^kernel' | sort -t: -k2)" \
"kernel           $e1: 6.99.1-fixture (vmlinux)
kernel           $e2: 6.99.2-fixture (vmlinux)" "list: each kernel with its size, age, release and what it holds"
is "$(sed -n 's/^ *[0-9.]* kB    0d  file digest      file-[0-9a-f]\{16\}\.ref: //p' list.txt | sort)" \
	"$(realpath "$k1" "$k2" | sort)" "  and the digest of each vmlinux, naming the file it was read from"
digests=$(cd "$C" && ls file-*.ref)

# The key is the content: a copy of V1 elsewhere is V1's entry, not extracted again.
cp "$k1" copy.vmlinux
"$KABI_DIFF" copy.vmlinux "$k2" 2>err.txt >/dev/null
is "$?:$(grep -c extracting err.txt):$(ls "$C"/*.kabi | wc -l)" "12:0:2" \
	"a copy of a cached vmlinux: answered from its entry, nothing extracted"
touch copy.vmlinux
copy_digest=$(cd "$C" && ls file-*.ref | grep -vxF "$digests")

cp "$C/$e1" "$C/ffff-0123456789abcdef.kabi" && q "$C/ffff-0123456789abcdef.kabi" \
	"UPDATE meta SET value = '0.0-other' WHERE key = 'tool_version'" >/dev/null
printf '%s\nabc\n0123\n' "$C/gone.kabi" >"$C/pkg-00000000000000aa.ref"
mkdir "$C/.kabi-unpack-old" && echo x >"$C/.kabi-unpack-old/vmlinux" && touch -d '2 days ago' "$C/.kabi-unpack-old"
echo y >"$C/$e2.tmp.running"
echo mine >"$C/notes.txt"
echo secret >target && ln -s "$PWD/target" "$C/evil.kabi"
"$KABI_DIFF" cache list >list.txt
is "$(grep -c '\[stale: ' list.txt)" 4 "list: the three planted stale entries and the touched copy's digest marked stale"
grep -q " file digest      $copy_digest: $PWD/copy.vmlinux \\[stale: remembers a file changed or gone since\\]\$" list.txt
ok $? "  the digest of a file written since"
grep -q ' kernel           ffff-0123456789abcdef.kabi: .*\[stale: extracted by another kabi-diff version' list.txt
ok $? "  another version's extraction"
grep -q ' packages         pkg-00000000000000aa.ref: -> gone.kabi \[stale: names a .kabi no longer cached\]$' list.txt
ok $? "  a package reference whose .kabi is gone"
grep -q ' partial          .kabi-unpack-old \[stale: left by an interrupted extraction\]$' list.txt
ok $? "  an interrupted extraction's directory of two days ago"
grep -q ' partial          .*\.tmp\.running$' list.txt; ok $? "  a fresh temporary: partial, not stale"
grep -q ' other            notes.txt$' list.txt && grep -q ' other            evil.kabi$' list.txt
ok $? "  a file and a symlink not kabi-diff's: other"

"$KABI_DIFF" cache prune -n >dry.txt
is "$?:$(grep -c '^would remove ' dry.txt):$(ls -A "$C" | wc -l)" "0:4:11" "prune -n: four would go, nothing removed"
"$KABI_DIFF" cache prune >prune.txt
is "$?:$(sed 's/ (.*)//; s/[0-9][0-9.]* kB/N kB/g' prune.txt)" "0:removed .kabi-unpack-old: left by an interrupted extraction
removed ffff-0123456789abcdef.kabi: extracted by another kabi-diff version, whose entries this one never reads
removed $copy_digest: remembers a file changed or gone since
removed pkg-00000000000000aa.ref: names a .kabi no longer cached
pruned 4 entries, N kB; kept 7, N kB" "prune: exactly the stale entries, each with why"
is "$(ls -A "$C" | sort | tr '\n' ' ')" "$(printf '%s\n' "$e1" "$e2" $digests "$e2.tmp.running" evil.kabi notes.txt | sort | tr '\n' ' ')" \
	"  the rest stays"

"$KABI_DIFF" "$k1" "$k2" 2>err.txt >/dev/null
is "$?:$(grep -c extracting err.txt)" "12:0" "a diff after prune: both kernels from the cache"

touch -d '3 days ago' "$C/$e1" "$C/$e2"
"$KABI_DIFF" "$k1" "$k1" -q >/dev/null
"$KABI_DIFF" cache prune --older-than 2 >prune.txt
is "$(grep '^removed' prune.txt | sed 's/ (.*//')" "removed $e2" \
	"--older-than 2: the entry unused for 3 days goes, the one a diff just used stays"
"$KABI_DIFF" cache prune --all >prune.txt
# Both sorted: the entry's name is a digest, before or after the others.
is "$(ls -A "$C" | sort | tr '\n' ' ')" \
	"$(printf '%s\n' "$e2.tmp.running" evil.kabi notes.txt | sort | tr '\n' ' ')" \
	"--all: every kabi-diff entry but a fresh temporary; not the others"
is "$(cat target)" "secret" "  the symlink's target untouched"

"$KABI_DIFF" cache 2>err.txt; is "$?" 2 "cache without a subcommand: usage error"
"$KABI_DIFF" cache frob 2>err.txt; is "$?:$(head -1 err.txt)" "2:kabi-diff: unknown subcommand 'frob'" "an unknown subcommand"
"$KABI_DIFF" cache prune --older-than soon 2>err.txt
is "$?:$(head -1 err.txt)" "2:kabi-diff: cache prune: --older-than takes a number of days, not 'soon'" \
	"--older-than takes days"

done_testing

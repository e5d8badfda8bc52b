#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabi-diff spec init on the fixture kernel: the exact skeleton (kinds
# guessed from the C types, a TODO note for a flag set), that it loads with
# spec lint and checks clean against the kernel it came from, --except DIR,
# -o FILE (atomic) and errors. The real kernels' skeletons are linted by
# tests/real/t07-check.sh.
. "$KD_SRCDIR/lib.sh"

k=$(fixture_db v1-dwarf5 -gdwarf-5) || { ok 1 "fixture kernel"; done_testing; }
"$KABI_DIFF" spec init "$k" >out.txt 2>err.txt
is "$?" 0 "spec init: exit 0"
is "$(cat out.txt)" "# SPDX-License-Identifier: GPL-2.0-only
# Skeleton contract of 6.99.1-fixture, written by \`kabi-diff spec init\`:
# 7 x86_64 syscalls, parameter kinds guessed from the C types.
# They promise nothing about flags or errnos; TODO notes name the
# flag sets to write. Move each entry to its area file to annotate it.

syscall read(fd: fd, buf: ptr inout char, count: len buf) -> int;
syscall openat(dfd: fd, filename: path, flags: int, mode: int) -> int {
	note \"TODO: flags is a flag set (flags openat_flags).\";
}
syscall getpid() -> int;
syscall fxstat(fd: fd, st: ptr inout struct fx_stat) -> int;
syscall fxlegacy(l: ptr inout struct fx_legacy, n: ptr inout struct fx_node) -> int;
syscall openat2(dfd: fd, filename: path, how: ptr inout struct open_how, usize: len how) -> int;
syscall fxold(x: int) -> int;" "  the skeleton, in table order"
is "$(cat err.txt)" "" "  nothing on stderr"

mkdir sk && cp out.txt sk/skel.kabispec
"$KABI_DIFF" spec lint sk >lint.txt 2>&1
is "$?" 0 "the skeleton loads with spec lint"
is "$(sed 's/; spec hash.*//' lint.txt)" "1 files, 7 syscalls, 0 ioctls, 0 flag sets/enums, 0 structs, 0 fd kinds, 0 vDSO ABIs" \
	"  with its 7 syscalls"
KABI_DIFF_SPEC=none "$KABI_DIFF" check "$k" --spec sk >check.txt
is "$?" 0 "  and checks clean against its kernel"

mkdir part && printf 'syscall read(fd: fd, buf: ptr out char[], count: len buf) -> count;\nsyscall getpid() -> pid;\n' \
	>part/p.kabispec
"$KABI_DIFF" spec init "$k" --except part -o new.kabispec >stdout.txt
is "$?" 0 "--except DIR -o FILE: exit 0"
is "$(wc -c <stdout.txt)" 0 "  nothing on stdout"
is "$(grep '^syscall' new.kabispec | sed 's/(.*//' | tr '\n' ' ')" \
	"syscall openat syscall fxstat syscall fxlegacy syscall openat2 syscall fxold " \
	"  only the syscalls DIR lacks"
is "$(sed -n 3p new.kabispec)" "# 5 x86_64 syscalls not in the spec, parameter kinds guessed from the C types." \
	"  the header counts them"
is "$(ls new.kabispec.tmp.* 2>/dev/null | wc -l)" 0 "  no temporary file left"

"$KABI_DIFF" spec init >/dev/null 2>&1; is "$?" 2 "no KERNEL.kabi: usage error"
"$KABI_DIFF" spec init "$k" --bogus >/dev/null 2>&1; is "$?" 2 "unknown option: usage error"
"$KABI_DIFF" spec init nothere.kabi >/dev/null 2>&1; is "$?" 1 "missing DB: exit 1"
"$KABI_DIFF" spec init "$k" -o /nonexistent/dir/x.kabispec 2>/dev/null; is "$?" 1 "unwritable -o: exit 1"
done_testing

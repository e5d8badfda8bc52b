#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The header compilers are bounded (extract/uapi/compile.c, doc/LIMITS.md),
# the limits lowered here through $KABI_DIFF_TEST_UAPI_LIMITS ("CPU RUN
# BUDGET" seconds): a header that includes a FIFO of the tree and waits
# fails at the run's wall-clock limit, and one that includes itself 2^60
# times at its CPU limit, said as a limit (it read "failed without a
# diagnostic": redteam R36), while the others compile; the headers not
# compiled when the tree's time budget runs out fail with the budget.
# Each run is a process group: no gcc or cc1 reading the tree outlives
# kabi-diff, at a limit or when kabi-diff itself gets SIGTERM, and the work
# directory is gone then too (R40).
. "$KD_SRCDIR/lib.sh"

KABI_DIFF_NO_UAPI_CACHE=1
export KABI_DIFF_NO_UAPI_CACHE
top=$PWD
mkdir -p u/linux u/asm tmp
echo '#define KX_ARCH 1' >u/asm/kxarch.h
printf 'struct ok_t { int a; };\n' >u/linux/ok.h
printf '#if __INCLUDE_LEVEL__ < 60\n#include "loop.h"\n#include "loop.h"\n#endif\n' >u/linux/loop.h
mkfifo u/linux/pipe
printf '#include "pipe"\nstruct f_t { int a; };\n' >u/linux/fifo.h

# Compilers (gcc, cc1, as) whose command line names this test's directory.
compilers() {
	ps -eo pid=,args= | awk -v t="$top/" 'index($0, t) && /cc1|gcc|[ \/]as / && !/awk/ { print $1 }'
}
problems() {
	q "$1" "SELECT location || ': ' || message FROM problems WHERE stage = 'uapi'
		AND message LIKE 'does not compile%' ORDER BY location"
}
view="does not compile on its own, so its types have no header view"

start=$(date +%s)
KABI_DIFF_TEST_UAPI_LIMITS="2 10 120" TMPDIR=$top/tmp "$KABI_DIFF" extract -q --uapi u -o lim.kabi 2>err.txt
is "$?" 0 "limits of 2 CPU seconds and 10 s a run (room for a loaded machine): exit 0"
took=$(($(date +%s) - start))
ok "$([ "$took" -lt 30 ] && echo 0 || echo 1)" "  within 30 s ($took s)"
is "$(problems lim.kabi | sed -E 's/, [0-9]+ MiB of address space per process\): .*(signal terminated program cc1)$/, M MiB ...): ... \1/')" \
"linux/fifo.h: $view: the compiler was stopped at its time limit (10 s for a run; a header that reads a FIFO or never ends)
linux/loop.h: $view: the compiler hit a limit (2 CPU seconds, M MiB ...): ... signal terminated program cc1" \
	"  the FIFO's header at the wall-clock limit, the self-inclusion at the CPU limit"
is "$(q lim.kabi "SELECT value FROM meta WHERE key = 'uapi_compiled'")" "2 of 4" "  the other 2 headers compiled"
is "$(q lim.kabi "SELECT count(*) FROM types WHERE name = 'ok_t'")" 1 "  struct ok_t is there"
is "$(compilers)" "" "  no compiler left reading the tree"
is "$(ls tmp)" "" "  nothing left in \$TMPDIR"

start=$(date +%s)
KABI_DIFF_TEST_UAPI_LIMITS="2 60 3" "$KABI_DIFF" extract -q --uapi u -o budget.kabi 2>err.txt
is "$?" 0 "a time budget of 3 s for the tree: exit 0"
took=$(($(date +%s) - start))
ok "$([ "$took" -lt 20 ] && echo 0 || echo 1)" "  within 20 s, not the run's 60 s ($took s)"
budget="the header view's time budget (3 s for all the compiler runs of a tree) ran out"
is "$(problems budget.kabi)" \
"linux/fifo.h: $view: $budget
linux/loop.h: $view: $budget
linux/ok.h: $view: $budget" "  the headers not compiled when it ran out fail with the budget"
is "$(q budget.kabi "SELECT value FROM meta WHERE key = 'uapi_compiled'")" "1 of 4" \
	"  the header compiled before it ran out is kept"
is "$(compilers)" "" "  no compiler left reading the tree"

# SIGTERM while a compiler waits on the FIFO.
TMPDIR=$top/tmp "$KABI_DIFF" extract -q --uapi u -o term.kabi 2>err.txt &
pid=$!
n=0
while [ -z "$(compilers)" ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
ok "$([ -n "$(compilers)" ] && echo 0 || echo 1)" "SIGTERM: the compiler is running"
sleep 0.5
kill -TERM $pid
wait $pid
is "$?" 143 "  kabi-diff ends by the signal"
sleep 0.5
is "$(compilers)" "" "  its compilers are gone"
is "$(ls tmp)" "" "  its work directory is gone"
ok "$([ ! -e term.kabi ] && echo 0 || echo 1)" "  no output"
done_testing

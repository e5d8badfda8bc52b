#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The layering of STYLE.md, checked on the includes of every source file:
# a stage includes only the stages below it (lib <- db <- {extract, spec,
# diff} <- probe <- cli; probe reads the contract of spec/), only extract/
# includes libdwarf, libelf and libarchive, only db/ includes sqlite3,
# only lib/digest.c includes OpenSSL (the others digest through it).
# The checker runs
# on the tree (no violation) and on a scratch tree with five planted ones
# (exactly those reported), so it cannot pass by finding nothing.
. "$KD_SRCDIR/lib.sh"

top=$KD_SRCDIR/..

# violations ROOT: "FILE: INCLUDE" for each include a stage may not have.
violations() {
	(cd "$1" && find lib db extract spec diff probe cli -name '*.[ch]' 2>/dev/null | sort |
		xargs awk '
		FNR == 1 {
			stage = FILENAME; sub(/\/.*/, "", stage)
			ok = "lib"
			if (stage == "db") ok = "lib db"
			if (stage == "extract") ok = "lib db extract"
			if (stage == "spec") ok = "lib db spec"
			if (stage == "diff") ok = "lib db diff"
			if (stage == "probe") ok = "lib db spec probe"
			if (stage == "cli") ok = "lib db extract spec diff probe cli"
		}
		/^#include "[a-z]+\// {
			dep = $2; gsub(/"/, "", dep); sub(/\/.*/, "", dep)
			if ((" " ok " ") !~ (" " dep " ")) print FILENAME ": " $2
		}
		/^#include <(libdwarf|dwarf|libelf|gelf|archive|archive_entry)\.h>/ && stage != "extract" {
			print FILENAME ": " $2
		}
		/^#include <sqlite3\.h>/ && stage != "db" { print FILENAME ": " $2 }
		/^#include <openssl\// && FILENAME != "lib/digest.c" { print FILENAME ": " $2 }
		')
}

is "$(violations "$top")" "" "every include of lib/ db/ extract/ spec/ diff/ probe/ cli/ respects the layers"

fake=$KD_TMPDIR/t0010-fake
rm -rf "$fake" && mkdir -p "$fake/lib" "$fake/spec" "$fake/diff" "$fake/probe" "$fake/extract"
printf '#include "lib/buf.h"\n#include "db/kdb.h"\n' >"$fake/lib/a.c"
printf '#include "spec/spec.h"\n#include "extract/elf_internal.h"\n' >"$fake/spec/b.c"
printf '#include <stdio.h>\n#include <sqlite3.h>\n' >"$fake/diff/c.h"
printf '#include "spec/spec.h"\n#include <libdwarf.h>\n' >"$fake/probe/d.c"
printf '#include <libdwarf.h>\n#include "db/kdb.h"\n' >"$fake/extract/e.c"
printf '#include <openssl/evp.h>\n' >"$fake/extract/f.c"
printf '#include <openssl/evp.h>\n' >"$fake/lib/digest.c"
is "$(violations "$fake")" "diff/c.h: <sqlite3.h>
extract/f.c: <openssl/evp.h>
lib/a.c: \"db/kdb.h\"
probe/d.c: <libdwarf.h>
spec/b.c: \"extract/elf_internal.h\"" "  a scratch tree with five planted violations reports exactly those"

done_testing

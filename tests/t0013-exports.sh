#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What the program's objects export is what other files use. An exported
# symbol nobody references, not even its own file, is dead code; one only
# its own file uses, declared in a stage-private header (*_internal.h) or
# in none, belongs static. (A stage's public header may declare API its
# own file alone uses today.) Read off the objects the build made, with
# nm; the checker runs on them (nothing to report) and on a scratch tree
# with planted cases (exactly those reported), so it cannot pass by
# finding nothing.
. "$KD_SRCDIR/lib.sh"

top=$(cd "$KD_SRCDIR/.." && pwd)
# The users include the unit tests and the fuzz harnesses: made by `make check`.
[ -x "$top/build/tests/t-fuzz-regress" ] ||
	{ skip "the unit tests are not built (make check builds them)"; done_testing; }

# exports SRC OBJ: one line per defined global symbol of the program's
# objects that no other object references: "SYMBOL FILE.c: why".
exports() {
	src=$1 obj=$2
	# One nm over every object: "OBJ:ADDR TYPE SYM" or "OBJ: U SYM".
	(cd "$obj" && find . -name '*.o' | sed 's,^\./,,' | sort | xargs nm -A 2>/dev/null) |
	awk '
		{ o = $1; sub(/:.*/, "", o) }
		$2 == "U" { users[$3] = users[$3] " " o; next }
		# Only names the sources define, not what a sanitizer adds (__odr_asan.X).
		$2 ~ /^[TDBR]$/ && $3 != "main" && $3 ~ /^[A-Za-z_][A-Za-z0-9_]*$/ && $3 !~ /^__/ &&
			o ~ /^(lib|db|extract|spec|diff|probe|cli)\// { def[$3] = o }
		END {
			for (s in def) {
				n = split(users[s], u, " "); other = 0
				for (i = 1; i <= n; i++) if (u[i] != def[s]) other = 1
				if (!other) print s, def[s]
			}
		}' | sort |
	while read -r sym o; do
		c=${o%.o}.c
		n=$(grep -ow -- "$sym" "$src/$c" | wc -l)
		if [ "$n" -le 1 ]; then
			echo "$sym $c: dead (nothing uses it)"
			continue
		fi
		hdrs=$(cd "$src" && grep -rlw --include='*.h' -- "$sym" lib db extract spec diff probe cli 2>/dev/null |
			grep -v '_internal\.h$')
		[ -n "$hdrs" ] || echo "$sym $c: only its own file uses it (static)"
	done
}

is "$(exports "$top" "$top/build")" "" \
	"every export of the program is used by another file, or is a public header's API"

# Planted: a dead function, a private one in an *_internal.h, a private one
# in no header, an API function of a public header, and a used one.
s=$KD_TMPDIR/t0013-tree
mkdir -p "$s/diff" "$s/o/diff" "$s/o/tests"
cat >"$s/diff/x_internal.h" <<'H'
int planted_private(void);
H
cat >"$s/diff/x.h" <<'H'
int planted_api(void);
int planted_used(void);
H
cat >"$s/diff/x.c" <<'C'
int planted_dead(void) { return 1; }
int planted_private(void) { return 2; }
int planted_headerless(void) { return 3; }
int planted_api(void) { return planted_private() + planted_headerless(); }
int planted_used(void) { return planted_api(); }
C
echo 'int planted_used(void); int main(void) { return planted_used(); }' >"$s/user.c"
${CC:-cc} -c -o "$s/o/diff/x.o" "$s/diff/x.c" && ${CC:-cc} -c -o "$s/o/tests/user.o" "$s/user.c"
ok $? "the planted tree compiles"
is "$(exports "$s" "$s/o")" "planted_dead diff/x.c: dead (nothing uses it)
planted_headerless diff/x.c: only its own file uses it (static)
planted_private diff/x.c: only its own file uses it (static)" \
	"the planted dead and private exports, and only those, are reported"
done_testing

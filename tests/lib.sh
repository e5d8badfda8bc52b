# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers for the end-to-end tests (tests/tNNNN-*.sh): TAP output and
# fixture kernels built once per test run. Source it: . "$KD_SRCDIR/lib.sh"
# Environment (set by tests/run): KD_SRCDIR, KD_TMPDIR, KABI_DIFF.

set -u
: "${KD_SRCDIR:=$(cd "$(dirname "$0")" && pwd)}"
: "${KD_TMPDIR:=$(mktemp -d)}"
: "${KABI_DIFF:=$KD_SRCDIR/../kabi-diff}"
tap_n=0
tap_failed=0

# ok COND_EXIT_STATUS DESCRIPTION   (use: test ...; ok $? "what")
ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

# is GOT WANT DESCRIPTION
is() {
	tap_n=$((tap_n + 1))
	if [ "$1" = "$2" ]; then
		echo "ok $tap_n - $3"
	else
		echo "not ok $tap_n - $3"
		printf '#   got:  %s\n#   want: %s\n' "$(printf '%s' "$1" | sed '2,$s/^/#         /')" \
			"$(printf '%s' "$2" | sed '2,$s/^/#         /')"
		tap_failed=$((tap_failed + 1))
	fi
}

skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $1"
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
	exit $?
}

# fixture_kernel NAME [gcc flags...]: build tests/fixtures/kernel.c once per
# run into $KD_TMPDIR/fixtures/NAME and print its path.
fixture_kernel() {
	name=$1; shift
	mkdir -p "$KD_TMPDIR/fixtures"
	out=$KD_TMPDIR/fixtures/$name
	if [ ! -e "$out" ]; then
		"$KD_SRCDIR/fixtures/build-kernel.sh" "$out.tmp.$$" "$@" >&2 && mv "$out.tmp.$$" "$out"
	fi
	echo "$out"
}

# fixture_db NAME [gcc flags...]: the fixture kernel extracted to NAME.kabi.
fixture_db() {
	name=$1
	k=$(fixture_kernel "$@") || return 1
	db=$KD_TMPDIR/fixtures/$name.kabi
	if [ ! -e "$db" ]; then
		"$KABI_DIFF" extract -q "$k" -o "$db" >&2 || return 1
	fi
	echo "$db"
}

# q DB SQL: one query, '|'-separated rows.
q() {
	sqlite3 -batch "$1" "$2"
}

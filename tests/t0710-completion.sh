#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bash completion (contrib/bash-completion/kabi-diff): sourced into bash,
# _kabi_diff called with COMP_WORDS/COMP_CWORD as bash would, the exact
# COMPREPLY checked: commands, each command's options, option arguments,
# show's items, names from a .kabi, file types.
. "$KD_SRCDIR/lib.sh"

comp=$KD_SRCDIR/../contrib/bash-completion/kabi-diff
if ! command -v bash >/dev/null 2>&1; then
	skip "no bash"
	done_testing
fi
db=$(fixture_db v1-dwarf5 -gdwarf-5)
work=$KD_TMPDIR/t0710
mkdir -p "$work/dir.d" && cd "$work" || exit 1
: >a.kabi; : >b.kabi; : >vmlinux-1; : >notes.txt

# complete WORD...: the sorted completions of the last word, one line.
complete_words() {
	bash -c '. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
		_kabi_diff; printf "%s\n" "${COMPREPLY[@]}" | LC_ALL=C sort | tr "\n" " "' \
		_ "$comp" "$KABI_DIFF" "$@" | sed 's/ $//'
}

is "$(complete_words "")" "a.kabi b.kabi cache check diff dir.d extract matrix notes.txt probe show spec vmlinux-1" \
	"first word: the commands and files (the headline form OLD NEW)"
is "$(complete_words ex)" "extract" "a command's prefix"
is "$(complete_words cache "")" "list prune" "cache: its subcommands"
is "$(complete_words --)" "--git --help --version" "kabi-diff's own options"
is "$(complete_words diff --)" \
	"--abi --arch --color --for --format --full --full-report --full-report-url --git --help --new --new-spec --no-spec --old --old-spec --only --output --quiet --repo --review --spec --stat --suppressions" \
	"diff's long options"
is "$(complete_words a.kabi b.kabi --s)" "--spec --stat --suppressions" "the headline form takes diff's options"
is "$(complete_words extract --)" "--arch --help --jobs --modules --output --quiet --spec --system-map --uapi --vdso" "extract's long options"
is "$(complete_words extract -)" "--arch --help --jobs --modules --output --quiet --spec --system-map --uapi --vdso -h -j -o -q" \
	"extract's options, short ones too"
is "$(complete_words probe --k)" "--kernel" "probe's options"
is "$(complete_words diff a.kabi b.kabi -f "")" "json md sarif text" "--format: the report formats"
is "$(complete_words check x.kabi --format "")" "json text" "check --format: its two"
is "$(complete_words diff --abi "")" "ia32 x32 x64" "--abi: the ABIs"
is "$(complete_words diff --only "")" "breaking" "--only"
is "$(complete_words diff --color=a)" "--color=always --color=auto" "--color=WHEN"
is "$(complete_words extract vmlinux-1 --uapi "")" "dir.d" "--uapi: directories only"
is "$(complete_words show "")" "a.kabi b.kabi dir.d" "show: .kabi files (and directories)"
is "$(complete_words check "")" "a.kabi b.kabi dir.d" "check: .kabi files"
is "$(complete_words show a.kabi "")" "compat-ioctls const enum info ioctl ioctls problems struct syscall syscalls type union vdso" \
	"show: the items"
is "$(complete_words show a.kabi s)" "struct syscall syscalls" "show: an item's prefix"
is "$(complete_words spec "")" "init lint load" "spec: its subcommands"
is "$(complete_words spec lint "")" "dir.d" "spec lint: a directory"
is "$(complete_words spec load "")" "a.kabi b.kabi dir.d" "spec load: a .kabi first"
is "$(complete_words diff a.kabi "")" "a.kabi b.kabi dir.d notes.txt vmlinux-1" "diff: any file (vmlinux, .kabi, directory)"
is "$(complete_words -o "")" "a.kabi b.kabi dir.d notes.txt vmlinux-1" "-o: files"
is "$(complete_words diff a.kabi b.kabi --review --full-report "")" "a.kabi b.kabi dir.d notes.txt vmlinux-1" \
	"--full-report: files"
is "$(complete_words diff a.kabi b.kabi --full-report-url "")" "" "--full-report-url: a URL, no file"
if command -v sqlite3 >/dev/null 2>&1; then
	is "$(complete_words show "$db" syscall fx)" "fxlegacy fxold fxstat" "show K.kabi syscall: names from the .kabi"
	is "$(complete_words show "$db" struct fx_b)" "fx_bits" "show K.kabi struct: struct names from the .kabi"
	is "$(complete_words show "$db" struct zz)" "" "no struct of that prefix: nothing"
fi

done_testing

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabi-diff show: exact text for the table, a layout with bitfields and a
# hole, a syscall with its argument layout, and the error cases.
. "$KD_SRCDIR/lib.sh"

db=$(fixture_db v1-dwarf5 -gdwarf-5)
show() { "$KABI_DIFF" show "$db" "$@" 2>&1 | sed 's|declared at .*/tests/fixtures/|declared at tests/fixtures/|'; }

is "$(show syscalls --abi x64)" \
"x64      0  read                     long int sys_read(unsigned int fd, char *buf, long unsigned int count)
x64      1  -                        (not implemented)
x64      2  openat                   long int sys_openat(int dfd, const char *filename, int flags, umode_t mode)
x64      3  getpid                   long int sys_getpid(void)
x64      4  fxstat                   long int sys_fxstat(int fd, struct fx_stat *st)
x64      5  fxlegacy                 long int sys_fxlegacy(struct fx_legacy *l, struct fx_node *n)
x64      6  openat2                  long int sys_openat2(int dfd, const char *filename, struct open_how *how, size_t usize)
x64      7  fxold                    long int sys_fxold(int x)" "show syscalls"

is "$(show struct fx_bits)" \
"struct fx_bits {
	unsigned int ready:1;                            /*     0: 0    4 */
	unsigned int kind:3;                             /*     0: 1    4 */
	unsigned int level:4;                            /*     0: 4    4 */
	unsigned int prio:4;                             /*     0: 8    4 */
	short unsigned int tag;                          /*     2     2 */

	/* size: 4, align: 4, members: 5 */
};
/* declared at tests/fixtures/kernel.c:47 */" "show struct: bitfields"

is "$(show struct fx_node)" \
"struct fx_node {
	struct fx_node *next;                            /*     0     8 */
	union {
		int ival;                                /*     8     4 */
		float fval;                              /*     8     4 */
	} u;                                             /*     8     4 */
	/* XXX 4 bytes hole */
	void (*callback)(struct fx_node *, int);         /*    16     8 */

	/* size: 24, align: 8, members: 3 */
};
/* declared at tests/fixtures/kernel.c:$(grep -n "^struct fx_node {" "$KD_SRCDIR/fixtures/kernel.c" | cut -d: -f1) */" "show struct: named inner union, hole, function pointer"

is "$(show syscall openat2)" \
"x64   openat2: nr 6, entry __x64_sys_openat2

long int sys_openat2(int dfd, const char *filename, struct open_how *how, size_t usize)
  from dwarf, $(q "$db" "SELECT decl_file FROM functions WHERE name='sys_openat2'"):$(grep -n '^SYSCALL_DEFINE4(openat2,' "$KD_SRCDIR/fixtures/kernel.c" | cut -d: -f1)

/* how */
struct open_how {
	__u64 flags;                                     /*     0     8 */
	__u64 mode;                                      /*     8     8 */
	__u64 resolve;                                   /*    16     8 */

	/* size: 24, align: 8, members: 3 */
};
/* declared at tests/fixtures/kernel.c:29 */" "show syscall: numbers, signature, argument layout"

is "$(show enum fx_mode)" \
"enum fx_mode {
	FX_MODE_OFF = 0,
	FX_MODE_ON = 1,
	FX_MODE_AUTO = 2,
};	/* size: 4, enumerators: 3 */
/* declared at tests/fixtures/kernel.c:38 */" "show enum"

out=$("$KABI_DIFF" show "$db" syscall nosuch 2>&1)
is "$?|$out" "1|kabi-diff: $db: no syscall named 'nosuch'" "unknown syscall: exit 1, one line"
out=$("$KABI_DIFF" show "$db" struct nosuch 2>&1)
is "$?|$out" "1|kabi-diff: $db: no struct named 'nosuch' (only types reachable from syscalls and ioctls are recorded)" "unknown struct"
echo text > "$KD_TMPDIR/not.kabi"
out=$("$KABI_DIFF" show "$KD_TMPDIR/not.kabi" syscalls 2>&1)
is "$?|$out" "1|kabi-diff: $KD_TMPDIR/not.kabi: not a .kabi database (not SQLite)" "not a DB"
cp "$db" "$KD_TMPDIR/dangling.kabi"
id=$(q "$KD_TMPDIR/dangling.kabi" "SELECT id FROM types WHERE kind = 'struct' AND name = 'open_how'")
q "$KD_TMPDIR/dangling.kabi" "DELETE FROM types WHERE id = $id"
out=$("$KABI_DIFF" show "$KD_TMPDIR/dangling.kabi" syscall openat2 2>&1 >/dev/null)
is "$?|$out" "1|kabi-diff: $KD_TMPDIR/dangling.kabi: type $id is referenced but missing (damaged file?)" \
	"a dangling type reference: exit 1, not a silent 'void'"
"$KABI_DIFF" show "$db" frob x >/dev/null 2>&1
is "$?" "2" "unknown item: usage error"
is "$(show info | sed -n '1p;3p')" "release         6.99.1-fixture
arch            x86_64" "show info"
done_testing

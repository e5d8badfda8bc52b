#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# diff --for FILE: the report and the exit status restricted to what one
# program uses, read from an strace log (written here), a seccomp profile
# (JSON, written here) or an ELF binary (compiled here). The pair: the
# sample kernel V1 -> V2 with V1 and V2 header trees (12 changes, 9
# breaking). Each kind both ways: a program that uses a broken syscall or
# ioctl gets the breaking exit, one that does not gets 0 or 4; names
# resolved from numbers (ioctl commands, syscall numbers), types reached
# from a used syscall or ioctl; malformed files refused in one line.
. "$KD_SRCDIR/lib.sh"

k1=$(fixture_kernel v1-dwarf5 -gdwarf-5) && k2=$(fixture_kernel v2-dwarf5 -gdwarf-5 -DKABI_V2) ||
	{ ok 1 "fixture kernels"; done_testing; }
uapi=$KD_SRCDIR/fixtures/kernel-uapi
mkdir -p A B && cp "$k1" A/vmlinux && cp "$k2" B/vmlinux && cp -R "$uapi" A/include &&
	cp -R "$uapi" B/include &&
	sed -i -e "s/_IO('F', 5)/_IO('F', 6)/" \
		-e "s|^#define FXK_HOW_SIZE|#define FXK_IOC_NEW\t_IO('F', 7)\n&|" B/include/uapi/linux/fxkernel.h
ok $? "V1 and V2 kernel directories (V2 headers: FXK_IOC_RESET renumbered, FXK_IOC_NEW added)"

"$KABI_DIFF" A B -q -f json >all.json
is "$?" 12 "the whole diff: exit 12"
is "$(jq '[.changes | length, (map(select(.verdict == "breaking")) | length)] | join(" ")' all.json)" '"12 9"' \
	"  12 changes, 9 breaking"

# kinds FILE: "kind subject" of each change of a JSON report, sorted.
kinds() { jq -r '.changes[] | "\(.kind) \(.subject)"' "$1" | sort; }

# --- strace logs -----------------------------------------------------------
cat >used.log <<'LOG'
1234  execve("./prog", ["prog"], 0x7ffd /* 20 vars */) = 0
1234  read(3, "x", 1)                      = 1
[pid  1235] 12:00:01.123 openat(AT_FDCWD, "/etc/a,b", O_RDONLY) = 3
1235  ioctl(3</dev/fx, odd>, 0x4605) = 0
1235  read(3,  <unfinished ...>
1234  <... read resumed>"", 4096) = 0
1234  --- SIGCHLD {si_signo=SIGCHLD} ---
1234  +++ exited with 0 +++
LOG
"$KABI_DIFF" A B -q --for used.log >used.txt 2>err.txt
is "$?" 12 "strace: an ioctl by number whose command changed: exit 12"
is "$(sed -n '4,6p' used.txt)" "for used.log (strace log): the program uses 2 syscalls and 1 ioctl; 1 change reaches them (1 breaking)
left out: 11 changes none of them reaches (8 breaking, 3 compatible)
syscalls neither kernel has: execve, ioctl" "  says what the program uses, what changed of it, what was left out"
is "$(sed -n 7p used.txt)" "not seen in an strace log: the calls the vDSO answers without entering the kernel (clock_gettime, gettimeofday, time, getcpu, getrandom), and what the traced run did not do" \
	"  and what a log cannot show"
grep -q '^  FXK_IOC_RESET (1 ioctl.cmd)$' used.txt; ok $? "  the ioctl, named from its number (0x4605)"
is "$(grep -c '^  [^ ]' used.txt)" 1 "  and no other finding"
is "$(cat err.txt)" "" "  nothing on stderr"

cat >unused.log <<'LOG'
read(0, "", 1) = 0
openat(AT_FDCWD, "/x", O_RDONLY) = 3
fxnew(3) = 0
ioctl(3, _IOC(_IOC_NONE, 0x46, 0x7, 0), 0) = 0
LOG
"$KABI_DIFF" A B -q --for unused.log -f json >unused.json
is "$?" 4 "strace: only an added syscall and an added ioctl (_IOC(...)): exit 4, not 12"
is "$(kinds unused.json)" "ioctl.added FXK_IOC_NEW
syscall.added fxnew (x64)" "  exactly those two changes"
is "$(jq -c '.for | [.file, .kind, .syscalls, .ioctls, .unknown_syscalls, .left_out, .exit_status]' unused.json)" \
	'["unused.log","strace log",["fxnew","openat","read"],["FXK_IOC_NEW"],["ioctl"],{"breaking":9,"source":0,"compatible":1,"info":0,"suppressed":0},null]' \
	"  JSON: for: the file, its kind, the names used (ioctl: no syscall of the fixture kernels), what was left out"
is "$(jq -c '[.exit_status, .summary.total.breaking, .summary.total.compatible]' unused.json)" '[4,0,2]' \
	"  JSON: exit status and summary of the program's changes only"

printf 'read(0, "", 1) = 0\nopenat(AT_FDCWD, "/x", O_RDONLY) = 3\n' >clean.log
"$KABI_DIFF" A B -q --for clean.log >clean.txt
is "$?" 0 "strace: syscalls that did not change: exit 0"
is "$(sed -n 4p clean.txt)" "for clean.log (strace log): the program uses 2 syscalls and 0 ioctls; none of them changed" \
	"  says none changed"

# A name strace prints (two where numbers collide): the ioctl, and the struct it passes.
printf 'ioctl(3, FXK_IOC_HOW or TCGETS, {flags=0}) = 0\n' >name.log
"$KABI_DIFF" A B -q --for name.log -f json >name.json
is "$?" 12 "strace: an ioctl by name (A or B): exit 12"
is "$(kinds name.json)" "ioctl.cmd FXK_IOC_HOW
type.member.added struct open_how.newfield
type.size struct open_how" "  its command and its argument's struct, not openat2's renumbering"

printf '5678 syscall_0x7(1, 2) = -1 ENOSYS (Function not implemented)\n' >nr.log
"$KABI_DIFF" A B -q --for nr.log -f json >nr.json
is "$?" 12 "strace: a syscall by number (syscall_0x7): exit 12"
is "$(kinds nr.json)" "syscall.removed fxold (x64)" \
	"  number 7 is the old kernel's fxold (removed), not the new one's openat2 (renumbered)"

printf 'syscall_8(1) = 0\n' >nr8.log
"$KABI_DIFF" A B -q --for nr8.log -f json >nr8.json
is "$?:$(kinds nr8.json)" "4:syscall.added fxnew (x64)" "  number 8, which the old kernel lacks: the new kernel's fxnew (added), exit 4"

# --- seccomp profiles -------------------------------------------------------
cat >quiet.json <<'JSON'
{
  "defaultAction": "SCMP_ACT_ERRNO",
  "architectures": ["SCMP_ARCH_X86_64"],
  "syscalls": [
    {"names": ["read", "openat", "ioctl"], "action": "SCMP_ACT_ALLOW",
     "args": [{"index": 1, "value": 17927, "op": "SCMP_CMP_EQ"}]},
    {"names": ["openat2", "fxstat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1}
  ]
}
JSON
"$KABI_DIFF" A B -q --for quiet.json -f json >quiet.out.json
is "$?" 4 "seccomp: openat2 and fxstat refused by the profile, FXK_IOC_NEW allowed: exit 4"
is "$(kinds quiet.out.json)" "ioctl.added FXK_IOC_NEW" "  only the ioctl its argument filter names (17927 = 0x4607)"
is "$(jq -r .for.kind quiet.out.json)" "seccomp profile" "  read as a seccomp profile"
sed 's/"openat2", "fxstat"/"openat2"/; s/"read", "openat"/"read", "fxstat", "openat"/' quiet.json >loud.json
"$KABI_DIFF" A B -q --for loud.json -f json >loud.out.json
is "$?" 12 "seccomp: fxstat allowed: exit 12"
is "$(kinds loud.out.json)" "ioctl.added FXK_IOC_NEW
type.enumerator.added enum fx_mode.FX_MODE_TURBO
type.member.bitfield struct fx_bits.prio" "  the types fxstat reaches"

printf '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["fxold"], "action": "SCMP_ACT_ERRNO"}]}\n' >deny.json
"$KABI_DIFF" A B -q --for deny.json >out.txt 2>err.txt
is "$?:$(cat err.txt)" "1:kabi-diff: deny.json: its defaultAction SCMP_ACT_ALLOW lets every syscall through: the profile does not say which the program uses" \
	"seccomp: a deny list is refused (exit 1, one line)"
is "$(wc -c <out.txt)" 0 "  no partial report"
printf '{"defaultAction": "SCMP_ACT_ERRNO",\n "syscalls": [{"names": ["read",]}]}\n' >bad.json
"$KABI_DIFF" A B -q --for bad.json >out.txt 2>err.txt
is "$?:$(wc -l <err.txt)" "1:1" "seccomp: malformed JSON: exit 1, one line"
grep -q '^kabi-diff: bad.json:2: not a seccomp profile: ' err.txt; ok $? "  naming the file and line"
printf '{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": "read", "action": "SCMP_ACT_ALLOW"}]}' >shape.json
"$KABI_DIFF" A B -q --for shape.json 2>err.txt
is "$?:$(cat err.txt)" "1:kabi-diff: shape.json: syscalls[0]: not {\"names\": [...], \"action\": ...}" \
	"seccomp: names not an array: exit 1, what is wrong where"

# --- ELF binaries ------------------------------------------------------------
cat >prog.c <<'C'
#include <sys/ioctl.h>
#include <unistd.h>

int main(void)
{
	char c;

	if (read(0, &c, 0) < 0)
		return 1;
#ifdef USE_IOCTL
	ioctl(0, 0x4605);
#endif
#ifdef DIRECT_NR
	long r;

	__asm__ volatile("movl %1, %%eax\n\tsyscall" : "=a"(r) : "i"(DIRECT_NR) : "rcx", "r11", "memory");
#endif
	return 0;
}
C
if [ "$(uname -m)" = x86_64 ] && gcc -O2 -o plain prog.c && gcc -O2 -DUSE_IOCTL -o withioctl prog.c &&
	gcc -O2 -DDIRECT_NR=7 -o direct prog.c; then
	"$KABI_DIFF" A B -q --for plain >plain.txt
	is "$?" 0 "ELF: a program that imports read only: exit 0"
	is "$(sed -n '4p' plain.txt)" "for plain (ELF binary): the program uses 1 syscall and 0 ioctls; none of them changed" \
		"  its libc imports named as syscalls: read (printf-like imports are no syscalls)"
	grep -q '^not seen in an ELF binary: libc functions not named as their syscall' plain.txt
	ok $? "  says what an ELF binary does not show"
	"$KABI_DIFF" A B -q --for withioctl -f json >withioctl.json
	is "$?" 12 "ELF: ioctl(fd, 0x4605): exit 12"
	is "$(jq -c '[.for.syscalls, .for.ioctls]' withioctl.json)" '[["read"],["FXK_IOC_RESET"]]' \
		"  the command immediate resolved to FXK_IOC_RESET (ioctl itself: no syscall of the fixture kernels)"
	"$KABI_DIFF" A B -q --for direct -f json >direct.json
	is "$?" 12 "ELF: a direct syscall 7: exit 12"
	is "$(kinds direct.json)" "syscall.removed fxold (x64)" "  number 7 of the old kernel's x64 table: fxold, removed"
else
	for i in 1 2 3 4 5 6 7; do skip "ELF fixtures need x86-64 and gcc"; done
fi

# --- the vDSO ----------------------------------------------------------------
# V2 -> V1 of the vDSO fixture: __vdso_getrandom and its alias getrandom
# removed from each image (x64, ia32, x32), breaking.
if vd1=$(fixture_vdso_db vd1 "LINUX_2.6" -DVDSO_64 -DVDSO_32 -DVDSO_X32) &&
   vd2=$(fixture_vdso_db vd2 "LINUX_2.6 -DVDSO_V2" -DVDSO_64 -DVDSO_32 -DVDSO_X32); then
	printf '{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["read", "getrandom"], "action": "SCMP_ACT_ALLOW"}]}' >rand.json
	"$KABI_DIFF" "$vd2" "$vd1" -q --for rand.json -f json >rand.out.json
	is "$?:$(jq -r '[.changes[] | select(.category == "vdso")] | length' rand.out.json)" "12:6" \
		"vDSO: a profile allowing getrandom keeps its entry points' removal in every image: exit 12"
	printf '{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ALLOW"}]}' >read.json
	"$KABI_DIFF" "$vd2" "$vd1" -q --for read.json -f json >read.out.json
	is "$?:$(jq -r '[.changes[] | select(.category == "vdso")] | length' read.out.json)" "0:0" \
		"  one allowing read only: none of it, exit 0"
	if [ "$(uname -m)" = x86_64 ] && printf '#include <sys/random.h>\nint main(void) { char b[4]; return getrandom(b, 4, 0) < 0; }\n' |
		gcc -O2 -x c -o rand - 2>/dev/null; then
		"$KABI_DIFF" "$vd2" "$vd1" -q --for rand -f json >rand.elf.json
		is "$?:$(jq -r '[.changes[] | select(.category == "vdso") | .subject] | join(",")' rand.elf.json)" \
			"12:__vdso_getrandom@LINUX_2.6 (x64),getrandom@LINUX_2.6 (x64)" \
			"  an x86-64 binary importing getrandom: the x64 image's removals only"
	else
		skip "x86-64 gcc needed"
	fi
else
	for i in 1 2 3; do skip "vDSO fixtures"; done
fi

# --- what is refused --------------------------------------------------------
printf 'hello world\nnothing here\n' >notes.txt
"$KABI_DIFF" A B -q --for notes.txt >out.txt 2>err.txt
is "$?:$(cat err.txt)" "1:kabi-diff: notes.txt: not an strace log, a seccomp profile or an ELF binary (no call in it)" \
	"a file that is none of the three: exit 1, one line"
is "$(wc -c <out.txt)" 0 "  no partial report"
printf 'read(0, "", 1) = 0\nope\000nat(1) = 0\n' >nul.log
"$KABI_DIFF" A B -q --for nul.log 2>err.txt >/dev/null
is "$?:$(cat err.txt)" "1:kabi-diff: nul.log:2: not an strace log (a NUL byte)" "a NUL byte in a log: exit 1, its line"
{ printf 'fxstat(%0200000d) = 0\n' 0; printf 'read(0, "", 1) = 0\n'; } >long.log
"$KABI_DIFF" A B -q --for long.log -f json >long.json
is "$?:$(jq -c .for.syscalls long.json)" '12:["fxstat","read"]' "a 200 kB line: read up to its call, the next line still read"
"$KABI_DIFF" A B -q --for . 2>err.txt >/dev/null
is "$?" 1 "--for a directory: exit 1"
mkfifo fifo.log
timeout 20 "$KABI_DIFF" A B -q --for fifo.log 2>err.txt >/dev/null
is "$?:$(cat err.txt)" "1:kabi-diff: fifo.log: not a regular file" "--for a FIFO: refused at once, never waited on"
"$KABI_DIFF" A B -q --for missing.log 2>err.txt >/dev/null
is "$?:$(cat err.txt)" "1:kabi-diff: missing.log: No such file or directory" "--for a missing file: exit 1, one line"
"$KABI_DIFF" A B -q --for used.log -o used.log 2>err.txt
is "$?" 1 "-o the --for file: refused"
grep -q '^1235  ioctl' used.log; ok $? "  the log untouched"

"$KABI_DIFF" A B -q --for used.log -f md >used.md
is "$?" 12 "Markdown: exit 12"
grep -qxF '**for used.log \(strace log\): the program uses 2 syscalls and 1 ioctl; 1 change reaches them \(1 breaking\)**' used.md
ok $? "  the for line, first in bold"

done_testing

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Compiled-probe oracle for the UAPI reader: what the reader computes for
# every constant and ioctl of a header tree must equal what the C compiler
# computes from the same headers.
#
# For each header H the reader scanned, a probe C file includes <H> and
# prints, with the compiler's own evaluation, every constant the reader
# attributes to H (value and C type, through _Generic), every ioctl
# command number, and sizeof of every ioctl argument type. Lines the
# compiler rejects (a type the headers do not define, a header that does
# not compile alone) are dropped and counted, not compared. The sizes the
# compiler printed then stand in for DWARF: the reader runs again with them
# as its sizeof source, and both outputs are compared line by line.
#
# KD_PROBE_ARCH=arm64 probes the headers as aarch64 user space sees them
# (arch/arm64/include/uapi, the reader's --arch arm64) with the aarch64
# cross compiler ($KD_PROBE_CC, default aarch64-linux-gnu-gcc). A cross
# compiler's programs do not run here: each value is then a constant in
# the assembly (gcc -S) and read from there, two's complement as gcc
# writes it, printed with the type's signedness.
#
# Usage: tests/uapi-probe.sh DIR [MIN_CONSTS MIN_IOCTLS]
# Prints TAP. Needs build/tests/t-uapi (make build/tests/t-uapi) and cc.
# KD_PROBE_KEEP=1 keeps the work directory.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$1
min_consts=${2:-1}
min_ioctls=${3:-1}
tuapi=$top/build/tests/t-uapi
arch=${KD_PROBE_ARCH:-x86_64}
case $arch in
x86_64) arch_dir=x86 CC=${KD_PROBE_CC:-${CC:-cc}} cross=0 ;;
arm64) arch_dir=arm64 CC=${KD_PROBE_CC:-aarch64-linux-gnu-gcc} cross=1
	[ "$(uname -m)" = aarch64 ] && cross=0 ;;
*) echo "uapi-probe.sh: unknown KD_PROBE_ARCH $arch" >&2; exit 2 ;;
esac
jobs=$(nproc 2>/dev/null || echo 2)

work=$(mktemp -d "${TMPDIR:-/tmp}/kabi-probe.XXXXXX") || exit 1
[ "${KD_PROBE_KEEP:-0}" = 1 ] && echo "# work directory: $work" || trap 'rm -rf "$work"' EXIT INT TERM
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; }

# Without the reader there is nothing to compare: a failure, not a skip
# (make check and make check-real build it).
[ -x "$tuapi" ] || { notok "$tuapi not built (make build/tests/t-uapi)"; echo "1..$n"; exit 1; }

# Include path as the kernel's (installed tree, or arch uapi + generic uapi
# + what Kbuild and headers_install would add).
. "$top/tests/uapi-incs.sh"
uapi_incs "$dir" "$arch_dir" "$work"

"$tuapi" --dump "$dir" --arch "$arch" >"$work/dump1" 2>"$work/dump1.err" || { notok "reader failed on $dir"; cat "$work/dump1.err"; echo "1..$n"; exit 1; }

# Compile each probe, dropping the lines the compiler rejects (a few rounds).
cat >"$work/compile.sh" <<EOF
#!/bin/sh
c=\$1; exe=\${c%.c}
for round in 1 2 3 4 5 6 7 8; do
	if $CC -std=gnu11 -w $incs $([ "$cross" = 1 ] && echo -S) -o "\$exe" "\$c" 2>"\$exe.err"; then exit 0; fi
	base=\$(basename "\$c")
	lines=\$(grep -E "^(.*/)?\$base:[0-9]+:[0-9]+: (error|note: in expansion)" "\$exe.err" | sed -E "s/^(.*\\/)?\$base:([0-9]+):.*/\\2/" | sort -un)
	lines=\$(echo "\$lines" | awk '\$1 > 9')
	[ -n "\$lines" ] || { echo "\$c" >>"\$exe.failed"; exit 0; }
	echo "\$lines" >>"\$exe.dropped"
	sed -i "\$(echo "\$lines" | sed 's/\$/d/' | tr '\n' ';')" "\$c"
done
echo "\$c" >>"\$exe.failed"
EOF
# probe INPUT PREFIX: generate, compile and run the probes of a reader dump,
# one per root header (the header whose inclusion gave the reader the value).
# Cross (cross=1): each probe line defines kd_v_N (the value) and kd_t_N
# (the type's index in KD_PROBE_TI) and PREFIX.map says what N is.
probe() {
	awk -F'\t' -v work="$work" -v prefix="$2" -v cross="$cross" '
	function line(kind, name, expr) {
		if (!cross)
			return sprintf("KD_PROBE_%s(\"%s\", %s);\n", kind, name, expr)
		n++
		printf "%d\t%s\t%s\n", n, kind, name > (work "/" prefix "map")
		return sprintf("KD_PROBE_%s(%d, %s);\n", kind, n, expr)
	}
	$1 == "const" { root = $5; body[root] = body[root] line("C", $2, $2) }
	$1 == "ioctl" {
		root = $10
		body[root] = body[root] line("I", $2, $2)
		if ($9 != "" && !((root, $9) in seen)) {
			seen[root, $9] = 1
			body[root] = body[root] line("S", $9, $9)
		}
	}
	END {
		i = 0
		for (root in body) {
			f = work "/" prefix i ".c"; i++
			print "#include <" root ">" > f
			if (cross) {
				# Nine lines before the probes, as the native file has (compile.sh keeps them).
				print "#define KD_PROBE_TI(x) _Generic((x), int: 0, unsigned int: 1, long: 2, unsigned long: 3, long long: 4, unsigned long long: 5, char: 6, signed char: 7, unsigned char: 8, short: 9, unsigned short: 10, _Bool: 11, default: 12)" > f
				print "#define KD_PROBE_V(n, v, t) const unsigned long long kd_v_##n = (v); const int kd_t_##n = (t)" > f
				print "#define KD_PROBE_C(n, x) KD_PROBE_V(n, (unsigned long long)(x), KD_PROBE_TI(x))" > f
				print "#define KD_PROBE_I(n, x) KD_PROBE_V(n, (unsigned int)(x), 1)" > f
				print "#define KD_PROBE_S(n, t) KD_PROBE_V(n, sizeof(t), 3)" > f
				print "/* values read back from the assembly */" > f
				print "/* */" > f
				print "/* */" > f
				printf "%s", body[root] > f
				close(f)
				continue
			}
			print "int printf(const char *, ...);" > f
			print "#define KD_PROBE_T(x) _Generic((x), int: \"int\", unsigned int: \"unsigned int\", long: \"long\", unsigned long: \"unsigned long\", long long: \"long long\", unsigned long long: \"unsigned long long\", char: \"char\", signed char: \"signed char\", unsigned char: \"unsigned char\", short: \"short\", unsigned short: \"unsigned short\", _Bool: \"_Bool\", default: \"other\")" > f
			print "#define KD_PROBE_U(x) _Generic((x), unsigned int: 1, unsigned long: 1, unsigned long long: 1, default: 0)" > f
			print "#define KD_PROBE_C(n, x) (KD_PROBE_U(x) ? printf(\"const\\t%s\\t%llu\\t%s\\n\", n, (unsigned long long)(x), KD_PROBE_T(x)) : printf(\"const\\t%s\\t%lld\\t%s\\n\", n, (long long)(x), KD_PROBE_T(x)))" > f
			print "#define KD_PROBE_I(n, x) printf(\"ioctl\\t%s\\t%u\\n\", n, (unsigned int)(x))" > f
			print "#define KD_PROBE_S(n, t) printf(\"size\\t%s\\t%zu\\n\", n, sizeof(t))" > f
			print "int main(void)\n{" > f
			printf "%s", body[root] > f
			print "return 0;\n}" > f
			close(f)
		}
	}' "$1"

	ls "$work"/"$2"*.c | xargs -P "$jobs" -n 1 sh "$work/compile.sh"
	if [ "$cross" = 1 ]; then
		cross_values "$2" >>"$work/probe"
		return
	fi
	for exe in "$work"/"$2"*; do
		case "$exe" in *.c|*.err|*.dropped|*.failed) continue ;; esac
		"$exe" >>"$work/probe" 2>/dev/null || echo "# $exe failed to run"
	done
}

# cross_values PREFIX: the probe lines of the assemblies PREFIX*.s (from
# gcc -S; compile.sh writes them without the .s suffix).
cross_values() {
	for s in "$work"/"$1"*; do
		case "$s" in *.c|*.err|*.dropped|*.failed|*map) continue ;; esac
		awk '/^kd_[vt]_[0-9]+:/ { sym = substr($1, 1, length($1) - 1); next }
			sym != "" && $1 ~ /^\.(xword|word|zero)$/ {
				split(sym, p, "_"); v = ($1 == ".zero") ? 0 : $2
				print p[3], p[2], v; sym = ""
			}' "$s"
	done | awk -v map="$work/$1map" '
		BEGIN { while ((getline l < map) > 0) { split(l, f, "\t"); kind[f[1]] = f[2]; name[f[1]] = f[3] } }
		$2 == "v" { val[$1] = $3 } $2 == "t" { typ[$1] = $3 }
		END { for (n in val) printf "%s\t%s\t%s\t%s\n", kind[n], name[n], val[n], (n in typ) ? typ[n] : 12 }' |
	while IFS='	' read -r kind name val t; do
		case $kind in
		C) # No command substitution here: a fork per value took minutes.
		   set -- int "unsigned int" long "unsigned long" "long long" "unsigned long long" \
			char "signed char" "unsigned char" short "unsigned short" _Bool other
		   shift "$t"
		   case $t in
		   1|3|5) printf 'const\t%s\t%u\t%s\n' "$name" "$val" "$1" ;;
		   *) printf 'const\t%s\t%d\t%s\n' "$name" "$val" "$1" ;;
		   esac ;;
		I) printf 'ioctl\t%s\t%u\n' "$name" "$val" ;;
		S) printf 'size\t%s\t%u\n' "$name" "$val" ;;
		esac
	done
}

probe "$work/dump1" pr_
touch "$work/probe"
dropped=$(cat "$work"/*.dropped 2>/dev/null | wc -l)
failed=$(cat "$work"/*.failed 2>/dev/null | wc -l)
echo "# probes: $(ls "$work"/pr_*.c | wc -l) headers, $failed do not compile alone, $dropped lines dropped"

# The compiler's sizes as the reader's sizeof source; read again.
awk -F'\t' '$1 == "size" { print $2 "\t" $3 }' "$work/probe" | sort -u >"$work/sizes"
"$tuapi" --dump "$dir" --arch "$arch" --sizes "$work/sizes" >"$work/dump2" 2>>"$work/dump1.err"
# Constants that only evaluate with sizes (sizeof of a struct): probe them too.
awk -F'\t' 'FNR == NR { if ($1 == "const") seen[$2] = 1; next }
	$1 == "const" && !($2 in seen)' "$work/dump1" "$work/dump2" >"$work/dump-sized"
[ -s "$work/dump-sized" ] && probe "$work/dump-sized" sz_

awk -F'\t' -v mc="$min_consts" -v mi="$min_ioctls" -v out="$work/mismatch" '
FNR == NR {
	if ($1 == "const") { cv[$2] = $3; ct[$2] = $4 }
	if ($1 == "ioctl") iv[$2] = $3
	next
}
$1 == "const" {
	if (!($2 in cv)) { cm++; print "const " $2 ": reader has none (probe " $3 " " $4 ")" > out; next }
	if (cv[$2] == $3 && ct[$2] == $4) cok++
	else { cm++; print "const " $2 ": reader " cv[$2] " " ct[$2] ", compiler " $3 " " $4 > out }
}
$1 == "ioctl" {
	if (iv[$2] == $3) iok++
	else { im++; print "ioctl " $2 ": reader " iv[$2] ", compiler " $3 > out }
}
END {
	printf "%d %d %d %d\n", cok, cm, iok, im
}' "$work/dump2" "$work/probe" >"$work/result"
touch "$work/mismatch"
read -r cok cm iok im <"$work/result"
total_c=$(grep -c '^const' "$work/dump2"); total_i=$(grep -c '^ioctl' "$work/dump2")
echo "# reader: $total_c constants, $total_i ioctls; $(tail -1 "$work/dump2")"
echo "# constants: $cok match, $cm mismatch; ioctls: $iok match, $im mismatch"
head -40 "$work/mismatch" | sed 's/^/# /'
[ "$cm" -eq 0 ] && ok "every probed constant matches the compiler ($cok)" || notok "constants: $cm mismatch"
[ "$im" -eq 0 ] && ok "every probed ioctl number matches the compiler ($iok)" || notok "ioctls: $im mismatch"
[ "$cok" -ge "$min_consts" ] && ok "at least $min_consts constants compared ($cok)" || notok "only $cok constants compared (< $min_consts)"
[ "$iok" -ge "$min_ioctls" ] && ok "at least $min_ioctls ioctls compared ($iok)" || notok "only $iok ioctls compared (< $min_ioctls)"
echo "1..$n"
[ "$cm" -eq 0 ] && [ "$im" -eq 0 ] && [ "$cok" -ge "$min_consts" ] && [ "$iok" -ge "$min_ioctls" ]

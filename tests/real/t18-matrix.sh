#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabi-diff matrix over Debian's release matrix, vmlinux + UAPI headers
# (fetch --headers), with the starter contract: the stable updates of 6.1
# and of 6.12, and the flavours of 6.12.107 (cloud, rt; arm64-16k against
# arm64). Within a stable series and between the flavours of one release a
# break is rare: every breaking change of every pair must be one that
# tests/real/verdicts/matrix.txt explains with the source read
# ("OLD -> NEW RULE SUBJECT | why"), and the pairs are the ones the plan
# names (updates in version order, flavours against amd64 / arm64).
# Kernels absent from the cache are left out (fetch --headers RELEASE...).
. "$KD_SRCDIR/lib.sh"

K=${KABI_KERNELS:-/root/.cache/kabi-kernels}
spec=$KD_SRCDIR/../spec/contract
export XDG_CACHE_HOME=$KD_TMPDIR/t18-cache
want="6.1.0-47-amd64 6.1.0-50-amd64 6.1.0-57-amd64
6.12.107+deb12-amd64 6.12.111+deb12-amd64 6.12.115+deb12-amd64 6.12.117+deb12-amd64
6.12.107+deb12-cloud-amd64 6.12.107+deb12-rt-amd64 6.12.107+deb12-arm64 6.12.107+deb12-arm64-16k"
set --
for r in $want; do
	[ -r "$K/$r/vmlinux" ] && [ -d "$K/$r/include/uapi" ] && set -- "$@" "$K/$r"
done
if [ $# -lt 2 ]; then
	skip "fewer than two of the matrix's kernels in $K (fetch --headers $(echo $want))"
	done_testing
fi

"$KABI_DIFF" matrix "$@" --spec "$spec" -q -f json -o m.json
rc=$?
[ $((rc & 3)) -eq 0 ]
ok $? "matrix of $# kernels: no error or usage error (exit $rc)"
# Each pair as "OLD -> NEW", by release.
pairs=$(jq -r '.kernels as $k | .pairs[] | "\(.kind) \($k[.old].release) -> \($k[.new].release)"' m.json)
# The plan: consecutive updates of one flavour, flavours against the base.
planned=$(for r in $want; do [ -r "$K/$r/vmlinux" ] && [ -d "$K/$r/include/uapi" ] && echo "$r"; done |
	awk '
	{ split($0, w, "-"); fl = $0; sub(/^[0-9][^-]*(-[0-9][^-]*)*-/, "", fl); ver = substr($0, 1, length($0) - length(fl) - 1)
	  arch = (fl ~ /arm64/) ? "arm64" : "x86_64"
	  if (!(arch in base)) base[arch] = fl
	  if ((arch, fl) in last) print "update " last[arch, fl] " -> " $0
	  last[arch, fl] = $0
	  if (fl != base[arch] && ((arch, ver) in hasbase)) print "flavour " hasbase[arch, ver] " -> " $0
	  if (fl == base[arch]) hasbase[arch, ver] = $0 }' | sort)
is "$(echo "$pairs" | sort)" "$planned" "the pairs: each update in order, each flavour against its base"
echo "$pairs" | sed 's/^/# /'

# Every breaking change of every pair, explained by the verdict file.
jq -r '.kernels as $k | .pairs[] | "\($k[.old].release) -> \($k[.new].release)" as $p |
	.breaking[] | "\($p) \(.rule) \(.subject)"' m.json | sort >breaking.got
grep -v '^#' "$KD_REALDIR/verdicts/matrix.txt" | sed 's/ | .*//' | sort >breaking.known
is "$(comm -23 breaking.got breaking.known)" "" \
	"every breaking change of the matrix is one verdicts/matrix.txt explains with the source read"
jq -r '.kernels as $k | .pairs[] | "# \(.kind) \($k[.old].release) -> \($k[.new].release): \(.counts.breaking) breaking, \(.counts.source) source"' m.json
done_testing

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A UAPI header that points to a type it leaves incomplete (struct
# fxo_inner *, fxo_inner_t *: xt_bpf.h's struct bpf_prog *) gives user
# space no layout of it: between two kernel directories whose module
# changes that type, and lays out otherwise a type the header defines
# (struct fxo_pub), nothing is reported, from the ioctl that passes the
# pointer (FXO_IOC_SET) or from the header (struct fxo_msg); a type the
# header defines (struct fxo_blob) is compared as the headers give it,
# and its evidence says where both header views declare it.
# tests/fixtures/opaque-pointee/: fxo.h and its module, -DFXO_V2 the next
# version of both.
. "$KD_SRCDIR/lib.sh"

k=$(fixture_kernel v1-dwarf5 -gdwarf-5) || { ok 1 "fixture kernel"; done_testing; }
fx=$KD_SRCDIR/fixtures
export XDG_CACHE_HOME=$PWD/cache

# v2's header: the same lines, with struct fxo_blob's #ifdef FXO_V2 taken.
for v in v1 v2; do
	def= take='#ifdef FXO_V2'
	[ $v = v2 ] && def=-DFXO_V2 take='#if 1'
	mkdir -p $v/modules && cp "$k" $v/vmlinux && cp -R "$fx/kernel-uapi" $v/include &&
		sed "s/^#ifdef FXO_V2\$/$take/" "$fx/opaque-pointee/fxo.h" >$v/include/uapi/linux/fxo.h &&
		gcc -g -O2 -c $def "$fx/opaque-pointee/module.c" -o $v/modules/fxo.ko || exit 1
done
ok 0 "two kernel directories: fxo.h and its module, v2's both changed"

"$KABI_DIFF" v1 v2 -q -f json >fwd.json
is "$?" 12 "v1 -> v2: exit 12 (changes, breaking: struct fxo_blob grew)"
is "$(jq -r '.changes[] | "\(.rule) \(.verdict) \(.subject) \([.impact[] | .path] | join(","))"' fwd.json | sort)" \
"tail-growth-uncontracted breaking struct fxo_blob linux/fxo.h -> struct fxo_blob
tail-growth-uncontracted breaking struct fxo_blob.c linux/fxo.h -> struct fxo_blob" \
	"  only struct fxo_blob, from its header: not the module's fxo_inner or fxo_pub"
is "$(jq -r '[.changes[] | .evidence | "\(.kind): \(.text)"] | unique | .[]' fwd.json)" \
	"layout: the layouts both header views give (compiled as user space compiles them): struct fxo_blob at linux/fxo.h:18 in the old headers, linux/fxo.h:18 in the new; no syscall or ioctl of either kernel reaches it" \
	"  the evidence: where both header views declare it"
done_testing

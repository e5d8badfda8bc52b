#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Kernel vs header on Debian's kernels (diff/RULES.md "Kernel vs header"):
# each kernel directory extracted whole (vmlinux, modules, UAPI headers),
# diffed with itself (every difference of a kernel would be listed: kept
# or unreached) and 6.1 -> 6.12 (a new one would be breaking). Neither
# kernel has a difference. What they have is pairs of layouts of one name
# (the header view's row and the kernel DWARF's, declared in the same
# include/uapi header) that lay out the same; read from the sources:
# - 6.1.0-47, 14 pairs: time types spelled otherwise (v4l2_buffer.timestamp
#   struct timeval in user space, struct __kernel_v4l2_timeval in the
#   kernel; v4l2_event: timespec / __kernel_timespec), C library types
#   beside the kernel's (size_t, struct sockaddr, struct iovec pointers:
#   snd_hwdep_dsp_image, snd_rawmidi_params, iwreq_data, iw_event,
#   btrfs_ioctl_encoded_io_args), members only user space sees as aliases
#   in a union (media.h's media_entity_desc alsa/v4l/fb/dvb beside
#   raw[184], videodev2.h's v4l2_ext_controls.ctrl_class beside which:
#   #ifndef __KERNEL__), asound.h's snd_pcm_mmap_status/control and
#   snd_pcm_sync_ptr (the kernel's __snd_pcm_mmap_status64 with zero-size
#   __pad1/__pad2 and an explicit pad3/pad1 where user space has implicit
#   padding: the same offsets on x86_64), snd_firewire_motu_command_dsp_meter
#   (a float array: the kernel builds without floating point types),
#   fuse_removemapping_one (linux/fuse.h spells its members uint64_t: the
#   C library's unsigned long in user space, the kernel's u64, unsigned
#   long long; 8 bytes either way);
# - 6.12.107, 110 pairs: the same 14, fuse_backing_map (uint64_t, as
#   fuse_removemapping_one), and 95 structs that reach a char (a member,
#   an array, a pointer or a union alternative: drm_version.name,
#   new_utsname, autofs_dev_ioctl.path, siginfo...): the kernel builds with
#   -funsigned-char since 6.2, user space's char is signed on x86_64, so
#   DWARF's char differs and the rows do; same bytes. (Counted with each
#   header compiled alone, issue 11: 13 and 106 before.)
# Same-name kernel-internal types (pt_regs of arch/x86/include/asm, sigaction
# of include/linux/signal_types.h, kexec_segment, gpio_desc: 11 in 6.1, 10 in
# 6.12) are not paired: their declaration is not the UAPI header's.
. "$KD_SRCDIR/lib.sh"

K=${KABI_KERNELS:-/root/.cache/kabi-kernels}
pairs_sql="SELECT count(*) FROM (SELECT DISTINCT h.id, k.id FROM types k
	JOIN types h ON h.name = k.name AND h.kind = k.kind AND h.id <> k.id
	JOIN uapi_types u ON u.type_id = h.id
	WHERE k.kind IN ('struct', 'union') AND (h.flags & 1) = 0 AND (k.flags & 1) = 0
	AND k.id NOT IN (SELECT type_id FROM uapi_types)
	AND (k.decl_file = 'include/uapi/' || u.file OR k.decl_file LIKE 'arch/%/include/uapi/' || u.file))"
internal_sql="SELECT count(DISTINCT k.id) FROM types k
	JOIN types h ON h.name = k.name AND h.kind = k.kind AND h.id <> k.id
	JOIN uapi_types u ON u.type_id = h.id
	WHERE k.kind IN ('struct', 'union') AND (k.flags & 1) = 0
	AND k.id NOT IN (SELECT type_id FROM uapi_types)
	AND NOT (k.decl_file LIKE 'include/uapi/%' OR k.decl_file LIKE 'arch/%/include/uapi/%')"
hk() {
	jq -r '[.changes[] | select(.kind == "type.header-kernel")] | length' "$1"
}
for rel in 6.1.0-47-amd64:14:11 6.12.107+deb12-amd64:110:10; do
	r=${rel%%:*} n=${rel#*:} want_pairs=${n%%:*} want_internal=${n#*:}
	d=$K/$r
	if [ ! -d "$d/modules" ] || [ ! -d "$d/include/uapi" ]; then
		skip "$r: no modules or headers in $K (fetch --modules --headers $r)"
		continue
	fi
	"$KABI_DIFF" extract -q "$d/vmlinux" --uapi "$d/include" --modules "$d/modules" -o "$r.kabi"
	is "$?" 0 "$r: extract vmlinux, modules, headers"
	is "$(q "$r.kabi" "$pairs_sql")" "$want_pairs" "$r: pairs of layouts (header view, kernel DWARF of the same header)"
	is "$(q "$r.kabi" "$internal_sql")" "$want_internal" "$r: same-name kernel-internal types not paired"
	"$KABI_DIFF" "$r.kabi" "$r.kabi" -q -f json >self-$r.json
	is "$(hk self-$r.json)" 0 "$r: no difference between kernel and header"
done
if [ -s 6.1.0-47-amd64.kabi ] && [ -s 6.12.107+deb12-amd64.kabi ]; then
	"$KABI_DIFF" 6.1.0-47-amd64.kabi 6.12.107+deb12-amd64.kabi -q -f json >d.json
	is "$(hk d.json)" 0 "6.1.0-47 -> 6.12.107: no kernel-vs-header finding"
fi
done_testing

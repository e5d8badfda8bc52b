#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kabi-diff on Debian's real kernels: 6.1.0-47 -> 6.1.0-57 (same stable
# series) and 6.1.0-47 -> 6.12.107 (vmlinux inputs), and the stable pair as
# kernel directories with their UAPI header trees. The report runs (exit
# 0/4/12, never 1), its syscall additions and removals are exactly those of
# the two syscall_64.tbl (tests/real/data), and every breaking verdict is
# listed here with the fact that makes it a real change.
. "$KD_SRCDIR/lib.sh"

K=${KABI_KERNELS:-/root/.cache/kabi-kernels}
old=6.1.0-47-amd64 stable=6.1.0-57-amd64 new=6.12.107+deb12-amd64
export XDG_CACHE_HOME=$KD_TMPDIR/t05-cache

# --- stable pair, vmlinux only -------------------------------------------
if db0=$(real_db $old) && db1=$(real_db $stable); then
	"$KABI_DIFF" diff "$db0" "$db1" -f json >stable.json
	is "$?" 0 "$old -> $stable (vmlinux): exit 0, no change in the syscall ABI"
	is "$(jq -c .summary.total stable.json)" '{"breaking":0,"source":0,"compatible":0,"info":0,"suppressed":0}' \
		"  empty summary"
else
	skip "$old or $stable not in $K"
fi

# --- 6.1 -> 6.12, vmlinux only -------------------------------------------
# Table rows that name an implemented syscall: "NR NAME".
impl() { grep -v '^#' "$KD_REALDIR/data/syscall_64-$1.txt" | awk '$3 != "-" && $3 != "sys_ni_syscall" { print $1, $2 }' | sort; }
if db0=$(real_db $old) && db2=$(real_db $new); then
	# With the starter contract (spec/): every change of 6.1 -> 6.12 that
	# reaches a syscall is compatible, source-level or info.
	"$KABI_DIFF" diff "$db0" "$db2" --spec "$KD_SRCDIR/../spec/contract" -f json >major.json
	is "$?" 20 "$old -> $new (starter contract): exit 20 (source-level changes, no breaking one)"
	is "$(jq -c .summary.total major.json)" '{"breaking":0,"source":3,"compatible":81,"info":3,"suppressed":0}' \
		"  summary: 0 breaking, 3 source, 81 compatible (3 of the vDSO), 3 info"
	# The twelve breaking verdicts of before, each settled by reading the
	# kernel sources (tests/real/verdicts-6.1-6.12-vmlinux.txt):
	is "$(jq -r '.changes[] | select(.subject | test("^(lookup_dcookie|name_to_handle_at\\(|struct (perf_event_attr|rseq|statx)\\b)")) |
		select(.rule != "tail-growth-extensible" or .kind != "type.member.added") |
		"\(.verdict) \(.rule) \(.subject) [\(.evidence.kind)]"' major.json | sort)" \
"compatible padding-reuse-out struct rseq.mm_cid [contract]
compatible padding-reuse-out struct rseq.node_id [contract]
compatible reserved-carved struct statx.__spare3 [contract]
compatible reserved-reuse struct perf_event_attr.__reserved_3 [contract]
compatible reserved-reuse struct perf_event_attr.aux_action [contract]
compatible reserved-reuse struct perf_event_attr.aux_pause [contract]
compatible reserved-reuse struct perf_event_attr.aux_resume [contract]
compatible reserved-reuse struct perf_event_attr.aux_start_paused [contract]
compatible reserved-reuse struct statx.__spare1 [contract]
compatible reserved-reuse struct statx.__spare3 [contract]
compatible reserved-reuse struct statx.stx_atomic_write_segments_max [contract]
compatible reserved-reuse struct statx.stx_atomic_write_unit_max [contract]
compatible reserved-reuse struct statx.stx_atomic_write_unit_min [contract]
compatible reserved-reuse struct statx.stx_subvol [contract]
compatible tail-growth-extensible struct perf_event_attr [layout]
info member-added-empty struct rseq.end [layout]
source pointee-void name_to_handle_at(mnt_id) [layout]
source syscall-removed-unimplemented lookup_dcookie (ia32) [kernel]
source syscall-removed-unimplemented lookup_dcookie (x64) [kernel]" "  the twelve: each with its verdict and evidence"
	is "$(jq -r '.changes[] | select(.subject == "lookup_dcookie (x64)") | .evidence.text' major.json)" \
		"the old kernel's sys_lookup_dcookie is the stub at kernel/sys_ni.c:60 (COND_SYSCALL: returns -ENOSYS)" \
		"  lookup_dcookie: 6.1's entry is the kernel/sys_ni.c stub (read from its DWARF)"
	is "$(jq -r '.changes[] | select(.subject == "struct statx.__spare3" and .kind == "type.member.offset") | .evidence.text' major.json | sed 's|^.*/spec/|spec/|; s|:[0-9]*:|:N:|')" \
		"spec/contract/fs.kabispec:N: struct statx.__spare3 is reserved" "  statx.__spare3: the contract line"
	# Without a contract (layout and naming conventions only).
	"$KABI_DIFF" diff "$db0" "$db2" -f json >major-nospec.json
	is "$?" 28 "$old -> $new (no contract): exit 28"
	# The x64 additions and removals are exactly the rows syscall_64.tbl
	# gained and lost (tests/real/data).
	impl 6.1 >t61.txt; impl 6.12 >t612.txt
	is "$(jq -r '.changes[] | select(.kind == "syscall.added" and (.subject | endswith("(x64)"))) |
		"\(.new) \(.subject | sub(" \\(x64\\)$"; ""))"' major.json | sort)" \
		"$(comm -13 t61.txt t612.txt)" "  x64 syscall.added: exactly the rows syscall_64.tbl gained"
	is "$(jq -r '.changes[] | select(.kind == "syscall.removed" and (.subject | endswith("(x64)"))) |
		"\(.old) \(.subject | sub(" \\(x64\\)$"; ""))"' major.json | sort)" \
		"$(comm -23 t61.txt t612.txt)" "  x64 syscall.removed: exactly the rows that lost their entry (212 lookup_dcookie)"
	# ia32 entry points (__ia32_sys_*) carry no numbers: their additions
	# must be among the table's new names too, nothing else.
	jq -r '.changes[] | select(.kind == "syscall.added") | .subject | sub(" \\(.*\\)$"; "")' major.json |
		sort -u >added-names.txt
	comm -13 t61.txt t612.txt | cut -d' ' -f2 | sort >new-names.txt
	is "$(comm -23 added-names.txt new-names.txt)" "" \
		"  no syscall.added outside the table's new syscalls (any ABI)"
	is "$(jq -r '[.changes[] | select(.kind | startswith("syscall.")) | .kind] | unique | join(",")' major.json)" \
		"syscall.added,syscall.param.type,syscall.removed" "  no renumbering, no parameter-count change"

	# Without a contract, the only breaking verdicts are the "potentially
	# breaking" ones no contract clears (tail growth, padding reuse); statx's
	# and perf_event_attr's carved reserved space is compatible by the naming
	# convention, lookup_dcookie and name_to_handle_at are source-level:
	# - union bpf_attr: grew at the tail (prog_token_fd, 6.9; raw_tracepoint.cookie,
	#   query.revision ...; link_create grew with uprobe_multi, 6.6); log_true_size
	#   took padding (6.4). bpf(2) takes a size and zero-checks the tail
	#   (CHECK_ATTR): compatible once the contract says so.
	# - struct landlock_ruleset_attr: 8 -> 24 (handled_access_net 6.7, scoped 6.12);
	#   landlock_create_ruleset takes a size (copy_min_struct_from_user).
	# - struct perf_event_attr: config3 at 128 (6.3, PERF_ATTR_SIZE_VER8).
	# - struct rseq: node_id and mm_cid in the old tail padding (6.3), written
	#   by the kernel only (the contract's 'out').
	is "$(jq -r '.changes[] | select(.verdict == "breaking") | "\(.rule) \(.subject)"' major-nospec.json | sort)" \
"padding-reuse-uncontracted struct rseq.mm_cid
padding-reuse-uncontracted struct rseq.node_id
padding-reuse-uncontracted union bpf_attr.log_true_size
tail-growth-uncontracted struct landlock_ruleset_attr
tail-growth-uncontracted struct landlock_ruleset_attr.handled_access_net
tail-growth-uncontracted struct landlock_ruleset_attr.scoped
tail-growth-uncontracted struct perf_event_attr
tail-growth-uncontracted struct perf_event_attr.config3
tail-growth-uncontracted union bpf_attr
tail-growth-uncontracted union bpf_attr.link_create
tail-growth-uncontracted union bpf_attr.link_create.uprobe_multi
tail-growth-uncontracted union bpf_attr.prog_token_fd
tail-growth-uncontracted union bpf_attr.query
tail-growth-uncontracted union bpf_attr.query.link_attach_flags
tail-growth-uncontracted union bpf_attr.query.link_ids
tail-growth-uncontracted union bpf_attr.query.revision
tail-growth-uncontracted union bpf_attr.raw_tracepoint
tail-growth-uncontracted union bpf_attr.raw_tracepoint.cookie" "  no contract: breaking verdicts are the potentially breaking ones (see the comments)"
	# False positives fixed in the engine, kept fixed:
	is "$(jq -r '.changes[] | select(.subject == "struct linux_dirent.d_name" or .subject == "struct old_linux_dirent.d_name") |
		"\(.rule) \(.old) \(.new)"' major.json)" \
"array-one-element char[1] char[]
array-one-element char[1] char[]" "  d_name[1] -> d_name[] (same size, 6.2 flexible-array cleanup): info; plain char's signedness (6.2 -funsigned-char) is no change"
	is "$(jq -r '.changes[] | select(.subject == "struct rseq.end") | .rule' major.json)" "member-added-empty" \
		"  rseq's char end[] occupies no bytes: info"
	is "$(jq -r '.changes[] | select(.subject == "struct perf_event_attr.__reserved_3") | "\(.old) -> \(.new)"' major.json)" \
		"bit 928, width 32 -> bit 931, width 29" "  a plain member turned bitfield: its width is its size"
	is "$(jq -r '[.changes[] | select(.subject | endswith("ring_offsets.resv2")) | "\(.rule) \(.evidence.kind)"] | join(",")' major.json)" \
		"reserved-reuse convention,reserved-reuse convention" "  resv2 -> user_addr (6.5): reserved space given a meaning, by the naming convention"
else
	skip "$old or $new not in $K"
fi

# --- stable pair as kernel directories with UAPI headers -----------------
# Both without modules (only 6.1.0-47's cache has them): the same inputs on
# each side, so ioctls and constants compare like with like.
if [ -d "$K/$old/include/uapi" ] && [ -d "$K/$stable/include/uapi" ]; then
	for r in $old $stable; do
		mkdir -p "dir-$r" && ln -sf "$K/$r/vmlinux" "dir-$r/vmlinux" && ln -sfn "$K/$r/include" "dir-$r/include"
	done
	"$KABI_DIFF" "dir-$old" "dir-$stable" -q -f json >stable-u.json
	is "$?" 20 "$old -> $stable with UAPI headers (directories): exit 20 (source-level changes, no breaking one)"
	# The backported UMP support added SNDRV_SEQ_IOCTL_USER_PVERSION
	# (asequencer.h: _IOW('S', 0x04, int)); no other ioctl changed.
	is "$(jq -r '[.changes[] | select(.kind | startswith("ioctl.")) | "\(.rule) \(.subject)"] | join(",")' stable-u.json)" \
		"ioctl-added SNDRV_SEQ_IOCTL_USER_PVERSION" "  one ioctl added, none changed"
	# Each verdict, checked against the headers themselves:
	# - IP_VS_DEST_F_AVAILABLE, IP_VS_DEST_F_OVERLOAD: deleted from
	#   include/uapi/linux/ip_vs.h within the 6.1 stable series. Old binaries
	#   keep the numbers they were built with, and no set of the contract
	#   lists them: source-level (tests/real/verdicts.txt has the reading of
	#   the kernel source).
	# - SNDRV_SEQ_VERSION: SNDRV_PROTOCOL_VERSION(1, 0, 2) -> (1, 0, 3) in
	#   include/uapi/sound/asequencer.h (the backported UMP support, which also
	#   adds SNDRV_SEQ_EVENT_UMP and SNDRV_SEQ_CLIENT_UMP_MIDI_*): a version
	#   that went up, compatible. The same backport carved midi_version
	#   out of struct snd_seq_client_info's reserved[56] (now [52]):
	#   compatible, old binaries left it zero.
	# - btrfs_ioctl_search_args_v2.buf: __u64 buf[] -> __u8 buf[] (btrfs.h
	#   571): no storage either way, buf_size counts bytes: source-level.
	# - IFLA_BOND_SLAVE_MAX, IFLA_HSR_MAX: (__IFLA_*_MAX - 1), new attributes
	#   in if_link.h: count sentinels, info.
	# - kvm.h: 6.1.0-57 spells the flexible arrays of kvm_cpuid, kvm_cpuid2,
	#   kvm_irq_routing, kvm_msr_list, kvm_msrs, kvm_pmu_event_filter,
	#   kvm_reg_list, kvm_signal_mask and kvm_xsave with __DECLARE_FLEX_ARRAY
	#   (0 uses in 6.1.0-47's kvm.h, 5 in 6.1.0-57's, the rest in asm/kvm.h):
	#   an empty struct, no bytes, info.
	# The types only the headers reach, compared since issue 10 (read in
	# both include/ trees):
	# - kvm.h's kvm_coalesced_mmio_ring and kvm_stats_desc: the same
	#   __DECLARE_FLEX_ARRAY conversion, info;
	# - rdma_netlink.h: RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE,
	#   RDMA_NLDEV_ATTR_DRIVER_DETAILS, RDMA_NLDEV_ATTR_RES_SUBTYPE appended
	#   (96-98, compatible), RDMA_NLDEV_ATTR_MAX the count (info);
	# - virtio_bt.h dropped VIRTIO_BT_CONFIG_TYPE_AMP (1), its value given to
	#   no other: source;
	# - nf_tables.h renamed NFT_BITWISE_BOOL NFT_BITWISE_MASK_XOR and keeps
	#   "#define NFT_BITWISE_BOOL NFT_BITWISE_MASK_XOR": info;
	# - nexthop.h's struct nexthop_grp: resvd1 became weight_high, reserved
	#   space given a meaning (net/ipv4/nexthop.c refuses a group whose
	#   reserved fields are not zero, so old binaries sent 0): compatible;
	# - __kernel_old_timespec.tv_nsec long -> __kernel_long_t and
	#   snd_seq_event's anonymous data union tagged snd_seq_event_data:
	#   the same type spelled otherwise, info.
	is "$(jq -r '.changes[] | select(.verdict != "compatible" or .rule != "constant-added") | "\(.rule) \(.verdict) \(.subject) \(.old) -> \(.new // "-")"' stable-u.json | sort)" \
"array-flexible-element source struct btrfs_ioctl_search_args_v2.buf __u64[] -> __u8[]
constant-count info IFLA_BOND_SLAVE_MAX 9 -> 12
constant-count info IFLA_HSR_MAX 7 -> 8
constant-removed source IP_VS_DEST_F_AVAILABLE 1 -> -
constant-removed source IP_VS_DEST_F_OVERLOAD 2 -> -
constant-version-up compatible SNDRV_SEQ_VERSION 65538 -> 65539
enumerator-added compatible enum rdma_nldev_attr.RDMA_NLDEV_ATTR_DRIVER_DETAILS null -> 97
enumerator-added compatible enum rdma_nldev_attr.RDMA_NLDEV_ATTR_RES_SUBTYPE null -> 98
enumerator-added compatible enum rdma_nldev_attr.RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE null -> 96
enumerator-count info enum rdma_nldev_attr.RDMA_NLDEV_ATTR_MAX 96 -> 99
enumerator-removed-header source enum virtio_bt_config_type.VIRTIO_BT_CONFIG_TYPE_AMP 1 -> -
enumerator-renamed info enum nft_bitwise_ops.NFT_BITWISE_BOOL NFT_BITWISE_BOOL -> NFT_BITWISE_MASK_XOR
ioctl-added compatible SNDRV_SEQ_IOCTL_USER_PVERSION null -> 0x40045304
member-added-empty info struct kvm_coalesced_mmio_ring.__empty_coalesced_mmio null -> struct {...} __empty_coalesced_mmio at 8
member-added-empty info struct kvm_cpuid.__empty_entries null -> struct {...} __empty_entries at 8
member-added-empty info struct kvm_cpuid2.__empty_entries null -> struct {...} __empty_entries at 8
member-added-empty info struct kvm_irq_routing.__empty_entries null -> struct {...} __empty_entries at 8
member-added-empty info struct kvm_msr_list.__empty_indices null -> struct {...} __empty_indices at 4
member-added-empty info struct kvm_msrs.__empty_entries null -> struct {...} __empty_entries at 8
member-added-empty info struct kvm_pmu_event_filter.__empty_events null -> struct {...} __empty_events at 32
member-added-empty info struct kvm_reg_list.__empty_reg null -> struct {...} __empty_reg at 8
member-added-empty info struct kvm_signal_mask.__empty_sigset null -> struct {...} __empty_sigset at 4
member-added-empty info struct kvm_stats_desc.__empty_name null -> struct {...} __empty_name at 16
member-added-empty info struct kvm_xsave.__empty_extra null -> struct {...} __empty_extra at 4096
reserved-carved compatible struct snd_seq_client_info.reserved 132 -> 136
reserved-reuse compatible struct nexthop_grp.resvd1 resvd1 -> weight_high
reserved-reuse compatible struct snd_seq_client_info.midi_version null -> unsigned int midi_version at 132
reserved-reuse compatible struct snd_seq_client_info.reserved char[56] -> char[52]
type-spelling info struct __kernel_old_timespec.tv_nsec long int -> __kernel_long_t
type-spelling info struct snd_seq_event.data union {...} -> union snd_seq_event_data" \
		"  verdicts: each checked against the headers (see the comments); nothing breaking"
	ip=include/uapi/linux/ip_vs.h seq=include/uapi/sound/asequencer.h
	is "$(grep -c 'define IP_VS_DEST_F_\(AVAILABLE\|OVERLOAD\)' "$K/$old/$ip" "$K/$stable/$ip" | sed 's|.*/\([^/]*-amd64\)/.*:|\1 |')" \
		"$old 2
$stable 0" "  fact: the two defines are in $old's ip_vs.h, not in $stable's"
	is "$(grep -h '^#define SNDRV_SEQ_VERSION ' "$K/$old/$seq" "$K/$stable/$seq")" \
		"#define SNDRV_SEQ_VERSION SNDRV_PROTOCOL_VERSION(1, 0, 2)
#define SNDRV_SEQ_VERSION SNDRV_PROTOCOL_VERSION(1, 0, 3)" "  fact: asequencer.h bumps the protocol version"
	# __DECLARE_FLEX_ARRAY(__u64, events) adds an empty struct: no bytes, info.
	is "$(jq -r '.changes[] | select(.kind == "type.member.added") | "\(.rule) \(.subject)"' stable-u.json | sort)" \
"member-added-empty struct kvm_coalesced_mmio_ring.__empty_coalesced_mmio
member-added-empty struct kvm_cpuid.__empty_entries
member-added-empty struct kvm_cpuid2.__empty_entries
member-added-empty struct kvm_irq_routing.__empty_entries
member-added-empty struct kvm_msr_list.__empty_indices
member-added-empty struct kvm_msrs.__empty_entries
member-added-empty struct kvm_pmu_event_filter.__empty_events
member-added-empty struct kvm_reg_list.__empty_reg
member-added-empty struct kvm_signal_mask.__empty_sigset
member-added-empty struct kvm_stats_desc.__empty_name
member-added-empty struct kvm_xsave.__empty_extra
reserved-reuse struct snd_seq_client_info.midi_version" \
		"  kvm's __DECLARE_FLEX_ARRAY conversions: member-added-empty (info); midi_version in reserved space"
else
	skip "$old or $stable: no include/uapi in $K"
fi
done_testing

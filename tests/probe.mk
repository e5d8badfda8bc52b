# SPDX-License-Identifier: GPL-2.0-only
# `kabi-diff probe` and its tests need QEMU and cpio (cpio(1) checks the
# initramfs writer in tests/t-probe.c), and a static libc to link the probe;
# arm64 kernels (tests/real/t16-arm64-probe.sh) qemu-system-aarch64 and the
# aarch64 cross compiler with its static libc.
# Included from the Makefile (-include tests/probe.mk).
PROBE_DEB_PACKAGES = qemu-system-x86 qemu-system-arm cpio libc6-dev gcc \
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross

.PHONY: probe-deps
probe-deps:
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 \
		--no-install-recommends $(PROBE_DEB_PACKAGES)

# SPDX-License-Identifier: GPL-2.0-only
# kabi-diff build. `make V=1` shows commands; flags the user gives in
# CFLAGS are kept, the ones the code needs are in KD_CFLAGS.

# Nothing of the prefix is compiled in: the program finds its contract
# as BINDIR/../share/kabi-diff/spec (cli/contract.c), so that
# `make install PREFIX=...` copies and never rebuilds.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share/kabi-diff
MANDIR = $(PREFIX)/share/man
COMPLETIONDIR = $(PREFIX)/share/bash-completion/completions

CC ?= cc
CFLAGS ?= -O2 -g
WERROR ?=
KD_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra $(WERROR) -I. -Ilib -Ibuild/gen -pthread
# The libraries' include paths go only to the stage that may use them
# (STYLE.md: only extract/ reads ELF and DWARF, only db/ speaks SQL), so
# <libdwarf.h> does not even resolve elsewhere; tests/t0010-layers.sh
# checks the includes themselves. Tests see everything.
DWARF_CFLAGS := -I/usr/include/libdwarf $(shell pkg-config --cflags libelf 2>/dev/null)
SQLITE_CFLAGS := $(shell pkg-config --cflags sqlite3 2>/dev/null)
stage_cflags = $(if $(filter extract/% tests/%,$(1)),$(DWARF_CFLAGS)) \
	$(if $(filter db/% tests/%,$(1)),$(SQLITE_CFLAGS)) \
	$(if $(filter tests/%,$(1)),,-include lib/banned.h)
LIBS = -ldwarf $(shell pkg-config --libs libelf sqlite3 zlib libarchive libcrypto libbpf jansson 2>/dev/null || echo -lelf -lsqlite3 -lz -larchive -lcrypto -lbpf -ljansson) -pthread -lm

ifneq ($(filter asan,$(MAKECMDGOALS)),)
CFLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
endif

VERSION := $(shell git describe --always --dirty 2>/dev/null || echo 0.1)

ifeq ($(V),1)
Q =
msg = @true
else
Q = @
msg = @printf '  %-6s %s\n' $(1) $(2)
endif

.DELETE_ON_ERROR:
.PHONY: all check check-real asan demo bench deps deps-runtime print-deps-runtime install \
	install-data clean hdrcheck FORCE

# Every .c of a stage (and of its subfolders, e.g. extract/uapi/) goes into
# libkabi.a; cli/ holds the program.
STAGES := lib db extract spec diff probe
LIB_SRCS := $(foreach d,$(STAGES),$(wildcard $(d)/*.c $(d)/*/*.c))
CLI_SRCS := $(wildcard cli/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=build/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=build/%.o)
TEST_SRCS := $(wildcard tests/t-*.c)
TEST_BINS := $(TEST_SRCS:tests/%.c=build/tests/%)
TEST_HELPERS := build/tests/tap.o build/tests/doc-table.o

all: kabi-diff

# Rebuild everything when the flags change.
build/.flags: FORCE
	@mkdir -p build
	@echo '$(CC) $(CFLAGS) $(KD_CFLAGS) $(DWARF_CFLAGS) $(SQLITE_CFLAGS) $(LDFLAGS)' | cmp -s - $@ || \
		echo '$(CC) $(CFLAGS) $(KD_CFLAGS) $(DWARF_CFLAGS) $(SQLITE_CFLAGS) $(LDFLAGS)' > $@

# The version changes with every commit; only the files that print it
# include build/gen/version.h, so only they rebuild. Every object waits
# for it (order-only) so that it exists on a clean build; afterwards each
# object's dependency file says whether it includes it.
build/gen/version.h: FORCE
	@mkdir -p build/gen
	@printf '#define KD_VERSION "%s"\n' '$(VERSION)' | \
		cmp -s - $@ || printf '#define KD_VERSION "%s"\n' '$(VERSION)' > $@

build/%.o: %.c build/.flags | build/gen/version.h
	@mkdir -p $(dir $@)
	$(call msg,CC,$<)
	$(Q)$(CC) $(CFLAGS) $(KD_CFLAGS) $(call stage_cflags,$<) -MMD -MP -c -o $@ $<

build/libkabi.a: $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

kabi-diff: $(CLI_OBJS) build/libkabi.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJS) build/libkabi.a $(LIBS)

# Kept: make would delete them as intermediates of the pattern rule.
.SECONDARY: $(TEST_HELPERS)
build/tests/t-%: build/tests/t-%.o $(TEST_HELPERS) build/libkabi.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) build/libkabi.a $(LIBS)

# The fuzz harnesses, built without libFuzzer, replay the saved inputs.
FUZZ_REPLAY_OBJS := $(patsubst tests/fuzz/%.c,build/tests/fuzz/%.replay.o,$(wildcard tests/fuzz/fuzz-*.c))
build/tests/fuzz/%.replay.o: tests/fuzz/%.c build/.flags | build/gen/version.h
	@mkdir -p $(dir $@)
	$(call msg,CC,$<)
	$(Q)$(CC) $(CFLAGS) $(KD_CFLAGS) $(call stage_cflags,$<) -DFUZZ_REPLAY -MMD -MP -c -o $@ $<
build/tests/t-fuzz-regress: $(FUZZ_REPLAY_OBJS)
# The one unit test of cli/, which is no part of libkabi.a.
build/tests/t-parse-options: build/cli/parse-options.o

# TESTS: a grep -E pattern on test names (make check TESTS='^t-|t05'); all by default.
check: kabi-diff $(TEST_BINS)
	@tests/run '$(TESTS)'

# Opt-in tests on Debian's real kernels (see README); skipped when absent.
check-real: kabi-diff build/tests/t-uapi
	@tests/real/run

# `make asan` builds sanitized; `make asan check` also runs the tests so.
asan: kabi-diff

demo: kabi-diff
	@tests/demo.sh

bench: kabi-diff
	@bench/run

# Slow and opt-in (minutes): kabi-diff's cold diff of the real pair next to
# libabigail's abidw on both images + abidiff (Debian: abigail-tools).
.PHONY: bench-peers
bench-peers: kabi-diff
	@bench/run --peers

# Root installs directly; anyone else through sudo.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# The aarch64 cross compiler builds the arm64 sample kernel and arm64 user
# space (headers compiled as aarch64 sees them, the static arm64 probe);
# libc6-dev-i386 the 32-bit header view (the headers as i386 programs see
# them): the C library's 32-bit headers, which gcc -m32 needs. Not
# gcc-multilib, which Debian declares in conflict with the cross compiler.
DEB_PACKAGES = gcc make pkg-config libc6-dev binutils libdwarf-dev libelf-dev \
	libsqlite3-dev zlib1g-dev sqlite3 dwarves gzip cpio valgrind jq mandoc \
	python3-jsonschema python3-yaml gcc-aarch64-linux-gnu libc6-dev-arm64-cross libarchive-dev rpm \
	libssl-dev libbpf-dev libjansson-dev libc6-dev-i386

deps:
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 \
		--no-install-recommends $(DEB_PACKAGES)
	@$(MAKE) --no-print-directory sarif-schema

# What a host that only runs kabi-diff needs (a package's Depends): the
# shared libraries of the -dev packages above, as this release names them
# (apt-cache: libssl3 here, libssl3t64 elsewhere), gcc and the C library's
# headers (UAPI headers are compiled at run time), git (--git) and jq
# (kabi-gate). Not the test, cross, documentation or npm tools of `deps`;
# probe also needs qemu-system-x86 (or -arm) and cpio.
DEB_RUNTIME_TOOLS = gcc libc6-dev git jq
DEB_DEV_LIBS = libdwarf-dev libelf-dev libsqlite3-dev zlib1g-dev libarchive-dev libssl-dev libbpf-dev libjansson-dev
DEB_RUNTIME_LIBS = for d in $(DEB_DEV_LIBS); do \
		apt-cache depends "$$d" | awk '/^  Depends: [^<]/ && $$2 !~ /-dev$$/ { print $$2; exit }'; \
	done

print-deps-runtime:
	@l=$$($(DEB_RUNTIME_LIBS)) && [ $$(echo $$l | wc -w) -eq $(words $(DEB_DEV_LIBS)) ] || \
		{ echo "print-deps-runtime: apt-cache does not know $(DEB_DEV_LIBS) (apt-get update?)" >&2; exit 1; }; \
	echo $$l $(DEB_RUNTIME_TOOLS)

deps-runtime:
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 \
		--no-install-recommends $$($(MAKE) -s --no-print-directory print-deps-runtime)

# The SARIF 2.1.0 JSON schema the tests validate --format sarif against.
# No Debian package ships it; Microsoft's SARIF matchers on npm do (the
# 2.1.0-rtm.5 schema, the one schemastore.org serves for sarif-2.1.0),
# pinned by version and checksum.
SARIF_SCHEMA = /usr/local/share/sarif/sarif-schema-2.1.0.json
SARIF_SCHEMA_NPM = @microsoft/jest-sarif@1.0.0-beta.0
SARIF_SCHEMA_SHA256 = 2d99159ae54a3eea97f81781cff48780548657c35949f4b7f25e99a2ba4de4f8
.PHONY: sarif-schema
sarif-schema:
	@if ! echo '$(SARIF_SCHEMA_SHA256)  $(SARIF_SCHEMA)' | sha256sum -c --status 2>/dev/null; then \
		command -v npm >/dev/null || $(SUDO) env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq -o DPkg::Lock::Timeout=600 --no-install-recommends npm; \
		d=$$(mktemp -d) && (cd "$$d" && npm pack -q $(SARIF_SCHEMA_NPM) >/dev/null) && \
		tar -xzf "$$d"/*.tgz -C "$$d" package/lib/schemas/sarif-2.1.0-rtm.5.json && \
		echo '$(SARIF_SCHEMA_SHA256)  '"$$d"/package/lib/schemas/sarif-2.1.0-rtm.5.json | sha256sum -c --status && \
		$(SUDO) install -D -m 644 "$$d"/package/lib/schemas/sarif-2.1.0-rtm.5.json $(SARIF_SCHEMA); \
		rc=$$?; rm -rf "$$d"; [ $$rc -eq 0 ] || { echo "sarif-schema: could not fetch $(SARIF_SCHEMA_NPM)" >&2; exit 1; }; \
	fi; echo "sarif-schema: $(SARIF_SCHEMA)"

install: kabi-diff install-data
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 kabi-diff $(DESTDIR)$(BINDIR)/kabi-diff

# Everything but the compiled program: the contract, the manual, the
# completion, the CI gate (a script, run beside kabi-diff). Separate so
# that a test can install it without building anything.
install-data:
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/spec $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPLETIONDIR)
	install -m 755 contrib/ci/kabi-gate $(DESTDIR)$(BINDIR)/kabi-gate
	for f in spec/contract/*.kabispec; do [ -e "$$f" ] && install -m 644 "$$f" $(DESTDIR)$(DATADIR)/spec/; done; true
	install -m 644 doc/kabi-diff.1 $(DESTDIR)$(MANDIR)/man1/kabi-diff.1
	install -m 644 contrib/bash-completion/kabi-diff $(DESTDIR)$(COMPLETIONDIR)/kabi-diff

# Every header must compile on its own.
HEADERS := $(foreach d,$(STAGES) cli,$(wildcard $(d)/*.h $(d)/*/*.h))
hdrcheck:
	@for h in $(HEADERS); do \
		case $$h in extract/*) f='$(DWARF_CFLAGS)' ;; db/*) f='$(SQLITE_CFLAGS)' ;; *) f= ;; esac; \
		echo "#include \"$$h\"" | $(CC) $(KD_CFLAGS) $$f -fsyntax-only -x c - || exit 1; \
	done; echo "hdrcheck: $(words $(HEADERS)) headers OK"

clean:
	rm -rf build kabi-diff

-include $(shell find build -name '*.d' 2>/dev/null)
-include tests/fuzz/fuzz.mk
-include tests/probe.mk

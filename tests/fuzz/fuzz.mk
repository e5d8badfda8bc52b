# SPDX-License-Identifier: GPL-2.0-only
# Fuzzing with libFuzzer (clang), included from the Makefile.
#   make fuzz-deps                  Debian's clang and its fuzzer runtime
#   make fuzz [FUZZ_SECONDS=60]     build the harnesses, seed corpora, run each harness
#   make fuzz FUZZ_SEED=1 FUZZ_RUNS=N
#                                   the same inputs on every machine (CI): libFuzzer's
#                                   mutations follow the seed, and a slower machine that
#                                   stops at FUZZ_SECONDS has run a prefix of them
#   make fuzz-build                 only build build-fuzz/fuzz-*
#   make fuzz-replay                replay tests/fuzz/regress/ (make check does it too,
#                                   through build/tests/t-fuzz-regress)
# Everything goes to build-fuzz/ (objects, corpora, crash-* artifacts), built with its
# own compiler and flags, so build/ and the normal build are never touched.
# FUZZ=elf runs one harness; FUZZ_ARGS passes libFuzzer options (-jobs=4, -dict=...);
# FUZZ_JOBS=N runs N harnesses at once (default: one per CPU).

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_OUT ?= build-fuzz
FUZZ_ARGS ?=
FUZZ_SEED ?= 0
FUZZ_RUNS ?= -1
FUZZ_TIMEOUT ?= 30
FUZZ_JOBS ?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS = -O1 -g $(FUZZ_SAN)
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
FUZZ ?= $(FUZZ_NAMES)
FUZZ_BINS := $(FUZZ_NAMES:%=$(FUZZ_OUT)/fuzz-%)
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_OUT)/%.o)
FUZZ_STAMP = $(FUZZ_CC) $(FUZZ_CFLAGS) $(KD_CFLAGS) $(DWARF_CFLAGS) $(SQLITE_CFLAGS)

.PHONY: fuzz fuzz-build fuzz-corpus fuzz-replay fuzz-deps
.SECONDARY: $(FUZZ_NAMES:%=$(FUZZ_OUT)/tests/fuzz/fuzz-%.o)

$(FUZZ_OUT)/.flags: FORCE
	@mkdir -p $(FUZZ_OUT)
	@echo '$(FUZZ_STAMP)' | cmp -s - $@ || echo '$(FUZZ_STAMP)' > $@

$(FUZZ_OUT)/%.o: %.c $(FUZZ_OUT)/.flags | build/gen/version.h
	@mkdir -p $(dir $@)
	$(call msg,FUZZCC,$<)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(KD_CFLAGS) $(call stage_cflags,$<) \
		-MMD -MP -c -o $@ $<

$(FUZZ_OUT)/libkabi.a: $(FUZZ_LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(FUZZ_OUT)/fuzz-%: $(FUZZ_OUT)/tests/fuzz/fuzz-%.o $(FUZZ_OUT)/libkabi.a
	$(call msg,LINK,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OUT)/libkabi.a $(LIBS)

fuzz-build: $(FUZZ_BINS)

fuzz-corpus: kabi-diff
	@tests/fuzz/make-corpus.sh $(FUZZ_OUT)/corpus ./kabi-diff

# Each harness grows its corpus in $(FUZZ_OUT)/corpus/NAME (regression inputs are read
# too); a finding stops the run and is left as $(FUZZ_OUT)/crash-NAME-*: copy it to
# tests/fuzz/regress/NAME/ with the fix.
# FUZZ_JOBS harnesses at once (default: one per CPU), each one process: the
# harnesses are independent, and a CI stage of N harnesses x FUZZ_SECONDS
# would otherwise leave all but one CPU idle. Each harness's lines are
# printed together when it ends.
fuzz: fuzz-build fuzz-corpus
	@printf '%s\n' $(FUZZ) | xargs -P $(FUZZ_JOBS) -I@ sh -c \
		'out=$$(tests/fuzz/run-harness.sh $(FUZZ_OUT) @ $(FUZZ_SECONDS) $(FUZZ_SEED) \
			$(FUZZ_RUNS) $(FUZZ_TIMEOUT) $(FUZZ_ARGS)); rc=$$?; \
		 printf "fuzz: %s for %s s\n%s\n" @ $(FUZZ_SECONDS) "$$out"; exit $$rc'

fuzz-replay: build/tests/t-fuzz-regress
	@build/tests/t-fuzz-regress

fuzz-deps:
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 \
		--no-install-recommends clang libclang-rt-14-dev

-include $(shell find $(FUZZ_OUT) -name '*.d' 2>/dev/null)

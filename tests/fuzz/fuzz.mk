# SPDX-License-Identifier: GPL-2.0-only
# Fuzzing with libFuzzer (clang), included from the Makefile.
#   make fuzz-deps                  Debian's clang and its fuzzer runtime
#   make fuzz [FUZZ_SECONDS=60]     build the harnesses, seed corpora, run each harness
#   make fuzz-build                 only build build-fuzz/fuzz-*
#   make fuzz-replay                replay tests/fuzz/regress/ (make check does it too,
#                                   through build/tests/t-fuzz-regress)
# Everything goes to build-fuzz/ (objects, corpora, crash-* artifacts), built with its
# own compiler and flags, so build/ and the normal build are never touched.
# FUZZ=elf runs one harness; FUZZ_ARGS passes libFuzzer options (-jobs=4, -dict=...).

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_OUT ?= build-fuzz
FUZZ_ARGS ?=
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
fuzz: fuzz-build fuzz-corpus
	@for h in $(FUZZ); do \
		echo "fuzz: $$h for $(FUZZ_SECONDS) s"; \
		mkdir -p $(FUZZ_OUT)/corpus/$$h tests/fuzz/regress/$$h; \
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		$(FUZZ_OUT)/fuzz-$$h -max_total_time=$(FUZZ_SECONDS) -timeout=30 \
			-rss_limit_mb=4096 -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_OUT)/crash-$$h- $(FUZZ_ARGS) \
			$(FUZZ_OUT)/corpus/$$h tests/fuzz/regress/$$h \
			> $(FUZZ_OUT)/fuzz-$$h.log 2>&1 \
		|| { tail -60 $(FUZZ_OUT)/fuzz-$$h.log; exit 1; }; \
		grep -E '^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb)' \
			$(FUZZ_OUT)/fuzz-$$h.log | sed "s/^/  $$h: /"; \
	done

fuzz-replay: build/tests/t-fuzz-regress
	@build/tests/t-fuzz-regress

fuzz-deps:
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 \
		--no-install-recommends clang libclang-rt-14-dev

-include $(shell find $(FUZZ_OUT) -name '*.d' 2>/dev/null)

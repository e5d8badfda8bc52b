/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The entry points of the fuzz harnesses (tests/fuzz/fuzz-*.c): one input,
 * 0 returned (libFuzzer's convention). libFuzzer reaches them through
 * LLVMFuzzerTestOneInput; tests/t-fuzz-regress.c links their FUZZ_REPLAY
 * builds and calls them directly.
 */
#ifndef KD_FUZZ_HARNESS_H
#define KD_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>

int fuzz_db_one(const uint8_t *data, size_t size);
int fuzz_elf_one(const uint8_t *data, size_t size);
int fuzz_package_one(const uint8_t *data, size_t size);
int fuzz_spec_one(const uint8_t *data, size_t size);
int fuzz_suppress_one(const uint8_t *data, size_t size);
int fuzz_uapi_one(const uint8_t *data, size_t size);
int fuzz_uapi_cache_one(const uint8_t *data, size_t size);
int fuzz_usage_one(const uint8_t *data, size_t size);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz harness of the ELF/DWARF front end: the input is a vmlinux (seeds:
 * the fixture kernels, see make-corpus.sh), run through extract__run()
 * exactly as `kabi-diff extract IN -o OUT` does. Beyond memory errors and
 * undefined behaviour (ASan/UBSan), it checks the writer's promise: a
 * failed run leaves neither OUT nor OUT.tmp.* behind.
 */
#include "tests/fuzz/fuzz-common.h"
#include "tests/fuzz/harness.h"

#include "extract/extract.h"

int fuzz_elf_one(const uint8_t *data, size_t size)
{
	struct kd_buf in = KD_BUF_INIT, out = KD_BUF_INIT;
	struct extract_stats stats;
	struct extract_conf conf = { .jobs = 1 };
	int err;

	conf.vmlinux = fuzz_path(&in, "elf.in");
	conf.output = fuzz_path(&out, "elf.kabi");
	fuzz_write(conf.vmlinux, data, size);
	err = extract__run(&conf, &stats);
	if (err)
		fuzz_assert_no_file("elf.kabi");
	else
		fuzz_remove(conf.output);
	kd_buf_release(&in);
	kd_buf_release(&out);
	return 0;
}

FUZZ_ENTRY(fuzz_elf_one)

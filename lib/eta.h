/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The estimate a progress line gives ("[812/4022] amdgpu.ko, ~41 s left"):
 * the rate so far applied to what remains. Early on the rate says little
 * (the first modules are small or large by the order of a directory), so
 * no estimate is given before a few seconds and a few percent.
 */
#ifndef KD_ETA_H
#define KD_ETA_H

#include <stdint.h>

/*
 * Seconds left after @done of @total items in @elapsed seconds, rounded
 * up; -1 when there is no estimate yet (under KD_ETA_MIN_SECONDS or
 * KD_ETA_MIN_PERCENT done, nothing or everything done, a total unknown).
 */
#define KD_ETA_MIN_SECONDS 2.0
#define KD_ETA_MIN_PERCENT 2
long kd_eta_seconds(uint64_t done, uint64_t total, double elapsed);

#endif

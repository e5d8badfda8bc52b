// SPDX-License-Identifier: GPL-2.0-only
/* kd_eta_seconds(): see lib/eta.h. */
#include "lib/eta.h"

#include <math.h>

long kd_eta_seconds(uint64_t done, uint64_t total, double elapsed)
{
	double left;

	if (!total || !done || done >= total || !(elapsed >= KD_ETA_MIN_SECONDS) ||
	    done * 100 < total * KD_ETA_MIN_PERCENT)
		return -1;
	left = ceil(elapsed / (double)done * (double)(total - done));
	return left > 1e9 ? -1 : (long)left;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Step 4 of extract.c's header comment, shared by the DWARF and the BTF
 * front ends: the modules, then the UAPI headers for real (the header
 * job joined, the constants and ioctls read and sized from the types
 * both gave), the enumerators as constants.
 */
#include "extract/btf_internal.h"

#include <inttypes.h>
#include <time.h>

#include "db/kdb-uapi.h"
#include "extract/extract.h"
#include "extract/header_job_internal.h"
#include "extract/ioctl_types_internal.h"
#include "extract/uapi/uapi.h"
#include "lib/err.h"
#include "lib/path.h"

static double seconds(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

int extract_uapi(const struct extract_conf *conf, const struct kd_arch *arch, struct ioctl_types *it,
		 struct header_job *hj, struct kdb *db, struct type_sink *sink,
		 struct extract_stats *stats)
{
	struct modules_stats ms = { 0 };
	struct uapi_stats us = { 0 };
	struct uapi_lookup lk;
	int err = 0, linked, enumerators;

	if (conf->modules_dir || conf->modules_feed) {
		struct timespec t0, t1;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (conf->phases && !conf->progress)
			kd_progress("reading the modules%s%s", conf->modules_feed ? "" : " under ",
				    conf->modules_feed ? " of the packages" :
				    kd_path_short(conf->modules_dir, NULL));
		err = ioctl_types__find_modules(it, db, sink, conf->modules_feed ? NULL : conf->modules_dir,
						conf->modules_feed, conf->jobs,
						conf->progress, &ms);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (!err && (conf->phases || conf->progress))
			kd_progress("read %" PRId64 " modules in %.1f s (%.0f a second)", ms.scanned,
				    seconds(&t0, &t1), ms.scanned / (seconds(&t0, &t1) + 1e-3));
		stats->modules = ms.scanned - ms.failed;	/* the modules table's rows */
		stats->types += ms.types;
		stats->problems += ms.failed;
		if (err)
			return err;
	}
	if (!conf->uapi_dir)
		return 0;
	err = header_job__finish(hj, db, sink, stats);
	if (err)
		return err;
	if (conf->progress || conf->phases)
		kd_progress("reading the UAPI headers' constants and ioctls");
	header_job__lookup(hj, it, &lk);
	err = uapi__extract(db, conf->uapi_dir, arch, &lk, &us);
	if (err)
		return err;
	stats->constants = us.constants;
	stats->ioctls = us.ioctls;
	stats->problems += us.problems;
	linked = kdb__link_constants_to_enums(db);
	if (linked < 0)
		return linked;
	/* After the #defines and ioctls: a name they have stays theirs. */
	enumerators = kdb__add_enumerator_constants(db);
	if (enumerators < 0)
		return enumerators;
	stats->constants += enumerators;
	return 0;
}


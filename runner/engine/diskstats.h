/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's disk_util: /proc/diskstats of the block devices under the job's
 * files (and the members of an md or dm device under them), read before
 * and after the run.
 */
#ifndef IOMATRIX_RUNNER_ENGINE_DISKSTATS_H
#define IOMATRIX_RUNNER_ENGINE_DISKSTATS_H

#include <stddef.h>
#include <sys/types.h>

#include "records/job_result.h"

#define DISK_WATCH_MAX 64

struct disk_watch {
	struct jr_disk d[DISK_WATCH_MAX]; /* holds the counters at start, then the deltas */
	size_t n;
	uint64_t t0_ms;
};

/* Adds the device dev (and its slaves); devices without a name (tmpfs) are skipped. */
void disk_watch_add(struct disk_watch *w, dev_t dev);
void disk_watch_start(struct disk_watch *w);
/* Turns the counters into deltas since disk_watch_start, with util. */
void disk_watch_stop(struct disk_watch *w);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The knobs a cell sets before its workload: readahead (BLKRASET on the
 * device under each filesystem, as blockdev --setra), the IO scheduler of
 * each disk (sysfs queue/scheduler), and dropping the page cache, dentries
 * and inodes (sync, then vm/drop_caches = 3) right before the workload.
 * Each reads back what is in effect, for the record.
 */
#ifndef IOMATRIX_RUNNER_SETUP_TUNE_H
#define IOMATRIX_RUNNER_SETUP_TUNE_H

#include <stddef.h>

#include "runner/setup/step.h"

/*
 * Sets dev's readahead to sectors (-1: leaves it) and reads it back into
 * *now (sectors of 512 bytes).
 */
int tune_readahead(const char *dev, int sectors, long *now, struct step_error *e);

/*
 * Writes sched to disk's queue/scheduler (NULL: leaves it) and reads back
 * the one in effect into now ("" when the disk has none: md devices).
 * sysfs_root is "/sys".
 */
int tune_scheduler(const char *sysfs_root, const char *disk, const char *sched, char *now,
		   size_t len, struct step_error *e);

/* The bracketed choice of a queue/scheduler text ("none [mq-deadline]"). */
void tune_scheduler_current(const char *text, char *out, size_t len);

int tune_drop_caches(struct step_error *e);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One run of one cell, start to finish:
 *
 *   setup     scheduler on each disk, md array (not jbod), mkfs and mount
 *             each filesystem (jbod: one per disk, /mnt/d0, /mnt/d1, ...),
 *             readahead on the device under each, drop caches
 *   workload  counters before, the workload child, counters after
 *   teardown  umount, zero the signature areas (the md device's while it
 *             still exists, then every member disk's), stop the array
 *
 * Setup and workload share the cell's time limit; teardown always runs,
 * each step with a fixed limit of its own. A step that fails ends setup or
 * the workload (status failed, or timeout when it ran out of time), and
 * teardown follows; a teardown failure after a good workload fails the
 * cell. Nothing here ends PID 1.
 */
#ifndef IOMATRIX_RUNNER_CELL_RUN_H
#define IOMATRIX_RUNNER_CELL_RUN_H

#include "cell_result.h"

/* Seconds each teardown step may take. */
#define CELL_TEARDOWN_STEP_TIMEOUT 120.0

/*
 * Runs repeat `repeat` of cell c on the first c->disks disks of `use`, with
 * md device md_name ("md3") when it needs one. r must be released with
 * cell_result_free.
 */
void cell_run(struct cell_result *r, const struct cell *c, int repeat,
	      struct disk_choice *const *use, const char *md_name);

/* A record for a run that does not happen: status skipped with why. */
void cell_skip(struct cell_result *r, const struct cell *c, int repeat, const char *why);

void cell_result_free(struct cell_result *r);

#endif

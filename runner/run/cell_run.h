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
#ifndef IOMATRIX_RUNNER_RUN_CELL_RUN_H
#define IOMATRIX_RUNNER_RUN_CELL_RUN_H

#include "runner/run/cell_result.h"

/* Seconds each teardown step may take. */
#define CELL_TEARDOWN_STEP_TIMEOUT 120.0

/*
 * Told as each step starts: stage "setup", "workload" or "teardown", step
 * the step's name ("mkfs", "workload", "umount", ...), limit_s the time it
 * may take (setup and workload: what is left of the cell's time limit;
 * teardown: CELL_TEARDOWN_STEP_TIMEOUT). The results log notes it for the
 * boot after a crash, the watchdog moves its deadline, test points fire.
 */
struct cell_hooks {
	void (*step)(void *ctx, const struct cell_result *r, const char *stage, const char *step,
		     double limit_s);
	void *ctx;
};

/*
 * Runs repeat `repeat` of cell c on the first c->disks disks of `use`, with
 * md device md_name ("md3") when it needs one; hooks may be NULL. r must be
 * released with cell_result_free.
 */
void cell_run(struct cell_result *r, const struct cell *c, int repeat,
	      struct disk_choice *const *use, const char *md_name, const struct cell_hooks *hooks);

/* A record for a run that does not happen: status skipped with why. */
void cell_skip(struct cell_result *r, const struct cell *c, int repeat, const char *why);

/*
 * A record for a run the machine died in, found on a later boot: status
 * crashed; the error says in which step (the progress note), since when
 * and on which boot.
 */
void cell_crashed(struct cell_result *r, const struct cell *c, int repeat,
		  const struct cell_crash *crash);

void cell_result_free(struct cell_result *r);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one run of one cell (a repeat) did: filled by cell_run.c, written
 * as a record by record.c, shown by progress.c. Plain data: the record
 * writer and the tests need nothing else.
 */
#ifndef IOMATRIX_RUNNER_RUN_CELL_RESULT_H
#define IOMATRIX_RUNNER_RUN_CELL_RESULT_H

#include <stdbool.h>

#include "runner/setup/array.h"
#include "runner/setup/disk_select.h"
#include "matrix/matrix.h"
#include "runner/setup/step.h"
#include "runner/run/sysstat.h"
#include "runner/run/workload.h"

enum cell_status {
	CELL_OK,
	CELL_FAILED,
	CELL_TIMEOUT,
	CELL_SKIPPED,
	CELL_CRASHED,
	CELL_STATUS_COUNT
};

/* "ok", "failed", "timeout", "skipped", "crashed": the record's status. */
extern const char *const cell_status_names[CELL_STATUS_COUNT];

#define CELL_STEPS_MAX 16

/* Seconds per kind of step, in the order first run ("mkfs" sums every mkfs of a jbod cell). */
struct cell_step_time {
	const char *name;
	double seconds;
};

struct cell_fs {
	char dev[48]; /* the device under it: /dev/md0, or the disk for jbod */
	char mnt[32]; /* /mnt/d0 */
	bool made;    /* mkfs ran (a wipe is due) */
	bool mounted;
	long readahead; /* sectors in effect during the workload; -1 not read */
	char mkfs_cmd[STEP_COMMAND_MAX];
};

struct cell_disk {
	const struct disk_choice *d;
	char scheduler[32]; /* in effect during the workload; "" not read */
};

/* Where a run was when the machine died (the results log's progress slot). */
struct cell_crash {
	unsigned boot;	     /* the boot of the run it died on, from 1 */
	char stage[16];	     /* setup, workload, teardown, record */
	char step[32];	     /* mkfs, workload, umount, ... */
	double since_unix;   /* when that step started */
	unsigned found_boot; /* the boot that recorded it */
};

struct cell_result {
	const struct cell *cell;
	int repeat; /* from 0 */
	enum cell_status status;
	char error[STEP_ERROR_LINE_MAX]; /* one line; "" when ok */
	bool has_detail;		 /* the error came from a step */
	struct step_error detail;
	char teardown_error[STEP_ERROR_LINE_MAX]; /* a teardown failure after another error */

	double start_unix;
	double setup_s, workload_s, teardown_s;
	struct cell_step_time steps[CELL_STEPS_MAX];
	int nsteps;

	int ndisks;
	struct cell_disk disks[MATRIX_MAX_DISKS];
	bool has_array;
	struct array array;
	int nfs;
	struct cell_fs fs[MATRIX_MAX_DISKS];

	bool ran; /* the workload was started */
	struct workload_result w;
	bool have_stats;
	const struct sysstat *before, *after;

	struct cell_crash crash;
};

#endif

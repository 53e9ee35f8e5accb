/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The console's view of a matrix run: a line when each run of a cell
 * starts and when it ends (its status and headline number), with the
 * elapsed time and an estimate of the time left, and a summary table at
 * the end. Formats (docs/appliance.md has them all):
 *
 *   iomatrix: cell 3/20 [#5 1/3] KEY: start, elapsed 1m02s, ETA 2m10s
 *   iomatrix: cell 3/20 [#5 1/3] KEY: ok, write 123.4 MiB/s (setup 2.1 s,
 *             workload 5.0 s, teardown 0.8 s), elapsed 1m10s, ETA 2m01s
 *   iomatrix: cell [#7] KEY: skipped: raid5 needs 3 disks, 2 given
 *
 * i/N counts the runs this boot makes (selected, runnable cells times
 * their repeats, less the runs earlier boots of the run recorded), in the
 * order they are made (run_order.h: every cell's repeat 1, then every
 * cell's repeat 2, ...); #K is the cell's index in the matrix (as `iomatrix
 * plan` and iomatrix.cells= number them), then the repeat. The ETA is the plan's
 * estimate of the runs left, scaled by how the finished runs compared
 * with their estimates.
 */
#ifndef IOMATRIX_RUNNER_RUN_PROGRESS_H
#define IOMATRIX_RUNNER_RUN_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "runner/run/cell_result.h"
#include "runner/setup/step.h"

#define PROGRESS_ROWS_MAX 4096

struct progress_row {
	int index, repeat, repeats;
	enum cell_status status;
	char headline[96]; /* or the error, cut */
	const char *key;
};

struct progress {
	int total, done;    /* runs */
	double t0;	    /* monotonic, at progress_init */
	double est_left;    /* the estimates of the runs not done yet */
	double est_done;    /* ... of the runs done */
	double actual_done; /* what those took */
	int counts[CELL_STATUS_COUNT];
	struct progress_row rows[PROGRESS_ROWS_MAX];
	size_t nrows;
	size_t rows_dropped;
	int earlier; /* runs recorded on earlier boots of the run (not run again) */
};

/* total: runs to make; estimate: their estimated seconds together. */
void progress_init(struct progress *p, int total, double estimate);
void progress_start(struct progress *p, const struct cell *c, int repeat);
void progress_end(struct progress *p, const struct cell_result *r);
/* A run the machine cannot make: a summary row; say: the console line (once a cell). */
void progress_skipped(struct progress *p, const struct cell *c, int repeat, const char *why,
		      bool say);
/* A run an earlier boot died in, recorded crashed on this one. */
void progress_crashed(struct progress *p, const struct cell_result *r);
/* The summary line and table. */
void progress_summary(const struct progress *p, const char *matrix);

/* "2.5 s", "45 s", "1m02s", "1h02m": a duration for people. */
const char *progress_duration(double s, char *buf, size_t len);

#endif

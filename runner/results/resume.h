/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Resuming a run after a crash, from what the results log holds:
 *
 *   - the run's description (results_log.h, "run info"), written when the
 *     run started: the matrix, the kernel, the cells and repeats as a
 *     checksum of the plan, the scale, and the disks the run uses. A later
 *     boot continues the run only when it would run the same plan on the
 *     same kernel; it may wipe those disks' leftovers (disk_select.h);
 *   - the records, seen through rlog_open's callback: seq, cell and repeat
 *     beside each record, so the cells already recorded are not run again
 *     and seqs go on from the last;
 *   - the progress slot: the cell that was running when the machine died
 *     (its step, since when, on which boot) is recorded `crashed`.
 *
 * The description is text, "key = value" lines after a "[run]" line (no
 * includes, no variables: it comes off a disk a crashed kernel wrote):
 *
 *   [run]
 *   matrix = quick
 *   kernel = 6.1.0-57-amd64
 *   scale = 1
 *   cells = 22
 *   plan = 5d1c0b2a
 *   disks = iomatrix-disk0,iomatrix-disk1,iomatrix-disk2,iomatrix-disk3
 */
#ifndef IOMATRIX_RUNNER_RESULTS_RESUME_H
#define IOMATRIX_RUNNER_RESULTS_RESUME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "matrix/matrix.h"
#include "records/results_log.h"

#define RESUME_ERR_LEN 512

/* What identifies a run. */
struct run_plan {
	char matrix[64];
	char kernel[128]; /* uname release */
	double scale;
	int cells;
	uint32_t plan;	  /* CRC-32 of every cell's index, key and repeats, in order */
	char disks[1024]; /* the disks it uses, by disk_choice_id, comma-separated */
};

/* The plan of an expanded matrix (disks left to the caller). */
void run_plan_of(struct run_plan *p, const char *matrix, const char *kernel,
		 const struct cell_list *cl);

/* The description text; returns its length (< len), or 0 when it does not fit. */
size_t run_plan_format(const struct run_plan *p, char *buf, size_t len);

/* Parses a description. Returns 0, or -1 with why in err (a key missing, a bad value). */
int run_plan_parse(const char *text, size_t len, struct run_plan *p, char *err, size_t errlen);

/*
 * Whether a log's run (have) is the run this boot would make (want).
 * Returns NULL when it is, else one line saying what differs (in buf).
 * plan_too: also cells, plan and scale (known only after the expansion).
 */
const char *run_plan_differs(const struct run_plan *have, const struct run_plan *want,
			     bool plan_too, char *buf, size_t len);

/* One record of the log, as rlog_open's callback saw it. */
struct resume_item {
	uint32_t cell, repeat;
};

struct resume {
	struct resume_item *items; /* intact records, in log order */
	size_t n, cap;
	uint32_t damaged;
	bool oom;
};

/* rlog_open's callback: ctx is a struct resume. */
int resume_visit(void *ctx, const struct rlog_item *item);
void resume_free(struct resume *r);

/*
 * Marks done[run_order_slot(stride, cell, repeat)] for every record of the plan
 * (cl: cells and their repeats; stride: the largest repeats). Returns the
 * number of records that fit no cell of it (0 when the plan is the same).
 */
size_t resume_mark_done(const struct resume *r, const struct cell_list *cl, int stride, bool *done);

/*
 * The run that was going on when the previous boot ended: the progress
 * slot says a cell was running and that run has no record. Returns true
 * with its cell index (from 1) and repeat.
 */
bool resume_crashed_run(const struct rlog_progress *p, bool has_progress,
			const struct cell_list *cl, int stride, const bool *done, int *cell,
			int *repeat);

#endif

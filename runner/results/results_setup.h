/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results channels of a matrix run, set up at boot: the serial
 * channels opened, the results disk found and its log opened (or made),
 * and the decision whether this boot continues the run the log holds:
 *
 *   - a log of the same matrix and kernel whose run is not finished:
 *     resumed (its run id, its seqs, its boot count plus one; its disks'
 *     leftovers may be wiped) once the expanded plan matches too;
 *   - a log whose run finished: nothing to do (the records stay there);
 *   - a log of another run (another matrix, kernel or plan), or one without
 *     a run description: not used (iomatrix.results_init=force starts a
 *     new log over it instead);
 *   - a device without a log: refused, or made one (iomatrix.results_init).
 *
 * Every decision is a console line; none ends the run.
 */
#ifndef IOMATRIX_RUNNER_RESULTS_RESULTS_SETUP_H
#define IOMATRIX_RUNNER_RESULTS_RESULTS_SETUP_H

#include <stdbool.h>

#include "runner/cmdline.h"
#include "runner/setup/disks.h"
#include "runner/results/results_channels.h"
#include "runner/results/resume.h"

struct run_results {
	struct results_channels ch;
	struct results_device dev;
	bool have_dev;	   /* disk:SPEC was found (its disk is never offered to cells) */
	bool resumed;	   /* the log holds this run: go on with it */
	bool finished;	   /* the log's run is done: nothing to run */
	struct resume res; /* the log's records (resumed) */
	bool has_info;
	struct run_plan info; /* the log's run description */
	bool had_progress;
	struct rlog_progress last; /* the progress slot as the previous boot left it */
	unsigned boot;		   /* this boot of the run, from 1 */
	char run_id[RLOG_RUN_ID_MAX + 1];
};

/*
 * Opens what cfg->results names and decides on the log as far as the
 * matrix name and kernel tell (want: matrix and kernel filled). run_id is
 * this boot's, used when the run is new.
 */
void results_setup_open(struct run_results *rr, const struct appliance_config *cfg,
			const struct disk_list *found, const char *run_id,
			const struct run_plan *want);

/*
 * After the expansion: a resumed log must hold this plan too; a new one
 * gets want as its description, and the progress slot counts this boot
 * (a resumed one's slot is left as the last boot left it: the caller
 * records the run that boot died in, then notes "resumed").
 */
void results_setup_plan(struct run_results *rr, const struct appliance_config *cfg,
			const struct run_plan *want);

/* The disks whose leftovers may be wiped (the resumed run's), or NULL. */
const char *results_setup_own_disks(const struct run_results *rr);

/* Notes a step of the run going on (state cell) or between runs (idle, done). */
void results_setup_progress(struct run_results *rr, enum rlog_progress_state state, int cell,
			    int cells, int repeat, uint32_t seq, const char *note);

void results_setup_close(struct run_results *rr);

#endif

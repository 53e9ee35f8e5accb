/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One job clone doing its IO: files, engine, offsets, statistics. A worker
 * runs in a thread (thread=1) or a forked process and writes only into its
 * own struct job_stats.
 */
#ifndef IOMATRIX_RUNNER_ENGINE_WORKER_H
#define IOMATRIX_RUNNER_ENGINE_WORKER_H

#include "matrix/job_options.h"
#include "runner/engine/stats.h"

struct worker {
	const struct job_options *o;
	unsigned clone;	    /* 0..numjobs-1 */
	unsigned seq;	    /* the worker's number in the whole run (seeds) */
	struct job_stats *st;
};

/* Runs the job; failures are recorded in w->st (error, errmsg, setup_failed). */
void worker_run(struct worker *w);

#endif

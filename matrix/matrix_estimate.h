/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How long a cell takes, by a model with constants measured under QEMU TCG
 * on this project's build machine (see matrix_estimate.c for the numbers
 * and tools/measure-plan-model for how they were taken). The plan prints
 * the model with its estimate; the runner uses it for the automatic time
 * limit and for an ETA before the first cell has run.
 */
#ifndef IOMATRIX_MATRIX_MATRIX_ESTIMATE_H
#define IOMATRIX_MATRIX_MATRIX_ESTIMATE_H

#include "matrix/matrix_internal.h"

#define WORKLOAD_SHAPE_JOBS 64 /* jobs of a job file beyond these are not counted */

/* The jobs of a fio workload as the estimate sees them (dd: njobs 0). */
struct workload_shape {
	int njobs;
	struct fio_facts jobs[WORKLOAD_SHAPE_JOBS];
};

/* member_bytes: the size of each disk the cell uses (for resync). */
double estimate_setup_s(const struct cell *c, uint64_t member_bytes);
double estimate_workload_s(const struct cell *c, const struct workload_shape *shape);
double estimate_teardown_s(const struct cell *c);

#endif

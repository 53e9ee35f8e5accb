/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a job set as fio does: numjobs clones of each job, as threads
 * (thread=1) or processes; jobs run together until a stonewall (or
 * new_group) starts the next group, which waits for the previous one.
 */
#ifndef IOMATRIX_RUNNER_ENGINE_JOB_RUN_H
#define IOMATRIX_RUNNER_ENGINE_JOB_RUN_H

#include <stddef.h>

#include "matrix/job_parse.h"
#include "records/job_result.h"

/*
 * Runs js and fills out. Returns 0 when every job ran (a job that failed
 * during its IO says so in its result), or -1 when a job could not start
 * (missing file, size beyond the device, engine refused ...): err then
 * holds one line naming the job, the option and where it was set.
 */
int job_run(const struct job_set *js, struct jr_run *out, char *err, size_t errlen);

#endif

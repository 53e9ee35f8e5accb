/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One record per cell and repeat, exactly as docs/records.md ("A record")
 * says: what ran (matrix, cell key and dimensions, repeat), how it ended
 * (status, error), where (kernel, machine, disks, the array and the
 * filesystems as built), how long each part took, the workload's own JSON
 * report embedded as it is, and the system counters around the workload.
 * Values that could not be had are null, never left out.
 */
#ifndef IOMATRIX_RUNNER_RUN_RECORD_H
#define IOMATRIX_RUNNER_RUN_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "runner/run/cell_result.h"
#include "runner/machine_info.h"

#define RECORD_VERSION 1

/* What every record of one boot shares. */
struct record_run {
	const char *run_id;
	const char *matrix;
	double scale;	/* the scale applied */
	int cell_count; /* cells of the matrix after its rules */
	const struct machine_info *machine;
	unsigned boot; /* the boot of the run that writes the record, from 1 (0: 1) */
};

/*
 * The record of r as JSON text (malloc; *len its length), or NULL when
 * out of memory.
 */
char *record_build(const struct record_run *run, uint32_t seq, const struct cell_result *r,
		   size_t *len);

#endif

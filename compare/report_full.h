/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The full report of one record, as seed 003 quotes fio's: the record's
 * workload JSON is loaded back into the engine's result structs (jr_load,
 * dd_load) and printed by the engine's own formatters (report_normal,
 * dd_report_normal), so `iomatrix report --full` prints exactly the text
 * the runner printed for the run.
 */
#ifndef IOMATRIX_COMPARE_REPORT_FULL_H
#define IOMATRIX_COMPARE_REPORT_FULL_H

#include <stddef.h>
#include <stdio.h>

#include "records/rs_load.h"

/*
 * "repeat R (seq S): STATUS[: ERROR]", then the workload's report, or a
 * line saying why there is none. 0, or -1 when there is no report (a
 * record that is not ok, or a workload that does not load).
 */
int report_full_record(FILE *f, const struct rs_record *rec);

/*
 * A bare output file: fio's or iomatrix-runner's JSON (notes before it and
 * a normal report after it are skipped), `iomatrix-runner dd`'s JSON, or
 * one record. 0, or -1 with err set when it is none of them.
 */
int report_full_output(FILE *f, const char *text, size_t len, char *err, size_t errlen);

#endif

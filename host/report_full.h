/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The full report of one record, as fio prints a job (seed 003 quotes one).
 *
 * THE SEAM: report_full_record() is the one place where the engine's
 * human-report formatter plugs in. The engine (branch "engine") is writing
 * common/report_normal.c and a result struct in common/; once merged, this
 * function turns the record's workload.fio JSON into that struct and calls
 * the formatter, so `iomatrix report --full` and the runner print the same
 * text. Until then it prints its own fio-like summary of the same fields.
 */
#ifndef IOMATRIX_HOST_REPORT_FULL_H
#define IOMATRIX_HOST_REPORT_FULL_H

#include <stdio.h>

#include "rs_load.h"

/* 0, or -1 when the record has no workload to report. */
int report_full_record(FILE *f, const struct rs_record *rec);

#endif

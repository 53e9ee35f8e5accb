/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two outputs of a run, written from a struct jr_run only (so a stored
 * result prints exactly as the run did):
 *   report_normal  fio's human report: the same numbers in the same places
 *   report_json    fio 3.x's JSON (json+ adds the latency bins); what
 *                  iomatrix adds is under "iomatrix" keys
 */
#ifndef IOMATRIX_RECORDS_REPORT_H
#define IOMATRIX_RECORDS_REPORT_H

#include <stdio.h>

#include "records/job_result.h"

/* 0, or -1 when writing failed. */
int report_normal(FILE *f, const struct jr_run *r);
int report_json(FILE *f, const struct jr_run *r, int plus);

/*
 * Writes the formats (OUTPUT_* bits of job_parse.h) to path, or to stdout
 * when path is NULL. A file is written beside path and renamed over it
 * only when complete: a reader never sees half a report.
 */
int report_write(const char *path, const struct jr_run *r, unsigned formats, char *err,
		 size_t errlen);

/*
 * Runs emit(f, ctx) on stdout (path NULL) or on a new file beside path that
 * is renamed over path once complete and synced; on failure nothing is left.
 */
int report_atomic(const char *path, int (*emit)(FILE *f, const void *ctx), const void *ctx,
		  char *err, size_t errlen);

/* fio's num2str: at most maxlen digits, then k/M/G (or Ki/Mi/Gi) and a unit. */
enum n2s_unit { N2S_NONE, N2S_BYTE, N2S_BYTEPERSEC };
void report_num2str(char *buf, size_t len, uint64_t num, int maxlen, int base, int pow2,
		    enum n2s_unit unit);

#endif

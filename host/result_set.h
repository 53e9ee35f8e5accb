/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A result set in the making: records gathered from one or more sources
 * (serial logs, results logs), merged by seq, checked as JSON, counted, and
 * written as a directory per docs/records.md ("A result set").
 *
 *   rs = rs_new();
 *   src = rs_add_source(rs, "serial.log", RS_SERIAL);
 *   rs_add_record(rs, src, seq, bytes, len);   for each intact record
 *   rs_add_damaged(rs, src, seq, why);         for each damaged one
 *   rs_build(rs, run_id_or_NULL, err, len);    merge, validate, count
 *   rs_print_summary(rs, stdout);
 *   rs_write(rs, "RESULT_SET", force, err, len);
 */
#ifndef IOMATRIX_HOST_RESULT_SET_H
#define IOMATRIX_HOST_RESULT_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "record_check.h"

#define RS_ERR_LEN 512

enum rs_source_kind {
	RS_SERIAL, /* a console log with framed lines */
	RS_LOG,	   /* a results log (device or image) */
};

struct result_set;

struct result_set *rs_new(void);
void rs_free(struct result_set *rs);

/* An input; returns its index (or -1 when out of memory). */
int rs_add_source(struct result_set *rs, const char *path, enum rs_source_kind kind);
/*
 * What a results log's header says: its run (its damaged records belong to
 * that run) and when it was created (the result set's date when no record
 * gives one).
 */
int rs_source_set_log(struct result_set *rs, int src, const char *run_id, uint64_t created_unix);
int rs_add_record(struct result_set *rs, int src, uint32_t seq, const void *data, size_t len);
int rs_add_damaged(struct result_set *rs, int src, uint32_t seq, const char *why);

/*
 * Merges the sources: one record per seq, copies compared byte for byte;
 * each checked as a record (JSON object with the keys the manifest needs);
 * the records of one run kept (run_id, or the only run there is); damaged,
 * lost and missing worked out. -1 with err when there is nothing to keep or
 * the input holds several runs and none was chosen.
 */
int rs_build(struct result_set *rs, const char *run_id, char *err, size_t errlen);

/* True when any record is damaged, lost, invalid, disagreeing, or any cell missing. */
bool rs_incomplete(const struct result_set *rs);
uint32_t rs_record_count(const struct result_set *rs);

void rs_print_summary(const struct result_set *rs, FILE *f);

/*
 * Writes the result set to dir: built beside it under a temporary name and
 * renamed into place, so dir is never half written. An existing dir is
 * replaced only with force, and only when it is a result set (or empty).
 */
int rs_write(const struct result_set *rs, const char *dir, bool force, char *err, size_t errlen);

#endif

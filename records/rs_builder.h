/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A result set in the making: records gathered from one or more sources
 * (serial logs, results logs), merged by seq, checked as JSON, counted, and
 * written as a directory per docs/records.md ("A result set").
 *
 *   rs = rsb_new();
 *   src = rsb_add_source(rs, "serial.log", RSB_SERIAL);
 *   rsb_add_record(rs, src, seq, bytes, len);   for each intact record
 *   rsb_add_damaged(rs, src, seq, why);         for each damaged one
 *   rsb_build(rs, run_id_or_NULL, err, len);    merge, validate, count
 *   rsb_print_summary(rs, stdout);
 *   rsb_write(rs, "RESULT_SET", force, err, len);
 */
#ifndef IOMATRIX_RECORDS_RS_BUILDER_H
#define IOMATRIX_RECORDS_RS_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "records/record_check.h"

#define RSB_ERR_LEN 512

enum rsb_source_kind {
	RSB_SERIAL, /* a console log with framed lines */
	RSB_LOG,	   /* a results log (device or image) */
};

struct rs_builder;

struct rs_builder *rsb_new(void);
void rsb_free(struct rs_builder *rs);

/* An input; returns its index (or -1 when out of memory). */
int rsb_add_source(struct rs_builder *rs, const char *path, enum rsb_source_kind kind);
/*
 * What a results log's header says: its run (its damaged records belong to
 * that run) and when it was created (the result set's date when no record
 * gives one).
 */
int rsb_source_set_log(struct rs_builder *rs, int src, const char *run_id, uint64_t created_unix);
int rsb_add_record(struct rs_builder *rs, int src, uint32_t seq, const void *data, size_t len);
int rsb_add_damaged(struct rs_builder *rs, int src, uint32_t seq, const char *why);

/*
 * Merges the sources: one record per seq, copies compared byte for byte;
 * each checked as a record (JSON object with the keys the manifest needs);
 * the records of one run kept (run_id, or the only run there is); damaged,
 * lost and missing worked out. -1 with err when there is nothing to keep or
 * the input holds several runs and none was chosen.
 */
int rsb_build(struct rs_builder *rs, const char *run_id, char *err, size_t errlen);

/* True when any record is damaged, lost, invalid, disagreeing, or any cell missing. */
bool rsb_incomplete(const struct rs_builder *rs);
uint32_t rsb_record_count(const struct rs_builder *rs);

void rsb_print_summary(const struct rs_builder *rs, FILE *f);

/*
 * Writes the result set to dir: built beside it under a temporary name and
 * renamed into place, so dir is never half written. An existing dir is
 * replaced only with force, and only when it is a result set (or empty).
 */
int rsb_write(const struct rs_builder *rs, const char *dir, bool force, char *err, size_t errlen);

#endif

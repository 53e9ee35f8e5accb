/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One record's bytes against docs/records.md ("A record"): a JSON object
 * with the keys a result set needs (iomatrix_record 1, run_id, seq, matrix,
 * 1 <= cell.index <= cell.count, repeat, a known status, kernel), and small
 * helpers to read them. Host side only (json-c).
 */
#ifndef IOMATRIX_RECORDS_RECORD_CHECK_H
#define IOMATRIX_RECORDS_RECORD_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* Record statuses, in the manifest's order. */
enum record_status {
	RECORD_OK,
	RECORD_FAILED,
	RECORD_TIMEOUT,
	RECORD_SKIPPED,
	RECORD_CRASHED,
	RECORD_NSTATUS
};
extern const char *const record_status_names[RECORD_NSTATUS];

/*
 * Parses len bytes and checks them as record number seq. Returns the object
 * (the caller puts it), or NULL with one line saying why in `why`.
 */
json_object *record_check(const void *data, size_t len, uint32_t seq, char *why, size_t whylen);

/* The value at a dotted path ("cell.index"), or NULL. */
json_object *record_get(json_object *obj, const char *path);
/* ... as an integer (0 when absent). */
int64_t record_get_int(json_object *obj, const char *path);
/* The status's index in record_status_names, or -1. */
int record_status_index(const char *s);

#endif

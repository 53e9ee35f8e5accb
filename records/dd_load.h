/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The dd workload's JSON (docs/records.md: a record's workload.dd, or what
 * `iomatrix-runner dd --output-format json` prints) back into a struct
 * dd_result, so the host prints it with the engine's dd_report_normal.
 * Absent keys are zero (an absent "directories" is ""); a key of the wrong
 * type, or "writers" that disagrees with the per_writer list, is an error
 * naming the key. Outside input: fuzzed (tests/fuzz/fuzz_jr_load.c).
 */
#ifndef IOMATRIX_RECORDS_DD_LOAD_H
#define IOMATRIX_RECORDS_DD_LOAD_H

#include <stddef.h>

#include <json-c/json.h>

#include "records/dd_result.h"

/* 0, or -1 with err set and r empty. */
int dd_load(json_object *o, struct dd_result *r, char *err, size_t errlen);

#endif

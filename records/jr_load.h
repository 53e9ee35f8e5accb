/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's JSON back into a struct jr_run (records/job_result.h), the inverse of
 * records/report_json.c, so the host prints a stored result with the
 * engine's own report_normal: the same text the run printed.
 *
 * Reads what iomatrix-runner writes (a record's workload.fio, or its
 * --output-format=json[+] output) and what fio 3.x writes (fio 2's JSON,
 * with other units, is refused). fio's JSON lacks
 * what the report's header and job lines show besides the numbers (rw,
 * ioengine, block sizes, pid, the time); the runner writes those under each
 * job's "iomatrix" key. Without that key they come from the job's options
 * as written ("global options", "job options") and their defaults, the pid
 * is 0 and the time is the report's "timestamp".
 *
 * A key that is absent (or null) is zero: older fio 3 versions lack some. A
 * key of the wrong type, a negative count or a malformed percentile is an
 * error naming the key's path ("jobs[1].read.clat_ns.N: not a number").
 * Outside input: fuzzed (tests/fuzz/fuzz_jr_load.c).
 */
#ifndef IOMATRIX_RECORDS_JR_LOAD_H
#define IOMATRIX_RECORDS_JR_LOAD_H

#include <stddef.h>

#include <json-c/json.h>

#include "records/job_result.h"

/* fio's top-level object into r. 0, or -1 with err set and r empty. */
int jr_load(json_object *root, struct jr_run *r, char *err, size_t errlen);

/*
 * The JSON object in a tool's output file. fio writes notes before it
 * ("note: both iodepth >= 1 and ..."), and with --output-format=json,normal
 * the normal report after it: the object starts at the first line that
 * starts with '{', and whatever follows it is ignored. Sets *root (release
 * it with json_object_put) and, where not NULL, *start (the object's offset)
 * and *end (just past its closing brace). 0, or -1 with err set.
 */
int jr_parse_output(const char *text, size_t len, json_object **root, size_t *start,
		    size_t *end, char *err, size_t errlen);

#endif

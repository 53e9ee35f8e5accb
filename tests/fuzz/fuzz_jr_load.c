// SPDX-License-Identifier: GPL-2.0
/*
 * Output files handed to `iomatrix report FILE` come from anywhere: fio's
 * JSON of any version, iomatrix-runner's, dd results, records, damaged
 * copies of them. Load any bytes as one, print the report, and print the
 * loaded fio result back as JSON too (every field that was loaded is used).
 */
#include <stdint.h>
#include <stdio.h>

#include "records/jr_load.h"
#include "records/report.h"
#include "compare/report_full.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	json_object *root;
	struct jr_run r;
	char err[256];

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (!sink)
		return 0;
	report_full_output(sink, (const char *)data, size, err, sizeof(err));
	if (jr_parse_output((const char *)data, size, &root, NULL, NULL, err, sizeof(err)))
		return 0;
	if (!jr_load(root, &r, err, sizeof(err))) {
		report_json(sink, &r, 1);
		jr_run_free(&r);
	}
	json_object_put(root);
	return 0;
}

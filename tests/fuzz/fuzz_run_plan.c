// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the run description a results log carries (runner/results/resume.h): it
 * comes off a disk that a crashed kernel wrote, so any text must give a
 * description or one error line; one that parses formats and parses back
 * to the same run.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runner/results/resume.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct run_plan a, b;
	static char text[8192];
	char err[RESUME_ERR_LEN];
	size_t n;

	if (run_plan_parse((const char *)data, size, &a, err, sizeof(err))) {
		if (!err[0] || strchr(err, '\n'))
			abort();
		return 0;
	}
	n = run_plan_format(&a, text, sizeof(text));
	if (!n)
		return 0;
	/* blanks at the ends of a value are not kept: compared as parsed */
	if (run_plan_parse(text, n, &b, err, sizeof(err)) || a.cells != b.cells ||
	    a.plan != b.plan || strcmp(a.matrix, b.matrix) || strcmp(a.kernel, b.kernel) ||
	    strcmp(a.disks, b.disks) || (a.scale == a.scale && a.scale != b.scale))
		abort();
	return 0;
}

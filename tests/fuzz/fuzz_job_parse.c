// SPDX-License-Identifier: GPL-2.0
/* Fuzz the job-file reader and option table: any bytes give jobs or a located error. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "matrix/job_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[JOB_ERR_LEN];
	struct job_set js;

	job_set_init(&js);
	if (!job_parse_buffer(&js, "fuzz.fio", (const char *)data, size, err, sizeof(err)))
		(void)job_set_validate(&js, err, sizeof(err));
	job_set_free(&js);
	return 0;
}

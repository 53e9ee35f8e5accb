/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A cell's workload, run as a child: PID 1 starts its own binary
 * (/proc/self/exe; not PID 1 there, so it is the engine) with the cell's
 * argv (matrix.h: cell_workload_argv), JSON output to a file under /run,
 * stdout and stderr to another, within the cell's time limit. A workload
 * that crashes or hangs cannot take PID 1 with it; one past its limit is
 * killed with its process group.
 *
 * The report must be one well-formed JSON value (json_check.h): the record
 * embeds it, without its insignificant blanks. Its headline numbers
 * (bandwidth and IOPS per direction) are read from it for the console.
 */
#ifndef IOMATRIX_RUNNER_RUN_WORKLOAD_H
#define IOMATRIX_RUNNER_RUN_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "matrix/matrix.h"
#include "runner/setup/step.h"

#define WORKLOAD_DIR	  "/run/iomatrix"
#define WORKLOAD_JSON	  WORKLOAD_DIR "/workload.json"
#define WORKLOAD_OUT	  WORKLOAD_DIR "/workload.out"
#define WORKLOAD_JSON_MAX (32u << 20)

/* The numbers a person looks at first. */
struct headline {
	double read_bw, write_bw;     /* bytes/s: fio's bw_bytes summed over jobs; dd's bw_bytes */
	double read_iops, write_iops; /* fio only */
	uint64_t read_bytes, write_bytes;
	int jobs;	     /* fio: jobs[] entries; dd: writers */
	int failed_job;	     /* the first job whose "error" is not 0, or -1 */
	long long job_error; /* its error */
	char dd_error[160];  /* dd: the report's "error" line, "" when null */
};

struct workload_result {
	char command[STEP_COMMAND_MAX]; /* as run, argv[0] left out */
	char *json;			/* the report without blanks (malloc), NULL when none */
	size_t json_len;
	struct headline h;
	double seconds; /* from spawn to exit */
};

/*
 * Runs the cell's workload over the mount points dirs for at most timeout
 * seconds. Returns 0 with r filled; -1 with e (r->json may still hold a
 * report that was valid: a job's error). r must be freed with
 * workload_result_free either way.
 */
int workload_run(const struct cell *c, const char *const *dirs, int ndirs, double timeout,
		 struct workload_result *r, struct step_error *e);
void workload_result_free(struct workload_result *r);

/*
 * Checks a report (len bytes) and reads its headline. minified: NULL, or
 * room for len + 1 bytes that gets the report without blanks (its length
 * in *minified_len). Returns 0, or -1 with why in err.
 */
int workload_parse(enum workload_kind kind, const char *text, size_t len, char *minified,
		   size_t *minified_len, struct headline *h, char *err, size_t errlen);

/* "read 48.1 MiB/s 12.3k IOPS, write 1.0 MiB/s 256 IOPS" or "write 123.4 MiB/s". */
const char *headline_str(const struct headline *h, char *buf, size_t len);

#endif

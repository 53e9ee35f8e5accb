// SPDX-License-Identifier: GPL-2.0
/*
 * iomatrix-runner as fio: job files and fio-style options in, fio's normal
 * or JSON report out. Notes and errors go to stderr only, so the report
 * (stdout or --output) is exactly a report.
 */
#include <stdio.h>
#include <string.h>

#include "runner/engine/engine.h"
#include "matrix/job_parse.h"
#include "records/job_result.h"
#include "runner/engine/job_run.h"
#include "runner/modes.h"
#include "records/report.h"
#include "lib/version.h"

/* What fio says on the console about a job before it runs (never in the report). */
static void notes(const struct job_set *js)
{
	for (size_t i = 0; i < js->njobs; i++) {
		const struct job_options *o = &js->jobs[i].o;
		const struct engine_ops *ops = engine_find(o->ioengine);

		if (ops->sync && o->iodepth > 1)
			fprintf(stderr,
				"note: both iodepth >= 1 and synchronous I/O engine are selected, "
				"queue depth will be capped at 1 (job '%s')\n",
				o->name);
	}
}

int fio_main(int argc, char **argv)
{
	char err[JOB_ERR_LEN];
	struct job_set js;
	struct jr_run run;
	int rc = 1;

	job_set_init(&js);
	if (job_parse_args(&js, argc, argv, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", argv[0], err);
		goto out;
	}
	switch (js.action) {
	case JOB_HELP:
		/* both modes: the fio-style options, then dd's own table */
		job_print_usage(stdout, argv[0]);
		fputc('\n', stdout);
		dd_print_usage(stdout);
		rc = 0;
		goto out;
	case JOB_VERSION:
		printf("%s\n", IOMATRIX_FIO_VERSION);
		rc = 0;
		goto out;
	case JOB_CMDHELP:
		if (option_print_help(stdout, js.cmdhelp)) {
			fprintf(stderr, "%s: --cmdhelp: no option '%s'\n", argv[0], js.cmdhelp);
			goto out;
		}
		rc = 0;
		goto out;
	case JOB_RUN:
		break;
	}
	notes(&js);
	if (job_run(&js, &run, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", argv[0], err);
		goto out;
	}
	if (report_write(js.output, &run, js.output_format, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", argv[0], err);
	} else {
		rc = 0;
		for (size_t i = 0; i < run.njobs; i++)
			if (run.jobs[i].error) {
				fprintf(stderr, "%s: job '%s': %s\n", argv[0], run.jobs[i].name,
					run.jobs[i].errmsg ? run.jobs[i].errmsg : strerror(run.jobs[i].error));
				rc = 1;
			}
	}
	jr_run_free(&run);
out:
	job_set_free(&js);
	return rc;
}

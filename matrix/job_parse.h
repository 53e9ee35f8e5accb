/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading fio-style jobs: job files (on lib/ini), the command line, and
 * iomatrix's --set extension, into a list of jobs with their options.
 *
 * fio's rules, which this follows:
 *  - [global] sets defaults for the jobs that follow it (in every later
 *    file too); any other [section] is a job named after it.
 *  - On the command line, --name=NAME starts a job; options after it belong
 *    to it. Options given outside any --name are defaults, as if in a
 *    [global] section read before the job files, so a job file's own
 *    [global] overrides them (fio 3.33 does exactly that).
 *  - Command-line jobs come first, then the job files' jobs in order.
 *  - --set KEY=VALUE (iomatrix) applies KEY=VALUE to every job after all
 *    of the above, checked by the same option table: a matrix can run a
 *    job file verbatim with its own bs or numjobs.
 */
#ifndef IOMATRIX_MATRIX_JOB_PARSE_H
#define IOMATRIX_MATRIX_JOB_PARSE_H

#include <stddef.h>

#include "matrix/job_options.h"

#define JOB_ERR_LEN 640

/* One option as written (for fio's "job options" and "global options"). */
struct job_kv {
	char *key;
	char *value; /* NULL for a bare flag */
	char *file;  /* "command line" for options from argv */
	int line;    /* 0 for the command line */
};

struct job_kvs {
	struct job_kv *v;
	size_t n;
};

struct job_desc {
	struct job_options o;
	struct job_kvs kv; /* the options written in the job's own section */
	char *file;	   /* where the job was defined */
	int line;
};

enum output_format_bits {
	OUTPUT_NORMAL = 1,
	OUTPUT_JSON = 2,
	OUTPUT_JSON_PLUS = 4,
};

enum job_action { JOB_RUN, JOB_HELP, JOB_CMDHELP, JOB_VERSION };

struct job_set {
	struct job_desc *jobs;
	size_t njobs;
	struct job_kvs global_kv; /* every option set as a default */
	struct job_kvs sets;	  /* --set, in order */
	struct job_options global;
	char *output;		  /* --output=FILE, or NULL for stdout */
	unsigned output_format;	  /* OUTPUT_* bits */
	enum job_action action;
	char *cmdhelp;		  /* --cmdhelp=NAME (NULL: all) */
};

void job_set_init(struct job_set *js);
void job_set_free(struct job_set *js);

/*
 * The whole command line (argv[0] is the program): options, --name jobs,
 * job files, --set, then the checks of job_set_validate. Returns 0 or -1
 * with one line in err naming the option and where it came from.
 */
int job_parse_args(struct job_set *js, int argc, char **argv, char *err, size_t errlen);

/* One job file's text (its [global] sections update js->global). */
int job_parse_buffer(struct job_set *js, const char *name, const char *text, size_t len,
		     char *err, size_t errlen);

/*
 * Checks what a single option cannot: engine-only options with another
 * engine, time_based without runtime, ... Errors name the option and the
 * file:line it was set at.
 */
int job_set_validate(struct job_set *js, char *err, size_t errlen);

/* Where option name was given for job j ("file:line"), or the job's section. */
void job_option_origin(const struct job_desc *j, const char *name, char *buf, size_t len);

/*
 * The help text of the fio-style command line (--help). The runner's dd
 * mode prints its own, from its option table (runner/engine/dd_cli.c),
 * which this stage cannot reach: the runner's --help prints both.
 */
void job_print_usage(FILE *f, const char *prog);

#endif

// SPDX-License-Identifier: GPL-2.0
/* The workload child and its report; see workload.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/byte_buf.h"
#include "runner/console.h"
#include "lib/json_check.h"
#include "runner/spawn.h"
#include "runner/run/workload.h"

#define SELF "/proc/self/exe"

struct headline_ctx {
	enum workload_kind kind;
	struct headline *h;
};

/* Splits "jobs.3.read.bw_bytes" into at most 5 parts; returns their count. */
static int split_path(char *path, char *parts[5])
{
	int n = 0;

	for (char *p = path, *dot; p && n < 5; p = dot ? dot + 1 : NULL) {
		dot = strchr(p, '.');
		if (dot)
			*dot = '\0';
		parts[n++] = p;
	}
	return n;
}

static void headline_leaf(void *arg, const char *path, enum json_leaf_type type, const char *tok,
			  size_t len)
{
	struct headline_ctx *ctx = arg;
	struct headline *h = ctx->h;
	char copy[JSON_CHECK_PATH_MAX], num[64], *parts[5];
	double v;
	int n;

	if (ctx->kind == WORKLOAD_DD && type == JSON_LEAF_STRING && !strcmp(path, "error")) {
		/* The text between the quotes, escapes as written: for one console line. */
		snprintf(h->dd_error, sizeof(h->dd_error), "%.*s", (int)(len - 2), tok + 1);
		return;
	}
	if (type != JSON_LEAF_NUMBER || len >= sizeof(num))
		return;
	memcpy(num, tok, len);
	num[len] = '\0';
	v = strtod(num, NULL);
	if (ctx->kind == WORKLOAD_DD) {
		if (!strcmp(path, "bw_bytes"))
			h->write_bw = v;
		else if (!strcmp(path, "io_bytes"))
			h->write_bytes = (uint64_t)v;
		else if (!strcmp(path, "writers"))
			h->jobs = (int)v;
		return;
	}
	snprintf(copy, sizeof(copy), "%s", path);
	n = split_path(copy, parts);
	if (n < 3 || strcmp(parts[0], "jobs"))
		return;
	if (n == 3 && !strcmp(parts[2], "error") && v != 0 && h->failed_job < 0) {
		h->failed_job = atoi(parts[1]);
		h->job_error = (long long)v;
	}
	if (n == 3 && !strcmp(parts[2], "jobname"))
		return;
	if (n != 4)
		return;
	if (!strcmp(parts[2], "read")) {
		if (!strcmp(parts[3], "bw_bytes"))
			h->read_bw += v;
		else if (!strcmp(parts[3], "iops"))
			h->read_iops += v;
		else if (!strcmp(parts[3], "io_bytes"))
			h->read_bytes += (uint64_t)v;
	} else if (!strcmp(parts[2], "write")) {
		if (!strcmp(parts[3], "bw_bytes"))
			h->write_bw += v;
		else if (!strcmp(parts[3], "iops"))
			h->write_iops += v;
		else if (!strcmp(parts[3], "io_bytes"))
			h->write_bytes += (uint64_t)v;
	}
}

/* Counts jobs[] entries: the leaf callback sees "jobs.N.jobname" once per job. */
static void count_jobs(void *arg, const char *path, enum json_leaf_type type, const char *tok,
		       size_t len)
{
	struct headline_ctx *ctx = arg;
	const char *rest;

	headline_leaf(arg, path, type, tok, len);
	if (ctx->kind != WORKLOAD_FIO || strncmp(path, "jobs.", 5))
		return;
	rest = strchr(path + 5, '.');
	if (rest && !strcmp(rest, ".jobname"))
		ctx->h->jobs++;
}

int workload_parse(enum workload_kind kind, const char *text, size_t len, char *minified,
		   size_t *minified_len, struct headline *h, char *err, size_t errlen)
{
	struct headline_ctx ctx = {kind, h};
	struct json_check_opts o = {.leaf = count_jobs, .ctx = &ctx, .minified = minified};
	char why[256];

	memset(h, 0, sizeof(*h));
	h->failed_job = -1;
	if (json_check(text, len, &o, why, sizeof(why))) {
		snprintf(err, errlen, "the report is not valid JSON: %s", why);
		return -1;
	}
	if (text[strspn(text, " \t\r\n")] != '{') {
		snprintf(err, errlen, "the report is not a JSON object");
		return -1;
	}
	if (minified_len)
		*minified_len = o.minified_len;
	if (kind == WORKLOAD_FIO && !h->jobs) {
		snprintf(err, errlen, "the report has no jobs");
		return -1;
	}
	return 0;
}

/* "1.5 GiB/s", "48.1 MiB/s", "512 KiB/s". */
static const char *rate_str(double bytes_per_s, char *buf, size_t len)
{
	static const char *const units[] = {"B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"};
	size_t u = 0;

	while (bytes_per_s >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		bytes_per_s /= 1024;
		u++;
	}
	snprintf(buf, len, "%.1f %s", bytes_per_s, units[u]);
	return buf;
}

static const char *iops_str(double iops, char *buf, size_t len)
{
	if (iops >= 1e6)
		snprintf(buf, len, "%.2fM IOPS", iops / 1e6);
	else if (iops >= 1e4)
		snprintf(buf, len, "%.1fk IOPS", iops / 1e3);
	else
		snprintf(buf, len, "%.0f IOPS", iops);
	return buf;
}

const char *headline_str(const struct headline *h, char *buf, size_t len)
{
	char a[32], b[32], c[32], d[32];
	bool reads = h->read_bytes || h->read_bw > 0, writes = h->write_bytes || h->write_bw > 0;

	if (reads && writes)
		snprintf(buf, len, "read %s %s, write %s %s", rate_str(h->read_bw, a, sizeof(a)),
			 iops_str(h->read_iops, b, sizeof(b)), rate_str(h->write_bw, c, sizeof(c)),
			 iops_str(h->write_iops, d, sizeof(d)));
	else if (reads)
		snprintf(buf, len, "read %s %s", rate_str(h->read_bw, a, sizeof(a)),
			 iops_str(h->read_iops, b, sizeof(b)));
	else if (writes && h->write_iops > 0)
		snprintf(buf, len, "write %s %s", rate_str(h->write_bw, a, sizeof(a)),
			 iops_str(h->write_iops, b, sizeof(b)));
	else if (writes)
		snprintf(buf, len, "write %s", rate_str(h->write_bw, a, sizeof(a)));
	else
		snprintf(buf, len, "no IO");
	return buf;
}

/* The full argv: the binary, the cell's words, the output options. */
static const char **full_argv(char **words, int nwords)
{
	const char **argv = calloc((size_t)nwords + 4, sizeof(*argv));
	int k = 0;

	if (!argv)
		return NULL;
	argv[k++] = SELF;
	for (int i = 0; i < nwords; i++)
		argv[k++] = words[i];
	/* fio's spelling; dd takes the same. */
	argv[k++] = "--output-format=json";
	argv[k++] = "--output=" WORKLOAD_JSON;
	argv[k] = NULL;
	return argv;
}

/* Reads and checks the report into r->json and r->h; -1 with why. */
static int load_report(struct workload_result *r, const struct cell *c, char *why, size_t len)
{
	struct byte_buf text = { 0 };
	int error = byte_buf_load(&text, WORKLOAD_JSON, WORKLOAD_JSON_MAX);

	if (error) {
		snprintf(why, len, "no report in %s: %s", WORKLOAD_JSON, strerror(error));
		return -1;
	}
	r->json = malloc(text.len + 1);
	if (!r->json) {
		byte_buf_free(&text);
		snprintf(why, len, "out of memory for the report");
		return -1;
	}
	if (workload_parse(c->workload.kind, (const char *)text.data, text.len, r->json,
			   &r->json_len, &r->h, why, len)) {
		free(r->json);
		r->json = NULL;
	}
	byte_buf_free(&text);
	return r->json ? 0 : -1;
}

static int finish(struct workload_result *r, const struct cell *c, struct step_error *e)
{
	char why[300], line[STEP_COMMAND_MAX + 16];

	snprintf(line, sizeof(line), "iomatrix-runner %s", r->command);
	if (load_report(r, c, why, sizeof(why))) {
		step_fail(e, "workload", line, why, NULL);
		return -1;
	}
	if (r->h.dd_error[0]) {
		snprintf(why, sizeof(why), "the report says: %s", r->h.dd_error);
		step_fail(e, "workload", line, why, NULL);
		return -1;
	}
	if (r->h.failed_job >= 0) {
		snprintf(why, sizeof(why), "job %d reports error %lld (%s)", r->h.failed_job,
			 r->h.job_error, strerror((int)r->h.job_error));
		step_fail(e, "workload", line, why, NULL);
		return -1;
	}
	return 0;
}

int workload_run(const struct cell *c, const char *const *dirs, int ndirs, double timeout,
		 struct workload_result *r, struct step_error *e)
{
	struct spawn_opts opts = {-1, -1, -1, false};
	char **words = NULL, err[MATRIX_ERR_LEN], how[128], tail[STEP_TAIL_MAX];
	char line[STEP_COMMAND_MAX + 16];
	const char **argv = NULL;
	int nwords, ret = -1, status = 0, in = -1, out = -1, spawned;
	double start;

	memset(r, 0, sizeof(*r));
	nwords = cell_workload_argv(c, dirs, ndirs, &words, err, sizeof(err));
	if (nwords < 0) {
		step_fail(e, "workload", "cell_workload_argv", err, NULL);
		return -1;
	}
	argv = full_argv(words, nwords);
	if (!argv) {
		step_fail(e, "workload", "argv", "out of memory", NULL);
		goto out;
	}
	step_join_argv(argv + 1, r->command, sizeof(r->command));
	snprintf(line, sizeof(line), "iomatrix-runner %s", r->command);
	con_debug("workload: %s", line);
	mkdir(WORKLOAD_DIR, 0755);
	unlink(WORKLOAD_JSON);
	in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	out = open(WORKLOAD_OUT, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (in < 0 || out < 0) {
		step_fail(e, "workload", line, "cannot open its stdin or output file",
			  strerror(errno));
		goto out;
	}
	opts.stdin_fd = in;
	opts.stdout_fd = out;
	opts.stderr_fd = out;
	start = step_now();
	spawned = run_child(argv, timeout, &opts, &status);
	r->seconds = step_now() - start;
	if (spawned || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (spawned == SPAWN_ETIMEDOUT)
			snprintf(how, sizeof(how), "timed out after %.0f s (killed)", timeout);
		else if (spawned)
			snprintf(how, sizeof(how), "cannot run: %s", spawn_strerror(spawned));
		else
			spawn_status_str(status, how, sizeof(how));
		step_file_tail(WORKLOAD_OUT, STEP_TAIL_LINES, tail, sizeof(tail));
		step_fail(e, "workload", line, how, tail);
		e->timeout = spawned == SPAWN_ETIMEDOUT;
		/* A report it wrote before failing (a job's error) still goes in the record. */
		if (!spawned)
			load_report(r, c, how, sizeof(how));
		goto out;
	}
	ret = finish(r, c, e);
out:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	free(argv);
	cell_argv_free(words);
	return ret;
}

void workload_result_free(struct workload_result *r)
{
	free(r->json);
	r->json = NULL;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Loading fio's JSON back (records/jr_load.c, records/dd_load.c): real runs of
 * build/iomatrix-runner print the same normal report from their JSON as
 * they printed themselves; a hand-made result with every field set goes
 * through JSON and back unchanged; fio 3.33's own JSON prints fio's text;
 * absent keys are zero and malformed ones are errors naming the key.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "lib/byte_buf.h"
#include "check.h"
#include "records/dd_load.h"
#include "records/jr_load.h"
#include "records/report.h"
#include "compare/report_full.h"

#define RUNNER "build/iomatrix-runner"

/* A memstream's text; free it. */
struct text {
	char *s;
	size_t len;
};

static FILE *text_open(struct text *t)
{
	t->s = NULL;
	t->len = 0;
	return open_memstream(&t->s, &t->len);
}

/* The first line where a and b differ, printed as a TAP comment. */
static void show_difference(const char *what, const char *a, const char *b)
{
	int line = 1;

	while (*a && *a == *b) {
		line += *a == '\n';
		a++;
		b++;
	}
	while (line > 1 && a[-1] != '\n') {
		a--;
		b--;
	}
	printf("# %s: first difference at line %d:\n#   expected: %.*s\n#   got:      %.*s\n", what,
	       line, (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
}

static int same_text(const char *what, const char *want, const char *got)
{
	if (!strcmp(want, got))
		return 1;
	show_difference(what, want, got);
	return 0;
}

/* report_normal of json loaded with jr_load (and report_json too, when json_back). */
static int load_and_print(const char *json, size_t len, struct text *normal, struct text *json_back,
			  int plus)
{
	json_object *root;
	struct jr_run r;
	char err[256];
	FILE *f;
	int rc;

	if (jr_parse_output(json, len, &root, NULL, NULL, err, sizeof(err))) {
		printf("# parse: %s\n", err);
		return -1;
	}
	rc = jr_load(root, &r, err, sizeof(err));
	json_object_put(root);
	if (rc) {
		printf("# jr_load: %s\n", err);
		return -1;
	}
	f = text_open(normal);
	rc = !f || report_normal(f, &r) || fclose(f);
	if (!rc && json_back) {
		f = text_open(json_back);
		rc = !f || report_json(f, &r, plus) || fclose(f);
	}
	jr_run_free(&r);
	return rc ? -1 : 0;
}

/*
 * Runs the job file text through the runner with --output-format=FORMAT,normal
 * (one run, both reports: the JSON first, then the normal text) and checks
 * that the JSON, loaded back, prints that normal text and that JSON again.
 */
static void runner_round_trip(const char *dir, const char *name, const char *job,
			      const char *format)
{
	char path[512], out[512], cmd[2048], err[256];
	struct byte_buf b = { 0 };
	struct text normal, json_back;
	json_object *root;
	size_t end;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.fio", dir, name);
	snprintf(out, sizeof(out), "%s/%s.%s.out", dir, name, format);
	f = fopen(path, "w");
	CHECK(f && fprintf(f, "[global]\ndirectory=%s\n%s", dir, job) > 0 && !fclose(f));
	snprintf(cmd, sizeof(cmd), "%s %s --output-format=%s,normal --output=%s 2>%s.err", RUNNER,
		 path, format, out, out);
	if (system(cmd)) {
		printf("# %s failed (see %s.err; is the runner built?)\n", cmd, out);
		check_failures++;
		return;
	}
	if (byte_buf_read_file(&b, out, 64u << 20, err, sizeof(err)) ||
	    byte_buf_append(&b, "", 1)) {
		printf("# %s\n", err);
		check_failures++;
		return;
	}
	/* The JSON, its closing newline, then the normal report. */
	if (jr_parse_output((char *)b.data, b.len - 1, &root, NULL, &end, err, sizeof(err))) {
		printf("# %s: %s\n", out, err);
		check_failures++;
		byte_buf_free(&b);
		return;
	}
	json_object_put(root);
	CHECK(b.data[end] == '\n');
	if (!load_and_print((char *)b.data, end, &normal, &json_back, !strcmp(format, "json+"))) {
		char *json = strndup((char *)b.data, end + 1);

		CHECK(same_text(out, (char *)b.data + end + 1, normal.s));
		CHECK(json && same_text(out, json, json_back.s));
		free(json);
		free(normal.s);
		free(json_back.s);
	} else {
		check_failures++;
	}
	byte_buf_free(&b);
}

static char workdir[] = "build/test-jr-load.XXXXXX";

/* psync randrw, two clones reported together; libaio randread in a group of its own. */
static void test_runner_groups_and_clones(void)
{
	static const char job[] = "size=2m\nbs=4k\n"
				  "[mix]\nrw=randrw\nioengine=psync\nnumjobs=2\ngroup_reporting\n"
				  "[aio]\nnew_group\nrw=randread\nioengine=libaio\niodepth=4\n"
				  "direct=1\n";

	runner_round_trip(workdir, "groups", job, "json+");
	runner_round_trip(workdir, "groups", job, "json");
}

/*
 * Threads, a description, fsync latencies with lat percentiles, clones
 * reported apart, kb_base=1000, a bssplit and a time-based job long enough
 * for bandwidth samples.
 */
static void test_runner_many_fields(void)
{
	static const char job[] =
		"size=2m\nthread\n"
		"[w]\ndescription=a writer that syncs\nrw=write\nfsync=8\nlat_percentiles=1\n"
		"[c]\nkb_base=1000\nrw=randread\nbsrange=4k-16k\nnumjobs=2\n"
		"[t]\nnew_group\nrw=randread\nioengine=libaio\niodepth=8\nbssplit=4k/50:8k/50\n"
		"runtime=1200ms\ntime_based\n";

	runner_round_trip(workdir, "fields", job, "json+");
}

/* A result with every field report_normal and report_json use set, by hand. */
static void fill_lat(struct jr_lat *l, uint64_t base, const struct jr_job *j, int bins)
{
	l->min = base;
	l->max = base * 50;
	l->n = 1000 + base;
	l->mean = (double)base * 2.5;
	l->stddev = (double)base * 0.75;
	l->npct = j->npct;
	for (unsigned i = 0; i < j->npct; i++)
		l->pct_val[i] = base + i * base / 4;
	if (bins) {
		l->nbins = 3;
		l->bins = calloc(3, sizeof(*l->bins));
		for (size_t i = 0; l->bins && i < 3; i++) {
			l->bins[i].value = base + i * 64;
			l->bins[i].count = 10 + i;
		}
	}
}

static void make_run(struct jr_run *r)
{
	static const double pcts[] = { 1, 50, 99, 99.9 };

	memset(r, 0, sizeof(*r));
	snprintf(r->fio_version, sizeof(r->fio_version), "iomatrix-test");
	r->timestamp = 1764475200;
	r->timestamp_ms = 1764475200123ULL;
	r->started = 3;
	r->threads = 1;
	r->nglobal = 1;
	r->global_opts = calloc(1, sizeof(*r->global_opts));
	r->global_opts[0].key = strdup("thread");
	r->njobs = 2;
	r->jobs = calloc(2, sizeof(*r->jobs));
	for (size_t k = 0; k < 2; k++) {
		struct jr_job *j = &r->jobs[k];

		j->name = strdup(k ? "second" : "first");
		j->description = k ? NULL : strdup("described");
		j->groupid = (int)k;
		j->error = k ? 5 : 0;
		j->errmsg = k ? strdup("pwrite: Input/output error") : NULL;
		j->members = k ? 1 : 2;
		j->pid = 4242 + (int)k;
		j->end_time = 1764475260;
		j->nopts = 1;
		j->opts = calloc(1, sizeof(*j->opts));
		j->opts[0].key = strdup("rw");
		j->opts[0].value = strdup("randrw");
		j->kb_base = k ? 1000 : 1024;
		snprintf(j->rw, sizeof(j->rw), "randrw");
		snprintf(j->ioengine, sizeof(j->ioengine), k ? "io_uring" : "libaio");
		j->iodepth = 16;
		j->thread = 1;
		j->npct = 4;
		memcpy(j->pct_keys, pcts, sizeof(pcts));
		j->clat_percentiles = 1;
		j->lat_percentiles = (int)k;
		for (int d = 0; d < 2; d++) {
			struct jr_ddir *dd = &j->dir[d];

			j->bs_min[d] = 4096;
			j->bs_max[d] = 65536;
			dd->io_bytes = (k + 1) * 123456789ULL + (uint64_t)d;
			dd->runtime_ms = 10000 + k;
			dd->bw_bytes = dd->io_bytes * 1000 / dd->runtime_ms;
			dd->bw = dd->bw_bytes / 1024;
			dd->total_ios = dd->io_bytes / 8192;
			dd->iops = 1000.0 * (double)dd->total_ios / (double)dd->runtime_ms;
			dd->short_ios = 3;
			dd->drop_ios = 1;
			fill_lat(&dd->slat, 900, j, 0);
			fill_lat(&dd->clat, 250000 * (k + 1), j, 1);
			fill_lat(&dd->lat, 251000 * (k + 1), j, 1);
			dd->slat.npct = 0;
			if (!k)
				dd->lat.npct = 0;
			dd->bw_min = 1000;
			dd->bw_max = 20000;
			dd->bw_samples = 20;
			dd->bw_mean = 11111.25;
			dd->bw_dev = 123.5;
			dd->iops_min = 100;
			dd->iops_max = 2000;
			dd->iops_samples = 20;
			dd->iops_mean = 1500.5;
			dd->iops_stddev = 12.25;
		}
		j->sync_total_ios = 7;
		fill_lat(&j->sync_lat, 3000000, j, 1);
		j->job_runtime_ms = 20000;
		j->elapsed_s = 11;
		j->usr_cpu = 1.5;
		j->sys_cpu = 22.25;
		j->ctx = 99;
		j->majf = 1;
		j->minf = 77;
		for (int i = 0; i < JR_DEPTH_NR; i++) {
			j->iodepth_level[i] = i == 4 ? 99.5 : 0.1;
			j->iodepth_submit[i] = i == 1 ? 100 : 0;
			j->iodepth_complete[i] = i == 2 ? 99.9 : 0.1;
		}
		for (int i = 0; i < JR_LAT_M_NR; i++) {
			if (i < JR_LAT_N_NR) {
				j->latency_ns[i] = i == 9 ? 0.01 : 0;
				j->latency_us[i] = i * 1.5;
			}
			j->latency_ms[i] = i == 11 ? 0.02 : 0.01 * i;
		}
		j->latency_depth = 16;
		j->verify_blocks = k ? 0 : 512;
		j->verify_errors = k ? 0 : 2;
		j->bytes_per_loop = 1 << 20;
		j->loops_done = 3;
	}
	r->ndisks = 1;
	r->disks = calloc(1, sizeof(*r->disks));
	snprintf(r->disks[0].name, sizeof(r->disks[0].name), "md0");
	r->disks[0].ios[0] = 5;
	r->disks[0].ios[1] = 6;
	r->disks[0].merges[1] = 2;
	r->disks[0].ticks[0] = 40;
	r->disks[0].in_queue = 90;
	r->disks[0].util = 75.5;
}

static void test_every_field_round_trip(void)
{
	struct text json, normal, json_back, normal_back;
	struct jr_run r;
	FILE *f;

	make_run(&r);
	f = text_open(&json);
	CHECK(f && !report_json(f, &r, 1) && !fclose(f));
	f = text_open(&normal);
	CHECK(f && !report_normal(f, &r) && !fclose(f));
	jr_run_free(&r);
	CHECK(!load_and_print(json.s, json.len, &normal_back, &json_back, 1));
	if (normal_back.s && json_back.s) {
		CHECK(same_text("normal", normal.s, normal_back.s));
		CHECK(same_text("json", json.s, json_back.s));
		/* The fields that only iomatrix's keys carry made it. */
		CHECK(strstr(normal_back.s, "err= 5 (pwrite: Input/output error): pid=4243"));
		CHECK(strstr(normal_back.s, "Description  : [described]") != NULL);
		CHECK(strstr(normal_back.s, "verify    : blocks=512, bad=2") != NULL);
		CHECK(strstr(normal_back.s, "ioengine=io_uring, iodepth=16") != NULL);
	}
	free(json.s);
	free(normal.s);
	free(json_back.s);
	free(normal_back.s);
}

static int print_json(const char *json, struct text *out, char *err, size_t errlen)
{
	FILE *f = text_open(out);
	int rc;

	if (!f)
		return -1;
	rc = report_full_output(f, json, strlen(json), err, errlen);
	fclose(f);
	return rc;
}

/* fio's JSON of an older version: whatever is missing is zero. */
static void test_absent_keys(void)
{
	struct text t;
	char err[256];

	CHECK_EQ_INT(print_json("{\"jobs\":[{\"jobname\":\"old\",\"read\":{\"io_bytes\":4096,"
				"\"runtime\":2,\"total_ios\":1}}]}",
				&t, err, sizeof(err)),
		     0);
	if (t.s) {
		/* The header from the option defaults, the group line from io over runtime. */
		CHECK(strstr(t.s, "old: (g=0): rw=read, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) "
				  "4096B-4096B, ioengine=psync, iodepth=1\n") == t.s);
		CHECK(strstr(t.s, "Starting 1 process\n") != NULL);
		CHECK(strstr(t.s, "old: (groupid=0, jobs=1): err= 0: pid=0: ") != NULL);
		CHECK(strstr(t.s, "  read: IOPS=500, BW=2000KiB/s (2048kB/s)(4096B/2msec)\n"));
		CHECK(strstr(t.s, "   READ: bw=2000KiB/s (2048kB/s), 2000KiB/s-2000KiB/s") != NULL);
	}
	free(t.s);
	CHECK_EQ_INT(print_json("{\"jobs\":[]}", &t, err, sizeof(err)), 0);
	CHECK(t.s && strstr(t.s, "Starting 0 processes\n"));
	free(t.s);
}

/* The header from fio's options: its own engine names, rw without ":N", numjobs. */
static void test_header_from_fio_options(void)
{
	struct text t;
	char err[256];

	CHECK_EQ_INT(print_json("{\"global options\":{\"bs\":\"8k\",\"iodepth\":\"4\"},"
				"\"jobs\":[{\"jobname\":\"m\",\"job options\":{"
				"\"rw\":\"randread:8\",\"ioengine\":\"posixaio\","
				"\"numjobs\":\"3\",\"kb_base\":\"1000\"}}]}",
				&t, err, sizeof(err)),
		     0);
	/* bs=8k read with the global default kb_base, printed with the job's 1000 */
	CHECK(t.s && strstr(t.s, "m: (g=0): rw=randread, bs=(R) 8192B-8192B, (W) 8192B-8192B, (T) "
				 "8192B-8192B, ioengine=posixaio, iodepth=4\n...\n"));
	CHECK(t.s && strstr(t.s, "Starting 3 processes"));
	free(t.s);
	/* Clones reported apart are entries of one job each. */
	CHECK_EQ_INT(print_json("{\"jobs\":[{\"jobname\":\"c\","
				"\"job options\":{\"numjobs\":\"2\"}},{\"jobname\":\"c\","
				"\"job options\":{\"numjobs\":\"2\"}}]}",
				&t, err, sizeof(err)),
		     0);
	CHECK(t.s && strstr(t.s, "Starting 2 processes"));
	free(t.s);
}

static void expect_error(const char *json, const char *want)
{
	struct text t;
	char err[256] = "";

	CHECK_EQ_INT(print_json(json, &t, err, sizeof(err)), -1);
	if (!strstr(err, want)) {
		printf("# %s: error \"%s\", expected \"%s\"\n", json, err, want);
		check_failures++;
	}
	free(t.s);
}

static void test_malformed(void)
{
	expect_error("no json here\n", "no JSON object");
	expect_error("{\"jobs\":[", "cut off");
	expect_error("{\"a\":1}", "neither fio's JSON");
	expect_error("{\"jobs\":{}}", "no \"jobs\" array");
	expect_error("{\"jobs\":[1]}", "jobs[0]: not an object");
	expect_error("{\"jobs\":[{\"read\":{\"io_bytes\":\"x\"}}]}",
		     "jobs[0].read.io_bytes: not a number");
	expect_error("{\"jobs\":[{\"write\":{\"runtime\":-1}}]}",
		     "jobs[0].write.runtime: negative");
	expect_error("{\"jobs\":[{\"usr_cpu\":true}]}", "jobs[0].usr_cpu: not a number");
	expect_error("{\"jobs\":[{\"jobname\":5}]}", "jobs[0].jobname: not a string");
	expect_error("{\"jobs\":[{\"read\":{\"clat_ns\":{\"percentile\":{\"abc\":1}}}}]}",
		     "jobs[0].read.clat_ns.percentile.abc: not a percentile");
	expect_error("{\"jobs\":[{\"read\":{\"clat_ns\":{\"percentile\":{\"50.0\":1}}},"
		     "\"write\":{\"clat_ns\":{\"percentile\":{\"99.0\":1}}}}]}",
		     "jobs[0].write.clat_ns.percentile.99.0: not in the job's list of percentiles");
	expect_error("{\"jobs\":[{\"read\":{\"lat_ns\":{\"bins\":{\"1e3\":1}}}}]}",
		     "jobs[0].read.lat_ns.bins.1e3: not a latency in ns");
	expect_error("{\"jobs\":[{\"iomatrix\":{\"kb_base\":7}}]}",
		     "jobs[0].iomatrix.kb_base: neither 1000 nor 1024");
	expect_error("{\"jobs\":[{\"iomatrix\":{\"end_time\":99999999999999}}]}",
		     "jobs[0].iomatrix.end_time: not a time");
	expect_error("{\"jobs\":[{\"iomatrix\":{\"bs_min\":[1,2]}}]}",
		     "jobs[0].iomatrix.bs_min: not an array of 3 block sizes");
	expect_error("{\"jobs\":[],\"disk_util\":{}}", "disk_util: not an array");
	expect_error("{\"fio version\":\"fio-2.2.10\",\"jobs\":[]}", "only fio 3's is read");
	expect_error("{\"writers\":2,\"per_writer\":[{}]}", "writers is 2, but per_writer lists 1");
}

/* Notes before the JSON, a normal report after it (fio --output-format=json,normal). */
static void test_output_framing(void)
{
	static const char text[] = "note: both iodepth >= 1 and synchronous I/O engine\n"
				   "{\"jobs\":[]}\nx: (groupid=0 ...\n";
	json_object *root;
	size_t start, end;
	char err[256];

	CHECK_EQ_INT(jr_parse_output(text, sizeof(text) - 1, &root, &start, &end, err, sizeof(err)),
		     0);
	CHECK_EQ_INT(start, 51);
	CHECK_EQ_INT(end, 62);
	json_object_put(root);
}

static void test_dd_round_trip(void)
{
	struct dd_writer_result w[2] = {
		{ .file = "/mnt/a/dd.0", .io_bytes = 1 << 20, .elapsed_ns = 5000000,
		  .bw_bytes = 7 },
		{ .file = "/mnt/b/dd.1", .io_bytes = 1 << 20, .elapsed_ns = 6000000, .error = 28 },
	};
	struct dd_result r = {
		.writers = 2, .bs = 65536, .size_per_writer = 1 << 20, .io_bytes = 2 << 20,
		.elapsed_ns = 9000000, .write_ns = 6000000, .sync_ns = 3000000, .bw_bytes = 123456,
		.bw = 120, .filesystems_synced = 2, .directories = "/mnt/a:/mnt/b",
		.error = "writer 1: No space left on device", .per_writer = w,
	};
	struct text json, normal, back;
	char err[256];
	FILE *f;

	f = text_open(&json);
	CHECK(f && !dd_report_json(f, &r) && !fclose(f));
	f = text_open(&normal);
	CHECK(f && !dd_report_normal(f, &r) && !fclose(f));
	CHECK_EQ_INT(print_json(json.s, &back, err, sizeof(err)), 0);
	CHECK(back.s && same_text("dd", normal.s, back.s));
	free(json.s);
	free(normal.s);
	free(back.s);
}

/*
 * fio 3.33's own output (--output-format=json+,normal, in the fuzz corpus):
 * its JSON printed by report_normal is fio's text, but for what fio's JSON
 * does not hold: the pids (0 here). The job lines' dates are the JSON's
 * timestamp, the second fio printed them in. two-groups: clones reported
 * together, no blank line between job blocks. kb-base: a group whose last
 * job has kb_base=1000 (every job of it prints kB), fsync and lat
 * percentiles, a description, bandwidth samples, a bssplit.
 */
static void fio_333_output(const char *path)
{
	struct byte_buf b = { 0 };
	json_object *root;
	struct text t;
	size_t start, end;
	char err[256];
	FILE *f;

	if (byte_buf_read_file(&b, path, 1u << 20, err, sizeof(err)) ||
	    byte_buf_append(&b, "", 1)) {
		printf("# %s\n", err);
		check_failures++;
		return;
	}
	CHECK_EQ_INT(jr_parse_output((char *)b.data, b.len - 1, &root, &start, &end, err,
				     sizeof(err)),
		     0);
	json_object_put(root);
	f = text_open(&t);
	CHECK(f && !report_full_output(f, (char *)b.data, b.len - 1, err, sizeof(err)) &&
	      !fclose(f));
	if (t.s) {
		/* fio's text: its header lines, then (after the JSON) its job and group lines. */
		char *want = malloc(b.len), *p;

		memcpy(want, b.data, start);
		strcpy(want + start, (char *)b.data + end + 1);
		/* fio's pids are not in its JSON: the loaded report says 0. */
		for (p = strstr(want, " pid="); p; p = strstr(p, " pid=")) {
			size_t digits = strspn(p + 5, "0123456789");

			memmove(p + 6, p + 5 + digits, strlen(p + 5 + digits) + 1);
			p[5] = '0';
			p += 6;
		}
		CHECK(same_text(path, want, t.s));
		free(want);
	}
	free(t.s);
	byte_buf_free(&b);
}

static void test_fio_333_output(void)
{
	fio_333_output("tests/fuzz/corpus/jr_load/fio-3.33-two-groups.out");
	fio_333_output("tests/fuzz/corpus/jr_load/fio-3.33-kb-base.out");
}

int main(void)
{
	/* The fio output in the corpus was made in UTC: its dates are UTC. */
	setenv("TZ", "UTC", 1);
	tzset();
	if (!mkdtemp(workdir)) {
		perror(workdir);
		return 1;
	}
	RUN_TEST(test_runner_groups_and_clones);
	RUN_TEST(test_runner_many_fields);
	RUN_TEST(test_every_field_round_trip);
	RUN_TEST(test_absent_keys);
	RUN_TEST(test_header_from_fio_options);
	RUN_TEST(test_malformed);
	RUN_TEST(test_output_framing);
	RUN_TEST(test_dd_round_trip);
	RUN_TEST(test_fio_333_output);
	if (!check_total_failed) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", workdir);
		if (system(cmd))
			printf("# could not remove %s\n", workdir);
	}
	CHECK_EXIT();
}

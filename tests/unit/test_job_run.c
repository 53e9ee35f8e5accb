// SPDX-License-Identifier: GPL-2.0
/* Running job sets with the null engine: rwmix, loops, clones, groups, reports. */
#include <stdlib.h>

#include "check.h"
#include "matrix/job_parse.h"
#include "runner/engine/job_run.h"
#include "records/report.h"

static int run_text(const char *text, struct jr_run *run)
{
	struct job_set js;
	char err[JOB_ERR_LEN];
	int rc;

	job_set_init(&js);
	js.output_format = OUTPUT_JSON_PLUS; /* keep the histogram bins */
	rc = job_parse_buffer(&js, "t.fio", text, strlen(text), err, sizeof(err));
	if (!rc)
		rc = job_set_validate(&js, err, sizeof(err));
	if (!rc)
		rc = job_run(&js, run, err, sizeof(err));
	if (rc)
		printf("# %s\n", err);
	job_set_free(&js);
	return rc;
}

static void test_rwmix_ratio(void)
{
	struct jr_run run;

	CHECK_EQ_INT(run_text("[m]\nioengine=null\nsize=64m\nrw=randrw\nrwmixread=70\nthread\n",
			      &run), 0);
	if (run.njobs == 1) {
		double r = (double)run.jobs[0].dir[DDIR_READ].total_ios;
		double w = (double)run.jobs[0].dir[DDIR_WRITE].total_ios;

		/* every block once: 16384 IOs in all */
		CHECK_EQ_INT(r + w, 16384);
		CHECK(r / (r + w) > 0.68 && r / (r + w) < 0.72);
	}
	jr_run_free(&run);
}

static void test_loops_and_io_size(void)
{
	struct jr_run run;

	CHECK_EQ_INT(run_text("[l]\nioengine=null\nsize=1m\nrw=read\nloops=3\nthread\n", &run), 0);
	if (run.njobs == 1) {
		CHECK_EQ_INT(run.jobs[0].dir[DDIR_READ].total_ios, 768);
		CHECK_EQ_INT(run.jobs[0].loops_done, 3);
	}
	jr_run_free(&run);
	CHECK_EQ_INT(run_text("[l]\nioengine=null\nsize=1m\nio_size=256k\nrw=write\nbs=64k\n",
			      &run), 0);
	if (run.njobs == 1)
		CHECK_EQ_INT(run.jobs[0].dir[DDIR_WRITE].total_ios, 4);
	jr_run_free(&run);
}

/* A tail shorter than the block is not done, as fio 3.33 does (131 x 8000 of 1 MiB). */
static void test_tail_shorter_than_a_block(void)
{
	struct jr_run run;

	CHECK_EQ_INT(run_text("[t]\nioengine=null\nsize=1m\nrw=read\nbs=8000\nthread\n", &run), 0);
	CHECK_EQ_INT(run.njobs, 1);
	if (run.njobs == 1) {
		CHECK_EQ_INT(run.jobs[0].dir[DDIR_READ].total_ios, 131);
		CHECK_EQ_INT(run.jobs[0].dir[DDIR_READ].io_bytes, 1048000);
		CHECK_EQ_INT(run.jobs[0].dir[DDIR_READ].short_ios, 0);
	}
	jr_run_free(&run);
}

static void test_clones_groups_and_reporting(void)
{
	struct jr_run run;

	CHECK_EQ_INT(run_text("[global]\nioengine=null\nsize=1m\nthread\n"
			      "[a]\nnumjobs=3\ngroup_reporting\n"
			      "[b]\nstonewall\nnumjobs=2\n",
			      &run), 0);
	CHECK_EQ_INT(run.njobs, 3); /* a (3 merged), b, b */
	if (run.njobs == 3) {
		CHECK_EQ_STR(run.jobs[0].name, "a");
		CHECK_EQ_INT(run.jobs[0].members, 3);
		CHECK_EQ_INT(run.jobs[0].groupid, 0);
		CHECK_EQ_INT(run.jobs[0].dir[DDIR_READ].total_ios, 3 * 256);
		CHECK_EQ_INT(run.jobs[1].groupid, 1);
		CHECK_EQ_INT(run.jobs[1].members, 1);
		CHECK_EQ_INT(run.jobs[2].dir[DDIR_READ].total_ios, 256);
	}
	CHECK_EQ_INT(run.started, 5);
	/* Both reports render what was run. */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK_EQ_INT(report_normal(f, &run), 0);
	CHECK_EQ_INT(report_json(f, &run, 1), 0);
	fclose(f);
	CHECK(strstr(buf, "a: (groupid=0, jobs=3): err= 0") != NULL);
	CHECK(strstr(buf, "Run status group 1 (all jobs):") != NULL);
	CHECK(strstr(buf, "\"bins\"") != NULL);
	free(buf);
	jr_run_free(&run);
}

static void test_processes_report_back(void)
{
	struct jr_run run;

	/* Forked workers hand their statistics back through shared memory. */
	CHECK_EQ_INT(run_text("[p]\nioengine=null\nsize=2m\nrw=randread\nnumjobs=2\n", &run), 0);
	CHECK_EQ_INT(run.njobs, 2);
	for (size_t i = 0; i < run.njobs; i++)
		CHECK_EQ_INT(run.jobs[i].dir[DDIR_READ].total_ios, 512);
	jr_run_free(&run);
}

static void test_block_sizes_files_distributions(void)
{
	struct jr_run run;

	/* bssplit: the average IO lies between the sizes, weighted as asked. */
	CHECK_EQ_INT(run_text("[s]\nioengine=null\nsize=64m\nrw=randread\nnorandommap\n"
			      "bssplit=4k/50:64k/50\nthread\n", &run), 0);
	if (run.njobs == 1) {
		double avg = (double)run.jobs[0].dir[DDIR_READ].io_bytes /
			     (double)run.jobs[0].dir[DDIR_READ].total_ios;

		CHECK(avg > 30000 && avg < 38000); /* (4k+64k)/2 = 34816 */
	}
	jr_run_free(&run);
	/* Four files of 1 MiB: sequential IO goes round them, every block once. */
	CHECK_EQ_INT(run_text("[f]\nioengine=null\nsize=4m\nnrfiles=4\nrw=read\nthread\n", &run),
		     0);
	if (run.njobs == 1)
		CHECK_EQ_INT(run.jobs[0].dir[DDIR_READ].total_ios, 1024);
	jr_run_free(&run);
	CHECK_EQ_INT(run_text("[z]\nioengine=null\nsize=16m\nrw=randread\n"
			      "random_distribution=zipf:1.1\nthread\n", &run), 0);
	if (run.njobs == 1)
		CHECK_EQ_INT(run.jobs[0].dir[DDIR_READ].total_ios, 4096);
	jr_run_free(&run);
}

static uint64_t reads_with_seed(const char *seed)
{
	char text[256];
	struct jr_run run;
	uint64_t reads = 0;

	snprintf(text, sizeof(text),
		 "[s]\nioengine=null\nsize=4m\nrw=randrw\nbssplit=4k/50:8k/50\nrandseed=%s\nthread\n",
		 seed);
	if (!run_text(text, &run) && run.njobs == 1)
		reads = run.jobs[0].dir[DDIR_READ].io_bytes;
	jr_run_free(&run);
	return reads;
}

static void test_randseed_repeats(void)
{
	uint64_t a = reads_with_seed("89"), b = reads_with_seed("89"), c = reads_with_seed("90");

	/* The rwmix and block-size draws repeat exactly for one seed, not for another. */
	CHECK(a > 0);
	CHECK_EQ_INT(a, b);
	CHECK(a != c);
}

static void test_rate_limits(void)
{
	struct jr_run run;

	/* 200 IOs at 1000 IOPS cannot take less than ~0.2 s (a lower bound only). */
	CHECK_EQ_INT(run_text("[r]\nioengine=null\nsize=800k\nrw=read\nrate_iops=1000\nthread\n",
			      &run), 0);
	if (run.njobs == 1) {
		CHECK_EQ_INT(run.jobs[0].dir[DDIR_READ].total_ios, 200);
		CHECK(run.jobs[0].dir[DDIR_READ].runtime_ms >= 190);
	}
	jr_run_free(&run);
}

int main(void)
{
	RUN_TEST(test_rwmix_ratio);
	RUN_TEST(test_loops_and_io_size);
	RUN_TEST(test_tail_shorter_than_a_block);
	RUN_TEST(test_clones_groups_and_reporting);
	RUN_TEST(test_processes_report_back);
	RUN_TEST(test_block_sizes_files_distributions);
	RUN_TEST(test_rate_limits);
	RUN_TEST(test_randseed_repeats);
	CHECK_EXIT();
}

// SPDX-License-Identifier: GPL-2.0
/* Job files, the command line, --set and the option table. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "matrix/job_parse.h"

static int parse_text(struct job_set *js, const char *text, char *err)
{
	job_set_init(js);
	if (job_parse_buffer(js, "t.fio", text, strlen(text), err, JOB_ERR_LEN))
		return -1;
	return job_set_validate(js, err, JOB_ERR_LEN);
}

static int parse_argv(struct job_set *js, char **argv, char *err)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	job_set_init(js);
	return job_parse_args(js, argc, argv, err, JOB_ERR_LEN);
}

/* Seed 004's dio_randrw.fio, verbatim. */
static const char seed004_randrw[] = "[global]\n"
				     "ioengine=psync\n"
				     "rw=randrw\n"
				     "runtime=60\n"
				     "iodepth=1\n"
				     "direct=1\n"
				     "size=10G\n"
				     "filename=./testfile\n"
				     "group_reporting=1\n"
				     "thread=1\n"
				     ";bs=$bs\n"
				     ";numjobs=24\n"
				     "[fio-run]\n";

static void test_seed_job_file(void)
{
	struct job_set js;
	char err[JOB_ERR_LEN] = "";

	CHECK_EQ_INT(parse_text(&js, seed004_randrw, err), 0);
	CHECK_EQ_INT(js.njobs, 1);
	if (js.njobs == 1) {
		const struct job_options *o = &js.jobs[0].o;

		CHECK_EQ_STR(o->name, "fio-run");
		CHECK_EQ_INT(o->ioengine, ENGINE_PSYNC);
		CHECK_EQ_INT(o->rw, RW_RANDRW);
		CHECK_EQ_INT(o->runtime_us, 60000000);
		CHECK_EQ_INT(o->direct, 1);
		CHECK_EQ_INT(o->size, 10737418240ULL);
		CHECK_EQ_STR(o->filename, "./testfile");
		CHECK_EQ_INT(o->group_reporting, 1);
		CHECK_EQ_INT(o->thread, 1);
		CHECK_EQ_INT(o->bs[DDIR_READ], 4096);
		CHECK_EQ_INT(o->numjobs, 1);
		CHECK_EQ_INT(o->rwmixread, 50);
		CHECK_EQ_INT(o->percentile_n, 17);
		CHECK_EQ_INT(js.jobs[0].kv.n, 0);
		CHECK_EQ_INT(js.global_kv.n, 9);
	}
	job_set_free(&js);
}

static void test_cmdline_jobs_and_defaults(void)
{
	/* Seed 003's command line, and seed 001's single-dash form with a separate value. */
	char *argv003[] = { "fio", "--name=/media/scratch/seqread", "--rw=read", "--direct=0",
			    "--ioengine=sync", "--bs=4k", "--numjobs=1", "--size=1G",
			    "--runtime=600", "--group_reporting", "--loop", "10", NULL };
	char *argv001[] = { "fio", "-filename=/mnt/nvme0n1/fio_read_test.txt", "-buffered=1",
			    "-iodepth", "8", "-rw=randread", "-ioengine=io_uring",
			    "-randseed=89", "-runtime=10s", "-norandommap", "-direct=0",
			    "-bs=4k", "-size=4G", "-name=rand_read_4k", NULL };
	struct job_set js;
	char err[JOB_ERR_LEN] = "";

	CHECK_EQ_INT(parse_argv(&js, argv003, err), 0);
	CHECK_EQ_INT(js.njobs, 1);
	if (js.njobs == 1) {
		CHECK_EQ_INT(js.jobs[0].o.loops, 10);
		CHECK_EQ_INT(js.jobs[0].o.ioengine, ENGINE_SYNC);
		CHECK_EQ_INT(js.jobs[0].o.group_reporting, 1);
		CHECK_EQ_INT(js.jobs[0].o.runtime_us, 600000000ULL);
	}
	job_set_free(&js);

	/* Options before -name are defaults the job inherits. */
	CHECK_EQ_INT(parse_argv(&js, argv001, err), 0);
	CHECK_EQ_INT(js.njobs, 1);
	if (js.njobs == 1) {
		const struct job_options *o = &js.jobs[0].o;

		CHECK_EQ_INT(o->iodepth, 8);
		CHECK_EQ_INT(o->randseed, 89);
		CHECK_EQ_INT(o->norandommap, 1);
		CHECK_EQ_INT(o->direct, 0);
		CHECK_EQ_INT(o->runtime_us, 10000000);
		CHECK_EQ_INT(o->ioengine, ENGINE_IO_URING);
		CHECK_EQ_STR(o->name, "rand_read_4k");
	}
	job_set_free(&js);
}

static void test_global_overrides_cmdline_defaults(void)
{
	/* fio 3.33: "fio --bs=8k job.fio" loses to the job file's [global] bs=4k ... */
	char dir[] = "/tmp/iomatrix-jp-XXXXXX", path[128], err[JOB_ERR_LEN] = "";
	struct job_set js;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/j.fio", dir);
	f = fopen(path, "w");
	fputs("[global]\nioengine=null\nsize=1m\nbs=4k\n[a]\nrw=read\n[b]\nnumjobs=2\n", f);
	fclose(f);
	char *argv[] = { "fio", "--bs=8k", "--iodepth=4", path, NULL };

	CHECK_EQ_INT(parse_argv(&js, argv, err), 0);
	CHECK_EQ_INT(js.njobs, 2);
	if (js.njobs == 2) {
		CHECK_EQ_INT(js.jobs[0].o.bs[DDIR_READ], 4096);
		CHECK_EQ_INT(js.jobs[0].o.iodepth, 4); /* ... but keeps what it does not set */
	}
	job_set_free(&js);

	/* ... while --set (iomatrix) wins over everything. */
	char *argv2[] = { "fio", "--set", "bs=64k", "--set=numjobs=3", path, NULL };
	CHECK_EQ_INT(parse_argv(&js, argv2, err), 0);
	for (size_t i = 0; i < js.njobs; i++) {
		CHECK_EQ_INT(js.jobs[i].o.bs[DDIR_WRITE], 65536);
		CHECK_EQ_INT(js.jobs[i].o.numjobs, 3);
	}
	job_set_free(&js);

	char *argv3[] = { "fio", "--set", "bs=banana", path, NULL };
	CHECK_EQ_INT(parse_argv(&js, argv3, err), -1);
	CHECK(strstr(err, "--set bs=banana") && strstr(err, "'bs'"));
	job_set_free(&js);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CHECK_EQ_INT(system(path), 0);
}

static void test_errors_name_option_and_line(void)
{
	struct job_set js;
	char err[JOB_ERR_LEN] = "";

	CHECK_EQ_INT(parse_text(&js, "[j]\nsize=1m\nfrobnicate=1\n", err), -1);
	CHECK_EQ_STR(err, "t.fio:3: unknown option 'frobnicate' (see --cmdhelp)");
	job_set_free(&js);
	CHECK_EQ_INT(parse_text(&js, "[j]\nsize=1m\nbs=4q\n", err), -1);
	CHECK(strstr(err, "t.fio:3: option 'bs': bad value '4q'") == err);
	job_set_free(&js);
	CHECK_EQ_INT(parse_text(&js, "[j]\nsize=1m\nrw=sideways\n", err), -1);
	CHECK(strstr(err, "one of read, write") != NULL);
	job_set_free(&js);
	CHECK_EQ_INT(parse_text(&js, "[j]\nsize=1m\nrwmixread=101\n", err), -1);
	CHECK(strstr(err, "t.fio:3: option 'rwmixread'") == err);
	job_set_free(&js);
	/* An engine's own option with another engine. */
	CHECK_EQ_INT(parse_text(&js, "[j]\nsize=1m\nioengine=libaio\nhipri\n", err), -1);
	CHECK_EQ_STR(err, "t.fio:4: job 'j': option 'hipri' belongs to ioengine=io_uring, not libaio");
	job_set_free(&js);
	CHECK_EQ_INT(parse_text(&js, "[j]\nrw=read\n", err), -1);
	CHECK(strstr(err, "t.fio:1: job 'j': you need to specify size=") == err);
	job_set_free(&js);
	CHECK_EQ_INT(parse_text(&js, "[j]\nsize=1m\ntime_based\n", err), -1);
	CHECK(strstr(err, "t.fio:3:") == err);
	job_set_free(&js);

	CHECK_EQ_INT(parse_text(&js, "[j]\nsize=1m\nrw=randwrite\nnorandommap\nverify=crc32c\n", err),
		     -1);
	CHECK(strstr(err, "t.fio:5: job 'j': verify needs every block written once") == err);
	job_set_free(&js);
	CHECK_EQ_INT(parse_text(&js, "[j]\nsize=1m\nrw=write\nbsrange=4k-16k\nverify=crc32c\n", err),
		     -1);
	CHECK(strstr(err, "verify needs a fixed block size") != NULL);
	job_set_free(&js);

	char *argv[] = { "fio", "--name=x", "--size=1m", "--bogus=1", NULL };
	CHECK_EQ_INT(parse_argv(&js, argv, err), -1);
	CHECK(strstr(err, "command line: unknown option '--bogus'") == err);
	job_set_free(&js);
}

static void test_values(void)
{
	struct job_set js;
	char err[JOB_ERR_LEN] = "";

	CHECK_EQ_INT(parse_text(&js,
				"[global]\nsize=$pagesize*4\n[j]\nbs=4k,64k\nrwmixwrite=30\n"
				"bssplit=4k/10:64k/50:1m/,8k\npercentile_list=99.9:50\n"
				"random_distribution=zipf:1.2\nrate=1m,2m\nbuffered=1\n"
				"ramp_time=500ms\n",
				err),
		     0);
	if (js.njobs == 1) {
		const struct job_options *o = &js.jobs[0].o;

		CHECK_EQ_INT(o->size, 4 * sysconf(_SC_PAGESIZE));
		CHECK_EQ_INT(o->bssplit_n[DDIR_READ], 3);
		CHECK_EQ_INT(o->bssplit[DDIR_READ][2].pct, 40);
		CHECK_EQ_INT(o->bssplit_n[DDIR_WRITE], 1);
		CHECK_EQ_INT(o->bssplit[DDIR_WRITE][0].bs, 8192);
		CHECK_EQ_INT(o->rwmixread, 70);
		CHECK_EQ_INT(o->percentile_n, 2);
		CHECK(o->percentile_list[0] == 50.0 && o->percentile_list[1] == 99.9);
		CHECK_EQ_INT(o->random_distribution, DIST_ZIPF);
		CHECK_EQ_INT(o->rate[DDIR_READ], 1048576);
		CHECK_EQ_INT(o->rate[DDIR_WRITE], 2097152);
		CHECK_EQ_INT(o->direct, 0);
		CHECK_EQ_INT(o->ramp_time_us, 500000);
	}
	job_set_free(&js);
	CHECK_EQ_INT(parse_text(&js, "[j]\nsize=50%\nbs=,16k\n", err), 0);
	if (js.njobs == 1) {
		CHECK_EQ_INT(js.jobs[0].o.size_pct, 50000);
		CHECK_EQ_INT(js.jobs[0].o.bs[DDIR_READ], 4096);
		CHECK_EQ_INT(js.jobs[0].o.bs[DDIR_WRITE], 16384);
	}
	job_set_free(&js);
}

/* fio reads kb_base first in a section, wherever it is written. */
static void test_kb_base_applies_to_the_whole_section(void)
{
	struct job_set js;
	char err[JOB_ERR_LEN] = "";

	CHECK_EQ_INT(parse_text(&js, "[j]\nbsrange=4k-16k\nsize=1m\nkb_base=1000\n", err), 0);
	CHECK_EQ_INT(js.njobs, 1);
	if (js.njobs == 1) {
		CHECK_EQ_INT(js.jobs[0].o.bs_min[DDIR_READ], 4000);
		CHECK_EQ_INT(js.jobs[0].o.bs_max[DDIR_READ], 16000);
		CHECK_EQ_INT(js.jobs[0].o.size, 1000000);
	}
	job_set_free(&js);
	/* the global section's sizes keep the global kb_base */
	CHECK_EQ_INT(parse_text(&js, "[global]\nsize=1m\n[j]\nbs=8k\nkb_base=1000\n", err), 0);
	CHECK_EQ_INT(js.njobs, 1);
	if (js.njobs == 1) {
		CHECK_EQ_INT(js.jobs[0].o.size, 1048576);
		CHECK_EQ_INT(js.jobs[0].o.bs[DDIR_READ], 8000);
	}
	job_set_free(&js);
}

static void test_cmdhelp_covers_table(void)
{
	FILE *f = tmpfile();
	char line[256];
	size_t lines = 0;

	CHECK(f != NULL);
	CHECK_EQ_INT(option_print_help(f, NULL), 0);
	rewind(f);
	while (fgets(line, sizeof(line), f))
		lines++;
	fclose(f);
	CHECK_EQ_INT(lines, option_count);
	CHECK_EQ_INT(option_print_help(stdout, "nosuchoption"), -1);
}

int main(void)
{
	RUN_TEST(test_seed_job_file);
	RUN_TEST(test_cmdline_jobs_and_defaults);
	RUN_TEST(test_global_overrides_cmdline_defaults);
	RUN_TEST(test_errors_name_option_and_line);
	RUN_TEST(test_values);
	RUN_TEST(test_kb_base_applies_to_the_whole_section);
	RUN_TEST(test_cmdhelp_covers_table);
	CHECK_EXIT();
}

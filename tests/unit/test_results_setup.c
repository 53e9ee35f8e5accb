// SPDX-License-Identifier: GPL-2.0
/*
 * The results log at boot: a new run writes its description and notes
 * "started"; a resumed run leaves the progress slot naming the run the last
 * boot died in until that run's crashed record is written, so a boot that
 * dies before that loses nothing.
 */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "runner/results/results_setup.h"

static char dir[] = "/tmp/iomatrix-rsetup-XXXXXX";
static char path[600];
static struct run_results rr;
static struct appliance_config cfg = {.results_init = RESULTS_INIT_YES};
static struct run_plan want;

static void reopen(void)
{
	char err[RLOG_ERR_LEN];

	memset(&rr, 0, sizeof(rr));
	CHECK_EQ_INT(rlog_open(&rr.ch.log, path, resume_visit, &rr.res, err, sizeof(err)), 0);
	rr.ch.have_log = true;
}

static struct rlog_progress slot(void)
{
	struct results_log log;
	struct rlog_progress p = {0};
	char err[RLOG_ERR_LEN];

	CHECK_EQ_INT(rlog_open(&log, path, NULL, NULL, err, sizeof(err)), 0);
	CHECK(log.has_progress);
	p = log.progress;
	rlog_close(&log);
	return p;
}

static void test_new_run_started(void)
{
	char err[RESULTS_ERR_LEN];
	struct rlog_progress p;

	memset(&rr, 0, sizeof(rr));
	CHECK_EQ_INT(results_open_log(&rr.ch.log, path, RESULTS_INIT_YES, "r1", NULL, NULL, err,
				      sizeof(err)),
		     RESULTS_LOG_INITIALISED);
	rr.ch.have_log = true;
	rr.boot = 1;
	results_setup_plan(&rr, &cfg, &want);
	CHECK_EQ_STR(rr.run_id, "r1");
	p = slot();
	CHECK_EQ_INT(p.state, RLOG_IDLE);
	CHECK_EQ_STR(p.note, "started");
	CHECK_EQ_INT(p.boots, 1);
	/* the description reads back as written: a serial with a space stays itself */
	{
		char text[RLOG_RUN_INFO_MAX + 1], err2[RLOG_ERR_LEN];
		struct run_plan back;
		size_t n = 0;

		CHECK_EQ_INT(rlog_run_info_read(&rr.ch.log, text, sizeof(text), &n, err2,
						sizeof(err2)),
			     1);
		CHECK_EQ_INT(run_plan_parse(text, n, &back, err2, sizeof(err2)), 0);
		CHECK_EQ_STR(back.disks, want.disks);
	}
	/* then the run dies in cell 3's setup */
	results_setup_progress(&rr, RLOG_CELL, 3, want.cells, 0, 1, "setup:scheduler");
	results_setup_close(&rr);
}

static void test_resumed_keeps_the_slot(void)
{
	struct rlog_progress p;

	reopen();
	rr.resumed = rr.has_info = true;
	rr.info = want;
	rr.had_progress = rr.ch.log.has_progress;
	rr.last = rr.ch.log.progress;
	rr.boot = rr.last.boots + 1;
	results_setup_plan(&rr, &cfg, &want);
	/* nothing recorded yet: the slot still names the run boot 1 died in */
	p = slot();
	CHECK_EQ_INT(p.state, RLOG_CELL);
	CHECK_EQ_INT(p.cell_index, 3);
	CHECK_EQ_STR(p.note, "setup:scheduler");
	CHECK_EQ_INT(p.boots, 1);
	/* the crashed record written, the caller notes the boot */
	results_setup_progress(&rr, RLOG_IDLE, 0, want.cells, 0, 2, "resumed");
	p = slot();
	CHECK_EQ_INT(p.state, RLOG_IDLE);
	CHECK_EQ_INT(p.boots, 2);
	results_setup_close(&rr);
}

int main(void)
{
	char cmd[700];

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/results.img", dir);
	snprintf(cmd, sizeof(cmd), "truncate -s 4M %s", path);
	if (system(cmd))
		return 1;
	snprintf(want.matrix, sizeof(want.matrix), "resume");
	snprintf(want.kernel, sizeof(want.kernel), "6.1.0");
	want.scale = 1;
	want.cells = 4;
	want.plan = 0x1234;
	snprintf(want.disks, sizeof(want.disks), "iomatrix-disk0,WD-WX1 2345 #7");
	RUN_TEST(test_new_run_started);
	RUN_TEST(test_resumed_keeps_the_slot);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	CHECK_EXIT();
}

// SPDX-License-Identifier: GPL-2.0
/* Resuming: the run description, which runs are done, which one crashed. */
#include <stdlib.h>

#include "check.h"
#include "matrix/matrix.h"
#include "runner/results/resume.h"

static const char matrix_text[] = "[matrix]\n"
				  "name = t\n"
				  "repeats = 2\n"
				  "[dimensions]\n"
				  "fs = ext4 xfs\n"
				  "array = jbod raid0\n"
				  "[defaults]\n"
				  "disks = 2\n"
				  "workload = w\n"
				  "[workload.w]\n"
				  "writers = 1\n"
				  "bs = 1m\n"
				  "size = 4m\n";

static struct cell_list cl;
static struct matrix *m;

static void load(void)
{
	struct matrix_load_opts lo = {0};
	struct machine mc = {
		.ndisks = 2, .disk_bytes = {1ull << 30, 1ull << 30}, .mem_bytes = 2ull << 30};
	char err[MATRIX_ERR_LEN];

	m = matrix_load_buffer("t.matrix", matrix_text, sizeof(matrix_text) - 1, &lo, err,
			       sizeof(err));
	if (!m)
		printf("# %s\n", err);
	CHECK(m != NULL);
	if (m)
		CHECK_EQ_INT(matrix_expand(m, &mc, 0, &cl, err, sizeof(err)), 0);
}

static void test_plan_round_trip(void)
{
	struct run_plan a, b;
	char text[2048], err[RESUME_ERR_LEN];
	size_t n;

	run_plan_of(&a, "t", "6.1.0-57-amd64", &cl);
	snprintf(a.disks, sizeof(a.disks), "iomatrix-disk0,iomatrix-disk1");
	CHECK_EQ_INT(a.cells, 4);
	n = run_plan_format(&a, text, sizeof(text));
	CHECK(n > 0);
	CHECK(strstr(text, "[run]\nmatrix = t\nkernel = 6.1.0-57-amd64\nscale = 1\ncells = 4\n") ==
	      text);
	CHECK_EQ_INT(run_plan_parse(text, n, &b, err, sizeof(err)), 0);
	CHECK_EQ_STR(b.matrix, "t");
	CHECK_EQ_STR(b.kernel, "6.1.0-57-amd64");
	CHECK_EQ_STR(b.disks, "iomatrix-disk0,iomatrix-disk1");
	CHECK_EQ_INT(b.plan, a.plan);
	CHECK(b.scale == a.scale);
	CHECK(run_plan_differs(&b, &a, true, err, sizeof(err)) == NULL);
	CHECK_EQ_INT(run_plan_format(&a, text, 40), 0);
}

static void test_plan_differences(void)
{
	struct run_plan a, b;
	char why[RESUME_ERR_LEN];

	run_plan_of(&a, "t", "6.1.0", &cl);
	b = a;
	snprintf(b.kernel, sizeof(b.kernel), "6.2.0");
	CHECK_EQ_STR(run_plan_differs(&b, &a, false, why, sizeof(why)),
		     "kernel 6.2.0, this boot runs 6.1.0");
	b = a;
	snprintf(b.matrix, sizeof(b.matrix), "quick");
	CHECK_EQ_STR(run_plan_differs(&b, &a, false, why, sizeof(why)),
		     "matrix quick, this boot runs t");
	/* the plan: only once it is known */
	b = a;
	b.plan ^= 1;
	CHECK(run_plan_differs(&b, &a, false, why, sizeof(why)) == NULL);
	CHECK(strstr(run_plan_differs(&b, &a, true, why, sizeof(why)), "4 cells (plan ") != NULL);
	b = a;
	b.scale = 0.5;
	CHECK_EQ_STR(run_plan_differs(&b, &a, true, why, sizeof(why)),
		     "scale 0.5, this boot's is 1");
	/* more repeats make another plan */
	cl.cells[0].repeats = 3;
	run_plan_of(&b, "t", "6.1.0", &cl);
	cl.cells[0].repeats = 2;
	CHECK(b.plan != a.plan);
}

static void test_plan_parse_errors(void)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{"[run]\nmatrix = t\n", "kernel missing"},
		{"[run]\nmatrix = t\nkernel = k\nscale = x\n", "scale = x: not a number"},
		{"[run]\nbogus = 1\n", "line 2: unknown key 'bogus'"},
		{"[other]\n", "line 1: the first line is not [run]"},
		{"matrix = t\n", "the first line is not [run]"},
		{"[run]\ninclude /dev/vda\n", "line 2: a line without '='"},
		{"[run]\nmatrix = a\x01b\n", "line 2: not text"},
		{"[run]\nmatrix=t\nkernel=k\nscale=1\ncells=-3\nplan=0\ndisks=\n",
		 "cells = -3: not a number"},
		{"[run]\nmatrix=t\nkernel=k\nscale=1\ncells=2\nplan=123456789\ndisks=\n",
		 "plan = 123456789: not a number"},
	};
	struct run_plan p;
	char err[RESUME_ERR_LEN];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CHECK_EQ_INT(run_plan_parse(bad[i].text, strlen(bad[i].text), &p, err, sizeof(err)),
			     -1);
		if (!strstr(err, bad[i].why))
			printf("# %zu: %s\n", i, err);
		CHECK(strstr(err, bad[i].why) != NULL);
	}
}

static void add(struct resume *r, uint32_t seq, uint32_t cell, uint32_t repeat, bool intact)
{
	struct rlog_item it = {.seq = seq, .cell_index = cell, .repeat = repeat};

	it.data = intact ? "{}" : NULL;
	it.damage = intact ? NULL : "payload CRC mismatch";
	CHECK_EQ_INT(resume_visit(r, &it), 0);
}

static void test_done_and_crashed(void)
{
	struct resume r = {0};
	struct rlog_progress p = {.state = RLOG_CELL, .cell_index = 3, .repeat = 1};
	bool done[8] = {false};
	int cell = 0, repeat = 0;

	add(&r, 1, 1, 0, true);
	add(&r, 2, 1, 1, true);
	add(&r, 3, 2, 0, false); /* damaged: runs again */
	add(&r, 4, 2, 1, true);
	add(&r, 5, 3, 0, true);
	add(&r, 6, 9, 0, true); /* fits no cell */
	add(&r, 7, 4, 2, true); /* nor a repeat */
	add(&r, 8, RLOG_NO_CELL, RLOG_NO_CELL, true);
	CHECK_EQ_INT(r.n, 7);
	CHECK_EQ_INT(r.damaged, 1);
	CHECK_EQ_INT(resume_mark_done(&r, &cl, 2, done), 3);
	CHECK(done[0] && done[1] && !done[2] && done[3] && done[4] && !done[5]);
	CHECK(!done[6] && !done[7]);

	/* cell 3 repeat 1 was running and has no record: crashed */
	CHECK(resume_crashed_run(&p, true, &cl, 2, done, &cell, &repeat));
	CHECK_EQ_INT(cell, 3);
	CHECK_EQ_INT(repeat, 1);
	/* a record made it before the machine died: not crashed */
	p.repeat = 0;
	CHECK(!resume_crashed_run(&p, true, &cl, 2, done, &cell, &repeat));
	/* between cells, after the end, no slot, a slot out of the plan */
	p.repeat = 1;
	p.state = RLOG_IDLE;
	CHECK(!resume_crashed_run(&p, true, &cl, 2, done, &cell, &repeat));
	p.state = RLOG_CELL;
	CHECK(!resume_crashed_run(&p, false, &cl, 2, done, &cell, &repeat));
	p.cell_index = 5;
	CHECK(!resume_crashed_run(&p, true, &cl, 2, done, &cell, &repeat));
	p.cell_index = 0;
	CHECK(!resume_crashed_run(&p, true, &cl, 2, done, &cell, &repeat));
	resume_free(&r);
}

int main(void)
{
	RUN_TEST(load); /* its checks count too */
	if (!m)
		return 1;
	RUN_TEST(test_plan_round_trip);
	RUN_TEST(test_plan_differences);
	RUN_TEST(test_plan_parse_errors);
	RUN_TEST(test_done_and_crashed);
	cell_list_free(&cl);
	matrix_free(m);
	CHECK_EXIT();
}

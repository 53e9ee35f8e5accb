// SPDX-License-Identifier: GPL-2.0
/* The order of a matrix's runs: repeats as the outer loop, done runs passed over. */
#include "check.h"
#include "matrix/run_order.h"

#define NCELLS 4

static struct cell cells[NCELLS];
static struct cell_list cl = {.count = NCELLS, .cells = cells};

static void set_repeats(int a, int b, int c, int d)
{
	const int r[NCELLS] = {a, b, c, d};

	for (int i = 0; i < NCELLS; i++)
		cells[i] = (struct cell){.index = i + 1, .repeats = r[i]};
}

/* The order as "1/0 2/0 ...", cell index / repeat. */
static const char *order(const bool *done)
{
	static char buf[512];
	struct run_order o;
	const struct cell *c;
	size_t used = 0;
	int repeat;

	buf[0] = '\0';
	run_order_start(&o, &cl, done);
	while (run_order_next(&o, &c, &repeat) && used < sizeof(buf))
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%d/%d", used ? " " : "",
					 c->index, repeat);
	return buf;
}

static void test_repeats_outer(void)
{
	set_repeats(1, 1, 1, 1);
	CHECK_EQ_STR(order(NULL), "1/0 2/0 3/0 4/0");
	set_repeats(3, 3, 3, 3);
	CHECK_EQ_INT(run_order_stride(&cl), 3);
	CHECK_EQ_STR(order(NULL), "1/0 2/0 3/0 4/0 1/1 2/1 3/1 4/1 1/2 2/2 3/2 4/2");
	/* cells with fewer repeats drop out of the later passes */
	set_repeats(2, 1, 3, 2);
	CHECK_EQ_INT(run_order_stride(&cl), 3);
	CHECK_EQ_STR(order(NULL), "1/0 2/0 3/0 4/0 1/1 3/1 4/1 3/2");
}

static void test_done_passed_over(void)
{
	bool done[NCELLS * 3] = {false};
	int s;

	set_repeats(3, 3, 3, 3);
	s = run_order_stride(&cl);
	CHECK_EQ_INT(run_order_slot(s, 1, 0), 0);
	CHECK_EQ_INT(run_order_slot(s, 2, 1), 4);
	CHECK_EQ_INT(run_order_slot(s, 4, 2), 11);
	/*
	 * An earlier boot recorded the first pass and cell 1's second run, then
	 * died in cell 2's second run (recorded crashed, so done too): this
	 * boot goes on with cell 3's second run.
	 */
	for (int i = 1; i <= NCELLS; i++)
		done[run_order_slot(s, i, 0)] = true;
	done[run_order_slot(s, 1, 1)] = true;
	done[run_order_slot(s, 2, 1)] = true;
	CHECK_EQ_STR(order(done), "3/1 4/1 1/2 2/2 3/2 4/2");
	/* a damaged record in the first pass runs again, in its place */
	done[run_order_slot(s, 3, 0)] = false;
	CHECK_EQ_STR(order(done), "3/0 3/1 4/1 1/2 2/2 3/2 4/2");
	/* all done: nothing */
	for (size_t i = 0; i < sizeof(done); i++)
		done[i] = true;
	CHECK_EQ_STR(order(done), "");
}

static void test_no_cells(void)
{
	struct cell_list none = {0};
	struct run_order o;
	const struct cell *c;
	int repeat;

	CHECK_EQ_INT(run_order_stride(&none), 0);
	run_order_start(&o, &none, NULL);
	CHECK(!run_order_next(&o, &c, &repeat));
	/* and it stays at the end */
	CHECK(!run_order_next(&o, &c, &repeat));
}

int main(void)
{
	RUN_TEST(test_repeats_outer);
	RUN_TEST(test_done_passed_over);
	RUN_TEST(test_no_cells);
	CHECK_EXIT();
}

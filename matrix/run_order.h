/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The order in which a matrix's runs are made: repeats are the outer loop.
 * Every cell runs once (repeat 0, in cell order), then every cell again
 * (repeat 1), and so on; a cell with fewer repeats than others drops out of
 * the later passes:
 *
 *   cells 1 2 3, 2 repeats each:   1/0 2/0 3/0 1/1 2/1 3/1
 *
 * so the repeats of one cell are spread over the whole run, not back to
 * back. A kernel comparison's noise is between boots and over time (the
 * machine warms, the host's neighbours come and go); repeats made one after
 * the other would see less of it than there is and make changes look real.
 *
 * A run already recorded (on an earlier boot of the run, or crashed) is
 * passed over: done[] has one flag per cell and repeat, at
 * run_order_slot(stride, index, repeat), stride being the largest repeats.
 * Records of a run come in this order too, so seq follows it.
 */
#ifndef IOMATRIX_MATRIX_RUN_ORDER_H
#define IOMATRIX_MATRIX_RUN_ORDER_H

#include <stdbool.h>
#include <stddef.h>

#include "matrix/matrix.h"

struct run_order {
	const struct cell_list *cl;
	const bool *done; /* NULL: nothing done yet */
	int stride;	  /* the largest repeats of any cell */
	int pass;	  /* the repeat being made */
	int next;	  /* the position in cl of the next cell to look at */
};

/* The largest repeats of the cells of cl (0 for no cells). */
int run_order_stride(const struct cell_list *cl);

/* Where (index from 1, repeat) is in a done[] map of stride columns. */
static inline size_t run_order_slot(int stride, int index, int repeat)
{
	return (size_t)(index - 1) * (size_t)stride + (size_t)repeat;
}

/* Starts at the first run; done may be NULL. */
void run_order_start(struct run_order *o, const struct cell_list *cl, const bool *done);

/* The next run not done: true with its cell and repeat, false at the end. */
bool run_order_next(struct run_order *o, const struct cell **c, int *repeat);

#endif

// SPDX-License-Identifier: GPL-2.0
/* Repeats as the outer loop; see run_order.h. */
#include "matrix/run_order.h"

int run_order_stride(const struct cell_list *cl)
{
	int stride = 0;

	for (int i = 0; i < cl->count; i++)
		if (cl->cells[i].repeats > stride)
			stride = cl->cells[i].repeats;
	return stride;
}

void run_order_start(struct run_order *o, const struct cell_list *cl, const bool *done)
{
	o->cl = cl;
	o->done = done;
	o->stride = run_order_stride(cl);
	o->pass = 0;
	o->next = 0;
}

bool run_order_next(struct run_order *o, const struct cell **c, int *repeat)
{
	for (; o->pass < o->stride; o->pass++, o->next = 0) {
		while (o->next < o->cl->count) {
			const struct cell *cell = &o->cl->cells[o->next++];

			if (o->pass >= cell->repeats ||
			    (o->done && o->done[run_order_slot(o->stride, cell->index, o->pass)]))
				continue;
			*c = cell;
			*repeat = o->pass;
			return true;
		}
	}
	return false;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * null: no IO and no files. Shaped like fio's null engine: at iodepth=1 an
 * IO completes inside queue; deeper, commit makes the queued IOs complete
 * and reap hands them back, so it measures the worker's whole
 * asynchronous path and its statistics.
 */
#include <stdio.h>
#include <stdlib.h>

#include "runner/engine/engine.h"

struct null_priv {
	unsigned queued, ready, head, depth;
	struct io_u **ring; /* queued and completed IOs, in order */
};

static int null_setup(struct engine *e, const struct engine_params *p, char *err, size_t errlen)
{
	struct null_priv *n = calloc(1, sizeof(*n));

	if (n)
		n->ring = calloc(p->depth, sizeof(*n->ring));
	if (!n || !n->ring) {
		free(n);
		snprintf(err, errlen, "ioengine=null: out of memory");
		return -1;
	}
	n->depth = p->depth;
	e->priv = n;
	return 0;
}

static int null_queue(struct engine *e, struct io_u *u)
{
	struct null_priv *n = e->priv;
	unsigned slot = n->head + n->ready + n->queued;

	u->result = u->len;
	if (n->depth == 1)
		return ENGINE_COMPLETED;
	if (slot >= n->depth)
		slot -= n->depth;
	n->ring[slot] = u;
	n->queued++;
	return ENGINE_QUEUED;
}

static int null_commit(struct engine *e)
{
	struct null_priv *n = e->priv;
	int done = (int)n->queued;

	n->ready += n->queued;
	n->queued = 0;
	return done;
}

static int null_reap(struct engine *e, unsigned min, unsigned max, struct io_u **done)
{
	struct null_priv *n = e->priv;
	unsigned got = 0;

	(void)min;
	while (got < max && n->ready) {
		done[got++] = n->ring[n->head];
		if (++n->head == n->depth)
			n->head = 0;
		n->ready--;
	}
	return (int)got;
}

static void null_teardown(struct engine *e)
{
	struct null_priv *n = e->priv;

	if (n)
		free(n->ring);
	free(n);
	e->priv = NULL;
}

const struct engine_ops engine_null_ops = {
	.name = "null",
	.diskless = 1,
	.sync_at_depth1 = 1,
	.setup = null_setup,
	.queue = null_queue,
	.commit = null_commit,
	.reap = null_reap,
	.teardown = null_teardown,
};

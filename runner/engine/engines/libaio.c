// SPDX-License-Identifier: GPL-2.0
/*
 * libaio: Linux native AIO. queue prepares an iocb (one per pool slot, made
 * in setup), commit hands the batch to io_submit, reap takes completions
 * with io_getevents, or straight from the completion ring in user memory
 * when userspace_reap is set and nothing needs waiting for (as fio does).
 */
#include <errno.h>
#include <libaio.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/engine/engine.h"

/* The kernel's completion ring, mapped at the io_context_t address. */
struct aio_ring {
	unsigned id;
	unsigned nr;
	unsigned head;
	unsigned tail;
	unsigned magic;
	unsigned compat_features;
	unsigned incompat_features;
	unsigned header_length;
	struct io_event events[];
};

#define AIO_RING_MAGIC 0xa10a10a1

struct aio_priv {
	io_context_t ctx;
	struct iocb *iocbs;
	struct iocb **pending;
	unsigned npending;
	struct io_event *events;
	unsigned depth;
	int userspace_reap;
};

static void aio_free(struct aio_priv *a)
{
	if (!a)
		return;
	free(a->iocbs);
	free(a->pending);
	free(a->events);
	free(a);
}

static int aio_setup(struct engine *e, const struct engine_params *p, char *err, size_t errlen)
{
	struct aio_priv *a = calloc(1, sizeof(*a));
	int r;

	if (a) {
		a->iocbs = calloc(p->depth, sizeof(*a->iocbs));
		a->pending = calloc(p->depth, sizeof(*a->pending));
		a->events = calloc(p->depth, sizeof(*a->events));
	}
	if (!a || !a->iocbs || !a->pending || !a->events) {
		aio_free(a);
		snprintf(err, errlen, "ioengine=libaio: out of memory");
		return -1;
	}
	a->depth = p->depth;
	a->userspace_reap = (int)p->o->userspace_reap;
	r = io_setup((int)p->depth, &a->ctx);
	if (r < 0) {
		snprintf(err, errlen, "ioengine=libaio: io_setup(%u): %s%s", p->depth, strerror(-r),
			 r == -EAGAIN ? " (see /proc/sys/fs/aio-max-nr)" : "");
		aio_free(a);
		return -1;
	}
	e->priv = a;
	return 0;
}

static int aio_queue(struct engine *e, struct io_u *u)
{
	struct aio_priv *a = e->priv;
	struct iocb *cb = &a->iocbs[u->index];

	if (u->ddir == DDIR_READ)
		io_prep_pread(cb, u->fd, u->buf, u->len, (long long)u->offset);
	else
		io_prep_pwrite(cb, u->fd, u->buf, u->len, (long long)u->offset);
	cb->data = u;
	a->pending[a->npending++] = cb;
	return ENGINE_QUEUED;
}

static int aio_commit(struct engine *e)
{
	struct aio_priv *a = e->priv;
	unsigned done = 0;
	int tries = 0;

	while (done < a->npending) {
		int r = io_submit(a->ctx, (long)(a->npending - done), a->pending + done);

		if (r > 0) {
			done += (unsigned)r;
			tries = 0;
			continue;
		}
		if ((r == -EAGAIN || r == -EINTR || r == 0) && ++tries < 1000) {
			sched_yield();
			continue;
		}
		a->npending = 0;
		return r < 0 ? r : -EIO;
	}
	a->npending = 0;
	return (int)done;
}

static unsigned user_reap(struct aio_priv *a, unsigned max, struct io_u **done)
{
	struct aio_ring *ring = (struct aio_ring *)a->ctx;
	unsigned head = ring->head, tail, got = 0;

	tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	while (head != tail && got < max) {
		struct io_event *ev = &ring->events[head];
		struct io_u *u = ev->data;

		u->result = (long)ev->res;
		done[got++] = u;
		head = (head + 1) % ring->nr;
	}
	__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	return got;
}

static int aio_reap(struct engine *e, unsigned min, unsigned max, struct io_u **done)
{
	struct aio_priv *a = e->priv;
	int r;

	if (max > a->depth)
		max = a->depth;
	if (a->userspace_reap && !min &&
	    ((struct aio_ring *)a->ctx)->magic == AIO_RING_MAGIC)
		return (int)user_reap(a, max, done);
	do {
		r = io_getevents(a->ctx, (long)min, (long)max, a->events, NULL);
	} while (r == -EINTR);
	if (r < 0)
		return r;
	for (int i = 0; i < r; i++) {
		struct io_u *u = a->events[i].data;

		u->result = (long)a->events[i].res;
		done[i] = u;
	}
	return r;
}

static void aio_teardown(struct engine *e)
{
	struct aio_priv *a = e->priv;

	if (!a)
		return;
	io_destroy(a->ctx);
	aio_free(a);
	e->priv = NULL;
}

const struct engine_ops engine_libaio_ops = {
	.name = "libaio",
	.setup = aio_setup,
	.queue = aio_queue,
	.commit = aio_commit,
	.reap = aio_reap,
	.teardown = aio_teardown,
};

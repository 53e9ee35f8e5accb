// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring through liburing. queue fills a submission entry, commit submits
 * the batch and posts what completed in one call, reap waits for min
 * completions and takes up to max from the completion ring at once
 * (ring_init says how the ring is made). hipri polls (IOPOLL),
 * sqthread_poll lets a kernel thread submit (SQPOLL), fixedbufs and
 * registerfiles register the pool's buffers and the job's files once.
 */
#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "runner/engine/engine.h"

struct uring_priv {
	struct io_uring ring;
	struct io_uring_cqe **cqes;
	unsigned depth;
	int fixedbufs, registerfiles;
};

static int uring_fail(char *err, size_t errlen, const char *what, int r)
{
	snprintf(err, errlen, "ioengine=io_uring: %s: %s%s", what, strerror(-r),
		 r == -EPERM || r == -ENOSYS
			 ? " (io_uring disabled? see /proc/sys/kernel/io_uring_disabled)"
			 : "");
	return -1;
}

/*
 * Completions from another CPU (a loop device's worker, an interrupt) would
 * each interrupt the job with an IPI to run their task work. COOP_TASKRUN
 * lets that work wait for the job's next system call, and DEFER_TASKRUN
 * (one submitting task, which the job is) runs it only when the job asks
 * for completions: fewer wakeups and IPIs per IO, as fio sets up its rings.
 * Kernels before 5.19 (COOP) or 6.1 (DEFER) refuse them with EINVAL: then
 * the ring is made without, in that order.
 */
static int ring_init(struct uring_priv *u, const struct job_options *o)
{
	static const unsigned optional[] = {
		IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	int r = -EINVAL;

	for (unsigned i = 0; i < sizeof(optional) / sizeof(optional[0]) && r == -EINVAL; i++) {
		struct io_uring_params params;

		memset(&params, 0, sizeof(params));
		if (o->hipri)
			params.flags |= IORING_SETUP_IOPOLL;
		if (o->sqthread_poll) {
			/* A kernel thread submits: not one task, so no DEFER_TASKRUN. */
			if (optional[i] & IORING_SETUP_DEFER_TASKRUN)
				continue;
			params.flags |= IORING_SETUP_SQPOLL;
			params.sq_thread_idle = 1000;
		}
		params.flags |= optional[i];
		r = io_uring_queue_init_params(u->depth, &u->ring, &params);
	}
	return r;
}

static int uring_setup(struct engine *e, const struct engine_params *p, char *err, size_t errlen)
{
	struct uring_priv *u = calloc(1, sizeof(*u));
	int r;

	if (u)
		u->cqes = calloc(p->depth, sizeof(*u->cqes));
	if (!u || !u->cqes) {
		free(u);
		snprintf(err, errlen, "ioengine=io_uring: out of memory");
		return -1;
	}
	u->depth = p->depth;
	r = ring_init(u, p->o);
	if (r < 0) {
		free(u->cqes);
		free(u);
		return uring_fail(err, errlen, "io_uring_queue_init", r);
	}
	if (p->o->fixedbufs) {
		struct iovec *iov = calloc(p->depth, sizeof(*iov));

		if (!iov) {
			r = -ENOMEM;
		} else {
			for (unsigned i = 0; i < p->depth; i++) {
				iov[i].iov_base = p->pool[i].buf;
				iov[i].iov_len = p->buf_len;
			}
			r = io_uring_register_buffers(&u->ring, iov, p->depth);
			free(iov);
		}
		if (r < 0) {
			io_uring_queue_exit(&u->ring);
			free(u->cqes);
			free(u);
			return uring_fail(err, errlen, "fixedbufs: io_uring_register_buffers", r);
		}
		u->fixedbufs = 1;
	}
	if (p->o->registerfiles) {
		r = io_uring_register_files(&u->ring, p->fds, p->nfds);
		if (r < 0) {
			io_uring_queue_exit(&u->ring);
			free(u->cqes);
			free(u);
			return uring_fail(err, errlen, "registerfiles: io_uring_register_files", r);
		}
		u->registerfiles = 1;
	}
	e->priv = u;
	return 0;
}

static int uring_queue(struct engine *e, struct io_u *io)
{
	struct uring_priv *u = e->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	int fd = u->registerfiles ? (int)io->file : io->fd;

	/* The worker never has more than depth IOs out, so an entry is always free. */
	if (io->ddir == DDIR_READ) {
		if (u->fixedbufs)
			io_uring_prep_read_fixed(sqe, fd, io->buf, io->len, io->offset,
						 (int)io->index);
		else
			io_uring_prep_read(sqe, fd, io->buf, io->len, io->offset);
	} else {
		if (u->fixedbufs)
			io_uring_prep_write_fixed(sqe, fd, io->buf, io->len, io->offset,
						  (int)io->index);
		else
			io_uring_prep_write(sqe, fd, io->buf, io->len, io->offset);
	}
	if (u->registerfiles)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, io);
	return ENGINE_QUEUED;
}

static int uring_commit(struct engine *e)
{
	struct uring_priv *u = e->priv;
	int r;

	/*
	 * With DEFER_TASKRUN, completions reach the ring only in a GETEVENTS
	 * call: this one posts them, so reap often finds them without another.
	 * Other rings (SQPOLL above all, whose submissions need no system call)
	 * submit as usual.
	 */
	do {
		r = u->ring.flags & IORING_SETUP_DEFER_TASKRUN
			    ? io_uring_submit_and_get_events(&u->ring)
			    : io_uring_submit(&u->ring);
	} while (r == -EINTR);
	return r;
}

static int uring_reap(struct engine *e, unsigned min, unsigned max, struct io_u **done)
{
	struct uring_priv *u = e->priv;
	unsigned got;

	if (min) {
		struct io_uring_cqe *cqe;
		int r;

		do {
			r = io_uring_wait_cqe_nr(&u->ring, &cqe, min);
		} while (r == -EINTR);
		if (r < 0)
			return r;
	}
	if (max > u->depth)
		max = u->depth;
	got = io_uring_peek_batch_cqe(&u->ring, u->cqes, max);
	for (unsigned i = 0; i < got; i++) {
		struct io_u *io = io_uring_cqe_get_data(u->cqes[i]);

		io->result = u->cqes[i]->res;
		done[i] = io;
	}
	io_uring_cq_advance(&u->ring, got);
	return (int)got;
}

static void uring_teardown(struct engine *e)
{
	struct uring_priv *u = e->priv;

	if (!u)
		return;
	io_uring_queue_exit(&u->ring);
	free(u->cqes);
	free(u);
	e->priv = NULL;
}

const struct engine_ops engine_io_uring_ops = {
	.name = "io_uring",
	.setup = uring_setup,
	.queue = uring_queue,
	.commit = uring_commit,
	.reap = uring_reap,
	.teardown = uring_teardown,
};

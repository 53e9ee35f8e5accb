// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring through liburing. queue fills a submission entry, commit is one
 * io_uring_submit for the batch, reap waits for min completions and takes
 * up to max from the completion ring at once. hipri polls (IOPOLL),
 * sqthread_poll lets a kernel thread submit (SQPOLL), fixedbufs and
 * registerfiles register the pool's buffers and the job's files once.
 */
#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "engine.h"

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

static int uring_setup(struct engine *e, const struct engine_params *p, char *err, size_t errlen)
{
	struct io_uring_params params;
	struct uring_priv *u = calloc(1, sizeof(*u));
	int r;

	if (u)
		u->cqes = calloc(p->depth, sizeof(*u->cqes));
	if (!u || !u->cqes) {
		free(u);
		snprintf(err, errlen, "ioengine=io_uring: out of memory");
		return -1;
	}
	memset(&params, 0, sizeof(params));
	if (p->o->hipri)
		params.flags |= IORING_SETUP_IOPOLL;
	if (p->o->sqthread_poll) {
		params.flags |= IORING_SETUP_SQPOLL;
		params.sq_thread_idle = 1000;
	}
	u->depth = p->depth;
	r = io_uring_queue_init_params(p->depth, &u->ring, &params);
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

	do {
		r = io_uring_submit(&u->ring);
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

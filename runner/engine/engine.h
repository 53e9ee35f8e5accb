/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IO engines behind one small interface, one file each in engines/.
 *
 * What psync, libaio and io_uring share is four steps: set up (a queue of
 * a given depth over given files and buffers), queue one IO, commit what
 * is queued (one system call for a batch), reap completions (at least
 * min, at most max). A synchronous engine does the IO in queue and says
 * so; the worker then never calls commit or reap. Engines allocate
 * nothing per IO: every per-IO structure is made in setup, indexed by
 * io_u->index.
 */
#ifndef IOMATRIX_RUNNER_ENGINE_ENGINE_H
#define IOMATRIX_RUNNER_ENGINE_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "matrix/job_options.h"

struct io_u {
	void *buf;
	uint64_t offset;
	uint32_t len;
	uint32_t ddir;	/* DDIR_READ or DDIR_WRITE */
	uint32_t index; /* in the worker's pool: 0..depth-1 */
	uint32_t file;	/* index into the engine's fds */
	int fd;
	uint64_t start_ns; /* prepared: total latency starts here */
	uint64_t issue_ns; /* submitted: completion latency starts here */
	long result;	   /* bytes done, or -errno */
};

struct engine_params {
	unsigned depth;
	const int *fds;
	unsigned nfds;
	struct io_u *pool; /* depth io_us, buffers set */
	size_t buf_len;	   /* each buffer's size (for registration) */
	const struct job_options *o;
};

enum engine_queue_result {
	ENGINE_QUEUED = 0,
	ENGINE_COMPLETED = 1, /* done inside queue; io_u->result is set */
};

struct engine;

struct engine_ops {
	const char *name;
	int sync;     /* every queue completes the IO */
	int diskless; /* no files: the job's size is all it needs (null) */
	int sync_at_depth1; /* at iodepth=1 queue completes the IO (as fio's null does) */
	/* 0, or -1 with a message naming the engine and the cause. */
	int (*setup)(struct engine *e, const struct engine_params *p, char *err, size_t errlen);
	int (*queue)(struct engine *e, struct io_u *u);
	/* Submits what queue collected; returns how many, or -errno. */
	int (*commit)(struct engine *e);
	/* Waits for >= min completions, returns up to max in done[], or -errno. */
	int (*reap)(struct engine *e, unsigned min, unsigned max, struct io_u **done);
	void (*teardown)(struct engine *e);
};

struct engine {
	const struct engine_ops *ops;
	void *priv;
};

const struct engine_ops *engine_find(uint32_t engine_id);

extern const struct engine_ops engine_psync_ops;
extern const struct engine_ops engine_sync_ops;
extern const struct engine_ops engine_null_ops;
extern const struct engine_ops engine_libaio_ops;
extern const struct engine_ops engine_io_uring_ops;

#endif

// SPDX-License-Identifier: GPL-2.0
/* psync: pread(2)/pwrite(2), one IO at a time, done inside queue. */
#include <errno.h>
#include <unistd.h>

#include "engine.h"

static int psync_setup(struct engine *e, const struct engine_params *p, char *err, size_t errlen)
{
	(void)e;
	(void)p;
	(void)err;
	(void)errlen;
	return 0;
}

static int psync_queue(struct engine *e, struct io_u *u)
{
	ssize_t r;

	(void)e;
	if (u->ddir == DDIR_READ)
		r = pread(u->fd, u->buf, u->len, (off_t)u->offset);
	else
		r = pwrite(u->fd, u->buf, u->len, (off_t)u->offset);
	u->result = r < 0 ? -errno : r;
	return ENGINE_COMPLETED;
}

static void psync_teardown(struct engine *e)
{
	(void)e;
}

const struct engine_ops engine_psync_ops = {
	.name = "psync",
	.sync = 1,
	.setup = psync_setup,
	.queue = psync_queue,
	.teardown = psync_teardown,
};

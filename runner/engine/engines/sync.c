// SPDX-License-Identifier: GPL-2.0
/*
 * sync: read(2)/write(2) at the file position, as fio's sync engine does:
 * an lseek only when the IO does not start where the last one ended.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/engine/engine.h"

struct sync_priv {
	unsigned nfds;
	uint64_t pos[]; /* per file: where the next read/write would start */
};

static int sync_setup(struct engine *e, const struct engine_params *p, char *err, size_t errlen)
{
	struct sync_priv *s = calloc(1, sizeof(*s) + p->nfds * sizeof(uint64_t));

	if (!s) {
		snprintf(err, errlen, "ioengine=sync: out of memory");
		return -1;
	}
	s->nfds = p->nfds;
	for (unsigned i = 0; i < p->nfds; i++)
		s->pos[i] = UINT64_MAX; /* unknown: the first IO seeks */
	e->priv = s;
	return 0;
}

static int sync_queue(struct engine *e, struct io_u *u)
{
	struct sync_priv *s = e->priv;
	ssize_t r;

	if (s->pos[u->file] != u->offset && lseek(u->fd, (off_t)u->offset, SEEK_SET) < 0) {
		u->result = -errno;
		s->pos[u->file] = UINT64_MAX;
		return ENGINE_COMPLETED;
	}
	if (u->ddir == DDIR_READ)
		r = read(u->fd, u->buf, u->len);
	else
		r = write(u->fd, u->buf, u->len);
	u->result = r < 0 ? -errno : r;
	s->pos[u->file] = r < 0 ? UINT64_MAX : u->offset + (uint64_t)r;
	return ENGINE_COMPLETED;
}

static void sync_teardown(struct engine *e)
{
	free(e->priv);
	e->priv = NULL;
}

const struct engine_ops engine_sync_ops = {
	.name = "sync",
	.sync = 1,
	.setup = sync_setup,
	.queue = sync_queue,
	.teardown = sync_teardown,
};

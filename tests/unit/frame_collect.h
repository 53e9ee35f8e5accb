/* SPDX-License-Identifier: GPL-2.0 */
/* Test helper: run the frame decoder over a buffer and keep what it yields. */
#ifndef IOMATRIX_TESTS_FRAME_COLLECT_H
#define IOMATRIX_TESTS_FRAME_COLLECT_H

#include <stdlib.h>
#include <string.h>

#include "records/frame_decoder.h"

#define COLLECT_MAX 4096

struct collected {
	uint32_t nrec, ndamaged;
	uint32_t rec_seq[COLLECT_MAX];
	uint8_t *rec[COLLECT_MAX];
	size_t rec_len[COLLECT_MAX];
	uint32_t damaged_seq[COLLECT_MAX];
	struct frame_stats stats;
};

static int collect_event(void *ctx, const struct frame_event *ev)
{
	struct collected *c = ctx;

	if (ev->kind == FRAME_RECORD && c->nrec < COLLECT_MAX) {
		c->rec_seq[c->nrec] = ev->seq;
		c->rec_len[c->nrec] = ev->len;
		c->rec[c->nrec] = malloc(ev->len);
		memcpy(c->rec[c->nrec], ev->data, ev->len);
		c->nrec++;
	} else if (ev->kind == FRAME_DAMAGED && c->ndamaged < COLLECT_MAX) {
		c->damaged_seq[c->ndamaged++] = ev->seq;
	}
	return 0;
}

/* Feeds buf in pieces of `step` bytes (0: all at once). 0 on success. */
static int collect(struct collected *c, const void *buf, size_t len, size_t step)
{
	struct frame_decoder *d = frame_decoder_new(collect_event, c);
	const uint8_t *p = buf;
	int r = 0;

	memset(c, 0, sizeof(*c));
	if (!d)
		return -1;
	if (!step)
		step = len ? len : 1;
	for (size_t off = 0; off < len && !r; off += step)
		r = frame_decoder_feed(d, p + off, len - off < step ? len - off : step);
	if (!r)
		r = frame_decoder_finish(d);
	c->stats = *frame_decoder_stats(d);
	frame_decoder_free(d);
	return r;
}

static void collected_free(struct collected *c)
{
	for (uint32_t i = 0; i < c->nrec; i++)
		free(c->rec[i]);
	c->nrec = 0;
}

#endif

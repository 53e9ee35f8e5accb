// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the serial frame decoder: any bytes, fed in pieces of any size, must
 * give records or damage reports, never a crash, a leak or a record that
 * breaks the format's limits. The first input byte picks the piece size and
 * whether line CRCs are recomputed first (so mutations get past the CRC and
 * reach the reassembly: counts, lengths, indexes that disagree).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/crc32.h"
#include "records/frame_decoder.h"
#include "records/serial_frame.h"

static int check_event(void *ctx, const struct frame_event *ev)
{
	(void)ctx;
	if (ev->kind == FRAME_RECORD && (!ev->data || ev->len == 0 || ev->len > FRAME_RECORD_MAX))
		abort();
	if (ev->kind == FRAME_DAMAGED && (!ev->why || ev->chunks_seen > ev->chunks_total))
		abort();
	return 0;
}

/* Each line starting with our prefix gets the line CRC its text asks for. */
static void fix_line_crcs(uint8_t *buf, size_t size)
{
	size_t start = 0;

	for (size_t i = 0; i <= size; i++) {
		char *line = (char *)buf + start, *blank;
		size_t n = i - start;

		if (i < size && buf[i] != '\n')
			continue;
		start = i + 1;
		if (n < FRAME_PREFIX_LEN + 9 || memcmp(line, FRAME_PREFIX, FRAME_PREFIX_LEN))
			continue;
		blank = memrchr(line, ' ', n);
		if (blank && (size_t)(line + n - blank) == 9) {
			uint32_t crc = crc32_ieee(0, line, (size_t)(blank + 1 - line));

			for (int k = 0; k < 8; k++)
				blank[1 + k] = "0123456789abcdef"[(crc >> (28 - 4 * k)) & 15];
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct frame_decoder *d;
	struct frame_line fl;
	size_t step;
	uint8_t *buf;

	if (size < 1)
		return 0;
	step = (size_t)(data[0] >> 1) + 1;
	buf = malloc(size);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	if (data[0] & 1)
		fix_line_crcs(buf, size - 1);
	frame_parse_line((const char *)buf, size - 1, &fl);
	d = frame_decoder_new(check_event, NULL);
	if (d) {
		for (size_t off = 0; off < size - 1; off += step)
			frame_decoder_feed(d, buf + off,
					   size - 1 - off < step ? size - 1 - off : step);
		frame_decoder_finish(d);
		frame_decoder_free(d);
	}
	free(buf);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the GPT reader: any disk image must give a clean error or a table
 * whose partitions keep the format's limits (numbers rising, LBAs within the
 * image, GUIDs in their text form, labels NUL-terminated), never a crash or
 * a read out of bounds. The first input byte picks the block size (0, 512 or
 * 4096) and whether the header and entry-array CRCs are recomputed first, so
 * mutations reach the checks behind them.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/crc32.h"
#include "records/gpt.h"
#include "lib/le.h"

/* A header at byte off: entry-array CRC, then header CRC, as its fields ask. */
static void fix_header(uint8_t *img, size_t size, size_t off, uint32_t bs)
{
	uint8_t *h = img + off;
	uint32_t hsize, n;
	uint64_t elba, bytes;

	if (off + 92 > size || memcmp(h, "EFI PART", 8))
		return;
	n = get_le32(h + 80);
	elba = get_le64(h + 72);
	bytes = (uint64_t)n * 128;
	if (n <= GPT_ENTRIES_MAX && elba < size / bs && bytes <= size - elba * bs)
		put_le32(h + 88, crc32_ieee(0, img + elba * bs, (size_t)bytes));
	hsize = get_le32(h + 12);
	if (hsize < 92 || hsize > bs || off + hsize > size)
		return;
	memset(h + 16, 0, 4);
	put_le32(h + 16, crc32_ieee(0, h, hsize));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t sizes[] = {0, 512, 4096, 512};
	static struct gpt_table t;
	char err[GPT_ERR_LEN];
	uint32_t bs;
	uint8_t *img;

	if (size < 1)
		return 0;
	bs = sizes[data[0] & 3];
	img = malloc(size);
	if (!img)
		return 0;
	memcpy(img, data + 1, size - 1);
	size--;
	if (data[0] & 4)
		for (uint32_t b = 512; b <= 4096; b *= 8)
			if (size >= 3 * b) {
				fix_header(img, size, b, b);
				fix_header(img, size, (size / b - 1) * b, b);
			}
	if (gpt_read_buffer(img, size, bs, &t, err, sizeof(err)) == 0) {
		uint32_t last = 0;

		if (t.count >= GPT_PARTS_MAX || (t.block_size != 512 && t.block_size != 4096))
			abort();
		for (size_t i = 0; i < t.count; i++) {
			const struct gpt_partition *p = &t.parts[i];

			if (p->number <= last || p->last_lba >= size / t.block_size ||
			    strlen(p->uuid) != 36 || strlen(p->type) != 36 ||
			    strnlen(p->label, GPT_LABEL_MAX) >= GPT_LABEL_MAX)
				abort();
			last = p->number;
		}
	} else if (!err[0]) {
		abort();
	}
	free(img);
	return 0;
}

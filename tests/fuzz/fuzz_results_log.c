// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the results log scanner: any image must give a clean error or a list
 * of records and damage reports in increasing seq order, and its run
 * description a length within the area or none, never a crash or a read
 * out of bounds. When the first input byte is odd, the header, progress
 * and record-header CRCs are recomputed before scanning (and the payload CRCs
 * too when bit 1 is set), so mutations reach the logic behind the CRCs.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/crc32.h"
#include "records/results_log.h"
#include "records/results_log_disk.h"

struct order {
	uint32_t last;
};

static int check_item(void *ctx, const struct rlog_item *item)
{
	struct order *o = ctx;

	if ((item->data == NULL) == (item->damage == NULL) || item->len > RLOG_RECORD_MAX)
		abort();
	if (item->seq <= o->last && o->last)
		abort();
	o->last = item->seq;
	return 0;
}

static void fix_crcs(uint8_t *img, size_t size, bool payload)
{
	uint32_t bs;

	if (size < H_SIZE || memcmp(img, H_MAGIC, 8))
		return;
	put_le32(img + H_OFF_CRC, crc32_ieee(0, img, H_OFF_CRC));
	bs = get_le32(img + H_OFF_BLOCK);
	if (bs < RLOG_BLOCK_MIN || bs > RLOG_BLOCK_MAX || (bs & (bs - 1)))
		return;
	for (size_t b = 1; (b + 1) * bs <= size; b++) {
		uint8_t *p = img + b * bs;

		if (!memcmp(p, P_MAGIC, 8))
			put_le32(p + P_OFF_CRC, crc32_ieee(0, p, P_OFF_CRC));
		if (!memcmp(p, I_MAGIC, 8)) {
			uint32_t n = get_le32(p + I_OFF_LENGTH);

			if (n <= RLOG_RUN_INFO_MAX && n <= size - b * bs - RLOG_RUN_INFO_HEADER)
				put_le32(p + I_OFF_TCRC,
					 crc32_ieee(0, p + RLOG_RUN_INFO_HEADER, n));
			put_le32(p + I_OFF_HCRC, crc32_ieee(0, p, I_OFF_HCRC));
		}
		if (memcmp(p, R_MAGIC, 8))
			continue;
		if (payload) {
			uint64_t len = get_le64(p + R_OFF_LENGTH);

			if (len <= size - b * bs - RLOG_RECORD_HEADER)
				put_le32(p + R_OFF_CRC,
					 crc32_ieee(0, p + RLOG_RECORD_HEADER, (size_t)len));
		}
		put_le32(p + R_OFF_HCRC, crc32_ieee(0, p, R_OFF_HCRC));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rlog_scan_result res;
	struct order o = {0};
	char err[RLOG_ERR_LEN];
	uint8_t *img;

	if (size < 1)
		return 0;
	img = malloc(size);
	if (!img)
		return 0;
	memcpy(img, data + 1, size - 1);
	if (data[0] & 1)
		fix_crcs(img, size - 1, data[0] & 2);
	if (!rlog_scan_buffer(img, size - 1, check_item, &o, &res, err, sizeof(err))) {
		uint64_t at = (uint64_t)RLOG_DATA_START * res.info.block_size;

		/* the run description, as rlog_run_info_read finds it */
		if (at < size - 1) {
			size_t n = size - 1 - at < RLOG_RUN_INFO_BYTES ? size - 1 - at
								       : RLOG_RUN_INFO_BYTES;
			long len = rlog_decode_run_info(img + at, n, res.info.log_id);

			if (len > (long)RLOG_RUN_INFO_MAX || (len >= 0 && (size_t)len + 32 > n))
				abort();
		}
	}
	free(img);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify=crc32c: every written block starts with a header (magic, offset,
 * length, crc32c of the rest of the block), so a block read back proves
 * its content and that it is the block that belongs at its offset.
 */
#ifndef IOMATRIX_RUNNER_ENGINE_VERIFY_H
#define IOMATRIX_RUNNER_ENGINE_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "runner/engine/offsets.h"

#define VERIFY_MAGIC 0x696f6d78u /* "iomx" */

struct verify_hdr {
	uint32_t magic;
	uint32_t crc; /* crc32c of the header (crc field zero) and the payload */
	uint64_t offset;
	uint32_t len;
	uint32_t run_id; /* which run wrote it: a stale block from an earlier run is caught */
};

uint32_t crc32c(uint32_t crc, const void *buf, size_t len);

/* Fills buf (len bytes, for offset) with random payload and its header. */
void verify_fill(void *buf, uint32_t len, uint64_t offset, uint32_t run_id, struct rng *r);

/*
 * 0 when the block is the one written at offset (by run run_id, unless
 * run_id is 0: any run), else -1 and the cause in why.
 */
int verify_check(const void *buf, uint32_t len, uint64_t offset, uint32_t run_id, char *why,
		 size_t whylen);

#endif

// SPDX-License-Identifier: GPL-2.0
/* crc32c block headers; see verify.h. */
#include "runner/engine/verify.h"

#include <cpuid.h>
#include <stdio.h>
#include <string.h>

static uint32_t table[8][256];
static int have_sse42 = -1;

static void init_tables(void)
{
	unsigned a, b, c, d;

	for (uint32_t i = 0; i < 256; i++) {
		uint32_t crc = i;

		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0x82f63b78u : crc >> 1;
		table[0][i] = crc;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			table[t][i] = (table[t - 1][i] >> 8) ^ table[0][table[t - 1][i] & 0xff];
	have_sse42 = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSE4_2);
}

__attribute__((target("sse4.2"))) static uint32_t crc_hw(uint32_t crc, const uint8_t *p,
							 size_t len)
{
	uint64_t c = crc;

	while (len >= 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		c = __builtin_ia32_crc32di(c, v);
		p += 8;
		len -= 8;
	}
	crc = (uint32_t)c;
	while (len--)
		crc = __builtin_ia32_crc32qi(crc, *p++);
	return crc;
}

static uint32_t crc_sw(uint32_t crc, const uint8_t *p, size_t len)
{
	while (len >= 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		v ^= crc;
		crc = table[7][v & 0xff] ^ table[6][(v >> 8) & 0xff] ^ table[5][(v >> 16) & 0xff] ^
		      table[4][(v >> 24) & 0xff] ^ table[3][(v >> 32) & 0xff] ^
		      table[2][(v >> 40) & 0xff] ^ table[1][(v >> 48) & 0xff] ^ table[0][v >> 56];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = (crc >> 8) ^ table[0][(crc ^ *p++) & 0xff];
	return crc;
}

uint32_t crc32c(uint32_t crc, const void *buf, size_t len)
{
	if (have_sse42 < 0)
		init_tables();
	crc = ~crc;
	crc = have_sse42 ? crc_hw(crc, buf, len) : crc_sw(crc, buf, len);
	return ~crc;
}

static uint32_t block_crc(const void *buf, uint32_t len)
{
	struct verify_hdr h;

	memcpy(&h, buf, sizeof(h));
	h.crc = 0;
	return crc32c(crc32c(0, &h, sizeof(h)), (const uint8_t *)buf + sizeof(h),
		      len - sizeof(h));
}

void verify_fill(void *buf, uint32_t len, uint64_t offset, uint32_t run_id, struct rng *r)
{
	struct verify_hdr h = { .magic = VERIFY_MAGIC, .offset = offset, .len = len,
				 .run_id = run_id };
	uint8_t *p = buf;

	for (uint32_t i = sizeof(h); i + 8 <= len; i += 8) {
		uint64_t v = rng_next(r);

		memcpy(p + i, &v, 8);
	}
	memcpy(buf, &h, sizeof(h));
	h.crc = block_crc(buf, len);
	memcpy(buf, &h, sizeof(h));
}

int verify_check(const void *buf, uint32_t len, uint64_t offset, uint32_t run_id, char *why,
		 size_t whylen)
{
	struct verify_hdr h;
	uint32_t crc;

	memcpy(&h, buf, sizeof(h));
	if (h.magic != VERIFY_MAGIC) {
		snprintf(why, whylen, "no verify header (magic %08x): never written with verify?",
			 h.magic);
		return -1;
	}
	if (h.offset != offset || h.len != len) {
		snprintf(why, whylen, "header says offset %llu length %u: misplaced block",
			 (unsigned long long)h.offset, h.len);
		return -1;
	}
	crc = block_crc(buf, len);
	if (crc != h.crc) {
		snprintf(why, whylen, "crc32c %08x, expected %08x: corrupted data", crc, h.crc);
		return -1;
	}
	if (run_id && h.run_id != run_id) {
		snprintf(why, whylen, "written by another run (%08x, not %08x): never written now",
			 h.run_id, run_id);
		return -1;
	}
	return 0;
}

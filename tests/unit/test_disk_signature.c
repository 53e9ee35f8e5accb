// SPDX-License-Identifier: GPL-2.0
/* Signatures at the start and at the end of a device. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "lib/disk_signature.h"

static uint8_t head[DISK_SIGNATURE_SPAN];
static uint8_t tail[DISK_SIGNATURE_TAIL_SPAN];

static void test_start(void)
{
	memset(head, 0, sizeof(head));
	CHECK(disk_signature_find(head, sizeof(head)) == NULL);
	memcpy(head + 1080, "\x53\xef", 2);
	CHECK_EQ_STR(disk_signature_find(head, sizeof(head)), "ext2/3/4 filesystem");
	/* beyond what the caller read: not looked for */
	CHECK(disk_signature_find(head, 1000) == NULL);
	memset(head, 0, sizeof(head));
	memcpy(head + 4096, "\xfc\x4e\x2b\xa9", 4);
	CHECK_EQ_STR(disk_signature_find(head, sizeof(head)), "md RAID superblock 1.2");
}

/* Puts magic at device offset off in the tail buffer of a device of size bytes. */
static void put_end(uint64_t size, uint64_t off, const char *magic, size_t n)
{
	uint64_t base = size - sizeof(tail);

	memset(tail, 0, sizeof(tail));
	memcpy(tail + (off - base), magic, n);
}

static void test_md_090(void)
{
	/* 1 GiB + 100 KiB: the last 64 KiB boundary is 1 GiB + 64 KiB; the superblock 64 KiB below */
	uint64_t size = (1ull << 30) + 100 * 1024;

	put_end(size, 1ull << 30, "\xfc\x4e\x2b\xa9", 4);
	CHECK_EQ_STR(disk_signature_find_end(tail, sizeof(tail), size), "md RAID superblock 0.90");
	/* the same bytes one block off are nothing */
	put_end(size, (1ull << 30) + 4096, "\xfc\x4e\x2b\xa9", 4);
	CHECK(disk_signature_find_end(tail, sizeof(tail), size) == NULL);
}

static void test_md_10(void)
{
	uint64_t size = (1ull << 30) + 5000; /* (size - 8 KiB) rounded down to 4 KiB */

	put_end(size, ((size - 8192) & ~4095ull), "\xfc\x4e\x2b\xa9", 4);
	CHECK_EQ_STR(disk_signature_find_end(tail, sizeof(tail), size), "md RAID superblock 1.0");
}

static void test_gpt_backup(void)
{
	uint64_t size = 1ull << 30;

	put_end(size, size - 512, "EFI PART", 8);
	CHECK_EQ_STR(disk_signature_find_end(tail, sizeof(tail), size),
		     "GPT backup partition table");
	put_end(size, size - 4096, "EFI PART", 8);
	CHECK_EQ_STR(disk_signature_find_end(tail, sizeof(tail), size),
		     "GPT backup partition table (4 KiB sectors)");
}

static void test_small_devices(void)
{
	uint8_t small[4096] = {0};

	/* smaller than the tail span: the whole device is the buffer */
	memcpy(small + 4096 - 512, "EFI PART", 8);
	CHECK_EQ_STR(disk_signature_find_end(small, sizeof(small), sizeof(small)),
		     "GPT backup partition table");
	/* a device too small for md 0.90's place, and a buffer longer than the device */
	CHECK(disk_signature_find_end(small, 100, 100) == NULL);
	CHECK(disk_signature_find_end(small, sizeof(small), 100) == NULL);
}

int main(void)
{
	RUN_TEST(test_start);
	RUN_TEST(test_md_090);
	RUN_TEST(test_md_10);
	RUN_TEST(test_gpt_backup);
	RUN_TEST(test_small_devices);
	CHECK_EXIT();
}

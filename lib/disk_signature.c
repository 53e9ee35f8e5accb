// SPDX-License-Identifier: GPL-2.0
/* Known signatures at the start of a device; see disk_signature.h. */
#include "lib/disk_signature.h"

#include <string.h>

struct signature {
	const char *name;
	size_t offset;
	const char *magic;
	size_t len;
};

/* Offsets and magic numbers as util-linux's libblkid knows them. */
static const struct signature signatures[] = {
	{"iomatrix results log", 0, "IOMXLOG\0", 8},
	{"GPT partition table", 512, "EFI PART", 8},
	{"GPT partition table (4 KiB sectors)", 4096, "EFI PART", 8},
	{"ext2/3/4 filesystem", 1080, "\x53\xef", 2},
	{"XFS filesystem", 0, "XFSB", 4},
	{"btrfs filesystem", 65600, "_BHRfS_M", 8},
	{"F2FS filesystem", 1024, "\x10\x20\xf5\xf2", 4},
	{"md RAID superblock 1.1", 0, "\xfc\x4e\x2b\xa9", 4},
	{"md RAID superblock 1.2", 4096, "\xfc\x4e\x2b\xa9", 4},
	{"LVM2 physical volume", 512, "LABELONE", 8},
	{"LUKS encrypted volume", 0, "LUKS\xba\xbe", 6},
	{"swap space", 4086, "SWAPSPACE2", 10},
	{"swap space (old)", 4086, "SWAP-SPACE", 10},
	{"squashfs filesystem", 0, "hsqs", 4},
	{"ISO 9660 filesystem", 32769, "CD001", 5},
	{"NTFS filesystem", 3, "NTFS    ", 8},
	{"exFAT filesystem", 3, "EXFAT   ", 8},
	{"FAT filesystem", 54, "FAT1", 4},
	{"FAT32 filesystem", 82, "FAT32   ", 8},
	/* Last: FAT, NTFS and friends carry it too, and say more above. */
	{"MBR partition table or boot sector", 510, "\x55\xaa", 2},
};

const char *disk_signature_find(const uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(signatures) / sizeof(signatures[0]); i++) {
		const struct signature *s = &signatures[i];

		if (s->offset + s->len <= len && !memcmp(buf + s->offset, s->magic, s->len))
			return s->name;
	}
	return NULL;
}

/* Where a signature near the end sits, from the device's size. */
struct end_signature {
	const char *name;
	uint64_t (*offset)(uint64_t dev_size); /* UINT64_MAX: the device is too small */
	const char *magic;
	size_t len;
};

#define MD_MAGIC_LE "\xfc\x4e\x2b\xa9" /* 0xa92b4efc, little-endian (x86) */

/* md 0.90: MD_NEW_SIZE_SECTORS, the last 64 KiB boundary minus 64 KiB. */
static uint64_t md090_offset(uint64_t size)
{
	uint64_t boundary = size & ~(uint64_t)(64 * 1024 - 1);

	return boundary >= 64 * 1024 ? boundary - 64 * 1024 : UINT64_MAX;
}

/* md 1.0: 8 KiB before the end, rounded down to 4 KiB. */
static uint64_t md10_offset(uint64_t size)
{
	return size >= 8192 ? (size - 8192) & ~(uint64_t)4095 : UINT64_MAX;
}

static uint64_t gpt512_offset(uint64_t size)
{
	return size >= 512 ? (size & ~(uint64_t)511) - 512 : UINT64_MAX;
}

static uint64_t gpt4k_offset(uint64_t size)
{
	return size >= 4096 ? (size & ~(uint64_t)4095) - 4096 : UINT64_MAX;
}

static const struct end_signature end_signatures[] = {
	{"md RAID superblock 0.90", md090_offset, MD_MAGIC_LE, 4},
	{"md RAID superblock 1.0", md10_offset, MD_MAGIC_LE, 4},
	{"GPT backup partition table", gpt512_offset, "EFI PART", 8},
	{"GPT backup partition table (4 KiB sectors)", gpt4k_offset, "EFI PART", 8},
};

const char *disk_signature_find_end(const uint8_t *buf, size_t len, uint64_t dev_size)
{
	uint64_t base;

	if (len > dev_size)
		return NULL;
	base = dev_size - len;
	for (size_t i = 0; i < sizeof(end_signatures) / sizeof(end_signatures[0]); i++) {
		const struct end_signature *s = &end_signatures[i];
		uint64_t off = s->offset(dev_size);

		if (off == UINT64_MAX || off < base || off - base + s->len > len)
			continue;
		if (!memcmp(buf + (off - base), s->magic, s->len))
			return s->name;
	}
	return NULL;
}

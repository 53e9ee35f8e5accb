// SPDX-License-Identifier: GPL-2.0
/* Known signatures at the start of a device; see disk_signature.h. */
#include "disk_signature.h"

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

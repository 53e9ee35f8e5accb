/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A GUID partition table reader, small enough for PID 1: the appliance has
 * no udev and no blkid, yet iomatrix.results=disk:PARTLABEL=x and
 * disk:PARTUUID=x name a partition by what its GPT entry says. The rules
 * are the kernel's (block/partitions/efi.c), so that a partition found
 * here is one the kernel made:
 *
 *   - a protective MBR (a partition of type 0xee) in sector 0;
 *   - the header at LBA 1 ("EFI PART", revision, a header size from 92 to
 *     one logical block, its CRC-32, "my LBA" 1, usable LBAs inside the
 *     device, 128-byte entries, the entry array's CRC-32); when it does
 *     not hold, the backup header in the last LBA, checked the same way;
 *   - an entry is a partition when its type GUID is not zero and its LBAs
 *     lie within the usable ones; it is partition number index + 1, as
 *     Linux numbers them (sysfs: /sys/class/block/NAME/partition).
 *
 * PARTUUID is the entry's unique GUID, PARTLABEL its name (UTF-16LE in the
 * entry, UTF-8 here), both as blkid shows them.
 */
#ifndef IOMATRIX_RECORDS_GPT_H
#define IOMATRIX_RECORDS_GPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GPT_PARTS_MAX	256  /* the kernel's DISK_MAX_PARTS */
#define GPT_ENTRIES_MAX 4096 /* entries in the array we read (128 is usual) */
#define GPT_GUID_STR	37   /* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" and NUL */
#define GPT_LABEL_MAX	144  /* bytes of a name in UTF-8 (36 UTF-16 units), NUL included */
#define GPT_ERR_LEN	256

struct gpt_partition {
	uint32_t number; /* from 1: the entry's index + 1 */
	uint64_t first_lba, last_lba;
	char type[GPT_GUID_STR];
	char uuid[GPT_GUID_STR];   /* PARTUUID, lowercase */
	char label[GPT_LABEL_MAX]; /* PARTLABEL, UTF-8 ("" when empty) */
};

struct gpt_table {
	uint32_t block_size; /* the logical block size the GPT was found with */
	bool from_backup;    /* the primary header was damaged; the backup was read */
	char disk_uuid[GPT_GUID_STR];
	size_t count;
	struct gpt_partition parts[GPT_PARTS_MAX];
};

/* Random access to a device or an image: 0, or -errno. */
struct gpt_reader {
	int (*read_at)(void *ctx, void *buf, size_t len, uint64_t off);
	void *ctx;
	uint64_t size;	     /* bytes */
	uint32_t block_size; /* the device's logical block size; 0: try 512, then 4096 */
};

/*
 * Reads the partition table. Returns 0 with t filled, or -1 with why in err
 * (no protective MBR, no valid header, an unreadable device).
 */
int gpt_read(const struct gpt_reader *r, struct gpt_table *t, char *err, size_t errlen);

/* The same over a buffer holding a whole image. */
int gpt_read_buffer(const void *buf, size_t len, uint32_t block_size, struct gpt_table *t,
		    char *err, size_t errlen);

/* Partitions by PARTLABEL (exact) or PARTUUID (case-insensitive); NULL when none. */
const struct gpt_partition *gpt_find_label(const struct gpt_table *t, const char *label);
const struct gpt_partition *gpt_find_uuid(const struct gpt_table *t, const char *uuid);

#endif

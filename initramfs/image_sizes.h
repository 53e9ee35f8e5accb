/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting where the image's bytes go. The meter sits between the cpio
 * writer and the compressor: it counts raw bytes per part, and when the
 * part changes it flushes the compressor, so the compressed bytes that
 * came out since the last change belong to the part before. Entries are
 * written sorted by path, which keeps each part mostly together, so only a
 * few flushes happen; each costs a few bytes.
 */
#ifndef IOMATRIX_INITRAMFS_IMAGE_SIZES_H
#define IOMATRIX_INITRAMFS_IMAGE_SIZES_H

#include <stdint.h>
#include <stdio.h>

#include "lib/compress.h"
#include "initramfs/image_tree.h"

struct size_meter {
	struct compressor *comp;
	enum image_part current;
	uint64_t raw[PART_COUNT];
	uint64_t packed[PART_COUNT];
	uint64_t files[PART_COUNT];
	uint64_t packed_mark; /* compressor output at the last part change */
};

void size_meter_init(struct size_meter *m, struct compressor *comp);
/* A cpio_sink_fn: counts and forwards to the compressor. */
int size_meter_write(void *meter, const void *buf, size_t len, char *err, size_t errlen);
/* An image_part_fn: switches the part bytes are counted in. */
int size_meter_part(void *meter, enum image_part part, char *err, size_t errlen);
/* Finish the compressed stream and account its last bytes. */
int size_meter_finish(struct size_meter *m, char *err, size_t errlen);

/* Count regular files per part from the tree. */
void size_meter_count_files(struct size_meter *m, const struct image_tree *t);

/* The breakdown table, as the command prints it. */
void size_meter_print(const struct size_meter *m, FILE *f);

#endif

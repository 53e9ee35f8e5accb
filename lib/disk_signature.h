/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recognising what a device holds from its first bytes: partition tables,
 * filesystems, RAID and volume-manager labels, and iomatrix's own results
 * log. Before the runner writes over a device it asks here, and refuses
 * unless told to destroy what it found. Signatures near the end of a device
 * (md 0.90 and 1.0 superblocks, a GPT backup header) have a function of
 * their own: the caller reads the device's last DISK_SIGNATURE_TAIL_SPAN
 * bytes for it.
 */
#ifndef IOMATRIX_LIB_DISK_SIGNATURE_H
#define IOMATRIX_LIB_DISK_SIGNATURE_H

#include <stddef.h>
#include <stdint.h>

/* Bytes from the start of a device that disk_signature_find needs to see. */
#define DISK_SIGNATURE_SPAN (68 * 1024)

/*
 * The name of the first signature found in buf (the device's first len
 * bytes; signatures beyond len are not looked for), or NULL.
 */
const char *disk_signature_find(const uint8_t *buf, size_t len);

/* Bytes at the end of a device that disk_signature_find_end needs to see. */
#define DISK_SIGNATURE_TAIL_SPAN (128 * 1024)

/*
 * The name of the first signature found near the end of a device of
 * dev_size bytes, or NULL. buf holds the device's last len bytes, i.e.
 * bytes [dev_size - len, dev_size) (len <= dev_size). Knows md 0.90 (64 KiB
 * below the last 64 KiB boundary), md 1.0 (8 KiB before the end, 4 KiB
 * aligned) and a GPT backup header (the last 512-byte or 4 KiB sector).
 */
const char *disk_signature_find_end(const uint8_t *buf, size_t len, uint64_t dev_size);

#endif

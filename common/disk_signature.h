/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recognising what a device holds from its first bytes: partition tables,
 * filesystems, RAID and volume-manager labels, and iomatrix's own results
 * log. Before the runner writes over a device it asks here, and refuses
 * unless told to destroy what it found. Signatures near the END of a device
 * (md 0.90/1.0 superblocks, a GPT backup) are not looked for.
 */
#ifndef IOMATRIX_DISK_SIGNATURE_H
#define IOMATRIX_DISK_SIGNATURE_H

#include <stddef.h>
#include <stdint.h>

/* Bytes from the start of a device that disk_signature_find needs to see. */
#define DISK_SIGNATURE_SPAN (68 * 1024)

/*
 * The name of the first signature found in buf (the device's first len
 * bytes; signatures beyond len are not looked for), or NULL.
 */
const char *disk_signature_find(const uint8_t *buf, size_t len);

#endif

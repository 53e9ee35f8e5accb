/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a device holds, and making it blank again. Before a disk is used
 * the runner looks at its first and last bytes (lib/disk_signature.h);
 * after a cell it zeroes the places where signatures live, so the next
 * cell's mdadm and mkfs find a blank disk and an old filesystem can never
 * reappear inside a new array:
 *
 *   - the first 1 MiB: partition tables, ext2/3/4, XFS, btrfs's primary
 *     superblock (64 KiB), md 1.1 and 1.2 superblocks, LVM, swap;
 *   - 4 KiB at 64 MiB: btrfs's first superblock mirror;
 *   - the last 1 MiB: md 0.90 and 1.0 superblocks, the GPT backup.
 *
 * That is what wipefs -a would erase for the filesystems and arrays the
 * runner makes, without depending on wipefs being in the image.
 */
#ifndef IOMATRIX_RUNNER_SETUP_WIPE_H
#define IOMATRIX_RUNNER_SETUP_WIPE_H

#include <stddef.h>
#include <stdint.h>

#include "runner/setup/step.h"

#define WIPE_SPAN	  (1u << 20)
#define WIPE_BTRFS_MIRROR (64ull << 20)
#define WIPE_MIRROR_LEN	  4096

/*
 * The first signature found at the start or the end of the device at path
 * into *found (NULL: blank). *size gets its size in bytes. Returns 0, or
 * -1 with the cause in err (cannot open or read it).
 */
int wipe_probe(const char *path, const char **found, uint64_t *size, char *err, size_t errlen);

/*
 * Zeroes the places above on the device at path and syncs it. step names
 * the step in e on failure ("wipe").
 */
int wipe_device(const char *path, const char *step, struct step_error *e);

#endif

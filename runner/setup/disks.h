/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The block devices the kernel found, from sysfs: name, size, model,
 * serial. Listing touches nothing; which disks may be used is decided
 * elsewhere (iomatrix.disks). ram, loop and zram devices are left out
 * unless in use: loop and zram when they have a size, ram when named in
 * iomatrix.disks (brd's disks always have one).
 *
 * Functions take the sysfs root ("/sys") so tests can build a fake tree.
 */
#ifndef IOMATRIX_RUNNER_SETUP_DISKS_H
#define IOMATRIX_RUNNER_SETUP_DISKS_H

#include <stdbool.h>
#include <stddef.h>

#define DISKS_MAX     64
#define DISKS_ERR_LEN 512

struct disk {
	char name[32];	    /* vda, nvme0n1, sda */
	char transport[16]; /* virtio, nvme, scsi, ... from the name */
	unsigned long long size_bytes;
	char model[64];	 /* "" when the device has none (virtio) */
	char serial[64]; /* "" when the device has none */
	bool rotational;
	bool read_only;
};

struct disk_list {
	struct disk d[DISKS_MAX];
	size_t count;
};

/*
 * Lists sysfs_root/block, sorted by name. named: the iomatrix.disks value
 * (for ram devices). Returns 0, or -1 with the reason in err.
 */
int disks_scan(const char *sysfs_root, const char *named, struct disk_list *out, char *err,
	       size_t errlen);

/*
 * Waits, at most max_seconds, until the disks have settled: every NVMe
 * controller is live, every device named in the comma-separated list
 * wanted exists (words holding '=' or ':' are not names and are not waited
 * for), and the set of block devices did not change between two looks
 * 100 ms apart. Returns 0, or -1 with what was still missing in err.
 */
int disks_wait(const char *sysfs_root, const char *wanted, double max_seconds, char *err,
	       size_t errlen);

/* "1.0 GiB", "512 MiB": a size for people. */
const char *disks_human_size(unsigned long long bytes, char *buf, size_t len);

#endif

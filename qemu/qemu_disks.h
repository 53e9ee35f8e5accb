/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The disks `iomatrix qemu` gives the guest: sparse files it creates
 * (serials iomatrix-disk0, iomatrix-disk1, ...), and files or block devices
 * passed through as they are (serials iomatrix-pass0, ...). A block device
 * that is mounted on the host, in use as swap, or held by another device
 * (md, dm) is refused: the guest would write over it.
 */
#ifndef IOMATRIX_QEMU_QEMU_DISKS_H
#define IOMATRIX_QEMU_QEMU_DISKS_H

#include <stdbool.h>
#include <stddef.h>

#define QD_ERR_LEN 1024
#define QD_MAX	   32

struct qemu_disk {
	char path[4096];
	char serial[21]; /* virtio-blk keeps 20 bytes of a serial */
	bool block_device;
	bool created; /* made by us in a temporary directory: removed at exit */
};

/*
 * Makes n sparse files of size bytes in dir (disk0.img ...). A file that
 * is already there is reused when it has that size (so --disk-dir keeps
 * disks across boots) and refused otherwise.
 */
int qd_create(const char *dir, int n, unsigned long long size, bool temporary,
	      struct qemu_disk *out, char *err, size_t errlen);

/*
 * Checks a disk passed through (option names it in errors: "--disk") and
 * fills d (index gives the serial).
 */
int qd_passthrough(const char *option, const char *path, int index, struct qemu_disk *d,
		   char *err, size_t errlen);

/* Creates path as a sparse file of size bytes; it must not exist yet. */
int qd_create_file(const char *path, unsigned long long size, char *err, size_t errlen);

#endif

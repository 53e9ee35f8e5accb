/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which disks the appliance may write to. Disks are precious: a disk is
 * used only when it is allowed and blank.
 *
 * Allowed: the disks iomatrix.disks= names, in the order named; each word
 * is a kernel name (vdb), its /dev path (/dev/vdb), a serial number
 * (iomatrix-disk0), or a by-path name as udev would make it
 * (pci-0000:00:04.0, with or without /dev/disk/by-path/; NVMe namespaces
 * end in -nvme-N). A word that matches no disk, or more than one, is an
 * error. Without iomatrix.disks, only the disks whose serial starts with
 * "iomatrix-disk" are allowed: the scratch disks `iomatrix qemu` creates.
 * On any other machine nothing is touched until disks are named.
 *
 * Refused, even when allowed: a disk that holds the results log
 * (iomatrix.results=disk:..., or the disk of that partition), a read-only
 * or empty disk, an md or dm device, and a disk whose first or last bytes
 * hold a partition table, a filesystem or a RAID superblock, unless
 * iomatrix.wipe=1 (then those are zeroed first, wipe.h). After a crash the
 * disks of the run hold its own leftovers (md superblocks, filesystems):
 * a disk the results log names as one this run used is wiped without
 * iomatrix.wipe; any other disk with data is still refused.
 */
#ifndef IOMATRIX_RUNNER_SETUP_DISK_SELECT_H
#define IOMATRIX_RUNNER_SETUP_DISK_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "runner/setup/disks.h"

#define DISK_SELECT_ERR_LEN	   512

struct disk_choice {
	struct disk disk;
	char path[48];	   /* /dev/NAME */
	char by_path[128]; /* "pci-0000:00:04.0", "" when unknown */
	bool allowed;	   /* named, or by the default rule */
	int order;	   /* position among the allowed (the order named) */
	char refused[256]; /* why an allowed disk is not used; "" when it is */
	const char *wiped; /* the signature iomatrix.wipe destroyed, or NULL */
	bool own;	   /* what it held was this run's, left by an earlier boot */
};

struct disk_selection {
	struct disk_choice all[DISKS_MAX]; /* every disk found, by name */
	size_t count;
	struct disk_choice *use[DISKS_MAX]; /* usable, in order: cells take the first N */
	size_t nuse;
};

/*
 * Decides which of the disks found are allowed: words is iomatrix.disks,
 * results the kernel names (comma-separated) of the disks that hold the
 * results log, which are refused. sysfs_root ("/sys") gives the by-path
 * names. Returns 0, or -1 with one line in err (a word matching no disk or
 * several: it lists the disks there are).
 */
int disk_select(const struct disk_list *found, const char *sysfs_root, const char *words,
		const char *results, struct disk_selection *out, char *err, size_t errlen);

/*
 * Looks at every allowed disk (its /dev node): refuses what holds a
 * signature, or zeroes it when wipe is set or the disk is one of own (ids
 * as disk_choice_id gives them, comma-separated: the disks this run used
 * on earlier boots; may be NULL); then fills out->use. A disk that cannot
 * be read is refused, not fatal.
 */
void disk_select_check(struct disk_selection *s, bool wipe, const char *own);

/* What names a disk across boots: its serial, else its by-path name, else its kernel name. */
const char *disk_choice_id(const struct disk_choice *c);

/* The udev by-path name of a block device from its sysfs link, "" when none. */
void disk_by_path(const char *sysfs_root, const char *name, char *out, size_t len);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Filesystems for a cell: mkfs with the cell's options (unattended: the
 * tool's force and quiet flags are added), mount with the cell's options,
 * umount. Generic mount options (noatime, ro, sync, ...) become mount(2)
 * flags as mount(8) does; the rest go to the filesystem as its data.
 */
#ifndef IOMATRIX_RUNNER_SETUP_FS_H
#define IOMATRIX_RUNNER_SETUP_FS_H

#include <stddef.h>

#include "matrix/matrix.h"
#include "runner/setup/step.h"

#define FS_ARGV_MAX 64

/*
 * The mkfs command for fs over dev with the cell's options (blank-separated
 * words), NULL-terminated in argv (at most max entries), the words copied
 * into buf. Returns the count, or -1 when they do not fit.
 */
int fs_mkfs_argv(enum fs_type fs, const char *options, const char *dev, const char **argv, int max,
		 char *buf, size_t buflen);

/* Runs mkfs; cmd gets the command line as run. */
int fs_mkfs(const struct cell *c, const char *dev, double timeout, char *cmd, size_t cmdlen,
	    struct step_error *e);

/*
 * Splits a mount -o string into mount(2) flags and the filesystem's own
 * options (data, comma-separated, "" for none). Returns 0.
 */
int fs_mount_options(const char *options, unsigned long *flags, char *data, size_t datalen);

/* mkdir dir and mount dev there as the cell's filesystem. */
int fs_mount(const struct cell *c, const char *dev, const char *dir, struct step_error *e);

/* umount, retried while busy for up to timeout seconds. */
int fs_umount(const char *dir, double timeout, struct step_error *e);

#endif

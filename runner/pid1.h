/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What PID 1 sets up before anything else: the filesystems every tool
 * expects (devtmpfs on /dev, proc, sysfs, tmpfs on /run and /tmp), the
 * console as stdin, stdout and stderr, a PATH, and the directory mdadm
 * keeps its map in (/run/mdadm: it runs without udev).
 */
#ifndef IOMATRIX_RUNNER_PID1_H
#define IOMATRIX_RUNNER_PID1_H

#include <stddef.h>

/* Returns 0, or -1 with what failed (the mount point and strerror) in err. */
int pid1_setup(char *err, size_t errlen);

#endif

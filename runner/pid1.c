// SPDX-License-Identifier: GPL-2.0
/* PID 1's mounts and console. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner/pid1.h"

static const struct {
	const char *source, *target, *fstype;
	unsigned long flags;
	const char *data;
} mounts[] = {
	{"devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755"},
	{"proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL},
	{"sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL},
	{"tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755"},
	{"tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777"},
};

static const char *const run_dirs[] = {"/run/mdadm"};

/* The console on 0, 1 and 2: the kernel's /dev/console from the image may be gone under /dev. */
static int open_console(char *err, size_t errlen)
{
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);

	if (fd < 0) {
		snprintf(err, errlen, "cannot open /dev/console: %s", strerror(errno));
		return -1;
	}
	for (int i = 0; i < 3; i++)
		if (fd != i && dup2(fd, i) < 0) {
			snprintf(err, errlen, "dup2 of /dev/console to fd %d: %s", i,
				 strerror(errno));
			return -1;
		}
	if (fd > 2)
		close(fd);
	return 0;
}

int pid1_setup(char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(mounts) / sizeof(mounts[0]); i++) {
		if (mkdir(mounts[i].target, 0755) && errno != EEXIST) {
			snprintf(err, errlen, "mkdir %s: %s", mounts[i].target, strerror(errno));
			return -1;
		}
		/* EBUSY: the kernel mounted it already (devtmpfs with DEVTMPFS_MOUNT). */
		if (mount(mounts[i].source, mounts[i].target, mounts[i].fstype, mounts[i].flags,
			  mounts[i].data) &&
		    errno != EBUSY) {
			snprintf(err, errlen, "mount %s on %s: %s", mounts[i].fstype,
				 mounts[i].target, strerror(errno));
			return -1;
		}
	}
	for (size_t i = 0; i < sizeof(run_dirs) / sizeof(run_dirs[0]); i++)
		if (mkdir(run_dirs[i], 0755) && errno != EEXIST) {
			snprintf(err, errlen, "mkdir %s: %s", run_dirs[i], strerror(errno));
			return -1;
		}
	if (open_console(err, errlen))
		return -1;
	/* A console line to a closed pipe must not kill PID 1. */
	signal(SIGPIPE, SIG_IGN);
	if (setenv("PATH", "/sbin:/bin:/usr/sbin:/usr/bin", 1) || setenv("HOME", "/", 1)) {
		snprintf(err, errlen, "setenv: %s", strerror(errno));
		return -1;
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/* Readahead, IO scheduler, dropping caches; see tune.h. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "runner/machine_info.h"
#include "runner/setup/tune.h"

int tune_readahead(const char *dev, int sectors, long *now, struct step_error *e)
{
	char what[STEP_COMMAND_MAX];
	int fd = open(dev, O_RDONLY | O_CLOEXEC);

	*now = -1;
	snprintf(what, sizeof(what), "ioctl(%s, BLKRASET, %d)", dev, sectors);
	if (fd < 0) {
		step_fail(e, "readahead", what, strerror(errno), NULL);
		return -1;
	}
	if (sectors >= 0 && ioctl(fd, BLKRASET, (unsigned long)sectors)) {
		step_fail(e, "readahead", what, strerror(errno), NULL);
		close(fd);
		return -1;
	}
	if (ioctl(fd, BLKRAGET, now)) {
		snprintf(what, sizeof(what), "ioctl(%s, BLKRAGET)", dev);
		step_fail(e, "readahead", what, strerror(errno), NULL);
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

void tune_scheduler_current(const char *text, char *out, size_t len)
{
	const char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;

	out[0] = '\0';
	if (open && close)
		snprintf(out, len, "%.*s", (int)(close - open - 1), open + 1);
	else if (!strncmp(text, "none", 4))
		snprintf(out, len, "none");
}

int tune_scheduler(const char *sysfs_root, const char *disk, const char *sched, char *now,
		   size_t len, struct step_error *e)
{
	char path[256], what[STEP_COMMAND_MAX], text[256], why[128];
	int fd, ret;

	now[0] = '\0';
	snprintf(path, sizeof(path), "%s/block/%s/queue/scheduler", sysfs_root, disk);
	if (sched) {
		snprintf(what, sizeof(what), "echo %s > %s", sched, path);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, sched, strlen(sched)) < 0) {
			snprintf(why, sizeof(why), "%s", strerror(errno));
			if (fd >= 0)
				close(fd);
			read_text_file(path, text, sizeof(text));
			text[strcspn(text, "\n")] = '\0';
			step_fail(e, "scheduler", what, why,
				  text[0] ? text : "the disk has no scheduler");
			return -1;
		}
		close(fd);
	}
	ret = read_text_file(path, text, sizeof(text));
	if (ret == -ENOENT)
		return 0;
	if (ret) {
		snprintf(what, sizeof(what), "read %s", path);
		step_fail(e, "scheduler", what, strerror(-ret), NULL);
		return -1;
	}
	tune_scheduler_current(text, now, len);
	if (sched && strcmp(now, sched)) {
		snprintf(what, sizeof(what), "echo %s > %s", sched, path);
		text[strcspn(text, "\n")] = '\0';
		step_fail(e, "scheduler", what, "not in effect after writing it", text);
		return -1;
	}
	return 0;
}

int tune_drop_caches(struct step_error *e)
{
	int fd;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "3", 1) != 1) {
		step_fail(e, "drop_caches", "echo 3 > /proc/sys/vm/drop_caches", strerror(errno),
			  NULL);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}
